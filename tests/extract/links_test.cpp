// Link annotations as extract reads them from a small PDF written here: every kind of
// destination a book uses, named ones cited again and again (the same name must lead to the
// same place every time, and on every worker), and the links that are left out.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "helpers.h"

namespace quire {
namespace {

namespace fs = std::filesystem;

using test::text_stream;

std::string link(int x, const std::string& target) {
  return "<< /Type /Annot /Subtype /Link /Rect [" + std::to_string(x) + " 700 " + std::to_string(x + 40) +
         " 730] " + target + " >>";
}

// Pages 1-3 (objects 3-5), the third set landscape by /Rotate; on every page the same links.
std::string book() {
  const std::string annots =
      "/Annots [10 0 R 11 0 R 12 0 R 13 0 R 14 0 R 15 0 R 16 0 R 17 0 R 18 0 R 19 0 R]";
  const std::string page = "/Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 9 0 R >> >> ";
  return test::pdf_of({
      "<< /Type /Catalog /Pages 2 0 R /Names << /Dests 20 0 R >> >>",
      "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>",
      "<< " + page + "/Contents 6 0 R " + annots + " >>",
      "<< " + page + "/Contents 7 0 R " + annots + " >>",
      "<< " + page + "/Rotate 90 /Contents 8 0 R " + annots + " >>",
      text_stream("One."),
      text_stream("Two."),
      text_stream("Three."),
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      link(10, "/Dest (chapter.2)"),                           // a string in the name tree
      link(60, "/A << /S /GoTo /D (chapter.2) >>"),            // the same, through an action
      link(110, "/Dest [5 0 R /XYZ 100 300 0]"),               // explicit, on a turned page
      link(160, "/Dest [3 0 R /FitH 500]"),                    // explicit, by page object
      link(210, "/Dest [1 /XYZ 0 292 0]"),                     // explicit, by page number
      link(260, "/Dest (no.such.place)"),                      // undefined: left out
      link(310, "/A << /S /URI /URI (https://example.org/a) >>"),
      link(360, "/A << /S /URI /URI (file:///etc/passwd) >>"),  // no web address: left out
      link(410, "/A << /S /Named /N /NextPage >>"),
      link(460, "/Dest [4 0 R /XYZ 0 5000 0]"),                // above the page: clamped to its top
      "<< /Names [(chapter.2) [4 0 R /XYZ 0 692 0]] >>",
  });
}

TEST(Links, EveryKindOfDestinationLeadsToItsPlaceOnEveryPage) {
  const fs::path pdf = fs::temp_directory_path() / ("quire-links-" + std::to_string(::getpid()) + ".pdf");
  std::ofstream(pdf, std::ios::binary) << book();
  for (int jobs : {1, 2}) {
    const Document doc = test::extract(pdf.string(), Engine::MuPdf, 0, 0, jobs);
    ASSERT_EQ(doc.pages.size(), 3u);
    for (const Page& p : doc.pages) {
      SCOPED_TRACE("page " + std::to_string(p.number) + ", jobs " + std::to_string(jobs));
      ASSERT_EQ(p.links.size(), 8u) << "the undefined name and the file are left out";
      EXPECT_EQ(doc.warnings.size(), 1u) << "one warning for the undefined name, however often it is met";
      EXPECT_EQ(p.links[0].page, 2);
      EXPECT_NEAR(p.links[0].y, 100, 0.01);  // top-left origin: 792 - 692
      EXPECT_EQ(p.links[1].page, 2) << "an action to a name leads where the name does";
      EXPECT_NEAR(p.links[1].y, 100, 0.01);
      EXPECT_EQ(p.links[2].page, 3);
      // Page 3 is turned a quarter clockwise: its top was the media box's left edge, so a
      // place 100 right of that edge is 100 down the page as read.
      EXPECT_NEAR(p.links[2].y, 100, 0.01);
      EXPECT_EQ(p.links[3].page, 1);
      EXPECT_NEAR(p.links[3].y, 292, 0.01);
      EXPECT_EQ(p.links[4].page, 2) << "a page given by its number counts from 0";
      EXPECT_NEAR(p.links[4].y, 500, 0.01);
      EXPECT_EQ(p.links[5].uri, "https://example.org/a");
      EXPECT_EQ(p.links[5].page, 0);
      EXPECT_EQ(p.links[6].page, std::min(p.number + 1, 3)) << "the next page, the last staying";
      EXPECT_EQ(p.links[7].page, 2);
      EXPECT_NEAR(p.links[7].y, 0, 0.01) << "a place above the page is its top";
      // Boxes in the page's space, whatever the link leads to.
      EXPECT_GT(p.links[0].bbox.x1, p.links[0].bbox.x0);
    }
  }
  fs::remove(pdf);
}

}  // namespace
}  // namespace quire
