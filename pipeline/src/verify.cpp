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

#include "quire/json.h"
#include "quire/parallel.h"
#include "quire/pipeline.h"
#include "quire/spill.h"
#include "quire/text.h"

namespace quire {

namespace fs = std::filesystem;

SourcePage source_page_words(const Page& p) {
  SourcePage sp;
  sp.number = p.number;
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
        sp.tokens.push_back(piece(sp.text.size(), t.size()));
        sp.text += t;
      }
    }
    sl.end_token = static_cast<uint32_t>(sp.tokens.size());
    if (sl.end_token > sl.first_token) sp.lines.push_back(sl);
    else sp.text.resize(line_start);  // a line without words is not kept
  }
  sp.text.shrink_to_fit();
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
      for (auto& t : whitespace_tokens(text)) counts_[store_.emplace_back(std::move(t))] += n;
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
};

// Words of one chapter group (chapters and excluded matter sharing pages): source minus
// furniture, with hyphen joins applied, against the chapters' blocks.
std::vector<WordDifference> verify_group(const Book& book, const Group& g, const PageIndex& index) {
  std::vector<WordDifference> diffs;
  Bag src, on_excluded;  // on_excluded: words of excluded-matter pages, which may be missing
  for (int p = g.first; p <= g.last; ++p) {
    auto it = index.source.find(p);
    if (it == index.source.end()) continue;
    const SourcePage& page = *it->second;
    for (const auto& l : page.lines) src.add(page, l);
    if (index.excluded.count(p))
      for (const auto& l : page.lines) on_excluded.add(page, l);
    for (const auto* r : PageIndex::at(index.removals, p)) src.add_text(r->text, -1);
    for (const auto* j : PageIndex::at(index.joins, p)) {
      src.add_text(j->before, -1);
      src.add_text(j->after, -1);
      src.add_text(j->joined, 1);
    }
  }
  Bag out;
  std::deque<std::string> with_marks;  // texts with their note marks put back (the bag views them)
  std::string chapter_name;
  for (size_t ci : g.chapters) {
    const Chapter& c = book.chapters[ci];
    if (chapter_name.empty()) chapter_name = c.title;
    for (const auto& b : c.blocks) {
      if (b.marks.empty()) out.add_text(b.text);
      else out.add_text(with_marks.emplace_back(text_with_marks(b.text, b.marks)));
      for (const auto& l : b.labels) out.add_text(l);
      out.add_text(b.title);  // a note's printed title, kept apart from its text
    }
  }
  // Where a word differs, find the page and line it comes from, for the report.
  auto locate = [&](const std::string& w) -> std::pair<int, std::string> {
    for (int p = g.first; p <= g.last; ++p) {
      auto it = index.source.find(p);
      if (it == index.source.end()) continue;
      const SourcePage& page = *it->second;
      for (const auto& l : page.lines)
        for (uint32_t k = l.first_token; k < l.end_token; ++k)
          if (page.view(page.tokens[k]) == w) return {p, clip(std::string(page.view(l.text)))};
    }
    return {g.first, ""};
  };
  auto locate_out = [&](const std::string& w) -> std::pair<int, std::string> {
    for (size_t ci : g.chapters)
      for (const auto& b : book.chapters[ci].blocks) {
        auto toks = whitespace_tokens(text_with_marks(b.text, b.marks));
        auto it = std::find(toks.begin(), toks.end(), w);
        if (it != toks.end()) {
          size_t at = static_cast<size_t>(it - toks.begin());
          std::string ctx;
          for (size_t k = at >= 4 ? at - 4 : 0; k < std::min(toks.size(), at + 5); ++k) ctx += (ctx.empty() ? "" : " ") + toks[k];
          return {b.page, ctx};
        }
      }
    return {g.first, ""};
  };
  // Only the words whose counts differ, in word order so that the report is deterministic.
  std::vector<std::string> differing;
  src.counts().for_each([&](std::string_view w, long n) {
    if (n != out.count(w)) differing.emplace_back(w);
  });
  out.counts().for_each([&](std::string_view w, long n) {
    if (n != 0 && !src.contains(w)) differing.emplace_back(w);
  });
  std::sort(differing.begin(), differing.end());
  for (const auto& w : differing) {
    long s = src.count(w);
    long o = out.count(w);
    if (s > o) {
      // Excluded matter (contents, index) shares the group: as many of the missing
      // occurrences as stand on its pages are accounted for.
      long missing = s - o;
      if (g.has_excluded) missing -= std::min(missing, std::max(0L, on_excluded.count(w)));
      if (missing == 0) continue;
      auto [page, ctx] = locate(w);
      for (long k = 0; k < missing; ++k) diffs.push_back({book.id, chapter_name, page, "missing", w, ctx});
    } else if (o > s) {
      auto [page, ctx] = locate_out(w);
      for (long k = 0; k < o - s; ++k) diffs.push_back({book.id, chapter_name, page, "added", w, ctx});
    }
  }
  return diffs;
}

}  // namespace

std::vector<WordDifference> verify_book(const Book& book, const std::vector<SourcePage>& source, int jobs) {
  std::vector<WordDifference> diffs;
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
  std::set<int> covered;
  for (const auto& g : groups)
    for (int p = g.first; p <= g.last; ++p) covered.insert(p);
  for (const auto& sp : source)
    if (!covered.count(sp.number)) {
      Bag left;
      for (const auto& l : sp.lines) left.add(sp, l);
      for (const auto* r : PageIndex::at(index.removals, sp.number)) left.add_text(r->text, -1);
      std::vector<std::pair<std::string, long>> sorted;
      left.counts().for_each([&](std::string_view w, long n) { sorted.emplace_back(std::string(w), n); });
      std::sort(sorted.begin(), sorted.end());
      for (const auto& [w, n] : sorted)
        for (long k = 0; k < n; ++k)
          diffs.push_back({book.id, "", sp.number, "missing", w, "page belongs to no chapter"});
    }

  std::vector<std::vector<WordDifference>> per_group(groups.size());
  // The largest chapters first: one chapter may hold a third of a reference manual.
  std::vector<size_t> group_pages(groups.size());
  for (size_t i = 0; i < groups.size(); ++i) group_pages[i] = static_cast<size_t>(groups[i].last - groups[i].first + 1);
  parallel_for_largest_first(group_pages, jobs, [&](size_t i) { per_group[i] = verify_group(book, groups[i], index); });
  for (auto& d : per_group) diffs.insert(diffs.end(), std::make_move_iterator(d.begin()), std::make_move_iterator(d.end()));
  return diffs;
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

VerifyReport verify_corpus(const std::string& out_dir, const std::string& pdf_dir, const ExtractOptions& extract) {
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
      auto diffs = verify_book(book, source_words(doc, extract.jobs), extract.jobs);
      report.books++;
      report.chapters += static_cast<int>(book.chapters.size());
      for (const auto& c : book.chapters)
        for (const auto& b : c.blocks) report.words += static_cast<int>(whitespace_tokens(text_with_marks(b.text, b.marks)).size());
      report.ocr_pages += static_cast<int>(book.ocr_pages.size());
      for (auto& d : diffs) report.differences.push_back(std::move(d));
    } catch (const Error& e) {
      report.errors.push_back(e.message());
    } catch (const std::exception& e) {
      report.errors.push_back(id + ": " + e.what());
    }
  }
  return report;
}

}  // namespace quire
