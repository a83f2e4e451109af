// Book statistics: the body size, code size, margins and leading that the thresholds of every
// pass are relative to, each the most common value over the book's pages.
#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstring>

#include "figures.h"
#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "quire/typography.h"
#include "page_passes.h"

namespace quire::detail {

namespace {

std::string font_key(const Span& s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "@%.1f", s.size);
  return s.font + buf;
}

// One page's share of the book statistics (measure_book adds the pages up in page order).
struct PageSizes {
  SmallCounts size_chars;         // size in 0.1 pt -> characters of proportional spans
  bool bracketed_marks = false;   // a raised "[" before raised digits (BookStats::bracketed_marks)
  std::map<std::string, std::vector<double>> adv;  // monospace font key -> glyph advances
  // What the margins and the text block need once the body size is known, so that the
  // spans are read once:
  struct LineSizes {
    double x0, x1;
    double baseline;            // of its first span (0: none)
    double min_size, max_size;  // of its spans
    bool prose;                 // it has spans, none of them monospace
  };
  std::vector<LineSizes> lines;
  struct SizeBaselines {
    double size;
    double top = 1e9, bottom = -1;  // first and last baseline of visible spans of the size
  };
  std::vector<SizeBaselines> baselines;  // one per distinct span size
  double wrap_mark_blank = -1;  // BookStats::wrap_mark_blank of the page (-1: none)
};

struct PageEdges {
  std::vector<double> x0s, x1s;  // left and right edges of body-size prose lines
  std::vector<double> pitches;   // distances between consecutive baselines of such lines
  double top = 1e9, bottom = -1;  // first and last baseline of body-size text
};

// A raised "[" followed by raised digits, on a line with text at its own size. (Asked of
// every line: the spans are looked at further only where one is a lone "[".)
bool raises_bracketed_mark(const Line& l) {
  if (l.spans.size() < 3) return false;
  const Span* largest = nullptr;
  for (size_t k = 0; k + 1 < l.spans.size(); ++k) {
    const Span& a = l.spans[k];
    const Span& b = l.spans[k + 1];
    if (a.text != "[" || b.text.empty() ||
        !std::all_of(b.text.begin(), b.text.end(), [](char c) { return (c >= '0' && c <= '9') || c == ']'; }))
      continue;
    if (!largest) {
      largest = &l.spans.front();
      for (const auto& s : l.spans)
        if (s.size > largest->size) largest = &s;
    }
    if (raised_against(a, *largest) && raised_against(b, *largest)) return true;
  }
  return false;
}

// The body size (the size most proportional characters are set in), the code size (the size
// most monospace glyphs are measured in) and each monospace font's advance, from the pages'
// counts.
void sizes_from(std::vector<PageSizes>& sizes, BookStats& st) {
  std::map<long, long> size_chars;  // size in 0.1 pt -> characters
  std::map<std::string, std::vector<double>> adv;
  // (Each font's advances are put together in one allocation: a book of listings measures
  // millions, and a vector grown page by page copied them two or three times over.)
  std::map<std::string, size_t> counts;
  for (const auto& ps : sizes)
    for (const auto& [k, v] : ps.adv) counts[k] += v.size();
  for (const auto& [k, c] : counts) adv[k].reserve(c);
  for (auto& ps : sizes) {
    for (const auto& [sz, c] : ps.size_chars.counts()) size_chars[sz] += c;
    for (auto& [k, v] : ps.adv) {
      auto& all = adv[k];
      all.insert(all.end(), v.begin(), v.end());
    }
    ps.adv.clear();
  }
  long best = 0;
  for (const auto& [sz, c] : size_chars)
    if (c > best) { best = c; st.body_size = typography::from_tenths_key(sz); }
  // The uniform advance: the most common glyph-to-glyph distance (kerning never applies
  // in a monospace face, so the mode is the advance; the median guards against rounding).
  std::map<long, size_t> code_chars;  // size in 0.1 pt -> monospace glyph pairs measured
  for (const auto& [k, v] : adv) {
    const size_t at = k.rfind('@');
    if (at != std::string::npos) code_chars[typography::tenths_key(std::strtod(k.c_str() + at + 1, nullptr))] += v.size();
  }
  size_t most = 0;
  for (const auto& [sz, c] : code_chars)
    if (c > most) { most = c; st.code_size = typography::from_tenths_key(sz); }
  for (auto& [k, v] : adv)
    if (!v.empty()) st.mono_advance[k] = median_in_place(v);
}

// The text block per page parity (left and justified right margin, first and last baseline)
// and the line pitch, from the body-size prose lines of every page.
void text_block(const Document& doc, const std::vector<PageSizes>& sizes, const LayoutOptions& o, BookStats& st) {
  const size_t n = doc.pages.size();
  // Left margin per page parity: the flush edge of body-size prose lines (two-sided
  // books shift the text block between odd and even pages).
  std::vector<PageEdges> edges(n);
  const double body = st.body_size;
  parallel_for(n, o.jobs, [&](size_t i) {
    const PageSizes& ps = sizes[i];
    PageEdges& e = edges[i];
    // A body line: every span within half a point of the body size (|size - body| grows
    // away from the body size, so the smallest and the largest tell).
    for (const auto& ls : ps.lines)
      if (ls.prose && std::fabs(ls.min_size - body) <= o.lines.body_size_tolerance &&
          std::fabs(ls.max_size - body) <= o.lines.body_size_tolerance) {
        e.x0s.push_back(ls.x0);
        e.x1s.push_back(ls.x1);
        if (ls.baseline > 0) e.pitches.push_back(ls.baseline);
      }
    // Baselines in order; the steps between neighbours that look like one line's to the next
    // (two columns share their baselines, and steps wider than a paragraph's gap cross one).
    std::sort(e.pitches.begin(), e.pitches.end());
    std::vector<double> steps;
    for (size_t k = 1; k < e.pitches.size(); ++k) {
      const double d = e.pitches[k] - e.pitches[k - 1];
      if (d >= o.blocks.min_line_pitch_ratio * body && d <= typography::max_line_pitch(body, o.blocks.paragraph_gap_ratio)) steps.push_back(d);
    }
    e.pitches = std::move(steps);
    for (const auto& b : ps.baselines)
      if (std::fabs(b.size - body) <= o.lines.body_size_tolerance && b.bottom > 0) {
        e.top = std::min(e.top, b.top);
        e.bottom = std::max(e.bottom, b.bottom);
      }
  });
  std::map<int, std::vector<double>> x0s, x1s;
  std::map<int, std::vector<double>> tops, bottoms;
  std::vector<double> pitches;
  for (size_t i = 0; i < n; ++i) {
    const int parity = doc.pages[i].number % 2;
    const PageEdges& e = edges[i];
    pitches.insert(pitches.end(), e.pitches.begin(), e.pitches.end());
    if (!e.x0s.empty()) {
      auto& v = x0s[parity];
      v.insert(v.end(), e.x0s.begin(), e.x0s.end());
      auto& w = x1s[parity];
      w.insert(w.end(), e.x1s.begin(), e.x1s.end());
    }
    if (e.bottom > 0) {
      tops[parity].push_back(e.top);
      bottoms[parity].push_back(e.bottom);
    }
  }
  for (const auto& [parity, v] : x0s) st.left_margin[parity] = mode(v, o.lines.edge_bin);
  // The justified right edge, where enough lines end at one place to call it that (ragged
  // lines end anywhere, and their most common end says nothing).
  for (const auto& [parity, v] : x1s) {
    const double m = mode(v, o.lines.edge_bin);
    const auto at =
        std::count_if(v.begin(), v.end(), [&](double x) { return std::fabs(x - m) <= o.lines.edge_tolerance; });
    if (static_cast<double>(at) >= o.lines.justified_margin_share * static_cast<double>(v.size())) st.right_margin[parity] = m;
  }
  if (!pitches.empty()) st.line_pitch = mode(pitches, o.lines.line_pitch_bin);
  for (const auto& [parity, v] : tops) st.text_top[parity] = mode(v, o.lines.text_block_bin);
  for (const auto& [parity, v] : bottoms) st.text_bottom[parity] = mode(v, o.lines.text_block_bin);
}

BookStats measure(const Document& doc, std::vector<PageLines>& lines, const LayoutOptions& o, WordEvidence* words) {
  BookStats st;
  const size_t n = doc.pages.size();
  std::vector<PageSizes> sizes(n);
  lines.assign(n, {});
  auto measure_page = [&](size_t i, const Page& page) {
    PageSizes& ps = sizes[i];
    const PageLines& pl = lines[i] = PageLines(page, o);
    const Span* last_mono = nullptr;  // the last monospace span, whose advances went to `into`
    std::vector<double>* into = nullptr;
    ps.lines.reserve(page.lines.size());
    for (const auto& l : page.lines) {
      if (!ps.bracketed_marks) ps.bracketed_marks = raises_bracketed_mark(l);
      const double baseline = l.spans.empty() ? 0.0 : l.baseline();
      PageSizes::LineSizes ls{l.bbox.x0, l.bbox.x1, baseline, 1e300, -1e300, !l.spans.empty()};
      for (size_t k = 0; k < l.spans.size(); ++k) {
        const Span& s = l.spans[k];
        ls.min_size = std::min(ls.min_size, s.size);
        ls.max_size = std::max(ls.max_size, s.size);
        if (s.baseline > 0) {
          auto b = std::find_if(ps.baselines.begin(), ps.baselines.end(),
                                [&](const PageSizes::SizeBaselines& e) { return e.size == s.size; });
          if (b == ps.baselines.end()) b = ps.baselines.insert(b, {s.size});
          // (Visibility is asked last: only a baseline beyond the extremes so far counts.)
          if ((s.baseline < b->top || s.baseline > b->bottom) && has_visible(s.text)) {
            b->top = std::min(b->top, s.baseline);
            b->bottom = std::max(b->bottom, s.baseline);
          }
        }
        if (pl.mono(l, k)) {
          ls.prose = false;
          // (A listing's spans follow one another in one font: its key is made once.)
          if (!last_mono || last_mono->size != s.size || last_mono->font != s.font) into = &ps.adv[font_key(s)];
          last_mono = &s;
          append_advances(s, to_u32(s.text), *into);
          continue;
        }
        ps.size_chars.add(typography::tenths_key(s.size), static_cast<long>(utf8_length(s.text)));
      }
      ps.lines.push_back(ls);
      if (!ls.prose && !l.spans.empty())
        if (const size_t mark = wrap_mark_end_spans({&l}, pl); mark > 0) {
          // The cell: the advance of the text before the mark.
          const Span& text = l.spans[l.spans.size() - mark - 1];
          const double adv = text.xs.size() > 1 ? (text.xs.back() - text.xs.front()) / static_cast<double>(text.xs.size() - 1)
                                                : text.last_advance;
          if (adv > 0) {
            const double blank = wrap_mark_blank({&l}, mark, adv);
            if (ps.wrap_mark_blank < 0 || blank < ps.wrap_mark_blank) ps.wrap_mark_blank = blank;
          }
        }
    }
  };
  if (words) *words = collect_words(doc, lines, o, measure_page);
  else read_pages(doc, o.jobs, measure_page);
  sizes_from(sizes, st);
  for (const auto& ps : sizes) {
    st.lines += ps.lines.size();
    if (ps.wrap_mark_blank >= 0 && (st.wrap_mark_blank < 0 || ps.wrap_mark_blank < st.wrap_mark_blank))
      st.wrap_mark_blank = ps.wrap_mark_blank;
  }
  st.bracketed_marks = std::any_of(sizes.begin(), sizes.end(), [](const PageSizes& ps) { return ps.bracketed_marks; });
  text_block(doc, sizes, o, st);
  return st;
}

}  // namespace

BookStats measure_book(const Document& doc, std::vector<PageLines>& lines, const LayoutOptions& o) {
  return measure(doc, lines, o, nullptr);
}

BookStats measure_book(const Document& doc, std::vector<PageLines>& lines, const LayoutOptions& o, WordEvidence& words) {
  return measure(doc, lines, o, &words);
}

}  // namespace quire::detail
