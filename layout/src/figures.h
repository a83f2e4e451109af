// Private to layout/: finding figure regions on a page.
#pragma once

#include <string>
#include <vector>

#include "quire/layout.h"
#include "quire/model.h"

namespace quire::detail {

struct FigureRegion {
  Box bbox;                          // the region to crop, PDF points
  std::vector<size_t> label_lines;   // indexes into Page::lines drawn inside the figure
  std::vector<std::string> labels;   // their text, in reading order (top to bottom, left to right)
  bool raster = false;               // true when a raster image dominates the region
};

// Raster images and clusters of vector paths that form figures, with the text drawn inside
// them. Not figures: shaded boxes behind code or notes, table rules, underlines, header and
// footer rules, tiny spacer images. Regions are sorted top to bottom.
std::vector<FigureRegion> find_figures(const Page& page, const LayoutOptions& options);

}  // namespace quire::detail
