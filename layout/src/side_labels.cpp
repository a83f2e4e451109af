// Side labels: an admonition's label set in the margin beside its paragraph is read before it.
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

std::vector<SideLabel> side_labels(const std::vector<const Line*>& lines, const PageLines& pl, const LayoutOptions& o) {
  std::vector<SideLabel> out;
  for (const Line* l : lines) {
    const std::string& t = pl.text(*l);
    const size_t chars = utf8_length(t);  // (asked first: most lines are far longer than a label)
    if (chars < o.notes.side_label_min_chars || chars > o.notes.side_label_max_chars) continue;
    const size_t n = whitespace_token_count(t);
    if (n == 0 || n > o.notes.side_label_max_words) continue;
    // A word: a number there is a line or chunk number, a table's cell, a margin's count.
    bool mono = false, letter = false;
    for (size_t k = 0; k < l->spans.size(); ++k) mono = mono || pl.mono(*l, k);
    for (char32_t c : to_u32(t)) letter = letter || is_letter_cp(c);
    if (mono || !letter) continue;
    const double size = std::max(1.0, line_size(*l)), base = l->baseline();
    const double mid = (l->bbox.y0 + l->bbox.y1) / 2;
    auto code = [&](const Line* r) {  // wholly monospace
      for (size_t sp = 0; sp < r->spans.size(); ++sp)
        if (!pl.mono(*r, sp)) return false;
      return true;
    };
    // The block beside it: one paragraph right of the label, past the gap (its left edge is
    // that of the lines near the label). Its lines follow one another at a line pitch, flush
    // left but for an indented first line, every one but the last as wide as the others,
    // none wholly monospace.
    std::vector<const Line*> near;
    double edge = 1e300, right = 0;
    for (const Line* r : lines)
      if (r->bbox.x0 >= l->bbox.x1 + o.notes.side_label_gap_ratio * size &&
          std::fabs((r->bbox.y0 + r->bbox.y1) / 2 - mid) <= o.notes.side_label_reach_ratio * size) {
        near.push_back(r);
        edge = std::min(edge, r->bbox.x0);
      }
    if (near.empty()) continue;
    std::vector<const Line*> para;
    for (const Line* r : lines)
      if (r->bbox.x0 >= edge - o.lines.edge_tolerance && r->bbox.x0 <= edge + o.notes.side_label_indent_ratio * size) {
        para.push_back(r);
        right = std::max(right, r->bbox.x1);
      }
    if (!typography::several(para.size())) continue;  // beside one line, the label reads first on its row anyway
    std::sort(para.begin(), para.end(), [](const Line* a, const Line* b) { return a->baseline() < b->baseline(); });
    size_t at = 0;
    for (size_t k = 1; k < para.size(); ++k)
      if (std::fabs(para[k]->baseline() - base) < std::fabs(para[at]->baseline() - base)) at = k;
    auto follows = [&](size_t k) {  // para[k + 1] is the line after para[k] in one paragraph
      const Line &a = *para[k], &b = *para[k + 1];
      return b.baseline() - a.baseline() <= o.notes.side_label_pitch_ratio * std::max(1.0, line_size(a)) &&
             a.bbox.x1 >= right - o.notes.side_label_ragged_ratio * size && b.bbox.x0 <= edge + o.lines.edge_tolerance;
    };
    size_t first = at, last = at;
    while (first > 0 && follows(first - 1)) --first;
    while (last + 1 < para.size() && follows(last)) ++last;
    if (last == first) continue;
    bool prose = true;
    for (size_t k = first; k <= last; ++k) prose = prose && !code(para[k]);
    if (!prose) continue;
    std::vector<const Line*> flush(para.begin() + static_cast<long>(first), para.begin() + static_cast<long>(last) + 1);
    first = 0;
    last = flush.size() - 1;
    // Against the middle: centred on the block (within half a line pitch), below its first
    // line. (A hanging label, a bibliography's "[L94]", stands on its entry's first line.)
    const double pitch = (flush[last]->baseline() - flush[first]->baseline()) / static_cast<double>(last);
    const double block_mid = (flush[first]->bbox.y0 + flush[last]->bbox.y1) / 2;
    if (base <= flush[first]->baseline() + o.notes.side_label_drop_ratio * size ||
        std::fabs(mid - block_mid) > o.notes.side_label_centre_share * pitch)
      continue;
    // Alone beside the block: no other line left of its edge over its height (a table's
    // first column, or margin notes, have more).
    const double top = flush[first]->bbox.y0, bottom = flush[last]->bbox.y1;
    bool alone = true;
    for (const Line* r : lines)
      if (r != l && r->bbox.x1 <= edge && r->bbox.y1 > top && r->bbox.y0 < bottom) alone = false;
    // And alone where it stands: no other line but code starts at its left edge near it (a
    // list's tags, a bibliography's keys, a table's first column).
    for (const Line* r : lines)
      if (alone && r != l && std::fabs(r->bbox.x0 - l->bbox.x0) <= o.lines.edge_tolerance &&
          std::fabs((r->bbox.y0 + r->bbox.y1) / 2 - mid) <=
              o.notes.side_label_alone_reach_factor * o.notes.side_label_reach_ratio * size &&
          !code(r))
        alone = false;
    if (alone) out.push_back({l, flush[first]});
  }
  return out;
}

}  // namespace quire::detail
