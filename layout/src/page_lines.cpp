// Page lines: the facts about a page's lines that several passes ask for, and which spans are
// monospace (a font named as one, or glyphs set on one uniform advance).
#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstring>

#include "figures.h"
#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "page_passes.h"

namespace quire::detail {

namespace {

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

}  // namespace quire::detail
