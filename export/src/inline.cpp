#include "inline.h"

#include <algorithm>
#include <vector>

#include "quire/export.h"
#include "quire/text.h"

namespace quire::exporting {

namespace {

bool lead(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Style bits of a code point: code, and the emphases (written as delimiters around it).
constexpr int kCode = 1 << static_cast<int>(InlineStyle::Code);
constexpr int kEmphasis = (1 << static_cast<int>(InlineStyle::Emphasis)) | (1 << static_cast<int>(InlineStyle::Strong));

}  // namespace

std::string render_inline(const Block& b, std::string_view piece, size_t from, const InlineMarkup& m, bool starts,
                          bool ends) {
  if (b.styles.empty() && b.links.empty()) return m.text(piece, starts, ends);
  // Byte offset in `piece` of each code point, and one past the end.
  std::vector<size_t> at;
  at.reserve(piece.size() + 1);
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
  out.reserve(piece.size() + piece.size() / 8);
  auto text = [&](std::string& to, size_t a, size_t e, bool edges) {
    if (a < e) to += m.text(piece.substr(at[a], at[e] - at[a]), edges && starts && a == 0, edges && ends && e == n);
  };
  size_t i = 0;
  while (i < n) {
    const int l = link[i];
    size_t j = i;
    while (j < n && link[j] == l) ++j;
    if (l >= 0) out += m.link(b.links[static_cast<size_t>(l)].href);
    // Styles within [i, j): an emphasis runs as far as it goes, code spans inside it.
    size_t k = i;
    while (k < j) {
      const int s = style[k] & kEmphasis;
      size_t e = k;
      while (e < j && (style[e] & kEmphasis) == s) ++e;
      size_t a = k, z = e;  // white space at the edges stays outside
      if (s != 0) {
        while (a < z && space(piece[at[a]])) ++a;
        while (z > a && space(piece[at[z - 1]])) --z;
      }
      // Without an emphasis the run is written straight out; with one, apart, to be put
      // between its delimiters.
      text(out, k, a, true);
      std::string emphasised;
      std::string& t = s == 0 ? out : emphasised;
      for (size_t c = a; c < z;) {
        const bool code = (style[c] & kCode) != 0;
        size_t d = c;
        while (d < z && ((style[d] & kCode) != 0) == code) ++d;
        if (!code) {
          text(t, c, d, s == 0);
        } else {
          size_t ca = c, cz = d;  // (a code span holds no markup, nor white space at its edges)
          while (ca < cz && space(piece[at[ca]])) ++ca;
          while (cz > ca && space(piece[at[cz - 1]])) --cz;
          text(t, c, ca, s == 0);
          if (ca < cz) t += m.code(piece.substr(at[ca], at[cz] - at[ca]));
          text(t, cz, d, s == 0);
        }
        c = d;
      }
      if (s != 0) {
        auto has = [&](InlineStyle st) { return (s & (1 << static_cast<int>(st))) != 0; };
        if (a < z && has(InlineStyle::Emphasis)) t = m.em_open + t + m.em_close;
        if (a < z && has(InlineStyle::Strong)) t = m.strong_open + t + m.strong_close;
        out += t;
      }
      text(out, z, e, true);
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

namespace {

// What a reader of CommonMark sees beside a delimiter: white space (or a line's end),
// punctuation, or anything else.
enum class Beside { Space, Punctuation, Other };

Beside beside(char32_t c) {
  if (is_space_cp(c)) return Beside::Space;
  return is_punctuation_cp(c) ? Beside::Punctuation : Beside::Other;
}

// One pass of markdown_styles(): clears the emphasis bits of each run (as render_inline cuts
// them) whose delimiters cannot open or close. Returns whether any was cleared.
bool drop_undelimitable(const std::u32string& t, const std::vector<bool>& cut, std::vector<int>& style,
                        const std::vector<int>& link) {
  const size_t n = t.size();
  // What is written first or last for code point i: a backtick or a '*' is punctuation,
  // else the character itself.
  auto edge = [&](size_t i) { return style[i] != 0 ? Beside::Punctuation : beside(t[i]); };
  bool dropped = false;
  size_t g0 = 0;
  while (g0 < n) {
    size_t g1 = g0 + 1;  // a group: one link (or none) between two marks
    while (g1 < n && link[g1] == link[g0] && !cut[g1]) ++g1;
    for (size_t k = g0; k < g1;) {  // runs of one emphasis, as render_inline writes them
      const int s = style[k] & kEmphasis;
      size_t e = k + 1;
      while (e < g1 && (style[e] & kEmphasis) == s) ++e;
      size_t a = k, z = e;
      while (a < z && is_space_cp(t[a])) ++a;
      while (z > a && is_space_cp(t[z - 1])) --z;
      if (s != 0 && a < z) {
        Beside before, after;
        if (a > k) before = Beside::Space;
        else if (k > g0) before = is_space_cp(t[k - 1]) ? Beside::Space : edge(k - 1);
        else if (link[k] >= 0 || (k > 0 && !cut[k])) before = Beside::Punctuation;  // '[' or a link's ')'
        else before = k == 0 ? Beside::Space : Beside::Punctuation;                  // a line's start, a mark's '>'
        if (z < e) after = Beside::Space;
        else if (e < g1) after = is_space_cp(t[e]) ? Beside::Space : edge(e);
        else if (link[e - 1] >= 0 || (e < n && !cut[e])) after = Beside::Punctuation;  // ']' or '['
        else after = e == n ? Beside::Space : Beside::Punctuation;                     // a line's end, a mark's '<'
        const Beside first = (style[a] & kCode) ? Beside::Punctuation : beside(t[a]);
        const Beside last = (style[z - 1] & kCode) ? Beside::Punctuation : beside(t[z - 1]);
        const bool opens = first != Beside::Punctuation || before != Beside::Other;
        const bool closes = last != Beside::Punctuation || after != Beside::Other;
        if (!opens || !closes) {
          for (size_t i = k; i < e; ++i) style[i] &= ~kEmphasis;
          dropped = true;
        }
      }
      k = e;
    }
    g0 = g1;
  }
  return dropped;
}

}  // namespace

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
    if (mk.at >= cps) out.marks.push_back({mk.at - cps, mk.mark, mk.glued});
  return out;
}

}  // namespace quire::exporting

namespace quire {

Block markdown_styles(const Block& b) {
  if (std::none_of(b.styles.begin(), b.styles.end(), [](const StyleRun& r) { return r.style != InlineStyle::Code; }))
    return b;
  const std::u32string t = to_u32(b.text);
  const size_t n = t.size();
  std::vector<int> style(n, 0), link(n, -1);
  for (const auto& r : b.styles)
    for (size_t k = r.at; k < std::min(r.at + r.len, n); ++k) style[k] |= 1 << static_cast<int>(r.style);
  for (size_t i = 0; i < b.links.size(); ++i)
    for (size_t k = b.links[i].at; k < std::min(b.links[i].at + b.links[i].len, n); ++k) link[k] = static_cast<int>(i);
  std::vector<bool> cut(n + 1, false);  // a note mark's <sup> before code point i
  for (const auto& m : b.marks)
    if (m.at <= n) cut[m.at] = true;
  // A run left out joins its neighbours' runs; their edges are looked at again.
  bool any = false;
  while (exporting::drop_undelimitable(t, cut, style, link)) any = true;
  if (!any) return b;
  Block out = b;
  out.styles.clear();
  for (const auto& r : b.styles) {
    const int bit = 1 << static_cast<int>(r.style);
    for (size_t k = r.at; k < std::min(r.at + r.len, n);) {  // what is left of the run, in place
      if (!(style[k] & bit)) {
        ++k;
        continue;
      }
      size_t e = k;
      while (e < std::min(r.at + r.len, n) && (style[e] & bit)) ++e;
      out.styles.push_back({k, e - k, r.style});
      k = e;
    }
  }
  return out;
}

}  // namespace quire
