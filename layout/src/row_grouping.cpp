// Rows: lines that share a baseline are one typeset row, read left to right.
#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include <unicode/uchar.h>

#include "figures.h"
#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "quire/typography.h"
#include "page_passes.h"
#include "text_chars.h"

namespace quire::detail {

namespace {

// Code points of `s` that are not white space.
long visible_count(const std::string& s) {
  long n = 0;
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) {  // not ASCII: decode
      n = 0;
      for (char32_t cp : to_u32(s))
        if (!is_space_cp(cp)) ++n;
      return n;
    }
    if (c != ' ' && (c < '\t' || c > '\r')) ++n;
  }
  return n;
}

// A sign set from a symbol or math font (an arrow, a relation: U+21D2, U+22A3, U+2261): a
// listing prints such glyphs among its typewriter text, as a result or an equivalence mark
// no typewriter face has. ASCII signs and punctuation are not among them: a proportional
// quote or full stop beside inline code is prose.
bool foreign_sign(char32_t c) {
  if (c < 0x80 || is_unmapped_cp(c)) return false;  // (U+FFFD is a symbol too)
  const int8_t t = u_charType(static_cast<UChar32>(c));
  return t == U_MATH_SYMBOL || t == U_OTHER_SYMBOL;
}

// Glyphs of `s` that are foreign_sign.
long sign_count(const std::string& s) {
  if (is_ascii(s)) return 0;
  long n = 0;
  for (char32_t cp : to_u32(s))
    if (foreign_sign(cp)) ++n;
  return n;
}

// The spans a wrap mark takes at the start of `l` (is_wrap_mark: set from a font not
// monospace, monospace text after it on the line or, where the mark is a line of its own,
// on the row's next line), 0 for none.
size_t wrap_mark_spans(const Line& l, const PageLines& pl, bool more_lines) {
  std::u32string mark;
  for (size_t k = 0; k < l.spans.size(); ++k) {
    if (pl.mono(l, k)) return k > 0 && is_wrap_mark(mark) && visible_count(l.spans[k].text) > 0 ? k : 0;
    for (char32_t c : to_u32(l.spans[k].text))
      if (!is_space_cp(c)) mark += c;
    if (mark.size() > kLongestWrapMark) return 0;
  }
  return more_lines && is_wrap_mark(mark) ? l.spans.size() : 0;
}

Row make_row(int page, std::vector<const Line*> lines, const PageLines& pl) {
  Row r;
  r.page = page;
  std::stable_sort(lines.begin(), lines.end(), [](const Line* a, const Line* b) { return a->bbox.x0 < b->bbox.x0; });
  r.lines = lines;
  r.bbox = lines.front()->bbox;
  SmallCounts sizes;  // size in 0.1 pt -> visible characters
  long visible = 0, bold = 0, mono = 0, signs = 0;
  int lead = -1;       // whether the first visible glyph is monospace (-1: none yet)
  bool trail = false;  // whether the last one is
  for (const Line* l : lines) {
    r.bbox = r.bbox.united(l->bbox);
    if (!r.text.empty()) r.text += ' ';
    r.text += pl.text(*l);
    for (size_t k = 0; k < l->spans.size(); ++k) {
      const Span& s = l->spans[k];
      const long n = visible_count(s.text);
      visible += n;
      sizes.add(typography::tenths_key(s.size), n);
      if (s.bold) bold += n;
      if (lead < 0 && n > 0) lead = pl.mono(*l, k) ? 1 : 0;
      if (n > 0) trail = pl.mono(*l, k);
      if (pl.mono(*l, k)) mono += n;
      else signs += sign_count(s.text);
      r.span_fonts.push_back(static_cast<uint8_t>((pl.mono(*l, k) ? kSpanMono : 0) | (s.bold ? kSpanBold : 0) |
                                                  (s.italic ? kSpanItalic : 0)));
    }
  }
  if (!sizes.counts().empty()) r.size = typography::from_tenths_key(sizes.most_common(0));
  r.bold = visible > 0 && bold == visible;
  const Line* first = lines.front();
  r.baseline = first->baseline();
  if (r.baseline == 0) r.baseline = first->bbox.y1;
  r.marker = list_marker(r.text);
  r.mono = visible > 0 && mono == visible;
  // A listing line's continuation: its wrap mark aside, monospace.
  if (!r.mono && mono > 0 && (r.wrap_mark = wrap_mark_spans(*first, pl, lines.size() > 1)) > 0) {
    long mark = 0;
    for (size_t k = 0; k < r.wrap_mark; ++k) mark += visible_count(first->spans[k].text);
    if (mono + mark == visible) r.mono = true;
    else r.wrap_mark = 0;
  }
  // A listing line broken for the measure: its wrap mark at its end, monospace before it.
  if (!r.mono && mono > 0 && (r.wrap_mark_end = wrap_mark_end_spans(lines, pl)) > 0) {
    long mark = 0;
    const size_t spans = span_count(lines);
    for (size_t k = spans - r.wrap_mark_end; k < spans; ++k) mark += visible_count(row_span(lines, k).text);
    if (mono + mark == visible) r.mono = true;
    else r.wrap_mark_end = 0;
  }
  r.one_sign = visible > 0 && r.marker == 0 && signs == 1 && mono + signs == visible;
  r.sign_inside = r.one_sign && lead == 1 && trail;
  r.mono_framed = !r.mono && lead == 1 && trail && typography::more_than_half(mono, visible);
  r.full_stop = ends_sentence(r.text);
  r.lower_start = starts_lower(r.text);
  r.mono_end = last_token_mono(r, pl);
  r.caption = !caption_label(r.text).empty();
  return r;
}

}  // namespace

const Span& row_span(const std::vector<const Line*>& lines, size_t i) {
  for (const Line* l : lines) {
    if (i < l->spans.size()) return l->spans[i];
    i -= l->spans.size();
  }
  throw std::out_of_range("row_span");
}

size_t span_count(const std::vector<const Line*>& lines) {
  size_t n = 0;
  for (const Line* l : lines) n += l->spans.size();
  return n;
}

double wrap_mark_blank(const std::vector<const Line*>& lines, size_t mark, double adv) {
  const size_t spans = span_count(lines);
  const size_t first = spans - mark;
  const double end = row_span(lines, first - 1).bbox.x1;
  double x = row_span(lines, first).bbox.x0;
  for (size_t k = first; k < spans; ++k) {
    const Span& s = row_span(lines, k);
    const std::u32string cps = to_u32(s.text);
    const auto glyph = std::find_if(cps.begin(), cps.end(), [](char32_t c) { return !is_space_cp(c); });
    if (glyph == cps.end()) continue;
    const auto i = static_cast<size_t>(glyph - cps.begin());
    x = s.xs.size() == cps.size() ? s.xs[i] : s.bbox.x0 + static_cast<double>(i) * adv;
    break;
  }
  return adv > 0 ? std::max(0.0, x - end) / adv : 0;
}

size_t wrap_mark_end_spans(const std::vector<const Line*>& lines, const PageLines& pl) {
  std::u32string mark;
  size_t n = 0;  // spans walked, from the row's end
  for (size_t i = lines.size(); i-- > 0;) {
    const Line& l = *lines[i];
    for (size_t k = l.spans.size(); k-- > 0; ++n) {
      if (pl.mono(l, k)) return n > 0 && visible_count(l.spans[k].text) > 0 && is_trailing_wrap_mark(mark) ? n : 0;
      std::u32string cps = to_u32(l.spans[k].text);
      std::erase_if(cps, [](char32_t c) { return is_space_cp(c); });
      mark.insert(0, cps);
      if (mark.size() > kLongestWrapMark) return 0;
    }
  }
  return 0;
}

double line_size(const Line& l) {
  double s = 0;
  for (const auto& sp : l.spans) s = std::max(s, sp.size);
  return s;
}

bool ruled_apart(const Box& a, const Box& b, const std::vector<Box>& bars, const LayoutOptions& o) {
  const double mid = (b.y0 + b.y1) / 2;
  return std::any_of(bars.begin(), bars.end(), [&](const Box& bar) {
    const double x = (bar.x0 + bar.x1) / 2;
    return x > (a.x0 + a.x1) / 2 && x <= b.x0 + o.lines.edge_tolerance && bar.y0 <= mid && bar.y1 >= mid;
  });
}

std::vector<Row> group_rows(int page, std::vector<const Line*> lines, const PageLines& pl, const LayoutOptions& o,
                            const std::vector<Box>& bars) {
  // (Each line's baseline once: the sort asks for it at every comparison.)
  std::vector<std::pair<double, const Line*>> by_base;
  by_base.reserve(lines.size());
  for (const Line* l : lines) by_base.emplace_back(l->baseline(), l);
  std::stable_sort(by_base.begin(), by_base.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Row> rows;
  std::vector<const Line*> cur;
  double cur_base = 0, cur_size = 0;
  for (const auto& [b, l] : by_base) {
    const double sz = std::max(1.0, line_size(*l));
    bool overlaps = false;
    for (const Line* c : cur)
      if (l->bbox.x0 < c->bbox.x1 - o.lines.edge_tolerance && c->bbox.x0 < l->bbox.x1 - o.lines.edge_tolerance &&
          !(c->bbox.x0 < l->bbox.x0 ? ruled_apart(c->bbox, l->bbox, bars, o) : ruled_apart(l->bbox, c->bbox, bars, o)))
        overlaps = true;
    if (!cur.empty() && std::fabs(b - cur_base) < o.lines.same_row_ratio * std::min(sz, cur_size) && !overlaps) {
      cur.push_back(l);
      continue;
    }
    if (!cur.empty()) rows.push_back(make_row(page, cur, pl));
    cur = {l};
    cur_base = b;
    cur_size = sz;
  }
  if (!cur.empty()) rows.push_back(make_row(page, cur, pl));
  return rows;
}

}  // namespace quire::detail
