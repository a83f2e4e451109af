// The static reading site (site/): the learning map and one page per chapter.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quire/export.h"
#include "quire/model.h"
#include "search.h"

namespace quire::exporting {

struct SiteChapter {
  std::string id;     // "<NN>-<slug>"
  std::string title;  // the book's own title of the chapter
  std::string number; // as printed, may be empty
  size_t words = 0;    // what its page costs to make, roughly; the report plots it
  long figures = 0;
  int first_page = 0, last_page = 0;
};

struct SiteBook {
  std::string id, title, short_name;
  std::vector<std::string> authors;
  std::vector<SiteChapter> chapters;
  std::map<std::string, long> furniture;  // removals by reason
  long joins = 0, ocr_pages = 0;
  // For the build report (book.json, removed.jsonl).
  int pages = 0;
  std::vector<long> removed_per_page;     // [page - 1]: spans of furniture removed there
  std::vector<int> ocr_page_list, low_confidence_pages;
  std::vector<std::string> warnings;
  std::optional<WordLedger> ledger;       // the wording check's, when it ran
  std::vector<std::pair<std::string, double>> seconds;  // per stage, when asked for (ExportOptions)
};

struct SiteEntry {
  size_t book = 0, chapter = 0;
  std::string display;  // the title shown on the map
};

struct SiteSection {
  std::string title;
  std::vector<SiteEntry> entries;
};

struct SiteModel {
  std::string title, intro, footer;
  std::vector<SiteBook> books;
  std::vector<SiteSection> sections;
  std::vector<MapNote> notes;
  std::vector<MapGap> gaps;
  // Reading order for the previous/next arrows: each chapter once, at its first appearance.
  std::vector<std::pair<size_t, size_t>> order;
};

// A chapter's blocks, given its book's and its own index in the model.
using ChapterBlocks = std::function<std::vector<Block>(size_t book, size_t chapter)>;

// A heading of a chapter's contents panel.
struct TocEntry {
  int level = 2;
  std::string id, html;
};

// What a chapter's page and the search index need of its blocks: the page's body, its
// contents, and the plain text of each element that carries data-page (what the search
// index holds; result N opens the N-th), one line each (append_search_line).
struct ChapterPage {
  std::string html;
  std::vector<TocEntry> toc;
  std::string search_text;
  size_t search_lines = 0;
};

// The pages of one book's chapters, in book order, and the book's part of the search index.
// A page depends on its book alone (the header, the arrows and the search list around it
// are added by write_site), so a book's pages can be made as soon as the book is written,
// while it is still in memory; the chapters' search texts are then in `search` alone.
struct BookPages {
  std::vector<ChapterPage> chapters;
  SearchText search;
};

// Which chapter of a book holds each anchor, from the chapters' blocks.
using ChapterOfAnchor = std::map<std::string, size_t>;
void add_anchors(ChapterOfAnchor& anchors, const std::vector<Block>& chapter_blocks, size_t chapter);

// The page of chapter `chapter` of a book from its blocks as its chapter file holds them (an
// internal link as "#<anchor>"): an internal link whose anchor is in another chapter of the
// book leads to that chapter's page. ids: the book's chapters'; title: this one's, as in
// book.json.
ChapterPage render_chapter_page(std::vector<Block> blocks, size_t chapter, const ChapterOfAnchor& anchors,
                                const std::vector<std::string>& ids, const std::string& title);

// Every chapter's page of a book and its part of the search index, on `jobs` threads; the
// result does not depend on it.
BookPages render_book_pages(std::vector<std::vector<Block>> chapters, const std::vector<std::string>& ids,
                            const std::vector<std::string>& titles, int jobs = 1);

// A chapter's page, given its book's and its own index in the model; asked for once per
// chapter, from any thread.
using PageOf = std::function<ChapterPage(size_t book, size_t chapter)>;

// A book's part of the search index when it was made with its pages (render_book_pages),
// else null: the part is then made from its pages' search texts.
using SearchOf = std::function<const SearchText*(size_t book)>;

// Writes OUT/site/index.html, OUT/site/<book>/<chapter>.html for every chapter of every
// book, OUT/site/report.html, OUT/site/search-index.js and OUT/site/assets/, on `jobs`
// threads.
void write_site(const std::string& out_dir, const SiteModel& site, const PageOf& page_of, const SearchOf& search_of,
                int jobs = 1);

// Shared by the site's pages (site.cpp, report.cpp). `root` leads from a page to site/
// ("", "../"); `extra` is put at the end of the header bar.
std::string page_head(const std::string& title, const std::string& root);
std::string site_header(const SiteModel& site, const std::string& root, const std::string& extra);

// site/report.html: per book what the build saw and did, with plots drawn as inline SVG.
std::string report_page(const SiteModel& site);

}  // namespace quire::exporting
