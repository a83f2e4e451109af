// Known differences between the words two engines read from one page. Each rule pairs words
// the corpus has and the witness lacks with words the witness has and the corpus lacks, and
// forgives a pair only when the rule's typographic cause explains it exactly.
#include "witness.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <algorithm>

#include "quire/text.h"

namespace quire {

namespace {

constexpr const char* kSpacing = "spacing";
constexpr const char* kAccent = "accent";
constexpr const char* kUnmapped = "unmapped-glyph";
constexpr const char* kFormula = "formula-order";

// Beyond this many differing words in a group the engines disagree on more than details:
// nothing is forgiven, every word is reported.
constexpr long kMaxDifferences = 5000;
// A word read apart into at most this many pieces (a formula "y~A*x" against "y ~ A * x").
constexpr int kMaxPieces = 6;

bool take(WordTally& t, std::string_view w, long n = 1) {
  auto it = t.find(w);
  if (it == t.end() || it->second < n) return false;
  if ((it->second -= n) == 0) t.erase(it);
  return true;
}

long count(const WordTally& t, std::string_view w) {
  auto it = t.find(w);
  return it == t.end() ? 0 : it->second;
}

long total(const WordTally& t) {
  long n = 0;
  for (const auto& e : t) n += e.second;
  return n;
}

// Pieces of `w` from byte `from`, each a word of `parts` (beyond what `used` already took),
// or, at most `borrow` of them, a word the two sides have alike (see split_words).
bool pieces(std::string_view w, size_t from, const WordTally& parts, WordTally& used, WordTally& borrowed, int left,
            int borrow) {
  if (from == w.size()) return total(used) >= 1 && total(used) + total(borrowed) >= 2;
  if (left == 0) return false;
  for (size_t end = from + 1; end <= w.size(); ++end) {
    if (end < w.size() && (static_cast<unsigned char>(w[end]) & 0xC0) == 0x80) continue;
    if (from == 0 && end == w.size()) continue;  // the whole word is not a piece of itself
    const std::string piece(w.substr(from, end - from));
    if (count(parts, piece) > count(used, piece)) {
      used[piece]++;
      if (pieces(w, end, parts, used, borrowed, left - 1, borrow)) return true;
      take(used, piece);
    } else if (borrow > 0) {
      borrowed[piece]++;
      if (pieces(w, end, parts, used, borrowed, left - 1, borrow - 1)) return true;
      take(borrowed, piece);
    }
  }
  return false;
}

// Words of `whole` that are several words of `parts`, letter for letter, in order. A piece
// may be a word both sides have alike when the other side holds it elsewhere ("problems1"
// against "problems" "1" while a "1" of the page is read apart from its neighbour): it is
// then owed by `whole`'s side, so no letter is ever forgiven that one side lacks.
long split_words(WordTally& whole, WordTally& parts) {
  long explained = 0;
  for (int borrow = 0; borrow < kMaxPieces; ++borrow) {
    bool again = true;
    while (again) {
      again = false;
      for (auto it = whole.begin(); it != whole.end(); ++it) {
        WordTally used, borrowed;
        if (!pieces(it->first, 0, parts, used, borrowed, kMaxPieces, borrow)) continue;
        for (const auto& [p, n] : used) take(parts, p, n);
        explained += 1 + total(used) - total(borrowed);
        take(whole, std::string(it->first));
        for (const auto& [p, n] : borrowed) whole[p] += n;
        again = true;
        break;
      }
    }
  }
  return explained;
}

// A word without its accents: decomposed, with combining marks and spacing accents (a
// diaeresis or a cedilla set as a glyph of its own, as TeX's fonts build "ö" and "ç") taken out.
std::u32string bare(const std::string& w) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfd = icu::Normalizer2::getNFDInstance(status);
  std::u32string out;
  if (U_FAILURE(status)) return to_u32(w);
  icu::UnicodeString d = nfd->normalize(icu::UnicodeString::fromUTF8(w), status);
  if (U_FAILURE(status)) return to_u32(w);
  std::string utf8;
  d.toUTF8String(utf8);
  for (char32_t c : to_u32(utf8)) {
    const int8_t type = u_charType(static_cast<UChar32>(c));
    if (type == U_NON_SPACING_MARK || type == U_ENCLOSING_MARK || type == U_MODIFIER_SYMBOL) continue;
    out += c;
  }
  return out;
}

bool letter_or_digit(char32_t c) { return u_isalnum(static_cast<UChar32>(c)) && !is_unmapped_cp(c); }

// Two words of one length that differ only where one side has no letter or digit: a glyph of
// a symbol font read through its code by one engine (a TeX font's "⟨" as "h") and through its
// name or not at all (U+FFFD) by the other.
bool same_but_unmapped(const std::u32string& a, const std::u32string& b) {
  if (a.size() != b.size() || a.empty()) return false;
  bool differ = false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) continue;
    if (letter_or_digit(a[i]) && letter_or_digit(b[i])) return false;
    differ = true;
  }
  return differ;
}

// A word of a symbol font's glyphs only (no letter or digit, not plain ASCII punctuation,
// which every font maps).
bool unmapped_symbols(const std::u32string& w) {
  return !w.empty() && std::none_of(w.begin(), w.end(), [](char32_t c) { return letter_or_digit(c); }) &&
         std::any_of(w.begin(), w.end(), [](char32_t c) { return c > 0x7F; });
}

// Pairs a word of `a` with one of `b` where `match` says they are one word read two ways.
template <class Match>
long pair_words(WordTally& a, WordTally& b, Match match) {
  long explained = 0;
  std::vector<std::string> as;
  for (const auto& [w, n] : a)
    for (long k = 0; k < n; ++k) as.push_back(w);
  for (const auto& w : as) {
    if (count(a, w) == 0) continue;
    for (auto it = b.begin(); it != b.end(); ++it)
      if (match(w, it->first)) {
        const std::string other = it->first;
        take(a, w);
        take(b, other);
        explained += 2;
        break;
      }
  }
  return explained;
}

}  // namespace

const std::vector<KnownDifference>& known_engine_differences() {
  static const std::vector<KnownDifference> list = {
      {kSpacing,
       "the engines place word breaks apart: a raised note mark touching its word (\"converted.1\" against "
       "\"converted.\" \"1\"), a kerned gap (\"N -d\"), a spaced ellipsis (\". . .)\"), a formula (\"y~A*x\" against "
       "\"y ~ A * x\"); the letters are the same, in the same order, one word on one side and two to six on the other"},
      {kAccent,
       "an accent set as a glyph of its own (TeX builds \"ö\" from \"o\" and a diaeresis): one engine composes it "
       "(\"Jöreskog\"), the other gives the accent beside the letter (\"J¨oreskog\"); the words are the same without "
       "their accents"},
      {kUnmapped,
       "a glyph of a symbol font without a Unicode mapping: one engine reads its code (\"hundefinedi\"), the other its "
       "name or nothing (\"⟨undefined⟩\", U+FFFD); the words differ only where one side has no letter or digit, or "
       "are symbols only and stand on one side"},
      {kFormula,
       "the glyphs of a formula (scripts, fractions, big operators) are read in another order: what is left of a "
       "chapter's differences, once the rules above are applied, is the same characters on both sides"},
  };
  return list;
}

std::map<std::string, long> explain_engine_differences(WordTally& missing, WordTally& added) {
  std::map<std::string, long> explained;
  if (total(missing) + total(added) > kMaxDifferences) return explained;
  auto note = [&](const char* kind, long n) {
    if (n) explained[kind] += n;
  };
  note(kAccent, pair_words(missing, added, [](const std::string& a, const std::string& b) { return bare(a) == bare(b); }));
  note(kSpacing, split_words(missing, added) + split_words(added, missing));
  note(kUnmapped, pair_words(missing, added, [](const std::string& a, const std::string& b) {
         return same_but_unmapped(to_u32(a), to_u32(b)) || same_but_unmapped(bare(a), bare(b));
       }));
  // Symbols one engine reads and the other does not.
  for (WordTally* side : {&missing, &added})
    for (auto it = side->begin(); it != side->end();) {
      if (unmapped_symbols(to_u32(it->first))) {
        note(kUnmapped, it->second);
        it = side->erase(it);
      } else {
        ++it;
      }
    }
  // What is left: the same characters on both sides, in another order.
  std::u32string a, b;
  for (const auto& [w, n] : missing)
    for (long k = 0; k < n; ++k) a += to_u32(w);
  for (const auto& [w, n] : added)
    for (long k = 0; k < n; ++k) b += to_u32(w);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (!a.empty() && a == b) {
    note(kFormula, total(missing) + total(added));
    missing.clear();
    added.clear();
  }
  return explained;
}

}  // namespace quire
