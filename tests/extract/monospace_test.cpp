// Monospace is decided once, in extract: by the font's name, by its advances over the book, or
// by a span's own advances; every later stage reads Span::monospace.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "engines.h"
#include "quire/extract.h"
#include "quire/text.h"

namespace quire {
namespace {

// A span of `text` in `font` at 10 pt from x 100, glyph i at x + the sum of the advances before it.
Span span_of(const std::string& text, const std::string& font, const std::vector<float>& advances) {
  Span s;
  s.text = text;
  s.font = font;
  s.size = 10;
  s.baseline = 100;
  float x = 100;
  const auto cps = to_u32(text);
  for (size_t i = 0; i < cps.size(); ++i) {
    s.xs.push_back(x);
    x += advances[i % advances.size()];
  }
  s.last_advance = advances.back();
  s.bbox = {100, 92, x, 102};
  return s;
}

TEST(Monospace, TypewriterFacesByName) {
  struct Case {
    const char* font;
    bool mono;
  };
  const Case cases[] = {
      {"LMMono10-Regular", true}, {"cmtt10", true},          {"ectt1000", true},        {"txtt", true},
      {"rm-lmtt10", true},        {"CourierNewPSMT", true},  {"DejaVuSansMono", true},  {"Consolas", true},
      {"SourceCodePro-Regular", true}, {"FiraCode-Retina", true}, {"cascadia-code", true}, {"Inconsolata", true},
      // Words that hold a typewriter name's letters inside them are not one.
      {"Junicode", false},        {"ArialUnicodeMS", false}, {"MonotypeCorsiva", false}, {"PerfectTen", false},
      {"LMRoman10-Regular", false}, {"GentiumPlus", false},
  };
  for (const auto& c : cases) EXPECT_EQ(detail::monospace_by_name(c.font), c.mono) << c.font;
}

TEST(Monospace, ASpansOwnAdvancesTellATypewriterFace) {
  // Five or more different glyphs on one advance: a proportional face cannot.
  EXPECT_TRUE(detail::uniform_advances(span_of("int main(void)", "F1", {6}), 0.03));
  // Proportional advances.
  EXPECT_FALSE(detail::uniform_advances(span_of("interesting", "F1", {2.8f, 5.5f, 3.3f, 4.4f, 7.2f}), 0.03));
  // Digits share one advance in proportional faces (tabular figures): a date, a page range or a
  // run of page numbers says nothing, though the comma and the period are narrower.
  Span date = span_of("26, 2019.", "F1", {5});
  date.xs = {100, 105, 110, 112.5f, 115, 120, 125, 130, 135};  // "," 2.5 pt wide, then a space
  EXPECT_FALSE(detail::uniform_advances(date, 0.03));
  EXPECT_FALSE(detail::uniform_advances(span_of("19683167", "F1", {5}), 0.03));
  EXPECT_FALSE(detail::uniform_advances(span_of("1185–1201", "F1", {5}), 0.03));
  // Too short to judge.
  EXPECT_FALSE(detail::uniform_advances(span_of("x = 1;", "F1", {6}), 0.03));
}

// The rule of uniform_advances, whole: the advances between neighbouring glyphs (spaces and
// wide characters aside), at least six of them over at least five glyphs (digits as one), all
// within the tolerance of their median.
bool uniform_by_median(const Span& s, double tolerance) {
  const std::u32string cps = to_u32(s.text);
  if (s.xs.size() < 7 || cps.size() != s.xs.size()) return false;
  std::vector<double> adv;
  std::u32string distinct;
  for (size_t i = 1; i < cps.size(); ++i)
    if (!is_space_cp(cps[i]) && !is_space_cp(cps[i - 1]) && !is_wide_cp(cps[i - 1])) {
      adv.push_back(s.xs[i] - s.xs[i - 1]);
      const char32_t g = cps[i - 1] >= U'0' && cps[i - 1] <= U'9' ? U'0' : cps[i - 1];
      if (distinct.find(g) == std::u32string::npos) distinct += g;
    }
  if (adv.size() < 6 || distinct.size() < 5) return false;
  std::vector<double> sorted = adv;
  std::sort(sorted.begin(), sorted.end());
  const double m = sorted[sorted.size() / 2];
  if (m <= 0) return false;
  for (double a : adv)
    if (std::fabs(a - m) > tolerance * m) return false;
  return true;
}

TEST(Monospace, ASpanSettledEarlyGetsTheAnswerOfTheWholeRule) {
  // uniform_advances stops at the first advances too far apart to share a median; spans
  // uneven at their start, their end or nowhere, near and far from the tolerance, must come
  // out as the whole rule has them.
  std::mt19937 random(3);
  std::uniform_real_distribution<double> unit(0, 1);
  size_t uniform = 0, uneven = 0;
  for (const double tolerance : {0.0, 0.03, 0.1, 0.3}) {
    for (int round = 0; round < 3000; ++round) {
      const size_t n = 7 + random() % 20;
      std::string text;
      for (size_t i = 0; i < n; ++i) text += static_cast<char>('a' + i % 26);
      std::vector<float> advances(n, 6);
      // Some advances off the common one, by up to twice the tolerance, at a random place.
      const size_t off = random() % 4;
      for (size_t k = 0; k < off; ++k)
        advances[random() % n] = static_cast<float>(6 * (1 + (unit(random) * 4 - 2) * std::max(tolerance, 0.01)));
      const Span s = span_of(text, "F1", advances);
      const bool whole = uniform_by_median(s, tolerance);
      ASSERT_EQ(detail::uniform_advances(s, tolerance), whole) << tolerance << " round " << round;
      ++(whole ? uniform : uneven);
    }
  }
  // Both answers were asked for, many times.
  EXPECT_GT(uniform, 1000u);
  EXPECT_GT(uneven, 1000u);
}

// One page of the spans given, a line each.
Document document_of(std::vector<Span> spans) {
  Document d;
  Page p;
  p.number = 1;
  p.width = 400;
  p.height = 600;
  double baseline = 100;
  for (auto& s : spans) {
    s.baseline = baseline;
    Line l;
    l.bbox = s.bbox;
    l.spans.push_back(std::move(s));
    p.lines.push_back(std::move(l));
    baseline += 12;
  }
  d.pages.push_back(std::move(p));
  return d;
}

TEST(Monospace, EverySpanIsDecidedOnceForEveryStage) {
  // A font with an opaque name, used too little to measure over the book: each span's own
  // advances decide. A typewriter name decides alone, whatever the advances. A proportional
  // face whose name holds "code" inside a word stays proportional.
  Document d = document_of({span_of("while (n--) sum += a[n];", "F12", {6}),
                            span_of("Accessed March 26, 2019.", "F13", {2.8f, 5.5f, 3.3f, 5, 5, 5}),
                            span_of("flush right", "SourceCodePro-Regular", {3, 7}),
                            span_of("rom fairest creatures", "Junicode", {4.9f, 4.8f, 7.8f, 2.7f, 2.8f}),
                            span_of("2, 5, 8, 11, 14, 17", "F14", {5})});
  ExtractOptions o;
  size_t pages_seen = 0;
  detail::infer_monospace(d, o, [&](Page&) { ++pages_seen; });
  EXPECT_EQ(pages_seen, 1u);
  const auto& lines = d.pages[0].lines;
  EXPECT_TRUE(lines[0].spans[0].monospace);
  EXPECT_FALSE(lines[1].spans[0].monospace);
  EXPECT_TRUE(lines[2].spans[0].monospace);
  EXPECT_FALSE(lines[3].spans[0].monospace);
  EXPECT_FALSE(lines[4].spans[0].monospace);
}

TEST(Monospace, AFontMeasuredOverTheBookDecidesItsSpans) {
  // A font and size with enough advances, all one width, is a typewriter face, even in a span
  // too short to judge alone; one whose advances differ is not, but for a span whose own
  // glyphs stand on one advance.
  std::vector<Span> spans;
  for (int i = 0; i < 6; ++i) spans.push_back(span_of("mov eax, 1", "F20", {6}));
  spans.push_back(span_of("x = 1;", "F20", {6}));
  for (int i = 0; i < 6; ++i) spans.push_back(span_of("proportional", "F21", {2.8f, 5.5f, 3.3f}));
  spans.push_back(span_of("x = 1;", "F21", {5}));
  spans.push_back(span_of("<parameter>=<value>", "F21", {5}));
  Document d = document_of(std::move(spans));
  ExtractOptions o;
  detail::infer_monospace(d, o);
  const auto& lines = d.pages[0].lines;
  EXPECT_TRUE(lines[6].spans[0].monospace);
  EXPECT_FALSE(lines[7].spans[0].monospace);
  EXPECT_FALSE(lines[13].spans[0].monospace);
  EXPECT_TRUE(lines[14].spans[0].monospace);
}

}  // namespace
}  // namespace quire
