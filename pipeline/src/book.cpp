#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "book_io.h"
#include "quire/json.h"
#include "quire/parallel.h"
#include "quire/spill.h"
#include "quire/text.h"

namespace quire {

namespace fs = std::filesystem;

namespace {

// A page's error as a Diagnostic: the engine's own warning about that page when it gave one
// (so the page's error carries the engine's kind), else content the page came without.
Diagnostic page_error(const Document& doc, int page, const std::string& message) {
  for (const auto& w : doc.warnings)
    if (w.page == page && w.file == doc.file && w.message == message) return w;
  return Diagnostic::at("extract", "page-incomplete", doc.file, page, message);
}

}  // namespace

Book book_record(const Document& doc, const std::string& id, const LayoutOptions& options) {
  Book book;
  book.id = id;
  book.file = doc.file;
  book.sha256 = doc.sha256;
  book.page_count = doc.page_count;
  book.title = book_title(doc, options);
  if (!doc.metadata.author.empty()) book.authors.push_back(doc.metadata.author);
  for (const auto& p : doc.pages) {
    if (p.ocr) {
      book.ocr_pages.push_back(p.number);
      if (p.ocr_confidence >= 0 && p.ocr_confidence < 70) book.low_confidence_pages.push_back(p.number);
    }
    for (const auto& e : p.errors) book.warnings.push_back(page_error(doc, p.number, e));
  }
  // An engine reports a page it could not read both on the page and in the document's
  // warnings: each is listed once, where it first comes.
  std::set<Diagnostic> listed(book.warnings.begin(), book.warnings.end());
  for (const auto& w : doc.warnings)
    if (listed.insert(w).second) book.warnings.push_back(w);
  return book;
}

void lay_out_book(Book& book, const Document& doc, const LayoutOptions& options) {
  LayoutResult laid = layout_document(doc, options);
  book.chapters = std::move(laid.chapters);
  book.excluded = std::move(laid.excluded);
  book.joins = std::move(laid.joins);
  // Layout's removals go in among clean's, in the log's order (clean's first at one place).
  book.removed.insert(book.removed.end(), laid.removed.begin(), laid.removed.end());
  std::stable_sort(book.removed.begin(), book.removed.end(), removal_order);
  for (auto& w : laid.warnings) book.warnings.push_back(std::move(w));
}

Book book_from_document(Document& doc, const std::string& id, const BuildOptions& options,
                        std::vector<SourcePage>* source) {
  Book book = book_record(doc, id, options.layout);
  // The verifier's source words are taken in clean's first pass, before it changes a page.
  if (source) source->assign(doc.pages.size(), {});
  CleanResult cleaned = clean_document(doc, options.clean, [&](size_t i, const Page& page) {
    if (source) (*source)[i] = source_page_words(page);
  });
  if (!options.intermediate_dir.empty()) {
    std::ofstream out(fs::path(options.intermediate_dir) / (id + ".clean.jsonl"), std::ios::binary);
    write_pages_jsonl(out, doc);
  }
  book.removed = std::move(cleaned.removed);
  for (auto& w : cleaned.warnings) book.warnings.push_back(std::move(w));
  lay_out_book(book, doc, options.layout);
  return book;
}

BookOutcome build_one_book(const std::string& pdf_path, const std::string& id, const MapBook* map_entry,
                           const BuildOptions& options, const std::string& tmp_out, SitePages* pages) {
  BookOutcome o;
  o.id = id;
  o.file = fs::path(pdf_path).filename().string();
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  auto t = Clock::now();
  // With threads to spare, the language resources layout asks for load beside extraction
  // rather than on their own when layout reaches them (once per process).
  std::jthread preloading;
  if (options.extract.jobs > 1) {
    fill_locale_tables();
    preloading = std::jthread([&options] {
      try {
        preload_language_resources(options.layout);
      } catch (...) {  // layout loads them itself, and reports what fails
      }
    });
  }
  // Pages that may hold figures stay drawn until the figures are rendered.
  std::shared_ptr<PageDrawings> drawings;
  Document doc = extract_document(pdf_path, options.extract, &drawings);
  o.seconds_extract = since(t);
  if (!options.intermediate_dir.empty()) {
    std::ofstream out(fs::path(options.intermediate_dir) / (id + ".pages.jsonl"), std::ios::binary);
    write_pages_jsonl(out, doc);
  }
  t = Clock::now();
  o.pages = static_cast<int>(doc.pages.size());
  std::vector<SourcePage> source;
  Book book = book_from_document(doc, id, options, options.verify ? &source : nullptr);
  // Freeing a large book's pages takes a while: with more than one job and a lane free (see
  // quire/parallel.h) it happens on a thread of its own while the book is checked and
  // written. Without a free lane the thread would wait for a core, and so would the join
  // that ends this book.
  std::jthread freeing;
  if (options.extract.jobs > 1 && Lanes::shared().spare()) {
    freeing = std::jthread([pages = std::move(doc)]() mutable { pages = Document(); });
  } else {
    doc = Document();
  }
  o.seconds_layout = since(t);
  if (!options.intermediate_dir.empty()) {
    std::ofstream out(fs::path(options.intermediate_dir) / (id + ".book.jsonl"), std::ios::binary);
    write_book_jsonl(out, book);
  }
  t = Clock::now();
  if (map_entry) {
    if (!map_entry->title.empty()) book.title = map_entry->title;
    if (!map_entry->authors.empty()) book.authors = map_entry->authors;
  }
  if (options.verify) {
    BookCheck check = verify_book(book, source, options.extract.jobs);
    std::vector<SourcePage>().swap(source);  // not needed while the book is written
    set_ledgers(book, check);
    o.ledger = check.book;
    o.verify_differences = static_cast<int>(check.differences.size());
    o.verify_findings = static_cast<int>(check.findings.size());
    size_t shown = 0;
    for (const auto& d : check.differences) {
      if (++shown > 20) {
        book.warnings.push_back(Diagnostic::at(
            "verify", "verify-more", o.file, 0,
            "verify: " + std::to_string(check.differences.size() - 20) + " more word differences"));
        break;
      }
      book.warnings.push_back(Diagnostic::at(
          "verify", "verify-" + d.kind, o.file, d.page,
          "verify: " + d.kind + " word \"" + d.word + "\" " +
              (d.kind == "misplaced" ? d.context : "near \"" + d.context + "\"")));
    }
    for (const auto& f : check.findings)
      book.warnings.push_back(
          Diagnostic::at("verify", "finding-" + f.kind, o.file, f.page, "finding: " + f.kind + ": " + f.message));
  }
  if (freeing.joinable()) freeing.join();
  o.seconds_verify = since(t);
  t = Clock::now();
  // (export_book makes the book's folder.)
  // One renderer (a MuPDF context and document) per thread that renders a figure, opened
  // on first use: a book without figures never opens one.
  std::mutex renderers_mutex;
  std::vector<std::unique_ptr<PdfRenderer>> idle;
  const int dpi = options.layout.figures.figure_dpi;
  RenderFigure render = [&](const Book&, const Block& b) {
    std::unique_ptr<PdfRenderer> r;
    {
      std::lock_guard lock(renderers_mutex);
      if (!idle.empty()) {
        r = std::move(idle.back());
        idle.pop_back();
      }
    }
    if (!r) r = std::make_unique<PdfRenderer>(pdf_path, options.extract.password, drawings);
    std::string png = r->png(b.page, b.bbox, dpi);
    std::lock_guard lock(renderers_mutex);
    idle.push_back(std::move(r));
    return png;
  };
  ExportOptions exporting = options.exporting;
  exporting.jobs = options.extract.jobs;
  if (drawings) exporting.figure_group = [&drawings](const Block& b) { return drawings->holder(b.page); };
  export_book(book, tmp_out, render, exporting, pages);
  idle.clear();
  if (options.extract.jobs > 1 && drawings && Lanes::shared().spare()) freeing = std::jthread([kept = std::move(drawings)] {});
  drawings.reset();
  o.seconds_export = since(t);
  o.chapters = static_cast<int>(book.chapters.size());
  for (const auto& c : book.chapters) {
    int n = 0;
    for (const auto& b : c.blocks)
      if (b.type == BlockType::Figure) ++n;
    o.chapter_figures.push_back(n);
    o.figures += n;
  }
  o.removed = static_cast<int>(book.removed.size());
  o.ocr_pages = static_cast<int>(book.ocr_pages.size());
  o.warnings = book.warnings;
  return o;
}

Json outcome_to_json(const BookOutcome& o) {
  Json j;
  j["pages"] = o.pages;
  j["chapters"] = o.chapters;
  j["figures"] = o.figures;
  j["chapter_figures"] = o.chapter_figures;
  j["removed"] = o.removed;
  j["ocr_pages"] = o.ocr_pages;
  j["verify_differences"] = o.verify_differences;
  j["verify_findings"] = o.verify_findings;
  if (o.ledger) j["ledger"] = to_json(*o.ledger);
  Json warnings = Json::array();
  for (const auto& w : o.warnings) warnings.push_back(w.text());
  j["warnings"] = std::move(warnings);
  return j;
}

void report_book(const BookOutcome& o, LogMode mode) {
  if (mode == LogMode::Json) {
    // Each warning is an event of its own, before its book's end, so that a CI log can be
    // searched for them line by line; book_finished lists them again.
    for (const auto& w : o.ok ? o.warnings : std::vector<Diagnostic>{}) {
      Json ev;
      ev["event"] = "warning";
      ev["book"] = o.id;
      ev["file"] = o.file;
      if (w.page > 0) ev["page"] = w.page;  // none: about the whole book
      ev["stage"] = w.stage;
      ev["code"] = w.code;
      ev["message"] = w.text();
      std::cerr << dump(ev, false);
    }
    Json j;
    j["event"] = o.ok ? "book_finished" : "book_failed";
    j["book"] = o.id;
    j["file"] = o.file;
    if (!o.ok) {
      j["error"] = o.error;
      j["exit_code"] = static_cast<int>(o.code);
    } else {
      j["cached"] = o.cached;
      j.update(outcome_to_json(o));
      // Where the time went (not in the corpus, which stays byte-identical).
      if (!o.cached) {
        auto ms = [](double s) { return std::round(s * 1000.0) / 1000.0; };  // to the millisecond
        j["seconds"] = {{"extract", ms(o.seconds_extract)}, {"clean_layout", ms(o.seconds_layout)},
                        {"verify", ms(o.seconds_verify)}, {"export", ms(o.seconds_export)}};
      }
    }
    std::cerr << dump(j, false);
    return;
  }
  if (!o.ok) {
    std::cerr << "error: " << o.error << "\n";
    return;
  }
  for (const auto& w : o.warnings) std::cerr << "warning: " << w.text() << "\n";
  std::cerr << o.id << (o.cached ? " (cached)" : "") << ": " << o.pages << " pages, " << o.chapters << " chapters, " << o.figures << " figures, "
            << o.removed << " furniture spans removed";
  if (o.ocr_pages) std::cerr << ", " << o.ocr_pages << " pages OCR'd";
  std::cerr << (o.verify_differences ? ", VERIFY FAILED (" + std::to_string(o.verify_differences) + " word differences)"
                                     : std::string(", wording verified"))
            << "\n";
  if (o.ledger) {
    const WordLedger& l = *o.ledger;
    std::cerr << "  words: " << l.extracted << " extracted = " << l.text << " text + " << l.labels << " figure labels + "
              << l.removed_total() << " furniture";
    for (size_t i = 0; i < l.removed.size(); ++i)
      std::cerr << (i ? ", " : " (") << l.removed[i].second << " " << l.removed[i].first << (i + 1 == l.removed.size() ? ")" : "");
    std::cerr << " + " << l.excluded << " left-out matter";
    if (l.differences()) std::cerr << "; " << l.missing << " missing, " << l.added << " added, " << l.misplaced << " misplaced";
    if (o.verify_findings) std::cerr << "; " << o.verify_findings << " findings";
    std::cerr << "\n";
  }
  if (o.figures > 0) {
    std::cerr << "  figures per chapter:";
    for (size_t i = 0; i < o.chapter_figures.size(); ++i) std::cerr << " " << i + 1 << ":" << o.chapter_figures[i];
    std::cerr << "\n";
  }
}

void write_shard_info(const std::string& out_dir, int index, int count, const std::vector<std::string>& all_ids) {
  Json j;
  j["format"] = "quire-shard/1";
  j["index"] = index;
  j["count"] = count;
  j["books"] = all_ids;
  std::ofstream(fs::path(out_dir) / "shard.json") << dump(j, true);
}

}  // namespace quire
