#!/usr/bin/env python3
"""The project's own scorer: one book's quire corpus against its ground truth.

    python3 tests/quality/score_corpus.py BOOK.gt.json OUT/corpus.jsonl   # prints one JSON line

Python 3 standard library only, so it runs in CI with nothing but the repository.
It follows the definitions of the shared evaluation (`FORMAT.md`: word recall and
precision by an order-aware word alignment after NFKC, furniture leaks per page, code
blocks exact, figure recall, line-end hyphen splits, chapters found), simplified where
noted, so its numbers are close to, not identical with, the shared scorer's.
"""

import difflib
import json
import re
import sys
import unicodedata

WORD = re.compile(r"\w+")
ZW = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))


def norm(s):
    return unicodedata.normalize("NFKC", s).translate(ZW).replace("\r", "\n").replace("\f", "\n")


def words(s):
    return WORD.findall(norm(s).casefold())


# ---------------------------------------------------------------------------
# alignment: exact-match runs found by difflib (no junk heuristic), then the gaps
# between runs solved exactly by an LCS table when small (chunked, so it stays fast)

GAP_CELLS = 4_000_000


def lcs_pairs(a, b, ia, ib):
    n, m = len(a), len(b)
    if n == 0 or m == 0 or n * m > GAP_CELLS:
        return []
    prev = [0] * (m + 1)
    rows = []
    for i in range(n):
        cur = [0] * (m + 1)
        ai = a[i]
        for j in range(m):
            cur[j + 1] = prev[j] + 1 if ai == b[j] else (prev[j + 1] if prev[j + 1] >= cur[j] else cur[j])
        rows.append(prev)
        prev = cur
    rows.append(prev)
    out = []
    i, j = n, m
    while i > 0 and j > 0:
        if a[i - 1] == b[j - 1] and rows[i][j] == rows[i - 1][j - 1] + 1:
            out.append((ia + i - 1, ib + j - 1))
            i -= 1
            j -= 1
        elif rows[i - 1][j] >= rows[i][j - 1]:
            i -= 1
        else:
            j -= 1
    out.reverse()
    return out


def align(a, b):
    """pairs (i, j) of an order-preserving word alignment of sequences a and b"""
    ids = {}
    ai = [ids.setdefault(w, len(ids)) for w in a]
    bi = [ids.setdefault(w, len(ids)) for w in b]
    sm = difflib.SequenceMatcher(None, ai, bi, autojunk=False)
    pairs = []
    pa = pb = 0
    for blk in sm.get_matching_blocks():
        pairs += lcs_pairs(ai[pa:blk.a], bi[pb:blk.b], pa, pb)
        pairs += [(blk.a + k, blk.b + k) for k in range(blk.size)]
        pa, pb = blk.a + blk.size, blk.b + blk.size
    return pairs


# ---------------------------------------------------------------------------

def load_corpus(path, book=None):
    chapters = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                c = json.loads(line)
                if book is None or c.get("book") in (None, book):
                    chapters.append(c)
    return chapters


def block_text(b):
    t = b.get("text") or ""
    if b.get("type") == "note" and b.get("title"):
        if words(t)[:len(words(b["title"]))] != words(b["title"]):
            t = b["title"] + "\n" + t
    return t


def lis_len(xs):
    import bisect
    tails = []
    for x in xs:
        k = bisect.bisect_left(tails, x)
        if k == len(tails):
            tails.append(x)
        else:
            tails[k] = x
    return len(tails)


ROMAN = re.compile(r"^(?=[ivxlc]+$)c{0,3}(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")


def roman_value(s):
    vals = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
    t = 0
    for i, ch in enumerate(s):
        v = vals[ch]
        t += -v if i + 1 < len(s) and vals[s[i + 1]] > v else v
    return t


def page_number_count(lines, heads):
    arabic, roman = [], []
    head_words = [words(h) for h in heads if words(h)]
    for line in lines:
        s = norm(line).strip().casefold()
        if not s:
            continue
        if re.fullmatch(r"\d{1,4}", s):
            arabic.append(int(s))
            continue
        if ROMAN.match(s):
            roman.append(roman_value(s))
            continue
        w = WORD.findall(s)
        if len(w) >= 2 and any(w[1:] == h or w[:-1] == h for h in head_words):
            for cand in (w[0], w[-1]):
                if cand.isdigit():
                    arabic.append(int(cand))
                    break
    return lis_len(arabic) + lis_len(roman)


def count_seq(seq, pat):
    n = len(pat)
    if n == 0:
        return 0
    first = pat[0]
    return sum(1 for i in range(len(seq) - n + 1) if seq[i] == first and seq[i:i + n] == pat)


def code_lines(text):
    lines = [l.expandtabs(8).rstrip() for l in norm(text).split("\n")]
    lines = [l for l in lines if l.strip()]
    for a, b in (("\u2018", "'"), ("\u2019", "'"), ("\u201c", '"'), ("\u201d", '"'), ("\u2212", "-"),
                 ("\u2026", "...")):
        lines = [l.replace(a, b) for l in lines]
    if not lines:
        return []
    ind = min(len(l) - len(l.lstrip(" ")) for l in lines)
    return [l[ind:] for l in lines]


def code_scores(gt_codes, out_codes):
    """(blocks exact, lines exact): a GT block is exact when its lines, dedented, are a
    contiguous run of an output code block's non-blank lines with the same relative indent"""
    outs = [code_lines(t) for t in out_codes]
    exact_blocks = exact_lines = total_lines = 0
    for g in gt_codes:
        gl = code_lines(g)
        total_lines += len(gl)
        best_block, best_lines = False, 0
        for ol in outs:
            stripped = [l.strip() for l in ol]
            # best line match: difflib on content, then indentation relative to the base offset
            sm = difflib.SequenceMatcher(None, [l.strip() for l in gl], stripped, autojunk=False)
            pairs = [(blk.a + k, blk.b + k) for blk in sm.get_matching_blocks() for k in range(blk.size)]
            if not pairs:
                continue
            offs = {}
            for i, j in pairs:
                d = (len(ol[j]) - len(ol[j].lstrip(" "))) - (len(gl[i]) - len(gl[i].lstrip(" ")))
                offs[d] = offs.get(d, 0) + 1
            base = max(offs, key=offs.get)
            ok = [(i, j) for i, j in pairs
                  if (len(ol[j]) - len(ol[j].lstrip(" "))) - (len(gl[i]) - len(gl[i].lstrip(" "))) == base]
            best_lines = max(best_lines, len(ok))
            if len(ok) == len(gl) and ok[-1][1] - ok[0][1] == len(gl) - 1:
                best_block = True
        exact_blocks += best_block
        exact_lines += best_lines
    n = len(gt_codes)
    return (exact_blocks / n if n else None, exact_lines / total_lines if total_lines else None)


def title_key(t):
    w = words(t)
    while w and (w[0] in ("chapter", "appendix", "part") or w[0].isdigit() or len(w[0]) == 1):
        w = w[1:]
    return " ".join(w)


def lcs_len(a, b):
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def score(gt, out_chapters):
    pages = gt.get("pages") or 1
    # ground truth: body words (footnotes apart), figure positions, code, compounds
    gt_body, gt_fn, gt_figs, gt_codes = [], [], [], []
    gt_all_text = []
    for ch in gt["chapters"]:
        for b in ch["blocks"]:
            if b.get("type") == "figure":
                gt_figs.append(len(gt_body))
                continue
            t = block_text(b)
            gt_all_text.append(t)
            if b.get("type") == "footnote":
                gt_fn += words(t)
            else:
                gt_body += words(t)
            if b.get("type") == "code":
                gt_codes.append(b.get("text", ""))
    gt_wordset = set(gt_body) | set(gt_fn)
    compounds = set()
    for t in gt_all_text:
        compounds.update(m.casefold() for m in re.findall(r"\w+(?:-\w+)+", norm(t)))

    # output: words per chapter, figure positions, code blocks, lines
    out_words, out_ch, out_figs, out_codes, out_texts, out_lines = [], [], [], [], [], []
    for ci, ch in enumerate(out_chapters):
        for b in ch.get("blocks", []):
            if b.get("type") == "figure":
                out_figs.append((len(out_words), ci))
                continue
            t = block_text(b)
            w = words(t)
            out_words += w
            out_ch += [ci] * len(w)
            if b.get("type") == "code":
                out_codes.append((b.get("text", ""), ci))
            out_texts.append((t, ci))
            out_lines += [(l, ci) for l in t.split("\n")]

    pairs = align(gt_body, out_words)
    matched_out = {j for _, j in pairs}
    rest = [j for j in range(len(out_words)) if j not in matched_out]
    fn_pairs = align(gt_fn, [out_words[j] for j in rest])
    matched_out |= {rest[j] for _, j in fn_pairs}

    # body chapters: output chapters that align to the truth
    per_ch_total, per_ch_match = {}, {}
    for j, c in enumerate(out_ch):
        per_ch_total[c] = per_ch_total.get(c, 0) + 1
    for j in matched_out:
        c = out_ch[j]
        per_ch_match[c] = per_ch_match.get(c, 0) + 1
    body = {c for c, n in per_ch_total.items()
            if per_ch_match.get(c, 0) >= 20 or per_ch_match.get(c, 0) >= 0.3 * n}
    body_words = sum(per_ch_total[c] for c in body)
    gt_n = len(gt_body) + len(gt_fn)
    recall = (len(pairs) + len(fn_pairs)) / gt_n if gt_n else 1.0
    precision = len([j for j in matched_out if out_ch[j] in body]) / body_words if body_words else 0.0
    f1 = 2 * recall * precision / (recall + precision) if recall + precision else 0.0

    # furniture
    heads = gt.get("furniture", {}).get("running_heads", [])
    body_seq = [w for j, w in enumerate(out_words) if out_ch[j] in body]
    gt_seq = gt_body + gt_fn
    head_leaks = 0
    for h in sorted(set(heads)):
        hw = words(h)
        head_leaks += max(0, count_seq(body_seq, hw) - count_seq(gt_seq, hw))
    pn_leaks = 0
    if gt.get("furniture", {}).get("page_numbers"):
        gt_lines = [l for t in gt_all_text for l in t.split("\n")]
        pn_leaks = max(0, page_number_count([l for l, c in out_lines if c in body], heads)
                       - page_number_count(gt_lines, heads))
    furniture = (head_leaks + pn_leaks) / pages

    # code
    code_block_exact, code_line_exact = code_scores(gt_codes, [t for t, c in out_codes if c in body])

    # figures: an output figure's position mapped through the alignment to a GT word index
    out_to_gt = sorted((j, i) for i, j in pairs)
    js = [j for j, _ in out_to_gt]
    import bisect
    used = set()
    found = 0
    for pos, c in out_figs:
        if c not in body:
            continue
        k = bisect.bisect_left(js, pos)
        if k < len(js):
            g = out_to_gt[k][1]
        elif js:
            g = out_to_gt[-1][1] + 1
        else:
            continue
        best = None
        for fi, fp in enumerate(gt_figs):
            if fi in used or abs(fp - g) > 500:
                continue
            if best is None or abs(fp - g) < abs(gt_figs[best] - g):
                best = fi
        if best is not None:
            used.add(best)
            found += 1
    figure_recall = found / len(gt_figs) if gt_figs else None
    extra_figures = sum(1 for _, c in out_figs if c in body) - found

    # line-end hyphen splits
    splits = 0
    for t, c in out_texts:
        if c not in body:
            continue
        for m in re.finditer(r"([^\W\d_]+)-[ \t]*\n?[ \t]*([^\W\d_]+)", norm(t)):
            a, b = m.group(1).casefold(), m.group(2).casefold()
            if (a + b) in gt_wordset and (a + "-" + b) not in compounds:
                splits += 1

    # chapters
    gt_titles = [title_key(c.get("title", "")) for c in gt["chapters"]]
    out_titles = [title_key(c.get("title", "")) for c in out_chapters]
    chapter_match = lcs_len(gt_titles, out_titles) / len(gt_titles) if gt_titles else None

    r = lambda x: None if x is None else round(x, 4)  # noqa: E731
    return {"book": gt.get("book"), "pages": pages, "word_recall": r(recall), "word_precision": r(precision),
            "word_f1": r(f1), "furniture_leaks_per_page": r(furniture), "running_head_leaks": head_leaks,
            "page_number_leaks": pn_leaks, "code_block_exact": r(code_block_exact),
            "code_line_exact": r(code_line_exact), "figure_recall": r(figure_recall),
            "extra_figures": extra_figures, "hyphen_splits": splits, "chapter_match": r(chapter_match),
            "gt_words": gt_n, "out_body_words": body_words}


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        gt = json.load(f)
    out = load_corpus(sys.argv[2], gt.get("book"))
    print(json.dumps(score(gt, out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
