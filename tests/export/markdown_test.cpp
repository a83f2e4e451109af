// Markdown escaping proven with a real CommonMark parser (libcmark): the text of every block
// of every rendered chapter equals the block's source text.
#include <gtest/gtest.h>

#include <cmark.h>

#include "helpers.h"
#include "quire/json.h"
#include "quire/text.h"

namespace quire {
namespace {

namespace fs = std::filesystem;

struct Rendered {
  std::string kind;  // heading, paragraph, code, list_item, note, figure
  std::string text;  // or the image URL for a figure
  int level = 0;
};

// The text a reader sees; markup nodes are shown as tags so that any leak fails the test.
std::string inline_text(cmark_node* node) {
  std::string out;
  for (cmark_node* c = cmark_node_first_child(node); c; c = cmark_node_next(c)) {
    switch (cmark_node_get_type(c)) {
      case CMARK_NODE_TEXT: out += cmark_node_get_literal(c); break;
      case CMARK_NODE_SOFTBREAK: out += "<softbreak>"; break;
      case CMARK_NODE_LINEBREAK: out += "<linebreak>"; break;
      case CMARK_NODE_CODE: out += "<code>" + std::string(cmark_node_get_literal(c)) + "</code>"; break;
      case CMARK_NODE_HTML_INLINE: out += "<html>" + std::string(cmark_node_get_literal(c)) + "</html>"; break;
      case CMARK_NODE_EMPH: out += "<em>" + inline_text(c) + "</em>"; break;
      case CMARK_NODE_STRONG: out += "<strong>" + inline_text(c) + "</strong>"; break;
      case CMARK_NODE_LINK: out += "<link>" + inline_text(c) + "</link>"; break;
      case CMARK_NODE_IMAGE: out += "<image>" + std::string(cmark_node_get_url(c)) + "</image>"; break;
      default: out += "<other>"; break;
    }
  }
  return out;
}

// A list's items in order, each with its depth (1: not in another item); a list inside an
// item follows that item. Anything else inside an item is reported.
void render_list(cmark_node* list, int level, std::vector<Rendered>& out) {
  for (cmark_node* item = cmark_node_first_child(list); item; item = cmark_node_next(item)) {
    cmark_node* p = cmark_node_first_child(item);
    out.push_back({"list_item", p ? inline_text(p) : "", level});
    for (cmark_node* more = p ? cmark_node_next(p) : nullptr; more; more = cmark_node_next(more)) {
      if (cmark_node_get_type(more) == CMARK_NODE_LIST) render_list(more, level + 1, out);
      else out.push_back({"extra block in list item", ""});
    }
  }
}

std::vector<Rendered> render(const std::string& md) {
  std::vector<Rendered> out;
  cmark_node* doc = cmark_parse_document(md.data(), md.size(), CMARK_OPT_DEFAULT);
  for (cmark_node* n = cmark_node_first_child(doc); n; n = cmark_node_next(n)) {
    switch (cmark_node_get_type(n)) {
      case CMARK_NODE_HEADING: out.push_back({"heading", inline_text(n), cmark_node_get_heading_level(n)}); break;
      case CMARK_NODE_PARAGRAPH: {
        cmark_node* only = cmark_node_first_child(n);
        if (only && !cmark_node_next(only) && cmark_node_get_type(only) == CMARK_NODE_IMAGE)
          out.push_back({"figure", cmark_node_get_url(only)});
        else
          out.push_back({"paragraph", inline_text(n)});
        break;
      }
      case CMARK_NODE_CODE_BLOCK: {
        std::string lit = cmark_node_get_literal(n);
        if (!lit.empty() && lit.back() == '\n') lit.pop_back();  // the block's own last line end
        out.push_back({"code", lit});
        break;
      }
      case CMARK_NODE_LIST: render_list(n, 1, out); break;
      case CMARK_NODE_BLOCK_QUOTE: {
        cmark_node* p = cmark_node_first_child(n);
        out.push_back({"note", p ? inline_text(p) : ""});
        break;
      }
      default: out.push_back({"unexpected node", cmark_node_get_type_string(n)}); break;
    }
  }
  cmark_node_free(doc);
  return out;
}

// What a reader must see for a block; NUL is the one character CommonMark cannot carry
// (spec 2.3: it is replaced by U+FFFD).
std::string visible(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '\0' ? std::string("\xEF\xBF\xBD") : std::string(1, c);
  return out;
}

// A block's text as the parser reports it: note marks are raw inline HTML around the mark.
std::string visible(const Block& b) {
  return text_with_marks(b.text, b.marks, MarksAs::Printed, [](std::string_view s) { return visible(std::string(s)); },
                         [](const std::string& m) { return "<html><sup></html>" + m + "<html></sup></html>"; });
}

std::vector<Rendered> expected(const Chapter& c, const std::string& book_id) {
  std::vector<Rendered> out;
  if (c.blocks.empty() || c.blocks[0].type != BlockType::Heading || c.blocks[0].level != 1)
    out.push_back({"heading", visible(c.title), 1});
  for (const auto& b : c.blocks) {
    switch (b.type) {
      case BlockType::Heading: out.push_back({"heading", visible(b.text), std::min(b.level, 6)}); break;
      case BlockType::Code:
      case BlockType::Table: out.push_back({"code", visible(b.text)}); break;
      case BlockType::ListItem: out.push_back({"list_item", visible(b), std::max(b.level, 1)}); break;
      case BlockType::Note: out.push_back({"note", visible(b)}); break;
      case BlockType::Figure:
        if (!b.image.empty()) out.push_back({"figure", b.image.substr(("books/" + book_id + "/").size())});
        break;
      default:
        if (!b.text.empty()) out.push_back({"paragraph", visible(b)});
    }
  }
  return out;
}

void expect_exact(const Book& book, const fs::path& out) {
  for (size_t i = 0; i < book.chapters.size(); ++i) {
    Json j = Json::parse(test::read(out / "books" / book.id / "book.json"));
    std::string md = test::read(out / j["chapters"][i]["markdown"].get<std::string>());
    auto got = render(md);
    auto want = expected(book.chapters[i], book.id);
    ASSERT_EQ(got.size(), want.size()) << md;
    for (size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].kind, want[k].kind) << "block " << k << " of\n" << md;
      EXPECT_EQ(got[k].text, want[k].text) << "block " << k << " of\n" << md;
      EXPECT_EQ(got[k].level, want[k].level) << "block " << k;
    }
  }
}

// Strings that mean something to a Markdown renderer.
const std::vector<std::string> kHostile = {
    "*emphasis* and **strong** and _under_ and __init__",
    "[a link](http://example.com) and ![an image](x.png) and [ref]: /url",
    "`code` and ``double`` and a lone ` backtick",
    "# not a heading",
    "## C# and F#",
    "1. not a list",
    "2) not a list either",
    "123456789. long number",
    "- not a bullet",
    "+ not a bullet",
    "* not a bullet",
    "> not a quote",
    "---",
    "***",
    "___",
    "=====",
    "<div>raw html</div> and <span>inline</span> and <!-- comment -->",
    "<http://autolink.example> and <me@example.com>",
    "&amp; &lt; &#65; &#x41; & alone; AT&T",
    "backslash \\ and escaped \\* star and trailing \\",
    "trailing spaces  ",
    "    four leading spaces",
    "\ttab first and\ttab inside",
    "line one\nline two\n\nafter a blank line",
    "carriage\rreturn",
    "~~strike~~ and ~~~ fence ~~~",
    "``` fence in prose",
    "../../etc/passwd and ..\\..\\windows",
    [] {
      static const char text[] = "NUL \0 inside and \x01\x02\x1f controls";
      return std::string(text, sizeof text - 1);  // the NUL is part of the string
    }(),
    "| a | b |",
    "Unicode: Ünïcödé — “quotes” – ½ → ∞ 日本語",
    "a <b>bold</b> claim & a 'quote' \"double\"",
    "#",
    "-",
    "1.",
    "!",
    "[",
    "ends with #",
    "ends with ##",
    " ",
};

TEST(Markdown, RendersEveryHostileStringExactly) {
  Book book = test::sample_book("hostile");
  Chapter c;
  c.title = "Hostile *strings* <b>";
  c.first_page = c.last_page = 3;
  for (const auto& s : kHostile) {
    c.blocks.push_back(test::block(BlockType::Paragraph, s, 3));
    c.blocks.push_back(test::block(BlockType::ListItem, s, 3));
    c.blocks.push_back(test::block(BlockType::Heading, s, 3, 2));
    c.blocks.push_back(test::block(BlockType::Caption, s, 3));
    c.blocks.push_back(test::block(BlockType::Note, s, 3));
    c.blocks.push_back(test::block(BlockType::Footnote, s, 3));
  }
  book.chapters.push_back(c);
  test::TempDir out("md-hostile");
  export_book(book, out.str(), test::png_renderer());
  expect_exact(book, out.path);
}

TEST(Markdown, NoteMarksRenderRaisedWhereThePrintHasThem) {
  // Marks at the start, in the middle and at the end of every hostile string: the parser
  // sees the text pieces exactly and each mark as <sup>mark</sup>.
  Book book = test::sample_book("marks");
  Chapter c;
  c.title = "Marks";
  c.first_page = c.last_page = 3;
  for (const auto& s : kHostile) {
    const size_t n = utf8_length(s);
    for (BlockType t : {BlockType::Paragraph, BlockType::ListItem, BlockType::Note, BlockType::Footnote, BlockType::Caption}) {
      Block b = test::block(t, s, 3);
      b.marks = {{0, "1"}, {n / 2, "23"}, {n, "*"}};
      c.blocks.push_back(b);
    }
  }
  book.chapters.push_back(c);
  test::TempDir out("md-marks");
  export_book(book, out.str(), test::png_renderer());
  expect_exact(book, out.path);
  const std::string md = test::read(out.path / "books/marks/06-marks.md");
  EXPECT_NE(md.find("<sup>1</sup> \\*emphasis\\* and"), std::string::npos) << md;
}

TEST(Markdown, CodeKeepsEveryCharacterInALongerFence) {
  Book book = test::sample_book("code");
  Chapter c;
  c.title = "Code";
  c.first_page = c.last_page = 3;
  const std::vector<std::string> listings = {
      "int main() {\n    return 0;\n}",
      "```\nnested fence\n```",
      "a ```` run of four and ` one",
      "\n\nleading blank lines\n\n",
      "    indented\n\ttabbed\n  \t mixed",
      "~~~\ntilde fence\n~~~",
      "<script>alert(1)</script> & *not* _markup_",
      "",
      "trailing spaces   \nline",
      "# comment\n1. not a list\n- not a bullet\n> not a quote",
  };
  for (const auto& s : listings) c.blocks.push_back(test::block(BlockType::Code, s, 3));
  c.blocks.push_back(test::block(BlockType::Table, "Parameter  Default\nflush     500 ms", 3));
  book.chapters.push_back(c);
  test::TempDir out("md-code");
  export_book(book, out.str(), test::png_renderer());
  expect_exact(book, out.path);
  std::string md = test::read(out.path / "books/code/06-code.md");
  EXPECT_NE(md.find("`````\na ```` run"), std::string::npos) << md;  // fence longer than the run
}

TEST(Markdown, SampleBookRendersExactlyWithFiguresInPlace) {
  Book book = test::sample_book();
  test::TempDir out("md-sample");
  export_book(book, out.str(), test::png_renderer());
  expect_exact(book, out.path);
  std::string md = test::read(out.path / "books/ringlog/02-getting-started.md");
  EXPECT_EQ(md.substr(0, 21), "# 1 Getting Started\n\n");
  EXPECT_NE(md.find("- Create the spool directory.\n- Enable and start the service.\n"), std::string::npos) << md;
  EXPECT_NE(md.find("![Figure 1.1](figures/02-getting-started-1.png)\n\nFigure 1.1: Ring occupancy"),
            std::string::npos)
      << md;
}

TEST(Markdown, NestedItemsNestInCommonMark) {
  // Items at levels 1, 2, 3, 2, 1: each is set in under its parent's text, and the parser
  // nests the lists so; texts that look like list markers stay text.
  Book book = test::sample_book("nested");
  book.chapters.resize(1);
  auto& blocks = book.chapters[0].blocks;
  blocks.resize(1);  // the chapter's title heading
  const std::vector<std::pair<int, std::string>> items = {
      {1, "1. Download the archive."}, {2, "• Use the nearest mirror."}, {3, "- not a bullet (a) deeper"},
      {2, "• Keep the signature."}, {1, "2. Unpack it."}};
  for (const auto& [level, text] : items) {
    Block b = test::block(BlockType::ListItem, text, 3);
    b.level = level;
    blocks.push_back(b);
  }
  test::TempDir out("md-nested");
  export_book(book, out.str(), test::png_renderer());
  expect_exact(book, out.path);
}

TEST(Markdown, TablesWithCellsArePipeTablesNotesAreTitledQuotes) {
  // A table with cells: a GFM pipe table, its header the book's (or an empty one), a pipe in
  // a cell escaped; a table without cells stays fenced. A note: a block quote led by its
  // title in bold.
  Book book = test::sample_book("structure");
  book.chapters.resize(1);
  auto& blocks = book.chapters[0].blocks;
  blocks.resize(1);  // the chapter's title heading
  Block head = test::block(BlockType::Table, "Name  Value\na|b   1 *", 3);
  head.rows = {{"Name", "Value"}, {"a|b", "1 *"}};
  head.header_rows = 1;
  Block bare = test::block(BlockType::Table, "x  1\ny  2", 3);
  bare.rows = {{"x", "1"}, {"y", ""}};
  Block fenced = test::block(BlockType::Table, "p  q", 3);
  Block note = test::block(BlockType::Note, "Keep a copy of the key.", 3);
  note.kind = "tip";
  note.title = "Tip";
  blocks.insert(blocks.end(), {head, bare, fenced, note});
  test::TempDir out("md-structure");
  export_book(book, out.str(), test::png_renderer());
  std::string md;
  for (const auto& e : fs::directory_iterator(out.path / "books/structure"))
    if (e.path().extension() == ".md") md = test::read(e.path());
  EXPECT_NE(md.find("| Name | Value |\n| --- | --- |\n| a\\|b | 1 \\* |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("|  |  |\n| --- | --- |\n| x | 1 |\n| y |  |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("```\np  q\n```\n"), std::string::npos) << md;
  EXPECT_NE(md.find("> **Tip**\n>\n> Keep a copy of the key.\n"), std::string::npos) << md;
}

TEST(Markdown, ChapterWithoutTitleHeadingGetsOne) {
  Book book = test::sample_book("notitle");
  book.chapters.resize(1);
  book.chapters[0].title = "Preface *draft*";
  book.chapters[0].blocks.erase(book.chapters[0].blocks.begin());
  test::TempDir out("md-notitle");
  export_book(book, out.str(), test::png_renderer());
  expect_exact(book, out.path);
  EXPECT_EQ(test::read(out.path / "books/notitle/01-preface-draft.md").substr(0, 20), "# Preface \\*draft\\*\n");
}

}  // namespace
}  // namespace quire
