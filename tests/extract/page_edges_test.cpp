// Text at the page's edges, from a small PDF written here: a character whose box lies wholly
// off the page is not read; one whose box reaches onto the page is, although its ink may
// fall outside (a listing line that runs into the margin keeps its closing parenthesis).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "helpers.h"

namespace quire {
namespace {

std::string page_text(const Page& p) {
  std::string all;
  for (const auto& l : p.lines) all += l.text() + "\n";
  return all;
}

TEST(PageEdges, OnlyCharactersWhollyOffThePageAreLeftOut) {
  // Helvetica 12 on a 612 x 792 page: "ABCDEF" from x 590 sets A (590-598) and B (598-606)
  // inside, C (606-614.7) across the right edge, D on wholly outside; one line sits right of
  // the page, one above it, one below it.
  const std::string ops =
      "BT /F1 12 Tf 72 700 Td (Inside the page.) Tj ET "
      "BT /F1 12 Tf 590 650 Td (ABCDEF) Tj ET "
      "BT /F1 12 Tf 640 600 Td (Right of the page.) Tj ET "
      "BT /F1 12 Tf 72 800 Td (Above the page.) Tj ET "
      "BT /F1 12 Tf 72 -20 Td (Below the page.) Tj ET";
  const std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
      "/Resources << /Font << /F1 5 0 R >> >> >>",
      test::stream_object(ops),
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  };
  const Document doc = test::extract_objects(objects, "quire-edges");
  ASSERT_EQ(doc.pages.size(), 1u);
  EXPECT_EQ(page_text(doc.pages[0]), "Inside the page.\nABC\n");
  for (const auto& l : doc.pages[0].lines) {
    EXPECT_GE(l.bbox.x0, 0);
    EXPECT_LE(l.bbox.x0, 612);
    EXPECT_GE(l.bbox.y1, 0);
  }
}

}  // namespace
}  // namespace quire
