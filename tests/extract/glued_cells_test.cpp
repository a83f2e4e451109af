// Table cells the engine read as one line (a gap between two cells no wider than a word
// space): parted at a column's edge that the rows around show, inside a ruled table only,
// or at the gap between the cells of a table painted cell by cell.
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

TEST(GluedCells, ATablePaintedCellByCellIsPartedAtTheGapBetweenItsCells) {
  // A browser paints a borderless table cell by cell, white ones too, 1.5 pt apart, and the
  // engine glued a row of two cells into one line ("Could not use modules Preconditions ...",
  // the term ending where the description starts). The gap between the cells, in line with
  // the gaps of the rows above and below, parts them as a rule would; no other line stands
  // on the glued line's baseline.
  auto cells = [](bool painted) {
    Page p;
    p.number = 1;
    p.width = 400;
    p.height = 600;
    Line glued = line_at("modules Preconditions", 100, 116);
    p.lines.push_back(line_at("Counter", 100, 100));
    p.lines.push_back(line_at("Description", 176.5, 100));
    p.lines.push_back(std::move(glued));
    p.lines.push_back(line_at("Compilation", 100, 132));
    p.lines.push_back(line_at("failed", 176.5, 132));
    if (painted)
      for (double y : {90.0, 106.5, 123.0}) {
        VectorPath left, right;
        left.bbox = {96, y, 175, y + 15};
        right.bbox = {176.5, y, 330, y + 15};
        left.fill = right.fill = true;
        left.color = right.color = 0xffffff;
        left.paper = right.paper = true;
        p.paths.push_back(left);
        p.paths.push_back(right);
      }
    return p;
  };
  // ("modules" is 7 glyphs from 100, 35 pt: the space after it is at 135; the word after it
  // at 140. The cells' gap stands there in the test's row: at 175.75, past the line's space.)
  Page p = cells(true);
  Line& g = p.lines[2];
  g.spans.front().xs[8] = 176.5f;  // "Preconditions" starts the second cell
  for (size_t k = 9; k < g.spans.front().xs.size(); ++k) g.spans.front().xs[k] = 176.5f + 5.f * static_cast<float>(k - 8);
  g.spans.front().xs[7] = 135;
  g.spans.front().bbox.x1 = g.spans.front().xs.back() + 5;
  g.bbox = g.spans.front().bbox;
  Page bare = p;
  bare.paths.clear();
  EXPECT_EQ(detail::split_page_glued_cells(p, ExtractOptions{}), 1u);
  EXPECT_EQ(texts(p), (std::vector<std::string>{"Counter", "Description", "modules", "Preconditions", "Compilation", "failed"}));
  // Without the painted cells: no ruled table, the line is left as read.
  EXPECT_EQ(detail::split_page_glued_cells(bare, ExtractOptions{}), 0u);
  // Two words on grounds of their own side by side in one line of prose are no column.
  Page words = cells(false);
  Line& w = words.lines[2];
  for (size_t k = 8; k < w.spans.front().xs.size(); ++k) w.spans.front().xs[k] = 176.5f + 5.f * static_cast<float>(k - 8);
  VectorPath a, b;
  a.bbox = {99, 107, 175, 118};
  b.bbox = {176.5, 107, 245, 118};
  a.fill = b.fill = true;
  a.color = b.color = 0xf0f0f0;
  words.paths = {a, b};
  EXPECT_EQ(detail::split_page_glued_cells(words, ExtractOptions{}), 0u);
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

// The table with its second row's first cell set as `cell`, and the line it makes the one
// line the engine read.
Page table_with_cell(const Line& cell) {
  Page p = table(false, true);
  p.lines[3] = cell;
  return p;
}

// `first` with the spans of `second` after it, as one line.
Line glued(Line first, const Line& second) {
  for (const auto& s : second.spans) first.spans.push_back(s);
  first.bbox = first.bbox.united(second.bbox);
  return first;
}

TEST(GluedCells, ACellRunOnUnderTheNextIsPartedWhereItStepsBack) {
  // "flush_watermark" ends at 175, past its column: the next cell, set on the same
  // baseline from 166, or in another face and lower (from 171 or from 176) with the rest of
  // its row (the row's cells set in the middle of its height, under the name's top line), is
  // glued to it with no space between.
  for (const float x : {166.0f, 171.0f, 176.0f}) {
    const bool lower = x != 166;
    Line next = line_at("V:12", x, lower ? 122 : 116);
    if (lower) next.spans.front().font = "DejaVuSans";
    Page p = table_with_cell(glued(line_at("flush_watermark", 100, 116, true), next));
    if (lower) {
      p.lines[4] = line_at("50", 200, 122);
      p.lines[5] = line_at("percent", 260, 122);
    }
    ASSERT_EQ(p.lines[3].text(), "flush_watermarkV:12");
    EXPECT_EQ(detail::split_page_glued_cells(p, ExtractOptions{}), 1u) << x;
    EXPECT_EQ(p.lines[3].text(), "flush_watermark") << x;
    EXPECT_EQ(p.lines[4].text(), "V:12") << x;
    EXPECT_FLOAT_EQ(static_cast<float>(p.lines[3].bbox.x1), 175) << x;
    EXPECT_FLOAT_EQ(static_cast<float>(p.lines[4].bbox.x0), x) << x;
  }
  // Within one span, as the engine gives a run of one face: the glyph after "text,ps"
  // (its "p" at 125, "s" at 130) starts at 126.
  Line l = line_at("text,psconvert", 100, 116);
  auto& xs = l.spans.front().xs;
  for (size_t i = 7; i < xs.size(); ++i) xs[i] = 126 + kAdvance * static_cast<float>(i - 7);
  l.bbox.x1 = l.spans.front().bbox.x1 = xs.back() + kAdvance;
  Page p = table_with_cell(l);
  EXPECT_EQ(detail::split_page_glued_cells(p, ExtractOptions{}), 1u);
  EXPECT_EQ(p.lines[3].text(), "text,ps");
  EXPECT_EQ(p.lines[4].text(), "convert");
  EXPECT_FLOAT_EQ(static_cast<float>(p.lines[3].bbox.x1), 135);
  EXPECT_FLOAT_EQ(static_cast<float>(p.lines[4].bbox.x0), 126);
}

TEST(GluedCells, GlyphsThatStepBackOrAsideOnPurposeStay) {
  // An accent set over its letter before it (as TeX builds "é"): the letter starts 2 pt
  // left of the accent.
  Line accented = line_at("caf\u00b4e au lait", 100, 116);
  accented.spans.front().xs[4] = accented.spans.front().xs[3] - 2;
  // A superscript over a subscript, smaller than the line's type, set at the subscript's x.
  Line indexed = glued(glued(line_at("x", 100, 116), line_at("i", 105, 118)), line_at("2 + y", 105, 111));
  indexed.spans[1].size = indexed.spans[2].size = 7;
  // Right-to-left text in its logical order: every glyph left of the one before.
  Line backwards = line_at("abcdef", 100, 116);
  for (size_t i = 0; i < 6; ++i) backwards.spans.front().xs[i] = 125 - kAdvance * static_cast<float>(i);
  // LaTeX's logo, in a face that gives every glyph one size: its "A" set two fifths of an em
  // back under the "L", the "T" after it where the "L" ends.
  const Line latex = glued(glued(line_at("L", 100, 116), line_at("a", 101, 115)), line_at("TeX", 105, 116));
  // A note mark raised at the full size, by less than a cell's line ("mode" and "1", 3 pt up).
  const Line raised = glued(line_at("mode", 100, 116), line_at("1 on", 120, 113));
  // TeX's logo: its "E" set a sixth of an em back and lowered, its "X" an eighth back.
  const Line logo = glued(glued(line_at("T", 100, 116), line_at("E", 103.33f, 118.15)), line_at("X rules", 107.08f, 116));
  // A sign built of two glyphs, the second set back over the first and higher.
  const Line sign = glued(line_at("a \u00b7", 100, 116), line_at("\u2227 b", 108, 112));
  for (const Line& cell : {accented, indexed, backwards, latex, raised, logo, sign}) {
    Page p = table_with_cell(cell);
    const auto before = texts(p);
    EXPECT_EQ(detail::split_page_glued_cells(p, ExtractOptions{}), 0u) << cell.text();
    EXPECT_EQ(texts(p), before);
  }
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
