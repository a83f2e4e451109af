// The document model shared by every stage of quire.
//
// Plain value types, no behaviour beyond small helpers. Stages meet only here:
//   extract  -> Document (pages of lines of spans, images, vector paths, outline)
//   clean    -> Document with furniture removed + a removal log
//   layout   -> Book (chapters of typed blocks with page and box provenance)
//   export   -> files
//
// Coordinates are PDF points with a top-left origin (y grows downwards), in the page's
// unrotated space. Page numbers are 1-based PDF page indexes everywhere.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quire/diagnostic.h"

namespace quire {

inline constexpr const char* kVersion = QUIRE_VERSION;
// Version of the intermediate JSON Lines files (pages.jsonl, blocks.jsonl).
inline constexpr const char* kIntermediateFormat = "quire-pages/1";
// Version of the corpus quire build writes (docs/spec/corpus.md): in the manifest and every
// book.json, in the cache's keys, and checked by quire merge.
inline constexpr const char* kCorpusFormat = "quire-corpus/6";

struct Box {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;

  double width() const { return x1 - x0; }
  double height() const { return y1 - y0; }
  bool empty() const { return x1 <= x0 || y1 <= y0; }
  Box united(const Box& o) const;
  bool intersects(const Box& o) const;
  bool contains(const Box& o, double slack = 0) const;
  // Area of the intersection divided by this box's area (0 if empty).
  double overlap_ratio(const Box& o) const;
  bool operator==(const Box&) const = default;
};

// A run of glyphs on one line with one font, size and colour.
struct Span {
  std::string text;          // UTF-8, as extracted (ligatures expanded by clean)
  Box bbox;
  std::string font;          // font name without subset prefix ("CMTT10", not "ABCDEF+CMTT10")
  double size = 0;           // font size in points
  bool monospace = false;
  bool bold = false;
  bool italic = false;
  uint32_t color = 0;        // 0xRRGGBB
  double baseline = 0;       // y of the baseline
  // Left x of each code point of `text`, in order (same count as code points). Lets layout
  // rebuild code columns from glyph positions. Empty when the engine cannot give it.
  std::vector<float> xs;
  // Advance of the last glyph, to know where the span ends; 0 if unknown.
  float last_advance = 0;
  bool ocr = false;          // recognised by OCR, not read from a text layer
  float confidence = -1;     // OCR word confidence 0-100; -1 when not OCR

  bool operator==(const Span&) const = default;
};

// One text line as the engine grouped it: spans left to right on a shared baseline.
struct Line {
  Box bbox;
  std::vector<Span> spans;
  // Writing direction: 0 horizontal left-to-right, 1 right-to-left, 2 vertical/rotated.
  int direction = 0;

  // The spans concatenated; a superscript touching a word (a footnote mark) is set apart
  // from it by a space, so that both are words of their own.
  std::string text() const;
  // Whether text() sets a space before span i (see spans_apart).
  bool space_before(size_t i) const;
  // y of the line's baseline: its text's, which a note mark raised at its start does not
  // move ("[1] After installation"), so the first span that is no note mark raised against
  // the line's largest; the bottom of its box where no span knows its baseline.
  double baseline() const;
  // Whether the line is a footnote's first line: it opens with a note mark ("1", "*", "[2]")
  // raised against the text that follows it on the line.
  bool opens_with_note_mark() const;
  bool operator==(const Line&) const = default;
};

// Whether neighbouring spans `a` and `b` of a line are words of their own (one is a
// superscript raised against the other): Line::text() and code listings set a space between
// them where the source has none.
bool spans_apart(const Span& a, const Span& b);
// Whether `mark` is set as a superscript against `text`: clearly smaller and raised (a note mark).
bool raised_against(const Span& mark, const Span& text);

struct Image {
  Box bbox;
  int width = 0;   // pixels
  int height = 0;
  bool mask = false;  // a stencil mask (one colour), not a picture
  bool operator==(const Image&) const = default;
};

// A stroke's recorded box is its geometry padded by at least this many line widths on each
// side: MuPDF bounds a stroke with mitred joins by its width times the miter limit (PDF's
// default limit is 10), and extraction pads strokes bounded tighter (round or bevelled
// joins, a lower limit) to the same, so that one rule recovers every stroke's geometry.
inline constexpr double kStrokeBoxPad = 10;

struct VectorPath {
  Box bbox;
  bool fill = false;
  bool stroke = false;
  double line_width = 0;
  uint32_t color = 0;  // fill or stroke colour, 0xRRGGBB
  // Painted in the paper's colour (white) where nothing was painted before: it shows
  // nothing by itself (a browser's background behind a page of text, a plot's blank canvas).
  bool paper = false;
  bool operator==(const VectorPath&) const = default;
};

// A link annotation of a page: the area it makes clickable and where it leads, either a URI
// (an external link) or a place in the document (an internal one: GoTo, named destination).
struct LinkArea {
  Box bbox;
  std::string uri;      // external: the URI as the annotation has it; empty for internal
  int page = 0;         // internal: 1-based target page, 0 when unresolved or external
  double y = -1;        // internal: target y on that page (top-left origin), -1 if unknown
  bool operator==(const LinkArea&) const = default;
};

struct Page {
  int number = 0;        // 1-based
  std::string label;     // page label ("iv", "12") or empty when the PDF has none
  double width = 0, height = 0;
  int rotation = 0;      // degrees
  std::vector<Line> lines;
  std::vector<Image> images;
  std::vector<VectorPath> paths;
  std::vector<LinkArea> links;       // link annotations, in the page's order
  bool ocr = false;                  // text came from OCR
  double ocr_confidence = -1;        // mean word confidence when ocr
  std::vector<std::string> errors;   // per-page problems (skipped content, timeouts)
  bool operator==(const Page&) const = default;
};

struct OutlineEntry {
  std::string title;
  int level = 1;     // 1 = top level
  int page = 0;      // 1-based target page, 0 if unresolved
  double y = -1;     // target y on the page (top-left origin), -1 if unknown
  bool operator==(const OutlineEntry&) const = default;
};

struct Metadata {
  std::string title;
  std::string author;
  std::string subject;
  std::string creator;
  std::string producer;
  bool operator==(const Metadata&) const = default;
};

class PageSpill;  // spill.h

struct Document {
  std::string file;       // file name as given (base name only in output)
  std::string sha256;     // of the PDF bytes
  std::string engine;     // "mupdf", "poppler", "tesseract" (mixed when some pages are OCR)
  int page_count = 0;
  Metadata metadata;
  std::vector<OutlineEntry> outline;
  std::vector<Page> pages;  // may be a sub-range of the document (extract --pages)
  std::vector<Diagnostic> warnings;
  // Set when pages' content may wait out of memory (spill.h); null: every page is whole.
  std::shared_ptr<PageSpill> spill;
  bool operator==(const Document&) const = default;
};

// A span taken out of the text, with why: furniture by clean, a repeat by layout.
struct Removal {
  int page = 0;
  Box bbox;
  std::string text;
  std::string reason;  // "running-head", "page-number", "line-number", "crop-mark", "continuation-note",
                       // kRepeatedImage, kDrawnFurniture (clean); kRepeatedTableHeader (layout)
  bool operator==(const Removal&) const = default;
};
inline constexpr const char* kRepeatedTableHeader = "repeated-table-header";
// Drawings clean takes off the page, logged with no text: an image drawn at one place on most
// pages (a logo, an ornament, a watermark), and a path drawn at one place in the head or foot
// band of many pages (a running head's rule, a footer's bar).
inline constexpr const char* kRepeatedImage = "repeated-image";
inline constexpr const char* kDrawnFurniture = "drawn-furniture";
// The order of a removal log: by page, then from the top, then from the left.
inline bool removal_order(const Removal& a, const Removal& b) {
  if (a.page != b.page) return a.page < b.page;
  if (a.bbox.y0 != b.bbox.y0) return a.bbox.y0 < b.bbox.y0;
  return a.bbox.x0 < b.bbox.x0;
}

// A line break that layout undid because the typesetter made it: a line-end hyphen removed
// ("exam-" "ple" -> "example"), a listing line broken for the measure put back together, its
// wrap mark and any visible space taken out ("(cs),\u2423" "\u02D3\u2192Danish" -> "(cs), Danish"),
// or a word cut at a table cell's edge made whole ("flush_watermar" "k" -> "flush_watermark").
struct HyphenJoin {
  int page = 0;
  std::string before;  // "exam-": the broken line's last word
  std::string after;   // "ple": the next line's first word as printed
  std::string joined;  // "example": what stands for the two (one word, or two for a listing)
  bool operator==(const HyphenJoin&) const = default;
};

// A note mark taken out of a block's text ("1" of "memory.¹"): `mark` as printed, put back
// at code point `at` of the text, right after the word it follows (see text_with_marks). A
// footnote's own mark is at 0. `glued`: the mark was printed in the text's size on its
// baseline, touching the text beside it ("mode.1", "ways2 to", "example 1:", "1Even"), so that
// on the page it is part of a word rather than a word of its own; it goes back right before
// code point `at`, with no space put in.
struct NoteMark {
  size_t at = 0;
  std::string mark;
  bool glued = false;
  bool operator==(const NoteMark&) const = default;
};

// Layout's own: a mark set raised and smaller in a block's text, at code point `at` of it;
// `cited` once a footnote of the page is found to be its note. `glued`: a mark set on the
// baseline touching the text beside it (NoteMark::glued), found by its link to the note or
// opening the note.
struct RaisedMark {
  size_t at = 0;
  std::string mark;  // as printed ("1", "¹", "*")
  bool cited = false;
  bool glued = false;
  bool operator==(const RaisedMark&) const = default;
};

// An inline style of a run of a block's text, set apart from the block's own font.
enum class InlineStyle { Code, Emphasis, Strong };
const char* to_string(InlineStyle);  // "code", "em", "strong"
std::optional<InlineStyle> inline_style_from_string(const std::string&);

// A run of `len` code points of a block's text from code point `at`.
struct StyleRun {
  size_t at = 0, len = 0;
  InlineStyle style = InlineStyle::Code;
  bool operator==(const StyleRun&) const = default;
};

// A link on `len` code points of a block's text from code point `at`: an absolute URI, or
// "#<anchor>" of a heading, figure or footnote of the book (an internal link).
struct TextLink {
  size_t at = 0, len = 0;
  std::string href;
  bool operator==(const TextLink&) const = default;
};

enum class BlockType { Heading, Paragraph, Code, ListItem, Caption, Footnote, Table, Note, Figure };
const char* to_string(BlockType);
std::optional<BlockType> block_type_from_string(const std::string&);

// A text with its note marks put back (Block::marks), each before code point `at` (code
// points counted as UTF-8 lead bytes). As words, each mark is a word of its own, apart from
// the text before and after it: the text as quire reads it from the page (Line::text sets a
// raised mark apart), which the wording check compares. As printed, a mark touches the
// word before it, and at the start is followed by a space: for reading. `piece` renders
// the text between marks and `mark` a mark (as they are, by default). A glued mark
// (NoteMark::glued) goes back where it stood with no space put in, as printed.
enum class MarksAs { Words, Printed };
std::string text_with_marks(std::string_view text, const std::vector<NoteMark>& marks, MarksAs as = MarksAs::Words,
                            const std::function<std::string(std::string_view)>& piece = {},
                            const std::function<std::string(const std::string&)>& mark = {});

struct Block {
  BlockType type = BlockType::Paragraph;
  int level = 0;              // headings: 1 = chapter title; list items: 2+ = nested
  std::string text;           // raw text; code keeps '\n' and leading spaces
  int page = 0;               // page where the block starts
  int last_page = 0;          // page where it ends (== page for most blocks)
  Box bbox;                   // on `page`
  // Figures:
  std::string image;          // path relative to OUT, set by export
  // Figures: text drawn inside the figure. Headings: the opener label printed with a chapter
  // title ("Chapter 1", "Appendix A"), which is not part of the title.
  std::vector<std::string> labels;
  std::string figure_ref;     // for figures: text of the caption label ("Figure 1.1"), if any
  int referenced_by = -1;     // figures: index of the first block that cites the figure, -1 if none
  // Note marks taken out of `text`, in text order: in a block, the marks of the footnotes it
  // cites; in a footnote, its own. text_with_marks puts them back.
  std::vector<NoteMark> marks;
  // List items: the marker is drawn before the text (a browser's disc), not part of it.
  bool drawn_marker = false;
  // List items: a definition list's term (no marker): the blocks after it set in under it,
  // up to the next term at its edge, are its description.
  bool term = false;
  // Text blocks: runs set in another font than the block's own, in text order, apart.
  std::vector<StyleRun> styles;
  // Text blocks: the words a link annotation covers, in text order, apart.
  std::vector<TextLink> links;
  // Headings and figures: the id internal links point at, unique in the book.
  std::string anchor;
  // Tables: the cells of each printed row, left to right, one string per column of the
  // table's grid ("" where a row has no cell in that column); a cell that wraps over lines
  // is one cell, its lines joined by a space. `text` has the same words, row by row.
  std::vector<std::vector<std::string>> rows;
  // Tables: how many of the first `rows` are the table's header (set bold, or ruled off).
  int header_rows = 0;
  // Notes: what the note is ("note", "tip", "warning", "caution", "important", "sidebar"),
  // and its title as printed ("NOTE", "Back to basics"), which is not part of `text`.
  std::string kind;
  std::string title;
  // Layout's own: the marks set raised in the text, for placing footnotes. Empty once layout
  // is done.
  std::vector<RaisedMark> raised;
  // Layout's own: internal links not yet resolved to an anchor (href empty): where they lead.
  struct Target {
    size_t link = 0;  // index in `links`
    int page = 0;
    double y = -1;
    bool operator==(const Target&) const = default;
  };
  std::vector<Target> targets;
  // Layout's own: words printed among the block's rows that its text leaves out (a table's
  // header rows printed again where the table goes on over a page break), for the book's
  // removal log. Empty once layout is done.
  std::vector<Removal> dropped;
  bool operator==(const Block&) const = default;
};

enum class ChapterKind { Front, Body, Appendix, Back };
const char* to_string(ChapterKind);
std::optional<ChapterKind> chapter_kind_from_string(const std::string&);

// Where the words extracted from a stretch of pages went: the wording check's ledger. Every
// word lands in exactly one account, so `extracted` equals text + labels + the removals +
// excluded + missing - added. A word counted where the page does not hold it (a figure's
// label from outside the figure, a paragraph's word from outside its box) is `misplaced`:
// counted in its account, and a difference all the same.
struct WordLedger {
  long extracted = 0;  // words on the pages (a shared page: the share that lands here), hyphen joins applied
  long text = 0;       // in text blocks (headings with their opener labels, paragraphs, code, ...)
  long labels = 0;     // in figures' labels
  std::vector<std::pair<std::string, long>> removed;  // taken out by clean, per reason, sorted by reason
  long excluded = 0;   // on pages of matter left out of the corpus (contents, index, ...)
  long missing = 0;    // extracted, in no account
  long added = 0;      // in an account, never extracted (or counted twice)
  long misplaced = 0;  // in an account whose box on the page does not hold them
  long removed_total() const;
  void add_removed(const std::string& reason, long n);  // keeps `removed` sorted; no account of no words
  // A difference of any kind: the ledger of a corpus that keeps every word has none.
  long differences() const { return missing + added + misplaced; }
  void add(const WordLedger& o);
  bool operator==(const WordLedger&) const = default;
};

struct Chapter {
  std::string title;
  int first_page = 0, last_page = 0;
  ChapterKind kind = ChapterKind::Body;
  std::string number;  // as printed ("3", "A"), empty for unnumbered chapters
  std::vector<Block> blocks;
  std::optional<WordLedger> ledger;  // set by the wording check
  bool operator==(const Chapter&) const = default;
};

// Pages kept out of the corpus: title page, contents, lists of figures, index.
struct ExcludedMatter {
  std::string title;
  std::string kind;  // "title-page", "copyright", "contents", "list-of-figures", "index", ...
  int first_page = 0, last_page = 0;
  long words = -1;   // words left out with it (set by the wording check; -1 unknown)
  bool operator==(const ExcludedMatter&) const = default;
};

struct Book {
  std::string id;
  std::string title;
  std::vector<std::string> authors;
  std::string file;     // PDF base name
  std::string sha256;
  int page_count = 0;
  std::vector<Chapter> chapters;
  std::vector<ExcludedMatter> excluded;
  std::vector<Removal> removed;
  std::vector<HyphenJoin> joins;
  std::vector<int> ocr_pages;             // pages whose text came from OCR
  std::vector<int> low_confidence_pages;  // OCR pages under the confidence threshold
  std::vector<Diagnostic> warnings;
  std::optional<WordLedger> ledger;  // the whole book's (set by the wording check)
  bool operator==(const Book&) const = default;
};

}  // namespace quire
