// Tables as cells and notes as blocks, on small synthetic pages, through layout_document.
#include <gtest/gtest.h>

#include <filesystem>

#include "page_builder.h"
#include "quire/layout.h"

namespace quire {
namespace {

using test::LineSpec;
using test::make_doc;
using test::make_page;
using test::paragraph;

std::vector<Block> of_type(const LayoutResult& r, BlockType t) {
  std::vector<Block> out;
  for (const auto& c : r.chapters)
    for (const auto& b : c.blocks)
      if (b.type == t) out.push_back(b);
  return out;
}

std::vector<LineSpec> filler(double top, int n) {
  std::vector<std::string> t(n, "filler text of the page set in the body size and justified to the measure");
  return paragraph(72, top, t);
}

// A page of `lines` and `paths` with three lines of body text from `tail_top`, laid out.
LayoutResult lay_out_page(std::vector<LineSpec> lines, std::vector<VectorPath> paths, double tail_top) {
  auto tail = filler(tail_top, 3);
  lines.insert(lines.end(), tail.begin(), tail.end());
  Page page = make_page(1, lines);
  page.paths = std::move(paths);
  return layout_document(make_doc({page}));
}

// A path drawn on the page: a fill (shaded box, or a rule drawn as a thin fill).
VectorPath fill(const Box& b, uint32_t color = 0x000000) {
  VectorPath p;
  p.bbox = b;
  p.fill = true;
  p.color = color;
  return p;
}

using Rows = std::vector<std::vector<std::string>>;

// A table's lines: the cells of `rows` at the columns' left edges `xs`, the first row's
// baseline at `top`, the next `pitch` below, each set at `size`.
std::vector<LineSpec> table_lines(const Rows& rows, const std::vector<double>& xs, double top, double pitch,
                                  double size = 10) {
  std::vector<LineSpec> out;
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t c = 0; c < rows[i].size() && c < xs.size(); ++c)
      out.push_back({xs[c], top + pitch * static_cast<double>(i), rows[i][c], size});
  return out;
}

// A spool directory's files, the table the typeset fixtures print without rules.
const Rows kSpoolFiles = {{"File", "Records", "Bytes"}, {"0900.log", "1200", "310204"}, {"0915.log", "980", "251377"},
                          {"0930.log", "1415", "366090"}};

// A cell: left x, baseline offset from its row's baseline (a cell set middle-aligned beside a
// wrapped one stands lower than its first line), text, bold.
struct Cell {
  double x;
  double dy;
  std::string text;
  bool bold = false;
  bool mono = false;
};

// Typographic fact: a table's row is its cells side by side; a cell that wraps goes on in
// its column at the line pitch, where its next word would not have fitted, and beside it the
// other cells stand at its first line (top-aligned) or its middle (middle-aligned). The
// header is the rows set in bold at the top, or ruled off from the body by a rule no body
// row has under it.
struct GridCase {
  const char* name;
  std::vector<std::vector<Cell>> lines;  // the table's lines, 12 pt apart
  std::vector<double> rules;             // y of a rule across the table, as an offset from the first baseline
  Rows rows;
  int header_rows;
};

TEST(Tables, RowsAndCellsComeFromColumnsWrapsAndRules) {
  const double kLong = 300;  // the description column's left edge
  const std::vector<GridCase> cases = {
      {"a bold header over rows of one line each",
       {{{72, 0, "Name", true}, {160, 0, "Size", true}, {kLong, 0, "Description", true}},
        {{72, 0, "mc"}, {160, 0, "1482"}, {kLong, 0, "a file manager"}},
        {{72, 0, "sudo"}, {160, 0, "5990"}, {kLong, 0, "limited root rights"}}},
       {},
       {{"Name", "Size", "Description"}, {"mc", "1482", "a file manager"}, {"sudo", "5990", "limited root rights"}},
       1},
      {"no rules, no bold: no header",
       {{{72, 0, "alpha"}, {160, 0, "1"}, {kLong, 0, "the first letter"}},
        {{72, 0, "beta"}, {160, 0, "2"}, {kLong, 0, "the second letter"}},
        {{72, 0, "gamma"}, {160, 0, "3"}, {kLong, 0, "the third letter"}}},
       {},
       {{"alpha", "1", "the first letter"}, {"beta", "2", "the second letter"}, {"gamma", "3", "the third letter"}},
       0},
      {"a rule under the first row and none between the others: a header",
       {{{72, 0, "File"}, {160, 0, "Lines"}, {kLong, 0, "Language"}},
        {{72, 0, "main.c"}, {160, 0, "31"}, {kLong, 0, "C"}},
        {{72, 0, "setup.py"}, {160, 0, "379"}, {kLong, 0, "Python"}}},
       {-11, 4, 28},
       {{"File", "Lines", "Language"}, {"main.c", "31", "C"}, {"setup.py", "379", "Python"}},
       1},
      {"a cell wrapped over two lines, the others top-aligned",
       {{{72, 0, "mc", true}, {160, 0, "1482", true}, {kLong, 0, "The text of this cell is long so that", true}},
        {{kLong, 0, "it wraps", true}},
        {{72, 0, "sudo"}, {160, 0, "5990"}, {kLong, 0, "short text"}},
        {{72, 0, "vim"}, {160, 0, "3570"}, {kLong, 0, "an editor"}}},
       {},
       {{"mc", "1482", "The text of this cell is long so that it wraps"}, {"sudo", "5990", "short text"}, {"vim", "3570", "an editor"}},
       1},
      {"a cell wrapped over two lines, the others middle-aligned beside it",
       {{{72, 0, "sudo"}, {160, 0, "5990"}, {230, 0, "I:823"}, {kLong, 0, "short text"}},
        {{kLong, 0, "Unix text editor Vi IMproved, a text editor"}},
        {{72, -6, "vim"}, {160, -6, "3570"}, {230, -6, "I:390"}, {kLong, 0, "(standard)"}},
        {{72, 0, "w3m"}, {160, 0, "2828"}, {230, 0, "I:190"}, {kLong, 0, "a browser"}}},
       {},
       {{"sudo", "5990", "I:823", "short text"},
        {"vim", "3570", "I:390", "Unix text editor Vi IMproved, a text editor (standard)"},
        {"w3m", "2828", "I:190", "a browser"}},
       0},
      {"a cell's wrapped line set all in the typewriter face",
       {{{72, 0, "mc"}, {160, 0, "1482"}, {kLong, 0, "The text of this cell is long and ends in"}},
        {{kLong, 0, "sysvinit", false, true}},
        {{72, 0, "sudo"}, {160, 0, "5990"}, {kLong, 0, "short text"}},
        {{72, 0, "vim"}, {160, 0, "3570"}, {kLong, 0, "an editor"}}},
       {},
       {{"mc", "1482", "The text of this cell is long and ends in sysvinit"}, {"sudo", "5990", "short text"}, {"vim", "3570", "an editor"}},
       0},
      // A cross table names its rows in the first column and its columns at the top, with
      // the first column's head left empty: the header has one cell fewer.
      {"a cross table: the first column's head left empty",
       {{{160, 0, "alpha"}, {kLong, 0, "arm"}},
        {{72, 0, "testing"}, {160, 0, "1"}, {kLong, 0, "-"}},
        {{72, 0, "unstable"}, {160, 0, "1"}, {kLong, 0, "2"}}},
       {},
       {{"", "alpha", "arm"}, {"testing", "1", "-"}, {"unstable", "1", "2"}},
       0},
      // ... while a row of the body whose first cell is empty goes on in the table's
      // columns, over a row that has all its cells.
      {"a row with its first cell empty inside a table",
       {{{72, 0, "BRE"}, {160, 0, "ERE"}, {kLong, 0, "what it matches"}},
        {{72, 0, "\\."}, {160, 0, "\\."}, {kLong, 0, "a dot"}},
        {{160, 0, "+ ?"}, {kLong, 0, "ERE only"}},
        {{72, 0, "c"}, {160, 0, "c"}, {kLong, 0, "the character"}}},
       {},
       {{"BRE", "ERE", "what it matches"}, {"\\.", "\\.", "a dot"}, {"", "+ ?", "ERE only"}, {"c", "c", "the character"}},
       0},
  };
  for (const auto& c : cases) {
    std::vector<LineSpec> l = filler(100, 4);
    const double top = 180;
    double baseline = top;
    for (const auto& line : c.lines) {
      for (const auto& cell : line) l.push_back({cell.x, baseline + cell.dy, cell.text, 10, cell.mono, cell.bold});
      baseline += 12;
    }
    auto tail = filler(baseline + 20, 3);
    l.insert(l.end(), tail.begin(), tail.end());
    Page page = make_page(1, l);
    for (double y : c.rules) page.paths.push_back(fill({70, top + y, 500, top + y + 0.4}));
    auto r = layout_document(make_doc({page}));
    auto tables = of_type(r, BlockType::Table);
    ASSERT_EQ(tables.size(), 1u) << c.name;
    EXPECT_EQ(tables[0].rows, c.rows) << c.name << "\n" << tables[0].text;
    EXPECT_EQ(tables[0].header_rows, c.header_rows) << c.name;
    // The text holds the same words, a line per row.
    EXPECT_EQ(std::count(tables[0].text.begin(), tables[0].text.end(), '\n') + 1, static_cast<long>(c.rows.size())) << c.name;
  }
}

// A word longer than its cell is wide is cut where the cell ends, with no hyphen (word
// processors do so): "flush_watermar" runs to the edge, "k" goes on under it. A typesetter
// wraps at a space otherwise, so the cut is undone (and logged) where the letters around it
// make a word the book has, or one the dictionary knows while it does not know a piece; a
// word that fills its cell by chance stays apart from the next.
struct EdgeCut {
  LayoutResult result;
  Rows rows;
};

EdgeCut cut_cell(const std::string& cut, const std::string& rest, const std::string& prose, const LayoutOptions& o) {
  std::vector<LineSpec> l = paragraph(72, 100, {prose, prose, prose});
  // The next column starts a little more than a cell gap after the cut line's end, where
  // there is no room for the first letter of the rest.
  double end = 72;
  for (char32_t c : to_u32(cut)) end += test::proportional_em(c) * 10;
  const std::vector<double> xs = {72, end + 10.5, end + 60};
  const Rows rows = {{"Parameter", "Default", "Unit"}, {"flush_interval", "500", "ms"}, {cut, "50", "percent"}};
  auto t = table_lines(rows, xs, 160, 12);
  l.insert(l.end(), t.begin(), t.end());
  l.push_back({72, 160 + 36, rest, 10});
  auto more = table_lines({{"max_batch", "4096", "records"}}, xs, 160 + 48, 12);
  l.insert(l.end(), more.begin(), more.end());
  auto tail = filler(160 + 80, 3);
  l.insert(l.end(), tail.begin(), tail.end());
  EdgeCut out{layout_document(make_doc({make_page(1, l)}), o), {}};
  auto tables = of_type(out.result, BlockType::Table);
  if (tables.size() == 1) out.rows = tables[0].rows;
  return out;
}

TEST(Tables, AWordCutAtTheCellsEdgeIsOneWord) {
  LayoutOptions none;
  none.hyphenation.hyphen_dictionary = "";
  const std::string plain = "The high parameter sets the share of the buffer that starts a flush to disk.";
  // The book has the word elsewhere.
  EdgeCut c = cut_cell("flush_watermar", "k",
                       "The flush_watermark parameter sets the share of the buffer that starts a flush.", none);
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.rows[2], (std::vector<std::string>{"flush_watermark", "50", "percent"}));
  ASSERT_EQ(c.result.joins.size(), 1u);
  EXPECT_EQ(c.result.joins[0].before, "flush_watermar");
  EXPECT_EQ(c.result.joins[0].after, "k");
  EXPECT_EQ(c.result.joins[0].joined, "flush_watermark");
  // Nothing says the letters make a word: two words, as printed.
  c = cut_cell("flush_watermar", "k", plain, none);
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.rows[2][0], "flush_watermar k");
  EXPECT_TRUE(c.result.joins.empty());
  if (!std::filesystem::is_regular_file("/usr/share/hunspell/en_US.dic"))
    GTEST_SKIP() << "no English dictionary (Debian package hunspell-en-us)";
  // The dictionary knows "watermark" and not "watermar".
  c = cut_cell("flush_watermar", "k", plain, LayoutOptions{});
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.rows[2][0], "flush_watermark");
  // A word that fills its cell by chance, wrapped at a space: "maximumsize" is no word.
  c = cut_cell("flush_maximum", "size", plain, LayoutOptions{});
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.rows[2][0], "flush_maximum size");
}

TEST(Tables, RowsComeFromBaselinesNotFromTallGlyphBoxes) {
  // Some fonts give their glyphs boxes far taller than the line pitch (plain TeX's Antykwa
  // through some PDF producers): the boxes of one row overlap the next rows', but the rows
  // are their baselines'.
  std::vector<LineSpec> l = filler(100, 4);
  const size_t first = l.size();
  const Rows rows = {{"Typeface", "Font name", "Kind"}, {"Roman text", "rm-anttr", "text"}, {"Math italic", "mi-anttri", "math"},
                     {"Math symbols", "sy-anttrz", "math"}};
  double baseline = 180;
  for (const auto& row : rows) {
    l.push_back({72, baseline, row[0]});
    l.push_back({180, baseline, row[1]});
    l.push_back({300, baseline, row[2]});
    baseline += 12;
  }
  const size_t last = l.size();
  auto tail = filler(baseline + 30, 3);
  l.insert(l.end(), tail.begin(), tail.end());
  Page page = make_page(1, l);
  for (size_t i = first; i < last; ++i) {
    Line& line = page.lines[i];
    line.bbox.y0 -= 14;
    line.bbox.y1 += 14;
    line.spans.front().bbox = line.bbox;
  }
  auto r = layout_document(make_doc({page}));
  auto tables = of_type(r, BlockType::Table);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].rows, rows) << tables[0].text;
}

TEST(Tables, TwoColumnsUnderABoldHeaderAreATable) {
  // Two cells a row are a term and its description, unless a bold header heads them.
  std::vector<LineSpec> l = filler(100, 4);
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"Command", "Description"}, {"pwd", "name of the working directory"}, {"whoami", "current user name"}, {"id", "user identity"}};
  double baseline = 180;
  for (size_t i = 0; i < rows.size(); ++i, baseline += 12) {
    l.push_back({72, baseline, rows[i].first, 10, false, i == 0});
    l.push_back({200, baseline, rows[i].second, 10, false, i == 0});
  }
  auto tail = filler(baseline + 20, 3);
  l.insert(l.end(), tail.begin(), tail.end());
  auto r = layout_document(make_doc({make_page(1, l)}));
  auto tables = of_type(r, BlockType::Table);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].header_rows, 1);
  ASSERT_EQ(tables[0].rows.size(), 4u);
  EXPECT_EQ(tables[0].rows[1], (std::vector<std::string>{"pwd", "name of the working directory"}));
}

TEST(Tables, ATableRuledRowByRowIsNotTwoColumns) {
  // A page-long table of short cells on the left and a column of descriptions on the right
  // leaves a strip no line crosses between them, as a two-column page does; but its rows are
  // ruled across every column (each rule drawn a cell at a time), and the two columns of a
  // page never are. Read as columns, the descriptions would come out after all the names.
  std::vector<LineSpec> l;
  std::vector<VectorPath> rules;
  const double cells[] = {72, 170, 236, 290, 540};  // the columns' left edges, then the right
  for (int i = 0; i < 20; ++i) {
    const double baseline = 100 + 14.0 * i;
    const std::string n = std::to_string(i);
    if (i == 0) {
      for (auto [x, t] : std::vector<std::pair<double, std::string>>{
               {cells[0], "package"}, {cells[1], "popcon"}, {cells[2], "size"}, {cells[3], "description"}})
        l.push_back({x, baseline, t, 10});
    } else {
      l.push_back({cells[0], baseline, "package-" + n, 10});
      l.push_back({cells[1], baseline, "V:" + n + ", I:5", 10});
      l.push_back({cells[2], baseline, n + "51", 10});
      l.push_back({cells[3], baseline, "the description of package number " + n, 10});
    }
    for (int c = 0; c < 4; ++c) rules.push_back(fill({cells[c] - 4, baseline + 4, cells[c + 1] - 4 + 0.5, baseline + 4.4}));
  }
  Page page = make_page(1, l);
  page.paths = rules;
  auto r = layout_document(make_doc({page}));
  auto tables = of_type(r, BlockType::Table);
  ASSERT_EQ(tables.size(), 1u);
  ASSERT_EQ(tables[0].rows.size(), 20u);
  EXPECT_EQ(tables[0].rows[0], (std::vector<std::string>{"package", "popcon", "size", "description"}));
  EXPECT_EQ(tables[0].rows[7], (std::vector<std::string>{"package-7", "V:7, I:5", "751", "the description of package number 7"}));
}

TEST(Tables, ATableNarrowerThanTheMeasureIsNotTwoColumns) {
  // Alone on its page, an unruled table of short cells leaves strips no line crosses between
  // its columns, with a flush edge on each side, as a two-column page does. But its lines
  // stand row by row on each other's baselines, and they leave the book's measure short on
  // the right (flush left in it, as XSL-FO sets it) or on both sides (centred, as LaTeX sets
  // it); a page's two columns fill the measure. Read as columns, the table would come out
  // column after column.
  for (const double left : {72.0, 180.0}) {
    SCOPED_TRACE(left == 72.0 ? "flush left" : "centred");
    std::vector<Page> pages;
    for (int n = 1; n <= 3; ++n) pages.push_back(make_page(n, filler(100, 40)));  // the measure: 72 to its right edge
    pages.push_back(make_page(4, table_lines(kSpoolFiles, {left, left + 90, left + 180}, 100, 16)));
    auto r = layout_document(make_doc(pages));
    auto tables = of_type(r, BlockType::Table);
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0].rows, kSpoolFiles);
  }
}

TEST(Tables, AWideGapInAFullWidthTableIsNoGutter) {
  // A table across the measure whose last columns stand beyond a wide gap, over a caption and
  // a few lines on the left only: the gap passes for a gutter and the page's lines reach the
  // measure on both sides. But beside it, each side holds several short cells on each
  // baseline, ragged, and a column of a page holds one line to a baseline.
  std::vector<Page> pages;
  for (int n = 1; n <= 3; ++n) pages.push_back(make_page(n, filler(100, 40)));
  double right = 0;  // the measure's right edge
  for (const auto& f : filler(100, 1)) right = test::make_line(f).bbox.x1;
  const Rows rows = {{"Class", "range", "mask", "bits", "subnets"}, {"A", "10.x.x.x", "255.0.0.0", "/8", "1"},
                     {"B", "172.16.x.x", "255.255.0.0", "/16", "16"}, {"C", "192.168.0.x", "255.255.255.0", "/24", "256"},
                     {"D", "224.0.0.x", "240.0.0.0", "/4", "1"}};
  std::vector<LineSpec> l = table_lines(rows, {80, 130, 220, right - 80, right - 30}, 100, 12);
  l.push_back({150, 180, "Table 5.2: List of network address ranges", 10});
  l.push_back({80, 210, "Note", 10, false, true});
  l.push_back({80, 222, "Addresses written with colons are IPv6 addresses.", 10});
  pages.push_back(make_page(4, l));
  auto r = layout_document(make_doc(pages));
  auto tables = of_type(r, BlockType::Table);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].rows, rows);
}

TEST(Tables, ACaptionSetLikeAHeadingIsACaption) {
  // XSL-FO sets a table's caption in bold, larger than the body, as it sets a heading; but
  // the caption opens with its label ("Table 2.2:"), which no heading does.
  std::vector<LineSpec> l = filler(100, 4);
  l.push_back({72, 170, "Table 2.2: Files in a spool directory.", 12, false, true});
  const auto cells = table_lines(kSpoolFiles, {72, 182, 292}, 190, 16);
  l.insert(l.end(), cells.begin(), cells.end());
  auto tail = filler(270, 3);
  l.insert(l.end(), tail.begin(), tail.end());
  auto r = layout_document(make_doc({make_page(1, l)}));
  auto captions = of_type(r, BlockType::Caption);
  ASSERT_EQ(captions.size(), 1u);
  EXPECT_EQ(captions[0].text, "Table 2.2: Files in a spool directory.");
  for (const auto& h : of_type(r, BlockType::Heading)) EXPECT_EQ(h.text.find("Table 2.2"), std::string::npos);
  ASSERT_EQ(of_type(r, BlockType::Table).size(), 1u);
}

TEST(Tables, ACentredCaptionWrapsOntoALineCentredUnderIt) {
  // A caption set centred over its table breaks onto a second line centred on the same axis,
  // which starts further in than the first: no paragraph's indent, the caption goes on.
  std::vector<LineSpec> l = filler(100, 4);
  const std::string first = "Table 2.1: Flush parameters", second = "and their defaults.";
  const double axis = 250;
  const double w1 = test::make_line({0, 170, first, 8}).bbox.x1, w2 = test::make_line({0, 180, second, 8}).bbox.x1;
  l.push_back({axis - w1 / 2, 170, first, 8});
  l.push_back({axis - w2 / 2, 180, second, 8});
  const auto cells = table_lines(kSpoolFiles, {150, 230, 310}, 200, 16);
  l.insert(l.end(), cells.begin(), cells.end());
  auto tail = filler(280, 3);
  l.insert(l.end(), tail.begin(), tail.end());
  auto r = layout_document(make_doc({make_page(1, l)}));
  auto captions = of_type(r, BlockType::Caption);
  ASSERT_EQ(captions.size(), 1u);
  EXPECT_EQ(captions[0].text, first + " " + second);
  for (const auto& p : of_type(r, BlockType::Paragraph)) EXPECT_EQ(p.text.find("defaults"), std::string::npos);
}

TEST(Tables, AFirstRowInAFaceOfItsOwnIsTheHeader) {
  // Sphinx's LaTeX sets a table's header in a bold face whose font carries no bold flag: the
  // first row's face is one no body cell uses. A table of samples, each row in a face of its
  // own, has no header by it.
  for (const bool samples : {false, true}) {
    SCOPED_TRACE(samples ? "a face per row" : "header face");
    std::vector<LineSpec> l = filler(100, 4);
    const auto cells = table_lines(kSpoolFiles, {150, 230, 310}, 190, 16);
    l.insert(l.end(), cells.begin(), cells.end());
    auto tail = filler(280, 3);
    l.insert(l.end(), tail.begin(), tail.end());
    Page page = make_page(1, l);
    for (auto& line : page.lines) {
      const double y = line.spans.front().baseline;
      if (y < 185 || y > 245) continue;
      const int row = static_cast<int>(std::lround((y - 190) / 16));
      if (samples) line.spans.front().font = "Sample" + std::to_string(row);
      else if (row == 0) line.spans.front().font = "F101";
    }
    auto r = layout_document(make_doc({page}));
    auto tables = of_type(r, BlockType::Table);
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0].rows, kSpoolFiles);
    EXPECT_EQ(tables[0].header_rows, samples ? 0 : 1);
  }
}

TEST(Tables, ASmallTableAtThePageFootIsNoFootnote) {
  // A table set smaller than the body, the last thing on its page, stands where footnotes
  // stand and in their size, and its rows open with numbers. But without a footnote rule over
  // it, its rows line up in columns as a note's lines never do, and a number of four digits
  // is no note's mark: it is a table, and none of its rows is a note.
  std::vector<LineSpec> l = filler(100, 4);
  const Rows rows = {{"Code", "Glyph", "Name"}, {"0021", "!", "exclam"}, {"0022", "#", "numbersign"},
                     {"0023", "$", "dollar"}, {"0024", "%", "percent"}};
  const auto cells = table_lines(rows, {120, 200, 280}, 170, 14, 8);
  l.insert(l.end(), cells.begin(), cells.end());
  auto r = layout_document(make_doc({make_page(1, l)}));
  EXPECT_TRUE(of_type(r, BlockType::Footnote).empty());
  auto tables = of_type(r, BlockType::Table);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].rows, rows);
}

TEST(Tables, ATableRuledRowByRowWithSeveralCellsEachSideIsNotTwoColumns) {
  // The same, with several cells on each side of the strip and a description wrapped over
  // two lines now and then: a row holds several lines on each side, so the rules are counted
  // against the rows (distinct baselines), not against the lines.
  std::vector<LineSpec> l;
  std::vector<VectorPath> rules;
  const double cells[] = {72, 150, 190, 330, 490, 540};
  double baseline = 100;
  for (int i = 0; i < 20; ++i) {
    const std::string n = std::to_string(i);
    const bool wrapped = i % 4 == 3;
    if (i == 0) {
      for (auto [x, t] : std::vector<std::pair<double, std::string>>{{cells[0], "package"},
                                                                     {cells[1], "size"},
                                                                     {cells[2], "keyword"},
                                                                     {cells[3], "description"},
                                                                     {cells[4], "arch"}})
        l.push_back({x, baseline, t, 10});
    } else {
      l.push_back({cells[0], baseline, "package-" + n, 10});
      l.push_back({cells[1], baseline, n + "51", 10});
      l.push_back({cells[2], baseline, "image(Exif)", 10});
      l.push_back({cells[3], baseline, "the description of package " + n, 10});
      l.push_back({cells[4], baseline, "all", 10});
      if (wrapped) l.push_back({cells[3], baseline + 12, "continued below", 10});
    }
    const double rule = baseline + (wrapped ? 16 : 4);
    for (int c = 0; c < 5; ++c) rules.push_back(fill({cells[c] - 4, rule, cells[c + 1] - 4 + 0.5, rule + 0.4}));
    baseline = rule + 10;
  }
  Page page = make_page(1, l);
  page.paths = rules;
  auto r = layout_document(make_doc({page}));
  auto tables = of_type(r, BlockType::Table);
  ASSERT_EQ(tables.size(), 1u);
  ASSERT_EQ(tables[0].rows.size(), 20u);
  EXPECT_EQ(tables[0].rows[0], (std::vector<std::string>{"package", "size", "keyword", "description", "arch"}));
  EXPECT_EQ(tables[0].rows[6],
            (std::vector<std::string>{"package-6", "651", "image(Exif)", "the description of package 6", "all"}));
  EXPECT_EQ(tables[0].rows[7][3], "the description of package 7 continued below");
}

TEST(Tables, ARuledTableAboveAListingIsNotTwoColumns) {
  // A ruled table whose descriptions wrap over two lines, and under it a listing of short
  // lines on the left: only the rows beside one another, between the first and the last line
  // both sides hold, are counted against the rules (the listing is not beside the table).
  std::vector<LineSpec> l;
  std::vector<VectorPath> rules;
  const double cells[] = {72, 170, 290, 540};
  double baseline = 100;
  for (int i = 0; i < 10; ++i) {
    const std::string n = std::to_string(i);
    if (i == 0) {
      l.push_back({cells[0], baseline, "package", 10});
      l.push_back({cells[1], baseline, "size", 10});
      l.push_back({cells[2], baseline, "description", 10});
      baseline += 14;
    } else {
      l.push_back({cells[0], baseline, "package-" + n, 10});
      l.push_back({cells[1], baseline, n + "51", 10});
      l.push_back({cells[2], baseline, "the description of package " + n + " that runs on and on", 10});
      l.push_back({cells[2], baseline + 12, "continued", 10});
      baseline += 26;
    }
    for (int c = 0; c < 3; ++c)
      rules.push_back(fill({cells[c] - 4, baseline - 10, cells[c + 1] - 4 + 0.5, baseline - 9.6}));
  }
  baseline += 20;
  for (int i = 0; i < 12; ++i) l.push_back({cells[0], baseline + 12.0 * i, "insmod part" + std::to_string(i), 10, true});
  Page page = make_page(1, l);
  page.paths = rules;
  auto r = layout_document(make_doc({page}));
  auto tables = of_type(r, BlockType::Table);
  ASSERT_EQ(tables.size(), 1u);
  ASSERT_EQ(tables[0].rows.size(), 10u);
  EXPECT_EQ(tables[0].rows[0], (std::vector<std::string>{"package", "size", "description"}));
  EXPECT_EQ(tables[0].rows[4],
            (std::vector<std::string>{"package-4", "451", "the description of package 4 that runs on and on continued"}));
}

TEST(Tables, ARuledCellThatRunsPastItsRuleStaysInItsColumn) {
  // A table ruled column by column and row by row: a long name set in a typewriter face in
  // a narrow first column runs on past the column's rule, over the start of the next
  // cell's text (no gap parts them, only the rule). A description that wraps stands on two
  // lines, the name middle-aligned beside them.
  struct TRow {
    std::string name;
    std::vector<std::string> description;  // one line, or two where it wraps
  };
  const std::vector<TRow> rows = {
      {"/var/lib/dpkg/info/package_name.conffiles", {"list of configuration files"}},
      {"/var/lib/dpkg/info/package_name.md5sums", {"list of hash values for files"}},
      {"/var/lib/dpkg/alternatives/package_name", {"the alternative information used by the update of", "alternatives"}},
      {"/var/lib/dpkg/available", {"the availability information for all the packages"}},
      {"/var/lib/dpkg/status-old", {"the first-generation backup of the status file justi-", "fied by the body"}},
      {"/var/backups/dpkg.status-backup", {"the second-generation backup and older ones of the", "status"}},
      {"/var/lib/dpkg/info/package_name.postinst", {"script to be run after the installation"}},
  };
  std::vector<LineSpec> l = filler(80, 3);
  std::vector<VectorPath> paths;
  const double left = 64, rule = 264, right = 560;
  double top = 130;
  auto ruled_row = [&](double height) {
    paths.push_back(fill({left, top, right, top + 0.4}));
    for (double x : {left, rule, right}) paths.push_back(fill({x, top, x + 0.4, top + height}));
    top += height;
  };
  ruled_row(0);  // (the rule over the header)
  l.push_back({68, top + 10, "file", 10, false, true});
  l.push_back({270, top + 10, "description of contents", 10, false, true});
  ruled_row(13);
  for (const auto& r : rows) {
    const bool wrapped = r.description.size() == 2;
    l.push_back({68, top + (wrapped ? 16 : 10), r.name, 10, true});
    for (size_t k = 0; k < r.description.size(); ++k) l.push_back({270, top + 10 + 12.0 * static_cast<double>(k), r.description[k]});
    ruled_row(wrapped ? 25 : 13);
  }
  paths.push_back(fill({left, top, right, top + 0.4}));
  auto r = lay_out_page(l, paths, top + 30);
  auto tables = of_type(r, BlockType::Table);
  ASSERT_EQ(tables.size(), 1u);
  ASSERT_EQ(tables[0].rows.size(), rows.size() + 1);
  EXPECT_EQ(tables[0].rows[0], (std::vector<std::string>{"file", "description of contents"}));
  for (size_t i = 0; i < rows.size(); ++i) {
    std::string description = rows[i].description[0];
    if (rows[i].description.size() == 2) description += " " + rows[i].description[1];
    // (A word hyphenated at the end of a cell's line is joined as in prose: "justified" is
    // one of the page's words.)
    if (auto at = description.find("justi- fied"); at != std::string::npos) description.replace(at, 11, "justified");
    EXPECT_EQ(tables[0].rows[i + 1], (std::vector<std::string>{rows[i].name, description})) << i;
  }
}

// A grid of rules: one across the table under every row, and between the columns rules that
// cross every row (DocBook's XSL-FO and dblatex draw each cell's box).
struct Grid {
  std::vector<VectorPath> paths;
  double left, right, top;
  std::vector<double> columns;  // the rules between columns
  void row(double height) {
    paths.push_back(fill({left, top, right, top + 0.4}));
    for (double x : columns) paths.push_back(fill({x, top, x + 0.4, top + height}));
    paths.push_back(fill({left, top, left + 0.4, top + height}));
    paths.push_back(fill({right, top, right + 0.4, top + height}));
    top += height;
  }
  void close() { paths.push_back(fill({left, top, right, top + 0.4})); }
  // The grid closed under its last row and laid out on a page with `lines` and text under it.
  LayoutResult lay_out(std::vector<LineSpec> lines) {
    close();
    return lay_out_page(std::move(lines), paths, top + 30);
  }
};

TEST(Tables, AGridHoldsItsCellsHoweverTheyAreSet) {
  // Inside a grid, rows that read as no table's: a row all in the typewriter face (a
  // listing's, by itself), a name too long for its column that runs on into the next and
  // stands above the row's other cells, set middle-aligned, a heading cell that wraps with
  // a hyphen. The grid makes them one table, a row between each two rules, a cell between
  // two column rules.
  std::vector<LineSpec> l = filler(80, 3);
  Grid g{{}, 64, 520, 130, {190, 300}};
  g.row(0);
  l.push_back({68, g.top + 10, "apt syntax", 10, false, true});
  l.push_back({194, g.top + 10, "apt-get/apt-cache syn-", 10, false, true});
  l.push_back({194, g.top + 22, "tax", 10, false, true});
  l.push_back({304, g.top + 10, "description", 10, false, true});
  g.row(26);
  l.push_back({68, g.top + 10, "apt update", 10, true});
  l.push_back({194, g.top + 10, "apt-get update", 10, true});
  l.push_back({304, g.top + 10, "aptitude update", 10, true});
  g.row(13);
  l.push_back({68, g.top + 10, "libterm-readline-gnu-perl", 10, true});  // runs past the rule at 190
  l.push_back({194, g.top + 16, "379"});
  l.push_back({304, g.top + 16, "Perl extension for GNU ReadLine"});
  g.row(26);
  l.push_back({68, g.top + 10, "apt purge foo", 10, true});
  l.push_back({194, g.top + 10, "apt-get purge foo", 10, true});
  l.push_back({304, g.top + 10, "purge foo and its configuration"});
  g.row(13);
  auto r = g.lay_out(l);
  auto tables = of_type(r, BlockType::Table);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_TRUE(of_type(r, BlockType::Code).empty());
  const Rows want = {{"apt syntax", "apt-get/apt-cache syntax", "description"},
                     {"apt update", "apt-get update", "aptitude update"},
                     {"libterm-readline-gnu-perl", "379", "Perl extension for GNU ReadLine"},
                     {"apt purge foo", "apt-get purge foo", "purge foo and its configuration"}};
  ASSERT_EQ(tables[0].rows.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(tables[0].rows[i], want[i]) << i;
}

TEST(Tables, ATablePaintedCellByCellHoldsItsCellsHoweverTheyAreSet) {
  // A browser paints a borderless table cell by cell, white cells too, the border spacing
  // between them: no rule, and a term set middle-aligned beside a description of two lines
  // stands between them. The cells make the grid: one row per painted row, one cell per cell.
  std::vector<LineSpec> l = filler(80, 3);
  std::vector<VectorPath> paths;
  auto cell = [&](double x0, double y0, double x1, double y1) {
    VectorPath p{{x0, y0, x1, y1}, true, false, 0, 0xffffff};
    p.paper = true;
    paths.push_back(p);
  };
  const Rows rows = {{"Counter", "Description"},
                     {"Autoconf test", "Uncacheable compilation or linking by an Autoconf test."},
                     {"Bad compiler arguments", "Malformed compiler argument, e.g. missing a value for an option."}};
  double top = 130;
  for (size_t i = 0; i < rows.size(); ++i) {
    const double h = i == 0 ? 16 : 30;
    cell(64, top, 204, top + h);
    cell(205.5, top, 520, top + h);
    if (i == 0) {
      l.push_back({66, top + 3, rows[i][0], 10, false, true});
      l.push_back({208, top + 3, rows[i][1], 10, false, true});
    } else {  // the description wraps; the term stands at its middle
      const std::string& d = rows[i][1];
      const size_t cut = d.rfind(' ', d.size() / 2);
      l.push_back({208, top + 3, d.substr(0, cut)});
      l.push_back({208, top + 15, d.substr(cut + 1)});
      l.push_back({66, top + 9, rows[i][0]});
    }
    top += h + 1.5;
  }
  auto r = lay_out_page(l, paths, top + 30);
  auto tables = of_type(r, BlockType::Table);
  ASSERT_EQ(tables.size(), 1u);
  ASSERT_EQ(tables[0].rows.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(tables[0].rows[i], rows[i]) << i;
  // A shaded listing drawn line by line in three pieces (a padding strip each side of the
  // line's ground) is no table: its strips are a frame's sides, not cells.
  std::vector<LineSpec> code = filler(80, 3);
  std::vector<VectorPath> strips;
  for (int i = 0; i < 4; ++i) {
    const double y0 = 130 + 11.0 * i;
    strips.push_back(fill({120, y0, 125, y0 + 11}, 0xf0f0f0));
    strips.push_back(fill({125, y0, 437, y0 + 11}, 0xf0f0f0));
    strips.push_back(fill({437, y0, 442, y0 + 11}, 0xf0f0f0));
    code.push_back({126, y0 + 1, i % 2 ? "    __u64 len;   /* size to move */" : "struct f2fs_move_range {", 9, true});
  }
  auto rl = lay_out_page(code, strips, 200);
  EXPECT_TRUE(of_type(rl, BlockType::Table).empty());
  EXPECT_EQ(of_type(rl, BlockType::Code).size(), 1u);
}

TEST(Tables, ABoxRuledAboveAndBelowIsNoGrid) {
  // A listing framed by a rule above and one below, its line numbers parted from the code
  // by a rule: two rules across, one band between them. No grid: the listing stays one.
  std::vector<LineSpec> l = filler(80, 3);
  Grid g{{}, 64, 520, 130, {90}};
  g.row(0);
  const std::vector<std::string> code = {"int main(void) {", "  int n = 0;", "  return n;", "}"};
  for (size_t i = 0; i < code.size(); ++i) {
    l.push_back({70, g.top + 12 + 12.0 * static_cast<double>(i), std::to_string(i + 1), 10, true});
    l.push_back({96, g.top + 12 + 12.0 * static_cast<double>(i), code[i], 10, true});
  }
  g.row(56);
  auto r = g.lay_out(l);
  EXPECT_TRUE(of_type(r, BlockType::Table).empty());
  EXPECT_FALSE(of_type(r, BlockType::Code).empty());
}

TEST(Tables, AFirstPageOfTablesIsNoTitlePage) {
  // A reference's first page: its title, then its functions in a grid, and no prose. The
  // words of its tables make it a page of text, and its title opens the first chapter; a
  // title page is a first page with little text.
  std::vector<LineSpec> l = {{72, 90, "Module harfbuzz", 20, false, true}};
  Grid g{{}, 64, 520, 120, {250}};
  g.row(0);
  for (int i = 0; i < 12; ++i) {
    const std::string name(1, static_cast<char>('a' + i));
    l.push_back({68, g.top + 10, "Face:get_" + name + " ()", 10, false, true});
    l.push_back({254, g.top + 10, "Wraps the library's function " + name + " of faces"});
    g.row(13);
  }
  g.close();
  Page first = make_page(1, l);
  first.paths = g.paths;
  std::vector<LineSpec> second = {{72, 90, "Class Font", 20, false, true}};
  auto body = filler(130, 6);
  second.insert(second.end(), body.begin(), body.end());
  auto r = layout_document(make_doc({first, make_page(2, second)}));
  std::vector<std::string> titles;
  for (const auto& c : r.chapters) titles.push_back(c.title);
  EXPECT_EQ(titles, (std::vector<std::string>{"Module harfbuzz", "Class Font"}));
  EXPECT_TRUE(r.excluded.empty());
}

TEST(Tables, ARuleBetweenRowsEndsACellThatSeemsToWrap) {
  // A row two lines high (its long name was set on a line of its own), its name at the
  // top and its other cells middle-aligned a line lower: the name stands a line under the
  // name above it, in its column, and would not have fitted after it, so it looks like the
  // name above wrapped. The rule drawn between the rows says it starts a row.
  const Rows rows = {{"debian-policy", "Debian Policy Manual and related documents"},
                     {"developers-reference", "Guidelines and information for Debian developers"},
                     {"maint-guide", "Debian New Maintainers Guide for all of them"},
                     {"debmake-doc", "Guide for Debian Maintainers and their packages"}};
  std::vector<LineSpec> l = filler(80, 3);
  std::vector<VectorPath> paths;
  double baseline = 140;
  l.push_back({72, baseline, "package", 10, false, true});
  l.push_back({200, baseline, "description", 10, false, true});
  for (size_t i = 0; i < rows.size(); ++i) {
    paths.push_back(fill({68, baseline + 3, 460, baseline + 3.4}));
    const bool tall = i % 2 == 1;
    l.push_back({72, baseline + 12, rows[i][0]});
    baseline += tall ? 18 : 12;
    l.push_back({200, baseline, rows[i][1]});
    if (tall) baseline += 6;
  }
  auto tail = filler(baseline + 30, 3);
  l.insert(l.end(), tail.begin(), tail.end());
  Page page = make_page(1, l);
  page.paths = paths;
  auto r = layout_document(make_doc({page}));
  auto tables = of_type(r, BlockType::Table);
  ASSERT_EQ(tables.size(), 1u);
  ASSERT_EQ(tables[0].rows.size(), rows.size() + 1);
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(tables[0].rows[i + 1], rows[i]) << i;
}

TEST(Tables, ATableAcrossAPageBreakIsOneTable) {
  // The table's last rows at the top of the next page, in the same columns, go on with it,
  // however few they are.
  std::vector<LineSpec> first = filler(100, 40);
  double baseline = first.back().baseline + 20;
  const std::vector<std::vector<std::string>> rows = {{"alpha", "1", "first"}, {"beta", "2", "second"}, {"gamma", "3", "third"},
                                                      {"delta", "4", "fourth"}, {"epsilon", "5", "fifth"}};
  std::vector<LineSpec> second;
  for (size_t i = 0; i < rows.size(); ++i) {
    auto& page = i < 3 ? first : second;
    const double b = i < 3 ? baseline + 12.0 * static_cast<double>(i) : 100 + 12.0 * static_cast<double>(i - 3);
    page.push_back({72, b, rows[i][0]});
    page.push_back({160, b, rows[i][1]});
    page.push_back({300, b, rows[i][2]});
  }
  auto tail = filler(140, 3);
  second.insert(second.end(), tail.begin(), tail.end());
  auto r = layout_document(make_doc({make_page(1, first), make_page(2, second)}));
  auto tables = of_type(r, BlockType::Table);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].page, 1);
  EXPECT_EQ(tables[0].last_page, 2);
  ASSERT_EQ(tables[0].rows.size(), 5u);
  EXPECT_EQ(tables[0].rows[4], rows[4]);
}

// A table of `rows` whose first `on_first` rows end page 1 under filler and whose others
// start page 2; `repeat` rows of its head are printed again at the top of page 2, as a
// typesetter repeats a header over a page break. Row 0 is set in bold when `bold_head`.
Document table_over_a_break(const Rows& rows, size_t on_first, size_t repeat, bool bold_head) {
  std::vector<LineSpec> first = filler(100, 40), second;
  const double top = first.back().baseline + 20;
  auto set_row = [&](std::vector<LineSpec>& page, const std::vector<std::string>& row, double baseline, bool bold) {
    const double xs[] = {72, 160, 300};
    for (size_t c = 0; c < row.size(); ++c) page.push_back({xs[c], baseline, row[c], 10, false, bold});
  };
  for (size_t i = 0; i < on_first; ++i) set_row(first, rows[i], top + 12.0 * static_cast<double>(i), bold_head && i == 0);
  double baseline = 100;
  for (size_t i = 0; i < repeat; ++i, baseline += 12) set_row(second, rows[i], baseline, bold_head && i == 0);
  for (size_t i = on_first; i < rows.size(); ++i, baseline += 12) set_row(second, rows[i], baseline, false);
  auto tail = filler(baseline + 40, 3);
  second.insert(second.end(), tail.begin(), tail.end());
  return make_doc({make_page(1, first), make_page(2, second)});
}

const Rows kSignals = {{"Signal", "Number", "Action"}, {"SIGHUP", "1", "reload"}, {"SIGINT", "2", "stop"},
                       {"SIGQUIT", "3", "dump"}, {"SIGTERM", "15", "finish"}, {"SIGUSR1", "10", "rotate"}};

// Typographic fact: a table broken by a page break may print its header again at the top of
// the page it goes on to. That repeat is no row of the table; its words are logged as taken
// out, so every printed word is still accounted for.
TEST(Tables, AHeaderRepeatedOverAPageBreakLeavesTheTableAndIsLogged) {
  for (bool bold : {true, false}) {
    auto r = layout_document(table_over_a_break(kSignals, 3, 1, bold));
    auto tables = of_type(r, BlockType::Table);
    ASSERT_EQ(tables.size(), 1u) << bold;
    EXPECT_EQ(tables[0].rows, kSignals) << bold << "\n" << tables[0].text;
    EXPECT_EQ(tables[0].header_rows, 1) << bold;
    EXPECT_EQ(tables[0].text.find("Signal"), tables[0].text.rfind("Signal")) << tables[0].text;
    EXPECT_TRUE(tables[0].dropped.empty());  // layout's own: moved to the result's log
    ASSERT_EQ(r.removed.size(), 1u) << bold;
    EXPECT_EQ(r.removed[0].page, 2);
    EXPECT_EQ(r.removed[0].reason, kRepeatedTableHeader);
    EXPECT_EQ(r.removed[0].text, "Signal Number Action");
    EXPECT_NEAR(r.removed[0].bbox.x0, 72, 0.5);
    EXPECT_LT(r.removed[0].bbox.y1, 105);
  }
}

TEST(Tables, ARowPrintedAgainIsNoRepeatedHeaderWhereTheTableRepeatsItsRows) {
  // A table whose rows are all alike has no header to repeat: its rows all stay.
  const Rows alike(6, {"yes", "no", "maybe"});
  auto r = layout_document(table_over_a_break(alike, 3, 0, false));
  auto tables = of_type(r, BlockType::Table);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].rows.size(), 6u);
  EXPECT_TRUE(r.removed.empty());
  // Nor is a body row that happens to open the next page a header: only the table's first
  // rows are repeated.
  auto r2 = layout_document(table_over_a_break(kSignals, 3, 0, true));
  auto t2 = of_type(r2, BlockType::Table);
  ASSERT_EQ(t2.size(), 1u);
  EXPECT_EQ(t2[0].rows, kSignals);
  EXPECT_TRUE(r2.removed.empty());
}

TEST(Tables, ARuledTableMaySetItsColumnsAWordSpaceApart) {
  // A table between rules (over its header, under it, under its last row, each drawn a
  // column at a time) whose columns stand as close as a word space past their widest cell:
  // its cells are the lines the engine parted. Without the rules, lines that close are no
  // cells (a page's loosely set prose, a term beside its description).
  const Rows rows = {{"Parameter", "Default", "Unit"}, {"flush_interval", "500", "ms"},
                     {"flush_watermark", "50", "percent"}, {"max_batch", "4096", "records"}};
  std::vector<double> xs = {132};
  for (size_t c = 0; c + 1 < rows[0].size(); ++c) {
    double widest = 0;
    for (const auto& row : rows) widest = std::max(widest, test::make_line({xs[c], 100, row[c]}).bbox.x1);
    xs.push_back(widest + 3.5);  // 0.35 em
  }
  const double right = xs.back() + 40;
  for (const bool ruled : {true, false}) {
    SCOPED_TRACE(ruled ? "ruled" : "unruled");
    std::vector<LineSpec> l = filler(100, 3);
    const double top = l.back().baseline + 30;
    auto cells = table_lines(rows, xs, top, 16);
    l.insert(l.end(), cells.begin(), cells.end());
    auto tail = filler(top + 16 * 4 + 20, 3);
    l.insert(l.end(), tail.begin(), tail.end());
    Page page = make_page(1, l);
    if (ruled)
      for (const double y : {top - 12, top + 4, top + 16 * 3 + 4})
        for (size_t c = 0; c < xs.size(); ++c)
          page.paths.push_back(fill({xs[c] - 4, y, c + 1 < xs.size() ? xs[c + 1] - 4 + 0.5 : right, y + 0.4}));
    auto r = layout_document(make_doc({page}));
    auto tables = of_type(r, BlockType::Table);
    if (!ruled) {
      EXPECT_TRUE(tables.empty());
      continue;
    }
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0].rows, rows);
  }
}

// Typographic fact: an admonition or sidebar is set apart in a box (a shaded panel, a bar at
// its left, or rules above and below it) and led by its title, on a line of its own, set
// before its text on the line, or run in with a colon. The title names its kind.
struct NoteCase {
  const char* name;
  std::vector<LineSpec> lines;  // the note's lines
  std::vector<VectorPath> paths;
  const char* kind;             // nullptr: no note
  const char* title;
  const char* text;
};

TEST(Notes, ATitledBoxIsANoteOfItsKind) {
  const Box panel{66, 173, 520, 201};  // the text's lines with a box's padding
  const std::vector<NoteCase> cases = {
      {"a shaded box, its title on a line of its own",
       {{80, 184, "Tip", 10, false, true}, {80, 196, "Run the check before the build so that errors show early."}},
       {fill(panel, 0xEEEEEE)},
       "tip", "Tip", "Run the check before the build so that errors show early."},
      {"rules above and below, the title on its line",
       {{80, 184, "Warning", 10, false, true}, {80, 196, "Do not run fsck on a mounted filesystem."}},
       {fill({66, 172, 520, 172.4}), fill({66, 214, 520, 214.4})},
       "warning", "Warning", "Do not run fsck on a mounted filesystem."},
      {"a bar at the left, a run-in title",
       {{80, 184, "Caution: the cache is shared by every build of the machine."}},
       {fill({70, 172, 71, 200})},
       "caution", "Caution:", "the cache is shared by every build of the machine."},
      {"a side title, a bar between it and the text",
       {{72, 184, "NOTE", 10, false, true}, {120, 184, "Do not use local URLs here if you publish it."}},
       {fill({108, 172, 108.5, 196})},
       "note", "NOTE", "Do not use local URLs here if you publish it."},
      {"a frame, an important note",
       {{80, 184, "Important", 10, false, true}, {80, 196, "Keep a copy of the key."}},
       {[] {
         VectorPath p;
         p.bbox = {66 - 4, 173 - 4, 520 + 4, 201 + 4};  // a stroke's box, padded (kStrokeBoxPad)
         p.stroke = true;
         p.line_width = 0.4;
         return p;
       }()},
       "important", "Important", "Keep a copy of the key."},
      {"a sidebar's title",
       {{80, 184, "BACK TO BASICS", 10, false, true}, {80, 196, "A package is an archive of files and metadata."}},
       {fill(panel, 0xDDDDDD)},
       "sidebar", "BACK TO BASICS", "A package is an archive of files and metadata."},
      {"a word in lower case is no title (a name: R's help page \"warning\")",
       {{80, 184, "warning", 10, false, true}, {80, 196, "Print a warning message and go on with the rest of it."}},
       {fill(panel, 0xEEEEEE)},
       nullptr, nullptr, nullptr},
      {"the title word with no box: a paragraph",
       {{72, 184, "Note", 10, false, true}, {72, 196, "This is body text of the page."}},
       {},
       nullptr, nullptr, nullptr},
      {"no box, but set in on both sides under a title of its own (XSL-FO)",
       {{90, 184, "Tip", 14, false, true}, {90, 198, "Keep the spool on a file system of its own,"},
        {90, 210, "so that a full spool never fills the root."}},
       {},
       "tip", "Tip", "Keep the spool on a file system of its own, so that a full spool never fills the root."},
      {"set in under a heading of its own, short lines that end no sentence: no note",
       {{90, 184, "Notes", 14, false, true}, {90, 198, "Chapter 1"}, {90, 210, "1. Book."}},
       {},
       nullptr, nullptr, nullptr},
  };
  for (const auto& c : cases) {
    std::vector<LineSpec> l = filler(100, 4);
    l.insert(l.end(), c.lines.begin(), c.lines.end());
    auto tail = filler(240, 3);
    l.insert(l.end(), tail.begin(), tail.end());
    Page page = make_page(1, l);
    page.paths = c.paths;
    // A panel or frame fits its text, with a box's padding: a text box, not a drawing.
    double right = 0;
    for (const auto& s : c.lines) right = std::max(right, test::make_line(s).bbox.x1);
    for (auto& p : page.paths)
      if (p.bbox.width() > 10 && p.bbox.height() > 10) p.bbox.x1 = right + 8 + (p.stroke ? 4 : 0);
    auto r = layout_document(make_doc({page}));
    auto notes = of_type(r, BlockType::Note);
    if (!c.kind) {
      EXPECT_TRUE(notes.empty()) << c.name;
      continue;
    }
    ASSERT_EQ(notes.size(), 1u) << c.name;
    EXPECT_EQ(notes[0].kind, c.kind) << c.name;
    EXPECT_EQ(notes[0].title, c.title) << c.name;
    EXPECT_EQ(notes[0].text, c.text) << c.name;
    // The text after the box is no longer the note's.
    for (const auto& p : of_type(r, BlockType::Paragraph)) EXPECT_EQ(p.text.find(c.title), std::string::npos) << c.name;
  }
}

TEST(Notes, ANoteBrokenByThePageGoesOnInItsBoxOnTheNextPage) {
  // A shaded box broken by the page is drawn again at the top of the next, as wide, around
  // the rest of the note's text, without a title: one note, its text whole.
  std::vector<LineSpec> l1 = filler(100, 40);
  l1.push_back({80, 600, "Tip", 10, false, true});
  l1.push_back({80, 612, "Keep the spool on a file system of its own. When the spool fills up"});
  std::vector<LineSpec> l2 = {{80, 100, "the flusher stops and producers begin to drop records."}};
  auto tail = filler(130, 3);
  l2.insert(l2.end(), tail.begin(), tail.end());
  Page p1 = make_page(1, l1), p2 = make_page(2, l2);
  const double right = test::make_line(l1.back()).bbox.x1 + 8;
  p1.paths.push_back(fill({66, 589, right, 620}, 0xEEEEEE));
  p2.paths.push_back(fill({66, 88, right, 106}, 0xEEEEEE));
  auto r = layout_document(make_doc({p1, p2}));
  auto notes = of_type(r, BlockType::Note);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].title, "Tip");
  EXPECT_EQ(notes[0].text,
            "Keep the spool on a file system of its own. When the spool fills up the flusher stops and producers begin to "
            "drop records.");
  EXPECT_EQ(notes[0].last_page, 2);
}

TEST(Notes, ATitleOnATabOfItsOwnHeadsTheBoxUnderIt) {
  // Slides and some trade books print a note's title on a small dark tab of its own, its
  // text in a lighter box right under the tab: the box's text is the note's.
  std::vector<LineSpec> l = filler(100, 4);
  l.push_back({80, 184, "NOTE", 10, false, true});
  l.push_back({80, 202, "The bbox option has no meaning for bitmap images, which carry a size"});
  l.push_back({80, 214, "of their own."});
  auto tail = filler(270, 3);
  l.insert(l.end(), tail.begin(), tail.end());
  Page page = make_page(1, l);
  const double right = test::make_line(l[l.size() - 5]).bbox.x1 + 8;
  page.paths.push_back(fill({72, 174, 112, 189}, 0x335577));    // the tab, as wide as its title
  page.paths.push_back(fill({72, 190, right, 222}, 0xBBCCEE));  // the box under it
  auto r = layout_document(make_doc({page}));
  auto notes = of_type(r, BlockType::Note);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].kind, "note");
  EXPECT_EQ(notes[0].title, "NOTE");
  EXPECT_EQ(notes[0].text, "The bbox option has no meaning for bitmap images, which carry a size of their own.");
}

TEST(Notes, EveryParagraphInTheBoxIsTheNotes) {
  // Two paragraphs in one box: two note blocks of its kind, the title on the first.
  std::vector<LineSpec> l = filler(100, 4);
  l.push_back({80, 184, "Tip", 10, false, true});
  l.push_back({80, 196, "The first paragraph of the tip ends here."});
  l.push_back({80, 212, "A second paragraph of the tip."});
  auto tail = filler(260, 3);
  l.insert(l.end(), tail.begin(), tail.end());
  Page page = make_page(1, l);
  page.paths.push_back(fill({66, 172, test::make_line(l[l.size() - 5]).bbox.x1 + 8, 222}, 0xEEEEEE));
  auto r = layout_document(make_doc({page}));
  auto notes = of_type(r, BlockType::Note);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].title, "Tip");
  EXPECT_EQ(notes[1].title, "");
  EXPECT_EQ(notes[1].kind, "tip");
  EXPECT_EQ(notes[1].text, "A second paragraph of the tip.");
}

}  // namespace
}  // namespace quire
