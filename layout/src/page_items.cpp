// Page items: a page's rows and figures in reading order (columns, bands split by spanning
// rows and figures, captions paired with figures, footnotes after the flow).
#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstring>

#include "figures.h"
#include "internal.h"
#include "note_marks.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "page_passes.h"
#include "tables.h"

namespace quire::detail {

namespace {

// Where a row stands, for reading order: its top, or a font size above its baseline when a
// span's box is outsized. An OpenType math font's glyph boxes span the font's large
// operators, so a line of prose with one math letter ("includes ε-TeX") reaches above the
// line before it. (A formula whose rows are tall because of what they draw, a big sum with
// its limits, keeps its top.)
double reading_top(const Row& r, const LayoutOptions& o) {
  if (r.read_at >= 0) return r.read_at;
  if (r.baseline <= 0 || r.size <= 0) return r.bbox.y0;
  for (const Line* l : r.lines)
    for (const auto& s : l->spans)
      if (s.size > 0 && s.bbox.height() > o.lines.outsized_span_ratio * s.size) return r.baseline - r.size;
  return r.bbox.y0;
}

// The passes over one page, in the order page_items runs them; each leaves its result in a
// member for the next.
class PagePasses {
 public:
  PagePasses(const Page& page, const PageLines& pl, const BookStats& st, const LayoutOptions& o)
      : page(page), pl(pl), st(st), o(o) {}

  // Figures found, and the lines of the page that are none of their labels; side labels
  // taken out of the lines (they make rows of their own, put before their blocks once the
  // rows are in order).
  void body_lines() {
    BodyText body;
    body.size = st.body_size;
    const int parity = page.number % 2;
    if (st.left_margin.count(parity) && st.right_margin.count(parity)) {
      body.left = st.left_margin.at(parity);
      body.right = st.right_margin.at(parity);
    }
    regions = find_figures(page, o, body);
    std::vector<bool> label_line(page.lines.size(), false);
    for (const auto& r : regions)
      for (size_t i : r.label_lines)
        if (i < label_line.size()) label_line[i] = true;
    for (size_t i = 0; i < page.lines.size(); ++i)
      if (!label_line[i] && pl.visible(page.lines[i])) lines.push_back(&page.lines[i]);
    side = side_labels(lines, pl, o);
    for (const auto& s : side) lines.erase(std::find(lines.begin(), lines.end(), s.label));
  }

  // The gutter of a two-column page, and the left column's edges where it is set justified:
  // where most of its lines start, and the right edge at least `min_column_lines` of them
  // reach.
  void columns() {
    g = find_gutter(lines, pl, page.width, o);
    decor = page_decor(page, o);
    if (ruled_across(g, lines, decor.rules, o)) g = Gutter();
    // (Where the book's measure is not known, only the cells to a row tell.)
    const int parity = page.number % 2;
    std::optional<Measure> measure;
    if (st.left_margin.count(parity) && st.right_margin.count(parity))
      measure = Measure{st.left_margin.at(parity), st.right_margin.at(parity)};
    if (cells_across(g, lines, measure, st.body_size, o)) g = Gutter();
    if (g.found) {
      std::vector<double> x1s;
      for (const Line* l : lines) {
        left_edge = std::min(left_edge, l->bbox.x0);
        if (l->bbox.x1 <= g.x0 + o.lines.gutter_glyph_reach) x1s.push_back(l->bbox.x1);
      }
      if (!x1s.empty()) {
        const double m = mode(x1s, o.lines.edge_bin);
        if (std::count_if(x1s.begin(), x1s.end(), [&](double x) {
              return std::fabs(x - m) <= o.lines.edge_tolerance;
            }) >= o.lines.min_column_lines)
          justified = m;
      }
    }
  }

  // Column of a box: 0 / 1, or -1 for one over the gutter.
  int column_of(const Box& b) const {
    if (!g.found) return 0;
    if (b.x0 < g.x0 && b.x1 > g.x1) {
      // A line of a justified left column set too wide (a long word or an address that
      // would not break) starts near the column's edge and runs past the justified edge,
      // into the gutter and less than a gutter's width beyond it; it is a line of a
      // paragraph, with a full line of the column right above or below it. A spanning
      // heading or caption reaches further, or is centred on the page.
      if (!(b.x1 > justified + o.lines.edge_tolerance && b.x1 - g.x1 <= g.x1 - g.x0 &&
            b.x0 - left_edge <= o.lines.overwide_line_start_share * (g.x0 - left_edge)))
        return -1;
      const double pitch = o.lines.overwide_line_pitch_ratio * b.height();
      for (const Line* l : lines)
        if (std::fabs(l->bbox.x1 - justified) <= o.lines.edge_tolerance &&
            l->bbox.x0 - left_edge <= o.lines.overwide_line_start_share * (g.x0 - left_edge) &&
            std::fabs(l->bbox.y1 - b.y1) <= pitch && l->bbox.y1 != b.y1)
          return 0;
      return -1;
    }
    return (b.x0 + b.x1) / 2 < (g.x0 + g.x1) / 2 ? 0 : 1;
  }

  // The page's rows, column by column, with their drawn bullets.
  void make_rows() {
    constexpr int kSlots = 3;  // column_of: -1 across the gutter, 0 left of it, 1 right
    std::vector<const Line*> by_col[kSlots];
    for (const Line* l : lines) by_col[column_of(l->bbox) + 1].push_back(l);
    for (int c = 0; c < kSlots; ++c) {
      auto rs = group_rows(page.number, by_col[c], pl, o, decor.bars);
      for (auto& r : rs) {
        r.column = c - 1;
        rows.push_back(std::move(r));
      }
    }
    for (auto& r : rows) r.drawn_marker = r.marker == 0 && drawn_bullet_before(r, page, o);
    find_hanging_markers(rows, o);
  }

  // Column edges: the flush left edge (most common start of prose rows) and the right edge.
  // A caption does not count for the right edge: centred under a figure across both columns,
  // on a page whose text fills one column, it reaches past that column's edge. Nor does a
  // display heading: a chapter's label may stand out into the margin.
  void column_edges() {
    for (int c = -1; c <= 1; ++c) {
      std::vector<double> x0s;
      double left = 1e9, right = 0, caption_right = 0;
      // A listing's line too long for the measure runs into the margin, past the column's edge.
      auto margin_right = st.right_margin.find(page.number % 2);
      const double code_reach = !g.found && margin_right != st.right_margin.end() ? margin_right->second : 1e300;
      for (const auto& r : rows)
        if (r.column == c) {
          left = std::min(left, r.bbox.x0);
          double& edge = r.caption || r.size > o.blocks.heading_size_ratio * st.body_size ? caption_right : right;
          edge = std::max(edge, r.mono ? std::min(r.bbox.x1, code_reach) : r.bbox.x1);
          if (!r.mono && std::fabs(r.size - st.body_size) < o.lines.body_size_tolerance) x0s.push_back(r.bbox.x0);
        }
      // (A column of a two-column page that holds a listing and a line or two of prose has no
      // flush prose edge to speak of: its leftmost row's edge, the listing's, is the column's.)
      bool listing = false;
      for (const auto& r : rows) listing = listing || (r.column == c && r.mono);
      if (!x0s.empty() && (!g.found || !listing || x0s.size() >= static_cast<size_t>(o.lines.min_column_lines)))
        left = mode(x0s, o.lines.edge_bin);
      if (right == 0) right = caption_right;
      // One-column pages share the book's margin for their parity (a page of only code or
      // of indented matter has no flush prose edge of its own).
      auto margin = st.left_margin.find(page.number % 2);
      if (!g.found && margin != st.left_margin.end()) left = margin->second;
      for (auto& r : rows)
        if (r.column == c) {
          r.col_left = left;
          r.col_right = right;
        }
    }
  }

  // Rows in reading order; a side label is read at the top of its block.
  void order_rows() {
    std::stable_sort(rows.begin(), rows.end(),
                     [&](const Row& a, const Row& b) { return reading_top(a, o) < reading_top(b, o); });
    for (const auto& s : side) {
      auto before = std::find_if(rows.begin(), rows.end(), [&](const Row& r) {
        return std::find(r.lines.begin(), r.lines.end(), s.first) != r.lines.end();
      });
      if (before == rows.end()) continue;  // (cannot happen: the block's lines are in rows)
      Row label = group_rows(page.number, {s.label}, pl, o).front();
      label.column = before->column;
      label.col_left = before->col_left;
      label.col_right = before->col_right;
      label.read_at = reading_top(*before, o);
      rows.insert(before, std::move(label));
    }
  }

  // Figures and their captions (taken out of the flow so a paragraph can run around them).
  void captions() {
    taken.assign(rows.size(), false);
    for (const auto& reg : regions) {
      FigureItem f;
      f.page = page.number;
      f.bbox = reg.bbox;
      f.labels = reg.labels;
      double reach = o.blocks.caption_distance_ratio * st.body_size;
      auto overlaps_x = [&](const Row& r) { return r.bbox.x0 < reg.bbox.x1 && reg.bbox.x0 < r.bbox.x1; };
      long start = -1;
      for (size_t i = 0; i < rows.size() && start < 0; ++i)
        if (!taken[i] && overlaps_x(rows[i]) && rows[i].bbox.y0 >= reg.bbox.y1 - o.lines.edge_tolerance &&
            rows[i].bbox.y0 <= reg.bbox.y1 + reach && rows[i].caption)
          start = static_cast<long>(i);
      size_t end = 0;
      if (start >= 0) {
        end = caption_end(rows, static_cast<size_t>(start), o);
      } else {
        // Caption above: the nearest rows ending just above the region.
        for (size_t i = rows.size(); i-- > 0;) {
          if (taken[i] || !overlaps_x(rows[i]) || rows[i].bbox.y1 > reg.bbox.y0 + o.lines.edge_tolerance) continue;
          if (rows[i].bbox.y1 < reg.bbox.y0 - reach) break;
          // Walk up the caption paragraph to its label line.
          for (size_t k = i + 1; k-- > 0 && i - k < o.blocks.caption_max_rows_above;)
            if (rows[k].caption && !taken[k]) {
              size_t e = caption_end(rows, k, o);
              if (e > i) { start = static_cast<long>(k); end = e; }
              break;
            }
          break;
        }
      }
      if (start >= 0)
        for (size_t i = static_cast<size_t>(start); i < end; ++i) {
          taken[i] = true;
          f.caption.push_back(rows[i]);
        }
      figures.push_back(std::move(f));
    }
  }

  // The rows left in the flow, each knowing whether anything of its column stands above or
  // below it.
  void flow_rows() {
    for (size_t i = 0; i < rows.size(); ++i)
      if (!taken[i]) flow.push_back(rows[i]);
    for (auto& r : flow) {
      r.nothing_above = r.nothing_below = true;
      auto check = [&](const Box& b, int column) {
        if (column != r.column && column >= 0 && r.column >= 0) return;
        if (b.y1 <= r.bbox.y0 + o.lines.edge_tolerance) r.nothing_above = false;
        if (b.y0 >= r.bbox.y1 - o.lines.edge_tolerance) r.nothing_below = false;
      };
      // (Once something is found above and below, nothing more can change the row.)
      for (size_t i = 0; i < rows.size() && (r.nothing_above || r.nothing_below); ++i)
        if (&rows[i] != &r && rows[i].bbox != r.bbox) check(rows[i].bbox, rows[i].column);
      for (size_t i = 0; i < regions.size() && (r.nothing_above || r.nothing_below); ++i)
        check(regions[i].bbox, column_of(regions[i].bbox));
    }
  }

  // Whether a row above r on the page raises `mark` (a note's mark in the text).
  bool cited_above(const Row& r, const std::u32string& mark) const {
    for (const Row& q : flow) {
      if (q.bbox.y1 > r.bbox.y0 || q.size <= r.size) continue;
      const std::vector<std::string> marked = texts_with_marks({&q});
      if (marked.empty()) continue;
      const std::string& t = marked.front();
      for (size_t a = t.find(kMarkOpen); a != std::string::npos; a = t.find(kMarkOpen, a + 1)) {
        const size_t z = t.find(kMarkClose, a);
        if (z != std::string::npos && mark_points(t.substr(a + 1, z - a - 1)) == mark) return true;
      }
    }
    return false;
  }

  // Footnotes: the small rows at the bottom of each column under a footnote rule or, without
  // one, from the first starting with a mark. A note is prose: without the rule, a table's
  // rows (a table set small at the page's foot) end the area, counting up from the bottom.
  void footnote_area() {
    for (int c = -1; c <= 1; ++c) {
      std::vector<size_t> idx;
      for (size_t i = 0; i < flow.size(); ++i)
        if (flow[i].column == c) idx.push_back(i);
      double left = 1e300, right = -1e300;  // the column's edges
      for (size_t i : idx) {
        left = std::min(left, flow[i].bbox.x0);
        right = std::max(right, flow[i].bbox.x1);
      }
      // The small rows from the bottom up, to the first row of a table with `tables`.
      const std::vector<Box> rules = joined_rules(decor.rules, o.figures.rule_max_thickness);
      auto small_from = [&](bool tables) {
        size_t k = idx.size();
        while (k > 0) {
          const Row& r = flow[idx[k - 1]];
          if (r.mono || r.size > o.blocks.footnote_size_ratio * st.body_size) break;
          if (tables && ((k >= 2 && table_row_pair(flow[idx[k - 2]], r, o, decor.bars, rules)) ||
                         (k < idx.size() && table_row_pair(r, flow[idx[k]], o, decor.bars, rules))))
            break;
          --k;
        }
        return k;
      };
      // Whether a footnote rule stands right above row k: the area starts there, the first row
      // going on with a note from the page before (without a mark) or opening one.
      auto ruled_above = [&](size_t k, double max_share) {
        if (k >= idx.size()) return false;
        const Box& first = flow[idx[k]].bbox;
        const double above = k > 0 ? flow[idx[k - 1]].bbox.y1 : 0;
        for (const auto& p : page.paths) {
          // A stroke's box takes in its joins (up to ten line widths each side): the rule
          // itself lies inside.
          const double e = p.stroke && !p.fill ? std::min(kStrokeBoxPad * p.line_width, std::min(p.bbox.width(), p.bbox.height()) / 2) : 0;
          const Box r{p.bbox.x0 + e, p.bbox.y0 + e, p.bbox.x1 - e, p.bbox.y1 - e};
          if (r.height() <= o.blocks.footnote_rule_height && r.y1 <= first.y0 + o.blocks.footnote_rule_slack &&
              r.y0 >= above - o.blocks.footnote_rule_slack && r.x0 >= left - o.lines.edge_tolerance &&
              r.x0 <= first.x0 + o.lines.edge_tolerance && r.width() >= o.blocks.footnote_rule_min_width &&
              r.width() <= max_share * (right - left) + o.lines.edge_tolerance)
            return true;
        }
        return false;
      };
      // (Or the rule stands over the first note, under small rows of the text.)
      auto first_marked = [&](size_t k) {
        while (k < idx.size() && !starts_with_note_mark(flow[idx[k]], st.bracketed_marks)) ++k;
        return k;
      };
      size_t k = small_from(false);
      if (!ruled_above(k, o.blocks.footnote_rule_max_share)) {
        k = first_marked(k);
        if (!ruled_above(k, o.blocks.footnote_rule_max_share)) k = first_marked(small_from(true));
      }
      // A footnote area sits below the page's other text, never above a body row.
      for (size_t j = k; j < idx.size(); ++j) flow[idx[j]].footnote = true;
      // A note set in the text's flow, right under the paragraph that cites it (a browser
      // prints a footnote so): small rows under a rule as wide as the column at most, the
      // first opening with a mark that a row above it on the page raises.
      for (size_t j = 0; j < k; ++j) {
        const Row& r = flow[idx[j]];
        if (r.mono || r.size > o.blocks.footnote_size_ratio * st.body_size || !ruled_above(j, 1.0)) continue;
        const std::u32string mark = footnote_mark(r.text);
        if (mark.empty() || !cited_above(r, mark)) continue;
        for (size_t e = j; e < k; ++e) {
          const Row& q = flow[idx[e]];
          if (q.mono || q.size > o.blocks.footnote_size_ratio * st.body_size) break;
          flow[idx[e]].footnote = true;
        }
      }
    }
  }

  // Reading order: bands separated by rows (and figures) that span both columns; inside a
  // band the left column, then the right one. Footnotes come after the page's flow.
  std::vector<Item> reading_order() {
    struct Elem {
      double y;
      int column;
      bool figure;
      size_t index;
    };
    std::vector<Elem> elems;
    for (size_t i = 0; i < flow.size(); ++i)
      if (!flow[i].footnote) elems.push_back({reading_top(flow[i], o), flow[i].column, false, i});
    for (size_t i = 0; i < figures.size(); ++i) elems.push_back({figures[i].bbox.y0, column_of(figures[i].bbox), true, i});
    std::stable_sort(elems.begin(), elems.end(), [](const Elem& a, const Elem& b) { return a.y < b.y; });
    std::vector<Item> items;
    auto emit = [&](const Elem& e) {
      Item it;
      if (e.figure) {
        it.kind = Item::Figure;
        it.figure = std::move(figures[e.index]);  // (each element is emitted once)
      } else {
        it.row = std::move(flow[e.index]);
      }
      items.push_back(std::move(it));
    };
    std::vector<Elem> band[2];
    auto flush = [&]() {
      for (auto& b : band) {
        for (const auto& e : b) emit(e);
        b.clear();
      }
    };
    for (const auto& e : elems) {
      if (e.column < 0) {
        flush();
        emit(e);
      } else {
        band[e.column].push_back(e);
      }
    }
    flush();
    // The notes of the left column, then those of the right one (side by side at the foot of
    // the page, they share baselines), then notes set across both.
    for (int c : {0, 1, -1})
      for (auto& r : flow)
        if (r.footnote && r.column == c) {
          Item it;
          it.row = std::move(r);
          items.push_back(std::move(it));
        }
    return items;
  }

  // Definition lists print a short term and its description on one row: the term at the
  // list's edge, the description past a gap at the indent its other lines hang at. Such a
  // row (two lines, no marker, body size, not a listing's) is made two parts where the page
  // shows the list around it: the next row of its column starts at the term's edge or the
  // description's, and a term too long to stand beside its description stands on a row of
  // its own at the term's edge, reaching the description's indent, with its description
  // under it (which a table's rows never show).
  void split_terms(std::vector<Item>& items) const {
    auto text = [&](size_t i) { return items[i].kind == Item::Text && !items[i].row.footnote; };
    auto at = [&](double x, double edge) { return std::fabs(x - edge) <= o.lines.edge_tolerance; };
    auto candidate = [&](const Row& r) {
      if (r.lines.size() != 2 || r.marker > 0 || r.drawn_marker || r.mono || r.footnote ||
          std::fabs(r.size - st.body_size) >= o.lines.body_size_tolerance)
        return false;
      const double L = r.lines[0]->bbox.x0, D = r.lines[1]->bbox.x0;
      return D - r.lines[0]->bbox.x1 >= o.blocks.term_gap_ratio * r.size && D - L > o.blocks.indent_ratio * r.size &&
             D - L <= o.blocks.term_indent_max_share * (r.col_right - r.col_left);
    };
    for (size_t i = 0; i < items.size(); ++i) {
      if (!text(i) || !candidate(items[i].row)) continue;
      const Row& r = items[i].row;
      const double L = r.lines[0]->bbox.x0, D = r.lines[1]->bbox.x0;
      std::vector<size_t> column;  // the column's text rows, in reading order
      size_t self = 0;
      for (size_t k = 0; k < items.size(); ++k)
        if (text(k) && items[k].row.page == r.page && items[k].row.column == r.column) {
          if (k == i) self = column.size();
          column.push_back(k);
        }
      if (self + 1 < column.size()) {
        const double next = items[column[self + 1]].row.bbox.x0;
        if (!at(next, L) && !at(next, D)) continue;
      }
      // A term too long for the room before the description's indent stands on a row of
      // its own, reaching that indent, its description under it: a table's cell never
      // reaches into the next column.
      bool long_term = false;
      for (size_t c = 0; c + 1 < column.size() && !long_term; ++c) {
        const Row& x = items[column[c]].row;
        long_term = c != self && x.lines.size() == 1 && at(x.bbox.x0, L) &&
                    x.bbox.x1 > D - o.blocks.term_gap_ratio * x.size && at(items[column[c + 1]].row.bbox.x0, D);
      }
      if (!long_term) continue;
      std::vector<const Line*> rest(r.lines.begin() + 1, r.lines.end());
      Row term = group_rows(page.number, {r.lines[0]}, pl, o).front();
      std::vector<Row> desc = group_rows(page.number, rest, pl, o);
      if (desc.size() != 1) continue;
      for (Row* part : {&term, &desc.front()}) {
        part->column = r.column;
        part->col_left = r.col_left;
        part->col_right = r.col_right;
        part->nothing_above = r.nothing_above;
        part->nothing_below = r.nothing_below;
      }
      term.term_part = true;
      items[i].parts = {std::move(term), std::move(desc.front())};
    }
  }

  // Each row keeps the link annotations that touch it (most pages have none).
  void attach_links(std::vector<Item>& items) const {
    if (page.links.empty()) return;
    auto attach = [&](Row& r) {
      for (const auto& a : page.links)
        if (a.bbox.intersects(r.bbox)) r.links.push_back(a);
    };
    for (auto& it : items) {
      if (it.kind == Item::Text) attach(it.row);
      for (auto& r : it.parts) attach(r);
      for (auto& r : it.figure.caption) attach(r);
    }
  }

 private:
  const Page& page;
  const PageLines& pl;
  const BookStats& st;
  const LayoutOptions& o;
  std::vector<FigureRegion> regions;
  std::vector<const Line*> lines;  // the page's lines, less figure and side labels
  std::vector<SideLabel> side;
  PageDecor decor;  // what the page draws around its text
  Gutter g;
  double left_edge = 1e300, justified = 1e300;  // the left column's edges (columns())
  std::vector<Row> rows;
  std::vector<FigureItem> figures;
  std::vector<bool> taken;  // rows taken out of the flow as captions
  std::vector<Row> flow;
};

}  // namespace

std::vector<Item> page_items(const Page& page, const PageLines& pl, const BookStats& st, const LayoutOptions& o) {
  PagePasses p(page, pl, st, o);
  p.body_lines();
  p.columns();
  p.make_rows();
  p.column_edges();
  p.order_rows();
  p.captions();
  p.flow_rows();
  p.footnote_area();
  std::vector<Item> items = p.reading_order();
  p.split_terms(items);
  p.attach_links(items);
  return items;
}

}  // namespace quire::detail
