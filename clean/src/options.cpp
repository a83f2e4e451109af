#include "quire/clean.h"

namespace quire {

namespace {

// Every field of CleanOptions but jobs (threads: the result is the same at any count).
// Each reason is the gist of the field's comment in quire/clean.h, where the whole argument is.
constexpr OptionField<CleanOptions> kTable[] = {
    {"band_ratio", &CleanOptions::band_ratio, "share of page height",
     "A line this close to the top or bottom edge is a furniture candidate; generous, as small trims put the folio "
     "13-15% up."},
    {"printed_area_frame_share", &CleanOptions::printed_area_frame_share, "share of pages",
     "The printed area of a book set inside larger paper: its edge is where the text of this share of the pages ends."},
    {"printed_area_share", &CleanOptions::printed_area_share, "share of pages",
     "...and no more than 1 minus this share of the pages print beyond that edge (pages that merely end short move "
     "no band)."},
    {"printed_area_min_pages", &CleanOptions::printed_area_min_pages, "pages",
     "Fewest pages with text needed to find a printed area inside the paper."},
    {"baseline_tolerance", &CleanOptions::baseline_tolerance, "pt",
     "Lines whose baselines differ by at most this share one head row, and rows on different pages one slot."},
    {"overprint_share", &CleanOptions::overprint_share, "share of line height",
     "...unless their boxes overlap across by more than this share of the lower one's height: lines printed over each "
     "other are two rows, each furniture only by its own evidence."},
    {"min_recurrence", &CleanOptions::min_recurrence, "pages",
     "A head text must recur on this many pages in one slot: a head naming the chapter recurs only within it."},
    {"head_mid_page_ratio", &CleanOptions::head_mid_page_ratio, "ratio of pages",
     "A head text also standing mid-page on more than this many times as many pages is a heading or a line set "
     "everywhere."},
    {"head_max_tokens", &CleanOptions::head_max_tokens, "words",
     "Lines of more words than this are never compared with mid-page lines (heads are short)."},
    {"min_page_number_pages", &CleanOptions::min_page_number_pages, "pages",
     "A number other than the page's label is a folio only when this many pages have one at the same offset from "
     "the page index."},
    {"second_folio_share", &CleanOptions::second_folio_share, "share of pages",
     "A page prints its number once: of two folio candidates, one in a slot showing folios this much less often is "
     "a footnote's mark."},
    {"head_slot_purity", &CleanOptions::head_slot_purity, "share of pages",
     "A slot is a furniture slot when this share of the pages with a row there show a recurring head or a page "
     "number."},
    {"head_slot_min_share", &CleanOptions::head_slot_min_share, "share of pages",
     "...and on this share of the pages with rows in its band: a page style puts heads on most pages, a recurring "
     "caption does not."},
    {"head_max_size_ratio", &CleanOptions::head_max_size_ratio, "ratio of body size",
     "Running heads are set at or below body size; a larger row is a title or heading, never furniture by slot alone."},
    {"furniture_gap_ratio", &CleanOptions::furniture_gap_ratio, "line pitches",
     "Heads and folios are set off from the text block by at least this many body line pitches (R manuals ~3.7, "
     "small trims ~2)."},
    {"furniture_small_ratio", &CleanOptions::furniture_small_ratio, "ratio of body size",
     "...unless set this much smaller than the body: small type beside the text block is no body line (a browser's "
     "print header)."},
    {"furniture_smaller_ratio", &CleanOptions::furniture_smaller_ratio, "ratio of body size",
     "...or set smaller than the body by this ratio and the same on furniture_everywhere_share of its band's pages."},
    {"furniture_everywhere_share", &CleanOptions::furniture_everywhere_share, "share of pages",
     "Share of its band's pages a smaller, unchanging head must be on to count without the gap."},
    {"max_page_number_digits", &CleanOptions::max_page_number_digits, "digits",
     "Longest arabic page number: no book has 100,000 pages; longer runs are data."},
    {"min_line_number_run", &CleanOptions::min_line_number_run, "numbers",
     "Fewest consecutive line numbers beside monospace lines: two in a row is too easily data, three with one x "
     "position a column."},
    {"line_number_x_tolerance", &CleanOptions::line_number_x_tolerance, "pt",
     "The numbers of one column share their right edge (right-aligned) within this."},
    {"line_number_size_delta", &CleanOptions::line_number_size_delta, "pt",
     "A margin number set apart must differ from the code by more than this in size (or in font or colour): data "
     "is not set apart."},
    {"listing_pitch_ratio", &CleanOptions::listing_pitch_ratio, "line pitches",
     "Rows of one listing are at most this many line pitches apart; farther rows belong to another listing."},
    {"line_number_far_side_ratio", &CleanOptions::line_number_far_side_ratio, "ratio of distances",
     "A number between two listings belongs to the near one when the other is this many times farther (a "
     "two-column page's gutter)."},
    {"code_monospace_share", &CleanOptions::code_monospace_share, "share of characters",
     "A line is a code line when this share of its non-space characters is monospace."},
    {"crop_outside_margin", &CleanOptions::crop_outside_margin, "pt",
     "Text lying entirely this far or more outside the page box is printer's marks (crop marks, slug lines)."},
    {"repeated_image_tolerance", &CleanOptions::repeated_image_tolerance, "pt",
     "A drawing at the same place (within this) on many pages, the same image or the same paint, is furniture."},
    {"repeated_image_min_pages", &CleanOptions::repeated_image_min_pages, "pages",
     "...on at least this many pages ..."},
    {"repeated_image_min_share", &CleanOptions::repeated_image_min_share, "share of pages",
     "...and, an image, on at least this share of the book's pages (a logo, an ornament, a watermark) ..."},
    {"drawn_band_ratio", &CleanOptions::drawn_band_ratio, "share of page height",
     "...or, a path, lying wholly in this share of the page's height at its top or bottom ..."},
    {"drawn_rule_min_share", &CleanOptions::drawn_rule_min_share, "share of pages",
     "...on at least this share of the pages (a running head's rule, a footer's bar)."},
};

}  // namespace

std::span<const OptionField<CleanOptions>> clean_option_table() { return kTable; }

}  // namespace quire
