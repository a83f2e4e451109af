#include "commands.h"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <boost/program_options.hpp>

#include "quire/json.h"
#include "quire/pipeline.h"
#include "quire/text.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace quire::cli {

namespace {

// Parses args; prints help and returns false when --help was given.
bool parse(const Args& args, const std::string& usage_line, po::options_description& desc,
           po::positional_options_description& pos, po::variables_map& vm) {
  desc.add_options()("help,h", "show this help");
  po::store(po::command_line_parser(args).options(desc).positional(pos).run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: " << usage_line << "\n\n" << desc << "\n";
    return false;
  }
  po::notify(vm);
  return true;
}

// Writes a file through a temporary name and a rename, so no partial file is ever left.
template <class Write>
void write_atomically(const std::string& path, Write&& write) {
  std::error_code ec;
  auto status = fs::status(path, ec);
  if (!ec && fs::exists(status) && !fs::is_regular_file(status)) {
    // A device or a pipe (/dev/null, a FIFO) is written as it is: renaming over it would
    // replace it with a plain file.
    std::ofstream out(path, std::ios::binary);
    write(out);
    out.flush();
    if (!out) throw Error(ExitCode::Io, path, 0, "cannot write");
    return;
  }
  std::string tmp = path + ".tmp-" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    write(out);
    out.flush();
    if (!out) {
      fs::remove(tmp, ec);
      throw Error(ExitCode::Io, path, 0, "cannot write");
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw Error(ExitCode::Io, path, 0, "cannot write: " + ec.message());
  }
}

void write_file_atomically(const std::string& path, const std::string& content) {
  write_atomically(path, [&](std::ostream& out) { out << content; });
}

std::pair<int, int> parse_pages(const std::string& s) {
  auto dash = s.find('-');
  try {
    if (dash == std::string::npos) {
      int p = std::stoi(s);
      return {p, p};
    }
    int a = dash == 0 ? 1 : std::stoi(s.substr(0, dash));
    int b = dash + 1 == s.size() ? 0 : std::stoi(s.substr(dash + 1));
    if (a < 1 || (b != 0 && b < a)) throw std::invalid_argument(s);
    return {a, b};
  } catch (const std::exception&) {
    throw Error(ExitCode::Usage, "", 0, "--pages takes A-B with 1 <= A <= B, e.g. 3-10");
  }
}

// A book's extracted pages kept in memory, at most (a 200-page book's are ~7 MB, octave.pdf's
// 1,158 pages ~45 MB, refman.pdf's 2,415 ~75 MB). A page kept is memory held through every
// pass, and fresh memory is what a build pays most for beyond its instructions (the kernel
// faults and zeroes it); a page out of memory is read back into memory the last one used.
// Short books stay in memory. Medians of interleaved rounds, 48 -> 8 MiB (with jemalloc's
// decay at one second, cli/main.cpp): refman.pdf at two jobs 2.57 -> 2.14 s and 191 -> 158 MB
// peak, at one job 169 -> 124 MB; octave.pdf at one job 2.25 -> 2.16 s, 144 -> 125 MB; the
// 240-PDF shelf at two jobs 16.4 -> 15.1 s, 243 -> 212 MB.
constexpr double kDefaultSpillAfterMb = 8;

int default_jobs() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

void add_extract_options(po::options_description& d, ExtractOptions& o, std::string& engine, std::string& ocr) {
  d.add_options()
      ("engine", po::value(&engine)->default_value("mupdf"), "mupdf | poppler")
      ("password", po::value(&o.password), "password of an encrypted PDF")
      ("ocr", po::value(&ocr)->default_value("auto"), "auto | never | force: OCR pages without a usable text layer")
      ("ocr-lang", po::value(&o.ocr_lang)->default_value("eng"), "Tesseract language")
      ("page-timeout", po::value(&o.page_timeout)->default_value(0), "seconds per page before it is skipped (0: none)")
      ("page-memory", po::value(&o.page_memory_mb)->default_value(0), "MiB per page before it is skipped (0: none)");
}

// --spill-after, for the commands that go over whole books (build, verify).
void add_spill_option(po::options_description& d, ExtractOptions& o) {
  d.add_options()("spill-after", po::value(&o.spill_after_mb)->default_value(kDefaultSpillAfterMb),
                  "MiB of extracted pages kept in memory, over the books built at once; later pages wait in a temporary file in "
                  "$TMPDIR (-1: keep every page in memory). Changes memory use, never output");
}

// --set stage.option=value (repeatable), for the stages a command runs: a tuning option tried
// without recompiling (quire options lists them).
void add_set_option(po::options_description& d, std::vector<std::string>& settings) {
  d.add_options()("set", po::value(&settings)->composing(),
                  "stage.option=value: one of the stages' tuning options, e.g. clean.band_ratio=0.15 "
                  "(repeatable; `quire options` lists them)");
}

// After the other options, so that --set has the last word.
void apply_settings(const std::vector<std::string>& settings, const StageOptionTargets& targets) {
  for (const auto& s : settings) set_stage_option(targets, s);
}

void apply_extract_choices(ExtractOptions& o, const std::string& engine, const std::string& ocr) {
  if (engine == "mupdf") o.engine = Engine::MuPdf;
  else if (engine == "poppler") o.engine = Engine::Poppler;
  else throw Error(ExitCode::Usage, "", 0, "--engine takes mupdf or poppler, not '" + engine + "'");
  if (ocr == "auto") o.ocr = OcrMode::Auto;
  else if (ocr == "never") o.ocr = OcrMode::Never;
  else if (ocr == "force") o.ocr = OcrMode::Force;
  else throw Error(ExitCode::Usage, "", 0, "--ocr takes auto, never or force, not '" + ocr + "'");
}

Document read_pages_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(ExitCode::NotFound, path, 0, "no such file or not readable");
  return read_pages_jsonl(in, path);
}

}  // namespace

int cmd_extract(const Args& args) {
  ExtractOptions o;
  std::string input, output, pages, engine, ocr, report;
  std::vector<std::string> settings;
  bool cross = false;
  po::options_description d("quire extract options");
  d.add_options()
      ("input", po::value(&input)->required(), "the PDF")
      ("output,o", po::value(&output), "pages.jsonl to write (default: standard output)")
      ("pages", po::value(&pages), "page range A-B (1-based, inclusive)")
      ("jobs,j", po::value(&o.jobs)->default_value(default_jobs()), "worker threads")
      ("cross-check", po::bool_switch(&cross), "compare MuPDF's and Poppler's words per page")
      ("report", po::value(&report), "with --cross-check: write the JSON report here");
  add_extract_options(d, o, engine, ocr);
  add_set_option(d, settings);
  po::positional_options_description pos;
  pos.add("input", 1);
  po::variables_map vm;
  if (!parse(args, "quire extract BOOK.pdf [-o pages.jsonl] [--pages A-B] [--engine mupdf|poppler] [--jobs N]", d,
             pos, vm))
    return 0;
  apply_extract_choices(o, engine, ocr);
  apply_settings(settings, {.extract = &o});
  if (!pages.empty()) std::tie(o.first_page, o.last_page) = parse_pages(pages);
  o.on_warning = [](const std::string& w) { std::cerr << "warning: " << w << "\n"; };
  if (cross) {
    CrossCheckReport r = cross_check(input, o);
    Json j;
    j["file"] = r.file;
    j["pages_compared"] = r.pages_compared;
    Json pagesj = Json::array();
    for (const auto& d2 : r.disagreements)
      pagesj.push_back({{"page", d2.page}, {"only_mupdf", d2.only_mupdf}, {"only_poppler", d2.only_poppler}});
    j["disagreements"] = std::move(pagesj);
    if (!report.empty()) write_file_atomically(report, dump(j, true));
    else std::cout << dump(j, true);
    std::cerr << r.file << ": " << r.pages_compared << " pages compared, " << r.disagreements.size()
              << " where MuPDF and Poppler disagree on the words\n";
    return r.disagreements.empty() ? 0 : static_cast<int>(ExitCode::Differences);
  }
  Document doc = extract_document(input, o);
  if (output.empty() || output == "-") write_pages_jsonl(std::cout, doc);
  else write_atomically(output, [&](std::ostream& out) { write_pages_jsonl(out, doc); });
  std::cerr << doc.file << ": " << doc.pages.size() << " pages extracted with " << doc.engine << "\n";
  return 0;
}

int cmd_clean(const Args& args) {
  std::string input, output, removed;
  std::vector<std::string> settings;
  CleanOptions co;
  po::options_description d("quire clean options");
  d.add_options()
      ("input", po::value(&input)->required(), "pages.jsonl from quire extract")
      ("output,o", po::value(&output)->required(), "cleaned pages.jsonl to write")
      ("removed", po::value(&removed), "removal log to write (default: OUTPUT's folder/removed.jsonl)")
      ("jobs,j", po::value(&co.jobs)->default_value(default_jobs()), "worker threads");
  add_set_option(d, settings);
  po::positional_options_description pos;
  pos.add("input", 1);
  po::variables_map vm;
  if (!parse(args, "quire clean pages.jsonl -o clean.jsonl [--removed removed.jsonl]", d, pos, vm)) return 0;
  apply_settings(settings, {.clean = &co});
  Document doc = read_pages_file(input);
  CleanResult r = clean_document(doc, co);
  for (const auto& w : r.warnings) std::cerr << "warning: " << w.text() << "\n";
  std::ostringstream out, log;
  write_pages_jsonl(out, doc);
  for (const auto& rm : r.removed) log << dump(to_json(rm), false);
  if (removed.empty()) removed = (fs::path(output).parent_path() / "removed.jsonl").string();
  write_file_atomically(output, out.str());
  write_file_atomically(removed, log.str());
  std::cerr << input << ": " << r.removed.size() << " furniture spans removed\n";
  return 0;
}

int cmd_layout(const Args& args) {
  std::string input, output;
  std::vector<std::string> settings;
  LayoutOptions lo;
  po::options_description d("quire layout options");
  d.add_options()
      ("input", po::value(&input)->required(), "cleaned pages.jsonl")
      ("output,o", po::value(&output)->required(), "book.jsonl to write (chapters of blocks)")
      ("keep-matter", po::bool_switch(&lo.chapters.keep_matter), "keep title page, contents and index as chapters")
      ("hyphen-dictionary",
       po::value(&lo.hyphenation.hyphen_dictionary)->default_value(lo.hyphenation.hyphen_dictionary),
       "Hunspell dictionary (PREFIX.aff, PREFIX.dic) for line-end hyphens the book leaves open; \"\" for none")
      ("hyphen-patterns", po::value(&lo.hyphenation.hyphen_patterns)->default_value(lo.hyphenation.hyphen_patterns),
       "hyphenation patterns (libhyphen .dic) of the dictionary's language; \"\" for none")
      ("jobs,j", po::value(&lo.jobs)->default_value(default_jobs()), "worker threads");
  add_set_option(d, settings);
  po::positional_options_description pos;
  pos.add("input", 1);
  po::variables_map vm;
  if (!parse(args, "quire layout clean.jsonl -o book.jsonl", d, pos, vm)) return 0;
  apply_settings(settings, {.layout = &lo});
  Document doc = read_pages_file(input);
  // The book's record as `quire build` makes it (its title, authors, OCR pages, warnings).
  Book b = book_record(doc, slugify(fs::path(doc.file).stem().string(), 60, "book"), lo);
  lay_out_book(b, doc, lo);
  for (const auto& w : b.warnings) std::cerr << "warning: " << w.text() << "\n";
  std::ostringstream out;
  write_book_jsonl(out, b);
  write_file_atomically(output, out.str());
  std::cerr << input << ": " << b.chapters.size() << " chapters\n";
  return 0;
}

int cmd_build(const Args& args) {
  BuildOptions o;
  std::string engine, ocr, shard, log;
  std::vector<std::string> settings;
  bool quiet = false, no_verify = false;
  po::options_description d("quire build options");
  d.add_options()
      ("input", po::value(&o.input), "a folder of PDFs (or one PDF); with --map, default: --pdf-dir")
      ("output,o", po::value(&o.out_dir)->required(), "the corpus folder to write (replaced atomically)")
      ("map", po::value(&o.map_path), "map.toml: which books, grouped into a learning map")
      ("pdf-dir", po::value(&o.pdf_dir), "where the map's PDF files are (default: INPUT)")
      ("jobs,j", po::value(&o.jobs)->default_value(default_jobs()), "worker threads")
      ("cache", po::value(&o.cache_dir), "reuse unchanged books from this cache folder")
      ("shard", po::value(&shard), "I/N: build the I-th of N deterministic shares of the books (0-based)")
      ("keep-matter", po::bool_switch(&o.layout.chapters.keep_matter),
       "keep title page, contents and index as chapters")
      ("hyphen-dictionary",
       po::value(&o.layout.hyphenation.hyphen_dictionary)->default_value(o.layout.hyphenation.hyphen_dictionary),
       "Hunspell dictionary (PREFIX.aff, PREFIX.dic) for line-end hyphens the book leaves open; \"\" for none")
      ("hyphen-patterns",
       po::value(&o.layout.hyphenation.hyphen_patterns)->default_value(o.layout.hyphenation.hyphen_patterns),
       "hyphenation patterns (libhyphen .dic) of the dictionary's language; \"\" for none")
      ("keep-intermediate", po::bool_switch(&o.keep_intermediate),
       "also write OUT/intermediate/<id>.{pages,clean,book}.jsonl per book")
      ("figure-dpi", po::value(&o.layout.figures.figure_dpi)->default_value(150), "figure crop resolution")
      ("epub", po::bool_switch(&o.exporting.epub),
       "also write OUT/epub/<book-id>.epub per book and OUT/epub/map.epub for the learning map")
      ("no-verify", po::bool_switch(&no_verify), "skip the wording check")
      ("report-times", po::bool_switch(&o.report_times),
       "put each book's seconds per stage in site/report.html (the site then differs from run to run)")
      ("strict", po::bool_switch(&o.strict),
       "exit 1 when the wording check has a difference or a finding (a figure that reads like prose, ...)")
      ("quiet,q", po::bool_switch(&quiet), "no progress or per-book lines")
      ("log", po::value(&log)->default_value("human"), "human | json: one JSON object per event on stderr");
  add_extract_options(d, o.extract, engine, ocr);
  add_spill_option(d, o.extract);
  add_set_option(d, settings);
  po::positional_options_description pos;
  pos.add("input", 1);
  po::variables_map vm;
  if (!parse(args, "quire build DIR -o OUT [--map map.toml] [--jobs N] [--cache DIR] [--shard I/N]", d, pos, vm))
    return 0;
  apply_extract_choices(o.extract, engine, ocr);
  apply_settings(settings, {&o.extract, &o.clean, &o.layout, &o.exporting});
  if (o.input.empty()) {
    if (o.map_path.empty()) throw Error(ExitCode::Usage, "", 0, "give a folder of PDFs, or --map (with --pdf-dir)");
    o.input = o.pdf_dir.empty() ? fs::path(o.map_path).parent_path().string() : o.pdf_dir;
    if (o.input.empty()) o.input = ".";
  }
  o.verify = !no_verify;
  o.log = quiet ? LogMode::Quiet : log == "json" ? LogMode::Json : LogMode::Human;
  if (log != "json" && log != "human") throw Error(ExitCode::Usage, "", 0, "--log takes human or json");
  if (!shard.empty()) {
    auto slash = shard.find('/');
    try {
      if (slash == std::string::npos) throw std::invalid_argument(shard);
      o.shard_index = std::stoi(shard.substr(0, slash));
      o.shard_count = std::stoi(shard.substr(slash + 1));
    } catch (const std::exception&) {
      o.shard_count = 0;
    }
    if (o.shard_count < 1 || o.shard_index < 0 || o.shard_index >= o.shard_count)
      throw Error(ExitCode::Usage, "", 0, "--shard takes I/N with 0 <= I < N, e.g. 0/4");
  }
  BuildReport r = build_corpus(o);
  int ok = 0, failed = 0, pages = 0, chapters = 0, figures = 0, removed = 0, ocr_pages = 0, warnings = 0, diffs = 0,
      findings = 0;
  for (const auto& b : r.books) {
    (b.ok ? ok : failed)++;
    pages += b.pages;
    chapters += b.chapters;
    figures += b.figures;
    removed += b.removed;
    ocr_pages += b.ocr_pages;
    warnings += static_cast<int>(b.warnings.size());
    diffs += b.verify_differences;
    findings += b.verify_findings;
  }
  // The site's search index is the one file of the site that grows with the books' text:
  // its size is reported so that a shelf too large to search in a browser shows.
  std::error_code size_ec;
  const auto index_size = fs::file_size(fs::path(o.out_dir) / "site" / "search-index.js", size_ec);
  const long long search_bytes = size_ec ? -1 : static_cast<long long>(index_size);
  if (o.log == LogMode::Json) {
    Json j;
    j["event"] = "build_finished";
    if (search_bytes >= 0) j["search_index_bytes"] = search_bytes;
    j["books"] = ok;
    j["failed"] = failed;
    j["chapters"] = chapters;
    j["pages"] = pages;
    j["figures"] = figures;
    j["removed"] = removed;
    j["ocr_pages"] = ocr_pages;
    j["warnings"] = warnings;
    j["verify_differences"] = diffs;
    j["verify_findings"] = findings;
    j["seconds"] = round_pt(r.seconds);
    j["seconds_index"] = std::round(r.seconds_index * 1000.0) / 1000.0;  // to the millisecond
    std::cerr << dump(j, false);
  } else if (o.log == LogMode::Human) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.1f", r.seconds);
    std::cerr << "built " << ok << " book" << (ok == 1 ? "" : "s") << " (" << failed << " failed): " << chapters
              << " chapters, " << pages << " pages, " << figures << " figures, " << removed
              << " furniture spans removed, " << ocr_pages << " pages OCR'd, " << warnings << " warnings, "
              << diffs << " word differences, " << findings << " findings, " << secs << " s\n"
              << "corpus: " << o.out_dir << "   site: " << (fs::path(o.out_dir) / "site" / "index.html").string();
    if (search_bytes >= 0) {
      char size[32];
      const bool mb = search_bytes >= 1000000;
      std::snprintf(size, sizeof size, "%.1f %s", static_cast<double>(search_bytes) / (mb ? 1e6 : 1e3), mb ? "MB" : "kB");
      std::cerr << "   search index: " << size;
    }
    std::cerr << "\n";
  }
  return static_cast<int>(r.exit_code());
}

int cmd_inspect(const Args& args) {
  InspectOptions o;
  std::string pages, engine, ocr;
  std::vector<std::string> settings;
  BuildOptions& b = o.build;
  po::options_description d("quire inspect options");
  d.add_options()
      ("input", po::value(&o.pdf)->required(), "the PDF")
      ("output,o", po::value(&o.out_dir)->required(), "the folder to write (replaced atomically)")
      ("pages", po::value(&pages), "page range A-B to draw (1-based, inclusive; the whole book is laid out)")
      ("dpi", po::value(&o.dpi)->default_value(o.dpi), "resolution of the page images")
      ("jobs,j", po::value(&b.extract.jobs)->default_value(default_jobs()), "worker threads")
      ("keep-matter", po::bool_switch(&b.layout.chapters.keep_matter),
       "keep title page, contents and index as chapters")
      ("hyphen-dictionary",
       po::value(&b.layout.hyphenation.hyphen_dictionary)->default_value(b.layout.hyphenation.hyphen_dictionary),
       "Hunspell dictionary (PREFIX.aff, PREFIX.dic), as for quire build")
      ("hyphen-patterns",
       po::value(&b.layout.hyphenation.hyphen_patterns)->default_value(b.layout.hyphenation.hyphen_patterns),
       "hyphenation patterns (libhyphen .dic), as for quire build");
  add_extract_options(d, b.extract, engine, ocr);
  add_set_option(d, settings);
  po::positional_options_description pos;
  pos.add("input", 1);
  po::variables_map vm;
  if (!parse(args, "quire inspect BOOK.pdf [--pages A-B] -o DIR", d, pos, vm)) return 0;
  apply_extract_choices(b.extract, engine, ocr);
  apply_settings(settings, {&b.extract, &b.clean, &b.layout, nullptr});
  if (!pages.empty()) std::tie(o.first_page, o.last_page) = parse_pages(pages);
  if (o.dpi < 18 || o.dpi > 600) throw Error(ExitCode::Usage, "", 0, "--dpi takes 18 to 600");
  b.clean.jobs = b.layout.jobs = b.extract.jobs;
  InspectReport r = inspect_book(o);
  for (const auto& w : r.book.warnings) std::cerr << "warning: " << w.text() << "\n";
  size_t marks = 0;
  for (const auto& p : r.pages) marks += p.marks.size();
  std::cerr << o.pdf << ": " << r.pages.size() << " pages drawn, " << marks << " boxes: "
            << (fs::path(o.out_dir) / "index.html").string() << "\n";
  return 0;
}

int cmd_verify(const Args& args) {
  std::string out, pdf_dir, engine, ocr, log;
  std::vector<std::string> settings;
  bool strict = false;
  ExtractOptions eo;
  po::options_description d("quire verify options");
  d.add_options()
      ("corpus", po::value(&out)->required(), "the corpus folder (from quire build)")
      ("pdf-dir", po::value(&pdf_dir)->required(), "the folder with the books' PDFs")
      ("jobs,j", po::value(&eo.jobs)->default_value(default_jobs()), "worker threads")
      ("strict", po::bool_switch(&strict), "exit 1 on a finding too (a figure that reads like prose, ...)")
      ("log", po::value(&log)->default_value("human"), "human | json: the ledger of each book as a JSON line");
  add_extract_options(d, eo, engine, ocr);
  add_spill_option(d, eo);
  add_set_option(d, settings);
  po::positional_options_description pos;
  pos.add("corpus", 1);
  po::variables_map vm;
  if (!parse(args, "quire verify OUT --pdf-dir DIR [--engine poppler] [--strict] [--set stage.option=value]", d, pos,
             vm))
    return 0;
  if (log != "json" && log != "human") throw Error(ExitCode::Usage, "", 0, "--log takes human or json");
  apply_extract_choices(eo, engine, ocr);
  // The build's own --set flags, as they were: the extract ones read the PDFs again as the
  // build read them. What clean, layout and export did is in the corpus (removed.jsonl, the
  // chapters), so their settings are checked like the build checked them and change nothing.
  CleanOptions built_clean;
  LayoutOptions built_layout;
  ExportOptions built_export;
  apply_settings(settings, {&eo, &built_clean, &built_layout, &built_export});
  VerifyOptions vo;
  // A corpus is built with MuPDF unless told otherwise: words read by Poppler witness it.
  vo.witness = !engine.empty() && engine != "mupdf";
  VerifyReport r = verify_corpus(out, pdf_dir, eo, vo);
  for (const auto& e : r.errors) std::cerr << "error: " << e << "\n";
  for (const auto& df : r.differences)
    std::cout << df.book << ": page " << df.page << ": " << df.kind << " word \"" << df.word << "\""
              << (df.chapter.empty() ? "" : " in chapter \"" + df.chapter + "\"")
              << (df.kind == "misplaced" ? " " + df.context : " near \"" + df.context + "\"") << "\n";
  for (const auto& f : r.findings)
    std::cout << f.book << ": page " << f.page << ": finding " << f.kind
              << (f.chapter.empty() ? "" : " in chapter \"" + f.chapter + "\"") << ": " << f.message << "\n";
  for (const auto& [id, l] : r.ledgers) {
    if (log == "json") {
      Json j;
      j["event"] = "ledger";
      j["book"] = id;
      j.update(to_json(l));
      std::cout << dump(j, false);
      continue;
    }
    std::cerr << id << ": " << l.extracted << " words extracted = " << l.text << " text + " << l.labels
              << " figure labels + " << l.removed_total() << " furniture + " << l.excluded << " left-out matter";
    if (l.differences()) std::cerr << "; " << l.missing << " missing, " << l.added << " added, " << l.misplaced << " misplaced";
    std::cerr << "\n";
  }
  for (const auto& [kind, n] : r.explained)
    std::cerr << "the witness engine differs in " << n << " words by a known difference: " << kind << "\n";
  std::cerr << "verified " << r.books << " books, " << r.chapters << " chapters, " << r.words << " words ("
            << r.ocr_pages << " pages OCR'd): " << r.differences.size() << " differences, " << r.findings.size()
            << " findings\n";
  if (!r.errors.empty()) return static_cast<int>(ExitCode::BookFailed);
  if (!r.differences.empty()) return static_cast<int>(ExitCode::Differences);
  if (!r.findings.empty()) return static_cast<int>(strict ? ExitCode::Differences : ExitCode::Warnings);
  return 0;
}

int cmd_diff(const Args& args) {
  std::string actual, expected;
  po::options_description d("quire diff options");
  d.add_options()
      ("actual", po::value(&actual)->required(), "a corpus")
      ("expected", po::value(&expected)->required(), "the corpus to compare with (e.g. a golden)");
  po::positional_options_description pos;
  pos.add("actual", 1).add("expected", 1);
  po::variables_map vm;
  if (!parse(args, "quire diff OUT GOLDEN", d, pos, vm)) return 0;
  return diff_corpora(actual, expected, std::cout) ? 0 : static_cast<int>(ExitCode::Differences);
}

int cmd_merge(const Args& args) {
  MergeOptions o;
  bool no_site = false;
  std::string shards_from;
  po::options_description d("quire merge options");
  d.add_options()
      ("shards", po::value(&o.shards)->multitoken(), "the shard outputs (from build --shard I/N)")
      ("shards-from", po::value(&shards_from),
       "a file of shard output folders, one a line (for more than a command line holds)")
      ("output,o", po::value(&o.out_dir)->required(), "the corpus folder to write")
      ("map", po::value(&o.map_path), "the map.toml the shards were built with")
      ("pdf-dir", po::value(&o.pdf_dir), "where the map's PDF files are")
      ("jobs,j", po::value(&o.exporting.jobs)->default_value(default_jobs()), "worker threads")
      ("link", po::bool_switch(&o.link),
       "hard-link the books' files from the shards instead of copying them (same file system; "
       "the corpus then shares them with the shards, which quire never changes in place)")
      ("no-site", po::bool_switch(&no_site),
       "write the corpus without site/ (each chapter page has a menu of every section of the map, "
       "so without a map the site grows with the square of the books)");
  po::positional_options_description pos;
  pos.add("shards", -1);
  po::variables_map vm;
  if (!parse(args, "quire merge SHARD_OUT... -o OUT [--shards-from FILE] [--map map.toml --pdf-dir DIR] [--link] [--no-site]",
             d, pos, vm))
    return 0;
  if (!shards_from.empty()) {
    std::ifstream in(shards_from);
    if (!in) throw Error(ExitCode::NotFound, shards_from, 0, "cannot read the list of shard outputs");
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) o.shards.push_back(line);
  }
  o.exporting.site = !no_site;
  merge_corpora(o);
  std::cerr << "merged " << o.shards.size() << " shard outputs into " << o.out_dir << "\n";
  return 0;
}

int cmd_options(const Args& args) {
  po::options_description d("quire options options");
  po::positional_options_description pos;
  po::variables_map vm;
  if (!parse(args, "quire options > docs/options.md", d, pos, vm)) return 0;
  std::cout << options_reference();
  return 0;
}

}  // namespace quire::cli
