// layout_document: pages -> rows in reading order -> blocks -> chapters.
#include "quire/layout.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <span>

#include "figures.h"
#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "quire/typography.h"
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
using detail::prose_words_by_page;
using detail::split_title;
using detail::squash;
using detail::without_spaces;
using detail::Start;
using detail::TitleParts;
using detail::text_word_count;
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

// Pages in a block list, first and last (a block may run onto the next page).
void page_range(const std::vector<const Block*>& bs, int& f, int& l) {
  f = INT32_MAX;
  l = 0;
  for (const auto* b : bs) {
    f = std::min(f, b->page);
    l = std::max(l, std::max(b->page, b->last_page));
  }
}

// Heading levels: from the outline entries below the chapter level where the outline names
// a heading, else from the level the outline gives most headings of that size, else from
// the rank of the heading's size among the book's heading sizes.
class HeadingLevels {
 public:
  HeadingLevels(const Document& doc, int chapter_level, const std::vector<Block>& blocks,
                const std::vector<double>& sizes) {
    for (const auto& e : doc.outline)
      if (e.page > 0) subs_.push_back({e.page, e.y, squash(split_title(e.title).title), e.level - chapter_level + 1});
    // By page (in the outline's order within a page): a block looks at its page's entries only.
    std::stable_sort(subs_.begin(), subs_.end(), [](const Sub& a, const Sub& b) { return a.page < b.page; });
    for (size_t i = 0; i < blocks.size(); ++i)
      if (blocks[i].type == BlockType::Heading)
        if (int lv = outline_level(blocks[i]); lv > 0) size_levels_[typography::half_point_key(sizes[i])][lv]++;
    for (size_t i = 0; i < blocks.size(); ++i)
      if (blocks[i].type == BlockType::Heading) heading_sizes_.push_back(typography::to_half_point(sizes[i]));
    std::sort(heading_sizes_.begin(), heading_sizes_.end(), std::greater<>());
    heading_sizes_.erase(std::unique(heading_sizes_.begin(), heading_sizes_.end()), heading_sizes_.end());
  }

  // Whether an outline entry below the chapter level points at paragraph `b` and `b` prints
  // its title: the entry names a place on b's page at b's top (within `tolerance`) or above
  // it, below `above` (the bottom of the block before b on its page, or the page's top).
  // The title may follow its section's number ("5.9.2.1", "A.2"), which outlines leave out.
  bool names_heading(const Block& b, double above, double tolerance) const {
    std::string key;
    for (const auto& s : on_page(b.page, b.page)) {
      if (s.y < 0 || s.y > b.bbox.y0 + tolerance || s.y < above - tolerance || s.key.empty()) continue;
      if (key.empty()) key = squash(b.text);
      if (key.size() < s.key.size() || key.compare(key.size() - s.key.size(), s.key.size(), s.key) != 0) continue;
      const std::string number = key.substr(0, key.size() - s.key.size());
      size_t k = !number.empty() && number[0] >= 'a' && number[0] <= 'z' ? 1 : 0;
      while (k < number.size() && number[k] >= '0' && number[k] <= '9') ++k;
      if (k == number.size() && (number.size() != 1 || number[0] < 'a')) return true;
    }
    return false;
  }

  int level_of(const Block& b, double size) const {
    if (int lv = outline_level(b); lv > 0) return std::max(1, lv);
    auto it = size_levels_.find(typography::half_point_key(size));
    if (it != size_levels_.end()) {
      int best = 0, n = -1;
      for (const auto& [lv, c] : it->second)
        if (c > n) { best = lv; n = c; }
      return std::max(1, best);
    }
    auto pos = std::find(heading_sizes_.begin(), heading_sizes_.end(), typography::to_half_point(size));
    return std::min(typography::kDeepestHeadingLevel, static_cast<int>(pos - heading_sizes_.begin()) + 1);
  }

 private:
  int outline_level(const Block& b) const {
    std::string key = squash(b.text);
    for (const auto& s : on_page(b.page - 1, b.page + 1))
      if (!s.key.empty() && key.size() >= s.key.size() &&
          key.compare(key.size() - s.key.size(), s.key.size(), s.key) == 0)
        return s.level;
    return 0;
  }

  // Outline entries below the chapter level.
  struct Sub {
    int page;
    double y;  // -1: the entry names its page only
    std::string key;
    int level;
  };
  std::vector<Sub> subs_;  // by page
  // The entries naming pages first..last.
  std::span<const Sub> on_page(int first, int last) const {
    auto from = std::lower_bound(subs_.begin(), subs_.end(), first, [](const Sub& s, int p) { return s.page < p; });
    auto to = std::upper_bound(from, subs_.end(), last, [](int p, const Sub& s) { return p < s.page; });
    return {from, to};
  }
  // Heading sizes -> levels, learned from the headings the outline names.
  std::map<long, std::map<int, int>> size_levels_;
  std::vector<double> heading_sizes_;  // largest first
};

// The numbers of the chapters' titles: as the outline or the heading gives them, a lettered
// appendix after numbered chapters, or the number of the opener label printed over a title.
std::vector<TitleParts> chapter_numbers(const std::vector<Start>& starts,
                                        const std::vector<std::vector<const Block*>>& parts) {
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
  return tps;
}

// The book's blocks cut into chapters at their starts, with front matter and matter kept out
// of the corpus recognised on the way.
class ChapterCut {
 public:
  ChapterCut(const Document& doc, const LayoutOptions& o, detail::PageFlow& flow, LayoutResult& res)
      : doc_(doc), o_(o), flow_(flow), res_(res), kept_(flow.blocks.size(), false),
        first_page_(doc.pages.front().number), last_page_(doc.pages.back().number) {}

  void run() {
    int chapter_level = 1;
    std::vector<Start> starts = outline_starts(doc_, o_, chapter_level);
    from_outline_ = !starts.empty();
    if (from_outline_) place_on_page(starts);
    if (!from_outline_) starts = heading_starts(flow_.blocks, flow_.sizes, flow_.number_rows, o_);
    std::vector<const Block*> before;
    const auto parts = assign(starts, before);
    front_matter(before, starts);
    if (starts.empty()) {
      one_chapter();
    } else {
      chapters(starts, parts, HeadingLevels(doc_, chapter_level, flow_.blocks, flow_.sizes));
      std::stable_sort(res_.excluded.begin(), res_.excluded.end(),
                       [](const ExcludedMatter& a, const ExcludedMatter& b) { return a.first_page < b.first_page; });
      if (!from_outline_ && res_.chapters.empty())
        res_.warnings.push_back(Diagnostic::at("layout", "no-chapters", doc_.file, 0, "no chapters found"));
    }
    // Every block has moved to its chapter or been dropped with excluded matter: what is
    // left of them here is the size of the book's blocks again.
    std::vector<Block>().swap(flow_.blocks);
    keep_joins(res_, kept_, flow_.join_ends);
    for (auto& c : res_.chapters)
      for (auto& b : c.blocks) {
        for (auto& r : b.dropped) res_.removed.push_back(std::move(r));
        std::vector<Removal>().swap(b.dropped);
      }
    std::stable_sort(res_.removed.begin(), res_.removed.end(), removal_order);
    place_footnotes(res_.chapters, o_);
    link_figure_references(res_.chapters);
    detail::anchor_links(res_.chapters, o_);
  }

 private:
  // Blocks that end up in a chapter. Joins made inside excluded matter (a copyright page's
  // prose) are dropped: those words are not in the corpus, and the wording check accounts
  // for excluded pages by their printed tokens, unjoined.
  void keep(const Block* b) { kept_[static_cast<size_t>(b - flow_.blocks.data())] = true; }

  // An outline entry whose destination names its page only says nowhere where on the page
  // its chapter opens: where two chapters open on one page (an article's "1 Introduction"
  // and "2 Quick guide"), both cuts stood at its top and the first chapter was empty, and a
  // chapter opening under the end of the one before took that end. Such an entry opens at
  // the heading of its page that prints its title (its number may stand before it), the
  // first one under the chapter opened before it on the page, with the headings set right
  // above it (a slide's title over its section's, as at the top of a page). A page whose
  // entries would then open out of the outline's order (a slide's title found for a part,
  // none for its first chapter above it) keeps them all at its top, as does a page without
  // such headings.
  void place_on_page(std::vector<Start>& starts) const {
    std::map<int, std::vector<size_t>> headings;  // page -> its heading blocks, in reading order
    for (size_t i = 0; i < flow_.blocks.size(); ++i)
      if (flow_.blocks[i].type == BlockType::Heading) headings[flow_.blocks[i].page].push_back(i);
    if (headings.empty()) return;
    for (size_t first = 0; first < starts.size();) {
      size_t end = first;  // [first, end): the starts of one page, in the outline's order
      while (end < starts.size() && starts[end].page == starts[first].page) ++end;
      auto it = headings.find(starts[first].page);
      bool any = false;
      std::vector<Start> placed(starts.begin() + static_cast<ptrdiff_t>(first), starts.begin() + static_cast<ptrdiff_t>(end));
      for (size_t k = 0; it != headings.end() && k < placed.size(); ++k) {
        Start& s = placed[k];
        if (s.placed) continue;
        const std::string title = squash(split_title(s.title).title);
        if (title.empty()) continue;
        const double from = k > 0 ? placed[k - 1].y : 0;
        for (size_t i : it->second) {
          const Block& b = flow_.blocks[i];
          if (b.bbox.y0 < from || squash(split_title(b.text).title) != title) continue;
          // Headings right above it open with it (a slide's title over its section's).
          size_t top = i;
          while (top > 0 && flow_.blocks[top - 1].type == BlockType::Heading && flow_.blocks[top - 1].page == b.page &&
                 flow_.blocks[top - 1].bbox.y0 >= from && flow_.blocks[top - 1].bbox.y0 < flow_.blocks[top].bbox.y0)
            --top;
          s.y = flow_.blocks[top].bbox.y0;
          s.placed = any = true;
          break;
        }
      }
      const bool in_order = std::is_sorted(placed.begin(), placed.end(),
                                           [](const Start& a, const Start& b) { return a.y < b.y; });
      if (any && in_order) std::copy(placed.begin(), placed.end(), starts.begin() + static_cast<ptrdiff_t>(first));
      first = end;
    }
  }

  // Blocks -> the start they belong to; `before` gets those before the first chapter.
  std::vector<std::vector<const Block*>> assign(const std::vector<Start>& starts, std::vector<const Block*>& before) const {
    std::vector<std::vector<const Block*>> parts(starts.size());
    size_t k = 0;
    long cur = -1;
    for (size_t i = 0; i < flow_.blocks.size(); ++i) {
      const Block& b = flow_.blocks[i];
      // (A destination may point inside a heading's first line: a large title's top stands
      // well above the point an outline entry names.)
      const double tolerance =
          b.type == BlockType::Heading
              ? std::max(o_.chapters.outline_y_tolerance, o_.chapters.heading_anchor_reach_ratio * flow_.sizes[i])
              : o_.chapters.outline_y_tolerance;
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
    return parts;
  }

  // Matter before the first chapter: contents pages by their page-number column, the
  // title and copyright pages by position and wording; prose pages make a front chapter.
  void front_matter(const std::vector<const Block*>& before, const std::vector<Start>& starts) {
    std::map<int, std::vector<const Block*>> by_page;
    for (const auto* b : before) by_page[b->page].push_back(b);
    int front_end = starts.empty() ? first_page_ - 1 : starts.front().page - 1;
    for (int p = first_page_; p <= front_end; ++p) by_page[p];
    // Kind per page, in order, with the page's blocks it takes: a page may hold two (the text
    // over a contents list that starts partway down it).
    struct PageKind {
      std::string kind;
      int page;
      std::vector<const Block*> blocks;
    };
    std::vector<PageKind> kinds;
    // A copyright page is a notice, shorter than a full page of the book's text: a page as
    // full as the text's that names its copyright (a reference card's foot line) is text.
    // (The full page is counted over the whole book, and only where a page names its
    // copyright.)
    std::optional<size_t> page_words;
    auto notice = [&](const std::vector<const Block*>& page_blocks) {
      if (!page_words) page_words = full_page_words();
      return *page_words == 0 || word_count(page_blocks) < *page_words;
    };
    for (const auto& [p, bs] : by_page) {
      std::string kind;
      std::string text;
      for (const auto* b : bs) text += " " + lower_ascii(b->text);
      if (entries(p)) {
        // Text set over the list on the page where it starts (a package manual's title,
        // authors and abstract over its table of contents) is the book's, where it is a
        // page's worth of text and does not read as a list itself; the list's own title
        // goes with it. (A page that goes on with the list holds none.)
        const bool goes_on = !kinds.empty() && kinds.back().kind == "contents";
        const std::vector<const Block*> over = goes_on ? std::vector<const Block*>() : over_contents(p, bs);
        if (!over.empty()) {
          kinds.push_back({"", p, over});
          kinds.push_back({"contents", p, {bs.begin() + static_cast<std::ptrdiff_t>(over.size()), bs.end()}});
          continue;
        }
        kind = "contents";
      }
      else if ((text.find("copyright") != std::string::npos || text.find("\u00a9") != std::string::npos ||
                text.find("isbn") != std::string::npos) &&
               notice(bs))
        kind = "copyright";
      // A page of text: a preface without a bookmark, or a synopsis in a listing or a table
      // (a title page holds a few lines of any kind, never a page of them).
      else if (text_word_count(bs) >= o_.chapters.min_prose_page_words) kind = "";
      else if (!kinds.empty() && kinds.back().kind.empty()) kind = "";  // its listing or figure page
      else if (p == first_page_ || (!kinds.empty() && kinds.back().kind == "title-page")) kind = "title-page";
      else kind = "front-matter";
      kinds.push_back({kind, p, bs});
    }
    std::vector<const Block*> front_blocks;
    for (size_t i = 0; i < kinds.size();) {
      size_t j = i;
      while (j < kinds.size() && kinds[j].kind == kinds[i].kind) ++j;
      int f = kinds[i].page, l = kinds[j - 1].page;
      if (kinds[i].kind.empty() || o_.chapters.keep_matter) {
        for (size_t k = i; k < j; ++k)
          for (const auto* b : kinds[k].blocks) front_blocks.push_back(b);
      } else {
        static const std::map<std::string, std::string> titles = {{"contents", "Contents"},
                                                                  {"copyright", "Copyright"},
                                                                  {"title-page", "Title page"},
                                                                  {"front-matter", "Front matter"}};
        // A block goes to the page it starts on, and may go on over the page break (the last
        // entry of a contents page carried to the top of the next): the matter ends where its
        // last block does, so that the wording check finds those words on its pages.
        for (size_t k = i; k < j; ++k)
          for (const auto* b : kinds[k].blocks) l = std::max(l, b->last_page);
        res_.excluded.push_back({titles.at(kinds[i].kind), kinds[i].kind, f, l});
      }
      i = j;
    }
    if (front_blocks.empty()) return;
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
    res_.chapters.push_back(std::move(c));
  }

  // A full page of the book's text, in words of prose (word_count): three quarters of the
  // pages that hold any hold no more (blocks counted on the page they start on); 0 for a book
  // without prose.
  size_t full_page_words() const {
    std::vector<size_t> words;
    for (const auto& [p, n] : prose_words_by_page(flow_.blocks))
      if (n > 0) words.push_back(n);
    if (words.empty()) return 0;
    const auto at = words.begin() + static_cast<std::ptrdiff_t>(words.size() * 3 / 4);
    std::nth_element(words.begin(), at, words.end());
    return *at;
  }

  // The blocks of `bs` (a contents page's, in reading order) set over its list: those that
  // end above its first entry, less the contents title right over the entries, where they hold
  // a page's worth of text (text_word_count) and their rows do not read as a list; else none.
  // The list starts at the first entry after the last two rows in a row that are no entries
  // (a date over an abstract ends with a number as an entry does).
  std::vector<const Block*> over_contents(int page, const std::vector<const Block*>& bs) const {
    auto it = flow_.number_rows.find(page);
    if (it == flow_.number_rows.end()) return {};
    std::vector<detail::NumberRow> rows = it->second;
    std::stable_sort(rows.begin(), rows.end(), [](const detail::NumberRow& a, const detail::NumberRow& b) { return a.top < b.top; });
    double first = 1e300;
    size_t others = 2;  // rows in a row that are no entries, before the next entry
    for (const auto& r : rows) {
      if (!r.entry) {
        ++others;
        continue;
      }
      if (others >= 2) first = r.top;
      others = 0;
    }
    size_t n = 0;
    while (n < bs.size() && bs[n]->page == page && bs[n]->bbox.y1 <= first + o_.lines.edge_tolerance) ++n;
    // The list's title stands right over its entries ("Contents", "Table of Contents:"): a
    // list without one is not told from text by this.
    const size_t before_title = n;
    while (n > 0 && matter_kind_from_title(bs[n - 1]->text, nullptr) == "contents") --n;
    if (n == before_title) return {};
    std::vector<const Block*> over(bs.begin(), bs.begin() + static_cast<std::ptrdiff_t>(n));
    if (over.empty() || text_word_count(over) < o_.chapters.min_prose_page_words) return {};
    double bottom = -1e300;
    for (const auto* b : over) bottom = std::max(bottom, b->bbox.y1);
    if (entries(page, -1e300, bottom)) return {};
    return over;
  }

  // Whether the rows of a page whose tops are in [from, to) read as a list: most of them end
  // with page numbers or hold dot leaders (number_rows).
  bool entries(int page, double from = -1e300, double to = 1e300) const {
    auto it = flow_.number_rows.find(page);
    return it != flow_.number_rows.end() &&
           detail::entry_share(it->second, from, to) >= o_.chapters.page_number_line_share;
  }

  // No outline and no chapter headings: one chapter.
  void one_chapter() {
    res_.warnings.push_back(Diagnostic::at("layout", "one-chapter", doc_.file, 0,
                                           "no outline and no chapter headings: the book is one chapter"));
    Chapter c;
    c.title = book_title(doc_, o_);
    c.blocks = std::move(flow_.blocks);
    c.first_page = first_page_;
    c.last_page = last_page_;
    res_.chapters.clear();
    res_.excluded.clear();
    res_.chapters.push_back(std::move(c));
    std::fill(kept_.begin(), kept_.end(), true);
  }

  // Matter kept out of the corpus: by title, or by layout (lines ending with page numbers);
  // the title page as the outline's first entry. Empty for a chapter of the corpus.
  // `own`: the chapter's blocks (its c.blocks; the flow's blocks have been moved into it).
  std::string matter_kind(const Chapter& c, const std::vector<const Block*>& own, const std::vector<Start>& starts,
                          size_t i, int numbered_seen) {
    bool exact = false;
    std::string kind = matter_kind_from_title(c.title, &exact);
    int pages = 0, numbered = 0;
    for (int p = c.first_page; p <= c.last_page; ++p) {
      ++pages;
      // A page the chapter shares with the one before or after it reads by the chapter's
      // own rows, split where its blocks are (assign): a preface that opens under the last
      // entries of the contents is no list.
      const double tolerance = o_.chapters.outline_y_tolerance;
      const double from = p == starts[i].page ? starts[i].y - tolerance : -1e300;
      const double to = i + 1 < starts.size() && starts[i + 1].page == p ? starts[i + 1].y - tolerance : 1e300;
      if (entries(p, from, to)) ++numbered;
    }
    const bool listed = pages > 0 && typography::more_than_half(numbered, pages);
    // A title that only begins like a list's ("Contents of domore.sty", a package's code;
    // "Contents at a Glance") is one where its pages read as a list: rows ending with page
    // numbers.
    if (!exact && !listed && (kind == "contents" || kind.rfind("list-of-", 0) == 0)) kind.clear();
    if (kind.empty() && listed) kind = numbered_seen == 0 ? "contents" : "index";
    // The title page as the outline's first entry, named by the book's title (Asciidoctor
    // PDF and DocBook bookmark it): the book's first page, or the first two (a title page
    // and its verso), with little text on them, before the book's chapters. The outline's
    // only entry is the book itself (a page printed from the web, named after its heading).
    if (kind.empty() && i == 0 && i + 1 < starts.size() && c.first_page == first_page_ && c.last_page <= first_page_ + 1 &&
        !doc_.metadata.title.empty() && squash(c.title) == squash(doc_.metadata.title) &&
        text_word_count(own) < o_.chapters.min_prose_page_words)
      kind = "title-page";
    return kind;
  }

  // A chapter's pages: from its start (or its first block) up to the next chapter (blank
  // versos and pages of furniture only are this chapter's, so every page belongs somewhere).
  void chapter_pages(Chapter& c, const std::vector<Start>& starts, size_t i, const std::vector<const Block*>& bs) const {
    int f = starts[i].page, l = starts[i].page;
    if (!bs.empty()) {
      page_range(bs, f, l);
      f = std::min(f, starts[i].page);
    }
    int next = i + 1 < starts.size() ? starts[i + 1].page : last_page_ + 1;
    l = std::max(l, next - 1);
    l = std::min(l, last_page_);
    c.first_page = f;
    c.last_page = std::max(f, l);
  }

  void chapters(const std::vector<Start>& starts, const std::vector<std::vector<const Block*>>& parts,
                const HeadingLevels& levels) {
    std::vector<Block>& blocks = flow_.blocks;
    const std::vector<TitleParts> tps = chapter_numbers(starts, parts);
    int numbered_seen = 0;
    int last_numbered_chapter = -1;
    for (size_t i = 0; i < tps.size(); ++i)
      if (!tps[i].number.empty()) last_numbered_chapter = static_cast<int>(i);
    for (size_t i = 0; i < starts.size(); ++i) {
      if (starts[i].part && i + 1 < starts.size()) continue;
      std::vector<const Block*> bs = parts[i];
      // A part's opening pages go to the chapter that follows it (assign). Where they read as
      // a list (a book of a DocBook set: its title over its own table of contents), they are
      // left out as contents, and the chapter opens on its own page.
      if (i > 0 && starts[i - 1].part && !bs.empty() && bs.front()->page < starts[i].page) {
        int lead = 0, listed = 0;
        for (int p = bs.front()->page; p < starts[i].page; ++p) {
          ++lead;
          if (entries(p)) ++listed;
        }
        // (Only where every block of those pages ends on them: the words left out are counted
        // by their pages.)
        size_t k = 0;
        while (k < bs.size() && bs[k]->page < starts[i].page && bs[k]->last_page < starts[i].page) ++k;
        if (typography::more_than_half(listed, lead) && k < bs.size() && bs[k]->page >= starts[i].page) {
          res_.excluded.push_back({"Contents", "contents", bs.front()->page, starts[i].page - 1});
          bs.erase(bs.begin(), bs.begin() + static_cast<std::ptrdiff_t>(k));
        }
      }
      const TitleParts& tp = tps[i];
      Chapter c;
      c.title = tp.title;
      c.number = tp.number;
      if (tp.appendix) c.kind = ChapterKind::Appendix;
      else if (!tp.number.empty()) c.kind = ChapterKind::Body;
      else if (numbered_seen == 0) c.kind = ChapterKind::Front;
      else if (static_cast<int>(i) > last_numbered_chapter) c.kind = ChapterKind::Back;
      if (!tp.number.empty()) ++numbered_seen;
      chapter_pages(c, starts, i, bs);
      bool first_heading = true;
      c.blocks.reserve(bs.size());
      int before_page = 0;  // the page the block before b stands on wholly (0: none), and its bottom
      double before_bottom = 0;
      for (const auto* b : bs) {
        const double above = before_page == b->page ? before_bottom : 0;
        before_page = std::max(b->page, b->last_page) == b->page ? b->page : 0;
        before_bottom = b->bbox.y1;
        // Each block is in one chapter: it moves there (a copy would hold the book's blocks
        // twice, the largest thing in memory at this point).
        const size_t at = static_cast<size_t>(b - blocks.data());
        Block nb = std::move(blocks[at]);
        // The line the outline's entry points at that prints the entry's title is the
        // chapter's title, whatever its size: a book that sets its titles in the body's size
        // (bold at most) tells them from its text by the outline alone.
        if (from_outline_ && b == bs.front() && nb.type == BlockType::Paragraph && b->page == starts[i].page &&
            squash(split_title(nb.text).title) == squash(tp.title))
          nb.type = BlockType::Heading;
        // So is a paragraph an entry below the chapter level points at that prints the
        // entry's title: a section heading set in the body's size and a face the book's
        // other headings do not share (a word in bold typewriter among bold sans).
        if (from_outline_ && b != bs.front() && nb.type == BlockType::Paragraph &&
            levels.names_heading(nb, above, o_.chapters.outline_y_tolerance))
          nb.type = BlockType::Heading;
        if (nb.type == BlockType::Heading) {
          nb.level = first_heading && b == bs.front() ? 1 : levels.level_of(nb, flow_.sizes[at]);
          if (nb.level == 1 && b != bs.front()) nb.level = 2;
          first_heading = false;
        }
        c.blocks.push_back(std::move(nb));
      }
      split_opener_label(c.blocks);
      // An opener label set as a heading of its own ("Chapter 2" over the title) opened the
      // chapter, and the title below took the label: the chapter is named by the title.
      if (!from_outline_ && !c.blocks.empty() && c.blocks[0].type == BlockType::Heading &&
          c.blocks[0].labels.size() == 1 && c.title == c.blocks[0].labels[0])
        c.title = split_title(c.blocks[0].text).title;
      // An outline made from the headings may lose the space where a title's line broke
      // ("the Valgrindcore" over "the Valgrind / core"): where the title printed atop the
      // chapter has the entry's characters and a space more between words, the chapter is
      // named as printed. (A title set letterspaced reads with a space between its letters:
      // its entry's words are the title's.)
      if (from_outline_ && !c.blocks.empty() && c.blocks[0].type == BlockType::Heading) {
        const std::string printed = split_title(c.blocks[0].text).title;
        auto letters = [](const std::string& t) {  // words of one character
          size_t n = 0;
          for (const auto& w : whitespace_tokens(t)) n += utf8_length(w) == 1;
          return n;
        };
        if (whitespace_tokens(printed).size() > whitespace_tokens(c.title).size() &&
            letters(printed) <= letters(c.title) && without_spaces(printed) == without_spaces(c.title))
          c.title = printed;
      }
      std::vector<const Block*> own;
      for (const auto& b : c.blocks) own.push_back(&b);
      const std::string kind = matter_kind(c, own, starts, i, numbered_seen);
      if (!kind.empty() && !o_.chapters.keep_matter) {
        // A chapter read as a list by its pages' rows whose title, authors and abstract stand
        // over the list on its first page (a package manual without an outline, its title
        // page and table of contents in one): those stay a chapter, the list is left out.
        const size_t over = kind == "contents" ? over_contents(c.first_page, own).size() : 0;
        if (over > 0) {
          res_.excluded.push_back({"Contents", kind, c.first_page, c.last_page});
          // (An opener label merged into the title below it left one block fewer than bs.)
          const size_t merged = bs.size() - c.blocks.size();
          c.blocks.resize(over);
          c.last_page = c.first_page;
          for (size_t k = 0; k < over + merged && k < bs.size(); ++k) keep(bs[k]);
          res_.chapters.push_back(std::move(c));
          continue;
        }
        res_.excluded.push_back({c.title, kind, c.first_page, c.last_page});
        continue;
      }
      if (!kind.empty()) c.kind = numbered_seen == 0 ? ChapterKind::Front : ChapterKind::Back;
      for (const auto* b : bs) keep(b);
      res_.chapters.push_back(std::move(c));
    }
  }

  const Document& doc_;
  const LayoutOptions& o_;
  detail::PageFlow& flow_;
  LayoutResult& res_;
  std::vector<bool> kept_;
  const int first_page_, last_page_;
  bool from_outline_ = false;
};

}  // namespace

LayoutResult layout_document(const Document& doc, const LayoutOptions& o) {
  LayoutResult res;
  detail::PageFlow flow = detail::flow_pages(doc, o, res.joins);
  if (doc.pages.empty()) {
    res.warnings.push_back(Diagnostic::at("layout", "no-pages", doc.file, 0, "no pages"));
    return res;
  }
  ChapterCut(doc, o, flow, res).run();
  return res;
}

}  // namespace quire
