// A block's text with its inline styles and links, in some markup (Markdown, HTML).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "quire/model.h"

namespace quire::exporting {

// How a markup writes each part. `text` escapes plain text (`starts`/`ends`: whether the
// piece starts/ends the block's line); `code` writes a whole code run; `link` opens a link to
// an href (the block's href, as written in the JSON) and `link_close` closes it.
struct InlineMarkup {
  std::function<std::string(std::string_view text, bool starts, bool ends)> text;
  std::function<std::string(std::string_view code)> code;
  std::string em_open, em_close, strong_open, strong_close;
  std::function<std::string(const std::string& href)> link, link_close;
};

// `piece`: a part of b.text (a view into it) starting at code point `from`. Links are outside
// styles: a style run that crosses a link's edge is written as two. White space at the edge
// of a style stays outside it.
std::string render_inline(const Block& b, std::string_view piece, size_t from, const InlineMarkup& m, bool starts,
                          bool ends);

// The whole text of `b` with its note marks put back (`mark` writes one, as printed).
std::string render_text(const Block& b, const InlineMarkup& m, const std::function<std::string(const std::string&)>& mark);

// The same block less its first `cps` code points (a list item's marker): styles, links and
// marks move with the text.
Block without_prefix(const Block& b, size_t cps);

}  // namespace quire::exporting
