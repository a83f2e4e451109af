// The JSON Lines forms of the model read back to equal values, and malformed input is an
// error that names the line.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "quire/error.h"
#include "quire/json.h"
#include "quire/model.h"

namespace quire {
namespace {

// Values are multiples of 0.25 pt (exact in binary): the writer rounds to 0.01 pt, so only
// such values can compare equal after a round trip.
Span code_span() {
  Span s;
  s.text = "x <- c(1, 2)";
  s.bbox = {72.25, 100.5, 140.75, 110.25};
  s.font = "CMTT10";
  s.size = 10.5;
  s.monospace = true;
  s.color = 0x1a2b3c;
  s.baseline = 108.25;
  for (int i = 0; i < 12; ++i) s.xs.push_back(72.25f + 5.25f * static_cast<float>(i));
  s.last_advance = 5.25f;
  return s;
}

Document sample_document() {
  Document d;
  d.file = "book.pdf";
  d.sha256 = std::string(64, 'a');
  d.engine = "mupdf";
  d.page_count = 120;
  d.metadata = {"A Title — with “quotes”", "Ada Author", "Subject", "TeX", "pdfTeX-1.40.24"};
  d.outline = {{"1 Introduction", 1, 8, 72.0}, {"Unresolved", 2, 0, -1}};
  d.warnings = {Diagnostic::at("extract", "page-unreadable", "book.pdf", 3, "cannot read page: x"),
                Diagnostic::at("extract", "engine-repair", "book.pdf", 0, "repaired xref")};

  Page p;
  p.number = 7;
  p.label = "iv";
  p.width = 612;
  p.height = 792;
  p.rotation = 90;
  Line l;
  l.bbox = {72.25, 100.5, 300, 110.25};
  l.direction = 0;
  Span prose;
  prose.text = "The ﬁrst word";  // a ligature glyph is kept as extracted
  prose.bbox = {150, 100.5, 300, 110.25};
  prose.font = "CMBX12";
  prose.size = 12;
  prose.bold = true;
  prose.italic = true;
  prose.baseline = 108.5;
  l.spans = {code_span(), prose};
  p.lines.push_back(l);
  Line rotated;
  rotated.bbox = {10, 20, 20, 200};
  rotated.direction = 2;
  Span r;
  r.text = "sideways";
  r.bbox = rotated.bbox;
  r.font = "Helvetica";
  r.size = 8;
  r.baseline = 19.5;  // no xs: an engine that cannot give them
  rotated.spans = {r};
  p.lines.push_back(rotated);
  p.images = {{{100, 200, 300, 400}, 640, 480, false}, {{0, 0, 10, 10}, 1, 1, true}};
  p.paths = {{{50, 60, 70, 80}, true, false, 0, 0xff0000}, {{1, 2, 3, 4}, false, true, 0.5, 0}};
  p.links = {{{72, 100, 180, 112}, "https://example.org/a?b=1&c=\"d\"", 0, -1}, {{72, 120, 90, 132}, "", 7, 144.5}};
  p.errors = {"skipped an image"};
  d.pages.push_back(p);

  Page ocr;
  ocr.number = 8;
  ocr.width = 595.25;
  ocr.height = 841.75;
  ocr.ocr = true;
  ocr.ocr_confidence = 91.5;
  Line ol;
  ol.bbox = {72, 72, 120, 84};
  Span os;
  os.text = "scanned";
  os.bbox = ol.bbox;
  os.font = "OCR";
  os.size = 11;
  os.baseline = 82;
  os.ocr = true;
  os.confidence = 93.5f;
  ol.spans = {os};
  ocr.lines = {ol};
  d.pages.push_back(ocr);
  return d;
}

Book sample_book() {
  Book b;
  b.id = "r-intro";
  b.title = "An Introduction to R";
  b.authors = {"W. N. Venables", "D. M. Smith"};
  b.file = "R-intro.pdf";
  b.sha256 = std::string(64, 'b');
  b.page_count = 113;
  b.excluded = {{"Table of Contents", "contents", 3, 6}};
  b.removed = {{12, {500, 40, 520, 50}, "6", "page-number"}};
  b.joins = {{14, "exam-", "ple", "example"}};
  b.ocr_pages = {40, 41};
  b.low_confidence_pages = {41};
  b.warnings = {Diagnostic::at("extract", "ocr-failed", "R-intro.pdf", 41, "Tesseract could not read the page"),
                Diagnostic::at("verify", "verify-more", "R-intro.pdf", 0, "verify: 3 more word differences")};
  Chapter c;
  c.title = "Introduction and preliminaries";
  c.number = "1";
  c.kind = ChapterKind::Body;
  c.first_page = 8;
  c.last_page = 13;
  Block h;
  h.type = BlockType::Heading;
  h.level = 1;
  h.text = "1 Introduction and preliminaries";
  h.page = h.last_page = 8;
  h.bbox = {90, 72, 400, 90};
  h.anchor = "introduction-and-preliminaries";
  Block code;
  code.type = BlockType::Code;
  code.text = "> x <- 1\n>   y <- 2\n\n> x + y";
  code.page = 9;
  code.last_page = 10;
  code.bbox = {118.75, 300, 300, 720};
  Block fig;
  fig.type = BlockType::Figure;
  fig.page = fig.last_page = 11;
  fig.bbox = {100, 100, 400, 300};
  fig.image = "figures/r-intro-1.png";
  fig.labels = {"x", "density"};
  fig.figure_ref = "Figure 1.1";
  fig.referenced_by = 0;
  fig.anchor = "figure-1-1";
  Block cites;
  cites.type = BlockType::Paragraph;
  cites.text = "A word cited, and a \u00e9t\u00e9 too.";
  cites.marks = {{11, "1"}, {26, "\u00b2"}};
  cites.styles = {{2, 4, InlineStyle::Emphasis}, {20, 3, InlineStyle::Code}, {24, 3, InlineStyle::Strong}};
  cites.links = {{0, 1, "https://example.org/"}, {2, 4, "#figure-1-1"}, {20, 3, "02-more.md#x"}};
  cites.page = cites.last_page = 11;
  cites.bbox = {90, 320, 400, 340};
  Block note;
  note.type = BlockType::Footnote;
  note.text = "The note.";
  note.marks = {{0, "1", true}};
  note.page = note.last_page = 11;
  note.bbox = {90, 700, 400, 710};
  Block item;
  item.type = BlockType::ListItem;
  item.text = "An item whose bullet is drawn.";
  item.drawn_marker = true;
  item.page = item.last_page = 11;
  item.bbox = {110, 650, 400, 660};
  Block nested;
  nested.type = BlockType::ListItem;
  nested.level = 2;
  nested.text = "\u2013 An item in that item.";
  nested.page = nested.last_page = 11;
  nested.bbox = {128, 662, 400, 672};
  Block term;
  term.type = BlockType::ListItem;
  term.term = true;
  term.text = "bare repository";
  term.page = term.last_page = 11;
  term.bbox = {90, 674, 160, 684};
  Block table;
  table.type = BlockType::Table;
  table.text = "Name  Size\nmc    1482";
  table.rows = {{"Name", "Size"}, {"mc", "1482"}, {"", "3"}};
  table.header_rows = 1;
  table.page = 11;
  table.last_page = 12;
  table.bbox = {90, 500, 400, 540};
  Block boxed;
  boxed.type = BlockType::Note;
  boxed.kind = "warning";
  boxed.title = "WARNING";
  boxed.text = "Back up first.";
  boxed.page = boxed.last_page = 12;
  boxed.bbox = {90, 100, 400, 120};
  c.blocks = {h, code, fig, cites, note, item, nested, term, table, boxed};
  Chapter back;
  back.title = "Index";
  back.kind = ChapterKind::Back;
  back.first_page = back.last_page = 110;
  b.chapters = {c, back};
  return b;
}

TEST(PagesJsonl, RoundTripGivesAnEqualDocument) {
  const Document d = sample_document();
  std::stringstream s;
  write_pages_jsonl(s, d);
  Document back = read_pages_jsonl(s, "pages.jsonl");
  EXPECT_EQ(back, d);
  ASSERT_EQ(back.pages.size(), 2u);
  EXPECT_EQ(back.pages[0].lines[0].spans[0].xs.size(), 12u);
}

TEST(PagesJsonl, WritingTwiceGivesTheSameBytes) {
  const Document d = sample_document();
  std::stringstream a, b;
  write_pages_jsonl(a, d);
  Document back = read_pages_jsonl(a, "pages.jsonl");
  write_pages_jsonl(b, back);
  std::stringstream a2;
  write_pages_jsonl(a2, d);
  EXPECT_EQ(a2.str(), b.str());
}

TEST(PagesJsonl, OneHeaderLineThenOneLinePerPage) {
  std::stringstream s;
  write_pages_jsonl(s, sample_document());
  int lines = 0;
  for (std::string l; std::getline(s, l);) ++lines;
  EXPECT_EQ(lines, 3);
}

TEST(BookJsonl, RoundTripGivesAnEqualBook) {
  const Book b = sample_book();
  std::stringstream s;
  write_book_jsonl(s, b);
  Book back = read_book_jsonl(s, "blocks.jsonl");
  EXPECT_EQ(back, b);
  ASSERT_EQ(back.chapters.size(), 2u);
  EXPECT_EQ(back.chapters[0].blocks[1].text, "> x <- 1\n>   y <- 2\n\n> x + y");
}

// Each case: a valid file with one line replaced, and the line number the error must name.
struct Malformed {
  const char* what;
  int line;            // 1-based line to break
  std::string text;    // what that line becomes
};

std::string with_line_replaced(const std::string& file, int line, const std::string& text) {
  std::istringstream in(file);
  std::string out, l;
  for (int n = 1; std::getline(in, l); ++n) out += (n == line ? text : l) + "\n";
  return out;
}

TEST(PagesJsonl, MalformedLineIsAnErrorNamingTheLine) {
  std::stringstream s;
  write_pages_jsonl(s, sample_document());
  const std::string good = s.str();
  const Malformed cases[] = {
      {"truncated JSON on a page line", 3, "{\"page\": 8, \"width\""},
      {"page line missing its lines", 2, R"({"page":7,"width":612,"height":792,"images":[],"paths":[]})"},
      {"bbox with three numbers", 3,
       R"({"page":8,"width":1,"height":1,"lines":[{"bbox":[1,2,3],"spans":[]}],"images":[],"paths":[]})"},
      {"header of another format", 1, R"({"format":"quire-pages/999"})"},
      {"not JSON at all", 2, "<html>"},
  };
  for (const auto& c : cases) {
    std::istringstream in(with_line_replaced(good, c.line, c.text));
    try {
      read_pages_jsonl(in, "pages.jsonl");
      ADD_FAILURE() << c.what << ": no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code, ExitCode::BadIntermediate) << c.what;
      EXPECT_EQ(e.file, "pages.jsonl") << c.what;
      EXPECT_NE(e.message().find("line " + std::to_string(c.line) + ":"), std::string::npos)
          << c.what << ": " << e.message();
    }
  }
}

TEST(PagesJsonl, EmptyInputIsAnError) {
  std::istringstream in("");
  EXPECT_THROW(read_pages_jsonl(in, "empty.jsonl"), Error);
}

TEST(BookJsonl, MalformedChapterLineIsAnErrorNamingTheLine) {
  std::stringstream s;
  write_book_jsonl(s, sample_book());
  std::istringstream in(with_line_replaced(s.str(), 3, R"({"title":"Index","kind":"nonsense"})"));
  try {
    read_book_jsonl(in, "blocks.jsonl");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code, ExitCode::BadIntermediate);
    EXPECT_NE(e.message().find("line 3:"), std::string::npos) << e.message();
  }
}

TEST(CompactJson, EqualsTheCompactDumpOfWhatDumpWrotePretty) {
  // Strings with spaces, newlines, tabs, quotes and backslashes (escaped by dump), braces
  // and colons inside strings, non-ASCII text, empty containers, nested arrays and numbers.
  Json j;
  j["text"] = "a  b\n\tc \"quoted\" back\\slash {x: [1, 2]} , :";
  j["unicode"] = "Größe — 名前 \x01 control";
  j["empty_array"] = Json::array();
  j["empty_object"] = Json::object();
  j["nested"] = {{"a", {1, 2.5, -3.25e-7, 1e300}}, {"b", {{"c", nullptr}, {"d", true}, {"e", false}}}};
  j["blocks"] = Json::array({{{"type", "code"}, {"text", "for (;;) {\n  step();\n}"}, {"bbox", {72.25, 100.5, 140.75, 110.25}}}});
  const std::string pretty = dump(j, true);
  EXPECT_NE(pretty, dump(j, false));
  EXPECT_EQ(compact_json(pretty), dump(j, false));
  EXPECT_EQ(compact_json(pretty), dump(Json::parse(pretty), false));
  // Already compact text stays as it is.
  EXPECT_EQ(compact_json(dump(j, false)), dump(j, false));
  // A string that ends in an escaped backslash closes where it should.
  Json k = {{"path", "C:\\"}, {"next", "x y"}};
  EXPECT_EQ(compact_json(dump(k, true)), dump(k, false));
  // Text cut short keeps what it has, inside a string as it is.
  EXPECT_EQ(compact_json("[\"a b"), "[\"a b\n");
  EXPECT_EQ(compact_json("[\"a b\\"), "[\"a b\\\n");
  EXPECT_EQ(compact_json(" [ \"\\\" \" ,\t1 ]\r\n"), "[\"\\\" \",1]\n");
  EXPECT_EQ(compact_json(""), "\n");
}

// Blocks with what the chapter files hold and what they leave out: every field set on a
// block of each kind (those its type does not write, and layout's own), strings with every
// control character, quotes and backslashes, text that is not UTF-8, boxes that are not
// multiples of 0.01 pt or not finite, page ranges that are not written.
std::vector<Block> writer_blocks() {
  std::vector<Block> blocks = sample_book().chapters[0].blocks;
  Block full;
  full.level = 3;
  full.text = "all \"fields\" \\ set: caf\u00e9 \u540d\U0001F600 \x7f";
  for (char c = 1; c < 0x20; ++c) full.text += c;
  full.page = 20;
  full.last_page = 22;
  full.bbox = {72.004, -0.001, 1e17, 123.456789};
  full.image = "figures/x.png";
  full.labels = {"Chapter 1", "", "a\nb"};
  full.figure_ref = "Figure 2";
  full.referenced_by = 4;
  full.marks = {{0, "1"}, {5, "\u00b2"}, {7, "3", true}};
  full.drawn_marker = true;
  full.term = true;
  full.styles = {{0, 3, InlineStyle::Code}, {4, 2, InlineStyle::Emphasis}, {7, 1, InlineStyle::Strong}};
  full.links = {{0, 3, "https://example.org/?a=\"b\""}, {4, 2, "#anchor"}, {7, 1, "03-other.md#there"}};
  full.anchor = "all-fields";
  full.rows = {{"a", "b"}, {}, {"\t"}};
  full.header_rows = 2;
  full.kind = "tip";
  full.title = "TIP";
  full.raised = {{3, "1", true}, {5, "2", true, true}};
  full.targets = {{1, 5, 100.5}};
  full.dropped = {{20, {1, 2, 3, 4}, "Name Size", kRepeatedTableHeader}};
  for (BlockType t : {BlockType::Heading, BlockType::Paragraph, BlockType::Code, BlockType::ListItem, BlockType::Caption,
                      BlockType::Footnote, BlockType::Table, BlockType::Note, BlockType::Figure}) {
    Block b = full;
    b.type = t;
    blocks.push_back(b);
    b.level = 1;          // a list item's first level is not written
    b.last_page = 19;     // nor a last page before the first
    b.header_rows = 0;
    b.referenced_by = -3;
    blocks.push_back(b);
  }
  Block empty;
  empty.type = BlockType::Paragraph;
  blocks.push_back(empty);
  return blocks;
}

// What export does to a link: "<NN>-<slug>.md#<anchor>" is written "#<anchor>".
std::string_view anchor_only(std::string_view href) {
  const size_t hash = href.find(".md#");
  return hash == std::string_view::npos ? href : href.substr(hash + 3);
}

Json blocks_json(const std::vector<Block>& blocks, bool map_links) {
  Json j = Json::array();
  for (const auto& b : blocks) {
    Json bj = to_json(b);
    if (map_links)
      if (auto it = bj.find("links"); it != bj.end())
        for (auto& l : *it) l[2] = std::string(anchor_only(l[2].get<std::string>()));
    j.push_back(std::move(bj));
  }
  return j;
}

TEST(JsonWriter, WritesTheBytesDumpWritesForTheSameValues) {
  for (bool pretty : {true, false}) {
    for (bool map_links : {false, true}) {
      const std::vector<Block> blocks = writer_blocks();
      std::string text;
      JsonWriter w(text, pretty);
      w.begin_object().key("name").string("blocks").key("count").integer(blocks.size()).key("empty").begin_array().end_array();
      w.key("nothing").begin_object().end_object().key("blocks").begin_array();
      for (const auto& b : blocks) write_json(w, b, map_links ? anchor_only : nullptr);
      w.end_array().key("yes").boolean(true).key("no").boolean(false).key("n").number(-2.5).end_object();
      Json j;
      j["name"] = "blocks";
      j["count"] = blocks.size();
      j["empty"] = Json::array();
      j["nothing"] = Json::object();
      j["blocks"] = blocks_json(blocks, map_links);
      j["yes"] = true;
      j["no"] = false;
      j["n"] = -2.5;
      EXPECT_EQ(text + "\n", dump(j, pretty)) << "pretty " << pretty << ", links mapped " << map_links;
      EXPECT_TRUE(w.reads_back_the_same());
      // What the text reads back as is what the writer says it is.
      const Json back = Json::parse(text);
      ASSERT_EQ(back.at("blocks").size(), blocks.size());
      for (size_t i = 0; i < blocks.size(); ++i)
        EXPECT_EQ(block_from_json(back.at("blocks")[i]), block_as_written(blocks[i], map_links ? anchor_only : nullptr))
            << "block " << i;
    }
  }
}

TEST(JsonWriter, KnowsWhatDoesNotReadBackTheSame) {
  // Bytes that are not UTF-8 (a lone continuation byte, a cut sequence, an overlong form, a
  // surrogate, past U+10FFFF) are written as dump() writes them, with U+FFFD; a number that
  // is not finite as null. Either way the text no longer reads back the same.
  const std::vector<std::string> bad = {"\x80", "caf\xC3", "caf\xC3 x", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80",
                                        "ok \xFF ok", "\xE2\x82"};
  for (bool pretty : {true, false}) {
    for (const auto& s : bad) {
      std::string text;
      JsonWriter w(text, pretty);
      w.begin_array().string("fine").string(s).end_array();
      EXPECT_EQ(text + "\n", dump(Json::array({"fine", s}), pretty));
      EXPECT_FALSE(w.reads_back_the_same());
    }
    for (double v : {std::numeric_limits<double>::infinity(), std::nan("")}) {
      std::string text;
      JsonWriter w(text, pretty);
      Block b = writer_blocks()[0];
      b.bbox.x1 = v;
      write_json(w, b);
      EXPECT_EQ(text + "\n", dump(to_json(b), pretty));
      EXPECT_FALSE(w.reads_back_the_same());
    }
  }
}

}  // namespace
}  // namespace quire
