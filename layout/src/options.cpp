#include "quire/layout.h"

namespace quire {

namespace {

// Every field of LayoutOptions but jobs (threads: the result is the same at any count) and
// note_titles (a list of words).
// Each reason is the gist of the field's comment in quire/layout.h, where the whole argument is.
constexpr OptionField<LayoutOptions> kTable[] = {
    {"keep_matter", &LayoutOptions::keep_matter, "-",
     "Keep the title page, contents, index... as chapters (--keep-matter)."},
    {"paragraph_gap_ratio", &LayoutOptions::paragraph_gap_ratio, "ratio of font size",
     "Two lines belong to one paragraph when the gap between them is under this (leading is ~1.2x the size: a gap "
     "of 0.2-0.5x is normal)."},
    {"paragraph_space_ratio", &LayoutOptions::paragraph_space_ratio, "ratio of font size",
     "After a sentence's end, a line this much farther than the usual line pitch starts a paragraph (space between "
     "paragraphs, not indents)."},
    {"short_line_space_ratio", &LayoutOptions::short_line_space_ratio, "ratio of font size",
     "After a line that ends short of the measure, a line this much farther than the usual line pitch starts a new "
     "block (a list item's title line over its text, a one-line description over the next term)."},
    {"max_term_rows", &LayoutOptions::max_term_rows, "lines",
     "A definition list's term is at most this many lines at one edge, ending short of the column, with its "
     "description set in under it."},
    {"max_term_words", &LayoutOptions::max_term_words, "words",
     "A definition list's term names something in at most this many words (a longer line is a sentence's)."},
    {"term_gap_ratio", &LayoutOptions::term_gap_ratio, "ratio of font size",
     "A term set on its description's row stands at least this far before it (far more than a word space)."},
    {"term_lookahead", &LayoutOptions::term_lookahead, "blocks",
     "A definition list repeats its shape: the next term at the same edge, its description at the same indent, at "
     "most this many blocks further."},
    {"sentence_min_words", &LayoutOptions::sentence_min_words, "words",
     "A term's last line ending in a full stop is a sentence, not a term, when it holds at least this many words."},
    {"term_indent_max_share", &LayoutOptions::term_indent_max_share, "share of column width",
     "A term and its description on one row: the description starts at most this far past the term's edge (further "
     "in, a table's row)."},
    {"min_figure_side", &LayoutOptions::min_figure_side, "pt",
     "Minimum size of a vector-path cluster to be a figure, in points: rules and underlines are thinner than this "
     "in one direction."},
    {"figure_dpi", &LayoutOptions::figure_dpi, "dpi",
     "Figure crop rendering resolution (used by export, kept here so one options struct describes the figure policy)."},
    {"hyphen_dictionary", &LayoutOptions::hyphen_dictionary, "path",
     "Hunspell dictionary (PREFIX.aff, PREFIX.dic) for line-end hyphens the book's own words leave undecided; "
     "empty: none."},
    {"hyphen_patterns", &LayoutOptions::hyphen_patterns, "path",
     "Hyphenation patterns (libhyphen's .dic, of the dictionary's language) for the same hyphens: a break the "
     "patterns do not allow is a hyphen of the word."},
    {"same_row_ratio", &LayoutOptions::same_row_ratio, "ratio of font size",
     "Two lines share a row when their baselines differ by less than this (superscripts sit ~0.35 em high; the "
     "next line >= 1 em lower)."},
    {"min_gutter", &LayoutOptions::min_gutter, "pt",
     "A column gutter must be at least this wide, in points (LaTeX's \\columnsep is 10 pt; the gap between two "
     "words is under 0.5 em, about 5 pt)."},
    {"gutter_glyph_reach", &LayoutOptions::gutter_glyph_reach, "pt",
     "A glyph box may reach this far into a gutter from the line beside it (side bearings, an italic overhang)."},
    {"gutter_part_crossing_share", &LayoutOptions::gutter_part_crossing_share, "share of max_gutter_crossing",
     "A strip reaching into a column gives its least crossed part as the gutter only when a few spanning rows cross it."},
    {"gutter_part_slack_divisor", &LayoutOptions::gutter_part_slack_divisor, "parts of the crossing limit",
     "...the parts asked are crossed by at most 1/N of that limit (one line at least) more than the least."},
    {"paired_row_share", &LayoutOptions::paired_row_share, "share of lines",
     "A side whose lines stand this often on the other side's baselines is a table's rows, not a listing beside prose."},
    {"justified_left_share", &LayoutOptions::justified_left_share, "share of lines",
     "A narrower strip than the widest is a gutter only where this share of the lines left of it end together ..."},
    {"justified_left_reach_ratio", &LayoutOptions::justified_left_reach_ratio, "ratio of min_gutter",
     "...at an edge at most this far left of the strip (a column's edge borders its gutter)."},
    {"max_gutter_crossing", &LayoutOptions::max_gutter_crossing, "share of lines",
     "A gutter may be crossed by at most this share of a page's lines (spanning headings and figures cross it; the "
     "text of a column never does)."},
    {"gutter_ruled_rows_share", &LayoutOptions::gutter_ruled_rows_share, "share of rows",
     "Nor is a strip a gutter where at least min_column_lines horizontal rules cross it between the lines of both "
     "sides, as many as this share of the rows (lines on distinct baselines) of the side with fewer: a table ruled "
     "row by row."},
    {"table_row_pair_share", &LayoutOptions::table_row_pair_share, "share of lines",
     "Nor is a strip a gutter where this share of each side's lines stand on the other side's baselines ..."},
    {"column_reach_ratio", &LayoutOptions::column_reach_ratio, "em",
     "...and the lines beside it fall short of the book's measure on the outside by more than this: a table's "
     "columns (a page's columns fill the measure)."},
    {"max_cell_words_beside", &LayoutOptions::max_cell_words_beside, "words",
     "...or one side holds several lines to most baselines, the middle one of at most this many words: cells."},
    {"gutter_min_span", &LayoutOptions::gutter_min_span, "pt",
     "A page's lines must span at least this to hold two columns of lines of several words."},
    {"gutter_from_share", &LayoutOptions::gutter_from_share, "share of line span",
     "A gutter starts no nearer the left of the lines' span than this (a strip near an edge is a margin beside a "
     "label)."},
    {"gutter_to_share", &LayoutOptions::gutter_to_share, "share of line span",
     "A gutter starts no farther right than this share of the lines' span (unequal columns still leave it near the "
     "middle)."},
    {"min_column_lines", &LayoutOptions::min_column_lines, "lines",
     "Each column needs at least this many lines whose left edges align (within `edge_tolerance`): a real column "
     "has a flush left edge."},
    {"short_column_width_ratio", &LayoutOptions::short_column_width_ratio, "share of column width",
     "A short last column beside a whole one needs a line this wide: a justified paragraph's line, not a page number."},
    {"min_justified_line_words", &LayoutOptions::min_justified_line_words, "words",
     "Beside a column of code, the prose side needs min_column_lines lines of this many words ending together (a "
     "table's cells hold a few)."},
    {"same_baseline", &LayoutOptions::same_baseline, "pt",
     "Code-side lines sharing baselines within this with the prose side (a third or more) are a table's rows, not "
     "a column."},
    {"edge_tolerance", &LayoutOptions::edge_tolerance, "pt",
     "Positions within this many points count as the same edge (glyph boxes vary ~1 pt)."},
    {"edge_bin", &LayoutOptions::edge_bin, "pt",
     "The most common edge of a set of lines is looked for in bins this wide (one edge's glyph boxes vary ~1 pt)."},
    {"justified_margin_share", &LayoutOptions::justified_margin_share, "share of lines",
     "The body is justified when this share of its lines end at one right edge; that edge then bounds a column a "
     "listing runs past."},
    {"body_size_tolerance", &LayoutOptions::body_size_tolerance, "pt",
     "A line or a size within this of the body size is in the body size (a book's next size is a point or more "
     "away)."},
    {"line_pitch_bin", &LayoutOptions::line_pitch_bin, "pt",
     "The book's line pitch is the most common step between body lines, in bins this wide (pitches are given to 0.1 "
     "pt)."},
    {"text_block_bin", &LayoutOptions::text_block_bin, "pt",
     "The text block's first and last baselines per page parity are the most common ones, in bins this wide."},
    {"overwide_line_start_share", &LayoutOptions::overwide_line_start_share, "share of column width",
     "A left column's line set too wide (a word that would not break) starts within this of the column's edge ..."},
    {"overwide_line_pitch_ratio", &LayoutOptions::overwide_line_pitch_ratio, "ratio of line height",
     "...with a full line of the column within this many of its heights above or below it."},
    {"flush_end_min_lines", &LayoutOptions::flush_end_min_lines, "lines",
     "A gutter's side whose lines end together, half or more at edges this many lines share, is justified prose, not "
     "cells."},
    {"long_line_share", &LayoutOptions::long_line_share, "share of column width",
     "A line ending this near its column's right edge is long: in an indented passage, where no line is full, a "
     "long line goes on."},
    {"heading_size_ratio", &LayoutOptions::heading_size_ratio, "ratio of body size",
     "A line set this much larger than the body size (ratio) is a heading."},
    {"numbered_heading_max_width", &LayoutOptions::numbered_heading_max_width, "share of column width",
     "A wholly bold line in the body size that starts with a section number is a heading when it ends short of "
     "this share of its column's width."},
    {"numbered_heading_size_ratio", &LayoutOptions::numbered_heading_size_ratio, "ratio of body size",
     "A numbered bold line counts as in the body size from this ratio of it (a bold face measured a little smaller)."},
    {"bold_heading_size_ratio", &LayoutOptions::bold_heading_size_ratio, "ratio of body size",
     "A wholly bold line standing alone, not ending a sentence, at least this ratio of the body size is a heading."},
    {"line_size_tolerance", &LayoutOptions::line_size_tolerance, "ratio of larger size",
     "A line goes on the block above it (a paragraph, a note over a break) only within this share of the larger "
     "size (a line mostly in inline code reads smaller; a heading or footnote differs more)."},
    {"heading_line_pitch_ratio", &LayoutOptions::heading_line_pitch_ratio, "ratio of font size",
     "The lines of one heading stand at most this many sizes apart (looser than 1.2, not a blank line apart)."},
    {"size_step_tolerance", &LayoutOptions::size_step_tolerance, "ratio of larger size",
     "One size, not the next step of the type scale: the lines of a heading or a caption, a table's row under its "
     "bold header."},
    {"run_in_title_max_chars", &LayoutOptions::run_in_title_max_chars, "characters",
     "A note's run-in title (\"Warning: ...\") ends in a colon within this many characters of the line's start."},
    {"mono_heading_ratio", &LayoutOptions::mono_heading_ratio, "ratio of code size",
     "A wholly bold monospace line this much larger than the book's code is a heading (Texinfo's typewriter "
     "headings), not a listing."},
    {"indent_ratio", &LayoutOptions::indent_ratio, "ratio of font size",
     "A line indented by more than this share of the font size starts a paragraph (\\parindent is 1-1.5 em; glyph "
     "side bearings are < 0.2 em)."},
    {"short_line_ratio", &LayoutOptions::short_line_ratio, "ratio of font size",
     "A line ending this far (share of the font size) before the column's right edge is a short line: the last "
     "line of a paragraph."},
    {"paragraph_end_short_factor", &LayoutOptions::paragraph_end_short_factor, "times short_line_ratio",
     "After a sentence's end this far short of the column (a paragraph's last line), a line at the same edge starts "
     "a paragraph."},
    {"indent_max_factor", &LayoutOptions::indent_max_factor, "times short_line_ratio",
     "A first line set in less than this counts towards the book's paragraph indent (set in further: a display)."},
    {"book_indent_min_paragraphs", &LayoutOptions::book_indent_min_paragraphs, "paragraphs",
     "The book's paragraph indent is the most common first-line indent once this many paragraphs show it."},
    {"wrap_space_ratio", &LayoutOptions::wrap_space_ratio, "em",
     "A short line was ended on purpose when the next line's first word and this much space would have fitted "
     "after it."},
    {"min_justified_rows", &LayoutOptions::min_justified_rows, "lines",
     "Ended-on-purpose is judged only in a page column where this many prose lines end at one right edge "
     "(justified text)."},
    {"min_line_pitch_ratio", &LayoutOptions::min_line_pitch_ratio, "em",
     "...and only between rows this far apart: closer rows are pieces of one line (a radical sign, a fraction's "
     "parts)."},
    {"footnote_size_ratio", &LayoutOptions::footnote_size_ratio, "ratio of body size",
     "Footnotes are set smaller than the body: at most this ratio of the body size."},
    {"footnote_rule_height", &LayoutOptions::footnote_rule_height, "pt",
     "The footnote rule is a line at most this high starting at the column's edge (LaTeX's is 0.4 pt)."},
    {"footnote_rule_min_width", &LayoutOptions::footnote_rule_min_width, "pt",
     "...at least this wide; a note under it may go on from the page before."},
    {"footnote_rule_max_share", &LayoutOptions::footnote_rule_max_share, "share of column width",
     "...and at most this share of its column (a rule across the column parts other things)."},
    {"footnote_rule_slack", &LayoutOptions::footnote_rule_slack, "pt",
     "The footnote rule stands between the line above and the first note, within this of each."},
    {"caption_distance_ratio", &LayoutOptions::caption_distance_ratio, "ratio of body size",
     "A caption starts within this many body sizes of its figure's edge."},
    {"caption_align_tolerance", &LayoutOptions::caption_align_tolerance, "em",
     "A caption's next line is flush with the line above or centred under it within this."},
    {"caption_hang_max_ratio", &LayoutOptions::caption_hang_max_ratio, "share of line width",
     "...or, under a full line, back at the column's edge or hanging under the text after the label within this "
     "share of the line."},
    {"caption_max_rows_above", &LayoutOptions::caption_max_rows_above, "rows",
     "A caption over its figure is found walking up from the rows above the figure to its label line, at most this "
     "many rows."},
    {"max_code_blank_lines", &LayoutOptions::max_code_blank_lines, "line pitches",
     "Inside a code listing, a vertical gap of up to this many line pitches is still one listing (blank lines "
     "inside code); a larger gap starts a new block."},
    {"code_line_pitch_ratio", &LayoutOptions::code_line_pitch_ratio, "ratio of font size",
     "...those lines counted at this many font sizes each (listings are set at 1.2-1.25 of their size)."},
    {"listing_pitch_spread", &LayoutOptions::listing_pitch_spread, "ratio of least row distance",
     "A listing's own pitch, whose whole numbers its gaps are, is the median of its row distances under this many "
     "times the least."},
    {"code_pitch_tolerance", &LayoutOptions::code_pitch_tolerance, "share of line pitch",
     "A gap in a listing is blank lines when it is a whole number of the listing's line pitches, give or take this "
     "share of one."},
    {"max_float_items", &LayoutOptions::max_float_items, "items",
     "A float set over the continuation of a paragraph or listing at a page's top is at most this many rows and "
     "figures."},
    {"float_separation_ratio", &LayoutOptions::float_separation_ratio, "ratio of body size",
     "...and stands this far above the text below it (\\textfloatsep is about 20 pt; leading is < 0.5 em)."},
    {"min_advance_samples", &LayoutOptions::min_advance_samples, "distances",
     "A listing with at least this many glyph-to-glyph distances measures its own advance (fewer: the font's "
     "advance over the whole book)."},
    {"min_own_advance_samples", &LayoutOptions::min_own_advance_samples, "distances",
     "A listing with this many glyph distances measures its own advance where its glyphs fit the cells better than "
     "the font's."},
    {"cell_misfit", &LayoutOptions::cell_misfit, "share of cell",
     "...when its glyphs stand on average at most this far from the cell starts (and half as far as by the font's "
     "advance)."},
    {"mono_advance_ratio", &LayoutOptions::mono_advance_ratio, "ratio of font size",
     "A monospace glyph's advance where neither the book nor the span measures it (typewriter faces advance "
     "0.5-0.6 em)."},
    {"code_pitch_spread", &LayoutOptions::code_pitch_spread, "ratio of least row distance",
     "A listing's line pitch is the median of its row distances at most this many times the least (a blank line or "
     "a column break makes a larger one)."},
    {"code_page_room_round", &LayoutOptions::code_page_room_round, "share of line pitch",
     "Room at a page's head or foot makes whole blank lines of a listing rounded down after adding this (the block "
     "edge is no baseline)."},
    {"cell_search_fine_steps", &LayoutOptions::cell_search_fine_steps, "steps",
     "A listing's cell width is searched for in steps of at most 1/N of its least measure (a thousandth) ..."},
    {"cell_search_steps", &LayoutOptions::cell_search_steps, "steps",
     "...or in this many steps where the measures disagree more (the search stays bounded)."},
    {"min_hyphen_left", &LayoutOptions::min_hyphen_left, "letters",
     "Fewest letters a typesetter leaves before a hyphenation break (InDesign and Word: 2 or more)."},
    {"min_hyphen_right", &LayoutOptions::min_hyphen_right, "letters",
     "Fewest letters a typesetter leaves after a hyphenation break (InDesign and Word: 2 or more)."},
    {"tex_min_hyphen_right", &LayoutOptions::tex_min_hyphen_right, "letters",
     "Fewest letters after a break in books made by TeX (\\righthyphenmin is 3)."},
    {"hyphen_stem_letters", &LayoutOptions::hyphen_stem_letters, "letters",
     "Letters of the part after a hyphen kept when an inflection (-ed, -ing, -s) is dropped to find the word "
     "elsewhere in the book."},
    {"compound_part_share", &LayoutOptions::compound_part_share, "share of uses",
     "A part seen in hyphenated compounds in this share of its uses forms compounds (\"dpkg-source\"); one met "
     "once (\"up-to-date\") does not."},
    {"compound_word_min_letters", &LayoutOptions::compound_word_min_letters, "letters",
     "Both parts of a line-end hyphen seen alone in the book make a compound when each has this many letters (\"a\" "
     "is in every book)."},
    {"unhyphenated_min_lines", &LayoutOptions::unhyphenated_min_lines, "lines",
     "A book with this many prose lines whose line-end hyphens are none a syllable break does not hyphenate: its "
     "hyphens are all kept."},
    {"prose_line_min_words", &LayoutOptions::prose_line_min_words, "words",
     "A line of prose, for that count, holds at least this many words (a listing's line or a heading holds fewer)."},
    {"language_sample_words", &LayoutOptions::language_sample_words, "words",
     "The book speaks the dictionary's language when the dictionary knows half of its this-many most frequent words "
     "..."},
    {"language_sample_min_letters", &LayoutOptions::language_sample_min_letters, "letters",
     "...of at least this many letters (short words are shared by languages, or are abbreviations)."},
    {"page_number_line_share", &LayoutOptions::page_number_line_share, "share of lines",
     "A page is a contents/index page when at least this share of its lines ends with a page number (with dot "
     "leaders or in a right-aligned column)."},
    {"contents_row_tolerance", &LayoutOptions::contents_row_tolerance, "share of line height",
     "A contents page's lines whose bottoms differ by less than this share of a line's height are one row."},
    {"min_leader_chars", &LayoutOptions::min_leader_chars, "characters",
     "Dot leaders are at least this many leader characters in a row (sentences end with one to three dots)."},
    {"min_prose_page_words", &LayoutOptions::min_prose_page_words, "words",
     "A page with fewer words of prose is display matter (title, copyright); a full page of text holds 300-500 words."},
    {"outline_y_tolerance", &LayoutOptions::outline_y_tolerance, "pt",
     "Outline targets and block tops within this many points count as the same position."},
    {"heading_anchor_reach_ratio", &LayoutOptions::heading_anchor_reach_ratio, "ratio of heading size",
     "...or, for a heading, within this many of its sizes below its top (a destination inside a large title's first "
     "line)."},
    {"opener_anchor_tolerance", &LayoutOptions::opener_anchor_tolerance, "pt",
     "Outline anchors within this stand at the same height: chapters' openers put their anchors at one place."},
    {"chapter_title_size_tolerance", &LayoutOptions::chapter_title_size_tolerance, "pt",
     "A heading is in the chapter-title size (sizes counted to half a point) when within this of it."},
    {"run_title_min_count", &LayoutOptions::run_title_min_count, "headings",
     "Where the largest heading size stands only on a running document's first two pages, titles are in the largest "
     "occurring this often."},
    {"part_chapter_share", &LayoutOptions::part_chapter_share, "share of entries",
     "A level-1 outline entry is a part when this share of its level-2 entries open where chapters open (at the "
     "openers' height)."},
    {"flowing_min_titles", &LayoutOptions::flowing_min_titles, "headings",
     "A document runs on without page breaks between chapters when this many chapter-size headings stand in it, most "
     "inside pages."},
    {"title_pages", &LayoutOptions::title_pages, "pages",
     "The title page is looked for among this many first pages."},
    {"title_size_ratio", &LayoutOptions::title_size_ratio, "ratio of body size",
     "A title is set at least this many times the page's body size."},
    {"title_size_tolerance", &LayoutOptions::title_size_tolerance, "ratio of font size",
     "The title's words are the text within this share of its size: one size, not the next up or down."},
    {"title_max_words", &LayoutOptions::title_max_words, "words",
     "A title has at most this many words (a display quotation has more)."},
    {"title_page_max_words", &LayoutOptions::title_page_max_words, "words",
     "On a page of at most this many words, the page's smallest text is its body."},
    {"title_word_min_letters", &LayoutOptions::title_word_min_letters, "letters",
     "Text reads as a title when a word of it has this many letters (a lone letter is an initial or a mark)."},
    {"min_table_rows", &LayoutOptions::min_table_rows, "rows",
     "A table is a run of at least this many rows (a header and two body rows)."},
    {"min_table_cells", &LayoutOptions::min_table_cells, "cells",
     "...each of at least this many cells (a two-cell row is more often a term and its description)."},
    {"min_header_table_cells", &LayoutOptions::min_header_table_cells, "cells",
     "...or this many under a wholly bold header row of the rows' size (a definition list has no header)."},
    {"max_table_cell_words", &LayoutOptions::max_table_cell_words, "words",
     "Cells hold at most this many words, but for one per row (tables hold short values; prose runs on)."},
    {"min_cell_gap_ratio", &LayoutOptions::min_cell_gap_ratio, "em",
     "Cells are set apart by at least this (word spaces are ~0.3 em; table columns 1-2 em)."},
    {"min_ruled_cell_gap_ratio", &LayoutOptions::min_ruled_cell_gap_ratio, "em",
     "In a ruled table, cells may stand as close as this: the engine parts lines no closer than a word space."},
    {"min_face_header_body_rows", &LayoutOptions::min_face_header_body_rows, "rows",
     "A first row set in a face no body cell uses heads its table where at least this many body rows show the body's "
     "face (one, or two: code beside prose)."},
    {"table_body_max_faces", &LayoutOptions::table_body_max_faces, "faces",
     "...the body set in at most this many faces (code beside prose; a table of samples has a face a row, no header)."},
    {"table_repeat_min_cells", &LayoutOptions::table_repeat_min_cells, "cells",
     "A first row printed again at the top of a later page of its table is the header repeated, if it has this many "
     "cells."},
    {"ruled_table_reach", &LayoutOptions::ruled_table_reach, "em",
     "A row is in a ruled table when a rule within this distance over it and another under it reach across it."},
    {"min_shared_edges", &LayoutOptions::min_shared_edges, "edges",
     "A table row shares at least this many column edges with the row before (columns are flush left or right)."},
    {"max_table_row_pitch", &LayoutOptions::max_table_row_pitch, "em",
     "Rows follow at about the line pitch (~1.2 em), a blank row at most: a larger baseline distance ends the table."},
    {"table_header_rule_span", &LayoutOptions::table_header_rule_span, "share of table width",
     "A rule under a table's first row rules off its header when it crosses the middle: starts and ends within "
     "this of the table's edges."},
    {"table_wrap_pitch_ratio", &LayoutOptions::table_wrap_pitch_ratio, "em",
     "A cell's text goes on on the next line of its column at most this far below, starting at its left edge."},
    {"table_row_rise_ratio", &LayoutOptions::table_row_rise_ratio, "em",
     "A line's extent, for cells to share a row, reaches this far above its baseline (about the x-height and a "
     "little)."},
    {"table_row_drop_ratio", &LayoutOptions::table_row_drop_ratio, "em",
     "...and this far below it, so lines one pitch apart (1.2 em) do not overlap, whatever box the font gives its "
     "glyphs."},
    {"note_bar_reach_ratio", &LayoutOptions::note_bar_reach_ratio, "em",
     "A bar beside a note's title stands at most this far from it (a box pads its text by half a line or so)."},
    {"note_rule_gap_ratio", &LayoutOptions::note_rule_gap_ratio, "em",
     "A rule over a note's title stands at most this far above it."},
    {"note_inset_ratio", &LayoutOptions::note_inset_ratio, "em",
     "A note without box, bar or rules is set in on both sides by at least this: its own-row title and its lines."},
    {"side_label_max_words", &LayoutOptions::side_label_max_words, "words",
     "A side label (an admonition's \"NOTE\" beside its paragraph) has at most this many words."},
    {"side_label_max_chars", &LayoutOptions::side_label_max_chars, "characters",
     "...and at most this many characters."},
    {"side_label_min_chars", &LayoutOptions::side_label_min_chars, "characters",
     "...and at least this many: a lone character beside a paragraph is a mark or a bullet."},
    {"side_label_gap_ratio", &LayoutOptions::side_label_gap_ratio, "ratio of font size",
     "A side label stands at least this far from the paragraph it labels."},
    {"side_label_pitch_ratio", &LayoutOptions::side_label_pitch_ratio, "ratio of font size",
     "The labelled paragraph's lines are at most this far apart."},
    {"side_label_ragged_ratio", &LayoutOptions::side_label_ragged_ratio, "ratio of label size",
     "The labelled paragraph's lines but its last end within this of its right edge."},
    {"side_label_drop_ratio", &LayoutOptions::side_label_drop_ratio, "ratio of label size",
     "The label stands lower than the paragraph's first baseline by more than this (a hanging label stands on it)."},
    {"side_label_centre_share", &LayoutOptions::side_label_centre_share, "share of line pitch",
     "...and is centred on the paragraph within this share of its line pitch."},
    {"side_label_reach_ratio", &LayoutOptions::side_label_reach_ratio, "ratio of label size",
     "The labelled block's edge is found from the lines this far above and below the label."},
    {"side_label_indent_ratio", &LayoutOptions::side_label_indent_ratio, "ratio of label size",
     "...and the block's first line may be indented by up to this."},
    {"side_label_alone_reach_factor", &LayoutOptions::side_label_alone_reach_factor, "times side_label_reach_ratio",
     "No line but code starts at the label's left edge within this many reaches of it (a list's tags, a table's "
     "column)."},
    {"bullet_min_ratio", &LayoutOptions::bullet_min_ratio, "ratio of font size",
     "A bullet drawn as a shape (browsers print discs as paths) is at least this wide (a disc is 0.3-0.4 em)."},
    {"bullet_max_ratio", &LayoutOptions::bullet_max_ratio, "ratio of font size",
     "...and at most this wide."},
    {"bullet_reach_ratio", &LayoutOptions::bullet_reach_ratio, "ratio of font size",
     "...ending at most this far left of the row's first word."},
    {"bullet_aspect_max", &LayoutOptions::bullet_aspect_max, "ratio of sides",
     "A drawn bullet's longer side is at most this many times its shorter (a dash or a bar is longer)."},
    {"bullet_rise_min_ratio", &LayoutOptions::bullet_rise_min_ratio, "ratio of font size",
     "Its middle stands at least this far above the baseline ..."},
    {"bullet_rise_max_ratio", &LayoutOptions::bullet_rise_max_ratio, "ratio of font size",
     "...and at most this far (in the x-height: a disc is centred about a quarter em up)."},
    {"bullet_gap_min_ratio", &LayoutOptions::bullet_gap_min_ratio, "ratio of font size",
     "It ends at least this far before the row's first word (the space after a bullet is wider)."},
    {"figure_cluster_gap", &LayoutOptions::figure_cluster_gap, "pt",
     "Paths whose boxes lie within this gap are one drawing: arrows end at their nodes' borders, plot marks sit on "
     "axes."},
    {"figure_merge_gap", &LayoutOptions::figure_merge_gap, "pt",
     "Drawings closer than this are parts of one figure (sub-plots); floats keep ~10 pt from body text."},
    {"figure_stack_gap_ratio", &LayoutOptions::figure_stack_gap_ratio, "ratio of body size",
     "Drawings one above the other with no text between them, less than this many body sizes apart, are one figure "
     "(see Finder::stacked in figures.cpp)."},
    {"figure_node_gap_ratio", &LayoutOptions::figure_node_gap_ratio, "ratio of body size",
     "A framed word or two within this of a figure is a node of it (TikZ sets nodes 1 cm apart by default)."},
    {"figure_node_max_words", &LayoutOptions::figure_node_max_words, "words",
     "A diagram's framed node holds at most this many words (a framed note holds more)."},
    {"rule_max_thickness", &LayoutOptions::rule_max_thickness, "pt",
     "A path at most this thick, in points, is a rule (table rule, underline, frame side, header rule): TeX rules "
     "are 0.4 pt, heavy rules ~1.5 pt."},
    {"rule_min_length", &LayoutOptions::rule_min_length, "pt",
     "A thin path at least this long is a rule; shorter thin marks (ticks, dashes) are drawing."},
    {"stroke_box_pad", &LayoutOptions::stroke_box_pad, "line widths",
     "A stroke's recorded box is its geometry padded by kStrokeBoxPad line widths on each side (model.h); the "
     "geometry is recovered by undoing this many."},
    {"frame_span_ratio", &LayoutOptions::frame_span_ratio, "share of cluster width",
     "A path spanning this share of a cluster's width (or, for a rule, of its height) is the box, its background "
     "or its frame, not drawing inside it."},
    {"frame_side_max", &LayoutOptions::frame_side_max, "pt",
     "A path at most this wide along a cluster's side is a frame's side, a rounded corner or padding (boxes pad "
     "text by 3-10 pt)."},
    {"text_box_mono_share", &LayoutOptions::text_box_mono_share, "share of characters",
     "A box is a text box (listing, note), not a figure, when this share of its lines' characters is monospace ..."},
    {"text_box_cover_ratio", &LayoutOptions::text_box_cover_ratio, "share of box area",
     "...or its lines cover this share of it (a plot's or diagram's labels are sparse)."},
    {"text_box_stacked_share", &LayoutOptions::text_box_stacked_share, "share of lines",
     "...its lines set one under the other: this share has a line within the paragraph gap above or below."},
    {"figure_drawing_min_ratio", &LayoutOptions::figure_drawing_min_ratio, "share of box area",
     "...and its other drawing covers under this share of it (an icon, a line-number rule)."},
    {"badge_max_ratio", &LayoutOptions::badge_max_ratio, "ratio of body size",
     "Flat shapes at most this high and wide, each behind a text of its own, are its background (a section "
     "number's square)."},
    {"highlight_text_share", &LayoutOptions::highlight_text_share, "share of shape width",
     "...or when the text spans this share of their width (a highlighted word)."},
    {"badge_line_share", &LayoutOptions::badge_line_share, "share of line height",
     "A line stands on a flat shape when it shares this share of its height with it."},
    {"badge_glyph_width_ratio", &LayoutOptions::badge_glyph_width_ratio, "ratio of font size",
     "A glyph of unknown width is taken to be this wide over a shape (about a letter's width)."},
    {"banner_max_ratio", &LayoutOptions::banner_max_ratio, "ratio of text size",
     "A lone flat shape with one row of text, at most this many times the text's size high, is the text's banner, "
     "not a figure."},
    {"bar_max_shapes", &LayoutOptions::bar_max_shapes, "shapes",
     "At most this many filled shapes all running past the page's side are a bar (a chapter band, a thumb tab), "
     "not a figure."},
    {"page_background_ratio", &LayoutOptions::page_background_ratio, "share of page area",
     "A path covering this share of the page area is a page background, not a figure: a figure stays within the "
     "text block (~60% of a page)."},
    {"icon_max_ratio", &LayoutOptions::icon_max_ratio, "ratio of body size",
     "A picture at most this wide and high with running text beside it is that text's icon (DocBook's 24-36 pt "
     "signs)."},
    {"icon_text_gap_ratio", &LayoutOptions::icon_text_gap_ratio, "ratio of body size",
     "...the text starting at most this far to its right, on its lines."},
    {"icon_text_min_chars", &LayoutOptions::icon_text_min_chars, "characters",
     "...and holding at least this many characters in the body type (a drawing's labels are short or smaller)."},
    {"icon_line_share", &LayoutOptions::icon_line_share, "share of line height",
     "A line is beside an icon when it shares this share of the lower one's height with it."},
    {"icon_text_overlap_ratio", &LayoutOptions::icon_text_overlap_ratio, "ratio of body size",
     "The icon's text goes on in lines whose tops stand at most this above the bottom of the line before."},
    {"prose_measure_ratio", &LayoutOptions::prose_measure_ratio, "share of text measure",
     "A line in the body type this wide (share of the measure) is prose, never a figure's label."},
    {"prose_min_words", &LayoutOptions::prose_min_words, "words",
     "...and of at least this many words (a line of running text across the measure holds 8-15)."},
    {"prose_body_type_share", &LayoutOptions::prose_body_type_share, "share of characters",
     "...with at least this share of its characters in the body type (\"mostly\")."},
    {"raster_share", &LayoutOptions::raster_share, "share of figure area",
     "A figure is raster when its images cover at least this share of it."},
    {"spacer_max_pixels", &LayoutOptions::spacer_max_pixels, "pixels",
     "Images at most this many pixels in width or height are spacers or rules."},
    {"label_inside_ratio", &LayoutOptions::label_inside_ratio, "share of line box",
     "A text line is a figure label when this share of its box lies inside the drawing."},
    {"label_attach_gap", &LayoutOptions::label_attach_gap, "pt",
     "Short lines within this of a drawing are its labels; body text keeps ~10-12 pt from a figure."},
    {"label_max_chars", &LayoutOptions::label_max_chars, "characters",
     "A label has at most this many characters (a tick value, an axis name)."},
    {"label_size_ratio", &LayoutOptions::label_size_ratio, "ratio of body size",
     "Short lines differing from the body size by more than this are a drawing's own lettering ..."},
    {"label_near_gap", &LayoutOptions::label_near_gap, "pt",
     "...and join it from up to this far (plot programs set tick values and axis titles 4-14 pt outside the axes)."},
    {"caption_zone_body_ratio", &LayoutOptions::caption_zone_body_ratio, "share of text block width",
     "Above a figure caption, the text ends at a line this wide; what is drawn between is one figure (groff pic's "
     "separate strokes)."},
    {"caption_zone_tail_gap_ratio", &LayoutOptions::caption_zone_tail_gap_ratio, "ratio of body size",
     "...a short line at most this far below that text, starting where it starts, is still its last line."},
    {"caption_zone_margin_ratio", &LayoutOptions::caption_zone_margin_ratio, "ratio of body size",
     "...a line starting this near the text block's left edge above all the zone's drawing leads into the figure."},
    {"furniture_band_ratio", &LayoutOptions::furniture_band_ratio, "share of page height",
     "Drawings lying entirely in this share of the page height at the top or bottom are no figure: a page's own "
     "head or foot decoration (what a page style draws on many pages, clean has taken off)."},
    {"figure_crop_margin", &LayoutOptions::figure_crop_margin, "pt",
     "The crop box is the drawing's box grown by this, in points, so anti-aliased edges and line caps stay in; the "
     "render is then trimmed to the ink."},
    {"own_font_share", &LayoutOptions::own_font_share, "share of words",
     "A font flag of a run of words is the block's own, not a style, where this share of the block's other words "
     "(or the run) carries it."},
    {"own_font_min_others", &LayoutOptions::own_font_min_others, "words",
     "...the first test asks for this many other words: in a shorter block one run in another font is that style."},
    {"inline_match_window", &LayoutOptions::inline_match_window, "glyphs",
     "A character of a block's text is matched to its glyph among this many ahead (only hyphens and note marks "
     "fall between)."},
    {"anchor_reach", &LayoutOptions::anchor_reach, "pt",
     "A link leads to the heading or figure starting at most this far below its target (hyperref sets destinations "
     "a line above)."},
    {"max_anchor_chars", &LayoutOptions::max_anchor_chars, "characters",
     "Anchor ids are at most this many characters (before a \"-2\" that tells repeats apart)."},
};

}  // namespace

std::span<const OptionField<LayoutOptions>> layout_option_table() { return kTable; }

}  // namespace quire
