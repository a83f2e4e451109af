// Private to layout/: character and token tests shared by the block passes (word evidence,
// hyphenation, row text, the block builder).
#pragma once

#include <string>
#include <string_view>

#include "quire/text.h"

namespace quire::detail {

inline bool is_word_cp(char32_t c) {
  return (c >= U'0' && c <= U'9') || (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') || (c > 0x7F && c != 0x2010 && c != 0x2011 && !is_space_cp(c) && !(c >= 0x2000 && c <= 0x206F));
}

inline bool is_hyphen_cp(char32_t c) { return c == U'-' || c == 0x2010; }

// White space as is_space_cp has it, for ASCII.
inline bool ascii_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

inline bool is_ascii(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

inline std::string lower(const std::u32string& s) {
  std::u32string t = s;
  for (auto& c : t)
    if (c >= U'A' && c <= U'Z') c = c - U'A' + U'a';
  return from_u32(t);
}

// A token whose last code point is a hyphen (is_hyphen_cp: '-' or U+2010).
inline bool ends_with_hyphen(std::string_view t) {
  return (!t.empty() && t.back() == '-') || (t.size() >= 3 && t.substr(t.size() - 3) == "\xE2\x80\x90");
}

// Text ending in a soft hyphen (U+00AD): a discretionary break the typesetter took, which
// some (ConTeXt) write into the text at the line's end (whitespace_tokens leave it out).
inline bool ends_with_soft_hyphen(std::string_view t) { return t.size() >= 2 && t.substr(t.size() - 2) == "\xC2\xAD"; }

// A listing's wrap mark: a line of code too long for the measure goes on on the next line,
// which the typesetter leads with a hook arrow set from a symbol font (Sphinx, fvextra and
// minted: \hookrightarrow, which TeX's math fonts make of two glyphs, U+02D3 and an arrow;
// listings' postbreak; others print U+21AA, U+21B3 or U+2937). A break taken at a space may
// print that space as U+2423 at the broken line's end (Sphinx).
inline bool is_wrap_mark(std::u32string_view s) {
  return s == U"\u02D3\u2192" || s == U"\u21AA" || s == U"\u21B3" || s == U"\u2937";
}
inline constexpr size_t kLongestWrapMark = 2;  // code points, of the marks above and below

// A listing's wrap mark set at the end of the broken line instead (listings' prebreak, as
// dblatex sets it): a hook arrow pointing back, U+21A9, or \hookleftarrow as TeX's math
// fonts make it, an arrow (U+2190) and a hook that has no Unicode mapping.
inline bool is_trailing_wrap_mark(std::u32string_view s) {
  return s == U"\u21A9" || (s.size() == 2 && s[0] == U'\u2190' && is_unmapped_cp(s[1]));
}

// The most bytes UTF-8 takes for a code point.
inline constexpr size_t kMaxUtf8Bytes = 4;
inline constexpr char32_t kVisibleSpace = 0x2423;

// `s` without the ASCII white space at its end.
inline std::string_view trimmed_end(std::string_view s) {
  while (!s.empty() && ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

// !whitespace_tokens(s).empty(), without making the tokens of ASCII text.
inline bool has_token(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return !whitespace_tokens(s).empty();
    if (!ascii_space(c)) return true;
  }
  return false;
}

}  // namespace quire::detail
