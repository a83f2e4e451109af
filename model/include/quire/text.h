// Unicode text helpers shared by the stages (UTF-8 throughout, ICU underneath).
#pragma once

#include <list>
#include <string>
#include <string_view>
#include <vector>

namespace quire {

// Number of code points in valid UTF-8 (invalid bytes count one each).
size_t utf8_length(std::string_view);
// Splits into code points (each a UTF-8 string).
std::vector<std::string> utf8_chars(std::string_view);
// Appends code point cp as UTF-8 (U+FFFD for a surrogate or a value past U+10FFFF: no
// character).
void append_utf8_beyond_ascii(std::string& out, char32_t cp);
inline void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) out += static_cast<char>(cp);  // (most text: inline)
  else append_utf8_beyond_ascii(out, cp);
}
// Decodes; invalid sequences become U+FFFD.
std::u32string to_u32(std::string_view);
// The same into `out`, whose storage is reused (for loops that decode one text after another).
void to_u32(std::string_view, std::u32string& out);
std::string from_u32(std::u32string_view);

// The normalisation quire allows itself: ligature glyphs U+FB00-FB06 expanded to letters,
// soft hyphens removed, then Unicode NFC. Nothing else (no NFKC: it changes wording).
std::string normalize_text(std::string_view);

// True when every byte is ASCII: such text is already normalised and splits at ASCII spaces.
bool is_ascii(std::string_view);

// Words for the wording check: the text split at Unicode white space, each normalised.
std::vector<std::string> whitespace_tokens(std::string_view);

// How many words whitespace_tokens gives, without making them.
size_t whitespace_token_count(std::string_view);

// The bytes of the next of whitespace_tokens' words at or after byte `at` of s: [from, to),
// with from == s.size() when none is left. A word of ASCII bytes is those bytes; another is
// normalize_text of them, which may be empty (a lone soft hyphen).
struct TokenBytes {
  size_t from = 0, to = 0;
  bool ascii = true;
};
TokenBytes next_token_bytes(std::string_view s, size_t at);

// Calls fn(word, in_s) for each of whitespace_tokens(s) in order, without making them:
// `word` is a view into s (in_s true) when it is ASCII, else into a normalised copy that
// lives for the call.
// for_each_whitespace_token_while stops at the first word for which fn returns false.
template <class Fn>
void for_each_whitespace_token_while(std::string_view s, Fn&& fn) {
  std::string normalised;
  for (TokenBytes t = next_token_bytes(s, 0); t.from < s.size(); t = next_token_bytes(s, t.to)) {
    const std::string_view bytes = s.substr(t.from, t.to - t.from);
    if (t.ascii) {
      if (!fn(bytes, true)) return;
      continue;
    }
    normalised = normalize_text(bytes);
    if (!normalised.empty() && !fn(std::string_view(normalised), false)) return;
  }
}
template <class Fn>
void for_each_whitespace_token(std::string_view s, Fn&& fn) {
  for_each_whitespace_token_while(s, [&](std::string_view word, bool in_s) {
    fn(word, in_s);
    return true;
  });
}

// The words of texts (whitespace_tokens) as views, made without a string per word: into the
// text where a word is ASCII, else into a normalised copy kept here. The texts must outlive
// it. add_while stops at the first word after which keep(words so far) is false.
class WordViews {
 public:
  template <class Keep>
  void add_while(std::string_view text, Keep&& keep) {
    for_each_whitespace_token_while(text, [&](std::string_view w, bool in_text) {
      words_.push_back(in_text ? w : std::string_view(copies_.emplace_back(w)));
      return keep(words_.size());
    });
  }
  void add(std::string_view text) {
    add_while(text, [](size_t) { return true; });
  }
  const std::vector<std::string_view>& words() const { return words_; }
  std::vector<std::string_view>& words() { return words_; }  // (to sort, say)

 private:
  std::vector<std::string_view> words_;
  std::list<std::string> copies_;  // (a list: a copy never moves while views point into it)
};

// ASCII slug: lowercase [a-z0-9-], transliterated through ICU (Any-Latin; Latin-ASCII),
// runs of other characters collapsed to '-', at most max_len characters, never empty
// (falls back to `fallback`).
std::string slugify(std::string_view, size_t max_len = 60, std::string_view fallback = "untitled");

// White space: ASCII's (space, tab, line feed, vertical tab, form feed, carriage return) or
// Unicode's White_Space. Inline for ASCII: layout and the wording check ask it of every
// character.
bool is_space_cp_beyond_ascii(char32_t);
inline bool is_space_cp(char32_t c) {
  if (c < 0x80) return c == ' ' || (c >= '\t' && c <= '\r');
  return is_space_cp_beyond_ascii(c);
}
// A character set on the full em square (East Asian Wide or Fullwidth: Han, Hangul, kana,
// fullwidth forms). Every face sets these at one advance, proportional or not.
bool is_wide_cp(char32_t);
// Punctuation as CommonMark reads it: ASCII punctuation or a Unicode P* character (not a
// symbol: "$" is ASCII punctuation, "⋆" is not punctuation).
bool is_punctuation_cp(char32_t);
// A letter of any script (Unicode alphabetic).
bool is_letter_cp(char32_t);
// True for code points that mean the text layer is unusable: U+FFFD, private use, C0/C1 controls.
bool is_unmapped_cp(char32_t);

}  // namespace quire
