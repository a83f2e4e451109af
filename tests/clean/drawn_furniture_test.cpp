// Drawn furniture (clean/src/drawn_furniture.cpp) on synthetic pages: what a page style draws
// at one place on page after page leaves the pages, logged; what a page draws once stays.
#include <gtest/gtest.h>

#include "test_pages.h"

namespace quire::test {
namespace {

VectorPath rule(const Box& b) {
  VectorPath p;
  p.bbox = b;
  p.fill = true;
  p.color = 0x000000;
  return p;
}

std::vector<Removal> with_reason(const CleanResult& r, const std::string& reason) {
  std::vector<Removal> out;
  for (const auto& x : r.removed)
    if (x.reason == reason) out.push_back(x);
  return out;
}

// Ten pages of prose, each with what `draw` adds to page n (1-based).
Document book(const std::function<void(int, Page&)>& draw) {
  Document doc;
  for (int n = 1; n <= 10; ++n) {
    Page p = body_page(n, std::to_string(n), 30);
    draw(n, p);
    doc.pages.push_back(p);
  }
  doc.page_count = 10;
  return doc;
}

// Typographic fact: a page style draws a rule under the running head (or over the footer) at
// one place on most pages, on each side where odd and even pages mirror their margins. It is
// the page's furniture, with no word in it.
TEST(DrawnFurniture, AHeadRuleDrawnOnEverySideIsTakenOffAndLogged) {
  Document doc = book([](int n, Page& p) {
    const double x0 = n % 2 ? 90 : 72;  // mirrored margins: each side's rule at its own place
    p.paths.push_back(rule({x0, 50, x0 + 450, 50.4}));
    if (n == 4) p.paths.push_back(rule({72, 30, 300, 31}));  // a decoration of one page
    p.paths.push_back(rule({72, 400, 522, 400.4}));         // a rule in the text block, on every page
  });
  const CleanResult r = clean_document(doc, {});
  const auto drawn = with_reason(r, kDrawnFurniture);
  ASSERT_EQ(drawn.size(), 10u);
  for (size_t i = 0; i < drawn.size(); ++i) {
    EXPECT_EQ(drawn[i].page, static_cast<int>(i) + 1);
    EXPECT_EQ(drawn[i].text, "");
    EXPECT_NEAR(drawn[i].bbox.y0, 50, 0.01);
  }
  for (const auto& p : doc.pages) {
    // The rule in the text block stays (a table's or a note's, as far as clean knows), and
    // so does the one-page decoration: neither is drawn furniture.
    ASSERT_EQ(p.paths.size(), p.number == 4 ? 2u : 1u) << p.number;
    EXPECT_NEAR(p.paths.back().bbox.y0, 400, 0.01);
  }
}

TEST(DrawnFurniture, ALogoOnMostPagesGoesAndAnOverlayOnAFewStays) {
  // A logo on every page at one place is furniture; a picture a slide deck shows on three
  // slides in a row, or the same picture at another size, is not.
  Document doc = book([](int n, Page& p) {
    p.images.push_back({{480, 300, 540, 340}, 120, 80, false});
    if (n >= 3 && n <= 5) p.images.push_back({{100, 500, 400, 700}, 600, 400, false});
    if (n == 6) p.images.push_back({{480, 300, 540, 340}, 240, 160, false});
  });
  const CleanResult r = clean_document(doc, {});
  const auto logos = with_reason(r, kRepeatedImage);
  ASSERT_EQ(logos.size(), 10u);
  for (const auto& p : doc.pages) {
    const size_t left = (p.number >= 3 && p.number <= 5) || p.number == 6 ? 1u : 0u;
    EXPECT_EQ(p.images.size(), left) << p.number;
  }
  // Text stays as it was: the log's words are the pages' lost words, none.
  for (const auto& x : r.removed) EXPECT_TRUE(x.reason != kRepeatedImage || x.text.empty());
}

TEST(DrawnFurniture, TheSameAtAnyJobCount) {
  auto draw = [](int n, Page& p) {
    p.paths.push_back(rule({72, 740, 522, 741}));
    p.images.push_back({{500, 745, 540, 760}, 80, 30, false});
    if (n % 3 == 0) p.paths.push_back(rule({72, 50, 522, 50.5}));
  };
  Document a = book(draw), b = book(draw);
  CleanOptions two;
  two.jobs = 2;
  const CleanResult ra = clean_document(a, {}), rb = clean_document(b, two);
  EXPECT_EQ(ra.removed, rb.removed);
  EXPECT_TRUE(a == b);
  EXPECT_EQ(with_reason(ra, kDrawnFurniture).size(), 13u);  // the foot rule, and the head rule of 3 pages
}

TEST(DrawnFurniture, AHeadDrawnInPiecesIsLoggedAsOneDrawing) {
  // A decorated head drawn as a row of small squares: one entry a page, over all of them.
  Document doc = book([](int, Page& p) {
    for (int k = 0; k < 20; ++k) p.paths.push_back(rule({72 + 8.0 * k, 40, 76 + 8.0 * k, 44}));
  });
  const CleanResult r = clean_document(doc, {});
  const auto drawn = with_reason(r, kDrawnFurniture);
  ASSERT_EQ(drawn.size(), 10u);
  EXPECT_NEAR(drawn[0].bbox.x0, 72, 0.01);
  EXPECT_NEAR(drawn[0].bbox.x1, 72 + 8.0 * 19 + 4, 0.01);
  for (const auto& p : doc.pages) EXPECT_TRUE(p.paths.empty());
}

}  // namespace
}  // namespace quire::test
