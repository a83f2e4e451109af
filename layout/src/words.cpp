// Word evidence: every word of the book, the compounds it writes with a hyphen inside a line,
// and its line-end breaks. The hyphenation rule (hyphenation.cpp) trusts the book's own
// spelling first: a word written whole elsewhere in the book is one word.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <cmath>
#include <optional>

#include "dictionary.h"
#include "internal.h"
#include "quire/spill.h"
#include "quire/parallel.h"
#include "quire/text.h"
#include "quire/typography.h"
#include "text_chars.h"

namespace quire::detail {

namespace {

// An ASCII token's bytes read as its code points, without decoding them.
struct AsciiCodePoints {
  std::string_view s;
  size_t size() const { return s.size(); }
  char32_t operator[](size_t i) const { return static_cast<unsigned char>(s[i]); }
  char32_t back() const { return static_cast<unsigned char>(s.back()); }
};

// Appends the code points [from, to) of `cps`, ASCII letters lowercased, as UTF-8.
template <class CodePoints>
void append_lower(std::string& out, const CodePoints& cps, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i) {
    char32_t c = cps[i];
    if (c >= U'A' && c <= U'Z') c = c - U'A' + U'a';
    append_utf8(out, c);
  }
}

// ASCII letters, lowercase but for the first (lowered): "Sec" of "Sec-" "tion"; empty when
// another character is among them.
template <class CodePoints>
std::string lowercase_run(const CodePoints& w, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i) {
    char32_t c = w[i];
    if (i == from && c >= U'A' && c <= U'Z') c = c - U'A' + U'a';
    if (c < U'a' || c > U'z') return std::string();
    out += static_cast<char>(c);
  }
  return out;
}

// One page's words: the runs of word characters of its tokens, and the compounds they form.
// A token is read as code points: an ASCII one straight from its bytes, another decoded.
void collect_page_words(const Page& p, const PageLines& pl, const LayoutOptions& o, WordEvidence& ev) {
  bool prev_broken = false;  // the previous line ended with a hyphen
  std::string broken_left;   // its letters before the hyphen, when ASCII (lowered)
  std::string key;
  std::vector<std::pair<size_t, size_t>> parts;  // [begin, end) in the token's code points
  std::vector<std::string> owned;
  std::vector<std::string_view> toks;  // whitespace_tokens of the line
  std::u32string wide;                 // code points of a token beyond ASCII
  for (const auto& l : p.lines) {
    const std::string& text = pl.text(l);
    toks.clear();
    const bool ascii = is_ascii(text);
    if (ascii) {  // (ASCII needs no normalisation: split in place, as whitespace_tokens does)
      for (size_t i = 0; i < text.size();) {
        while (i < text.size() && ascii_space(text[i])) ++i;
        const size_t start = i;
        while (i < text.size() && !ascii_space(text[i])) ++i;
        if (i > start) toks.push_back(std::string_view(text).substr(start, i - start));
      }
    } else {
      owned = whitespace_tokens(text);
      toks.assign(owned.begin(), owned.end());
    }
    if (toks.empty()) continue;
    if (toks.size() >= o.hyphenation.prose_line_min_words) ++ev.prose_lines;
    auto count_token = [&](size_t t, const auto& cps) {
      if (t == 0 && prev_broken && !broken_left.empty()) {
        size_t e = 0;
        while (e < cps.size() && cps[e] >= U'a' && cps[e] <= U'z') ++e;
        if (e > 0 && (e == cps.size() || !is_word_cp(cps[e])))
          ev.line_breaks.emplace_back(broken_left, lowercase_run(cps, 0, e));
      }
      auto add = [&](WordCounts& m, size_t k) {
        key.clear();
        append_lower(key, cps, parts[k].first, parts[k].second);
        m.add(key);
      };
      // Runs of word characters joined by single hyphens.
      size_t cur = 0;  // start of the current run
      bool first_run = true;
      auto end_run = [&](size_t end, bool fragment_end) {
        if (end > cur) parts.push_back({cur, end});
        for (size_t k = 0; k + 1 < parts.size(); ++k) {
          key.clear();
          append_lower(key, cps, parts[k].first, parts[k].second);
          key += '-';
          append_lower(key, cps, parts[k + 1].first, parts[k + 1].second);
          ev.hyphenated.add(key);
          add(ev.compound_first, k);
          add(ev.compound_last, k + 1);
        }
        for (size_t k = 0; k < parts.size(); ++k) {
          // Halves of words broken at a line end are not words.
          if (k == 0 && first_run && t == 0 && prev_broken) continue;
          if (k + 1 == parts.size() && fragment_end) continue;
          add(ev.words, k);
        }
        if (!parts.empty()) first_run = false;
        parts.clear();
      };
      for (size_t i = 0; i < cps.size(); ++i) {
        char32_t c = cps[i];
        if (is_word_cp(c)) continue;
        if (is_hyphen_cp(c) && i > cur && i + 1 < cps.size() && is_word_cp(cps[i + 1])) {
          parts.push_back({cur, i});
        } else {
          bool line_end_hyphen = t + 1 == toks.size() && i + 1 == cps.size() && is_hyphen_cp(c);
          end_run(i, line_end_hyphen);
        }
        cur = i + 1;
      }
      end_run(cps.size(), false);
    };
    // Whether the line's last token ends in a word broken with a hyphen, and its letters.
    auto note_break = [&](const auto& last) {
      prev_broken = last.size() >= 2 && is_hyphen_cp(last.back()) && is_word_cp(last[last.size() - 2]);
      broken_left.clear();
      if (prev_broken) {
        size_t b = last.size() - 1;
        while (b > 0 && is_word_cp(last[b - 1])) --b;
        if (b == 0 || !is_hyphen_cp(last[b - 1])) broken_left = lowercase_run(last, b, last.size() - 1);
      }
    };
    for (size_t t = 0; t < toks.size(); ++t) {
      if (ascii) {
        count_token(t, AsciiCodePoints{toks[t]});
      } else {
        to_u32(toks[t], wide);
        count_token(t, wide);
      }
    }
    if (ascii) note_break(AsciiCodePoints{toks.back()});
    else note_break(wide);
  }
}

}  // namespace

WordCounts::Slot& WordCounts::slot_for(size_t h, const std::string& word) {
  if ((size_ + 1) * 4 > slots_.size() * 3) grow();
  const size_t mask = slots_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.count == 0 || (s.hash == h && s.word == word)) return s;
  }
}

void WordCounts::add(const std::string& word, int n) {
  if (n <= 0) return;
  const size_t h = std::hash<std::string>{}(word);
  Slot& s = slot_for(h, word);
  if (s.count == 0) {
    s.hash = h;
    s.word = word;
    ++size_;
  }
  s.count += n;
}

void WordCounts::insert(size_t h, std::string&& word, int n) {
  Slot& s = slot_for(h, word);
  if (s.count == 0) {
    s.hash = h;
    s.word = std::move(word);
    ++size_;
  }
  s.count += n;
}

void WordCounts::merge(WordCounts&& from) {
  for (auto& s : from.slots_)
    if (s.count > 0) insert(s.hash, std::move(s.word), s.count);
  from = WordCounts();
}

int WordCounts::count(const std::string& word) const {
  if (slots_.empty()) return 0;
  const size_t h = std::hash<std::string>{}(word);
  const size_t mask = slots_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.count == 0) return 0;
    if (s.hash == h && s.word == word) return s.count;
  }
}

void WordCounts::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_ = std::vector<Slot>(old.empty() ? 1024 : old.size() * 2);
  const size_t mask = slots_.size() - 1;
  for (auto& s : old)
    if (s.count > 0) {
      size_t i = s.hash & mask;
      while (slots_[i].count != 0) i = (i + 1) & mask;
      slots_[i] = std::move(s);
    }
}

namespace {

// Whether the book is in the spelling dictionary's language: the dictionary knows at least
// half of the book's most frequent words of four letters or more. Hyphenation patterns of
// another language would take most breaks of the book for hyphens of the words.
bool speaks_dictionary_language(const WordEvidence& ev, const LayoutOptions& o) {
  const Dictionary* dictionary = Dictionary::at(o.hyphenation.hyphen_dictionary);
  if (!dictionary) return false;
  std::vector<std::pair<int, std::string>> frequent;
  ev.words.for_each([&](const std::string& w, int n) {
    if (w.size() >= o.hyphenation.language_sample_min_letters &&
        std::all_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; }))
      frequent.emplace_back(-n, w);
  });
  const size_t n = std::min(o.hyphenation.language_sample_words, frequent.size());
  std::partial_sort(frequent.begin(), frequent.begin() + static_cast<std::ptrdiff_t>(n), frequent.end());
  std::vector<std::string> sample;
  for (size_t i = 0; i < n; ++i) sample.push_back(frequent[i].second);
  dictionary->prepare(sample);
  size_t known = 0;
  for (size_t i = 0; i < n; ++i) known += dictionary->knows(frequent[i].second) ? 1 : 0;
  return n > 0 && typography::at_least_half(known, n);
}

// Whether the book's typesetter hyphenates: it is TeX (which does unless told not to), one
// line-end break is a syllable break, or there is too little prose to tell. A syllable break
// leaves a fragment: the joined word is one of the book's, never written with the hyphen
// inside a line, and not both parts are words of the book ("exam-" "ple" beside "example");
// or the dictionary of the book's language knows the joined word and not both parts.
// "over-" "estimate" is neither.
bool hyphenates(const WordEvidence& ev, const LayoutOptions& o) {
  if (ev.tex || ev.prose_lines < o.hyphenation.unhyphenated_min_lines) return true;
  const Dictionary* dictionary = ev.dictionary_language ? Dictionary::at(o.hyphenation.hyphen_dictionary) : nullptr;
  if (dictionary) {
    std::vector<std::string> asked;
    for (const auto& [left, right] : ev.line_breaks) asked.insert(asked.end(), {left + right, left, right});
    dictionary->prepare(asked);
  }
  for (const auto& [left, right] : ev.line_breaks) {
    const std::string joined = left + right;
    const bool parts_are_words = ev.words.count(left) > 0 && ev.words.count(right) > 0;
    if (ev.words.count(joined) > 0 && ev.hyphenated.count(left + "-" + right) == 0 && !parts_are_words) return true;
    if (dictionary && dictionary->knows(joined) && !(dictionary->knows(left) && dictionary->knows(right))) return true;
  }
  return false;
}

}  // namespace

WordEvidence collect_words(const Document& doc, std::vector<PageLines>& lines, const LayoutOptions& o,
                           const std::function<void(size_t, const Page&)>& first) {
  WordEvidence ev;
  // pdfTeX, XeTeX, LuaTeX and dvipdfm(x) name themselves in the producer or creator.
  for (const std::string* f : {&doc.metadata.producer, &doc.metadata.creator}) {
    std::string l;
    for (char c : *f) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (l.find("tex") != std::string::npos || l.find("dvipdf") != std::string::npos) ev.tex = true;
  }
  // Pages are independent (a word broken at a page's end is not joined here) and the counts
  // are sums, the same in any order: runs of consecutive pages are counted apart, then added
  // up. A few runs per thread keep threads busy; one thread counts straight into `ev`.
  const size_t n = doc.pages.size();
  const size_t groups = o.jobs <= 1 ? 1 : std::min(n, static_cast<size_t>(o.jobs) * 4);
  std::vector<WordEvidence> parts(groups > 1 ? groups : 0);
  parallel_for(groups, o.jobs, [&](size_t g) {
    WordEvidence& into = groups > 1 ? parts[g] : ev;
    for (size_t i = n * g / groups; i < n * (g + 1) / groups; ++i)
      with_page(doc, i, [&](const Page& page) {
        if (first) first(i, page);
        lines[i].anchor(page);
        collect_page_words(page, lines[i], o, into);
        // A page out of memory does not keep its line facts in memory either: layout finds
        // them again when it brings the page back.
        if (doc.spill && doc.spill->spilled(i)) lines[i] = PageLines();
      });
  });
  // The four tables are added up apart, each from its runs in order; the words' table, the
  // largest, is then sorted on its thread while the others are still being added.
  auto table = [](WordEvidence& e, size_t t) -> WordCounts& {
    return t == 0 ? e.words : t == 1 ? e.hyphenated : t == 2 ? e.compound_first : e.compound_last;
  };
  parallel_for(4, o.jobs, [&](size_t t) {
    for (auto& p : parts) table(ev, t).merge(std::move(table(p, t)));
    if (t != 0) return;
    ev.sorted_words.reserve(ev.words.size());
    ev.words.for_each([&](const std::string& w, int) { ev.sorted_words.push_back(w); });
    std::sort(ev.sorted_words.begin(), ev.sorted_words.end());
  });
  for (auto& p : parts) {
    ev.prose_lines += p.prose_lines;
    ev.line_breaks.insert(ev.line_breaks.end(), std::make_move_iterator(p.line_breaks.begin()),
                          std::make_move_iterator(p.line_breaks.end()));
  }
  parts.clear();
  if (HyphenPatterns::present(o.hyphenation.hyphen_patterns))
    ev.dictionary_language = speaks_dictionary_language(ev, o);
  ev.unhyphenated = !hyphenates(ev, o);
  std::vector<std::pair<std::string, std::string>>().swap(ev.line_breaks);
  return ev;
}

}  // namespace quire::detail
