// The static reading site (site/): the learning map and one page per chapter.
#pragma once

#include <functional>
#include <map>
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
  size_t words = 0;    // what its page costs to make, roughly
};

struct SiteBook {
  std::string id, title, short_name;
  std::vector<std::string> authors;
  std::vector<SiteChapter> chapters;
  std::map<std::string, long> furniture;  // removals by reason
  long joins = 0, ocr_pages = 0;
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
// book, and OUT/site/assets/. Each chapter's blocks are asked for when its page is written,
// on `jobs` threads.
void write_site(const std::string& out_dir, const SiteModel& site, const ChapterBlocks& blocks_of, int jobs = 1);

}  // namespace quire::exporting
