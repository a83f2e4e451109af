// layout heuristics on small synthetic pages, through layout_document.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "page_builder.h"
#include "quire/clean.h"
#include "quire/layout.h"

namespace quire {
namespace {

using test::LineSpec;
using test::make_doc;
using test::make_page;
using test::paragraph;

std::vector<Block> all_blocks(const LayoutResult& r) {
  std::vector<Block> out;
  for (const auto& c : r.chapters) out.insert(out.end(), c.blocks.begin(), c.blocks.end());
  return out;
}

std::vector<Block> of_type(const LayoutResult& r, BlockType t) {
  std::vector<Block> out;
  for (const auto& b : all_blocks(r))
    if (b.type == t) out.push_back(b);
  return out;
}

// Filler lines so the page has a body size and a flush left margin.
std::vector<LineSpec> filler(double top, int n) {
  std::vector<std::string> t(n, "filler text of the page set in the body size and justified to the measure");
  return paragraph(72, top, t);
}

// A chapter's page: its title set large at `top`, two lines of body text under it.
Page chapter_page(int n, const std::string& title, const std::string& text, double top = 80) {
  std::vector<LineSpec> l = {{72, top, title, 16, false, true}};
  auto body = paragraph(72, top + 40, {text + " is the body text of this chapter and goes on.", "More text."});
  l.insert(l.end(), body.begin(), body.end());
  return make_page(n, l);
}

// Puts a raster image of `w` x `h` pixels at `box` on the page (a figure).
void add_image(Page& page, const Box& box, int w, int h) {
  Image im;
  im.bbox = box;
  im.width = w;
  im.height = h;
  page.images.push_back(im);
}

TEST(Paragraphs, LinesJoinWithSingleSpacesAndIndentStartsParagraph) {
  // A first-line indent (\parindent) starts a paragraph; other lines of a paragraph sit
  // at the margin, one leading apart.
  auto lines = paragraph(72, 100, {"The first paragraph starts here and goes on to the", "next line of the text, still the same sentence, and",
                                   "stops here."});
  auto second = paragraph(72, 136, {"A second paragraph opens with an indent and runs", "to its end here."});
  lines.insert(lines.end(), second.begin(), second.end());
  auto r = layout_document(make_doc({make_page(1, lines)}));
  auto ps = of_type(r, BlockType::Paragraph);
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(ps[0].text,
            "The first paragraph starts here and goes on to the next line of the text, still the same sentence, and "
            "stops here.");
  EXPECT_EQ(ps[1].text, "A second paragraph opens with an indent and runs to its end here.");
}

TEST(Paragraphs, AHangingIndentKeepsItsEntryWhole) {
  // A description list's entry (Texinfo's @table, an Rd argument list, LaTeX's description):
  // the term and the first words of its text fill the first line in mid-sentence, and the
  // rest hangs indented under it. The indent is no new paragraph's, which would follow a
  // line that ends a sentence.
  const std::string full = "filler text of the page set in the body size and justified to the measure";
  auto lines = filler(100, 3);
  for (const auto& spec : std::vector<LineSpec>{{72, 148, full, 10},
                                                {92, 160, "and the text of the term hangs under it.", 10},
                                                {72, 184, full + ".", 10},
                                                {92, 196, "A new paragraph opens here.", 10}})
    lines.push_back(spec);
  auto ps = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::Paragraph);
  ASSERT_EQ(ps.size(), 4u);
  EXPECT_EQ(ps[1].text, full + " and the text of the term hangs under it.");
  EXPECT_EQ(ps[2].text, full + ".");
  EXPECT_EQ(ps[3].text, "A new paragraph opens here.");
}

TEST(Paragraphs, SpaceAfterASentenceBetweenFlushLinesEndsAParagraph) {
  // Paragraphs set apart by half a line of space, not indented (parskip): after a full line
  // that ends a sentence, a wider step than the book's line pitch (12 pt here) starts a new
  // paragraph. The same step after a line in mid-sentence (a tall formula in the next line)
  // does not.
  const std::string full = "filler text of the page set in the body size and justified to the measure";
  auto lines = paragraph(72, 100, std::vector<std::string>(8, full), 10, false);
  for (const auto& spec : std::vector<LineSpec>{{72, 196, full + ".", 10},
                                                {72, 214, full, 10},
                                                {72, 232, full, 10},
                                                {72, 244, "and the paragraph ends here.", 10}})
    lines.push_back(spec);
  auto ps = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::Paragraph);
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(ps[0].text.substr(ps[0].text.size() - 8), "measure.");
  EXPECT_EQ(ps[1].text, full + " " + full + " and the paragraph ends here.");
}

TEST(Paragraphs, AChaptersTitleInTheMarginDoesNotWidenTheColumn) {
  // A chapter style that sets its title large and out into the margin: the body's full
  // lines are still full, and a paragraph goes on over the page break.
  const std::string full = "filler text of the page set in the body size and justified to the measure";
  auto first = paragraph(72, 100, std::vector<std::string>(3, full), 10, false);
  first.push_back({380, 160, "Combining Works", 17});
  auto body = paragraph(72, 200, std::vector<std::string>(45, full), 10, true);
  first.insert(first.end(), body.begin(), body.end());
  auto second = paragraph(72, 100, {"Over the page break the paragraph ends.", full}, 10, false);
  auto ps = of_type(layout_document(make_doc({make_page(1, first), make_page(2, second)})), BlockType::Paragraph);
  ASSERT_EQ(ps.size(), 3u);
  EXPECT_NE(ps[1].text.find("measure Over the page break the paragraph ends."), std::string::npos) << ps[1].text;
}

TEST(Lists, ANumberedParagraphInAQuotationGoesOnAtItsEdge) {
  // A quotation (indented on both sides) whose paragraph starts "9. ...": its long first line
  // in mid-sentence goes on at the quotation's edge, though no line of it reaches the column's.
  const std::string full = "filler text of the page set in the body size and justified to the measure";
  auto lines = paragraph(72, 100, std::vector<std::string>(3, full), 10, false);
  for (const auto& spec : std::vector<LineSpec>{{100, 148, "9. Accepting Warranty or Additional Liability. While the", 10},
                                                {100, 160, "work is redistributed, you may choose to offer support.", 10},
                                                {72, 184, "1. A short item", 10},
                                                {72, 196, "A paragraph after the list.", 10}})
    lines.push_back(spec);
  auto blocks = layout_document(make_doc({make_page(1, lines)}));
  auto items = of_type(blocks, BlockType::ListItem);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].text, "9. Accepting Warranty or Additional Liability. While the work is redistributed, you may choose to offer support.");
  EXPECT_EQ(items[1].text, "1. A short item");
}

TEST(Lists, AnItemSetFurtherInIsNestedInTheOneBefore) {
  // Levels from where items start: further in than the item before is one level down, back
  // out to an earlier item's edge is that item's level. A paragraph whose lines run at the
  // column's edge ends the list: the next item starts a list of its own.
  const std::string full = "filler text of the page set in the body size and justified to the measure";
  auto lines = paragraph(72, 100, std::vector<std::string>(3, full), 10, false);
  for (const auto& spec : std::vector<LineSpec>{{80, 148, "1. Download the archive.", 10},
                                                {98, 160, "• Use the nearest mirror.", 10},
                                                {116, 172, "– A deeper point.", 10},
                                                {98, 184, "• Keep the signature.", 10},
                                                {80, 196, "2. Unpack it.", 10},
                                                {87, 220, full, 10},
                                                {72, 232, full + ".", 10},
                                                {98, 256, "• A list of its own.", 10}})
    lines.push_back(spec);
  auto items = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::ListItem);
  ASSERT_EQ(items.size(), 6u);
  std::vector<int> levels;
  for (const auto& i : items) levels.push_back(i.level);
  EXPECT_EQ(levels, (std::vector<int>{1, 2, 3, 2, 1, 1}));
}

TEST(Lists, AnItemGoesOnUnderItsTextOrAtTheColumnsEdge) {
  // A bulleted item's lines hang under its text, right of the marker; an item that opens a
  // paragraph ("c) You must ...", with the paragraph's indent) wraps to the column's edge
  // after its full first line.
  const std::string c_line = "c) filler text of the page set in the body size and justified to the";
  auto lines = paragraph(72, 100, std::vector<std::string>(3, "filler text of the page set in the body size and justified to the measure"),
                         10, false);
  for (const auto& spec : std::vector<LineSpec>{{72, 148, "• The first item, whose text is long enough to wrap", 10},
                                                {82, 160, "and hangs under its text.", 10},
                                                {72, 172, "• The second item.", 10},
                                                {87, 196, c_line, 10},
                                                {72, 208, "under this License to anyone who comes into possession.", 10},
                                                {87, 232, "d) The next item.", 10}})
    lines.push_back(spec);
  auto items = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::ListItem);
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[0].text, "• The first item, whose text is long enough to wrap and hangs under its text.");
  EXPECT_EQ(items[1].text, "• The second item.");
  EXPECT_EQ(items[2].text, c_line + " under this License to anyone who comes into possession.");
  EXPECT_EQ(items[3].text, "d) The next item.");
}

TEST(Lists, AnItemWhoseBulletReadsAsALetterIsKnownByItsHangingLines) {
  // A scan's "•" read as "e": one character and a space open the row, its next line hangs
  // under its second word, going on with its sentence, and the next item starts the same way.
  // A description list's one-letter term ("x") has other terms beside it, and a paragraph
  // whose first word is one letter ends its sentence before a line indented as far: both
  // stay paragraphs.
  const std::string full = "filler text of the page set in the body size and justified to the measure";
  auto lines = paragraph(72, 100, std::vector<std::string>(3, full), 10, false);
  auto under_second_word = [](double x, const std::string& t) { return test::make_line({x, 0, t, 10}).spans[0].xs[2]; };
  const std::string e1 = "e records arriving in the spool with gaps in their sequence";
  const std::string e2 = "e the dropped counter in the status output growing";
  const std::string x1 = "x character vector where matches are sought, coerced by";
  const std::string v1 = "V naší ukázce jde například o soubor t1macro.tex. Definují se.";
  for (const auto& spec : std::vector<LineSpec>{{72, 148, e1, 10},
                                                {under_second_word(72, e1), 160, "numbers;", 10},
                                                {72, 172, e2, 10},
                                                {under_second_word(72, e2), 184, "steadily;", 10},
                                                {72, 208, x1, 10},
                                                {under_second_word(72, x1), 220, "as.character to a character vector.", 10},
                                                {72, 232, "table vector of values to be matched against.", 10},
                                                {72, 256, v1, 10},
                                                {under_second_word(72, v1), 268, "Může se stát, že nechceme uvedená makra.", 10}})
    lines.push_back(spec);
  auto blocks = layout_document(make_doc({make_page(1, lines)}));
  auto items = of_type(blocks, BlockType::ListItem);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].text, e1 + " numbers;");
  EXPECT_EQ(items[1].text, e2 + " steadily;");
  bool term_is_prose = false, czech_is_prose = false;
  for (const auto& p : of_type(blocks, BlockType::Paragraph)) {
    term_is_prose |= p.text.rfind("x character", 0) == 0;
    czech_is_prose |= p.text.rfind("V naší", 0) == 0;
  }
  EXPECT_TRUE(term_is_prose);
  EXPECT_TRUE(czech_is_prose);
}

TEST(Lists, AnItemGoesOnAtTheColumnsEdgePastAListingTooWideForIt) {
  // A listing line that runs past the measure into the margin does not move the column's
  // edge: the item's first line still fills the measure, and its text goes on below.
  const std::string filler = "filler text of the page set in the body size and justified to the measure";
  const std::string c_line = "c) filler text of the page set in the body size and justified to the";
  std::vector<std::string> body(6, filler);
  auto lines = paragraph(72, 100, body, 10, false);
  lines.push_back({72, 184, "x = some_function(argument_one, argument_two, argument_three)  # a comment", 10, true});
  for (const auto& spec : std::vector<LineSpec>{{87, 208, c_line, 10},
                                                {72, 220, "under this License to anyone who comes into possession.", 10},
                                                {87, 244, "d) The next item.", 10}})
    lines.push_back(spec);
  auto items = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::ListItem);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].text, c_line + " under this License to anyone who comes into possession.");
}

TEST(Lists, AMarkerGoesOnFromAFullLineInMidSentenceOnly) {
  // "(1)" at the column's edge on a new page, after a full line that ends mid-sentence, goes
  // on with the paragraph; after a line that ends a sentence, it opens an item, on a page as
  // over a page break.
  const std::string filler = "filler text of the page set in the body size and justified to the measure";
  const std::string ending = "filler text of the page set in the body size and justified so, as follows:";
  std::vector<std::string> one(50, filler);
  auto first = paragraph(72, 100, one, 10, true);
  auto second = paragraph(72, 100, {"(1) had no cover texts, and (2) were thus incorporated. Then it ends.",
                                    "A new paragraph whose lines are set in the body size and justified to the"},
                          10, false);
  second.push_back({72, 124, ending, 10});
  second.push_back({72, 136, "1. The first step, an item of its own.", 10});
  auto blocks = layout_document(make_doc({make_page(1, first), make_page(2, second)}));
  auto items = of_type(blocks, BlockType::ListItem);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].text, "1. The first step, an item of its own.");
  auto paragraphs = of_type(blocks, BlockType::Paragraph);
  ASSERT_FALSE(paragraphs.empty());
  EXPECT_NE(paragraphs[0].text.find("measure (1) had no cover texts, and (2) were thus incorporated. Then it ends."),
            std::string::npos);
}

TEST(Lists, AnIndentedLineAfterAnItemSetAsAParagraphStartsTheNext) {
  // "e) Convey ..." opens a paragraph whose lines wrap to the marker's edge; after its last,
  // short line, a line indented by the book's first-line indent starts the next paragraph.
  // An item whose lines hang under its text keeps a line set in there.
  const std::string filler = "filler text of the page set in the body size and justified to the measure";
  auto lines = paragraph(72, 100, {filler, "and a short end."}, 10, true);
  for (const auto& spec : std::vector<LineSpec>{{72, 124, "e) Convey the object code using peer-to-peer transmission, provided", 10},
                                                {72, 136, filler, 10},
                                                {72, 148, "work at no charge.", 10},
                                                {87, 160, "A \"User Product\" is either (1) a consumer product, which means any", 10},
                                                {72, 172, "tangible personal property which is normally used for personal ends.", 10},
                                                {72, 196, "f) An item whose text is long enough to wrap under its own text", 10},
                                                {86, 208, "and ends here.", 10},
                                                {86, 220, "Set in under the item's text after a sentence.", 10}})
    lines.push_back(spec);
  auto blocks = layout_document(make_doc({make_page(1, lines)}));
  auto items = of_type(blocks, BlockType::ListItem);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].text.substr(items[0].text.size() - 18), "work at no charge.");
  EXPECT_EQ(items[1].text.substr(items[1].text.size() - 11), "a sentence.");
  auto paragraphs = of_type(blocks, BlockType::Paragraph);
  ASSERT_EQ(paragraphs.size(), 2u);
  EXPECT_EQ(paragraphs[1].text.rfind("A \"User Product\" is either", 0), 0u) << paragraphs[1].text;
}

TEST(Paragraphs, ALineEndingSoftHyphenJoinsTheWord) {
  // A soft hyphen at a line's end (kept by clean's normalize_line) is a break inside a word:
  // the word is whole in the text, without it, and the join is logged.
  auto lines = filler(100, 3);
  lines.push_back({87, 148, "Disabling fsync makes flushing considerably faster but it weakens the dura\u00AD", 10});
  lines.push_back({72, 160, "bility guarantees of the spool on every machine that runs the daemon.", 10});
  auto r = layout_document(make_doc({make_page(1, lines)}));
  auto ps = of_type(r, BlockType::Paragraph);
  ASSERT_FALSE(ps.empty());
  EXPECT_EQ(ps.back().text,
            "Disabling fsync makes flushing considerably faster but it weakens the durability guarantees of the spool "
            "on every machine that runs the daemon.");
  bool logged = false;
  for (const auto& j : r.joins) logged = logged || j.joined == "durability";
  EXPECT_TRUE(logged);
}

TEST(Lists, AnItemsTitleLineOverItsTextIsTheItem) {
  // "1. Precision" on a line of its own, then, a paragraph's space below, the item's text
  // set in under it: the text is a paragraph of its own (in the item), the title the item.
  // Without the space the lines are one item.
  auto lines = filler(100, 3);
  for (const auto& spec : std::vector<LineSpec>{{72, 148, "1. Precision", 10},
                                                {87, 164, "Most of the conversions are done to full precision, but", 10},
                                                {87, 176, "not those by write, which the digits option governs.", 10},
                                                {72, 192, "2. Header line", 10},
                                                {87, 208, "The header line has no entry for the row names.", 10},
                                                {72, 228, "3. Kept together", 10},
                                                {87, 240, "with the text directly under its title.", 10}})
    lines.push_back(spec);
  auto r = layout_document(make_doc({make_page(1, lines)}));
  auto items = of_type(r, BlockType::ListItem);
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].text, "1. Precision");
  EXPECT_EQ(items[1].text, "2. Header line");
  EXPECT_EQ(items[2].text, "3. Kept together with the text directly under its title.");
  auto paragraphs = of_type(r, BlockType::Paragraph);
  ASSERT_EQ(paragraphs.size(), 3u);
  EXPECT_EQ(paragraphs[1].text,
            "Most of the conversions are done to full precision, but not those by write, which the digits option "
            "governs.");
  EXPECT_EQ(paragraphs[2].text, "The header line has no entry for the row names.");
}

// Typographic fact: a heading binds to the text under it. A bold line in the body's size,
// unnumbered, standing nearer the paragraph under it (at its edge) than the paragraph over
// it is a heading (Asciidoctor's fourth and fifth section levels, LaTeX's starred
// subsubsections in some classes). Set as far from both, ending with a colon (a label of
// what follows: "Returns:"), over a line that opens in bold (Texinfo's @item over @itemx),
// or not bold, it is a paragraph.
TEST(Headings, ABoldLineInTheBodySizeNearerTheTextUnderItIsAHeading) {
  enum Case { Nearer, AsFar, Colon, BoldUnder, NotBold };
  for (Case c : {Nearer, AsFar, Colon, BoldUnder, NotBold}) {
    auto lines = filler(100, 3);
    lines.push_back({72, 136, "and a last line that ends short.", 10});
    const std::string title = c == Colon ? "Returns:" : "Examining dangling objects";
    const double at = 136 + (c == AsFar ? 24 : 32), under = at + 24;
    lines.push_back({72, at, title, 10, false, c != NotBold});
    lines.push_back({72, under, c == BoldUnder ? "-persistent-downloads" : "In some situations the reflog may not be able to",
                     10, false, c == BoldUnder});
    lines.push_back({72, under + 12, "save you, for example when a branch was deleted.", 10});
    auto more = paragraph(72, under + 40, {"Another paragraph follows the first one and ends", "here, at the end of the text."});
    lines.insert(lines.end(), more.begin(), more.end());
    auto r = layout_document(make_doc({make_page(1, lines)}));
    std::optional<BlockType> type;
    for (const auto& ch : r.chapters)
      for (const auto& b : ch.blocks)
        if (b.text == title) type = b.type;
    std::string all;
    for (const auto& ch : r.chapters)
      for (const auto& b : ch.blocks) all += std::string(to_string(b.type)) + ": " + b.text + "\n";
    ASSERT_TRUE(type) << c << all;
    EXPECT_EQ(*type, c == Nearer ? BlockType::Heading : BlockType::Paragraph) << c;
  }
}

// Definition lists: a term at one edge, its description set in under it; the list repeats
// the shape. The terms are list items marked `term`, the descriptions paragraphs.
TEST(DefinitionLists, TermsOnLinesOfTheirOwnOverTheirDescriptions) {
  auto lines = filler(100, 3);
  for (const auto& spec : std::vector<LineSpec>{{72, 148, "alternate object database", 10},
                                                {102, 164, "Via the alternates mechanism, a repository can inherit.", 10},
                                                {72, 184, "bare repository", 10},
                                                {102, 200, "A bare repository is normally a directory of its own", 10},
                                                {102, 212, "with a suffix.", 10},
                                                {72, 232, "blob object", 10},
                                                {102, 248, "An untyped object, the contents of a file.", 10}})
    lines.push_back(spec);
  auto r = layout_document(make_doc({make_page(1, lines)}));
  auto items = of_type(r, BlockType::ListItem);
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].text, "alternate object database");
  EXPECT_EQ(items[1].text, "bare repository");
  EXPECT_EQ(items[2].text, "blob object");
  for (const auto& i : items) EXPECT_TRUE(i.term);
  auto paragraphs = of_type(r, BlockType::Paragraph);
  ASSERT_EQ(paragraphs.size(), 4u);
  EXPECT_EQ(paragraphs[2].text, "A bare repository is normally a directory of its own with a suffix.");
  EXPECT_EQ(paragraphs[3].text, "An untyped object, the contents of a file.");
}

TEST(DefinitionLists, OneShortLineOverAnIndentedOneIsNoList) {
  // A short line over a line set in (a quotation after its lead-in) is not a term: one such
  // pair is no list.
  auto lines = filler(100, 3);
  lines.push_back({72, 148, "The author wrote these words", 10});
  lines.push_back({102, 164, "An indented quotation of a line or so.", 10});
  auto r = layout_document(make_doc({make_page(1, lines)}));
  EXPECT_TRUE(of_type(r, BlockType::ListItem).empty());
}

TEST(DefinitionLists, ATermBesideItsDescriptionIsReadApartWhereALongOneStandsAbove) {
  // Texinfo's @table sets a short term on its description's row, a long one on a row of its
  // own over it: the long one shows the list, and the short ones are read apart from their
  // descriptions. Without a long term the rows are a two-column table's and stay whole.
  auto with_long = filler(100, 3);
  auto without = filler(100, 3);
  for (auto* lines : {&with_long, &without}) {
    lines->push_back({72, 148, "float", 10});
    lines->push_back({130, 148, "Real number with optional precision.", 10});
    lines->push_back({72, 164, "integer", 10});
    lines->push_back({130, 164, "A whole number.", 10});
  }
  with_long.push_back({72, 180, "character varying", 10});
  with_long.push_back({130, 192, "A string of at most n characters.", 10});
  without.push_back({72, 180, "char", 10});
  without.push_back({130, 180, "A string of at most n characters.", 10});
  for (auto* lines : {&with_long, &without}) {
    lines->push_back({72, 208, "boolean", 10});
    lines->push_back({130, 208, "True or false.", 10});
  }
  auto r = layout_document(make_doc({make_page(1, with_long)}));
  std::vector<std::string> terms;
  for (const auto& b : of_type(r, BlockType::ListItem))
    if (b.term) terms.push_back(b.text);
  EXPECT_EQ(terms, (std::vector<std::string>{"float", "integer", "character varying", "boolean"}));
  auto paragraphs = of_type(r, BlockType::Paragraph);
  ASSERT_GE(paragraphs.size(), 4u);
  EXPECT_EQ(paragraphs[paragraphs.size() - 4].text, "Real number with optional precision.");
  EXPECT_EQ(paragraphs.back().text, "True or false.");
  auto plain = layout_document(make_doc({make_page(1, without)}));
  EXPECT_TRUE(of_type(plain, BlockType::ListItem).empty());
  bool whole = false;
  for (const auto& b : all_blocks(plain)) whole = whole || b.text.find("integer A whole number.") != std::string::npos;
  EXPECT_TRUE(whole);
}

TEST(Lists, AnEnumeratorInAnItemsSentenceIsItsText) {
  // "... with two steps: (1) assert copyright on the software, and | (2) offer you this
  // License." An item's full line in mid-sentence, then "(2)" where its text hangs: the
  // item's sentence goes on. After the item's end, a bullet opens the next.
  const std::string filler = "filler text of the page set in the body size and justified to the measure";
  auto lines = paragraph(72, 100, {filler, filler, "and its end."}, 10, true);
  const double hang = 72 + (0.278 + 0.333) * 10;  // after "• "
  for (const auto& spec : std::vector<LineSpec>{{72, 148, "\u2022 " + filler + " two steps, and", 10},
                                                {hang, 160, "(2) offer you this License.", 10},
                                                {72, 172, "\u2022 A second item.", 10}})
    lines.push_back(spec);
  auto items = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::ListItem);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_NE(items[0].text.find("two steps, and (2) offer you this License."), std::string::npos) << items[0].text;
}

// A filled square of `side` points whose middle is at (`cx`, `cy`).
VectorPath mark_at(double cx, double cy, double side) {
  VectorPath p;
  p.bbox = {cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2};
  p.fill = true;
  return p;
}

TEST(Lists, ABulletDrawnBeforeALineMakesItAnItem) {
  // A browser prints a list's discs as small filled shapes, not characters: a mark about
  // 0.35 em wide in the x-height, 0.75 em before the text. The item's lines all start where
  // its first does. A bar (a rule) or a larger square (an icon's frame) is no bullet.
  auto lines = paragraph(72, 100, std::vector<std::string>(3, "filler text of the page set in the body size and justified to the measure"),
                         10, false);
  for (const auto& spec : std::vector<LineSpec>{{94, 148, "An item whose text is long enough to wrap onto", 10},
                                                {94, 160, "a second line under its first.", 10},
                                                {94, 172, "A short item.", 10},
                                                {94, 196, "A line after a bar.", 10},
                                                {94, 208, "A line after a large square.", 10}})
    lines.push_back(spec);
  Page page = make_page(1, lines);
  page.paths = {mark_at(84, 145, 3.5), mark_at(84, 169, 3.5)};
  VectorPath bar = mark_at(84, 193, 3.5);
  bar.bbox.x0 -= 6;  // 9.5 x 3.5
  VectorPath square = mark_at(84, 204, 9);
  page.paths.push_back(bar);
  page.paths.push_back(square);
  auto r = layout_document(make_doc({page}));
  auto items = of_type(r, BlockType::ListItem);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].text, "An item whose text is long enough to wrap onto a second line under its first.");
  EXPECT_TRUE(items[0].drawn_marker);
  EXPECT_EQ(items[1].text, "A short item.");
  EXPECT_TRUE(items[1].drawn_marker);
  for (const auto& b : of_type(r, BlockType::Paragraph)) EXPECT_FALSE(b.drawn_marker);
}

TEST(Paragraphs, LinesEndedOnPurposeAreBlocksOfTheirOwn) {
  // Under justified text, a definition's signatures one per line: each line ends far short
  // of the measure although the next line's first word would fit after it.
  auto lines = filler(100, 4);
  const std::vector<std::string> signatures = {"plot (x, y)", "plot (x, y, fmt)", "plot (x1, y1, xn, yn)", "h = plot (y)"};
  for (size_t i = 0; i < signatures.size(); ++i) lines.push_back({72, 160 + 12.0 * i, signatures[i], 10});
  auto ps = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::Paragraph);
  ASSERT_EQ(ps.size(), 1 + signatures.size());
  for (size_t i = 0; i < signatures.size(); ++i) EXPECT_EQ(ps[1 + i].text, signatures[i]);
}

TEST(Paragraphs, AnIndentedPassageIsJudgedByItsOwnMeasure) {
  // Rows of a table indented under the text, one term and its meaning per line, are lines
  // ended on purpose; a quotation indented on both sides, its first line full to its own
  // measure, is one paragraph.
  auto lines = filler(100, 8);  // the page's flush left edge: most of its lines start there
  const double measure = test::make_line(lines[1]).bbox.x1;
  const std::vector<std::string> rows = {"crosshair plus", "circle o", "star asterisk"};
  for (size_t i = 0; i < rows.size(); ++i) lines.push_back({112, 210 + 12.0 * i, rows[i], 10});
  std::string quote = "A quotation set in from both sides";
  while (test::make_line({112, 0, quote + " word", 10}).bbox.x1 < measure - 40) quote += " word";
  ASSERT_GT(test::make_line({112, 0, quote + " x", 10}).bbox.x1, measure - 40 - 5);  // full to its measure
  lines.push_back({112, 270, quote, 10});
  lines.push_back({112, 282, "and it ends.", 10});
  auto ps = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::Paragraph);
  ASSERT_EQ(ps.size(), 1 + rows.size() + 1);
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(ps[1 + i].text, rows[i]);
  EXPECT_EQ(ps.back().text, quote + " and it ends.");
}

TEST(Paragraphs, PiecesOfALineAreNoLinesEndedOnPurpose) {
  // A radical sign set on a row of its own, a few points above the line it belongs to, and
  // that line going on at the column's edge: one paragraph, not a sign and a paragraph.
  auto lines = filler(100, 8);
  lines.push_back({120, 193, "\u221A", 10});
  lines.push_back({72, 200, "five is the root here, and the text goes on to its end.", 10});
  auto ps = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::Paragraph);
  ASSERT_FALSE(ps.empty());
  EXPECT_EQ(ps.back().text.rfind("\u221A five is the root here", 0), 0u) << ps.back().text;
}

TEST(Paragraphs, ANoteInTheMarginBesideAFirstLineKeepsItsParagraphWhole) {
  // A version mark in the left margin on a paragraph's first line: the next line is not
  // indented against it, and the word broken at the line's end is joined.
  auto lines = filler(100, 8);
  lines.push_back({40, 220, "v3.05a", 8});  // (a paragraph's gap under the filler)
  lines.push_back({72, 220, "The command returns the value of the century digits and hun-", 10});
  lines.push_back({72, 232, "dreds of a year, and the paragraph goes on to its end.", 10});
  auto ps = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::Paragraph);
  ASSERT_FALSE(ps.empty());
  EXPECT_EQ(ps.back().text, "v3.05a The command returns the value of the century digits and hundreds of a year, and the "
                            "paragraph goes on to its end.");
}

TEST(Paragraphs, ANoteInTheMarginAfterASentencesEndStartsABlock) {
  // A marker in the margin beside an entry under a paragraph whose last line is full and
  // ends a sentence: the entry is a block of its own.
  auto lines = filler(100, 7);
  lines.push_back({72, 184, "filler text of the page set in the body size and justified to the end.", 10});
  lines.push_back({60, 196, "\u25B6", 10});
  lines.push_back({72, 196, "entry (integer)", 10});
  auto ps = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::Paragraph);
  ASSERT_GE(ps.size(), 2u);
  EXPECT_EQ(ps.back().text, "\u25B6 entry (integer)");
}

TEST(Paragraphs, ALineEndedBeforeAWordTooLongForItGoesOn) {
  // The next line opens with a word longer than the room the short line leaves: the
  // typesetter had to break there, and the paragraph goes on.
  auto lines = filler(100, 4);
  const std::string url = "https://example.org/manuals/reference/chapter-seven/section-three/index.html";
  lines.push_back({72, 160, "The manual is at", 10});
  lines.push_back({72, 172, url + " today.", 10});
  const double measure = test::make_line(lines[1]).bbox.x1;  // the filler's justified edge
  ASSERT_GT(test::make_line({72, 0, url, 10}).bbox.x1 - 72, measure - test::make_line(lines[4]).bbox.x1);
  auto ps = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::Paragraph);
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(ps[1].text, "The manual is at " + url + " today.");
}

TEST(Paragraphs, RaggedLinesSayNothingOfLinesEndedOnPurpose) {
  // No three lines of the page end at one edge: there is no measure to compare with, and
  // a paragraph set ragged right stays whole.
  const std::vector<LineSpec> lines = {{72, 100, "A paragraph set ragged right", 10},
                                       {72, 112, "has lines of many lengths and", 10},
                                       {72, 124, "none of them is full, yet it is one", 10},
                                       {72, 136, "paragraph.", 10}};
  auto ps = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::Paragraph);
  ASSERT_EQ(ps.size(), 1u);
  EXPECT_EQ(ps[0].text, "A paragraph set ragged right has lines of many lengths and none of them is full, yet it is one paragraph.");
}

TEST(ReadingOrder, AProseLineWithAMathLetterStaysInItsPlace) {
  // The second line of a paragraph holds one letter of a math font ("includes ε-TeX"),
  // whose glyph box spans the font's large operators: the line's box reaches above the
  // first line. Its baseline says where it stands; the paragraph reads in order.
  std::vector<LineSpec> lines = {{87, 100, "From day one, LuaTeX has offered extra features compared to the", 10},
                                 {72, 112, "superset of pdfTeX, which includes eps-TeX, and Aleph. This has not", 10},
                                 {72, 124, "been limited to the possibility to execute Lua code via a command.", 10}};
  Page p = make_page(1, lines);
  Line& second = p.lines[1];
  second.spans[0].bbox.y0 -= 18;  // the math letter's box: from far above the line ...
  second.spans[0].bbox.y1 += 18;  // ... to far below it
  second.bbox = second.spans[0].bbox;
  auto r = layout_document(make_doc({p}));
  auto ps = of_type(r, BlockType::Paragraph);
  ASSERT_EQ(ps.size(), 1u);
  EXPECT_EQ(ps[0].text.rfind("From day one", 0), 0u) << ps[0].text;
  EXPECT_NE(ps[0].text.find("compared to the superset of pdfTeX"), std::string::npos) << ps[0].text;
}

TEST(Paragraphs, ContinuesAcrossPageBreak) {
  // A paragraph whose last line on a page is full and whose next page starts at the margin
  // (no indent) goes on: a page break is not a paragraph break.
  auto p1 = filler(100, 5);
  p1.push_back({72, 160, "a sentence that is cut by the page break and runs to the full measure of the", 10});
  auto p2 = std::vector<LineSpec>{{72, 100, "text block before going on here.", 10}};
  auto more = filler(112, 3);
  p2.insert(p2.end(), more.begin(), more.end());
  auto r = layout_document(make_doc({make_page(1, p1), make_page(2, p2)}));
  bool found = false;
  for (const auto& b : of_type(r, BlockType::Paragraph))
    if (b.text.find("full measure of the text block before") != std::string::npos) {
      found = true;
      EXPECT_EQ(b.page, 1);
      EXPECT_EQ(b.last_page, 2);
    }
  EXPECT_TRUE(found);
}

struct HyphenCase {
  const char* name;
  const char* line_end;    // last token of the first line
  const char* line_start;  // first token of the next line
  const char* elsewhere;   // a line elsewhere in the book (evidence), may be empty
  const char* expected;    // the token in the paragraph
  const char* producer = "";  // the PDF's producer ("pdfTeX-1.40" for TeX's minimums)
};

class Hyphenation : public ::testing::TestWithParam<HyphenCase> {};

TEST_P(Hyphenation, DecidedFromTheBookAndLogged) {
  const HyphenCase& c = GetParam();
  std::vector<LineSpec> lines = {{87, 100, std::string("Some words come first and then the ") + c.line_end, 10},
                                 {72, 112, std::string(c.line_start) + " goes on to the end.", 10}};
  auto more = paragraph(72, 136, {std::string("Another paragraph. ") + c.elsewhere + " and more."});
  lines.insert(lines.end(), more.begin(), more.end());
  Document d = make_doc({make_page(1, lines)});
  d.metadata.producer = c.producer;
  LayoutOptions o;
  o.hyphenation.hyphen_dictionary = "";  // the book's own evidence alone
  auto r = layout_document(d, o);
  auto ps = of_type(r, BlockType::Paragraph);
  ASSERT_FALSE(ps.empty());
  auto toks = whitespace_tokens(ps[0].text);
  EXPECT_NE(std::find(toks.begin(), toks.end(), c.expected), toks.end()) << ps[0].text;
  // Every join, kept hyphen or not, is logged with the whole tokens.
  ASSERT_EQ(r.joins.size(), 1u);
  EXPECT_EQ(r.joins[0].before, c.line_end);
  EXPECT_EQ(r.joins[0].after, c.line_start);
  EXPECT_EQ(r.joins[0].joined, c.expected);
}

// The paragraph's token where `line_end` and `line_start` meet, with the given dictionary.
std::string joined_token(const HyphenCase& c, const std::string& dictionary) {
  std::vector<LineSpec> lines = {{87, 100, std::string("Some words come first and then the ") + c.line_end, 10},
                                 {72, 112, std::string(c.line_start) + " goes on to the end.", 10}};
  auto more = paragraph(72, 136, {std::string("Another paragraph. ") + c.elsewhere + " and more."});
  lines.insert(lines.end(), more.begin(), more.end());
  LayoutOptions o;
  o.hyphenation.hyphen_dictionary = dictionary;
  auto r = layout_document(make_doc({make_page(1, lines)}), o);
  if (r.joins.size() != 1) return "(" + std::to_string(r.joins.size()) + " joins)";
  return r.joins[0].joined;
}

const std::string kEnglish = "/usr/share/hunspell/en_US";

bool have_english_dictionary() {
  return std::filesystem::is_regular_file(kEnglish + ".aff") && std::filesystem::is_regular_file(kEnglish + ".dic");
}

// Cases the book's words leave open: `expected` with the English dictionary, `without`
// with none.
struct DictionaryCase {
  HyphenCase c;
  const char* without;
};

void PrintTo(const DictionaryCase& d, std::ostream* os) { *os << d.c.line_end << " " << d.c.line_start; }

class HyphenationDictionary : public ::testing::TestWithParam<DictionaryCase> {};

TEST_P(HyphenationDictionary, DecidesWhatTheBookLeavesOpen) {
  if (!have_english_dictionary()) GTEST_SKIP() << "no " << kEnglish << ".dic (Debian package hunspell-en-us)";
  const DictionaryCase& d = GetParam();
  EXPECT_EQ(joined_token(d.c, kEnglish), d.c.expected);
  EXPECT_EQ(joined_token(d.c, ""), d.without);
  // A dictionary whose files are not there is no dictionary.
  EXPECT_EQ(joined_token(d.c, "/nonexistent/xx_XX"), d.without);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, HyphenationDictionary,
    ::testing::Values(
        // Two words the dictionary knows, their join it does not: a compound.
        DictionaryCase{{"two_known_words", "thread-", "safe", "", "thread-safe"}, "threadsafe"},
        // The joined word is known and the second part is no word: a syllable, even when
        // the book uses "ing" after a hyphen elsewhere (which alone would keep it).
        DictionaryCase{{"syllable_after", "trigger-", "ing", "the X-ing form", "triggering"}, "trigger-ing"},
        // The joined word is known and the first part is no word, though the book has
        // both parts as words: syllables of one word.
        DictionaryCase{{"syllable_before", "pre-", "cludes", "pre and cludes", "precludes"}, "pre-cludes"},
        // All three known ("rerunning", "re", "running"): authors differ, the dictionary
        // says nothing and the book's rule decides (both parts are words of the book).
        DictionaryCase{{"all_known", "re-", "running", "re and running", "re-running"}, "re-running"},
        // The book's own spelling comes first.
        DictionaryCase{{"book_first", "thread-", "safe", "a threadsafe call", "threadsafe"}, "threadsafe"},
        // The book hyphenates the prefix only where the dictionary does not close it up
        // ("subsampling" is no word of it): no sign against the dictionary's "subclass".
        DictionaryCase{{"prefix_hyphenated_where_open", "sub-", "class", "chroma sub-sampling", "subclass"}, "sub-class"},
        // The book hyphenates the prefix where the dictionary closes it up ("redirected"):
        // its habit, not the dictionary's spelling, decides "re-usable".
        DictionaryCase{{"prefix_hyphenated_where_closed", "re-", "usable", "output re-directed", "re-usable"}, "re-usable"},
        // A compound goes on after the break, and its first piece is a word broken in two
        // ("tle" is no word).
        DictionaryCase{{"compound_goes_on", "lit-", "tle-endian", "", "little-endian"}, "lit-tle-endian"},
        // A compound before the break whose last part a typesetter broke in two: the
        // dictionary knows the joined part, and "lished" is no word.
        DictionaryCase{{"compound_before", "well-estab-", "lished", "", "well-established"}, "well-estab-lished"}),
    [](const auto& info) { return std::string(info.param.c.name); });

// The paragraph's token where `line_end` and `line_start` meet, with the English dictionary
// and the given hyphenation patterns, in a book whose other text is `prose`.
std::string joined_with_patterns(const char* line_end, const char* line_start, const std::string& patterns,
                                 const std::string& prose) {
  std::vector<LineSpec> lines = {{87, 100, prose + " " + line_end, 10}, {72, 112, std::string(line_start) + " " + prose, 10}};
  auto more = paragraph(72, 136, {prose, prose});
  lines.insert(lines.end(), more.begin(), more.end());
  LayoutOptions o;
  o.hyphenation.hyphen_dictionary = kEnglish;
  o.hyphenation.hyphen_patterns = patterns;
  auto r = layout_document(make_doc({make_page(1, lines)}), o);
  if (r.joins.size() != 1) return "(" + std::to_string(r.joins.size()) + " joins)";
  return r.joins[0].joined;
}

const std::string kEnglishPatterns = "/usr/share/hyphen/hyph_en_US.dic";
const std::string kEnglishProse = "Some words come first and then the others follow them";

TEST(HyphenationPatterns, BreakThePatternsForbidKeepsTheHyphenOfAName) {
  if (!have_english_dictionary() || !std::filesystem::is_regular_file(kEnglishPatterns))
    GTEST_SKIP() << "no English dictionary or patterns (Debian packages hunspell-en-us, hyphen-en-us)";
  // "avahicore" cannot be broken after "avahi": the hyphen is the package name's own.
  EXPECT_EQ(joined_with_patterns("avahi-", "core", kEnglishPatterns, kEnglishProse), "avahi-core");
  EXPECT_EQ(joined_with_patterns("libgpg-", "error", kEnglishPatterns, kEnglishProse), "libgpg-error");
  // Without patterns, or with a file that is not there, the book's rule joins them.
  EXPECT_EQ(joined_with_patterns("avahi-", "core", "", kEnglishProse), "avahicore");
  EXPECT_EQ(joined_with_patterns("avahi-", "core", "/nonexistent.dic", kEnglishProse), "avahicore");
}

TEST(HyphenationPatterns, SilentOnKnownWordsNamesAndOtherLanguages) {
  if (!have_english_dictionary() || !std::filesystem::is_regular_file(kEnglishPatterns))
    GTEST_SKIP() << "no English dictionary or patterns (Debian packages hunspell-en-us, hyphen-en-us)";
  // British TeX patterns break "tempor-ary", American ones do not: a word the dictionary
  // knows is joined whatever the patterns say.
  EXPECT_EQ(joined_with_patterns("tempor-", "ary", kEnglishPatterns, kEnglishProse), "temporary");
  // A name is broken by its own language's patterns.
  EXPECT_EQ(joined_with_patterns("Karl-", "sruhe", kEnglishPatterns, kEnglishProse), "Karlsruhe");
  // A book in another language: English patterns say nothing about its breaks.
  const std::string czech = "Tento dokument popisuje program který upravuje soubory";
  EXPECT_EQ(joined_with_patterns("avahi-", "core", kEnglishPatterns, czech), "avahicore");
}

TEST(HyphenationPatterns, PreloadedResourcesDecideAsLoadedOnFirstUse) {
  if (!have_english_dictionary() || !std::filesystem::is_regular_file(kEnglishPatterns))
    GTEST_SKIP() << "no English dictionary or patterns (Debian packages hunspell-en-us, hyphen-en-us)";
  // Loaded ahead (as the build does on a spare thread) or on first use, the same answers;
  // files that are not there load nothing, and the book's rule decides.
  LayoutOptions ahead;
  ahead.hyphenation.hyphen_dictionary = kEnglish;
  ahead.hyphenation.hyphen_patterns = kEnglishPatterns;
  preload_language_resources(ahead);
  EXPECT_EQ(joined_with_patterns("avahi-", "core", kEnglishPatterns, kEnglishProse), "avahi-core");
  LayoutOptions missing;
  missing.hyphenation.hyphen_dictionary = "/nonexistent/xx_XX";
  missing.hyphenation.hyphen_patterns = "/nonexistent/hyph_xx.dic";
  EXPECT_NO_THROW(preload_language_resources(missing));
  EXPECT_EQ(joined_with_patterns("avahi-", "core", "/nonexistent/hyph_xx.dic", kEnglishProse), "avahicore");
}

INSTANTIATE_TEST_SUITE_P(
    Cases, Hyphenation,
    ::testing::Values(
        // The joined word appears elsewhere in the book: the hyphen was a line break.
        HyphenCase{"joined_seen", "(exam-", "ple),", "an example here", "(example),"},
        // The compound appears inside a line elsewhere: the hyphen is the word's own.
        HyphenCase{"compound_seen", "well-", "known", "a well-known fact", "well-known"},
        // No evidence, a digit in a part: numbers and versions keep their hyphen.
        HyphenCase{"digits", "x86-", "64", "", "x86-64"},
        // No evidence, second part capitalised: patterns never break before a capital.
        HyphenCase{"capital", "Linux-", "PAM", "", "Linux-PAM"},
        // No evidence, fragments that are not words: a typesetting break.
        HyphenCase{"fragments", "conf-", "igurability", "", "configurability"},
        // No typesetter leaves a single letter before a break: the hyphen is the word's.
        HyphenCase{"one_letter_left", "e-", "mail", "", "e-mail"},
        // TeX carries at least three letters over (\righthyphenmin=3): in a TeX book a
        // two-letter second part follows a real hyphen...
        HyphenCase{"tex_right_min", "re-", "do", "", "re-do", "pdfTeX-1.40.24"},
        // ...which other typesetters may leave (two letters after by default).
        HyphenCase{"right_min_other", "re-", "do", "", "redo", "Adobe InDesign"},
        // Hyphenation patterns break between syllables, and a syllable has a vowel: a
        // vowelless part ("dpkg") is a name written with its hyphen.
        HyphenCase{"no_vowel", "dpkg-", "buildpackage", "", "dpkg-buildpackage"},
        // Both parts are words, but the same word inflected otherwise is in the book
        // ("assignment"): the halves are syllables of "assigned".
        HyphenCase{"stem_seen", "as-", "signed", "as signed by an assignment", "assigned"},
        // Both parts are words and nothing else is known: a compound of two words.
        HyphenCase{"two_words", "upward-", "compatible", "upward and compatible", "upward-compatible"},
        // The first part starts other compounds of the book: a word forming compounds.
        HyphenCase{"compound_part", "ringlog-", "cat", "ringlog-flush", "ringlog-cat"},
        // A frequent word met once in a compound ("up-to-date") is no such sign, and the
        // second part is no word: a typesetting break.
        HyphenCase{"frequent_word", "to-", "ken",
                   "up-to-date, to me, to us, to him, to her, to all, to you, to one, to go, to see, to it", "token"},
        // A compound goes on after the break: the hyphen is the compound's...
        HyphenCase{"compound_goes_on", "state-of-", "the-art", "", "state-of-the-art"},
        // ...unless the book has the joined piece as a word (here inflected).
        HyphenCase{"compound_goes_on_joined_seen", "spread-", "sheet-like", "two spreadsheets", "spreadsheet-like"},
        // A compound that began before the break, its last part broken off at a hyphen
        // (a package name in a narrow column)...
        HyphenCase{"compound_before", "fonts-crosextra-", "caladea", "", "fonts-crosextra-caladea"},
        // ...unless the book has the joined part as a word.
        HyphenCase{"compound_before_joined_seen", "co-proc-", "essor", "a processor", "co-processor"},
        // A note mark after the word ("memo-" "ry1"): the letters decide, as for "memory".
        HyphenCase{"note_mark", "memo-", "ry1", "the memory of it", "memory1"},
        // A part with a digit of its own keeps its hyphen.
        HyphenCase{"digit_part", "x86-", "64", "", "x86-64"}),
    [](const auto& info) { return std::string(info.param.name); });

// A book of `pages` pages of prose (45 lines each, six words or more), from a producer
// that is not TeX, whose first page holds `extra` lines first.
Document prose_book(int pages, const std::vector<LineSpec>& extra, const std::string& producer) {
  std::vector<Page> ps;
  for (int n = 1; n <= pages; ++n) {
    std::vector<LineSpec> lines = n == 1 ? extra : std::vector<LineSpec>{};
    double top = n == 1 ? 100 + 12 * static_cast<double>(extra.size()) + 24 : 100;
    auto more = filler(top, n == 1 ? 45 - static_cast<int>(extra.size()) : 45);
    lines.insert(lines.end(), more.begin(), more.end());
    ps.push_back(make_page(n, lines));
  }
  Document d = make_doc(std::move(ps));
  d.metadata.producer = producer;
  return d;
}

TEST(Hyphenation, ABookThatNeverHyphenatesKeepsEveryLineEndHyphen) {
  // Browsers, word processors and XSL-FO do not hyphenate by default: a line-end hyphen
  // is then the word's own ("over-" "estimate"), even though the book also writes
  // "overestimate". One syllable break elsewhere ("exam-" "ple", beside "example") shows
  // a book that hyphenates, where the book's own spelling decides; so does a TeX producer.
  const std::vector<LineSpec> broken = {
      {87, 100, "The estimate may be over or under; a mild over-", 10},
      {72, 112, "estimate is better than none, and an overestimate is safe.", 10}};
  const std::vector<LineSpec> syllable = {
      {87, 148, "A worked example comes next, and the exam-", 10},
      {72, 160, "ple shows how the parts of the text fit together.", 10}};
  auto joined = [](const LayoutResult& r, const std::string& start) {
    for (const auto& j : r.joins)
      if (j.joined.rfind(start, 0) == 0) return j.joined;
    return std::string("(none)");
  };
  {
    auto r = layout_document(prose_book(5, broken, "Skia/PDF m118"));
    EXPECT_EQ(joined(r, "over"), "over-estimate");
  }
  {
    std::vector<LineSpec> both = broken;
    both.insert(both.end(), syllable.begin(), syllable.end());
    auto r = layout_document(prose_book(5, both, "Skia/PDF m118"));
    EXPECT_EQ(joined(r, "over"), "overestimate");
    EXPECT_EQ(joined(r, "exam"), "example");
  }
  {
    auto r = layout_document(prose_book(5, broken, "pdfTeX-1.40.25"));
    EXPECT_EQ(joined(r, "over"), "overestimate");
  }
  {
    // Too little prose to tell (a page): the book's own spelling decides.
    auto r = layout_document(prose_book(1, broken, "Skia/PDF m118"));
    EXPECT_EQ(joined(r, "over"), "overestimate");
  }
}

TEST(Hyphenation, MonospaceHyphenIsKept) {
  // TeX sets \hyphenchar of typewriter fonts to -1 (and other typesetters do not
  // hyphenate code): a line-end hyphen in a monospace span is the word's own, even when
  // the joined word is in the book.
  Line first = test::make_line({87, 100, "Some words come first and then the option ", 10});
  Line opt = test::make_line({300, 100, "--no-", 10, true});
  first.spans.push_back(opt.spans[0]);
  first.bbox.x1 = opt.bbox.x1;
  std::vector<LineSpec> rest = {{72, 112, "site goes on to the end of this sentence here.", 10}};
  auto more = paragraph(72, 136, {"Another paragraph with nosite in it."});
  rest.insert(rest.end(), more.begin(), more.end());
  Page p = make_page(1, rest);
  p.lines.insert(p.lines.begin(), first);
  auto r = layout_document(make_doc({p}));
  ASSERT_EQ(r.joins.size(), 1u);
  EXPECT_EQ(r.joins[0].joined, "--no-site");
}

TEST(Code, ColumnsFromGlyphPositionsWithNestedIndentAndBlankLines) {
  // Monospace glyphs sit on a grid of one advance (6 pt at 10 pt): indentation is the
  // number of cells from the listing's left edge; a blank line is one more line pitch.
  auto lines = filler(80, 2);
  std::vector<LineSpec> code = {{90, 120, "int main() {", 10, true},
                                {90 + 4 * 6, 131, "if (x) {", 10, true},
                                {90 + 8 * 6, 142, "return 1;", 10, true},
                                {90 + 4 * 6, 153, "}", 10, true},
                                {90 + 4 * 6, 175, "return 0;", 10, true},
                                {90, 186, "}", 10, true}};
  lines.insert(lines.end(), code.begin(), code.end());
  auto after = paragraph(72, 210, {"Text after the listing."});
  lines.insert(lines.end(), after.begin(), after.end());
  auto r = layout_document(make_doc({make_page(1, lines)}));
  auto cs = of_type(r, BlockType::Code);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].text, "int main() {\n    if (x) {\n        return 1;\n    }\n\n    return 0;\n}");
}

TEST(Code, HeadingsInABoldTypewriterFaceAreHeadings) {
  // Some styles set headings in a typewriter face (Texinfo's HTML, printed): wholly bold and
  // larger than the book's code, they are headings; a bold line of a listing, at the code's
  // size, stays in the listing.
  auto lines = filler(80, 2);
  lines.push_back({72, 120, "2.1 Reading a file", 12, true, true});
  std::vector<LineSpec> code = {{90, 140, "x <- read.table(\"data\")", 9, true},
                                {90, 150, "summary(x)", 9, true, true},
                                {90, 160, "plot(x)", 9, true}};
  lines.insert(lines.end(), code.begin(), code.end());
  auto after = paragraph(72, 184, {"Text after the listing."});
  lines.insert(lines.end(), after.begin(), after.end());
  auto r = layout_document(make_doc({make_page(1, lines)}));
  auto hs = of_type(r, BlockType::Heading);
  ASSERT_EQ(hs.size(), 1u);
  EXPECT_EQ(hs[0].text, "2.1 Reading a file");
  auto cs = of_type(r, BlockType::Code);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].text, "x <- read.table(\"data\")\nsummary(x)\nplot(x)");
}

TEST(Code, InnerGapsFromPositionsNeverSplitTokens) {
  // Two lines on one baseline (a comment aligned at a tab stop) are joined with the
  // spaces their columns call for.
  auto lines = filler(80, 2);
  lines.push_back({90, 120, "a = 1;", 10, true});
  lines.push_back({90 + 12 * 6, 120, "/* one */", 10, true});
  lines.push_back({90, 131, "bb = 2;", 10, true});
  lines.push_back({90 + 12 * 6, 131, "/* two */", 10, true});
  auto r = layout_document(make_doc({make_page(1, lines)}));
  auto cs = of_type(r, BlockType::Code);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].text, "a = 1;      /* one */\nbb = 2;     /* two */");
}

TEST(Code, AGapOfNoWholeLinesEndsAListing) {
  // Lines of a listing 11 pt apart, a blank line inside it (22 pt), then, 17 pt under its
  // last line, a term in the typewriter face: one and a half lines is no blank line of
  // the listing, so the term starts a block of its own.
  auto lines = filler(80, 3);
  lines.push_back({90, 130, "x = 1;", 10, true});
  lines.push_back({90, 141, "y = 2;", 10, true});
  lines.push_back({90, 163, "z = x + y;", 10, true});
  lines.push_back({72, 180, "-option", 10, true});
  auto cs = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::Code);
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_EQ(cs[0].text, "x = 1;\ny = 2;\n\nz = x + y;");
  EXPECT_EQ(cs[1].text, "-option");
}

TEST(Code, BlankLinesAreMeasuredByTheListingsSizeNotOneRowsReading) {
  // A scan reads each row's size from its ink: a row of short letters comes out smaller. The
  // blank lines after it are counted in the listing's size (its rows' middle one), so the
  // listing goes on after them.
  auto lines = filler(80, 3);
  lines.push_back({90, 130, "x = 1;", 10, true});
  lines.push_back({90, 141, "y = 2;", 10, true});
  lines.push_back({90, 152, "a;", 6, true});
  lines.push_back({90, 185, "z = x + y;", 10, true});
  auto cs = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::Code);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].text.substr(0, 14), "x = 1;\ny = 2;\n");
  EXPECT_EQ(cs[0].text.substr(cs[0].text.size() - 10), "z = x + y;");
}

// A glyph set from a symbol font (CMSY10) at `x`, `width` points wide, on a row of a listing:
// `rest`, in the typewriter face (0.6 em cells), follows it on the same baseline.
Line sign_line(double x, double baseline, const std::string& sign, double width, const std::string& rest = "") {
  Line l;
  Span s;
  s.text = sign;
  s.font = "CMSY10";
  s.size = 10;
  s.baseline = baseline;
  s.xs = {static_cast<float>(x)};
  s.last_advance = static_cast<float>(width);
  s.bbox = {x, baseline - 8, x + width, baseline + 2.5};
  l.spans.push_back(s);
  l.bbox = s.bbox;
  if (!rest.empty()) {
    Line r = test::make_line({x + width, baseline, rest, 10, true});
    l.spans.push_back(r.spans[0]);
    l.bbox = l.bbox.united(r.bbox);
  }
  return l;
}

TEST(Code, SignsFromASymbolFontGoOnWithTheListing) {
  // Texinfo prints a result as "=> value" and an equivalence as a line of its own, the arrow
  // and the sign from the math symbol font: the listing goes on through those rows; the
  // paragraph after it stays a paragraph.
  auto lines = filler(80, 2);
  lines.push_back({90, 120, "sqrt (4)", 10, true});
  lines.push_back({90, 142, "rot90 (a)", 10, true});
  lines.push_back({90, 164, "rot90 (a, 4)", 10, true});
  auto after = paragraph(72, 190, {"Text after the listing."});
  lines.insert(lines.end(), after.begin(), after.end());
  Page p = make_page(1, lines);
  p.lines.push_back(sign_line(90 + 5 * 6, 131, "\u21D2", 6, " 2"));
  p.lines.push_back(sign_line(90, 153, "\u2261", 6));
  auto r = layout_document(make_doc({p}));
  auto cs = of_type(r, BlockType::Code);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].text, "sqrt (4)\n     \u21D2 2\nrot90 (a)\n\u2261\nrot90 (a, 4)");
  auto ps = of_type(r, BlockType::Paragraph);
  ASSERT_FALSE(ps.empty());
  EXPECT_EQ(ps.back().text, "Text after the listing.");
}

TEST(Code, AGlyphWiderThanACellTakesOneColumn) {
  // The result arrow is set in a box one em wide, nearly two cells of the typewriter face,
  // where the source has one character: what follows it on its row keeps its distance from
  // the arrow's end, and the rows under it keep the grid.
  auto lines = paragraph(72, 80, {"filler text of the page set in the body size and justified", "to the measure"}, 10, false);
  lines.push_back({90, 120, "eye (2)", 10, true});
  lines.push_back({90 + 10 * 6, 142, "0  1", 10, true});
  auto after = paragraph(72, 170, {"Text after the listing."});
  lines.insert(lines.end(), after.begin(), after.end());
  Page p = make_page(1, lines);
  // "     => 1  0": the arrow at column 5, ten points wide, the 1 two cells after its end.
  p.lines.push_back(sign_line(90 + 5 * 6, 131, "\u21D2", 10, "  1  0"));
  auto r = layout_document(make_doc({p}));
  auto cs = of_type(r, BlockType::Code);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].text, "eye (2)\n     \u21D2  1  0\n          0  1");
}

TEST(Code, ListingAcrossPageBreakIsOneBlock) {
  // A listing cut by a page break continues at the top of the next page.
  auto p1 = filler(80, 3);
  p1.push_back({90, 130, "for (;;) {", 10, true});
  p1.push_back({90 + 2 * 6, 141, "step();", 10, true});
  auto p2 = std::vector<LineSpec>{{90 + 2 * 6, 80, "check();", 10, true}, {90, 91, "}", 10, true}};
  auto more = filler(115, 3);
  p2.insert(p2.end(), more.begin(), more.end());
  auto r = layout_document(make_doc({make_page(1, p1), make_page(2, p2)}));
  auto cs = of_type(r, BlockType::Code);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].text, "for (;;) {\n  step();\n  check();\n}");
  EXPECT_EQ(cs[0].page, 1);
  EXPECT_EQ(cs[0].last_page, 2);
}

// One row of spans side by side on `baseline`: each (text, monospace) from where the one
// before it ends.
Line mixed_line(double x, double baseline, const std::vector<std::pair<std::string, bool>>& parts) {
  Line l;
  for (const auto& [text, mono] : parts) {
    Line part = test::make_line({x, baseline, text, 10, mono});
    x = part.bbox.x1;
    l.bbox = l.spans.empty() ? part.bbox : l.bbox.united(part.bbox);
    l.spans.push_back(part.spans[0]);
  }
  return l;
}

TEST(Code, AWordInAnotherFontInsideAListingStaysInIt) {
  // Texinfo sets a word in small capitals (@sc) inside an example from a roman font: the row
  // begins and ends in the typewriter face and is mostly in it, so the listing goes on
  // through it. A paragraph after the listing stays a paragraph.
  auto lines = filler(80, 2);
  lines.push_back({90, 120, "x = 1;", 10, true});
  lines.push_back({90, 142, "% the end", 10, true});
  auto after = paragraph(72, 170, {"Text after the listing."});
  lines.insert(lines.end(), after.begin(), after.end());
  Page p = make_page(1, lines);
  p.lines.push_back(mixed_line(90, 131, {{"%% ", true}, {"matlab", false}, {" comment style", true}}));
  auto r = layout_document(make_doc({p}));
  auto cs = of_type(r, BlockType::Code);
  ASSERT_EQ(cs.size(), 1u);
  std::vector<std::string> rows(1);
  for (char c : cs[0].text) {
    if (c == '\n') rows.emplace_back();
    else rows.back().push_back(c);
  }
  ASSERT_EQ(rows.size(), 3u) << cs[0].text;
  EXPECT_EQ(rows[0], "x = 1;");
  EXPECT_EQ(whitespace_tokens(rows[1]), (std::vector<std::string>{"%%", "matlab", "comment", "style"}));
  EXPECT_EQ(rows[1].substr(0, 3), "%% ");
  EXPECT_EQ(rows[2], "% the end");
  auto ps = of_type(r, BlockType::Paragraph);
  ASSERT_FALSE(ps.empty());
  EXPECT_EQ(ps.back().text, "Text after the listing.");
}

TEST(Code, ASignatureAtTheMarginAfterAListingIsNoLineOfIt) {
  // A function's signature set under an example at the text's margin, in the typewriter face
  // with its argument in roman, one listing pitch below: it starts left of the listing, on
  // this page or the next, so it is no line of it.
  for (const bool next_page : {false, true}) {
    auto p1 = filler(80, 2);
    p1.push_back({90, 120, "for i = 1:3", 10, true});
    p1.push_back({96, 131, "disp (i)", 10, true});
    p1.push_back({90, 142, "endfor", 10, true});
    Page first = make_page(1, p1);
    Page second = make_page(2, filler(100, 3));
    (next_page ? second : first)
        .lines.push_back(mixed_line(72, next_page ? 80 : 153, {{"y = f (", true}, {"a", false}, {", b)", true}}));
    auto r = layout_document(make_doc({first, second}));
    auto cs = of_type(r, BlockType::Code);
    ASSERT_FALSE(cs.empty());
    EXPECT_EQ(cs[0].text, "for i = 1:3\n disp (i)\nendfor") << (next_page ? "on the next page" : "on the page");
  }
}

TEST(Code, AResultSignOnItsOwnRowAfterAPageBreakStaysInTheListing) {
  // A listing goes on at the top of the next page with an indented line, then a result
  // arrow from the symbol font on a row of its own at the listing's edge: the listing's edge
  // is where its rows on the page before stand, so the arrow and the rows after it are still
  // the listing.
  auto p1 = filler(80, 3);
  p1.push_back({90, 130, "f (\"a\",", 10, true});
  p1.push_back({90, 141, "   \"b\")", 10, true});
  Page first = make_page(1, p1);
  auto p2 = std::vector<LineSpec>{{90 + 6 * 6, 80, "\"c\")", 10, true}, {90, 102, "ans = 1", 10, true}};
  auto more = filler(130, 3);
  p2.insert(p2.end(), more.begin(), more.end());
  Page second = make_page(2, p2);
  second.lines.push_back(sign_line(90, 91, "\u21D2", 6));
  auto r = layout_document(make_doc({first, second}));
  auto cs = of_type(r, BlockType::Code);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].text, "f (\"a\",\n   \"b\")\n      \"c\")\n\u21D2\nans = 1");
}

// A page of filler whose paragraph goes on with a line that fills the measure, `lead` in the
// body face then `tail` in the typewriter face up to the measure's end, then the lines `then`
// (text, monospace) 12 pt apart.
Page page_with_broken_line(const std::string& lead, const std::string& tail,
                           const std::vector<std::pair<std::string, bool>>& then) {
  const std::string full = "filler text of the page set in the body size and justified to the measure";
  const double right = test::make_line({72, 100, full, 10}).bbox.x1;
  Page p = make_page(1, filler(80, 2));
  Line l = test::make_line({72, 104, lead, 10});
  Line t = test::make_line({right - 6.0 * static_cast<double>(tail.size()), 104, tail, 10, true});
  l.spans.push_back(t.spans[0]);
  l.bbox = l.bbox.united(t.bbox);
  p.lines.push_back(l);
  double baseline = 116;
  for (const auto& [text, mono] : then) {
    p.lines.push_back(test::make_line({72, baseline, text, 10, mono}));
    baseline += 12;
  }
  return p;
}

TEST(Paragraphs, AURLBrokenOverTwoLinesStaysInItsParagraph) {
  // Texinfo's @url and LaTeX's \url break a long URL after a slash; its rest, one word in the
  // typewriter face, is a line of its own, and the sentence goes on after it.
  auto r = layout_document(make_doc({page_with_broken_line(
      "See the guide at", "https://example.org/a/", {{"path/to/the/page.html", true}, {"for the details.", false}})}));
  EXPECT_TRUE(of_type(r, BlockType::Code).empty());
  auto ps = of_type(r, BlockType::Paragraph);
  ASSERT_FALSE(ps.empty());
  EXPECT_NE(ps.back().text.find("https://example.org/a/ path/to/the/page.html for the details."), std::string::npos)
      << ps.back().text;
}

TEST(Paragraphs, AListingAfterALineEndingInCodeIsAListing) {
  // A line of typewriter text under a line that ends in it is a listing's where the line
  // before does not end in a break of a name, or where it holds more than one word.
  auto lines_of_code = [](const Page& p) {
    auto cs = of_type(layout_document(make_doc({p})), BlockType::Code);
    return cs.empty() ? std::string() : cs.front().text;
  };
  EXPECT_EQ(lines_of_code(page_with_broken_line("The option is set with", "--long", {{"value", true}})), "value");
  EXPECT_EQ(lines_of_code(page_with_broken_line("Files are kept under", "/var/lib/", {{"ls -l", true}})), "ls -l");
}

// Lays out one page of `lines` and expects the text `first` (its last occurrence) read
// before the text `then`.
void expect_read_before(const std::vector<LineSpec>& lines, const std::string& first, const std::string& then) {
  auto r = layout_document(make_doc({make_page(1, lines)}));
  std::string all;
  for (const auto& b : all_blocks(r)) all += b.text + "\n";
  const size_t a = all.rfind(first);
  const size_t b = all.find(then);
  ASSERT_NE(a, std::string::npos) << all;
  ASSERT_NE(b, std::string::npos) << all;
  EXPECT_LT(a, b) << all;
}

TEST(ReadingOrder, AnAdmonitionsLabelIsReadBeforeItsParagraph) {
  // Asciidoctor PDF sets a note's label left of its text, centred on it: here on the middle
  // line's baseline. Read in its row, it would stand inside the paragraph; it comes first.
  const std::string l1 = "The range of data types is wide and this sentence runs on to the right edge";
  const std::string l2 = "of the note, where the label stands on the baseline of this second line of";
  const std::string l3 = "the paragraph, which ends here.";
  std::vector<LineSpec> lines = paragraph(72, 100, {"Body text before the note, a paragraph of its own here.",
                                                    "It ends on this line."});
  for (const auto& spec : std::vector<LineSpec>{{84, 167.2, "NOTE", 10, false, true},
                                                {130, 151.4, l1, 10},
                                                {130, 167.2, l2, 10},
                                                {130, 183.0, l3, 10}})
    lines.push_back(spec);
  auto after = paragraph(72, 215, {"Body text after the note goes on here as usual, flush left."});
  lines.insert(lines.end(), after.begin(), after.end());
  auto r = layout_document(make_doc({make_page(1, lines)}));
  std::vector<std::string> texts;
  for (const auto& b : all_blocks(r)) texts.push_back(b.text);
  const auto note = std::find_if(texts.begin(), texts.end(), [](const std::string& t) { return t.rfind("NOTE", 0) == 0; });
  const auto para = std::find(texts.begin(), texts.end(), l1 + " " + l2 + " " + l3);
  ASSERT_NE(para, texts.end()) << testing::PrintToString(texts);
  ASSERT_NE(note, texts.end()) << testing::PrintToString(texts);
  EXPECT_LT(note, para);

  // A bibliography's keys hang on their entries' first lines, one under another: each stays
  // on its line.
  std::vector<LineSpec> refs;
  double y = 100;
  for (const char* key : {"[L94]", "[LFG]", "[S86]"}) {
    refs.push_back({72, y, key, 10});
    refs.push_back({130, y, std::string(key) + " entry opens on this line and runs on to the right edge of the", 10});
    refs.push_back({130, y + 12, "column, where it breaks, and ends on its second line.", 10});
    y += 30;
  }
  auto s = layout_document(make_doc({make_page(1, refs)}));
  std::string all;
  for (const auto& b : all_blocks(s)) all += b.text + "\n";
  for (const char* key : {"[L94]", "[LFG]", "[S86]"})
    EXPECT_NE(all.find(std::string(key) + " " + key + " entry opens"), std::string::npos) << all;
}

TEST(ReadingOrder, TwoColumnsLeftThenRight) {
  // Two columns with a 20 pt gutter: the left column is read to its end before the right.
  std::vector<LineSpec> lines;
  for (int i = 0; i < 8; ++i) {
    lines.push_back({72, 100.0 + 12 * i, "left column line number " + std::to_string(i) + " of text", 10});
    lines.push_back({320, 100.0 + 12 * i, "right column line number " + std::to_string(i) + " of text", 10});
  }
  expect_read_before(lines, "left column line number 7", "right column line number 0");
}

TEST(ReadingOrder, ALineBesideThePageTakesNoPartInItsColumns) {
  // A broken text matrix can place a line far beside the page. It shows nowhere; the page's
  // two columns are found between the lines on it, and the far line's words are still kept.
  for (double far : {1e9, 1e300, -1e9}) {
    std::vector<LineSpec> lines;
    for (int i = 0; i < 8; ++i) {
      lines.push_back({72, 100.0 + 12 * i, "left column line number " + std::to_string(i) + " of text", 10});
      lines.push_back({320, 100.0 + 12 * i, "right column line number " + std::to_string(i) + " of text", 10});
    }
    lines.push_back({far, 300, "far away", 10});
    expect_read_before(lines, "left column line number 7", "right column line number 0");
    // (It is read with the side of the page it lies beyond, under that side's lines.)
    expect_read_before(lines, far > 0 ? "right column line number 7" : "left column line number 7", "far away");
  }
}

TEST(ReadingOrder, ALineWiderThanAnyPageLeavesNoStripToSearch) {
  // A line that starts on the page and runs on past PDF's largest page width (14,400 units)
  // leaves no text area to divide into columns; the gutter is not looked for across its
  // width (counting the lines over every point of it took seconds and gigabytes a page).
  // The page is read whole, every word kept.
  std::vector<LineSpec> specs;
  for (int i = 0; i < 8; ++i) {
    specs.push_back({72, 100.0 + 12 * i, "left column line number " + std::to_string(i) + " of text", 10});
    specs.push_back({320, 100.0 + 12 * i, "right column line number " + std::to_string(i) + " of text", 10});
  }
  specs.push_back({72, 300, "runs far away", 10});
  Page page = make_page(1, specs);
  page.lines.back().bbox.x1 = page.lines.back().spans.back().bbox.x1 = 1e9;
  auto s = layout_document(make_doc({page}));
  std::string all;
  for (const auto& b : all_blocks(s)) all += b.text + "\n";
  for (int i = 0; i < 8; ++i) {
    EXPECT_NE(all.find("left column line number " + std::to_string(i) + " of text"), std::string::npos) << all;
    EXPECT_NE(all.find("right column line number " + std::to_string(i) + " of text"), std::string::npos) << all;
  }
  EXPECT_NE(all.find("runs far away"), std::string::npos) << all;
}

TEST(ReadingOrder, AListingsGlyphBeyondAnyPageAddsNoMoreThanAPageOfSpaces) {
  // A listing keeps its columns as spaces, counted from the glyphs' positions. A line a
  // broken text matrix placed far beyond the page is counted no further than the largest
  // page allows (14,400 units in 2 pt type): without that bound, 1e8 points out made 16 MB of
  // spaces, and further out no string could hold them.
  for (double far : {1e8, 1e12, 1e300}) {
    std::vector<LineSpec> lines = {{72, 80, "Some prose line that runs on to the edge of the text block here.", 10}};
    for (int i = 0; i < 6; ++i)
      lines.push_back({72, 100.0 + 12 * i, "int x" + std::to_string(i) + " = f(" + std::to_string(i) + ");", 10, true});
    lines.push_back({far, 124, "far();", 10, true});
    auto r = layout_document(make_doc({make_page(1, lines)}));
    std::string all;
    for (const auto& b : all_blocks(r)) all += b.text + "\n";
    EXPECT_LT(all.size(), 20000u) << far;
    for (int i = 0; i < 6; ++i) EXPECT_NE(all.find("int x" + std::to_string(i) + " = f(" + std::to_string(i) + ");"), std::string::npos);
    EXPECT_NE(all.find("far();"), std::string::npos);
  }
}

TEST(ReadingOrder, TwoColumnsWithATableOfShortCellsInOneColumn) {
  // A spanning title, then two columns; the left one holds a table of short cells, each a
  // line of its own. Few lines reach the ragged right part of the left column, nearly as few
  // as cross the gutter, and the columns are still found at the gutter.
  std::vector<LineSpec> lines = {{72, 80, "A Title That Spans Both Columns Of The Page Here", 20}};
  for (int i = 0; i < 3; ++i) lines.push_back({72, 110.0 + 12 * i, "left prose line " + std::to_string(i) + " runs on to the edge", 10});
  for (int i = 0; i < 10; ++i)
    for (double x : {80.0, 130.0, 180.0}) lines.push_back({x, 170.0 + 12 * i, std::to_string(i) + "c", 9, true});
  for (int i = 3; i < 6; ++i) lines.push_back({72, 260.0 + 12 * i, "left prose line " + std::to_string(i) + " runs on to the edge", 10});
  for (int i = 0; i < 20; ++i) lines.push_back({320, 110.0 + 12 * i, "right prose line " + std::to_string(i) + " runs on to its edge", 10});
  expect_read_before(lines, "left prose line 5", "right prose line 0");
}

// A page of `lines` (a heading across the page, say) and two columns: the left one full and
// justified (33 lines), the right one `right` full lines at the top and a short one, with the
// `below` lines (their text, size and baseline) at its foot. Expects the left column read to
// its end before the right one begins.
void expect_left_column_first(std::vector<LineSpec> lines, int right, const std::vector<LineSpec>& below) {
  const double right_column = test::make_line({72, 100, "left column line 0 of the running text", 10}).bbox.x1 + 20;
  for (int i = 0; i < 33; ++i) lines.push_back({72, 100.0 + 12 * i, "left column line " + std::to_string(i % 10) + " of the running text", 10});
  for (int i = 0; i < right; ++i) lines.push_back({right_column, 100.0 + 12 * i, "right column line " + std::to_string(i) + " of its own", 10});
  lines.push_back({right_column, 100.0 + 12 * right, "end.", 10});
  for (auto l : below) lines.push_back({right_column, l.baseline, l.text, l.size});
  expect_read_before(lines, "left column line 2 of the running text", "right column line 0");  // i = 32
}

TEST(ReadingOrder, AShortLastColumnAtTheTopOfThePage) {
  // The last page of a two-column chapter: a full, justified left column, and a right column
  // of five lines at the top (the last a short one) with two lines of notes at the foot.
  // Beside the short line the page is empty to the right, a strip wider than the gutter and
  // crossed by as few lines; the gutter is still found, and the left column read first.
  expect_left_column_first({}, 4,
                           {{0, 480, "1 A note at the foot of the right column, in small type", 8},
                            {0, 490, "set over two lines of the same measure as the column", 8}});
}

TEST(ReadingOrder, AShortLastColumnUnderAHeadingAcrossThePage) {
  // As above, under a heading that spans the page, and with as few lines in the right column
  // as cross the gutter: the gutter, the right column and the empty page beside it make one
  // strip. Its parts crossed by the heading alone are the gutter and, wider, the page right
  // of the short column; the gutter is the one with a column on each side.
  expect_left_column_first({{72, 70, "A Heading Set Across The Whole Width Of The Page Above Both Columns", 14, false, true}}, 3, {});
}

TEST(ReadingOrder, AShortLastColumnOfTwoLines) {
  // A chapter's last page: a full left column, and two lines of the right one at the top,
  // a justified line and the paragraph's last. Fewer lines than make a column's left edge,
  // but one as wide as the left column's lines: a column, read after the left one, not
  // line by line with it.
  std::vector<LineSpec> lines;
  for (int i = 0; i < 33; ++i) lines.push_back({72, 100.0 + 12 * i, "left column line " + std::to_string(i % 10) + " of the running text", 10});
  const double right_column = test::make_line(lines.front()).bbox.x1 + 20;
  lines.push_back({right_column, 100, "right column line runs on to the edge of the text", 10});
  lines.push_back({right_column, 112, "and ends.", 10});
  expect_read_before(lines, "left column line 2 of the running text", "right column line runs");  // i = 32
}

TEST(ReadingOrder, AShortColumnUnderAFiguresCaption) {
  // A full left column; in the right one a figure, its caption centred under it, and the
  // two last lines of a paragraph. The right column is crossed by fewer lines than the
  // left but by more than the gutter: the gutter is where no line crosses, and the caption
  // does not count against the short column's flush edge.
  std::vector<LineSpec> lines;
  for (int i = 0; i < 56; ++i) lines.push_back({72, 60.0 + 12 * i, "left column line " + std::to_string(i % 10) + " of the running text", 10});
  const double right_column = test::make_line(lines.front()).bbox.x1 + 12;
  lines.push_back({right_column + 30, 165, "Figure 3.1: A black box.", 9});
  lines.push_back({right_column, 190, "right column line runs on to the edge of the text", 10});
  lines.push_back({right_column, 202, "and ends.", 10});
  expect_read_before(lines, "left column line 5 of the running text", "right column line runs");  // i = 55
}

TEST(Paragraphs, ACaptionAcrossThePageDoesNotWidenTheColumn) {
  // A two-column page whose text fills the left column only, under a figure across both
  // columns: the figure's caption, centred, reaches past the column's edge. The column's
  // lines still fill its measure, so a full line that ends a sentence does not end its
  // paragraph.
  const std::string full = "left column text of the running page set in body size";
  std::vector<LineSpec> lines = {{150, 80, "Figure 1.1: A figure set across both columns of the page.", 10}};
  for (int i = 0; i < 4; ++i) lines.push_back({72, 110.0 + 12 * i, full, 10});
  lines.push_back({72, 158, full + ".", 10});
  lines.push_back({72, 170, "And it goes on here to its end.", 10});
  auto ps = of_type(layout_document(make_doc({make_page(1, lines)})), BlockType::Paragraph);
  ASSERT_FALSE(ps.empty());
  EXPECT_NE(ps.back().text.find(full + ". And it goes on here"), std::string::npos) << ps.back().text;
}

TEST(ReadingOrder, AListingThatFillsAColumnBesideProse) {
  // A two-column page: the left column all listing (8 pt, its own line pitch, lines of
  // many lengths, some reaching near the gutter), the right one justified prose. Columns
  // need a flush prose edge on both sides, and a listing's ragged right edge leaves a wide
  // strip that few of its lines cross; the gutter is found where none do, and the listing
  // is read whole before the prose.
  std::vector<LineSpec> lines;
  std::string listing;
  for (int i = 0; i < 24; ++i) {
    const std::string code = i % 6 == 0 ? "def step_" + std::to_string(i) + "(state):"
                             : i % 6 == 1 ? "    \"\"\"Advance the machine by one step.\"\"\""
                             : i % 6 == 2 ? "    if state.count > " + std::to_string(i) + ":"
                             : i % 6 == 3 ? "        return state.reset()"
                                          : i % 6 == 4 ? "    state.count += 1" : "    return state";
    const size_t indent = code.find_first_not_of(' ');
    lines.push_back({72 + 4.8 * static_cast<double>(indent), 100 + 9.5 * i, code.substr(indent), 8, true});
    listing += (i ? "\n" : "") + code;
  }
  // Under the listing, the first line of a paragraph, indented: the column's one line of
  // prose is no flush edge to count the listing's indentation from.
  lines.push_back({87, 100 + 9.5 * 24 + 14, "A paragraph opens under the listing here.", 10});
  const std::string prose = "right column prose runs on to the edge of its measure here";
  const double right_column = test::make_line(lines[1]).bbox.x1 + 16;
  std::string expected;
  for (int i = 0; i < 18; ++i) {
    lines.push_back({right_column, 100 + 12.0 * i, prose, 10});
    expected += (i ? " " : "") + prose;
  }
  auto r = layout_document(make_doc({make_page(1, lines)}));
  auto code = of_type(r, BlockType::Code);
  ASSERT_EQ(code.size(), 1u);
  EXPECT_EQ(code[0].text, listing);
  // (The paragraph under the listing may go on at the top of the next column.)
  auto ps = of_type(r, BlockType::Paragraph);
  ASSERT_FALSE(ps.empty());
  EXPECT_EQ(ps.front().text.rfind("A paragraph opens under the listing here.", 0), 0u);
  EXPECT_EQ(ps.back().text.substr(ps.back().text.size() - expected.size()), expected);
}

TEST(ReadingOrder, ATableOfNamesAndDescriptionsIsNoListingBesideProse) {
  // A table: a macro's name in a typewriter face, its description beside it on the same
  // baseline. No listing beside a column of prose: each name is read with its description.
  std::vector<LineSpec> lines;
  for (int i = 0; i < 8; ++i) {
    lines.push_back({72, 100 + 12.0 * i, "\\macro" + std::to_string(i), 10, true});
    lines.push_back({200, 100 + 12.0 * i, "description " + std::to_string(i) + " of the macro runs on to the edge here", 10});
  }
  expect_read_before(lines, "\\macro3", "description 3 of");
  expect_read_before(lines, "description 3 of", "\\macro4");
}

TEST(ReadingOrder, TwoShortLinesBesideTextAreNoColumn) {
  // Two short lines right of a block of text (a drawing's labels, a page number), each on a
  // line's baseline: no column, so each is read in its row.
  std::vector<LineSpec> lines;
  for (int i = 0; i < 10; ++i) lines.push_back({72, 100.0 + 12 * i, "text line " + std::to_string(i) + " of the block", 10});
  lines.push_back({400, 124, "label A", 10});
  lines.push_back({400, 160, "label B", 10});
  expect_read_before(lines, "text line 2 of the block", "label A");
  expect_read_before(lines, "label A", "text line 3 of the block");
}

TEST(ReadingOrder, AnOverfullLineStaysInItsColumn) {
  // A justified left column with one line set too wide (an address that would not break):
  // it runs through the gutter a few points into the right column's margin. It is a line of
  // its paragraph, not a row spanning both columns.
  const std::string full = "left column line 0 of the running text";
  const double right_edge = test::make_line({72, 100, full, 10}).bbox.x1;
  const double right_column = right_edge + 20;
  std::string wide = "see https://cran.r-project.org/package=foreign";
  while (test::make_line({72, 100, wide, 10}).bbox.x1 < right_column + 4) wide += "x";
  ASSERT_LT(test::make_line({72, 100, wide, 10}).bbox.x1, right_column + 12);
  std::vector<LineSpec> lines;
  for (int i = 0; i < 12; ++i) {
    const double b = 100.0 + 12 * i;
    lines.push_back({72, b, i == 6 ? wide : "left column line " + std::to_string(i % 10) + " of the running text", 10});
    lines.push_back({right_column, b + 3, "right column line " + std::to_string(i) + " of its text", 10});
  }
  auto r = layout_document(make_doc({make_page(1, lines)}));
  std::string all;
  for (const auto& b : all_blocks(r)) all += b.text + "\n";
  const size_t overfull = all.find("package=foreign");
  const size_t last_left = all.find("left column line 1 of the running text", all.find("package=foreign"));
  const size_t first_right = all.find("right column line 0 ");
  ASSERT_NE(overfull, std::string::npos);
  ASSERT_NE(first_right, std::string::npos);
  EXPECT_LT(overfull, first_right) << all;
  EXPECT_NE(last_left, std::string::npos) << all;
  EXPECT_LT(last_left, first_right) << all;
}

TEST(Footnotes, AfterTheParagraphThatRunsOverThePage) {
  // A footnote at the foot of page 1 is set in a smaller size after a mark; the paragraph
  // it sits under continues on page 2, and the footnote comes after that paragraph.
  auto p1 = filler(100, 4);
  p1.push_back({72, 148, "a sentence that is cut by the page break and runs to the full measure of the", 10});
  p1.push_back({72, 700, "1 A footnote in the small size at the foot of the page.", 8});
  auto p2 = std::vector<LineSpec>{{72, 100, "text block before going on here.", 10}};
  auto more = paragraph(72, 124, {"Next paragraph."});
  p2.insert(p2.end(), more.begin(), more.end());
  auto r = layout_document(make_doc({make_page(1, p1), make_page(2, p2)}));
  auto bs = all_blocks(r);
  long para = -1, note = -1, next = -1;
  for (size_t i = 0; i < bs.size(); ++i) {
    if (bs[i].text.find("before going on here") != std::string::npos) para = static_cast<long>(i);
    if (bs[i].type == BlockType::Footnote) note = static_cast<long>(i);
    if (bs[i].text == "Next paragraph.") next = static_cast<long>(i);
  }
  ASSERT_GE(para, 0);
  ASSERT_GE(note, 0);
  EXPECT_EQ(note, para + 1);
  EXPECT_EQ(next, note + 1);
}

// Appends a note mark to `line`, right after its text: `raised` sets it smaller and over
// the baseline, as typesetters set a footnote's mark; otherwise it is a number in the text.
void add_note_mark(Line& line, const std::string& mark, bool raised) {
  const Span& last = line.spans.back();
  Span m;
  m.text = mark;
  m.font = last.font;
  m.size = raised ? 0.7 * last.size : last.size;
  m.baseline = raised ? last.baseline - 0.35 * last.size : last.baseline;
  const double x = last.bbox.x1 + (raised ? 0.5 : 0.333 * last.size);
  m.xs = {static_cast<float>(x)};
  m.last_advance = static_cast<float>(0.5 * m.size);
  m.bbox = {x, m.baseline - 0.8 * m.size, x + 0.5 * m.size, m.baseline + 0.25 * m.size};
  line.spans.push_back(m);
  line.bbox.x1 = m.bbox.x1;
}

// Typographic fact: a note mark raised at the start of what the engine gives as a line of
// its own ("[1] After installation," when the mark is set in brackets after "provides.")
// stands on the row of its text: the line's baseline is its text's, not the mark's.
TEST(Rows, ALineOpenedByARaisedMarkStaysOnItsRow) {
  for (bool bracketed : {true, false}) {
    auto lines = paragraph(72, 100, {"The first paragraph of the page cites a note in its", "second line, after this word.",
                                     "and then goes on to its end, a full line of the text."});
    Page p = make_page(1, lines);
    const Line& head = p.lines[1];
    const double base = head.spans.front().baseline;
    Line tail = test::make_line({head.bbox.x1 + 12, base, "so the line goes on", 10});
    std::vector<Span> marks;
    double x = head.bbox.x1 + 2;
    for (const char* m : bracketed ? std::vector<const char*>{"[", "1", "]"} : std::vector<const char*>{"1"}) {
      Span s = tail.spans.front();
      s.text = m;
      s.size = 5.8;  // as asciidoctor-pdf sets it: a little over half the size, raised as much
      s.baseline = base - 5.3;
      s.xs = {static_cast<float>(x)};
      s.last_advance = 3;
      s.bbox = {x, s.baseline - 0.8 * s.size, x + 3, s.baseline + 0.25 * s.size};
      x += 3;
      marks.push_back(s);
    }
    tail.spans.insert(tail.spans.begin(), marks.begin(), marks.end());
    for (const auto& s : tail.spans) tail.bbox = tail.bbox.united(s.bbox);
    EXPECT_DOUBLE_EQ(tail.baseline(), base);
    p.lines.insert(p.lines.begin() + 2, tail);
    auto r = layout_document(make_doc({p}));
    std::vector<std::string> texts;
    for (const auto& b : all_blocks(r)) texts.push_back(b.text);
    ASSERT_EQ(texts.size(), 1u) << texts.size() << ": " << texts.back();
    const std::string& t = texts[0];
    const size_t word = t.find("word."), goes = t.find("so the line goes on"), then = t.find("and then");
    EXPECT_TRUE(word < goes && goes < then && then != std::string::npos) << t;
  }
}

TEST(Footnotes, AfterTheBlockThatCitesThem) {
  // A note's mark is raised in the second line of the page's first paragraph: the note goes
  // right after that paragraph, where a reader meets the mark, not at the end of the page.
  // Where two blocks of the page carry the mark, or the "mark" is a number in the text, the
  // note stays at the end of its page.
  enum Case { Cited, CitedTwice, NotRaised };
  for (Case c : {Cited, CitedTwice, NotRaised}) {
    auto first = paragraph(72, 100, {"The first paragraph of the page cites a note in its", "second line, after this word",
                                     "and then goes on to its end."});
    auto second = paragraph(72, 148, {"A second paragraph follows the first one and ends", "here, at the end of the text."});
    std::vector<LineSpec> lines = first;
    lines.insert(lines.end(), second.begin(), second.end());
    lines.push_back({72, 700, "1 The note in the small size at the foot of the page.", 8});
    Page p = make_page(1, lines);
    add_note_mark(p.lines[1], "1", c != NotRaised);
    if (c == CitedTwice) add_note_mark(p.lines[4], "1", true);
    auto r = layout_document(make_doc({p}));
    std::vector<std::string> order;
    for (const auto& b : all_blocks(r))
      if (b.type == BlockType::Footnote) order.push_back("note");
      else if (b.type == BlockType::Paragraph) order.push_back(b.text.rfind("The first", 0) == 0 ? "first" : "second");
    if (c == Cited) EXPECT_EQ(order, (std::vector<std::string>{"first", "note", "second"}));
    else EXPECT_EQ(order, (std::vector<std::string>{"first", "second", "note"})) << c;
    for (const auto& b : all_blocks(r)) EXPECT_TRUE(b.raised.empty());
  }
}

// Typographic fact: some typesetters (asciidoctor-pdf) raise a note's mark in brackets,
// "provides.[1]", and gather the notes, opened by the same "[1]", at the foot of the
// chapter's last page. Such a note is a footnote, placed after the block that cites it; in a
// book that raises no bracketed mark, small rows opening with "[1]" at a page's foot are a
// list set small (a bibliography), not notes.
TEST(Footnotes, NotesGatheredAtTheChaptersEndUnderBracketedMarks) {
  for (bool cited : {true, false}) {
    auto first = paragraph(72, 100, {"The build needs a compiler with atomic operations, which every supported",
                                     "platform provides.", "", "After installation, complete the following steps in order",
                                     "and then start the service with its default configuration file."});
    first.erase(first.begin() + 2);
    Page p1 = make_page(1, first);
    if (cited) {
      for (const char* m : {"[", "1", "]"}) add_note_mark(p1.lines[1], m, true);
    } else {
      p1.lines[1].spans.back().text += " [1]";  // a citation of a reference, set in the text
    }
    auto last = paragraph(72, 100, {"The second page of the chapter holds a paragraph of its own that ends",
                                    "the chapter's text, well above the foot of the page."});
    last.push_back({72, 690, "[1] Older compilers can still build it with the fallback implementation.", 8});
    last.push_back({72, 702, "[2] Donald E. Knuth. The Art of Computer Programming. Addison-Wesley.", 8});
    Page p2 = make_page(2, last);
    auto r = layout_document(make_doc({p1, p2}));
    std::vector<std::string> order;
    for (const auto& b : all_blocks(r))
      order.push_back(std::string(to_string(b.type)) + ":" + b.text.substr(0, b.text.find(' ', 5)));
    if (cited) {
      ASSERT_GE(order.size(), 3u);
      EXPECT_EQ(order[0], "paragraph:The build");
      EXPECT_EQ(order[1].rfind("footnote:", 0), 0u) << order[1];
      EXPECT_NE(order[1].find("Older"), std::string::npos) << order[1];
    } else {
      for (const auto& o : order) EXPECT_EQ(o.rfind("footnote", 0), std::string::npos) << o;
    }
  }
}

// The paragraph that opens "The first" and the footnote of the last chapter.
std::pair<const Block*, const Block*> citing_and_note(const LayoutResult& r) {
  const Block *citing = nullptr, *note = nullptr;
  for (const auto& b : r.chapters.back().blocks) {
    if (b.type == BlockType::Footnote) note = &b;
    if (b.type == BlockType::Paragraph && b.text.rfind("The first", 0) == 0) citing = &b;
  }
  return {citing, note};
}

TEST(Footnotes, TheMarkComesOutOfBothTextsIntoMarks) {
  // A mark cited by one block of the page comes out of its text, and out of the note it
  // opens, into Block::marks: putting the marks back gives the texts as read from the page
  // (where a raised mark is a word of its own). A note's own mark glued to its first word
  // ("1The") comes out as a glued mark. Cited by two blocks, the mark stays in the texts.
  enum Case { Cited, CitedBeforeComma, NoteNumberedWithStop, CitedTwice, GluedNote };
  for (Case c : {Cited, CitedBeforeComma, NoteNumberedWithStop, CitedTwice, GluedNote}) {
    auto first = paragraph(72, 100, {"The first paragraph of the page cites a note in its", "second line, after this word",
                                     "and then goes on to its end."});
    auto second = paragraph(72, 148, {"A second paragraph follows the first one and ends", "here, at the end of the text."});
    std::vector<LineSpec> lines = first;
    lines.insert(lines.end(), second.begin(), second.end());
    const std::string note_printed = c == GluedNote              ? "1The note in the small size at the foot of the page."
                                     : c == NoteNumberedWithStop ? "1. The note in the small size at the foot of the page."
                                                                 : "1 The note in the small size at the foot of the page.";
    lines.push_back({72, 700, note_printed, 8});
    Page p = make_page(1, lines);
    add_note_mark(p.lines[1], "1", true);
    if (c == CitedBeforeComma) {  // "word¹," : the comma on the baseline after the mark
      Span comma = p.lines[1].spans.front();
      comma.text = ",";
      const double x = p.lines[1].spans.back().bbox.x1;
      comma.xs = {static_cast<float>(x)};
      comma.bbox.x0 = x;
      comma.bbox.x1 = x + 3;
      p.lines[1].spans.push_back(comma);
      p.lines[1].bbox.x1 = x + 3;
    }
    if (c == CitedTwice) add_note_mark(p.lines[4], "1", true);
    auto r = layout_document(make_doc({p}));
    const auto [citing, note] = citing_and_note(r);
    ASSERT_TRUE(citing && note) << c;
    const std::string read = p.lines[0].text() + " " + p.lines[1].text() + " " + p.lines[2].text();
    EXPECT_NE(read.find(c == CitedBeforeComma ? "word 1 , and" : "word 1 and"), std::string::npos) << read;
    EXPECT_EQ(text_with_marks(citing->text, citing->marks), read) << c;
    EXPECT_EQ(text_with_marks(note->text, note->marks), note_printed) << c;
    if (c != CitedTwice) {
      const std::string before = "The first paragraph of the page cites a note in its second line, after this word";
      const std::string comma = c == CitedBeforeComma ? "," : "";
      EXPECT_EQ(citing->text, before + comma + " and then goes on to its end.");
      EXPECT_EQ(citing->marks, (std::vector<NoteMark>{{before.size(), "1"}}));
      EXPECT_EQ(text_with_marks(citing->text, citing->marks, MarksAs::Printed),
                before + "1" + comma + " and then goes on to its end.");
      EXPECT_EQ(note->text, "The note in the small size at the foot of the page.");
      EXPECT_EQ(note->marks, (std::vector<NoteMark>{{0, c == NoteNumberedWithStop ? "1." : "1", c == GluedNote}}));
      EXPECT_EQ(text_with_marks(note->text, note->marks, MarksAs::Printed),
                (c == NoteNumberedWithStop ? "1. " : "1 ") + note->text);
    } else {
      EXPECT_EQ(citing->text, read) << c;
      EXPECT_TRUE(citing->marks.empty()) << c;
      EXPECT_EQ(note->text, note_printed) << c;
      EXPECT_TRUE(note->marks.empty()) << c;
    }
    for (const auto& j : r.joins) EXPECT_EQ((j.before + j.after + j.joined).find_first_of("\x01\x02"), std::string::npos);
  }
}

TEST(Footnotes, AMarkOnTheBaselineLinkedToItsNoteComesOutGlued) {
  // DocBook's print stylesheets may set a note's mark in the text's own size on its baseline,
  // touching the word before it ("mode.1"), linked to the note at the page's foot, which
  // opens with its mark touching its first word ("1Even the older vim"). The link's text is
  // the mark: it comes out of both texts as a glued mark, which goes back with no space put
  // in. Without the link, or with a link that leads elsewhere (here: to the page's top), the
  // "1" is the word's, and both texts keep it.
  enum Case { Glued, GluedBeforeComma, SetApart, Unlinked, LinkedElsewhere };
  for (Case c : {Glued, GluedBeforeComma, SetApart, Unlinked, LinkedElsewhere}) {
    auto lines = paragraph(72, 100, {"The first paragraph of the page cites a note in its", "second line, after this word",
                                     "and then goes on to its end."});
    const std::string note_printed = "1The note in the small size at the foot of the page.";
    lines.push_back({72, 700, note_printed, 8});
    Page p = make_page(1, lines);
    Line& line = p.lines[1];
    Span m = line.spans.back();
    const double x = line.spans.back().bbox.x1 + (c == SetApart ? 0.333 * m.size : 0);
    m.text = c == SetApart ? " 1" : "1";  // (set apart by a space of its own)
    m.xs = {static_cast<float>(x)};
    if (c == SetApart) m.xs.insert(m.xs.begin(), static_cast<float>(line.spans.back().bbox.x1));
    m.last_advance = static_cast<float>(0.5 * m.size);
    m.bbox.x0 = x;
    m.bbox.x1 = x + 0.5 * m.size;
    line.spans.push_back(m);
    line.bbox.x1 = m.bbox.x1;
    if (c == GluedBeforeComma) {
      Span comma = m;
      comma.text = ",";
      comma.xs = {static_cast<float>(m.bbox.x1)};
      comma.bbox.x0 = m.bbox.x1;
      comma.bbox.x1 = m.bbox.x1 + 3;
      line.spans.push_back(comma);
      line.bbox.x1 = comma.bbox.x1;
    }
    if (c != Unlinked) {
      LinkArea to;
      to.bbox = m.bbox;
      to.page = 1;
      to.y = c == LinkedElsewhere ? 90 : 698;
      p.links.push_back(to);
    }
    const std::string read = p.lines[0].text() + " " + p.lines[1].text() + " " + p.lines[2].text();
    const std::string before = "The first paragraph of the page cites a note in its second line, after this word";
    const std::string printed = before + (c == SetApart ? " 1 " : c == GluedBeforeComma ? "1, " : "1 ");
    ASSERT_EQ(read.substr(0, printed.size()), printed) << c;
    auto r = layout_document(make_doc({p}));
    const auto [citing, note] = citing_and_note(r);
    ASSERT_TRUE(citing && note) << c;
    EXPECT_EQ(text_with_marks(citing->text, citing->marks), read) << c;
    EXPECT_EQ(text_with_marks(note->text, note->marks), note_printed) << c;
    if (c == Unlinked || c == LinkedElsewhere) {
      EXPECT_EQ(citing->text, read) << c;
      EXPECT_TRUE(citing->marks.empty()) << c;
      EXPECT_EQ(note->text, note_printed) << c;
      EXPECT_TRUE(note->marks.empty()) << c;
      continue;
    }
    const std::string after = c == GluedBeforeComma ? ", and then goes on to its end." : " and then goes on to its end.";
    EXPECT_EQ(citing->text, before + after) << c;
    EXPECT_EQ(citing->marks, (std::vector<NoteMark>{{before.size(), "1", c != SetApart}})) << c;
    EXPECT_TRUE(citing->links.empty()) << c;  // (the link was the mark's)
    EXPECT_EQ(text_with_marks(citing->text, citing->marks, MarksAs::Printed), before + "1" + after) << c;
    EXPECT_EQ(note->text, "The note in the small size at the foot of the page.");
    EXPECT_EQ(note->marks, (std::vector<NoteMark>{{0, "1", true}}));
    EXPECT_EQ(note->anchor, "note-1");
  }
}

TEST(Footnotes, AMarkLinkedFromATablesCellStaysInTheCell) {
  // A table's text is made from its cells: a mark glued to a cell ("40961", linked to the
  // note) cites the note, which goes after the table, but stays in the cell and the text, as
  // a table's raised marks do (a text set in columns is never tidy enough to take a mark
  // out of); so does the note's own.
  std::vector<LineSpec> l = filler(100, 4);
  double baseline = 180;
  for (const auto& row : std::vector<std::vector<std::pair<double, std::string>>>{
           {{72, "Parameter"}, {200, "Default"}, {300, "Unit"}},
           {{72, "flush_interval"}, {200, "500"}, {300, "ms"}},
           {{72, "max_batch"}, {200, "4096"}, {300, "records"}}}) {
    for (const auto& [x, text] : row) l.push_back({x, baseline, text});
    baseline += 12;
  }
  auto tail = filler(baseline + 20, 3);
  l.insert(l.end(), tail.begin(), tail.end());
  const std::string note_printed = "1The note in the small size at the foot of the page.";
  l.push_back({72, 700, note_printed, 8});
  Page p = make_page(1, l);
  Line* cell = nullptr;
  for (auto& line : p.lines)
    if (line.text() == "4096") cell = &line;
  ASSERT_TRUE(cell);
  Span m = cell->spans.back();
  m.text = "1";
  m.xs = {static_cast<float>(m.bbox.x1)};
  m.bbox.x0 = m.bbox.x1;
  m.bbox.x1 = m.bbox.x0 + 0.5 * m.size;
  cell->spans.push_back(m);
  cell->bbox.x1 = m.bbox.x1;
  LinkArea to;
  to.bbox = m.bbox;
  to.page = 1;
  to.y = 698;
  p.links.push_back(to);
  auto r = layout_document(make_doc({p}));
  const auto& bs = r.chapters.back().blocks;
  size_t table = bs.size(), note = bs.size();
  for (size_t i = 0; i < bs.size(); ++i) {
    if (bs[i].type == BlockType::Table) table = i;
    if (bs[i].type == BlockType::Footnote) note = i;
  }
  ASSERT_LT(table, bs.size());
  ASSERT_LT(note, bs.size());
  EXPECT_EQ(note, table + 1);
  EXPECT_NE(bs[table].text.find("40961"), std::string::npos) << bs[table].text;
  EXPECT_TRUE(bs[table].marks.empty());
  EXPECT_EQ(bs[note].text, note_printed);
  EXPECT_TRUE(bs[note].marks.empty());
}

// The rule over a page's footnotes: two fifths of the measure, from its left edge, at `y`.
VectorPath footnote_rule(double y) {
  VectorPath rule;
  rule.bbox = {72, y, 72 + 0.4 * 300, y + 0.4};
  rule.fill = true;
  return rule;
}

TEST(Footnotes, ANoteSetInTheFlowUnderItsParagraphIsAFootnote) {
  // A browser prints a footnote right under the paragraph that cites it, small, under a rule
  // as wide as the column, with the page's text going on below it. Its mark, raised in the
  // paragraph above, makes it a note; a small line under a rule that no row above cites is
  // no note.
  for (const bool cited : {true, false}) {
    SCOPED_TRACE(cited ? "cited" : "not cited");
    auto lines = paragraph(72, 100, {"The build needs a compiler with atomic operations, which every platform",
                                     "provides after this word"});
    lines.push_back({72, 140, "1 Older compilers can still build it with the fallback implementation.", 8});
    auto after = paragraph(72, 170, {"After installation, complete the following steps in order, one after",
                                     "the other, and the daemon starts."});
    lines.insert(lines.end(), after.begin(), after.end());
    Page p = make_page(1, lines);
    if (cited) add_note_mark(p.lines[1], "1", true);
    VectorPath rule = footnote_rule(128);
    rule.bbox.x1 = 72 + 300;  // as wide as the column
    p.paths.push_back(rule);
    auto r = layout_document(make_doc({p}));
    const Block *note = nullptr, *citing = nullptr;
    for (const auto& b : r.chapters.back().blocks) {
      if (b.type == BlockType::Footnote) note = &b;
      if (b.text.rfind("The build", 0) == 0) citing = &b;
    }
    ASSERT_TRUE(citing);
    if (!cited) {
      EXPECT_EQ(note, nullptr);
      continue;
    }
    ASSERT_TRUE(note);
    EXPECT_EQ(note->text, "Older compilers can still build it with the fallback implementation.");
    EXPECT_EQ(citing->marks.size(), 1u);
  }
}

TEST(Footnotes, ANoteGoingOnFromThePageBeforeStartsUnderTheRule) {
  // Under the footnote rule, the first small rows carry no mark: they finish a note of the
  // page before. They are a footnote, not a paragraph of the page, and the body paragraph
  // that runs on over the page is not cut by them. Notes may be marked with superscript
  // digits ("²").
  auto lines = filler(100, 4);
  lines.push_back({72, 148, "a sentence that is cut by the page break and runs to the full measure of the", 10});
  lines.push_back({72, 680, "the rest of a note from the page before, in the small size of notes.", 8});
  lines.push_back({72, 690, "\u00b2A second note with its own mark in the small size.", 8});
  Page p1 = make_page(1, lines);
  p1.paths.push_back(footnote_rule(668));
  auto p2 = std::vector<LineSpec>{{72, 100, "text block before going on here.", 10}};
  for (bool with_rule : {true, false}) {
    Page first = p1;
    if (!with_rule) first.paths.clear();
    auto r = layout_document(make_doc({first, make_page(2, p2)}));
    bool as_note = false, as_body = false;
    size_t notes = 0;
    for (const auto& b : all_blocks(r)) {
      if (b.type == BlockType::Footnote) ++notes;
      if (b.text.find("the rest of a note") == std::string::npos) continue;
      (b.type == BlockType::Footnote ? as_note : as_body) = true;
    }
    if (with_rule) {
      EXPECT_TRUE(as_note);
      EXPECT_FALSE(as_body);
      EXPECT_EQ(notes, 2u);
    } else {
      EXPECT_TRUE(as_body);  // without the rule, nothing says where the notes begin
    }
  }
}

TEST(Footnotes, TheRuleOverTheFirstNoteOpensTheAreaUnderSmallText) {
  // Small rows of the text (an example set small) stand over the footnote rule; under it,
  // two notes whose lines are set like a table's (an input, an arrow, its result). The rule
  // over the first note opens the notes there: the rows under it are notes, the rows over it
  // text.
  auto lines = filler(100, 4);
  lines.push_back({72, 600, "an example set small over the notes, in the small size.", 8});
  lines.push_back({72, 640, "7 A first note, in the small size of notes, that explains it.", 8});
  lines.push_back({72, 652, "8 \\per{ZfG}_5_", 8});
  lines.push_back({200, 652, "=>", 8});
  lines.push_back({240, 652, "ZfG. 5 and Nr. 6.", 8});
  lines.push_back({72, 664, "9 \\per{Jour}_4_", 8});
  lines.push_back({200, 664, "=>", 8});
  lines.push_back({240, 664, "Jour 4 and nos 6.", 8});
  Page p = make_page(1, lines);
  p.paths.push_back(footnote_rule(628));
  auto r = layout_document(make_doc({p}));
  std::vector<std::string> notes;
  bool example_in_text = false;
  for (const auto& b : all_blocks(r)) {
    if (b.type == BlockType::Footnote) notes.push_back(b.text);
    else if (b.text.find("an example set small") != std::string::npos) example_in_text = true;
  }
  EXPECT_TRUE(example_in_text);
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_NE(notes[1].find("ZfG. 5 and Nr. 6."), std::string::npos);
  EXPECT_NE(notes[2].find("Jour 4 and nos 6."), std::string::npos);
}

TEST(Footnotes, ALooselySetNoteLineIsNoTableRow) {
  // A justified note whose line holds a word too long to break (a path, a URL) is set so
  // loosely that every word stands apart, evenly spaced, from its mark (indented) to the
  // measure's right edge: its pieces are not a table's cells, and the note is one note.
  auto lines = filler(100, 4);
  double right = 0;
  for (const auto& f : lines) right = std::max(right, test::make_line(f).bbox.x1);
  const std::vector<std::string> words = {"3", "Older", "compilers", "that", "lack", "the", "header", "can", "still"};
  double width = 0;
  for (const auto& w : words) width += test::make_line({0, 680, w, 8}).bbox.x1;
  const double left = 84, gap = (right - left - width) / static_cast<double>(words.size() - 1);
  double x = left;
  for (const auto& w : words) {
    lines.push_back({x, 680, w, 8});
    x = test::make_line({x, 680, w, 8}).bbox.x1 + gap;
  }
  lines.push_back({72, 690, "build it with the fallback selected by the option.", 8});
  auto r = layout_document(make_doc({make_page(1, lines)}));
  std::vector<std::string> notes;
  for (const auto& b : all_blocks(r))
    if (b.type == BlockType::Footnote) notes.push_back(b.text);
  EXPECT_TRUE(of_type(r, BlockType::Table).empty());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("still build it with"), std::string::npos);
}

TEST(Footnotes, SideBySideInTwoColumnsStayApart) {
  // Each column has its note at its foot, on the same baselines as the other's: the left
  // note is read whole, then the right one.
  std::vector<LineSpec> lines;
  const double right_column = test::make_line({72, 100, "left column line 0 of the running text", 10}).bbox.x1 + 20;
  for (int i = 0; i < 20; ++i) {
    lines.push_back({72, 100.0 + 12 * i, "left column line " + std::to_string(i % 10) + " of the running text", 10});
    lines.push_back({right_column, 100.0 + 12 * i, "right column line " + std::to_string(i % 10) + " of the text", 10});
  }
  lines.push_back({72, 400, "1 The left note begins here and", 8});
  lines.push_back({72, 409, "goes on to a second line.", 8});
  lines.push_back({right_column, 400, "2 The right note begins here and", 8});
  lines.push_back({right_column, 409, "ends on its second line.", 8});
  auto r = layout_document(make_doc({make_page(1, lines)}));
  std::vector<std::string> notes;
  for (const auto& b : all_blocks(r))
    if (b.type == BlockType::Footnote) notes.push_back(b.text);
  EXPECT_EQ(notes, (std::vector<std::string>{"1 The left note begins here and goes on to a second line.",
                                             "2 The right note begins here and ends on its second line."}));
}

TEST(Robustness, LinesWhoseBoxesHaveNoHeightAreLaidOut) {
  // A font without metrics gives its glyphs boxes of no height (seen in a Korean XeTeX
  // manual). Every line is still a row of its own: the text comes out, and layout ends.
  Page p = make_page(1, filler(100, 6));
  for (auto& l : p.lines) {
    l.bbox.y0 = l.bbox.y1;
    for (auto& s : l.spans) s.bbox.y0 = s.bbox.y1;
  }
  auto r = layout_document(make_doc({p}));
  size_t words = 0;
  for (const auto& b : all_blocks(r)) words += quire::whitespace_tokens(b.text).size();
  EXPECT_EQ(words, 6u * 15u);
}

TEST(Figures, ImageAtOnePlaceOnMostPagesIsNoFigure) {
  // A watermark or a logo beside the text: the same picture at the same place on most of
  // the book's pages is furniture, which clean takes off, never a figure; a picture drawn once
  // is one. (Slide overlays that show one picture on a few slides in a row stay figures.)
  std::vector<Page> pages;
  for (int n = 1; n <= 6; ++n) {
    Page p = make_page(n, filler(100, 12));
    add_image(p, {250, 400, 360, 470}, 220, 140);
    if (n == 3) add_image(p, {150, 500, 450, 700}, 600, 400);
    if (n >= 4) add_image(p, {150, 520, 450, 700}, 640, 360);  // overlays on three pages
    pages.push_back(p);
  }
  for (int n = 7; n <= 8; ++n) pages.push_back(make_page(n, filler(100, 12)));
  Document doc = make_doc(pages);
  clean_document(doc, CleanOptions{});
  auto r = layout_document(doc);
  std::vector<int> figures;
  for (const auto& b : all_blocks(r))
    if (b.type == BlockType::Figure) {
      figures.push_back(b.page);
      EXPECT_GT(b.bbox.y0, 480) << "the watermark taken on page " << b.page;  // (its box: 400-470)
    }
  EXPECT_EQ(figures, (std::vector<int>{3, 4, 5, 6}));
}

TEST(Footnotes, BeforeAFloatAtTheTopOfTheNextPage) {
  // Page 1 ends in a full line with footnotes under it; page 2 opens with a figure and its
  // caption, then a new paragraph. The paragraph of page 1 may go on over the figure, so it
  // stays open until page 2's text says otherwise: then page 1's footnotes come first and
  // page 2's figure after them, in page order.
  auto p1 = filler(100, 4);
  p1.push_back({72, 148, "a sentence that ends here and still runs to the full measure of the block.", 10});
  p1.push_back({72, 690, "1 The first footnote in the small size at the foot of the page.", 8});
  p1.push_back({72, 700, "2 The second footnote, also at the foot of page one.", 8});
  std::vector<LineSpec> p2l = {{72, 300, "Figure 2.1: The caption under the figure.", 10}};
  auto more = paragraph(72, 330, {"A new paragraph opens under the caption with an indent and runs", "on to here."});
  p2l.insert(p2l.end(), more.begin(), more.end());
  Page p2 = make_page(2, p2l);
  add_image(p2, {150, 90, 450, 280}, 600, 380);
  auto r = layout_document(make_doc({make_page(1, p1), p2}));
  auto bs = all_blocks(r);
  std::vector<BlockType> order;
  long first_note = -1;
  for (size_t i = 0; i < bs.size(); ++i)
    if (bs[i].type == BlockType::Footnote || bs[i].type == BlockType::Figure || bs[i].type == BlockType::Caption) {
      if (first_note < 0 && bs[i].type == BlockType::Footnote) first_note = static_cast<long>(i);
      order.push_back(bs[i].type);
    }
  ASSERT_GE(first_note, 1);
  EXPECT_NE(bs[static_cast<size_t>(first_note) - 1].text.find("ends here and still runs"), std::string::npos);
  EXPECT_EQ(order, (std::vector<BlockType>{BlockType::Footnote, BlockType::Footnote, BlockType::Figure,
                                           BlockType::Caption}));
}

TEST(Figures, APageThatOpensWithTextHasNoFloatAboveTheContinuation) {
  // Page 1 ends in the middle of a sentence. Page 2 opens with a listing and a sentence,
  // then a figure with its caption, a heading and text set at the margin. The sentence of
  // page 1 goes on with the listing; the text under the figure, which happens to start at
  // the margin as a continuation would, is no part of it.
  auto p1 = filler(100, 4);
  p1.push_back({72, 148, "An example of a triangulation of a set of points is", 10});
  std::vector<LineSpec> p2l = {{90, 100, "x = rand (1, 10);", 10, true}, {90, 112, "plot (x, y);", 10, true},
                               {72, 130, "The result of which can be seen in the figure.", 10},
                               {72, 300, "Figure 1.1: The triangulation of a random set of points.", 10},
                               {72, 330, "1.1 Plotting", 12, false, true},
                               {72, 350, "triplot (tri, x, y) plots a triangular mesh, which is the", 10},
                               {72, 362, "output of the triangulation over the grid.", 10}};
  Page p2 = make_page(2, p2l);
  add_image(p2, {150, 150, 450, 290}, 600, 280);
  auto r = layout_document(make_doc({make_page(1, p1), p2}));
  for (const auto& b : all_blocks(r))
    if (b.text.find("triangulation of a set of points is") != std::string::npos) {
      EXPECT_EQ(b.text.find("triplot"), std::string::npos) << b.text;
      EXPECT_EQ(b.last_page, 1) << b.text;
    }
}

TEST(Figures, AFigureAmidAPageEndsTheParagraphAtAFullStop) {
  // A figure between two lines of a page: over it, a full line that ends a sentence; under
  // it, an unindented line. Where text flows around nothing (a page printed from HTML), that
  // is two paragraphs with the figure between them. A line that stops mid-sentence goes on
  // under the figure, which then follows the paragraph.
  const std::string full = "filler text of the page set in the body size and justified to the measure";
  for (bool stop : {true, false}) {
    auto lines = filler(100, 4);
    lines.push_back({72, 148, full + (stop ? "." : ""), 10});
    lines.push_back({72, 280, stop ? "Another paragraph starts under the figure and ends here."
                                   : "goes on under the figure to the end of its sentence.", 10});
    Page p = make_page(1, lines);
    add_image(p, {150, 160, 450, 265}, 600, 210);
    auto r = layout_document(make_doc({p}));
    std::vector<BlockType> order;
    for (const auto& b : all_blocks(r))
      if (b.type == BlockType::Paragraph || b.type == BlockType::Figure) order.push_back(b.type);
    auto ps = of_type(r, BlockType::Paragraph);
    if (stop) {
      EXPECT_EQ(order, (std::vector<BlockType>{BlockType::Paragraph, BlockType::Figure, BlockType::Paragraph}));
      ASSERT_EQ(ps.size(), 2u);
      EXPECT_EQ(ps[1].text, "Another paragraph starts under the figure and ends here.");
    } else {
      EXPECT_EQ(order, (std::vector<BlockType>{BlockType::Paragraph, BlockType::Figure}));
      ASSERT_EQ(ps.size(), 1u);
      EXPECT_NE(ps[0].text.find("measure goes on under the figure"), std::string::npos) << ps[0].text;
    }
  }
}

TEST(Figures, AFigureAtopThePageAfterASentenceEndsTheParagraphOutsideTeX) {
  // Page 1 ends with a full line that ends a sentence; page 2 opens with a figure, then a
  // line at the margin. TeX's floats leave a paragraph for the next page's top, so in a TeX
  // book the text under the figure goes on with it; other typesetters set figures in the
  // flow, so there it is a new paragraph after the figure.
  const std::string full = "filler text of the page set in the body size and justified to the measure";
  for (bool tex : {true, false}) {
    auto p1 = filler(100, 4);
    p1.push_back({72, 148, full + ".", 10});
    Page p2 = make_page(2, {{72, 280, "Another paragraph starts under the figure and ends here.", 10}});
    add_image(p2, {150, 100, 450, 265}, 600, 330);
    Document d = make_doc({make_page(1, p1), p2});
    d.metadata.producer = tex ? "pdfTeX-1.40.25" : "Skia/PDF m118";
    auto r = layout_document(d);
    std::vector<BlockType> order;
    for (const auto& b : all_blocks(r))
      if (b.type == BlockType::Paragraph || b.type == BlockType::Figure) order.push_back(b.type);
    if (tex) EXPECT_EQ(order, (std::vector<BlockType>{BlockType::Paragraph, BlockType::Figure}));
    else EXPECT_EQ(order, (std::vector<BlockType>{BlockType::Paragraph, BlockType::Figure, BlockType::Paragraph}));
  }
}

TEST(Figures, AHeadingUnderTheFloatEndsTheBlockOpenAtTheBreak) {
  // Page 1 ends with a listing. Page 2 opens with a figure and its caption, then a section
  // heading, a paragraph and another listing at the same indent. The listing of page 1
  // ended at the break: a section cannot come between a block and its continuation.
  auto p1 = filler(100, 4);
  p1.push_back({90, 160, "int first(void) {", 10, true});
  p1.push_back({90, 172, "  return 1;", 10, true});
  std::vector<LineSpec> p2l = {{72, 300, "Figure 2.1: The caption under the figure.", 10},
                               {72, 330, "2.2 Another section", 12, false, true}};
  auto more = paragraph(72, 350, {"A new paragraph opens under the heading and runs to the full measure",
                                  "of the block, then ends here."});
  p2l.insert(p2l.end(), more.begin(), more.end());
  p2l.push_back({90, 390, "int second(void) {", 10, true});
  p2l.push_back({90, 402, "  return 2;", 10, true});
  Page p2 = make_page(2, p2l);
  add_image(p2, {150, 90, 450, 280}, 600, 380);
  auto r = layout_document(make_doc({make_page(1, p1), p2}));
  bool seen = false;
  for (const auto& b : all_blocks(r))
    if (b.text.find("first(void)") != std::string::npos) {
      seen = true;
      EXPECT_EQ(b.text.find("second"), std::string::npos) << b.text;
      EXPECT_EQ(b.last_page, 1) << b.text;
    }
  EXPECT_TRUE(seen);
}

// Typographic fact: a caption's lines are set as the caption is set: centred under one
// another (the last the shortest, or balanced, each set in from both edges), flush, or as a
// paragraph whose first line is indented. A short caption line that
// ends a sentence is its last, and the paragraph under it is no part of it, whether it opens
// with an indent or not.
TEST(Figures, ACaptionEndsWhereItsSettingEnds) {
  struct Case {
    const char* name;
    std::vector<LineSpec> caption_and_after;
    std::string caption;
  };
  const std::string full = "and runs on to the full measure of the text block with more words here";
  const std::vector<Case> cases = {
      {"centred, then an indented paragraph",
       {{230, 300, "Figure 1.1: How the buffer talks.", 10}, {87, 316, "The next paragraph starts " + full, 10},
        {72, 328, "and ends.", 10}},
       "Figure 1.1: How the buffer talks."},
      {"indented, then a paragraph indented alike",
       {{87, 300, "Figure 1.1: Mesh plot.", 10}, {87, 316, "The meshc function is similar to mesh " + full, 10},
        {72, 328, "surface.", 10}},
       "Figure 1.1: Mesh plot."},
      {"the label alone, centred over the text",
       {{290, 300, "Figure 1.1.", 10}, {238.3, 312, "How the buffer talks to the driver.", 10},
        {87, 330, "The next paragraph starts " + full, 10}},
       "Figure 1.1. How the buffer talks to the driver."},
      {"set as an indented paragraph",
       {{87, 300, "Figure 1.1: Example finite element model showing triangular elements and", 10},
        {72, 312, "the height of each vertex.", 10}, {87, 330, "A paragraph follows the caption.", 10}},
       "Figure 1.1: Example finite element model showing triangular elements and the height of each vertex."},
  };
  // Centred at x = 300, as ConTeXt balances a caption: its second line the wider one.
  auto centred = [](double baseline, const std::string& t) {
    return LineSpec{300 - test::make_line({0, baseline, t, 10}).bbox.width() / 2, baseline, t, 10};
  };
  std::vector<Case> all = cases;
  all.push_back({"centred and balanced, the second line wider, then a paragraph",
                 {centred(300, "Figure 1.1: Ring occupancy"), centred(312, "during a short burst of records."),
                  {87, 330, "The next paragraph starts " + full, 10}, {72, 342, "and ends.", 10}},
                 "Figure 1.1: Ring occupancy during a short burst of records."});
  for (const auto& c : all) {
    SCOPED_TRACE(c.name);
    auto lines = filler(100, 3);
    lines.insert(lines.end(), c.caption_and_after.begin(), c.caption_and_after.end());
    Page page = make_page(1, lines);
    add_image(page, {150, 150, 450, 290}, 600, 280);
    auto caps = of_type(layout_document(make_doc({page})), BlockType::Caption);
    ASSERT_EQ(caps.size(), 1u);
    EXPECT_EQ(caps[0].text, c.caption);
  }
}

TEST(Figures, CaptionRightAfterFigureAndParagraphFinishedFirst) {
  // A paragraph runs around a figure (above and below it on the page): the figure and its
  // caption stand after the paragraph, never inside its sentence.
  std::vector<LineSpec> lines = {{87, 100, "A paragraph that starts above the figure and runs to the full", 10},
                                 {72, 112, "measure of the text block; it goes on below the figure here and", 10},
                                 {72, 330, "ends below it, as described in Figure 1.1 on this page.", 10},
                                 {72, 300, "Figure 1.1: The caption of the figure.", 10}};
  auto more = paragraph(72, 354, {"Another paragraph."});
  lines.insert(lines.end(), more.begin(), more.end());
  Page page = make_page(1, lines);
  add_image(page, {150, 130, 450, 290}, 600, 320);
  auto r = layout_document(make_doc({page}));
  auto bs = all_blocks(r);
  ASSERT_GE(bs.size(), 4u);
  long fig = -1;
  for (size_t i = 0; i < bs.size(); ++i)
    if (bs[i].type == BlockType::Figure) fig = static_cast<long>(i);
  ASSERT_GE(fig, 1);
  EXPECT_EQ(bs[fig - 1].type, BlockType::Paragraph);
  EXPECT_NE(bs[fig - 1].text.find("ends below it"), std::string::npos);
  ASSERT_LT(static_cast<size_t>(fig + 1), bs.size());
  EXPECT_EQ(bs[fig + 1].type, BlockType::Caption);
  EXPECT_EQ(bs[fig + 1].text, "Figure 1.1: The caption of the figure.");
  EXPECT_EQ(bs[fig].figure_ref, "Figure 1.1");
  EXPECT_EQ(bs[fig].referenced_by, fig - 1);
}

// Typographic fact: a table sets short cells in aligned columns (flush left for words, flush
// right for numbers) a column gap apart, one row per baseline. Its text is one line per row,
// cells' words joined by one space, so every printed token is kept. Not tables: a definition
// list (two cells, the second running on as prose), a loosely justified line whose words
// stand apart, and rows too few to show columns.
struct TableCase {
  const char* name;
  std::vector<std::vector<std::pair<double, std::string>>> rows;  // cells: left x, text
  const char* table;  // expected table text, or nullptr for no table
};

TEST(Tables, AlignedShortCellsMakeATableBlock) {
  // A table's text keeps its columns: cells whose extents overlap share a column, which starts
  // two spaces after the widest cell before it; numbers set flush right stay flush right.
  const std::vector<TableCase> cases = {
      {"four columns, numbers flush right",
       {{{105, "File"}, {181, "Language"}, {234, "First line"}, {286, "Lines"}},
        {{105, "benchmark.c"}, {181, "C"}, {264, "31"}, {298, "10"}},
        {{105, "tracemalloc.py"}, {181, "Python"}, {259, "379"}, {298, "10"}},
        {{105, "appp.sh"}, {181, "Shell"}, {264, "21"}, {298, "28"}}},
       "File            Language  First line  Lines\n"
       "benchmark.c     C                 31  10\n"
       "tracemalloc.py  Python           379  10\n"
       "appp.sh         Shell             21  28"},
      {"three columns of words",
       {{{72, "Parameter"}, {200, "Default"}, {300, "Unit"}},
        {{72, "flush_interval"}, {200, "500"}, {300, "ms"}},
        {{72, "max_batch"}, {200, "4096"}, {300, "records"}}},
       "Parameter       Default  Unit\n"
       "flush_interval  500      ms\n"
       "max_batch       4096     records"},
      {"a table narrower than the measure, its header centred over flush-right numbers",
       {{{150, "Option"}, {205, "Meaning"}, {292, "Default"}},
        {{150, "width"}, {205, "longest line"}, {310, "70"}},
        {{150, "tabsize"}, {205, "spaces per tab"}, {315, "8"}},
        {{150, "max_lines"}, {205, "lines kept"}, {300, "1000"}}},
       "Option     Meaning         Default\n"
       "width      longest line         70\n"
       "tabsize    spaces per tab        8\n"
       "max_lines  lines kept         1000"},
      {"definition list: two cells per row",
       {{{72, "x"}, {150, "a numeric vector"}}, {{72, "y"}, {150, "another vector"}}, {{72, "z"}, {150, "a third one"}}},
       nullptr},
      {"two rows only",
       {{{72, "Parameter"}, {200, "Default"}, {300, "Unit"}}, {{72, "flush_interval"}, {200, "500"}, {300, "ms"}}},
       nullptr},
  };
  for (const auto& c : cases) {
    std::vector<LineSpec> l = filler(100, 4);
    double baseline = 180;
    for (const auto& row : c.rows) {
      for (const auto& [x, text] : row) {
        l.push_back({x, baseline, text});
      }
      baseline += 12;
    }
    auto tail = filler(baseline + 20, 3);
    l.insert(l.end(), tail.begin(), tail.end());
    auto r = layout_document(make_doc({make_page(1, l)}));
    auto tables = of_type(r, BlockType::Table);
    if (c.table) {
      ASSERT_EQ(tables.size(), 1u) << c.name;
      EXPECT_EQ(tables[0].text, c.table) << c.name;
    } else {
      EXPECT_TRUE(tables.empty()) << c.name;
    }
  }
}

TEST(Tables, ADescriptionWrappedInItsColumnStaysInTheTable) {
  // An options table: a name, a description that runs to more words than a value and wraps
  // onto lines of its own in its column, a version flush left. The wrapped lines are the
  // table's, in their cell; the paragraph after the table is not.
  std::vector<LineSpec> l = filler(100, 4);
  const std::vector<std::vector<std::pair<double, std::string>>> rows = {
      {{72, "Name"}, {120, "Description"}, {420, "Since"}},
      {{72, "fill"}, {120, "Unless required by applicable law or agreed to in writing,"}, {420, "2.3"}},
      {{120, "software is distributed as is"}},
      {{72, "indent"}, {120, "Copyright (C) 1989, 1991 Free Software Foundation, Inc."}, {420, "3.1"}},
      {{120, "Everyone is permitted to copy"}},
      {{72, "shorten"}, {120, "A short description"}, {420, "3.4"}}};
  double baseline = 180;
  for (const auto& row : rows) {
    for (const auto& [x, text] : row) l.push_back({x, baseline, text});
    baseline += 12;
  }
  auto tail = filler(baseline + 20, 3);
  l.insert(l.end(), tail.begin(), tail.end());
  auto r = layout_document(make_doc({make_page(1, l)}));
  auto tables = of_type(r, BlockType::Table);
  ASSERT_EQ(tables.size(), 1u);
  const std::string& t = tables[0].text;
  // A row per printed row: the wrapped description is one cell.
  EXPECT_EQ(std::count(t.begin(), t.end(), '\n'), 3) << t;
  EXPECT_NE(t.find("\nfill     Unless required by applicable law or agreed to in writing, software is distributed as is  2.3\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("shorten  A short description"), std::string::npos) << t;
  for (const auto& p : of_type(r, BlockType::Paragraph)) EXPECT_EQ(p.text.find("software is"), std::string::npos) << p.text;
}

// Typographic fact: a narrow, loosely justified line may be stretched until every word
// stands apart by more than a column gap; its lines fill the measure and are prose.
TEST(Tables, LooselyJustifiedProseIsNotATable) {
  // Words of the same letters on each line, so the stretched words line up from line to line
  // as a table's columns would. Set in from the measure's left edge (a paragraph's first
  // line, a note's), the first piece may hold two words: the gaps are still all alike.
  for (const bool indented : {false, true}) {
    SCOPED_TRACE(indented ? "indented, two words in the first piece" : "flush, a word a piece");
    std::vector<LineSpec> l = filler(100, 4);
    double right = 0;  // the measure's right edge: the filler's longest line
    for (const auto& f : l) right = std::max(right, test::make_line(f).bbox.x1);
    std::vector<std::vector<std::string>> lines = {{"The", "stale", "tales", "were", "least", "read."},
                                                   {"Eth", "steal", "slate", "ewer", "tesla", "dare."},
                                                   {"The", "least", "steal", "were", "tales", "dear."}};
    if (indented)
      for (auto& words : lines) {
        words.front() += " " + words[1];
        words.erase(words.begin() + 1);
        words.push_back("aloud");
        words.push_back("again");
      }
    double baseline = 180;
    for (const auto& words : lines) {
      const double left = indented ? 72 + 15 : 72;
      double width = 0;
      for (const auto& w : words) width += test::make_line({0, baseline, w}).bbox.x1;
      double gap = (right - left - width) / static_cast<double>(words.size() - 1);
      double x = left;
      for (const auto& w : words) {
        l.push_back({x, baseline, w});
        x = test::make_line({x, baseline, w}).bbox.x1 + gap;
      }
      baseline += 12;
    }
    auto r = layout_document(make_doc({make_page(1, l)}));
    EXPECT_TRUE(of_type(r, BlockType::Table).empty());
    auto all = all_blocks(r);
    std::string text;
    for (const auto& b : all) text += b.text + "\n";
    EXPECT_NE(text.find(indented ? "The stale tales were least read. aloud again" : "The stale tales were least read. Eth steal"),
              std::string::npos)
        << text;
  }
}

TEST(Chapters, TheOpenerLabelNumbersAChapterItsBookmarkDoesNot) {
  // Sphinx's manuals bookmark "Getting Started" and print "CHAPTER" over "ONE" over the
  // title (here in lower case: capitals of the test's font would be a monospace grid): the chapter is number 1, a body chapter, as the label says; the label is the
  // heading's, not its text.
  // (As Sphinx sets them, right-aligned: the word in bold at the body size, the number and
  // the title larger.)
  std::vector<LineSpec> p1 = {{492, 100, "Chapter", 10, false, true}, {509, 124, "One", 14.35, false, true},
                              {405, 150, "GETTING STARTED", 14.35, false, true}};
  auto body1 = paragraph(72, 230, {"Chapter one text."});
  p1.insert(p1.end(), body1.begin(), body1.end());
  std::vector<LineSpec> p2 = {{492, 100, "Chapter", 10, false, true}, {509, 124, "Two", 14.35, false, true},
                              {435, 150, "SHELL LEXING", 14.35, false, true}};
  auto body2 = paragraph(72, 230, {"Chapter two text."});
  p2.insert(p2.end(), body2.begin(), body2.end());
  Document d = make_doc({make_page(1, p1), make_page(2, p2)});
  d.outline = {{"Getting Started", 1, 1, 90}, {"Shell Lexing", 1, 2, 90}};
  auto r = layout_document(d);
  ASSERT_EQ(r.chapters.size(), 2u);
  EXPECT_EQ(r.chapters[0].number, "1");
  EXPECT_EQ(r.chapters[0].kind, ChapterKind::Body);
  EXPECT_EQ(r.chapters[1].number, "2");
  ASSERT_FALSE(r.chapters[1].blocks.empty());
  EXPECT_EQ(r.chapters[1].blocks.front().text, "SHELL LEXING");
  EXPECT_EQ(r.chapters[1].blocks.front().labels, std::vector<std::string>{"Chapter Two"});
}

TEST(Chapters, FromOutlineWithNumbersKindsAndMidPageStart) {
  // Outline entries at the top level are chapters; a chapter starting mid-page splits it.
  auto p1 = paragraph(72, 100, {"Preface text of the book."});
  std::vector<LineSpec> p2 = {{72, 100, "1 Getting started", 16, false, true}};
  auto body = paragraph(72, 130, {"Chapter one text."});
  p2.insert(p2.end(), body.begin(), body.end());
  p2.push_back({72, 300, "Appendix A Tables", 16, false, true});
  auto tail = paragraph(72, 330, {"Appendix text."});
  p2.insert(p2.end(), tail.begin(), tail.end());
  Document d = make_doc({make_page(1, p1), make_page(2, p2)});
  d.outline = {{"Preface", 1, 1, 80}, {"1 Getting started", 1, 2, 85}, {"Appendix A Tables", 1, 2, 285}};
  auto r = layout_document(d);
  ASSERT_EQ(r.chapters.size(), 3u);
  EXPECT_EQ(r.chapters[0].title, "Preface");
  EXPECT_EQ(r.chapters[0].kind, ChapterKind::Front);
  EXPECT_EQ(r.chapters[1].title, "Getting started");
  EXPECT_EQ(r.chapters[1].number, "1");
  EXPECT_EQ(r.chapters[1].kind, ChapterKind::Body);
  EXPECT_EQ(r.chapters[2].title, "Tables");
  EXPECT_EQ(r.chapters[2].number, "A");
  EXPECT_EQ(r.chapters[2].kind, ChapterKind::Appendix);
  ASSERT_FALSE(r.chapters[2].blocks.empty());
  EXPECT_EQ(r.chapters[2].blocks.front().type, BlockType::Heading);
  EXPECT_EQ(r.chapters[2].blocks.front().level, 1);
  EXPECT_EQ(r.chapters[1].blocks.back().text, "Chapter one text.");
}

TEST(Chapters, AnEntryThatLostTheSpaceOfItsTitlesLineBreakNamesTheChapterAsPrinted) {
  // A browser's outline is made from the headings' text, and where a heading's line broke
  // the space can be lost: "the Valgrindcore" for "the Valgrind / core". The chapter is named
  // by the title printed atop it; an entry that differs in more than spaces keeps its own.
  std::vector<LineSpec> p1 = {{72, 80, "3. Using the Valgrind", 16, false, true}, {72, 100, "core: Advanced Topics", 16, false, true}};
  auto body = paragraph(72, 140, {"This chapter describes the core.", "More text."});
  p1.insert(p1.end(), body.begin(), body.end());
  // A title set letterspaced on one line reads with spaces between its letters: the entry
  // names it.
  Document d = make_doc({make_page(1, p1), chapter_page(2, "4. Memcheck", "Memcheck"),
                         chapter_page(3, "5. L e t t e r s", "Letters")});
  d.outline = {{"3. Using the Valgrindcore: Advanced Topics", 1, 1, 75},
               {"4. Memcheck tool", 1, 2, 75},
               {"5. Letters", 1, 3, 75}};
  auto r = layout_document(d);
  ASSERT_EQ(r.chapters.size(), 3u);
  EXPECT_EQ(r.chapters[0].title, "Using the Valgrind core: Advanced Topics");
  EXPECT_EQ(r.chapters[0].number, "3");
  EXPECT_EQ(r.chapters[1].title, "Memcheck tool");
  EXPECT_EQ(r.chapters[2].title, "Letters");
}

TEST(Chapters, AnEntryThatNamesItsPageOnlyOpensAtItsHeading) {
  // Destinations that name a page and no place on it (a /Fit view): two chapters open on
  // page 2, and the second opens under the first one's end. Each opens at the heading that
  // prints its title, its number before it. A slide's title set right above the heading
  // opens with it; on a page where the order of the headings found is not the outline's,
  // the chapters open at the top of the page, as before.
  auto p1 = paragraph(72, 100, {"Preface text of the book."});
  std::vector<LineSpec> p2 = {{72, 100, "1 Getting started", 16, false, true}};
  auto body = paragraph(72, 130, {"Chapter one text."});
  p2.insert(p2.end(), body.begin(), body.end());
  p2.push_back({72, 300, "2 Going further", 16, false, true});
  auto tail = paragraph(72, 330, {"Chapter two text."});
  p2.insert(p2.end(), tail.begin(), tail.end());
  auto more = paragraph(72, 100, {"The end of chapter two, at the top of its page."});
  std::vector<LineSpec> p3 = more;
  p3.push_back({72, 200, "Running the Tool", 20, false, true});
  p3.push_back({72, 240, "3 Options", 16, false, true});
  auto three = paragraph(72, 270, {"Chapter three text."});
  p3.insert(p3.end(), three.begin(), three.end());
  Document d = make_doc({make_page(1, p1), make_page(2, p2), make_page(3, p3)});
  d.outline = {{"Preface", 1, 1, -1}, {"Getting started", 1, 2, -1}, {"Going further", 1, 2, -1}, {"Options", 1, 3, -1}};
  auto r = layout_document(d);
  ASSERT_EQ(r.chapters.size(), 4u);
  EXPECT_EQ(r.chapters[1].title, "Getting started");
  ASSERT_FALSE(r.chapters[1].blocks.empty());
  EXPECT_EQ(r.chapters[1].blocks.back().text, "Chapter one text.");
  ASSERT_FALSE(r.chapters[2].blocks.empty());
  EXPECT_EQ(r.chapters[2].blocks.front().text, "2 Going further");
  EXPECT_NE(r.chapters[2].blocks.back().text.find("The end of chapter two, at the top of its page."), std::string::npos);
  ASSERT_FALSE(r.chapters[3].blocks.empty());
  EXPECT_EQ(r.chapters[3].blocks.front().text, "Running the Tool");
  EXPECT_EQ(r.chapters[3].blocks.back().text, "Chapter three text.");

  // Out of order: "Going further" is found above "Getting started" on page 2. Both open at
  // the top of the page, the later entry taking it.
  d.outline = {{"Preface", 1, 1, -1}, {"Going further", 1, 2, -1}, {"Getting started", 1, 2, -1}, {"Options", 1, 3, -1}};
  auto swapped = layout_document(d);
  ASSERT_EQ(swapped.chapters.size(), 4u);
  EXPECT_TRUE(swapped.chapters[1].blocks.empty() || swapped.chapters[1].blocks.front().text != "2 Going further");
  ASSERT_FALSE(swapped.chapters[2].blocks.empty());
  EXPECT_EQ(swapped.chapters[2].blocks.front().text, "1 Getting started");
}

TEST(Chapters, TheLineAnEntryPointsAtPrintingItsTitleIsTheChaptersHeading) {
  // A book that sets its titles in the body's size and weight tells them from its text by
  // the outline alone: the line the entry points at prints its title. A line that prints
  // other words there stays text.
  auto chapter = [](int n, const std::string& title, const std::string& text) {
    std::vector<LineSpec> l = {{72, 100, title, 10}};
    auto body = paragraph(72, 125, {text + " is the body text of this chapter and goes on.", "More text follows."});
    l.insert(l.end(), body.begin(), body.end());
    return make_page(n, l);
  };
  Document d = make_doc({chapter(1, "Introduction", "Introduction"), chapter(2, "2 Using anchors", "Anchors")});
  d.outline = {{"Introduction", 1, 1, 88}, {"Using anchors", 1, 2, 88}};
  auto r = layout_document(d);
  ASSERT_EQ(r.chapters.size(), 2u);
  for (const auto& c : r.chapters) {
    ASSERT_FALSE(c.blocks.empty());
    EXPECT_EQ(c.blocks.front().type, BlockType::Heading) << c.title;
    EXPECT_EQ(c.blocks.front().level, 1) << c.title;
  }
  EXPECT_EQ(r.chapters[1].blocks.front().text, "2 Using anchors");

  d.outline = {{"Overview", 1, 1, 88}, {"Anchors in use", 1, 2, 88}};
  auto other = layout_document(d);
  ASSERT_EQ(other.chapters.size(), 2u);
  for (const auto& c : other.chapters) {
    ASSERT_FALSE(c.blocks.empty());
    EXPECT_EQ(c.blocks.front().type, BlockType::Paragraph) << c.title;
  }
}

TEST(Chapters, AParagraphAnEntryBelowTheChapterPointsAtPrintingItsTitleIsAHeading) {
  // A section heading set in the body's size, part of it in another face ("5.9.2.1
  // Removing packages from" in bold sans, "Incoming" in bold typewriter), is a heading
  // because the outline's entry for it points at it and it prints the entry's title after
  // its number. The same words elsewhere on the page, or at the place of an entry with
  // another title, stay text.
  std::vector<LineSpec> l = {{72, 100, "5 Managing packages", 16, false, true}};
  auto body = paragraph(72, 125, {"Packages come and go, and this chapter says how they are handled.", "More text follows."});
  l.insert(l.end(), body.begin(), body.end());
  l.push_back({72, 170, "5.9.2.1 Removing packages from", 10, false, true});
  l.push_back({230, 170, "Incoming", 10, true, false});  // (bold by its face, not by its font's flag)
  auto more = paragraph(72, 190, {"In the past it was possible to remove packages from the queue, but no longer.", "It ends here."});
  l.insert(l.end(), more.begin(), more.end());
  l.push_back({72, 235, "Removing packages from Incoming", 10});
  auto last = paragraph(72, 255, {"The words above, set as text, are no heading of the outline's.", "The end."});
  l.insert(l.end(), last.begin(), last.end());
  Document d = make_doc({make_page(1, l)});
  auto heading_of = [](const LayoutResult& r, const std::string& text) -> const Block* {
    for (const auto& c : r.chapters)
      for (const auto& b : c.blocks)
        if (b.text == text) return &b;
    return nullptr;
  };
  d.outline = {{"Managing packages", 1, 1, 88}, {"Removing packages from Incoming", 4, 1, 158}};
  auto r = layout_document(d);
  const Block* h = heading_of(r, "5.9.2.1 Removing packages from Incoming");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->type, BlockType::Heading);
  EXPECT_EQ(h->level, 4);
  const Block* text = heading_of(r, "Removing packages from Incoming");
  ASSERT_NE(text, nullptr);
  EXPECT_EQ(text->type, BlockType::Paragraph);

  // The entry points lower, at the words set as text: that line is the heading it names.
  d.outline[1].y = 223;
  auto lower = layout_document(d);
  const Block* numbered = heading_of(lower, "5.9.2.1 Removing packages from Incoming");
  ASSERT_NE(numbered, nullptr);
  EXPECT_EQ(numbered->type, BlockType::Paragraph);
  const Block* named = heading_of(lower, "Removing packages from Incoming");
  ASSERT_NE(named, nullptr);
  EXPECT_EQ(named->type, BlockType::Heading);

  // An entry with another title at the place names no heading there.
  d.outline[1] = {"Removing uploads", 4, 1, 158};
  auto other = layout_document(d);
  const Block* plain = heading_of(other, "5.9.2.1 Removing packages from Incoming");
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(plain->type, BlockType::Paragraph);
}

TEST(Chapters, ATitlePageTheOutlineNamesByTheBooksTitleIsLeftOut) {
  // Asciidoctor PDF and DocBook bookmark the title page with the book's title. That page
  // (the first, or the first two with the verso, with little prose) is title matter; a
  // first entry with another name, as the preface above, stays a chapter. DocBook ties a
  // chapter's label to its number and title with no-break spaces.
  std::vector<LineSpec> p1 = {{150, 300, "Practical Systems Notes", 24, false, true}, {250, 340, "A. Writer", 12}};
  std::vector<LineSpec> p2 = {{72, 100, "Practical Systems Notes", 14}, {72, 120, "A. Writer", 10}};
  std::vector<LineSpec> p3 = {{72, 100, "Chapter 1. Getting Started", 16, false, true}};
  auto body = paragraph(72, 130, {"Chapter one text."});
  p3.insert(p3.end(), body.begin(), body.end());
  Document d = make_doc({make_page(1, p1), make_page(2, p2), make_page(3, p3)});
  d.metadata.title = "Practical Systems Notes";
  d.outline = {{"Practical Systems Notes", 1, 1, 0}, {"Chapter\u00a01.\u00a0Getting Started", 1, 3, 85}};
  auto r = layout_document(d);
  ASSERT_EQ(r.chapters.size(), 1u);
  EXPECT_EQ(r.chapters[0].title, "Getting Started");
  EXPECT_EQ(r.chapters[0].number, "1");
  ASSERT_EQ(r.excluded.size(), 1u);
  EXPECT_EQ(r.excluded[0].kind, "title-page");
  EXPECT_EQ(r.excluded[0].first_page, 1);
  EXPECT_EQ(r.excluded[0].last_page, 2);

  d.metadata.title = "Another Title";
  auto s = layout_document(d);
  ASSERT_EQ(s.chapters.size(), 2u);
  EXPECT_EQ(s.chapters[0].title, "Practical Systems Notes");
}

TEST(Chapters, APageOfAListingBeforeTheFirstChapterIsTextNotTheTitlePage) {
  // An API reference printed from the web: its first page has the title, one line of prose
  // and the synopsis, a listing of declarations; the first chapter's entry opens on page 2.
  // A title page holds a few lines, never a page of a listing: the synopsis is the book's
  // text. With the listing cut to a few lines, the page is a title page as before.
  auto build = [](size_t declarations) {
    std::vector<LineSpec> p1 = {{72, 80, "libfoo Reference Manual", 20, false, true},
                                {72, 110, "Internal structures of the engine.", 10}};
    for (size_t k = 0; k < declarations; ++k)
      p1.push_back({72, 140 + 12.0 * static_cast<double>(k), "typedef struct _fooItem" + std::to_string(k) + " fooItem" +
                                                              std::to_string(k) + ";", 10, true});
    std::vector<LineSpec> p2 = {{72, 100, "Description", 16, false, true}};
    auto body = paragraph(72, 130, {"The engine keeps its items in a list."});
    p2.insert(p2.end(), body.begin(), body.end());
    Document d = make_doc({make_page(1, p1), make_page(2, p2)});
    d.outline = {{"Description", 1, 2, 85}};
    return layout_document(d);
  };
  auto r = build(30);  // 120 words of declarations
  ASSERT_EQ(r.chapters.size(), 2u);
  EXPECT_EQ(r.chapters[0].kind, ChapterKind::Front);
  EXPECT_EQ(r.chapters[0].first_page, 1);
  const bool listed = std::any_of(r.chapters[0].blocks.begin(), r.chapters[0].blocks.end(), [](const Block& b) {
    return b.type == BlockType::Code && b.text.find("typedef struct _fooItem29 fooItem29;") != std::string::npos;
  });
  EXPECT_TRUE(listed);
  EXPECT_TRUE(r.excluded.empty());
  EXPECT_EQ(r.chapters[1].title, "Description");

  auto few = build(2);  // 8 words: a title page
  ASSERT_EQ(few.chapters.size(), 1u);
  EXPECT_EQ(few.chapters[0].title, "Description");
  ASSERT_EQ(few.excluded.size(), 1u);
  EXPECT_EQ(few.excluded[0].kind, "title-page");
}

TEST(Chapters, AFirstEntryNamedByTheBooksTitleOverAPageOfTextIsAChapter) {
  // A page printed from the web: its heading is the document's title and the outline's first
  // entry, over the article's opening paragraphs; its sections are the next entries. A title
  // page holds little text: this one is the article's first chapter. (The words are those of
  // the chapter's own blocks, which the chapter holds by then.)
  std::vector<LineSpec> p1 = {{72, 80, "Practical Systems Notes", 20, false, true}};
  auto intro = filler(120, 6);
  p1.insert(p1.end(), intro.begin(), intro.end());
  std::vector<LineSpec> p2 = {{72, 80, "1 Getting Started", 16, false, true}};
  auto body = filler(120, 6);
  p2.insert(p2.end(), body.begin(), body.end());
  Document d = make_doc({make_page(1, p1), make_page(2, p2)});
  d.metadata.title = "Practical Systems Notes";
  d.outline = {{"Practical Systems Notes", 1, 1, 65}, {"1 Getting Started", 1, 2, 65}};
  auto r = layout_document(d);
  EXPECT_TRUE(r.excluded.empty());
  ASSERT_EQ(r.chapters.size(), 2u);
  EXPECT_EQ(r.chapters[0].title, "Practical Systems Notes");
  EXPECT_EQ(r.chapters[0].first_page, 1);
}

TEST(Chapters, TheOutlinesOnlyEntryNamedByTheBooksTitleIsTheBookNotItsTitlePage) {
  // A page printed from the web: its heading is the document's title and the outline's only
  // entry, over a short list of references. It is the book, not a title page before it.
  std::vector<LineSpec> p1 = {{72, 80, "References", 20, false, true}};
  auto refs = paragraph(72, 120, {"GNOME The GNOME desktop.", "KDE The KDE desktop."}, 10, false);
  p1.insert(p1.end(), refs.begin(), refs.end());
  Document d = make_doc({make_page(1, p1)});
  d.metadata.title = "References";
  d.outline = {{"References", 1, 1, 65}};
  auto r = layout_document(d);
  ASSERT_EQ(r.chapters.size(), 1u);
  EXPECT_EQ(r.chapters[0].title, "References");
  EXPECT_TRUE(r.excluded.empty());
  ASSERT_FALSE(r.chapters[0].blocks.empty());
  EXPECT_NE(r.chapters[0].blocks.back().text.find("KDE"), std::string::npos);
}

TEST(Chapters, PartsKnownFromWhereTheirEntriesOpenNotFromTheirTitles) {
  // An outline whose top level mixes chapters ("Introduction", "Bibliography") and parts
  // with plain titles ("Using the Tool"). Chapter anchors share one height at the top of a
  // page; the part's own anchor sits lower on its part page, and its level-2 entries open
  // at the chapter height on pages after it: they are the chapters.
  Document d = make_doc({chapter_page(1, "Introduction", "Introduction", 100),
                         make_page(2, {{200, 300, "Using the Tool", 20, false, true}}),
                         chapter_page(3, "Installing", "Installing", 100), chapter_page(4, "Configuring", "Configuring", 100),
                         chapter_page(5, "Bibliography", "Bibliography", 100)});
  d.outline = {{"Introduction", 1, 1, 41.5},   {"Preliminaries", 2, 1, 180},  {"Using the Tool", 1, 2, 111},
               {"Installing", 2, 3, 41.5},     {"From a package", 3, 3, 200}, {"Configuring", 2, 4, 41.5},
               {"Bibliography", 1, 5, 41.5}};
  auto r = layout_document(d);
  std::vector<std::string> titles;
  for (const auto& c : r.chapters) titles.push_back(c.title);
  EXPECT_EQ(titles, (std::vector<std::string>{"Introduction", "Installing", "Configuring", "Bibliography"}));
  // The part page goes to the chapter after it.
  ASSERT_EQ(r.chapters.size(), 4u);
  EXPECT_EQ(r.chapters[1].first_page, 2);

  // Without anchor heights nothing tells a part: the top level stays the chapters.
  for (auto& e : d.outline) e.y = -1;
  auto plain = layout_document(d);
  titles.clear();
  for (const auto& c : plain.chapters) titles.push_back(c.title);
  EXPECT_EQ(titles, (std::vector<std::string>{"Introduction", "Using the Tool", "Bibliography"}));
}

TEST(Chapters, ABookOfASetIsAPartItsOwnContentsAreLeftOutAndItsChaptersOpenOnTheirPages) {
  // A DocBook set printed by FOP: the outline's top level names the set's books, the level
  // below their chapters, numbered with a no-break space after the number ("1.\u00a0Start").
  // Those numbers make the books parts. A book opens with its own table of contents, which
  // assign gives to the chapter after it: those pages are left out as contents, and the
  // first chapter opens on its own page instead of being read (and left out) as a list.
  std::vector<LineSpec> toc = {{72, 80, "User Manual", 20, false, true}};
  for (int i = 0; i < 8; ++i)
    toc.push_back({72, 120.0 + 12 * i, "Section " + std::to_string(i + 1) + " . . . . . . . . . . " + std::to_string(3 + i), 10});
  const std::string nbsp = "\u00a0";
  Document d = make_doc({chapter_page(1, "Quick Start", "Quick start"), make_page(2, toc),
                         chapter_page(3, "1." + nbsp + "Introduction", "Introduction"),
                         chapter_page(4, "2." + nbsp + "Using the core", "Using")});
  d.outline = {{"Quick Start", 1, 1, 70},
               {"User Manual", 1, 2, 70},
               {"1." + nbsp + "Introduction", 2, 3, 70},
               {"2." + nbsp + "Using the core", 2, 4, 70}};
  auto r = layout_document(d);
  std::vector<std::string> titles;
  for (const auto& c : r.chapters) titles.push_back(c.title);
  EXPECT_EQ(titles, (std::vector<std::string>{"Quick Start", "Introduction", "Using the core"}));
  ASSERT_EQ(r.chapters.size(), 3u);
  EXPECT_EQ(r.chapters[1].number, "1");
  EXPECT_EQ(r.chapters[1].first_page, 3);
  ASSERT_EQ(r.excluded.size(), 1u);
  EXPECT_EQ(r.excluded[0].kind, "contents");
  EXPECT_EQ(r.excluded[0].first_page, 2);
  EXPECT_EQ(r.excluded[0].last_page, 2);
}

TEST(Chapters, ASectionPushedToThePageTopOfADocumentThatRunsOnOpensNoChapter) {
  // A manual page printed by groff: its section headings, all in one size, run on inside
  // the pages, more of them than pages. One that a full page pushed to the top of the next
  // is a section like the others, not a chapter; the document's first heading names it. A
  // heading after a page that ends short (a page break) does open a chapter.
  auto doc = [](bool page_break) {
    std::vector<Page> pages;
    int section = 0;
    for (int n = 1; n <= 3; ++n) {
      std::vector<LineSpec> l;
      double y = 100;
      const int sections_here = n == 3 ? 2 : 3;
      for (int k = 0; k < sections_here; ++k) {
        l.push_back({72, y, "SECTION " + std::to_string(++section), 12, false, true});
        const int lines = n == 2 && k == sections_here - 1 && page_break ? 2 : 12;
        auto body = filler(y + 14, lines);
        l.insert(l.end(), body.begin(), body.end());
        y += 14 + 12.0 * lines + 14;
      }
      pages.push_back(make_page(n, l));
    }
    return make_doc(pages);
  };
  auto r = layout_document(doc(false));
  ASSERT_EQ(r.chapters.size(), 1u);
  EXPECT_EQ(r.chapters[0].title, "SECTION 1");
  EXPECT_EQ(r.chapters[0].last_page, 3);
  auto broken = layout_document(doc(true));
  std::vector<std::string> titles;
  for (const auto& c : broken.chapters) titles.push_back(c.title);
  EXPECT_EQ(titles, (std::vector<std::string>{"SECTION 1", "SECTION 7"}));
}

TEST(Chapters, FromHeadingsWithoutOutline) {
  // "Chapter N" headings set large at the top of a page open chapters.
  std::vector<Page> pages;
  for (int c = 1; c <= 2; ++c) {
    std::vector<LineSpec> l = {{72, 100, "Chapter " + std::to_string(c) + " Topic " + std::to_string(c), 20, false, true}};
    auto body = paragraph(72, 140, {"Body text of this chapter goes here and on.", "More text."});
    l.insert(l.end(), body.begin(), body.end());
    pages.push_back(make_page(c, l));
  }
  auto r = layout_document(make_doc(pages));
  ASSERT_EQ(r.chapters.size(), 2u);
  EXPECT_EQ(r.chapters[0].number, "1");
  EXPECT_EQ(r.chapters[0].title, "Topic 1");
  EXPECT_EQ(r.chapters[1].first_page, 2);
}

TEST(Chapters, AnOutlineOfSectionsAloneLeavesChaptersToTheHeadings) {
  // The outline holds only the sections ("1.1 ...", "2.1 ..."), none of the chapters that
  // hold them (a word processor's export from HTML): the chapters come from the headings.
  // An outline with the chapter level still decides.
  for (bool chapters_in_outline : {false, true}) {
    std::vector<Page> pages;
    Document d;
    for (int c = 1; c <= 2; ++c) {
      std::vector<LineSpec> l = {{72, 100, "Chapter " + std::to_string(c) + " Topic " + std::to_string(c), 20, false, true},
                                 {72, 140, std::to_string(c) + ".1 First section", 12, false, true}};
      auto body = paragraph(72, 170, {"Body text of this section goes here and on.", "More text."});
      l.insert(l.end(), body.begin(), body.end());
      l.push_back({72, 230, std::to_string(c) + ".2 Second section", 12, false, true});
      auto more = paragraph(72, 260, {"More body text of the second section here.", "The end."});
      l.insert(l.end(), more.begin(), more.end());
      pages.push_back(make_page(c, l));
    }
    d = make_doc(pages);
    for (int c = 1; c <= 2; ++c) {
      if (chapters_in_outline) d.outline.push_back({"Chapter " + std::to_string(c) + " Topic " + std::to_string(c), 1, c, 85});
      const int level = chapters_in_outline ? 2 : 1;
      d.outline.push_back({std::to_string(c) + ".1 First section", level, c, 128});
      d.outline.push_back({std::to_string(c) + ".2 Second section", level, c, 218});
    }
    auto r = layout_document(d);
    ASSERT_EQ(r.chapters.size(), 2u) << chapters_in_outline;
    EXPECT_EQ(r.chapters[0].title, "Topic 1") << chapters_in_outline;
    EXPECT_EQ(r.chapters[1].title, "Topic 2") << chapters_in_outline;
    EXPECT_EQ(r.chapters[1].first_page, 2) << chapters_in_outline;
  }
}

// Typographic fact: a chapter opener often prints a label ("Chapter 1", "CHAPTER 3.",
// "Appendix A") above or before the title, set apart or in another size; the label is not
// part of the title, so it goes to the heading's labels, whole tokens, and the title heading
// keeps the rest. A number alone ("1 Start") is the usual numbered title and stays as is, and
// a title that merely begins with the word ("Chapter and Verse") has no label.
struct OpenerCase {
  const char* name;
  std::vector<LineSpec> opener;  // heading rows at the top of the chapter's page
  const char* outline;           // the chapter's bookmark
  const char* text;              // expected first heading text
  std::vector<std::string> labels;
};

// Typographic fact: a document printed from a web page runs on from chapter to chapter
// without page breaks, so its chapter titles (the largest recurring headings) stand inside
// their pages; a book's open its pages. Without an outline, the former still open chapters.
TEST(Chapters, FromHeadingsInsideThePagesOfADocumentThatRunsOn) {
  std::vector<Page> pages;
  const char* titles[] = {"1 Introduction", "2 Reading data", "3 Writing data"};
  for (int p = 1; p <= 3; ++p) {
    std::vector<LineSpec> l = paragraph(72, 80, {"Text that runs on from the page before and fills the top of", "this page."}, 10, false);
    l.push_back({72, 130, titles[p - 1], 15, false, true});
    auto body = filler(160, 30);  // a page of prose: no title page
    l.insert(l.end(), body.begin(), body.end());
    pages.push_back(make_page(p, l));
  }
  auto r = layout_document(make_doc(pages));
  ASSERT_EQ(r.chapters.size(), 3u);  // one chapter per title (the few words above the first: a title page)
  EXPECT_EQ(r.chapters[0].title, "Introduction");
  EXPECT_EQ(r.chapters[0].number, "1");
  EXPECT_EQ(r.chapters[2].title, "Writing data");
  EXPECT_EQ(r.chapters[2].first_page, 3);
  // The same titles at the tops of their pages, with a large section heading set inside a
  // page of each chapter: only the titles open chapters.
  std::vector<Page> book;
  for (int p = 1; p <= 6; ++p) {
    std::vector<LineSpec> l;
    if (p % 2 == 1) l.push_back({72, 80, titles[p / 2], 15, false, true});
    auto body = filler(110, 30);
    l.insert(l.end(), body.begin(), body.end());
    if (p % 2 == 0) l.push_back({72, 160, "A section set as large as a title", 15, false, true});
    book.push_back(make_page(p, l));
  }
  auto b = layout_document(make_doc(book));
  ASSERT_EQ(b.chapters.size(), 3u);
  EXPECT_EQ(b.chapters[2].title, "Writing data");
  // A printed manual that sets its title twice, larger, on its first two pages (over the
  // title page and over its first node): the chapters are still its titles' size.
  std::vector<Page> manual;
  for (int p = 1; p <= 4; ++p) {
    std::vector<LineSpec> l = paragraph(72, 80, {"Text that runs on from the page before and fills the top of", "this page."}, 10, false);
    if (p <= 2) {
      l.push_back({72, 110, "The Data Manual", 20, false, true});
      auto note = paragraph(72, 140, {"This manual is for version 1.0 of the program."});
      l.insert(l.end(), note.begin(), note.end());
    }
    if (p >= 2) l.push_back({72, 170, titles[p - 2], 15, false, true});
    auto body = filler(200, 30);
    l.insert(l.end(), body.begin(), body.end());
    manual.push_back(make_page(p, l));
  }
  auto m = layout_document(make_doc(manual));
  ASSERT_GE(m.chapters.size(), 3u);
  EXPECT_EQ(m.chapters[m.chapters.size() - 3].title, "Introduction");
  EXPECT_EQ(m.chapters.back().title, "Writing data");
}

TEST(Chapters, OpenerLabelKeptApartFromTheTitle) {
  const std::vector<OpenerCase> cases = {
      {"label and title as two rows of one heading",
       {{72, 80, "Chapter 1", 16, false, true}, {72, 104, "External services", 20, false, true}},
       "Chapter 1 External services", "External services", {"Chapter 1"}},
      {"capitals with a full stop, on one row", {{72, 80, "CHAPTER 3. Tables and Lists", 20, false, true}},
       "3 Tables and Lists", "Tables and Lists", {"CHAPTER 3."}},
      {"label far above the title: two headings",
       {{72, 60, "Appendix A", 14, false, true}, {72, 140, "Glossary of Terms", 20, false, true}}, "Appendix A Glossary of Terms",
       "Glossary of Terms", {"Appendix A"}},
      {"word over a number spelled out over the title, flush right (Sphinx's default)",
       {{490, 100, "Chapter", 10, false, true}, {508, 124, "One", 14.3, false, true},
        {300, 178, "Getting Started with Queues", 14.3, false, true}},
       "1 Getting Started with Queues", "Getting Started with Queues", {"Chapter One"}},
      {"number alone is the title's own", {{72, 80, "1 Getting Started", 20, false, true}}, "1 Getting Started",
       "1 Getting Started", {}},
      {"title beginning with the word", {{72, 80, "Chapter and Verse", 20, false, true}}, "Chapter and Verse",
       "Chapter and Verse", {}},
  };
  for (const auto& c : cases) {
    std::vector<LineSpec> l = c.opener;
    auto body = paragraph(72, 200, {"Body text of this chapter goes here and on to the end of the line.", "More text."});
    l.insert(l.end(), body.begin(), body.end());
    Document d = make_doc({make_page(1, l)});
    d.outline = {{c.outline, 1, 1, 50}};
    auto r = layout_document(d);
    ASSERT_EQ(r.chapters.size(), 1u) << c.name;
    ASSERT_FALSE(r.chapters[0].blocks.empty()) << c.name;
    const Block& h = r.chapters[0].blocks.front();
    EXPECT_EQ(h.type, BlockType::Heading) << c.name;
    EXPECT_EQ(h.level, 1) << c.name;
    EXPECT_EQ(h.text, c.text) << c.name;
    EXPECT_EQ(h.labels, c.labels) << c.name;
    // Every printed token is kept: in the text or in the labels.
    std::vector<std::string> printed, kept;
    for (const auto& s : c.opener)
      for (const auto& t : whitespace_tokens(s.text)) printed.push_back(t);
    for (const auto& lb : h.labels)
      for (const auto& t : whitespace_tokens(lb)) kept.push_back(t);
    for (const auto& t : whitespace_tokens(h.text)) kept.push_back(t);
    EXPECT_EQ(kept, printed) << c.name;
  }
}

TEST(Chapters, OpenerLabelSetApartNamesNoChapterWithoutOutline) {
  // No outline: "Chapter N" set as a heading of its own, far above the title, opens each
  // chapter; the chapter is named by the title, which takes the label.
  std::vector<Page> pages;
  const std::vector<std::string> titles = {"External Services", "Parsing Configuration Files", "Network Drivers"};
  for (int c = 0; c < 3; ++c) {
    std::vector<LineSpec> l = {{72, 60, "Chapter " + std::to_string(c + 1), 16, false, true},
                               {72, 140, titles[static_cast<size_t>(c)], 22, false, true}};
    auto body = paragraph(72, 200, {"Body text of this chapter goes here and on to the end of the line.", "More text."});
    l.insert(l.end(), body.begin(), body.end());
    pages.push_back(make_page(c + 1, l));
  }
  auto r = layout_document(make_doc(std::move(pages)));
  ASSERT_EQ(r.chapters.size(), 3u);
  for (size_t c = 0; c < 3; ++c) {
    EXPECT_EQ(r.chapters[c].title, titles[c]);
    EXPECT_EQ(r.chapters[c].number, std::to_string(c + 1));
    ASSERT_FALSE(r.chapters[c].blocks.empty());
    EXPECT_EQ(r.chapters[c].blocks.front().labels, (std::vector<std::string>{"Chapter " + std::to_string(c + 1)}));
  }
}

TEST(Chapters, ASectionHeadingRightUnderTheChapterTitleIsItsOwn) {
  // A compact chapter style sets the first section's heading a line under the chapter title,
  // in a smaller size. They are two headings, and the chapter opens where its outline entry
  // points, a little inside the title's first line.
  std::vector<LineSpec> l = {{72, 84, "1 Introduction", 14.35, false, true}, {72, 104, "1.1 Where it all began", 12, false, true}};
  auto body = paragraph(72, 130, {"Body text of this chapter goes here and on to the end of the line.", "More text."});
  l.insert(l.end(), body.begin(), body.end());
  Document d = make_doc({make_page(1, l)});
  d.outline = {{"Introduction", 1, 1, 79.5}, {"Where it all began", 2, 1, 95}};
  auto r = layout_document(d);
  ASSERT_EQ(r.chapters.size(), 1u);
  ASSERT_GE(r.chapters[0].blocks.size(), 2u);
  EXPECT_EQ(r.chapters[0].blocks[0].text, "1 Introduction");
  EXPECT_EQ(r.chapters[0].blocks[0].level, 1);
  EXPECT_EQ(r.chapters[0].blocks[1].text, "1.1 Where it all began");
  EXPECT_EQ(r.chapters[0].blocks[1].type, BlockType::Heading);
}

// Typographic fact: troff's -ms and many word processors set numbered section headings in
// bold at the body size, chapters ("2.") and sections ("2.1.") alike, each chapter from a new
// page. The number tells a heading from a bold line of text, and its levels a chapter from
// a section that happens to open a page.
TEST(Chapters, NumberedBoldHeadingsInTheBodySize) {
  const std::string body = "Body text of this chapter runs on to the end of the measure here and";
  auto page = [&](int n, std::vector<LineSpec> top) {
    auto b = paragraph(72, 160, {body, body, body, "ends."});
    top.insert(top.end(), b.begin(), b.end());
    b = paragraph(72, 240, {"Warning: a bold line of text"});
    b[0].bold = true;
    top.insert(top.end(), b.begin(), b.end());
    b = paragraph(72, 260, {body, "ends."});
    top.insert(top.end(), b.begin(), b.end());
    return make_page(n, top);
  };
  std::vector<Page> pages;
  pages.push_back(page(1, {{72, 100, "1. Getting Started", 10, false, true}, {72, 124, "1.1. Where to begin", 10, false, true}}));
  pages.push_back(page(2, {{72, 100, "1.2. Going on", 10, false, true}}));
  pages.push_back(page(3, {{72, 100, "2. Configuration", 10, false, true}, {72, 124, "2.1. Files", 10, false, true}}));
  auto r = layout_document(make_doc(pages));
  ASSERT_EQ(r.chapters.size(), 2u);
  EXPECT_EQ(r.chapters[0].title, "Getting Started");
  EXPECT_EQ(r.chapters[0].number, "1");
  EXPECT_EQ(r.chapters[1].title, "Configuration");
  std::vector<std::string> headings;
  for (const auto& b : of_type(r, BlockType::Heading)) headings.push_back(b.text);
  EXPECT_EQ(headings, (std::vector<std::string>{"1. Getting Started", "1.1. Where to begin", "1.2. Going on",
                                                "2. Configuration", "2.1. Files"}));
  for (const auto& b : all_blocks(r)) {
    if (b.text.rfind("Warning", 0) == 0) {
      EXPECT_EQ(b.type, BlockType::Paragraph);
    }
  }
}

// Typographic fact: a section heading set right under its chapter's in one size is the next
// heading, not the second line of the first: both carry their numbers.
TEST(Chapters, NumberedHeadingsInOneSizeDoNotRunTogether) {
  std::vector<LineSpec> l = {{72, 100, "2.5 How can R be installed?", 12, false, true},
                             {72, 118, "2.5.1 How can R be installed (Unix-like)", 12, false, true},
                             {72, 150, "A Title That Runs Over", 20, false, true},
                             {72, 172, "45 Beautiful Variants", 20, false, true}};
  auto body = paragraph(72, 200, {"Body text of this chapter goes here and on to the end of the line.", "More text."});
  l.insert(l.end(), body.begin(), body.end());
  auto r = layout_document(make_doc({make_page(1, l)}));
  std::vector<std::string> headings;
  for (const auto& b : of_type(r, BlockType::Heading)) headings.push_back(b.text);
  EXPECT_EQ(headings, (std::vector<std::string>{"2.5 How can R be installed?", "2.5.1 How can R be installed (Unix-like)",
                                                "A Title That Runs Over 45 Beautiful Variants"}));
}

TEST(Chapters, TheOneChapterOfABookIsNamedByTheBooksTitleNotItsFile) {
  // A book of one chapter without a title in its metadata: named by its title page, or by
  // its file without the extension; a metadata title that is a file's name is none.
  auto r = layout_document(make_doc({make_page(1, paragraph(72, 100, {"Just text."}))}));
  ASSERT_EQ(r.chapters.size(), 1u);
  EXPECT_EQ(r.chapters[0].title, "test");
  Document d = make_doc({make_page(1, paragraph(72, 100, {"Just text."}))});
  d.metadata.title = "tstlmot4.dvi";
  EXPECT_EQ(book_title(d), "test");
  EXPECT_EQ(layout_document(d).chapters.at(0).title, "test");
  d.metadata.title = "Release notes 2.1";
  EXPECT_EQ(book_title(d), "Release notes 2.1");
  d.metadata.title = "node.js";
  EXPECT_EQ(book_title(d), "node.js");
}

TEST(Chapters, NoOutlineNoHeadingsIsOneChapterWithWarning) {
  auto r = layout_document(make_doc({make_page(1, paragraph(72, 100, {"Just text."}))}));
  ASSERT_EQ(r.chapters.size(), 1u);
  EXPECT_FALSE(r.warnings.empty());
}

TEST(ExcludedMatter, AListingPageOfTheOpeningProseIsKept) {
  // Before the first chapter: a page of prose, then a page that is one code listing, then
  // prose again. The listing page has few prose words, but it follows prose: it belongs to
  // that opening text, not to a title page or other front matter.
  auto prose_page = [](int n) {
    std::vector<std::string> lines(8, "the opening text of this article is prose set in full lines of about ten words");
    return make_page(n, paragraph(72, 100, lines));
  };
  std::vector<LineSpec> code;
  for (int i = 0; i < 12; ++i) code.push_back({72, 100.0 + 12 * i, i % 2 ? "  \\rm, \\bf, \\it" : "\\setfonts [Family/]", 9, true});
  std::vector<LineSpec> ch = {{72, 80, "1 Start", 16, false, true}};
  auto body = paragraph(72, 120, {"Chapter text that is prose and long enough.", "More of it."});
  ch.insert(ch.end(), body.begin(), body.end());
  Document d = make_doc({prose_page(1), make_page(2, code), prose_page(3), make_page(4, ch)});
  d.outline = {{"1 Start", 1, 4, 70}};
  auto r = layout_document(d);
  EXPECT_TRUE(r.excluded.empty()) << r.excluded.front().kind << " " << r.excluded.front().first_page;
  ASSERT_EQ(r.chapters.size(), 2u);
  EXPECT_EQ(r.chapters[0].kind, ChapterKind::Front);
  EXPECT_EQ(r.chapters[0].first_page, 1);
  EXPECT_EQ(r.chapters[0].last_page, 3);
}

TEST(ExcludedMatter, ContentsWithDotLeadersAndIndex) {
  // A contents page: title, dot leaders, a column of page numbers. An index: terms followed
  // by page numbers. Neither is a chapter; keep_matter keeps them.
  std::vector<LineSpec> toc = {{72, 80, "Contents", 20, false, true}};
  for (int i = 0; i < 6; ++i)
    toc.push_back({72, 120.0 + 12 * i, "Section " + std::to_string(i + 1) + " . . . . . . . . . . " + std::to_string(3 + i), 10});
  std::vector<LineSpec> ch = {{72, 80, "1 Start", 16, false, true}};
  auto body = paragraph(72, 120, {"Chapter text that is prose and long enough.", "More of it."});
  ch.insert(ch.end(), body.begin(), body.end());
  std::vector<LineSpec> index = {{72, 80, "Index", 20, false, true}};
  for (int i = 0; i < 8; ++i) index.push_back({72, 120.0 + 12 * i, "term" + std::to_string(i) + ", " + std::to_string(2 + i), 10});
  Document d = make_doc({make_page(1, toc), make_page(2, ch), make_page(3, index)});
  d.outline = {{"1 Start", 1, 2, 70}, {"Index", 1, 3, 70}};
  auto r = layout_document(d);
  ASSERT_EQ(r.chapters.size(), 1u);
  EXPECT_EQ(r.chapters[0].title, "Start");
  ASSERT_EQ(r.excluded.size(), 2u);
  EXPECT_EQ(r.excluded[0].kind, "contents");
  EXPECT_EQ(r.excluded[0].first_page, 1);
  EXPECT_EQ(r.excluded[1].kind, "index");
  EXPECT_EQ(r.excluded[1].first_page, 3);
  LayoutOptions keep;
  keep.chapters.keep_matter = true;
  auto k = layout_document(d, keep);
  EXPECT_EQ(k.chapters.size(), 3u);
  EXPECT_TRUE(k.excluded.empty());
}

// Typographic fact: a block belongs to the page it starts on, and goes on over a page break
// (a contents entry, a copyright notice's last sentence carried to the top of the next page).
// Matter kept out of the corpus ends where its last block ends, not on the page its last
// block starts on: the wording check accounts for excluded words by their pages, and the
// carried lines' words were lost from both the corpus and its account.
TEST(ExcludedMatter, EndsWhereItsLastBlockEndsOverAPageBreak) {
  std::vector<LineSpec> notice = {{72, 100, "Copyright 2015 Ada Quillfeather. All rights reserved.", 10}};
  notice.push_back({72, 160, "Permission is granted to copy this manual provided that the notice is kept on", 10});
  std::vector<LineSpec> preface = {{72, 100, "every copy and that the copies are not sold.", 10}};
  auto prose = filler(124, 8);
  preface.insert(preface.end(), prose.begin(), prose.end());
  std::vector<LineSpec> ch = {{72, 80, "1 Start", 16, false, true}};
  auto body = filler(120, 8);  // (a page of the text: the notice is shorter)
  ch.insert(ch.end(), body.begin(), body.end());
  Document d = make_doc({make_page(1, notice), make_page(2, preface), make_page(3, ch)});
  d.outline = {{"1 Start", 1, 3, 70}};
  auto r = layout_document(d);
  ASSERT_EQ(r.excluded.size(), 1u);
  EXPECT_EQ(r.excluded[0].kind, "copyright");
  EXPECT_EQ(r.excluded[0].first_page, 1);
  EXPECT_EQ(r.excluded[0].last_page, 2);
  // The carried line went with the notice, out of the corpus; the preface is a chapter.
  ASSERT_GE(r.chapters.size(), 2u);
  EXPECT_EQ(r.chapters[0].kind, ChapterKind::Front);
  EXPECT_EQ(r.chapters[0].first_page, 2);
  for (const auto& c : r.chapters)
    for (const auto& b : c.blocks) EXPECT_EQ(b.text.find("copies are not sold"), std::string::npos) << b.text;
}

// Typographic fact: a copyright page is a notice, shorter than a page of the book's text. A
// page before the first chapter that is as full as the text's pages and names its copyright
// in a foot line (a reference card, an article's first page) is text, not a copyright page.
TEST(ExcludedMatter, AFullPageThatNamesItsCopyrightIsText) {
  auto full_page = [](int n, const std::string& last) {
    auto lines = filler(100, 20);
    lines.push_back({72, 400, last, 8});
    return make_page(n, lines);
  };
  std::vector<LineSpec> ch = {{72, 80, "1 Start", 16, false, true}};
  auto body = filler(120, 20);
  ch.insert(ch.end(), body.begin(), body.end());
  // The notice page of a book: short, before the text.
  std::vector<LineSpec> notice = {{72, 100, "Copyright 2015 Ada Quillfeather. All rights reserved.", 10}};
  Document card = make_doc({full_page(1, "Copyright 1996 Ada Quillfeather, permissions on the back."), make_page(2, ch),
                            full_page(3, "More commands of the card.")});
  card.outline = {{"1 Start", 1, 2, 70}};
  auto r = layout_document(card);
  EXPECT_TRUE(r.excluded.empty()) << r.excluded.front().kind;
  ASSERT_EQ(r.chapters.size(), 2u);
  EXPECT_EQ(r.chapters[0].kind, ChapterKind::Front);
  EXPECT_EQ(r.chapters[0].first_page, 1);
  Document book = make_doc({make_page(1, notice), make_page(2, ch), full_page(3, "More of the text.")});
  book.outline = {{"1 Start", 1, 2, 70}};
  auto b = layout_document(book);
  ASSERT_EQ(b.excluded.size(), 1u);
  EXPECT_EQ(b.excluded[0].kind, "copyright");
}

// Typographic fact: a list's title is the title itself ("Contents", "Table of Contents") or
// begins it ("Contents at a Glance"); a chapter whose title only begins so ("Contents of
// domore.sty", a package's code; "Contents of the collection") is a list only where its
// pages read as one, their rows ending with page numbers.
TEST(ExcludedMatter, ATitleThatBeginsWithContentsIsAListOnlyWhereItsPagesAreOne) {
  std::vector<LineSpec> glance = {{72, 80, "Contents at a Glance", 20, false, true}};
  for (int i = 0; i < 6; ++i)
    glance.push_back({72, 120.0 + 12 * i, "Chapter " + std::to_string(i + 1) + " . . . . . . . . . . " + std::to_string(3 + i), 10});
  std::vector<LineSpec> ch = {{72, 80, "1 Start", 16, false, true}};
  auto body = filler(120, 8);
  ch.insert(ch.end(), body.begin(), body.end());
  std::vector<LineSpec> code = {{72, 80, "2 Contents of domore.sty", 16, false, true}};
  for (int i = 0; i < 8; ++i) code.push_back({72, 120.0 + 12 * i, "\\def\\domore" + std::to_string(i) + "{\\relax}", 9, true});
  Document d = make_doc({make_page(1, glance), make_page(2, ch), make_page(3, code)});
  d.outline = {{"Contents at a Glance", 1, 1, 70}, {"1 Start", 1, 2, 70}, {"2 Contents of domore.sty", 1, 3, 70}};
  auto r = layout_document(d);
  ASSERT_EQ(r.excluded.size(), 1u);
  EXPECT_EQ(r.excluded[0].kind, "contents");
  EXPECT_EQ(r.excluded[0].first_page, 1);
  ASSERT_EQ(r.chapters.size(), 2u);
  EXPECT_EQ(r.chapters[1].title, "Contents of domore.sty");
  EXPECT_EQ(r.chapters[1].first_page, 3);
}

// Typographic fact: a package manual sets its title, author and abstract over its table of
// contents on the first page. The page reads as a list by its rows, yet the text over the
// list's title is the book's: it stays a chapter and the list alone is left out, whether the
// book has an outline (the page comes before its first entry) or not (the title heading opens
// a chapter that reads as a list). A date over the abstract ends with a number, as entries
// do; a page that goes on with a list, or a list without a title, is left out whole.
TEST(ExcludedMatter, TheTitleAndAbstractOverTheContentsStay) {
  auto first_page = [](bool titled) {
    std::vector<LineSpec> p = {{72, 70, "The widget package", 16, false, true},
                               {150, 100, "Ada Quillfeather", 10},
                               {150, 114, "June 2011", 10}};
    p.push_back({72, 140, "Abstract", 10, false, true});
    auto abstract = filler(154, 5);  // (more words than a title page holds)
    p.insert(p.end(), abstract.begin(), abstract.end());
    if (titled) p.push_back({72, 240, "Contents", 14, false, true});
    for (int i = 0; i < 30; ++i)
      p.push_back({72, 264.0 + 12 * i, std::to_string(i + 1) + " Part of the book . . . . . . . . " + std::to_string(2 + i), 10});
    return p;
  };
  // (Without an outline, chapters open at the headings in the size the title shares.)
  std::vector<LineSpec> p2 = {{72, 80, "1 Part of the book", 16, false, true}};
  auto body = filler(120, 12);
  p2.insert(p2.end(), body.begin(), body.end());
  std::vector<LineSpec> p3 = {{72, 80, "2 Part of the book", 16, false, true}};
  p3.insert(p3.end(), body.begin(), body.end());
  for (bool outline : {true, false}) {
    Document d = make_doc({make_page(1, first_page(true)), make_page(2, p2), make_page(3, p3)});
    if (outline) d.outline = {{"1 Part of the book", 1, 2, 70}, {"2 Part of the book", 1, 3, 70}};
    auto r = layout_document(d);
    ASSERT_EQ(r.excluded.size(), 1u) << outline;
    EXPECT_EQ(r.excluded[0].kind, "contents");
    EXPECT_EQ(r.excluded[0].first_page, 1);
    ASSERT_EQ(r.chapters.size(), 3u) << outline;
    EXPECT_EQ(r.chapters[0].first_page, 1);
    EXPECT_EQ(r.chapters[0].last_page, 1);
    std::string kept;
    for (const auto& b : r.chapters[0].blocks) kept += b.text + "\n";
    EXPECT_NE(kept.find("The widget package"), std::string::npos) << kept;
    EXPECT_NE(kept.find("June 2011"), std::string::npos) << kept;
    EXPECT_EQ(kept.find("Contents"), std::string::npos) << kept;
    EXPECT_EQ(kept.find(". . ."), std::string::npos) << kept;
    EXPECT_EQ(r.chapters[1].first_page, 2);
    // Without the list's title, the page is left out whole, as before.
    Document untitled = make_doc({make_page(1, first_page(false)), make_page(2, p2), make_page(3, p3)});
    if (outline) untitled.outline = d.outline;
    auto u = layout_document(untitled);
    ASSERT_EQ(u.chapters.size(), 2u) << outline;
    EXPECT_EQ(u.chapters[0].first_page, 2);
  }
}

// Typographic fact: a chapter may open partway down a page whose upper part ends the chapter
// before it: a preface under the last entries of the contents, a package's index under the
// last lines of its code. Whether it is a list (left out as contents or index) is read from
// its own rows on that page, not from the whole page's.
TEST(ExcludedMatter, AChapterOnAPageItSharesIsAListByItsOwnRows) {
  auto entries = [](std::vector<LineSpec>& page, double top, int n) {
    for (int i = 0; i < n; ++i)
      page.push_back({72, top + 12 * i, std::to_string(i + 1) + " Part of the book . . . . . . . . " + std::to_string(3 + i), 10});
  };
  // Page 1: the contents' last eight entries, then the preface (four lines of prose): 8 of
  // the page's 14 rows are entries, more than the share that makes a page a list.
  std::vector<LineSpec> p1 = {{72, 80, "Contents", 20, false, true}};
  entries(p1, 120, 8);
  p1.push_back({72, 250, "1 Preface", 16, false, true});
  auto pre = filler(280, 4);
  p1.insert(p1.end(), pre.begin(), pre.end());
  // Page 2: a chapter of text; page 3: its last four lines, then a list of commands with the
  // pages they are on (3 of the page's 10 rows end with a page number: under the share).
  std::vector<LineSpec> p2 = {{72, 80, "2 Start", 16, false, true}};
  auto body = filler(120, 12);
  p2.insert(p2.end(), body.begin(), body.end());
  std::vector<LineSpec> p3 = filler(100, 6);
  p3.push_back({72, 200, "3 Commands", 16, false, true});
  for (int i = 0; i < 3; ++i) p3.push_back({72, 230.0 + 12 * i, "\\command" + std::to_string(i) + ", 2", 10});
  Document d = make_doc({make_page(1, p1), make_page(2, p2), make_page(3, p3)});
  d.outline = {{"Contents", 1, 1, 70}, {"1 Preface", 1, 1, 240}, {"2 Start", 1, 2, 70}, {"3 Commands", 1, 3, 190}};
  auto r = layout_document(d);
  ASSERT_EQ(r.excluded.size(), 2u);
  EXPECT_EQ(r.excluded[0].kind, "contents");
  EXPECT_EQ(r.excluded[0].title, "Contents");
  EXPECT_EQ(r.excluded[1].kind, "index");
  EXPECT_EQ(r.excluded[1].title, "Commands");
  ASSERT_EQ(r.chapters.size(), 2u);
  EXPECT_EQ(r.chapters[0].title, "Preface");
  EXPECT_EQ(r.chapters[0].first_page, 1);
  EXPECT_EQ(r.chapters[1].title, "Start");
}

// Typographic fact: excluded matter (a copyright page, a contents page, an index) is set
// like prose and hyphenated like it ("lan-" / "guage,"), but its words are not in the corpus;
// the wording check accounts for excluded pages by their printed tokens, so a join made
// there must not be logged. A join in a chapter is logged as usual.
struct ExcludedJoinCase {
  const char* name;
  std::vector<LineSpec> matter;  // page 1 (before the chapter) or page 3 (after it)
  bool front;
  const char* outline_title;  // the matter's bookmark, or none
};

TEST(ExcludedMatter, HyphenJoinsInsideItAreNotLogged) {
  auto prose = [](const char* title) {
    std::vector<LineSpec> l;
    if (title) l.push_back({72, 80, title, 20, false, true});
    auto body = paragraph(72, 120, {"Permission is granted to copy and distribute translations into another lan-",
                                    "guage, under the same conditions as for modified versions of the text."});
    l.insert(l.end(), body.begin(), body.end());
    return l;
  };
  const std::vector<ExcludedJoinCase> cases = {
      {"copyright page without a bookmark", prose(nullptr), true, nullptr},
      {"copyright page with a bookmark", prose("Copyright"), true, "Copyright"},
      {"index with a bookmark", prose("Index"), false, "Index"},
  };
  for (const auto& c : cases) {
    std::vector<LineSpec> ch = {{72, 80, "1 Start", 16, false, true}};
    auto body = paragraph(72, 120, {"Chapter text that is prose and long enough to be hyphen-",
                                    "ated at the end of its first line and to go on after it."});
    ch.insert(ch.end(), body.begin(), body.end());
    Document d = c.front ? make_doc({make_page(1, c.matter), make_page(2, ch)})
                         : make_doc({make_page(1, ch), make_page(2, c.matter)});
    int chapter_page = c.front ? 2 : 1, matter_page = c.front ? 1 : 2;
    d.outline = {{"1 Start", 1, chapter_page, 70}};
    if (c.outline_title) d.outline.push_back({c.outline_title, 1, matter_page, 70});
    std::stable_sort(d.outline.begin(), d.outline.end(), [](const auto& a, const auto& b) { return a.page < b.page; });
    auto r = layout_document(d);
    ASSERT_EQ(r.excluded.size(), 1u) << c.name;
    EXPECT_EQ(r.excluded[0].first_page, matter_page) << c.name;
    ASSERT_EQ(r.joins.size(), 1u) << c.name;
    EXPECT_EQ(r.joins[0].page, chapter_page) << c.name;
    EXPECT_EQ(r.joins[0].joined, "hyphenated") << c.name;
  }
}

// A book without an outline: its front and back matter are recognised from their content.
struct MatterCase {
  const char* name;
  std::vector<LineSpec> matter;  // the page before (or after) the chapter
  bool front;                    // before the chapter, else after it
  const char* kind;              // expected excluded kind
};

class NoOutlineMatter : public ::testing::TestWithParam<MatterCase> {};

TEST_P(NoOutlineMatter, KeptOutOfTheChapters) {
  const MatterCase& c = GetParam();
  std::vector<LineSpec> ch = {{72, 60, "Chapter 1", 14, false, true}, {72, 84, "Getting Started", 20, false, true}};
  auto body = paragraph(72, 120, {"Chapter text that is prose and long enough to be a paragraph of the book.",
                                  "More of it goes on here to the end of the sentence."});
  ch.insert(ch.end(), body.begin(), body.end());
  std::vector<Page> pages = {make_page(1, c.matter), make_page(2, ch)};
  if (!c.front) pages = {make_page(1, ch), make_page(2, c.matter)};
  auto r = layout_document(make_doc(pages));
  ASSERT_EQ(r.chapters.size(), 1u);
  EXPECT_EQ(r.chapters[0].title, "Getting Started");
  ASSERT_EQ(r.excluded.size(), 1u);
  EXPECT_EQ(r.excluded[0].kind, c.kind);
  EXPECT_EQ(r.excluded[0].first_page, c.front ? 1 : 2);
}

std::vector<LineSpec> rows_of(const std::string& title, const std::vector<std::string>& rows) {
  std::vector<LineSpec> out;
  if (!title.empty()) out.push_back({72, 80, title, 20, false, true});
  for (size_t i = 0; i < rows.size(); ++i) out.push_back({72, 120.0 + 12 * i, rows[i], 10});
  return out;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, NoOutlineMatter,
    ::testing::Values(
        // A title page: a title as large as the chapter titles and a few short lines, no
        // prose, first in the book.
        MatterCase{"title_page",
                   {{72, 200, "The Ringlog Manual", 20, false, true}, {72, 240, "Ada Quillfeather", 12}, {72, 260, "Edition 1.2", 12}},
                   true, "title-page"},
        // Contents without a title: a column of page numbers at the ends of the rows.
        MatterCase{"contents_by_numbers",
                   rows_of("", {"Preface ii", "1 Getting Started 1", "1.1 Installing 2", "2 Pipeline 5", "A Glossary 11"}), true,
                   "contents"},
        // Contents read by OCR: the leaders come back as dots mixed with "0"s, and the page
        // numbers as letters ("9g"); the leaders alone mark the rows.
        MatterCase{"contents_ocr_leaders",
                   rows_of("", {"Preface .....0..00... ij", "1 Getting Started ..0.0.0.... 9g", "1.1 Installing ..0...00.... 2l",
                                "2 Pipeline ...0....0..... 5.", "A Glossary ....0.0..... 1l"}),
                   true, "contents"},
        // An index after the chapter, under its title: short "term, page" rows.
        MatterCase{"index_titled",
                   rows_of("Index", {"atomic operations, 3", "autotools, 2", "drain, 5", "fsync, 8", "plugin, 9", "ring, 2"}),
                   false, "index"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Determinism, SameInputSameOutput) {
  auto lines = paragraph(72, 100, {"Some text with a hyphen-", "ated word and more.", "End."});
  Document d = make_doc({make_page(1, lines)});
  auto a = layout_document(d), b = layout_document(d);
  ASSERT_EQ(a.chapters.size(), b.chapters.size());
  EXPECT_EQ(a.chapters[0], b.chapters[0]);
  EXPECT_EQ(a.joins, b.joins);
}

TEST(Title, TheTitlePagesLargestTextBeforeTheContents) {
  // A title page (the title at 17 pt over the author at 12 pt), a blank page, then the
  // contents under a heading at 25 pt: the title is the title page's, though the contents'
  // heading is larger.
  Page title = make_page(1, {{150, 200, "Free Software Licences", 17.28}, {220, 260, "C. Writer", 12}, {220, 290, "2026", 12}});
  Page blank = make_page(2, {});
  std::vector<LineSpec> contents = {{72, 120, "Contents", 24.88}};
  for (int i = 0; i < 20; ++i) contents.push_back({72, 180.0 + 14 * i, "1." + std::to_string(i) + " A section of the book . . . . . 4", 10});
  EXPECT_EQ(title_from_pages(make_doc({title, blank, make_page(3, contents)})), "Free Software Licences");
}

TEST(Title, ALetterOfOneSizeHasNone) {
  // A page set in one size, as a letter is, has no text that stands out as a title; nor does
  // a large initial alone.
  std::vector<LineSpec> letter = {{72, 80, "M", 40}};
  for (int i = 0; i < 30; ++i) letter.push_back({72, 120.0 + 12 * i, "dear madam chair the last general meeting was more than a year ago", 10});
  EXPECT_EQ(title_from_pages(make_doc({make_page(1, letter)})), "");
}

TEST(Title, LargerWordsOnTheTitlesLineAreItsOwn) {
  // Texinfo's "R FAQ": the "R" set larger than the rest of the title's line. One letter is no
  // title, but on the title's line it is part of it. A title page of few words whose title
  // holds most of its characters measures sizes against its smallest text.
  Page p = make_page(1, {{72, 200, "FAQ", 17.2}, {200, 240, "Frequently Asked Questions on R", 14.3}, {200, 300, "Version 2022-09-08", 10.9}});
  Line r = test::make_line({40, 200, "R ", 20.7});  // the word space is the span's, as extracted
  p.lines[0].spans.insert(p.lines[0].spans.begin(), r.spans.front());
  EXPECT_EQ(title_from_pages(make_doc({p})), "R FAQ");
}

}  // namespace
}  // namespace quire
