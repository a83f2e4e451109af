// Table cells the engine read as one line (a gap between two cells no wider than a word
// space): parted at a column's edge that the rows around show, inside a ruled table only.
#include <gtest/gtest.h>

#include "engines.h"
#include "quire/text.h"

namespace quire {
namespace {

constexpr float kAdvance = 5;  // every glyph 5 pt wide, a word space one glyph
constexpr double kSize = 10;

// One line of `text` set from x at the baseline, one span, every glyph placed.
Line line_at(const std::string& text, float x, double baseline, bool monospace = false) {
  Span s;
  s.text = text;
  s.font = monospace ? "DejaVuSansMono" : "DejaVuSerif";
  s.size = kSize;
  s.monospace = monospace;
  s.baseline = baseline;
  s.last_advance = kAdvance;
  const auto cps = to_u32(text);
  for (size_t i = 0; i < cps.size(); ++i) s.xs.push_back(x + kAdvance * static_cast<float>(i));
  s.bbox = {x, baseline - 8, x + kAdvance * static_cast<float>(cps.size()), baseline + 2};
  Line l;
  l.bbox = s.bbox;
  l.spans.push_back(std::move(s));
  return l;
}

VectorPath rule(double x0, double x1, double y) {
  VectorPath p;
  p.bbox = {x0, y, x1, y + 0.4};
  p.stroke = true;
  p.line_width = 0.4;
  return p;
}

// A three-column table at x 100, 200 and 260, rows 16 pt apart; cells "flush_watermark"
// (15 glyphs, 75 pt: it ends at 175) and "50" in the second row are set one word space
// apart, as one line, when `glued`; `rules` draws the table's rules, as two pieces each.
Page table(bool glued, bool rules, bool monospace = false) {
  Page p;
  p.number = 1;
  p.width = 400;
  p.height = 600;
  p.lines.push_back(line_at("Parameter", 100, 100, monospace));
  p.lines.push_back(line_at("Default", 200, 100, monospace));
  p.lines.push_back(line_at("Unit", 260, 100, monospace));
  if (glued) {
    // The engine's line holds the gap as one space: the glyph after it starts at 200.
    Line l = line_at("flush_watermark", 100, 116, monospace);
    Span& s = l.spans.front();
    s.text += " 50";
    s.xs.push_back(175);
    s.xs.push_back(200);
    s.xs.push_back(205);
    s.bbox.x1 = 210;
    l.bbox = s.bbox;
    p.lines.push_back(std::move(l));
  } else {
    p.lines.push_back(line_at("flush_watermark", 100, 116, monospace));
    p.lines.push_back(line_at("50", 200, 116, monospace));
  }
  p.lines.push_back(line_at("percent", 260, 116, monospace));
  p.lines.push_back(line_at("max_batch", 100, 132, monospace));
  p.lines.push_back(line_at("4096", 200, 132, monospace));
  p.lines.push_back(line_at("records", 260, 132, monospace));
  p.lines.push_back(line_at("fsync", 100, 148, monospace));
  p.lines.push_back(line_at("yes", 200, 148, monospace));
  p.lines.push_back(line_at("boolean", 260, 148, monospace));
  if (rules)
    for (double y : {88.0, 104.0, 152.0}) {
      p.paths.push_back(rule(96, 205, y));
      p.paths.push_back(rule(195, 300, y));
    }
  return p;
}

std::vector<std::string> texts(const Page& p) {
  std::vector<std::string> out;
  for (const auto& l : p.lines) out.push_back(l.text());
  return out;
}

TEST(GluedCells, ACellGluedToItsNeighbourIsPartedAtTheColumnEdge) {
  Page p = table(true, true);
  EXPECT_EQ(detail::split_page_glued_cells(p, ExtractOptions{}), 1u);
  Page want = table(false, true);
  EXPECT_EQ(texts(p), texts(want));
  // The pieces stand where their glyphs are: the word after the gap starts the column.
  const Line& right = p.lines[4];
  EXPECT_EQ(right.text(), "50");
  EXPECT_FLOAT_EQ(static_cast<float>(right.bbox.x0), 200);
  EXPECT_EQ(right.spans.front().xs, (std::vector<float>{200, 205}));
  const Line& left = p.lines[3];
  EXPECT_EQ(left.text(), "flush_watermark");
  EXPECT_EQ(left.spans.front().xs.size(), 15u);
  EXPECT_LE(left.bbox.x1, 175.5);
}

TEST(GluedCells, WithoutRulesTheGridIsLeftAsRead) {
  // Contents pages, glossaries and indexes set their columns without rules.
  Page p = table(true, false);
  const auto before = texts(p);
  EXPECT_EQ(detail::split_page_glued_cells(p, ExtractOptions{}), 0u);
  EXPECT_EQ(texts(p), before);
}

TEST(GluedCells, MonospaceTypeIsNeverParted) {
  // A listing's columns are its own (the code grid reads them).
  Page p = table(true, true, true);
  EXPECT_EQ(detail::split_page_glued_cells(p, ExtractOptions{}), 0u);
}

// A rule drawn down between two columns, from the header's rule to the table's foot.
VectorPath column_rule(double x) {
  VectorPath p;
  p.bbox = {x - 0.2, 88, x + 0.2, 152.4};
  p.stroke = true;
  p.line_width = 0.4;
  return p;
}

TEST(GluedCells, AColumnRuleThroughTheGapPartsCellsInAnyFace) {
  // A table ruled column by column: the rule drawn down through the space between two
  // words of the line says they are two cells, in the typewriter face as in any other, and
  // whether or not the column shows an edge (numbers set flush right show none).
  for (const bool monospace : {true, false}) {
    Page p = table(true, true, monospace);
    for (auto& l : p.lines)
      if (l.bbox.x0 == 200) l = line_at("1234", 200, l.spans.front().baseline, monospace);
    p.paths.push_back(column_rule(190));
    p.paths.push_back(column_rule(250));
    EXPECT_EQ(detail::split_page_glued_cells(p, ExtractOptions{}), 1u) << monospace;
    EXPECT_EQ(p.lines[3].text(), "flush_watermark") << monospace;
    EXPECT_EQ(p.lines[4].text(), "50") << monospace;
  }
  // A rule that runs down beside the gap, not through it, parts nothing.
  Page p = table(true, true, true);
  p.paths.push_back(column_rule(215));
  EXPECT_EQ(detail::split_page_glued_cells(p, ExtractOptions{}), 0u);
}

TEST(GluedCells, ALineAloneOnItsBaselineIsNeverParted) {
  // Prose across the table's width is no cell, wherever its words fall.
  Page p = table(false, true);
  p.lines.push_back(line_at("The flusher wakes up when the ring is half full.", 100, 140));
  // Its word "ring" (glyph 29) is moved to start at the second column's edge.
  Span& s = p.lines.back().spans.front();
  const float shift = 200 - s.xs[29];
  for (size_t i = 29; i < s.xs.size(); ++i) s.xs[i] += shift;
  EXPECT_EQ(detail::split_page_glued_cells(p, ExtractOptions{}), 0u);
}

TEST(GluedCells, AColumnSetFlushRightShowsNoEdge) {
  // Numbers of as many digits start and end together in a column set flush right: a word
  // that starts there may start anywhere in its cell.
  Page p = table(true, true);
  // The second column's other cells: all four-glyph numbers, ending together.
  for (auto& l : p.lines)
    if (l.bbox.x0 == 200) l = line_at("1234", 200, l.spans.front().baseline);
  EXPECT_EQ(detail::split_page_glued_cells(p, ExtractOptions{}), 0u);
}

}  // namespace
}  // namespace quire
