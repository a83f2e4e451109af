// The outline as extract reads it from a small PDF written here: entries with a destination
// point at their page and height, an entry without one points nowhere (page 0).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "helpers.h"

namespace quire {
namespace {

using test::text_stream;

TEST(Outline, EntriesWithoutADestinationPointNowhere) {
  const std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R /Outlines 7 0 R >>",
      "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 9 0 R >> >> >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 6 0 R /Resources << /Font << /F1 9 0 R >> >> >>",
      text_stream("First page."),
      text_stream("Second page."),
      "<< /Type /Outlines /First 8 0 R /Last 10 0 R /Count 3 >>",
      "<< /Title (Contents) /Parent 7 0 R /Next 10 0 R >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      "<< /Title (Chapter) /Parent 7 0 R /Prev 8 0 R /Next 11 0 R /Dest [4 0 R /XYZ 0 692 0] >>",
      "<< /Title (Appendix) /Parent 7 0 R /Prev 10 0 R /A << /S /GoTo /D [3 0 R /XYZ 0 792 0] >> >>",
  };
  const Document doc = test::extract_objects(objects, "quire-outline");
  ASSERT_EQ(doc.outline.size(), 3u);
  EXPECT_EQ(doc.outline[0].title, "Contents");
  EXPECT_EQ(doc.outline[0].page, 0) << "an entry without a destination is not on the first page";
  EXPECT_EQ(doc.outline[1].title, "Chapter");
  EXPECT_EQ(doc.outline[1].page, 2);
  EXPECT_NEAR(doc.outline[1].y, 100, 0.01);  // top-left origin: 792 - 692
  EXPECT_EQ(doc.outline[2].title, "Appendix");
  EXPECT_EQ(doc.outline[2].page, 1);
  EXPECT_NEAR(doc.outline[2].y, 0, 0.01);
}

TEST(Outline, AnEntryThatCannotBeReadIsLeftOutAndTheOthersKept) {
  // "Broken" leads to a page whose parent does not list it among its kids: MuPDF cannot
  // tell its number, nor read the entry. It is left out with a warning; the entries around
  // it, and the one below it (one level down as ever), are read. (MuPDF 1.21's
  // fz_load_outline gave no outline at all here, and lost the entries it had built: the
  // sanitizer test run reports that as a leak.)
  const std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 4 0 R >> >> >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      text_stream("The only page."),
      "<< /Type /Outlines /First 7 0 R /Last 9 0 R /Count 4 >>",
      "<< /Title (Opening) /Parent 6 0 R /Next 8 0 R /Dest [3 0 R /XYZ 0 700 0] >>",
      "<< /Title (Broken) /Parent 6 0 R /Prev 7 0 R /Next 9 0 R /First 11 0 R /Last 11 0 R /Count 1 "
      "/Dest [10 0 R /XYZ 0 700 0] >>",
      "<< /Title (Closing) /Parent 6 0 R /Prev 8 0 R /Dest [3 0 R /XYZ 0 600 0] >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
      "<< /Title (Below) /Parent 8 0 R /Dest [3 0 R /XYZ 0 500 0] >>",
  };
  const Document doc = test::extract_objects(objects, "quire-outline-broken");
  ASSERT_EQ(doc.outline.size(), 3u);
  EXPECT_EQ(doc.outline[0].title, "Opening");
  EXPECT_EQ(doc.outline[0].level, 1);
  EXPECT_EQ(doc.outline[0].page, 1);
  EXPECT_NEAR(doc.outline[0].y, 92, 0.01);
  EXPECT_EQ(doc.outline[1].title, "Below");
  EXPECT_EQ(doc.outline[1].level, 2);
  EXPECT_EQ(doc.outline[1].page, 1);
  EXPECT_NEAR(doc.outline[1].y, 292, 0.01);
  EXPECT_EQ(doc.outline[2].title, "Closing");
  EXPECT_EQ(doc.outline[2].level, 1);
  EXPECT_EQ(doc.outline[2].page, 1);
  EXPECT_NEAR(doc.outline[2].y, 192, 0.01);
  bool warned = false;
  for (const auto& w : doc.warnings) warned = warned || w.message.find("outline entry left out") != std::string::npos;
  EXPECT_TRUE(warned);
}

}  // namespace
}  // namespace quire
