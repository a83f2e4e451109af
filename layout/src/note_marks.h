// Private to layout/: raised note marks in a block's rows (note_marks.cpp).
#pragma once

#include <string>
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

}  // namespace quire::detail
