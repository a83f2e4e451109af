// Private to extract/: OCR of pages without a usable text layer (Tesseract's C++ API).
//
// A page is rendered by MuPDF to a gray pixmap in memory and handed to Tesseract; its words
// become spans of the shared model (boxes in PDF points, ocr = true, a confidence). Pages
// are read in parallel, one MuPDF context and one TessBaseAPI per worker.
//
// Debian's libtesseract uses OpenMP; run with OMP_THREAD_LIMIT=1 in the environment (it
// must be set before the process starts), since pages are parallelised here instead.
#pragma once

#include <string>
#include <vector>

#include "quire/extract.h"
#include "quire/model.h"

namespace quire::detail {

// Thresholds of the OCR reading. Units in the comments.
struct OcrTuning {
  // Share of the page area (0-1) a raster image must cover to be the scan of the page
  // itself, not a figure on it.
  double scan_image_cover = 0.5;
  // Remove lone dark pixels (scanner dust) before recognition.
  bool despeckle = true;
  // Gray level (0 black - 255 white) under which a rendered pixel counts as ink: the middle,
  // where a scanner's binarisation puts it.
  int ink_level = 128;
  // Monospace. Distances between the centres of neighbouring characters of a word: in a
  // fixed-pitch face every glyph sits centred in a cell of one width, so they are all close
  // to the pitch (the ink of 'i' and 'm' moves only inside its cell); in a proportional face
  // they range from 'il' to 'mw', a factor near 3.
  //   A distance is "at the pitch" within this share of the line's median distance.
  double mono_pitch_tolerance = 0.12;
  //   A line is fixed-pitch when at least this share of its distances is at the pitch.
  double mono_pitch_share = 0.85;
  //   Fewer distances than this on a line: too few to judge; the line follows the judged
  //   lines of its Tesseract block.
  int mono_min_samples = 6;
  //   In a block of fixed-pitch lines, a line with one or two misread characters (whose
  //   boxes are off the grid) still counts when this share of its distances is at the
  //   block's pitch.
  double mono_block_share = 0.7;
  // A gap between words in a fixed-pitch line spans a whole number of cells (one or more
  // spaces, or none where Tesseract split a word); the share of a cell by which it may miss one before the line is judged
  // proportional.
  double mono_gap_tolerance = 0.25;
};

// One recognised word with pixel-free geometry: boxes already in PDF points.
struct OcrSymbol {
  std::string text;  // UTF-8, usually one code point
  Box box;
};
struct OcrWord {
  std::string text;
  Box box;
  float confidence = 0;           // 0-100
  std::vector<OcrSymbol> symbols; // may be empty when the engine gave no symbol boxes
};
struct OcrLine {
  Box box;
  double baseline = 0;  // y in points
  double size = 0;      // font size estimate in points
  int block = 0;        // Tesseract block index (lines of one block share a layout)
  std::vector<OcrWord> words;
};

// True when Auto mode OCRs this page: no text layer on a page that shows something
// (images or paths: a scan, or text drawn as outlines), or a text layer whose non-space
// characters are mostly unmapped glyphs (share >= options.unusable_text_ratio).
bool page_needs_ocr(const Page& page, const ExtractOptions& options);

// Share of the page's non-space characters that are unmapped (U+FFFD, private use,
// controls); 0 for a page without text.
double unmapped_share(const Page& page);

// Turns recognised lines into model lines: one span per word (with the spaces that follow
// it inside the line), Span::xs per code point, monospace judged from the pitch.
std::vector<Line> lines_from_ocr(const std::vector<OcrLine>& lines, const OcrTuning& tuning = {});

// Directory holding <lang>.traineddata: $TESSDATA_PREFIX if set, else Debian's.
std::string tessdata_dir();

// Throws Error(Usage) naming the Debian package when a language of `lang` ("eng",
// "eng+deu") has no traineddata.
void check_ocr_language(const std::string& lang);

// OCRs the pages that options.ocr selects (Force: all; Auto: page_needs_ocr; Never: none)
// and replaces their lines. Returns the number of pages OCR'd. needs_ocr, when given (one
// flag per page, from the engine's page workers), stands for page_needs_ocr in Auto mode.
int ocr_document(const std::string& pdf_path, const ExtractOptions& options, Document& doc,
                 const OcrTuning& tuning = {}, const std::vector<char>* needs_ocr = nullptr);

}  // namespace quire::detail
