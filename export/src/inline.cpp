#include "inline.h"

#include <algorithm>
#include <vector>

namespace quire::exporting {

namespace {

bool lead(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::string render_inline(const Block& b, std::string_view piece, size_t from, const InlineMarkup& m, bool starts,
                          bool ends) {
  if (b.styles.empty() && b.links.empty()) return m.text(piece, starts, ends);
  // Byte offset in `piece` of each code point, and one past the end.
  std::vector<size_t> at;
  for (size_t i = 0; i < piece.size(); ++i)
    if (lead(piece[i])) at.push_back(i);
  const size_t n = at.size();
  at.push_back(piece.size());
  // What covers each code point: its styles (bits 1 << InlineStyle; a code run may hold an
  // emphasis) and a link (-1 none).
  std::vector<int> style(n, 0), link(n, -1);
  for (const auto& r : b.styles)
    for (size_t k = std::max(r.at, from); k < std::min(r.at + r.len, from + n); ++k)
      style[k - from] |= 1 << static_cast<int>(r.style);
  for (size_t i = 0; i < b.links.size(); ++i)
    for (size_t k = std::max(b.links[i].at, from); k < std::min(b.links[i].at + b.links[i].len, from + n); ++k)
      link[k - from] = static_cast<int>(i);

  std::string out;
  auto plain = [&](size_t a, size_t e) {
    if (a < e) out += m.text(piece.substr(at[a], at[e] - at[a]), starts && a == 0, ends && e == n);
  };
  size_t i = 0;
  while (i < n) {
    const int l = link[i];
    size_t j = i;
    while (j < n && link[j] == l) ++j;
    if (l >= 0) out += m.link(b.links[static_cast<size_t>(l)].href);
    // Styles within [i, j).
    size_t k = i;
    while (k < j) {
      const int s = style[k];
      size_t e = k;
      while (e < j && style[e] == s) ++e;
      if (s == 0) {
        plain(k, e);
      } else {
        size_t a = k, z = e;  // white space at the edges stays outside
        while (a < z && space(piece[at[a]])) ++a;
        while (z > a && space(piece[at[z - 1]])) --z;
        plain(k, a);
        if (a < z) {
          const std::string_view inner = piece.substr(at[a], at[z] - at[a]);
          auto has = [&](InlineStyle st) { return (s & (1 << static_cast<int>(st))) != 0; };
          // (Emphasis around code, never in it: a code span holds no markup.)
          std::string t = has(InlineStyle::Code) ? m.code(inner) : m.text(inner, false, false);
          if (has(InlineStyle::Emphasis)) t = m.em_open + t + m.em_close;
          if (has(InlineStyle::Strong)) t = m.strong_open + t + m.strong_close;
          out += t;
        }
        plain(z, e);
      }
      k = e;
    }
    if (l >= 0) out += m.link_close(b.links[static_cast<size_t>(l)].href);
    i = j;
  }
  return out;
}

std::string render_text(const Block& b, const InlineMarkup& m,
                        const std::function<std::string(const std::string&)>& mark) {
  if (b.marks.empty()) return render_inline(b, b.text, 0, m, true, true);
  bool first = true;
  const char* base = b.text.data();
  return text_with_marks(
      b.text, b.marks, MarksAs::Printed,
      [&](std::string_view piece) {
        const bool starts = first;
        first = false;
        const std::less_equal<const char*> le;  // (a space put between is not of the text)
        if (!(le(base, piece.data()) && le(piece.data(), base + b.text.size())))
          return m.text(piece, starts, false);
        const size_t byte = static_cast<size_t>(piece.data() - base);
        const size_t cp = static_cast<size_t>(std::count_if(b.text.begin(), b.text.begin() + static_cast<long>(byte), lead));
        return render_inline(b, piece, cp, m, starts, byte + piece.size() == b.text.size());
      },
      [&](const std::string& mk) {
        first = false;
        return mark(mk);
      });
}

Block without_prefix(const Block& b, size_t cps) {
  Block out = b;
  size_t byte = 0;
  for (size_t k = 0; k < cps && byte < b.text.size(); ++k) {
    ++byte;
    while (byte < b.text.size() && !lead(b.text[byte])) ++byte;
  }
  out.text = b.text.substr(byte);
  auto clip = [&](size_t& at, size_t& len) {
    size_t end = at + len;
    at = std::max(at, cps) - cps;
    end = std::max(end, cps) - cps;
    len = end - at;
    return len == 0;
  };
  std::erase_if(out.styles, [&](StyleRun& r) { return clip(r.at, r.len); });
  std::erase_if(out.links, [&](TextLink& l) { return clip(l.at, l.len); });
  out.marks.clear();
  for (const auto& mk : b.marks)
    if (mk.at >= cps) out.marks.push_back({mk.at - cps, mk.mark});
  return out;
}

}  // namespace quire::exporting
