// layout_document: pages -> rows in reading order -> blocks -> chapters.
#include "quire/layout.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <optional>
#include <regex>

#include "figures.h"
#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "chapters.h"
#include "page_flow.h"

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
  detail::PageFlow flow = detail::flow_pages(doc, o, res.joins);
  std::vector<Block>& blocks = flow.blocks;
  const std::vector<double>& sizes = flow.sizes;
  const std::vector<size_t>& join_ends = flow.join_ends;
  std::map<int, double>& number_share = flow.number_share;
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
