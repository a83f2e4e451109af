#!/usr/bin/env python3
"""Writes the bad-input corpus into a folder: broken, huge, encrypted and crafted PDFs.

Every file is made here from nothing (no downloads). The expected outcome of each is in
EXPECTED (and documented in docs/bad-input.md); the test runs `quire build` over the folder.
usage: make_hostile.py OUT_DIR [GOOD_PDF]
"""
import os
import random
import shutil
import subprocess
import sys
import zlib


def pdf(objects, trailer_extra=b"", broken_xref=False):
    """Serialises numbered objects (bytes bodies, object 1 = catalog) with a correct xref."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        if broken_xref:
            off = (off * 7 + 13) % max(1, xref)  # wrong offsets: readers must repair
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, trailer_extra, xref)
    return bytes(out)


def stream(data, extra=b""):
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def text_page(content, width=612, height=792, resources=b"<< /Font << /F1 4 0 R >> >>"):
    """Catalog, pages, page, font, contents."""
    return [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources %s /Contents 5 0 R >>"
        % (width, height, resources),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        stream(content),
    ]


def text_ops(lines, x=72, y=720, size=11):
    ops = b"BT /F1 %d Tf %d TL %d %d Td\n" % (size, size + 3, x, y)
    for line in lines:
        esc = line.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
        ops += b"(" + esc + b") Tj T*\n"
    return ops + b"ET"


PROSE = [b"This page has ordinary prose so that the book has words to keep.",
         b"A second line of the same paragraph continues the sentence here."]

# name -> expected outcome: "built" (0), "warned" (built with warnings: 3) or "failed" (error)
EXPECTED = {}


def write(out_dir, name, data, outcome):
    with open(os.path.join(out_dir, name), "wb") as f:
        f.write(data)
    EXPECTED[name] = outcome


def main():
    out_dir = sys.argv[1]
    good = sys.argv[2] if len(sys.argv) > 2 else None
    os.makedirs(out_dir, exist_ok=True)
    rnd = random.Random(1234)
    plain = pdf(text_page(text_ops(PROSE)))

    write(out_dir, "zero-bytes.pdf", b"", "failed")
    write(out_dir, "html-named-pdf.pdf", b"<!doctype html><html><body><h1>Not a PDF</h1></body></html>\n", "failed")
    write(out_dir, "random-with-header.pdf", b"%PDF-1.4\n" + bytes(rnd.getrandbits(8) for _ in range(20000)), "failed")
    if good:
        data = open(good, "rb").read()
        for frac in (0.3, 0.6, 0.95):
            # Truncated files: MuPDF repairs what it can; the outcome is built-with-warnings or a
            # clean per-book error, never a crash (the test accepts either for these).
            write(out_dir, "truncated-%02d.pdf" % int(frac * 100), data[: int(len(data) * frac)], "warned-or-failed")
    write(out_dir, "broken-xref.pdf", pdf(text_page(text_ops(PROSE)), broken_xref=True), "warned")
    write(out_dir, "huge-page.pdf", pdf(text_page(text_ops(PROSE, y=14000), 14400, 14400)), "built")

    # 200,000 small filled paths on one page (a stress for the path device and figure clustering).
    ops = bytearray(b"0 g\n")
    for i in range(200000):
        x = 50 + (i % 500)
        y = 50 + (i // 500) % 700
        ops += b"%d %d 0.8 0.8 re f\n" % (x, y)
    write(out_dir, "many-paths.pdf", pdf(text_page(bytes(ops) + b"\n" + text_ops(PROSE))), "built")

    # A Type3 font with glyph names only and no ToUnicode: its text cannot be mapped to
    # Unicode (MuPDF yields U+FFFD); OCR is off in the test, so the words stay unreadable.
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 7 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] "
        b"/CharProcs << /g1 6 0 R >> /Encoding << /Type /Encoding /Differences [65 /g1 /g1 /g1] >> "
        b"/FirstChar 65 /LastChar 67 /Widths [600 600 600] >>",
        stream(b"BT /F1 12 Tf 72 720 Td (ABCABC ABC) Tj ET\n" + text_ops(PROSE, y=600).replace(b"/F1", b"/F2")),
        stream(b"600 0 0 0 500 700 d1 0 0 500 700 re f"),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    write(out_dir, "no-tounicode.pdf", pdf(objs), "built")

    # Metadata, outline and text full of HTML/Markdown metacharacters, ../, NUL and controls.
    hostile = b"<script>alert(1)</script> *bold* [link](javascript:x) ../../etc/passwd `code` # \x01\x07"
    esc = hostile.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
    objs = text_page(text_ops([hostile, b"<img src=x onerror=alert(2)> & &amp; | table | --- |"] + PROSE))
    objs[0] = b"<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R >>"
    objs.append(b"<< /Type /Outlines /First 7 0 R /Last 7 0 R /Count 1 >>")
    objs.append(b"<< /Title (" + esc + b"\\000nul) /Parent 6 0 R /Dest [3 0 R /XYZ 0 792 0] >>")
    objs.append(b"<< /Title (" + esc + b") /Author (<b>Mallory</b> ../..) >>")
    write(out_dir, "hostile-strings.pdf", pdf(objs, trailer_extra=b"/Info 8 0 R"), "built")

    # Text placed far out: on a page that claims to be 2e8 pt wide (MuPDF keeps what is on
    # the page), two columns of prose with a line 1e8 pt to the right, and a Courier listing
    # with a line 1e8 pt out on the baseline of one of its own. The column search and the
    # listing's spaces are bounded by the largest page; every word kept.
    ops = bytearray()
    for i in range(12):
        ops += b"BT /F1 10 Tf 72 %d Td (Left column line %d of the running text.) Tj ET\n" % (700 - 12 * i, i)
        ops += b"BT /F1 10 Tf 320 %d Td (Right column line %d of its own text.) Tj ET\n" % (700 - 12 * i, i)
    ops += b"BT /F1 10 Tf 100000000 500 Td (Far away words.) Tj ET\n"
    for i in range(6):
        ops += b"BT /F2 9 Tf 72 %d Td (int x%d = f\\(%d\\);) Tj ET\n" % (400 - 11 * i, i, i)
    ops += b"BT /F2 9 Tf 100000000 367 Td (far\\(\\);) Tj ET\n"
    objs = text_page(bytes(ops), width=200000000, resources=b"<< /Font << /F1 4 0 R /F2 6 0 R >> >>")
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>")
    write(out_dir, "text-beyond-the-page.pdf", pdf(objs), "built")
    # One glyph set in 1e9 pt type on an ordinary page: its box reaches a billion points.
    write(out_dir, "huge-glyph.pdf", pdf(text_page(text_ops(PROSE) + b"\nBT /F1 1000000000 Tf 500 300 Td (W) Tj ET")),
          "built")

    # An outline entry leading to a page that its parent does not list among its kids: MuPDF
    # cannot read that entry. It is left out with a warning; the others are kept.
    objs = text_page(text_ops(PROSE))
    objs[0] = b"<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R >>"
    objs += [
        b"<< /Type /Outlines /First 7 0 R /Last 9 0 R /Count 3 >>",
        b"<< /Title (Opening) /Parent 6 0 R /Next 8 0 R /Dest [3 0 R /XYZ 0 792 0] >>",
        b"<< /Title (Broken) /Parent 6 0 R /Prev 7 0 R /Next 9 0 R /Dest [10 0 R /XYZ 0 700 0] >>",
        b"<< /Title (Closing) /Parent 6 0 R /Prev 8 0 R /Dest [3 0 R /XYZ 0 600 0] >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
    ]
    write(out_dir, "outline-entry-unreadable.pdf", pdf(objs), "warned")

    # Right-to-left text: Hebrew through a ToUnicode CMap on a simple font.
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Q def "
            b"1 begincodespacerange <00> <FF> endcodespacerange 5 beginbfchar "
            b"<41> <05E9> <42> <05DC> <43> <05D5> <44> <05DD> <20> <0020> endbfchar endcmap "
            b"CMapName currentdict /CMap defineresource pop end end")
    objs = text_page(b"BT /F1 14 Tf 300 720 Td (DCBA DCBA) Tj ET\n" + text_ops(PROSE, y=600))
    objs[3] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>"
    objs.append(stream(cmap))
    write(out_dir, "right-to-left.pdf", pdf(objs), "built")

    # Encrypted with a user password (qpdf from Debian); the test also opens it with --password.
    if shutil.which("qpdf"):
        src = os.path.join(out_dir, ".plain.pdf")
        with open(src, "wb") as f:
            f.write(plain)
        subprocess.run(["qpdf", "--encrypt", "secret", "owner", "256", "--", src,
                        os.path.join(out_dir, "encrypted.pdf")], check=True)
        os.remove(src)
        EXPECTED["encrypted.pdf"] = "failed"

    with open(os.path.join(out_dir, "EXPECTED"), "w") as f:
        for name in sorted(EXPECTED):
            f.write("%s %s\n" % (name, EXPECTED[name]))


if __name__ == "__main__":
    main()
