// A chapter as CommonMark (spec/corpus.md): escaped so that a CommonMark renderer shows
// exactly the source text of every block.
#pragma once

#include <string>
#include <string_view>

#include "quire/model.h"

namespace quire::exporting {

// Inline text escaped for a paragraph, list item or heading line. Backslash escapes for the
// characters that start inline markup; line-start escapes for the characters that start a
// block; numeric character references for line breaks and for white space at either end
// (CommonMark strips it). NUL cannot be represented (CommonMark replaces it with U+FFFD) and
// is written as U+FFFD. A piece of a line: `starts` / `ends` say whether it starts or ends
// the line (only there are block starts and white space at the ends special).
std::string markdown_escape(std::string_view text, bool heading = false, bool starts = true, bool ends = true);

// A block's text with its note marks put back as <sup>1</sup> (raw inline HTML: CommonMark
// shows the mark, raised, where the book prints it).
std::string markdown_text(const Block& b);

// How a list item's printed marker is written in Markdown: `syntax` "1." / "3)" (an
// ordered list from that number) or "-" (a bullet), and the code points of the text it stands
// for (marker and the space after it). Empty syntax: no marker CommonMark has (a drawn one,
// "a)", "(iv)", or a note mark printed by the marker), and the item's text is written whole.
struct ListMarker {
  std::string syntax;
  size_t code_points = 0;
};
ListMarker list_item_marker(const Block& b);

// A fenced code block whose fence is longer than any backtick run inside.
std::string markdown_code(std::string_view code);

// A table with cells as a GFM pipe table (its header row the book's, or an empty one where
// the book sets none); a table without cells as a fenced block of its text.
std::string markdown_table(const Block& b);

// The whole chapter. `figure_prefix` is stripped from figure image paths (they are relative
// to OUT; the .md file sits in books/<id>/).
std::string chapter_markdown(const Chapter& chapter, std::string_view figure_prefix);

}  // namespace quire::exporting
