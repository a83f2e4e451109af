// Monospace: which spans are set in a typewriter face. Decided here once for the whole
// pipeline (clean, layout and export read Span::monospace). A span is monospace when
//  - its font carries the fixed-pitch flag (the engine sets it), or
//  - its font's name is a typewriter face's, or
//  - its font and size set nearly every glyph of the book on one advance (measured over the
//    book, for fonts that lack the flag and have an opaque name), or
//  - the span itself sets five or more different glyphs (digits counting as one) on one
//    advance: a proportional face cannot.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <string_view>
#include <unordered_map>

#include "engines.h"
#include "quire/extract.h"
#include "quire/parallel.h"
#include "quire/text.h"

namespace quire::detail {

namespace {

// Whether `s` holds `k` (lowercase ASCII), ignoring ASCII case; or starts with it.
bool contains_nocase(std::string_view s, std::string_view k, bool at_start_only = false) {
  if (k.size() > s.size()) return false;
  const size_t last = at_start_only ? 0 : s.size() - k.size();
  for (size_t i = 0; i <= last; ++i) {
    size_t j = 0;
    while (j < k.size() && static_cast<char>(std::tolower(static_cast<unsigned char>(s[i + j]))) == k[j]) ++j;
    if (j == k.size()) return true;
  }
  return false;
}

}  // namespace

// Font names (subset tag stripped) of the typewriter faces in common use: TeX's cmtt, lmtt,
// sftt, ectt and txtt; Courier, DejaVu Sans Mono, Liberation Mono, Consolas, Menlo, Monaco,
// Andale Mono, Letter Gothic, Fixedsys, Source Code Pro, Fira Code, Inconsolata.
bool monospace_by_name(const std::string& font) {
  static constexpr std::string_view kAnywhere[] = {"mono",   "courier", "typewriter", "consol",
                                                   "menlo",  "monaco",  "inconsolata", "lettergothic",
                                                   "fixed",  "andale",  "cmtt",        "sftt", "lmtt"};
  // (Short names that other words hold inside them count only as the name's start.)
  static constexpr std::string_view kPrefix[] = {"ectt", "txtt"};
  // "Monotype" names a foundry (Monotype Corsiva, Monotype Sorts), not the pitch.
  if (contains_nocase(font, "monotype")) return false;
  for (std::string_view k : kAnywhere)
    if (contains_nocase(font, k)) return true;
  for (std::string_view k : kPrefix)
    if (contains_nocase(font, k, true)) return true;
  // "Code" as a word of the name (SourceCodePro, FiraCode, "cascadia-code"), never inside
  // one: Junicode and ArialUnicodeMS are proportional.
  if (font.find("Code") != std::string::npos) return true;
  for (size_t at = font.find("code"); at != std::string::npos; at = font.find("code", at + 1))
    if (at == 0 || !std::isalpha(static_cast<unsigned char>(font[at - 1]))) return true;
  return false;
}

bool uniform_advances(const Span& s, double tolerance) {
  // Cheapest tests first.
  if (s.xs.size() < 7) return false;
  // (Buffers kept per thread: this runs for most spans of a book.)
  thread_local std::u32string cps;
  thread_local std::vector<double> adv;
  to_u32(s.text, cps);
  if (cps.size() != s.xs.size()) return false;
  adv.clear();
  // The glyphs measured, apart (a glyph's advance is the distance to the next one). Digits
  // count as one glyph: proportional faces set them on one advance too (tabular figures), so
  // "26, 2019." or a run of page numbers says nothing of the face.
  std::u32string distinct;
  // Once the smallest advance so far is under (1 - 4 x tolerance) of the largest, no median
  // can have every advance within the tolerance, whatever follows (the largest only grows,
  // the smallest only shrinks): most proportional spans are settled after a few glyphs.
  const bool may_stop = tolerance < 0.25;
  double least = 0, most = 0;
  // Advances between neighbouring glyphs, leaving out spaces (engines place synthetic spaces
  // anywhere in the gap) and wide characters (they stand on the em square in every face).
  for (size_t i = 1; i < cps.size(); ++i)
    if (!is_space_cp(cps[i]) && !is_space_cp(cps[i - 1]) && !is_wide_cp(cps[i - 1])) {
      const double a = s.xs[i] - s.xs[i - 1];
      if (adv.empty()) least = most = a;
      least = std::min(least, a);
      most = std::max(most, a);
      if (may_stop && most > 0 && least < most * (1 - 4 * tolerance)) return false;
      adv.push_back(a);
      const char32_t g = cps[i - 1] >= U'0' && cps[i - 1] <= U'9' ? U'0' : cps[i - 1];
      if (distinct.size() < 5 && distinct.find(g) == std::u32string::npos) distinct += g;
    }
  if (adv.size() < 6 || distinct.size() < 5) return false;
  // Uniform advances lie within the tolerance of their median m, so within 2 x tolerance x m
  // of each other, and m <= the largest: a wider spread is proportional (most spans end
  // here, without finding the median). The margin keeps rounding on the exact test's side.
  const auto [lo, hi] = std::minmax_element(adv.begin(), adv.end());
  if (*hi <= 0) return false;
  if (*hi - *lo > 2 * tolerance * *hi * (1 + 1e-6)) return false;
  auto mid = adv.begin() + static_cast<std::ptrdiff_t>(adv.size() / 2);
  std::nth_element(adv.begin(), mid, adv.end());
  const double m = *mid;
  if (m <= 0) return false;
  for (double a : adv)
    if (std::fabs(a - m) > tolerance * m) return false;
  return true;
}

void infer_monospace(Document& doc, const ExtractOptions& o, const std::function<void(Page&)>& then) {
  const int jobs = o.jobs;
  // Advances between consecutive non-space glyphs of one span; a fixed-pitch font has one
  // advance for every glyph, a proportional one ranges from 'i' to 'm' (a ratio near 3).
  //
  // Fonts are looked up by name and then by size in tenths of a point; a book has a few
  // dozen of each, and building a "name@size" string for every span cost more than the
  // sampling itself.
  struct Stats {
    long size10 = 0;
    std::vector<float> advances;
    bool decided = false;  // enough samples to judge
    bool mono = false;
  };
  struct Font {
    bool mono_by_name = false;
    std::vector<Stats> sizes;
    Stats* find(long size10) {
      for (auto& st : sizes)
        if (st.size10 == size10) return &st;
      return nullptr;
    }
    Stats& at(long size10) {
      if (Stats* st = find(size10)) return *st;
      sizes.push_back({size10, {}, false, false});
      return sizes.back();
    }
  };
  using Fonts = std::unordered_map<std::string, Font>;
  // The last font looked up: consecutive spans mostly share it.
  struct Lookup {
    Fonts& fonts;
    const std::string* last_name = nullptr;
    Font* last_font = nullptr;
    Font& operator()(const std::string& name) {
      if (last_name && *last_name == name) return *last_font;
      auto [it, fresh] = fonts.try_emplace(name);
      if (fresh) it->second.mono_by_name = monospace_by_name(name);
      last_name = &it->first;
      last_font = &it->second;
      return it->second;
    }
  };
  constexpr size_t kMaxSamples = 4000;
  // is_space_cp for ASCII from a table (asked once), the library call otherwise.
  static const auto ascii_space = [] {
    std::array<bool, 128> t{};
    for (char32_t c = 0; c < 128; ++c) t[c] = is_space_cp(c);
    return t;
  }();
  auto space = [](char32_t c) { return c < 128 ? ascii_space[c] : is_space_cp(c); };
  // The first kMaxSamples advances of each font and size, in page order: runs of
  // consecutive pages are sampled apart (each keeps its own first kMaxSamples) and then
  // joined in page order, which keeps the same first ones at any thread count.
  auto sample = [&](size_t from, size_t to, Fonts& fonts) {
    Lookup font_of{fonts};
    std::u32string wide;
    for (size_t pi = from; pi < to; ++pi)
      with_page(doc, pi, [&](const Page& page) {
      for (const auto& l : page.lines) {
        if (l.direction != 0) continue;
        for (const auto& s : l.spans) {
          if (s.monospace || s.xs.size() < 3) continue;
          auto& st = font_of(s.font).at(std::lround(s.size * 10));
          if (st.advances.size() >= kMaxSamples) continue;  // the book's main fonts, soon
          // Code points without decoding when the span is ASCII (nearly all of them).
          const bool ascii = is_ascii(s.text);
          if (!ascii) wide = to_u32(s.text);
          const size_t n = ascii ? s.text.size() : wide.size();
          if (n != s.xs.size()) continue;
          auto cp = [&](size_t i) -> char32_t {
            return ascii ? static_cast<unsigned char>(s.text[i]) : wide[i];
          };
          for (size_t i = 0; i + 1 < n && st.advances.size() < kMaxSamples; ++i) {
            // (A wide character stands on the em square in every face: it tells nothing.)
            if (space(cp(i)) || space(cp(i + 1)) || (cp(i) >= 0x1100 && is_wide_cp(cp(i)))) continue;
            float a = s.xs[i + 1] - s.xs[i];
            if (a > 0) st.advances.push_back(a / static_cast<float>(s.size));
          }
        }
      }
      });
  };
  const size_t n = doc.pages.size();
  const size_t groups = jobs <= 1 ? 1 : std::min(n, static_cast<size_t>(jobs) * 4);
  Fonts fonts;
  if (groups <= 1) {
    sample(0, n, fonts);
  } else {
    std::vector<Fonts> parts(groups);
    parallel_for(groups, jobs, [&](size_t g) { sample(n * g / groups, n * (g + 1) / groups, parts[g]); });
    for (auto& part : parts)
      for (auto& [name, pf] : part) {
        auto [it, fresh] = fonts.try_emplace(name);
        if (fresh) it->second.mono_by_name = pf.mono_by_name;
        for (auto& ps : pf.sizes) {
          Stats& st = it->second.at(ps.size10);
          const size_t take = std::min(ps.advances.size(), kMaxSamples - st.advances.size());
          st.advances.insert(st.advances.end(), ps.advances.begin(), ps.advances.begin() + static_cast<long>(take));
        }
      }
  }
  // A font is fixed-pitch when nearly all advances equal the median (the tolerance covers
  // rounding of glyph positions in the content stream).
  for (auto& [name, font] : fonts)
    for (auto& st : font.sizes) {
      if (st.advances.size() < o.monospace_min_samples) continue;
      auto v = st.advances;
      std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
      double median = v[v.size() / 2];
      size_t close = 0;
      for (float a : st.advances)
        if (std::fabs(a - median) <= o.monospace_tolerance * median) ++close;
      st.decided = true;
      st.mono = static_cast<double>(close) >= o.monospace_share * static_cast<double>(st.advances.size());
    }
  // Every span's font and size were sampled above: the lookups below only read.
  change_pages(
      doc, jobs,
      [&](size_t, Page& page) {
        const std::string* last_name = nullptr;
        const Font* last_font = nullptr;
        for (auto& l : page.lines)
          for (auto& s : l.spans) {
            if (s.monospace) continue;
            if (!last_name || *last_name != s.font) {
              auto it = fonts.find(s.font);
              if (it == fonts.end()) {  // no span of it was sampled: its name alone decides
                s.monospace = monospace_by_name(s.font) || uniform_advances(s, o.monospace_tolerance);
                continue;
              }
              last_name = &it->first;
              last_font = &it->second;
            }
            // A typewriter face by name is fixed-pitch even where a justified or
            // flexible-column listing spreads its glyphs unevenly; otherwise the advances
            // measured over the book decide, and then the span's own (a face's glyphs set on a
            // grid of rounded positions, as some Type 3 typewriter fonts are, can measure
            // uneven over the book while every listing line of it is even).
            if (last_font->mono_by_name) {
              s.monospace = true;
              continue;
            }
            const long size10 = std::lround(s.size * 10);
            for (const auto& st : last_font->sizes)
              if (st.size10 == size10 && st.decided) s.monospace = st.mono;
            if (!s.monospace) s.monospace = uniform_advances(s, o.monospace_tolerance);
          }
        if (then) then(page);
      },
      16);
}

}  // namespace quire::detail
