// clean: removes page furniture (running heads, page numbers, margin line numbers of code
// listings, crop marks, repeated logos) from an extracted Document, found from the whole
// book, and logs every removal. Normalises text only where wording does not change:
// ligature glyphs to letters, soft hyphens, Unicode NFC.
#pragma once

#include <vector>

#include "quire/model.h"

namespace quire {

struct CleanOptions {
  // Head/foot band: a line whose top is within this share of the page height from the top
  // (or bottom) edge is a furniture candidate. Heads sit in the margin, so 12% is generous.
  double band_ratio = 0.12;
  // A masked head string must recur on at least this many pages to be furniture
  // (chapter-specific heads recur only within their chapter, so keep this small).
  int min_recurrence = 2;
  // Page numbers: a number in the band counts when it follows the page sequence
  // (page number - offset constant) on at least this share of pages that carry one.
  double page_number_consistency = 0.5;
  // Margin line numbers: minimum run of consecutive increasing integers beside monospace lines.
  int min_line_number_run = 3;
};

struct CleanResult {
  std::vector<Removal> removed;     // in page order, then top to bottom
  std::vector<std::string> warnings;
};

// Removes furniture from `doc` in place and returns the log.
CleanResult clean_document(Document& doc, const CleanOptions& options = {});

// Applies normalize_text to every span (keeps xs aligned with code points).
void normalize_document(Document& doc);

}  // namespace quire
