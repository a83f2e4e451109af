// EPUB 3 editions of the corpus (`quire build --epub`): OUT/epub/<book-id>.epub per book and
// OUT/epub/map.epub for the learning map, from the chapter files and figures on disk.
#pragma once

#include <string>

#include "site.h"

namespace quire::exporting {

// The learning map's file name in OUT/epub/: "map.epub", or "learning-map.epub" when a book
// of the corpus has the id "map".
std::string map_epub_name(const SiteModel& site);

// Writes OUT/epub/. Each archive is the same bytes for the same corpus, at any `jobs`.
void write_epubs(const std::string& out_dir, const SiteModel& site, const ChapterBlocks& blocks_of, int jobs = 1);

}  // namespace quire::exporting
