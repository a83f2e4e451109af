// MuPDF and Poppler read the same words (quire::cross_check), and extraction does not depend on
// the number of worker threads.
#include <gtest/gtest.h>

#include <algorithm>

#include "helpers.h"
#include "quire/parallel.h"

namespace quire::test {
namespace {

ExtractOptions options(int first = 0, int last = 0) {
  ExtractOptions o;
  o.first_page = first;
  o.last_page = last;
  o.ocr = OcrMode::Never;
  return o;
}

TEST(Agreement, FixtureBooksHaveTheSameWordsInBothEngines) {
  for (const char* book : {"fx-classic.pdf", "fx-plain.pdf"}) {
    CrossCheckReport r = cross_check(kBooks + book, options());
    EXPECT_EQ(r.file, book);
    EXPECT_GT(r.pages_compared, 0);
    for (const auto& d : r.disagreements)
      ADD_FAILURE() << book << " page " << d.page << ": " << d.only_mupdf.size() << " words only in MuPDF, "
                    << d.only_poppler.size() << " only in Poppler";
  }
}

TEST(Agreement, RIntroAgreesOnMostPages) {
  if (!have_r_intro()) GTEST_SKIP() << kRIntro << " is absent";
  CrossCheckReport r = cross_check(kRIntro, options());
  EXPECT_EQ(r.pages_compared, 113);
  // Measured: 9 of 113 pages differ, each a real misreading by one engine (math glyphs, the
  // copyright sign, a cedilla, a prime); a tenth of the pages leaves room for library updates.
  EXPECT_LE(r.disagreements.size() * 10, static_cast<size_t>(r.pages_compared));
  for (size_t i = 1; i < r.disagreements.size(); ++i) EXPECT_LT(r.disagreements[i - 1].page, r.disagreements[i].page);
}

TEST(Agreement, ReportsARealMisreading) {
  if (!have_r_intro()) GTEST_SKIP() << kRIntro << " is absent";
  // Page 104 credits "François": MuPDF reads the cedilla as a separate spacing mark.
  CrossCheckReport r = cross_check(kRIntro, options(104, 104));
  ASSERT_EQ(r.pages_compared, 1);
  ASSERT_EQ(r.disagreements.size(), 1u);
  EXPECT_EQ(r.disagreements[0].page, 104);
  EXPECT_NE(std::find(r.disagreements[0].only_poppler.begin(), r.disagreements[0].only_poppler.end(), "François"),
            r.disagreements[0].only_poppler.end());
}

TEST(Agreement, WordSpacingAndPunctuationSpacingAreNotDifferences) {
  if (!have_r_intro()) GTEST_SKIP() << kRIntro << " is absent";
  // The table of contents: MuPDF reads "statistics. . ." where Poppler reads "statistics . . .",
  // and the engines group the leader dots differently; page 20 has footnote marks.
  CrossCheckReport r = cross_check(kRIntro, options(3, 6));
  EXPECT_TRUE(r.disagreements.empty());
  r = cross_check(kRIntro, options(20, 20));
  EXPECT_TRUE(r.disagreements.empty());
}

TEST(Determinism, SameDocumentAtAnyJobCount) {
  for (Engine e : {Engine::MuPdf, Engine::Poppler}) {
    Document one = extract(kBooks + "fx-classic.pdf", e, 0, 0, 1);
    Document two = extract(kBooks + "fx-classic.pdf", e, 0, 0, 2);
    Document three = extract(kBooks + "fx-classic.pdf", e, 0, 0, 3);
    EXPECT_EQ(one, two) << engine_name(e);
    EXPECT_EQ(one, three) << engine_name(e);
    // In a batch whose other books hold every lane, the helpers never get one: the calling
    // thread reads every page, and the document is the same.
    Lanes::Limit no_spare_lane(0);
    EXPECT_EQ(one, extract(kBooks + "fx-classic.pdf", e, 0, 0, 3)) << engine_name(e) << " with no spare lane";
  }
}

}  // namespace
}  // namespace quire::test
