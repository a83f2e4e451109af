// Private to pipeline/: one book through the stages, and reporting.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "quire/json.h"
#include "quire/pipeline.h"

namespace quire {

// Clean (in place) and layout an extracted document into a Book; fills `source` (for verify)
// when given.
Book book_from_document(Document& doc, const std::string& id, const BuildOptions& options,
                        std::vector<SourcePage>* source);

// Extract, clean, layout, verify and export one book into tmp_out/books/<id>/; with `pages`,
// also its site pages (export_book), for export_index.
BookOutcome build_one_book(const std::string& pdf_path, const std::string& id, const MapBook* map_entry,
                           const BuildOptions& options, const std::string& tmp_out, SitePages* pages = nullptr);

// The counts and warnings of a finished book (the cache stores them; the JSON log prints them).
Json outcome_to_json(const BookOutcome& o);

// One line per finished book on stderr (human) or one JSON object (json).
void report_book(const BookOutcome& o, LogMode mode);

// shard.json: which share of which books this output holds, for `quire merge`.
void write_shard_info(const std::string& out_dir, int index, int count, const std::vector<std::string>& all_ids);

// Removes a folder and all it holds, its files on several threads (the waits are the
// disk's); what cannot be removed is left.
void remove_tree(const std::filesystem::path& dir);

// Moves a finished output folder into place: an atomic exchange when OUT exists.
void remove_stale_temporaries(const std::filesystem::path& out);
void install_output_dir(const std::filesystem::path& tmp, const std::filesystem::path& out);

}  // namespace quire
