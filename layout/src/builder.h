// Private to layout/: the block builder that BlockStream drives (block_builder.cpp, the
// continuation rules in continuation.cpp, block texts in block_text.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "internal.h"
#include "tables.h"

namespace quire::detail {

struct Builder {
  Builder(const BookStats& stats, const WordEvidence& words, const LayoutOptions& options, std::vector<HyphenJoin>& log)
      : st(stats), ev(words), o(options), joins(log) {}
  const BookStats& st;
  const WordEvidence& ev;
  const LayoutOptions& o;
  std::vector<HyphenJoin>& joins;
  std::vector<Block> out;
  std::vector<double> sizes;  // largest font size of each block in `out`
  std::vector<size_t> join_ends;  // joins logged up to and with each block in `out`
  // Rows each block in `out` takes its text from (none for figures), until make_texts()
  // has made its text.
  std::vector<std::vector<const Row*>> text_rows;
  size_t texts_made = 0;  // blocks of `out` whose text is made
  std::vector<uint8_t> captioned;  // a figure block followed by its caption block
  // Where each block of `out` stands, for the passes that look at the blocks around one
  // (definition terms): its rows on the page and column where it starts.
  struct Shape {
    int page = -1, column = 0;  // page -1: no rows (a figure)
    double left = 0;            // the first row's left edge, from its column's
    bool flush = false;         // every row there starts at `left`, and none on another page
    bool short_end = false;     // the last row there ends short of its column
    bool gapped = false;        // a row there has lines apart (cells, a term beside its text)
    // Of a block of at most max_term_rows rows there (else false and 0):
    size_t words = 0;           // whitespace-separated words of the rows there
    bool sentence_end = false;  // the last row ends a sentence (words and a full stop, not a colon)
    bool broken_end = false;    // the last row ends with a hyphen after a letter (a word goes on)
    bool colon_end = false;     // the last row ends with a colon (a label of what follows)
    size_t rows = 0;
    double first_baseline = 0, last_baseline = 0, size = 0;
    double book_indent = -1;  // the book's paragraph indent so far (first_indents), -1: none yet
  };
  std::vector<Shape> shapes;
  // How far the first lines of the paragraphs made so far are set in from their second
  // (half points -> paragraphs): the book's paragraph indent is the most common.
  std::map<long, long> first_indents;
  std::vector<std::vector<const Row*>> notes;  // footnotes waiting for the open block to end

  // Rows of tables on the page being fed -> their table (find_tables). A table ends with
  // its page, so the rows of earlier pages are no longer asked about.
  std::map<const Row*, long> table_run;
  long tables = 0;
  // Horizontal rules of the pages whose blocks are not made yet: (page, rule).
  std::vector<std::pair<int, Box>> rules;
  // Vertical rules of those pages: (page, rule).
  std::vector<std::pair<int, Box>> bars;
  // Tables drawn as grids on those pages (find_tables): (page, grid).
  std::vector<std::pair<int, RuledGrid>> grids;
  // Rows of notes on the page being fed (find_notes): their box, and for the row that
  // leads a note, its title.
  struct NoteSpot {
    long box = 0;
    std::string kind;
    std::string title;  // as printed, on the row that holds it
    bool whole = false; // the title is the whole row
    Box region;         // the box, bar or rules that set it apart, on the row's page
  };
  std::map<const Row*, NoteSpot> note_rows;
  long note_boxes = 0;
  // The open note's: its box, kind and title; how its title stands.
  enum Titled : uint8_t {
    kUntitled = 0,
    kTitleRow = 1,   // its first row
    kRunInTitle = 2  // the first words of its text
  };
  long open_box = -1;
  Box open_region;  // on the page of the open note's last row
  std::string open_kind, open_title;
  uint8_t open_titled = kUntitled;
  std::vector<uint8_t> titled;  // the same, per block of `out`
  // The right edge that most prose lines of each column of the page being fed end at (the
  // measure of its justified lines), by Row::column; a column without one is not here.
  std::map<int, double> justified_right;

  BlockType type = BlockType::Paragraph;
  std::vector<const Row*> rows;  // the open block's rows
  std::vector<const FigureItem*> pending;
  // The open list's item edges (first line's left, from the column's edge), outermost
  // first: an item set further in than the one before is nested in it.
  std::vector<double> list_edges;

  bool open() const { return !rows.empty(); }

  double heading_threshold() const { return o.blocks.heading_size_ratio * st.body_size; }

  // A row wholly in bold monospace, larger than the book's code: a heading set in a
  // typewriter face.
  bool mono_heading(const Row& r) const;

  bool is_heading(const Row& r) const;

  // A table's grid and text. Cells are the rows' lines; cells whose extents overlap across
  // rows share a column. A line of a column goes on in the cell above it where the cell's
  // text wrapped there: it starts at the cell's left edge a line below, and its first word
  // would not have fitted in the column after the line above (no typesetter wraps a word
  // that fits), unless a cell of another column that is no such line stands beside it (that
  // is the next row). Cells whose vertical extents overlap are one row: a cell set
  // middle-aligned beside a wrapped one stands lower than its first line. The header is
  // the rows at the top set wholly in bold, or ruled off from the body by a rule under
  // them where no rule parts the body's rows (`rules`: the pages' horizontal rules).
  //
  // The text has a line per row, its cells set in columns with spaces, two at least
  // between columns, as a fixed-width rendering shows them; a column whose cells end at one
  // x (numbers set flush right) is set flush right, others flush left.
  // `order` receives the table's lines in the order its text gives their words: row by row,
  // cell by cell, each cell's lines top to bottom (a row's lines are read across the page).
  // A cell's line-end hyphens are decided as in prose and logged in `log`.
  void table_grid(const std::vector<const Row*>& rs, Block& b, std::vector<RowLine>& order,
                  std::vector<HyphenJoin>& log) const;

  // Prose text of rows: one space between lines, line-end hyphens decided and logged.
  // `texts`, when given, stand for the rows' texts (texts_with_marks).
  std::string prose(const std::vector<const Row*>& rs, std::vector<HyphenJoin>& log,
                    const std::vector<std::string>* texts = nullptr) const;

  // A block of rows `rs`; its text comes in finish().
  Block make(BlockType t, const std::vector<const Row*>& rs);

  // `text`: the block's text is made from `rs` (a figure's rows are its caption's).
  void push(Block b, const std::vector<const Row*>& rs, bool text = true);

  // Texts of the blocks made since the last call. Each block's text depends on its rows
  // alone, so blocks are made in parallel; hyphen joins are logged in block order, as if made
  // one after the other (a figure owns its caption's). A figure and its caption are pushed
  // together, so no call falls between them.
  // `all`: every block; otherwise the last few wait (o.blocks.term_lookahead + 1, never parting
  // a figure from its caption), for find_terms to see the blocks after them.
  void make_texts(bool all = true);

  // Definition lists (definition_terms.cpp): retypes as `term` list items the blocks of
  // [from, to) that head a description set in under them, where the list repeats the shape.
  // A row that split_terms read as a term and its description where find_terms finds no
  // list is one row again, at the head of the description's block. Returns `to` less the
  // blocks that were the term alone.
  size_t find_terms(size_t from, size_t to);
  // Headings set in the body's size and bold without a number (continuation.cpp, beside
  // is_heading):
  // retypes as headings the one-line paragraphs of [from, to) that stand nearer the
  // paragraph under them than the block over them (spaced_heading_gap_ratio).
  void find_spaced_headings(size_t from, size_t to);
  bool term_pair(size_t i) const;

  // A note whose title is its text's first words: the title leaves the text, which starts
  // after it (raised marks move with the text).
  static void strip_title(Block& b);

  // The earliest page whose rows or figures the open block, the waiting footnotes and the
  // waiting figures still point at; INT_MAX when none.
  int first_page_in_use() const;

  void emit_figure(const FigureItem& f);

  void close();

  // A list item's level (1: not in another item), from where its first line starts against
  // the items before it. A heading, or a block whose lines run where the outermost items
  // start or further left (a paragraph's second line, not its indented first), ends the
  // list; a paragraph or listing set in under an item is part of it.
  void nest(Block& b, const std::vector<const Row*>& rs);

  void start(BlockType t, const Row& r);

  bool same_flow(const Row& a, const Row& b) const { return a.page == b.page && a.column == b.column; }

  // Does `r` continue the open prose block?
  bool continues_prose(const Row& r) const;

  // Whether the line `prev` ends short of its column although the first word of the next
  // line, `r`, would have fit after it: no typesetter wraps there, so the line was ended on
  // purpose (a definition's signatures one per line, an address, a table's rows set as
  // lines) and each line is a block of its own. The right edge is the column's justified
  // measure; a passage indented on the left (both lines at one indent) is taken to be
  // indented as far on the right, as a quotation is, while an indented line followed by one
  // at the column's edge (a first-line indent, the last row of an indented table) had the
  // whole measure. Not beside a figure, nor after a word broken at the line's end.
  bool broken_on_purpose(const Row& prev, const Row& r, double indent) const;

  // Fills justified_right from a page's rows: per column, the right edge shared (within
  // twice edge_tolerance) by the most prose rows, if at least min_justified_rows share it.
  void find_justified_right(const std::vector<Item>& items);

  // Where a row's text starts in its column: past a note set in the left margin on the row's
  // baseline (a version mark beside a paragraph's first line), which would make the next
  // line look indented.
  double text_left(const Row& r) const;

  // Where the first word of a row ends, from its glyphs' positions; nothing when they are
  // unknown. A no-break space joins words (a typesetter moves them as one).
  static std::optional<double> first_word_end(const Row& r);

  // The same for one line; `more`: another line of its row follows it after a gap.
  static std::optional<double> first_word_end(const Line& line, bool more);

  // Where the text after a row's list marker starts: the edge an item's lines hang at. The
  // row's left edge where the glyphs' positions are unknown.
  static double after_marker(const Row& r);

  // A wholly monospace row `r` is the rest of a URL or name broken at the end of `prev`.
  static bool continues_broken_name(const Row& r, const Row& prev);
  bool continues_code(const Row& r) const;

  // The open listing's line pitch: the middle advance from one of its rows to the next
  // (on one page and column, no blank line between), when every advance is a whole number
  // of it; nothing for a listing of one row, of uneven advances, or recognised by OCR
  // (whose baselines are not where the typesetter put them).
  std::optional<double> listing_pitch() const;

  bool continues_heading(const Row& r) const;

  // "Chapter 3", "APPENDIX A.", "Part II", "3", "CHAPTER" over "ONE": a label or number set
  // apart over a title.
  static bool opener_label(const std::string& text);

  // Whether the table row `r`, first of its page's text, goes on with the open table from
  // the page before: its cells stand in the open table's columns (a table broken by a page
  // break, its header repeated or not).
  bool continues_table(const Row& r) const;

  long run_of(const Row& r) const;

  // Would `r` continue the open block?
  // The title a row leads a note with, as printed, and whether it is the whole row; the
  // kind of note it names (empty: none).
  struct Title {
    std::string kind, text;
    bool whole = false;
  };
  Title note_title(const Row& r) const;

  // Notes of a page: a row that leads one with its title (note_title), drawn in a box with
  // its text (LayoutOptions::Notes::note_titles), and the rows below it in that box.
  void find_notes(const std::vector<Item>& items, const PageDecor& d);

  const NoteSpot* note_of(const Row& r) const;

  bool continues(const Row& r) const;

  void row(const Row& r);

  void figure(const FigureItem& f);
};

}  // namespace quire::detail
