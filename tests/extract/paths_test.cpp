// Vector paths as extract records them from a small PDF written here: a stroke's box is its
// geometry padded by kStrokeBoxPad line widths on each side, whatever its line join, so that
// layout recovers the geometry of every stroke alike.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "helpers.h"

namespace quire {
namespace {

// A one-page US-letter PDF whose content stream is `ops`, extracted with MuPDF.
Document one_page_pdf(const std::string& ops, const std::string& name) {
  const std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
      test::stream_object(ops),
  };
  return test::extract_objects(objects, name);
}

TEST(Paths, StrokesArePaddedAlikeWhateverTheirJoin) {
  // The same horizontal line of width 0.5, from x 100 to 200 at y 692 (100 from the top),
  // stroked with mitred (0), round (1) and bevelled (2) joins, and with a low miter limit.
  const std::string ops =
      "0.5 w 0 j 100 692 m 200 692 l S "
      "1 j 100 592 m 200 592 l S "
      "2 j 100 492 m 200 492 l S "
      "0 j 2 M 100 392 m 200 392 l S";
  const Document doc = one_page_pdf(ops, "quire-paths");
  ASSERT_EQ(doc.pages.size(), 1u);
  const auto& paths = doc.pages[0].paths;
  ASSERT_EQ(paths.size(), 4u);
  const double pad = kStrokeBoxPad * 0.5;
  for (size_t i = 0; i < paths.size(); ++i) {
    SCOPED_TRACE(i);
    const VectorPath& p = paths[i];
    EXPECT_TRUE(p.stroke);
    EXPECT_NEAR(p.line_width, 0.5, 1e-6);
    const double y = 100 + 100.0 * static_cast<double>(i);
    EXPECT_NEAR(p.bbox.x0, 100 - pad, 0.01);
    EXPECT_NEAR(p.bbox.x1, 200 + pad, 0.01);
    EXPECT_NEAR(p.bbox.y0, y - pad, 0.01);
    EXPECT_NEAR(p.bbox.y1, y + pad, 0.01);
  }
}

// Paint that shows nothing: a white fill on bare paper is marked as the paper's (a browser
// paints one behind a whole page of text), but not over a grey panel painted before it,
// where it shows; a fill larger than the page both ways is the page's own colour and a fill
// clipped away is nothing, so neither is recorded; a band taller than the page but inside
// it across (a margin's panel) is ink.
TEST(Paths, PaintThatShowsNothingIsMarkedOrLeftOut) {
  const std::string ops =
      "1 g 100 600 200 100 re f "                    // white on bare paper (y 92..192)
      "0.5 g 100 300 200 100 re f "                  // grey panel (y 392..492)
      "1 g 150 330 100 40 re f "                     // white on the panel (y 422..462)
      "1 g -500 -500 2000 2000 re f "                // white, larger than the page
      "0.9 g -500 -500 2000 2000 re f "              // grey, larger than the page
      "q 0 0 10 10 re W n 0 g 300 300 50 50 re f Q "  // clipped away
      "0.8 g 500 -100 40 1000 re f";                 // a band taller than the page
  const Document doc = one_page_pdf(ops, "quire-paint");
  ASSERT_EQ(doc.pages.size(), 1u);
  const auto& paths = doc.pages[0].paths;
  ASSERT_EQ(paths.size(), 4u);
  EXPECT_NEAR(paths[0].bbox.y0, 92, 0.01);
  EXPECT_EQ(paths[0].color, 0xFFFFFFu);
  EXPECT_TRUE(paths[0].paper) << "white on bare paper shows nothing";
  EXPECT_NEAR(paths[1].bbox.y0, 392, 0.01);
  EXPECT_FALSE(paths[1].paper);
  EXPECT_NEAR(paths[2].bbox.y0, 422, 0.01);
  EXPECT_FALSE(paths[2].paper) << "white on a grey panel shows";
  EXPECT_NEAR(paths[3].bbox.x0, 500, 0.01);
  EXPECT_NEAR(paths[3].bbox.y1, 792, 0.01);
  EXPECT_FALSE(paths[3].paper);
}

}  // namespace
}  // namespace quire
