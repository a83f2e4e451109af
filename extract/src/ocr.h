// Private to extract/: OCR of pages without a usable text layer (Tesseract, in quire-ocr.so).
//
// A page is rendered by MuPDF to a gray pixmap in memory and handed to Tesseract; its words
// become spans of the shared model (boxes in PDF points, ocr = true, a confidence). Pages
// are read in parallel, one MuPDF context and one TessBaseAPI per worker.
//
// Debian's libtesseract uses OpenMP, which is several times slower than one thread per page
// on a small machine: the OCR module is loaded with OMP_THREAD_LIMIT=1 in the environment
// (OpenMP reads it when it is loaded) unless the environment already sets it.
#pragma once

#include <memory>
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
  // Bilevel scans. A scanner's binarisation makes each pixel on a glyph's edge black or white
  // by that pixel's noise, so the edges of a 1-bit page are ragged at the pixel, and
  // Tesseract, whose models learnt from smooth renderings, misreads the small glyphs of
  // code ("};" as "3;", "&r" as "kr", "--" as "~-"). Its characters are recognised from the
  // page smoothed by about a pixel, which gives the edges back a ramp of gray; its layout
  // is still found in the page's own pixels (thresholding the smoothed page would move every
  // edge, and with them the sizes read off the lines). A page that has the ramp already (a
  // gray scan, text drawn as outlines) is read as it is.
  //   Gray levels within this many of black or of white count as black or white;
  int bilevel_margin = 32;
  //   a page is bilevel when at most this share of its pixels that are not white lie between.
  double bilevel_gray_share = 0.05;
  //   The standard deviation of the Gaussian a bilevel page is smoothed with, in rendered
  //   pixels (which are the scan's own: a scan rendered at another resolution is
  //   resampled, which leaves gray at its edges, and is not bilevel).
  double bilevel_smooth_px = 1.2;
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
  // A line between two fixed-pitch lines of one listing (Tesseract may cut a listing into
  // blocks at a short or misread line) is looked at when it stands at most this many line
  // heights from each: a listing's blank lines.
  double listing_blank_lines = 3;
  //   and its neighbours start at most this many of its heights right of its end (a
  //   listing's indents).
  double listing_indent_ems = 12;
  //   Such lines in a run up to this long (each near the pitch) are the listing's together.
  int listing_run_lines = 3;
  // Drawings of a scan (drawn_ink): ink is looked at in square cells of this many points;
  double ink_cell_pt = 1.0;
  //   a recognised word covers its box and this share of its line's size around it;
  double word_pad_em = 0.25;
  //   a run of ink is a drawing when it reaches this many times the page's text size in
  //   width or height (a letter Tesseract left unread is about one).
  double min_drawing_em = 1.8;
  //   a smaller run (two cells or more) within this share of the text size of a drawing is
  //   part of it.
  double drawing_join_em = 0.6;
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

// What Tesseract found on one page, boxes in PDF points.
struct Recognised {
  std::vector<OcrLine> lines;
  std::vector<Box> pictures;  // regions Tesseract took for images
  std::vector<Box> rules;     // horizontal and vertical rules
};

// One Tesseract instance: reads one page at a time (one per worker thread). Tesseract is
// in the module quire-ocr.so (modules.h), loaded the first time a page needs OCR.
class OcrReader {
 public:
  virtual ~OcrReader() = default;
  // Reads an 8-bit gray image of the page rendered at `scale` pixels per point whose top
  // left pixel is at (ox, oy) in rendered pixels. `shades`, when given, is the same page
  // smoothed (width * height bytes, rows packed): the page's layout (blocks, lines, words
  // and their boxes) is found in `gray`, and the characters are recognised from `shades`.
  // False when Tesseract could not read it.
  virtual bool read(const unsigned char* gray, int width, int height, int stride, int dpi, double ox, double oy,
                    double scale, Recognised& out, const unsigned char* shades = nullptr) = 0;
};

// A reader for `lang` ("eng", "eng+deu") with the traineddata in `tessdata`. Throws
// Error(Internal) when the module cannot be loaded or Tesseract cannot load the language.
std::unique_ptr<OcrReader> new_ocr_reader(const std::string& tessdata, const std::string& lang);

// The module's one entry point (extern "C", found with dlsym): a new reader, or nullptr
// with the reason in *error.
using NewOcrReaderFn = OcrReader* (*)(const char* tessdata, const char* lang, std::string* error);
inline constexpr const char* kNewOcrReaderSymbol = "quire_new_ocr_reader";

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

// The drawings of a scanned page, in points: each connected run of ink (gray below
// tuning.ink_level) that no word of `r` covers and no picture of `r` holds, as its box, when
// it is large enough to be drawn (a diagram's boxes and arrows, a chart's axes and curves)
// and does not touch the image's edge (a scanner's shadow). `gray` is the page rendered at
// `scale` pixels per point with its top left pixel at (ox, oy), as Tesseract read it.
std::vector<Box> drawn_ink(const unsigned char* gray, int width, int height, int stride, double ox, double oy,
                           double scale, const Recognised& r, const OcrTuning& tuning = {});

// True when the rendered page is bilevel: of its pixels that are not white, at most
// tuning.bilevel_gray_share lie between black and white (a 1-bit scan drawn at its own
// resolution); false for a page without ink.
bool is_bilevel(const unsigned char* gray, int width, int height, int stride, const OcrTuning& tuning = {});

// The image smoothed with a Gaussian of standard deviation `sigma` pixels (edges extended),
// as width * height bytes, rows packed.
std::vector<unsigned char> smoothed(const unsigned char* gray, int width, int height, int stride, double sigma);

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
