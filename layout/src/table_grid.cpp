// Table grid: a table block's cells, columns, rows and header from its rows' lines, and its
// text set in columns. Where the block is a table is decided by tables.cpp; this pass reads
// the grid inside it.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

#include "internal.h"
#include "quire/parallel.h"
#include "quire/text.h"
#include "quire/typography.h"
#include "builder.h"
#include "dictionary.h"
#include "note_marks.h"
#include "page_passes.h"
#include "tables.h"
#include "text_chars.h"

namespace quire::detail {

namespace {

// A table's cell line: one line of a row, its tokens joined by single spaces.
struct Piece {
  size_t row;
  const Line* line;
  Box box;
  std::string text;
  size_t column = 0;
  size_t cell = 0;  // index in `cells`
  bool bold = true;
  bool mono_end = false;  // its last word set in the typewriter face
  std::string font{};     // the face of all its words; empty where they mix faces
  bool mixed = false;
  // The line runs to its column's edge: the first letter of the wrapped line under it would
  // not have fit after it.
  bool to_edge = false;
};

// A cell: a piece and the wrapped lines under it.
struct Cell {
  int page = 0;
  size_t column = 0;
  Box box;                     // of its first line
  double top = 0, bottom = 0;  // its letters' extent (table_row_rise_ratio)
  std::string text;
  bool bold = true;
  std::string font;  // the face of all its words; empty where they mix faces
};

// The columns of a table: each column's left and right edge.
struct TableColumns {
  size_t count = 0;
  std::vector<double> left, right;
};

// A table's cells are its rows' lines (a typesetter sets each cell as a line of its own).
std::vector<Piece> table_pieces(const std::vector<const Row*>& rs) {
  std::vector<Piece> pieces;
  for (size_t i = 0; i < rs.size(); ++i) {
    size_t font = 0;  // the line's first span in the row's span_fonts
    for (const Line* l : rs[i]->lines) {
      const size_t first_font = font;
      font += l->spans.size();
      std::string t;
      for (const auto& w : whitespace_tokens(l->text())) t += (t.empty() ? "" : " ") + w;
      if (t.empty()) continue;
      Piece p{i, l, l->bbox, std::move(t)};
      for (size_t s = 0; s < l->spans.size(); ++s) {
        const Span& sp = l->spans[s];
        if (!has_token(sp.text)) continue;
        if (!sp.bold) p.bold = false;
        if (p.font.empty() && !p.mixed) p.font = sp.font;
        else if (p.font != sp.font) p.font.clear(), p.mixed = true;
        const size_t f = first_font + s;
        p.mono_end = f < rs[i]->span_fonts.size() && (rs[i]->span_fonts[f] & kSpanMono) != 0;
      }
      pieces.push_back(std::move(p));
    }
  }
  return pieces;
}

// Columns: the pieces' extents merged where they overlap, left to right (a column's cells
// stand under one another; the gap between columns is clear of text), or parted by a
// vertical rule (`bars`, by page) that a cell's text runs past (ruled_apart).
TableColumns table_columns(std::vector<Piece>& pieces, const std::vector<const Row*>& rs,
                           const std::vector<std::pair<int, Box>>& bars, const LayoutOptions& o) {
  std::map<int, std::vector<Box>> bars_of;
  for (const auto& [page, bar] : bars) bars_of[page].push_back(bar);
  static const std::vector<Box> kNone;
  auto page_bars = [&](const Piece& p) -> const std::vector<Box>& {
    auto it = bars_of.find(rs[p.row]->page);
    return it == bars_of.end() ? kNone : it->second;
  };
  std::vector<size_t> order(pieces.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t c) { return pieces[a].box.x0 < pieces[c].box.x0; });
  TableColumns cols;
  double reach = -1e300;
  Box first;  // of the current column's first piece
  for (size_t k : order) {
    if (cols.count == 0 || pieces[k].box.x0 > reach || ruled_apart(first, pieces[k].box, page_bars(pieces[k]), o)) {
      first = pieces[k].box;
      ++cols.count;
      reach = pieces[k].box.x1;
      cols.left.push_back(pieces[k].box.x0);
      cols.right.push_back(reach);
    } else {
      reach = std::max(reach, pieces[k].box.x1);
      cols.right.back() = reach;
    }
    pieces[k].column = cols.count - 1;
  }
  return cols;
}

// Whether a horizontal rule of `rules` (page, rule) lies on `page` between heights `upper`
// and `lower` and under x: a table ruled row by row draws its rules between rows, never
// inside a cell.
bool rule_between(const std::vector<std::pair<int, Box>>& rules, int page, double x, double upper, double lower) {
  return std::any_of(rules.begin(), rules.end(), [&](const auto& pr) {
    const Box& r = pr.second;
    const double y = (r.y0 + r.y1) / 2;
    return pr.first == page && y > upper && y < lower && r.x0 <= x && r.x1 >= x;
  });
}

// The advance of a line's first glyph that is not a space; nothing where the glyphs'
// positions are unknown.
std::optional<double> first_letter_width(const Line& line) {
  for (const Span& sp : line.spans) {
    const std::u32string t = to_u32(sp.text);
    for (size_t i = 0; i < t.size() && i < sp.xs.size(); ++i) {
      if (is_space_cp(t[i])) continue;
      if (i + 1 < sp.xs.size()) return sp.xs[i + 1] - sp.xs[i];
      if (sp.last_advance > 0) return sp.last_advance;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// A table drawn as a grid (ruled_grids), read from its rules: its columns are the room
// between the rules that part them, its rows the room between the rules across it. A line
// is in the column where it starts (a cell's text may run on past its column's rule), and
// the lines of one cell are those between the same rules in one column, however they are
// set beside the others (middle-aligned, wrapped). Nothing where a row of the table stands
// in no grid, or where its grids are parted into columns differently page by page.
struct RuledReading {
  TableColumns cols;
  std::vector<long> above;                  // per piece: the line of its cell above it, or -1
  std::vector<std::pair<int, size_t>> band;  // per piece: its page and row between rules
};

std::optional<RuledReading> ruled_reading(std::vector<Piece>& pieces, const std::vector<const Row*>& rs,
                                          const std::vector<std::pair<int, RuledGrid>>& grids, const LayoutOptions& o) {
  if (rs.empty() || pieces.empty() || grids.empty()) return std::nullopt;
  const double tol = o.lines.edge_tolerance;
  std::map<int, const RuledGrid*> of_page;  // the grid the table stands in, by page
  for (const Row* r : rs) {
    if (auto it = of_page.find(r->page); it != of_page.end()) {
      if (!grid_holds(*it->second, r->bbox, o)) return std::nullopt;
      continue;
    }
    const RuledGrid* found = nullptr;
    for (const auto& [page, g] : grids)
      if (page == r->page && grid_holds(g, r->bbox, o)) {
        found = &g;
        break;
      }
    if (!found || found->columns.empty()) return std::nullopt;
    of_page.emplace(r->page, found);
  }
  const size_t columns = of_page.begin()->second->columns.size() + 1;
  for (const auto& [page, g] : of_page)
    if (g->columns.size() + 1 != columns) return std::nullopt;
  RuledReading rr;
  const RuledGrid& first = *of_page.at(rs.front()->page);
  rr.cols.count = columns;
  rr.cols.left.push_back(first.box.x0);
  rr.cols.left.insert(rr.cols.left.end(), first.columns.begin(), first.columns.end());
  rr.cols.right = first.columns;
  rr.cols.right.push_back(first.box.x1);
  rr.above.assign(pieces.size(), -1);
  rr.band.resize(pieces.size());
  std::map<std::tuple<int, size_t, size_t>, size_t> last;  // (page, band, column) -> its lowest piece so far
  std::map<std::pair<int, size_t>, double> inset;            // (page, column) -> room left of its text
  for (size_t k = 0; k < pieces.size(); ++k) {
    Piece& p = pieces[k];
    const int page = rs[p.row]->page;
    const RuledGrid& pg = *of_page.at(page);
    p.column = static_cast<size_t>(std::upper_bound(pg.columns.begin(), pg.columns.end(), p.box.x0 + tol) - pg.columns.begin());
    const size_t band =
        static_cast<size_t>(std::upper_bound(pg.rows.begin(), pg.rows.end(), (p.box.y0 + p.box.y1) / 2) - pg.rows.begin());
    rr.band[k] = {page, band};
    const double left = p.column == 0 ? pg.box.x0 : pg.columns[p.column - 1];
    auto [room, new_column] = inset.try_emplace({page, p.column}, p.box.x0 - left);
    if (!new_column) room->second = std::min(room->second, p.box.x0 - left);
    auto [it, fresh] = last.try_emplace({page, band, p.column}, k);
    if (!fresh) {
      rr.above[k] = static_cast<long>(it->second);
      it->second = k;
    }
  }
  // A line runs to its cell's edge where the first letter of the line under it would not
  // have fitted after it, inside the room the cell leaves on its right as on its left.
  for (size_t k = 0; k < pieces.size(); ++k) {
    if (rr.above[k] < 0) continue;
    Piece& up = pieces[static_cast<size_t>(rr.above[k])];
    const RuledGrid& pg = *of_page.at(rr.band[k].first);
    const double right = up.column < pg.columns.size() ? pg.columns[up.column] : pg.box.x1;
    const double limit = right - std::max(0.0, inset.at({rr.band[k].first, up.column}));
    if (const std::optional<double> letter = first_letter_width(*pieces[k].line))
      up.to_edge = up.box.x1 + *letter > limit - tol;
  }
  return rr;
}

// Wrapped lines: per column, each piece against the one above it. A line goes on in the
// cell above when it starts at the cell's left edge a line below and its first word would
// not have fitted after the line above (no typesetter wraps a word that fits). Each piece's
// entry is the piece it goes on from, or -1.
std::vector<long> wrapped_lines(std::vector<Piece>& pieces, const std::vector<const Row*>& rs,
                                const TableColumns& cols, const std::vector<std::pair<int, Box>>& rules,
                                const LayoutOptions& o) {
  const size_t columns = cols.count;
  auto page_of = [&](const Piece& p) { return rs[p.row]->page; };
  std::vector<long> above(pieces.size(), -1);  // the piece a wrapped line goes on from
  std::vector<std::vector<size_t>> in_column(columns);
  for (size_t k = 0; k < pieces.size(); ++k) in_column[pieces[k].column].push_back(k);  // (rows in order)
  for (size_t c = 0; c < columns; ++c) {
    const auto& ks = in_column[c];
    for (size_t n = 1; n < ks.size(); ++n) {
      const Piece& a = pieces[ks[n - 1]];
      const Piece& p = pieces[ks[n]];
      const Row& ra = *rs[a.row];
      const Row& rp = *rs[p.row];
      if (page_of(a) != page_of(p) || a.row == p.row) continue;
      const double size = std::max(1.0, rp.size);
      const double pitch = rp.baseline - ra.baseline;
      if (pitch <= 0 || pitch > o.tables.table_wrap_pitch_ratio * size) continue;
      if (rule_between(rules, rp.page, p.box.x0 + o.lines.edge_tolerance, ra.baseline, rp.baseline - o.tables.table_row_rise_ratio * size))
        continue;
      long first = ks[n - 1];
      while (above[first] >= 0) first = above[first];
      if (std::fabs(p.box.x0 - pieces[first].box.x0) > o.lines.edge_tolerance) continue;
      const std::optional<double> word_end = Builder::first_word_end(*p.line, false);
      if (!word_end) continue;
      const double limit = c + 1 < columns ? cols.left[c + 1] - o.tables.min_cell_gap_ratio * size
                                           : cols.right[c] + o.lines.edge_tolerance;
      if (a.box.x1 + o.blocks.wrap_space_ratio * size + (*word_end - p.box.x0) <= limit) continue;
      above[ks[n]] = ks[n - 1];
      if (const std::optional<double> letter = first_letter_width(*p.line))
        pieces[ks[n - 1]].to_edge = a.box.x1 + *letter > limit;
    }
  }
  return above;
}

// A wrapped line stands on a row of the page with no cell of its own beside it, and
// with a column empty (cells of every column side by side are the next row).
std::vector<long> kept_wraps(const std::vector<Piece>& pieces, const std::vector<long>& above, size_t row_count,
                             size_t columns) {
  std::vector<long> keep(above);
  std::vector<std::vector<uint8_t>> filled(row_count, std::vector<uint8_t>(columns, 0));
  for (const Piece& p : pieces) filled[p.row][p.column] = 1;
  for (size_t k = 0; k < pieces.size(); ++k) {
    if (above[k] < 0) continue;
    const auto& f = filled[pieces[k].row];
    if (columns > 1 && std::all_of(f.begin(), f.end(), [](uint8_t x) { return x != 0; })) keep[k] = -1;
    for (size_t q = 0; q < pieces.size(); ++q)
      if (pieces[q].row == pieces[k].row && q != k && above[q] < 0) keep[k] = -1;
  }
  return keep;
}

// Whether a word the cell's measure could not hold was cut at its edge, with no hyphen
// ("flush_watermar" over "k"): a typesetter wraps a line at a space, so a line of one word
// that runs to the cell's edge is cut inside the word only where the word is longer than the
// cell is wide. The letters on either side of the cut must make a word that the book has
// elsewhere, or that the spelling dictionary knows while it does not know one of the two
// pieces ("watermark", not "watermar"): a word that fills its cell by chance, wrapped at a
// space, leaves two words that do not make one.
bool cut_at_edge(const std::string& before, const std::string& after, const WordEvidence& ev, const LayoutOptions& o) {
  const std::u32string b = to_u32(before), a = to_u32(after);
  if (b.empty() || a.empty() || !is_letter_cp(b.back()) || !is_letter_cp(a.front())) return false;
  size_t s = b.size();
  while (s > 0 && is_letter_cp(b[s - 1])) --s;
  size_t e = 0;
  while (e < a.size() && is_letter_cp(a[e])) ++e;
  const std::u32string left = b.substr(s), right = a.substr(0, e);
  if (ev.words.count(lower(left + right)) > 0) return true;
  const Dictionary* dictionary = Dictionary::at(o.hyphenation.hyphen_dictionary);
  return dictionary && dictionary->knows(from_u32(left + right)) &&
         (!dictionary->knows(from_u32(left)) || !dictionary->knows(from_u32(right)));
}

// Cells: a piece and the wrapped lines under it, a line-end hyphen decided (and logged in
// `log`) as in prose, a word cut at the cell's edge put back together (and logged). A line's
// extent is taken from its baseline, not its box (a font's box may be far taller than its
// letters).
std::vector<Cell> table_cells(std::vector<Piece>& pieces, const std::vector<long>& keep,
                              const std::vector<const Row*>& rs, const WordEvidence& ev, const LayoutOptions& o,
                              std::vector<HyphenJoin>& log) {
  std::vector<Cell> cells;
  for (size_t k = 0; k < pieces.size(); ++k) {
    Piece& p = pieces[k];
    const Row& row = *rs[p.row];
    const double size = std::max(1.0, row.size);
    const double top = row.baseline - o.tables.table_row_rise_ratio * size, bottom = row.baseline + o.tables.table_row_drop_ratio * size;
    if (keep[k] >= 0) {
      p.cell = pieces[static_cast<size_t>(keep[k])].cell;
      Cell& c = cells[p.cell];
      const Piece& up = pieces[static_cast<size_t>(keep[k])];
      std::optional<std::string> last = last_token(c.text);
      const std::vector<std::string> toks = whitespace_tokens(p.text);
      std::string joined;
      if (last && ends_with_soft_hyphen(trimmed_end(c.text))) *last += "\xC2\xAD";
      if (last && (ends_with_hyphen(*last) || ends_with_soft_hyphen(*last)) && !toks.empty())
        joined = join_hyphenated(*last, toks.front(), up.mono_end, ev, o);
      else if (last && !toks.empty() && up.to_edge && whitespace_tokens(up.text).size() == 1 &&
               cut_at_edge(*last, toks.front(), ev, o))
        joined = *last + toks.front();
      if (joined.empty()) {
        c.text += " " + p.text;
      } else {
        log.push_back({row.page, *last, toks.front(), joined});
        c.text.resize(c.text.size() - last->size());
        c.text += joined + p.text.substr(toks.front().size());
      }
      c.bottom = std::max(c.bottom, bottom);
      c.bold = c.bold && p.bold;
      if (c.font != p.font) c.font.clear();
      continue;
    }
    p.cell = cells.size();
    cells.push_back({rs[p.row]->page, p.column, p.box, top, bottom, p.text, p.bold, p.font});
  }
  return cells;
}

// Rows: cells whose extents overlap, top to bottom (a cell set middle-aligned beside a
// wrapped one stands lower than its first line). `extent` receives each row's top and
// bottom (of its letters).
std::vector<std::vector<size_t>> table_rows(const std::vector<Cell>& cells,
                                            std::vector<std::pair<double, double>>& extent) {
  std::vector<size_t> by_top(cells.size());
  for (size_t k = 0; k < by_top.size(); ++k) by_top[k] = k;
  std::stable_sort(by_top.begin(), by_top.end(), [&](size_t a, size_t c) {
    return cells[a].page != cells[c].page ? cells[a].page < cells[c].page : cells[a].top < cells[c].top;
  });
  std::vector<std::vector<size_t>> grid;  // cells of each row
  int band_page = -1;
  double band_bottom = 0;
  for (size_t k : by_top) {
    const Cell& c = cells[k];
    if (grid.empty() || c.page != band_page || c.top >= band_bottom) {
      grid.emplace_back();
      extent.push_back({c.top, c.bottom});
      band_page = c.page;
      band_bottom = c.bottom;
    }
    grid.back().push_back(k);
    band_bottom = std::max(band_bottom, c.bottom);
    extent.back().second = std::max(extent.back().second, c.bottom);
  }
  return grid;
}

// The header: bold rows over a body that is not all bold, a first row set in a face of its
// own (a bold face the font does not flag, as Sphinx's LaTeX sets its headers) that no body
// cell uses, or a row ruled off (a rule across half the table or more between its first two
// rows, none between the next two).
void find_header(Block& b, const std::vector<std::vector<size_t>>& grid, const std::vector<Cell>& cells,
                 const std::vector<std::pair<double, double>>& extent, const TableColumns& cols,
                 const std::vector<std::pair<int, Box>>& rules, const LayoutOptions& o) {
  size_t bold_rows = 0;
  while (bold_rows < grid.size() &&
         std::all_of(grid[bold_rows].begin(), grid[bold_rows].end(), [&](size_t k) { return cells[k].bold; }))
    ++bold_rows;
  if (bold_rows < grid.size()) b.header_rows = static_cast<int>(bold_rows);
  if (b.header_rows == 0 && grid.size() >= o.tables.min_face_header_body_rows + 1 &&
      cells[grid[0].front()].page == cells[grid[1].front()].page) {
    // (The body in one face, or two: a column of code beside one of prose. A table of
    // samples sets each row in a face of its own, and has no header for it.)
    const std::string& face = cells[grid[0].front()].font;
    bool own = !face.empty();
    for (size_t k : grid[0]) own = own && cells[k].font == face;
    std::vector<std::string_view> body_faces;
    for (size_t i = 1; i < grid.size() && own; ++i)
      for (size_t k : grid[i]) {
        own = own && !cells[k].font.empty() && cells[k].font != face;
        if (own && std::find(body_faces.begin(), body_faces.end(), cells[k].font) == body_faces.end())
          body_faces.push_back(cells[k].font);
      }
    if (own && body_faces.size() <= o.tables.table_body_max_faces) b.header_rows = 1;
  }
  if (b.header_rows == 0 && grid.size() >= 3 && cells[grid[0].front()].page == cells[grid[1].front()].page) {
    auto ruled = [&](size_t i) {  // a rule between rows i and i + 1 of one page
      const int page = cells[grid[i].front()].page;
      if (page != cells[grid[i + 1].front()].page) return false;
      const double x0 = cols.left.front(), x1 = cols.right.back();
      for (const auto& [p, r] : rules)
        if (p == page && r.y0 >= extent[i].second - o.lines.edge_tolerance && r.y1 <= extent[i + 1].first + o.lines.edge_tolerance &&
            r.x0 <= x0 + o.lines.edge_tolerance + o.tables.table_header_rule_span * (x1 - x0) &&
            r.x1 >= x1 - o.tables.table_header_rule_span * (x1 - x0))
          return true;
      return false;
    };
    if (ruled(0) && !ruled(1)) b.header_rows = 1;
  }
}

// A table broken by a page break may print its header again at the top of each page it goes
// on to (LaTeX's longtable, DocBook and XSL-FO table headers, asciidoctor): the first rows
// of a later page that repeat the table's header cell for cell are that repeat, not rows of
// the table. They leave the grid, and their words go to `dropped`, page by page, with the
// box of their lines. A table whose header find_header did not see has one all the same
// when its first row is printed again so (no body row stands twice at the top of a page,
// and a first row that its second repeats is no header), if it has table_repeat_min_cells
// cells at least.
void drop_repeated_header(Block& b, std::vector<std::vector<size_t>>& grid, const std::vector<Cell>& cells,
                          const std::vector<Piece>& pieces, const LayoutOptions& o) {
  const auto page_of = [&](size_t i) { return cells[grid[i].front()].page; };
  size_t h = static_cast<size_t>(b.header_rows);
  if (h == 0) {
    const auto filled = std::count_if(b.rows.front().begin(), b.rows.front().end(), [](const std::string& c) { return !c.empty(); });
    if (static_cast<size_t>(filled) < o.tables.table_repeat_min_cells || (b.rows.size() > 1 && b.rows[1] == b.rows[0]))
      return;
    h = 1;
  }
  std::vector<uint8_t> drop(grid.size(), 0);
  for (size_t i = h; i + h <= grid.size(); ++i) {
    if (page_of(i) == page_of(i - 1)) continue;
    bool repeat = true;
    for (size_t j = 0; j < h && repeat; ++j) repeat = page_of(i + j) == page_of(i) && b.rows[i + j] == b.rows[j];
    if (!repeat) continue;
    std::fill(drop.begin() + static_cast<long>(i), drop.begin() + static_cast<long>(i + h), 1);
    Removal r{page_of(i), {}, {}, kRepeatedTableHeader};
    bool first = true;
    for (size_t j = i; j < i + h; ++j)
      for (size_t k : grid[j]) {
        r.text += (r.text.empty() ? "" : " ") + cells[k].text;
        for (const Piece& p : pieces)
          if (p.cell == k) {
            r.bbox = first ? p.box : r.bbox.united(p.box);
            first = false;
          }
      }
    b.dropped.push_back(std::move(r));
  }
  if (b.dropped.empty()) return;
  b.header_rows = static_cast<int>(h);
  size_t kept = 0;
  for (size_t i = 0; i < grid.size(); ++i)
    if (!drop[i]) {
      if (kept != i) {
        grid[kept] = std::move(grid[i]);
        b.rows[kept] = std::move(b.rows[i]);
      }
      ++kept;
    }
  grid.resize(kept);
  b.rows.resize(kept);
}

// The text, in columns: a line per row, two spaces at least between columns, as a
// fixed-width rendering shows them; a column whose cells mostly end at one x (numbers set
// flush right) is set flush right, others flush left.
std::string table_text(const std::vector<std::vector<std::string>>& rows, const std::vector<Cell>& cells,
                       size_t columns, const LayoutOptions& o) {
  std::vector<size_t> width(columns, 0), lefts(columns, 0), rights(columns, 0), count(columns, 0);
  for (const Cell& c : cells) {
    width[c.column] = std::max(width[c.column], utf8_length(c.text));
    ++count[c.column];
    size_t same_left = 0, same_right = 0;
    for (const Cell& d : cells) {
      if (d.column != c.column) continue;
      same_left += std::fabs(d.box.x0 - c.box.x0) <= o.lines.edge_tolerance;
      same_right += std::fabs(d.box.x1 - c.box.x1) <= o.lines.edge_tolerance;
    }
    lefts[c.column] = std::max(lefts[c.column], same_left);
    rights[c.column] = std::max(rights[c.column], same_right);
  }
  constexpr size_t kCellGap = 2;  // spaces between two columns' text, as a plain-text table sets them
  std::vector<size_t> start(columns, 0);
  for (size_t k = 1; k < columns; ++k) start[k] = start[k - 1] + width[k - 1] + kCellGap;
  std::string text;
  for (size_t i = 0; i < rows.size(); ++i) {
    std::string line;
    for (size_t c = 0; c < columns; ++c) {
      const std::string& cell = rows[i][c];
      if (cell.empty()) continue;
      const size_t used = utf8_length(line);
      size_t at = start[c];
      if (rights[c] > lefts[c] && typography::more_than_half(rights[c], count[c]))
        at += width[c] - std::min(width[c], utf8_length(cell));
      if (used > 0) at = std::max(at, used + kCellGap);
      line.append(at - used, ' ');
      line += cell;
    }
    text += (i ? "\n" : "") + line;
  }
  return text;
}

}  // namespace

void Builder::table_grid(const std::vector<const Row*>& rs, Block& b, std::vector<RowLine>& order,
                         std::vector<HyphenJoin>& log) const {
  std::vector<Piece> pieces = table_pieces(rs);
  const std::optional<RuledReading> ruled = ruled_reading(pieces, rs, grids, o);
  const TableColumns cols = ruled ? ruled->cols : table_columns(pieces, rs, bars, o);
  const size_t columns = cols.count;
  std::vector<long> keep;
  if (ruled) {
    keep = ruled->above;
  } else {
    const std::vector<long> above = wrapped_lines(pieces, rs, cols, rules, o);
    keep = kept_wraps(pieces, above, rs.size(), columns);
  }
  const std::vector<Cell> cells = table_cells(pieces, keep, rs, ev, o, log);
  std::vector<std::pair<double, double>> extent;  // each row's top and bottom (of its letters)
  std::vector<std::vector<size_t>> grid;
  if (ruled) {
    // A grid's row is the room between two of its rules.
    std::map<std::pair<int, size_t>, size_t> row_of;  // (page, band) -> row, in page and band order
    for (size_t k = 0; k < pieces.size(); ++k)
      if (keep[k] < 0) row_of.emplace(ruled->band[k], 0);
    size_t n = 0;
    for (auto& [band, row] : row_of) row = n++;
    grid.assign(n, {});
    extent.assign(n, {0, 0});
    std::vector<bool> seen(n, false);
    for (size_t k = 0; k < pieces.size(); ++k) {
      if (keep[k] >= 0) continue;
      const size_t row = row_of.at(ruled->band[k]);
      const Cell& c = cells[pieces[k].cell];
      grid[row].push_back(pieces[k].cell);
      extent[row] = seen[row] ? std::make_pair(std::min(extent[row].first, c.top), std::max(extent[row].second, c.bottom))
                              : std::make_pair(c.top, c.bottom);
      seen[row] = true;
    }
  } else {
    grid = table_rows(cells, extent);
  }
  b.rows.assign(grid.size(), std::vector<std::string>(columns));
  for (size_t i = 0; i < grid.size(); ++i) {
    std::stable_sort(grid[i].begin(), grid[i].end(), [&](size_t a, size_t c) { return cells[a].box.x0 < cells[c].box.x0; });
    for (size_t k : grid[i]) {
      std::string& cell = b.rows[i][cells[k].column];
      cell += (cell.empty() ? "" : " ") + cells[k].text;
    }
  }
  find_header(b, grid, cells, extent, cols, rules, o);
  drop_repeated_header(b, grid, cells, pieces, o);
  if (b.dropped.empty()) {
    b.text = table_text(b.rows, cells, columns, o);
  } else {
    std::vector<Cell> shown;  // the cells of the rows kept
    for (const auto& row : grid)
      for (size_t k : row) shown.push_back(cells[k]);
    b.text = table_text(b.rows, shown, columns, o);
  }
  std::vector<std::vector<const Piece*>> of_cell(cells.size());
  for (const Piece& p : pieces) of_cell[p.cell].push_back(&p);
  order.clear();
  for (const auto& row : grid)
    for (size_t k : row)
      for (const Piece* p : of_cell[k]) order.emplace_back(rs[p->row], p->line);
}

}  // namespace quire::detail
