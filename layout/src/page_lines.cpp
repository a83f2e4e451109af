// Page lines: the facts about a page's lines that several passes ask for, found once per page.
// Which spans are monospace is extract's answer (Span::monospace), read here once.
#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstring>

#include "figures.h"
#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "page_passes.h"

namespace quire::detail {

PageLines::PageLines(const Page& page, const LayoutOptions& o) : lines_(page.lines.data()) {
  text_.reserve(page.lines.size());
  visible_.reserve(page.lines.size());
  first_.reserve(page.lines.size());
  for (const auto& l : page.lines) {
    text_.push_back(l.text());
    visible_.push_back(has_visible(text_.back()));
    first_.push_back(static_cast<uint32_t>(mono_.size()));
    for (const auto& s : l.spans) mono_.push_back(s.monospace);
  }
}

}  // namespace quire::detail
