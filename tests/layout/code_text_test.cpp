// code_text on rows that are not in the usual top-to-bottom order of one column.
#include <gtest/gtest.h>

#include "internal.h"
#include "page_builder.h"
#include "quire/layout.h"

namespace quire {
namespace {

detail::Row code_row(const Line& line, int page, double col_left) {
  detail::Row r;
  r.page = page;
  r.lines = {&line};
  r.bbox = line.bbox;
  r.baseline = line.spans[0].baseline;
  r.size = line.spans[0].size;
  r.mono = true;
  r.text = line.spans[0].text;
  r.col_left = col_left;
  r.col_right = col_left + 200;
  return r;
}

TEST(CodeText, ListingThatGoesOnHigherUpTheSamePage) {
  // The last line of the left column, then the first of the right column: the only
  // baseline step between the two rows goes up the page. There is no line pitch to measure;
  // the two lines stay two lines.
  Line bottom = test::make_line({72, 700, "x <- c(1, 2)", 10, true});
  Line top = test::make_line({320, 100, "y <- x + 1", 10, true});
  std::vector<detail::Row> rows = {code_row(bottom, 3, 72), code_row(top, 3, 320)};
  std::vector<const detail::Row*> ptrs = {&rows[0], &rows[1]};
  detail::BookStats st;
  std::vector<HyphenJoin> joins;
  EXPECT_EQ(detail::code_text(ptrs, st, LayoutOptions(), joins), "x <- c(1, 2)\ny <- x + 1");
}

TEST(CodeText, ARaisedSpanIsAWordOfItsOwnAsInTheLineText) {
  // The LaTeX logo in a syntax line: "L", a smaller raised "A" kerned into it, "TEX". The
  // glyphs share columns, yet the listing's words must be the line's words (Line::text()
  // sets the raised span apart), or the wording check finds "LATEX" for "L A TEX".
  Line line = test::make_line({72, 448, "{L", 10, true});
  Line raised = test::make_line({82.5, 446.2, "A", 7, true});
  Line rest = test::make_line({84.6, 448, "TEX counter }", 10, true});
  line.spans.push_back(raised.spans[0]);
  line.spans.push_back(rest.spans[0]);
  line.bbox.x1 = rest.bbox.x1;
  std::vector<detail::Row> rows = {code_row(line, 1, 72)};
  std::vector<const detail::Row*> ptrs = {&rows[0]};
  detail::BookStats st;
  std::vector<HyphenJoin> joins;
  const std::string code = detail::code_text(ptrs, st, LayoutOptions(), joins);
  EXPECT_EQ(whitespace_tokens(code), whitespace_tokens(line.text())) << code;
  EXPECT_EQ(whitespace_tokens(code), (std::vector<std::string>{"{L", "A", "TEX", "counter", "}"}));
}

// A line of `source` set as LaTeX's listings sets it with fixed columns: every character in a
// cell of `cell` points, the glyphs of a word spread over its cells (each glyph `advance`
// wide), spaces left out of the text but for one between words.
Line cell_line(const std::string& source, double baseline, double cell, double advance) {
  Line l;
  Span s;
  s.font = "LMMono10-Regular";
  s.size = 10;
  s.monospace = true;
  s.baseline = baseline;
  size_t i = 0;
  while (i < source.size()) {
    if (source[i] == ' ') {
      if (!s.text.empty() && s.text.back() != ' ') {
        s.text += ' ';
        s.xs.push_back(static_cast<float>(72 + cell * static_cast<double>(i)));
      }
      ++i;
      continue;
    }
    size_t e = source.find(' ', i);
    if (e == std::string::npos) e = source.size();
    const double n = static_cast<double>(e - i), slack = (cell - advance) * n / (n + 1);
    for (size_t k = i; k < e; ++k) {
      s.text += source[k];
      s.xs.push_back(static_cast<float>(72 + cell * static_cast<double>(i) + slack * static_cast<double>(k - i + 1) +
                                        advance * static_cast<double>(k - i)));
    }
    i = e;
  }
  s.last_advance = static_cast<float>(advance);
  s.bbox = {s.xs.front(), baseline - 8, s.xs.back() + advance, baseline + 2};
  l.spans.push_back(s);
  l.bbox = s.bbox;
  return l;
}

TEST(CodeText, AShortListingInCellsWiderThanItsGlyphs) {
  // Four measures from word to word: too few to stand alone, yet they put every glyph on its
  // cell, which the font's advance over the book (the glyph-to-glyph step inside words,
  // less than a cell) does not.
  const std::vector<std::string> source = {"if (st->wtimer != NULL)", "  CloseHandle (st->wtimer);", "#endif"};
  std::vector<Line> lines;
  for (size_t i = 0; i < source.size(); ++i) lines.push_back(cell_line(source[i], 100 + 12.0 * static_cast<double>(i), 6.3, 5.25));
  std::vector<detail::Row> rows;
  for (const auto& l : lines) rows.push_back(code_row(l, 1, 72));
  std::vector<const detail::Row*> ptrs;
  for (const auto& r : rows) ptrs.push_back(&r);
  detail::BookStats st;
  std::vector<HyphenJoin> joins;
  st.mono_advance["LMMono10-Regular@10.0"] = 6.1;
  EXPECT_EQ(detail::code_text(ptrs, st, LayoutOptions(), joins), "if (st->wtimer != NULL)\n  CloseHandle (st->wtimer);\n#endif");
}


// The text of a layout's code blocks, one after the other.
std::string code_of(const LayoutResult& r) {
  std::string code;
  for (const auto& c : r.chapters)
    for (const auto& b : c.blocks)
      if (b.type == BlockType::Code) code += b.text;
  return code;
}

// A layout's joins as "before|after|joined".
std::vector<std::string> joins_of(const LayoutResult& r) {
  std::vector<std::string> joined;
  for (const auto& j : r.joins) joined.push_back(j.before + "|" + j.after + "|" + j.joined);
  return joined;
}

// A listing line too long for the measure, broken and led on the next line by a wrap mark:
// Sphinx sets \hookrightarrow (two glyphs of TeX's math fonts: U+02D3 and an arrow) at half
// the code's size left of the text, and prints a break taken at a space as a visible space.
Line wrapped_line(const std::string& text, double baseline, const std::vector<std::string>& mark, double size = 5) {
  Line l = test::make_line({84, baseline, text, 10, true});  // two cells in
  double x = 74.6;
  std::vector<Span> spans;
  for (const auto& m : mark) {
    Span s;
    s.text = m;
    s.font = "CMSY5";
    s.size = size;
    s.baseline = baseline;
    s.xs = {static_cast<float>(x)};
    s.last_advance = 4;
    s.bbox = {x, baseline - 0.8 * size, x + 4, baseline + 0.2 * size};
    x += 1.1;
    spans.push_back(s);
  }
  spans.back().bbox.x1 = 84;
  spans.push_back(l.spans[0]);
  l.spans = spans;
  l.bbox = {74.6, baseline - 8, l.bbox.x1, l.bbox.y1};
  return l;
}

TEST(CodeText, ALineBrokenForTheMeasureGoesOnOverItsWrapMark) {
  std::vector<test::LineSpec> prose = test::paragraph(72, 100, {"An example will explain it better, with the versions of the package listed for every"}, 10, false);
  Page page = test::make_page(1, prose);
  page.lines.push_back(test::make_line({72, 140, "$ dak ls evince", 10, true}));
  page.lines.push_back(test::make_line({72, 152, "evince | 3.22.1-3 | oldstable | source, amd64, arm64, armel,", 10, true}));
  page.lines.push_back(wrapped_line(" i386, mips, mips64el", 164, {"\u02D3", "\u2192"}));
  page.lines.push_back(test::make_line({72, 176, "__Choices: Afrikaans (af), Czech (cs),\u2423", 10, true}));
  page.lines.push_back(wrapped_line("Danish (da), Dutch (nl),\u2423", 188, {"\u02D3", "\u2192"}));
  page.lines.push_back(wrapped_line("Swedish (sv)", 200, {"\u21AA"}));
  page.lines.push_back(test::make_line({72, 212, "localedef -i $LOCALE_NAME.", 10, true}));
  page.lines.push_back(wrapped_line("$LOCALE_CHARSET", 224, {"\u02D3", "\u2192"}));
  LayoutResult r = layout_document(test::make_doc({page}));
  std::vector<Block> code;
  for (const auto& c : r.chapters)
    for (const auto& b : c.blocks)
      if (b.type == BlockType::Code) code.push_back(b);
  ASSERT_EQ(code.size(), 1u);
  EXPECT_EQ(code[0].text,
            "$ dak ls evince\n"
            "evince | 3.22.1-3 | oldstable | source, amd64, arm64, armel, i386, mips, mips64el\n"
            "__Choices: Afrikaans (af), Czech (cs), Danish (da), Dutch (nl), Swedish (sv)\n"
            "localedef -i $LOCALE_NAME.$LOCALE_CHARSET");
  // Each join is logged, so the wording check sees the marks go.
  const std::vector<std::string> joined = joins_of(r);
  EXPECT_EQ(joined, (std::vector<std::string>{"armel,|\u02D3\u2192|armel, ", "(cs),\u2423|\u02D3\u2192Danish|(cs), Danish",
                                               "(nl),\u2423|\u21AASwedish|(nl), Swedish",
                                               "$LOCALE_NAME.|\u02D3\u2192$LOCALE_CHARSET|$LOCALE_NAME.$LOCALE_CHARSET"}));
}

// A listing line that ends in a trailing wrap mark (listings' prebreak: \hookleftarrow, an
// arrow and an unmapped hook) goes on on the next row where it was broken for the measure: as
// wide as the listing's widest, within two ems. It broke at a space of the source where a
// blank cell more stands before its mark than before the book's other marks (the space was
// set), or where letters stand on both sides (an identifier is one unit, broken only where
// it is longer than the line); elsewhere inside a token, and the rows are glued. The mark
// may be a line of its own beside the text. A mark on a short line, or on the listing's last,
// stays text.
TEST(CodeText, ATrailingWrapMarkGoesOnAtASpaceOrInsideAToken) {
  // `blank` cells of 6 pt (the code's advance) between the text and the arrow.
  auto marked = [](const std::string& text, double baseline, int blank) {
    Line l = test::make_line({72, baseline, text, 10, true});
    const double x = l.bbox.x1, arrow = x + 6.0 * blank;
    Span a;
    a.text = blank ? " \u2190" : "\u2190";
    a.xs = blank ? std::vector<float>{static_cast<float>(x), static_cast<float>(arrow)} : std::vector<float>{static_cast<float>(x)};
    Span h;
    h.text = "\uFFFD";
    h.xs = {static_cast<float>(arrow + 8)};
    a.font = "CMSY10";
    h.font = "CMMI10";
    a.bbox = {x, baseline - 7.2, arrow + 10, baseline + 1.8};
    h.bbox = {arrow + 8, baseline - 7.2, arrow + 10, baseline + 1.8};
    for (Span* s : {&a, &h}) {
      s->size = 9;
      s->baseline = baseline;
      l.spans.push_back(*s);
      l.bbox = l.bbox.united(s->bbox);
    }
    return l;
  };
  Page page = test::make_page(1, test::paragraph(72, 100, {"The script prints the names it reads, one to a line, and then the count of them"}, 10, false));
  page.lines.push_back(test::make_line({72, 140, "for name in $(cat names.txt); do", 10, true}));
  page.lines.push_back(marked("  echo \"$name was read from the list\" >> /var/log/", 152, 0));  // inside a token
  page.lines.push_back(test::make_line({92, 164, "names.log", 10, true}));
  page.lines.push_back(marked("  printf \"%s\\n\" \"$name\" | tee -a names.log | sort", 176, 1));  // its space set
  page.lines.push_back(test::make_line({92, 188, "--unique", 10, true}));
  page.lines.push_back(marked("  test -n \"$name\" && echo the name is one of our", 200, 0));  // between two words
  page.lines.push_back(test::make_line({92, 212, "names", 10, true}));
  // The engine may give the mark as a line of its own beside the text, on its baseline.
  Line text = marked("  cp -p names.log /srv/backup/lists/names-of-the-", 224, 0);
  Line mark;
  mark.spans.assign(text.spans.end() - 2, text.spans.end());
  text.spans.resize(text.spans.size() - 2);
  mark.bbox = mark.spans[0].bbox.united(mark.spans[1].bbox);
  text.bbox.x1 = text.spans.back().bbox.x1;
  page.lines.push_back(text);
  page.lines.push_back(mark);
  page.lines.push_back(test::make_line({92, 236, "day.log", 10, true}));
  page.lines.push_back(marked("done", 248, 0));
  page.lines.push_back(test::make_line({72, 260, "wc -l names.log", 10, true}));
  page.lines.push_back(marked("exit", 272, 0));
  LayoutResult r = layout_document(test::make_doc({page}));
  const std::string code = code_of(r);
  EXPECT_EQ(code,
            "for name in $(cat names.txt); do\n"
            "  echo \"$name was read from the list\" >> /var/log/names.log\n"
            "  printf \"%s\\n\" \"$name\" | tee -a names.log | sort --unique\n"
            "  test -n \"$name\" && echo the name is one of our names\n"
            "  cp -p names.log /srv/backup/lists/names-of-the-day.log\n"
            "done\u2190\uFFFD\n"
            "wc -l names.log\n"
            "exit\u2190\uFFFD");
  const std::vector<std::string> joined = joins_of(r);
  EXPECT_EQ(joined, (std::vector<std::string>{"/var/log/\u2190\uFFFD|names.log|/var/log/names.log", "sort \u2190\uFFFD||sort",
                                               "our\u2190\uFFFD||our",
                                               "/srv/backup/lists/names-of-the- \u2190\uFFFD|day.log|/srv/backup/lists/names-of-the-day.log"}));
}

TEST(CodeText, AnArrowThatIsNoWrapMarkStays) {
  // A result arrow from a symbol font (Octave's "\u21D2 1.4142") is the listing's own text.
  Page page = test::make_page(1, test::paragraph(72, 100, {"The square root of two is computed as follows, in a session of the interpreter"}, 10, false));
  page.lines.push_back(test::make_line({72, 140, "sqrt (2)", 10, true}));
  page.lines.push_back(wrapped_line(" 1.4142", 152, {"\u21D2"}, 10));
  LayoutResult r = layout_document(test::make_doc({page}));
  const std::string code = code_of(r);
  EXPECT_EQ(code.rfind("sqrt (2)\n\u21D2", 0), 0u) << code;  // a line of its own, the arrow kept
  EXPECT_TRUE(r.joins.empty());
}

}  // namespace
}  // namespace quire
