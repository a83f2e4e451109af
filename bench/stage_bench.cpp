// Where one book's time goes, stage by stage, in one process (no JSON between stages):
//
//   quire_stage_bench BOOK.pdf [--jobs N]... [--repeat R] [--figures]
//
// For each --jobs value (default: 1 and 2), runs extract, clean, layout, the source words and
// the wording check R times (default 3) and prints the fastest wall seconds of each stage and
// their sum, beside the process CPU seconds of that fastest run. Export, with figure rendering
// (--figures) or without, writes into a temporary folder that is removed afterwards. It measures;
// it asserts nothing except that every run gives the same book as the first.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "quire/clean.h"
#include "quire/export.h"
#include "quire/extract.h"
#include "quire/layout.h"
#include "quire/pipeline.h"

namespace {

using Clock = std::chrono::steady_clock;

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

struct Timing {
  std::map<std::string, double> wall;  // stage -> seconds
  double cpu = 0;
  double total() const {
    double t = 0;
    for (const auto& [k, v] : wall) t += v;
    return t;
  }
};

const char* const kStages[] = {"extract", "clean", "layout", "source_words", "verify", "export"};

}  // namespace

int main(int argc, char** argv) {
  using namespace quire;
  namespace fs = std::filesystem;
  std::string pdf;
  std::vector<int> jobs_list;
  int repeat = 3;
  bool figures = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--jobs") jobs_list.push_back(std::max(1, std::stoi(value())));
    else if (a == "--repeat") repeat = std::max(1, std::stoi(value()));
    else if (a == "--figures") figures = true;
    else if (pdf.empty() && a[0] != '-') pdf = a;
    else {
      std::cerr << "usage: quire_stage_bench BOOK.pdf [--jobs N]... [--repeat R] [--figures]\n";
      return 2;
    }
  }
  if (pdf.empty()) {
    std::cerr << "usage: quire_stage_bench BOOK.pdf [--jobs N]... [--repeat R] [--figures]\n";
    return 2;
  }
  if (jobs_list.empty()) jobs_list = {1, 2};
  const fs::path tmp = fs::temp_directory_path() / ("quire-stage-bench-" + std::to_string(getpid()));

  std::optional<Book> first;
  std::printf("%-28s %5s", fs::path(pdf).filename().c_str(), "jobs");
  for (const char* s : kStages) std::printf(" %12s", s);
  std::printf(" %9s %9s\n", "sum", "cpu");
  try {
    for (int jobs : jobs_list) {
      Timing best;
      for (int r = 0; r < repeat; ++r) {
        Timing t;
        const double cpu0 = cpu_seconds();
        auto lap = [&](const char* stage, auto&& fn) {
          auto t0 = Clock::now();
          fn();
          t.wall[stage] = std::chrono::duration<double>(Clock::now() - t0).count();
        };
        ExtractOptions eo;
        eo.jobs = jobs;
        CleanOptions co;
        co.jobs = jobs;
        LayoutOptions lo;
        lo.jobs = jobs;
        Document doc;
        std::vector<SourcePage> source;
        Book book;
        // As the build does: with figures, the pages that may hold them are kept drawn.
        std::shared_ptr<PageDrawings> drawings;
        lap("extract", [&] { doc = extract_document(pdf, eo, figures ? &drawings : nullptr); });
        lap("source_words", [&] { source = source_words(doc, jobs); });
        CleanResult cleaned;
        lap("clean", [&] { cleaned = clean_document(doc, co); });
        LayoutResult laid;
        lap("layout", [&] { laid = layout_document(doc, lo); });
        book.id = "book";
        book.file = doc.file;
        book.page_count = doc.page_count;
        book.chapters = std::move(laid.chapters);
        book.excluded = std::move(laid.excluded);
        book.joins = std::move(laid.joins);
        book.removed = std::move(cleaned.removed);
        BookCheck check;
        lap("verify", [&] { check = verify_book(book, source, jobs); });
        if (!first) first = book;
        else if (!(*first == book)) {
          std::cerr << "the book differs between runs (jobs " << jobs << ")\n";
          return 1;
        }
        lap("export", [&] {
          fs::create_directories(tmp / "books");
          // As the build does: one renderer per rendering thread, reused.
          std::mutex m;
          std::vector<std::unique_ptr<PdfRenderer>> idle;
          RenderFigure render;
          if (figures)
            render = [&](const Book&, const Block& b) {
              std::unique_ptr<PdfRenderer> pr;
              {
                std::lock_guard lock(m);
                if (!idle.empty()) {
                  pr = std::move(idle.back());
                  idle.pop_back();
                }
              }
              if (!pr) pr = std::make_unique<PdfRenderer>(pdf, "", drawings);
              std::string png = pr->png(b.page, b.bbox, lo.figures.figure_dpi);
              std::lock_guard lock(m);
              idle.push_back(std::move(pr));
              return png;
            };
          ExportOptions xo;
          xo.jobs = jobs;
          Book copy = book;
          export_book(copy, tmp.string(), render, xo);
        });
        fs::remove_all(tmp);
        t.cpu = cpu_seconds() - cpu0;
        if (r == 0 || t.total() < best.total()) best = t;
        if (!check.differences.empty()) std::cerr << "note: " << check.differences.size() << " word differences\n";
      }
      std::printf("%-28s %5d", "", jobs);
      for (const char* s : kStages) std::printf(" %12.3f", best.wall[s]);
      std::printf(" %9.3f %9.3f\n", best.total(), best.cpu);
    }
  } catch (const Error& e) {
    std::cerr << "error: " << e.message() << "\n";
    fs::remove_all(tmp);
    return 1;
  }
  return 0;
}
