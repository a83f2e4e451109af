// clean's driver: normalisation, then the furniture passes, then the log in page order.
#include <algorithm>

#include "internal.h"
#include "quire/clean.h"
#include "quire/parallel.h"

namespace quire {

namespace clean_detail {

void remove_crop_marks(Document& doc, const CleanOptions& o, std::vector<Removal>& removed) {
  PageRemovals slots(doc.pages.size());
  parallel_for(doc.pages.size(), o.jobs, [&](size_t pi) {
    Page& page = doc.pages[pi];
    if (page.width <= 0 || page.height <= 0) return;
    // The model carries the page box only (no trim box): text wholly outside it is in the
    // printer's slug area, where crop and registration marks and job slugs stand.
    const double m = o.crop_outside_margin;
    auto outside = [&](const Line& l) {
      return l.bbox.x1 <= -m || l.bbox.x0 >= page.width + m || l.bbox.y1 <= -m || l.bbox.y0 >= page.height + m;
    };
    for (auto it = page.lines.begin(); it != page.lines.end();) {
      if (!outside(*it)) { ++it; continue; }
      for (const auto& s : it->spans)
        if (!s.text.empty()) slots[pi].push_back({page.number, s.bbox, s.text, "crop-mark"});
      it = page.lines.erase(it);
    }
  });
  append_in_page_order(slots, removed);
}

}  // namespace clean_detail

CleanResult clean_document(Document& doc, const CleanOptions& options) {
  using namespace clean_detail;
  CleanResult result;
  normalize_document(doc, options.jobs);
  remove_crop_marks(doc, options, result.removed);
  remove_running_heads(doc, options, result.removed);
  remove_line_numbers(doc, options, result.removed);
  // Each pass logs page by page, so ties (one page, one position) keep the order of the passes.
  std::stable_sort(result.removed.begin(), result.removed.end(), [](const Removal& a, const Removal& b) {
    if (a.page != b.page) return a.page < b.page;
    if (a.bbox.y0 != b.bbox.y0) return a.bbox.y0 < b.bbox.y0;
    return a.bbox.x0 < b.bbox.x0;
  });
  return result;
}

}  // namespace quire
