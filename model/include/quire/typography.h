// Typographic facts that more than one stage reasons with, each defined once: how far apart
// two lines of a paragraph stand, what a raised note mark looks like, which symbols mark a
// note, which words open a caption. Thresholds that only one pass uses stay in its options.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <string_view>

namespace quire::typography {

// Leading: typesetters set lines about 1.2 font sizes apart ("normal" line height in TeX's
// plain format, CSS and office suites). Two lines of one paragraph stand at most that far
// apart plus the gap a paragraph break may add (`paragraph_gap_ratio` of the size).
inline constexpr double kNormalLeading = 1.2;
inline double max_line_pitch(double size, double paragraph_gap_ratio) {
  return (kNormalLeading + paragraph_gap_ratio) * size;
}

// PDF's largest page: 14,400 units a side (ISO 32000-1, annex C). A distance on a page is
// never more; one measured past it comes from a broken or hostile text matrix, and no text
// area, gutter or run of a listing's spaces is counted across it.
inline constexpr double kWidestPage = 14400;

// One size: two runs of text are set in one size when they differ by at most `tolerance` of
// the larger. The one definition of "in one size"; how far a question may stretch it (a
// size step of the book's type scale, a line mostly in a smaller run) is the asking pass's
// option.
inline bool same_size(double a, double b, double tolerance) { return std::fabs(a - b) <= tolerance * std::max(a, b); }

// Counting evidence. "Most" of a count is more than half of it; a shape or size seen once may
// be chance, seen again (several) it is the book's habit. The one spelling of each, for
// whole counts and for measures (a misfit, a share) alike.
template <class Part, class Whole>
constexpr bool more_than_half(Part part, Whole whole) { return 2 * part > whole; }
template <class Part, class Whole>
constexpr bool at_least_half(Part part, Whole whole) { return 2 * part >= whole; }
template <class Part, class Whole>
constexpr bool less_than_half(Part part, Whole whole) { return 2 * part < whole; }
template <class N>
constexpr bool several(N n) { return n >= 2; }

// Values each within `tolerance` of one value (the left edges of a column's lines, the gaps
// of evenly spaced cells) spread over at most twice it.
inline double max_spread(double tolerance) { return 2 * tolerance; }
// Two lines are centred on one axis when their centres are within `tolerance`: the sums of
// their edges, twice their centres, within twice it.
inline bool same_centre(double a0, double a1, double b0, double b1, double tolerance) {
  return std::fabs((a0 + a1) - (b0 + b1)) <= 2 * tolerance;
}

// Font sizes and heights are tallied to a tenth of a point (producers write sizes with a
// decimal or two; 0.1 pt is below what a reader sees), heading sizes to half a point (a
// type scale's steps are a point or more apart). The key of a measure in such a tally, and
// the measure a key stands for.
inline double in_tenths(double pt) { return pt * 10; }
inline long tenths_key(double pt) { return std::lround(in_tenths(pt)); }
inline double from_tenths_key(long key) { return static_cast<double>(key) / 10; }
inline double to_tenth(double pt) { return std::round(in_tenths(pt)) / 10; }
inline long half_point_key(double pt) { return std::lround(pt * 2); }
inline double from_half_point_key(long key) { return static_cast<double>(key) / 2; }
inline double to_half_point(double pt) { return std::round(pt * 2) / 2; }

// Headings are nested at most six deep: HTML's h1-h6, CommonMark's six ATX levels; a
// book's outline rarely goes past four.
inline constexpr int kDeepestHeadingLevel = 6;

// A raised mark (a note's mark, a superscript) is set clearly smaller than its text and
// raised over its baseline: marks are set at 60-75% of the text size and raised by a third
// of it; 80% and 15% leave room for rounding and exclude small caps and ligatures.
inline constexpr double kRaisedSizeRatio = 0.8;
inline constexpr double kRaisedRiseRatio = 0.15;

// Note marks: after the digits, the symbols books mark notes with, in their traditional
// order: asterisk, dagger, double dagger, section sign, pilcrow.
inline bool is_note_symbol(char32_t c) {
  return c == U'*' || c == U'\u2020' || c == U'\u2021' || c == U'\u00a7' || c == U'\u00b6';
}

// A digit set as a superscript character ("¹", "²", "⁷"): a note's mark in some fonts.
// (U+2071-2073 between them are a letter and two unassigned points.)
inline bool is_superscript_digit(char32_t c) {
  return c == 0xB9 || c == 0xB2 || c == 0xB3 || c == 0x2070 || (c >= 0x2074 && c <= 0x2079);
}

// A numbered note's mark has at most three digits: no book numbers its notes past 999 (per
// chapter or per book), and a longer number opening a line is a value ("0900.log 1200").
inline constexpr size_t kMaxNoteMarkDigits = 3;

// A mark may be printed in square brackets, raised in the text and before its note ("[1]",
// as asciidoctor-pdf sets it): the mark is what the brackets hold.
inline std::u32string_view unbracketed(std::u32string_view mark) {
  if (mark.size() > 2 && mark.front() == U'[' && mark.back() == U']') return mark.substr(1, mark.size() - 2);
  return mark;
}

// Words that open a caption ("Figure 1.1", "Fig. 4", "Table 2", "Listing 5", "Exhibit A"),
// lowercase. A caption is set apart from its figure's labels and from the text by them.
inline constexpr std::array<std::string_view, 9> kCaptionWords = {
    "figure", "fig.", "fig", "table", "listing", "exhibit", "plate", "chart", "diagram"};

// Words that, alone, title an admonition ("Note", "Tip:") and are set in bold or italic as a
// title, lowercase: the emphasis is the title's type, not a style of the text.
inline constexpr std::array<std::string_view, 9> kNoteTitleWords = {
    "note", "tip", "hint", "warning", "caution", "important", "attention", "danger", "sidebar"};

}  // namespace quire::typography
