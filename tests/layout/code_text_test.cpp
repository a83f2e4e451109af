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

}  // namespace
}  // namespace quire
