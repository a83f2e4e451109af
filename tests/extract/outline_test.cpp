// The outline as extract reads it from a small PDF written here: entries with a destination
// point at their page and height, an entry without one points nowhere (page 0).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "helpers.h"

namespace quire {
namespace {

namespace fs = std::filesystem;

// A PDF of the given objects (numbered from 1, the first is the catalog) with a correct
// cross-reference table.
std::string pdf_of(const std::vector<std::string>& objects) {
  std::string out = "%PDF-1.7\n";
  std::vector<size_t> offsets;
  for (size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(out.size());
    out += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const size_t xref = out.size();
  out += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (size_t off : offsets) {
    char line[32];
    std::snprintf(line, sizeof line, "%010zu 00000 n \n", off);
    out += line;
  }
  out += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R >>\nstartxref\n" +
         std::to_string(xref) + "\n%%EOF\n";
  return out;
}

std::string text_stream(const std::string& text) {
  const std::string ops = "BT /F1 12 Tf 72 720 Td (" + text + ") Tj ET";
  return "<< /Length " + std::to_string(ops.size()) + " >>\nstream\n" + ops + "\nendstream";
}

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
  const fs::path pdf = fs::temp_directory_path() / ("quire-outline-" + std::to_string(::getpid()) + ".pdf");
  std::ofstream(pdf, std::ios::binary) << pdf_of(objects);
  const Document doc = test::extract(pdf.string(), Engine::MuPdf);
  fs::remove(pdf);
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

}  // namespace
}  // namespace quire
