// Bullets: a list item's marker is a glyph or a drawn shape before its first word.
#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstring>

#include "figures.h"
#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "quire/typography.h"
#include "page_passes.h"

namespace quire::detail {

// Whether a list's bullet is drawn before the row's first word: browsers print a disc or a
// square as a path, not as a character. A small mark, about as wide as high, its middle in
// the row's x-height, shortly left of the row.
bool drawn_bullet_before(const Row& r, const Page& page, const LayoutOptions& o) {
  const double em = r.size;
  for (const auto& p : page.paths) {
    // A stroked mark's box takes in its joins (see kStrokeBoxPad): its shape lies inside.
    const double e = p.stroke && !p.fill ? std::min(kStrokeBoxPad * p.line_width, std::min(p.bbox.width(), p.bbox.height()) / 2) : 0;
    const Box b{p.bbox.x0 + e, p.bbox.y0 + e, p.bbox.x1 - e, p.bbox.y1 - e};
    const double w = b.width(), h = b.height(), cy = (b.y0 + b.y1) / 2;
    if (std::min(w, h) < o.bullet_min_ratio * em || std::max(w, h) > o.bullet_max_ratio * em) continue;
    if (std::max(w, h) > 1.5 * std::min(w, h)) continue;  // a dash or a bar, not a bullet
    if (cy < r.baseline - 0.75 * em || cy > r.baseline - 0.05 * em) continue;
    if (b.x1 > r.bbox.x0 - 0.1 * em || b.x1 < r.bbox.x0 - o.bullet_reach_ratio * em) continue;
    return true;
  }
  return false;
}

bool starts_with_note_mark(const Row& r, bool bracketed) {
  if (r.lines.empty() || r.lines.front()->spans.empty()) return false;
  const auto& spans = r.lines.front()->spans;
  // A superscript mark: a first span set smaller than the note's text.
  if (spans.size() > 1 && spans.front().size < r.size * typography::kRaisedSizeRatio && has_visible(spans.front().text)) return true;
  std::u32string cps = to_u32(r.text);
  if (cps.empty()) return false;
  if (typography::is_note_symbol(cps.front())) return true;
  // "[1] The note", in a book that raises its marks so.
  if (const size_t close = cps.find(U']');
      bracketed && cps.front() == U'[' && close != std::u32string::npos && (close + 1 == cps.size() || cps[close + 1] == U' '))
    cps = std::u32string(typography::unbracketed(std::u32string_view(cps).substr(0, close + 1)));
  size_t digits = 0;
  while (digits < cps.size() && ((cps[digits] >= U'0' && cps[digits] <= U'9') || typography::is_superscript_digit(cps[digits]))) ++digits;
  return digits > 0 && digits <= typography::kMaxNoteMarkDigits;
}

}  // namespace quire::detail
