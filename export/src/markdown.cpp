#include "markdown.h"

#include "inline.h"
#include "quire/export.h"
#include "quire/typography.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <vector>

namespace quire::exporting {

namespace {

// CommonMark strips these at both ends of a paragraph or heading (spec 4.8, 4.2).
bool is_md_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string char_ref(unsigned char c) { return "&#" + std::to_string(static_cast<int>(c)) + ";"; }

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// A heading's, figure's or footnote's anchor as raw inline HTML, which internal links point at.
std::string anchor_html(const Block& b) {
  if (b.anchor.empty()) return {};
  return "<a id=\"" + b.anchor + "\"></a>";
}

bool lower_is(std::string_view s, size_t at, std::string_view word) {
  if (at + word.size() > s.size()) return false;
  for (size_t k = 0; k < word.size(); ++k) {
    char c = s[at + k];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != word[k]) return false;
  }
  return true;
}

// The '.' at `dot` ends a "www" that GFM's extended autolink would take for a web address.
bool gfm_www(std::string_view s, size_t dot) {
  if (dot < 3 || !lower_is(s, dot - 3, "www")) return false;
  return dot == 3 || !is_alnum(s[dot - 4]);
}

// The ':' at `colon` follows a scheme GFM's extended autolink takes ("http", "https", "ftp",
// any case) and comes before "//".
bool gfm_scheme(std::string_view s, size_t colon) {
  if (colon + 2 >= s.size() + 0 || s.substr(colon + 1, 2) != "//") return false;
  for (std::string_view scheme : {"https", "http", "ftp"})
    if (colon >= scheme.size() && lower_is(s, colon - scheme.size(), scheme)) return true;
  return false;
}

}  // namespace

std::string markdown_escape(std::string_view s, bool heading, bool starts, bool ends) {
  size_t begin = 0, end = s.size();
  while (starts && begin < end && is_md_space(s[begin])) ++begin;
  while (ends && end > begin && is_md_space(s[end - 1])) --end;
  // A heading's closing sequence: '#'s at the end, after a space, are markup (spec 4.2).
  size_t closing = end;
  if (heading)
    while (closing > begin && s[closing - 1] == '#') --closing;

  std::string out;
  out.reserve(s.size() + 16);
  for (size_t i = 0; i < begin; ++i) out += char_ref(static_cast<unsigned char>(s[i]));
  // Block starts at the beginning of the line: ATX heading, block quote, bullet list,
  // thematic break, setext underline, ordered list ("12." / "12)").
  size_t ordered_mark = std::string_view::npos;
  if (starts) {
    size_t k = begin;
    while (k < end && k - begin < 10 && s[k] >= '0' && s[k] <= '9') ++k;
    if (k > begin && k < end && (s[k] == '.' || s[k] == ')')) ordered_mark = k;
  }
  for (size_t i = begin; i < end; ++i) {
    char c = s[i];
    bool line_start = starts && i == begin;
    switch (c) {
      case '\\': case '`': case '*': case '_': case '[': case ']': case '<': case '~':
        out += '\\';
        out += c;
        break;
      case '&':
        // Only "&name;" / "&#123;" can be a character reference.
        if (i + 1 < end && (is_alnum(s[i + 1]) || s[i + 1] == '#')) out += '\\';
        out += c;
        break;
      case '#': case '>': case '-': case '+': case '=':
        if (line_start || (c == '#' && i >= closing)) out += '\\';
        out += c;
        break;
      case '.': case ')':
        // GFM reads "www." after a space or the start as a link (its autolink extension).
        if (i == ordered_mark || (c == '.' && gfm_www(s, i))) out += '\\';
        out += c;
        break;
      case ':':
        // ...and "http://", "https://", "ftp://" anywhere: the colon escaped, it reads as text.
        if (gfm_scheme(s, i)) out += '\\';
        out += c;
        break;
      case '\n': case '\r':
        out += char_ref(static_cast<unsigned char>(c));
        break;
      case '\0':
        out += "\xEF\xBF\xBD";
        break;
      default:
        out += c;
    }
  }
  for (size_t i = end; i < s.size(); ++i) out += char_ref(static_cast<unsigned char>(s[i]));
  return out;
}

namespace {

// A code run as a code span: backticks more than any run inside, and a space inside each
// end where the code starts or ends with a backtick (CommonMark takes one off each side).
std::string code_span(std::string_view code) {
  size_t longest = 0, run = 0;
  for (char c : code) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string ticks(longest + 1, '`');
  const bool pad = !code.empty() && (code.front() == '`' || code.back() == '`');
  std::string out = ticks + (pad ? " " : "");
  for (char c : code) out += c == '\0' ? std::string("\xEF\xBF\xBD") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out + (pad ? " " : "") + ticks;
}

// A link destination in pointy brackets, where '<', '>' and '\\' need a backslash and '&'
// is written "&amp;" (CommonMark reads character references in a destination after its
// backslash escapes).
std::string link_destination(std::string_view href) {
  std::string out = "<";
  for (char c : href) {
    if (c == '<' || c == '>' || c == '\\') out += '\\';
    if (c == '&') out += "&amp;";
    else if (c == '\n' || c == '\r') out += "%0A";
    else out += c;
  }
  return out + ">";
}

InlineMarkup markdown_markup(bool heading) {
  InlineMarkup m;
  m.text = [heading](std::string_view s, bool starts, bool ends) { return markdown_escape(s, heading, starts, ends); };
  m.code = code_span;
  m.em_open = m.em_close = "*";
  m.strong_open = m.strong_close = "**";
  m.link = [](const std::string&) { return std::string("["); };
  m.link_close = [](const std::string& href) { return "](" + link_destination(href) + ")"; };
  return m;
}

// A block's text with its styles, links and note marks (as <sup>1</sup>).
std::string markdown_inline(const Block& b, bool heading) {
  const auto mark = [](const std::string& m) { return "<sup>" + markdown_escape(m, false, false, false) + "</sup>"; };
  // markdown_styles gives back a copy of a block without an emphasis as it is.
  if (std::none_of(b.styles.begin(), b.styles.end(), [](const StyleRun& r) { return r.style != InlineStyle::Code; }))
    return render_text(b, markdown_markup(heading), mark);
  return render_text(markdown_styles(b), markdown_markup(heading), mark);
}

}  // namespace

std::string markdown_text(const Block& b) { return markdown_inline(b, false); }

ListMarker list_item_marker(const Block& b) {
  ListMarker m;
  if (b.drawn_marker) return m;
  const std::string& t = b.text;
  const size_t end = t.find(' ');
  const std::string_view token = std::string_view(t).substr(0, end);
  if (token.empty()) return m;
  // An enumerator CommonMark knows: up to nine digits and '.' or ')'.
  size_t digits = 0;
  while (digits < token.size() && token[digits] >= '0' && token[digits] <= '9') ++digits;
  if (digits > 0 && digits <= 9 && digits + 1 == token.size() && (token.back() == '.' || token.back() == ')')) {
    m.syntax = std::string(token);
    m.code_points = token.size();
  } else {
    // A bullet: "-", "*", "+" or one of the symbols books print as bullets.
    if (token != "-" && token != "*" && token != "+") {
      const std::string_view bullets[] = {"\u2022", "\u25E6", "\u25AA", "\u25AB", "\u2023", "\u2219", "\u00B7",
                                          "\u2013", "\u2014", "\u2212", "\u25CF", "\u25CB", "\u25A0", "\u25A1",
                                          "\u25BA", "\u25B8", "\u25B6", "\u2043", "\u2192", "\u2713", "\u2714",
                                          "\u27A2", "\u2756", "\u25C6", "\u25C7", "\u2605", "\u2606"};
      if (std::find(std::begin(bullets), std::end(bullets), token) == std::end(bullets)) return m;
    }
    m.syntax = "-";
    m.code_points = 1;
  }
  if (end != std::string::npos) ++m.code_points;  // and the space after it
  // A note mark in or right after the marker stays where it is printed, in the text.
  for (const auto& mk : b.marks)
    if (mk.at <= m.code_points) return {};
  return m;
}

std::string markdown_code(std::string_view code) {
  size_t longest = 0, run = 0;
  for (char c : code) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(std::max<size_t>(3, longest + 1), '`');
  std::string out = fence + "\n";
  for (char c : code) out += c == '\0' ? std::string("\xEF\xBF\xBD") : std::string(1, c);
  if (!code.empty()) out += "\n";
  out += fence + "\n";
  return out;
}

std::string markdown_table(const Block& b) {
  size_t columns = 0;
  for (const auto& row : b.rows) columns = std::max(columns, row.size());
  if (columns == 0) return markdown_code(b.text);
  auto line = [&](const std::vector<std::string>* row) {
    std::string out = "|";
    for (size_t c = 0; c < columns; ++c) {
      std::string cell = row && c < row->size() ? markdown_escape((*row)[c], false, false, false) : std::string();
      // A pipe ends a cell even inside code spans (GFM 4.10): escaped as "\|".
      std::string escaped;
      for (char ch : cell) {
        if (ch == '|') escaped += '\\';
        escaped += ch;
      }
      out += " " + escaped + " |";
    }
    return out + "\n";
  };
  // GFM has one header row, which every table has: the book's first, or an empty one.
  const bool head = b.header_rows > 0;
  std::string out = line(head ? &b.rows.front() : nullptr);
  out += "|";
  for (size_t c = 0; c < columns; ++c) out += " --- |";
  out += "\n";
  for (size_t i = head ? 1 : 0; i < b.rows.size(); ++i) out += line(&b.rows[i]);
  return out;
}

std::string chapter_markdown(const Chapter& chapter, std::string_view figure_prefix) {
  std::string out;
  BlockType previous = BlockType::Heading;
  bool first = true;
  std::vector<size_t> content;  // where the text of the open list items starts, by level
  std::vector<char> kinds;      // the kind of the open list at each level: '-', '.' or ')'
  auto separate = [&](BlockType t) {
    // Consecutive list items form one tight list; everything else is apart by a blank line.
    if (!first) out += (t == BlockType::ListItem && previous == BlockType::ListItem) ? "" : "\n";
    first = false;
    previous = t;
  };
  if (chapter.blocks.empty() || chapter.blocks.front().type != BlockType::Heading || chapter.blocks.front().level != 1) {
    separate(BlockType::Heading);
    out += "# " + markdown_escape(chapter.title, true) + "\n";
  }
  for (const auto& b : chapter.blocks) {
    if (b.type == BlockType::Figure && b.image.empty()) continue;  // not rendered: nothing to show
    // Empty prose has no CommonMark form (a blank line is no paragraph): nothing to show.
    // (A note printed as its title alone shows that title.)
    if (b.text.empty() && b.type != BlockType::Figure && b.type != BlockType::Code && b.type != BlockType::Table &&
        !(b.type == BlockType::Note && !b.title.empty()))
      continue;
    const BlockType previous_item = previous;
    separate(b.type);
    switch (b.type) {
      case BlockType::Heading: {
        int level = std::clamp(b.level, 1, typography::kDeepestHeadingLevel);  // (CommonMark's six ATX levels)
        std::string label;  // a chapter's opener label ("Chapter 1") stands before its title, as printed
        for (const auto& l : b.labels) label += markdown_escape(l, true) + " ";
        out += std::string(static_cast<size_t>(level), '#') + " " + anchor_html(b) + label + markdown_inline(b, true) + "\n";
        break;
      }
      case BlockType::Code:
        out += markdown_code(b.text);
        break;
      case BlockType::Table:  // a table without cells keeps its rows and columns only in a fence
        out += markdown_table(b);
        break;
      case BlockType::ListItem: {
        // The printed marker is the list's syntax where CommonMark has one ("1." starts an
        // ordered list at its number, a bullet is "-"); otherwise the item (or a definition
        // list's term) is "- " and its text, marker and all. A nested item is set in as far as its parent's text starts.
        const size_t level = static_cast<size_t>(std::max(b.level, 1));
        if (previous_item != BlockType::ListItem) {
          content.clear();
          kinds.clear();
        }
        content.resize(std::min(content.size(), level - 1));
        const size_t indent = content.empty() ? 0 : content.back();
        // A definition list's term has no marker: its text is all words.
        const ListMarker m = b.term ? ListMarker{} : list_item_marker(b);
        const std::string syntax = m.syntax.empty() ? "-" : m.syntax;
        content.resize(level - 1, indent);
        content.push_back(indent + syntax.size() + 1);
        // The list an item belongs to: bullets, or numbers with '.' or ')'.
        const char kind = syntax == "-" ? '-' : syntax.back();
        kinds.resize(level, 0);
        const bool starts_list = kinds[level - 1] != kind;
        kinds[level - 1] = kind;
        const std::string text = m.syntax.empty() ? markdown_text(b) : markdown_text(without_prefix(b, m.code_points));
        // Right under an item's text, a list that starts at another number than 1, or an
        // empty item, would be read as more of that text (CommonMark 5.2): a blank line
        // before it ends the text.
        if (previous_item == BlockType::ListItem && ((starts_list && kind != '-' && syntax.substr(0, syntax.size() - 1) != "1") || text.empty()))
          out += "\n";
        out += std::string(indent, ' ') + syntax + (text.empty() ? "" : " " + text) + "\n";
        break;
      }
      case BlockType::Note:
        // Led by its title as printed, in bold, on a line of its own.
        if (!b.title.empty()) out += "> **" + markdown_escape(b.title) + "**\n" + (b.text.empty() ? "" : ">\n");
        if (!b.text.empty()) out += "> " + markdown_text(b) + "\n";
        break;
      case BlockType::Figure: {
        std::string_view path = b.image;
        if (path.substr(0, figure_prefix.size()) == figure_prefix) path.remove_prefix(figure_prefix.size());
        std::string alt = b.figure_ref.empty() ? "Figure" : b.figure_ref;
        out += anchor_html(b) + "![" + markdown_escape(alt) + "](" + std::string(path) + ")\n";
        break;
      }
      case BlockType::Paragraph:
      case BlockType::Caption:
        out += markdown_text(b) + "\n";
        break;
      case BlockType::Footnote:
        out += anchor_html(b) + markdown_text(b) + "\n";
        break;
    }
  }
  return out;
}

}  // namespace quire::exporting
