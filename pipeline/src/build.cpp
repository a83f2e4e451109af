// `quire build`: every book through extract -> clean -> layout -> verify -> export, books in
// parallel, output written into a temporary folder beside OUT and swapped into place.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "book_io.h"
#include "cache.h"
#include "progress.h"
#include "quire/json.h"
#include "quire/parallel.h"
#include "quire/pipeline.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "work_order.h"

namespace quire {

namespace fs = std::filesystem;

ExitCode BuildReport::exit_code() const {
  bool failed = false, warned = false, found = false;
  for (const auto& b : books) {
    failed |= !b.ok;
    warned |= !b.warnings.empty() || b.verify_differences > 0;
    found |= b.verify_differences > 0 || b.verify_findings > 0;
  }
  if (failed) return ExitCode::BookFailed;
  if (strict && found) return ExitCode::Differences;
  if (warned) return ExitCode::Warnings;
  return ExitCode::Ok;
}

Book make_book(const std::string& pdf_path, const std::string& id, const BuildOptions& options) {
  Document doc = extract_document(pdf_path, options.extract);
  return book_from_document(doc, id, options, nullptr);
}

namespace {

struct BookJob {
  std::string id;
  std::string path;  // the PDF
  std::string file;  // its base name
  const MapBook* map_entry = nullptr;
};

bool is_pdf_name(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".pdf";
}

// Book ids from file names: slugs, made unique with -2, -3... in name order.
std::vector<BookJob> jobs_from_directory(const std::string& input) {
  std::vector<fs::path> files;
  if (fs::is_regular_file(input)) {
    files.push_back(input);
  } else {
    if (!fs::is_directory(input)) throw Error(ExitCode::NotFound, input, 0, "no such file or directory");
    for (const auto& e : fs::directory_iterator(input))
      if (e.is_regular_file() && is_pdf_name(e.path())) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<BookJob> jobs;
  std::set<std::string> used;
  for (const auto& f : files) {
    std::string base = slugify(f.stem().string(), 60, "book");
    std::string id = base;
    for (int k = 2; used.count(id); ++k) id = base + "-" + std::to_string(k);
    used.insert(id);
    jobs.push_back({id, f.string(), f.filename().string(), nullptr});
  }
  return jobs;
}

std::vector<BookJob> jobs_from_map(const CorpusMap& map, const std::string& pdf_dir) {
  std::vector<BookJob> jobs;
  fs::path base = pdf_dir.empty() ? fs::path(map.path).parent_path() : fs::path(pdf_dir);
  for (const auto& b : map.books) {
    fs::path p = base / b.file;
    jobs.push_back({b.id, p.string(), p.filename().string(), &b});
  }
  return jobs;
}

// Atomically exchanges two paths (Linux renameat2 RENAME_EXCHANGE), so that OUT is always
// either the old corpus or the new one, never missing or half-written.
bool exchange_paths(const fs::path& a, const fs::path& b) {
#ifdef SYS_renameat2
  constexpr unsigned kRenameExchange = 1u << 1;
  return syscall(SYS_renameat2, AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), kRenameExchange) == 0;
#else
  return false;
#endif
}

}  // namespace

void remove_tree(const fs::path& dir) {
  std::error_code ec;
  std::vector<fs::path> files, dirs;  // dirs: each after the folder that holds it
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->symlink_status(ec).type() == fs::file_type::directory) dirs.push_back(it->path());
    else files.push_back(it->path());
  }
  // The files by several threads at once: removing a file is mostly a wait on the disk (on a
  // disk mounted with `discard`, each file's blocks are trimmed before unlink returns), so
  // the threads wait side by side rather than in turn; they take next to no processor time.
  // Measured on ext4 mounted with `discard`, a 240-book corpus of 4,700 files a minute
  // after it was written: 0.50-0.67 s on one thread, 0.38 s on two, 0.28 s on four,
  // 0.25-0.26 s on eight.
  constexpr size_t kRemovers = 8, kFilesPerRemover = 64;
  const size_t threads = std::min(kRemovers, (files.size() + kFilesPerRemover - 1) / kFilesPerRemover);
  std::atomic<size_t> next{0};
  auto remove_files = [&] {
    for (size_t i = next++; i < files.size(); i = next++) ::unlink(files[i].c_str());
  };
  std::vector<std::thread> removers;
  try {
    for (size_t t = 1; t < threads; ++t) removers.emplace_back(remove_files);
  } catch (const std::system_error&) {  // no thread to be had: the ones there are do it all
  }
  remove_files();
  for (auto& t : removers) t.join();
  for (auto it = dirs.rbegin(); it != dirs.rend(); ++it) ::rmdir(it->c_str());
  // Whatever is left (a file made meanwhile, a folder that could not be listed).
  fs::remove_all(dir, ec);
}

void install_output_dir(const fs::path& tmp, const fs::path& out) {
  std::error_code ec;
  if (!fs::exists(out)) {
    fs::rename(tmp, out, ec);
    if (ec) throw Error(ExitCode::Io, out.string(), 0, "cannot move the new corpus into place: " + ec.message());
    return;
  }
  if (exchange_paths(tmp, out)) {
    remove_tree(tmp);  // now holds the previous corpus
    return;
  }
  // Fallback without an atomic exchange: the old corpus is moved aside first.
  fs::path old = out;
  old += ".old";
  remove_tree(old);
  fs::rename(out, old, ec);
  if (ec) throw Error(ExitCode::Io, out.string(), 0, "cannot replace the corpus: " + ec.message());
  fs::rename(tmp, out, ec);
  if (ec) throw Error(ExitCode::Io, out.string(), 0, "cannot move the new corpus into place: " + ec.message());
  remove_tree(old);
}

// Temporary folders of builds that were killed (their process is gone) are removed.
void remove_stale_temporaries(const fs::path& out) {
  std::error_code ec;
  const std::string prefix = out.filename().string() + ".tmp-";
  for (const auto& e : fs::directory_iterator(out.parent_path(), ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    std::string pid = name.substr(prefix.size());
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (fs::exists("/proc/" + pid)) continue;
    remove_tree(e.path());
  }
}

namespace {

void detail_check_exists(const std::string& path) {
  if (!fs::is_regular_file(path)) throw Error(ExitCode::NotFound, path, 0, "no such file or not readable");
}

// The JSON log's event for a book begun (--log json).
void log_book_started(const std::string& id, const std::string& file) {
  Json ev;
  ev["event"] = "book_started";
  ev["book"] = id;
  ev["file"] = file;
  std::fputs(dump(ev, false).c_str(), stderr);
}

// A cached rebuild that would give OUT back as it is leaves OUT alone, and reports the books
// as any cached rebuild does: making a new tree of links to OUT's files and removing the old
// one is most of such a rebuild's time (a shelf's thousands of files), and all of its writes.
// It applies where every book and the corpus-level files are cached, OUT holds their files as
// the last build installed them and nothing else (cache_unchanged_output), and the build
// would add nothing of its own (a shard's note, intermediate files, stage times).
bool leave_unchanged_output(const BuildOptions& options, const std::vector<BookJob>& mine, const fs::path& out,
                            BuildReport& report) {
  if (options.cache_dir.empty() || options.shard_count > 1 || options.keep_intermediate || options.report_times)
    return false;
  std::vector<std::pair<std::string, std::string>> keyed;
  try {
    for (const auto& job : mine) {
      if (!fs::is_regular_file(job.path)) return false;
      keyed.push_back({job.id, cache_key(job.path, job.id, job.map_entry, options)});
    }
    const std::string index_key = index_cache_key(keyed, options.map_path, options);
    std::optional<std::vector<BookOutcome>> outcomes =
        cache_unchanged_output(options.cache_dir, out.string(), keyed, index_key);
    if (!outcomes) return false;
    report.books = std::move(*outcomes);
  } catch (const std::exception&) {
    return false;  // the build proper reports what is wrong
  }
  for (size_t i = 0; i < mine.size(); ++i) {
    BookOutcome& o = report.books[i];
    o.file = mine[i].file;
    if (options.log == LogMode::Json) log_book_started(o.id, o.file);
    if (options.log != LogMode::Quiet) report_book(o, options.log);
  }
  return true;
}

}  // namespace

BuildReport build_corpus(const BuildOptions& options) {
  auto t0 = std::chrono::steady_clock::now();
  BuildReport report;
  report.strict = options.strict;
  std::optional<CorpusMap> map;
  if (!options.map_path.empty()) map = read_map(options.map_path, options.pdf_dir.empty() ? options.input : options.pdf_dir);
  std::vector<BookJob> all = map ? jobs_from_map(*map, options.pdf_dir.empty() ? options.input : options.pdf_dir)
                                 : jobs_from_directory(options.input);
  if (all.empty()) throw Error(ExitCode::NotFound, options.input, 0, "no PDF files found");

  // A deterministic share of the books for --shard I/N: every N-th book in id order.
  std::vector<BookJob> mine;
  {
    std::vector<size_t> order(all.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return all[a].id < all[b].id; });
    // The share keeps the books' own order (the map's, or the file names'): positions in
    // `all`, sorted, rather than a search of `all` per comparison (quadratic in the books).
    std::vector<size_t> picked;
    for (size_t k = 0; k < order.size(); ++k)
      if (static_cast<int>(k % static_cast<size_t>(options.shard_count)) == options.shard_index)
        picked.push_back(order[k]);
    std::sort(picked.begin(), picked.end());
    mine.reserve(picked.size());
    for (size_t i : picked) mine.push_back(all[i]);
  }

  fs::path out = fs::absolute(options.out_dir).lexically_normal();
  if (out.filename().empty()) out = out.parent_path();
  fs::create_directories(out.parent_path());
  remove_stale_temporaries(out);
  if (leave_unchanged_output(options, mine, out, report)) {
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return report;
  }
  fs::path tmp = out;
  tmp += ".tmp-" + std::to_string(getpid());
  std::error_code ec;
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp / "books");

  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int jobs = options.jobs > 0 ? options.jobs : hw;
  const int book_workers = std::max(1, std::min<int>(jobs, static_cast<int>(mine.size())));
  BuildOptions per_book = options;
  // Every book may use every job in each stage (pages, chapters, figures); the lanes keep
  // the threads at work to `jobs`, and a book worker that finds no book left gives its lane
  // to the books still in flight.
  Lanes::Limit lanes(jobs - book_workers);
  per_book.extract.jobs = jobs;
  // The books in flight share one page budget: two large books built at once keep no more of
  // their pages in memory than one would.
  if (per_book.extract.spill_after_mb >= 0 && !per_book.extract.spill_budget)
    per_book.extract.spill_budget =
        std::make_shared<SpillBudget>(static_cast<size_t>(per_book.extract.spill_after_mb * 1024 * 1024));
  per_book.clean.jobs = per_book.extract.jobs;
  per_book.layout.jobs = per_book.extract.jobs;
  if (options.keep_intermediate) {
    per_book.intermediate_dir = (tmp / "intermediate").string();
    per_book.cache_dir.clear();  // a cached book has no intermediate files to give
    fs::create_directories(per_book.intermediate_dir);
  }

  report.books.resize(mine.size());
  std::vector<uintmax_t> sizes(mine.size());
  for (size_t i = 0; i < mine.size(); ++i) {
    sizes[i] = fs::file_size(mine[i].path, ec);
    if (ec) sizes[i] = 0;
  }
  const std::vector<size_t> order = work_order(sizes);
  Progress progress(options.log == LogMode::Human, sizes);
  std::atomic<size_t> next{0};
  std::mutex log_mutex;
  std::vector<std::string> book_keys(mine.size());
  // The site pages of the books built here, made while each book was still in memory: the
  // corpus-level files then read only the chapter files of books taken from the cache.
  std::vector<SitePages> pages(mine.size());
  auto work = [&] {
    for (size_t k = next++; k < mine.size(); k = next++) {
      const size_t i = order[k];
      const BookJob& job = mine[i];
      BookOutcome& o = report.books[i];
      o.id = job.id;
      o.file = job.file;
      fs::path book_dir = tmp / "books" / job.id;
      progress.book_started(i, job.id);
      BuildOptions book_options = per_book;  // this book's progress callbacks
      book_options.extract.on_open = [&progress, i](int pages) { progress.book_opened(i, pages); };
      book_options.extract.on_page = [&progress, i](int) { progress.page_done(i); };
      if (options.log == LogMode::Json) {
        std::lock_guard lock(log_mutex);
        log_book_started(job.id, job.file);
      }
      try {
        std::string key;
        std::optional<BookOutcome> hit;
        if (!per_book.cache_dir.empty()) {
          detail_check_exists(job.path);
          key = cache_key(job.path, job.id, job.map_entry, per_book);
          book_keys[i] = key;
          hit = cache_fetch(per_book.cache_dir, key, job.id, tmp.string(), out.string());
        }
        if (hit) {
          o = *hit;
        } else {
          o = build_one_book(job.path, job.id, job.map_entry, book_options, tmp.string(), &pages[i]);
          o.ok = true;
          if (!key.empty()) cache_store(per_book.cache_dir, key, o, tmp.string());
        }
      } catch (const Error& e) {
        pages[i].reset();
        o.ok = false;
        o.code = e.code;
        o.error = e.message();
        fs::remove_all(book_dir, ec);
      } catch (const std::exception& e) {
        pages[i].reset();
        o.ok = false;
        o.code = ExitCode::Internal;
        o.error = job.file + ": internal error: " + e.what();
        fs::remove_all(book_dir, ec);
      }
      o.id = job.id;
      o.file = job.file;
      progress.book_done(i);
      if (options.log != LogMode::Quiet) {
        std::lock_guard lock(log_mutex);
        progress.above([&] { report_book(o, options.log); });
      }
    }
  };
  auto work_then_give = [&] {
    work();
    Lanes::shared().give();
  };
  std::vector<std::thread> threads;
  if (book_workers > 1) fill_locale_tables();
  for (int i = 1; i < book_workers; ++i) threads.emplace_back(work_then_give);
  work_then_give();
  for (auto& t : threads) t.join();
  progress.clear();

  std::vector<std::string> ids;
  std::vector<std::pair<std::string, std::string>> keyed;  // (id, book key) of the built books
  std::vector<SitePages> built_pages;                      // one per id
  for (size_t i = 0; i < report.books.size(); ++i)
    if (report.books[i].ok) {
      ids.push_back(report.books[i].id);
      keyed.push_back({report.books[i].id, book_keys[i]});
      built_pages.push_back(std::move(pages[i]));
    }
  try {
    if (options.shard_count > 1) {
      std::vector<std::string> all_ids;
      for (const auto& j : all) all_ids.push_back(j.id);
      write_shard_info(tmp.string(), options.shard_index, options.shard_count, all_ids);
    }
    // The corpus-level files depend only on the books and the map: an unchanged corpus
    // takes them from the cache.
    const auto index_started = std::chrono::steady_clock::now();
    std::string index_key;
    if (!per_book.cache_dir.empty() && !options.report_times) index_key = index_cache_key(keyed, options.map_path, options);
    if (index_key.empty() || !index_cache_fetch(per_book.cache_dir, index_key, tmp.string(), out.string())) {
      ExportOptions exporting = options.exporting;
      exporting.jobs = jobs;
      // A book taken from the cache was not timed: the report says so by having no times.
      if (options.report_times)
        for (const auto& b : report.books)
          if (b.ok && !b.cached)
            exporting.stage_seconds[b.id] = {{"extract", b.seconds_extract}, {"clean and layout", b.seconds_layout},
                                             {"verify", b.seconds_verify}, {"export", b.seconds_export}};
      export_index(tmp.string(), ids, map ? &*map : nullptr, exporting, std::move(built_pages));
      if (!index_key.empty()) index_cache_store(per_book.cache_dir, index_key, tmp.string());
    }
    report.seconds_index = std::chrono::duration<double>(std::chrono::steady_clock::now() - index_started).count();
    install_output_dir(tmp, out);
    // For the next build of OUT: its files as installed, to link rather than copy.
    if (!per_book.cache_dir.empty()) cache_note_installed(per_book.cache_dir, out.string(), keyed, index_key);
  } catch (...) {
    fs::remove_all(tmp, ec);
    throw;
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace quire
