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

}  // namespace
}  // namespace quire
