// extract: PDF -> Document (pages of spans with boxes and fonts, images, vector paths,
// outline, page labels). MuPDF is the default engine, Poppler-cpp the second one, Tesseract
// reads pages that have no usable text layer.
//
// Errors: throws quire::Error (NotFound, NotPdf, Encrypted, BadRange) naming the file and,
// where it applies, the page. Library errors never cross this boundary as anything else.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "quire/hash.h"  // sha256_file, which a Document's sha256 is
#include "quire/model.h"
#include "quire/options_table.h"

namespace quire {

class SpillBudget;  // spill.h

enum class Engine { MuPdf, Poppler };
enum class OcrMode { Auto, Never, Force };

struct ExtractOptions {
  Engine engine = Engine::MuPdf;
  int first_page = 0;  // 1-based inclusive; 0 = from the first page
  int last_page = 0;   // 1-based inclusive; 0 = to the last page
  int jobs = 1;        // worker threads, each with its own engine context and document
  std::string password;
  OcrMode ocr = OcrMode::Auto;
  std::string ocr_lang = "eng";
  int ocr_dpi = 300;
  // A page whose text is mostly unmapped glyphs (U+FFFD, private use, controls) is OCR'd
  // when this share of its characters is unmapped.
  double unusable_text_ratio = 0.3;
  // Paint of the paper's colour (white) shows only over something painted before it in
  // another colour (else it is marked VectorPath::paper); that is looked up among at most
  // this many such paints of a page, past which it is taken to show (a plot of thousands
  // of marks: the look-up is linear).
  size_t paper_paint_max_inked = 4096;
  // Table cells the engine read as one line are parted where a word starts at a column's
  // edge: within this many ems of where cells start in at least glued_cell_min_rows other
  // rows, each within glued_cell_reach ems above or below, which also hold a cell where the
  // line's piece before that word starts.
  double glued_cell_edge_tolerance = 0.15;
  double glued_cell_reach = 10;
  size_t glued_cell_min_rows = 2;
  // Inside a ruled table, a line is also parted before a glyph that starts more than this
  // many ems left of where the glyph before it ends (a kern is less: TeX's logo sets its "E"
  // a sixth of an em back): a cell's text too wide for its column, run on under the next
  // cell's.
  double glued_cell_step_back = 0.25;
  // ... and before a glyph of the line's full size set this many ems above or below the
  // one before it (a sub- or superscript is smaller).
  double glued_cell_baseline_step = 0.4;
  // Monospace (decided here for every stage): a font and size whose glyph advances, sampled
  // over the book (at least monospace_min_samples of them), lie within monospace_tolerance of
  // their median for a monospace_share of them is a typewriter face; so is a span whose own
  // advances all do.
  double monospace_tolerance = 0.03;
  size_t monospace_min_samples = 20;
  double monospace_share = 0.97;
  // When MuPDF cannot open a file, try Poppler before giving up.
  bool fallback_to_poppler = true;
  // Per-page time budget in seconds (0 = none): a page over it is skipped with an error.
  double page_timeout = 0;
  // Per-page memory budget in MiB for the engine's allocations, rendering included
  // (0 = none): a page over it is skipped with an error.
  double page_memory_mb = 0;
  // Page content a book keeps in memory, in MiB: the pages past it wait in a temporary file
  // until a pass needs them (quire/spill.h). Negative: every page stays in memory.
  double spill_after_mb = -1;
  std::string spill_dir;  // where that file goes; empty: the system's temporary directory
  // The budget those MiB are counted in, when books built at once share one (a batch's);
  // empty: the book has a budget of its own.
  std::shared_ptr<SpillBudget> spill_budget;
  // Called with each warning line ("FILE: page N: ...").
  std::function<void(const std::string&)> on_warning;
  // Called once the document is open, with the number of pages to read (for progress).
  std::function<void(int pages)> on_open;
  // Called after each page is done (for progress), from any worker thread.
  std::function<void(int page)> on_page;
};

// The fields of ExtractOptions that change the output, as a table (quire/options_table.h):
// `--set extract.NAME=VALUE`, the build cache key and docs/options.md are made from it.
std::span<const OptionField<ExtractOptions>> extract_option_table();

// Pages that extraction kept as drawn (MuPDF display lists) because they may hold figures,
// so that PdfRenderer draws them without reading their content a second time. Which pages
// are kept changes how long rendering takes, never what it gives. Opaque; share it with
// the renderers of the same file.
class PageDrawings {
 public:
  struct Impl;
  explicit PageDrawings(std::unique_ptr<Impl> impl);
  ~PageDrawings();
  PageDrawings(const PageDrawings&) = delete;
  PageDrawings& operator=(const PageDrawings&) = delete;
  int pages() const;  // how many pages are kept
  // Which of the contexts that made the kept lists holds `page`'s (-1: the page is not
  // kept). One context draws one figure at a time, so figures of pages with different
  // holders are the ones that can be drawn at once.
  int holder(int page) const;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// Reads the whole document (or the page range) with the chosen engine. With `drawings`
// (MuPDF engine), the pages that may hold figures are kept drawn, within a fixed memory
// budget; *drawings is null when none are.
Document extract_document(const std::string& pdf_path, const ExtractOptions& options,
                          std::shared_ptr<PageDrawings>* drawings = nullptr);

// Per-page word differences between MuPDF and Poppler, beyond white space.
struct PageDisagreement {
  int page = 0;
  std::vector<std::string> only_mupdf;   // words (in order) MuPDF has that Poppler lacks
  std::vector<std::string> only_poppler;
};
struct CrossCheckReport {
  std::string file;
  int pages_compared = 0;
  std::vector<PageDisagreement> disagreements;
};
CrossCheckReport cross_check(const std::string& pdf_path, const ExtractOptions& options);

// A shape `quire inspect` draws over a page: a box's outline (a line, when the box has no
// width or no height), tinted inside when fill_alpha > 0, with a label on a tab of its colour
// at its top-left corner. Coordinates are PDF points, top-left origin, like the model's.
struct OverlayMark {
  Box box;
  uint32_t color = 0;       // 0xRRGGBB
  double line_width = 1;    // points
  double fill_alpha = 0;    // 0: outline only
  std::string label;        // ASCII (drawn in Helvetica); "" for none
  bool operator==(const OverlayMark&) const = default;
};

// Renders regions of one PDF's pages to PNG (MuPDF), trimmed to the ink (no all-white
// border row or column), deterministic for the same input. Keeps the document open between
// calls; one renderer per thread. A page is drawn from `drawings` when extraction kept it
// (waiting while another thread draws a page of the same holder), else read from the file:
// the pixels are the same either way.
class PdfRenderer {
 public:
  // Throws quire::Error when the file cannot be opened; with drawings, the file is opened on
  // the first page they lack, and png() throws instead.
  PdfRenderer(const std::string& pdf_path, const std::string& password,
              std::shared_ptr<PageDrawings> drawings = nullptr);
  ~PdfRenderer();
  PdfRenderer(const PdfRenderer&) = delete;
  PdfRenderer& operator=(const PdfRenderer&) = delete;
  // box in PDF points, top-left origin; "" when the region has no ink or cannot be rendered.
  std::string png(int page, const Box& box, int dpi);
  // The whole page (not trimmed) at `dpi`, with `marks` drawn over it in their order; ""
  // when the page cannot be rendered.
  std::string page_png(int page, int dpi, const std::vector<OverlayMark>& marks);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One-shot form of PdfRenderer::png.
std::string render_region_png(const std::string& pdf_path, const std::string& password, int page,
                              const Box& box, int dpi);

}  // namespace quire
