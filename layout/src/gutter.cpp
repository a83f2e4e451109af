// Gutter: the strip between two columns that almost no line crosses.
#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <iterator>
#include <optional>

#include "figures.h"
#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "quire/typography.h"
#include "page_passes.h"

namespace quire::detail {

namespace {

// Strips of [lo, hi] of `cover` crossed by at most `most` lines and at least `min_width` wide,
// widest first (in x order among equals). A strip found at or after `lo` may run on to `end`.
std::vector<std::pair<int, int>> open_strips(const std::vector<int>& cover, int lo, int hi, int end, int most,
                                             double min_width) {
  std::vector<std::pair<int, int>> strips;  // start, length
  for (int x = lo; x <= hi;) {
    if (cover[x] > most) { ++x; continue; }
    int s = x;
    while (x <= end && cover[x] <= most) ++x;
    if (x - s >= min_width) strips.push_back({s, x - s});
  }
  std::stable_sort(strips.begin(), strips.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return strips;
}

// The search for a page's gutter: its lines, and how many of them cross each point of the
// text area's width (`cover`, from its left edge `L`).
struct GutterSearch {
  const std::vector<const Line*>& lines;
  const PageLines& pl;
  const LayoutOptions& o;
  double L = 0;
  std::vector<int> cover;
  int limit = 0;  // most lines a gutter may be crossed by

  // A line on one side of the strip [gx0, gx1] (a glyph box may reach a little into it).
  bool on_side(const Line* l, bool right, double gx0, double gx1) const {
    return right ? l->bbox.x0 >= gx1 - o.lines.gutter_glyph_reach : l->bbox.x1 <= gx0 + o.lines.gutter_glyph_reach;
  }

  // Both sides must hold lines with a flush left edge: prose, or on one side a listing (a
  // column of code beside one of prose). Code on both sides is one listing with its
  // comments set in a column of their own. The number of one side's lines at its edge.
  int aligned(bool right, double gx0, double gx1, bool with_code = false) const {
    std::vector<double> xs;
    for (const Line* l : lines) {
      bool mono = true;
      for (size_t k = 0; k < l->spans.size(); ++k)
        if (!pl.mono(*l, k)) {
          mono = false;
          break;
        }
      if (mono && !with_code) continue;
      if (on_side(l, right, gx0, gx1)) xs.push_back(l->bbox.x0);
    }
    if (xs.empty()) return 0;
    double m = mode(xs, o.lines.edge_bin);
    int c = 0;
    for (double x : xs)
      if (std::fabs(x - m) <= o.lines.edge_tolerance) ++c;
    return c;
  }

  // A short column beside a whole one: its lines start together beside the other's lines,
  // and one of them is as wide as a line of the whole column. A caption there (under a
  // figure at the column's top, centred) is not one of its lines.
  bool short_column(bool right, double gx0, double gx1) const {
    double whole_top = 1e9, whole_bottom = -1e9, whole_left = 1e9, whole_right = -1e9;
    double widest = 0, first_x0 = 0;
    int n = 0;
    for (const Line* l : lines) {
      const bool on_short_side = on_side(l, right, gx0, gx1);
      const bool on_whole_side = on_side(l, !right, gx0, gx1);
      if (on_whole_side) {
        whole_top = std::min(whole_top, l->bbox.y0);
        whole_bottom = std::max(whole_bottom, l->bbox.y1);
        whole_left = std::min(whole_left, l->bbox.x0);
        whole_right = std::max(whole_right, l->bbox.x1);
      }
      if (!on_short_side || !caption_label(l->text()).empty()) continue;
      if (n++ == 0) first_x0 = l->bbox.x0;
      if (std::fabs(l->bbox.x0 - first_x0) > o.lines.edge_tolerance) return false;
      widest = std::max(widest, l->bbox.x1 - l->bbox.x0);
    }
    if (n == 0 || widest < o.lines.short_column_width_ratio * (whole_right - whole_left)) return false;
    // (Beside it: not above or below the whole column's lines.)
    for (const Line* l : lines) {
      const bool on_short_side = on_side(l, right, gx0, gx1);
      if (on_short_side &&
          (l->bbox.y0 < whole_top - o.lines.edge_tolerance || l->bbox.y1 > whole_bottom + o.lines.edge_tolerance))
        return false;
    }
    return true;
  }

  // Whether a side holds justified prose: lines of several words that end together (not a
  // table's cells beside a column of names set in a typewriter face).
  bool justified(bool right, double gx0, double gx1) const {
    std::vector<double> x1s;
    for (const Line* l : lines) {
      if (!on_side(l, right, gx0, gx1)) continue;
      const std::string t = pl.text(*l);
      if (std::count(t.begin(), t.end(), ' ') + 1 >= o.lines.min_justified_line_words) x1s.push_back(l->bbox.x1);
    }
    if (x1s.empty()) return false;
    const double m = mode(x1s, o.lines.edge_bin);
    return std::count_if(x1s.begin(), x1s.end(), [&](double x) {
             return std::fabs(x - m) <= o.lines.edge_tolerance;
           }) >= o.lines.min_column_lines;
  }

  // Whether paired_row_share (a third) or more of one side's lines stand on the baselines of
  // the other side's:
  // a table's rows (a name in a typewriter face, its description beside it), where a
  // listing beside a column of prose keeps a line pitch of its own.
  bool paired(bool right, double gx0, double gx1) const {
    std::vector<double> other;
    size_t n = 0, on = 0;
    for (const Line* l : lines)
      if (on_side(l, !right, gx0, gx1)) other.push_back(l->baseline());
    for (const Line* l : lines) {
      if (!on_side(l, right, gx0, gx1)) continue;
      ++n;
      const double b = l->baseline();
      if (std::any_of(other.begin(), other.end(), [&](double y) { return std::fabs(y - b) <= o.lines.same_baseline; }))
        ++on;
    }
    return static_cast<double>(on) >= o.lines.paired_row_share * static_cast<double>(n);
  }

  // With `code`, one side may be a listing: asked of a strip's least crossed part only, as
  // a listing's ragged right edge leaves a wide strip crossed by few of its lines.
  // With `short_only`, one side must be a short column.
  bool columns(double gx0, double gx1, bool code = false, bool short_only = false) const {
    const bool left = aligned(false, gx0, gx1) >= o.lines.min_column_lines;
    const bool right = aligned(true, gx0, gx1) >= o.lines.min_column_lines;
    if (short_only) return (left && !right && short_column(true, gx0, gx1)) || (right && !left && short_column(false, gx0, gx1));
    if ((left && right) || (left && short_column(true, gx0, gx1)) || (right && short_column(false, gx0, gx1)))
      return true;
    return code && ((left && justified(false, gx0, gx1) && aligned(true, gx0, gx1, true) >= o.lines.min_column_lines &&
                     !paired(true, gx0, gx1)) ||
                    (right && justified(true, gx0, gx1) && aligned(false, gx0, gx1, true) >= o.lines.min_column_lines &&
                     !paired(false, gx0, gx1)));
  }

  // The gutter is the widest strip with a column on each side. A short last column leaves a
  // wide empty strip below its few lines; then a narrower strip is the gutter.
  bool gutter_at(int start, int len, double& gx0, double& gx1) const {
    gx0 = L + start;
    gx1 = L + start + len;
    if (columns(gx0, gx1)) return true;
    // The strip may reach into a column: near its ragged right edge (short code lines, a
    // table's cells, each a line of its own) few lines reach, though more than cross the
    // gutter. The gutter is then the part of the strip crossed least, when only a few rows
    // cross it (spanning headings and figures), and the columns are taken from there.
    const int least = *std::min_element(cover.begin() + start, cover.begin() + start + len);
    if (least > o.lines.gutter_part_crossing_share * limit) return false;
    // (Its parts crossed least, widest first: beyond a short last column the page is empty
    // too. A short column of two lines under a figure is crossed by fewer rows than a column
    // of text, but by more than the gutter beside it: the parts crossed by no more rows than
    // the least are asked last, for a short column beside a whole one.)
    for (const bool short_only : {false, true}) {
      const int most = short_only ? least : least + std::max(1, limit / o.lines.gutter_part_slack_divisor);
      const std::vector<std::pair<int, int>> parts =
          open_strips(cover, start, start + len - 1, start + len - 1, most, o.lines.min_gutter);
      for (bool code : {false, true}) {
        if (short_only && code) break;  // (a short column is prose)
        for (const auto& [from, part] : parts) {
          gx0 = L + from;
          gx1 = L + from + part;
          if (columns(gx0, gx1, code, short_only)) return true;
        }
      }
    }
    return false;
  }

  // A narrower strip than the widest needs a justified column on its left: lines that end
  // together at its edge (a page of one column has its odd strips between short lines).
  bool justified_left(double gx0) const {
    std::vector<double> x1s;
    for (const Line* l : lines)
      if (l->bbox.x1 <= gx0 + o.lines.gutter_glyph_reach) x1s.push_back(l->bbox.x1);
    if (x1s.empty()) return false;
    const double m = mode(x1s, o.lines.edge_bin);
    const auto at = std::count_if(x1s.begin(), x1s.end(), [&](double x) { return std::fabs(x - m) <= o.lines.edge_tolerance; });
    return at >= o.lines.min_column_lines &&
           static_cast<double>(at) >= o.lines.justified_left_share * static_cast<double>(x1s.size()) &&
           gx0 - m <= o.lines.justified_left_reach_ratio * o.lines.min_gutter;
  }
};

}  // namespace

// A two-column page has a vertical strip near the middle of the text area that almost no
// line crosses, with a flush left edge on both sides of it.
Gutter find_gutter(const std::vector<const Line*>& page_lines, const PageLines& pl, double page_width,
                   const LayoutOptions& o) {
  Gutter g;
  // (A line wholly beside the page, placed there by a broken text matrix, shows nowhere and
  // is no part of its columns.)
  auto beside = [page_width](const Line* l) { return !(l->bbox.x1 > 0 && l->bbox.x0 < page_width); };
  const bool some_beside = std::any_of(page_lines.begin(), page_lines.end(), beside);
  std::vector<const Line*> on_page;
  if (some_beside) std::remove_copy_if(page_lines.begin(), page_lines.end(), std::back_inserter(on_page), beside);
  const std::vector<const Line*>& lines = some_beside ? on_page : page_lines;
  constexpr int kColumnsBeside = 2;  // a gutter has a column on either side
  if (lines.size() < static_cast<size_t>(kColumnsBeside * o.lines.min_column_lines)) return g;
  double L = 1e9, R = -1e9;
  for (const Line* l : lines) {
    L = std::min(L, l->bbox.x0);
    R = std::max(R, l->bbox.x1);
  }
  // (Lines that reach further than the largest page, on a page that claims to be wider, are
  // no text area to divide: the strip search would count across all of their width.)
  if (!(R - L <= typography::kWidestPage)) return g;
  int n = static_cast<int>(std::ceil(R - L));
  if (n < o.lines.gutter_min_span) return g;
  GutterSearch search{lines, pl, o, L, std::vector<int>(n + 1, 0)};
  std::vector<int>& cover = search.cover;
  for (const Line* l : lines)
    for (int x = static_cast<int>(l->bbox.x0 - L); x <= static_cast<int>(l->bbox.x1 - L) && x <= n; ++x)
      if (x >= 0) cover[x]++;
  search.limit = static_cast<int>(o.lines.max_gutter_crossing * lines.size());
  int lo = static_cast<int>(o.lines.gutter_from_share * n), hi = static_cast<int>(o.lines.gutter_to_share * n);
  // Strips crossed by few lines, widest first (in x order among equals).
  const std::vector<std::pair<int, int>> strips = open_strips(cover, lo, hi, n, search.limit, o.lines.min_gutter);
  double gx0 = 0, gx1 = 0;
  bool found = false;
  for (size_t k = 0; k < strips.size() && !found; ++k)
    found = search.gutter_at(strips[k].first, strips[k].second, gx0, gx1) && (k == 0 || search.justified_left(gx0));
  if (!found) return g;
  g.found = true;
  g.x0 = gx0;
  g.x1 = gx1;
  return g;
}

namespace {

// The lines on each side of a gutter (a glyph may reach gutter_glyph_reach into it; a line
// over it is on neither), and how high and low each side's lines reach.
struct Sides {
  std::vector<const Line*> lines[2];
  double top[2] = {1e300, 1e300}, bottom[2] = {-1e300, -1e300};
};

Sides sides_of(const Gutter& g, const std::vector<const Line*>& lines, const LayoutOptions& o) {
  Sides s;
  const double reach = o.lines.gutter_glyph_reach;
  for (const Line* l : lines) {
    const int side = l->bbox.x1 <= g.x0 + reach ? 0 : l->bbox.x0 >= g.x1 - reach ? 1 : -1;
    if (side < 0) continue;
    s.lines[side].push_back(l);
    s.top[side] = std::min(s.top[side], l->bbox.y0);
    s.bottom[side] = std::max(s.bottom[side], l->bbox.y1);
  }
  return s;
}

// The number of lines on each row of `baselines` (sorted here): a row is the lines whose
// baselines follow each other within same_baseline.
std::vector<size_t> row_sizes(std::vector<double> baselines, const LayoutOptions& o) {
  std::sort(baselines.begin(), baselines.end());
  std::vector<size_t> rows;
  for (size_t k = 0; k < baselines.size(); ++k)
    if (k == 0 || baselines[k] - baselines[k - 1] > o.lines.same_baseline) rows.push_back(1);
    else ++rows.back();
  return rows;
}

}  // namespace

bool ruled_across(const Gutter& g, const std::vector<const Line*>& lines, const std::vector<Box>& rules,
                  const LayoutOptions& o) {
  if (!g.found) return false;
  const Sides sides = sides_of(g, lines, o);
  const double from = std::max(sides.top[0], sides.top[1]), to = std::min(sides.bottom[0], sides.bottom[1]);
  // (A side's rows between `from` and `to`: its lines on distinct baselines there. A table
  // row holds a line per cell; what stands above or below the other side's lines, a listing
  // under a table, is not beside it.)
  size_t n[2] = {0, 0};
  for (int side : {0, 1}) {
    std::vector<double> b;
    for (const Line* l : sides.lines[side])
      if (const double y = l->baseline(); y >= from && y <= to) b.push_back(y);
    n[side] = row_sizes(std::move(b), o).size();
  }
  // (A table's rule is often drawn a cell at a time.)
  size_t crossing = 0;
  for (const Box& r : joined_rules(rules, o.figures.rule_max_thickness)) {
    const double y = (r.y0 + r.y1) / 2;
    if (r.x0 <= g.x0 - o.lines.min_gutter && r.x1 >= g.x1 + o.lines.min_gutter && y > from && y < to) ++crossing;
  }
  return crossing >= static_cast<size_t>(o.lines.min_column_lines) &&
         static_cast<double>(crossing) >= o.lines.gutter_ruled_rows_share * static_cast<double>(std::min(n[0], n[1]));
}

bool cells_across(const Gutter& g, const std::vector<const Line*>& lines, std::optional<Measure> measure,
                  double body_size, const LayoutOptions& o) {
  if (!g.found || body_size <= 0) return false;
  const Sides sides = sides_of(g, lines, o);
  if (sides.lines[0].empty() || sides.lines[1].empty()) return false;
  // (Where both sides hold lines: a table's columns stand beside each other only over its
  // rows; a caption or a note under it is on one side alone.)
  const double from = std::max(sides.top[0], sides.top[1]) - o.lines.edge_tolerance,
               to = std::min(sides.bottom[0], sides.bottom[1]) + o.lines.edge_tolerance;
  std::vector<const Line*> band[2];
  std::vector<double> baselines[2];
  double outer_left = 1e300, outer_right = -1e300;
  for (int side : {0, 1})
    for (const Line* l : sides.lines[side]) {
      if (l->bbox.y0 < from || l->bbox.y1 > to) continue;
      band[side].push_back(l);
      baselines[side].push_back(l->baseline());
      if (side == 0) outer_left = std::min(outer_left, l->bbox.x0);
      else outer_right = std::max(outer_right, l->bbox.x1);
    }
  if (band[0].empty() || band[1].empty()) return false;
  for (int side : {0, 1}) {
    const std::vector<double>& other = baselines[1 - side];
    const auto on = std::count_if(baselines[side].begin(), baselines[side].end(), [&](double b) {
      return std::any_of(other.begin(), other.end(),
                         [&](double y) { return std::fabs(y - b) <= o.lines.same_baseline; });
    });
    if (static_cast<double>(on) < o.lines.table_row_pair_share * static_cast<double>(baselines[side].size()))
      return false;
  }
  // Narrower than the measure, or several cells to a row on one side: a column of a page
  // holds one line to a baseline.
  const double reach = o.lines.column_reach_ratio * body_size;
  if (measure && (outer_left > measure->left + reach || outer_right < measure->right - reach)) return true;
  for (int side : {0, 1}) {
    // (A side holding two columns of prose has several lines to a baseline too, but lines of
    // several words; a table's cells hold a value or two.) Nor does it end half its lines
    // together, as justified columns do: a table's cells end where their values end.
    std::vector<size_t> words;
    std::vector<double> ends;
    for (const Line* l : band[side]) {
      words.push_back(whitespace_token_count(l->text()));
      ends.push_back(l->bbox.x1);
    }
    std::nth_element(words.begin(), words.begin() + words.size() / 2, words.end());
    if (words[words.size() / 2] > o.lines.max_cell_words_beside) continue;
    const auto flush = std::count_if(ends.begin(), ends.end(), [&](double x) {
      return std::count_if(ends.begin(), ends.end(), [&](double y) {
               return std::fabs(x - y) <= o.lines.edge_tolerance;
             }) >= o.lines.flush_end_min_lines;
    });
    if (typography::at_least_half(flush, static_cast<long>(ends.size()))) continue;
    const std::vector<size_t> rows = row_sizes(baselines[side], o);
    const auto several = std::count_if(rows.begin(), rows.end(), [](size_t n) { return n > 1; });
    if (static_cast<double>(several) >= o.lines.table_row_pair_share * static_cast<double>(rows.size())) return true;
  }
  return false;
}

}  // namespace quire::detail
