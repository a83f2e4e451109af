// clean's driver: normalisation and the furniture passes, page by page on `jobs` threads with
// the book-level decisions between the sweeps, then the log in page order.
#include <algorithm>

#include "internal.h"
#include "quire/clean.h"
#include "quire/spill.h"

namespace quire {

namespace clean_detail {

void remove_crop_marks(Page& page, const CleanOptions& o, std::vector<Removal>& removed) {
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
      if (!s.text.empty()) removed.push_back({page.number, s.bbox, s.text, "crop-mark"});
    it = page.lines.erase(it);
  }
}

}  // namespace clean_detail

CleanResult clean_document(Document& doc, const CleanOptions& options,
                           const std::function<void(size_t, const Page&)>& first_look) {
  using namespace clean_detail;
  CleanResult result;
  const size_t pages = doc.pages.size();
  PageRemovals crop_marks(pages), continuation_notes(pages);
  RunningHeadPass heads(doc, options);
  LineNumberPass line_numbers(doc, options);
  DrawnFurniturePass drawn(options, pages);
  // Each sweep does all it can on a page while the page is at hand: a book's pages are far
  // larger than the cache, and every extra walk over them costs as much as the work.
  change_pages(doc, options.jobs, [&](size_t pi, Page& page) {
    if (first_look) first_look(pi, page);
    for (auto& l : page.lines) normalize_line(l);
    remove_crop_marks(page, options, crop_marks[pi]);
    remove_continuation_notes(page, continuation_notes[pi]);
    heads.scan_page(pi);
    line_numbers.classify_page(pi);
    drawn.scan_page(pi, page);
  });
  if (heads.printed_area()) change_pages(doc, options.jobs, [&](size_t pi, Page&) { heads.scan_page(pi); });
  heads.decide();
  drawn.decide();
  change_pages(doc, options.jobs, [&](size_t pi, Page& page) {
    line_numbers.scan_page(pi, heads.cut_page(pi));
    drawn.cut_page(pi, page);
  });
  line_numbers.decide();
  // (Few pages have line numbers: only those are brought back from the spill file.)
  parallel_for(pages, options.jobs, [&](size_t pi) {
    heads.release_page(pi);
    if (line_numbers.cuts(pi)) change_page(doc, pi, [&](Page&) { line_numbers.cut_page(pi); });
  });
  append_in_page_order(crop_marks, result.removed);
  append_in_page_order(continuation_notes, result.removed);
  heads.append_log(result.removed);
  line_numbers.append_log(result.removed);
  drawn.append_log(result.removed);
  // Each pass logs page by page, so ties (one page, one position) keep the order of the passes.
  std::stable_sort(result.removed.begin(), result.removed.end(), removal_order);
  return result;
}

}  // namespace quire
