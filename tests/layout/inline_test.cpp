// Inline styles and links of blocks, from the fonts of their glyphs and the page's link
// annotations, through layout_document. Each case is a line or two written in a small markup:
// `mono`, *italic*, **bold**, ~italic mono~; the block's text must be the words alone, its
// styles the runs.
#include <gtest/gtest.h>

#include "page_builder.h"
#include "quire/layout.h"

namespace quire {
namespace {

// Spans of a line from the markup, placed one after the other from x; returns the line.
Line styled_line(const std::string& markup, double x, double baseline, double size = 10) {
  Line l;
  size_t i = 0;
  while (i < markup.size()) {
    bool mono = false, bold = false, italic = false;
    std::string text;
    if (markup.compare(i, 2, "**") == 0) {
      const size_t end = markup.find("**", i + 2);
      text = markup.substr(i + 2, end - i - 2);
      bold = true;
      i = end + 2;
    } else if (markup[i] == '*' || markup[i] == '`' || markup[i] == '~') {
      const size_t end = markup.find(markup[i], i + 1);
      text = markup.substr(i + 1, end - i - 1);
      italic = markup[i] != '`';
      mono = markup[i] != '*';
      i = end + 1;
    } else {
      const size_t end = markup.find_first_of("*`~", i);
      text = markup.substr(i, end == std::string::npos ? std::string::npos : end - i);
      i = end == std::string::npos ? markup.size() : end;
    }
    Span sp;
    sp.text = text;
    sp.size = size;
    sp.monospace = mono;
    sp.bold = bold;
    sp.italic = italic;
    sp.font = mono ? (italic ? "CMITT10" : "CMTT10") : bold ? "CMBX10" : italic ? "CMTI10" : "CMR10";
    sp.baseline = baseline;
    const double x0 = x;
    double adv = 0;
    for (char32_t c : to_u32(text)) {
      sp.xs.push_back(static_cast<float>(x));
      adv = (mono ? 0.6 : test::proportional_em(c)) * size;
      x += adv;
    }
    sp.last_advance = static_cast<float>(adv);
    sp.bbox = {x0, baseline - 0.8 * size, x, baseline + 0.25 * size};
    l.bbox = l.spans.empty() ? sp.bbox : l.bbox.united(sp.bbox);
    l.spans.push_back(sp);
  }
  return l;
}

// A page of filler paragraphs (the body's font and measure) and then the case's lines, one
// paragraph, set 12 pt apart at the margin.
Page page_with(const std::vector<std::string>& markup, int number = 1) {
  std::vector<std::string> fill(4, "filler text of the page set in the body size and justified to the measure");
  Page p = test::make_page(number, test::paragraph(72, 100, fill));
  double baseline = 100 + 12 * 4 + 24;
  for (size_t i = 0; i < markup.size(); ++i, baseline += 12)
    p.lines.push_back(styled_line(markup[i], i == 0 ? 87 : 72, baseline));
  return p;
}

// The block of the case (the paragraph after the filler).
Block case_block(const LayoutResult& r) {
  for (const auto& c : r.chapters)
    for (const auto& b : c.blocks)
      if (b.text.rfind("filler", 0) != 0) return b;
  return {};
}

// "em:word" for each style run and "link:words->href" for each link.
std::vector<std::string> runs_of(const Block& b) {
  std::vector<std::string> out;
  const std::u32string t = to_u32(b.text);
  auto sub = [&](size_t at, size_t len) {
    std::string s;
    for (size_t k = at; k < at + len && k < t.size(); ++k) append_utf8(s, t[k]);
    return s;
  };
  for (const auto& r : b.styles) out.push_back(std::string(to_string(r.style)) + ":" + sub(r.at, r.len));
  for (const auto& l : b.links) out.push_back("link:" + sub(l.at, l.len) + "->" + l.href);
  return out;
}

struct StyleCase {
  const char* why;
  std::vector<std::string> lines;
  std::string text;
  std::vector<std::string> runs;
};

class InlineStyles : public ::testing::TestWithParam<StyleCase> {};

TEST_P(InlineStyles, RunsFromTheFonts) {
  const StyleCase& c = GetParam();
  const Block b = case_block(layout_document(test::make_doc({page_with(c.lines)})));
  EXPECT_EQ(b.text, c.text) << c.why;
  EXPECT_EQ(runs_of(b), c.runs) << c.why;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, InlineStyles,
    ::testing::Values(
        // A header name in typewriter inside a roman sentence is code; the sentence is not.
        StyleCase{"mono run inside a serif line",
                  {"The header `stdatomic.h` declares the atomic types and the functions of the library."},
                  "The header stdatomic.h declares the atomic types and the functions of the library.",
                  {"code:stdatomic.h"}},
        // The comma after an italic word, set in italics too, is the sentence's.
        // An italic placeholder inside code is an emphasis within the code run.
        StyleCase{"italic placeholder in code",
                  {"To list them, run `dpkg -L `~package_name~` | grep man` in a shell of your own."},
                  "To list them, run dpkg -L package_name | grep man in a shell of your own.",
                  {"code:dpkg -L package_name | grep man", "em:package_name"}},
        StyleCase{"italic word with its comma",
                  {"Quire keeps the *wording,* and only the wording, of every book it reads today."},
                  "Quire keeps the wording, and only the wording, of every book it reads today.",
                  {"em:wording"}},
        // Hangul (and Han, kana) stand on the em square in every face: a run of them on one
        // advance is no typewriter face, and the words beside a code run stay prose.
        StyleCase{"wide characters on one advance are no code",
                  {"입력은 원칙적으로 UTF-8으로 한다. 선언이 있으면 된다 `\\XeTeXinputencoding` 입력도 지원하는데 좋다."},
                  "입력은 원칙적으로 UTF-8으로 한다. 선언이 있으면 된다 \\XeTeXinputencoding 입력도 지원하는데 좋다.",
                  {"code:\\XeTeXinputencoding"}},
        StyleCase{"bold word",
                  {"Do **not** remove the spool directory while the service is running on the host."},
                  "Do not remove the spool directory while the service is running on the host.",
                  {"strong:not"}},
        // An option after a comma set in typewriter: the comma after it is the sentence's.
        StyleCase{"code run then punctuation",
                  {"Pass `--disable-atomics`, then build the whole library again from the start."},
                  "Pass --disable-atomics, then build the whole library again from the start.",
                  {"code:--disable-atomics"}},
        // Two typewriter words apart by a roman space are one run.
        StyleCase{"code run over a space",
                  {"Run `make` `install` as root to put the files in their places on the system."},
                  "Run make install as root to put the files in their places on the system.",
                  {"code:make install"}},
        // A block set in bold throughout has bold as its own font: no strong.
        StyleCase{"whole block bold", {"**Reflogs**"}, "Reflogs", {}},
        // Most words in typewriter: the block's own font, not a style of each word.
        StyleCase{"block mostly mono",
                  {"`dpkg -s` `file_name_pattern` list `installed packages` `which` `match`"},
                  "dpkg -s file_name_pattern list installed packages which match",
                  {}},
        // An italic word broken by a hyphen at the line end is one em run, joined.
        StyleCase{"emphasis across a hyphen join",
                  {"The word set in italics here is *exam-*", "*ple* and the sentence goes on to its end."},
                  "The word set in italics here is example and the sentence goes on to its end.",
                  {"em:example"}},
        // An italic phrase that wraps is one run across the line break.
        StyleCase{"emphasis across a line break",
                  {"The title of the book that the sentence names is *The Art of*",
                   "*Computer Programming* by its author, in several volumes."},
                  "The title of the book that the sentence names is The Art of Computer Programming by its author, "
                  "in several volumes.",
                  {"em:The Art of Computer Programming"}},
        // A book's title in a reference, most of its words, between its author and year and
        // its publisher: emphasis inside the block, not the block's own face.
        StyleCase{"italic title most of a reference",
                  {"J. M. Chambers (1998) *Programming with Data. A Guide to the S Language.* Springer."},
                  "J. M. Chambers (1998) Programming with Data. A Guide to the S Language. Springer.",
                  {"em:Programming with Data. A Guide to the S Language"}},
        // An epigraph set in italics over its author in roman: the block's own face.
        StyleCase{"italic epigraph over its author",
                  {"*Beware of bugs in the above code; I have only proved it correct, not tried it.* Knuth"},
                  "Beware of bugs in the above code; I have only proved it correct, not tried it. Knuth",
                  {}}),
    [](const auto& info) {
      std::string n;
      for (char c : std::string(info.param.why)) n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return n;
    });

// A short block set wholly in typewriter (an item naming an option) is code throughout: the
// test of a block's own font asks for other words to compare with.
TEST(InlineStyles, AShortItemInMonoIsCode) {
  const Block b = case_block(layout_document(test::make_doc({page_with({"\u2022 `--verbose`"})})));
  EXPECT_EQ(b.type, BlockType::ListItem);
  EXPECT_EQ(runs_of(b), std::vector<std::string>{"code:--verbose"});
}

// An item whose text after its marker is set in bold (its title, "2. Header line" over its
// text): the marker's roman is the item's own font, the title strong. A paragraph set so
// (a glossary term) has bold as its own.
TEST(InlineStyles, AnItemsBoldTitleAfterARomanMarkerIsStrong) {
  const Block b = case_block(layout_document(test::make_doc({page_with({"2. **Header line**"})})));
  EXPECT_EQ(b.type, BlockType::ListItem);
  EXPECT_EQ(runs_of(b), std::vector<std::string>{"strong:Header line"});
  const Block term = case_block(layout_document(test::make_doc({page_with({"**Header line**"})})));
  EXPECT_EQ(term.type, BlockType::Paragraph);
  EXPECT_TRUE(runs_of(term).empty());
}

// The styles of the heading set from `markup` at 14 pt over a page of body text.
std::vector<std::string> heading_runs(const std::string& markup) {
  Page p = page_with({"filler text of the page set in the body size and justified to the measure"});
  p.lines.insert(p.lines.begin(), styled_line(markup, 72, 80, 14));
  const LayoutResult r = layout_document(test::make_doc({p}));
  for (const auto& c : r.chapters)
    for (const auto& b : c.blocks)
      if (b.type == BlockType::Heading) return runs_of(b);
  ADD_FAILURE() << "no heading in " << markup;
  return {};
}

// A heading is set in its own bold throughout; a code span in it keeps the typewriter face
// (often with no bold), which neither breaks the heading's bold nor is a word that could
// carry it: the number and the words around the code are the heading's face, not strong.
TEST(InlineStyles, AHeadingsBoldAroundCodeIsItsOwnFace) {
  EXPECT_EQ(heading_runs("**9.1.1** `dpkg-dev`"), std::vector<std::string>{"code:dpkg-dev"});
  EXPECT_EQ(heading_runs("**4.9.2 The** `dak ls` **utility**"), std::vector<std::string>{"code:dak ls"});
  // A heading mostly of code (a line of a reference card): its italics are placeholders.
  std::vector<std::string> em;
  for (const std::string& r : heading_runs("`try` *body* `catch` *cleanup* `end` `ones`"))
    if (r.rfind("em:", 0) == 0) em.push_back(r);
  EXPECT_EQ(em, (std::vector<std::string>{"em:body", "em:cleanup"}));
}

LinkArea uri_link(const Box& box, const std::string& uri) {
  LinkArea a;
  a.bbox = box;
  a.uri = uri;
  return a;
}

// The box of the glyphs of `word` on the page's line at `baseline`.
Box word_box(const Page& p, double baseline, const std::string& word) {
  for (const auto& l : p.lines)
    for (const auto& s : l.spans) {
      if (std::abs(s.baseline - baseline) > 0.1) continue;
      const size_t at = s.text.find(word);
      if (at == std::string::npos) continue;
      const size_t from = utf8_length(std::string_view(s.text).substr(0, at)), n = utf8_length(word);
      const double x1 = from + n < s.xs.size() ? s.xs[from + n] : s.bbox.x1;
      return {s.xs[from] - 0.5, s.bbox.y0, x1 + 0.5, s.bbox.y1};
    }
  ADD_FAILURE() << "no " << word;
  return {};
}

TEST(InlineLinks, AUriLinkOnTheWordsItCovers) {
  Page p = page_with({"The project's pages are at https://example.org/quire/ for anyone to read."});
  const double baseline = 100 + 12 * 4 + 24;
  p.links.push_back(uri_link(word_box(p, baseline, "https://example.org/quire/"), "https://example.org/quire/"));
  const Block b = case_block(layout_document(test::make_doc({p})));
  EXPECT_EQ(runs_of(b), std::vector<std::string>{"link:https://example.org/quire/->https://example.org/quire/"});
}

TEST(InlineLinks, ATablesStylesAndLinksFollowItsCells) {
  // A row whose last cell wraps over two lines, the other cells set middle-aligned beside
  // it: the page sets the cell's first line above the row's other cells, while the table's
  // text reads the row cell by cell. The name set in the typewriter face and the links on
  // the sizes stay on their own words.
  std::vector<std::string> fill(4, "filler text of the page set in the body size and justified to the measure");
  Page p = test::make_page(1, test::paragraph(72, 100, fill));
  const double b = 180;
  auto cell = [&](const std::string& markup, double x, double baseline) { p.lines.push_back(styled_line(markup, x, baseline)); };
  cell("sudo", 72, b), cell("5990", 160, b), cell("short text", 300, b);
  cell("Unix text editor Vi IMproved", 300, b + 12), cell("`vim`", 72, b + 18), cell("3570", 160, b + 18);
  cell("(standard)", 300, b + 24);
  cell("w3m", 72, b + 36), cell("2828", 160, b + 36), cell("a browser", 300, b + 36);
  cell("mc", 72, b + 48), cell("1482", 160, b + 48), cell("a file manager", 300, b + 48);
  p.links.push_back(uri_link(word_box(p, b + 18, "3570"), "https://example.org/vim"));
  p.links.push_back(uri_link(word_box(p, b + 36, "2828"), "https://example.org/w3m"));
  const Block t = case_block(layout_document(test::make_doc({p})));
  ASSERT_EQ(t.type, BlockType::Table) << t.text;
  EXPECT_EQ(t.rows[1], (std::vector<std::string>{"vim", "3570", "Unix text editor Vi IMproved (standard)"}));
  EXPECT_EQ(runs_of(t), (std::vector<std::string>{"code:vim", "link:3570->https://example.org/vim",
                                                   "link:2828->https://example.org/w3m"}));
}

TEST(InlineLinks, ALinksBracketsAreItsOwnWhenTheyPair) {
  // The annotation's box takes in the brackets around the words; a pair inside the words
  // stays.
  Page p = page_with({"The guide (see Debian Reference (version 2.100)) tells how, for everyone."});
  const double baseline = 100 + 12 * 4 + 24;
  p.links.push_back(uri_link(word_box(p, baseline, "(see Debian Reference (version 2.100))"), "https://example.org/"));
  const Block b = case_block(layout_document(test::make_doc({p})));
  EXPECT_EQ(runs_of(b), std::vector<std::string>{"link:see Debian Reference (version 2.100)->https://example.org/"});
}

TEST(InlineLinks, ALinkAcrossALineBreakStaysOneLink) {
  // pdfTeX's hyperref annotates each line of a broken link apart, with the same URI.
  Page p = page_with({"The manual of the library is on the web at the address https://example.org/",
                      "manual/index.html and in the package."});
  const double baseline = 100 + 12 * 4 + 24;
  p.links.push_back(uri_link(word_box(p, baseline, "https://example.org/"), "https://example.org/manual/index.html"));
  p.links.push_back(uri_link(word_box(p, baseline + 12, "manual/index.html"), "https://example.org/manual/index.html"));
  const Block b = case_block(layout_document(test::make_doc({p})));
  EXPECT_EQ(b.text, "The manual of the library is on the web at the address https://example.org/ manual/index.html "
                    "and in the package.");
  EXPECT_EQ(runs_of(b), std::vector<std::string>{
                            "link:https://example.org/ manual/index.html->https://example.org/manual/index.html"});
}

TEST(InlineLinks, AnInternalLinkLeadsToTheHeadingsAnchor) {
  // "see Installing" points at page 2, a little above the heading there.
  Page p1 = page_with({"For the steps, see Installing the files, which comes next in this manual."});
  const double baseline = 100 + 12 * 4 + 24;
  LinkArea to;
  to.bbox = word_box(p1, baseline, "Installing the files");
  to.page = 2;
  to.y = 80;
  p1.links.push_back(to);
  std::vector<test::LineSpec> lines = {{72, 96, "Installing the files", 16, false, true}};
  auto body = test::paragraph(72, 130, {"filler text of the page set in the body size and justified to the measure"});
  lines.insert(lines.end(), body.begin(), body.end());
  const LayoutResult r = layout_document(test::make_doc({p1, test::make_page(2, lines)}));
  std::string anchor;
  for (const auto& c : r.chapters)
    for (const auto& b : c.blocks)
      if (b.type == BlockType::Heading && b.text == "Installing the files") anchor = b.anchor;
  ASSERT_EQ(anchor, "installing-the-files");
  const Block b = case_block(r);
  EXPECT_EQ(runs_of(b), std::vector<std::string>{"link:Installing the files->#installing-the-files"});
}

TEST(InlineLinks, ALinkToAFootnoteLeadsToTheNote) {
  // hyperref and asciidoctor link a note's mark to the note at the foot of the page: the link
  // leads to the footnote's own anchor ("note-1"), not to the heading above the note.
  std::vector<test::LineSpec> lines = {{72, 96, "Installing the files", 16, false, true}};
  auto body = test::paragraph(72, 130, {"filler text of the page set in the body size and justified to the measure"});
  lines.insert(lines.end(), body.begin(), body.end());
  lines.push_back({72, 700, "1 A footnote in the small size at the foot of the page.", 8});
  Page p = test::make_page(1, lines);
  const double baseline = 100 + 12 * 4 + 24;
  for (const auto& l : page_with({"The steps are in the note below, which the reader can skip at first."}).lines)
    if (l.bbox.y1 > baseline - 12) p.lines.push_back(l);
  LinkArea to;
  to.bbox = word_box(p, baseline, "note");
  to.page = 1;
  to.y = 690;
  p.links.push_back(to);
  const LayoutResult r = layout_document(test::make_doc({p}));
  std::string anchor;
  Block citing;
  for (const auto& c : r.chapters)
    for (const auto& b : c.blocks) {
      if (b.type == BlockType::Footnote) anchor = b.anchor;
      if (b.text.rfind("The steps", 0) == 0) citing = b;
    }
  ASSERT_EQ(anchor, "note-1");
  EXPECT_EQ(runs_of(citing), std::vector<std::string>{"link:note->#note-1"});
}

TEST(InlineLinks, ALinkOutOfTheChaptersIsDropped) {
  Page p1 = page_with({"For the steps, see Installing the files, which comes next in this manual."});
  LinkArea to;
  to.bbox = word_box(p1, 100 + 12 * 4 + 24, "Installing");
  to.page = 40;  // no page of the book's chapters
  p1.links.push_back(to);
  EXPECT_TRUE(case_block(layout_document(test::make_doc({p1}))).links.empty());
}

}  // namespace
}  // namespace quire
