// Private to layout/: finding figure regions on a page.
#pragma once

#include <string>
#include <vector>

#include "quire/layout.h"
#include "quire/model.h"
#include "internal.h"

namespace quire::detail {

struct FigureRegion {
  Box bbox;                          // the region to crop, PDF points (drawing, images and labels)
  std::vector<size_t> label_lines;   // indexes into Page::lines drawn inside the figure
  std::vector<std::string> labels;   // their text, in reading order (top to bottom, left to right)
  bool raster = false;               // true when a raster image dominates the region
  int images = 0;                    // raster images in the region
  int paths = 0;                     // vector paths in the region
};

// The book's body text, as the whole book shows it: its size and, on the page at hand, the
// edges of its measure. A figure never takes a line of it (see Finder::prose).
struct BodyText {
  double size = 0;             // points (0: unknown, found from the page alone)
  double left = 0, right = 0;  // the measure's edges on this page (right <= left: unknown)
};

// Raster images and clusters of vector paths that form figures, with the text drawn inside
// them. Not figures: shaded boxes behind code or notes, table rules, underlines, header and
// footer rules, tiny spacer images. Regions are sorted top to bottom.
std::vector<FigureRegion> find_figures(const Page& page, const LayoutOptions& options, const BodyText& body = {});

// What a page draws around text, as drawn (tight_box): horizontal rules (table rules,
// underlines, the top and bottom of frames; at most rule_max_thickness high and at least
// rule_min_length long), vertical bars (the same, upright: a rule at the left of a note),
// panels (a shaded box or a frame: a fill not of the page's white, or a stroked shape
// thicker than a rule both ways) and the boxes of raster images.
PageDecor page_decor(const Page& page, const LayoutOptions& options);

// Horizontal rules drawn in pieces (a table's rule a cell at a time) joined: pieces whose tops
// lie within `slack` of the first's and that meet or overlap within `slack` are one rule.
std::vector<Box> joined_rules(std::vector<Box> pieces, double slack);

}  // namespace quire::detail
