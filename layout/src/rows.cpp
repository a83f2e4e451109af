// A page's lines -> rows in reading order: column detection, bands split by spanning
// rows and figures, captions paired with figures, footnotes after the flow.
#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstring>

#include "figures.h"
#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"

namespace quire::detail {

namespace {

// A span whose box is taller than this many times its font size has an outsized glyph box.
constexpr double kOutsizedSpanRatio = 3.0;

char lower_ascii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Does `s` contain the lowercase ASCII word `k`, ignoring ASCII case?
bool contains_nocase(const std::string& s, std::string_view k, bool at_start_only = false) {
  if (k.size() > s.size()) return false;
  const size_t last = at_start_only ? 0 : s.size() - k.size();
  for (size_t i = 0; i <= last; ++i) {
    size_t j = 0;
    while (j < k.size() && lower_ascii(s[i + j]) == k[j]) ++j;
    if (j == k.size()) return true;
  }
  return false;
}

// Counts by a few keys (font sizes of a row or a page): a short list searched in order.
class SmallCounts {
 public:
  void add(long key, long n) {
    for (auto& [k, c] : counts_)
      if (k == key) {
        c += n;
        return;
      }
    counts_.emplace_back(key, n);
  }
  const std::vector<std::pair<long, long>>& counts() const { return counts_; }
  // The key counted most, the smallest of those on a tie; `fallback` when there are none.
  long most_common(long fallback) const {
    long best_key = fallback, best = -1;
    for (const auto& [k, c] : counts_)
      if (c > best || (c == best && k < best_key)) {
        best = c;
        best_key = k;
      }
    return best_key;
  }

 private:
  std::vector<std::pair<long, long>> counts_;
};

// to_u32(s) into `out`, reusing its storage (ASCII, most text, needs no decoding).
void decode_into(std::u32string& out, const std::string& s) {
  out.resize(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (static_cast<unsigned char>(s[i]) >= 0x80) {
      out = to_u32(s);
      return;
    }
    out[i] = static_cast<char32_t>(s[i]);
  }
}

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

// Where a row stands, for reading order: its top, or a font size above its baseline when a
// span's box is outsized. An OpenType math font's glyph boxes span the font's large
// operators, so a line of prose with one math letter ("includes ε-TeX") reaches above the
// line before it. (A formula whose rows are tall because of what they draw, a big sum with
// its limits, keeps its top.)
double reading_top(const Row& r) {
  if (r.read_at >= 0) return r.read_at;
  if (r.baseline <= 0 || r.size <= 0) return r.bbox.y0;
  for (const Line* l : r.lines)
    for (const auto& s : l->spans)
      if (s.size > 0 && s.bbox.height() > kOutsizedSpanRatio * s.size) return r.baseline - r.size;
  return r.bbox.y0;
}

bool has_visible(const std::string& s) {
  for (char32_t c : to_u32(s))
    if (!is_space_cp(c)) return true;
  return false;
}

// The element at the middle of `v` sorted (the upper one of an even count); reorders `v`.
double median_in_place(std::vector<double>& v) {
  if (v.empty()) return 0;
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

std::string font_key(const Span& s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "@%.1f", s.size);
  return s.font + buf;
}

// Consecutive glyph-position differences inside a span (code points `cps` of its text),
// skipping white space (engines place synthetic spaces anywhere in the gap). Appends to `out`.
void append_advances(const Span& s, const std::u32string& cps, std::vector<double>& out) {
  if (s.xs.size() != cps.size()) return;
  for (size_t i = 1; i < cps.size(); ++i)
    if (!is_space_cp(cps[i]) && !is_space_cp(cps[i - 1])) out.push_back(s.xs[i] - s.xs[i - 1]);
}

// The most common value of `v` rounded to `step` (the smallest such value on a tie).
double mode(const std::vector<double>& v, double step) {
  if (v.empty()) return 0;
  std::vector<long> keys;
  keys.reserve(v.size());
  for (double x : v) keys.push_back(std::lround(x / step));
  std::sort(keys.begin(), keys.end());
  long best = 0;
  size_t n = 0;
  for (size_t i = 0; i < keys.size();) {
    size_t j = i;
    while (j < keys.size() && keys[j] == keys[i]) ++j;
    if (j - i > n) { best = keys[i]; n = j - i; }
    i = j;
  }
  return static_cast<double>(best) * step;
}

}  // namespace

namespace {

// Font names of the typewriter faces in common use (TeX's cmtt/lmmono, Courier, DejaVu Sans
// Mono, Consolas, Menlo, Source Code Pro, Fira Code, Inconsolata).
bool monospace_name_uncached(const std::string& font) {
  static constexpr std::string_view kAnywhere[] = {"mono",  "courier", "typewriter", "consol",
                                                   "menlo", "monaco",  "code",       "inconsolata"};
  static constexpr std::string_view kPrefix[] = {"cmtt", "sftt", "ectt", "txtt"};
  for (std::string_view k : kAnywhere)
    if (contains_nocase(font, k)) return true;
  for (std::string_view k : kPrefix)
    if (contains_nocase(font, k, true)) return true;
  return false;
}

// A book sets its spans in a few dozen fonts: each thread remembers the verdicts.
bool monospace_name(const std::string& font) {
  constexpr size_t kRemembered = 64;
  thread_local std::vector<std::pair<std::string, bool>> seen;
  for (const auto& [name, mono] : seen)
    if (name == font) return mono;
  bool mono = monospace_name_uncached(font);
  if (seen.size() < kRemembered) seen.emplace_back(font, mono);
  return mono;
}

}  // namespace

bool is_monospace(const Span& s, const LayoutOptions& o) {
  if (s.monospace) return true;
  if (monospace_name(s.font)) return true;
  // Otherwise judge from the glyphs: a proportional face cannot set six different glyphs
  // on one uniform advance.
  // Cheapest tests first: this runs for every span of the book.
  if (s.xs.size() < 7) return false;
  thread_local std::u32string cps;
  decode_into(cps, s.text);
  thread_local std::vector<double> adv;
  adv.clear();
  append_advances(s, cps, adv);
  if (adv.size() < 6) return false;
  // Uniform advances lie within the tolerance of their median m, so within 2 x tolerance x m
  // of each other, and m <= the largest: a wider spread is proportional (most spans end
  // here, without finding the median). The margin keeps rounding on the exact test's side.
  const auto [lo, hi] = std::minmax_element(adv.begin(), adv.end());
  if (*hi <= 0) return false;
  if (*hi - *lo > 2 * o.monospace_tolerance * *hi * (1 + 1e-6)) return false;
  std::u32string distinct;
  for (char32_t c : cps) {
    if (is_space_cp(c) || distinct.find(c) != std::u32string::npos) continue;
    distinct += c;
    if (distinct.size() >= 5) break;
  }
  if (distinct.size() < 5) return false;
  double m = median_in_place(adv);
  if (m <= 0) return false;
  for (double a : adv)
    if (std::fabs(a - m) > o.monospace_tolerance * m) return false;
  return true;
}

namespace {

// One page's share of the book statistics (measure_book adds the pages up in page order).
struct PageSizes {
  SmallCounts size_chars;         // size in 0.1 pt -> characters of proportional spans
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
};

struct PageEdges {
  std::vector<double> x0s, x1s;  // left and right edges of body-size prose lines
  std::vector<double> pitches;   // distances between consecutive baselines of such lines
  double top = 1e9, bottom = -1;  // first and last baseline of body-size text
};

}  // namespace

PageLines::PageLines(const Page& page, const LayoutOptions& o) : lines_(page.lines.data()) {
  text_.reserve(page.lines.size());
  visible_.reserve(page.lines.size());
  first_.reserve(page.lines.size());
  for (const auto& l : page.lines) {
    text_.push_back(l.text());
    visible_.push_back(has_visible(text_.back()));
    first_.push_back(static_cast<uint32_t>(mono_.size()));
    for (const auto& s : l.spans) mono_.push_back(is_monospace(s, o));
  }
}

namespace {

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
      const double baseline = l.spans.empty() ? 0.0 : l.spans.front().baseline;
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
        ps.size_chars.add(std::lround(s.size * 10), static_cast<long>(utf8_length(s.text)));
      }
      ps.lines.push_back(ls);
    }
  };
  if (words) *words = collect_words(doc, lines, o, measure_page);
  else read_pages(doc, o.jobs, measure_page);
  std::map<long, long> size_chars;  // size in 0.1 pt -> characters
  std::map<std::string, std::vector<double>> adv;
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
    if (c > best) { best = c; st.body_size = sz / 10.0; }
  // The uniform advance: the most common glyph-to-glyph distance (kerning never applies
  // in a monospace face, so the mode is the advance; the median guards against rounding).
  std::map<long, size_t> code_chars;  // size in 0.1 pt -> monospace glyph pairs measured
  for (const auto& [k, v] : adv) {
    const size_t at = k.rfind('@');
    if (at != std::string::npos) code_chars[std::lround(std::strtod(k.c_str() + at + 1, nullptr) * 10)] += v.size();
  }
  size_t most = 0;
  for (const auto& [sz, c] : code_chars)
    if (c > most) { most = c; st.code_size = sz / 10.0; }
  for (auto& [k, v] : adv)
    if (!v.empty()) st.mono_advance[k] = median_in_place(v);
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
      if (ls.prose && std::fabs(ls.min_size - body) <= 0.5 && std::fabs(ls.max_size - body) <= 0.5) {
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
      if (d >= o.min_line_pitch_ratio * body && d <= (1.2 + o.paragraph_gap_ratio) * body) steps.push_back(d);
    }
    e.pitches = std::move(steps);
    for (const auto& b : ps.baselines)
      if (std::fabs(b.size - body) <= 0.5 && b.bottom > 0) {
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
  for (const auto& [parity, v] : x0s) st.left_margin[parity] = mode(v, 1.0);
  // The justified right edge, where enough lines end at one place to call it that (ragged
  // lines end anywhere, and their most common end says nothing).
  for (const auto& [parity, v] : x1s) {
    const double m = mode(v, 1.0);
    const auto at = std::count_if(v.begin(), v.end(), [&](double x) { return std::fabs(x - m) <= o.edge_tolerance; });
    if (static_cast<double>(at) >= o.justified_margin_share * static_cast<double>(v.size())) st.right_margin[parity] = m;
  }
  if (!pitches.empty()) st.line_pitch = mode(pitches, 0.1);
  for (const auto& [parity, v] : tops) st.text_top[parity] = mode(v, 0.5);
  for (const auto& [parity, v] : bottoms) st.text_bottom[parity] = mode(v, 0.5);
  return st;
}

}  // namespace

BookStats measure_book(const Document& doc, std::vector<PageLines>& lines, const LayoutOptions& o) {
  return measure(doc, lines, o, nullptr);
}

BookStats measure_book(const Document& doc, std::vector<PageLines>& lines, const LayoutOptions& o, WordEvidence& words) {
  return measure(doc, lines, o, &words);
}

std::string caption_label(const std::string& text) {
  // "Figure 1.1:", "Figure 3-2.", "Fig. 4", "Table 2:", "Listing 5", "Exhibit A".
  static const char* kWords[] = {"Figure", "Fig.", "FIGURE", "FIG.", "Table", "TABLE", "Listing", "Exhibit", "Plate", "Chart", "Diagram"};
  // (Every row is asked: most start with none of the words' initials.)
  switch (text.empty() ? '\0' : text[0]) {
    case 'F': case 'T': case 'L': case 'E': case 'P': case 'C': case 'D': break;
    default: return {};
  }
  for (const char* w : kWords) {
    std::string ws = w;
    if (text.rfind(ws, 0) != 0) continue;
    size_t i = ws.size();
    while (i < text.size() && text[i] == ' ') ++i;
    size_t j = i;
    while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '.' || text[j] == '-'))
      ++j;
    if (j == i || !std::isalnum(static_cast<unsigned char>(text[i]))) continue;
    // A number must contain a digit or be a single letter ("Exhibit A").
    std::string num = text.substr(i, j - i);
    while (!num.empty() && (num.back() == '.' || num.back() == '-')) num.pop_back();
    bool digit = std::any_of(num.begin(), num.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (!digit && num.size() != 1) continue;
    return ws + " " + num;
  }
  return {};
}

// Dot leaders between a contents entry and its page number: a run of dots, which OCR may
// read partly as "0", "o" or "," ("..0..0.00..") but mostly as dots.
bool has_leader_run(const std::string& text, const LayoutOptions& o) {
  size_t run = 0, dots = 0;
  for (char c : text) {
    if (c == ' ') continue;
    if (c == '.' || c == '0' || c == 'o' || c == ',') {
      ++run;
      if (c == '.') ++dots;
      if (run >= o.min_leader_chars && dots * 2 > run) return true;
    } else {
      run = dots = 0;
    }
  }
  return false;
}

double page_number_line_share(const Page& page, const PageLines& pl, const LayoutOptions& o) {
  // Rows of the page (a contents line is often several lines: number, title, leaders, page).
  std::vector<const Line*> lines;
  for (const auto& l : page.lines)
    if (pl.visible(l)) lines.push_back(&l);
  std::stable_sort(lines.begin(), lines.end(), [](const Line* a, const Line* b) { return a->bbox.y1 < b->bbox.y1; });
  int rows = 0, numbered = 0;
  for (size_t i = 0; i < lines.size();) {
    size_t j = i;
    std::vector<const Line*> row;
    while (j < lines.size() && std::fabs(lines[j]->bbox.y1 - lines[i]->bbox.y1) < 0.3 * lines[i]->bbox.height()) row.push_back(lines[j++]);
    i = j;
    std::stable_sort(row.begin(), row.end(), [](const Line* a, const Line* b) { return a->bbox.x0 < b->bbox.x0; });
    std::string text;
    for (const Line* l : row) {
      text += pl.text(*l);
      text += ' ';
    }
    bool more = false;
    const std::optional<std::string> last_tok = last_token(text, &more);
    if (!last_tok) continue;
    ++rows;
    const std::string& last = *last_tok;
    // Arabic or roman page numbers, or a list of them ("12, 34, 56" in an index).
    bool number = std::all_of(last.begin(), last.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) || c == ',' || c == '-' || std::strchr("ivxlcdm", c);
    }) && std::any_of(last.begin(), last.end(), [](char c) { return c != ',' && c != '-'; });
    if ((number && more) || has_leader_run(text, o)) ++numbered;
  }
  return rows ? static_cast<double>(numbered) / rows : 0;
}

namespace {

Row make_row(int page, std::vector<const Line*> lines, const PageLines& pl) {
  Row r;
  r.page = page;
  std::stable_sort(lines.begin(), lines.end(), [](const Line* a, const Line* b) { return a->bbox.x0 < b->bbox.x0; });
  r.lines = lines;
  r.bbox = lines.front()->bbox;
  SmallCounts sizes;  // size in 0.1 pt -> visible characters
  long visible = 0, bold = 0, mono = 0;
  for (const Line* l : lines) {
    r.bbox = r.bbox.united(l->bbox);
    if (!r.text.empty()) r.text += ' ';
    r.text += pl.text(*l);
    for (size_t k = 0; k < l->spans.size(); ++k) {
      const Span& s = l->spans[k];
      const long n = visible_count(s.text);
      visible += n;
      sizes.add(std::lround(s.size * 10), n);
      if (s.bold) bold += n;
      if (pl.mono(*l, k)) mono += n;
      r.span_fonts.push_back(static_cast<uint8_t>((pl.mono(*l, k) ? kSpanMono : 0) | (s.bold ? kSpanBold : 0) |
                                                  (s.italic ? kSpanItalic : 0)));
    }
  }
  if (!sizes.counts().empty()) r.size = sizes.most_common(0) / 10.0;
  r.bold = visible > 0 && bold == visible;
  r.mono = visible > 0 && mono == visible;
  const Line* first = lines.front();
  r.baseline = first->spans.empty() ? first->bbox.y1 : first->spans.front().baseline;
  if (r.baseline == 0) r.baseline = first->bbox.y1;
  r.marker = list_marker(r.text);
  r.full_stop = ends_sentence(r.text);
  r.lower_start = starts_lower(r.text);
  r.mono_end = last_token_mono(r, pl);
  r.caption = !caption_label(r.text).empty();
  return r;
}

double line_size(const Line& l) {
  double s = 0;
  for (const auto& sp : l.spans) s = std::max(s, sp.size);
  return s;
}

double line_baseline(const Line& l) {
  for (const auto& sp : l.spans)
    if (sp.baseline != 0) return sp.baseline;
  return l.bbox.y1;
}

// Lines of one column -> rows: lines whose baselines agree (and that do not overlap in x)
// are parts of one typeset line.
std::vector<Row> group_rows(int page, std::vector<const Line*> lines, const PageLines& pl, const LayoutOptions& o) {
  std::stable_sort(lines.begin(), lines.end(), [](const Line* a, const Line* b) {
    return line_baseline(*a) < line_baseline(*b);
  });
  std::vector<Row> rows;
  std::vector<const Line*> cur;
  double cur_base = 0, cur_size = 0;
  for (const Line* l : lines) {
    double b = line_baseline(*l), sz = std::max(1.0, line_size(*l));
    bool overlaps = false;
    for (const Line* c : cur)
      if (l->bbox.x0 < c->bbox.x1 - o.edge_tolerance && c->bbox.x0 < l->bbox.x1 - o.edge_tolerance) overlaps = true;
    if (!cur.empty() && std::fabs(b - cur_base) < o.same_row_ratio * std::min(sz, cur_size) && !overlaps) {
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

// A word or two set beside a paragraph, centred on it rather than on its first line, past a
// gap: an admonition's label ("NOTE", "Tip") left of its text, often with a rule between
// them. On the baseline of one of the paragraph's lines it would be read into that line, and
// between two of them it would split the paragraph: it is read before the paragraph.
struct SideLabel {
  const Line* label;
  const Line* first;  // the block's first line: the label is read before it
};

std::vector<SideLabel> side_labels(const std::vector<const Line*>& lines, const PageLines& pl, const LayoutOptions& o) {
  std::vector<SideLabel> out;
  for (const Line* l : lines) {
    const std::string& t = pl.text(*l);
    const size_t n = whitespace_tokens(t).size();
    const size_t chars = utf8_length(t);
    if (n == 0 || n > o.side_label_max_words || chars < 2 || chars > o.side_label_max_chars) continue;
    // A word: a number there is a line or chunk number, a table's cell, a margin's count.
    bool mono = false, letter = false;
    for (size_t k = 0; k < l->spans.size(); ++k) mono = mono || pl.mono(*l, k);
    for (char32_t c : to_u32(t)) letter = letter || is_letter_cp(c);
    if (mono || !letter) continue;
    const double size = std::max(1.0, line_size(*l)), base = line_baseline(*l);
    const double mid = (l->bbox.y0 + l->bbox.y1) / 2;
    auto code = [&](const Line* r) {  // wholly monospace
      for (size_t sp = 0; sp < r->spans.size(); ++sp)
        if (!pl.mono(*r, sp)) return false;
      return true;
    };
    // The block beside it: one paragraph right of the label, past the gap (its left edge is
    // that of the lines near the label). Its lines follow one another at a line pitch, flush
    // left but for an indented first line, every one but the last as wide as the others,
    // none wholly monospace.
    std::vector<const Line*> near;
    double edge = 1e300, right = 0;
    for (const Line* r : lines)
      if (r->bbox.x0 >= l->bbox.x1 + o.side_label_gap_ratio * size &&
          std::fabs((r->bbox.y0 + r->bbox.y1) / 2 - mid) <= o.side_label_reach_ratio * size) {
        near.push_back(r);
        edge = std::min(edge, r->bbox.x0);
      }
    if (near.empty()) continue;
    std::vector<const Line*> para;
    for (const Line* r : lines)
      if (r->bbox.x0 >= edge - o.edge_tolerance && r->bbox.x0 <= edge + o.side_label_indent_ratio * size) {
        para.push_back(r);
        right = std::max(right, r->bbox.x1);
      }
    if (para.size() < 2) continue;  // beside one line, the label reads first on its row anyway
    std::sort(para.begin(), para.end(), [](const Line* a, const Line* b) { return line_baseline(*a) < line_baseline(*b); });
    size_t at = 0;
    for (size_t k = 1; k < para.size(); ++k)
      if (std::fabs(line_baseline(*para[k]) - base) < std::fabs(line_baseline(*para[at]) - base)) at = k;
    auto follows = [&](size_t k) {  // para[k + 1] is the line after para[k] in one paragraph
      const Line &a = *para[k], &b = *para[k + 1];
      return line_baseline(b) - line_baseline(a) <= o.side_label_pitch_ratio * std::max(1.0, line_size(a)) &&
             a.bbox.x1 >= right - 2 * size && b.bbox.x0 <= edge + o.edge_tolerance;
    };
    size_t first = at, last = at;
    while (first > 0 && follows(first - 1)) --first;
    while (last + 1 < para.size() && follows(last)) ++last;
    if (last == first) continue;
    bool prose = true;
    for (size_t k = first; k <= last; ++k) prose = prose && !code(para[k]);
    if (!prose) continue;
    std::vector<const Line*> flush(para.begin() + static_cast<long>(first), para.begin() + static_cast<long>(last) + 1);
    first = 0;
    last = flush.size() - 1;
    // Against the middle: centred on the block (within half a line pitch), below its first
    // line. (A hanging label, a bibliography's "[L94]", stands on its entry's first line.)
    const double pitch = (line_baseline(*flush[last]) - line_baseline(*flush[first])) / static_cast<double>(last);
    const double block_mid = (flush[first]->bbox.y0 + flush[last]->bbox.y1) / 2;
    if (base <= line_baseline(*flush[first]) + 0.5 * size || std::fabs(mid - block_mid) > 0.5 * pitch) continue;
    // Alone beside the block: no other line left of its edge over its height (a table's
    // first column, or margin notes, have more).
    const double top = flush[first]->bbox.y0, bottom = flush[last]->bbox.y1;
    bool alone = true;
    for (const Line* r : lines)
      if (r != l && r->bbox.x1 <= edge && r->bbox.y1 > top && r->bbox.y0 < bottom) alone = false;
    // And alone where it stands: no other line but code starts at its left edge near it (a
    // list's tags, a bibliography's keys, a table's first column).
    for (const Line* r : lines)
      if (alone && r != l && std::fabs(r->bbox.x0 - l->bbox.x0) <= o.edge_tolerance &&
          std::fabs((r->bbox.y0 + r->bbox.y1) / 2 - mid) <= 2 * o.side_label_reach_ratio * size && !code(r))
        alone = false;
    if (alone) out.push_back({l, flush[first]});
  }
  return out;
}

// Whether a list's bullet is drawn before the row's first word: browsers print a disc or a
// square as a path, not as a character. A small mark, about as wide as high, its middle in
// the row's x-height, shortly left of the row.
bool drawn_bullet_before(const Row& r, const Page& page, const LayoutOptions& o) {
  const double em = r.size;
  for (const auto& p : page.paths) {
    // A stroked mark's box takes in its joins (see kStrokeBoxPad): its shape lies inside.
    const double e = p.stroke && !p.fill ? std::min(kStrokeBoxPad * p.line_width, std::min(p.bbox.width(), p.bbox.height()) / 2) : 0;
    const Box b{p.bbox.x0 + e, p.bbox.y0 + e, p.bbox.x1 - e, p.bbox.y1 - e};
    const double w = b.width(), h = b.height(), cy = (b.y0 + b.y1) / 2;
    if (std::min(w, h) < o.bullet_min_ratio * em || std::max(w, h) > o.bullet_max_ratio * em) continue;
    if (std::max(w, h) > 1.5 * std::min(w, h)) continue;  // a dash or a bar, not a bullet
    if (cy < r.baseline - 0.75 * em || cy > r.baseline - 0.05 * em) continue;
    if (b.x1 > r.bbox.x0 - 0.1 * em || b.x1 < r.bbox.x0 - o.bullet_reach_ratio * em) continue;
    return true;
  }
  return false;
}

struct Gutter {
  bool found = false;
  double x0 = 0, x1 = 0;
};

// A two-column page has a vertical strip near the middle of the text area that almost no
// line crosses, with a flush left edge on both sides of it.
Gutter find_gutter(const std::vector<const Line*>& lines, const PageLines& pl, const LayoutOptions& o) {
  Gutter g;
  if (lines.size() < static_cast<size_t>(2 * o.min_column_lines)) return g;
  double L = 1e9, R = -1e9;
  for (const Line* l : lines) {
    L = std::min(L, l->bbox.x0);
    R = std::max(R, l->bbox.x1);
  }
  int n = static_cast<int>(std::ceil(R - L));
  if (n < 50) return g;
  std::vector<int> cover(n + 1, 0);
  for (const Line* l : lines)
    for (int x = static_cast<int>(l->bbox.x0 - L); x <= static_cast<int>(l->bbox.x1 - L) && x <= n; ++x)
      if (x >= 0) cover[x]++;
  int limit = static_cast<int>(o.max_gutter_crossing * lines.size());
  int lo = static_cast<int>(0.3 * n), hi = static_cast<int>(0.7 * n);
  // Strips crossed by few lines, widest first (in x order among equals).
  std::vector<std::pair<int, int>> strips;  // start, length
  for (int x = lo; x <= hi;) {
    if (cover[x] > limit) { ++x; continue; }
    int s = x;
    while (x <= n && cover[x] <= limit) ++x;
    if (x - s >= o.min_gutter) strips.push_back({s, x - s});
  }
  std::stable_sort(strips.begin(), strips.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  // Both sides must hold lines with a flush left edge: prose, or on one side a listing (a
  // column of code beside one of prose). Code on both sides is one listing with its
  // comments set in a column of their own.
  auto aligned = [&](bool right, double gx0, double gx1, bool with_code = false) {
    std::vector<double> xs;
    for (const Line* l : lines) {
      bool mono = true;
      for (size_t k = 0; k < l->spans.size(); ++k)
        if (!pl.mono(*l, k)) {
          mono = false;
          break;
        }
      if (mono && !with_code) continue;
      if (right ? l->bbox.x0 >= gx1 - 1 : l->bbox.x1 <= gx0 + 1) xs.push_back(l->bbox.x0);
    }
    if (xs.empty()) return 0;
    double m = mode(xs, 1.0);
    int c = 0;
    for (double x : xs)
      if (std::fabs(x - m) <= o.edge_tolerance) ++c;
    return c;
  };
  // A short column beside a whole one: its lines start together beside the other's lines,
  // and one of them is as wide as a line of the whole column. A caption there (under a
  // figure at the column's top, centred) is not one of its lines.
  auto short_column = [&](bool right, double gx0, double gx1) {
    double whole_top = 1e9, whole_bottom = -1e9, whole_left = 1e9, whole_right = -1e9;
    double widest = 0, first_x0 = 0;
    int n = 0;
    for (const Line* l : lines) {
      const bool on_short_side = right ? l->bbox.x0 >= gx1 - 1 : l->bbox.x1 <= gx0 + 1;
      const bool on_whole_side = right ? l->bbox.x1 <= gx0 + 1 : l->bbox.x0 >= gx1 - 1;
      if (on_whole_side) {
        whole_top = std::min(whole_top, l->bbox.y0);
        whole_bottom = std::max(whole_bottom, l->bbox.y1);
        whole_left = std::min(whole_left, l->bbox.x0);
        whole_right = std::max(whole_right, l->bbox.x1);
      }
      if (!on_short_side || !caption_label(l->text()).empty()) continue;
      if (n++ == 0) first_x0 = l->bbox.x0;
      if (std::fabs(l->bbox.x0 - first_x0) > o.edge_tolerance) return false;
      widest = std::max(widest, l->bbox.x1 - l->bbox.x0);
    }
    if (n == 0 || widest < o.short_column_width_ratio * (whole_right - whole_left)) return false;
    // (Beside it: not above or below the whole column's lines.)
    for (const Line* l : lines) {
      const bool on_short_side = right ? l->bbox.x0 >= gx1 - 1 : l->bbox.x1 <= gx0 + 1;
      if (on_short_side && (l->bbox.y0 < whole_top - o.edge_tolerance || l->bbox.y1 > whole_bottom + o.edge_tolerance))
        return false;
    }
    return true;
  };
  // Whether a side holds justified prose: lines of several words that end together (not a
  // table's cells beside a column of names set in a typewriter face).
  auto justified = [&](bool right, double gx0, double gx1) {
    std::vector<double> x1s;
    for (const Line* l : lines) {
      if (!(right ? l->bbox.x0 >= gx1 - 1 : l->bbox.x1 <= gx0 + 1)) continue;
      const std::string t = pl.text(*l);
      if (std::count(t.begin(), t.end(), ' ') + 1 >= o.min_justified_line_words) x1s.push_back(l->bbox.x1);
    }
    if (x1s.empty()) return false;
    const double m = mode(x1s, 1.0);
    return std::count_if(x1s.begin(), x1s.end(), [&](double x) { return std::fabs(x - m) <= o.edge_tolerance; }) >=
           o.min_column_lines;
  };
  // Whether a third or more of one side's lines stand on the baselines of the other side's:
  // a table's rows (a name in a typewriter face, its description beside it), where a
  // listing beside a column of prose keeps a line pitch of its own.
  auto paired = [&](bool right, double gx0, double gx1) {
    std::vector<double> other;
    size_t n = 0, on = 0;
    for (const Line* l : lines)
      if (right ? l->bbox.x1 <= gx0 + 1 : l->bbox.x0 >= gx1 - 1) other.push_back(line_baseline(*l));
    for (const Line* l : lines) {
      if (!(right ? l->bbox.x0 >= gx1 - 1 : l->bbox.x1 <= gx0 + 1)) continue;
      ++n;
      const double b = line_baseline(*l);
      if (std::any_of(other.begin(), other.end(), [&](double y) { return std::fabs(y - b) <= o.same_baseline; })) ++on;
    }
    return 3 * on >= n;
  };
  // With `code`, one side may be a listing: asked of a strip's least crossed part only, as
  // a listing's ragged right edge leaves a wide strip crossed by few of its lines.
  // With `short_only`, one side must be a short column.
  auto columns = [&](double gx0, double gx1, bool code = false, bool short_only = false) {
    const bool left = aligned(false, gx0, gx1) >= o.min_column_lines;
    const bool right = aligned(true, gx0, gx1) >= o.min_column_lines;
    if (short_only) return (left && !right && short_column(true, gx0, gx1)) || (right && !left && short_column(false, gx0, gx1));
    if ((left && right) || (left && short_column(true, gx0, gx1)) || (right && short_column(false, gx0, gx1)))
      return true;
    return code && ((left && justified(false, gx0, gx1) && aligned(true, gx0, gx1, true) >= o.min_column_lines &&
                     !paired(true, gx0, gx1)) ||
                    (right && justified(true, gx0, gx1) && aligned(false, gx0, gx1, true) >= o.min_column_lines &&
                     !paired(false, gx0, gx1)));
  };
  // The gutter is the widest strip with a column on each side. A short last column leaves a
  // wide empty strip below its few lines; then a narrower strip is the gutter.
  auto gutter_at = [&](int start, int len, double& gx0, double& gx1) {
    gx0 = L + start;
    gx1 = L + start + len;
    if (columns(gx0, gx1)) return true;
    // The strip may reach into a column: near its ragged right edge (short code lines, a
    // table's cells, each a line of its own) few lines reach, though more than cross the
    // gutter. The gutter is then the part of the strip crossed least, when only a few rows
    // cross it (spanning headings and figures), and the columns are taken from there.
    const int least = *std::min_element(cover.begin() + start, cover.begin() + start + len);
    if (2 * least > limit) return false;
    // (Its parts crossed least, widest first: beyond a short last column the page is empty
    // too. A short column of two lines under a figure is crossed by fewer rows than a column
    // of text, but by more than the gutter beside it: the parts crossed by no more rows than
    // the least are asked last, for a short column beside a whole one.)
    for (const bool short_only : {false, true}) {
      const int most = short_only ? least : least + std::max(1, limit / 4);
      std::vector<std::pair<int, int>> parts;
      for (int x = start; x < start + len;) {
        if (cover[x] > most) { ++x; continue; }
        int s = x;
        while (x < start + len && cover[x] <= most) ++x;
        if (x - s >= o.min_gutter) parts.push_back({s, x - s});
      }
      std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
      for (bool code : {false, true}) {
        if (short_only && code) break;  // (a short column is prose)
        for (const auto& [from, part] : parts) {
          gx0 = L + from;
          gx1 = L + from + part;
          if (columns(gx0, gx1, code, short_only)) return true;
        }
      }
    }
    return false;
  };
  // A narrower strip than the widest needs a justified column on its left: lines that end
  // together at its edge (a page of one column has its odd strips between short lines).
  auto justified_left = [&](double gx0) {
    std::vector<double> x1s;
    for (const Line* l : lines)
      if (l->bbox.x1 <= gx0 + 1) x1s.push_back(l->bbox.x1);
    if (x1s.empty()) return false;
    const double m = mode(x1s, 1.0);
    const auto at = std::count_if(x1s.begin(), x1s.end(), [&](double x) { return std::fabs(x - m) <= o.edge_tolerance; });
    return at >= o.min_column_lines && 3 * static_cast<size_t>(at) >= x1s.size() && gx0 - m <= 2 * o.min_gutter;
  };
  double gx0 = 0, gx1 = 0;
  bool found = false;
  for (size_t k = 0; k < strips.size() && !found; ++k)
    found = gutter_at(strips[k].first, strips[k].second, gx0, gx1) && (k == 0 || justified_left(gx0));
  if (!found) return g;
  g.found = true;
  g.x0 = gx0;
  g.x1 = gx1;
  return g;
}

bool starts_with_marker(const Row& r) {
  if (r.lines.empty() || r.lines.front()->spans.empty()) return false;
  const auto& spans = r.lines.front()->spans;
  // A superscript mark: a first span set smaller than the note's text.
  if (spans.size() > 1 && spans.front().size < r.size * 0.85 && has_visible(spans.front().text)) return true;
  auto cps = to_u32(r.text);
  if (cps.empty()) return false;
  char32_t c = cps.front();
  return c == U'*' || c == U'†' || c == U'‡' || c == U'§' || c == U'¶' || (c >= U'0' && c <= U'9') || superscript_digit(c);
}

// A caption's label and nothing else: "Figure 3.", "Table 2.1:".
bool label_alone(const std::string& text) {
  const std::string label = caption_label(text);
  if (label.empty()) return false;
  auto words = whitespace_tokens(text);
  return words.size() == whitespace_tokens(label).size();
}

// The lines of a caption that starts at row `start` and runs down: same size, tight leading,
// and set as the caption is: flush with the line above, centred under it, or, under a full
// line, hanging under the text after the label or back at the column's edge (a caption set
// as an indented paragraph). A short line that ends a sentence ends it: the paragraph that
// opens under a one-line caption is not the caption's.
size_t caption_end(const std::vector<Row>& rows, size_t start, const LayoutOptions& o) {
  const Row& first = rows[start];
  size_t end = start + 1;
  while (end < rows.size()) {
    const Row& prev = rows[end - 1];
    const Row& r = rows[end];
    double pitch = r.baseline - prev.baseline;
    if (pitch > prev.size * (1.2 + o.paragraph_gap_ratio) || std::fabs(r.size - prev.size) > 0.1 * prev.size) break;
    if (r.caption) break;
    const double tol = o.caption_align_tolerance * prev.size;
    // The label alone on the first line ("Figure 3." over the text).
    const bool after_label = end - 1 == start && label_alone(prev.text);
    const bool flush = std::fabs(r.bbox.x0 - prev.bbox.x0) <= tol;
    // (The lines of a centred caption fill its measure but the last: none is wider than
    // the line above, but for the text under a label set alone.)
    const bool centred = std::fabs((r.bbox.x0 + r.bbox.x1) - (prev.bbox.x0 + prev.bbox.x1)) <= 2 * tol &&
                         (r.bbox.width() <= prev.bbox.width() + tol || after_label);
    const bool full = prev.bbox.x1 >= prev.col_right - tol;
    // A short line that ends a sentence is the caption's last.
    if (!full && prev.full_stop && !after_label) break;
    const bool hanging = full && r.bbox.x0 > first.bbox.x0 + tol &&
                         r.bbox.x0 <= first.bbox.x0 + o.caption_hang_max_ratio * first.bbox.width();
    // A caption set as a paragraph: its first line indented, the next back at the edge.
    const bool wrapped = full && r.bbox.x0 < prev.bbox.x0 && r.bbox.x0 <= r.col_left + tol;
    if (!flush && !centred && !hanging && !wrapped) break;
    ++end;
  }
  return end;
}

}  // namespace

std::vector<Item> page_items(const Page& page, const PageLines& pl, const BookStats& st, const LayoutOptions& o) {
  BodyText body;
  body.size = st.body_size;
  const int parity = page.number % 2;
  if (st.left_margin.count(parity) && st.right_margin.count(parity)) {
    body.left = st.left_margin.at(parity);
    body.right = st.right_margin.at(parity);
  }
  std::vector<FigureRegion> regions = find_figures(page, o, body);
  std::vector<bool> label_line(page.lines.size(), false);
  for (const auto& r : regions)
    for (size_t i : r.label_lines)
      if (i < label_line.size()) label_line[i] = true;
  std::vector<const Line*> lines;
  for (size_t i = 0; i < page.lines.size(); ++i)
    if (!label_line[i] && pl.visible(page.lines[i])) lines.push_back(&page.lines[i]);
  // Side labels make rows of their own, put before their blocks once the rows are in order.
  const std::vector<SideLabel> side = side_labels(lines, pl, o);
  for (const auto& s : side) lines.erase(std::find(lines.begin(), lines.end(), s.label));

  Gutter g = find_gutter(lines, pl, o);
  // The left column's edges where it is set justified: where most of its lines start, and
  // the right edge at least `min_column_lines` of them reach.
  double left_edge = 1e300, justified = 1e300;
  if (g.found) {
    std::vector<double> x1s;
    for (const Line* l : lines) {
      left_edge = std::min(left_edge, l->bbox.x0);
      if (l->bbox.x1 <= g.x0 + 1) x1s.push_back(l->bbox.x1);
    }
    if (!x1s.empty()) {
      const double m = mode(x1s, 1.0);
      if (std::count_if(x1s.begin(), x1s.end(), [&](double x) { return std::fabs(x - m) <= o.edge_tolerance; }) >=
          o.min_column_lines)
        justified = m;
    }
  }
  // Column of each line: 0 / 1, or -1 for a line over the gutter.
  auto column_of = [&](const Box& b) {
    if (!g.found) return 0;
    if (b.x0 < g.x0 && b.x1 > g.x1) {
      // A line of a justified left column set too wide (a long word or an address that
      // would not break) starts near the column's edge and runs past the justified edge,
      // into the gutter and less than a gutter's width beyond it; it is a line of a
      // paragraph, with a full line of the column right above or below it. A spanning
      // heading or caption reaches further, or is centred on the page.
      if (!(b.x1 > justified + o.edge_tolerance && b.x1 - g.x1 <= g.x1 - g.x0 &&
            b.x0 - left_edge <= 0.25 * (g.x0 - left_edge)))
        return -1;
      const double pitch = 1.6 * b.height();
      for (const Line* l : lines)
        if (std::fabs(l->bbox.x1 - justified) <= o.edge_tolerance && l->bbox.x0 - left_edge <= 0.25 * (g.x0 - left_edge) &&
            std::fabs(l->bbox.y1 - b.y1) <= pitch && l->bbox.y1 != b.y1)
          return 0;
      return -1;
    }
    return (b.x0 + b.x1) / 2 < (g.x0 + g.x1) / 2 ? 0 : 1;
  };
  std::vector<const Line*> by_col[3];
  for (const Line* l : lines) by_col[column_of(l->bbox) + 1].push_back(l);
  std::vector<Row> rows;
  for (int c = 0; c < 3; ++c) {
    auto rs = group_rows(page.number, by_col[c], pl, o);
    for (auto& r : rs) {
      r.column = c - 1;
      rows.push_back(std::move(r));
    }
  }
  for (auto& r : rows) r.drawn_marker = r.marker == 0 && drawn_bullet_before(r, page, o);
  // Column edges: the flush left edge (most common start of prose rows) and the right edge.
  // A caption does not count for the right edge: centred under a figure across both columns,
  // on a page whose text fills one column, it reaches past that column's edge. Nor does a
  // display heading: a chapter's label may stand out into the margin.
  for (int c = -1; c <= 1; ++c) {
    std::vector<double> x0s;
    double left = 1e9, right = 0, caption_right = 0;
    // A listing's line too long for the measure runs into the margin, past the column's edge.
    auto margin_right = st.right_margin.find(page.number % 2);
    const double code_reach = !g.found && margin_right != st.right_margin.end() ? margin_right->second : 1e300;
    for (const auto& r : rows)
      if (r.column == c) {
        left = std::min(left, r.bbox.x0);
        double& edge = r.caption || r.size > o.heading_size_ratio * st.body_size ? caption_right : right;
        edge = std::max(edge, r.mono ? std::min(r.bbox.x1, code_reach) : r.bbox.x1);
        if (!r.mono && std::fabs(r.size - st.body_size) < 0.5) x0s.push_back(r.bbox.x0);
      }
    // (A column of a two-column page that holds a listing and a line or two of prose has no
    // flush prose edge to speak of: its leftmost row's edge, the listing's, is the column's.)
    bool listing = false;
    for (const auto& r : rows) listing = listing || (r.column == c && r.mono);
    if (!x0s.empty() && (!g.found || !listing || x0s.size() >= static_cast<size_t>(o.min_column_lines)))
      left = mode(x0s, 1.0);
    if (right == 0) right = caption_right;
    // One-column pages share the book's margin for their parity (a page of only code or
    // of indented matter has no flush prose edge of its own).
    auto margin = st.left_margin.find(page.number % 2);
    if (!g.found && margin != st.left_margin.end()) left = margin->second;
    for (auto& r : rows)
      if (r.column == c) {
        r.col_left = left;
        r.col_right = right;
      }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return reading_top(a) < reading_top(b); });
  for (const auto& s : side) {
    auto before = std::find_if(rows.begin(), rows.end(), [&](const Row& r) {
      return std::find(r.lines.begin(), r.lines.end(), s.first) != r.lines.end();
    });
    if (before == rows.end()) continue;  // (cannot happen: the block's lines are in rows)
    Row label = group_rows(page.number, {s.label}, pl, o).front();
    label.column = before->column;
    label.col_left = before->col_left;
    label.col_right = before->col_right;
    label.read_at = reading_top(*before);
    rows.insert(before, std::move(label));
  }

  // Figures and their captions (taken out of the flow so a paragraph can run around them).
  std::vector<FigureItem> figures;
  std::vector<bool> taken(rows.size(), false);
  for (const auto& reg : regions) {
    FigureItem f;
    f.page = page.number;
    f.bbox = reg.bbox;
    f.labels = reg.labels;
    double reach = o.caption_distance_ratio * st.body_size;
    auto overlaps_x = [&](const Row& r) { return r.bbox.x0 < reg.bbox.x1 && reg.bbox.x0 < r.bbox.x1; };
    long start = -1;
    for (size_t i = 0; i < rows.size() && start < 0; ++i)
      if (!taken[i] && overlaps_x(rows[i]) && rows[i].bbox.y0 >= reg.bbox.y1 - o.edge_tolerance &&
          rows[i].bbox.y0 <= reg.bbox.y1 + reach && rows[i].caption)
        start = static_cast<long>(i);
    size_t end = 0;
    if (start >= 0) {
      end = caption_end(rows, static_cast<size_t>(start), o);
    } else {
      // Caption above: the nearest rows ending just above the region.
      for (size_t i = rows.size(); i-- > 0;) {
        if (taken[i] || !overlaps_x(rows[i]) || rows[i].bbox.y1 > reg.bbox.y0 + o.edge_tolerance) continue;
        if (rows[i].bbox.y1 < reg.bbox.y0 - reach) break;
        // Walk up the caption paragraph to its label line.
        for (size_t k = i + 1; k-- > 0 && i - k < 8;)
          if (rows[k].caption && !taken[k]) {
            size_t e = caption_end(rows, k, o);
            if (e > i) { start = static_cast<long>(k); end = e; }
            break;
          }
        break;
      }
    }
    if (start >= 0)
      for (size_t i = static_cast<size_t>(start); i < end; ++i) {
        taken[i] = true;
        f.caption.push_back(rows[i]);
      }
    figures.push_back(std::move(f));
  }
  std::vector<Row> flow;
  for (size_t i = 0; i < rows.size(); ++i)
    if (!taken[i]) flow.push_back(rows[i]);
  for (auto& r : flow) {
    r.nothing_above = r.nothing_below = true;
    auto check = [&](const Box& b, int column) {
      if (column != r.column && column >= 0 && r.column >= 0) return;
      if (b.y1 <= r.bbox.y0 + o.edge_tolerance) r.nothing_above = false;
      if (b.y0 >= r.bbox.y1 - o.edge_tolerance) r.nothing_below = false;
    };
    // (Once something is found above and below, nothing more can change the row.)
    for (size_t i = 0; i < rows.size() && (r.nothing_above || r.nothing_below); ++i)
      if (&rows[i] != &r && rows[i].bbox != r.bbox) check(rows[i].bbox, rows[i].column);
    for (size_t i = 0; i < regions.size() && (r.nothing_above || r.nothing_below); ++i)
      check(regions[i].bbox, column_of(regions[i].bbox));
  }

  // Footnotes: the small rows at the bottom of each column, the first starting with a mark.
  for (int c = -1; c <= 1; ++c) {
    std::vector<size_t> idx;
    for (size_t i = 0; i < flow.size(); ++i)
      if (flow[i].column == c) idx.push_back(i);
    size_t k = idx.size();
    while (k > 0) {
      const Row& r = flow[idx[k - 1]];
      if (r.mono || r.size > o.footnote_size_ratio * st.body_size) break;
      --k;
    }
    // Shrink to start at a marked row, unless a footnote rule stands right above the small
    // rows: then the first of them goes on with a note from the page before, without a mark.
    const bool ruled = k < idx.size() && [&] {
      const Box& first = flow[idx[k]].bbox;
      const double above = k > 0 ? flow[idx[k - 1]].bbox.y1 : 0;
      double left = 1e300, right = -1e300;  // the column's edges
      for (size_t i : idx) {
        left = std::min(left, flow[i].bbox.x0);
        right = std::max(right, flow[i].bbox.x1);
      }
      for (const auto& p : page.paths) {
        // A stroke's box takes in its joins (up to ten line widths each side): the rule
        // itself lies inside.
        const double e = p.stroke && !p.fill ? std::min(10 * p.line_width, std::min(p.bbox.width(), p.bbox.height()) / 2) : 0;
        const Box r{p.bbox.x0 + e, p.bbox.y0 + e, p.bbox.x1 - e, p.bbox.y1 - e};
        if (r.height() <= o.footnote_rule_height && r.y1 <= first.y0 + 1 && r.y0 >= above - 1 &&
            r.x0 >= left - o.edge_tolerance && r.x0 <= first.x0 + o.edge_tolerance &&
            r.width() >= o.footnote_rule_min_width && r.width() <= 0.75 * (right - left))
          return true;
      }
      return false;
    }();
    if (!ruled)
      while (k < idx.size() && !starts_with_marker(flow[idx[k]])) ++k;
    // A footnote area sits below the page's other text, never above a body row.
    for (size_t j = k; j < idx.size(); ++j) flow[idx[j]].footnote = true;
  }

  // Reading order: bands separated by rows (and figures) that span both columns; inside a
  // band the left column, then the right one. Footnotes come after the page's flow.
  struct Elem {
    double y;
    int column;
    bool figure;
    size_t index;
  };
  std::vector<Elem> elems;
  for (size_t i = 0; i < flow.size(); ++i)
    if (!flow[i].footnote) elems.push_back({reading_top(flow[i]), flow[i].column, false, i});
  for (size_t i = 0; i < figures.size(); ++i) elems.push_back({figures[i].bbox.y0, column_of(figures[i].bbox), true, i});
  std::stable_sort(elems.begin(), elems.end(), [](const Elem& a, const Elem& b) { return a.y < b.y; });
  std::vector<Item> items;
  auto emit = [&](const Elem& e) {
    Item it;
    if (e.figure) {
      it.kind = Item::Figure;
      it.figure = std::move(figures[e.index]);  // (each element is emitted once)
    } else {
      it.row = std::move(flow[e.index]);
    }
    items.push_back(std::move(it));
  };
  std::vector<Elem> band[2];
  auto flush = [&]() {
    for (auto& b : band) {
      for (const auto& e : b) emit(e);
      b.clear();
    }
  };
  for (const auto& e : elems) {
    if (e.column < 0) {
      flush();
      emit(e);
    } else {
      band[e.column].push_back(e);
    }
  }
  flush();
  // The notes of the left column, then those of the right one (side by side at the foot of
  // the page, they share baselines), then notes set across both.
  for (int c : {0, 1, -1})
    for (auto& r : flow)
      if (r.footnote && r.column == c) {
        Item it;
        it.row = std::move(r);
        items.push_back(std::move(it));
      }
  // Each row keeps the link annotations that touch it (most pages have none).
  if (!page.links.empty()) {
    auto attach = [&](Row& r) {
      for (const auto& a : page.links)
        if (a.bbox.intersects(r.bbox)) r.links.push_back(a);
    };
    for (auto& it : items) {
      if (it.kind == Item::Text) attach(it.row);
      for (auto& r : it.figure.caption) attach(r);
    }
  }
  return items;
}

}  // namespace quire::detail
