#!/usr/bin/env python3
"""Block-by-block difference between two corpora of the same books (a regression check).

    tools/shelf-diff.py OLD_OUT NEW_OUT [--show N]

Builds of the same shelf with two binaries: for each book, each chapter's blocks are compared
as (type, text, labels) sequences; the books that changed are listed with how many blocks were
removed, added, or changed type, and with --show N the first N differing blocks of each.
Exit 0 when every book is identical, 1 otherwise."""
import difflib, json, os, sys


def chapters(out, book):
    d = os.path.join(out, "books", book)
    res = {}
    try:
        bj = json.load(open(os.path.join(d, "book.json"), encoding="utf-8"))
    except OSError:
        return None
    for c in bj.get("chapters", []):
        p = os.path.join(out, c["blocks"])
        blocks = json.load(open(p, encoding="utf-8")).get("blocks", [])
        res[c["id"]] = [f'{b.get("type")}|{b.get("text", "")}|{"/".join(b.get("labels", []))}' for b in blocks]
    return res


def main():
    args = sys.argv[1:]
    show = 0
    if "--show" in args:
        i = args.index("--show"); show = int(args[i + 1]); del args[i:i + 2]
    old, new = args
    books = sorted(set(os.listdir(os.path.join(old, "books"))) | set(os.listdir(os.path.join(new, "books"))))
    changed = 0
    for b in books:
        a, c = chapters(old, b), chapters(new, b)
        if a == c:
            continue
        changed += 1
        if a is None or c is None:
            print(f"{b}: only in {'new' if a is None else 'old'}")
            continue
        ra = [x for k in sorted(a) for x in a[k]]
        rc = [x for k in sorted(c) for x in c[k]]
        sm = difflib.SequenceMatcher(None, ra, rc, autojunk=False)
        rem = add = 0
        shown = []
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op == "equal":
                continue
            rem += i2 - i1; add += j2 - j1
            if len(shown) < show:
                shown.append((ra[i1:i2], rc[j1:j2]))
        chs = "" if sorted(a) == sorted(c) else f", chapters {len(a)} -> {len(c)}"
        print(f"{b}: -{rem} +{add} blocks{chs}")
        for o, n in shown:
            for x in o[:3]: print("    - " + x[:160].replace("\n", "\\n"))
            for x in n[:3]: print("    + " + x[:160].replace("\n", "\\n"))
    print(f"{changed} of {len(books)} books differ")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
