// Private to layout/: raised note marks in a block's rows (note_marks.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "internal.h"

namespace quire::detail {

// The rows' texts with each note mark span between kMarkOpen and kMarkClose, made as
// make_row makes a row's text; empty when no row has a mark (or a text is not the row's).
inline constexpr char kMarkOpen = '\x01', kMarkClose = '\x02';
std::vector<std::string> texts_with_marks(const std::vector<const Row*>& rows);

// A text made from texts_with_marks less the brackets; each mark found is a RaisedMark at
// the code point where it starts.
std::string find_raised(const std::string& marked, std::vector<RaisedMark>& raised);

// Takes the brackets of texts_with_marks out of `s`.
void strip_mark_bytes(std::string& s);

// The code points of a note mark, superscript digits as ASCII ones, out of its brackets
// (footnotes.cpp).
std::u32string mark_points(std::string_view text);

// The mark a footnote opens with: its first token's leading digits (at most three) or note
// symbol, alone, before "." or ")", or glued to the note's first word ("1Functions"). Empty
// when there is none (footnotes.cpp).
std::u32string footnote_mark(const std::string& text);

}  // namespace quire::detail
