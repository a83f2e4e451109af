// Layout's options: every threshold layout's passes use, with the typographic fact behind it.
// Each field that changes the output is a row of layout_option_table() (layout.h): `--set
// layout.NAME=VALUE`, the build cache key and docs/options.md are made from that table.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "quire/model.h"

namespace quire {

struct LayoutOptions {
  bool keep_matter = false;  // keep title page, contents, index... as chapters
  // Two lines belong to one paragraph when the gap between them is under this share of
  // the font size (leading is usually 1.2x the size, so a gap of 0.2-0.5x is normal).
  double paragraph_gap_ratio = 0.8;
  // ... and after a line that ends a sentence, a line more than this share of the font size
  // farther than the book's usual line pitch starts a new paragraph (space between
  // paragraphs rather than indents; a tall formula in a line adds less).
  double paragraph_space_ratio = 0.4;
  // ... and after a line that ends short of the measure, a line more than this share of the
  // font size farther than the usual pitch starts a new block even in mid-sentence: a list
  // item's title line over its text, a one-line description over the next term.
  double short_line_space_ratio = 0.2;
  // Definition lists: a term is at most this many lines and words, set at one edge, ending
  // short of the column; its description starts at most max_line_pitch below it and is set
  // in further than a paragraph's indent. Only a list that repeats the shape (two terms at
  // one edge, their descriptions at another, with at most term_lookahead blocks from one
  // term to the next) is taken for one.
  size_t max_term_rows = 3;
  size_t max_term_words = 6;
  size_t term_lookahead = 8;
  // A term's last line that ends with a full stop is a sentence, not a term, when it holds at
  // least this many words (a term of a word or two may end in a dot: "Examples.").
  size_t sentence_min_words = 3;
  // A term set on its description's row stands this share of the font size at least
  // before it (far more than a word space).
  double term_gap_ratio = 1.0;
  // A term and its description on one row: the description starts at most this share of
  // the column's width past the term's edge (further in, the row is a table's).
  double term_indent_max_share = 0.5;
  // Minimum size of a vector-path cluster to be a figure, in points: rules and underlines
  // are thinner than this in one direction.
  double min_figure_side = 20;
  // Figure crop rendering resolution (used by export, kept here so one options struct
  // describes the figure policy).
  int figure_dpi = 150;
  // Spelling dictionary (Hunspell's PREFIX.aff and PREFIX.dic) for the line-end hyphens the
  // book's own words leave undecided; empty, or files that are not there: no dictionary.
  std::string hyphen_dictionary = "/usr/share/hunspell/en_US";
  // Hyphenation patterns (libhyphen's .dic, of the dictionary's language) for the same
  // hyphens: a break the patterns do not allow is a hyphen of the word. Used only for a book
  // whose frequent words the dictionary mostly knows. Empty or missing: none.
  std::string hyphen_patterns = "/usr/share/hyphen/hyph_en_US.dic";
  // Threads for the per-page work (rows and figures of each page, book statistics, word
  // evidence); the build sets the book's thread count. The result is the same for any value.
  int jobs = 1;

  // --- lines and columns ---
  // Two lines share a row when their baselines differ by less than this share of the font
  // size (superscripts sit ~0.35 em high; the next line sits >= 1 em lower).
  double same_row_ratio = 0.5;
  // A column gutter must be at least this wide, in points (LaTeX's \columnsep is 10 pt;
  // the gap between two words is under 0.5 em, about 5 pt).
  double min_gutter = 6;
  // A gutter may be crossed by at most this share of a page's lines (spanning headings
  // and figures cross it; the text of a column never does).
  double max_gutter_crossing = 0.15;
  // Nor is a strip a gutter where horizontal rules cross it between the lines of both sides,
  // at least min_column_lines of them and this share of the lines of the side with fewer:
  // a table ruled row by row across its columns (a page's two columns are not; a float
  // across them brings a few rules).
  double gutter_ruled_rows_share = 0.5;
  // Nor is a strip a gutter where the lines on both sides stand row by row on each other's
  // baselines (at least this share of each side's lines), and those beside it leave the
  // book's measure short on the outside by more than column_reach_ratio ems: a table's
  // columns, narrower than the measure or set in from it (a page's columns fill the measure).
  double table_row_pair_share = 0.8;
  double column_reach_ratio = 3;
  // ... or one side holds several lines on most of its baselines, their middle one of at most
  // this many words: a table's cells (two columns of prose on one side hold lines of words).
  size_t max_cell_words_beside = 2;
  // A glyph box may reach this many points into a gutter from the line beside it (side
  // bearings, an italic overhang): such a line still stands on its side of the gutter.
  double gutter_glyph_reach = 1;
  // A strip that reaches into a column (a listing's ragged right edge) gives its least crossed
  // part as the gutter only when that part is crossed by at most this share of the lines a
  // gutter may be crossed by (max_gutter_crossing): a few spanning rows, not a column's lines.
  double gutter_part_crossing_share = 0.5;
  // ... and the parts asked are those crossed by at most one Nth of that (one line at least)
  // more than the least, N being this: a spanning heading crosses at one line, not a few.
  int gutter_part_slack_divisor = 4;
  // A side of a gutter whose lines stand, a third or more of them (this share), on the other
  // side's baselines (within same_baseline) is a table's rows: a listing beside a column of
  // prose keeps a line pitch of its own.
  double paired_row_share = 1.0 / 3;
  // A narrower strip than the widest is the gutter only where the lines left of it end
  // together (a page of one column has odd strips between short lines): at least this share
  // of them at one edge, ...
  double justified_left_share = 1.0 / 3;
  // ... at most this many times min_gutter left of the strip (a column's edge borders its
  // gutter).
  double justified_left_reach_ratio = 2;
  // A page's lines must span at least this many points to hold two columns (a narrower
  // span holds no two columns of lines of several words), ...
  double gutter_min_span = 50;
  // ... and a gutter starts between these shares of that span from its left (columns of
  // unequal width still leave the gutter near the middle; a strip near an edge is a margin
  // between a label and the text).
  double gutter_from_share = 0.3;
  double gutter_to_share = 0.7;
  // Each column needs at least this many lines whose left edges align (within
  // `edge_tolerance`): a real column has a flush left edge.
  int min_column_lines = 4;
  // ... except a short last column beside a whole one (a chapter's last page in two
  // columns): any lines that start together, among them one at least this share of the
  // whole column's width wide (the line of a justified paragraph, not a page number or a
  // figure's label).
  double short_column_width_ratio = 0.85;
  // A column of code beside one of prose: the prose side must hold at least
  // `min_column_lines` lines of this many words or more that end together (a justified
  // line holds 8-15 words; a table's cells, a few).
  int min_justified_line_words = 6;
  // ... and a third or more of the code side's lines may not share baselines (within this
  // many points) with the prose side's: then they are a table's rows.
  double same_baseline = 0.5;
  // Positions within this many points count as the same edge (glyph boxes vary ~1 pt).
  double edge_tolerance = 2;
  // The most common edge of a set of lines is looked for in bins of this many points (the
  // glyph boxes of one edge vary ~1 pt); edge_tolerance then counts the lines at it.
  double edge_bin = 1;
  // The book's body lines are justified when at least this share of them end at one right
  // edge (within edge_tolerance); that edge then bounds a column whose listing runs past it.
  double justified_margin_share = 0.4;
  // A line, or a size, is in the body size when it is within this many points of it: sizes
  // are printed to a tenth of a point, and a book's next size is a point or more away
  // (footnotes at 8-9 pt under 10 pt text).
  double body_size_tolerance = 0.5;
  // The book's line pitch is the most common step between body lines, looked for in bins of
  // this many points (a typesetter gives the pitch to a tenth of a point or finer).
  double line_pitch_bin = 0.1;
  // The text block's first and last baselines, per page parity, are the most common ones, in
  // bins of this many points (the typesetter puts them at one place; rounding moves them).
  double text_block_bin = 0.5;
  // A line of a left column set too wide (a long word or an address that would not break)
  // starts within this share of the column's width from its left edge (a spanning heading
  // or caption is centred further in), ...
  double overwide_line_start_share = 0.25;
  // ... with a full line of the column within this many of its heights above or below it
  // (lines stand about 1.2 sizes apart, and a glyph box is about a size high).
  double overwide_line_pitch_ratio = 1.6;
  // A side of a gutter whose lines end together, half of them or more each at an edge that
  // at least this many of them share (within edge_tolerance), is justified prose, not a
  // table's cells (cells end wherever their values do).
  int flush_end_min_lines = 3;

  // A line ending within this share of its column's width from the column's right edge is
  // long: in an indented passage, where no line is full, a long line goes on.
  double long_line_share = 0.25;

  // --- block typing ---
  // A line set this much larger than the body size (ratio) is a heading.
  double heading_size_ratio = 1.12;
  // A wholly bold line in the body size that starts with a section number is a heading when
  // it ends short of this share of its column's width.
  double numbered_heading_max_width = 0.8;
  // ... "in the body size" meaning at least this ratio of it (a bold face may measure a little
  // smaller). A wholly bold line standing alone, not ending a sentence, set at least
  // bold_heading_size_ratio of the body size is a heading with or without a number (a bold
  // heading half a point larger than 10-12 pt text is larger).
  double numbered_heading_size_ratio = 0.96;
  double bold_heading_size_ratio = 1.04;
  // A line goes on the block above it (a paragraph; a note over a page or column break,
  // where its box is drawn again) only in its size (typography::same_size): within this
  // share of the larger size. Looser than a step of the type scale: a line set mostly in a
  // run of inline code reads a point smaller; a heading or a footnote differs by more.
  double line_size_tolerance = 0.15;
  // The lines of one heading stand at most this many sizes apart (display type may be set
  // looser than 1.2 but not a blank line apart), ...
  double heading_line_pitch_ratio = 2.2;
  // ... and share its size (size_step_tolerance).
  // One size, not the next step of the book's type scale (steps are 10-20%: 9/10/11/12,
  // 10/12/14.4 pt): within this share of the larger size. The lines of a heading, of a
  // caption, and a table's first row under its bold header are in one size so.
  double size_step_tolerance = 0.1;
  // A note's run-in title ("Warning: ...") ends in a colon within this many characters of
  // the line's start (note titles are a word or three).
  size_t run_in_title_max_chars = 20;
  // A line wholly in bold monospace set this much larger than the book's code (ratio) is a
  // heading, not a listing: some styles set their headings in a typewriter face (HTML
  // manuals made by Texinfo print them so), and no listing grows bold and large.
  double mono_heading_ratio = 1.15;
  // A line indented by more than this share of the font size starts a paragraph
  // (\parindent is 1-1.5 em; glyph side bearings are < 0.2 em).
  double indent_ratio = 0.6;
  // A line ending this far (share of the font size) before the column's right edge is a
  // short line: the last line of a paragraph.
  double short_line_ratio = 2.0;
  // After a line that ends a sentence this many times short_line_ratio short of its column
  // (eight ems: the last line of a paragraph), a line at the same left edge starts a new
  // paragraph, set without an indent.
  double paragraph_end_short_factor = 4;
  // A paragraph's first line set in by less than this many times short_line_ratio counts
  // towards the book's paragraph indent (\parindent is 1-1.5 em; a line set in four ems or
  // more is a display), ...
  double indent_max_factor = 2;
  // ... which is the most common such indent once at least this many paragraphs show it.
  int book_indent_min_paragraphs = 3;
  // A line ending short of its column was ended on purpose when the next line's first word
  // and this many ems more would have fit after it (a space, counted generously).
  double wrap_space_ratio = 0.5;
  // ... judged only on a page column where at least this many prose lines end at one right
  // edge (justified text: its lines' measure is known).
  size_t min_justified_rows = 3;
  // ... and only between rows at least this many ems apart: closer rows are pieces of one
  // line (a radical sign, a fraction's parts), not lines.
  double min_line_pitch_ratio = 0.9;
  // Footnotes are set smaller than the body: at most this ratio of the body size.
  double footnote_size_ratio = 0.92;
  // The rule that sets footnotes off from the text: a line at most this high, in points,
  // starting at the column's edge, at least this wide and at most three quarters of the
  // column (LaTeX's is 0.4 pt by 0.4 of the column). A note under it may begin without a
  // mark: it goes on from the page before.
  double footnote_rule_height = 1.5;
  double footnote_rule_min_width = 20;
  double footnote_rule_max_share = 0.75;
  // The rule stands between the line above and the first note, within this many points of
  // each (glyph boxes may reach a little past the rule's place).
  double footnote_rule_slack = 1;
  // A caption starts within this many body sizes of its figure's edge.
  double caption_distance_ratio = 3.0;
  // A caption's next line is set as its lines are: flush with the line above or centred
  // under it, within this many sizes; or, under a full line, back at the column's edge or
  // hanging under the text after the label, within this share of the first line's width.
  double caption_align_tolerance = 0.5;
  double caption_hang_max_ratio = 0.35;
  // (A caption's next line is set in its size: size_step_tolerance.)
  // A caption over its figure is found from the rows just above the figure, walking up to
  // its label line through at most this many rows (a caption is a few lines).
  size_t caption_max_rows_above = 8;
  // Inside a code listing, a vertical gap of up to this many line pitches is still one
  // listing (blank lines inside code); a larger gap starts a new block.
  double max_code_blank_lines = 3.5;
  // ... the lines counted at this many font sizes each (listings are set at 1.2-1.25 of their
  // size).
  double code_line_pitch_ratio = 1.25;
  // A listing's own line pitch, whose whole numbers its gaps must be, is the median of its
  // row distances under this many times the least (a blank line makes twice the least).
  double listing_pitch_spread = 1.5;
  // A gap in a listing is blank lines when it is a whole number of the listing's line
  // pitches, give or take this share of one.
  double code_pitch_tolerance = 0.25;
  // A float (figure or table with its caption) set at the top of a page over the
  // continuation of a paragraph or listing is at most this many rows and figures...
  size_t max_float_items = 40;
  // ...and is separated from the text below by at least this share of the body size
  // (\textfloatsep is about 20 pt; the leading between lines is < 0.5 em).
  double float_separation_ratio = 0.8;
  // A listing with at least this many glyph-to-glyph distances measures its own advance
  // (fewer: the font's advance over the whole book).
  size_t min_advance_samples = 12;
  // ...and a listing with at least this many measures its own advance where the glyphs fit
  // its character cells better than the font's advance.
  size_t min_own_advance_samples = 3;
  // ...when its glyphs stand on average at most this share of a cell from the cell starts
  // (and half as far as by the font's advance).
  double cell_misfit = 0.1;
  // The advance of a monospace glyph, as a share of its size, where neither the book nor the
  // span measures it (the common typewriter faces advance 0.5-0.6 em).
  double mono_advance_ratio = 0.6;
  // A listing's line pitch is the median of its row distances at most this many times the
  // least (a blank line or a column break makes a larger one).
  double code_pitch_spread = 1.3;
  // Room at a page's foot or head, in line pitches, makes whole blank lines of a listing
  // rounded down after adding this share of a pitch (0.75 pitch is a line: the text
  // block's edge is not a baseline, so the room falls a little short of whole lines).
  double code_page_room_round = 0.25;
  // A listing's cell width is searched for between its least and greatest measure in steps of
  // at most one this-many-th of the least (a thousandth: well under the spread of glyph
  // positions over a line), ...
  int cell_search_fine_steps = 1000;
  // ... or in this many steps where the measures disagree more (the search stays bounded).
  int cell_search_steps = 200;

  // --- hyphenation ---
  // Fewest letters a typesetter leaves before / after a hyphenation break: no typesetter
  // leaves a single letter (InDesign and Word default to 2 or more on each side); TeX's
  // \lefthyphenmin is 2 and \righthyphenmin 3, applied to books whose producer is TeX.
  size_t min_hyphen_left = 2;
  size_t min_hyphen_right = 2;
  size_t tex_min_hyphen_right = 3;
  // Letters dropped from the end of a joined word (an inflection: "-ed", "-ing", "-s") to
  // look for the same word elsewhere in the book, keeping at least this many of the part
  // after the hyphen.
  size_t hyphen_stem_letters = 3;
  // A part seen in hyphenated compounds in at least this share of its uses forms compounds
  // ("dpkg-source"); a common word met once in a compound ("up-to-date") does not.
  double compound_part_share = 0.1;
  // Two parts of a line-end hyphen that the book has each on its own are a compound of two
  // words (rule j) when each has at least this many letters: a one-letter part ("a", "I")
  // is a word of every book and says nothing.
  size_t compound_word_min_letters = 2;
  // A book with at least this many lines of prose (six words or more) whose line-end
  // hyphens are none of them a syllable break does not hyphenate (HTML printed by a
  // browser, word processors and XSL-FO by default): its line-end hyphens are all kept.
  size_t unhyphenated_min_lines = 200;
  // A line of prose, for that count, holds at least this many words (a listing's line or a
  // heading holds fewer).
  size_t prose_line_min_words = 6;
  // The book speaks the dictionary's language when the dictionary knows at least half of the
  // book's this-many most frequent words ...
  size_t language_sample_words = 200;
  // ... of at least this many letters (short words are shared by languages, or are
  // abbreviations).
  size_t language_sample_min_letters = 4;

  // --- chapters and excluded matter ---
  // A page is a contents/index page when at least this share of its lines ends with a
  // page number (with dot leaders or in a right-aligned column).
  double page_number_line_share = 0.4;
  // A contents page's lines whose bottoms differ by less than this share of a line's height
  // are one row (a number, a title, leaders and a page number set as separate lines).
  double contents_row_tolerance = 0.3;
  // Dot leaders: at least this many leader characters in a row (TeX's \dotfill sets a dot
  // every 4.5 pt, so even a short leader has more; sentences end with one to three dots).
  size_t min_leader_chars = 4;
  // A page with fewer words of prose is display matter (a title or copyright page); a
  // preface page without a bookmark has more (a full page of text holds 300-500 words).
  size_t min_prose_page_words = 60;
  // Outline targets and block tops within this many points count as the same position.
  double outline_y_tolerance = 6;
  // ... or, for a heading, within this many of its sizes below its top (a destination may
  // point inside a large title's first line).
  double heading_anchor_reach_ratio = 0.75;
  // Outline anchors within this many points stand at the same height: chapters' openers put
  // their anchors at one place, give or take rounding.
  double opener_anchor_tolerance = 1.5;
  // A level-1 outline entry is a part, not a chapter, when at least this share of its
  // level-2 entries (several of them) open where chapters open: at the openers' height, on
  // a page of their own after it.
  double part_chapter_share = 2.0 / 3;
  // A heading is in the chapter-title size (heading sizes are counted to half a point) when
  // it is within this many points of it.
  double chapter_title_size_tolerance = 0.25;
  // In a document that runs on, where all of the largest heading size stand on its first two
  // pages (a title set twice), chapter titles are in the largest size that occurs at least
  // this many times.
  int run_title_min_count = 3;
  // A document runs on without page breaks between its chapters when at least this many
  // headings of the chapter-title size stand in it, most of them inside their pages.
  size_t flowing_min_titles = 3;

  // --- the title page (layout/src/title.cpp) ---
  // The title is looked for on the document's first pages ...
  int title_pages = 3;
  // ... in text at least this many times the page's body size (the size most of its
  // characters are set in) ...
  double title_size_ratio = 1.1;
  // (Text is in a size when within this share of it: one size, not the next size up or down.)
  double title_size_tolerance = 0.05;
  // ... of at most this many words. On a page of at most title_page_max_words words, the
  // page's smallest text is its body.
  size_t title_max_words = 20;
  size_t title_page_max_words = 60;
  // Text reads as a title when one of its words has at least this many letters (a lone
  // letter is an initial, a mark or a drop cap; digits and signs are a number or a code).
  size_t title_word_min_letters = 2;

  // --- tables (layout/src/blocks.cpp) ---
  // A table is a run of at least this many rows (a header and two body rows) ...
  size_t min_table_rows = 3;
  // ... each of at least this many cells (a two-cell row is more often a definition list:
  // a term and its description), ...
  size_t min_table_cells = 3;
  // ... or this many under a header row set wholly in bold at the size of the rows under it
  // (a term and its description have no header).
  size_t min_header_table_cells = 2;
  // ... cells of at most this many words (tables hold short values; prose runs on), but for
  // one cell per row (a description, whose lines wrap in its column) ...
  size_t max_table_cell_words = 8;
  // ... set apart by at least this many ems (word spaces are ~0.3 em; column separation
  // in typeset tables is 1-2 em), ...
  double min_cell_gap_ratio = 0.8;
  // ... or, in a ruled table (a rule within ruled_table_reach ems over the row and one under
  // it, each across the row), at least this many: the engine parts lines no closer than a
  // word space, and such tables may set their columns that close.
  double min_ruled_cell_gap_ratio = 0.25;
  // A table's first row set in a face of its own, no body cell's, is its header where at
  // least this many body rows show the body's face (in one face, or two).
  size_t min_face_header_body_rows = 3;
  // ... the body set in at most this many faces (a column of code beside one of prose; a
  // table of samples sets each row in a face of its own, and has no header for it).
  size_t table_body_max_faces = 2;
  // A table's first row printed again at the top of a later page is its header repeated
  // there, where no header was seen, if it has at least this many cells (one cell alone is
  // as likely a value that recurs).
  size_t table_repeat_min_cells = 2;
  double ruled_table_reach = 10;
  // ... with at least this many column edges (left or right, within edge_tolerance) shared
  // with the row before: columns are flush left or flush right (numbers).
  size_t min_shared_edges = 2;
  // (Under a bold header, a row in the header's size, size_step_tolerance, whose cells stand
  // in its columns is the table's first body row.)
  // Rows of a table follow one another at about the line pitch (~1.2 em), a blank row at
  // most: a larger baseline distance, in ems of the row's size, ends the table.
  double max_table_row_pitch = 2.4;
  // A rule under a table's first row rules off its header when it starts within this share
  // of the table's width from its left edge and ends within as much of its right edge: it
  // crosses the middle (a header rule runs across the columns; a cell's underline does not).
  double table_header_rule_span = 0.5;
  // A cell's text wraps onto the next line of its column at the table's line pitch: a line
  // of a column at most this many ems of its size below the one before, starting at its
  // left edge, whose first word would not have fitted after it (the rule of
  // broken_on_purpose, with the column's room), goes on in the same cell.
  double table_wrap_pitch_ratio = 1.5;
  // Cells are one row where their extents overlap (a cell set middle-aligned beside a
  // wrapped one starts below it). A line's extent is its letters': from this many ems of
  // its size above its baseline (about the x-height and a little) to this many below, so
  // that lines set one under the other at the line pitch (1.2 em) do not overlap, whatever
  // box the font gives its glyphs.
  double table_row_rise_ratio = 0.6;
  double table_row_drop_ratio = 0.1;

  // --- notes (layout/src/blocks.cpp) ---
  // A note (admonition, sidebar) is led by a title printed on a line of its own, before its
  // text on the line, or as the line's first words with a colon: one of these (compared
  // without case), with the kind of note it makes. The title is drawn in a box with the
  // note: inside a shaded box or a frame, beside a bar (a rule at the note's left, or between
  // a side title and its text), or under a rule with another under the note.
  std::vector<std::pair<std::string, std::string>> note_titles = {
      {"note", "note"},           {"notes", "note"},         {"tip", "tip"},
      {"tips", "tip"},            {"hint", "tip"},           {"warning", "warning"},
      {"danger", "warning"},      {"caution", "caution"},    {"attention", "caution"},
      {"important", "important"}, {"sidebar", "sidebar"},    {"back to basics", "sidebar"},
      {"security", "sidebar"},    {"in practice", "sidebar"}, {"going further", "sidebar"},
      {"quick look", "sidebar"},  {"specific case", "sidebar"}, {"community", "sidebar"},
      {"cultural", "sidebar"},    {"alternative", "sidebar"}};
  // A bar beside the title at most this many ems of its size away from it; a rule over it
  // at most this many ems above it (a box pads its text by half a line or so).
  double note_bar_reach_ratio = 4;
  double note_rule_gap_ratio = 2;
  // A note without box, bar or rules (XSL-FO's admonitions) is set in on both sides by at
  // least this many ems of the body size: its title on a row of its own and its lines start
  // at that inset and end short of the measure's right edge by as much.
  double note_inset_ratio = 1;

  // A line of at most this many words and characters (two at least, one a letter), not
  // monospace, set beside a paragraph of at least two lines (past a gap of this many font
  // sizes, its lines at most this many sizes apart) and centred on it, with no other line
  // beside the paragraph or starting where it starts, is the paragraph's side label (an
  // admonition's "NOTE"): it is read before the paragraph.
  size_t side_label_max_words = 2;
  size_t side_label_max_chars = 16;
  // ... and at least this many characters: a lone character beside a paragraph is a mark
  // or a bullet, not a label.
  size_t side_label_min_chars = 2;
  double side_label_gap_ratio = 1.5;
  double side_label_pitch_ratio = 1.6;
  // (The paragraph's lines but its last end within side_label_ragged_ratio label sizes of
  // its right edge; the label stands lower than its first baseline by more than
  // side_label_drop_ratio sizes, a hanging label, "[L94]", standing on that line, and is
  // centred on it within side_label_centre_share of its line pitch.)
  double side_label_ragged_ratio = 2;
  double side_label_drop_ratio = 0.5;
  double side_label_centre_share = 0.5;
  // (The block's edge is found from the lines within this many label sizes above and below
  // the label, and its first line may be indented by up to this many.)
  double side_label_reach_ratio = 6;
  double side_label_indent_ratio = 3;
  // No line but code starts at the label's left edge within this many times
  // side_label_reach_ratio label sizes of it (a list's tags, a table's first column do).
  double side_label_alone_reach_factor = 2;
  // A list's bullet drawn as a shape (browsers print discs and squares as paths): a mark
  // about as wide as high, between these shares of the font size on a side (a disc is
  // 0.3-0.4 em), its middle in the row's x-height, ending left of the row's first word by
  // at most `bullet_reach_ratio` of the font size.
  double bullet_min_ratio = 0.15;
  double bullet_max_ratio = 0.6;
  double bullet_reach_ratio = 2.5;
  // Its longer side is at most this many times its shorter (a dash or a bar is longer); its
  // middle stands between these shares of the font size above the baseline (a disc is
  // centred at about a quarter em, in the x-height); and it ends at least this share of the
  // font size before the row's first word (the space after a bullet is wider).
  double bullet_aspect_max = 1.5;
  double bullet_rise_min_ratio = 0.05;
  double bullet_rise_max_ratio = 0.75;
  double bullet_gap_min_ratio = 0.1;

  // --- figures (layout/src/figures.cpp) ---
  // Paths whose boxes lie within this gap, in points, belong to one drawing: arrows end at
  // their nodes' borders (TikZ's outer sep is half a line width), plot marks sit on axes.
  double figure_cluster_gap = 3;
  // Separate drawings closer than this, in points, are parts of one figure (sub-plots, a
  // diagram whose pieces are joined only by text); floats keep ~10 pt from body text.
  double figure_merge_gap = 6;
  // Drawings one above the other with no text between them, less than this many body sizes
  // apart, are one figure (see Finder::stacked in figures.cpp).
  double figure_stack_gap_ratio = 2.5;
  // A framed word or two (a diagram's node set apart from the rest: a circle with a name in
  // it) within this many body sizes of a figure is part of it (TikZ sets nodes 1 cm apart
  // by default). A framed note holds more words, and a listing more rows or monospace.
  double figure_node_gap_ratio = 3.0;
  int figure_node_max_words = 3;
  // A path at most this thick, in points, is a rule (table rule, underline, frame side,
  // header rule): TeX rules are 0.4 pt, heavy rules ~1.5 pt.
  double rule_max_thickness = 2;
  // ... and at least this long, in points; shorter thin marks (ticks, dashes) are drawing.
  double rule_min_length = 8;
  // A stroke's recorded box is its geometry padded by kStrokeBoxPad line widths on each side
  // (model.h); the geometry is recovered by undoing this many.
  double stroke_box_pad = kStrokeBoxPad;
  // A path spanning this share of a cluster's width (or, for a rule, of its height) is the
  // box, its background or its frame, not drawing inside it.
  double frame_span_ratio = 0.9;
  // A path at most this wide, in points, along a cluster's left or right side is a frame's
  // side, a rounded corner or a box's padding strip (boxes pad text by 3-10 pt).
  double frame_side_max = 12;
  // A box is a text box (code listing, note), not a figure, when its lines are code or prose:
  // this share of their characters monospace, or lines covering this share of the box
  // (a plot's or diagram's labels are sparse), ...
  double text_box_mono_share = 0.5;
  double text_box_cover_ratio = 0.3;
  // ... set one under the other: this share of them has a line above or below within the
  // paragraph gap (a diagram's labels stand apart), ...
  double text_box_stacked_share = 0.5;
  // ... and its other drawing covers under this share of it (an icon, a line-number rule).
  double figure_drawing_min_ratio = 0.15;
  // Flat shapes at most this many body sizes high, each behind a text of its own, are its
  // background, not figures, when they are also at most this wide (a section number's
  // coloured square) ...
  double badge_max_ratio = 3.0;
  // ... or when the text spans this share of their width (a highlighted word).
  double highlight_text_share = 0.6;
  // (A line stands on the shape when it shares this share of its height with it; a glyph of
  // unknown width is taken to be this share of its size wide, about a letter's width.)
  double badge_line_share = 0.5;
  double badge_glyph_width_ratio = 0.5;
  // A lone flat shape with one row of text on it, at most this many times the text's size
  // high, the text starting at most as many sizes from its left edge, is that text's
  // banner (a heading set on a coloured band), not a figure.
  double banner_max_ratio = 4.0;
  // Filled shapes, at most this many, that all run past the page's left or right edge are a
  // bar (a chapter opening's band, a thumb index's tab), not a figure.
  size_t bar_max_shapes = 3;
  // A path covering this share of the page area is a page background, not a figure: a
  // figure stays within the text block (~60% of a page).
  double page_background_ratio = 0.8;
  // A picture at most this many body sizes wide and high with a line of text beside it, at
  // most icon_text_gap_ratio body sizes to its right and on its lines, is that text's icon
  // (a note's or warning's sign: DocBook prints 24-36 pt ones), not a figure.
  // The text beside it, starting on its lines, is running text: at least
  // icon_text_min_chars characters in the body type (a drawing's labels are short or set
  // smaller).
  double icon_max_ratio = 5.0;
  double icon_text_gap_ratio = 3.0;
  size_t icon_text_min_chars = 20;
  // (A line is beside the icon when it shares this share of the lower one's height with it;
  // the text goes on in lines under it whose tops stand at most icon_text_overlap_ratio
  // body sizes above the bottom of the line before, glyph boxes of lines overlapping.)
  double icon_line_share = 0.5;
  double icon_text_overlap_ratio = 0.5;
  // A line mostly in the book's body type (its size, not monospace), at least this share of
  // the body text's measure wide and of at least this many words, is prose, never a
  // figure's label: labels are short or set apart, and a line of running text across the
  // measure holds 8-15 words (a few large letters across it are a display).
  double prose_measure_ratio = 0.6;
  size_t prose_min_words = 4;
  // ... at least this share of its characters in the body type ("mostly").
  double prose_body_type_share = 0.5;
  // A figure is raster when its images cover at least this share of it.
  double raster_share = 0.5;
  // Images at most this many pixels in width or height are spacers or rules.
  int spacer_max_pixels = 2;
  // A text line is a figure label when this share of its box lies inside the drawing.
  double label_inside_ratio = 0.6;
  // Short lines (tick labels, axis names) within this gap of a drawing, in points, are its
  // labels too; body text keeps a float separation (~10-12 pt) from a figure.
  double label_attach_gap = 3;
  // ... when they have at most this many characters (a tick value, an axis name).
  int label_max_chars = 24;
  // Short lines whose size differs from the page's body size by more than this ratio are
  // a drawing's own lettering, and join it from up to label_near_gap points away (plot
  // programs set tick values and axis titles 4-14 pt outside the axes).
  double label_size_ratio = 0.15;
  double label_near_gap = 14;
  // A figure caption ("Figure 3-2: ...") with drawing above it: what is drawn between the
  // caption and the text above it is one figure, and the short lines there its labels
  // (line-art tools such as groff's pic draw a diagram as separate strokes, circles and
  // arrows with words between them). The text above ends at a line this share of the text
  // block's width or wider (a label is short), and the zone is left alone when a line in
  // it is longer than label_max_chars or set in monospace (text beside a figure, or a
  // listing that is the figure).
  double caption_zone_body_ratio = 0.6;
  // ... and a short line at most this many body sizes below that text, starting where it
  // or the text block starts, is its last line (line spacing leaves 0.1-0.3 of a size).
  double caption_zone_tail_gap_ratio = 0.6;
  // ... and a line starting within this many body sizes of the text block's left edge,
  // above all of the zone's drawing, leads into the figure ("It yields the following:").
  double caption_zone_margin_ratio = 0.2;
  // Drawings lying entirely in this share of the page height at the top or bottom are no
  // figure: a head's or a footer's decoration (what a page style draws on many pages clean
  // has taken off already; this is what a page draws once, an opener's band).
  double furniture_band_ratio = 0.08;
  // The crop box is the drawing's box grown by this, in points, so anti-aliased edges and
  // line caps stay in; the render is then trimmed to the ink.
  double figure_crop_margin = 1.5;

  // --- inline styles and links ---
  // A font flag (monospace, bold, italic) of a run of words is the block's own, not a style,
  // where at least this share of the block's other words carry it too (a block set in that
  // font throughout), or, for bold and italic (and any font of a heading), where the run is
  // at least this share of the block's words (a heading, a glossary term, an epigraph).
  double own_font_share = 0.6;
  // ... the first test asks for at least this many other words: in a shorter block one
  // run in another font (an item that names an option) is that style.
  size_t own_font_min_others = 3;
  // A character of a block's text is matched to the glyph it was made from among this many
  // glyphs ahead: the text leaves out only joined words' hyphens and note marks (three
  // characters at most) between two of its characters.
  size_t inline_match_window = 8;
  // An internal link leads to the heading or figure that starts at most this many points
  // below the place it points at (hyperref and others set a destination a line or two above
  // a heading's top), else to the last one above it.
  double anchor_reach = 30;
  // Anchor ids are at most this many characters (before a "-2" that tells repeats apart).
  size_t max_anchor_chars = 60;
};

}  // namespace quire
