// code_text on rows that are not in the usual top-to-bottom order of one column.
#include <gtest/gtest.h>

#include "internal.h"
#include "page_builder.h"

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
  EXPECT_EQ(detail::code_text(ptrs, st, LayoutOptions()), "x <- c(1, 2)\ny <- x + 1");
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
  const std::string code = detail::code_text(ptrs, st, LayoutOptions());
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
  st.mono_advance["LMMono10-Regular@10.0"] = 6.1;
  EXPECT_EQ(detail::code_text(ptrs, st, LayoutOptions()), "if (st->wtimer != NULL)\n  CloseHandle (st->wtimer);\n#endif");
}

}  // namespace
}  // namespace quire
