// Rows in reading order -> typed blocks: paragraphs joined across lines, columns and pages,
// hyphenation decided from the book's own words, code listings rebuilt from glyph positions.
#include <algorithm>
#include <cstring>
#include <cctype>
#include <climits>
#include <cmath>
#include <optional>
#include <regex>

#include "dictionary.h"
#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"

namespace quire::detail {

namespace {

bool is_word_cp(char32_t c) {
  return (c >= U'0' && c <= U'9') || (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') || (c > 0x7F && c != 0x2010 && c != 0x2011 && !is_space_cp(c) && !(c >= 0x2000 && c <= 0x206F));
}

bool is_hyphen_cp(char32_t c) { return c == U'-' || c == 0x2010; }

// White space as is_space_cp has it, for ASCII.
bool ascii_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

bool is_ascii(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

std::string lower(const std::u32string& s) {
  std::u32string t = s;
  for (auto& c : t)
    if (c >= U'A' && c <= U'Z') c = c - U'A' + U'a';
  return from_u32(t);
}

}  // namespace

namespace {

// Appends the code points [from, to) of `cps`, ASCII letters lowercased, as UTF-8.
void append_lower(std::string& out, const std::u32string& cps, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i) {
    char32_t c = cps[i];
    if (c >= U'A' && c <= U'Z') c = c - U'A' + U'a';
    append_utf8(out, c);
  }
}

// One page's words: the runs of word characters of its tokens, and the compounds they form.
void collect_page_words(const Page& p, const PageLines& pl, WordEvidence& ev) {
  bool prev_broken = false;  // the previous line ended with a hyphen
  std::string broken_left;   // its letters before the hyphen, when ASCII (lowered)
  // ASCII letters, lowercase but for the first (lowered): "Sec" of "Sec-" "tion".
  auto lowercase_run = [](const std::u32string& w, size_t from, size_t to) {
    std::string out;
    for (size_t i = from; i < to; ++i) {
      char32_t c = w[i];
      if (i == from && c >= U'A' && c <= U'Z') c = c - U'A' + U'a';
      if (c < U'a' || c > U'z') return std::string();
      out += static_cast<char>(c);
    }
    return out;
  };
  std::string key;
  std::vector<std::pair<size_t, size_t>> parts;  // [begin, end) in the token's code points
  std::vector<std::string> owned;
  std::vector<std::string_view> toks;  // whitespace_tokens of the line
  std::u32string cps;                  // code points of the token at hand
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
    if (toks.size() >= 6) ++ev.prose_lines;
    for (size_t t = 0; t < toks.size(); ++t) {
      if (ascii) cps.assign(toks[t].begin(), toks[t].end());
      else cps = to_u32(toks[t]);
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
    }
    const std::u32string& last = cps;  // the last token's
    prev_broken = last.size() >= 2 && is_hyphen_cp(last.back()) && is_word_cp(last[last.size() - 2]);
    broken_left.clear();
    if (prev_broken) {
      size_t b = last.size() - 1;
      while (b > 0 && is_word_cp(last[b - 1])) --b;
      if (b == 0 || !is_hyphen_cp(last[b - 1])) broken_left = lowercase_run(last, b, last.size() - 1);
    }
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

// A note mark: a span of one to three digits, or one note symbol, set smaller than its row
// and raised over its baseline, or in superscript digits.
bool is_note_mark(const Span& s, const Row& r) {
  // Most spans are words of the text: only a short one, raised or with a byte that may
  // start a superscript digit, is looked at further.
  if (s.text.empty() || s.text.size() > 12) return false;
  const bool raised = s.size <= 0.85 * r.size && s.baseline <= r.baseline - 0.15 * r.size;
  if (!raised && s.text.find_first_of("\xc2\xe2") == std::string::npos) return false;
  const auto toks = whitespace_tokens(s.text);
  if (toks.size() != 1) return false;
  const std::u32string t = to_u32(toks[0]);
  bool superscript = true, digits = true;
  for (char32_t c : t) {
    superscript = superscript && (c == 0xb9 || c == 0xb2 || c == 0xb3 || (c >= 0x2070 && c <= 0x2079));
    digits = digits && c >= U'0' && c <= U'9';
  }
  const bool symbol = t.size() == 1 && (t[0] == U'*' || t[0] == 0x2020 || t[0] == 0x2021 || t[0] == 0xa7);
  return !t.empty() && t.size() <= 3 && (superscript || ((digits || symbol) && raised));
}

// The rows' texts with each note mark span between kMarkOpen and kMarkClose, made as
// make_row makes a row's text; empty when no row has a mark (or a text is not the row's).
constexpr char kMarkOpen = '\x01', kMarkClose = '\x02';

std::vector<std::string> texts_with_marks(const std::vector<const Row*>& rows) {
  bool any = false;  // (most blocks cite no note: they are looked at once, and left)
  for (const Row* r : rows)
    for (const Line* l : r->lines)
      for (const Span& s : l->spans) any = any || is_note_mark(s, *r);
  if (!any) return {};
  std::vector<std::string> texts;
  for (const Row* r : rows) {
    std::string t;
    for (const Line* l : r->lines) {
      if (!t.empty()) t += ' ';
      for (size_t i = 0; i < l->spans.size(); ++i) {
        const Span& s = l->spans[i];
        if (l->space_before(i)) t += ' ';
        if (!is_note_mark(s, *r)) {
          t += s.text;
          continue;
        }
        const size_t from = s.text.find_first_not_of(" \t\n"), to = s.text.find_last_not_of(" \t\n") + 1;
        t.append(s.text, 0, from);
        t += kMarkOpen;
        t.append(s.text, from, to - from);
        t += kMarkClose;
        t.append(s.text, to);
      }
    }
    texts.push_back(std::move(t));
  }
  for (size_t k = 0; k < rows.size(); ++k) {
    std::string plain;
    for (char c : texts[k])
      if (c != kMarkOpen && c != kMarkClose) plain += c;
    if (plain != rows[k]->text || rows[k]->text.find_first_of("\x01\x02") != std::string::npos) return {};
  }
  return texts;
}

// A text made from texts_with_marks less the brackets; each mark found is a RaisedMark at
// the code point where it starts.
std::string find_raised(const std::string& marked, std::vector<RaisedMark>& raised) {
  std::string text;
  text.reserve(marked.size());
  size_t cp = 0;
  for (size_t i = 0; i < marked.size(); ++i) {
    if (marked[i] == kMarkOpen) {
      const size_t close = marked.find(kMarkClose, i);
      if (close != std::string::npos) raised.push_back({cp, marked.substr(i + 1, close - i - 1)});
      continue;
    }
    if (marked[i] == kMarkClose) continue;
    if ((static_cast<unsigned char>(marked[i]) & 0xC0) != 0x80) ++cp;
    text += marked[i];
  }
  return text;
}

void strip_mark_bytes(std::string& s) { std::erase_if(s, [](char c) { return c == kMarkOpen || c == kMarkClose; }); }

// Whether the book is in the spelling dictionary's language: the dictionary knows at least
// half of the book's most frequent words of four letters or more. Hyphenation patterns of
// another language would take most breaks of the book for hyphens of the words.
bool speaks_dictionary_language(const WordEvidence& ev, const LayoutOptions& o) {
  constexpr size_t kSample = 200;
  const Dictionary* dictionary = Dictionary::at(o.hyphen_dictionary);
  if (!dictionary) return false;
  std::vector<std::pair<int, std::string>> frequent;
  ev.words.for_each([&](const std::string& w, int n) {
    if (w.size() >= 4 && std::all_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; }))
      frequent.emplace_back(-n, w);
  });
  const size_t n = std::min(kSample, frequent.size());
  std::partial_sort(frequent.begin(), frequent.begin() + static_cast<std::ptrdiff_t>(n), frequent.end());
  std::vector<std::string> sample;
  for (size_t i = 0; i < n; ++i) sample.push_back(frequent[i].second);
  dictionary->prepare(sample);
  size_t known = 0;
  for (size_t i = 0; i < n; ++i) known += dictionary->knows(frequent[i].second) ? 1 : 0;
  return n > 0 && 2 * known >= n;
}

// Whether the book's typesetter hyphenates: it is TeX (which does unless told not to), one
// line-end break is a syllable break, or there is too little prose to tell. A syllable break
// leaves a fragment: the joined word is one of the book's, never written with the hyphen
// inside a line, and not both parts are words of the book ("exam-" "ple" beside "example");
// or the dictionary of the book's language knows the joined word and not both parts.
// "over-" "estimate" is neither.
bool hyphenates(const WordEvidence& ev, const LayoutOptions& o) {
  if (ev.tex || ev.prose_lines < o.unhyphenated_min_lines) return true;
  const Dictionary* dictionary = ev.dictionary_language ? Dictionary::at(o.hyphen_dictionary) : nullptr;
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
        collect_page_words(page, lines[i], into);
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
  if (HyphenPatterns::present(o.hyphen_patterns)) ev.dictionary_language = speaks_dictionary_language(ev, o);
  ev.unhyphenated = !hyphenates(ev, o);
  std::vector<std::pair<std::string, std::string>>().swap(ev.line_breaks);
  return ev;
}

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
//     a. the next line goes on with another hyphen ("next-" "to-last") -> keep: a
//        compound of several parts;
//     b. a part in camel case ("LbxChange-" "Property") -> remove: identifiers are
//        hyphenated by the typesetter, never written with a hyphen inside;
//     c. a part with a digit ("x86-" "64") or a second part starting with a capital
//        ("Linux-" "PAM") -> keep: hyphenation patterns do not break there;
//     d. another word of the book starts with the joined stem ("as-" "signed" beside
//        "assignment", "out-" "puts" beside "output") -> remove: the same word, inflected
//        differently, so the two halves are syllables of one word even if each is a word;
//     e. the spelling dictionary (LayoutOptions::hyphen_dictionary) knows the joined word
//        and not the second part ("trigger-" "ing", "in-" "cludes") -> remove: the second
//        part is a syllable, not a word;
//     f. the dictionary does not know the joined word, which starts in lower case, and the
//        hyphenation patterns (LayoutOptions::hyphen_patterns) allow no break between the
//        parts ("avahi-" "core", "libgpg-" "error") -> keep: the name of a thing with a
//        hyphen in it. Only there: the patterns are not the ones every book was set with
//        (British and American TeX patterns break "temporary" apart differently, and a
//        name or a foreign word is broken by its own language's), so for a word the
//        dictionary knows, or a name, they are no evidence; and only in a book whose
//        frequent words the dictionary mostly knows;
//     g. the first part begins, or the second ends, other compounds of the book ("dpkg-"
//        "buildpackage" beside "dpkg-source") -> keep: a word that forms compounds (not
//        a frequent word found in a compound or two, like "to" in "up-to-date");
//     h. the dictionary knows the joined word but not the first part ("pre-" "cludes")
//        -> remove; it knows both parts but not the joined word ("thread-" "safe") ->
//        keep: a compound of two words; it knows all three ("re-" "running" beside
//        "rerunning") or none: no answer, as authors differ (a first part that is not a
//        word may be a prefix the book hyphenates: "mis-" "alignment", hence g before h);
//     i. both parts are words of the book on their own ("upward-" "compatible") -> keep:
//        a compound of two words; a typesetting break leaves fragments ("exam-" "ple");
//     j. otherwise remove.
std::string join_hyphenated(const std::string& before, const std::string& after, bool before_mono,
                            const WordEvidence& ev, const LayoutOptions& o) {
  auto b = to_u32(before), a = to_u32(after);
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
  auto count = [](const WordCounts& m, const std::string& k) { return m.count(k); };
  auto ascii_letters = [](const std::u32string& w) {
    return std::all_of(w.begin(), w.end(), [](char32_t c) { return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z'); });
  };
  auto has_vowel = [](const std::u32string& w) {
    return std::any_of(w.begin(), w.end(), [](char32_t c) {
      char32_t l = (c >= U'A' && c <= U'Z') ? c - U'A' + U'a' : c;
      return l == U'a' || l == U'e' || l == U'i' || l == U'o' || l == U'u' || l == U'y';
    });
  };
  size_t right_min = ev.tex ? o.tex_min_hyphen_right : o.min_hyphen_right;
  bool keep;
  if (before_mono || ev.unhyphenated) {
    keep = true;
  } else if (ascii_letters(left) && ascii_letters(right) &&
             (left.size() < o.min_hyphen_left || right.size() < right_min || !has_vowel(left) || !has_vowel(right))) {
    keep = true;
  } else {
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
      size_t keep_right = std::max(std::min(o.hyphen_stem_letters, right.size()), right.size() > o.hyphen_stem_letters ? right.size() - o.hyphen_stem_letters : 0);
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
      return in > 0 && in >= o.compound_part_share * (in + count(ev.words, lower(part)));
    };
    const Dictionary* dictionary = nullptr;
    bool dictionary_asked = false;
    auto dictionary_knows = [&](const std::u32string& w) {
      if (!dictionary_asked) {  // loaded only for a break the book leaves undecided
        dictionary = Dictionary::at(o.hyphen_dictionary);
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
    auto no_pattern_break = [&]() {
      if (!ev.dictionary_language || !ascii_letters(left) || !ascii_letters(right) || upper(left.front()) ||
          dictionary_knows(left + right))
        return false;
      const HyphenPatterns* patterns = HyphenPatterns::at(o.hyphen_patterns);
      return patterns && !patterns->allow_break(lower(left), lower(right));
    };
    bool compound_goes_on = e + 1 < a.size() && is_hyphen_cp(a[e]) && is_word_cp(a[e + 1]);
    if (hyph > 0 || joined > 0) keep = hyph > joined;
    // A compound goes on after the break ("state-of-" "the-art"), unless the book has the
    // joined piece as a word ("spread-" "sheet-like", with "spreadsheets" elsewhere) or the
    // dictionary knows it and not the piece after the break ("lit-" "tle-endian").
    else if (compound_goes_on) keep = !(stem_seen() || (dictionary_knows(left + right) && !dictionary_knows(right)));
    else if (camel(left) || camel(right)) keep = false;
    else if (digit(left) || digit(right) || upper(right.front())) keep = true;
    else if (stem_seen()) keep = false;
    else if (dictionary_knows(left + right) && !dictionary_knows(right)) keep = false;
    else if (no_pattern_break()) keep = true;
    else if (compound_part(ev.compound_first, left) || compound_part(ev.compound_last, right)) keep = true;
    else if (auto answer = dictionary_answer()) keep = *answer;
    else keep = left.size() >= 2 && right.size() >= 2 && count(ev.words, lower(left)) > 0 && count(ev.words, lower(right)) > 0;
  }
  if (keep) return before + after;
  return from_u32(b.substr(0, b.size() - 1)) + after;
}

std::string code_text(const std::vector<const Row*>& rows, const BookStats& st, const LayoutOptions& o) {
  if (rows.empty()) return {};
  auto advance_of = [&](const Span& s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "@%.1f", s.size);
    auto it = st.mono_advance.find(s.font + buf);
    if (it != st.mono_advance.end() && it->second > 0) return it->second;
    if (s.last_advance > 0) return static_cast<double>(s.last_advance);
    return 0.6 * s.size;  // the advance of the common typewriter faces is 0.5-0.6 em
  };
  // One advance for the whole listing: that of the font most of its glyphs are set in
  // (margin line numbers and bold keywords may use other faces of other sizes).
  std::map<std::string, std::pair<long, const Span*>> fonts;
  std::vector<const std::string*> span_font;  // each span's key in `fonts`, spans in order
  {
    const Span* prev = nullptr;
    decltype(fonts)::value_type* entry = nullptr;
    for (const Row* r : rows)
      for (const auto* l : r->lines)
        for (const auto& s : l->spans) {
          // (Consecutive spans of a listing mostly share one font: its key is made once.)
          if (!prev || prev->font != s.font || std::lround(prev->size * 10) != std::lround(s.size * 10))
            entry = &*fonts.try_emplace(s.font + "@" + std::to_string(std::lround(s.size * 10))).first;
          prev = &s;
          entry->second.first += static_cast<long>(utf8_length(s.text));
          entry->second.second = &s;
          span_font.push_back(&entry->first);
        }
  }
  double adv = 0;
  long most = -1;
  const std::string* main_font = nullptr;  // (keys are unique: the same key, the same string)
  for (const auto& [k, f] : fonts)
    if (f.first > most) {
      most = f.first;
      adv = advance_of(*f.second);
      main_font = &k;
    }
  // The listing's own advance where it has enough glyphs: a listing package may set every
  // character in a fixed box wider than the font's natural advance, so the same font has
  // different pitches in different listings.
  // Measured from token start to token start across one space (a glyph may sit off
  // centre in its cell, and the space cell is where the difference shows).
  std::vector<double> own;
  size_t span_index = 0;
  for (const Row* r : rows)
    for (const auto* l : r->lines)
      for (const auto& s : l->spans) {
        if (span_font[span_index++] != main_font) continue;
        auto cps = to_u32(s.text);
        if (s.xs.size() != cps.size()) continue;
        long prev_start = -1;
        for (size_t i = 0; i < cps.size(); ++i) {
          if (is_space_cp(cps[i]) || (i > 0 && !is_space_cp(cps[i - 1]))) continue;
          bool one_space = i >= 2 && !is_space_cp(cps[i - 2]);
          if (prev_start >= 0 && one_space)
            own.push_back((s.xs[i] - s.xs[prev_start]) / static_cast<double>(i - static_cast<size_t>(prev_start)));
          prev_start = static_cast<long>(i);
        }
      }
  if (own.size() >= o.min_advance_samples) {
    auto mid = own.begin() + static_cast<std::ptrdiff_t>(own.size() / 2);
    std::nth_element(own.begin(), mid, own.end());
    adv = *mid;
  } else if (own.size() >= o.min_own_advance_samples) {
    // A short listing measures its own advance where that puts its glyphs on whole character
    // cells, and the font's advance over the book does not: a listing package may set each
    // character in a cell wider than the glyph, so that the glyphs of a word stand closer
    // together than the cells. Of the listing's measures, the one that fits best.
    //
    // Glyph positions are taken from the column's edge, as the columns are counted below (a
    // listing that goes on over a page break may stand at another margin there).
    std::vector<double> xs;
    for (const Row* r : rows)
      for (const auto* l : r->lines)
        for (const auto& s : l->spans)
          for (float x : s.xs) xs.push_back(x - r->col_left);
    const double base = xs.empty() ? 0 : *std::min_element(xs.begin(), xs.end());
    // Mean distance of the glyphs from the nearest cell start, in cells.
    auto misfit = [&](double cell) {
      if (xs.empty() || cell <= 0) return 1.0;
      double off = 0;
      for (double x : xs) {
        const double t = (x - base) / cell;
        off += std::fabs(t - std::round(t));
      }
      return off / static_cast<double>(xs.size());
    };
    // (Searched from the least to the greatest measure, the font's advance included, in
    // steps of a thousandth, or in 200 steps where the measures disagree more.)
    double lo = *std::min_element(own.begin(), own.end()), hi = *std::max_element(own.begin(), own.end());
    if (adv > 0) {
      lo = std::min(lo, adv);
      hi = std::max(hi, adv);
    }
    double best = 0, best_misfit = 1;
    const double step = std::max(lo / 1000, (hi - lo) / 200);
    for (double cell = lo; cell <= hi + 1e-9; cell += step)
      if (double m = misfit(cell); m < best_misfit) {
        best = cell;
        best_misfit = m;
      }
    if (best_misfit <= o.cell_misfit && (adv <= 0 || 2 * best_misfit < misfit(adv))) adv = best;
  }
  if (adv <= 0) adv = 0.6 * st.body_size;

  struct Glyph {
    long col;
    char32_t c;
    bool gap_before;  // white space before it in the source (a token boundary)
  };
  std::vector<std::vector<Glyph>> glyphs(rows.size());
  long base = LONG_MAX;
  for (size_t r = 0; r < rows.size(); ++r) {
    const Row& row = *rows[r];
    bool gap = true;
    for (const Line* l : row.lines) {
      gap = true;  // each line is its own run of tokens
      const Span* prev = nullptr;
      for (const auto& s : l->spans) {
        if (prev && spans_apart(*prev, s)) gap = true;  // as Line::text() sets them apart
        prev = &s;
        auto cps = to_u32(s.text);
        double x = s.bbox.x0;
        for (size_t i = 0; i < cps.size(); ++i) {
          if (s.xs.size() == cps.size()) x = s.xs[i];
          else if (i > 0) x += adv;
          if (is_space_cp(cps[i])) {
            gap = true;
            continue;
          }
          long col = std::lround((x - row.col_left) / adv);
          glyphs[r].push_back({col, cps[i], gap});
          gap = false;
        }
      }
    }
    if (!glyphs[r].empty()) base = std::min(base, glyphs[r].front().col);
  }
  if (base == LONG_MAX) base = 0;
  // Line pitch of the listing: the usual baseline distance between consecutive rows (going
  // down the page: a listing continued in the next column starts higher up).
  std::vector<double> pitches;
  for (size_t r = 1; r < rows.size(); ++r)
    if (rows[r]->page == rows[r - 1]->page && rows[r]->baseline > rows[r - 1]->baseline)
      pitches.push_back(rows[r]->baseline - rows[r - 1]->baseline);
  double pitch = 0;
  if (!pitches.empty()) {
    double mn = *std::min_element(pitches.begin(), pitches.end());
    std::vector<double> near;
    for (double p : pitches)
      if (p <= mn * 1.3) near.push_back(p);
    auto mid = near.begin() + static_cast<std::ptrdiff_t>(near.size() / 2);
    std::nth_element(near.begin(), mid, near.end());
    pitch = *mid;
  }
  std::string out;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (r > 0) {
      out += '\n';
      // Blank lines inside the listing: each is one more line pitch of vertical space.
      long extra = 0;
      if (pitch > 0 && rows[r]->page == rows[r - 1]->page) {
        extra = std::lround((rows[r]->baseline - rows[r - 1]->baseline) / pitch) - 1;
      } else if (pitch > 0) {
        // At a page break, blank lines show as room left at the foot of the text block
        // and room above the first line of the next page.
        auto bottom = st.text_bottom.find(rows[r - 1]->page % 2);
        auto top = st.text_top.find(rows[r]->page % 2);
        if (bottom != st.text_bottom.end() && rows[r - 1]->nothing_below)
          extra += std::max(0L, static_cast<long>(std::floor((bottom->second - rows[r - 1]->baseline) / pitch + 0.25)));
        if (top != st.text_top.end() && rows[r]->nothing_above)
          extra += std::max(0L, static_cast<long>(std::floor((rows[r]->baseline - top->second) / pitch + 0.25)));
      }
      for (long k = 0; k < extra; ++k) out += '\n';
    }
    long cur = 0;
    for (size_t i = 0; i < glyphs[r].size(); ++i) {
      const Glyph& g = glyphs[r][i];
      long target = g.col - base;
      long pad = 0;
      if (i == 0) pad = std::max(0L, target);
      // Spaces only where the source has a token boundary, so tokens never split or merge.
      else if (g.gap_before) pad = std::max(1L, target - cur);
      out.append(static_cast<size_t>(pad), ' ');
      append_utf8(out, g.c);
      cur += pad + 1;
    }
  }
  return out;
}

bool ends_sentence(const std::string& t) {
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
// with its alternatives tried in this order, written out (it runs for every row).
size_t enumerator_length(std::string_view t) {
  auto spaced = [&](size_t end) { return end < t.size() && ascii_space(t[end]); };
  auto closes = [&](size_t i) { return i < t.size() && (t[i] == '.' || t[i] == ')'); };
  const size_t paren = !t.empty() && t[0] == '(' ? 1 : 0;
  size_t i = paren;
  while (i < t.size() && i - paren < 3 && ascii_digit(t[i])) ++i;
  if (i > paren && closes(i) && spaced(i + 1)) return i + 1;
  if (paren < t.size() && t[paren] >= 'a' && t[paren] <= 'z' && closes(paren + 1) && spaced(paren + 2)) return paren + 2;
  i = paren;
  while (i < t.size() && i - paren < 4 && roman_digit(t[i])) ++i;
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

namespace {

// A token whose last code point is a hyphen (is_hyphen_cp: '-' or U+2010).
bool ends_with_hyphen(std::string_view t) {
  return (!t.empty() && t.back() == '-') || (t.size() >= 3 && t.substr(t.size() - 3) == "\xE2\x80\x90");
}

// !whitespace_tokens(s).empty(), without making the tokens of ASCII text.
bool has_token(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return !whitespace_tokens(s).empty();
    if (!ascii_space(c)) return true;
  }
  return false;
}

}  // namespace

bool last_token_mono(const Row& r, const PageLines& pl) {
  for (auto l = r.lines.rbegin(); l != r.lines.rend(); ++l)
    for (size_t s = (*l)->spans.size(); s-- > 0;)
      if (has_token((*l)->spans[s].text)) return pl.mono(**l, s);
  return false;
}

namespace {

// Cells of a row that may be a table row: its lines, when there are enough of them, each
// short but one (a description, wrapped in its column) and set apart from the one before by
// a column gap. Empty otherwise.
std::vector<const Line*> table_cells(const Row& r, const LayoutOptions& o, size_t min_cells) {
  if (r.mono || r.footnote || r.lines.size() < min_cells) return {};
  bool one_word_each = true, long_cell = false;
  for (size_t i = 0; i < r.lines.size(); ++i) {
    const Line* l = r.lines[i];
    size_t words = whitespace_tokens(l->text()).size();
    if (words == 0) return {};
    if (words > o.max_table_cell_words) {
      if (long_cell) return {};
      long_cell = true;
    }
    if (words > 1) one_word_each = false;
    if (i > 0 && l->bbox.x0 - r.lines[i - 1]->bbox.x1 < o.min_cell_gap_ratio * r.size) return {};
  }
  // A loosely justified prose line (a narrow measure, long words) is stretched so far that
  // every word stands apart: one word per piece, filling the measure to the right edge, the
  // space shared out evenly between them (a table's header of one-word cells is not).
  bool full_measure = r.bbox.x0 <= r.col_left + o.indent_ratio * r.size + o.edge_tolerance &&
                      r.bbox.x1 >= r.col_right - o.edge_tolerance;
  double least_gap = r.bbox.x1 - r.bbox.x0, most_gap = 0;
  for (size_t i = 1; i < r.lines.size(); ++i) {
    const double gap = r.lines[i]->bbox.x0 - r.lines[i - 1]->bbox.x1;
    least_gap = std::min(least_gap, gap);
    most_gap = std::max(most_gap, gap);
  }
  if (one_word_each && full_measure && most_gap - least_gap <= 2 * o.edge_tolerance) return {};
  return r.lines;
}

// Column edges the two rows share: cells flush left or flush right at the same x. The left
// edge of the first cell does not count, nor the right edge of the last where it reaches
// the measure's right edge `right`: every line of a justified paragraph shares those (and a
// loosely set line breaks into one line per word). A table set narrower than the measure
// (centred, or with its last column flush right inside it) shares its last right edge.
size_t shared_edges(const std::vector<const Line*>& a, const std::vector<const Line*>& b, double right,
                    const LayoutOptions& o) {
  size_t n = 0;
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t k = 0; k < b.size(); ++k) {
      bool left = i > 0 && k > 0 && std::fabs(a[i]->bbox.x0 - b[k]->bbox.x0) <= o.edge_tolerance;
      bool inside = (i + 1 < a.size() && k + 1 < b.size()) || a[i]->bbox.x1 < right - o.edge_tolerance;
      bool flush_right = inside && std::fabs(a[i]->bbox.x1 - b[k]->bbox.x1) <= o.edge_tolerance;
      if (left || flush_right) {
        ++n;
        break;
      }
    }
  return n;
}

// Whether the cells `head` stand over the cells `row` one to one, each overlapping its own
// and no other: a table's header, whose labels are often centred over columns whose cells
// are flush left or flush right, so that they share no edge with the first row.
bool heads_columns(const std::vector<const Line*>& head, const std::vector<const Line*>& row) {
  if (head.size() != row.size()) return false;
  auto overlap = [](const Line* a, const Line* b) { return a->bbox.x0 < b->bbox.x1 && b->bbox.x0 < a->bbox.x1; };
  for (size_t i = 0; i < head.size(); ++i) {
    if (!overlap(head[i], row[i])) return false;
    if (i > 0 && overlap(head[i], row[i - 1])) return false;
    if (i + 1 < row.size() && overlap(head[i], row[i + 1])) return false;
  }
  return true;
}

// Whether `r` holds only wrapped lines of a table's cells: each of its pieces starts where
// a column of the table starts (`lefts`, sorted: the left edges of its rows' cells) and ends
// before the next column's start. `from` is the first column a piece may start at.
bool wrapped_cells(const Row& r, const std::vector<double>& lefts, size_t max_pieces, const LayoutOptions& o,
                   size_t from = 0) {
  if (r.mono || r.footnote || r.lines.empty() || r.lines.size() >= max_pieces) return false;
  for (const Line* piece : r.lines) {
    size_t k = from;
    while (k < lefts.size() && std::fabs(piece->bbox.x0 - lefts[k]) > o.edge_tolerance) ++k;
    if (k == lefts.size()) return false;
    const double end = k + 1 < lefts.size() ? lefts[k + 1] - o.min_cell_gap_ratio * r.size : r.col_right;
    if (piece->bbox.x1 > end + o.edge_tolerance) return false;
  }
  return true;
}

// Adds the left edges of `cells` to the sorted `lefts`, once each (within edge_tolerance).
void add_lefts(std::vector<double>& lefts, const std::vector<const Line*>& cells, const LayoutOptions& o) {
  for (const Line* c : cells) {
    bool known = false;
    for (double x : lefts) known = known || std::fabs(x - c->bbox.x0) <= o.edge_tolerance;
    if (!known) lefts.insert(std::upper_bound(lefts.begin(), lefts.end(), c->bbox.x0), c->bbox.x0);
  }
}

// Whether `b` follows `a` as the next row of one table: same page and column, at most
// max_table_row_pitch ems below.
bool next_table_row(const Row& a, const Row& b, const LayoutOptions& o) {
  const double pitch = b.baseline - a.baseline;
  return a.page == b.page && a.column == b.column && pitch > 0 && pitch <= o.max_table_row_pitch * a.size;
}

// Tables: runs of consecutive rows of one page and column whose cells line up in columns,
// with the lines of cells wrapped under (or, where the other cells of a row are set
// middle-aligned beside a wrapped one, above) their rows. Gives each table row of the
// page's items its run number, counting on from `run` (a run never spans pages: its rows
// share a page).
void find_tables(const std::vector<Item>& items, const LayoutOptions& o, long& run, std::map<const Row*, long>& out,
                 const std::vector<const Line*>& open_cells = {}) {
  std::vector<const Row*> cur;
  // The page's first run goes on with a table open at the page break when its first row
  // stands in that table's columns: then one row is enough.
  bool goes_on = false;
  size_t full_rows = 0;  // rows of `cur` with all their cells (not wrapped lines)
  std::vector<const Line*> prev_cells;
  std::vector<double> lefts;  // the run's column edges
  size_t most_cells = 0;
  // The run opens with a header row set in bold: then rows of two cells are a table's
  // (without one, two cells a row are more often a term and its description).
  bool bold_head = false;
  auto flush = [&]() {
    if (full_rows >= (goes_on ? 1 : o.min_table_rows)) {
      for (const Row* r : cur) out[r] = run;
      ++run;
    }
    cur.clear();
    full_rows = 0;
    prev_cells.clear();
    lefts.clear();
    most_cells = 0;
    bold_head = false;
    goes_on = false;
  };
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    if (it.kind != Item::Text) {
      flush();
      continue;
    }
    const Row& r = it.row;
    const bool next_row = !cur.empty() && next_table_row(*cur.back(), r, o);
    auto cells = table_cells(r, o, o.min_table_cells);
    if (cells.empty() && (bold_head ? next_row : r.bold)) {
      cells = table_cells(r, o, o.min_header_table_cells);
      // Under its bold header, a row of the same size whose cells stand in its columns.
      if (bold_head && (std::fabs(r.size - cur.front()->size) > 0.1 * cur.front()->size ||
                        (full_rows == 1 && !heads_columns(prev_cells, cells) && shared_edges(prev_cells, cells, r.col_right, o) == 0)))
        cells.clear();
      if (!cells.empty() && !bold_head) {
        flush();
        bold_head = true;
      }
    }
    if (cells.empty()) {
      // A cell's text that wraps goes on in its column on the lines below the row.
      if (next_row && wrapped_cells(r, lefts, most_cells, o)) cur.push_back(&r);
      else flush();
      continue;
    }
    if (!cur.empty()) {
      const bool header = full_rows == 1 && cur.size() == 1 && heads_columns(prev_cells, cells);
      const size_t need = std::min(o.min_shared_edges, cells.size() - 1);
      if (!next_row || (shared_edges(prev_cells, cells, r.col_right, o) < need && !header)) flush();
    }
    if (cur.empty() && i > 0 && items[i - 1].kind == Item::Text) {
      // The first line of a cell wrapped in the table's first row, set above the row's
      // other cells where they stand middle-aligned beside it (not in the first column,
      // where a line of the text before the table would start).
      const Row& before = items[i - 1].row;
      std::vector<double> own;
      add_lefts(own, cells, o);
      if (out.count(&before) == 0 && next_table_row(before, r, o) && wrapped_cells(before, own, cells.size(), o, 1))
        cur.push_back(&before);
    }
    if (cur.empty() && i == 0 && !open_cells.empty())
      goes_on = shared_edges(open_cells, cells, r.col_right, o) >= std::min(o.min_shared_edges, cells.size() - 1);
    cur.push_back(&r);
    ++full_rows;
    prev_cells = cells;
    add_lefts(lefts, cells, o);
    most_cells = std::max(most_cells, cells.size());
  }
  flush();
}

struct Builder {
  Builder(const BookStats& stats, const WordEvidence& words, const LayoutOptions& options, std::vector<HyphenJoin>& log)
      : st(stats), ev(words), o(options), joins(log) {}
  const BookStats& st;
  const WordEvidence& ev;
  const LayoutOptions& o;
  std::vector<HyphenJoin>& joins;
  std::vector<Block> out;
  std::vector<double> sizes;  // largest font size of each block in `out`
  std::vector<size_t> join_ends;  // joins logged up to and with each block in `out`
  // Rows each block in `out` takes its text from (none for figures), until make_texts()
  // has made its text.
  std::vector<std::vector<const Row*>> text_rows;
  size_t texts_made = 0;  // blocks of `out` whose text is made
  std::vector<uint8_t> captioned;  // a figure block followed by its caption block
  std::vector<std::vector<const Row*>> notes;  // footnotes waiting for the open block to end

  // Rows of tables on the page being fed -> their table (find_tables). A table ends with
  // its page, so the rows of earlier pages are no longer asked about.
  std::map<const Row*, long> table_run;
  long tables = 0;
  // Horizontal rules of the pages whose blocks are not made yet: (page, rule).
  std::vector<std::pair<int, Box>> rules;
  // Rows of notes on the page being fed (find_notes): their box, and for the row that
  // leads a note, its title.
  struct NoteSpot {
    long box = 0;
    std::string kind;
    std::string title;  // as printed, on the row that holds it
    bool whole = false; // the title is the whole row
  };
  std::map<const Row*, NoteSpot> note_rows;
  long note_boxes = 0;
  // The open note's: its box, kind and title; how its title stands (0 none, 1 its first
  // row, 2 the first words of its text).
  long open_box = -1;
  std::string open_kind, open_title;
  uint8_t open_titled = 0;
  std::vector<uint8_t> titled;  // the same, per block of `out`
  // The right edge that most prose lines of each column of the page being fed end at (the
  // measure of its justified lines), by Row::column; a column without one is not here.
  std::map<int, double> justified_right;

  BlockType type = BlockType::Paragraph;
  std::vector<const Row*> rows;  // the open block's rows
  std::vector<const FigureItem*> pending;
  // The open list's item edges (first line's left, from the column's edge), outermost
  // first: an item set further in than the one before is nested in it.
  std::vector<double> list_edges;

  bool open() const { return !rows.empty(); }

  double heading_threshold() const { return o.heading_size_ratio * st.body_size; }

  // A row wholly in bold monospace, larger than the book's code: a heading set in a
  // typewriter face.
  bool mono_heading(const Row& r) const {
    return r.mono && r.bold && !r.footnote && st.code_size > 0 && r.size >= o.mono_heading_ratio * st.code_size;
  }

  bool is_heading(const Row& r) const {
    if (r.mono) return mono_heading(r);
    if (r.footnote) return false;
    if (r.size >= heading_threshold()) return true;
    // A bold line at (about) body size standing alone: a run-in heading is only partly bold.
    if (!r.bold || r.full_stop) return false;
    if (r.size >= st.body_size * 1.04) return true;
    // The word of a chapter opener's label on a row of its own ("CHAPTER" over "ONE").
    if (opener_word(r.text)) return true;
    // In the body size itself only a numbered one ("2.", "2.1", "2.1.3."), short of the
    // column's width: troff's -ms and many word processors set section headings so, while
    // a bold line of body text is a term or a lead-in.
    return r.size >= st.body_size * 0.96 && section_number_depth(r.text) > 0 &&
           r.bbox.x1 < r.col_left + o.numbered_heading_max_width * (r.col_right - r.col_left);
  }

  // A table's grid and text. Cells are the rows' lines; cells whose extents overlap across
  // rows share a column. A line of a column goes on in the cell above it where the cell's
  // text wrapped there: it starts at the cell's left edge a line below, and its first word
  // would not have fitted in the column after the line above (no typesetter wraps a word
  // that fits), unless a cell of another column that is no such line stands beside it (that
  // is the next row). Cells whose vertical extents overlap are one row: a cell set
  // middle-aligned beside a wrapped one stands lower than its first line. The header is
  // the rows at the top set wholly in bold, or ruled off from the body by a rule under
  // them where no rule parts the body's rows (`rules`: the pages' horizontal rules).
  //
  // The text has a line per row, its cells set in columns with spaces, two at least
  // between columns, as a fixed-width rendering shows them; a column whose cells end at one
  // x (numbers set flush right) is set flush right, others flush left.
  void table_grid(const std::vector<const Row*>& rs, Block& b) const {
    struct Piece {
      size_t row;
      const Line* line;
      Box box;
      std::string text;
      size_t column = 0;
      size_t cell = 0;  // index in `cells`
      bool bold = true;
    };
    std::vector<Piece> pieces;
    for (size_t i = 0; i < rs.size(); ++i)
      for (const Line* l : rs[i]->lines) {
        std::string t;
        for (const auto& w : whitespace_tokens(l->text())) t += (t.empty() ? "" : " ") + w;
        if (t.empty()) continue;
        Piece p{i, l, l->bbox, std::move(t)};
        for (const Span& sp : l->spans)
          if (has_token(sp.text) && !sp.bold) p.bold = false;
        pieces.push_back(std::move(p));
      }
    // Columns: the pieces' extents merged where they overlap, left to right.
    std::vector<size_t> order(pieces.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t c) { return pieces[a].box.x0 < pieces[c].box.x0; });
    size_t columns = 0;
    double reach = -1e300;
    std::vector<double> col_left, col_right;
    for (size_t k : order) {
      if (columns == 0 || pieces[k].box.x0 > reach) {
        ++columns;
        reach = pieces[k].box.x1;
        col_left.push_back(pieces[k].box.x0);
        col_right.push_back(reach);
      } else {
        reach = std::max(reach, pieces[k].box.x1);
        col_right.back() = reach;
      }
      pieces[k].column = columns - 1;
    }
    // Wrapped lines: per column, each piece against the one above it.
    auto page_of = [&](const Piece& p) { return rs[p.row]->page; };
    std::vector<long> above(pieces.size(), -1);  // the piece a wrapped line goes on from
    std::vector<std::vector<size_t>> in_column(columns);
    for (size_t k = 0; k < pieces.size(); ++k) in_column[pieces[k].column].push_back(k);  // (rows in order)
    for (size_t c = 0; c < columns; ++c) {
      const auto& ks = in_column[c];
      for (size_t n = 1; n < ks.size(); ++n) {
        const Piece& a = pieces[ks[n - 1]];
        const Piece& p = pieces[ks[n]];
        const Row& ra = *rs[a.row];
        const Row& rp = *rs[p.row];
        if (page_of(a) != page_of(p) || a.row == p.row) continue;
        const double size = std::max(1.0, rp.size);
        const double pitch = rp.baseline - ra.baseline;
        if (pitch <= 0 || pitch > o.table_wrap_pitch_ratio * size) continue;
        long first = ks[n - 1];
        while (above[first] >= 0) first = above[first];
        if (std::fabs(p.box.x0 - pieces[first].box.x0) > o.edge_tolerance) continue;
        const std::optional<double> word_end = first_word_end(*p.line, false);
        if (!word_end) continue;
        const double limit = c + 1 < columns ? col_left[c + 1] - o.min_cell_gap_ratio * size : col_right[c] + o.edge_tolerance;
        if (a.box.x1 + o.wrap_space_ratio * size + (*word_end - p.box.x0) <= limit) continue;
        above[ks[n]] = ks[n - 1];
      }
    }
    // A wrapped line stands on a row of the page with no cell of its own beside it, and
    // with a column empty (cells of every column side by side are the next row).
    std::vector<long> keep(above);
    std::vector<std::vector<uint8_t>> filled(rs.size(), std::vector<uint8_t>(columns, 0));
    for (const Piece& p : pieces) filled[p.row][p.column] = 1;
    for (size_t k = 0; k < pieces.size(); ++k) {
      if (above[k] < 0) continue;
      const auto& f = filled[pieces[k].row];
      if (columns > 1 && std::all_of(f.begin(), f.end(), [](uint8_t x) { return x != 0; })) keep[k] = -1;
      for (size_t q = 0; q < pieces.size(); ++q)
        if (pieces[q].row == pieces[k].row && q != k && above[q] < 0) keep[k] = -1;
    }
    // Cells: a piece and the wrapped lines under it.
    struct Cell {
      int page = 0;
      size_t column = 0;
      Box box;          // of its first line
      double top = 0, bottom = 0;  // its letters' extent (table_row_rise_ratio)
      std::string text;
      bool bold = true;
    };
    std::vector<Cell> cells;
    for (size_t k = 0; k < pieces.size(); ++k) {
      Piece& p = pieces[k];
      // A line's extent from its baseline, not its box (a font's box may be far taller).
      const Row& row = *rs[p.row];
      const double size = std::max(1.0, row.size);
      const double top = row.baseline - o.table_row_rise_ratio * size, bottom = row.baseline + o.table_row_drop_ratio * size;
      if (keep[k] >= 0) {
        p.cell = pieces[static_cast<size_t>(keep[k])].cell;
        Cell& c = cells[p.cell];
        c.text += " " + p.text;
        c.bottom = std::max(c.bottom, bottom);
        c.bold = c.bold && p.bold;
        continue;
      }
      p.cell = cells.size();
      cells.push_back({page_of(p), p.column, p.box, top, bottom, p.text, p.bold});
    }
    // Rows: cells whose extents overlap, top to bottom.
    std::vector<size_t> by_top(cells.size());
    for (size_t k = 0; k < by_top.size(); ++k) by_top[k] = k;
    std::stable_sort(by_top.begin(), by_top.end(), [&](size_t a, size_t c) {
      return cells[a].page != cells[c].page ? cells[a].page < cells[c].page : cells[a].top < cells[c].top;
    });
    std::vector<std::vector<size_t>> grid;  // cells of each row
    std::vector<std::pair<double, double>> extent;  // each row's top and bottom (of its letters)
    int band_page = -1;
    double band_bottom = 0;
    for (size_t k : by_top) {
      const Cell& c = cells[k];
      if (grid.empty() || c.page != band_page || c.top >= band_bottom) {
        grid.emplace_back();
        extent.push_back({c.top, c.bottom});
        band_page = c.page;
        band_bottom = c.bottom;
      }
      grid.back().push_back(k);
      band_bottom = std::max(band_bottom, c.bottom);
      extent.back().second = std::max(extent.back().second, c.bottom);
    }
    b.rows.assign(grid.size(), std::vector<std::string>(columns));
    for (size_t i = 0; i < grid.size(); ++i) {
      std::stable_sort(grid[i].begin(), grid[i].end(), [&](size_t a, size_t c) { return cells[a].box.x0 < cells[c].box.x0; });
      for (size_t k : grid[i]) {
        std::string& cell = b.rows[i][cells[k].column];
        cell += (cell.empty() ? "" : " ") + cells[k].text;
      }
    }
    // The header: bold rows over a body that is not all bold, or a row ruled off.
    size_t bold_rows = 0;
    while (bold_rows < grid.size() &&
           std::all_of(grid[bold_rows].begin(), grid[bold_rows].end(), [&](size_t k) { return cells[k].bold; }))
      ++bold_rows;
    if (bold_rows < grid.size()) b.header_rows = static_cast<int>(bold_rows);
    if (b.header_rows == 0 && grid.size() >= 3 && cells[grid[0].front()].page == cells[grid[1].front()].page) {
      auto ruled = [&](size_t i) {  // a rule between rows i and i + 1 of one page
        const int page = cells[grid[i].front()].page;
        if (page != cells[grid[i + 1].front()].page) return false;
        const double x0 = col_left.front(), x1 = col_right.back();
        for (const auto& [p, r] : rules)
          if (p == page && r.y0 >= extent[i].second - o.edge_tolerance && r.y1 <= extent[i + 1].first + o.edge_tolerance &&
              r.x0 <= x0 + o.edge_tolerance + 0.5 * (x1 - x0) && r.x1 >= x1 - 0.5 * (x1 - x0))
            return true;
        return false;
      };
      if (ruled(0) && !ruled(1)) b.header_rows = 1;
    }
    // The text, in columns.
    std::vector<size_t> width(columns, 0), lefts(columns, 0), rights(columns, 0), count(columns, 0);
    for (const Cell& c : cells) {
      width[c.column] = std::max(width[c.column], utf8_length(c.text));
      ++count[c.column];
      size_t same_left = 0, same_right = 0;
      for (const Cell& d : cells) {
        if (d.column != c.column) continue;
        same_left += std::fabs(d.box.x0 - c.box.x0) <= o.edge_tolerance;
        same_right += std::fabs(d.box.x1 - c.box.x1) <= o.edge_tolerance;
      }
      lefts[c.column] = std::max(lefts[c.column], same_left);
      rights[c.column] = std::max(rights[c.column], same_right);
    }
    std::vector<size_t> start(columns, 0);
    for (size_t k = 1; k < columns; ++k) start[k] = start[k - 1] + width[k - 1] + 2;
    std::string text;
    for (size_t i = 0; i < grid.size(); ++i) {
      std::string line;
      for (size_t c = 0; c < columns; ++c) {
        const std::string& cell = b.rows[i][c];
        if (cell.empty()) continue;
        const size_t used = utf8_length(line);
        size_t at = start[c];
        if (rights[c] > lefts[c] && 2 * rights[c] > count[c]) at += width[c] - std::min(width[c], utf8_length(cell));
        if (used > 0) at = std::max(at, used + 2);
        line.append(at - used, ' ');
        line += cell;
      }
      text += (i ? "\n" : "") + line;
    }
    b.text = std::move(text);
  }

  // Prose text of rows: one space between lines, line-end hyphens decided and logged.
  // `texts`, when given, stand for the rows' texts (texts_with_marks).
  std::string prose(const std::vector<const Row*>& rs, std::vector<HyphenJoin>& log,
                    const std::vector<std::string>* texts = nullptr) const {
    std::string text;
    for (size_t i = 0; i < rs.size(); ++i) {
      const std::string& t = texts ? (*texts)[i] : rs[i]->text;
      if (i == 0) {
        text = t;
        continue;
      }
      std::optional<std::string> prev_last = last_token(text);
      // Only a token ending in a hyphen may join the next line's first one.
      if (prev_last && ends_with_hyphen(*prev_last)) {
        const std::string before = std::move(*prev_last);
        auto toks = whitespace_tokens(t);
        if (toks.empty()) {
          text += ' ';
          text += t;
          continue;
        }
        const std::string& after = toks.front();
        std::string joined = join_hyphenated(before, after, rs[i - 1]->mono_end, ev, o);
        if (!joined.empty()) {
          log.push_back({rs[i - 1]->page, before, after, joined});
          // Drop the trailing white space of the text and the leading one of the line.
          while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
          text.resize(text.size() - before.size());
          size_t at = t.find(after);
          text += joined + t.substr(at + after.size());
          continue;
        }
      }
      text += ' ';
      text += t;
    }
    // Collapse runs of white space to single spaces: prose keeps no line structure.
    std::string clean;
    clean.reserve(text.size());
    bool sp = false;
    if (is_ascii(text)) {
      for (char c : text) {
        if (ascii_space(c)) {
          sp = true;
          continue;
        }
        if (sp && !clean.empty()) clean += ' ';
        sp = false;
        clean += c;
      }
      return clean;
    }
    for (char32_t c : to_u32(text)) {
      if (is_space_cp(c)) {
        sp = true;
        continue;
      }
      if (sp && !clean.empty()) clean += ' ';
      sp = false;
      append_utf8(clean, c);
    }
    return clean;
  }

  // A block of rows `rs`; its text comes in finish().
  Block make(BlockType t, const std::vector<const Row*>& rs) {
    Block b;
    b.type = t;
    b.page = rs.front()->page;
    b.last_page = rs.back()->page;
    b.bbox = rs.front()->bbox;
    for (const Row* r : rs)
      if (r->page == b.page) b.bbox = b.bbox.united(r->bbox);
    b.drawn_marker = t == BlockType::ListItem && rs.front()->drawn_marker;
    return b;
  }

  // `text`: the block's text is made from `rs` (a figure's rows are its caption's).
  void push(Block b, const std::vector<const Row*>& rs, bool text = true) {
    double sz = 0;
    for (const Row* r : rs) sz = std::max(sz, r->size);
    out.push_back(std::move(b));
    sizes.push_back(sz);
    text_rows.push_back(text ? rs : std::vector<const Row*>{});
    captioned.push_back(false);
    titled.push_back(0);
  }

  // Texts of the blocks made since the last call. Each block's text depends on its rows
  // alone, so blocks are made in parallel; hyphen joins are logged in block order, as if made
  // one after the other (a figure owns its caption's). A figure and its caption are pushed
  // together, so no call falls between them.
  void make_texts() {
    const size_t from = texts_made, n = out.size() - from;
    std::vector<std::vector<HyphenJoin>> logged(n);
    parallel_for(
        n, o.jobs,
        [&](size_t k) {
          const size_t i = from + k;
          std::vector<const Row*> rs = text_rows[i];
          if (titled[i] == 1) rs.erase(rs.begin());  // (the note's title, on a row of its own)
          if (rs.empty()) return;
          Block& b = out[i];
          const bool may_cite = b.type != BlockType::Code && b.type != BlockType::Footnote &&
                                b.type != BlockType::Heading && b.type != BlockType::Figure;
          const std::vector<std::string> marked = may_cite ? texts_with_marks(rs) : std::vector<std::string>();
          if (b.type == BlockType::Code) {
            b.text = code_text(rs, st, o);
          } else if (b.type == BlockType::Table) {
            table_grid(rs, b);
            // A table's marks cite its notes, but are not found in its text.
            for (const auto& t : marked) find_raised(t, b.raised);
            for (auto& m : b.raised) m.at = std::string::npos;
          } else if (marked.empty()) {
            b.text = prose(rs, logged[k]);
          } else {
            b.text = find_raised(prose(rs, logged[k], &marked), b.raised);
            for (auto& j : logged[k]) {
              strip_mark_bytes(j.before);
              strip_mark_bytes(j.after);
              strip_mark_bytes(j.joined);
            }
          }
          find_inline(b, rs, o);
          if (titled[i] == 2) strip_title(b);
        },
        16);
    join_ends.resize(out.size());
    for (size_t k = 0; k < n; ++k) {
      const size_t i = from + k;
      if (captioned[i] && k + 1 < n) {
        out[i].figure_ref = caption_label(out[i + 1].text);
        joins.insert(joins.end(), logged[k + 1].begin(), logged[k + 1].end());
        logged[k + 1].clear();
      }
      joins.insert(joins.end(), logged[k].begin(), logged[k].end());
      join_ends[i] = joins.size();
      std::vector<const Row*>().swap(text_rows[i]);
    }
    texts_made = out.size();
    const int in_use = first_page_in_use();
    std::erase_if(rules, [&](const auto& r) { return r.first < in_use; });
  }

  // A note whose title is its text's first words: the title leaves the text, which starts
  // after it (raised marks move with the text).
  static void strip_title(Block& b) {
    if (b.text.compare(0, b.title.size(), b.title) != 0) {
      b.title.clear();
      return;
    }
    size_t cut = b.title.size();
    while (cut < b.text.size() && b.text[cut] == ' ') ++cut;
    const size_t moved = utf8_length(std::string_view(b.text).substr(0, cut));
    b.text.erase(0, cut);
    for (auto& m : b.raised)
      if (m.at != std::string::npos) m.at = m.at >= moved ? m.at - moved : 0;
    // Styles and links found on the whole text move with it; what lay in the title goes.
    auto shift = [moved](auto& runs) {
      std::erase_if(runs, [moved](const auto& r) { return r.at + r.len <= moved; });
      for (auto& r : runs) {
        if (r.at < moved) {
          r.len -= moved - r.at;
          r.at = 0;
        } else {
          r.at -= moved;
        }
      }
    };
    shift(b.styles);
    shift(b.links);
  }

  // The earliest page whose rows or figures the open block, the waiting footnotes and the
  // waiting figures still point at; INT_MAX when none.
  int first_page_in_use() const {
    int page = INT_MAX;
    for (const Row* r : rows) page = std::min(page, r->page);
    for (const auto& n : notes)
      for (const Row* r : n) page = std::min(page, r->page);
    for (const FigureItem* f : pending) page = std::min(page, f->page);
    return page;
  }

  void emit_figure(const FigureItem& f) {
    Block b;
    b.type = BlockType::Figure;
    b.page = b.last_page = f.page;
    b.bbox = f.bbox;
    b.labels = f.labels;
    if (!f.caption.empty()) {
      std::vector<const Row*> rs;
      for (const auto& r : f.caption) rs.push_back(&r);
      Block c = make(BlockType::Caption, rs);
      push(std::move(b), rs, false);  // (its figure_ref comes from the caption's text)
      captioned.back() = true;
      push(std::move(c), rs);
    } else {
      push(std::move(b), {}, false);
    }
  }

  void close() {
    if (open()) {
      BlockType t = type;
      if (t == BlockType::Paragraph && rows.front()->caption) t = BlockType::Caption;
      Block b = make(t, rows);
      nest(b, rows);
      if (t == BlockType::Note) {
        b.kind = open_kind;
        b.title = open_title;
      }
      push(std::move(b), rows);
      if (t == BlockType::Note) titled.back() = open_titled;
      rows.clear();
      open_box = -1;
    }
    // Waiting figures and footnotes in page order: a page's footnotes close that page, so a
    // float from the next page's top comes after them, one from the same page before.
    size_t f = 0;
    for (const auto& n : notes) {
      for (; f < pending.size() && pending[f]->page <= n.front()->page; ++f) emit_figure(*pending[f]);
      push(make(BlockType::Footnote, n), n);
    }
    for (; f < pending.size(); ++f) emit_figure(*pending[f]);
    pending.clear();
    notes.clear();
  }

  // A list item's level (1: not in another item), from where its first line starts against
  // the items before it. A heading, or a block whose lines run where the outermost items
  // start or further left (a paragraph's second line, not its indented first), ends the
  // list; a paragraph or listing set in under an item is part of it.
  void nest(Block& b, const std::vector<const Row*>& rs) {
    const Row& first = *rs.front();
    double x = first.bbox.x0 - first.col_left;
    if (b.type == BlockType::ListItem) {
      while (!list_edges.empty() && x < list_edges.back() - o.edge_tolerance) list_edges.pop_back();
      if (list_edges.empty() || x > list_edges.back() + o.edge_tolerance) list_edges.push_back(x);
      b.level = static_cast<int>(list_edges.size());
      return;
    }
    if (rs.size() > 1 && rs[1]->page == first.page) x = std::min(x, rs[1]->bbox.x0 - rs[1]->col_left);
    if (b.type == BlockType::Heading || (b.type != BlockType::Footnote && b.type != BlockType::Caption &&
                                         !list_edges.empty() && x <= list_edges.front() + o.edge_tolerance))
      list_edges.clear();
  }

  void start(BlockType t, const Row& r) {
    close();
    type = t;
    rows = {&r};
  }

  bool same_flow(const Row& a, const Row& b) const { return a.page == b.page && a.column == b.column; }

  // Does `r` continue the open prose block?
  bool continues_prose(const Row& r) const {
    const Row& prev = *rows.back();
    if (is_heading(r) || r.mono || r.footnote != prev.footnote) return false;
    if (std::fabs(r.size - prev.size) > 0.15 * prev.size) return false;
    double indent = o.indent_ratio * r.size;
    bool full = prev.bbox.x1 >= prev.col_right - o.short_line_ratio * prev.size;
    const bool marker = r.marker > 0 || r.drawn_marker;
    // A figure set between the two lines: the paragraph may run around it, as over a
    // column or page break.
    bool across_figure = false, figure_above = false;
    for (const auto* f : pending)
      if (f->page == r.page && f->bbox.y1 <= r.bbox.y0 + o.edge_tolerance) {
        figure_above = true;
        if (f->bbox.y0 >= prev.bbox.y1 - o.edge_tolerance) across_figure = true;
      }
    if (!same_flow(prev, r) || across_figure) {
      if (type == BlockType::Footnote || r.footnote) return false;
      if (r.bbox.x0 > r.col_left + indent) return false;
      // A marker opens an item, unless it starts a line that goes on from a paragraph's
      // full line in mid-sentence ("... into the MMC, | (1) had no cover texts"), as on a page.
      if (marker && (!full || prev.full_stop || rows.front()->marker > 0 || rows.front()->drawn_marker || r.drawn_marker))
        return false;
      // A figure amid a page's text stands between two paragraphs where the text flows
      // around nothing (HTML, word processors, most XSL-FO) and where an unindented
      // paragraph follows it; TeX may set it after any line of a paragraph, but one whose
      // line ended a sentence is split there at worst. So on the same page the text goes on
      // only in mid-sentence; so it does over a figure atop the next page outside TeX,
      // whose floats are the only ones that leave a paragraph for the next page's top.
      if (prev.full_stop && (same_flow(prev, r) || (figure_above && !ev.tex))) return false;
      return full || (!prev.full_stop && r.lower_start);
    }
    double pitch = r.baseline - prev.baseline;
    if (pitch > prev.size * (1.2 + o.paragraph_gap_ratio) || pitch < 0) return false;
    // A sentence's end, then more space than the book puts between lines: paragraphs set
    // apart by a space rather than an indent (parskip).
    if (prev.full_stop && st.line_pitch > 0 && std::fabs(prev.size - st.body_size) < 0.5 &&
        pitch > st.line_pitch + o.paragraph_space_ratio * prev.size)
      return false;
    if (r.footnote && starts_with_footnote_mark(r)) return false;
    bool bullet = marker && (!full || prev.full_stop || r.bbox.x0 > r.col_left + indent || rows.front()->marker > 0 ||
                             rows.front()->drawn_marker);
    // In an item, "(2)" at the edge its lines wrap to, after a full line in mid-sentence
    // ("... two steps: (1) assert copyright on the software, and | (2) offer you ..."), is a
    // word of the item's sentence, as it is in a paragraph.
    if (bullet && type == BlockType::ListItem && !r.drawn_marker && full && !prev.full_stop && same_flow(prev, r) &&
        std::fabs(r.bbox.x0 - (rows.size() > 1 ? prev.bbox.x0 : after_marker(prev))) <= o.edge_tolerance)
      bullet = false;
    if (bullet) return false;
    if (type == BlockType::ListItem) {
      // Continuation lines of an item hang under its text, right of the marker; or, where
      // the marker opens a paragraph ("c) You must ..."), the text wraps to the column's
      // edge like any paragraph's after a line that filled the measure.
      const Row& first = *rows.front();
      if (r.bbox.x0 > first.bbox.x0 + o.edge_tolerance) {
        // Unless the item's lines wrap back to the marker's edge, as a paragraph's do: then a
        // line set in after one that ends a sentence short of the measure is the first of
        // the next paragraph, indented.
        const bool wraps_to_marker = rows.size() > 1 && same_flow(*rows[1], first) &&
                                     std::fabs(rows[1]->bbox.x0 - first.bbox.x0) <= o.edge_tolerance;
        return !(wraps_to_marker && !full && prev.full_stop);
      }
      // A drawn bullet stands left of the text: the item's lines all start where its first does.
      if (first.drawn_marker) return std::fabs(r.bbox.x0 - first.bbox.x0) <= o.edge_tolerance;
      if (rows.size() > 1) return std::fabs(r.bbox.x0 - prev.bbox.x0) <= o.edge_tolerance;
      if (full && r.bbox.x0 >= r.col_left - o.edge_tolerance && r.bbox.x0 <= first.bbox.x0 + o.edge_tolerance) return true;
      // In an indented passage (a quotation), whose lines end short of the column: a long
      // first line in mid-sentence goes on at the marker's edge.
      return !prev.full_stop && std::fabs(r.bbox.x0 - first.bbox.x0) <= o.edge_tolerance &&
             prev.bbox.x1 >= prev.col_right - o.long_line_share * (prev.col_right - prev.col_left);
    }
    const double left = text_left(r), prev_left = text_left(prev);
    // A first line that fills the measure in mid-sentence, with the next line indented: a
    // hanging indent (a description list's term, a bibliography entry), not a new paragraph,
    // which would follow a line that ends one (ends_sentence counts a colon).
    if (rows.size() == 1 && full && !prev.full_stop && left > prev_left + indent &&
        left == r.bbox.x0 && text_left(prev) == prev.bbox.x0)
      return true;
    // A note in the margin beside a line after a short one, or after a sentence's end, marks
    // where something starts (an entry, a paragraph); beside a line that goes on from a full
    // one, a place in a running paragraph.
    if (left != r.bbox.x0 && (!full || prev.full_stop)) return false;
    if (left > prev_left + indent) return false;  // first-line indent
    if (rows.size() > 1 && left < prev_left - indent) return false;  // end of an indented passage
    if (!full && prev.full_stop && left <= prev_left + o.edge_tolerance &&
        prev.bbox.x1 < prev.col_right - 4 * o.short_line_ratio * prev.size)
      return false;
    if (type == BlockType::Paragraph && !full && broken_on_purpose(prev, r, indent)) return false;
    return true;
  }

  // Whether the line `prev` ends short of its column although the first word of the next
  // line, `r`, would have fit after it: no typesetter wraps there, so the line was ended on
  // purpose (a definition's signatures one per line, an address, a table's rows set as
  // lines) and each line is a block of its own. The right edge is the column's justified
  // measure; a passage indented on the left (both lines at one indent) is taken to be
  // indented as far on the right, as a quotation is, while an indented line followed by one
  // at the column's edge (a first-line indent, the last row of an indented table) had the
  // whole measure. Not beside a figure, nor after a word broken at the line's end.
  bool broken_on_purpose(const Row& prev, const Row& r, double indent) const {
    if (text_left(r) != r.bbox.x0) return false;  // a margin note before the next line's first word
    const double inset = text_left(prev) - prev.col_left;
    const bool indented = inset > indent, next_flush = std::fabs(r.bbox.x0 - r.col_left) <= indent;
    const bool within_passage = indented && std::fabs(r.bbox.x0 - text_left(prev)) <= o.edge_tolerance;
    if (inset < -indent || !(next_flush || within_passage)) return false;
    // Rows closer than a line apart are pieces of one line (a radical, a fraction's parts).
    if (r.baseline - prev.baseline < o.min_line_pitch_ratio * prev.size) return false;
    if (!prev.text.empty() && prev.text.back() == '-') return false;
    for (const auto* f : pending)
      if (f->page == prev.page && f->bbox.y0 < prev.bbox.y1 && f->bbox.y1 > prev.bbox.y0) return false;
    auto edge = justified_right.find(prev.column);
    if (edge == justified_right.end()) return false;  // ragged lines: where they end says nothing
    const double right = edge->second - (within_passage ? inset : 0.0);
    const std::optional<double> word_end = first_word_end(r);
    if (!word_end) return false;
    // The room a typesetter needs: the word and a space it may shrink, counted generously.
    return right - prev.bbox.x1 > (*word_end - r.bbox.x0) + o.wrap_space_ratio * prev.size;
  }

  // Fills justified_right from a page's rows: per column, the right edge shared (within
  // twice edge_tolerance) by the most prose rows, if at least min_justified_rows share it.
  void find_justified_right(const std::vector<Item>& items) {
    justified_right.clear();
    std::map<int, std::vector<double>> ends;
    for (const Item& it : items)
      if (it.kind == Item::Text && !it.row.mono && !it.row.footnote && !is_heading(it.row) && run_of(it.row) < 0)
        ends[it.row.column].push_back(it.row.bbox.x1);
    for (auto& [column, xs] : ends) {
      std::sort(xs.begin(), xs.end());
      size_t best = 0;
      double at = 0;
      for (size_t i = 0, j = 0; i < xs.size(); ++i) {  // the window [xs[i], xs[i] + 2 tolerance]
        while (j < xs.size() && xs[j] <= xs[i] + 2 * o.edge_tolerance) ++j;
        if (j - i >= best) {
          best = j - i;
          at = xs[j - 1];
        }
      }
      if (best >= o.min_justified_rows) justified_right[column] = at;
    }
  }

  // Where a row's text starts in its column: past a note set in the left margin on the row's
  // baseline (a version mark beside a paragraph's first line), which would make the next
  // line look indented.
  double text_left(const Row& r) const {
    if (r.lines.size() > 1 && r.lines.front()->bbox.x1 < r.col_left - o.edge_tolerance &&
        r.lines[1]->bbox.x0 >= r.col_left - o.edge_tolerance)
      return r.lines[1]->bbox.x0;
    return r.bbox.x0;
  }

  // Where the first word of a row ends, from its glyphs' positions; nothing when they are
  // unknown. A no-break space joins words (a typesetter moves them as one).
  static std::optional<double> first_word_end(const Row& r) {
    if (r.lines.empty()) return std::nullopt;
    return first_word_end(*r.lines.front(), r.lines.size() > 1);
  }

  // The same for one line; `more`: another line of its row follows it after a gap.
  static std::optional<double> first_word_end(const Line& line, bool more) {
    bool started = false;
    for (size_t i = 0; i < line.spans.size(); ++i) {
      const Span& s = line.spans[i];
      if (started && line.space_before(i)) return line.spans[i - 1].bbox.x1;
      const std::u32string cps = to_u32(s.text);
      if (s.xs.size() != cps.size()) return std::nullopt;
      for (size_t k = 0; k < cps.size(); ++k) {
        const bool space = cps[k] == U' ' || cps[k] == U'\t';
        if (space && started) return s.xs[k];
        if (!space) started = true;
      }
    }
    if (more) return line.bbox.x1;  // the next line of the row starts after a gap
    return started ? std::optional<double>(line.bbox.x1) : std::nullopt;
  }

  // Where the text after a row's list marker starts: the edge an item's lines hang at. The
  // row's left edge where the glyphs' positions are unknown.
  static double after_marker(const Row& r) {
    if (r.marker == 0) return r.bbox.x0;
    const size_t skip = utf8_length(std::string_view(r.text).substr(0, r.marker));
    size_t seen = 0;
    for (const Line* line : r.lines)
      for (const Span& s : line->spans) {
        const std::u32string cps = to_u32(s.text);
        if (s.xs.size() != cps.size()) return r.bbox.x0;
        for (size_t k = 0; k < cps.size(); ++k, ++seen)
          if (seen >= skip && cps[k] != U' ' && cps[k] != U'\t') return s.xs[k];
      }
    return r.bbox.x0;
  }

  static bool starts_with_footnote_mark(const Row& r) {
    if (r.lines.empty() || r.lines.front()->spans.empty()) return false;
    const auto& spans = r.lines.front()->spans;
    if (spans.size() > 1 && spans.front().size < r.size * 0.85) return true;
    auto cps = to_u32(r.text);
    return !cps.empty() && (cps[0] == U'*' || cps[0] == U'†' || cps[0] == U'‡' || (cps[0] >= U'0' && cps[0] <= U'9') ||
                            superscript_digit(cps[0]));
  }

  bool continues_code(const Row& r) const {
    const Row& prev = *rows.back();
    if (!r.mono || r.footnote || mono_heading(r)) return false;
    if (!same_flow(prev, r)) return true;  // a listing broken by a column or page break
    double pitch = r.baseline - prev.baseline;
    if (!(pitch > 0 && pitch <= o.max_code_blank_lines * prev.size * 1.25)) return false;
    // Every line of a listing, blank or not, advances by the listing's own pitch: a gap
    // that is no whole number of pitches ends the listing (a term or a signature set under
    // an example, after the space the example leaves).
    if (auto line = listing_pitch(); line && pitch > (1 + o.code_pitch_tolerance) * *line) {
      const double lines = pitch / *line;
      if (std::fabs(lines - std::round(lines)) > o.code_pitch_tolerance) return false;
    }
    return true;
  }

  // The open listing's line pitch: the middle advance from one of its rows to the next
  // (on one page and column, no blank line between), when every advance is a whole number
  // of it; nothing for a listing of one row, of uneven advances, or recognised by OCR
  // (whose baselines are not where the typesetter put them).
  std::optional<double> listing_pitch() const {
    std::vector<double> advances;
    for (size_t i = 1; i < rows.size(); ++i) {
      const double d = rows[i]->baseline - rows[i - 1]->baseline;
      if (same_flow(*rows[i - 1], *rows[i]) && d > 0) advances.push_back(d);
    }
    for (const Row* r : rows)
      for (const Line* l : r->lines)
        if (!l->spans.empty() && l->spans.front().ocr) return std::nullopt;
    if (advances.empty()) return std::nullopt;
    std::vector<double> single;
    const double least = *std::min_element(advances.begin(), advances.end());
    for (double d : advances)
      if (d < 1.5 * least) single.push_back(d);
    std::nth_element(single.begin(), single.begin() + static_cast<std::ptrdiff_t>(single.size() / 2), single.end());
    const double pitch = single[single.size() / 2];
    for (double d : advances)
      if (std::fabs(d / pitch - std::round(d / pitch)) > o.code_pitch_tolerance) return std::nullopt;
    return pitch;
  }

  bool continues_heading(const Row& r) const {
    const Row& prev = *rows.back();
    if (!is_heading(r) || !same_flow(prev, r)) return false;
    // A numbered heading under a numbered one starts anew (a section's under its chapter's,
    // in one size); a title's second line may start with a number ("45 Variants").
    if (section_number_depth(r.text) > 0 && section_number_depth(prev.text) > 0) return false;
    double pitch = r.baseline - prev.baseline;
    if (!(pitch > 0 && pitch <= 2.2 * std::max(r.size, prev.size))) return false;
    // The lines of one heading share its size. A heading in another size right under it is
    // the next heading (a section's under its chapter's), unless all above is an opener:
    // "Chapter 3" or a number set over the title.
    if (std::fabs(r.size - prev.size) <= 0.1 * std::max(r.size, prev.size)) return true;
    return std::all_of(rows.begin(), rows.end(), [](const Row* above) { return opener_label(above->text); });
  }

  // "Chapter 3", "APPENDIX A.", "Part II", "3", "CHAPTER" over "ONE": a label or number set
  // apart over a title.
  static bool opener_label(const std::string& text) {
    auto t = whitespace_tokens(text);
    if (t.size() == 1) return opener_number(t[0]) || opener_word(t[0]);
    return t.size() == 2 && opener_word(t[0]) && opener_number(t[1]);
  }

  // Whether the table row `r`, first of its page's text, goes on with the open table from
  // the page before: its cells stand in the open table's columns (a table broken by a page
  // break, its header repeated or not).
  bool continues_table(const Row& r) const {
    if (r.page <= rows.back()->page) return false;
    for (auto it = rows.rbegin(); it != rows.rend(); ++it)
      if ((*it)->lines.size() >= o.min_header_table_cells)
        return shared_edges((*it)->lines, r.lines, r.col_right, o) >= std::min(o.min_shared_edges, r.lines.size() - 1);
    return false;
  }

  long run_of(const Row& r) const {
    auto it = table_run.find(&r);
    return it == table_run.end() ? -1 : it->second;
  }

  // Would `r` continue the open block?
  // The title a row leads a note with, as printed, and whether it is the whole row; the
  // kind of note it names (empty: none).
  struct Title {
    std::string kind, text;
    bool whole = false;
  };
  Title note_title(const Row& r) const {
    auto kind_of = [&](std::string t) -> std::string {
      while (!t.empty() && (t.back() == ':' || t.back() == '.')) t.pop_back();
      for (auto& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      for (const auto& [name, kind] : o.note_titles)
        if (t == name) return kind;
      return {};
    };
    // A title is printed capitalised or in capitals ("warning" alone is a word, a name).
    if (r.mono || r.footnote || r.text.empty() || !(r.text[0] >= 'A' && r.text[0] <= 'Z')) return {};
    if (auto k = kind_of(r.text); !k.empty()) return {k, r.text, true};
    // A title set apart before the text on its line (a side title beside a bar).
    if (r.lines.size() > 1) {
      const std::string first = r.lines.front()->text();
      if (auto k = kind_of(first); !k.empty() && r.text.compare(0, first.size(), first) == 0) return {k, first, false};
    }
    // A run-in title: the first words, a colon after them.
    const size_t colon = r.text.find(':');
    if (colon != std::string::npos && colon > 0 && colon < 20 && colon + 1 < r.text.size() && r.text[colon + 1] == ' ')
      if (auto k = kind_of(r.text.substr(0, colon)); !k.empty()) return {k, r.text.substr(0, colon + 1), false};
    return {};
  }

  // Notes of a page: a row that leads one with its title (note_title), drawn in a box with
  // its text (LayoutOptions::note_titles), and the rows below it in that box.
  void find_notes(const std::vector<Item>& items, const PageDecor& d) {
    note_rows.clear();
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i].kind != Item::Text) continue;
      const Row& r = items[i].row;
      if (note_rows.count(&r) || run_of(r) >= 0) continue;
      Title title = note_title(r);
      if (title.kind.empty()) continue;
      const double em = std::max(1.0, r.size), tol = o.edge_tolerance;
      const double mid = (r.bbox.y0 + r.bbox.y1) / 2;
      std::optional<Box> region;
      // A shaded box or a frame around it (the smallest).
      for (const Box& p : d.panels)
        if (p.contains(r.bbox, tol) && (!region || p.width() * p.height() < region->width() * region->height())) region = p;
      // A bar at its left, or between a side title and its text.
      const double title_right = r.lines.front()->bbox.x1;
      for (const Box& bar : d.bars) {
        if (region || bar.y0 > mid || bar.y1 < mid) continue;
        const bool left = bar.x1 <= r.bbox.x0 + tol && r.bbox.x0 - bar.x1 <= o.note_bar_reach_ratio * em;
        const bool between = !title.whole && bar.x0 >= title_right - tol && bar.x0 - title_right <= o.note_bar_reach_ratio * em;
        const bool beside = title.whole && bar.x0 >= r.bbox.x1 - tol && bar.x0 - r.bbox.x1 <= o.note_bar_reach_ratio * em;
        if (left || between || beside) region = Box{std::min(bar.x0, r.bbox.x0), bar.y0, r.col_right, bar.y1};
      }
      // A rule over it, and the next rule under it that spans as far.
      for (const Box& above : d.rules) {
        if (region || above.y1 > r.bbox.y0 + tol || r.bbox.y0 - above.y1 > o.note_rule_gap_ratio * em ||
            above.x0 > r.bbox.x0 + tol || above.x1 < r.bbox.x1 - tol)
          continue;
        std::optional<Box> under;
        for (const Box& u : d.rules)
          if (u.y0 >= r.bbox.y1 - tol && std::fabs(u.x0 - above.x0) <= tol && std::fabs(u.x1 - above.x1) <= tol &&
              (!under || u.y0 < under->y0))
            under = u;
        if (under) region = Box{above.x0, above.y1, above.x1, under->y0};
      }
      if (!region) continue;
      const long box = note_boxes++;
      note_rows[&r] = {box, title.kind, title.text, title.whole};
      for (size_t j = i + 1; j < items.size(); ++j) {
        if (items[j].kind != Item::Text) continue;
        const Row& q = items[j].row;
        if (q.page != r.page || q.footnote || note_rows.count(&q)) continue;
        const double m = (q.bbox.y0 + q.bbox.y1) / 2;
        if (q.bbox.x1 < region->x0 || q.bbox.x0 > region->x1) continue;  // (beside the box)
        if (m < region->y0 || m > region->y1) continue;
        // A section's heading ends the box (a bold line of body size in it may be its
        // table's header).
        if (is_heading(q) && (q.size >= heading_threshold() || section_number_depth(q.text) > 0)) break;
        note_rows[&q] = {box, title.kind, "", false};
      }
    }
  }

  const NoteSpot* note_of(const Row& r) const {
    auto it = note_rows.find(&r);
    return it == note_rows.end() ? nullptr : &it->second;
  }

  bool continues(const Row& r) const {
    if (!open()) return false;
    // A note's rows continue nothing outside it, and the rows of its box go on with it as
    // prose does (its first after a title of its own always).
    const NoteSpot* n = note_of(r);
    if (type == BlockType::Note) {
      if (!n || n->box != open_box || !n->title.empty() || r.mono || r.marker > 0 || r.drawn_marker) return false;
      if (open_titled == 1 && rows.size() == 1) return true;
      return continues_prose(r);
    }
    if (n && type != BlockType::Code && type != BlockType::ListItem) return false;
    // A table is its run of rows: nothing else continues it, and its rows continue nothing else.
    if (type == BlockType::Table) return run_of(r) >= 0 && (run_of(r) == run_of(*rows.back()) || continues_table(r));
    if (run_of(r) >= 0) return false;
    switch (type) {
      case BlockType::Code: return continues_code(r);
      case BlockType::Heading: return continues_heading(r);
      default: return !r.mono && !is_heading(r) && continues_prose(r);
    }
  }

  void row(const Row& r) {
    // Footnotes of a page wait until the block open at the page's end is finished (it may
    // continue on the next page or column).
    if (r.footnote && open() && type != BlockType::Footnote) {
      if (notes.empty() || starts_with_footnote_mark(r)) notes.push_back({&r});
      else notes.back().push_back(&r);
      return;
    }
    if (continues(r)) {
      rows.push_back(&r);
      return;
    }
    BlockType t = BlockType::Paragraph;
    const NoteSpot* n = note_of(r);
    if (n && !r.footnote && run_of(r) < 0 && (!n->title.empty() || (!r.mono && r.marker == 0 && !r.drawn_marker))) {
      start(BlockType::Note, r);
      open_box = n->box;
      open_kind = n->kind;
      open_title = n->title;
      open_titled = n->title.empty() ? 0 : n->whole ? 1 : 2;
      return;
    }
    if (r.footnote) t = BlockType::Footnote;
    else if (run_of(r) >= 0) t = BlockType::Table;
    else if (r.mono && !mono_heading(r)) t = BlockType::Code;
    else if (is_heading(r)) t = BlockType::Heading;
    else if (r.marker || r.drawn_marker) t = BlockType::ListItem;
    start(t, r);
  }

  void figure(const FigureItem& f) {
    // A figure stands at a paragraph boundary: after the block that is open when the flow
    // reaches it (a paragraph running around the figure is finished first).
    if (open() && (type == BlockType::Paragraph || type == BlockType::ListItem || type == BlockType::Note)) {
      pending.push_back(&f);
      return;
    }
    close();
    emit_figure(f);
  }
};

}  // namespace

struct BlockStream::Impl {
  Builder b;
};

BlockStream::BlockStream(const BookStats& st, const WordEvidence& ev, const LayoutOptions& o, std::vector<HyphenJoin>& joins)
    : impl_(std::make_unique<Impl>(Impl{Builder(st, ev, o, joins)})) {}

BlockStream::~BlockStream() = default;

void BlockStream::add_page(const std::vector<Item>& items, const PageDecor& decor) {
  Builder& b = impl_->b;
  const LayoutOptions& o = b.o;
  const BookStats& st = b.st;
  b.table_run.clear();
  std::vector<const Line*> open_cells;  // the last full row of a table open at the page break
  if (b.open() && b.type == BlockType::Table)
    for (auto it = b.rows.rbegin(); it != b.rows.rend() && open_cells.empty(); ++it)
      if ((*it)->lines.size() >= o.min_header_table_cells) open_cells = (*it)->lines;
  find_tables(items, o, b.tables, b.table_run, open_cells);
  if (!items.empty()) {
    const int page = items.front().kind == Item::Figure ? items.front().figure.page : items.front().row.page;
    for (const Box& r : decor.rules) b.rules.push_back({page, r});
  }
  b.find_notes(items, decor);
  b.find_justified_right(items);
  auto feed = [&](const Item& it) {
    if (it.kind == Item::Figure) b.figure(it.figure);
    else b.row(it.row);
  };
  for (size_t i = 0; i < items.size(); ++i) {
    // A float (figure, table with its caption) at the top of a new page or column, over
    // the continuation of a block open at the break: the float waits for the block to end.
    // (What is looked at ahead is on the same page.)
    const Row* prev = b.open() ? b.rows.back() : nullptr;
    const Item& first = items[i];
    int page = first.kind == Item::Figure ? first.figure.page : first.row.page;
    if (prev && page != prev->page) {
      size_t j = i;
      bool has_float = false, ended = false;
      int column = -1;  // of the text after the float
      while (j < items.size() && j - i < o.max_float_items) {
        const Item& it = items[j];
        if (it.kind == Item::Figure) {
          if (it.figure.page != page) break;
          has_float = true;
        } else {
          if (it.row.page != page || it.row.footnote) break;
          // Text before any float (a heading, a paragraph): the page does not open with one.
          if (!has_float && !it.row.caption && b.run_of(it.row) < 0) break;
          // After the float, a heading, or a column of text gone through to the next one:
          // the block ended at the break.
          if (has_float && !it.row.caption && b.run_of(it.row) < 0) {
            if (it.row.size >= o.heading_size_ratio * st.body_size ||
                (column >= 0 && it.row.column >= 0 && it.row.column != column)) {
              ended = true;
              break;
            }
            if (it.row.column >= 0) column = it.row.column;
          }
          if (j > i && has_float && b.continues(it.row)) {
            const Item& before = items[j - 1];
            Box above = before.kind == Item::Figure ? before.figure.bbox : before.row.bbox;
            if (it.row.bbox.y0 - above.y1 >= o.float_separation_ratio * st.body_size) break;
          }
          if (it.row.caption) has_float = true;
        }
        ++j;
      }
      // (Outside TeX, a float does not wait for a sentence that has ended: see continues_prose.)
      bool found = has_float && !ended && j < items.size() && j > i && items[j].kind == Item::Text &&
                   items[j].row.page == page && !items[j].row.footnote && b.continues(items[j].row) &&
                   (b.ev.tex || !prev->full_stop);
      if (found) {
        // Feed the continuation first, then the float group, then go on after it.
        size_t k = j;
        while (k < items.size() && items[k].kind == Item::Text && items[k].row.page == page &&
               !items[k].row.footnote && b.continues(items[k].row))
          feed(items[k++]);
        for (size_t q = i; q < j; ++q) feed(items[q]);
        i = k - 1;
        continue;
      }
    }
    feed(first);
  }
}

void BlockStream::make_texts() { impl_->b.make_texts(); }

int BlockStream::first_page_in_use() const { return impl_->b.first_page_in_use(); }

std::vector<Block> BlockStream::finish(std::vector<double>& sizes, std::vector<size_t>& join_ends) {
  Builder& b = impl_->b;
  b.close();
  b.make_texts();
  sizes = std::move(b.sizes);
  join_ends = std::move(b.join_ends);
  return std::move(b.out);
}

}  // namespace quire::detail
