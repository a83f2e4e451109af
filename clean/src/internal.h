// Private helpers shared by clean's passes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quire/clean.h"

namespace quire::clean_detail {

// y of a line's baseline: its first span's baseline, else the bottom of its box.
double line_baseline(const Line& line);
// Size of the largest span of a line with visible text (0 if none).
double line_max_size(const Line& line);
// Recomputes a line's box from its spans.
void refit_line_box(Line& line);
// Body text size of the book: the size (0.1 pt) carrying the most characters.
double body_size(const Document& doc, int jobs);

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

// True when the UTF-8 text holds nothing but ASCII (normalisation leaves it as it is).
bool is_ascii(std::string_view text);

// The passes. Each appends to `removed` and modifies `doc`; per-page work runs on
// `options.jobs` threads.
void remove_running_heads(Document& doc, const CleanOptions& options, std::vector<Removal>& removed);
void remove_line_numbers(Document& doc, const CleanOptions& options, std::vector<Removal>& removed);
void remove_crop_marks(Document& doc, const CleanOptions& options, std::vector<Removal>& removed);

}  // namespace quire::clean_detail
