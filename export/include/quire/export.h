// export: Books -> the corpus on disk (spec/corpus.md) and the static reading site;
// the map file (spec/map.md); comparing two corpora.
//
// A corpus is written in two steps so that cached books and shard outputs can be reused:
// export_book() writes one book's folder (books/<id>/...), and export_index() builds the
// corpus-level files (manifest.json, corpus.jsonl, site/) from the book folders on disk.
#pragma once

#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "quire/model.h"
#include "quire/options_table.h"

namespace quire {

// ---- map.toml ----
struct SourcePos {
  std::string file;
  int line = 0, column = 0;
  std::string str() const;  // "map.toml:12:3"
};

struct MapBook {
  std::string id, file, title, short_name;
  std::vector<std::string> authors;
  SourcePos pos;
};

struct MapChapterRef {
  std::string book;
  std::variant<int, std::string> chapter;  // number as printed, or a title to match
  std::string title;                       // display title on the map, optional
  SourcePos pos;
};

struct MapSection {
  std::string title;
  std::vector<MapChapterRef> chapters;
};

struct MapNote {
  std::string title;
  std::vector<std::string> items;
};

struct MapGap {
  std::string topic, note;
};

struct CorpusMap {
  std::string path;  // the map file
  std::string title, intro, footer;
  std::vector<MapBook> books;
  std::vector<MapSection> sections;
  std::vector<MapNote> notes;
  std::vector<MapGap> gaps;
};

// Parses and validates a map (unknown keys, types, duplicate ids, references to unknown
// books, missing files relative to pdf_dir or the map's folder). Throws quire::Error
// (ExitCode::BadMap) whose message starts with "FILE:LINE:COLUMN:".
CorpusMap read_map(const std::string& path, const std::string& pdf_dir);

// Resolves a chapter reference against a built book; returns the 0-based chapter index.
// Throws Error(BadMap) listing the book's chapters when there is no match or several.
size_t resolve_chapter(const MapChapterRef&, const Book&);

// ---- corpus ----
// Renders a figure block of a book to PNG bytes (empty string: could not render). With
// ExportOptions::jobs > 1 it is called from several threads at once.
using RenderFigure = std::function<std::string(const Book&, const Block&)>;

struct ExportOptions {
  bool site = true;
  // Also write OUT/epub/<book-id>.epub per book and OUT/epub/map.epub for the learning map
  // (EPUB 3; `quire build --epub`).
  bool epub = false;
  int jobs = 1;  // chapters written (and their figures rendered) on this many threads
  // The group of a figure's rendering: the renderer draws the figures of one group one at a
  // time (they share its state), so no two of a group are handed out at once while a figure
  // of another group or a chapter is waiting. Negative, or no function: a figure shares its
  // rendering with no other. Changes the order of work only, never the files.
  std::function<int(const Block&)> figure_group;
  // Wall seconds of each stage per book id, in stage order, for site/report.html. Empty (the
  // default): the report has no times, and the site is the same bytes on every run.
  std::map<std::string, std::vector<std::pair<std::string, double>>> stage_seconds;
};

// The fields of ExportOptions that change the output, as a table (quire/options_table.h):
// `--set export.NAME=VALUE`, the build cache key and docs/options.md are made from it.
std::span<const OptionField<ExportOptions>> export_option_table();

namespace exporting {
struct BookPages;
}
// The site's pages of one book's chapters (without what links them to the rest of the
// corpus), made by export_book from the blocks it has just written. Handed to export_index,
// they spare it reading and parsing the book's chapter files again; the pages are the same
// bytes either way.
using SitePages = std::shared_ptr<exporting::BookPages>;

// Writes OUT/books/<id>/ for one book: book.json, chapter .md and .json, figures,
// removed.jsonl. Sets figure blocks' `image` paths. out_dir must exist. The files and the
// order of the book's warnings are the same at any ExportOptions::jobs. With `pages` (and
// ExportOptions::site), also makes the book's site pages; it is left null when a string of
// the book is not valid UTF-8 (the files hold U+FFFD in its place, and the pages are made
// from the files).
void export_book(Book& book, const std::string& out_dir, const RenderFigure& render,
                 const ExportOptions& options = {}, SitePages* pages = nullptr);

// Builds manifest.json, corpus.jsonl and site/ from OUT/books/<id>/ folders, books in the
// given order (the map's order when there is a map). Throws Error(BadMap) for chapter
// references that do not resolve. `pages`: empty, or one per book id, from export_book of
// the same files; a null one (a book taken from the cache or a shard) is made from the
// book's files.
void export_index(const std::string& out_dir, const std::vector<std::string>& book_ids,
                  const CorpusMap* map, const ExportOptions& options = {}, std::vector<SitePages> pages = {});

// The block as its Markdown carries it: an emphasis or strong run whose '*' delimiters could
// not open or close where they stand (CommonMark 6.2's flanking rule: a '*' after a code
// span's backtick and before a letter closes nothing) loses that style; its words, its other
// styles and its links stay. The JSON keeps every style.
Block markdown_styles(const Block& b);

// Compares two corpora file by file; prints unified diffs per chapter and the names of
// added/removed chapters and figures (images by hash). Returns true when identical.
bool diff_corpora(const std::string& actual, const std::string& expected, std::ostream& out);

}  // namespace quire
