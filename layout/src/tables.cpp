// Tables: cells of consecutive rows line up in columns (shared left or right edges), set
// apart by a column gap wider than a word space.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

#include "figures.h"
#include "internal.h"
#include "quire/typography.h"
#include "quire/text.h"
#include "page_passes.h"
#include "tables.h"

namespace quire::detail {

namespace {

// Cells of a row that may be a table row: its lines, when there are enough of them, each
// short but one (a description, wrapped in its column) and set apart from the one before by
// a column gap. Empty otherwise. (A listing's row is none, its gaps are columns of code.)
std::vector<const Line*> table_cells(const Row& r, const LayoutOptions& o, size_t min_cells,
                                     const std::vector<Box>& bars, const std::vector<Box>& rules) {
  if (r.mono || r.one_sign || r.footnote || r.lines.size() < min_cells) return {};
  // Inside a ruled table (a rule over the row and one under it, within ruled_table_reach ems,
  // each across the row) the engine's parting of two lines is a cell's edge down to a word
  // space: such tables may set their columns close (ConTeXt's, and cells that extraction
  // parted at a column's edge, ExtractOptions::glued_cell_*).
  bool over = false, under = false;
  for (const Box& rule : rules) {
    if (rule.x0 > r.bbox.x0 + o.lines.edge_tolerance || rule.x1 < r.bbox.x1 - o.lines.edge_tolerance) continue;
    if (rule.y1 <= r.bbox.y0 + o.lines.edge_tolerance && r.baseline - rule.y0 <= o.tables.ruled_table_reach * r.size)
      over = true;
    if (rule.y0 >= r.baseline && rule.y0 - r.baseline <= o.tables.ruled_table_reach * r.size) under = true;
  }
  const double least_gap_ratio = over && under ? o.tables.min_ruled_cell_gap_ratio : o.tables.min_cell_gap_ratio;
  bool one_word_each = true, long_cell = false;
  for (size_t i = 0; i < r.lines.size(); ++i) {
    const Line* l = r.lines[i];
    size_t words = whitespace_tokens(l->text()).size();
    if (words == 0) return {};
    if (words > o.tables.max_table_cell_words) {
      if (long_cell) return {};
      long_cell = true;
    }
    if (words > 1) one_word_each = false;
    if (i > 0 && l->bbox.x0 - r.lines[i - 1]->bbox.x1 < least_gap_ratio * r.size &&
        !ruled_apart(r.lines[i - 1]->bbox, l->bbox, bars, o))
      return {};
  }
  // A loosely justified prose line (a narrow measure, long words) is stretched so far that
  // every word stands apart: one word per piece, filling the measure to the right edge, the
  // space shared out evenly between them (a table's header of one-word cells is not). A line
  // of a justified paragraph's words, min_justified_line_words pieces or more, reaches the
  // right edge with its gaps even, wherever it starts (a first line indented, or led by a
  // note's mark): a table's columns are never spaced as evenly as that.
  const bool to_edge = r.bbox.x1 >= r.col_right - o.lines.edge_tolerance;
  const bool full_measure =
      to_edge && r.bbox.x0 <= r.col_left + o.blocks.indent_ratio * r.size + o.lines.edge_tolerance;
  double least_gap = r.bbox.x1 - r.bbox.x0, most_gap = 0;
  for (size_t i = 1; i < r.lines.size(); ++i) {
    const double gap = r.lines[i]->bbox.x0 - r.lines[i - 1]->bbox.x1;
    least_gap = std::min(least_gap, gap);
    most_gap = std::max(most_gap, gap);
  }
  const bool even = most_gap - least_gap <= typography::max_spread(o.lines.edge_tolerance);
  if (even && ((one_word_each && full_measure) ||
               (to_edge && r.lines.size() >= static_cast<size_t>(o.lines.min_justified_line_words))))
    return {};
  return r.lines;
}

}  // namespace

// Column edges the two rows share: cells flush left or flush right at the same x. The left
// edge of the first cell does not count, nor the right edge of the last where it reaches
// the measure's right edge `right`: every line of a justified paragraph shares those (and a
// loosely set line breaks into one line per word). A table set narrower than the measure
// (centred, or with its last column flush right inside it) shares its last right edge.
size_t shared_edges(const std::vector<const Line*>& a, const std::vector<const Line*>& b, double right,
                    const LayoutOptions& o) {
  size_t n = 0;
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t k = 0; k < b.size(); ++k) {
      bool left = i > 0 && k > 0 && std::fabs(a[i]->bbox.x0 - b[k]->bbox.x0) <= o.lines.edge_tolerance;
      bool inside = (i + 1 < a.size() && k + 1 < b.size()) || a[i]->bbox.x1 < right - o.lines.edge_tolerance;
      bool flush_right = inside && std::fabs(a[i]->bbox.x1 - b[k]->bbox.x1) <= o.lines.edge_tolerance;
      if (left || flush_right) {
        ++n;
        break;
      }
    }
  return n;
}

// Tables drawn as grids: a rule across the table's width under each of its rows, and rules
// between its columns that cross every row. Whatever stands inside is the table's, however
// its cells are set: a cell set middle-aligned beside one that wraps sits between the other
// cells' baselines, a cell too long for its column runs into the next, a cell's text may be
// set in the typewriter face, and rows without a gap wider than a word space between their
// cells pass for prose; the grid holds them together all the same. A box ruled above and
// below (a note, a framed listing) has no rule between: no grid.
std::vector<RuledGrid> ruled_grids(const std::vector<Box>& rules, const std::vector<Box>& bars, const LayoutOptions& o) {
  // Rows of a grid, at the least: two rows between three rules (a frame of two rules with
  // one between its columns is a box, a listing beside its line numbers as much as a table).
  constexpr size_t kGridMinRows = 2;
  const double tol = o.lines.edge_tolerance;
  std::vector<Box> sorted = rules;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Box& a, const Box& b) { return a.y0 < b.y0; });
  // Whether a rule between the columns crosses the row between rules `a` and `b`.
  auto crossed = [&](const Box& a, const Box& b) {
    return std::any_of(bars.begin(), bars.end(), [&](const Box& bar) {
      const double x = (bar.x0 + bar.x1) / 2;
      return x > a.x0 + tol && x < a.x1 - tol && bar.y0 <= a.y1 + tol && bar.y1 >= b.y0 - tol;
    });
  };
  std::vector<RuledGrid> grids;
  std::vector<bool> used(sorted.size(), false);
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (used[i]) continue;
    size_t rows = 0, last = i;
    for (size_t j = i + 1; j < sorted.size(); ++j) {
      const Box& a = sorted[last];
      const Box& b = sorted[j];
      if (used[j] || std::fabs(a.x0 - b.x0) > tol || std::fabs(a.x1 - b.x1) > tol || b.y0 - a.y1 <= tol) continue;
      if (!crossed(a, b)) break;
      used[j] = true;
      last = j;
      ++rows;
    }
    if (rows < kGridMinRows) continue;
    RuledGrid g;
    g.box = {sorted[i].x0, sorted[i].y0, sorted[i].x1, sorted[last].y1};
    auto add = [&](std::vector<double>& at, double v) {  // once each, within edge_tolerance
      if (std::none_of(at.begin(), at.end(), [&](double x) { return std::fabs(x - v) <= tol; }))
        at.insert(std::upper_bound(at.begin(), at.end(), v), v);
    };
    for (const Box& bar : bars) {
      const double x = (bar.x0 + bar.x1) / 2;
      if (x > g.box.x0 + tol && x < g.box.x1 - tol && bar.y1 > g.box.y0 && bar.y0 < g.box.y1) add(g.columns, x);
    }
    for (const Box& rule : rules) {
      const double y = (rule.y0 + rule.y1) / 2;
      if (std::fabs(rule.x0 - g.box.x0) <= tol && std::fabs(rule.x1 - g.box.x1) <= tol && y >= g.box.y0 - tol &&
          y <= g.box.y1 + tol)
        add(g.rows, y);
    }
    grids.push_back(std::move(g));
  }
  return grids;
}

std::vector<RuledGrid> painted_grids(const std::vector<Box>& fills, const LayoutOptions& o) {
  constexpr size_t kGridMinRows = 2, kGridMinColumns = 2;
  const double tol = o.lines.edge_tolerance, gap = o.tables.painted_cell_max_gap;
  // Rows: cells of one height (top and bottom within tol), each beside the one before,
  // no more than `gap` apart.
  // (A strip no wider than a frame's side is a box's padding: a shaded listing drawn line
  // by line in three pieces is no table.)
  std::vector<Box> sorted;
  for (const Box& f : fills)
    if (f.width() > o.figures.frame_side_max) sorted.push_back(f);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Box& a, const Box& b) {
    return a.y0 != b.y0 ? a.y0 < b.y0 : a.x0 < b.x0;
  });
  std::vector<std::vector<Box>> rows;
  std::vector<bool> used(sorted.size(), false);
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (used[i]) continue;
    std::vector<Box> row = {sorted[i]};
    used[i] = true;
    for (bool grown = true; grown;) {
      grown = false;
      for (size_t j = i + 1; j < sorted.size() && sorted[j].y0 <= sorted[i].y0 + tol; ++j) {
        const Box& last = row.back();
        const Box& b = sorted[j];
        if (used[j] || std::fabs(b.y1 - last.y1) > tol || b.x0 < last.x1 - tol || b.x0 > last.x1 + gap) continue;
        row.push_back(b);
        used[j] = true;
        grown = true;
      }
    }
    if (row.size() >= kGridMinColumns) rows.push_back(std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.front().y0 < b.front().y0; });
  // Whether row `b` stands under row `a` in its columns.
  auto under = [&](const std::vector<Box>& a, const std::vector<Box>& b) {
    if (a.size() != b.size() || b.front().y0 < a.front().y1 - tol || b.front().y0 > a.front().y1 + gap) return false;
    for (size_t k = 0; k < a.size(); ++k)
      if (std::fabs(a[k].x0 - b[k].x0) > tol || std::fabs(a[k].x1 - b[k].x1) > tol) return false;
    return true;
  };
  std::vector<RuledGrid> grids;
  for (size_t i = 0; i < rows.size();) {
    size_t j = i + 1;
    while (j < rows.size() && under(rows[j - 1], rows[j])) ++j;
    if (j - i >= kGridMinRows) {
      RuledGrid g;
      g.box = {rows[i].front().x0, rows[i].front().y0, rows[i].back().x1, rows[j - 1].front().y1};
      for (size_t k = 1; k < rows[i].size(); ++k) g.columns.push_back((rows[i][k - 1].x1 + rows[i][k].x0) / 2);
      g.rows.push_back(g.box.y0);
      for (size_t r = i + 1; r < j; ++r) g.rows.push_back((rows[r - 1].front().y1 + rows[r].front().y0) / 2);
      g.rows.push_back(g.box.y1);
      grids.push_back(std::move(g));
    }
    i = j;
  }
  return grids;
}

bool grid_holds(const RuledGrid& g, const Box& b, const LayoutOptions& o) {
  const double tol = o.lines.edge_tolerance;
  const double mid = (b.y0 + b.y1) / 2;
  return mid > g.box.y0 && mid < g.box.y1 && b.x0 >= g.box.x0 - tol && b.x1 <= g.box.x1 + tol;
}

namespace {

// Whether the cells `head` stand over the cells `row` one to one, each overlapping its own
// and no other: a table's header, whose labels are often centred over columns whose cells
// are flush left or flush right, so that they share no edge with the first row.
bool heads_columns(const std::vector<const Line*>& head, const std::vector<const Line*>& row) {
  if (head.size() != row.size()) return false;
  auto overlap = [](const Line* a, const Line* b) { return a->bbox.x0 < b->bbox.x1 && b->bbox.x0 < a->bbox.x1; };
  for (size_t i = 0; i < head.size(); ++i) {
    if (!overlap(head[i], row[i])) return false;
    if (i > 0 && overlap(head[i], row[i - 1])) return false;
    if (i + 1 < row.size() && overlap(head[i], row[i + 1])) return false;
  }
  return true;
}

// Whether `head` heads every column of `row` but the first: a cross table names its rows in
// the first (stub) column and its columns at the top, and leaves the stub's head empty, so
// its header row has one cell fewer, none of them over the first column.
bool heads_stub_columns(const std::vector<const Line*>& head, const std::vector<const Line*>& row) {
  if (head.empty() || head.size() + 1 != row.size() || head.front()->bbox.x0 < row.front()->bbox.x1) return false;
  return heads_columns(head, std::vector<const Line*>(row.begin() + 1, row.end()));
}

// Whether `r` holds only wrapped lines of a table's cells: each of its pieces starts where
// a column of the table starts (`lefts`, sorted: the left edges of its rows' cells) and ends
// before the next column's start. `from` is the first column a piece may start at.
bool wrapped_cells(const Row& r, const std::vector<double>& lefts, size_t max_pieces, const LayoutOptions& o,
                   const std::vector<Box>& bars, size_t from = 0) {
  // (A piece may be set all in the typewriter face: a cell's last word, a command's name.)
  if (r.footnote || r.lines.empty() || r.lines.size() >= max_pieces) return false;
  for (const Line* piece : r.lines) {
    size_t k = from;
    while (k < lefts.size() && std::fabs(piece->bbox.x0 - lefts[k]) > o.lines.edge_tolerance) ++k;
    if (k == lefts.size()) return false;
    const double end = k + 1 < lefts.size() ? lefts[k + 1] - o.tables.min_cell_gap_ratio * r.size : r.col_right;
    // (Past its column's rule, a piece may run on into the next: ruled_apart.)
    if (piece->bbox.x1 > end + o.lines.edge_tolerance &&
        !(k + 1 < lefts.size() && ruled_apart(piece->bbox, {lefts[k + 1], piece->bbox.y0, lefts[k + 1], piece->bbox.y1}, bars, o)))
      return false;
  }
  return true;
}

// Adds the left edges of `cells` to the sorted `lefts`, once each (within edge_tolerance).
void add_lefts(std::vector<double>& lefts, const std::vector<const Line*>& cells, const LayoutOptions& o) {
  for (const Line* c : cells) {
    bool known = false;
    for (double x : lefts) known = known || std::fabs(x - c->bbox.x0) <= o.lines.edge_tolerance;
    if (!known) lefts.insert(std::upper_bound(lefts.begin(), lefts.end(), c->bbox.x0), c->bbox.x0);
  }
}

// Whether `b` follows `a` as the next row of one table: same page and column, at most
// max_table_row_pitch ems below.
bool next_table_row(const Row& a, const Row& b, const LayoutOptions& o) {
  const double pitch = b.baseline - a.baseline;
  return a.page == b.page && a.column == b.column && pitch > 0 && pitch <= o.tables.max_table_row_pitch * a.size;
}

}  // namespace

bool table_row_pair(const Row& a, const Row& b, const LayoutOptions& o, const std::vector<Box>& bars,
                    const std::vector<Box>& rules) {
  if (!next_table_row(a, b, o)) return false;
  const auto ca = table_cells(a, o, o.tables.min_table_cells, bars, rules), cb = table_cells(b, o, o.tables.min_table_cells, bars, rules);
  if (ca.empty() || cb.empty()) return false;
  return shared_edges(ca, cb, b.col_right, o) >=
         std::min(o.tables.min_shared_edges, std::min(ca.size(), cb.size()) - 1);
}

// Tables: runs of consecutive rows of one page and column whose cells line up in columns,
// with the lines of cells wrapped under (or, where the other cells of a row are set
// middle-aligned beside a wrapped one, above) their rows. Gives each table row of the
// page's items its run number, counting on from `run` (a run never spans pages: its rows
// share a page).
void find_tables(const std::vector<Item>& items, const LayoutOptions& o, long& run, std::map<const Row*, long>& out,
                 const std::vector<const Line*>& open_cells, const std::vector<Box>& bars,
                 const std::vector<Box>& rules, std::vector<RuledGrid>* grids_out, const std::vector<Box>& fills) {
  const std::vector<Box> joined = joined_rules(rules, o.figures.rule_max_thickness);
  auto table_cells = [&](const Row& r, const LayoutOptions& opts, size_t min_cells) {
    return detail::table_cells(r, opts, min_cells, bars, joined);
  };
  std::vector<RuledGrid> grids = ruled_grids(joined, bars, o);
  // (A grid painted where one is ruled is that one.)
  for (RuledGrid& g : painted_grids(fills, o))
    if (std::none_of(grids.begin(), grids.end(), [&](const RuledGrid& r) { return r.box.intersects(g.box); }))
      grids.push_back(std::move(g));
  // The grid a row stands inside, or -1.
  auto grid_of = [&](const Row& r) -> long {
    for (size_t g = 0; g < grids.size() && !r.footnote; ++g)
      if (grid_holds(grids[g], r.bbox, o)) return static_cast<long>(g);
    return -1;
  };
  long cur_grid = -1;  // the grid of the run `cur`, if it is a grid's
  std::vector<const Row*> cur;
  // The page's first run goes on with a table open at the page break when its first row
  // stands in that table's columns: then one row is enough.
  bool goes_on = false;
  size_t full_rows = 0;  // rows of `cur` with all their cells (not wrapped lines)
  std::vector<const Line*> prev_cells;
  std::vector<double> lefts;  // the run's column edges
  size_t most_cells = 0;
  // The run opens with a header row set in bold: then rows of two cells are a table's
  // (without one, two cells a row are more often a term and its description).
  bool bold_head = false;
  auto flush = [&]() {
    if (full_rows >= (goes_on || cur_grid >= 0 ? 1 : o.tables.min_table_rows)) {
      for (const Row* r : cur) out[r] = run;
      ++run;
    }
    cur.clear();
    full_rows = 0;
    prev_cells.clear();
    lefts.clear();
    most_cells = 0;
    bold_head = false;
    goes_on = false;
    cur_grid = -1;
  };
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    if (it.kind != Item::Text) {
      flush();
      continue;
    }
    const Row& r = it.row;
    // A grid's rows are its run, all of them and nothing else.
    if (const long g = grid_of(r); g >= 0 || cur_grid >= 0) {
      if (g != cur_grid) flush();
      if (g >= 0) {
        cur_grid = g;
        cur.push_back(&r);
        ++full_rows;
        continue;
      }
    }
    const bool next_row = !cur.empty() && next_table_row(*cur.back(), r, o);
    auto cells = table_cells(r, o, o.tables.min_table_cells);
    // A row of one cell fewer over a full row heads a cross table (heads_stub_columns); but a
    // row that goes on in the open run's columns (a body cell left empty) is that run's.
    if (cells.empty() && i + 1 < items.size() && items[i + 1].kind == Item::Text &&
        next_table_row(r, items[i + 1].row, o) && !(next_row && wrapped_cells(r, lefts, most_cells, o, bars))) {
      auto head = table_cells(r, o, o.tables.min_header_table_cells);
      if (!head.empty() && heads_stub_columns(head, table_cells(items[i + 1].row, o, o.tables.min_table_cells))) {
        flush();
        cells = std::move(head);
      }
    }
    if (cells.empty() && (bold_head ? next_row : r.bold)) {
      cells = table_cells(r, o, o.tables.min_header_table_cells);
      // Under its bold header, a row of the same size whose cells stand in its columns.
      if (bold_head && (!typography::same_size(r.size, cur.front()->size, o.blocks.size_step_tolerance) ||
                        (full_rows == 1 && !heads_columns(prev_cells, cells) && shared_edges(prev_cells, cells, r.col_right, o) == 0)))
        cells.clear();
      if (!cells.empty() && !bold_head) {
        flush();
        bold_head = true;
      }
    }
    if (cells.empty()) {
      // A cell's text that wraps goes on in its column on the lines below the row.
      if (next_row && wrapped_cells(r, lefts, most_cells, o, bars)) cur.push_back(&r);
      else flush();
      continue;
    }
    if (!cur.empty()) {
      const bool header =
          full_rows == 1 && cur.size() == 1 && (heads_columns(prev_cells, cells) || heads_stub_columns(prev_cells, cells));
      const size_t need = std::min(o.tables.min_shared_edges, cells.size() - 1);
      if (!next_row || (shared_edges(prev_cells, cells, r.col_right, o) < need && !header)) flush();
    }
    if (cur.empty() && i > 0 && items[i - 1].kind == Item::Text) {
      // The first line of a cell wrapped in the table's first row, set above the row's
      // other cells where they stand middle-aligned beside it (not in the first column,
      // where a line of the text before the table would start).
      const Row& before = items[i - 1].row;
      std::vector<double> own;
      add_lefts(own, cells, o);
      // (A line all in the typewriter face there is a listing's last.)
      if (out.count(&before) == 0 && !before.mono && next_table_row(before, r, o) &&
          wrapped_cells(before, own, cells.size(), o, bars, 1))
        cur.push_back(&before);
    }
    if (cur.empty() && i == 0 && !open_cells.empty())
      goes_on =
          shared_edges(open_cells, cells, r.col_right, o) >= std::min(o.tables.min_shared_edges, cells.size() - 1);
    cur.push_back(&r);
    ++full_rows;
    prev_cells = cells;
    add_lefts(lefts, cells, o);
    most_cells = std::max(most_cells, cells.size());
  }
  flush();
  if (grids_out) *grids_out = std::move(grids);
}

}  // namespace quire::detail
