// A page MuPDF gives up on partway through costs that page alone: one line of error, one
// warning, and nothing of what the page had made so far left behind. Each memory budget
// below runs out at another step of reading a page (loading it, its fonts and links, its
// text, its drawing for the figure renderer), so together they go through the ways a page
// can fail. Under tools/test.sh --sanitize, LeakSanitizer fails this test on any MuPDF
// object a failed page did not free.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "helpers.h"

namespace quire {
namespace {

// A book with figures (so display lists are kept for the renderer) and links.
const std::string kBook = test::kBooks + "ts-xelatex.pdf";

TEST(PageFailures, APageThatFailsAtAnyStepIsOneLineAndFreesWhatItMade) {
  int some_failed = 0, some_read = 0;
  for (double mb : {0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0}) {
    SCOPED_TRACE("page memory budget " + std::to_string(mb) + " MiB");
    ExtractOptions o;
    o.engine = Engine::MuPdf;
    o.ocr = OcrMode::Never;
    o.jobs = 2;
    o.page_memory_mb = mb;
    std::shared_ptr<PageDrawings> drawings;
    const Document doc = extract_document(kBook, o, &drawings);
    size_t failed = 0;
    for (const auto& p : doc.pages) {
      if (p.errors.empty()) {
        ++some_read;
        continue;
      }
      ++failed;
      ASSERT_EQ(p.errors.size(), 1u) << "page " << p.number;
      EXPECT_EQ(p.errors[0].rfind("cannot read page: ", 0), 0u) << p.errors[0];
      EXPECT_EQ(p.errors[0].find('\n'), std::string::npos) << p.errors[0];
      EXPECT_TRUE(p.lines.empty()) << "page " << p.number;
    }
    size_t page_warnings = 0;
    for (const auto& w : doc.warnings) page_warnings += w.code.rfind("page-", 0) == 0 ? 1 : 0;
    EXPECT_EQ(page_warnings, failed);
    some_failed += failed > 0;
    // A drawing kept from the pages that were read draws as any other.
    if (drawings) {
      PdfRenderer renderer(kBook, "", drawings);
      for (const auto& p : doc.pages)
        if (p.errors.empty() && !p.images.empty()) {
          EXPECT_FALSE(renderer.png(p.number, p.images[0].bbox, 72).empty()) << "page " << p.number;
          break;
        }
    }
  }
  EXPECT_GT(some_failed, 0) << "no budget was small enough to fail a page";
  EXPECT_GT(some_read, 0) << "no budget was large enough to read a page";
}

}  // namespace
}  // namespace quire
