#!/usr/bin/env python3
"""Listings of a Texinfo manual's PDF, measured against the same manual's HTML build.

    bench/code_twin.py HTML_DIR BOOK_OUT PDF [--show N]

HTML_DIR holds the manual's HTML pages (one per node, as makeinfo --html makes them; Debian's
octave-doc ships /usr/share/doc/octave/octave.html beside octave.pdf). BOOK_OUT is quire's
output folder of that book (OUT/books/<book>). PDF is the book itself: its text, dumped by
`mutool convert -F text`, decides which examples the PDF prints (Texinfo sets formulas with
TeX in the PDF and as ASCII examples in the HTML; those are left out).

Each <pre class="example"> or "verbatim" block of the HTML is compared, line by line with
blank lines dropped, with the code blocks of the corpus: indentation relative to the block's
least, quotes and dashes unified, "-|" taken as the PDF's result sign. It prints how many are
a code block exactly ("exact"), and how many are a run of consecutive lines of one code block
("inside a block": two examples printed one under the other with a blank line between read as
one listing, as the PDF shows them). --show N prints the first N found in neither way, beside
the code block that holds their first line."""
import glob
import html
import json
import os
import re
import subprocess
import sys
import tempfile

PRE = re.compile(r'<pre class="(example|verbatim)[^"]*">(.*?)</pre>', re.S)
QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2212": "-"})


def lines_of(text):
    """The block's non-blank lines as (indent relative to the least, text without it)."""
    rows = []
    for line in text.split("\n"):
        line = line.expandtabs(8).rstrip().translate(QUOTES).replace("\u2026", "...").replace(". . .", "...")
        if line.strip():
            rows.append((len(line) - len(line.lstrip(" ")), line.strip()))
    if not rows:
        return None
    least = min(i for i, _ in rows)
    return tuple((i - least, t) for i, t in rows)


def html_examples(folder):
    for path in sorted(glob.glob(os.path.join(folder, "*.html"))):
        with open(path, encoding="utf-8", errors="replace") as f:
            page = f.read()
        for m in PRE.finditer(page):
            text = html.unescape(re.sub(r"<[^>]+>", "", m.group(2))).replace("-|", "\u22a3")
            block = lines_of(text)
            if block:
                yield os.path.basename(path), block


def corpus_code(book_out):
    for path in sorted(glob.glob(os.path.join(book_out, "*.json"))):
        if os.path.basename(path) == "book.json":
            continue
        with open(path, encoding="utf-8") as f:
            chapter = json.load(f)
        for b in chapter.get("blocks", []):
            if b.get("type") == "code":
                block = lines_of(b.get("text", ""))
                if block:
                    yield b.get("page"), block


def inside(g, o):
    """g's lines are consecutive lines of o, their indentation shifted alike."""
    for k in range(len(o) - len(g) + 1):
        if o[k][1] != g[0][1]:
            continue
        shift = o[k][0] - g[0][0]
        if all(o[k + j][1] == g[j][1] and o[k + j][0] - shift == g[j][0] for j in range(len(g))):
            return True
    return False


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    html_dir, book_out, pdf = argv[1:4]
    show = int(argv[argv.index("--show") + 1]) if "--show" in argv else 0
    with tempfile.TemporaryDirectory() as tmp:
        dump = os.path.join(tmp, "text.txt")
        subprocess.run(["mutool", "convert", "-F", "text", "-o", dump, pdf], check=True, capture_output=True)
        with open(dump, encoding="utf-8", errors="replace") as f:
            printed = re.sub(r"\s+", "", f.read())
    squeeze = lambda t: re.sub(r"\s+", "", t)
    examples = [(p, g) for p, g in html_examples(html_dir) if squeeze(g[0][1]) in printed and squeeze(g[-1][1]) in printed]
    code = list(corpus_code(book_out))
    whole = {o for _, o in code}
    exact = held = 0
    missed = []
    for page, g in examples:
        if g in whole:
            exact += 1
            held += 1
        elif any(len(o) > len(g) and inside(g, o) for _, o in code):
            held += 1
        else:
            missed.append((page, g))
    n = len(examples)
    if n == 0:
        sys.exit("no HTML example that the PDF prints")
    print(f"examples the PDF prints: {n}; code blocks in the corpus: {len(code)}")
    print(f"exact: {exact} ({exact / n:.3f}); inside a block: {held} ({held / n:.3f})")
    for page, g in missed[:show]:
        print(f"\n== {page}")
        print("\n".join(" " * i + t for i, t in g))
        near = next(((p, o) for p, o in code if any(t == g[0][1] for _, t in o)), None)
        if near:
            print(f"-- code block on page {near[0]}:")
            print("\n".join(" " * i + t for i, t in near[1]))
        else:
            print("-- no code block holds its first line")


if __name__ == "__main__":
    main(sys.argv)
