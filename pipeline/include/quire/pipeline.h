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
#include "quire/json.h"
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
  // Put each book's seconds per stage in site/report.html. The report (and so the corpus)
  // then differs from run to run, and the corpus-level files are not taken from the cache.
  bool report_times = false;
  // Findings of the wording check (a figure that reads like prose, ...) fail the build
  // (exit 1) instead of being warnings (exit 3).
  bool strict = false;
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
  std::vector<Diagnostic> warnings;
  int pages = 0, chapters = 0, figures = 0, removed = 0, ocr_pages = 0;
  std::vector<int> chapter_figures;  // figures found per chapter, in book order
  // Wall seconds per stage (reported in the JSON log; never written into the corpus).
  double seconds_extract = 0, seconds_layout = 0, seconds_verify = 0, seconds_export = 0;
  int verify_differences = 0;
  int verify_findings = 0;
  std::optional<WordLedger> ledger;  // the book's, when checked
};

struct BuildReport {
  std::vector<BookOutcome> books;
  bool strict = false;  // findings of the wording check make the exit code 1
  double seconds = 0;
  double seconds_index = 0;  // of `seconds`: the corpus-level files (manifest, corpus.jsonl, site)
  ExitCode exit_code() const;
};

// Extract, clean and layout one PDF in memory. Throws quire::Error for the book.
Book make_book(const std::string& pdf_path, const std::string& id, const BuildOptions& options);

// A book's record from its document (id, file, title, authors, OCR pages, the document's
// warnings), before its chapters are made: what `quire build` and `quire layout` both start
// from.
Book book_record(const Document& doc, const std::string& id, const LayoutOptions& options);
// Lays out a (cleaned) document into the book's chapters, excluded matter, hyphen joins and
// layout warnings.
void lay_out_book(Book& book, const Document& doc, const LayoutOptions& options);

// ---- the stages' options by name: `--set stage.option=value`, `quire options` ----
// The options structs a command takes; null: the command does not take that stage's options.
struct StageOptionTargets {
  ExtractOptions* extract = nullptr;
  CleanOptions* clean = nullptr;
  LayoutOptions* layout = nullptr;
  ExportOptions* exporting = nullptr;
};
// Applies one "stage.option=value" (stage: extract, clean, layout or export) through the
// stage's option table. Throws Error(ExitCode::Usage), one line naming the setting, for an
// unknown stage or option (with the close names), a stage the command does not take, or a
// value that is not of the option's type.
void set_stage_option(const StageOptionTargets& targets, std::string_view setting);
// docs/options.md: every stage's option table with its defaults, as Markdown.
std::string options_reference();

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
  // Hard-link the books' files from the shards instead of copying them (a book whose files
  // cannot be linked, on another file system, is copied). The corpus then shares those files
  // with the shards, which must not be changed in place afterwards (quire never does).
  bool link = false;
  ExportOptions exporting;
};
void merge_corpora(const MergeOptions& options);

// ---- quire inspect: a picture of what quire decided on a page ----
struct InspectOptions {
  std::string pdf;
  std::string out_dir;
  int first_page = 0, last_page = 0;  // 1-based inclusive; 0: the first / the last page
  int dpi = 100;                      // of the page images
  // Lines of the overlay, in points: a block's box, and the rules of a code grid or table.
  double line_width = 1.0, grid_line_width = 0.3;
  // Furniture is tinted red inside (opacity) as well as outlined, as the one thing taken out.
  double furniture_alpha = 0.15;
  // A code block's grid is ruled at every line and every this many columns (a rule at every
  // character would hide the characters).
  int code_grid_columns = 10;
  BuildOptions build;  // the stages' options, as `quire build` takes them
};

// One shape of the overlay. kind: a block type ("paragraph", "code", ...), "code-grid" and
// "table-cell" (inside the block numbered `number`), "furniture" (a removal; `reason` is
// clean's), or "excluded" (a page of matter left out; `reason` is its kind). `number`: a
// block's reading order on the page from 1 (blocks), the removal's order on the page.
struct InspectMark {
  std::string kind;
  int number = 0;
  Box box;
  uint32_t color = 0;  // 0xRRGGBB
  std::string reason, label;
  bool operator==(const InspectMark&) const = default;
};

struct InspectPage {
  int page = 0;
  std::vector<InspectMark> marks;
};

struct InspectReport {
  Book book;  // as laid out (not verified, not exported)
  std::vector<InspectPage> pages;
};

// The overlay of one page of a laid-out book (page: its number and size).
std::vector<InspectMark> overlay_marks(const Book& book, const Page& page, const InspectOptions& options = {});
Json to_json(const InspectMark&);

// Runs the book through extract -> clean -> layout as `quire build` does, then writes
// out_dir/page-NNNN.png (the page with its overlay), page-NNNN.json (the marks) for each
// page of the range, and index.html. out_dir is replaced atomically: on an error (quire::Error
// naming the file and page) nothing is left of it.
InspectReport inspect_book(const InspectOptions& options);

// ---- the wording check ----
struct WordDifference {
  std::string book, chapter;
  int page = 0;
  // "missing" (in the PDF, in no account), "added" (in the corpus, not in the PDF, or twice),
  // or "misplaced" (in a block or a figure's labels whose box on the page does not hold it)
  std::string kind;
  std::string word;
  std::string context;  // a few words around it, or where it was found
};

// A word that left the prose by a way that is allowed but suspicious: a figure whose labels
// read like body text, a "running head" printed once, a body line removed as furniture.
// Not a difference (every word is accounted for), but a place a person should look at.
struct VerifyFinding {
  std::string book, chapter;
  int page = 0;
  int figure = 0;        // the figure's number in its chapter (1-based), 0 when not about one
  std::string kind;      // "figure-holds-body-text", "figure-holds-many-words",
                         // "running-head-once", "body-line-removed"
  std::string message;   // one line for a person
};

// Thresholds of the suspicious exits, each a fact of book typography.
struct FindingOptions {
  // A line across this share of the book's measure (its widest body lines) is a line of
  // prose: figure labels are short, a removed running head is a line of its own.
  double body_line_measure_ratio = 0.7;
  // Labels read like text when they hold more words per square inch than this: prose set in
  // a 10 pt book face holds about 14; the densest diagrams a third of that.
  double label_words_per_square_inch = 6.0;
  int label_words_min = 40;  // ... and at least this many words, whatever the figure's size
  // A removed line stands in the middle of the page when its centre is this far from both
  // the top and the bottom edge, as a share of the page height (heads and feet sit in the
  // outer tenth).
  double middle_of_page = 0.2;
  int body_line_words_min = 6;  // a line of fewer words is not read as prose (labels, a short head)
};

struct VerifyOptions {
  FindingOptions findings;
  // The source words come from another engine than the corpus's (`quire verify --engine
  // poppler`): differences the engines are known to make (witness.h) are counted apart,
  // not reported as differences.
  bool witness = false;
};

// What the check found in one book.
struct BookCheck {
  std::vector<WordDifference> differences;
  std::vector<VerifyFinding> findings;
  std::vector<WordLedger> chapters;  // one per chapter, in book order
  std::vector<long> excluded_words;  // one per excluded matter entry
  WordLedger book;                   // the whole book's
  // Witness mode: words the list of known engine differences explains, per kind of difference.
  std::vector<std::pair<std::string, long>> explained;
};

struct VerifyReport {
  int books = 0, chapters = 0, words = 0, ocr_pages = 0;
  std::vector<WordDifference> differences;
  std::vector<VerifyFinding> findings;
  std::vector<std::pair<std::string, WordLedger>> ledgers;  // per book id, in manifest order
  std::vector<std::pair<std::string, long>> explained;      // witness mode: see BookCheck
  std::vector<std::string> errors;  // books that could not be checked
};

// Re-extracts each book of the corpus, subtracts the logged removals, and checks each
// chapter's ledger against the corpus (allowed: logged hyphen joins, ligatures, white space).
VerifyReport verify_corpus(const std::string& out_dir, const std::string& pdf_dir, const ExtractOptions& extract,
                           const VerifyOptions& options = {});
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
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;     // its box on the page
    uint16_t font = 0;                        // fonts[font]: the font of most of its letters
  };
  struct Font {
    std::string name;
    float size = 0;
    bool operator==(const Font&) const = default;
  };
  int number = 0;
  float width = 0, height = 0;
  std::string text;
  std::vector<Piece> tokens;
  std::vector<Line> lines;  // lines with at least one token, in page order
  std::vector<Font> fonts;

  std::string_view view(Piece p) const { return std::string_view(text).substr(p.offset, p.size); }
};
// Pages are tokenised on up to `jobs` threads; the result does not depend on it.
std::vector<SourcePage> source_words(const Document& extracted, int jobs = 1);
// The same of one page.
SourcePage source_page_words(const Page& extracted);

// The check for one book. Per group of chapters that share pages, the multiset of corpus
// words (block text and figure labels) must equal the source words minus logged removals,
// with logged hyphen joins applied; words of excluded matter pages may be missing. Each
// block's words must stand inside its box on its page, and each figure's labels inside the
// figure. Groups are checked on up to `jobs` threads; the result is the same at any count.
BookCheck verify_book(const Book& book, const std::vector<SourcePage>& source, int jobs = 1,
                      const VerifyOptions& options = {});
// Puts a check's ledgers into the book (chapters, excluded matter, the whole book), for book.json.
void set_ledgers(Book& book, const BookCheck& check);

}  // namespace quire
