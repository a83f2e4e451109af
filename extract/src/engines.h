// Private to extract/: the engines behind extract_document().
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "quire/extract.h"
#include "quire/model.h"
#include "quire/spill.h"

namespace quire::detail {

// Each throws quire::Error for document-level failures; a page that fails is kept empty with
// an entry in Page::errors and a warning.
// With needs_ocr, also sets one flag per extracted page: page_needs_ocr() of that page,
// computed by the page workers (ocr_document takes them instead of reading every page again).
// With drawings, the pages that may hold figures are kept drawn for the renderer (see
// PageDrawings).
Document extract_mupdf(const std::string& path, const ExtractOptions& options,
                       std::vector<char>* needs_ocr = nullptr, std::shared_ptr<PageDrawings>* drawings = nullptr);
Document extract_poppler(const std::string& path, const ExtractOptions& options);

// Throws Error(NotFound / NotPdf) when the file is missing or does not start like a PDF.
void check_pdf_file(const std::string& path);

// Sets Span::monospace, the pipeline's one answer to "is this span set in a typewriter
// face?" (monospace.cpp): for fonts whose names say so, for fonts and sizes whose glyph
// advances are uniform across the document (fonts that lack the fixed-pitch flag), and for
// spans that set five or more different glyphs on one advance. Pages are done on o.jobs
// threads. `then`, when given, runs on each page right after its spans are marked, while the
// page is at hand (and in memory: quire/spill.h).
void infer_monospace(Document& doc, const ExtractOptions& o, const std::function<void(Page&)>& then = {});
// Whether a font's name (subset tag stripped) is a typewriter face's.
bool monospace_by_name(const std::string& font);
// Whether a span sets five or more different glyphs on one advance, within `tolerance` of it.
bool uniform_advances(const Span& s, double tolerance);

// Takes out the spaces an engine put between two glyphs of one monospace face that stand in
// neighbouring character cells, where the cells are wider than the glyphs: a listing package
// that sets every character in such a cell leaves gaps the engine takes for word spaces
// ("read(self , size )").
// Pages are done on `jobs` threads. Returns the number of spaces taken out.
size_t drop_cell_gaps(Document& doc, int jobs = 1);
// The same on one page.
size_t drop_page_cell_gaps(Page& page);

// Splits lines the engine made of two table cells or more, where a word of the line starts
// at a column's edge that the rows near it show (ExtractOptions::glued_cell_*). Returns the
// number of splits.
size_t split_page_glued_cells(Page& page, const ExtractOptions& options);

// Resolves [first, last] against the page count; throws Error(BadRange).
std::pair<int, int> page_range(const std::string& path, const ExtractOptions& options, int page_count);

// The Document's page spill for `pages` pages of `path`, as options.spill_after_mb asks
// (null: none).
std::shared_ptr<PageSpill> make_spill(const std::string& path, size_t pages, const ExtractOptions& options);

// Font name without the six-letter subset prefix ("ABCDEF+CMTT10" -> "CMTT10").
std::string strip_subset_prefix(const std::string& name);

// LaTeX's picture environment draws slanted lines, arrowheads and circles (and Texinfo its
// cartouches' rounded corners) with glyphs of these fonts (`name` without subset prefix): ink
// of a drawing, not text. Neither engine reads them as characters ("@", "-", U+FFFD); MuPDF
// records each glyph as a filled path of its outline's box, so that the drawing is found as
// a figure (or a frame).
bool picture_font(const std::string& name);

}  // namespace quire::detail
