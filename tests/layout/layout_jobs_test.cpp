// layout_document gives the same result at any thread count: pages are laid out in
// parallel, and the book is put together in page order, a window of pages at a time (32 per
// thread, so the thread counts below put the windows' edges on different pages).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "quire/clean.h"
#include "quire/extract.h"
#include "quire/layout.h"

namespace quire {
namespace {

namespace fs = std::filesystem;

void expect_same(const LayoutResult& a, const LayoutResult& b, const std::string& what) {
  EXPECT_EQ(a.chapters.size(), b.chapters.size()) << what;
  EXPECT_TRUE(a.chapters == b.chapters) << what << ": chapters differ";
  EXPECT_TRUE(a.excluded == b.excluded) << what << ": excluded matter differs";
  EXPECT_TRUE(a.joins == b.joins) << what << ": hyphen joins differ";
  EXPECT_EQ(a.warnings, b.warnings) << what;
}

void expect_same_at_any_jobs(const std::string& pdf) {
  Document doc = extract_document(pdf, {});
  clean_document(doc, {});
  LayoutOptions one;
  one.jobs = 1;
  const LayoutResult serial = layout_document(doc, one);
  EXPECT_FALSE(serial.chapters.empty()) << pdf;
  for (int jobs : {2, 4}) {
    LayoutOptions o;
    o.jobs = jobs;
    expect_same(serial, layout_document(doc, o), pdf + " at jobs=" + std::to_string(jobs));
  }
}

TEST(LayoutJobs, FixtureBooksSameAtAnyThreadCount) {
  const fs::path dir = fs::path(QUIRE_SOURCE_DIR) / "fixtures" / "books";
  std::vector<std::string> pdfs;
  // (Scanned fixtures are left out: OCR takes seconds and their text layer lays out like
  // any other.)
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".pdf" && e.path().stem().string().find("scan") == std::string::npos)
      pdfs.push_back(e.path().string());
  std::sort(pdfs.begin(), pdfs.end());
  ASSERT_FALSE(pdfs.empty()) << "no fixture books in " << dir;
  for (const auto& pdf : pdfs) expect_same_at_any_jobs(pdf);
}

TEST(LayoutJobs, RealBookSameAtAnyThreadCount) {
  // Two-column index pages, listings, footnotes and hyphenation across 100+ pages.
  const char* book = "/usr/share/R/doc/manual/R-exts.pdf";
  if (!fs::exists(book)) GTEST_SKIP() << book << " not installed";
  expect_same_at_any_jobs(book);
}

}  // namespace
}  // namespace quire
