// The cells of a grid the engine read wrongly: spaces it put inside a listing's character
// cells, and table cells it glued into one line.
#include <algorithm>
#include <cmath>
#include <limits>

#include "engines.h"
#include "quire/parallel.h"
#include "quire/spill.h"
#include "quire/text.h"

#include <unicode/uchar.h>

namespace quire::detail {

size_t drop_page_cell_gaps(Page& page) {
  size_t dropped = 0;
  struct Glyph {
    size_t span, index;  // code point `index` of span `span`
    char32_t c;
    float x;
  };
  std::vector<Glyph> glyphs;
  std::vector<float> steps;
  std::vector<std::vector<size_t>> cut;  // per span: code points to take out, ascending
  for (auto& line : page.lines) {
    if (line.direction != 0 || line.spans.empty()) continue;
    // A line set wholly in monospace type of one size, with every glyph's position, and
    // with a space inside it.
    bool fixed = true, spaced = false;
    for (const auto& s : line.spans)
      if (!s.monospace || s.ocr || std::fabs(s.size - line.spans.front().size) > 0.05) {
        fixed = false;
        break;
      }
    if (!fixed) continue;
    for (const auto& s : line.spans) spaced = spaced || s.text.find(' ') != std::string::npos;
    if (!spaced) continue;
    for (const auto& s : line.spans) fixed = fixed && s.xs.size() == utf8_length(s.text);
    if (!fixed) continue;
    glyphs.clear();
    for (size_t si = 0; si < line.spans.size(); ++si) {
      const auto cps = to_u32(line.spans[si].text);
      for (size_t i = 0; i < cps.size(); ++i) glyphs.push_back({si, i, cps[i], line.spans[si].xs[i]});
    }
    // The cell width: the usual step from one glyph to the next in one face.
    steps.clear();
    for (size_t k = 0; k + 1 < glyphs.size(); ++k)
      if (!is_space_cp(glyphs[k].c) && !is_space_cp(glyphs[k + 1].c) && glyphs[k + 1].x > glyphs[k].x &&
          line.spans[glyphs[k].span].font == line.spans[glyphs[k + 1].span].font)
        steps.push_back(glyphs[k + 1].x - glyphs[k].x);
    if (steps.size() < 3) continue;
    std::nth_element(steps.begin(), steps.begin() + static_cast<long>(steps.size() / 2), steps.end());
    const float cell = steps[steps.size() / 2];
    // Only where the cells are wider than the glyphs: in type set at its own advance, a gap
    // under a cell wide is a space all the same (a thin space before a colon, after a comma).
    float glyph = 0;
    for (const auto& s : line.spans) glyph = std::max(glyph, s.last_advance);
    if (glyph <= 0 || cell < 1.05f * glyph) continue;
    // A space stands in a cell of its own, so the glyphs around it are two cells apart; a
    // space between glyphs less than one and a half cells apart stands in no cell.
    cut.assign(line.spans.size(), {});
    bool any = false;
    for (size_t k = 1; k + 1 < glyphs.size(); ++k) {
      const Glyph &a = glyphs[k - 1], &g = glyphs[k], &b = glyphs[k + 1];
      if (g.c != U' ' || is_space_cp(a.c) || is_space_cp(b.c)) continue;
      // Only between glyphs of one face: a symbol set beside the code in another face
      // ("| \lastnodetype") may be narrower than a cell, with a word space after it.
      if (a.span != b.span && line.spans[a.span].font != line.spans[b.span].font) continue;
      if (b.x - a.x < 1.5f * cell) {
        cut[g.span].push_back(g.index);
        any = true;
      }
    }
    if (!any) continue;
    for (size_t si = 0; si < line.spans.size(); ++si) {
      if (cut[si].empty()) continue;
      Span& s = line.spans[si];
      const auto cps = to_u32(s.text);
      std::u32string kept;
      std::vector<float> xs;
      size_t next = 0;
      for (size_t i = 0; i < cps.size(); ++i) {
        if (next < cut[si].size() && cut[si][next] == i) {
          ++next;
          continue;
        }
        kept.push_back(cps[i]);
        xs.push_back(s.xs[i]);
      }
      dropped += cps.size() - kept.size();
      if (cut[si].front() == 0 && !xs.empty()) s.bbox.x0 = std::max(s.bbox.x0, static_cast<double>(xs.front()));
      s.text = from_u32(kept);
      s.xs = std::move(xs);
    }
    // A span left empty is one no more.
    line.spans.erase(std::remove_if(line.spans.begin(), line.spans.end(), [](const Span& s) { return s.text.empty(); }),
                     line.spans.end());
  }
  return dropped;
}

// Table cells the engine glued: where the gap between two cells of a row is no wider than a
// word space ("flush_watermark 50", "Default Unit"), the engine reads them as one line, and
// the row shows fewer pieces than the rows around it. Such a line is split where a word of it
// starts at a column's left edge, which the rows near it show: cells that start there with
// another cell to their left that starts where the line's piece before the word starts: the
// rows share the line's grid; or where a column rule is drawn down through the space
// between two of its words. Only a line that is itself a cell (it shares its baseline with
// another line, apart from it) is split, so that prose is never cut at a column it happens
// to cross; and only inside a ruled table, never inside monospace type, whose columns are
// the listing's own, but at a rule. A table painted cell by cell is parted at the gap
// between its cells as at a column rule, wherever a line crosses it at a space, alone on
// its baseline or not (a row of two cells glued whole). The words stay as they were; only
// the space between the two cells goes, as between the cells the engine did part.
//
// Inside a ruled table a line is also parted where a glyph steps back over the one before
// it, or down or up to another baseline at the line's full size: a cell's text too wide for
// its column runs on under the next cell's, or on to the next cell set lower, and the
// engine reads both as one line with no space between ("xdg-desktop-portal" and "V:229",
// "text,ps" and "convert"). Glyphs that step back or aside on purpose stay: an accent or a
// combining mark set over its letter, a sign built of glyphs set over each other, a smaller
// sub- or superscript, a logo's letters kerned back ("TeX", "LaTeX": a letter set up to
// two fifths of an em back under the one before), and a line that steps back glyph by
// glyph (right-to-left text in its logical order).
size_t split_page_glued_cells(Page& page, const ExtractOptions& options) {
  struct Piece {
    double x0, x1, baseline, size;
    bool left = false, right = false;  // another line on the baseline, wholly to that side
  };
  const size_t n = page.lines.size();
  std::vector<Piece> pieces(n);
  std::vector<size_t> horizontal;
  for (size_t i = 0; i < n; ++i) {
    const Line& l = page.lines[i];
    if (l.direction != 0 || l.spans.empty()) continue;
    double size = 0;
    for (const auto& s : l.spans) size = std::max(size, s.size);
    if (size <= 0) continue;
    pieces[i] = {l.bbox.x0, l.bbox.x1, l.spans.front().baseline, size};
    horizontal.push_back(i);
  }
  if (horizontal.size() < 3) return 0;
  auto same_baseline = [](const Piece& a, const Piece& b) {
    return std::fabs(a.baseline - b.baseline) <= 0.2 * std::min(a.size, b.size);
  };
  // Lines by baseline, to find a line's neighbours on its baseline and walk the rows above
  // and below it.
  std::vector<size_t> by_baseline = horizontal;
  std::sort(by_baseline.begin(), by_baseline.end(), [&](size_t a, size_t b) {
    return pieces[a].baseline < pieces[b].baseline || (pieces[a].baseline == pieces[b].baseline && a < b);
  });
  double largest = 0;
  for (size_t i : horizontal) largest = std::max(largest, pieces[i].size);
  for (size_t a = 0; a < by_baseline.size(); ++a)
    for (size_t b = a + 1; b < by_baseline.size(); ++b) {
      Piece &p = pieces[by_baseline[a]], &q = pieces[by_baseline[b]];
      if (q.baseline - p.baseline > 0.2 * largest) break;
      if (!same_baseline(p, q)) continue;
      if (q.x1 <= p.x0) p.left = q.right = true;
      if (q.x0 >= p.x1) p.right = q.left = true;
    }
  // A line the engine made of cells on two baselines (a cell set lower than the one it is
  // glued to) stands beside the cells on its last span's baseline as well.
  for (size_t i : horizontal) {
    Piece last = pieces[i];
    last.baseline = page.lines[i].spans.back().baseline;
    if (same_baseline(pieces[i], last)) continue;
    for (size_t j : horizontal) {
      if (j == i || !same_baseline(last, pieces[j])) continue;
      if (pieces[j].x1 <= last.x0) pieces[i].left = true;
      if (pieces[j].x0 >= last.x1) pieces[i].right = true;
    }
  }
  // Whether a word of line `k` starts at x (after a space).
  auto word_at = [&](size_t k, double x, double tolerance) {
    for (const auto& s : page.lines[k].spans) {
      const auto cps = to_u32(s.text);
      if (s.xs.size() != cps.size()) return false;
      for (size_t g = 1; g < cps.size(); ++g)
        if (cps[g - 1] == U' ' && std::fabs(s.xs[g] - x) <= tolerance) return true;
    }
    return false;
  };
  // Whether line `i` stands in a ruled table: rules or box edges over it and under it, within
  // glued_cell_reach ems, that together reach across the line (a table's rules are often
  // drawn cell by cell). Contents pages, glossaries and indexes set their columns without
  // rules; their grids are left as read.
  struct Edge {
    double y, x0, x1;
  };
  std::vector<Edge> edges;
  for (const auto& path : page.paths) {
    if (path.paper || (!path.stroke && !path.fill)) continue;
    edges.push_back({path.bbox.y0, path.bbox.x0, path.bbox.x1});
    edges.push_back({path.bbox.y1, path.bbox.x0, path.bbox.x1});
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.y < b.y || (a.y == b.y && a.x0 < b.x0); });
  auto ruled = [&](size_t i) {
    const Piece& p = pieces[i];
    const double reach = options.glued_cell_reach * p.size;
    bool over = false, under = false;
    // Edges at one height (within a point), left to right: whether they cover the line.
    for (size_t k = 0; k < edges.size();) {
      size_t e = k;
      while (e < edges.size() && edges[e].y - edges[k].y <= 1) ++e;
      const double y = edges[k].y;
      const bool near_over = y <= p.baseline - p.size && p.baseline - y <= reach;
      const bool near_under = y >= p.baseline && y - p.baseline <= reach;
      if (near_over || near_under) {
        std::vector<Edge> row(edges.begin() + static_cast<long>(k), edges.begin() + static_cast<long>(e));
        std::sort(row.begin(), row.end(), [](const Edge& a, const Edge& b) { return a.x0 < b.x0; });
        double covered = p.x0 + 1;
        for (const Edge& r : row)
          if (r.x0 <= covered) covered = std::max(covered, r.x1);
        if (covered >= p.x1 - 1) (near_over ? over : under) = true;
      }
      k = e;
    }
    return over && under;
  };
  // Whether the rows next to line `i`, above and below, show columns whose cells start at
  // `from` and at x: rows with a cell at x beside another at `from`, glued_cell_min_rows of
  // them, counted outwards from the line until a row with a line across x (prose, or a
  // table's end) or glued_cell_reach ems; and the cells at x ending at different places.
  // (Cells that start and end together may stand in a column set flush right, numbers of as
  // many digits, which shows no left edge.)
  auto column_edge = [&](size_t i, double from, double x) {
    const Piece& p = pieces[i];
    const double tolerance = options.glued_cell_edge_tolerance * p.size;
    const double reach = options.glued_cell_reach * p.size;
    size_t rows = 0;
    double least_end = std::numeric_limits<double>::max(), most_end = std::numeric_limits<double>::lowest();
    const auto at = std::find(by_baseline.begin(), by_baseline.end(), i) - by_baseline.begin();
    for (const long step : {-1L, 1L}) {
      long k = at + step;
      while (k >= 0 && k < static_cast<long>(by_baseline.size())) {
        const double baseline = pieces[by_baseline[static_cast<size_t>(k)]].baseline;
        if (std::fabs(baseline - p.baseline) > reach) break;
        // The row on this baseline: lines k..e (or e..k going up).
        long e = k;
        while (e + step >= 0 && e + step < static_cast<long>(by_baseline.size()) &&
               same_baseline(pieces[by_baseline[static_cast<size_t>(e + step)]], pieces[by_baseline[static_cast<size_t>(k)]]))
          e += step;
        const long lo = std::min(k, e), hi = std::max(k, e);
        k = e + step;
        if (same_baseline(p, pieces[by_baseline[static_cast<size_t>(lo)]])) continue;
        bool across = false, cell = false, first = false;
        double end = 0;
        for (long m = lo; m <= hi; ++m) {
          const size_t j = by_baseline[static_cast<size_t>(m)];
          const Piece& q = pieces[j];
          if (q.x0 < x - tolerance && q.x1 > x + tolerance && !word_at(j, x, tolerance)) across = true;
          // (Cells of one table share the size of their type.)
          if (std::fabs(q.x0 - x) <= tolerance && std::fabs(q.size - p.size) <= tolerance) {
            cell = true;
            end = q.x1;
          }
          if (std::fabs(q.x0 - from) <= tolerance && q.x1 <= x) first = true;
        }
        if (across) break;
        if (cell && first) {
          ++rows;
          least_end = std::min(least_end, end);
          most_end = std::max(most_end, end);
        }
      }
    }
    return rows >= options.glued_cell_min_rows && most_end - least_end > tolerance;
  };
  // Whether a rule drawn down between two cells (a ruled table's column rule) runs through
  // line `i` between x0 and x1: a thin upright path across the line's baseline.
  struct Bar {
    double x, y0, y1;
  };
  std::vector<Bar> bars;
  // (At most 2 pt wide, as drawn: a stroke's recorded box less its pad, kStrokeBoxPad; a
  // frame's upright side is a path of its own only where the frame is drawn side by side.)
  constexpr double kMaxRuleWidth = 2;
  for (const auto& path : page.paths) {
    if (path.paper || (!path.stroke && !path.fill)) continue;
    const double pad = path.stroke && !path.fill ? path.line_width * (kStrokeBoxPad - 0.5) : 0;
    const double w = path.bbox.x1 - path.bbox.x0 - 2 * pad, h = path.bbox.y1 - path.bbox.y0 - 2 * pad;
    if (w <= kMaxRuleWidth && h > 2 * kMaxRuleWidth)
      bars.push_back({(path.bbox.x0 + path.bbox.x1) / 2, path.bbox.y0 + pad, path.bbox.y1 - pad});
  }
  // A table painted cell by cell (a browser paints each cell, white ones too) parts its
  // columns by the gap it leaves between the cells, as a rule would: a gap no wider than a
  // rule between two fills of one height, side by side, where the rows above or below leave
  // one in line with it (a column's; two words on their grounds side by side are no column).
  std::vector<Bar> gaps;
  {
    std::vector<Box> fills;
    for (const auto& path : page.paths)
      if (path.fill && !path.stroke && path.bbox.x1 - path.bbox.x0 > kMaxRuleWidth) fills.push_back(path.bbox);
    // (A page of thousands of fills is a plot's or a chart's: the look-ups below are quadratic.)
    constexpr size_t kMostFills = 4096;
    if (fills.size() > kMostFills) fills.clear();
    std::sort(fills.begin(), fills.end(), [](const Box& a, const Box& b) { return a.y0 < b.y0 || (a.y0 == b.y0 && a.x0 < b.x0); });
    constexpr double kEdge = 0.5;  // edges in line (points)
    for (size_t a = 0; a < fills.size(); ++a)
      for (size_t b = a + 1; b < fills.size() && fills[b].y0 <= fills[a].y0 + kEdge; ++b) {
        const Box &l = fills[a], &r = fills[b];
        if (std::fabs(l.y1 - r.y1) <= kEdge && r.x0 >= l.x1 - kEdge && r.x0 - l.x1 <= kMaxRuleWidth)
          gaps.push_back({(l.x1 + r.x0) / 2, l.y0, l.y1});
      }
    std::vector<Bar> column;
    for (const Bar& g : gaps)
      if (std::any_of(gaps.begin(), gaps.end(), [&](const Bar& o) {
            return &o != &g && std::fabs(o.x - g.x) <= kEdge &&
                   (std::fabs(o.y0 - g.y1) <= kMaxRuleWidth + kEdge || std::fabs(g.y0 - o.y1) <= kMaxRuleWidth + kEdge);
          }))
        column.push_back(g);
    gaps = std::move(column);
  }
  auto painted_apart = [&](size_t i) {
    const Piece& p = pieces[i];
    return std::any_of(gaps.begin(), gaps.end(), [&](const Bar& g) {
      return g.x > p.x0 && g.x < p.x1 && g.y0 <= p.baseline - 0.5 * p.size && g.y1 >= p.baseline;
    });
  };
  bars.insert(bars.end(), gaps.begin(), gaps.end());
  auto bar_between = [&](size_t i, double x0, double x1) {
    const Piece& p = pieces[i];
    return std::any_of(bars.begin(), bars.end(), [&](const Bar& b) {
      return b.x > x0 && b.x < x1 && b.y0 <= p.baseline - 0.5 * p.size && b.y1 >= p.baseline;
    });
  };
  struct Glyph {
    size_t span, index;
    char32_t c;
    float x;
  };
  std::vector<Glyph> glyphs;
  // Whether glyph k of line i starts another cell than the glyph before it (the second
  // paragraph above): between letters or digits of the line's full size, with the line
  // going forward on both sides, it stands on another baseline or starts left of where that
  // glyph ends (known for the last glyph of a span; its start otherwise) by more than a
  // kern. (Signs are left alone: a mathematical symbol is built of glyphs set over each
  // other, and a large operator stands on a baseline of its own.)
  auto steps_back = [&](size_t i, size_t k) {
    if (k < 2 || k + 1 >= glyphs.size()) return false;
    const Glyph &before = glyphs[k - 2], &a = glyphs[k - 1], &b = glyphs[k], &after = glyphs[k + 1];
    if (is_space_cp(a.c) || is_space_cp(b.c) || a.x <= before.x || after.x <= b.x) return false;
    const auto& spans = page.lines[i].spans;
    const double size = pieces[i].size;
    if (spans[a.span].size < 0.9 * size || spans[b.span].size < 0.9 * size) return false;
    for (const char32_t c : {a.c, b.c})
      if (!u_isalnum(static_cast<UChar32>(c)) || is_unmapped_cp(c)) return false;
    // (Set lower or higher by more than a sub- or superscript is, at the full size.)
    if (std::fabs(spans[a.span].baseline - spans[b.span].baseline) > options.glued_cell_baseline_step * size) return true;
    const double back = options.glued_cell_step_back * size;
    if (a.span == b.span && a.index + 1 < spans[a.span].xs.size()) return b.x < a.x - back;
    // After the last glyph of a span, whose end is known, the glyph after b starts left of
    // that end as well: a run set under the glyph, not one letter kerned back under it (the
    // "A" of LaTeX's logo).
    const double end = a.x + spans[a.span].last_advance;
    return b.x < end - back && after.x < end - back;
  };
  size_t splits = 0;
  std::vector<Line> out;
  bool changed = false;
  for (size_t i = 0; i < n; ++i) {
    Line& line = page.lines[i];
    const Piece& p = pieces[i];
    bool usable = p.size > 0 && (((p.left || p.right) && ruled(i)) || painted_apart(i));
    for (const auto& s : line.spans) usable = usable && !s.ocr && s.xs.size() == utf8_length(s.text);
    // The cuts, in reading order: at a space, which goes, or before a glyph that steps back.
    struct Cut {
      size_t span, index;  // the space's code point, or the glyph's
      bool space;
    };
    std::vector<Cut> cuts;
    if (usable) {
      glyphs.clear();
      for (size_t si = 0; si < line.spans.size(); ++si) {
        const auto cps = to_u32(line.spans[si].text);
        for (size_t k = 0; k < cps.size(); ++k) glyphs.push_back({si, k, cps[k], line.spans[si].xs[k]});
      }
      // Rules drawn through the line's words, not only its spaces, are a drawing's over its
      // labels (a grid behind a diagram): they part no cells.
      bool through_words = false;
      for (size_t k = 0; k + 1 < glyphs.size() && !through_words; ++k)
        through_words = !is_space_cp(glyphs[k].c) && !is_space_cp(glyphs[k + 1].c) && glyphs[k + 1].x > glyphs[k].x &&
                        bar_between(i, glyphs[k].x, glyphs[k + 1].x);
      double from = p.x0;  // where the piece before the next cut starts
      for (size_t k = 1; k + 1 < glyphs.size(); ++k) {
        if (steps_back(i, k)) {
          cuts.push_back({glyphs[k].span, glyphs[k].index, false});
          from = glyphs[k].x;
          continue;
        }
        const Glyph &a = glyphs[k - 1], &g = glyphs[k], &b = glyphs[k + 1];
        if (g.c != U' ' || is_space_cp(a.c) || is_space_cp(b.c) || b.x <= a.x) continue;
        // A column rule drawn through the space parts two cells, in any face; else the
        // columns the rows around show, never inside monospace type.
        const bool ruled_apart = !through_words && bar_between(i, g.x, b.x);
        if (!ruled_apart && (line.spans[a.span].monospace || line.spans[b.span].monospace)) continue;
        if (ruled_apart || column_edge(i, from, b.x)) {
          cuts.push_back({g.span, g.index, true});
          from = b.x;
        }
      }
    }
    if (cuts.empty()) {
      if (changed) out.push_back(std::move(line));
      continue;
    }
    if (!changed) {
      out.reserve(n + cuts.size());
      for (size_t k = 0; k < i; ++k) out.push_back(std::move(page.lines[k]));
      changed = true;
    }
    // The line parted at each cut: the spans before it and the left of the cut span make one
    // line, the right of it and the spans after the next.
    Line piece;
    piece.direction = line.direction;
    auto close_piece = [&]() {
      if (piece.spans.empty()) return;
      piece.bbox = piece.spans.front().bbox;
      for (const auto& s : piece.spans) piece.bbox = piece.bbox.united(s.bbox);
      out.push_back(std::move(piece));
      piece = Line();
      piece.direction = line.direction;
    };
    size_t c = 0;
    for (size_t si = 0; si < line.spans.size(); ++si) {
      Span s = std::move(line.spans[si]);
      size_t taken = 0;  // code points of the span already given to earlier pieces
      while (c < cuts.size() && cuts[c].span == si) {
        const size_t at = cuts[c].index - taken;  // the cut's code point, in what is left of s
        const size_t skip = cuts[c].space ? 1 : 0;
        const auto cps = to_u32(s.text);
        Span left = s, right = s;
        left.text = from_u32(cps.substr(0, at));
        left.xs.assign(s.xs.begin(), s.xs.begin() + static_cast<long>(at));
        right.text = from_u32(cps.substr(at + skip));
        right.xs.assign(s.xs.begin() + static_cast<long>(at + skip), s.xs.end());
        if (!left.text.empty()) {
          // A glyph that steps back starts left of the end of the one before: that glyph's
          // advance is taken as the step to it from the glyph before it.
          const float advance = cuts[c].space ? s.xs[at] - s.xs[at - 1]
                                : at >= 2     ? s.xs[at - 1] - s.xs[at - 2]
                                              : s.last_advance;
          left.last_advance = advance;
          left.bbox.x1 = s.xs[at - 1] + advance;
          piece.spans.push_back(std::move(left));
        }
        close_piece();
        ++splits;
        if (!right.xs.empty()) right.bbox.x0 = right.xs.front();
        taken += at + skip;
        s = std::move(right);
        ++c;
      }
      if (!s.text.empty()) piece.spans.push_back(std::move(s));
    }
    close_piece();
  }
  if (changed) page.lines = std::move(out);
  return splits;
}

size_t drop_cell_gaps(Document& doc, int jobs) {
  std::vector<size_t> dropped(doc.pages.size(), 0);
  change_pages(doc, jobs, [&](size_t i, Page& page) { dropped[i] = drop_page_cell_gaps(page); }, 16);
  size_t n = 0;
  for (size_t d : dropped) n += d;
  return n;
}

}  // namespace quire::detail
