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

// Writes OUT/site/index.html, OUT/site/<book>/<chapter>.html for every chapter of every
// book, OUT/site/report.html, OUT/site/search-index.js and OUT/site/assets/. Each chapter's
// blocks are asked for when its page is written, on `jobs` threads.
void write_site(const std::string& out_dir, const SiteModel& site, const ChapterBlocks& blocks_of, int jobs = 1);

// Shared by the site's pages (site.cpp, report.cpp). `root` leads from a page to site/
// ("", "../"); `extra` is put at the end of the header bar.
std::string page_head(const std::string& title, const std::string& root);
std::string site_header(const SiteModel& site, const std::string& root, const std::string& extra);

// site/report.html: per book what the build saw and did, with plots drawn as inline SVG.
std::string report_page(const SiteModel& site);

}  // namespace quire::exporting
