// Private to layout/: the intermediate forms between a page's lines and chapter blocks.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quire/layout.h"
#include "quire/model.h"

namespace quire::detail {

// Facts about the lines of one page that several steps ask for, found once: each line's
// text (Line::text), whether it shows anything, and which of its spans are monospace
// (Span::monospace, as extract decided it).
class PageLines {
 public:
  PageLines() = default;
  PageLines(const Page&, const LayoutOptions&);
  // Points the facts at `page`, a copy of the page they were found on (a page brought back
  // from the spill file is a new object each time: quire/spill.h).
  void anchor(const Page& page) { lines_ = page.lines.data(); }
  // `line` must be one of the page's lines.
  const std::string& text(const Line& line) const { return text_[index(line)]; }
  bool visible(const Line& line) const { return visible_[index(line)] != 0; }
  bool mono(const Line& line, size_t span) const { return mono_[first_[index(line)] + span] != 0; }

 private:
  size_t index(const Line& line) const { return static_cast<size_t>(&line - lines_); }
  const Line* lines_ = nullptr;
  std::vector<std::string> text_;
  std::vector<uint8_t> visible_;
  std::vector<uint32_t> first_;  // index in mono_ of each line's first span
  std::vector<uint8_t> mono_;
};


// Book-wide typographic facts that thresholds are relative to.
struct BookStats {
  double body_size = 10;  // most common size of prose glyphs, points
  // The book raises note marks in brackets ("provides.[1]"): a raised "[" before raised
  // digits stands in its text. Then a small row at a page's foot opening with "[1]" opens a
  // note; elsewhere it is an entry of a list (a bibliography set small).
  bool bracketed_marks = false;
  double code_size = 0;   // most common size of monospace glyphs, points (0: none)
  // Uniform glyph advance of each monospace font ("font@size" -> points), measured from
  // glyph positions.
  std::map<std::string, double> mono_advance;
  // Flush left edge of body text on odd (1) and even (0) pages, points.
  std::map<int, double> left_margin;
  // Justified right edge of body text by page parity, where most body lines end there.
  std::map<int, double> right_margin;
  // Baseline of the first and of the last line of a full text block, by page parity
  // (most pages are full, so the most common values).
  std::map<int, double> text_top, text_bottom;
  // Distance from one body line's baseline to the next within a paragraph (most common).
  double line_pitch = 0;
  // The fewest blank cells the book sets between a listing line broken for the measure and
  // its trailing wrap mark (wrap_mark_blank): the mark's own spacing; one blank more is a
  // space of the source the line broke at. -1: no such line.
  double wrap_mark_blank = -1;
  // The book's text lines (every page's): no more blocks are made from them than there are
  // lines, figures aside, which is what the block builder reserves room for.
  size_t lines = 0;
};

// One typeset row of a column: the lines that share a baseline, left to right.
struct Row {
  int page = 0;
  std::vector<const Line*> lines;  // sorted by x
  Box bbox;
  double baseline = 0;
  double size = 0;       // dominant font size (by characters)
  bool bold = false;     // every visible glyph bold
  bool mono = false;     // every visible glyph monospace
  // Every visible glyph monospace but one sign from a symbol or math font (an arrow before a
  // result, an equivalence sign on a line of its own), and no list marker: a listing's row
  // that may go on with a listing. It starts one only where the sign stands inside a line
  // of typewriter text, with such text before and after it (`sign_inside`): a table of signs
  // beside their names, or of names with a mark in a column of its own, has rows like the
  // others.
  bool one_sign = false;
  bool sign_inside = false;
  // Most visible glyphs monospace, the first and the last among them, the rest from another
  // font (a word a listing sets in small capitals or roman, a comment in italic): a row that
  // may go on with a listing, never start one.
  bool mono_framed = false;
  std::string text;      // line texts joined by one space
  int column = 0;        // 0 or 1; -1 for a row spanning both columns
  double col_left = 0, col_right = 0;  // edges of the row's column on its page
  bool footnote = false;
  // Nothing else (text or figure) of its column above / below it on the page: room left
  // there is empty space of the text block (blank code lines at a page break).
  bool nothing_above = false;
  bool nothing_below = false;
  // Where the row is read when not where it stands (a side label reads at its block's top);
  // negative: where it stands.
  double read_at = -1;
  // Facts about `text` that block building asks for again and again, found once per row
  // (with its page, in parallel).
  size_t marker = 0;         // list_marker(text)
  bool drawn_marker = false;  // no marker in the text, but a bullet drawn before it
  bool full_stop = false;    // ends_sentence(text)
  bool lower_start = false;  // starts_lower(text)
  bool mono_end = false;     // last_token_mono(*this)
  bool caption = false;      // !caption_label(text).empty()
  // The font of each span of `lines`, line by line in order (kSpan* bits): what inline
  // styles are found from.
  std::vector<uint8_t> span_fonts;
  // The page's link annotations that touch the row.
  std::vector<LinkArea> links;
  // A term read apart from its description, which the next row is (split_terms).
  bool term_part = false;
  // The row is a listing line's continuation led by a wrap mark (is_wrap_mark): the number of
  // spans of its first line the mark takes, the rest monospace; 0: none.
  size_t wrap_mark = 0;
  // The row is a listing line broken for the measure, its wrap mark at its end
  // (is_trailing_wrap_mark): the number of spans at the end of its lines, counted as one run,
  // the mark takes, the rest monospace; 0: none. The next row of the listing goes on with the line.
  size_t wrap_mark_end = 0;
};

// Span `i` of a row's lines counted as one run, left to right, and how many they are.
const Span& row_span(const std::vector<const Line*>& lines, size_t i);
size_t span_count(const std::vector<const Line*>& lines);
// The spans a trailing wrap mark takes at the end of `lines`, a row's lines left to right,
// their spans counted as one run (is_trailing_wrap_mark: set from a font not monospace, after
// monospace text; the engine may give the mark as a line of its own beside the text), 0 for
// none.
size_t wrap_mark_end_spans(const std::vector<const Line*>& lines, const PageLines& pl);
// Blank space between the text of `lines` and its trailing wrap mark (their last `mark`
// spans), in cells of `adv`.
double wrap_mark_blank(const std::vector<const Line*>& lines, size_t mark, double adv);
inline constexpr uint8_t kSpanMono = 1, kSpanBold = 2, kSpanItalic = 4;
inline constexpr int kSpanFaceBits = 3;  // the flags above, bit by bit

// A figure region placed in the reading order, with its caption rows taken out of the flow.
struct FigureItem {
  int page = 0;
  Box bbox;
  std::vector<std::string> labels;
  std::vector<Row> caption;
};

// What a page draws around its text (page_decor in figures.h).
struct PageDecor {
  std::vector<Box> rules;     // horizontal rules
  std::vector<Box> bars;      // vertical rules
  std::vector<Box> panels;    // shaded boxes and frames
  std::vector<Box> pictures;  // raster images
  std::vector<Box> fills;     // filled rectangles, of any colour: the cells of a painted table
};

// One element of a page's reading order.
struct Item {
  enum Kind { Text, Figure } kind = Text;
  Row row;
  FigureItem figure;
  // A definition list's term and its description set on one row (a short term, the
  // description beside it at the list's indent): the two, read in turn where the row is
  // not a table's (page_items' split_terms).
  std::vector<Row> parts;
};

// Row text tests of block typing.
// Ends with a sentence's final punctuation (closing quotes and brackets skipped), or is blank.
bool ends_sentence(const std::string& text);
// Starts with a lowercase ASCII letter or an opening parenthesis.
bool starts_lower(const std::string& text);
// Length in bytes of a list marker (bullet or enumerator "1." "(a)" "iv)") starting the
// text and followed by white space; 0 when there is none.
size_t list_marker(const std::string& text);
// Words of a chapter opener's label ("Chapter 3", "APPENDIX A.", "Part II", "CHAPTER ONE"):
// the word, and its number (digits, a capital letter, a roman numeral or a number up to twenty
// spelled out, with an optional "." or ":").
bool opener_word(std::string_view token);
bool opener_number(std::string_view token);
// An opener_number as a chapter's number: digits, a letter or a roman numeral as printed
// (without a period or colon after it), a number spelled out ("ONE", "Twelve") in digits.
std::string opener_number_value(std::string_view token);
// Levels of the section number a heading starts with: 1 for "2." or "2", 2 for "2.1", 0
// when it starts with none.
int section_number_depth(const std::string& text);
// The last of whitespace_tokens(text), none when there are no tokens, found from the text's
// tail (a paragraph's text grows line by line, and its last token is asked for at each
// line). `more`, if given, tells whether other tokens come before it.
std::optional<std::string> last_token(const std::string& text, bool* more = nullptr);
// The row's last token is set in a monospace font (its hyphens are real ones).
bool last_token_mono(const Row&, const PageLines&);

// Also makes the PageLines of every page of the document, in page order (the statistics
// read every span, and so does PageLines).
BookStats measure_book(const Document&, std::vector<PageLines>& lines, const LayoutOptions&);

// A page's rows and figures in reading order (columns, bands, footnotes last).
std::vector<Item> page_items(const Page&, const PageLines&, const BookStats&, const LayoutOptions&);

// Evidence about words used by the hyphenation rule.
// Occurrences of each word: open addressing in one flat table (a large manual counts a
// million words; a node per word and a bucket array cost two cache misses a word).
class WordCounts {
 public:
  void add(const std::string& word, int n = 1);
  // Adds the counts of `from`, which is left empty (its words move, their hashes are kept).
  void merge(WordCounts&& from);
  int count(const std::string& word) const;  // 0 when never added
  size_t size() const { return size_; }
  template <class Fn>
  void for_each(Fn&& fn) const {  // fn(word, count), in no particular order
    for (const auto& s : slots_)
      if (s.count > 0) fn(s.word, s.count);
  }

 private:
  struct Slot {
    size_t hash = 0;
    std::string word;
    int count = 0;  // 0: an empty slot
  };
  void grow();
  // The slot of `word` (hash h): its own, or the empty one where it goes (count 0).
  Slot& slot_for(size_t h, const std::string& word);
  void insert(size_t hash, std::string&& word, int n);
  std::vector<Slot> slots_;  // a power of two of them, at most 3/4 used
  size_t size_ = 0;
};
struct WordEvidence {
  WordCounts words;           // every word (letters and digits), lowercase
  WordCounts hyphenated;      // "a-b" compounds seen inside a line, lowercase
  WordCounts compound_first;  // first parts of those compounds
  WordCounts compound_last;   // last parts of those compounds
  std::vector<std::string> sorted_words;  // the keys of `words`, sorted: found by prefix
  bool tex = false;           // typeset by TeX (its hyphenation minimums apply)
  // The hyphenation dictionary is of the book's language: it knows most of the book's
  // frequent words (set only when there are hyphenation patterns to use).
  bool dictionary_language = false;
  // Line-end breaks at a hyphen within a page, lowercase letters on both sides ("exam",
  // "ple"), and the lines of six words or more: what tells whether the book hyphenates.
  std::vector<std::pair<std::string, std::string>> line_breaks;
  size_t prose_lines = 0;
  // No line-end hyphen of the book is a syllable break, over enough prose to be sure: the
  // typesetter does not hyphenate, and a line-end hyphen is part of its word.
  bool unhyphenated = false;
};
// Pages in parallel (options.jobs); the evidence is the same for any thread count. `first`,
// when given, runs on each page just before its words are counted, while it is at hand.
WordEvidence collect_words(const Document&, std::vector<PageLines>&, const LayoutOptions&,
                           const std::function<void(size_t, const Page&)>& first = {});
// measure_book and collect_words in one pass over the pages (each page is read once).
BookStats measure_book(const Document&, std::vector<PageLines>& lines, const LayoutOptions&, WordEvidence& words);

// Items -> blocks, a page at a time in page order (figures carry their captions after them).
// Block building needs the rows of the block open at a page break and of the footnotes and
// figures waiting for it, but nothing of the pages before: those pages' items and lines can
// go once first_page_in_use() has passed them and make_texts() has made the texts of the
// blocks so far.
class BlockStream {
 public:
  // Hyphen joins are logged into `joins`.
  BlockStream(const BookStats&, const WordEvidence&, const LayoutOptions&, std::vector<HyphenJoin>& joins);
  ~BlockStream();
  // The next page's items, in reading order. They (and the page's lines) must stay alive
  // while first_page_in_use() is at or before their page.
  // `decor`: what the page draws around its text (rules under a table's header, the boxes
  // and bars of notes).
  void add_page(const std::vector<Item>& items, const PageDecor& decor = {});
  // The texts of the blocks made so far (in parallel, options.jobs).
  void make_texts();
  // The number of the earliest page the stream still points into (INT_MAX for none).
  int first_page_in_use() const;
  // The blocks. `sizes` receives the largest font size of each block (heading levels come
  // from it); `join_ends` the number of joins logged up to and with each block (block i made
  // joins [join_ends[i-1], join_ends[i]); a figure block owns its caption's).
  std::vector<Block> finish(std::vector<double>& sizes, std::vector<size_t>& join_ends);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Inline styles (Block::styles) and links (Block::links, internal ones as Block::targets) of a
// text block made from rows `rs`, found by matching the block's text back to the glyphs it
// was made from.
void find_inline(Block& b, const std::vector<const Row*>& rs, const LayoutOptions& o);
// The same, with the rows' lines in the order the block's text reads them (a table's, cell
// by cell) where that is not the rows' own order.
using RowLine = std::pair<const Row*, const Line*>;
void find_inline(Block& b, const std::vector<RowLine>& lines, const LayoutOptions& o);
// After a block's text changed from `before` by taking characters out (note marks, an opener
// label), its styles and links follow the characters they cover.
void remap_inline(Block& b, const std::string& before);
// Gives every heading and figure of the book an anchor (Block::anchor, unique in the book)
// and points each internal link at the anchor of the place it leads to; a link that leads
// out of the chapters is dropped.
void anchor_links(std::vector<Chapter>& chapters, const LayoutOptions& o);
// Of a page's footnotes (each one's top and bottom), the one a link pointing at height `y` of
// the page leads to: the note whose first line starts at the point, or nearest below it (a
// destination is set at the note's top, or a line or so above it, inside the note printed
// before), else the note around it. -1 when none is.
struct NoteExtent {
  double top = 0, bottom = 0;
};
int note_pointed_at(const std::vector<NoteExtent>& notes, double y, const LayoutOptions& o);

// Code text of rows of one listing: columns from glyph positions and the font's advance.
std::string code_text(const std::vector<const Row*>& rows, const BookStats&, const LayoutOptions&,
                      std::vector<HyphenJoin>& log);

// Hyphen decision for a line ending in `before` followed by a line starting with `after`.
// Returns the joined token, or empty when the two tokens stay apart (not a hyphen break).
std::string join_hyphenated(const std::string& before, const std::string& after, bool before_mono,
                            const WordEvidence&, const LayoutOptions&);

// Caption labels: "Figure 1.1", "Fig. 4", "Table 2" at the start of a text; empty if none.
std::string caption_label(const std::string& text);

// A row of a page as the contents and index test reads it: its top (the highest of its
// lines) and whether it is an entry, ending with page numbers or holding dot leaders (OCR
// noise in them tolerated). Rows without a word are not counted.
struct NumberRow {
  double top = 0;
  bool entry = false;
};
std::vector<NumberRow> number_rows(const Page&, const PageLines&, const LayoutOptions&);

// Share of the rows that are entries, among those whose top is in [from, to) (0 without rows).
double entry_share(const std::vector<NumberRow>& rows, double from = -1e300, double to = 1e300);

}  // namespace quire::detail
