// Spaces an engine reads into the gaps of a listing set in character cells wider than its
// glyphs (LaTeX's listings with its default fixed columns): taken out, and only there.
#include <gtest/gtest.h>

#include "engines.h"
#include "quire/text.h"

namespace quire {
namespace {

struct Glyph {
  char32_t c;
  float x;
};

Span span_of(const std::vector<Glyph>& glyphs, const std::string& font, float advance, float size = 10) {
  Span s;
  std::u32string text;
  for (const auto& g : glyphs) {
    text.push_back(g.c);
    s.xs.push_back(g.x);
  }
  s.text = from_u32(text);
  s.font = font;
  s.size = size;
  s.monospace = true;
  s.last_advance = advance;
  s.baseline = 100;
  s.bbox = {glyphs.front().x, 92, glyphs.back().x + advance, 102};
  return s;
}

// `source` laid out in cells of `cell` points, each character placed as the listings package
// places it: the glyphs of a word spread over its cells, a lone character in the middle of
// its cell.
std::vector<Glyph> cells(const std::string& source, float cell, float advance) {
  std::vector<Glyph> out;
  const auto cps = to_u32(source);
  size_t i = 0;
  while (i < cps.size()) {
    if (cps[i] == U' ') {
      out.push_back({U' ', 72 + cell * static_cast<float>(i)});
      ++i;
      continue;
    }
    size_t e = i;
    while (e < cps.size() && cps[e] != U' ') ++e;
    const auto n = static_cast<float>(e - i);
    const float slack = (cell - advance) * n / (n + 1);
    for (size_t k = i; k < e; ++k) {
      out.push_back({cps[k], 72 + cell * static_cast<float>(i) + slack * static_cast<float>(k - i + 1) +
                                 advance * static_cast<float>(k - i)});
    }
    i = e;
  }
  return out;
}

Document one_line(std::vector<Span> spans) {
  Line l;
  l.spans = std::move(spans);
  l.bbox = l.spans.front().bbox;
  for (const auto& s : l.spans) l.bbox = l.bbox.united(s.bbox);
  Page p;
  p.number = 1;
  p.lines.push_back(std::move(l));
  Document d;
  d.pages.push_back(std::move(p));
  return d;
}

TEST(CellGaps, EngineSpacesInsideAWordOfWideCellsGo) {
  // 0.63 em cells for a 0.525 em face: the engine put spaces before the comma and the
  // bracket of "read(self, size):", where the source has none.
  std::vector<Glyph> g = cells("def read(self, size):", 6.3f, 5.25f);
  // The engine's spaces: after "self" and after "size".
  std::vector<Glyph> with;
  for (size_t k = 0; k < g.size(); ++k) {
    with.push_back(g[k]);
    if ((g[k].c == U'f' && k + 1 < g.size() && g[k + 1].c == U',') || (g[k].c == U'e' && k + 1 < g.size() && g[k + 1].c == U')'))
      with.push_back({U' ', g[k].x + 5.25f});
  }
  Document d = one_line({span_of(with, "LMMono10-Regular", 5.25f)});
  ASSERT_EQ(d.pages[0].lines[0].text(), "def read(self , size ):");
  EXPECT_EQ(detail::drop_cell_gaps(d), 2u);
  const Span& s = d.pages[0].lines[0].spans[0];
  EXPECT_EQ(s.text, "def read(self, size):");
  EXPECT_EQ(s.xs.size(), utf8_length(s.text));
  EXPECT_FLOAT_EQ(s.xs[13], g[13].x);  // the comma kept its place
}

TEST(CellGaps, RealSpacesAndTypeAtItsOwnAdvanceStay) {
  // A space of the source is a cell of its own: two cells from glyph to glyph.
  Document wide = one_line({span_of(cells("x = f(a, b)", 6.3f, 5.25f), "LMMono10-Regular", 5.25f)});
  EXPECT_EQ(detail::drop_cell_gaps(wide), 0u);
  EXPECT_EQ(wide.pages[0].lines[0].text(), "x = f(a, b)");
  // Type set at its own advance: a thin space before a colon is narrower than a cell, and a
  // space all the same ("Zappa :", French typography in a typewriter face).
  std::vector<Glyph> thin;
  float x = 72;
  for (char32_t c : std::u32string(U"Zappa")) {
    thin.push_back({c, x});
    x += 5.25f;
  }
  thin.push_back({U' ', x});
  thin.push_back({U':', x + 1.7f});
  thin.push_back({U'x', x + 1.7f + 5.25f});
  Document natural = one_line({span_of(thin, "CMTT10", 5.25f)});
  EXPECT_EQ(detail::drop_cell_gaps(natural), 0u);
  EXPECT_EQ(natural.pages[0].lines[0].text(), "Zappa :x");
}

TEST(CellGaps, ASpaceBetweenTwoFacesStays) {
  // A narrow symbol of another face beside the code ("| \lastnodetype"): the word space after
  // it is less than a cell of the code, and a space.
  Span bar = span_of({{U'|', 72}}, "CMSY10", 2.77f);
  std::vector<Glyph> g = {{U' ', 74.77f}};
  float x = 78.1f;
  for (char32_t c : std::u32string(U"\\lastnodetype")) {
    g.push_back({c, x});
    x += 6.3f;
  }
  Span code = span_of(g, "CMTT10", 5.25f);
  Document d = one_line({bar, code});
  EXPECT_EQ(detail::drop_cell_gaps(d), 0u);
  EXPECT_EQ(d.pages[0].lines[0].text(), "| \\lastnodetype");
}

}  // namespace
}  // namespace quire
