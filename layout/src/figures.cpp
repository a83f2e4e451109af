#include "figures.h"

#include <algorithm>

namespace quire::detail {

std::vector<FigureRegion> find_figures(const Page& page, const LayoutOptions& options) {
  std::vector<FigureRegion> out;
  for (const auto& im : page.images) {
    if (im.mask || im.bbox.width() < options.min_figure_side || im.bbox.height() < options.min_figure_side) continue;
    FigureRegion r;
    r.bbox = im.bbox;
    r.raster = true;
    out.push_back(r);
  }
  std::stable_sort(out.begin(), out.end(), [](const FigureRegion& a, const FigureRegion& b) { return a.bbox.y0 < b.bbox.y0; });
  return out;
}

}  // namespace quire::detail
