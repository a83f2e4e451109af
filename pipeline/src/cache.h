// Private to pipeline/: the build cache for incremental rebuilds (`quire build --cache DIR`).
//
// A book's output folder is stored under a key made of everything that can change it: the
// PDF's bytes, the book id and its map entry, the options (the stages' option tables whole), and
// the quire binary itself (so a rebuilt quire never reuses stale output). The corpus-level files (corpus.jsonl, manifest.json,
// site/) are stored too, under a key made of the books' keys in order, the map's bytes and the
// export options: they are a function of exactly those, so an unchanged corpus reuses them and
// any changed book or map rebuilds them from the books.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quire/pipeline.h"

namespace quire {

std::string cache_key(const std::string& pdf_path, const std::string& id, const MapBook* map_entry,
                      const BuildOptions& options);

// Copies a cached book folder into out_dir/books/<id>; returns its outcome, or nullopt on a
// miss. When installed_out (the OUT that out_dir will replace) still holds the book's files
// as the last build installed them, they are linked instead of copied.
std::optional<BookOutcome> cache_fetch(const std::string& cache_dir, const std::string& key,
                                       const std::string& id, const std::string& out_dir,
                                       const std::string& installed_out = {});

// Stores out_dir/books/<id> and its outcome under key (atomically: a temporary folder renamed).
void cache_store(const std::string& cache_dir, const std::string& key, const BookOutcome& outcome,
                 const std::string& out_dir);

// Key of the corpus-level files: the built books (id and book key, in corpus order), the
// map file's bytes (empty path: no map) and the export options.
std::string index_cache_key(const std::vector<std::pair<std::string, std::string>>& books,
                            const std::string& map_path, const BuildOptions& options);

// Copies cached corpus-level files into out_dir (or links installed_out's, as cache_fetch);
// false on a miss (out_dir is then untouched).
bool index_cache_fetch(const std::string& cache_dir, const std::string& key, const std::string& out_dir,
                       const std::string& installed_out = {});

// Stores out_dir's corpus-level files under key (atomically, like cache_store).
void index_cache_store(const std::string& cache_dir, const std::string& key, const std::string& out_dir);

// The outcomes of `books` (id, book key, in corpus order) when OUT is already what a cached
// build of them would make: every book's files and the corpus-level files of index_key as
// the last build installed them (the stamps cache_fetch links by), and nothing else in OUT.
// nullopt otherwise. OUT is not touched.
std::optional<std::vector<BookOutcome>> cache_unchanged_output(
    const std::string& cache_dir, const std::string& out, const std::vector<std::pair<std::string, std::string>>& books,
    const std::string& index_key);

// Records, for each book (id, book key) and the corpus-level files (index_key; empty: none),
// the stamps of their files in OUT as installed, for the next build of OUT to link them.
void cache_note_installed(const std::string& cache_dir, const std::string& out,
                          const std::vector<std::pair<std::string, std::string>>& books, const std::string& index_key);

}  // namespace quire
