#include "quire/extract.h"

namespace quire {

namespace {

// The fields of ExtractOptions that change what a page gives, but engine and ocr (choices with
// flags of their own) and password (a secret: the cache key holds its hash). The page range,
// threads, spilling and callbacks change which pages are read, how fast or where they wait,
// never what a page gives.
constexpr OptionField<ExtractOptions> kTable[] = {
    {"ocr_lang", &ExtractOptions::ocr_lang, "Tesseract language",
     "Language of the words OCR reads (--ocr-lang)."},
    {"ocr_dpi", &ExtractOptions::ocr_dpi, "dpi",
     "Resolution a page is rendered at for OCR: Tesseract reads body type best at 300 dpi."},
    {"unusable_text_ratio", &ExtractOptions::unusable_text_ratio, "share of characters",
     "A page whose text is mostly unmapped glyphs (U+FFFD, private use, controls) is OCR'd when this share of its "
     "characters is unmapped."},
    {"paper_paint_max_inked", &ExtractOptions::paper_paint_max_inked, "paints",
     "White paint is looked up among at most this many earlier paints of a page to tell whether it shows (a plot of "
     "thousands of marks: the look-up is linear)."},
    {"glued_cell_edge_tolerance", &ExtractOptions::glued_cell_edge_tolerance, "em",
     "A line the engine made of table cells is parted where a word starts this near a column's left edge, which "
     "other rows show: cells that start there beside another cell of their row."},
    {"glued_cell_reach", &ExtractOptions::glued_cell_reach, "em",
     "The rows that show a column's edge are within this distance above or below the line."},
    {"glued_cell_min_rows", &ExtractOptions::glued_cell_min_rows, "rows",
     "How many rows must show a column's edge for a line to be parted there."},
    {"glued_cell_step_back", &ExtractOptions::glued_cell_step_back, "em",
     "Inside a ruled table, a line is parted before a glyph that starts this far left of where the glyph before it "
     "ends: a cell's text run on under the next cell's."},
    {"glued_cell_baseline_step", &ExtractOptions::glued_cell_baseline_step, "em",
     "Inside a ruled table, a line is parted before a glyph of its full size set this far above or below the one "
     "before it: a cell's text run on to the next cell, set lower."},
    {"monospace_tolerance", &ExtractOptions::monospace_tolerance, "share of advance",
     "Glyph advances of a typewriter face agree within this share of their median (rounding of glyph positions)."},
    {"monospace_min_samples", &ExtractOptions::monospace_min_samples, "advances",
     "A font and size is judged over the book from at least this many glyph advances; fewer leave it to its name "
     "and to each span's own advances."},
    {"monospace_share", &ExtractOptions::monospace_share, "share of advances",
     "A font and size is a typewriter face when this share of its sampled advances agree."},
    {"fallback_to_poppler", &ExtractOptions::fallback_to_poppler, "-",
     "When MuPDF cannot open a file, try Poppler before giving up."},
    {"page_timeout", &ExtractOptions::page_timeout, "seconds",
     "Per-page time budget (0: none): a page over it is skipped with an error (--page-timeout)."},
    {"page_memory_mb", &ExtractOptions::page_memory_mb, "MiB",
     "Per-page memory budget for the engine's allocations, rendering included (0: none): a page over it is skipped "
     "with an error (--page-memory)."},
};

}  // namespace

std::span<const OptionField<ExtractOptions>> extract_option_table() { return kTable; }

}  // namespace quire
