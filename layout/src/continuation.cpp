// Continuation: whether a row goes on with the open block. Prose goes on at the same
// leading and left edge; a typesetter breaks a line early only on purpose (a short line, an
// indent); code goes on at the listing's pitch; notes stay in their box.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

#include "internal.h"
#include "quire/text.h"
#include "quire/typography.h"
#include "builder.h"
#include "note_marks.h"
#include "page_passes.h"
#include "tables.h"
#include "text_chars.h"

namespace quire::detail {

bool Builder::mono_heading(const Row& r) const {
  return r.mono && r.bold && !r.footnote && st.code_size > 0 && r.size >= o.blocks.mono_heading_ratio * st.code_size;
}

bool Builder::is_heading(const Row& r) const {
  if (r.mono) return mono_heading(r);
  if (r.footnote) return false;
  if (r.size >= heading_threshold()) return true;
  // A bold line at (about) body size standing alone: a run-in heading is only partly bold.
  if (!r.bold || r.full_stop) return false;
  if (r.size >= st.body_size * o.blocks.bold_heading_size_ratio) return true;
  // The word of a chapter opener's label on a row of its own ("CHAPTER" over "ONE").
  if (opener_word(r.text)) return true;
  // In the body size itself only a numbered one ("2.", "2.1", "2.1.3."), short of the
  // column's width: troff's -ms and many word processors set section headings so, while
  // a bold line of body text is a term or a lead-in.
  return r.size >= st.body_size * o.blocks.numbered_heading_size_ratio && section_number_depth(r.text) > 0 &&
         r.bbox.x1 < r.col_left + o.blocks.numbered_heading_max_width * (r.col_right - r.col_left);
}

// A heading in the body's size, bold, without a number: a line standing alone is a heading
// only by where it stands. It binds to the paragraph under it, set at its edge, closer than
// to the block over it (a definition list's term has its description set in; a bold lead-in
// line or a paragraph's one bold line stands as far from the text before as after).
void Builder::find_spaced_headings(size_t from, size_t to) {
  for (size_t i = std::max<size_t>(from, 1); i < to && i + 1 < out.size(); ++i) {
    if (out[i].type != BlockType::Paragraph || out[i + 1].type != BlockType::Paragraph || text_rows[i].size() != 1)
      continue;
    const Row& r = *text_rows[i].front();
    const Shape &above = shapes[i - 1], &ts = shapes[i], &below = shapes[i + 1];
    if (!r.bold || r.mono || r.footnote || r.marker || r.drawn_marker || r.caption || !ts.flush || !ts.short_end ||
        ts.gapped || ts.sentence_end || ts.broken_end || ts.words > o.blocks.max_term_words || ts.colon_end)
      continue;  // ("Returns:" over what a function returns is a label of the text under it)
    if (!typography::same_size(r.size, st.body_size, o.blocks.line_size_tolerance)) continue;
    if (above.page != ts.page || above.column != ts.column || below.page != ts.page || below.column != ts.column)
      continue;
    // (The text under it opens in no bold face: Texinfo's @item over its @itemx, terms at one
    // edge over a description set in further down.)
    if (!below.flush || std::fabs(below.left - ts.left) > o.lines.edge_tolerance || text_rows[i + 1].empty())
      continue;
    const Row& next = *text_rows[i + 1].front();
    if (next.bold || (!next.span_fonts.empty() && (next.span_fonts.front() & kSpanBold))) continue;
    const double over = ts.first_baseline - above.last_baseline, under = below.first_baseline - ts.last_baseline;
    if (under <= 0 || over - under < o.blocks.spaced_heading_gap_ratio * r.size) continue;
    out[i].type = BlockType::Heading;
  }
}

bool Builder::continues_broken_name(const Row& r, const Row& prev) {
  // The line before ends in the typewriter face in mid-sentence, on a character a URL or a
  // long name is broken after (TeX's \url and Texinfo's @url break after these), and the line
  // is one word of it.
  if (!prev.mono_end || prev.full_stop || prev.text.empty()) return false;
  if (std::string_view("/._-#?&=~%").find(prev.text.back()) == std::string_view::npos) return false;
  return whitespace_tokens(r.text).size() == 1;
}

bool Builder::continues_prose(const Row& r) const {
  const Row& prev = *rows.back();
  if (is_heading(r) || r.footnote != prev.footnote) return false;
  if (!typography::same_size(r.size, prev.size, o.blocks.line_size_tolerance)) return false;
  double indent = o.blocks.indent_ratio * r.size;
  bool full = prev.bbox.x1 >= prev.col_right - o.blocks.short_line_ratio * prev.size;
  // A line wholly in the typewriter face is a listing's, unless it is the rest of a URL or a
  // name broken at the end of the line before (continues_broken_name).
  if (r.mono && !(same_flow(prev, r) && full && r.bbox.x0 <= r.col_left + indent && continues_broken_name(r, prev)))
    return false;
  const bool marker = r.marker > 0 || r.drawn_marker;
  // A figure set between the two lines: the paragraph may run around it, as over a
  // column or page break.
  bool across_figure = false, figure_above = false;
  for (const auto* f : pending)
    if (f->page == r.page && f->bbox.y1 <= r.bbox.y0 + o.lines.edge_tolerance) {
      figure_above = true;
      if (f->bbox.y0 >= prev.bbox.y1 - o.lines.edge_tolerance) across_figure = true;
    }
  if (!same_flow(prev, r) || across_figure) {
    if (type == BlockType::Footnote || r.footnote) return false;
    if (r.bbox.x0 > r.col_left + indent) return false;
    // A marker opens an item, unless it starts a line that goes on from a paragraph's
    // full line in mid-sentence ("... into the MMC, | (1) had no cover texts"), as on a page.
    if (marker && (!full || prev.full_stop || rows.front()->marker > 0 || rows.front()->drawn_marker || r.drawn_marker))
      return false;
    // A figure amid a page's text stands between two paragraphs where the text flows
    // around nothing (HTML, word processors, most XSL-FO) and where an unindented
    // paragraph follows it; TeX may set it after any line of a paragraph, but one whose
    // line ended a sentence is split there at worst. So on the same page the text goes on
    // only in mid-sentence; so it does over a figure atop the next page outside TeX,
    // whose floats are the only ones that leave a paragraph for the next page's top.
    if (prev.full_stop && (same_flow(prev, r) || (figure_above && !ev.tex))) return false;
    return full || (!prev.full_stop && r.lower_start);
  }
  double pitch = r.baseline - prev.baseline;
  if (pitch > typography::max_line_pitch(prev.size, o.blocks.paragraph_gap_ratio) || pitch < 0) return false;
  // A sentence's end, then more space than the book puts between lines: paragraphs set
  // apart by a space rather than an indent (parskip).
  if (prev.full_stop && st.line_pitch > 0 && std::fabs(prev.size - st.body_size) < o.lines.body_size_tolerance &&
      pitch > st.line_pitch + o.blocks.paragraph_space_ratio * prev.size)
    return false;
  if (r.footnote && starts_with_note_mark(r, st.bracketed_marks)) return false;
  bool bullet = marker && (!full || prev.full_stop || r.bbox.x0 > r.col_left + indent || rows.front()->marker > 0 ||
                           rows.front()->drawn_marker);
  // In an item, "(2)" at the edge its lines wrap to, after a full line in mid-sentence
  // ("... two steps: (1) assert copyright on the software, and | (2) offer you ..."), is a
  // word of the item's sentence, as it is in a paragraph.
  if (bullet && type == BlockType::ListItem && !r.drawn_marker && full && !prev.full_stop && same_flow(prev, r) &&
      std::fabs(r.bbox.x0 - (rows.size() > 1 ? prev.bbox.x0 : after_marker(prev))) <= o.lines.edge_tolerance)
    bullet = false;
  if (bullet) return false;
  // A line that ends short of the measure, then more space than the book puts between its
  // lines: the block ended there, in mid-sentence or not (an item's title line over its
  // text, a description of one line over the next term).
  const bool spaced_after_short = !full && st.line_pitch > 0 &&
                                  std::fabs(prev.size - st.body_size) < o.lines.body_size_tolerance &&
                                  pitch > st.line_pitch + o.blocks.short_line_space_ratio * prev.size;
  if (type == BlockType::ListItem) {
    if (spaced_after_short) return false;
    // Continuation lines of an item hang under its text, right of the marker; or, where
    // the marker opens a paragraph ("c) You must ..."), the text wraps to the column's
    // edge like any paragraph's after a line that filled the measure.
    const Row& first = *rows.front();
    if (r.bbox.x0 > first.bbox.x0 + o.lines.edge_tolerance) {
      // Unless the item's lines wrap back to the marker's edge, as a paragraph's do: then a
      // line set in after one that ends a sentence short of the measure is the first of
      // the next paragraph, indented.
      const bool wraps_to_marker = rows.size() > 1 && same_flow(*rows[1], first) &&
                                   std::fabs(rows[1]->bbox.x0 - first.bbox.x0) <= o.lines.edge_tolerance;
      return !(wraps_to_marker && !full && prev.full_stop);
    }
    // A drawn bullet stands left of the text: the item's lines all start where its first does.
    if (first.drawn_marker) return std::fabs(r.bbox.x0 - first.bbox.x0) <= o.lines.edge_tolerance;
    if (rows.size() > 1) return std::fabs(r.bbox.x0 - prev.bbox.x0) <= o.lines.edge_tolerance;
    if (full && r.bbox.x0 >= r.col_left - o.lines.edge_tolerance && r.bbox.x0 <= first.bbox.x0 + o.lines.edge_tolerance) return true;
    // In an indented passage (a quotation), whose lines end short of the column: a long
    // first line in mid-sentence goes on at the marker's edge.
    return !prev.full_stop && std::fabs(r.bbox.x0 - first.bbox.x0) <= o.lines.edge_tolerance &&
           prev.bbox.x1 >= prev.col_right - o.lines.long_line_share * (prev.col_right - prev.col_left);
  }
  const double left = text_left(r), prev_left = text_left(prev);
  // A first line that fills the measure in mid-sentence, with the next line indented: a
  // hanging indent (a description list's term, a bibliography entry), not a new paragraph,
  // which would follow a line that ends one (ends_sentence counts a colon).
  if (rows.size() == 1 && full && !prev.full_stop && left > prev_left + indent &&
      left == r.bbox.x0 && text_left(prev) == prev.bbox.x0)
    return true;
  // A note in the margin beside a line after a short one, or after a sentence's end, marks
  // where something starts (an entry, a paragraph); beside a line that goes on from a full
  // one, a place in a running paragraph.
  if (left != r.bbox.x0 && (!full || prev.full_stop)) return false;
  // A caption set centred wraps onto a line centred on the same axis, which starts further
  // in (or out) than its first: no indent, the caption goes on.
  if (rows.front()->caption && !r.caption && !full && prev_left > prev.col_left + indent &&
      typography::same_centre(r.bbox.x0, r.bbox.x1, prev.bbox.x0, prev.bbox.x1, o.lines.edge_tolerance))
    return true;
  if (left > prev_left + indent) return false;  // first-line indent
  if (rows.size() > 1 && left < prev_left - indent) return false;  // end of an indented passage
  // A line set in that ends short, the next further left after a space: the set-in line
  // was a block of its own (a description under its term), not a paragraph's first line.
  if (left < prev_left - indent && spaced_after_short) return false;
  if (!full && prev.full_stop && left <= prev_left + o.lines.edge_tolerance &&
      prev.bbox.x1 < prev.col_right - o.blocks.paragraph_end_short_factor * o.blocks.short_line_ratio * prev.size)
    return false;
  if (type == BlockType::Paragraph && !full && broken_on_purpose(prev, r, indent)) return false;
  return true;
}

bool Builder::broken_on_purpose(const Row& prev, const Row& r, double indent) const {
  if (text_left(r) != r.bbox.x0) return false;  // a margin note before the next line's first word
  const double inset = text_left(prev) - prev.col_left;
  const bool indented = inset > indent, next_flush = std::fabs(r.bbox.x0 - r.col_left) <= indent;
  const bool within_passage = indented && std::fabs(r.bbox.x0 - text_left(prev)) <= o.lines.edge_tolerance;
  if (inset < -indent || !(next_flush || within_passage)) return false;
  // Rows closer than a line apart are pieces of one line (a radical, a fraction's parts).
  if (r.baseline - prev.baseline < o.blocks.min_line_pitch_ratio * prev.size) return false;
  if (!prev.text.empty() && prev.text.back() == '-') return false;
  for (const auto* f : pending)
    if (f->page == prev.page && f->bbox.y0 < prev.bbox.y1 && f->bbox.y1 > prev.bbox.y0) return false;
  auto edge = justified_right.find(prev.column);
  if (edge == justified_right.end()) return false;  // ragged lines: where they end says nothing
  const double right = edge->second - (within_passage ? inset : 0.0);
  const std::optional<double> word_end = first_word_end(r);
  if (!word_end) return false;
  // The room a typesetter needs: the word and a space it may shrink, counted generously.
  return right - prev.bbox.x1 > (*word_end - r.bbox.x0) + o.blocks.wrap_space_ratio * prev.size;
}

void Builder::find_justified_right(const std::vector<Item>& items) {
  justified_right.clear();
  std::map<int, std::vector<double>> ends;
  for (const Item& it : items)
    if (it.kind == Item::Text && !it.row.mono && !it.row.footnote && !is_heading(it.row) && run_of(it.row) < 0)
      ends[it.row.column].push_back(it.row.bbox.x1);
  for (auto& [column, xs] : ends) {
    std::sort(xs.begin(), xs.end());
    size_t best = 0;
    double at = 0;
    for (size_t i = 0, j = 0; i < xs.size(); ++i) {  // the window [xs[i], xs[i] + 2 tolerance]
      while (j < xs.size() && xs[j] <= xs[i] + typography::max_spread(o.lines.edge_tolerance)) ++j;
      if (j - i >= best) {
        best = j - i;
        at = xs[j - 1];
      }
    }
    if (best >= o.blocks.min_justified_rows) justified_right[column] = at;
  }
}

double Builder::text_left(const Row& r) const {
  if (r.lines.size() > 1 && r.lines.front()->bbox.x1 < r.col_left - o.lines.edge_tolerance &&
      r.lines[1]->bbox.x0 >= r.col_left - o.lines.edge_tolerance)
    return r.lines[1]->bbox.x0;
  return r.bbox.x0;
}

std::optional<double> Builder::first_word_end(const Row& r) {
  if (r.lines.empty()) return std::nullopt;
  return first_word_end(*r.lines.front(), r.lines.size() > 1);
}

std::optional<double> Builder::first_word_end(const Line& line, bool more) {
  bool started = false;
  for (size_t i = 0; i < line.spans.size(); ++i) {
    const Span& s = line.spans[i];
    if (started && line.space_before(i)) return line.spans[i - 1].bbox.x1;
    const std::u32string cps = to_u32(s.text);
    if (s.xs.size() != cps.size()) return std::nullopt;
    for (size_t k = 0; k < cps.size(); ++k) {
      const bool space = cps[k] == U' ' || cps[k] == U'\t';
      if (space && started) return s.xs[k];
      if (!space) started = true;
    }
  }
  if (more) return line.bbox.x1;  // the next line of the row starts after a gap
  return started ? std::optional<double>(line.bbox.x1) : std::nullopt;
}

double Builder::after_marker(const Row& r) {
  if (r.marker == 0) return r.bbox.x0;
  const size_t skip = utf8_length(std::string_view(r.text).substr(0, r.marker));
  size_t seen = 0;
  for (const Line* line : r.lines)
    for (const Span& s : line->spans) {
      const std::u32string cps = to_u32(s.text);
      if (s.xs.size() != cps.size()) return r.bbox.x0;
      for (size_t k = 0; k < cps.size(); ++k, ++seen)
        if (seen >= skip && cps[k] != U' ' && cps[k] != U'\t') return s.xs[k];
    }
  return r.bbox.x0;
}

bool Builder::continues_code(const Row& r) const {
  const Row& prev = *rows.back();
  if (!(r.mono || r.one_sign || r.mono_framed) || r.footnote || mono_heading(r)) return false;
  // A row with a sign of another font reaches into the listing's width, or ends within an em
  // of its edge (a result arrow hung out in front of the code): a radical of a formula
  // beside the listing is no line of it. A row with a run of another font starts within the
  // listing's width. The width is that of the listing's rows in the same column, those before
  // a page break included (a page may open on an indented line of it).
  if (!r.mono) {
    double left = prev.bbox.x0;
    for (const Row* above : rows)
      if (above->column == r.column) left = std::min(left, above->bbox.x0);
    if (r.one_sign && same_flow(prev, r) && r.bbox.x1 < left - r.size) return false;
    if (!r.one_sign && r.bbox.x0 < left - o.blocks.framed_row_left_slack * r.size) return false;
  }
  if (!same_flow(prev, r)) return true;  // a listing broken by a column or page break
  double pitch = r.baseline - prev.baseline;
  // The listing's size: its rows' middle one (a scan's rows read sizes a point or two apart,
  // a line of short letters smaller).
  std::vector<double> sizes;
  for (const Row* q : rows) sizes.push_back(q->size);
  std::nth_element(sizes.begin(), sizes.begin() + static_cast<std::ptrdiff_t>(sizes.size() / 2), sizes.end());
  const double size = sizes[sizes.size() / 2];
  if (!(pitch > 0 && pitch <= o.blocks.max_code_blank_lines * size * o.blocks.code_line_pitch_ratio)) return false;
  // Every line of a listing, blank or not, advances by the listing's own pitch: a gap
  // that is no whole number of pitches ends the listing (a term or a signature set under
  // an example, after the space the example leaves).
  if (auto line = listing_pitch(); line && pitch > (1 + o.blocks.code_pitch_tolerance) * *line) {
    const double lines = pitch / *line;
    if (std::fabs(lines - std::round(lines)) > o.blocks.code_pitch_tolerance) return false;
  }
  return true;
}

std::optional<double> Builder::listing_pitch() const {
  std::vector<double> advances;
  for (size_t i = 1; i < rows.size(); ++i) {
    const double d = rows[i]->baseline - rows[i - 1]->baseline;
    if (same_flow(*rows[i - 1], *rows[i]) && d > 0) advances.push_back(d);
  }
  for (const Row* r : rows)
    for (const Line* l : r->lines)
      if (!l->spans.empty() && l->spans.front().ocr) return std::nullopt;
  if (advances.empty()) return std::nullopt;
  std::vector<double> single;
  const double least = *std::min_element(advances.begin(), advances.end());
  for (double d : advances)
    if (d < o.blocks.listing_pitch_spread * least) single.push_back(d);
  std::nth_element(single.begin(), single.begin() + static_cast<std::ptrdiff_t>(single.size() / 2), single.end());
  const double pitch = single[single.size() / 2];
  for (double d : advances)
    if (std::fabs(d / pitch - std::round(d / pitch)) > o.blocks.code_pitch_tolerance) return std::nullopt;
  return pitch;
}

bool Builder::continues_heading(const Row& r) const {
  const Row& prev = *rows.back();
  if (!is_heading(r) || !same_flow(prev, r)) return false;
  // A numbered heading under a numbered one starts anew (a section's under its chapter's,
  // in one size); a title's second line may start with a number ("45 Variants").
  if (section_number_depth(r.text) > 0 && section_number_depth(prev.text) > 0) return false;
  double pitch = r.baseline - prev.baseline;
  if (!(pitch > 0 && pitch <= o.blocks.heading_line_pitch_ratio * std::max(r.size, prev.size))) return false;
  // The lines of one heading share its size. A heading in another size right under it is
  // the next heading (a section's under its chapter's), unless all above is an opener:
  // "Chapter 3" or a number set over the title.
  if (typography::same_size(r.size, prev.size, o.blocks.size_step_tolerance)) return true;
  return std::all_of(rows.begin(), rows.end(), [](const Row* above) { return opener_label(above->text); });
}

bool Builder::opener_label(const std::string& text) {
  auto t = whitespace_tokens(text);
  if (t.size() == 1) return opener_number(t[0]) || opener_word(t[0]);
  return t.size() == 2 && opener_word(t[0]) && opener_number(t[1]);
}

bool Builder::continues_table(const Row& r) const {
  if (r.page <= rows.back()->page) return false;
  for (auto it = rows.rbegin(); it != rows.rend(); ++it)
    if ((*it)->lines.size() >= o.tables.min_header_table_cells)
      return shared_edges((*it)->lines, r.lines, r.col_right, o) >=
             std::min(o.tables.min_shared_edges, r.lines.size() - 1);
  return false;
}

long Builder::run_of(const Row& r) const {
  auto it = table_run.find(&r);
  return it == table_run.end() ? -1 : it->second;
}

Builder::Title Builder::note_title(const Row& r) const {
  auto kind_of = [&](std::string t) -> std::string {
    while (!t.empty() && (t.back() == ':' || t.back() == '.')) t.pop_back();
    for (auto& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const auto& [name, kind] : o.notes.note_titles)
      if (t == name) return kind;
    return {};
  };
  // A title is printed capitalised or in capitals ("warning" alone is a word, a name).
  if (r.mono || r.footnote || r.text.empty() || !(r.text[0] >= 'A' && r.text[0] <= 'Z')) return {};
  if (auto k = kind_of(r.text); !k.empty()) return {k, r.text, true};
  // A title set apart before the text on its line (a side title beside a bar).
  if (r.lines.size() > 1) {
    const std::string first = r.lines.front()->text();
    if (auto k = kind_of(first); !k.empty() && r.text.compare(0, first.size(), first) == 0) return {k, first, false};
  }
  // A run-in title: the first words, a colon after them.
  const size_t colon = r.text.find(':');
  if (colon != std::string::npos && colon > 0 && colon < o.blocks.run_in_title_max_chars && colon + 1 < r.text.size() &&
      r.text[colon + 1] == ' ')
    if (auto k = kind_of(r.text.substr(0, colon)); !k.empty()) return {k, r.text.substr(0, colon + 1), false};
  return {};
}

void Builder::find_notes(const std::vector<Item>& items, const PageDecor& d) {
  note_rows.clear();
  // The rows of `items` from `from` on that stand in `region` on the page of `first`, up to
  // a section's heading, are the note `box`'s.
  auto claim = [&](size_t from, const Row& first, const Box& region, long box, const std::string& kind) {
    for (size_t j = from; j < items.size(); ++j) {
      if (items[j].kind != Item::Text) continue;
      const Row& q = items[j].row;
      if (q.page != first.page || q.footnote || note_rows.count(&q)) continue;
      const double m = (q.bbox.y0 + q.bbox.y1) / 2;
      if (q.bbox.x1 < region.x0 || q.bbox.x0 > region.x1) continue;  // (beside the box)
      if (m < region.y0 || m > region.y1) continue;
      // A section's heading ends the box (a bold line of body size in it may be its
      // table's header).
      if (is_heading(q) && (q.size >= heading_threshold() || section_number_depth(q.text) > 0)) break;
      note_rows[&q] = {box, kind, "", false, region};
    }
  };
  // A note open at the page break goes on at the top of this page in a box as wide, without
  // a title: a shaded box or frame broken by the page is drawn again on the next.
  if (open() && type == BlockType::Note && open_region.width() > 0) {
    const Row* top = nullptr;
    for (const Item& it : items)
      if (it.kind == Item::Text && !it.row.footnote && (!top || it.row.bbox.y0 < top->bbox.y0)) top = &it.row;
    if (top && note_title(*top).kind.empty()) {
      const double tol = o.lines.edge_tolerance;
      for (const Box& p : d.panels)
        if (p.contains(top->bbox, tol) && std::fabs(p.x0 - open_region.x0) <= tol && std::fabs(p.x1 - open_region.x1) <= tol) {
          claim(0, *top, p, open_box, open_kind);
          break;
        }
    }
  }
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].kind != Item::Text) continue;
    const Row& r = items[i].row;
    if (note_rows.count(&r) || run_of(r) >= 0) continue;
    Title title = note_title(r);
    if (title.kind.empty()) continue;
    const double em = std::max(1.0, r.size), tol = o.lines.edge_tolerance;
    const double mid = (r.bbox.y0 + r.bbox.y1) / 2;
    std::optional<Box> region;
    // A shaded box or a frame around it (the smallest).
    for (const Box& p : d.panels)
      if (p.contains(r.bbox, tol) && (!region || p.width() * p.height() < region->width() * region->height())) region = p;
    // A title on a tab of its own (a small panel that holds the title alone) heads the box
    // drawn right under the tab, as wide or wider.
    if (region && title.whole) {
      const Box tab = *region;
      const bool alone = std::none_of(items.begin(), items.end(), [&](const Item& it) {
        if (it.kind != Item::Text || &it.row == &r || it.row.page != r.page) return false;
        const double m = (it.row.bbox.y0 + it.row.bbox.y1) / 2;
        return m >= tab.y0 && m <= tab.y1 && it.row.bbox.x1 >= tab.x0 && it.row.bbox.x0 <= tab.x1;
      });
      std::optional<Box> under;
      for (const Box& p : d.panels)
        if (alone && p.y0 >= tab.y1 - tol && p.y0 - tab.y1 <= o.notes.note_rule_gap_ratio * em &&
            p.x0 <= tab.x0 + tol && p.x1 >= tab.x1 - tol && (!under || p.y0 < under->y0))
          under = p;
      if (under) region = Box{std::min(tab.x0, under->x0), tab.y0, std::max(tab.x1, under->x1), under->y1};
    }
    // A bar at its left, or between a side title and its text.
    const double title_right = r.lines.front()->bbox.x1;
    for (const Box& bar : d.bars) {
      if (region || bar.y0 > mid || bar.y1 < mid) continue;
      const bool left = bar.x1 <= r.bbox.x0 + tol && r.bbox.x0 - bar.x1 <= o.notes.note_bar_reach_ratio * em;
      const bool between = !title.whole && bar.x0 >= title_right - tol && bar.x0 - title_right <= o.notes.note_bar_reach_ratio * em;
      const bool beside =
          title.whole && bar.x0 >= r.bbox.x1 - tol && bar.x0 - r.bbox.x1 <= o.notes.note_bar_reach_ratio * em;
      if (left || between || beside) region = Box{std::min(bar.x0, r.bbox.x0), bar.y0, r.col_right, bar.y1};
    }
    // A rule over it, and the next rule under it that spans as far.
    for (const Box& above : d.rules) {
      if (region || above.y1 > r.bbox.y0 + tol || r.bbox.y0 - above.y1 > o.notes.note_rule_gap_ratio * em ||
          above.x0 > r.bbox.x0 + tol || above.x1 < r.bbox.x1 - tol)
        continue;
      std::optional<Box> under;
      for (const Box& u : d.rules)
        if (u.y0 >= r.bbox.y1 - tol && std::fabs(u.x0 - above.x0) <= tol && std::fabs(u.x1 - above.x1) <= tol &&
            (!under || u.y0 < under->y0))
          under = u;
      if (under) region = Box{above.x0, above.y1, above.x1, under->y0};
    }
    // Set in on both sides under a title of its own: the title and the prose under it start
    // at one edge set in from the column's, and none of its lines reaches nearer the column's
    // right edge. The prose is a measure's lines (the widest within the inset of its right
    // edge) or ends a sentence: a list of short lines under a heading set in is no note.
    if (!region && title.whole && r.bbox.x0 - r.col_left >= o.notes.note_inset_ratio * st.body_size) {
      const double inset = r.bbox.x0 - r.col_left, inner_right = r.col_right - inset;
      const Row* last = nullptr;
      double widest = 0;
      for (size_t j = i + 1; j < items.size() && items[j].kind == Item::Text; ++j) {
        const Row& q = items[j].row;
        if (q.page != r.page || q.column != r.column || q.footnote || q.mono || q.marker > 0 || q.drawn_marker ||
            std::fabs(q.bbox.x0 - r.bbox.x0) > tol || q.bbox.x1 > inner_right + tol || !note_title(q).kind.empty())
          break;
        last = &q;
        widest = std::max(widest, q.bbox.x1);
      }
      if (last && (widest >= inner_right - inset || last->full_stop))
        region = Box{r.bbox.x0 - tol, r.bbox.y0, inner_right + tol, last->bbox.y1 + tol};
    }
    if (!region) continue;
    const long box = note_boxes++;
    note_rows[&r] = {box, title.kind, title.text, title.whole, *region};
    claim(i + 1, r, *region, box, title.kind);
  }
}

const Builder::NoteSpot* Builder::note_of(const Row& r) const {
  auto it = note_rows.find(&r);
  return it == note_rows.end() ? nullptr : &it->second;
}

bool Builder::continues(const Row& r) const {
  if (!open()) return false;
  // A note's rows continue nothing outside it, and the rows of its box go on with it as
  // prose does (its first after a title of its own always).
  const NoteSpot* n = note_of(r);
  if (type == BlockType::Note) {
    if (!n || n->box != open_box || !n->title.empty() || r.mono || r.marker > 0 || r.drawn_marker) return false;
    if (open_titled == kTitleRow && rows.size() == 1) return true;
    // Its box drawn again over a page or column break: its text goes on there in mid-sentence
    // (the box's inset is no paragraph's indent).
    if (!same_flow(*rows.back(), r))
      return !rows.back()->full_stop && !is_heading(r) &&
             typography::same_size(r.size, rows.back()->size, o.blocks.line_size_tolerance);
    return continues_prose(r);
  }
  if (n && type != BlockType::Code && type != BlockType::ListItem) return false;
  // A table is its run of rows: nothing else continues it, and its rows continue nothing else.
  if (type == BlockType::Table) return run_of(r) >= 0 && (run_of(r) == run_of(*rows.back()) || continues_table(r));
  if (run_of(r) >= 0) return false;
  switch (type) {
    case BlockType::Code: return continues_code(r);
    case BlockType::Heading: return continues_heading(r);
    default: return !r.sign_inside && !is_heading(r) && continues_prose(r);  // (a wholly monospace row: there)
  }
}

}  // namespace quire::detail
