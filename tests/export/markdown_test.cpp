// Markdown escaping proven with a real parser, GitHub's (libcmark-gfm: CommonMark with every
// GFM extension a GitHub reader gets: tables, strikethrough, autolinks, task lists, the tag
// filter): the text of every block of every rendered chapter equals the block's source text.
#include <gtest/gtest.h>

#include <map>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include "helpers.h"
#include "quire/json.h"
#include "quire/text.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>

namespace quire {
namespace {

namespace fs = std::filesystem;

struct Rendered {
  Rendered(std::string kind, std::string text, int level = 0) : kind(std::move(kind)), text(std::move(text)), level(level) {}
  std::string kind;  // heading, paragraph, code, list_item, note, figure
  std::string text;  // or the image URL for a figure
  int level = 0;
  std::string anchor;  // a heading's or figure's <a id>
  std::string list;    // a list item's list: "bullet", or "ordered 3." / "ordered 3)"
};

// Text as a reader sees it, each visible character followed by what it is set in and linked
// to ("f{code}"): so styles and links compare character by character, whatever markup
// writes them. Markup nodes left are shown as tags so that any leak fails the test.
struct Styled {
  std::vector<std::string> around;  // open styles and links, outermost first
  std::string out;
  void add(std::string_view text, bool tagged = true) {
    std::string tags;
    std::vector<std::string> sorted = around;
    std::sort(sorted.begin(), sorted.end());
    for (const auto& t : sorted) tags += (tags.empty() ? "" : ",") + t;
    for (size_t i = 0; i < text.size();) {
      size_t n = 1;
      while (i + n < text.size() && (static_cast<unsigned char>(text[i + n]) & 0xC0) == 0x80) ++n;
      out.append(text, i, n);
      const bool space = text[i] == ' ' || text[i] == '\t' || text[i] == '\n';
      if (tagged && !space && !tags.empty()) out += "{" + tags + "}";
      i += n;
    }
  }
};

// The characters of a node's text and code, without any markup.
std::string plain_text(cmark_node* node) {
  std::string out;
  for (cmark_node* c = cmark_node_first_child(node); c; c = cmark_node_next(c)) {
    const cmark_node_type t = cmark_node_get_type(c);
    if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE) out += cmark_node_get_literal(c);
    else out += plain_text(c);
  }
  return out;
}

void inline_text(cmark_node* node, Styled& s, Rendered* r) {
  for (cmark_node* c = cmark_node_first_child(node); c; c = cmark_node_next(c)) {
    auto nest = [&](const std::string& tag) {
      s.around.push_back(tag);
      inline_text(c, s, r);
      s.around.pop_back();
    };
    switch (cmark_node_get_type(c)) {
      case CMARK_NODE_TEXT: s.add(cmark_node_get_literal(c)); break;
      case CMARK_NODE_SOFTBREAK: s.add("<softbreak>", false); break;
      case CMARK_NODE_LINEBREAK: s.add("<linebreak>", false); break;
      case CMARK_NODE_CODE: {
        s.around.push_back("code");
        s.add(cmark_node_get_literal(c));
        s.around.pop_back();
        break;
      }
      case CMARK_NODE_HTML_INLINE: {
        const std::string lit = cmark_node_get_literal(c);
        if (r && lit.rfind("<a id=\"", 0) == 0 && r->anchor.empty() && s.out.empty()) {
          r->anchor = lit.substr(7, lit.size() - 9);
          break;
        }
        if (r && lit == "</a>" && !r->anchor.empty() && s.out.empty()) break;
        s.add("<html>" + lit + "</html>", false);
        break;
      }
      case CMARK_NODE_EMPH: nest("em"); break;
      case CMARK_NODE_CODE_BLOCK: s.add("<code block>", false); break;
      case CMARK_NODE_STRONG: nest("strong"); break;
      case CMARK_NODE_LINK: {
        // An e-mail address GFM links by itself (no escape keeps its autolink extension off
        // one) links to what it says: the reader sees the same text, and no link is wrong.
        const std::string url = cmark_node_get_url(c);
        if (url == "mailto:" + plain_text(c) || url == plain_text(c)) inline_text(c, s, r);
        else nest("link " + url);
        break;
      }
      case CMARK_NODE_IMAGE: s.add("<image>" + std::string(cmark_node_get_url(c)) + "</image>", false); break;
      default: s.add("<" + std::string(cmark_node_get_type_string(c)) + ">", false); break;
    }
  }
}

std::string inline_text(cmark_node* node, Rendered* r = nullptr) {
  Styled s;
  inline_text(node, s, r);
  return s.out;
}

// A list's items in order, each with its depth (1: not in another item); a list inside an
// item follows that item. Anything else inside an item is reported.
void render_list(cmark_node* list, int level, std::vector<Rendered>& out) {
  std::string kind = "bullet";
  if (cmark_node_get_list_type(list) == CMARK_ORDERED_LIST)
    kind = "ordered " + std::to_string(cmark_node_get_list_start(list)) +
           (cmark_node_get_list_delim(list) == CMARK_PAREN_DELIM ? ")" : ".");
  for (cmark_node* item = cmark_node_first_child(list); item; item = cmark_node_next(item)) {
    cmark_node* p = cmark_node_first_child(item);
    Rendered r{"list_item", "", level};
    r.text = p ? inline_text(p) : "";
    r.list = kind;
    out.push_back(r);
    if (kind != "bullet") kind = "ordered next";  // only the first item's number counts
    for (cmark_node* more = p ? cmark_node_next(p) : nullptr; more; more = cmark_node_next(more)) {
      if (cmark_node_get_type(more) == CMARK_NODE_LIST) render_list(more, level + 1, out);
      else out.push_back({"extra block in list item", ""});
    }
  }
}

// A GFM table as rows of cells: a cell's text as inline_text gives it, cells apart by " | ",
// rows by "<row>"; the header row first.
std::string table_text(cmark_node* table) {
  std::string text;
  for (cmark_node* row = cmark_node_first_child(table); row; row = cmark_node_next(row)) {
    if (!text.empty()) text += "<row>";
    bool first = true;
    for (cmark_node* cell = cmark_node_first_child(row); cell; cell = cmark_node_next(cell)) {
      text += (first ? "" : " | ") + inline_text(cell);
      first = false;
    }
  }
  return text;
}

std::vector<Rendered> render(const std::string& md) {
  std::vector<Rendered> out;
  cmark_gfm_core_extensions_ensure_registered();
  cmark_parser* parser = cmark_parser_new(CMARK_OPT_DEFAULT);
  for (const char* name : {"table", "strikethrough", "autolink", "tasklist", "tagfilter"})
    cmark_parser_attach_syntax_extension(parser, cmark_find_syntax_extension(name));
  cmark_parser_feed(parser, md.data(), md.size());
  cmark_node* doc = cmark_parser_finish(parser);
  cmark_parser_free(parser);
  for (cmark_node* n = cmark_node_first_child(doc); n; n = cmark_node_next(n)) {
    if (std::string_view(cmark_node_get_type_string(n)) == "table") {
      out.push_back({"table", table_text(n)});
      continue;
    }
    switch (cmark_node_get_type(n)) {
      case CMARK_NODE_HEADING: {
        Rendered r{"heading", "", cmark_node_get_heading_level(n)};
        r.text = inline_text(n, &r);
        out.push_back(r);
        break;
      }
      case CMARK_NODE_PARAGRAPH: {
        Rendered r{"paragraph", ""};
        r.text = inline_text(n, &r);
        if (r.text.rfind("<image>", 0) == 0 && r.text.size() > 15 && r.text.find("</image>") == r.text.size() - 8) {
          r.kind = "figure";
          r.text = r.text.substr(7, r.text.size() - 15);
        }
        out.push_back(r);
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
        // A titled note: its first paragraph is the title alone, in bold; the text follows.
        if (p && cmark_node_next(p) && cmark_node_get_type(p) == CMARK_NODE_PARAGRAPH) {
          cmark_node* only = cmark_node_first_child(p);
          if (only && !cmark_node_next(only) && cmark_node_get_type(only) == CMARK_NODE_STRONG) p = cmark_node_next(p);
        }
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

// A link whose target is its own text, or "mailto:" and its text: the test reads such a link
// as text (see inline_text).
bool links_itself(const Block& b, const TextLink& l) {
  const std::u32string cps = to_u32(b.text);
  if (l.at + l.len > cps.size()) return false;
  const std::string text = from_u32(cps.substr(l.at, l.len));
  return l.href == text || l.href == "mailto:" + text;
}

// A block's text as the parser must report it, from the JSON's own fields: each character
// with the styles and links that cover it; note marks are raw inline HTML around the mark.
std::string visible(const Block& b, size_t skip = 0) {
  Styled s;
  const char* base = b.text.data();
  text_with_marks(
      b.text, b.marks, MarksAs::Printed,
      [&](std::string_view piece) {
        const std::less_equal<const char*> le;
        if (!(le(base, piece.data()) && le(piece.data(), base + b.text.size()))) {
          s.add(visible(std::string(piece)));
          return std::string();
        }
        size_t cp = utf8_length(std::string_view(base, static_cast<size_t>(piece.data() - base)));
        for (size_t i = 0; i < piece.size();) {
          size_t n = 1;
          while (i + n < piece.size() && (static_cast<unsigned char>(piece[i + n]) & 0xC0) == 0x80) ++n;
          s.around.clear();
          if (cp >= skip) {
            for (const auto& r : b.styles)
              if (cp >= r.at && cp < r.at + r.len) s.around.push_back(to_string(r.style));
            for (const auto& l : b.links)
              if (cp >= l.at && cp < l.at + l.len && !links_itself(b, l)) s.around.push_back("link " + l.href);
            s.add(visible(std::string(piece.substr(i, n))));
          }
          i += n;
          ++cp;
        }
        return std::string();
      },
      [&](const std::string& m) {
        s.around.clear();
        s.add("<html><sup></html>" + m + "<html></sup></html>", false);
        return std::string();
      });
  return s.out;
}

// A cell's text as a reader sees it: GFM trims a cell, and a cell holds no line break.
std::string cell_text(std::string cell) {
  for (char& c : cell)
    if (c == '\n') c = ' ';
  const size_t a = cell.find_first_not_of(" \t"), z = cell.find_last_not_of(" \t");
  return a == std::string::npos ? std::string() : cell.substr(a, z - a + 1);
}

// How a list item's printed marker is written: an enumerator CommonMark has ("3." "3)")
// starts an ordered list, a bullet is "-", and either leaves the text; any other marker
// stays in the text of a "-" item. Returns the list kind and the code points the marker
// takes (with its space).
std::pair<std::string, size_t> list_of(const Block& b) {
  if (b.drawn_marker || b.term) return {"bullet", 0};  // (a term has no marker)
  const size_t sp = b.text.find(' ');
  const std::string token = b.text.substr(0, sp);
  const size_t taken = utf8_length(token) + (sp == std::string::npos ? 0 : 1);
  for (const auto& m : b.marks)
    if (m.at <= taken) return {"bullet", 0};
  size_t d = 0;
  while (d < token.size() && std::isdigit(static_cast<unsigned char>(token[d]))) ++d;
  if (d > 0 && d <= 9 && d + 1 == token.size() && (token.back() == '.' || token.back() == ')'))
    return {"ordered " + std::to_string(std::stoll(token.substr(0, d))) + token.back(), taken};
  // The bullets of docs/spec/corpus.md.
  for (const char* bullet : {"-", "*", "+", "\u2022", "\u25E6", "\u25AA", "\u25AB", "\u2023", "\u2219", "\u00B7",
                             "\u2013", "\u2014", "\u2212", "\u25CF", "\u25CB", "\u25A0", "\u25A1", "\u25BA",
                             "\u25B8", "\u25B6", "\u2043", "\u2192", "\u2713", "\u2714", "\u27A2", "\u2756",
                             "\u25C6", "\u25C7", "\u2605", "\u2606"})
    if (token == bullet) return {"bullet", taken};
  return {"bullet", 0};
}

std::vector<Rendered> expected(const Chapter& c, const std::string& book_id) {
  std::vector<Rendered> out;
  if (c.blocks.empty() || c.blocks[0].type != BlockType::Heading || c.blocks[0].level != 1)
    out.push_back({"heading", visible(c.title), 1});
  std::string previous;        // the list kind of the item before, at each level
  std::vector<std::string> open;  // list kind open at each depth
  std::vector<int> levels;        // the levels of the open items, outermost first
  BlockType before = BlockType::Heading;
  for (const auto& block : c.blocks) {
    const Block b = markdown_styles(block);  // (an emphasis CommonMark cannot delimit is left out)
    switch (b.type) {
      case BlockType::Heading: {
        std::string label;  // a chapter's opener label, before its title
        for (const auto& l : b.labels) label += visible(l) + " ";
        Rendered r{"heading", label + visible(b), std::clamp(b.level, 1, 6)};
        r.anchor = b.anchor;
        out.push_back(r);
        break;
      }
      case BlockType::Code: out.push_back({"code", visible(b.text)}); break;
      case BlockType::Table: {
        if (b.rows.empty()) {
          out.push_back({"code", visible(b.text)});
          break;
        }
        // A GFM table: the book's header row, or an empty one; every row as wide as the
        // widest, each cell's text as the JSON gives it.
        size_t columns = 0;
        for (const auto& row : b.rows) columns = std::max(columns, row.size());
        auto line = [&](const std::vector<std::string>* row) {
          std::string l;
          for (size_t k = 0; k < columns; ++k)
            l += (k ? " | " : "") + (row && k < row->size() ? visible(cell_text((*row)[k])) : std::string());
          return l;
        };
        std::string text = line(b.header_rows > 0 ? &b.rows.front() : nullptr);
        for (size_t i = b.header_rows > 0 ? 1 : 0; i < b.rows.size(); ++i) text += "<row>" + line(&b.rows[i]);
        out.push_back({"table", text});
        break;
      }
      case BlockType::ListItem: {
        auto [kind, skip] = list_of(b);
        // An item nests as deep as the items open above it allow: one set further in than
        // its parent with no item between is a level down, whatever its own level says.
        if (before != BlockType::ListItem) {
          open.clear();
          levels.clear();
        }
        while (!levels.empty() && levels.back() >= std::max(b.level, 1)) levels.pop_back();
        levels.push_back(std::max(b.level, 1));
        const size_t level = levels.size();
        open.resize(level);
        // The next item of the same kind of list goes on with it: its number is not read.
        const bool same = !open[level - 1].empty() &&
                          (open[level - 1] == kind || (open[level - 1].rfind("ordered", 0) == 0 &&
                                                       kind.rfind("ordered", 0) == 0 &&
                                                       open[level - 1].back() == kind.back()));
        open[level - 1] = kind;
        Rendered r{"list_item", visible(b, skip), static_cast<int>(level)};
        r.list = same && kind != "bullet" ? "ordered next" : kind;
        out.push_back(r);
        break;
      }
      case BlockType::Note:
        if (b.text.empty() && !b.title.empty()) {
          // A note printed as its title alone: a block quote of that title in bold.
          Block t = b;
          t.text = b.title;
          t.styles = {{0, utf8_length(b.title), InlineStyle::Strong}};
          t.links.clear();
          t.marks.clear();
          out.push_back({"note", visible(t)});
        } else {
          out.push_back({"note", visible(b)});
        }
        break;
      case BlockType::Figure:
        if (!b.image.empty()) {
          Rendered r{"figure", b.image.substr(("books/" + book_id + "/").size())};
          r.anchor = b.anchor;
          out.push_back(r);
        }
        break;
      default:
        if (!b.text.empty()) {
          Rendered r{"paragraph", visible(b)};
          if (b.type == BlockType::Footnote) r.anchor = b.anchor;
          out.push_back(r);
        }
    }
    if (b.type != BlockType::Figure || !b.image.empty()) before = b.type;
  }
  return out;
}

void expect_exact(const Book& book, const fs::path& out) {
  for (size_t i = 0; i < book.chapters.size(); ++i) {
    Json j = Json::parse(test::read(out / "books" / book.id / "book.json"));
    std::string md = test::read(out / j["chapters"][i]["markdown"].get<std::string>());
    const Json chapter = Json::parse(test::read(out / j["chapters"][i]["blocks"].get<std::string>()));
    Chapter written = book.chapters[i];
    written.blocks.clear();
    for (const auto& bj : chapter.at("blocks")) written.blocks.push_back(block_from_json(bj));
    auto got = render(md);
    auto want = expected(written, book.id);
    ASSERT_EQ(got.size(), want.size()) << md;
    for (size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].kind, want[k].kind) << "block " << k << " of\n" << md;
      EXPECT_EQ(got[k].text, want[k].text) << "block " << k << " of\n" << md;
      EXPECT_EQ(got[k].level, want[k].level) << "block " << k;
      EXPECT_EQ(got[k].anchor, want[k].anchor) << "block " << k;
      EXPECT_EQ(got[k].list, want[k].list) << "block " << k << " of\n" << md;
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
    "bare addresses GFM would link: http://x.org/a, HTTPS://X.ORG, ftp://f.example, www.example.org (www.x)",
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
      {2, "• Keep the signature."}, {2, "\u2212 A point marked with a minus sign."}, {1, "2. Unpack it."}};
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
  // title in bold, or that title alone where the note is printed as its title alone.
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
  Block alone = test::block(BlockType::Note, "", 3);
  alone.kind = "note";
  alone.title = "NOTE";
  blocks.insert(blocks.end(), {head, bare, fenced, note, alone});
  test::TempDir out("md-structure");
  export_book(book, out.str(), test::png_renderer());
  std::string md;
  for (const auto& e : fs::directory_iterator(out.path / "books/structure"))
    if (e.path().extension() == ".md") md = test::read(e.path());
  EXPECT_NE(md.find("| Name | Value |\n| --- | --- |\n| a\\|b | 1 \\* |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("|  |  |\n| --- | --- |\n| x | 1 |\n| y |  |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("```\np  q\n```\n"), std::string::npos) << md;
  EXPECT_NE(md.find("> **Tip**\n>\n> Keep a copy of the key.\n"), std::string::npos) << md;
  EXPECT_NE(md.find("\n> **NOTE**\n"), std::string::npos) << md;
  expect_exact(book, out.path);
}

TEST(Markdown, EmphasisIsWrittenOnlyWhereCommonMarkCanDelimitIt) {
  // CommonMark 6.2: a '*' opens only before a character that is not punctuation, or after
  // white space or punctuation; it closes only after a character that is not punctuation,
  // or before white space or punctuation. A backtick is punctuation. An emphasis that
  // cannot be delimited where it stands is left out of the Markdown, its words kept; every
  // other one is written. The parse back (expect_exact) proves the Markdown says what
  // markdown_styles() says; the table says what that must be.
  struct Case {
    std::string text;
    std::vector<StyleRun> styles;
    bool emphasis_kept;
  };
  using S = InlineStyle;
  const std::vector<Case> cases = {
      {"\u27E8cs1\u27E9 is a name", {{1, 2, S::Code}, {1, 2, S::Emphasis}}, false},   // `cs` then a digit
      {"see \u27E8cs\u27E9 here", {{5, 2, S::Code}, {5, 2, S::Emphasis}}, true},      // brackets both sides
      {"xay is one token", {{1, 1, S::Code}, {1, 1, S::Emphasis}}, false},              // a letter before `a`
      {"an italic, word", {{3, 6, S::Emphasis}}, true},                                  // comma after
      {"intraword emphasis", {{5, 4, S::Emphasis}}, true},                               // "word" in a word
      {"a\u22C6x is a star", {{1, 2, S::Emphasis}}, true},                              // a symbol is no punctuation
      {"x(a)y in parentheses", {{1, 3, S::Emphasis}}, false},                            // '(' after a letter
      {"bold (here) now", {{5, 6, S::Strong}}, true},                                    // punctuation, spaces
  };
  Book book = test::sample_book("flanking");
  book.chapters.resize(1);
  auto& blocks = book.chapters[0].blocks;
  blocks.resize(1);  // the chapter's title heading
  for (const auto& c : cases) {
    Block b = test::block(BlockType::Paragraph, c.text, 3);
    b.styles = c.styles;
    const Block written = markdown_styles(b);
    const bool kept = std::any_of(written.styles.begin(), written.styles.end(),
                                  [](const StyleRun& r) { return r.style != InlineStyle::Code; });
    EXPECT_EQ(kept, c.emphasis_kept) << c.text;
    // Code and the text itself are never left out.
    EXPECT_EQ(written.text, b.text);
    for (const auto& r : b.styles) {
      if (r.style == InlineStyle::Code) {
        EXPECT_NE(std::find(written.styles.begin(), written.styles.end(), r), written.styles.end()) << c.text;
      }
    }
    blocks.push_back(b);
  }
  test::TempDir out("md-flanking");
  export_book(book, out.str(), test::png_renderer());
  expect_exact(book, out.path);
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

namespace quire {
namespace {

// Runs as layout makes them, on the words of a text: an emphasis on the letters and digits of
// a word, code on a whole word (backticks, stars and all) with an emphasis on its letters and
// digits, a strong word, and a link over two words, one of them styled.
void style_words(Block& b) {
  const std::u32string t = to_u32(b.text);
  std::vector<std::pair<size_t, size_t>> words;  // [from, to) of each word with a letter or digit
  for (size_t i = 0; i < t.size();) {
    if (t[i] == U' ' || t[i] == U'\t' || t[i] == U'\n' || t[i] == U'\r') {
      ++i;
      continue;
    }
    size_t j = i;
    bool alnum = false;
    while (j < t.size() && t[j] != U' ' && t[j] != U'\t' && t[j] != U'\n' && t[j] != U'\r')
      alnum = alnum || (t[j] < 0x80 && std::isalnum(static_cast<int>(t[j]))), ++j;
    if (alnum) words.push_back({i, j});
    i = j;
  }
  auto core = [&](std::pair<size_t, size_t> w) {
    while (!(t[w.first] < 0x80 && std::isalnum(static_cast<int>(t[w.first])))) ++w.first;
    while (!(t[w.second - 1] < 0x80 && std::isalnum(static_cast<int>(t[w.second - 1])))) --w.second;
    return w;
  };
  if (words.size() > 0) {
    auto w = core(words[0]);
    b.styles.push_back({w.first, w.second - w.first, InlineStyle::Emphasis});
  }
  if (words.size() > 1) {
    b.styles.push_back({words[1].first, words[1].second - words[1].first, InlineStyle::Code});
    // (An italic placeholder inside the code: an emphasis within its run.)
    auto w = core(words[1]);
    b.styles.push_back({w.first, w.second - w.first, InlineStyle::Emphasis});
  }
  if (words.size() > 2) {
    auto w = core(words[2]);
    b.styles.push_back({w.first, w.second - w.first, InlineStyle::Strong});
  }
  if (words.size() > 1) b.links.push_back({words[0].first, words[1].second - words[0].first, "https://example.org/a(b)<c>&amp;d e"});
  else if (words.size() == 1) b.links.push_back({words[0].first, words[0].second - words[0].first, "#an-anchor"});
}

TEST(Markdown, StylesAndLinksRenderAsTheJsonSays) {
  // Every hostile string with styled and linked words, in every kind of text block: the
  // parser sees each character in the styles and links the JSON gives it, and no other.
  Book book = test::sample_book("styled");
  Chapter c;
  c.title = "Styled";
  c.first_page = c.last_page = 3;
  std::vector<std::string> texts = kHostile;
  texts.push_back("The header stdatomic.h, and *this* one; see `that` too.");
  texts.push_back("\u2022 An item: its marker is a bullet, then code_words and more.");
  texts.push_back("12. An ordered item from twelve, with words enough.");
  for (const auto& s : texts)
    for (BlockType t : {BlockType::Paragraph, BlockType::ListItem, BlockType::Heading, BlockType::Caption,
                        BlockType::Note, BlockType::Footnote}) {
      Block b = test::block(t, s, 3, t == BlockType::Heading ? 2 : 0);
      style_words(b);
      c.blocks.push_back(b);
    }
  book.chapters.push_back(c);
  test::TempDir out("md-styled");
  export_book(book, out.str(), test::png_renderer());
  expect_exact(book, out.path);
  const std::string md = test::read(out.path / "books/styled/06-styled.md");
  const std::string dest = "(<https://example.org/a(b)\\<c\\>&amp;amp;d e>)";
  // (Emphasis inside code stands around a code span of its own.)
  EXPECT_NE(md.find("\n[*The* *`header`*]" + dest + " **stdatomic.h**, and \\*this\\* one"), std::string::npos) << md;
  EXPECT_NE(md.find("\n- [*An* *`item`*`:`]" + dest + " **its** marker"), std::string::npos) << md;  // "•" is "-" once
  // (The marker "12." took the emphasis of the first word: it is list syntax now.)
  EXPECT_NE(md.find("\n12. [*`An`*]" + dest + " **ordered** item"), std::string::npos) << md;
}

TEST(Markdown, ListsStartAtTheirNumberAndNest) {
  // An ordered list starts at its printed number; a bullet is "-" once; a list that starts
  // at another number than 1 right under an item gets a blank line, or it would be text.
  Book book = test::sample_book("lists");
  book.chapters.resize(1);
  auto& blocks = book.chapters[0].blocks;
  blocks.resize(1);
  const std::vector<std::pair<int, std::string>> items = {
      {1, "3. Third step."}, {1, "4. Fourth step."}, {2, "a) a lettered item"}, {2, "\u2022 a bullet"},
      {3, "7) seven, nested"}, {1, "\u2022 back at the top"}, {1, "5. five after bullets"}, {1, "\u2022"}};
  for (const auto& [level, text] : items) {
    Block b = test::block(BlockType::ListItem, text, 3);
    b.level = level;
    blocks.push_back(b);
  }
  test::TempDir out("md-lists");
  export_book(book, out.str(), test::png_renderer());
  expect_exact(book, out.path);
  const std::string md = test::read(out.path / "books/lists/01-preface.md");
  EXPECT_NE(md.find("3. Third step.\n4. Fourth step.\n   - a) a lettered item\n   - a bullet\n\n     7) seven, nested\n"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("- \u2022"), std::string::npos) << md;
}

TEST(Markdown, ATermIsAnItemOfItsWholeText) {
  // A definition list's term has no marker: its first word stays text even where it looks
  // like one ("1.", "-", "•"), and its description follows as a paragraph.
  Book book = test::sample_book("terms");
  book.chapters.resize(1);
  auto& blocks = book.chapters[0].blocks;
  blocks.resize(1);
  for (const std::string& text : {std::string("--verbose"), std::string("1. not a number"), std::string("- dash"),
                                  std::string("• bullet")}) {
    Block t = test::block(BlockType::ListItem, text, 3);
    t.term = true;
    blocks.push_back(t);
    blocks.push_back(test::block(BlockType::Paragraph, "What the term means.", 3));
  }
  test::TempDir out("md-terms");
  export_book(book, out.str(), test::png_renderer());
  expect_exact(book, out.path);
  const std::string md = test::read(out.path / "books/terms/01-preface.md");
  EXPECT_NE(md.find("- \\--verbose\n\nWhat the term means.\n\n- 1\\. not a number\n"), std::string::npos) << md;
  EXPECT_NE(md.find("- \u2022 bullet\n"), std::string::npos) << md;
}

// Every chapter of a corpus: its Markdown, parsed, shows the blocks, styles, links, anchors
// and lists its JSON gives. Returns the number of chapters.
size_t expect_corpus_parses_as_json(const fs::path& corpus) {
  size_t chapters = 0;
  const Json manifest = Json::parse(test::read(corpus / "manifest.json"));
  for (const auto& bj : manifest.at("books")) {
    std::map<std::string, std::string> anchors;  // anchor -> the chapter that holds it
    for (const auto& cj : bj.at("chapters")) {
      const Json blocks = Json::parse(test::read(corpus / cj.at("blocks").get<std::string>()));
      for (const auto& b : blocks.at("blocks"))
        if (b.contains("anchor")) anchors.emplace(b.at("anchor").get<std::string>(), cj.at("id").get<std::string>());
    }
    for (const auto& cj : bj.at("chapters")) {
      const std::string md = test::read(corpus / cj.at("markdown").get<std::string>());
      const Json chapter = Json::parse(test::read(corpus / cj.at("blocks").get<std::string>()));
      Chapter c;
      c.title = chapter.at("title").get<std::string>();
      for (const auto& b : chapter.at("blocks")) c.blocks.push_back(block_from_json(b));
      // The JSON names a link's target by its anchor; the Markdown leads one in another
      // chapter to that chapter's file.
      for (auto& b : c.blocks)
        for (auto& l : b.links) {
          auto it = l.href.empty() || l.href[0] != '#' ? anchors.end() : anchors.find(l.href.substr(1));
          if (it != anchors.end() && it->second != cj.at("id").get<std::string>()) l.href = it->second + ".md" + l.href;
        }
      auto got = render(md);
      auto want = expected(c, bj.at("id").get<std::string>());
      EXPECT_EQ(got.size(), want.size()) << cj.at("markdown");
      for (size_t k = 0; k < std::min(got.size(), want.size()); ++k) {
        EXPECT_EQ(got[k].kind, want[k].kind) << cj.at("markdown") << " block " << k;
        EXPECT_EQ(got[k].text, want[k].text) << cj.at("markdown") << " block " << k;
        EXPECT_EQ(got[k].level, want[k].level) << cj.at("markdown") << " block " << k;
        EXPECT_EQ(got[k].anchor, want[k].anchor) << cj.at("markdown") << " block " << k;
        EXPECT_EQ(got[k].list, want[k].list) << cj.at("markdown") << " block " << k;
        if (got[k].text != want[k].text || got[k].kind != want[k].kind) break;  // one report a chapter
      }
      ++chapters;
    }
  }
  return chapters;
}

TEST(Markdown, EveryGoldenChapterParsesAsItsJson) {
  size_t chapters = 0;
  for (const auto& dir : fs::directory_iterator(fs::path(QUIRE_SOURCE_DIR) / "fixtures" / "golden"))
    chapters += expect_corpus_parses_as_json(dir.path());
  EXPECT_GT(chapters, 0u);
}

// The same for any corpus named by QUIRE_MARKDOWN_CORPUS (a build of real books); skipped
// without it.
TEST(Markdown, EveryChapterOfAGivenCorpusParsesAsItsJson) {
  const char* corpus = std::getenv("QUIRE_MARKDOWN_CORPUS");
  if (!corpus || !*corpus) GTEST_SKIP() << "QUIRE_MARKDOWN_CORPUS names no corpus";
  EXPECT_GT(expect_corpus_parses_as_json(corpus), 0u);
}

}  // namespace
}  // namespace quire
