#!/usr/bin/env python3
"""The scorer on corpora made from the truth itself: a perfect corpus scores 1 everywhere,
and one with a running head, a page number, a split word and a lost code line scores less."""
import copy
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import score_corpus  # noqa: E402

BOOKS = os.path.normpath(os.path.join(HERE, "..", "..", "fixtures", "books"))


def corpus_of(gt):
    return [{"book": gt["book"], "title": ch["title"], "index": i,
             "blocks": [dict(b, text=b.get("text", "")) if b["type"] != "figure" else {"type": "figure", "image": "x.png"}
                        for b in ch["blocks"]]}
            for i, ch in enumerate(gt["chapters"], 1)]


def main():
    failures = []
    for path in sorted(glob.glob(os.path.join(BOOKS, "*.gt.json"))):
        gt = json.load(open(path, encoding="utf-8"))
        s = score_corpus.score(gt, corpus_of(gt))
        for m in ("word_recall", "word_precision", "code_block_exact", "figure_recall", "chapter_match"):
            if s[m] is not None and s[m] < 1.0:
                failures.append("%s: perfect corpus scores %s %s" % (gt["book"], m, s[m]))
        if s["furniture_leaks_per_page"] or s["hyphen_splits"]:
            failures.append("%s: perfect corpus has leaks %s" % (gt["book"], s))
        # damage it: a running head, page numbers, a split word, a code line dropped
        bad = corpus_of(gt)
        blocks = bad[0]["blocks"]
        para = next(b for b in blocks if b["type"] == "paragraph")
        heads = gt["furniture"]["running_heads"]
        para["text"] = para["text"] + "\n" + (heads[-1] if heads else "") + "\n12\n"
        blocks.insert(2, {"type": "paragraph", "text": "13"})
        w = next(x for x in para["text"].split() if len(x) > 8 and x.isalpha())
        para["text"] = para["text"].replace(w, w[:4] + "-\n" + w[4:], 1)
        code = next((b for ch in bad for b in ch["blocks"] if b["type"] == "code"), None)
        if code:
            code["text"] = "\n".join(code["text"].split("\n")[1:])
        d = score_corpus.score(gt, bad)
        if not (d["furniture_leaks_per_page"] > 0 and d["hyphen_splits"] >= 1
                and (code is None or d["code_block_exact"] < 1.0) and d["word_precision"] < 1.0):
            failures.append("%s: damaged corpus not seen: %s" % (gt["book"], d))
        print(gt["book"], json.dumps({"perfect": s, "damaged": d}))
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
