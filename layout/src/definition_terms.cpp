// Definition lists: a term on a line (or a few) of its own at one edge, its description set
// in under it, the next term back at the term's edge. Texinfo's @table, DocBook's
// variablelist, AsciiDoc's labelled lists and glossaries print them so. The term is a list
// item without a marker (`term`); the description stays the paragraphs it is.
//
// One such pair alone is no proof (a short line over an indented quotation looks the
// same), so a term is taken only where the list repeats its shape: another term at the same
// edge with its description at the same indent, the blocks between them all set in at least
// as far as the descriptions (a description of several paragraphs, a listing in it).
#include <algorithm>
#include <cmath>
#include <cstddef>

#include "builder.h"
#include "quire/typography.h"

namespace quire::detail {

bool Builder::term_pair(size_t i) const {
  if (i + 1 >= out.size()) return false;
  const Block& t = out[i];
  const Block& d = out[i + 1];
  const bool taken = t.type == BlockType::ListItem && t.term;  // (a term found before)
  if ((t.type != BlockType::Paragraph && t.type != BlockType::Code && !taken) || d.type != BlockType::Paragraph)
    return false;
  const Shape& ts = shapes[i];
  const Shape& ds = shapes[i + 1];
  // A term's lines are whole (a table's row has cells apart); it names in a few words, it
  // does not end a sentence nor break a word; set in a typewriter face it is one line (lines
  // of code over a paragraph set in are a listing's).
  if (ts.page < 0 || !ts.flush || !ts.short_end || ts.gapped || ts.sentence_end || ts.broken_end ||
      ts.rows > o.blocks.max_term_rows || ts.words > o.blocks.max_term_words ||
      (t.type == BlockType::Code && ts.rows > 1))
    return false;
  if (ds.page != ts.page || ds.column != ts.column) return false;
  // The description's lines are whole and start at one edge (its rows on this page), set
  // in past a paragraph's indent...
  if (!ds.flush || ds.gapped) return false;
  if (ds.left <= ts.left + o.blocks.indent_ratio * ts.size) return false;
  // A description of one line set in by the book's paragraph indent may be a paragraph's
  // first line (a one-line paragraph after one whose lines were not set in).
  if (ds.rows == 1 && ds.book_indent >= 0 && std::fabs(ds.left - ts.left - ds.book_indent) <= o.lines.edge_tolerance)
    return false;
  // ... right under the term, or beside it (split_terms).
  const double pitch = ds.first_baseline - ts.last_baseline;
  return pitch >= 0 && pitch <= typography::max_line_pitch(ts.size, o.blocks.paragraph_gap_ratio);
}

size_t Builder::find_terms(size_t from, size_t to) {
  auto same = [&](size_t a, size_t b) {
    return std::fabs(shapes[a].left - shapes[b].left) <= o.lines.edge_tolerance &&
           std::fabs(shapes[a + 1].left - shapes[b + 1].left) <= o.lines.edge_tolerance;
  };
  // Whether the blocks strictly between the descriptions of term a and the term b > a all
  // stand in the description (set in as far, or no rows: a figure).
  auto inside = [&](size_t a, size_t b) {
    const double edge = shapes[a + 1].left - o.lines.edge_tolerance;
    for (size_t k = a + 2; k < b; ++k) {
      const Block& x = out[k];
      if (x.type == BlockType::Heading) return false;
      if (shapes[k].page >= 0 && x.type != BlockType::Footnote && shapes[k].left < edge) return false;
    }
    return true;
  };
  for (size_t i = from; i < to; ++i) {
    if (!term_pair(i)) continue;
    bool list = false;
    for (size_t j = i + 2; !list && j < out.size() && j <= i + o.blocks.term_lookahead; ++j)
      if (term_pair(j) && same(i, j) && inside(i, j)) list = true;
    for (size_t back = 2; !list && back <= o.blocks.term_lookahead && back <= i; ++back)
      if (term_pair(i - back) && same(i - back, i) && inside(i - back, i)) list = true;
    if (!list) continue;
    out[i].type = BlockType::ListItem;
    out[i].term = true;
  }
  // Rows read apart for nothing are whole again (last first, so indices hold): the term's
  // part goes back to the description's block, which starts with the whole row as it would
  // have; a block of the term alone is joined to it.
  for (size_t i = to; i-- > from;) {
    if (text_rows[i].empty() || !text_rows[i].back()->term_part || out[i].term || i + 1 >= out.size()) continue;
    const Row* part = text_rows[i].back();
    Block& d = out[i + 1];
    d.type = BlockType::Paragraph;
    d.page = part->page;
    d.bbox = d.bbox.united(part->bbox);
    text_rows[i + 1].insert(text_rows[i + 1].begin(), part);
    sizes[i + 1] = std::max(sizes[i + 1], part->size);
    shapes[i + 1].flush = false;
    text_rows[i].pop_back();
    if (!text_rows[i].empty()) {
      Block& t = out[i];
      const std::vector<const Row*>& rs = text_rows[i];
      t.bbox = rs.front()->bbox;
      t.last_page = rs.back()->page;
      for (const Row* r : rs)
        if (r->page == t.page) t.bbox = t.bbox.united(r->bbox);
      continue;
    }
    const auto at = static_cast<std::ptrdiff_t>(i);
    out.erase(out.begin() + at);
    sizes.erase(sizes.begin() + at);
    text_rows.erase(text_rows.begin() + at);
    captioned.erase(captioned.begin() + at);
    titled.erase(titled.begin() + at);
    shapes.erase(shapes.begin() + at);
    if (i + 1 < to) --to;
  }
  return to;
}

}  // namespace quire::detail
