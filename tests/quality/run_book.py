#!/usr/bin/env python3
"""Build one fixture book with quire and score its corpus against the truth.

    python3 tests/quality/run_book.py --quire BUILD/quire --book fixtures/books/ts-groff.gt.json \
        [--floors tests/quality/floors.json] [--json]

Without --floors it prints the scores; with it, it exits non-zero when a score is
under its floor (or, for the counts where less is better, over its ceiling).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import score_corpus  # noqa: E402

# metric -> True when higher is better
METRICS = {
    "word_recall": True, "word_precision": True, "word_f1": True, "code_block_exact": True,
    "code_line_exact": True, "figure_recall": True, "chapter_match": True,
    "furniture_leaks_per_page": False, "hyphen_splits": False,
}


def build_and_score(quire, gt_path):
    with open(gt_path, encoding="utf-8") as f:
        gt = json.load(f)
    book = os.path.basename(gt_path)[:-len(".gt.json")]
    pdf = os.path.join(os.path.dirname(gt_path), book + ".pdf")
    with tempfile.TemporaryDirectory(prefix="quire-quality-") as tmp:
        src = os.path.join(tmp, "in")
        os.makedirs(src)
        shutil.copyfile(pdf, os.path.join(src, book + ".pdf"))
        out = os.path.join(tmp, "out")
        p = subprocess.run([quire, "build", src, "-o", out, "--jobs", "1"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        corpus = os.path.join(out, "corpus.jsonl")
        # 0: built; 3: built, with warnings (findings); anything else is a failure
        if p.returncode not in (0, 3) or not os.path.exists(corpus):
            raise SystemExit("%s: quire build failed (%d): %s" % (book, p.returncode, p.stderr[-2000:]))
        chapters = score_corpus.load_corpus(corpus, None)
        # one book in the corpus: its id is the file name
        chapters = [c for c in chapters if c.get("book") in (None, book, gt.get("book"))]
        return score_corpus.score(gt, chapters)


def check(scores, floors):
    bad = []
    for m, bound in sorted(floors.items()):
        v = scores.get(m)
        if v is None:
            continue
        if METRICS.get(m, True):
            if v < bound:
                bad.append("%s %.4f under its floor %.4f" % (m, v, bound))
        elif v > bound:
            bad.append("%s %.4f over its ceiling %.4f" % (m, v, bound))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quire", required=True)
    ap.add_argument("--book", required=True)
    ap.add_argument("--floors")
    a = ap.parse_args()
    scores = build_and_score(a.quire, a.book)
    print(json.dumps(scores))
    if a.floors:
        with open(a.floors, encoding="utf-8") as f:
            table = json.load(f)
        book = os.path.basename(a.book)[:-len(".gt.json")]
        if book not in table["books"]:
            print("%s: no floors in %s" % (book, a.floors))
            return 1
        bad = check(scores, table["books"][book])
        for b in bad:
            print("%s: %s" % (book, b))
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
