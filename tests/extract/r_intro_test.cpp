// R-intro.pdf (Debian's r-doc-pdf) through both engines: outline, page labels, a monospace code
// line, plausible boxes. Skipped when the manual is not installed.
#include <gtest/gtest.h>

#include "helpers.h"
#include "quire/text.h"

namespace quire::test {
namespace {

class RIntro : public ::testing::TestWithParam<Engine> {
 protected:
  void SetUp() override {
    if (!have_r_intro()) GTEST_SKIP() << kRIntro << " is absent (Debian package r-doc-pdf)";
  }
};

TEST_P(RIntro, OutlineTitlesAndLevels) {
  Document d = extract(kRIntro, GetParam(), 1, 20);
  ASSERT_GE(d.outline.size(), 20u);
  EXPECT_EQ(d.outline[0].title, "Preface");
  EXPECT_EQ(d.outline[1].title, "1 Introduction and preliminaries");
  EXPECT_EQ(d.outline[1].level, 1);
  EXPECT_EQ(d.outline[2].title, "The R environment");
  EXPECT_EQ(d.outline[2].level, 2);
  EXPECT_EQ(d.outline[13].title, "2 Simple manipulations; numbers and vectors");
  if (GetParam() == Engine::MuPdf) {
    EXPECT_EQ(d.outline[0].page, 7);
    EXPECT_EQ(d.outline[1].page, 8);
    EXPECT_EQ(d.outline[13].page, 14);
  } else {
    // Poppler-cpp's outline has no destinations: unresolved, not guessed.
    for (const auto& e : d.outline) EXPECT_EQ(e.page, 0) << e.title;
  }
}

TEST_P(RIntro, PageLabelsAreRomanInFrontMatter) {
  Document d = extract(kRIntro, GetParam(), 1, 14);
  ASSERT_EQ(d.pages.size(), 14u);
  EXPECT_EQ(d.pages[2].label, "i");
  EXPECT_EQ(d.pages[5].label, "iv");
  EXPECT_EQ(d.pages[6].label, "1");
  EXPECT_EQ(d.pages[13].label, "8");
}

TEST_P(RIntro, CodeLineIsMonospaceCmtt10) {
  Document d = extract(kRIntro, GetParam(), 12, 12);
  const Line* l = find_line(d, 12, "> source(\"commands.R\")");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(squeeze(l->text()), "> source(\"commands.R\")");
  for (const auto& s : l->spans) {
    EXPECT_EQ(s.font, "CMTT10");
    EXPECT_TRUE(s.monospace) << s.text;
    EXPECT_NEAR(s.size, 10.91, 0.01);
  }
  // The listing is indented to x = 118.8 pt; CMTT10 at 10.91 pt advances 5.73 pt per glyph.
  EXPECT_NEAR(l->bbox.x0, 118.8, 0.5);
  const Span& s = l->spans.front();
  ASSERT_EQ(s.xs.size(), utf8_length(s.text));
  EXPECT_NEAR(s.xs[1] - s.xs[0], 5.73, 0.05);
}

TEST_P(RIntro, BoxesArePlausible) {
  Document d = extract(kRIntro, GetParam(), 7, 20);
  for (const auto& p : d.pages) {
    EXPECT_DOUBLE_EQ(p.width, 612);
    EXPECT_DOUBLE_EQ(p.height, 792);
    EXPECT_FALSE(p.lines.empty()) << "page " << p.number;
    const Box page{0, 0, p.width, p.height};
    for (const auto& l : p.lines) {
      EXPECT_TRUE(page.contains(l.bbox, 1)) << "page " << p.number << ": " << l.text();
      for (const auto& s : l.spans) {
        EXPECT_LT(s.bbox.x0, s.bbox.x1) << s.text;
        EXPECT_LT(s.bbox.y0, s.bbox.y1) << s.text;
        EXPECT_TRUE(l.bbox.contains(s.bbox, 0.01)) << s.text;
        EXPECT_GT(s.size, 4);
        EXPECT_LT(s.size, 30);
        ASSERT_EQ(s.xs.size(), utf8_length(s.text)) << s.text;
        for (float x : s.xs) {
          EXPECT_GE(x, s.bbox.x0 - 1) << s.text;
          EXPECT_LE(x, s.bbox.x1 + 1) << s.text;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, RIntro, ::testing::Values(Engine::MuPdf, Engine::Poppler),
                         [](const auto& info) { return engine_name(info.param); });

}  // namespace
}  // namespace quire::test
