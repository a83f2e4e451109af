// Figure regions: which drawings are figures, which text is their labels, and how their
// crops render. Synthetic pages state one typographic fact each; real books are used when
// installed and skipped otherwise.
#include <png.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "figures.h"
#include "quire/clean.h"
#include "quire/extract.h"
#include "quire/layout.h"
#include "quire/model.h"

namespace fs = std::filesystem;
using quire::Box;
using quire::Image;
using quire::LayoutOptions;
using quire::Line;
using quire::Page;
using quire::Span;
using quire::VectorPath;
using quire::detail::find_figures;
using quire::detail::FigureRegion;

namespace {

// ---- building synthetic pages (US letter, 1 in margins, 10 pt body) ----

constexpr double kBody = 10;

Page letter_page() {
  Page p;
  p.number = 1;
  p.width = 612;
  p.height = 792;
  return p;
}

// A line of text whose box is the font's (ascent to descent, ~1.2 x size tall).
void add_line(Page& p, double x0, double y0, const std::string& text, double size = kBody, bool mono = false) {
  Line l;
  const double w = 0.5 * size * static_cast<double>(text.size());
  l.bbox = {x0, y0, x0 + w, y0 + 1.2 * size};
  Span s;
  s.text = text;
  s.bbox = l.bbox;
  s.size = size;
  s.monospace = mono;
  s.font = mono ? "CMTT10" : "CMR10";
  s.baseline = y0 + size;
  l.spans.push_back(s);
  p.lines.push_back(l);
}

// A paragraph of full-width body lines at 12 pt pitch.
void add_paragraph(Page& p, double x0, double y0, int lines, double width_chars = 86) {
  for (int i = 0; i < lines; ++i)
    add_line(p, x0, y0 + 12 * i, std::string(static_cast<size_t>(width_chars), 'a'));
}

void add_fill(Page& p, Box b, uint32_t color = 0xf0f0f0) { p.paths.push_back({b, true, false, 0, color}); }

// A stroke as MuPDF records it: the geometry padded by line width x miter limit (10).
void add_stroke(Page& p, Box g, double lw = 0.4) {
  const double pad = lw * 10;
  p.paths.push_back({{g.x0 - pad, g.y0 - pad, g.x1 + pad, g.y1 + pad}, false, true, lw, 0});
}

// A TikZ node: a filled, stroked rectangle with a label centred in it.
void add_node(Page& p, double x0, double y0, const std::string& label) {
  const double w = 0.5 * kBody * static_cast<double>(label.size()) + 12;
  add_fill(p, {x0, y0, x0 + w, y0 + 20});
  add_stroke(p, {x0, y0, x0 + w, y0 + 20});
  add_line(p, x0 + 6, y0 + 4, label, 9);
}

// A diagram of three nodes joined by arrows, `left` to `left + 260`, from `top`.
void add_diagram(Page& p, double left, double top) {
  add_node(p, left, top, "producer");
  add_node(p, left + 110, top, "ring");
  add_node(p, left + 200, top + 40, "spool");
  add_stroke(p, {left + 52, top + 10, left + 110, top + 10});       // arrow producer -> ring
  add_stroke(p, {left + 142, top + 20, left + 215, top + 40});      // arrow ring -> spool (diagonal)
}

std::vector<std::string> all_labels(const std::vector<FigureRegion>& regions) {
  std::vector<std::string> out;
  for (const auto& r : regions) out.insert(out.end(), r.labels.begin(), r.labels.end());
  return out;
}

// ---- synthetic pages ----

TEST(Figures, RasterImageIsAFigure) {
  // A photograph or screenshot placed as an image is a figure, marked raster.
  Page p = letter_page();
  add_paragraph(p, 72, 72, 5);
  p.images.push_back({{150, 150, 450, 350}, 800, 533, false});
  add_line(p, 72, 360, "Figure 1.1: A screenshot.");
  auto r = find_figures(p, LayoutOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].raster);
  EXPECT_TRUE(r[0].bbox.contains(Box{150, 150, 450, 350}));
  EXPECT_TRUE(r[0].labels.empty()) << "the caption is not a label";
}

TEST(Figures, VectorDiagramTakesItsLabels) {
  // Node labels drawn inside a diagram belong to the figure, in reading order; the body
  // paragraphs above and below it stay prose.
  Page p = letter_page();
  add_paragraph(p, 72, 72, 4);
  add_diagram(p, 150, 160);
  add_paragraph(p, 72, 260, 4);
  auto r = find_figures(p, LayoutOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_FALSE(r[0].raster);
  EXPECT_EQ(r[0].labels, (std::vector<std::string>{"producer", "ring", "spool"}));
  for (size_t i : r[0].label_lines) EXPECT_NE(p.lines[i].text().front(), 'a') << "a body line was taken";
  EXPECT_LE(r[0].bbox.y1, 260) << "the crop stops before the next paragraph";
  EXPECT_GE(r[0].bbox.y0, 72 + 12 * 4) << "the crop starts after the paragraph above";
}

TEST(Figures, NodeSetApartBelowADiagramIsPartOfIt) {
  // A diagram's node joined to nothing, set a node distance (1 cm) under the rest: a
  // stroked circle with one word in it. It is the figure's, and its word a label. A framed
  // command line the same distance under a diagram is a listing, and stays text.
  Page p = letter_page();
  add_paragraph(p, 72, 72, 4);
  add_diagram(p, 150, 160);
  add_stroke(p, {300, 248, 330, 278}, 0.8);  // the circle, 28 pt under "spool"
  add_line(p, 302, 257, "kernel", 9);
  add_line(p, 200, 300, "Figure 1.2: The producer talks to the spool.");
  add_paragraph(p, 72, 330, 4);
  auto r = find_figures(p, LayoutOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].labels, (std::vector<std::string>{"producer", "ring", "spool", "kernel"}));
  EXPECT_GE(r[0].bbox.y1, 278);
  EXPECT_LT(r[0].bbox.y1, 300) << "the caption is not in the crop";

  Page q = letter_page();
  add_paragraph(q, 72, 72, 4);
  add_diagram(q, 150, 160);
  add_stroke(q, {250, 248, 330, 262}, 0.4);
  add_line(q, 254, 250, "make", 9, true);
  add_paragraph(q, 72, 300, 4);
  auto s = find_figures(q, LayoutOptions{});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].labels, (std::vector<std::string>{"producer", "ring", "spool"}));
}

TEST(Figures, CircledWordUnderBoxesIsPartOfTheirFigure) {
  // An SVG diagram as Asciidoctor PDF draws it: two boxes with a name each, a line between
  // them, and a circle with a word 17 pt under them. The circle and its word alone would be a
  // figure; standing this near the boxes, it is theirs. Far from any drawing it is a figure of
  // its own.
  auto diagram = [](Page& p, double circle_top) {
    add_stroke(p, {68, 100, 148, 140}, 2);
    add_line(p, 89, 112, "client", 11);
    add_stroke(p, {148, 120, 238, 120}, 2);
    add_stroke(p, {238, 100, 328, 140}, 2);
    add_line(p, 268, 112, "buffer", 11);
    add_stroke(p, {180, circle_top, 216, circle_top + 33}, 1);
    add_line(p, 185, circle_top + 11, "driver", 10);
  };
  Page p = letter_page();
  diagram(p, 157);
  add_line(p, 48, 204, "Figure 6. How the client talks to the buffer");
  add_paragraph(p, 48, 240, 4);
  auto r = find_figures(p, LayoutOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].labels, (std::vector<std::string>{"client", "buffer", "driver"}));
  EXPECT_GE(r[0].bbox.y1, 190);

  Page q = letter_page();
  diagram(q, 400);
  add_paragraph(q, 48, 500, 4);
  auto s = find_figures(q, LayoutOptions{});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1].labels, (std::vector<std::string>{"driver"}));
}

TEST(Figures, ShadedCodeBoxIsNotAFigure) {
  // A shaded, framed box behind a code listing holds lines of monospace text and no other
  // drawing: it is a listing.
  Page p = letter_page();
  add_fill(p, {72, 100, 540, 190});
  add_stroke(p, {72, 100, 540, 190});
  for (int i = 0; i < 6; ++i) add_line(p, 80, 106 + 13 * i, i % 2 ? "  return x;" : "int f(int x) {", 9, true);
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
}

TEST(Figures, SyntaxBoxWithTallBracketGlyphsIsNotAFigure) {
  // A framed command definition: a syntax line whose angle brackets come from a symbol
  // font with tall glyph boxes, over a line naming the file. The first line's box reaches
  // down across the second's, yet they are two rows by their baselines: a text box.
  Page p = letter_page();
  add_fill(p, {73, 287, 522, 335}, 0x000000);
  add_fill(p, {75, 289, 520, 333}, 0xffffbf);
  add_line(p, 90, 296, "\\TrackLangScriptIfHasParent{", 12, true);
  add_line(p, 310, 311, "tracklang-scripts.tex v1.3+", 10, true);
  Line& syntax = p.lines[0];
  Span bracket;
  bracket.text = "<alpha code>{<true>}{<false>}";
  bracket.font = "CMSY10";
  bracket.size = 12;
  bracket.baseline = syntax.spans[0].baseline;
  bracket.bbox = {260, 294.9, 417, 318.8};  // the symbol font's box: far below the baseline
  syntax.spans.push_back(bracket);
  syntax.bbox = syntax.bbox.united(bracket.bbox);
  p.lines[1].bbox.x0 = p.lines[1].spans[0].bbox.x0 = 90;
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
}

TEST(Figures, CodeBoxDrawnInPiecesIsNotAFigure) {
  // A listing's background drawn as a band above, a band below and, line by line, a wide
  // strip of padding on either side: the strips are the box, not two tall figures.
  Page p = letter_page();
  add_paragraph(p, 100, 72, 3, 80);
  add_fill(p, {72, 110, 540, 112}, 0xf7f7ab);
  for (int i = 0; i < 8; ++i) {
    add_fill(p, {72, 111 + 13.0 * i, 97, 124 + 13.0 * i}, 0xf7f7ab);
    add_fill(p, {515, 111 + 13.0 * i, 540, 124 + 13.0 * i}, 0xf7f7ab);
    add_line(p, 102, 112 + 13.0 * i, i % 2 ? "  return x;" : "int f(int x) {", 9, true);
  }
  add_fill(p, {72, 215, 540, 217}, 0xf7f7ab);
  add_paragraph(p, 100, 230, 3, 80);
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
}

TEST(Figures, BadgesAndHighlightsBehindTextAreNotFigures) {
  // A heading's number set on a coloured square, and a word highlighted in a sentence: flat
  // shapes each behind a text of its own are that text's background.
  Page p = letter_page();
  add_fill(p, {72, 100, 97, 125}, 0xf7f7ab);
  add_line(p, 75, 104, "2.10 Namespaces", 14);
  add_paragraph(p, 72, 140, 2, 86);
  add_fill(p, {160, 163, 215, 175}, 0xf7f7ab);
  add_line(p, 72, 164, "The command");
  add_line(p, 162, 164, "\\mydotfill");
  add_line(p, 220, 164, "prints the dots in the table of contents and goes on.");
  add_paragraph(p, 72, 176, 3, 86);
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
}

TEST(Figures, ABrowsersListBulletsAndLinkUnderlinesBesideWordsOnAGreyGroundAreNotFigures) {
  // A browser prints an argument list: each item's bullet drawn as a disc (a ring one level
  // down, stroked), its name set as code on a grey ground, its type a link underlined by a
  // thin fill under its glyphs. Marks of the words beside and under them, not a drawing. The
  // same shapes with no words to mark are one.
  auto list = [](bool words) {
    Page p = letter_page();
    add_paragraph(p, 72, 150, 3);
    add_fill(p, {62, 203, 65, 206}, 0x333333);  // a disc before the first item
    add_fill(p, {70, 199, 114, 212});           // "callback" on grey
    add_fill(p, {120, 210.8, 170, 211.55}, 0x3e7a38);
    add_stroke(p, {84, 219, 87, 222}, 0.75);  // a ring before the second
    add_fill(p, {88, 213, 106, 226});
    add_fill(p, {110, 224.8, 145, 225.55}, 0x3e7a38);
    if (words) {
      add_line(p, 72, 200, "callback", kBody, true);
      add_line(p, 120, 200, "<Function>");
      add_line(p, 90, 214, "err", kBody, true);
      add_line(p, 110, 214, "<Error>");
    }
    add_paragraph(p, 72, 240, 3);
    return find_figures(p, LayoutOptions{}).size();
  };
  EXPECT_EQ(list(true), 0u);
  EXPECT_EQ(list(false), 1u);
}

TEST(Figures, ACodeBoxWhoseLinesArePaintedInItsOwnGreyIsNotAFigure) {
  // A browser paints a listing's box grey and each line's code element on it in the same
  // grey, then a button ("COPY") in a corner. Grey on the same grey shows nothing; what
  // shows is a box of code with a button in it.
  Page p = letter_page();
  add_paragraph(p, 72, 60, 3);
  add_fill(p, {72, 110, 540, 214}, 0xf2f2f2);
  for (int i = 0; i < 6; ++i) {
    add_fill(p, {80, 118 + 13.0 * i, 330, 128 + 13.0 * i}, 0xf2f2f2);
    add_line(p, 80, 118 + 13.0 * i, std::string(50, 'x'), 9, true);
  }
  add_fill(p, {470, 194, 532, 207}, 0x3e7a38);
  add_line(p, 486, 196, "COPY", 7.5);
  add_paragraph(p, 72, 230, 3);
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
}

TEST(Figures, AShortListingIsTextWithABlankLineOrAButtonBesideIt) {
  // A box of two lines of code with a blank line of the listing between them, and a box of
  // one line of code with a button's label beside it on its row: listings, not drawings. Two
  // short labels in sans far apart in a box are one (a stack of layers).
  auto box = [](const std::vector<std::pair<double, std::string>>& rows, bool mono, bool button) {
    Page p = letter_page();
    add_paragraph(p, 72, 60, 3);
    add_fill(p, {72, 110, 540, 171}, 0xf2f2f2);
    for (const auto& [y, text] : rows) add_line(p, 80, y, text, 9, mono);
    if (button) {
      add_fill(p, {470, 146, 532, 160}, 0x3e7a38);
      add_line(p, 486, 148, "COPY", 7.5);
    }
    add_paragraph(p, 72, 190, 3);
    return find_figures(p, LayoutOptions{}).size();
  };
  EXPECT_EQ(box({{120, "import { appendFile } from 'node:fs';"}, {147, "appendFile('message.txt', 'data');"}}, true, false), 0u);
  EXPECT_EQ(box({{148, "const stream = require('node:stream');"}}, true, true), 0u);
  EXPECT_EQ(box({{112, "Server"}, {150, "Client"}}, false, false), 1u);
}

TEST(Figures, AFramedBoxOfShortLinesOfWordsAtOneEdgeIsText) {
  // A frame round three macros' names, each on a line of the body's type at one left edge
  // (groff's mom manual printed by a browser): a box of text, though its lines are short and
  // fill little of it. Single letters stacked so in a frame are a drawing's specimen ("x"
  // boxes showing a spacing), and labels set at different edges a drawing's.
  auto framed = [](const std::vector<std::pair<double, std::string>>& lines) {
    Page p = letter_page();
    add_paragraph(p, 72, 60, 3);
    add_fill(p, {78, 110, 534, 168}, 0xffffff);
    add_stroke(p, {72, 104, 540, 174}, 0.7);
    for (size_t i = 0; i < lines.size(); ++i) add_line(p, lines[i].first, 114 + 17.0 * static_cast<double>(i), lines[i].second);
    add_paragraph(p, 72, 190, 3);
    return find_figures(p, LayoutOptions{}).size();
  };
  EXPECT_EQ(framed({{86, "Macro: LEFT"}, {86, "Macro: RIGHT"}, {86, "Macro: CENTER (alias CENTRE)"}}), 0u);
  EXPECT_EQ(framed({{86, "x"}, {86, "x"}, {86, "x"}}), 1u);
  EXPECT_EQ(framed({{86, "Server"}, {260, "Proxy"}, {420, "Client"}}), 1u);
}

TEST(Figures, AFramedBoxAroundOneRowOfTextIsItsBanner) {
  // A macro's name set in a white box with a rule drawn round it (the ground and the frame
  // two shapes): the name's banner, as a coloured band is a heading's.
  Page p = letter_page();
  add_paragraph(p, 72, 60, 3);
  add_fill(p, {78, 110, 534, 134}, 0xffffff);
  add_stroke(p, {72, 104, 540, 140}, 0.7);
  add_line(p, 86, 116, "Macro: L_MARGIN <left margin>", 11);
  add_paragraph(p, 72, 150, 3);
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
}

TEST(Figures, ATablesRulesWithWordsOnAGreyGroundInItsCellsAreNotAFigure) {
  // A browser's ruled table whose first column's names are set as code on a grey ground:
  // rules and the words' grounds, no drawing.
  Page p = letter_page();
  for (double y : {100.0, 116.0, 132.0, 148.0, 164.0}) add_fill(p, {100, y, 500, y + 0.75}, 0xaaaaaa);
  for (double x : {100.0, 250.0, 380.0, 500.0}) add_fill(p, {x, 100, x + 0.75, 164}, 0xaaaaaa);
  for (int row = 0; row < 4; ++row) {
    add_fill(p, {106, 103 + 16.0 * row, 156, 114 + 16.0 * row});
    add_line(p, 108, 102 + 16 * row, "S_IRUSR", kBody, true);
    for (double x : {260.0, 390.0}) add_line(p, x, 102 + 16 * row, "cell");
  }
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
}

TEST(Figures, HeadingOnAColouredBandIsNotAFigure) {
  // A heading style that sets the title on a full-width coloured band (HTML printed): one
  // flat shape a few times the height of the one row of text on it is that text's banner.
  // One tall box with a word in it is a drawing.
  Page p = letter_page();
  add_paragraph(p, 72, 60, 3);
  add_fill(p, {72, 100, 540, 136}, 0xe0e0ff);
  add_line(p, 84, 110, "1 Introduction", 12);
  add_paragraph(p, 72, 148, 3);
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
  Page q = letter_page();
  add_paragraph(q, 72, 60, 3);
  add_fill(q, {200, 110, 400, 230}, 0xe0e0ff);
  add_line(q, 280, 165, "Server");
  add_paragraph(q, 72, 250, 3);
  EXPECT_EQ(find_figures(q, LayoutOptions{}).size(), 1u);
}

TEST(Figures, ABarRunningOffThePageIsNotAFigure) {
  // A chapter opening's black band (memoir's veelo style) or a thumb index's tab: filled
  // shapes that run past the page's side. The same shape inside the page is a drawing.
  Page p = letter_page();
  add_paragraph(p, 72, 60, 3);
  add_fill(p, {526, 190, 673, 241}, 0x000000);
  add_line(p, 384, 230, "CHAPTER 2", 17);
  add_paragraph(p, 72, 280, 3);
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
  Page q = letter_page();
  add_paragraph(q, 72, 60, 3);
  add_fill(q, {380, 190, 527, 241}, 0x000000);
  add_paragraph(q, 72, 280, 3);
  EXPECT_EQ(find_figures(q, LayoutOptions{}).size(), 1u);
}

TEST(Figures, AFrameWithRoundedCornersAroundTextIsNotAFigure) {
  // Texinfo's cartouche: four rules and four quarter circles (small filled shapes in the
  // corners) around an example and a sentence. A frame, not a drawing; a circle in the
  // middle of a frame of rules is.
  Page p = letter_page();
  add_paragraph(p, 72, 60, 3);
  add_fill(p, {119, 100, 499, 100.4}, 0);  // top
  add_fill(p, {119, 220, 499, 220.4}, 0);  // bottom
  add_fill(p, {113, 106, 113.4, 214}, 0);  // left
  add_fill(p, {505, 106, 505.4, 214}, 0);  // right
  for (const Box& corner : {Box{113, 100, 119, 106}, Box{499, 100, 505, 106}, Box{113, 214, 119, 220}, Box{499, 214, 505, 220}})
    add_fill(p, corner, 0);
  add_line(p, 130, 110, "p(x) = lambda^x exp(-lambda)/x!", kBody, true);
  add_line(p, 130, 160, "For text on-line help we get something like this.");
  add_line(p, 130, 190, "for x = 0, 1, 2, ....", kBody, true);
  add_paragraph(p, 72, 240, 3);
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
  Page q = p;
  add_fill(q, {290, 130, 320, 150}, 0);  // a shape inside
  EXPECT_EQ(find_figures(q, LayoutOptions{}).size(), 1u);
}

TEST(Figures, ShapesOneAboveTheOtherWithNoTextBetweenAreOneFigure) {
  // An SVG of separate shapes (two boxes joined by a line, a disc 15 pt below them) is one
  // picture. With a line of text between the two, they are two.
  Page p = letter_page();
  add_paragraph(p, 72, 60, 3);
  add_fill(p, {150, 150, 220, 180}, 0x000000);
  add_fill(p, {220, 164, 280, 165}, 0x000000);
  add_fill(p, {280, 150, 350, 180}, 0x000000);
  add_fill(p, {230, 195, 260, 225}, 0x888888);
  add_paragraph(p, 72, 260, 3);
  auto one = find_figures(p, LayoutOptions{});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_LE(one[0].bbox.y0, 150.5);
  EXPECT_GE(one[0].bbox.y1, 224.5);
  Page q = p;
  add_line(q, 72, 190, "or:");
  EXPECT_EQ(find_figures(q, LayoutOptions{}).size(), 2u);
}

TEST(Figures, StackOfFlatLayersWithLabelsIsAFigure) {
  // A stack of wide filled layers, each with a short label in the middle, is a drawing: the
  // labels fill little of their layers.
  Page p = letter_page();
  add_paragraph(p, 72, 72, 3);
  const char* names[] = {"Application", "Kernel", "Hardware"};
  for (int i = 0; i < 3; ++i) {
    add_fill(p, {180, 130 + 28.0 * i, 430, 154 + 28.0 * i}, 0xd0e0f0 + static_cast<uint32_t>(i));
    add_line(p, 280, 136 + 28.0 * i, names[i]);
  }
  add_paragraph(p, 72, 230, 3);
  auto r = find_figures(p, LayoutOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].labels, (std::vector<std::string>{"Application", "Kernel", "Hardware"}));
}

TEST(Figures, NoteBoxOfProseIsNotAFigure) {
  // A framed note of prose with a small icon in its corner is a note, not a figure.
  Page p = letter_page();
  add_fill(p, {72, 100, 540, 160}, 0xeeeeff);
  add_fill(p, {80, 106, 92, 118}, 0x0000ff);  // icon
  add_paragraph(p, 100, 104, 4, 84);
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
}

// A line of running text in the body type, `words` words long (about the measure at 9).
std::string running_text(int words) {
  std::string t;
  for (int i = 0; i < words; ++i) {
    if (i) t += ' ';
    t += "wordy";
  }
  return t;
}

TEST(Figures, PaperColouredBackgroundBehindProseIsNoFigure) {
  // A browser paints a white rectangle behind a whole page of text: paint of the paper's
  // colour on bare paper, which shows nothing. The screenshot on the page is the figure;
  // the prose above and below it is no label of a page-sized figure.
  Page p = letter_page();
  VectorPath background{{36, 60, 576, 640}, true, false, 0, 0xffffff};  // (under page_background_ratio)
  background.paper = true;
  p.paths.push_back(background);
  for (int i = 0; i < 8; ++i) add_line(p, 72, 72 + 12 * i, running_text(14));
  p.images.push_back({{150, 180, 450, 380}, 800, 533, false});
  add_line(p, 72, 390, "Figure 1.1: A screenshot.");
  for (int i = 0; i < 16; ++i) add_line(p, 72, 420 + 12 * i, running_text(14));
  auto r = find_figures(p, LayoutOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].labels.empty());
  EXPECT_LE(r[0].bbox.y1, 390);
  EXPECT_GE(r[0].bbox.y0, 72 + 12 * 8);
  // Paper-coloured paint alone is nothing to see.
  Page q = letter_page();
  q.paths.push_back(background);
  add_line(q, 72, 72, "A heading");
  EXPECT_TRUE(find_figures(q, LayoutOptions{}).empty());
}

TEST(Figures, AWebPagesPanelPrintedPastThePageOnItsGroundIsNoFigure) {
  // A web page printed with its content panel wider than the paper: the page's ground, then
  // the panel's ground set in from it and running past the page's right edge, a note box in
  // the panel. Neither ground spans the pair's width, but each lies under its whole height:
  // they are grounds, and the prose, a heading and a macro line on them are the page's text.
  // A diagram's container box around its nodes is still a figure.
  Page p = letter_page();
  add_fill(p, {56, 56, 539, 760}, 0xf5faff);
  add_fill(p, {62, 65, 612, 770}, 0xffffeb);
  add_fill(p, {72, 300, 612, 350}, 0xf9f9d9);
  for (int i = 0; i < 8; ++i) add_line(p, 72, 80 + 12 * i, running_text(14));
  add_line(p, 72, 200, "RIGHT MARGIN");
  add_line(p, 80, 220, ".R_MARGIN 6P", kBody, true);
  for (int i = 0; i < 3; ++i) add_line(p, 84, 310 + 12 * i, running_text(13));
  for (int i = 0; i < 20; ++i) add_line(p, 72, 400 + 12 * i, running_text(14));
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());

  Page d = letter_page();
  add_paragraph(d, 72, 72, 5);
  add_fill(d, {100, 200, 420, 330}, 0xf0f0ff);
  add_diagram(d, 120, 230);
  const auto r = find_figures(d, LayoutOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(all_labels(r), (std::vector<std::string>{"producer", "ring", "spool"}));
}

TEST(Figures, ProseOverADrawingIsNoLabel) {
  // A slide's text set over its background picture: lines in the body type across the
  // measure are prose, not the picture's labels; a short label in small type is one.
  Page p = letter_page();
  p.images.push_back({{60, 90, 560, 420}, 1600, 1000, false});
  for (int i = 0; i < 6; ++i) add_line(p, 72, 100 + 14 * i, running_text(14));
  add_line(p, 300, 300, "axis", 7);
  for (int i = 0; i < 10; ++i) add_line(p, 72, 440 + 12 * i, running_text(14));
  auto r = find_figures(p, LayoutOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].labels, (std::vector<std::string>{"axis"}));
}

TEST(Figures, IconBesideANotesTextIsNoFigure) {
  // DocBook prints a note's, tip's or warning's sign as a small picture beside its title
  // and text, in a shaded, framed box or not: the picture belongs to the note, which is no
  // figure with its text as labels.
  for (bool boxed : {true, false}) {
    SCOPED_TRACE(boxed ? "boxed" : "bare");
    Page p = letter_page();
    for (int i = 0; i < 4; ++i) add_line(p, 72, 72 + 12 * i, running_text(14));
    if (boxed) {
      add_fill(p, {72, 130, 540, 190}, 0xf4f4f4);
      add_stroke(p, {72, 130, 540, 190}, 0.75);
    }
    p.images.push_back({{78, 136, 102, 160}, 32, 32, false});  // the sign, 24 pt
    add_line(p, 110, 136, "Note");
    add_line(p, 110, 148, running_text(14));
    add_line(p, 110, 160, running_text(14));
    add_line(p, 110, 172, running_text(6));
    for (int i = 0; i < 4; ++i) add_line(p, 72, 200 + 12 * i, running_text(14));
    EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
  }
  // The same picture with no text beside it is a figure.
  Page q = letter_page();
  for (int i = 0; i < 4; ++i) add_line(q, 72, 72 + 12 * i, running_text(14));
  q.images.push_back({{78, 136, 102, 160}, 32, 32, false});
  for (int i = 0; i < 4; ++i) add_line(q, 72, 200 + 12 * i, running_text(14));
  EXPECT_EQ(find_figures(q, LayoutOptions{}).size(), 1u);
}

TEST(Figures, TableRulesAreNotAFigure) {
  // A ruled table: full-width horizontal rules and column rules around cell text.
  Page p = letter_page();
  for (double y : {100.0, 116.0, 132.0, 148.0, 164.0}) add_stroke(p, {100, y, 500, y});
  for (double x : {100.0, 250.0, 380.0, 500.0}) add_stroke(p, {x, 100, x, 164});
  for (int row = 0; row < 4; ++row)
    for (double x : {110.0, 260.0, 390.0}) add_line(p, x, 102 + 16 * row, "cell");
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
}

TEST(Figures, TablePaintedCellByCellIsNotAFigure) {
  // Asciidoctor (Prawn), office suites and XSL-FO formatters paint a table cell by cell: a
  // fill of the paper's colour per cell and each cell's borders stroked on their own, so no
  // one stroke crosses the table. The pieces of a rule meet end to end across it; white
  // paint shows nothing. No figure, and the cells' text stays text.
  Page p = letter_page();
  const double xs[] = {100, 230, 360, 500};
  for (int row = 0; row < 4; ++row) {
    const double y0 = 100 + 16 * row, y1 = y0 + 16;
    for (int col = 0; col < 3; ++col) {
      VectorPath cell{{xs[col], y0, xs[col + 1], y1}, true, false, 0, 0xffffff};
      cell.paper = true;
      p.paths.push_back(cell);
      add_stroke(p, {xs[col], y0, xs[col + 1], y0});
      add_stroke(p, {xs[col], y1, xs[col + 1], y1});
      add_stroke(p, {xs[col], y0, xs[col], y1});
      add_stroke(p, {xs[col + 1], y0, xs[col + 1], y1});
      add_line(p, xs[col] + 10, y0 + 2, row == 0 ? "Parameter" : "4096");
    }
  }
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
  // Two boxes drawn with rules side by side (LaTeX's picture environment): their top and
  // bottom edges stand on one line each, apart, and cross nothing. A figure.
  Page q = letter_page();
  for (double x : {100.0, 260.0}) {
    add_stroke(q, {x, 100, x + 80, 100});
    add_stroke(q, {x, 160, x + 80, 160});
    add_stroke(q, {x, 100, x, 160});
    add_stroke(q, {x + 80, 100, x + 80, 160});
    add_line(q, x + 20, 124, "node", 8);
  }
  add_stroke(q, {180, 130, 260, 130});
  EXPECT_EQ(find_figures(q, LayoutOptions{}).size(), 1u);
}

TEST(Figures, ATablePaintedWhiteWithAWordOnItsGreyGroundIsNotAFigure) {
  // A browser paints each cell of a borderless table white, and a word set as code in a cell
  // on a grey ground of its own. White paint shows nothing and the ground is the word's: no
  // figure, and the cells' text stays text.
  Page p = letter_page();
  add_paragraph(p, 64, 60, 4, 94);  // the body's measure, 470 pt; the cells' lines are shorter
  add_paragraph(p, 64, 340, 4, 94);
  const double xs[] = {64, 204, 532};
  for (int row = 0; row < 5; ++row) {
    const double y0 = 120 + 40 * row, y1 = y0 + 38;
    for (int col = 0; col < 2; ++col) {
      VectorPath cell{{xs[col], y0, xs[col + 1], y1}, true, false, 0, 0xffffff};
      cell.paper = true;
      p.paths.push_back(cell);
    }
    add_line(p, 66, y0 + 12, "Called for linking");
    add_line(p, 206, y0 + 4, "The compiler was called for linking, not for compiling");
    add_line(p, 206, y0 + 18, running_text(2) + " -c " + running_text(3));
  }
  add_fill(p, {236, 178, 248, 190}, 0xf5f5f5);  // the ground of "-c" in the second row
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
  // A box drawn in grey among the white cells is drawing: a figure.
  Page q = p;
  q.paths.back() = {{480, 160, 530, 236}, true, false, 0, 0x808080};
  EXPECT_EQ(find_figures(q, LayoutOptions{}).size(), 1u);
}

TEST(Figures, AWebPagesSidebarGroundDownThePageIsNoFigure) {
  // A web page laid out in two columns, printed: the sidebar's ground painted on down the
  // page past its last link, beside the content's framed panel of text. The sidebar's ground
  // is a column's, not drawing: the page is a box of text, no figure.
  Page p = letter_page();
  add_fill(p, {31, 28, 184, 764}, 0x8b7765);     // the sidebar's ground, empty on this page
  add_fill(p, {184, 28, 581, 764}, 0x8b7765);    // the content column's
  add_fill(p, {186, 28, 579, 764}, 0x000000);    // its frame, a black ground 1.5 pt larger
  add_fill(p, {187.5, 28, 577.5, 764}, 0xfffacd);  // its panel
  for (int i = 0; i < 50; ++i) add_line(p, 200, 34 + 14.5 * i, running_text(12));
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
}

TEST(Figures, HeaderAndFooterRulesAreNotFigures) {
  // Rules under a running head, over a footnote and under a word: thin lines.
  Page p = letter_page();
  add_line(p, 72, 40, "Chapter 1: Introduction");
  add_stroke(p, {72, 54, 540, 54});   // header rule
  add_paragraph(p, 72, 72, 20);
  add_stroke(p, {72, 120, 130, 120});  // underline
  add_stroke(p, {72, 690, 216, 690});  // footnote rule
  add_line(p, 72, 694, "1 A footnote.", 8);
  add_fill(p, {72, 740, 540, 742}, 0);  // footer rule (a filled bar)
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
}

TEST(Figures, FigureBesideACodeBox) {
  // A diagram set beside a shaded code box: the diagram is a figure, the code is not, and
  // no code line becomes a label.
  Page p = letter_page();
  add_fill(p, {72, 100, 280, 200});
  for (int i = 0; i < 7; ++i) add_line(p, 78, 104 + 13 * i, "x <- c(1, 2)", 9, true);
  add_diagram(p, 300, 110);
  auto r = find_figures(p, LayoutOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_GE(r[0].bbox.x0, 280);
  EXPECT_EQ(r[0].labels, (std::vector<std::string>{"producer", "ring", "spool"}));
}

TEST(Figures, FigureSpanningTwoColumns) {
  // A wide figure across both columns of a two-column page: one region; the column text
  // above and below is not swallowed.
  Page p = letter_page();
  add_paragraph(p, 72, 72, 6, 44);
  add_paragraph(p, 320, 72, 6, 44);
  p.images.push_back({{80, 160, 530, 330}, 1200, 450, false});
  add_line(p, 200, 300, "overlay text", 8);  // lettering drawn over the image
  add_paragraph(p, 72, 350, 6, 44);
  add_paragraph(p, 320, 350, 6, 44);
  auto r = find_figures(p, LayoutOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].labels, (std::vector<std::string>{"overlay text"}));
  EXPECT_LE(r[0].bbox.y1, 350);
  EXPECT_GE(r[0].bbox.y0, 72 + 12 * 6);
}

TEST(Figures, BodyTextBesideAFigureStaysProse) {
  // A paragraph running beside a narrow figure (wrapfigure) keeps its lines.
  Page p = letter_page();
  p.images.push_back({{72, 100, 250, 250}, 500, 420, false});
  for (int i = 0; i < 12; ++i) add_line(p, 262, 100 + 12 * i, std::string(50, 'a'));
  auto r = find_figures(p, LayoutOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].labels.empty());
  EXPECT_LE(r[0].bbox.x1, 262);
}

TEST(Figures, SpacerAndGlyphImagesAreIgnored) {
  // A one-pixel image stretched into a spacer and a glyph-sized stencil mask (a bitmap
  // font's character) are not pictures.
  Page p = letter_page();
  p.images.push_back({{72, 100, 540, 140}, 1, 1, false});
  p.images.push_back({{72, 200, 80, 210}, 30, 40, true});
  EXPECT_TRUE(find_figures(p, LayoutOptions{}).empty());
}

TEST(Figures, LineDrawingMadeOfRules) {
  // LaTeX's picture environment draws boxes and arrows as rules: with no rule across the
  // whole drawing it is a figure, not a table.
  Page p = letter_page();
  for (double x : {80.0, 200.0, 320.0}) {
    add_stroke(p, {x, 300, x + 72, 300});
    add_stroke(p, {x, 324, x + 72, 324});
    add_stroke(p, {x, 300, x, 324});
    add_stroke(p, {x + 72, 300, x + 72, 324});
    add_line(p, x + 20, 306, "box");
  }
  add_stroke(p, {152, 312, 200, 312});
  add_stroke(p, {272, 312, 320, 312});
  auto r = find_figures(p, LayoutOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].labels.size(), 3u);
}

// groff's pic draws a diagram as separate shapes with words between them: a box, a lone
// line and an arrow with their names above, a circle, an arc, set far enough apart that no
// two touch. Under a figure caption everything drawn between the caption and the text above
// is one figure and the short lines there are its labels; the paragraph above, its short
// last line and the caption stay text.
TEST(Figures, SeparateShapesAboveAFigureCaptionAreOneFigure) {
  auto page = [] {
    Page p = letter_page();
    add_paragraph(p, 72, 200, 3);
    add_line(p, 72, 236, "See Figure 3-2.");  // the paragraph's short last line
    add_line(p, 72, 256, "It yields this:");  // a line leading into the figure, a float's gap above it
    const double y = 280;                      // the drawing's top
    add_stroke(p, {76, y, 140, y + 48});       // box
    add_line(p, 96, y + 18, "box");
    add_stroke(p, {182, y + 30, 218, y + 30}); // line, its name above
    add_line(p, 186, y + 16, "line");
    add_stroke(p, {254, y + 30, 290, y + 30}); // arrow: a line and its head
    add_fill(p, {284, y + 27, 292, y + 33});
    add_line(p, 256, y + 16, "arrow");
    add_stroke(p, {330, y + 6, 372, y + 48});  // circle
    add_line(p, 336, y + 22, "circle");
    add_stroke(p, {480, y + 20, 500, y + 36}); // arc, its name below
    add_line(p, 486, y + 40, "arc");
    add_line(p, 230, y + 60, "Figure 3-2: Basic pic objects");
    add_paragraph(p, 72, y + 90, 3);
    return p;
  };
  Page p = page();
  auto r = find_figures(p, LayoutOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].labels, (std::vector<std::string>{"box", "line", "arrow", "circle", "arc"}));
  EXPECT_LE(r[0].bbox.y1, 340.0) << "the caption is not in the figure";
  EXPECT_GE(r[0].bbox.y0, 268.0) << "the paragraph's last line and the line leading in are not in the figure";

  // Without the caption, the same page keeps the pieces apart: a lone line is no figure.
  Page bare = page();
  bare.lines.erase(std::remove_if(bare.lines.begin(), bare.lines.end(),
                                  [](const Line& l) { return l.text().rfind("Figure", 0) == 0; }),
                   bare.lines.end());
  EXPECT_GT(find_figures(bare, LayoutOptions{}).size(), 1u);

  // Left alone: a listing between the text and the caption (the listing is the figure), and
  // a rule alone under it (the float's rule).
  Page listing = letter_page();
  add_paragraph(listing, 72, 200, 3);
  add_line(listing, 90, 250, "line \"1\";", kBody, true);
  add_line(listing, 90, 262, "line \"1\" \"2\";", kBody, true);
  add_stroke(listing, {100, 280, 140, 280});
  add_line(listing, 230, 300, "Figure 3-4: A listing");
  EXPECT_TRUE(find_figures(listing, LayoutOptions{}).empty());
  Page ruled = letter_page();
  add_paragraph(ruled, 72, 200, 3);
  add_stroke(ruled, {120, 280, 480, 280});
  add_line(ruled, 230, 300, "Figure 2: A configuration file");
  EXPECT_TRUE(find_figures(ruled, LayoutOptions{}).empty());
}

TEST(Figures, RepeatedLogoIsFurniture) {
  // The same image at the same place on every page is a logo: clean takes it off the pages
  // and logs it, and find_figures sees the figure drawn once alone.
  quire::Document doc;
  for (int n = 1; n <= 4; ++n) {
    Page p = letter_page();
    p.number = n;
    p.images.push_back({{500, 80, 560, 120}, 120, 80, false});  // below the head's band
    if (n == 2) p.images.push_back({{100, 200, 400, 400}, 600, 400, false});
    doc.pages.push_back(p);
  }
  LayoutOptions o;
  ASSERT_EQ(find_figures(doc.pages[0], o).size(), 1u);  // the logo, left on the page
  const quire::CleanResult cleaned = quire::clean_document(doc, quire::CleanOptions{});
  ASSERT_EQ(cleaned.removed.size(), 4u);
  EXPECT_EQ(cleaned.removed[0].reason, quire::kRepeatedImage);
  EXPECT_TRUE(find_figures(doc.pages[0], o).empty());
  auto r = find_figures(doc.pages[1], o);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].bbox.contains(Box{100, 200, 400, 400}));
}

TEST(Figures, SortedAndIndependentOfDrawingOrder) {
  // Regions come top to bottom, and the PDF's drawing order does not change them.
  Page p = letter_page();
  add_diagram(p, 150, 400);
  p.images.push_back({{150, 100, 450, 300}, 800, 533, false});
  auto a = find_figures(p, LayoutOptions{});
  std::reverse(p.paths.begin(), p.paths.end());
  auto b = find_figures(p, LayoutOptions{});
  ASSERT_EQ(a.size(), 2u);
  EXPECT_LT(a[0].bbox.y0, a[1].bbox.y0);
  ASSERT_EQ(b.size(), 2u);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].bbox, b[i].bbox);
    EXPECT_EQ(a[i].labels, b[i].labels);
  }
}

// ---- real books ----

struct Decoded {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;  // 3 bytes a pixel
};

bool decode_png(const std::string& bytes, Decoded& out) {
  png_image img{};
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&img, bytes.data(), bytes.size())) return false;
  img.format = PNG_FORMAT_RGB;
  out.width = static_cast<int>(img.width);
  out.height = static_cast<int>(img.height);
  out.rgb.resize(PNG_IMAGE_SIZE(img));
  return png_image_finish_read(&img, nullptr, out.rgb.data(), 0, nullptr) != 0;
}

// Same notion of ink as the renderer's trim: a channel darker than near-white.
bool ink(const Decoded& d, int x, int y) {
  const unsigned char* px = &d.rgb[(static_cast<size_t>(y) * d.width + x) * 3];
  return px[0] < 250 || px[1] < 250 || px[2] < 250;
}

// Every border row and column of the crop has ink: nothing to trim.
void expect_trimmed(const Decoded& d, const std::string& what) {
  auto row = [&](int y) {
    for (int x = 0; x < d.width; ++x)
      if (ink(d, x, y)) return true;
    return false;
  };
  auto col = [&](int x) {
    for (int y = 0; y < d.height; ++y)
      if (ink(d, x, y)) return true;
    return false;
  };
  EXPECT_TRUE(row(0) && row(d.height - 1) && col(0) && col(d.width - 1)) << what << ": a white border";
}

// Renders every region twice from the file, and once from the pages extraction kept
// drawn: non-empty, trimmed, identical bytes.
void check_crops(const std::string& pdf, const quire::Document& doc, const LayoutOptions& o,
                 std::shared_ptr<quire::PageDrawings> drawings = nullptr) {
  quire::PdfRenderer r1(pdf, ""), r2(pdf, ""), kept(pdf, "", drawings);
  for (const auto& page : doc.pages)
    for (const auto& fig : find_figures(page, o)) {
      const std::string what = pdf + " page " + std::to_string(page.number);
      std::string a = r1.png(page.number, fig.bbox, o.figures.figure_dpi);
      std::string b = r2.png(page.number, fig.bbox, o.figures.figure_dpi);
      ASSERT_FALSE(a.empty()) << what;
      EXPECT_EQ(a, b) << what << ": two renders differ";
      EXPECT_EQ(a, kept.png(page.number, fig.bbox, o.figures.figure_dpi))
          << what << ": the kept drawing renders otherwise";
      Decoded d;
      ASSERT_TRUE(decode_png(a, d)) << what;
      expect_trimmed(d, what);
    }
}

// The pages as layout sees them: extracted, then cleaned of their furniture.
quire::Document extract(const std::string& pdf, int first = 0, int last = 0,
                        std::shared_ptr<quire::PageDrawings>* drawings = nullptr, int jobs = 2) {
  quire::ExtractOptions eo;
  eo.first_page = first;
  eo.last_page = last;
  eo.jobs = jobs;
  eo.ocr = quire::OcrMode::Never;
  quire::Document doc = quire::extract_document(pdf, eo, drawings);
  quire::clean_document(doc, quire::CleanOptions{});
  return doc;
}

const char* kOctave = "/usr/share/doc/octave/octave.pdf";

TEST(FiguresOctave, KnownPages) {
  // Plots that octave's HTML manual shows as images are vector figures in the PDF; the
  // TeX-ruled tables of symbols (p. 423) and the subplot grid (p. 414) are not figures.
  if (!fs::exists(kOctave)) GTEST_SKIP() << "octave-doc not installed";
  LayoutOptions o;
  const std::map<int, size_t> expected = {{337, 1}, {414, 0}, {423, 0}, {690, 2}, {804, 0}, {833, 2}};
  for (const auto& [n, count] : expected) {
    auto doc = extract(kOctave, n, n);
    ASSERT_EQ(doc.pages.size(), 1u);
    auto r = find_figures(doc.pages[0], o);
    EXPECT_EQ(r.size(), count) << "page " << n;
    if (n == 337 && !r.empty()) {
      auto& l = r[0].labels;
      EXPECT_NE(std::find(l.begin(), l.end(), "Histogram of 10,000 normally distributed random numbers"), l.end());
      EXPECT_NE(std::find(l.begin(), l.end(), "Count"), l.end());
    }
  }
}

TEST(FiguresOctave, EveryCaptionedFigureFound) {
  // Every "Figure N.M:" caption in the manual sits next to a figure found on its page,
  // and no caption is taken as a label.
  if (!fs::exists(kOctave)) GTEST_SKIP() << "octave-doc not installed";
  auto doc = extract(kOctave);
  LayoutOptions o;
  const std::regex caption(R"(^Figure [0-9]+\.[0-9]+: )");
  int captions = 0;
  for (const auto& page : doc.pages) {
    size_t here = 0;
    for (const auto& l : page.lines) here += std::regex_search(l.text(), caption);
    if (here == 0) continue;
    captions += static_cast<int>(here);
    auto r = find_figures(page, o);
    EXPECT_GE(r.size(), here) << "page " << page.number;
    for (const auto& s : all_labels(r)) EXPECT_FALSE(std::regex_search(s, caption)) << s;
  }
  EXPECT_GT(captions, 20);
}

TEST(FiguresOctave, CropsTrimmedAndDeterministic) {
  if (!fs::exists(kOctave)) GTEST_SKIP() << "octave-doc not installed";
  for (int n : {1, 337, 426, 690}) {
    std::shared_ptr<quire::PageDrawings> drawings;
    auto doc = extract(kOctave, n, n, &drawings);
    if (n != 1) {
      EXPECT_TRUE(drawings) << "page " << n << " holds a plot but was not kept drawn";
    }
    check_crops(kOctave, doc, LayoutOptions{}, drawings);
  }
  std::shared_ptr<quire::PageDrawings> prose;
  extract(kOctave, 100, 100, &prose);
  EXPECT_FALSE(prose) << "a page of prose was kept drawn";
}

TEST(FiguresOctave, KeptDrawingsDoNotDependOnThreads) {
  // The pages kept are chosen in page order within a budget: the same at any --jobs.
  if (!fs::exists(kOctave)) GTEST_SKIP() << "octave-doc not installed";
  std::shared_ptr<quire::PageDrawings> one, two;
  extract(kOctave, 680, 700, &one, 1);
  extract(kOctave, 680, 700, &two, 2);
  ASSERT_TRUE(one && two);
  EXPECT_GE(one->pages(), 4);  // 683, 684, 689 and 690 hold plots
  EXPECT_EQ(one->pages(), two->pages());
}

TEST(FiguresOctave, AFailureWhileReadingFreesTheKeptDrawings) {
  // A page callback that throws stops the extraction; the lists kept so far are freed with
  // their contexts (the sanitizer build's leak check sees any that is not).
  if (!fs::exists(kOctave)) GTEST_SKIP() << "octave-doc not installed";
  for (int jobs : {1, 2}) {
    quire::ExtractOptions eo;
    eo.first_page = 680;
    eo.last_page = 700;
    eo.jobs = jobs;
    eo.ocr = quire::OcrMode::Never;
    eo.on_page = [](int page) {
      if (page == 695) throw std::runtime_error("stop at page 695");
    };
    std::shared_ptr<quire::PageDrawings> drawings;
    EXPECT_THROW(quire::extract_document(kOctave, eo, &drawings), std::runtime_error) << "jobs " << jobs;
    EXPECT_FALSE(drawings);
  }
}

// The books with ground truth: eval books and fixture books.
std::vector<fs::path> ground_truth_books() {
  std::vector<fs::path> out;
  for (const fs::path& dir : {fs::path(QUIRE_SOURCE_DIR) / "fixtures/books", fs::path("/work/shared/eval/books")}) {
    if (!fs::is_directory(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string name = e.path().filename().string();
      if (name.size() < 8 || name.substr(name.size() - 8) != ".gt.json") continue;
      fs::path pdf = e.path().parent_path() / (name.substr(0, name.size() - 8) + ".pdf");
      if (fs::exists(pdf)) out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(FiguresBooks, EveryGroundTruthFigureFoundAndNoOther) {
  // Each figure of the ground truth is a region on its page, with its drawn labels among
  // the region's labels; pages without a figure have no region (OCR'd scans excepted:
  // their text layer comes from recognition, checked elsewhere).
  auto books = ground_truth_books();
  if (books.empty()) GTEST_SKIP() << "no books with ground truth";
  LayoutOptions o;
  for (const auto& gt_path : books) {
    std::ifstream in(gt_path);
    auto gt = nlohmann::json::parse(in);
    const std::string name = gt_path.filename().string();
    const fs::path pdf = gt_path.parent_path() / (name.substr(0, name.size() - 8) + ".pdf");
    if (name.find("scan") != std::string::npos) continue;
    // Truth taken from a book's HTML (a real book's own) places no figure on a page: which
    // pages hold none is not known there.
    if (gt.contains("html")) continue;
    std::map<int, std::vector<nlohmann::json>> expected;
    for (const auto& ch : gt["chapters"])
      for (const auto& b : ch["blocks"])
        if (b.value("type", "") == "figure" && b.contains("page")) expected[b["page"].get<int>()].push_back(b);
    std::shared_ptr<quire::PageDrawings> drawings;
    auto doc = extract(pdf.string(), 0, 0, &drawings);
    for (const auto& page : doc.pages) {
      auto r = find_figures(page, o);
      auto it = expected.find(page.number);
      const size_t want = it == expected.end() ? 0 : it->second.size();
      EXPECT_EQ(r.size(), want) << name << " page " << page.number;
      if (it == expected.end()) continue;
      auto labels = all_labels(r);
      for (const auto& fig : it->second)
        for (const auto& l : fig.value("labels", std::vector<std::string>{}))
          EXPECT_NE(std::find(labels.begin(), labels.end(), l), labels.end())
              << name << " " << fig.value("id", "") << ": label " << l << " not taken";
    }
    check_crops(pdf.string(), doc, o, drawings);
  }
}

}  // namespace
