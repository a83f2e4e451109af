// Private to pipeline/: the build cache for incremental rebuilds (`quire build --cache DIR`).
//
// A book's output folder is stored under a key made of everything that can change it: the
// PDF's bytes, the book id and its map entry, the options, and the quire binary itself (so a
// rebuilt quire never reuses stale output). Corpus-level files are always rebuilt from books.
#pragma once

#include <optional>
#include <string>

#include "quire/pipeline.h"

namespace quire {

std::string cache_key(const std::string& pdf_path, const std::string& id, const MapBook* map_entry,
                      const BuildOptions& options);

// Copies a cached book folder into out_dir/books/<id>; returns its outcome, or nullopt on a miss.
std::optional<BookOutcome> cache_fetch(const std::string& cache_dir, const std::string& key,
                                       const std::string& id, const std::string& out_dir);

// Stores out_dir/books/<id> and its outcome under key (atomically: a temporary folder renamed).
void cache_store(const std::string& cache_dir, const std::string& key, const BookOutcome& outcome,
                 const std::string& out_dir);

}  // namespace quire
