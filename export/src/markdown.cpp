#include "markdown.h"

#include <algorithm>
#include <functional>

namespace quire::exporting {

namespace {

// CommonMark strips these at both ends of a paragraph or heading (spec 4.8, 4.2).
bool is_md_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string char_ref(unsigned char c) { return "&#" + std::to_string(static_cast<int>(c)) + ";"; }

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

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
        if (i == ordered_mark) out += '\\';
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

std::string markdown_text(const Block& b) {
  if (b.marks.empty()) return markdown_escape(b.text);
  bool first = true;
  size_t done = 0;  // bytes of the text escaped so far: the last piece ends the line
  return text_with_marks(
      b.text, b.marks, MarksAs::Printed,
      [&](std::string_view piece) {
        const bool starts = first;
        first = false;
        const std::less_equal<const char*> le;  // (a space put between is not of the text)
        if (le(b.text.data(), piece.data()) && le(piece.data(), b.text.data() + b.text.size()))
          done = static_cast<size_t>(piece.data() - b.text.data()) + piece.size();
        return markdown_escape(piece, false, starts, done == b.text.size());
      },
      [&](const std::string& mark) {
        first = false;
        return "<sup>" + markdown_escape(mark, false, false, false) + "</sup>";
      });
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
  constexpr int kMaxHeadingLevel = 6;  // CommonMark has six ATX heading levels
  std::string out;
  BlockType previous = BlockType::Heading;
  bool first = true;
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
    if (b.text.empty() && b.type != BlockType::Figure && b.type != BlockType::Code && b.type != BlockType::Table)
      continue;
    separate(b.type);
    switch (b.type) {
      case BlockType::Heading: {
        int level = std::clamp(b.level, 1, kMaxHeadingLevel);
        std::string label;  // a chapter's opener label ("Chapter 1") stands before its title, as printed
        for (const auto& l : b.labels) label += markdown_escape(l, true) + " ";
        out += std::string(static_cast<size_t>(level), '#') + " " + label + markdown_escape(b.text, true) + "\n";
        break;
      }
      case BlockType::Code:
        out += markdown_code(b.text);
        break;
      case BlockType::Table:  // a table without cells keeps its rows and columns only in a fence
        out += markdown_table(b);
        break;
      case BlockType::ListItem:
        // A nested item is set in as far as its parent's text starts ("- " is two wide).
        out += std::string(2 * static_cast<size_t>(std::max(b.level, 1) - 1), ' ') + "- " + markdown_text(b) + "\n";
        break;
      case BlockType::Note:
        // Led by its title as printed, in bold, on a line of its own.
        if (!b.title.empty()) out += "> **" + markdown_escape(b.title) + "**\n>\n";
        out += "> " + markdown_text(b) + "\n";
        break;
      case BlockType::Figure: {
        std::string_view path = b.image;
        if (path.substr(0, figure_prefix.size()) == figure_prefix) path.remove_prefix(figure_prefix.size());
        std::string alt = b.figure_ref.empty() ? "Figure" : b.figure_ref;
        out += "![" + markdown_escape(alt) + "](" + std::string(path) + ")\n";
        break;
      }
      case BlockType::Paragraph:
      case BlockType::Caption:
      case BlockType::Footnote:
        out += markdown_text(b) + "\n";
        break;
    }
  }
  return out;
}

}  // namespace quire::exporting
