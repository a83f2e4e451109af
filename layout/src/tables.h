// Private to layout/: tables found among a page's rows (tables.cpp).
#pragma once

#include <map>
#include <vector>

#include "internal.h"

namespace quire::detail {

// Whether rows `a` and `b` (b the next) are two rows of one table: each at least
// min_table_cells short pieces set apart by column gaps, the one under the other at a table's
// row pitch, with column edges in common (a loosely set line of prose alone is no table).
// `bars` and `rules`: the page's vertical rules and its horizontal rules, joined
// (joined_rules).
bool table_row_pair(const Row& a, const Row& b, const LayoutOptions& o, const std::vector<Box>& bars,
                    const std::vector<Box>& rules);

// A table drawn as a grid: a rule across the table's width under each of its rows, and rules
// between its columns that cross every row (see tables.cpp).
struct RuledGrid {
  Box box;
  std::vector<double> columns;  // x of the rules between its columns, left to right
  std::vector<double> rows;     // y of the rules across it, top to bottom
};

// The grids of a page, from its horizontal rules, joined (joined_rules), and its vertical ones.
std::vector<RuledGrid> ruled_grids(const std::vector<Box>& rules, const std::vector<Box>& bars, const LayoutOptions& o);

// The grids of a page painted cell by cell: filled rectangles (`fills`) wider than a
// frame's side (figures.frame_side_max), in two rows at least of two cells at least, each
// row's cells of one height side by side, the rows one under the other with their cells'
// edges in line, all no more than painted_cell_max_gap apart. Its columns and rows part at
// the middle of the gaps.
std::vector<RuledGrid> painted_grids(const std::vector<Box>& fills, const LayoutOptions& o);

// Whether a line or row with box `b` stands inside grid `g`.
bool grid_holds(const RuledGrid& g, const Box& b, const LayoutOptions& o);

// Column edges the two rows share: cells flush left or flush right at the same x. The left
// edge of the first cell does not count, nor the right edge of the last where it reaches
// the measure's right edge `right`: every line of a justified paragraph shares those (and a
// loosely set line breaks into one line per word). A table set narrower than the measure
// (centred, or with its last column flush right inside it) shares its last right edge.
size_t shared_edges(const std::vector<const Line*>& a, const std::vector<const Line*>& b, double right,
                    const LayoutOptions& o);

// Tables: runs of consecutive rows of one page and column whose cells line up in columns,
// with the lines of cells wrapped under (or, where the other cells of a row are set
// middle-aligned beside a wrapped one, above) their rows. Gives each table row of the
// page's items its run number, counting on from `run` (a run never spans pages: its rows
// share a page). `open_cells`: the cells of a table open at the page break; `bars`: the
// page's vertical rules (ruled_apart); `rules`: its horizontal rules (a ruled table's cells
// may stand as close as a word space). `grids`, where given, receives the page's grids
// (ruled_grids, and painted_grids of `fills`), from which table_grid reads the tables inside
// them.
void find_tables(const std::vector<Item>& items, const LayoutOptions& o, long& run, std::map<const Row*, long>& out,
                 const std::vector<const Line*>& open_cells = {}, const std::vector<Box>& bars = {},
                 const std::vector<Box>& rules = {}, std::vector<RuledGrid>* grids = nullptr,
                 const std::vector<Box>& fills = {});


}  // namespace quire::detail
