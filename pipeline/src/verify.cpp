// The wording check: proof, per chapter group, that the corpus has the source's words minus
// the logged furniture. Tokens are white-space separated and normalised the one way quire
// allows (ligatures, soft hyphens, NFC), so a changed character anywhere in a word shows.
#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include "quire/json.h"
#include "quire/parallel.h"
#include "quire/pipeline.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "findings.h"
#include "witness.h"

namespace quire {

namespace fs = std::filesystem;

SourcePage source_page_words(const Page& p) {
  SourcePage sp;
  sp.number = p.number;
  sp.width = static_cast<float>(p.width);
  sp.height = static_cast<float>(p.height);
  auto piece = [&](size_t offset, size_t size) {
    return SourcePage::Piece{static_cast<uint32_t>(offset), static_cast<uint32_t>(size)};
  };
  for (const auto& l : p.lines) {
    const size_t line_start = sp.text.size();
    sp.text += l.text();
    const std::string_view line = std::string_view(sp.text).substr(line_start);
    SourcePage::Line sl;
    sl.text = piece(line_start, line.size());
    sl.first_token = static_cast<uint32_t>(sp.tokens.size());
    if (is_ascii(line)) {
      auto is_space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
      size_t k = 0;
      while (k < line.size()) {
        while (k < line.size() && is_space(line[k])) ++k;
        size_t start = k;
        while (k < line.size() && !is_space(line[k])) ++k;
        if (k > start) sp.tokens.push_back(piece(line_start + start, k - start));
      }
    } else {
      for (const auto& t : whitespace_tokens(line)) {
        if (t.empty()) continue;  // a glyph that normalises to nothing (a lone soft hyphen)
        sp.tokens.push_back(piece(sp.text.size(), t.size()));
        sp.text += t;
      }
    }
    sl.end_token = static_cast<uint32_t>(sp.tokens.size());
    if (sl.end_token == sl.first_token) {
      sp.text.resize(line_start);  // a line without words is not kept
      continue;
    }
    sl.x0 = static_cast<float>(l.bbox.x0);
    sl.y0 = static_cast<float>(l.bbox.y0);
    sl.x1 = static_cast<float>(l.bbox.x1);
    sl.y1 = static_cast<float>(l.bbox.y1);
    // The font that sets most of the line's letters.
    const Span* main = nullptr;
    for (const auto& span : l.spans)
      if (!main || span.text.size() > main->text.size()) main = &span;
    if (main) {
      SourcePage::Font f{main->font, static_cast<float>(main->size)};
      auto it = std::find(sp.fonts.begin(), sp.fonts.end(), f);
      sl.font = static_cast<uint16_t>(it - sp.fonts.begin());
      if (it == sp.fonts.end()) sp.fonts.push_back(std::move(f));
    }
    sp.lines.push_back(sl);
  }
  // Kept from clean's first pass to the end of the check: only what the page fills.
  sp.text.shrink_to_fit();
  sp.tokens.shrink_to_fit();
  sp.lines.shrink_to_fit();
  return sp;
}

std::vector<SourcePage> source_words(const Document& extracted, int jobs) {
  std::vector<SourcePage> out(extracted.pages.size());
  read_pages(extracted, jobs, [&](size_t i, const Page& p) { out[i] = source_page_words(p); }, 8);
  return out;
}

namespace {

// Word counts in one flat open-addressing table (linear probing, power-of-two size): a book
// has hundreds of thousands of words, and a node per distinct word cost more than the
// counting itself.
class WordCounts {
 public:
  struct Entry {
    std::string_view word;
    long count = 0;
    bool used = false;
  };
  long& operator[](std::string_view w) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    Entry& e = slots_[find_slot(w)];
    if (!e.used) {
      e.used = true;
      e.word = w;
      ++size_;
    }
    return e.count;
  }
  const Entry* find(std::string_view w) const {
    if (slots_.empty()) return nullptr;
    const Entry& e = slots_[find_slot(w)];
    return e.used ? &e : nullptr;
  }
  template <class Fn>
  void for_each(Fn&& fn) const {
    for (const auto& e : slots_)
      if (e.used) fn(e.word, e.count);
  }

 private:
  size_t find_slot(std::string_view w) const {
    const size_t mask = slots_.size() - 1;
    for (size_t i = std::hash<std::string_view>{}(w) & mask;; i = (i + 1) & mask)
      if (!slots_[i].used || slots_[i].word == w) return i;
  }
  void grow() {
    std::vector<Entry> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Entry{});
    for (const auto& e : old)
      if (e.used) slots_[find_slot(e.word)] = e;
  }
  std::vector<Entry> slots_;
  size_t size_ = 0;
};

// A multiset of words. Words are views: into the text they come from when it is ASCII (the
// common case, which needs no normalisation), else into normalised copies the bag keeps.
// Every text added must outlive the bag.
class Bag {
 public:
  // The tokens of one source line (views into the page's buffer).
  void add(const SourcePage& page, const SourcePage::Line& line, long n = 1) {
    for (uint32_t k = line.first_token; k < line.end_token; ++k) counts_[page.view(page.tokens[k])] += n;
  }
  void add_text(std::string_view text, long n = 1) {
    if (!is_ascii(text)) {
      for_each_whitespace_token(text, [&](std::string_view word, bool in_text) {
        counts_[in_text ? word : std::string_view(store_.emplace_back(word))] += n;
      });
      return;
    }
    size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && is_space(text[i])) ++i;
      size_t start = i;
      while (i < text.size() && !is_space(text[i])) ++i;
      if (i > start) counts_[text.substr(start, i - start)] += n;
    }
  }
  long count(std::string_view w) const {
    const auto* e = counts_.find(w);
    return e ? e->count : 0;
  }
  bool contains(std::string_view w) const { return counts_.find(w) != nullptr; }
  const WordCounts& counts() const { return counts_; }

 private:
  static bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
  WordCounts counts_;
  std::deque<std::string> store_;  // stable addresses for the views
};

struct Group {
  int first = 0, last = 0;
  std::vector<size_t> chapters;
  bool has_excluded = false;
};

std::string clip(const std::string& s, size_t n = 100) {
  if (s.size() <= n) return s;
  size_t cut = n;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "...";
}

long token_count(std::string_view text) { return static_cast<long>(whitespace_token_count(text)); }

// What the book says about each page, looked up without inserting (groups run in parallel).
struct PageIndex {
  std::map<int, const SourcePage*> source;
  std::map<int, std::vector<const Removal*>> removals;
  std::map<int, std::vector<const HyphenJoin*>> joins;
  std::set<int> excluded;

  template <class V>
  static const V& at(const std::map<int, V>& m, int page) {
    static const V none{};
    auto it = m.find(page);
    return it == m.end() ? none : it->second;
  }
  const SourcePage* page(int p) const {
    auto it = source.find(p);
    return it == source.end() ? nullptr : it->second;
  }
};

// A block's box on the page, a little wider: a line's box and the box layout gave its block
// come from the same glyphs, but rounding and a raised mark's taller box may reach over.
constexpr double kBoxSlack = 1.5;  // points

bool line_meets(const SourcePage::Line& l, const Box& b) {
  return l.x0 < b.x1 + kBoxSlack && b.x0 - kBoxSlack < l.x1 && l.y0 < b.y1 + kBoxSlack && b.y0 - kBoxSlack < l.y1;
}

// Which chapter of a group a place on a page belongs to. A page that two chapters share is
// split where the later one begins: its first block, and what reads after it (below it in its
// column, or in a column to its right).
struct ChapterOfPlace {
  const Book& book;
  const Group& group;

  // Returns an index into group.chapters, or -1 for no chapter (a page of excluded matter).
  long operator()(int page, const Box* at) const {
    long found = -1;
    for (size_t k = 0; k < group.chapters.size(); ++k) {
      const Chapter& c = book.chapters[group.chapters[k]];
      if (page < c.first_page || page > c.last_page) continue;
      if (found < 0) {
        found = static_cast<long>(k);
        continue;
      }
      // A later chapter on a page already taken: does the place read after its start?
      if (page != c.first_page || c.blocks.empty() || !at) {
        if (page != c.first_page) found = static_cast<long>(k);
        continue;
      }
      const Block& start = c.blocks.front();
      if (start.page != page || start.bbox.empty()) continue;
      const bool right_of = at->x0 >= start.bbox.x1 - kBoxSlack;
      const bool same_column = at->x0 < start.bbox.x1 && start.bbox.x0 < at->x1;
      const bool below = (at->y0 + at->y1) / 2 >= start.bbox.y0 - kBoxSlack;
      if (right_of || (same_column && below)) found = static_cast<long>(k);
    }
    return found;
  }
};

// The tokens of the source lines that a box on a page meets, counted.
struct Inside {
  std::vector<std::string_view> tokens;  // sorted
  void add_lines(const SourcePage& page, const Box& box) {
    for (const auto& l : page.lines)
      if (line_meets(l, box))
        for (uint32_t k = l.first_token; k < l.end_token; ++k) tokens.push_back(page.view(page.tokens[k]));
  }
  void add_page(const SourcePage& page) {
    for (const auto& t : page.tokens) tokens.push_back(page.view(t));
  }
};

// The words of `words` that `inside` does not hold, counted (both sorted).
std::vector<std::string_view> excess(const std::vector<std::string_view>& words, const std::vector<std::string_view>& inside) {
  std::vector<std::string_view> out;
  std::set_difference(words.begin(), words.end(), inside.begin(), inside.end(), std::back_inserter(out));
  return out;
}

// True when the words are met in their order among the tokens, each at a token of its own
// (so the tokens hold them all, counted).
bool in_order(const std::vector<std::string_view>& words, const std::vector<std::string_view>& tokens) {
  size_t k = 0;
  for (const auto& w : words) {
    while (k < tokens.size() && tokens[k] != w) ++k;
    if (k == tokens.size()) return false;
    ++k;
  }
  return true;
}

struct GroupResult {
  std::vector<WordDifference> differences;
  std::vector<WordLedger> chapters;  // per group.chapters entry
  WordLedger outside;                // pages of the group that belong to no chapter
  std::map<int, long> excluded_on_page;
  std::map<std::string, long> explained;  // witness mode
};

// Words of one chapter group (chapters and excluded matter sharing pages): source minus
// furniture, with hyphen joins applied, against the chapters' blocks; then each block's
// words against its box on the page.
GroupResult verify_group(const Book& book, const Group& g, const PageIndex& index, bool witness) {
  GroupResult res;
  res.chapters.resize(g.chapters.size());
  const ChapterOfPlace chapter_of{book, g};
  auto ledger_at = [&](int page, const Box* at) -> WordLedger& {
    long k = chapter_of(page, at);
    return k < 0 ? res.outside : res.chapters[static_cast<size_t>(k)];
  };

  Bag src, on_excluded;  // on_excluded: words of excluded-matter pages, which may be missing
  for (int p = g.first; p <= g.last; ++p) {
    const SourcePage* page = index.page(p);
    if (!page) continue;
    for (const auto& l : page->lines) src.add(*page, l);
    if (index.excluded.count(p))
      for (const auto& l : page->lines) on_excluded.add(*page, l);
    for (const auto* r : PageIndex::at(index.removals, p)) {
      src.add_text(r->text, -1);
      ledger_at(p, &r->bbox).add_removed(r->reason, token_count(r->text));
    }
    for (const auto* j : PageIndex::at(index.joins, p)) {
      src.add_text(j->before, -1);
      src.add_text(j->after, -1);
      src.add_text(j->joined, 1);
    }
  }
  Bag out;
  std::deque<std::string> with_marks;  // texts with their note marks put back (the bag views them)
  for (size_t k = 0; k < g.chapters.size(); ++k) {
    const Chapter& c = book.chapters[g.chapters[k]];
    WordLedger& cl = res.chapters[k];
    for (const auto& b : c.blocks) {
      const std::string_view text =
          b.marks.empty() ? std::string_view(b.text) : std::string_view(with_marks.emplace_back(text_with_marks(b.text, b.marks)));
      out.add_text(text);
      cl.text += token_count(text);
      for (const auto& l : b.labels) {
        out.add_text(l);
        (b.type == BlockType::Figure ? cl.labels : cl.text) += token_count(l);
      }
      out.add_text(b.title);  // a note's printed title, kept apart from its text
      cl.text += token_count(b.title);
    }
  }
  // Where a word differs, find the page and line it comes from, for the report.
  struct Place {
    int page;
    Box box;
    std::string context;
  };
  auto locate = [&](const std::string& w) -> Place {
    for (int p = g.first; p <= g.last; ++p) {
      const SourcePage* page = index.page(p);
      if (!page) continue;
      for (const auto& l : page->lines)
        for (uint32_t k = l.first_token; k < l.end_token; ++k)
          if (page->view(page->tokens[k]) == w) return {p, Box{l.x0, l.y0, l.x1, l.y1}, clip(std::string(page->view(l.text)))};
    }
    return {g.first, Box{}, ""};
  };
  // The same for a word of excluded matter (an index holds tens of thousands): the first
  // place of each word on the group's excluded pages, found in one pass.
  std::unordered_map<std::string_view, Place> excluded_places;
  auto locate_excluded = [&](const std::string& w) -> Place {
    if (excluded_places.empty())
      for (int p = g.first; p <= g.last; ++p) {
        const SourcePage* page = index.page(p);
        if (!page || !index.excluded.count(p)) continue;
        for (const auto& l : page->lines)
          for (uint32_t k = l.first_token; k < l.end_token; ++k)
            excluded_places.try_emplace(page->view(page->tokens[k]), Place{p, Box{l.x0, l.y0, l.x1, l.y1}, std::string()});
      }
    auto it = excluded_places.find(w);
    return it != excluded_places.end() ? it->second : locate(w);
  };
  struct OutPlace {
    size_t chapter;
    int page;
    std::string context;
  };
  auto locate_out = [&](const std::string& w) -> OutPlace {
    for (size_t k = 0; k < g.chapters.size(); ++k)
      for (const auto& b : book.chapters[g.chapters[k]].blocks) {
        auto toks = whitespace_tokens(text_with_marks(b.text, b.marks));
        for (const auto& l : b.labels)
          for (auto& t : whitespace_tokens(l)) toks.push_back(std::move(t));
        auto it = std::find(toks.begin(), toks.end(), w);
        if (it != toks.end()) {
          size_t at = static_cast<size_t>(it - toks.begin());
          std::string ctx;
          for (size_t i = at >= 4 ? at - 4 : 0; i < std::min(toks.size(), at + 5); ++i) ctx += (ctx.empty() ? "" : " ") + toks[i];
          return {k, b.page, ctx};
        }
      }
    return {0, g.first, ""};
  };
  auto chapter_title = [&](long k) { return k < 0 ? std::string() : book.chapters[g.chapters[static_cast<size_t>(k)]].title; };
  // Only the words whose counts differ, in word order so that the report is deterministic.
  std::vector<std::string> differing;
  src.counts().for_each([&](std::string_view w, long n) {
    if (n != out.count(w)) differing.emplace_back(w);
  });
  out.counts().for_each([&](std::string_view w, long n) {
    if (n != 0 && !src.contains(w)) differing.emplace_back(w);
  });
  std::sort(differing.begin(), differing.end());
  WordTally missing_words, added_words;
  for (const auto& w : differing) {
    long s = src.count(w);
    long o = out.count(w);
    if (s > o) {
      // Excluded matter (contents, index) shares the group: as many of the missing
      // occurrences as stand on its pages are accounted for.
      long missing = s - o;
      if (g.has_excluded) {
        const long left_out = std::min(missing, std::max(0L, on_excluded.count(w)));
        if (left_out) {
          const Place at = locate_excluded(w);
          missing -= left_out;
          ledger_at(at.page, &at.box).excluded += left_out;
          res.excluded_on_page[at.page] += left_out;
        }
      }
      if (missing) missing_words[w] = missing;
    } else if (o > s) {
      added_words[w] = o - s;
    }
  }
  // Words read by another engine than the corpus's: what the engines are known to do apart
  // is counted, not reported.
  if (witness) {
    const auto explained = explain_engine_differences(missing_words, added_words);
    for (const auto& [kind, n] : explained) res.explained[kind] += n;
  }
  for (const auto& [w, missing] : missing_words) {
    const Place at = locate(w);
    const long k = chapter_of(at.page, &at.box);
    (k < 0 ? res.outside : res.chapters[static_cast<size_t>(k)]).missing += missing;
    for (long i = 0; i < missing; ++i) res.differences.push_back({book.id, chapter_title(k), at.page, "missing", w, at.context});
  }
  for (const auto& [w, added] : added_words) {
    const OutPlace at = locate_out(w);
    res.chapters[at.chapter].added += added;
    for (long i = 0; i < added; ++i)
      res.differences.push_back({book.id, chapter_title(static_cast<long>(at.chapter)), at.page, "added", w, at.context});
  }

  // Every block's words must stand inside its box, a figure's labels inside the figure: a
  // word counted in the right chapter but in the wrong account (a paragraph in a figure's
  // labels, a word in another block) is a difference too. Words the count above already
  // reports as added are not reported again. A witness checks what the words are, not where:
  // its lines are drawn apart from the engine's that made the corpus's boxes.
  for (size_t k = 0; k < g.chapters.size() && !witness; ++k) {
    const Chapter& c = book.chapters[g.chapters[k]];
    int figure_number = 0;
    for (const auto& b : c.blocks) {
      if (b.type == BlockType::Figure) ++figure_number;
      const SourcePage* page = index.page(b.page);
      if (!page || b.bbox.empty()) continue;
      // The block's words, as views (no string per word: this reads every word of the book).
      WordViews owned;
      std::string marked;
      if (b.type == BlockType::Figure) {
        for (const auto& l : b.labels) owned.add(l);
      } else {
        // (A heading's opener label may stand apart.)
        owned.add(b.marks.empty() ? std::string_view(b.text) : std::string_view(marked = text_with_marks(b.text, b.marks)));
      }
      if (owned.words().empty()) continue;
      Inside inside;
      inside.add_lines(*page, b.bbox);
      // A block that goes on over a page break: its box is on its first page only.
      for (int p = b.page + 1; p <= b.last_page; ++p)
        if (const SourcePage* next = index.page(p)) inside.add_page(*next);
      std::deque<std::string> joined;
      for (int p = b.page - 1; p <= std::max(b.page, b.last_page); ++p)
        for (const auto* j : PageIndex::at(index.joins, p))
          for (auto& t : whitespace_tokens(j->joined)) inside.tokens.push_back(joined.emplace_back(std::move(t)));
      // Most blocks read their lines' words in the lines' order: then every word has its own
      // token in the box, and no sorting is needed to tell.
      if (in_order(owned.words(), inside.tokens)) continue;
      std::sort(inside.tokens.begin(), inside.tokens.end());
      std::vector<std::string_view>& words = owned.words();
      std::sort(words.begin(), words.end());
      for (std::string_view w : excess(words, inside.tokens)) {
        auto it = added_words.find(w);
        if (it != added_words.end() && it->second > 0) {
          --it->second;  // reported as added
          continue;
        }
        res.chapters[k].misplaced++;
        std::string where = b.type == BlockType::Figure
                                ? "in the labels of figure " + std::to_string(figure_number) + ", outside its box"
                                : std::string("in a ") + to_string(b.type) + " block, outside its box";
        res.differences.push_back({book.id, c.title, b.page, "misplaced", std::string(w), where});
      }
    }
  }
  for (auto& l : res.chapters) l.extracted = l.text + l.labels + l.removed_total() + l.excluded + l.missing - l.added;
  res.outside.extracted = res.outside.removed_total() + res.outside.excluded + res.outside.missing;
  return res;
}

}  // namespace

BookCheck verify_book(const Book& book, const std::vector<SourcePage>& source, int jobs, const VerifyOptions& options) {
  BookCheck check;
  check.chapters.resize(book.chapters.size());
  check.excluded_words.assign(book.excluded.size(), 0);
  // Page ranges of chapters and of excluded matter, merged where they share a page.
  struct Range {
    int first, last;
    long chapter;  // -1 for excluded matter
  };
  std::vector<Range> ranges;
  for (size_t i = 0; i < book.chapters.size(); ++i)
    ranges.push_back({book.chapters[i].first_page, book.chapters[i].last_page, static_cast<long>(i)});
  for (const auto& e : book.excluded) ranges.push_back({e.first_page, e.last_page, -1});
  std::stable_sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.first < b.first; });
  std::vector<Group> groups;
  for (const auto& r : ranges) {
    if (groups.empty() || r.first > groups.back().last) groups.push_back({r.first, r.last, {}, false});
    Group& g = groups.back();
    g.last = std::max(g.last, r.last);
    if (r.chapter >= 0) g.chapters.push_back(static_cast<size_t>(r.chapter));
    else g.has_excluded = true;
  }
  PageIndex index;
  for (const auto& e : book.excluded)
    for (int p = e.first_page; p <= e.last_page; ++p) index.excluded.insert(p);
  for (const auto& sp : source) index.source[sp.number] = &sp;
  for (const auto& r : book.removed) index.removals[r.page].push_back(&r);
  for (const auto& j : book.joins) index.joins[j.page].push_back(&j);

  // Pages that belong to no chapter and no excluded matter must have no words left.
  WordLedger outside;
  std::set<int> covered;
  for (const auto& g : groups)
    for (int p = g.first; p <= g.last; ++p) covered.insert(p);
  for (const auto& sp : source)
    if (!covered.count(sp.number)) {
      Bag left;
      for (const auto& l : sp.lines) left.add(sp, l);
      for (const auto* r : PageIndex::at(index.removals, sp.number)) {
        left.add_text(r->text, -1);
        outside.add_removed(r->reason, token_count(r->text));
      }
      std::vector<std::pair<std::string, long>> sorted;
      left.counts().for_each([&](std::string_view w, long n) { sorted.emplace_back(std::string(w), n); });
      std::sort(sorted.begin(), sorted.end());
      for (const auto& [w, n] : sorted)
        for (long k = 0; k < n; ++k) {
          check.differences.push_back({book.id, "", sp.number, "missing", w, "page belongs to no chapter"});
          outside.missing++;
        }
    }

  std::vector<GroupResult> per_group(groups.size());
  // The largest chapters first: one chapter may hold a third of a reference manual. The
  // search for suspicious exits reads every page and no group's result: it is one more piece
  // of the work (the last index), costed at the book's pages, rather than a tail after it.
  std::vector<size_t> cost(groups.size() + 1);
  for (size_t i = 0; i < groups.size(); ++i) cost[i] = static_cast<size_t>(groups[i].last - groups[i].first + 1);
  cost[groups.size()] = source.size();
  parallel_for_largest_first(cost, jobs, [&](size_t i) {
    if (i == groups.size()) check.findings = find_suspicious_exits(book, source, options.findings);
    else per_group[i] = verify_group(book, groups[i], index, options.witness);
  });
  for (size_t i = 0; i < groups.size(); ++i) {
    auto& r = per_group[i];
    check.differences.insert(check.differences.end(), std::make_move_iterator(r.differences.begin()),
                             std::make_move_iterator(r.differences.end()));
    for (size_t k = 0; k < groups[i].chapters.size(); ++k) check.chapters[groups[i].chapters[k]] = r.chapters[k];
    outside.add(r.outside);
    // A page two kinds of matter share (a contents entry carried to the top of the copyright
    // page) is counted to the one that starts on it.
    for (const auto& [page, n] : r.excluded_on_page) {
      size_t owner = book.excluded.size();
      for (size_t e = 0; e < book.excluded.size(); ++e)
        if (page >= book.excluded[e].first_page && page <= book.excluded[e].last_page &&
            (owner == book.excluded.size() || book.excluded[e].first_page > book.excluded[owner].first_page))
          owner = e;
      if (owner < book.excluded.size()) check.excluded_words[owner] += n;
    }
  }
  outside.extracted = outside.removed_total() + outside.excluded + outside.missing;
  for (const auto& l : check.chapters) check.book.add(l);
  check.book.add(outside);
  std::map<std::string, long> explained;
  for (const auto& r : per_group)
    for (const auto& [kind, n] : r.explained) explained[kind] += n;
  check.explained.assign(explained.begin(), explained.end());
  return check;
}

void set_ledgers(Book& book, const BookCheck& check) {
  for (size_t i = 0; i < book.chapters.size() && i < check.chapters.size(); ++i) book.chapters[i].ledger = check.chapters[i];
  for (size_t i = 0; i < book.excluded.size() && i < check.excluded_words.size(); ++i) book.excluded[i].words = check.excluded_words[i];
  book.ledger = check.book;
}

namespace {

Book read_book_json(const fs::path& dir) {
  std::ifstream in(dir / "book.json");
  if (!in) throw Error(ExitCode::NotFound, (dir / "book.json").string(), 0, "missing book.json");
  Json j = Json::parse(in);
  Book b;
  b.id = j.at("id");
  b.file = j.at("source").at("file");
  for (const auto& e : j.value("excluded", Json::array()))
    b.excluded.push_back({e.at("title"), e.at("kind"), e.at("pages")[0], e.at("pages")[1]});
  for (const auto& jn : j.value("joins", Json::array())) b.joins.push_back(join_from_json(jn));
  b.ocr_pages = j.value("ocr_pages", std::vector<int>{});
  std::ifstream rin(dir / "removed.jsonl");
  std::string line;
  while (std::getline(rin, line))
    if (!line.empty()) b.removed.push_back(removal_from_json(Json::parse(line)));
  for (const auto& cj : j.at("chapters")) {
    Chapter c;
    c.title = cj.at("title");
    c.first_page = cj.at("pages")[0];
    c.last_page = cj.at("pages")[1];
    std::ifstream cin(dir.parent_path().parent_path() / cj.at("blocks").get<std::string>());
    if (!cin) throw Error(ExitCode::NotFound, cj.at("blocks").get<std::string>(), 0, "missing chapter file");
    Json cjj = Json::parse(cin);
    for (const auto& bl : cjj.at("blocks")) c.blocks.push_back(block_from_json(bl));
    b.chapters.push_back(std::move(c));
  }
  return b;
}

}  // namespace

VerifyReport verify_corpus(const std::string& out_dir, const std::string& pdf_dir, const ExtractOptions& extract,
                           const VerifyOptions& options) {
  VerifyReport report;
  std::ifstream min(fs::path(out_dir) / "manifest.json");
  if (!min) throw Error(ExitCode::NotFound, out_dir, 0, "no manifest.json: not a quire corpus");
  Json manifest = Json::parse(min);
  for (const auto& bj : manifest.at("books")) {
    std::string id = bj.at("id");
    std::string file = bj.at("source").at("file");
    try {
      Book book = read_book_json(fs::path(out_dir) / "books" / id);
      Document doc = extract_document((fs::path(pdf_dir) / file).string(), extract);
      if (doc.sha256 != bj.at("source").value("sha256", doc.sha256))
        report.errors.push_back(file + ": the PDF is not the one the corpus was built from (sha256 differs)");
      BookCheck check = verify_book(book, source_words(doc, extract.jobs), extract.jobs, options);
      report.books++;
      report.chapters += static_cast<int>(book.chapters.size());
      for (const auto& c : book.chapters)
        for (const auto& b : c.blocks) report.words += static_cast<int>(whitespace_token_count(text_with_marks(b.text, b.marks)));
      report.ocr_pages += static_cast<int>(book.ocr_pages.size());
      for (auto& d : check.differences) report.differences.push_back(std::move(d));
      for (auto& f : check.findings) report.findings.push_back(std::move(f));
      report.ledgers.emplace_back(id, check.book);
      // (Not a structured binding: clang before 16, which builds the fuzz targets, cannot
      // capture one in a lambda.)
      for (const auto& known : check.explained) {
        auto it = std::find_if(report.explained.begin(), report.explained.end(),
                               [&](const auto& e) { return e.first == known.first; });
        if (it == report.explained.end()) report.explained.push_back(known);
        else it->second += known.second;
      }
    } catch (const Error& e) {
      report.errors.push_back(e.message());
    } catch (const std::exception& e) {
      report.errors.push_back(id + ": " + e.what());
    }
  }
  return report;
}

}  // namespace quire
