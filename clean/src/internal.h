// Private helpers shared by clean's passes.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quire/clean.h"

namespace quire::clean_detail {

// y of the slot a line stands in: its first span's baseline, else the bottom of its box. (Not
// Line::baseline(): a head or a note opened by a raised mark is compared with the other
// pages' by where its first glyph stands, which the slot statistics are measured on.)
double line_baseline(const Line& line);
// Size of the largest span of a line with visible text (0 if none).
double line_max_size(const Line& line);
// Recomputes a line's box from its spans.
void refit_line_box(Line& line);
// Characters per font size (keyed by tenths of a point) on one page, sizes in order of use.
using SizeChars = std::vector<std::pair<long, long>>;
SizeChars page_size_chars(const Page& page);
// Body text size of the book: the size (0.1 pt) carrying the most characters over all pages.
double body_size(const std::vector<SizeChars>& pages);

// A number printed as a folio or a listing line number.
enum class NumberKind { Arabic, Roman };
struct ParsedNumber {
  NumberKind kind;
  int value;
};
// "12" -> 12; "xiv"/"XIV" -> 14 (canonical roman numerals only, one case); otherwise nothing.
std::optional<ParsedNumber> parse_page_number(std::string_view token, int max_digits);
std::optional<int> parse_arabic(std::string_view token, int max_digits);
// The text of a head with digit runs and roman-numeral words masked and white space collapsed:
// "Chapter 12: Tables" and "Chapter 3: Tables" share one signature.
std::string head_signature(std::string_view text);
// The same of text already split by whitespace_tokens, leaving out token `skip` (npos: none).
std::string head_signature(const std::vector<std::string_view>& tokens, size_t skip);

// Cuts code points [from, to) out of `span` into a Removal (page, box from the glyph
// positions, exact text), leaving the rest in `span` with xs kept aligned. Returns the removal.
Removal cut_span(Span& span, size_t from, size_t to, int page, const std::string& reason);
// Box of code points [from, to) of a span, from its glyph positions when it has them.
Box piece_box(const Span& span, size_t from, size_t to);

// Removals of one pass, one slot per page index: pages are worked on in parallel, and the
// slots joined in page order give the log a serial pass would write.
using PageRemovals = std::vector<std::vector<Removal>>;
// Moves every slot's entries to the end of `removed`, slot by slot.
void append_in_page_order(PageRemovals& slots, std::vector<Removal>& removed);

// is_space_cp for an ASCII byte, inline: the splitting loops call it for every character.
inline bool is_ascii_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// The passes. Each works page by page where it can, in steps that clean_document runs over all
// pages in parallel (a step touches only its own page), with the book-level decisions between
// them serial (`decide`). Every pass logs into per-page slots, joined in page order.

// Printer's marks outside the page box: one page, on its own.
void remove_crop_marks(Page& page, const CleanOptions& options, std::vector<Removal>& removed);

// Lines that say a listing or table goes on over the page ("(continues on next page)"):
// one page, on its own (continuation_notes.cpp).
void remove_continuation_notes(Page& page, std::vector<Removal>& removed);

// Running heads and page numbers (running_heads.cpp): scan_page gathers a page's evidence (after
// its crop marks are gone), decide weighs it over the book, cut_page logs and removes the page's
// furniture and returns the indexes of the lines it removed, in ascending order.
class RunningHeadPass {
 public:
  RunningHeadPass(Document& doc, const CleanOptions& options);
  ~RunningHeadPass();
  void scan_page(size_t page_index);
  // After every page is scanned: where the book prints inside a much larger page (the bands
  // at the page's edges hold no text on nearly every page), measures the bands from the
  // edges of the printed area instead and returns true: then every page is scanned again.
  bool printed_area();
  void decide();
  const std::vector<size_t>& cut_page(size_t page_index);
  // Frees what the page's rows and lines kept, once cut_page's result has been used: on the
  // workers, page by page, rather than all at once when the pass ends.
  void release_page(size_t page_index);
  void append_log(std::vector<Removal>& removed);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Margin line numbers of listings (line_numbers.cpp): classify_page notes what each line is
// (a bare number, code) while the page is at hand; scan_page, after the running heads are cut,
// forgets the removed lines and finds the page's candidates; decide chains them into columns
// over the book; cut_page removes the accepted numbers of a page.
class LineNumberPass {
 public:
  LineNumberPass(Document& doc, const CleanOptions& options);
  ~LineNumberPass();
  void classify_page(size_t page_index);
  void scan_page(size_t page_index, const std::vector<size_t>& removed_lines);
  void decide();
  // Whether cut_page has anything to remove on the page (after decide).
  bool cuts(size_t page_index) const;
  void cut_page(size_t page_index);
  void append_log(std::vector<Removal>& removed);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Drawn furniture (drawn_furniture.cpp): scan_page notes a page's images and the paths in its
// head and foot bands, decide keeps those drawn at one place on many pages, cut_page removes
// and logs them (a removal with no text: no word leaves the page).
class DrawnFurniturePass {
 public:
  DrawnFurniturePass(const CleanOptions& options, size_t pages);
  ~DrawnFurniturePass();
  void scan_page(size_t page_index, const Page& page);
  void decide();
  void cut_page(size_t page_index, Page& page);
  void append_log(std::vector<Removal>& removed);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace quire::clean_detail
