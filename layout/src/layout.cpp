// layout_document: pages -> rows in reading order -> blocks -> chapters.
#include "quire/layout.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <regex>
#include <thread>

#include "figures.h"
#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "chapters.h"

namespace quire {

using detail::BookStats;
using detail::heading_starts;
using detail::link_figure_references;
using detail::lower_ascii;
using detail::matter_kind_from_title;
using detail::outline_starts;
using detail::place_footnotes;
using detail::split_title;
using detail::squash;
using detail::Start;
using detail::TitleParts;
using detail::word_count;

namespace {

// A chapter opener printed as a label and a title ("Chapter 1" over "External services",
// "CHAPTER 3. Tables", "Appendix A Glossary"): the label is not part of the title, so it
// moves to the heading's labels, whole tokens only (the wording check counts labels too).
// When the label stands as a heading of its own, the title heading below it on the same page
// takes it.
void split_opener_label(std::vector<Block>& blocks) {
  if (blocks.empty() || blocks[0].type != BlockType::Heading || blocks[0].level != 1 || !blocks[0].labels.empty()) return;
  auto tokens = whitespace_tokens(blocks[0].text);
  // (A part's label stays: "Part II" titles the part.)
  if (tokens.size() < 2 || !detail::opener_word(tokens[0]) || tokens[0] == "Part" || tokens[0] == "PART" ||
      !detail::opener_number(tokens[1]))
    return;
  std::string label = tokens[0] + " " + tokens[1];
  if (tokens.size() > 2) {
    std::string title;
    for (size_t i = 2; i < tokens.size(); ++i) title += (title.empty() ? "" : " ") + tokens[i];
    const std::string before = std::move(blocks[0].text);
    blocks[0].text = title;
    blocks[0].labels = {label};
    detail::remap_inline(blocks[0], before);
    return;
  }
  if (blocks.size() > 1 && blocks[1].type == BlockType::Heading && blocks[1].page == blocks[0].page &&
      blocks[1].labels.empty() && !whitespace_tokens(blocks[1].text).empty()) {
    Block& title = blocks[1];
    title.labels = {label};
    title.level = 1;
    title.bbox = title.bbox.united(blocks[0].bbox);
    blocks.erase(blocks.begin());
  }
}

// Keeps the joins of blocks that are in a chapter (block i made joins
// [join_ends[i-1], join_ends[i])).
void keep_joins(LayoutResult& res, const std::vector<bool>& kept, const std::vector<size_t>& join_ends) {
  std::vector<HyphenJoin> joins;
  size_t from = 0;
  for (size_t i = 0; i < join_ends.size(); ++i) {
    if (kept[i])
      for (size_t k = from; k < join_ends[i] && k < res.joins.size(); ++k) joins.push_back(res.joins[k]);
    from = join_ends[i];
  }
  res.joins = std::move(joins);
}

}  // namespace

LayoutResult layout_document(const Document& doc, const LayoutOptions& o) {
  LayoutResult res;
  std::vector<detail::PageLines> lines;
  detail::WordEvidence ev;
  BookStats st = detail::measure_book(doc, lines, o, ev);
  // Pages go through block building in page order, a window at a time: each page's reading
  // order on its own (pages are independent until blocks join them), then the window's items
  // in page order. Blocks point at their rows until their texts are made, and the block open
  // at a page break at the rows before it; the items and line facts of pages behind both are
  // let go. (The pages themselves are the caller's: freeing them here, on the threads that
  // lay out, made layout ~20% slower at two jobs and left the peak RSS of a build where it
  // was.)
  const size_t n = doc.pages.size();
  const size_t window = 32 * static_cast<size_t>(std::max(1, o.jobs));
  std::vector<std::vector<detail::Item>> page_items(n);
  std::vector<detail::PageDecor> page_decor(n);
  std::map<int, double> number_share;  // page -> share of lines ending with a page number
  std::vector<double> page_share(n);
  // Blocks are made on one thread: with more jobs, the others read the pages ahead.
  LayoutOptions stream_options = o;
  stream_options.jobs = 1;
  detail::BlockStream stream(st, ev, stream_options, res.joins);
  size_t kept_from = 0;  // pages before it are let go
  // Pages brought back from the spill file, held while their items are (rows point at
  // their lines).
  std::vector<std::unique_ptr<Page>> brought_back(n);
  auto let_go = [&](size_t i) {
    std::vector<detail::Item>().swap(page_items[i]);
    page_decor[i] = detail::PageDecor();
    lines[i] = detail::PageLines();
    brought_back[i].reset();
  };
  auto read_page = [&](size_t i) {
    const Page* page = &doc.pages[i];
    if (doc.spill && doc.spill->spilled(i)) {
      brought_back[i] = std::make_unique<Page>(doc.pages[i]);
      doc.spill->load(i, *brought_back[i]);
      page = brought_back[i].get();
      lines[i] = detail::PageLines(*page, o);  // (let go by collect_words)
    }
    page_items[i] = detail::page_items(*page, lines[i], st, o);
    page_decor[i] = detail::page_decor(*page, o);
    page_share[i] = detail::page_number_line_share(*page, lines[i], o);
  };
  // Feeds page i (its items ready) to the blocks; at the end of a window, makes the texts of
  // the blocks done and lets go the pages no block points at any more.
  auto feed = [&](size_t i) {
    stream.add_page(page_items[i], page_decor[i]);
    number_share[doc.pages[i].number] = page_share[i];
    if ((i + 1) % window != 0 && i + 1 != n) return;
    stream.make_texts();
    const int in_use = stream.first_page_in_use();
    while (kept_from <= i && doc.pages[kept_from].number < in_use) let_go(kept_from++);
  };
  if (o.jobs <= 1 || n <= 1) {
    for (size_t i = 0; i < n; ++i) {
      read_page(i);
      feed(i);
    }
  } else {
    // The other threads read pages ahead (at most two windows) while this one feeds them in
    // order, reading pages itself while the next is not ready. Which thread reads a page
    // changes nothing in it.
    const size_t ahead = 2 * window;
    std::atomic<size_t> claimed{0};
    size_t fed = 0;  // guarded by m
    std::vector<char> ready(n, 0);  // guarded by m
    std::mutex m;
    std::condition_variable changed;
    std::exception_ptr failure;  // guarded by m
    auto read_claimed = [&](size_t i) {
      std::exception_ptr e;
      try {
        read_page(i);
      } catch (...) {
        e = std::current_exception();
      }
      std::lock_guard lock(m);
      ready[i] = 1;
      if (e && !failure) failure = e;
      changed.notify_all();
    };
    auto helper = [&] {
      for (;;) {
        const size_t i = claimed.fetch_add(1);
        if (i >= n) return;
        {
          std::unique_lock lock(m);
          changed.wait(lock, [&] { return i < fed + ahead || failure; });
          if (failure) return;
        }
        read_claimed(i);
      }
    };
    std::vector<std::thread> helpers;
    for (int t = 1; t < o.jobs; ++t) helpers.emplace_back(helper);
    std::exception_ptr stopped;
    try {
      for (size_t i = 0; i < n; ++i) {
        for (;;) {
          {
            std::unique_lock lock(m);
            if (failure) std::rethrow_exception(failure);
            if (ready[i]) break;
          }
          // Not ready: read the next unclaimed page within reach, or wait for page i.
          size_t j = claimed.load();
          if (j < n && j < i + ahead && claimed.compare_exchange_strong(j, j + 1)) {
            read_claimed(j);
            continue;
          }
          std::unique_lock lock(m);
          changed.wait(lock, [&] { return ready[i] || failure; });
        }
        feed(i);
        std::lock_guard lock(m);
        fed = i + 1;
        changed.notify_all();
      }
    } catch (...) {
      stopped = std::current_exception();
      std::lock_guard lock(m);
      if (!failure) failure = stopped;
      claimed = n;
      changed.notify_all();
    }
    for (auto& t : helpers) t.join();
    if (stopped) std::rethrow_exception(stopped);
  }
  std::vector<double> sizes;
  std::vector<size_t> join_ends;
  std::vector<Block> blocks = stream.finish(sizes, join_ends);
  for (size_t i = kept_from; i < n; ++i) let_go(i);
  // Blocks that end up in a chapter. Joins made inside excluded matter (a copyright page's
  // prose) are dropped: those words are not in the corpus, and the wording check accounts
  // for excluded pages by their printed tokens, unjoined.
  std::vector<bool> kept(blocks.size(), false);
  auto keep = [&](const Block* b) { kept[static_cast<size_t>(b - blocks.data())] = true; };
  if (doc.pages.empty()) {
    res.warnings.push_back("no pages");
    return res;
  }
  const int first_page = doc.pages.front().number, last_page = doc.pages.back().number;

  int chapter_level = 1;
  std::vector<Start> starts = outline_starts(doc, chapter_level);
  bool from_outline = !starts.empty();
  if (!from_outline) starts = heading_starts(blocks, sizes, o);

  // Blocks -> the start they belong to (-1: before the first chapter).
  std::vector<std::vector<const Block*>> parts(starts.size());
  std::vector<const Block*> before;
  {
    size_t k = 0;
    long cur = -1;
    for (size_t i = 0; i < blocks.size(); ++i) {
      const Block& b = blocks[i];
      // (A destination may point inside a heading's first line: a large title's top stands
      // well above the point an outline entry names.)
      const double tolerance =
          b.type == BlockType::Heading ? std::max(o.outline_y_tolerance, 0.75 * sizes[i]) : o.outline_y_tolerance;
      while (k < starts.size() &&
             (starts[k].page < b.page || (starts[k].page == b.page && starts[k].y <= b.bbox.y0 + tolerance))) {
        cur = static_cast<long>(k);
        ++k;
      }
      // Part openers give their pages to the chapter that follows.
      long owner = cur;
      while (owner >= 0 && static_cast<size_t>(owner) + 1 < starts.size() && starts[owner].part) ++owner;
      if (owner < 0) before.push_back(&b);
      else parts[owner].push_back(&b);
    }
  }

  auto page_range = [](const std::vector<const Block*>& bs, int& f, int& l) {
    f = INT32_MAX;
    l = 0;
    for (const auto* b : bs) {
      f = std::min(f, b->page);
      l = std::max(l, std::max(b->page, b->last_page));
    }
  };

  // Matter before the first chapter: contents pages by their page-number column, the
  // title and copyright pages by position and wording; prose pages make a front chapter.
  {
    std::map<int, std::vector<const Block*>> by_page;
    for (const auto* b : before) by_page[b->page].push_back(b);
    int front_end = starts.empty() ? first_page - 1 : starts.front().page - 1;
    for (int p = first_page; p <= front_end; ++p) by_page[p];
    std::vector<std::pair<std::string, int>> kinds;  // kind per page, in order
    for (const auto& [p, bs] : by_page) {
      std::string kind;
      std::string text;
      for (const auto* b : bs) text += " " + lower_ascii(b->text);
      if (number_share[p] >= o.page_number_line_share) kind = "contents";
      else if (text.find("copyright") != std::string::npos || text.find("\u00a9") != std::string::npos ||
               text.find("isbn") != std::string::npos)
        kind = "copyright";
      else if (word_count(bs) >= o.min_prose_page_words) kind = "";  // prose: a preface without a bookmark
      else if (!kinds.empty() && kinds.back().first.empty()) kind = "";  // its listing or figure page
      else if (p == first_page || (!kinds.empty() && kinds.back().first == "title-page")) kind = "title-page";
      else kind = "front-matter";
      kinds.push_back({kind, p});
    }
    std::vector<const Block*> front_blocks;
    for (size_t i = 0; i < kinds.size();) {
      size_t j = i;
      while (j < kinds.size() && kinds[j].first == kinds[i].first) ++j;
      int f = kinds[i].second, l = kinds[j - 1].second;
      if (kinds[i].first.empty() || o.keep_matter) {
        for (size_t k = i; k < j; ++k)
          for (const auto* b : by_page[kinds[k].second]) front_blocks.push_back(b);
      } else {
        static const std::map<std::string, std::string> titles = {{"contents", "Contents"},
                                                                  {"copyright", "Copyright"},
                                                                  {"title-page", "Title page"},
                                                                  {"front-matter", "Front matter"}};
        res.excluded.push_back({titles.at(kinds[i].first), kinds[i].first, f, l});
      }
      i = j;
    }
    if (!front_blocks.empty()) {
      Chapter c;
      c.kind = ChapterKind::Front;
      for (const auto* b : front_blocks)
        if (b->type == BlockType::Heading && c.title.empty()) c.title = b->text;
      if (c.title.empty()) c.title = "Front matter";
      for (const auto* b : front_blocks) {
        c.blocks.push_back(*b);
        keep(b);
      }
      page_range(front_blocks, c.first_page, c.last_page);
      res.chapters.push_back(std::move(c));
    }
  }

  if (starts.empty()) {
    // No outline and no chapter headings: one chapter.
    res.warnings.push_back("no outline and no chapter headings: the book is one chapter");
    Chapter c;
    c.title = !doc.metadata.title.empty() ? doc.metadata.title : doc.file;
    c.blocks = std::move(blocks);
    c.first_page = first_page;
    c.last_page = last_page;
    res.chapters.clear();
    res.excluded.clear();
    res.chapters.push_back(std::move(c));
    std::fill(kept.begin(), kept.end(), true);
    keep_joins(res, kept, join_ends);
    place_footnotes(res.chapters);
    link_figure_references(res.chapters);
    detail::anchor_links(res.chapters, o);
    return res;
  }

  // Outline entries below the chapter level, for heading levels.
  struct Sub {
    int page;
    std::string key;
    int level;
  };
  std::vector<Sub> subs;
  for (const auto& e : doc.outline)
    if (e.page > 0) subs.push_back({e.page, squash(split_title(e.title).title), e.level - chapter_level + 1});
  // Heading sizes -> levels, learned from the headings the outline names.
  std::map<long, std::map<int, int>> size_levels;
  auto outline_level = [&](const Block& b) {
    std::string key = squash(b.text);
    for (const auto& s : subs)
      if (std::abs(s.page - b.page) <= 1 && !s.key.empty() && key.size() >= s.key.size() &&
          key.compare(key.size() - s.key.size(), s.key.size(), s.key) == 0)
        return s.level;
    return 0;
  };
  for (size_t i = 0; i < blocks.size(); ++i)
    if (blocks[i].type == BlockType::Heading)
      if (int lv = outline_level(blocks[i]); lv > 0) size_levels[std::lround(sizes[i] * 2)][lv]++;
  std::vector<double> heading_sizes;
  for (size_t i = 0; i < blocks.size(); ++i)
    if (blocks[i].type == BlockType::Heading) heading_sizes.push_back(std::round(sizes[i] * 2) / 2);
  std::sort(heading_sizes.begin(), heading_sizes.end(), std::greater<>());
  heading_sizes.erase(std::unique(heading_sizes.begin(), heading_sizes.end()), heading_sizes.end());
  auto level_of = [&](const Block& b, double size) {
    if (int lv = outline_level(b); lv > 0) return std::max(1, lv);
    auto it = size_levels.find(std::lround(size * 2));
    if (it != size_levels.end()) {
      int best = 0, n = -1;
      for (const auto& [lv, c] : it->second)
        if (c > n) { best = lv; n = c; }
      return std::max(1, best);
    }
    auto pos = std::find(heading_sizes.begin(), heading_sizes.end(), std::round(size * 2) / 2);
    return std::min(6, static_cast<int>(pos - heading_sizes.begin()) + 1);
  };
  std::map<const Block*, double> size_of;
  for (size_t i = 0; i < blocks.size(); ++i) size_of[&blocks[i]] = sizes[i];

  int numbered_seen = 0;
  int last_numbered_chapter = -1;
  std::vector<TitleParts> tps;
  for (const auto& s : starts) tps.push_back(split_title(s.title));
  // "A References" after numbered chapters: a lettered appendix (before them, a leading
  // capital is more likely an article: "A Tour of ...").
  static const std::regex letter_first(R"(^\s*([A-Z])\s+(\S.*)$)");
  bool digits_seen = false;
  for (size_t i = 0; i < tps.size(); ++i) {
    std::smatch m;
    if (!tps[i].number.empty() && std::isdigit(static_cast<unsigned char>(tps[i].number[0]))) digits_seen = true;
    else if (digits_seen && tps[i].number.empty() && std::regex_match(starts[i].title, m, letter_first)) {
      tps[i].number = m[1];
      tps[i].title = m[2];
      tps[i].appendix = true;
    }
  }
  // A title without its number in the outline ("Getting Started") takes the number of the
  // opener label printed over it ("CHAPTER ONE", "Appendix A").
  for (size_t i = 0; i < tps.size(); ++i) {
    if (!tps[i].number.empty() || starts[i].part || parts[i].empty() || parts[i].front()->type != BlockType::Heading)
      continue;
    const auto tokens = whitespace_tokens(parts[i].front()->text);
    if (tokens.size() < 2 || !detail::opener_word(tokens[0]) || lower_ascii(tokens[0]) == "part" ||
        !detail::opener_number(tokens[1]))
      continue;
    tps[i].number = detail::opener_number_value(tokens[1]);
    tps[i].appendix = lower_ascii(tokens[0]) == "appendix";
  }
  for (size_t i = 0; i < tps.size(); ++i)
    if (!tps[i].number.empty()) last_numbered_chapter = static_cast<int>(i);
  for (size_t i = 0; i < starts.size(); ++i) {
    if (starts[i].part && i + 1 < starts.size()) continue;
    const auto& bs = parts[i];
    const TitleParts& tp = tps[i];
    Chapter c;
    c.title = tp.title;
    c.number = tp.number;
    if (tp.appendix) c.kind = ChapterKind::Appendix;
    else if (!tp.number.empty()) c.kind = ChapterKind::Body;
    else if (numbered_seen == 0) c.kind = ChapterKind::Front;
    else if (static_cast<int>(i) > last_numbered_chapter) c.kind = ChapterKind::Back;
    if (!tp.number.empty()) ++numbered_seen;
    int f = starts[i].page, l = starts[i].page;
    if (!bs.empty()) {
      page_range(bs, f, l);
      f = std::min(f, starts[i].page);
    }
    // Pages up to the next chapter (blank versos and pages of furniture only) are this
    // chapter's, so every page belongs somewhere.
    int next = i + 1 < starts.size() ? starts[i + 1].page : last_page + 1;
    l = std::max(l, next - 1);
    l = std::min(l, last_page);
    c.first_page = f;
    c.last_page = std::max(f, l);
    bool first_heading = true;
    for (const auto* b : bs) {
      // Each block is in one chapter: it moves there (a copy would hold the book's blocks
      // twice, the largest thing in memory at this point).
      Block nb = std::move(blocks[static_cast<size_t>(b - blocks.data())]);
      if (nb.type == BlockType::Heading) {
        nb.level = first_heading && b == bs.front() ? 1 : level_of(nb, size_of[b]);
        if (nb.level == 1 && b != bs.front()) nb.level = 2;
        first_heading = false;
      }
      c.blocks.push_back(std::move(nb));
    }
    split_opener_label(c.blocks);
    // An opener label set as a heading of its own ("Chapter 2" over the title) opened the
    // chapter, and the title below took the label: the chapter is named by the title.
    if (!from_outline && !c.blocks.empty() && c.blocks[0].type == BlockType::Heading &&
        c.blocks[0].labels.size() == 1 && c.title == c.blocks[0].labels[0])
      c.title = split_title(c.blocks[0].text).title;
    // Matter kept out of the corpus: by title, or by layout (lines ending with page numbers).
    std::string kind = matter_kind_from_title(c.title);
    if (kind.empty()) {
      int pages = 0, numbered = 0;
      for (int p = c.first_page; p <= c.last_page; ++p) {
        ++pages;
        if (number_share[p] >= o.page_number_line_share) ++numbered;
      }
      if (pages > 0 && numbered * 2 > pages) kind = numbered_seen == 0 ? "contents" : "index";
    }
    // The title page as the outline's first entry, named by the book's title (Asciidoctor
    // PDF and DocBook bookmark it): the book's first page, or the first two (a title page
    // and its verso), with little prose on them.
    if (kind.empty() && i == 0 && c.first_page == first_page && c.last_page <= first_page + 1 &&
        !doc.metadata.title.empty() && squash(c.title) == squash(doc.metadata.title) &&
        word_count(bs) < o.min_prose_page_words)
      kind = "title-page";
    if (!kind.empty() && !o.keep_matter) {
      res.excluded.push_back({c.title, kind, c.first_page, c.last_page});
      continue;
    }
    if (!kind.empty()) c.kind = numbered_seen == 0 ? ChapterKind::Front : ChapterKind::Back;
    for (const auto* b : bs) keep(b);
    res.chapters.push_back(std::move(c));
  }

  keep_joins(res, kept, join_ends);
  place_footnotes(res.chapters);
  link_figure_references(res.chapters);
  detail::anchor_links(res.chapters, o);
  std::stable_sort(res.excluded.begin(), res.excluded.end(),
                   [](const ExcludedMatter& a, const ExcludedMatter& b) { return a.first_page < b.first_page; });
  if (!from_outline && res.chapters.empty()) res.warnings.push_back("no chapters found");
  return res;
}

}  // namespace quire
