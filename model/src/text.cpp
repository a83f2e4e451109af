#include "quire/text.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>

#include <unicode/normalizer2.h>
#include <unicode/translit.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

namespace quire {

size_t utf8_length(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

void append_utf8_beyond_ascii(std::string& out, char32_t cp) {
  if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) cp = 0xFFFD;  // (no character: UTF-8 has no form for it)
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

namespace {

// The code point of UTF-8 at s[i] (a lead byte of 0x80 or more) and its length in bytes, as
// to_u32 reads it: a byte that starts no sequence, or a sequence cut short, is U+FFFD of one
// byte.
inline std::pair<char32_t, size_t> decode_beyond_ascii(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  char32_t cp;
  size_t extra;
  if ((c & 0xE0) == 0xC0) { cp = c & 0x1F; extra = 1; }
  else if ((c & 0xF0) == 0xE0) { cp = c & 0x0F; extra = 2; }
  else if ((c & 0xF8) == 0xF0) { cp = c & 0x07; extra = 3; }
  else return {U'\uFFFD', 1};
  for (size_t k = 1; k <= extra; ++k) {
    if (i + k >= s.size() || (static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return {U'\uFFFD', 1};
    cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  }
  return {cp, extra + 1};
}

}  // namespace

std::u32string to_u32(std::string_view s) {
  std::u32string out;
  to_u32(s, out);
  return out;
}

void to_u32(std::string_view s, std::u32string& out) {
  out.resize(s.size());  // never more code points than bytes
  size_t n = 0;
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {  // ASCII (most of a technical book) widens byte by byte
      out[n++] = c;
      ++i;
      continue;
    }
    const auto [cp, len] = decode_beyond_ascii(s, i);
    out[n++] = cp;
    i += len;
  }
  out.resize(n);
}

std::string from_u32(std::u32string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char32_t c : s) append_utf8(out, c);
  return out;
}

std::vector<std::string> utf8_chars(std::string_view s) {
  std::vector<std::string> out;
  for (char32_t c : to_u32(s)) {
    std::string one;
    append_utf8(one, c);
    out.push_back(std::move(one));
  }
  return out;
}

namespace {

const char* ligature_expansion(char32_t c) {
  switch (c) {
    case 0xFB00: return "ff";
    case 0xFB01: return "fi";
    case 0xFB02: return "fl";
    case 0xFB03: return "ffi";
    case 0xFB04: return "ffl";
    case 0xFB05: return "st";  // long s + t
    case 0xFB06: return "st";
    default: return nullptr;
  }
}

inline bool is_ascii_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

}  // namespace

bool is_ascii(std::string_view s) {
  // Eight bytes at a time: any high bit means a non-ASCII byte.
  const char* p = s.data();
  size_t n = s.size();
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    if (w & 0x8080808080808080ull) return false;
    p += 8;
    n -= 8;
  }
  for (; n; --n, ++p)
    if (static_cast<unsigned char>(*p) >= 0x80) return false;
  return true;
}

std::string normalize_text(std::string_view s) {
  if (is_ascii(s)) return std::string(s);  // NFC and ligature-free already
  std::string expanded;
  expanded.reserve(s.size());
  for (char32_t c : to_u32(s)) {
    if (c == 0x00AD) continue;  // soft hyphen: a typesetting hint, not a character of the text
    if (const char* lig = ligature_expansion(c)) { expanded += lig; continue; }
    append_utf8(expanded, c);
  }
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status)) return expanded;
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(expanded);
  if (nfc->isNormalized(u, status) && U_SUCCESS(status)) return expanded;
  status = U_ZERO_ERROR;
  icu::UnicodeString n = nfc->normalize(u, status);
  if (U_FAILURE(status)) return expanded;
  std::string out;
  n.toUTF8String(out);
  return out;
}

bool is_space_cp_beyond_ascii(char32_t c) { return u_isUWhiteSpace(static_cast<UChar32>(c)); }

bool is_wide_cp(char32_t c) {
  if (c < 0x1100) return false;  // (nothing below Hangul Jamo is wide)
  const int w = u_getIntPropertyValue(static_cast<UChar32>(c), UCHAR_EAST_ASIAN_WIDTH);
  return w == U_EA_WIDE || w == U_EA_FULLWIDTH;
}

bool is_punctuation_cp(char32_t c) {
  if (c < 0x80) return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E);
  return u_ispunct(static_cast<UChar32>(c));
}

bool is_letter_cp(char32_t c) {
  if (c < 0x80) return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
  return u_isUAlphabetic(static_cast<UChar32>(c));
}

bool is_unmapped_cp(char32_t c) {
  if (c == 0xFFFD) return true;
  if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return true;
  if (c >= 0x7F && c <= 0x9F) return true;
  if (c >= 0xE000 && c <= 0xF8FF) return true;      // BMP private use
  if (c >= 0xF0000) return true;                    // supplementary private use planes
  return false;
}

TokenBytes next_token_bytes(std::string_view s, size_t at) {
  // Bytes beyond ASCII are decoded as to_u32 decodes them, only to ask whether they are
  // white space; a word's bytes are whole code points, so normalising them alone gives what
  // normalising its decoded characters would.
  const size_t n = s.size();
  TokenBytes t{n, n, true};
  size_t i = at;
  while (i < n) {  // the white space before the word
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (!is_ascii_space(c)) break;
      ++i;
      continue;
    }
    const auto [cp, len] = decode_beyond_ascii(s, i);
    if (!is_space_cp(cp)) break;
    i += len;
  }
  if (i == n) return t;
  t.from = i;
  while (i < n) {  // the word, up to the white space after it
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (is_ascii_space(c)) break;
      ++i;
      continue;
    }
    const auto [cp, len] = decode_beyond_ascii(s, i);
    if (is_space_cp(cp)) break;
    t.ascii = false;
    i += len;
  }
  t.to = i;
  return t;
}

size_t whitespace_token_count(std::string_view s) {
  size_t n = 0;
  if (is_ascii(s)) {
    bool in_word = false;
    for (char c : s) {
      const bool space = is_ascii_space(static_cast<unsigned char>(c));
      n += !space && !in_word;
      in_word = !space;
    }
    return n;
  }
  for_each_whitespace_token(s, [&](std::string_view, bool) { ++n; });
  return n;
}

std::vector<std::string> whitespace_tokens(std::string_view s) {
  std::vector<std::string> out;
  out.reserve(s.size() / 6 + 1);  // about one word per six bytes of English text
  for_each_whitespace_token(s, [&](std::string_view word, bool) { out.emplace_back(word); });
  return out;
}

std::string slugify(std::string_view s, size_t max_len, std::string_view fallback) {
  std::string ascii;
  if (is_ascii(s)) {
    ascii = std::string(s);
  } else {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::Transliterator> tr(icu::Transliterator::createInstance(
        "Any-Latin; Latin-ASCII", UTRANS_FORWARD, status));
    icu::UnicodeString u = icu::UnicodeString::fromUTF8(std::string(s));
    if (U_SUCCESS(status) && tr) tr->transliterate(u);
    u.toUTF8String(ascii);
  }
  std::string out;
  bool dash = false;
  for (unsigned char c : ascii) {
    if (c >= 'A' && c <= 'Z') c = c - 'A' + 'a';
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      if (dash && !out.empty()) out += '-';
      dash = false;
      out += static_cast<char>(c);
    } else {
      dash = true;
    }
  }
  if (out.size() > max_len) {
    out.resize(max_len);
    // Cut at the last dash so a word is not split, when there is one in the second half.
    auto cut = out.rfind('-');
    if (cut != std::string::npos && cut > max_len / 2) out.resize(cut);
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  if (out.empty()) return std::string(fallback);
  return out;
}

}  // namespace quire
