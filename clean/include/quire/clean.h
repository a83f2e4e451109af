// clean: removes page furniture (running heads, page numbers, margin line numbers of code
// listings, crop marks, the "(continues on next page)" notes of listings and tables broken
// over a page; logos, ornaments and the rules a page style draws) from an extracted
// Document, found from the whole book, and logs every removal. Normalises text only where
// wording does not change: ligature glyphs to letters, soft hyphens, Unicode NFC.
//
// Contract: for every page, the whitespace tokens of the page's text before cleaning equal the
// tokens after cleaning plus the tokens of that page's Removal entries (after normalize_text).
// Nothing is removed without an entry; each entry's text is exactly the text taken out (none
// for a drawing).
// clean never throws on odd input (pages with no text, missing labels, empty xs).
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "quire/model.h"
#include "quire/options_table.h"

namespace quire {

struct CleanOptions {
  // --- Running heads and page numbers -------------------------------------------------------
  // Head/foot band: a line whose top (bottom) is within this share of the page height from the
  // top (bottom) edge is a furniture candidate. Generous on purpose (small trim sizes put the
  // folio 13-15% up from the bottom): candidates are taken from the edge inwards and the first
  // row that is not furniture ends the furniture of that edge.
  double band_ratio = 0.2;
  // ...measured from the edges of the printed area where the book prints inside a larger
  // page (A5 set on A4 paper: folios two thirds down the page). That edge is a page frame:
  // the text of at least printed_area_frame_share of the pages ends in one place (within
  // baseline_tolerance: the folio or the foot line), no more than 1 - printed_area_share of
  // them print beyond it, and it lies outside the band at the page's edge. Pages that merely
  // end short (exercises, slides) end in many places and move no band. At least
  // printed_area_min_pages pages with text are needed.
  double printed_area_frame_share = 0.5;
  double printed_area_share = 0.95;
  int printed_area_min_pages = 4;
  // Points: lines whose baselines differ by at most this share one head row (a head and its
  // folio set as separate lines on one baseline), and rows on different pages share one slot.
  double baseline_tolerance = 2.0;
  // ...except lines printed over each other: two lines (with other text) whose boxes share
  // more than half the lower one's height, and across more than this share of it (no kerning
  // or overhang brings two lines of a row that close), are two layers, not one row (a browser
  // prints a fixed element on every page over the text that stands there). Each layer is
  // furniture only by evidence of its own (a recurring text or a page number), never by its
  // slot alone; a row the same on nearly every page and printed over text on some is
  // furniture however near the text it stands, and the text under it stays (as does a row
  // of its slot without evidence of its own: the place is the text's as much as its).
  double overprint_share = 0.5;
  // A head text (digits and roman numerals masked) must recur on at least this many pages in
  // the same slot to count as a running head: a head naming the current chapter recurs only
  // within that chapter, which may be short.
  int min_recurrence = 2;
  // ...unless the same text stands as a whole line in the middle of the page (outside both
  // bands) on more than this many times as many pages: then it is a heading or a line the
  // book sets everywhere ("Arguments" in every entry of a reference), which a page break now
  // and then puts at the top. Lines of more than head_max_tokens words are never compared.
  double head_mid_page_ratio = 1.0;
  int head_max_tokens = 16;
  // A number that is not the page's label counts as a page number only when at least this many
  // pages carry a number with the same offset from the page index (page = number + offset):
  // folios follow the page sequence over a run of pages; a stray number does not.
  int min_page_number_pages = 3;
  // A page prints its number once. Where two slots of one page hold a number that passes for
  // its folio, the one in a slot that shows folios on fewer than this share of the pages of
  // the page's best folio slot is no folio: a footnote that begins with its mark ("2 for
  // some clients ...") under a page numbered 2 at the head.
  double second_folio_share = 0.5;
  // A slot (baseline position in the head or foot band) is a furniture slot when at least this
  // share of the pages that have a row there show independent evidence (a recurring head or a
  // page number). The first body line's slot is full of varied text and stays far below.
  double head_slot_purity = 0.5;
  // ...and a furniture slot has evidence on at least this share of the pages with rows in its
  // band: the page style puts heads on most pages, while a caption pattern that happens to
  // recur at the top of two pages does not.
  double head_slot_min_share = 0.2;
  // Running heads are set at or below body size; a row larger than body size times this is a
  // title or heading, never furniture by slot alone.
  double head_max_size_ratio = 1.15;
  // Heads and folios are set off from the text block: the gap from a furniture row to the next
  // line inward is at least this many body line pitches (R manuals ~3.7, small trims ~2).
  double furniture_gap_ratio = 1.3;
  // ...except a recurring head or folio set in type this much smaller than the body or
  // smaller: small type beside the text block is no body line (a browser's print header and
  // footer sit less than a line from the text).
  double furniture_small_ratio = 0.75;
  // ...or set smaller than the body (below this ratio) and the same on at least this share
  // of the pages of its band.
  double furniture_smaller_ratio = 0.95;
  double furniture_everywhere_share = 0.8;
  // Longest arabic page number, in digits (no book has 100,000 pages; longer runs are data).
  int max_page_number_digits = 5;

  // --- Margin line numbers of code listings --------------------------------------------------
  // Minimum run of consecutive line numbers beside monospace lines: two in a row is too easily
  // data, three consecutive with one x position is a column.
  int min_line_number_run = 3;
  // Points: the numbers of one column share their right edge (right-aligned) within this.
  double line_number_x_tolerance = 2.5;
  // Points: a margin number in its own span or line must differ from the code by more than
  // this in size (or in font or colour): listings set their numbers apart, data is not.
  double line_number_size_delta = 0.5;
  // Rows of one listing are at most this many line pitches apart; a row further away belongs
  // to another listing (or the same one after a blank line).
  double listing_pitch_ratio = 1.6;
  // A number with code on both sides belongs to the listing on one side when the other side's
  // listing stands at least this many times farther away: the number column of a listing in a
  // two-column page's right column stands in the gutter, beside the left column's listing.
  // (The cells of a table row stand about equally far apart.)
  double line_number_far_side_ratio = 2.0;
  // A line is a code line when at least this share of its non-space characters is monospace.
  double code_monospace_share = 0.5;

  // --- Crop marks ------------------------------------------------------------------------------
  // Points: text lying entirely this far or more outside the page box is printer's marks
  // (crop/registration marks, slug lines), never part of the book's text.
  double crop_outside_margin = 0.0;

  // --- Drawn furniture ---------------------------------------------------------------------------
  // An image drawn at the same place (within repeated_image_tolerance points on each edge)
  // with the same pixel size on at least repeated_image_min_pages pages, and on at least
  // repeated_image_min_share of the book's pages, is a logo, an ornament or a watermark. (A
  // slide deck's overlays show one picture on a few slides in a row.)
  double repeated_image_tolerance = 2;
  int repeated_image_min_pages = 3;
  double repeated_image_min_share = 0.5;
  // A path lying wholly in drawn_band_ratio of the page's height at its top or bottom, drawn
  // at the same place in the same paint on at least repeated_image_min_pages pages and on at
  // least drawn_rule_min_share of them, is a running head's rule or a footer's bar or frame.
  // (A head's rule stands on most pages of its side; where odd and even pages mirror their
  // margins, that is under half of them. A chapter opener's decoration, drawn on a page a
  // chapter, stays far below.)
  double drawn_band_ratio = 0.08;
  double drawn_rule_min_share = 0.2;
  // --- Threads ---------------------------------------------------------------------------------
  // Threads for the per-page work (normalisation, candidate rows, removal); the book-level
  // decisions stay serial. The result is byte-identical at any count; the build passes the
  // book's share of --jobs.
  int jobs = 1;
};

// The fields of CleanOptions that change the output, as a table (quire/options_table.h):
// `--set clean.NAME=VALUE`, the build cache key and docs/options.md are made from it.
std::span<const OptionField<CleanOptions>> clean_option_table();

struct CleanResult {
  std::vector<Removal> removed;     // in page order, then top to bottom, then left to right
  std::vector<Diagnostic> warnings;
};

// Normalises (normalize_document) and removes furniture from `doc` in place; returns the log.
// `first_look`, when given, sees each page as it came in, before clean changes anything on
// it (in the pass that first has the page at hand).
CleanResult clean_document(Document& doc, const CleanOptions& options = {},
                           const std::function<void(size_t, const Page&)>& first_look = {});

// Applies normalize_text to every span and keeps Span::xs aligned with the code points: a
// ligature expanded to k letters gets k positions spread over the ligature glyph's width; a
// removed soft hyphen drops its position (one ending a line after a letter stays: normalize_line). Pages are normalised on `jobs` threads.
void normalize_document(Document& doc, int jobs = 1);

// Normalises one span in place (as normalize_document does). Exposed for tests.
void normalize_span(Span& span);

// Normalises a line's spans, but keeps a soft hyphen that ends the line after a letter: the
// break the typesetter took inside a word, which layout joins over (normalize_document does
// this for every line).
void normalize_line(Line& line);

}  // namespace quire
