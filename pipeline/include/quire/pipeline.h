// pipeline: chains the stages for `quire build`, checks the wording promise (`quire verify`),
// and joins shard outputs (`quire merge`). The only module that includes every stage.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <string>
#include <vector>

#include "quire/clean.h"
#include "quire/error.h"
#include "quire/export.h"
#include "quire/extract.h"
#include "quire/layout.h"
#include "quire/model.h"

namespace quire {

enum class LogMode { Human, Json, Quiet };

struct BuildOptions {
  std::string input;     // a directory of PDFs, or one PDF
  std::string out_dir;
  std::string map_path;  // optional map.toml
  std::string pdf_dir;   // where the map's files are (default: input)
  std::string cache_dir; // optional: reuse unchanged books
  int jobs = 0;          // 0 = all cores
  int shard_index = 0, shard_count = 1;
  // Also write each book's intermediate files (extracted pages, cleaned pages, laid-out
  // book) as OUT/intermediate/<id>.{pages,clean,book}.jsonl, to debug a book.
  bool keep_intermediate = false;
  std::string intermediate_dir;  // set by build_corpus from keep_intermediate
  bool verify = true;
  LogMode log = LogMode::Human;
  ExtractOptions extract;
  CleanOptions clean;
  LayoutOptions layout;
  ExportOptions exporting;
};

struct BookOutcome {
  std::string id, file;
  bool ok = false;
  bool cached = false;
  ExitCode code = ExitCode::Ok;
  std::string error;  // one line, when !ok
  std::vector<std::string> warnings;
  int pages = 0, chapters = 0, figures = 0, removed = 0, ocr_pages = 0;
  std::vector<int> chapter_figures;  // figures found per chapter, in book order
  // Wall seconds per stage (reported in the JSON log; never written into the corpus).
  double seconds_extract = 0, seconds_layout = 0, seconds_verify = 0, seconds_export = 0;
  int verify_differences = 0;
};

struct BuildReport {
  std::vector<BookOutcome> books;
  double seconds = 0;
  double seconds_index = 0;  // of `seconds`: the corpus-level files (manifest, corpus.jsonl, site)
  ExitCode exit_code() const;
};

// Extract, clean and layout one PDF in memory. Throws quire::Error for the book.
Book make_book(const std::string& pdf_path, const std::string& id, const BuildOptions& options);

// Builds the corpus into options.out_dir atomically (a temporary folder beside it, renamed
// into place). A failing book is reported and the others are built.
BuildReport build_corpus(const BuildOptions& options);

// Joins the outputs of `build --shard I/N` runs into the corpus a single run makes, byte for
// byte. Checks that the shards are of one build (same book list and N) and that none is missing.
struct MergeOptions {
  std::vector<std::string> shards;
  std::string out_dir;
  std::string map_path;  // the map the shards were built with, if any
  std::string pdf_dir;
  ExportOptions exporting;
};
void merge_corpora(const MergeOptions& options);

// ---- the wording check ----
struct WordDifference {
  std::string book, chapter;
  int page = 0;
  std::string kind;     // "missing" (in the PDF, not in the corpus) or "added"
  std::string word;
  std::string context;  // a few words around it
};

struct VerifyReport {
  int books = 0, chapters = 0, words = 0, ocr_pages = 0;
  std::vector<WordDifference> differences;
  std::vector<std::string> errors;  // books that could not be checked
};

// Re-extracts each book of the corpus, subtracts the logged removals, and compares each
// chapter group's words with the corpus's (allowed: logged hyphen joins, ligatures, white space).
VerifyReport verify_corpus(const std::string& out_dir, const std::string& pdf_dir, const ExtractOptions& extract);
// The source side of the check: each page's lines as normalised white-space tokens,
// taken from a freshly extracted (not cleaned) document. A page keeps all its text in one
// buffer (a book's worth of tokens as separate strings would cost tens of megabytes):
// each line's text, followed, for a line that is not plain ASCII, by its normalised tokens.
struct SourcePage {
  struct Piece {
    uint32_t offset = 0, size = 0;  // within `text`
  };
  struct Line {
    Piece text;
    uint32_t first_token = 0, end_token = 0;  // its tokens: tokens[first_token, end_token)
  };
  int number = 0;
  std::string text;
  std::vector<Piece> tokens;
  std::vector<Line> lines;  // lines with at least one token, in page order

  std::string_view view(Piece p) const { return std::string_view(text).substr(p.offset, p.size); }
};
// Pages are tokenised on up to `jobs` threads; the result does not depend on it.
std::vector<SourcePage> source_words(const Document& extracted, int jobs = 1);
// The same of one page.
SourcePage source_page_words(const Page& extracted);

// The check for one book: per group of chapters that share pages, the multiset of corpus
// words (block text and figure labels) must equal the source words minus logged removals,
// with logged hyphen joins applied; words of excluded matter pages may be missing. Groups are
// checked on up to `jobs` threads; the differences come in the same order at any count.
std::vector<WordDifference> verify_book(const Book& book, const std::vector<SourcePage>& source, int jobs = 1);

}  // namespace quire
