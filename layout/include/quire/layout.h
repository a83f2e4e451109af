// layout: a cleaned Document -> a Book of chapters of typed blocks in reading order.
// Reading order (one and two columns), paragraphs joined across lines, columns and pages,
// typesetting hyphens removed (and logged), code listings rebuilt from glyph positions,
// figures found (raster images and clusters of vector paths with their labels) and paired
// with captions, chapters from the outline or from headings.
#pragma once

#include <string>
#include <vector>

#include "quire/model.h"

namespace quire {

struct LayoutOptions {
  bool keep_matter = false;  // keep title page, contents, index... as chapters
  // Two lines belong to one paragraph when the gap between them is under this share of
  // the font size (leading is usually 1.2x the size, so a gap of 0.2-0.5x is normal).
  double paragraph_gap_ratio = 0.8;
  // Minimum size of a vector-path cluster to be a figure, in points: rules and underlines
  // are thinner than this in one direction.
  double min_figure_side = 20;
  // Figure crop rendering resolution (used by export, kept here so one options struct
  // describes the figure policy).
  int figure_dpi = 150;
};

struct LayoutResult {
  std::vector<Chapter> chapters;
  std::vector<ExcludedMatter> excluded;
  std::vector<HyphenJoin> joins;
  std::vector<std::string> warnings;
};

LayoutResult layout_document(const Document& doc, const LayoutOptions& options = {});

}  // namespace quire
