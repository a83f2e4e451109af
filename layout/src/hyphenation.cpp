// Hyphenation: whether a line-end hyphen is a typesetting break or part of its word,
// decided from the book's own words first (see the rule below).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

#include "dictionary.h"
#include "internal.h"
#include "quire/text.h"
#include "text_chars.h"

namespace quire::detail {

namespace {

int count(const WordCounts& m, const std::string& k) { return m.count(k); }

bool ascii_letters(const std::u32string& w) {
  return std::all_of(w.begin(), w.end(), [](char32_t c) { return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z'); });
}

bool has_vowel(const std::u32string& w) {
  return std::any_of(w.begin(), w.end(), [](char32_t c) {
    char32_t l = (c >= U'A' && c <= U'Z') ? c - U'A' + U'a' : c;
    return l == U'a' || l == U'e' || l == U'i' || l == U'o' || l == U'u' || l == U'y';
  });
}

// Rules 4 and 5 below: whether the hyphen between the word parts `left` and `right` is the
// word's, for a break rules 1-3 leave open. `compound_goes_on`: the line after the break
// goes on with another hyphen, or the word before it has one.
bool keep_by_evidence(const std::u32string& left, const std::u32string& right, bool compound_goes_on,
                      const WordEvidence& ev, const LayoutOptions& o) {
  bool keep;
  int hyph = count(ev.hyphenated, lower(left + U"-" + right));
  int joined = count(ev.words, lower(left + right));
  auto digit = [](const std::u32string& w) {
    return std::any_of(w.begin(), w.end(), [](char32_t c) { return c >= U'0' && c <= U'9'; });
  };
  auto upper = [](char32_t c) { return c >= U'A' && c <= U'Z'; };
  auto camel = [&](const std::u32string& w) {
    for (size_t i = 1; i < w.size(); ++i)
      if (upper(w[i]) && !upper(w[i - 1]) && !(w[i - 1] >= U'0' && w[i - 1] <= U'9')) return true;
    return false;
  };
  // The joined word less its last letters (an inflection: "-ed", "-s", "-ing"), but with
  // some letters of the second part, so that it is more than the first part.
  auto stem_seen = [&]() {
    size_t keep_right = std::max(std::min(o.hyphenation.hyphen_stem_letters, right.size()), right.size() > o.hyphenation.hyphen_stem_letters ? right.size() - o.hyphenation.hyphen_stem_letters : 0);
    std::string stem = lower(left + right.substr(0, keep_right));
    std::string whole = lower(left + right);
    const auto& w = ev.sorted_words;
    for (auto it = std::lower_bound(w.begin(), w.end(), stem); it != w.end() && it->compare(0, stem.size(), stem) == 0; ++it)
      if (*it != whole) return true;
    return false;
  };
  // A part used in compounds at least this often, relative to its uses on its own: a
  // frequent word ("to" in "up-to-date") is not a sign.
  auto compound_part = [&](const WordCounts& m, const std::u32string& part) {
    int in = count(m, lower(part));
    return in > 0 && in >= o.hyphenation.compound_part_share * (in + count(ev.words, lower(part)));
  };
  const Dictionary* dictionary = nullptr;
  bool dictionary_asked = false;
  auto dictionary_knows = [&](const std::u32string& w) {
    if (!dictionary_asked) {  // loaded only for a break the book leaves undecided
      dictionary = Dictionary::at(o.hyphenation.hyphen_dictionary);
      dictionary_asked = true;
    }
    return dictionary && dictionary->knows(from_u32(w));
  };
  // Decides when the dictionary knows the joined word or both parts, but not all three
  // ("re-" "running": a prefix that some authors hyphenate; the book must say).
  auto dictionary_answer = [&]() -> std::optional<bool> {
    bool whole = dictionary_knows(left + right);
    bool parts = dictionary_knows(left) && dictionary_knows(right);
    if (whole == parts) return std::nullopt;
    return parts;  // keep the hyphen of a compound of two words
  };
  // Whether one of the book's hyphenated compounds that begin with `part` is a word the
  // dictionary knows closed up ("re-directed": "redirected").
  auto hyphenated_where_closed = [&](const std::u32string& part) {
    const std::string first = lower(part) + "-";
    bool found = false;
    ev.hyphenated.for_each([&](const std::string& compound, int) {
      if (!found && compound.size() > first.size() && compound.compare(0, first.size(), first) == 0)
        found = dictionary_knows(to_u32(lower(part) + compound.substr(first.size())));
    });
    return found;
  };
  auto no_pattern_break = [&]() {
    if (!ev.dictionary_language || !ascii_letters(left) || !ascii_letters(right) || upper(left.front()) ||
        dictionary_knows(left + right))
      return false;
    const HyphenPatterns* patterns = HyphenPatterns::at(o.hyphenation.hyphen_patterns);
    return patterns && !patterns->allow_break(lower(left), lower(right));
  };
  if (hyph > 0 || joined > 0) keep = hyph > joined;
  // A compound goes on around the break ("state-of-" "the-art"), unless the book has the
  // joined piece as a word ("spread-" "sheet-like", with "spreadsheets" elsewhere) or the
  // dictionary knows it and not the piece after the break ("lit-" "tle-endian",
  // "well-estab-" "lished" from a typesetter that breaks the parts of a compound).
  else if (compound_goes_on) keep = !(stem_seen() || (dictionary_knows(left + right) && !dictionary_knows(right)));
  else if (camel(left) || camel(right)) keep = false;
  else if (digit(left) || digit(right) || upper(right.front())) keep = true;
  else if (stem_seen()) keep = false;
  else if (dictionary_knows(left + right) && !dictionary_knows(right)) keep = false;
  else if (no_pattern_break()) keep = true;
  else if (count(ev.compound_first, lower(left)) > 0 && dictionary_knows(left + right) && !hyphenated_where_closed(left))
    keep = false;
  else if (compound_part(ev.compound_first, left) || compound_part(ev.compound_last, right)) keep = true;
  else if (auto answer = dictionary_answer()) keep = *answer;
  else
    keep = left.size() >= o.hyphenation.compound_word_min_letters &&
           right.size() >= o.hyphenation.compound_word_min_letters && count(ev.words, lower(left)) > 0 &&
           count(ev.words, lower(right)) > 0;
  return keep;
}

}  // namespace

// The hyphenation rule. A line-end hyphen is a typesetting break (removed) or part of the
// word (kept); the book's own words decide first, a spelling dictionary only where they
// say nothing:
//  1. a hyphen set in a monospace font is kept: TeX sets \hyphenchar of typewriter fonts to
//     -1 and other typesetters do not hyphenate code either, so a line-end hyphen there is a
//     real one ("--no-site-file"); so is every hyphen of a book that does not hyphenate
//     (WordEvidence::unhyphenated: no line-end break of the book is a syllable break);
//  2. a break leaving fewer letters than a typesetter ever leaves is kept: no typesetter
//     leaves one letter on either side, and TeX (\lefthyphenmin=2, \righthyphenmin=3)
//     never carries fewer than three letters over ("e-" "mail", "re-" "do" in a TeX book);
//  3. a part with no vowel ("dpkg-" "buildpackage") is kept: hyphenation patterns break
//     between syllables, and every syllable of a word has a vowel;
//  4. the compound "a-b" seen inside a line elsewhere and "ab" never seen -> keep;
//     "ab" seen and "a-b" never seen -> remove; both seen -> the more frequent form
//     (a tie removes: hyphenation breaks outnumber compounds split at their hyphen);
//  5. neither seen:
//     a. the next line goes on with another hyphen ("next-" "to-last"), or the line's
//        last word has one before the break ("fonts-crosextra-" "caladea") -> keep: a
//        compound of several parts (TeX never breaks a word after a hyphen of its own);
//     b. a part in camel case ("LbxChange-" "Property") -> remove: identifiers are
//        hyphenated by the typesetter, never written with a hyphen inside;
//     c. a part with a digit ("x86-" "64") or a second part starting with a capital
//        ("Linux-" "PAM") -> keep: hyphenation patterns do not break there;
//     d. another word of the book starts with the joined stem ("as-" "signed" beside
//        "assignment", "out-" "puts" beside "output") -> remove: the same word, inflected
//        differently, so the two halves are syllables of one word even if each is a word;
//     e. the spelling dictionary (hyphenation.hyphen_dictionary) knows the joined word
//        and not the second part ("trigger-" "ing", "in-" "cludes") -> remove: the second
//        part is a syllable, not a word;
//     f. the dictionary does not know the joined word, which starts in lower case, and the
//        hyphenation patterns (hyphenation.hyphen_patterns) allow no break between the
//        parts ("avahi-" "core", "libgpg-" "error") -> keep: the name of a thing with a
//        hyphen in it. Only there: the patterns are not the ones every book was set with
//        (British and American TeX patterns break "temporary" apart differently, and a
//        name or a foreign word is broken by its own language's), so for a word the
//        dictionary knows, or a name, they are no evidence; and only in a book whose
//        frequent words the dictionary mostly knows;
//     g. the dictionary knows the joined word ("sub-" "class"), and the book hyphenates the
//        first part only in compounds the dictionary does not write closed up ("sub-sampling")
//        -> remove: the book's compounds are no sign that it hyphenates the part where the
//        dictionary closes it up, as a book with "re-directed" beside "re-usable" does;
//     h. the first part begins, or the second ends, other compounds of the book ("dpkg-"
//        "buildpackage" beside "dpkg-source") -> keep: a word that forms compounds (not
//        a frequent word found in a compound or two, like "to" in "up-to-date");
//     i. the dictionary knows the joined word but not the first part ("pre-" "cludes")
//        -> remove; it knows both parts but not the joined word ("thread-" "safe") ->
//        keep: a compound of two words; it knows all three ("re-" "running" beside
//        "rerunning") or none: no answer, as authors differ (a first part that is not a
//        word may be a prefix the book hyphenates: "mis-" "alignment", hence h before i);
//     j. both parts are words of the book on their own ("upward-" "compatible") -> keep:
//        a compound of two words; a typesetting break leaves fragments ("exam-" "ple");
//     k. otherwise remove.
std::string join_hyphenated(const std::string& before, const std::string& after, bool before_mono,
                            const WordEvidence& ev, const LayoutOptions& o) {
  auto b = to_u32(before), a = to_u32(after);
  // A soft hyphen at the line's end marks a break inside a word: the word, whole, without it.
  if (b.size() >= 2 && b.back() == 0xAD && is_letter_cp(b[b.size() - 2]) && !a.empty() && is_letter_cp(a.front()))
    return from_u32(b.substr(0, b.size() - 1)) + after;
  if (b.size() < 2 || a.empty() || !is_hyphen_cp(b.back()) || !is_word_cp(b[b.size() - 2])) return {};
  if (!is_word_cp(a.front())) return {};
  size_t s = b.size() - 1;
  while (s > 0 && is_word_cp(b[s - 1])) --s;
  std::u32string left = b.substr(s, b.size() - 1 - s);
  size_t e = 0;
  while (e < a.size() && is_word_cp(a[e])) ++e;
  std::u32string right = a.substr(0, e);
  // A note mark set after the word ("memo-" "ry1"): typesetters hyphenate the letters of a
  // word, so the digits after them are no part of what decides.
  {
    size_t letters = 0;
    while (letters < right.size() && is_letter_cp(right[letters])) ++letters;
    const bool digits_after = letters > 0 && letters < right.size() &&
                              std::all_of(right.begin() + static_cast<std::ptrdiff_t>(letters), right.end(),
                                          [](char32_t c) { return c >= U'0' && c <= U'9'; });
    if (digits_after) right.resize(letters);
  }
  size_t right_min = ev.tex ? o.hyphenation.tex_min_hyphen_right : o.hyphenation.min_hyphen_right;
  bool keep;
  if (before_mono || ev.unhyphenated) {
    keep = true;
  } else if (ascii_letters(left) && ascii_letters(right) &&
             (left.size() < o.hyphenation.min_hyphen_left || right.size() < right_min || !has_vowel(left) ||
              !has_vowel(right))) {
    keep = true;
  } else {
    // (Or came before it: "fonts-crosextra-" "caladea".)
    const bool compound_goes_on = (e + 1 < a.size() && is_hyphen_cp(a[e]) && is_word_cp(a[e + 1])) ||
                                  (s >= 2 && is_hyphen_cp(b[s - 1]) && is_word_cp(b[s - 2]));
    keep = keep_by_evidence(left, right, compound_goes_on, ev, o);
  }
  if (keep) return before + after;
  return from_u32(b.substr(0, b.size() - 1)) + after;
}

}  // namespace quire::detail
