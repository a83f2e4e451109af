// Small geometry, number and text helpers for clean's passes.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "internal.h"
#include "quire/text.h"

namespace quire::clean_detail {

void append_in_page_order(PageRemovals& slots, std::vector<Removal>& removed) {
  size_t n = 0;
  for (const auto& slot : slots) n += slot.size();
  removed.reserve(removed.size() + n);
  for (auto& slot : slots)
    for (auto& r : slot) removed.push_back(std::move(r));
  slots.clear();
}

double line_baseline(const Line& line) {
  for (const auto& s : line.spans)
    if (s.baseline > 0) return s.baseline;
  return line.bbox.y1;
}

double line_max_size(const Line& line) {
  double m = 0;
  for (const auto& s : line.spans) {
    bool visible = std::any_of(s.text.begin(), s.text.end(), [](char c) { return c != ' '; });
    if (visible) m = std::max(m, s.size);
  }
  return m;
}

void refit_line_box(Line& line) {
  Box b;
  bool first = true;
  for (const auto& s : line.spans) {
    if (first) b = s.bbox;
    else b = {std::min(b.x0, s.bbox.x0), std::min(b.y0, s.bbox.y0), std::max(b.x1, s.bbox.x1),
              std::max(b.y1, s.bbox.y1)};
    first = false;
  }
  if (!first) line.bbox = b;
}

SizeChars page_size_chars(const Page& page) {
  // Keyed by tenths of a point so that 10.91 and 10.909 land together. A page uses a handful
  // of sizes, mostly in runs, so a short list beats a map.
  SizeChars counts;
  size_t last = 0;
  for (const auto& l : page.lines)
    for (const auto& s : l.spans) {
      const long key = std::lround(s.size * 10);
      const long n = static_cast<long>(is_ascii(s.text) ? s.text.size() : utf8_length(s.text));
      if (last >= counts.size() || counts[last].first != key) {
        last = 0;
        while (last < counts.size() && counts[last].first != key) ++last;
        if (last == counts.size()) counts.push_back({key, 0});
      }
      counts[last].second += n;
    }
  return counts;
}

double body_size(const std::vector<SizeChars>& pages) {
  std::map<long, long> chars;
  for (const auto& counts : pages)
    for (const auto& [size, n] : counts) chars[size] += n;
  long best = 0, best_n = -1;
  for (const auto& [size, n] : chars)
    if (n > best_n) { best = size; best_n = n; }  // ties: the smaller size (map order)
  return best / 10.0;
}

std::optional<int> parse_arabic(std::string_view t, int max_digits) {
  if (t.empty() || static_cast<int>(t.size()) > max_digits) return std::nullopt;
  int v = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

namespace {

std::string to_roman(int v) {
  static const std::pair<int, const char*> table[] = {{1000, "m"}, {900, "cm"}, {500, "d"}, {400, "cd"},
                                                      {100, "c"},  {90, "xc"},  {50, "l"},  {40, "xl"},
                                                      {10, "x"},   {9, "ix"},   {5, "v"},   {4, "iv"},
                                                      {1, "i"}};
  std::string out;
  for (const auto& [n, s] : table)
    while (v >= n) { out += s; v -= n; }
  return out;
}

int roman_value(char lower_letter) {
  switch (lower_letter) {
    case 'i': return 1;
    case 'v': return 5;
    case 'x': return 10;
    case 'l': return 50;
    case 'c': return 100;
    case 'd': return 500;
    case 'm': return 1000;
    default: return 0;
  }
}

std::optional<int> parse_roman(std::string_view t) {
  // Roman folios are set in one case ("xiv" or "XIV"), never mixed.
  if (t.empty() || t.size() > 12) return std::nullopt;
  // Most words of a head do not start with a numeral letter: settled without the locale.
  const char c0 = t[0];
  if (!roman_value(c0 >= 'A' && c0 <= 'Z' ? static_cast<char>(c0 - 'A' + 'a') : c0)) return std::nullopt;
  // (ASCII letters: the C locale's, which the program never leaves.)
  auto is_lower = [](unsigned char u) { return u >= 'a' && u <= 'z'; };
  auto is_upper = [](unsigned char u) { return u >= 'A' && u <= 'Z'; };
  const bool lower = is_lower(static_cast<unsigned char>(t[0]));
  char low[12];
  const size_t n = t.size();
  for (size_t i = 0; i < n; ++i) {
    const auto u = static_cast<unsigned char>(t[i]);
    if (!(is_lower(u) || is_upper(u)) || is_lower(u) != lower) return std::nullopt;
    low[i] = static_cast<char>(is_upper(u) ? u - 'A' + 'a' : u);
  }
  int total = 0;
  for (size_t i = 0; i < n; ++i) {
    int v = roman_value(low[i]);
    if (v == 0) return std::nullopt;
    int next = i + 1 < n ? roman_value(low[i + 1]) : 0;
    total += v < next ? -v : v;
  }
  if (total <= 0 || total >= 4000 || to_roman(total) != std::string_view(low, n)) return std::nullopt;
  return total;
}

}  // namespace

std::optional<ParsedNumber> parse_page_number(std::string_view t, int max_digits) {
  if (auto a = parse_arabic(t, max_digits)) return ParsedNumber{NumberKind::Arabic, *a};
  if (auto r = parse_roman(t)) return ParsedNumber{NumberKind::Roman, *r};
  return std::nullopt;
}

std::string head_signature(const std::vector<std::string_view>& tokens, size_t skip) {
  std::string out;
  std::string masked;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (i == skip) continue;
    std::string_view word = tokens[i];  // most words: nothing to mask
    if (std::any_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      masked.clear();
      bool in_digits = false;
      for (char c : word) {
        bool d = c >= '0' && c <= '9';
        if (d && !in_digits) masked += '#';
        else if (!d) masked += c;
        in_digits = d;
      }
      word = masked;
    }
    // A roman numeral word ("Part IV") varies like a digit run; trailing punctuation kept apart.
    size_t core = word.size();
    while (core > 0 && std::ispunct(static_cast<unsigned char>(word[core - 1]))) --core;
    if (!out.empty()) out += ' ';
    if (parse_roman(word.substr(0, core))) {
      out += '#';
      out.append(word.substr(core));
    } else {
      out.append(word);
    }
  }
  return out;
}

std::string head_signature(std::string_view text) {
  const std::vector<std::string> owned = whitespace_tokens(text);
  return head_signature(std::vector<std::string_view>(owned.begin(), owned.end()), std::string_view::npos);
}

Box piece_box(const Span& span, size_t from, size_t to) {
  size_t n = span.xs.size();
  if (n == 0 || n != utf8_length(span.text) || from >= to || from >= n) return span.bbox;
  Box b = span.bbox;
  b.x0 = span.xs[from];
  if (to < n) b.x1 = span.xs[to];
  else if (span.last_advance > 0) b.x1 = span.xs[n - 1] + span.last_advance;
  if (b.x1 < b.x0) b.x1 = b.x0;
  return b;
}

Removal cut_span(Span& span, size_t from, size_t to, int page, const std::string& reason) {
  std::u32string cps = to_u32(span.text);
  to = std::min(to, cps.size());
  from = std::min(from, to);
  Removal r;
  r.page = page;
  r.bbox = piece_box(span, from, to);
  r.text = from_u32(cps.substr(from, to - from));
  r.reason = reason;
  bool aligned = span.xs.size() == cps.size();
  Box kept = span.bbox;
  if (aligned && from == 0 && to < cps.size()) kept.x0 = span.xs[to];
  if (aligned && to == cps.size() && from > 0) kept.x1 = span.xs[from];
  if (aligned) {
    if (to == cps.size() && from > 0) span.last_advance = static_cast<float>(span.xs[from] - span.xs[from - 1]);
    span.xs.erase(span.xs.begin() + static_cast<long>(from), span.xs.begin() + static_cast<long>(to));
  } else {
    span.xs.clear();
  }
  span.text = from_u32(cps.substr(0, from)) + from_u32(cps.substr(to));
  span.bbox = kept;
  return r;
}

}  // namespace quire::clean_detail
