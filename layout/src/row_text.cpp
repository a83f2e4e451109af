// Row text: tests on a row's text that type its block (a sentence's end, a list marker,
// a chapter opener's label, a section number, the last token).
#include <algorithm>
#include <cctype>
#include <cstring>
#include <cmath>
#include <optional>
#include <regex>

#include "internal.h"
#include "quire/text.h"
#include "text_chars.h"

namespace quire::detail {

bool ends_sentence(const std::string& t) {
  // From the end while the bytes are ASCII (each is its own character, whatever precedes it):
  // most rows end in ASCII, and need not be decoded whole.
  for (size_t i = t.size(); i > 0; --i) {
    const auto c = static_cast<unsigned char>(t[i - 1]);
    if (c >= 0x80) break;
    if (ascii_space(static_cast<char>(c)) || c == ')' || c == '"' || c == '\'') continue;
    return c == '.' || c == '!' || c == '?' || c == ':';
  }
  auto cps = to_u32(t);
  while (!cps.empty() && (is_space_cp(cps.back()) || cps.back() == U')' || cps.back() == U'”' || cps.back() == U'’' ||
                          cps.back() == U'"' || cps.back() == U'\''))
    cps.pop_back();
  if (cps.empty()) return true;
  char32_t c = cps.back();
  return c == U'.' || c == U'!' || c == U'?' || c == U':';
}

bool starts_lower(const std::string& t) {
  // The first code point lies in the first four bytes.
  auto cps = to_u32(std::string_view(t).substr(0, 4));
  return !cps.empty() && ((cps.front() >= U'a' && cps.front() <= U'z') || cps.front() == U'(' );
}

namespace {

bool ascii_digit(char c) { return c >= '0' && c <= '9'; }
bool roman_digit(char c) { return c == 'i' || c == 'v' || c == 'x'; }

// Length of an enumerator "1." "12)" "(3)" "a." "(b)" "(iv)" "iv)" starting `t` and followed
// by white space, or 0: the regular expression
//   ^(\(?[0-9]{1,3}[.)]|\(?[a-z][.)]|\([ivx]{1,4}\)|[ivx]{1,4}\))\s
// with its alternatives tried in this order, written out (it runs for every row). A list
// numbers its items to 999 at most, in roman numerals to "viii" or so: a longer number
// opening a line is a value, not an enumerator.
constexpr size_t kEnumeratorDigits = 3, kEnumeratorRomanDigits = 4;
size_t enumerator_length(std::string_view t) {
  auto spaced = [&](size_t end) { return end < t.size() && ascii_space(t[end]); };
  auto closes = [&](size_t i) { return i < t.size() && (t[i] == '.' || t[i] == ')'); };
  const size_t paren = !t.empty() && t[0] == '(' ? 1 : 0;
  size_t i = paren;
  while (i < t.size() && i - paren < kEnumeratorDigits && ascii_digit(t[i])) ++i;
  if (i > paren && closes(i) && spaced(i + 1)) return i + 1;
  if (paren < t.size() && t[paren] >= 'a' && t[paren] <= 'z' && closes(paren + 1) && spaced(paren + 2)) return paren + 2;
  i = paren;
  while (i < t.size() && i - paren < kEnumeratorRomanDigits && roman_digit(t[i])) ++i;
  if (i > paren && i < t.size() && t[i] == ')' && spaced(i + 1)) return i + 1;
  return 0;
}

}  // namespace

bool opener_word(std::string_view token) {
  static const std::string_view words[] = {"Chapter", "CHAPTER", "Appendix", "APPENDIX", "Part", "PART"};
  return std::find(std::begin(words), std::end(words), token) != std::end(words);
}

namespace {

// A number spelled out as an opener prints it ("ONE", "Two", "three"): 1 to 20; 0 otherwise.
int spelled_number(std::string_view token) {
  static const std::string_view spelled[] = {"one",     "two",      "three",    "four",      "five",
                                             "six",     "seven",    "eight",    "nine",      "ten",
                                             "eleven",  "twelve",   "thirteen", "fourteen",  "fifteen",
                                             "sixteen", "seventeen", "eighteen", "nineteen", "twenty"};
  // All lower case, capitalised, or all capitals.
  std::string lower;
  for (char c : token) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto at = std::find(std::begin(spelled), std::end(spelled), lower);
  if (at == std::end(spelled) || token.empty()) return 0;
  const bool rest_lower = std::all_of(token.begin() + 1, token.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  const bool all_upper = std::all_of(token.begin(), token.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  return rest_lower || all_upper ? static_cast<int>(at - std::begin(spelled)) + 1 : 0;
}

std::string_view without_stop(std::string_view token) {
  if (!token.empty() && (token.back() == '.' || token.back() == ':')) token.remove_suffix(1);
  return token;
}

}  // namespace

bool opener_number(std::string_view token) {
  token = without_stop(token);
  if (token.empty()) return false;
  if (std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; })) return true;
  if (token.size() == 1 && token[0] >= 'A' && token[0] <= 'Z') return true;
  if (std::all_of(token.begin(), token.end(), [](char c) { return std::strchr("IVXLC", c) != nullptr; })) return true;
  return spelled_number(token) > 0;
}

std::string opener_number_value(std::string_view token) {
  token = without_stop(token);
  if (int n = spelled_number(token); n > 0) return std::to_string(n);
  return std::string(token);
}

int section_number_depth(const std::string& text) {
  static const std::regex number(R"(^\s*[1-9][0-9]{0,2}((\.[0-9]{1,3})*)\.?\s+\S)");
  std::smatch m;
  if (!std::regex_search(text, m, number)) return 0;
  return 1 + static_cast<int>(std::count(m[1].first, m[1].second, '.'));
}

size_t list_marker(const std::string& t) {
  // The first two code points lie in the first eight bytes.
  auto cps = to_u32(std::string_view(t).substr(0, 8));
  if (cps.size() >= 2 && (cps[0] == U'•' || cps[0] == U'◦' || cps[0] == U'▪' || cps[0] == U'‣' || cps[0] == U'∙' ||
                          cps[0] == U'–' || cps[0] == U'—' || cps[0] == U'·' || cps[0] == U'*' || cps[0] == U'-' ||
                          cps[0] == U'■' || cps[0] == U'□' || cps[0] == U'○' || cps[0] == U'●') &&
      is_space_cp(cps[1]))
    return 1;
  return enumerator_length(t);
}

std::optional<std::string> last_token(const std::string& text, bool* more) {
  size_t end = text.size();
  while (end > 0 && ascii_space(text[end - 1])) --end;
  size_t start = end;
  while (start > 0 && !ascii_space(text[start - 1])) --start;
  // An ASCII space is a token boundary whatever surrounds it, so the tokens of the tail are
  // the last ones of the whole.
  auto tail = whitespace_tokens(std::string_view(text).substr(start));
  if (tail.empty() && start > 0) {  // the tail is other white space
    tail = whitespace_tokens(text);
    start = 0;
  }
  if (tail.empty()) return std::nullopt;
  if (more) {
    // An ASCII character but white space before the tail makes a token of its own.
    *more = tail.size() > 1;
    for (size_t i = 0; i < start && !*more; ++i) {
      const unsigned char c = static_cast<unsigned char>(text[i]);
      if (c >= 0x80) {  // (normalisation may leave nothing of a token: a lone soft hyphen)
        *more = !whitespace_tokens(std::string_view(text).substr(0, start)).empty();
        break;
      }
      if (!ascii_space(static_cast<char>(c))) *more = true;
    }
  }
  return std::move(tail.back());
}

bool last_token_mono(const Row& r, const PageLines& pl) {
  for (auto l = r.lines.rbegin(); l != r.lines.rend(); ++l)
    for (size_t s = (*l)->spans.size(); s-- > 0;)
      if (has_token((*l)->spans[s].text)) return pl.mono(**l, s);
  return false;
}

}  // namespace quire::detail
