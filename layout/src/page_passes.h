// Private to layout/: the page passes that page_items runs over a page's lines (side labels,
// gutter, bullets, rows, captions) and the small measures they share.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "internal.h"
#include "quire/text.h"
#include "text_chars.h"

namespace quire::detail {

inline char lower_ascii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

inline bool has_visible(const std::string& s) {
  // An ASCII byte other than white space before any byte beyond ASCII is a visible character;
  // otherwise the text is decoded.
  for (unsigned char c : s) {
    if (c >= 0x80) break;
    if (!ascii_space(static_cast<char>(c))) return true;
  }
  for (char32_t c : to_u32(s))
    if (!is_space_cp(c)) return true;
  return false;
}

// The element at the middle of `v` sorted (the upper one of an even count); reorders `v`.
inline double median_in_place(std::vector<double>& v) {
  if (v.empty()) return 0;
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

// Consecutive glyph-position differences inside a span (code points `cps` of its text),
// skipping white space (engines place synthetic spaces anywhere in the gap). Appends to `out`.
inline void append_advances(const Span& s, const std::u32string& cps, std::vector<double>& out) {
  if (s.xs.size() != cps.size()) return;
  // (Wide characters stand on the em square in every face: their advances tell no
  // typewriter face from a proportional one.)
  for (size_t i = 1; i < cps.size(); ++i)
    if (!is_space_cp(cps[i]) && !is_space_cp(cps[i - 1]) && !is_wide_cp(cps[i - 1])) out.push_back(s.xs[i] - s.xs[i - 1]);
}

// The most common value of `v` rounded to `step` (the smallest such value on a tie).
inline double mode(const std::vector<double>& v, double step) {
  if (v.empty()) return 0;
  std::vector<long> keys;
  keys.reserve(v.size());
  for (double x : v) keys.push_back(std::lround(x / step));
  std::sort(keys.begin(), keys.end());
  long best = 0;
  size_t n = 0;
  for (size_t i = 0; i < keys.size();) {
    size_t j = i;
    while (j < keys.size() && keys[j] == keys[i]) ++j;
    if (j - i > n) { best = keys[i]; n = j - i; }
    i = j;
  }
  return static_cast<double>(best) * step;
}

// Counts by a few keys (font sizes of a row or a page): a short list searched in order.
class SmallCounts {
 public:
  void add(long key, long n) {
    for (auto& [k, c] : counts_)
      if (k == key) {
        c += n;
        return;
      }
    counts_.emplace_back(key, n);
  }
  const std::vector<std::pair<long, long>>& counts() const { return counts_; }
  // The key counted most, the smallest of those on a tie; `fallback` when there are none.
  long most_common(long fallback) const {
    long best_key = fallback, best = -1;
    for (const auto& [k, c] : counts_)
      if (c > best || (c == best && k < best_key)) {
        best = c;
        best_key = k;
      }
    return best_key;
  }

 private:
  std::vector<std::pair<long, long>> counts_;
};

// Rows (row_grouping.cpp).
double line_size(const Line& l);
// Lines of one column -> rows: lines whose baselines agree (and that do not overlap in x)
// are parts of one typeset line.
// Whether a vertical rule of `bars` (page_decor) stands between the middle of `a` and the
// start of `b`, to b's left, over b's middle: in a table ruled column by column each cell
// lies between two rules, and text set in a narrow column may run on past its rule (a long
// name in a typewriter face), up to or over the next cell's text. The rule, not a gap, then
// parts the two cells. (Most of a cell's text stands left of the rule that ends it; a rule
// that a line mostly runs past is the side of a frame drawn around something else.)
bool ruled_apart(const Box& a, const Box& b, const std::vector<Box>& bars, const LayoutOptions& o);

// Lines of one column -> rows: lines whose baselines agree are parts of one typeset row,
// unless they overlap in x (text set over text), where no vertical rule of `bars` parts
// them (ruled_apart).
std::vector<Row> group_rows(int page, std::vector<const Line*> lines, const PageLines& pl, const LayoutOptions& o,
                            const std::vector<Box>& bars = {});

// Side labels (side_labels.cpp).
// A word or two set beside a paragraph, centred on it rather than on its first line, past a
// gap: an admonition's label ("NOTE", "Tip") left of its text, often with a rule between
// them. On the baseline of one of the paragraph's lines it would be read into that line, and
// between two of them it would split the paragraph: it is read before the paragraph.
struct SideLabel {
  const Line* label;
  const Line* first;  // the block's first line: the label is read before it
};
std::vector<SideLabel> side_labels(const std::vector<const Line*>& lines, const PageLines& pl, const LayoutOptions& o);

// Bullets (bullets.cpp).
// Whether a list's bullet is drawn before the row's first word: browsers print a disc or a
// square as a path, not as a character. A small mark, about as wide as high, its middle in
// the row's x-height, shortly left of the row.
bool drawn_bullet_before(const Row& r, const Page& page, const LayoutOptions& o);
// The shape of it: whether a mark whose shape has box `b` is such a bullet before text of size
// `em` on `baseline` whose first word starts at `x0`.
bool bullet_shape_before(const Box& b, double baseline, double x0, double em, const LayoutOptions& o);
// Sets Row::marker of a row opened by one character, then a space, whose next line hangs
// under its second word: a list item whose bullet no font names one (a scan's "•" read as
// "e"). `rows`: a page's rows, each column's in reading order.
void find_hanging_markers(std::vector<Row>& rows, const LayoutOptions& o);
// Whether a row opens with a note's mark: a raised first span, a note symbol, or a number of
// at most typography::kMaxNoteMarkDigits digits.
bool starts_with_note_mark(const Row& r, bool bracketed = false);

// Gutter of a two-column page (gutter.cpp).
struct Gutter {
  bool found = false;
  double x0 = 0, x1 = 0;
};
// A two-column page has a vertical strip near the middle of the text area that almost no
// line crosses, with a flush left edge on both sides of it. Lines wholly beside the page
// (outside 0..page_width) take no part.
Gutter find_gutter(const std::vector<const Line*>& lines, const PageLines& pl, double page_width,
                   const LayoutOptions& o);
// Whether horizontal `rules` (page_decor) cross the gutter row after row, between lines on
// both of its sides: then it is the gap between a table's columns, whose rows are ruled
// across all of them (a page's two columns are never ruled row by row; a float across them
// brings a few rules). At least min_column_lines rules reaching past the gutter on both sides
// by min_gutter, between the first and the last line that both sides hold, and as many as
// gutter_ruled_rows_share of the rows (lines on distinct baselines) there of the side with
// fewer.
bool ruled_across(const Gutter& g, const std::vector<const Line*>& lines, const std::vector<Box>& rules,
                  const LayoutOptions& o);
// Whether the lines beside the gutter are a table's cells rather than two columns of text:
// where both sides hold lines, each side's stand, table_row_pair_share of them, on the other
// side's baselines, row by row; and there they leave the book's `measure` (where known)
// short on the outside by more than column_reach_ratio ems of `body_size` (a table narrower
// than the measure, or centred in it), or one side holds several lines (cells) on most of its
// baselines. A page's two columns fill the measure, a line to a baseline; their lines share
// baselines only where both are set on one grid.
struct Measure {
  double left = 0, right = 0;
};
bool cells_across(const Gutter& g, const std::vector<const Line*>& lines, std::optional<Measure> measure,
                  double body_size, const LayoutOptions& o);

// Captions (captions.cpp).
// The lines of a caption that starts at row `start` and runs down: same size, tight leading,
// and set as the caption is: flush with the line above, centred under it, or, under a full
// line, hanging under the text after the label or back at the column's edge (a caption set
// as an indented paragraph). A short line that ends a sentence ends it: the paragraph that
// opens under a one-line caption is not the caption's.
size_t caption_end(const std::vector<Row>& rows, size_t start, const LayoutOptions& o);

}  // namespace quire::detail
