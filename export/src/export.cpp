// The corpus on disk (spec/corpus.md): one book's folder, then the corpus-level files.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>

#include "book_work.h"
#include "epub.h"
#include "markdown.h"
#include "quire/error.h"
#include "quire/export.h"
#include "quire/json.h"
#include "quire/parallel.h"
#include "quire/text.h"
#include "site.h"
#include "util.h"

namespace quire {

namespace fs = std::filesystem;
using namespace exporting;

namespace {

constexpr const char* kFormat = kCorpusFormat;
// spec/corpus.md: a chapter slug has at most 60 characters, suffix for collisions included.
constexpr size_t kMaxSlug = 60;

ChapterKind chapter_kind_or_body(const std::string& s) {
  return chapter_kind_from_string(s).value_or(ChapterKind::Body);
}

// "<NN>-<slug>" for every chapter: NN zero-padded to the width of the chapter count (at
// least two digits), slugs made unique within the book with -2, -3, ...
std::vector<std::string> chapter_ids(const Book& book) {
  const size_t n = book.chapters.size();
  const int width = std::max<int>(2, static_cast<int>(std::to_string(n).size()));
  std::set<std::string> used;
  std::vector<std::string> ids;
  for (size_t i = 0; i < n; ++i) {
    std::string base = slugify(book.chapters[i].title, kMaxSlug, "chapter");
    std::string slug = base;
    for (int k = 2; used.count(slug); ++k) {
      std::string suffix = std::to_string(k);
      suffix.insert(suffix.begin(), '-');
      std::string head = base.substr(0, std::min(base.size(), kMaxSlug - suffix.size()));
      while (!head.empty() && head.back() == '-') head.pop_back();
      slug = head + suffix;
    }
    used.insert(slug);
    std::string num = std::to_string(i + 1);
    ids.push_back(std::string(static_cast<size_t>(width) - std::min<size_t>(width, num.size()), '0') + num + "-" + slug);
  }
  return ids;
}

long word_count(const Chapter& c) {
  long n = 0;
  for (const auto& b : c.blocks) n += static_cast<long>(whitespace_token_count(b.text));
  return n;
}

Json pages_json(int first, int last) { return Json::array({first, last}); }

// An internal link as the JSON writes it: "<NN>-<slug>.md#<anchor>" is "#<anchor>".
std::string_view book_href(std::string_view href) {
  const size_t hash = href.find('#');
  if (hash == std::string::npos || hash < 3 || href.compare(hash - 3, 3, ".md") != 0 ||
      href.find(':') != std::string::npos || href.find('/') != std::string::npos)
    return href;
  return href.substr(hash);
}

// A chapter's blocks file, as dump(Json, true) would write it (spec/corpus.md). The JSON
// names an internal link's target by its anchor alone, unique in the book; the Markdown and
// the site lead to the chapter that holds it (link_across_chapters).
void write_chapter_json(JsonWriter& w, const Book& book, const Chapter& c, const std::string& id, size_t index) {
  w.begin_object();
  w.key("book").string(book.id);
  w.key("chapter").string(id);
  w.key("index").integer(index + 1);
  w.key("title").string(c.title);
  w.key("pages").begin_array().integer(c.first_page).integer(c.last_page).end_array();
  w.key("blocks").begin_array();
  for (const auto& b : c.blocks) write_json(w, b, book_href);
  w.end_array();
  w.end_object();
}

// Layout points an internal link at "#<anchor>" of the book; in Markdown (and on the site) one
// whose anchor is in another chapter leads to that chapter's file: "<NN>-<slug>.md#<anchor>".
void link_across_chapters(Book& book, const std::vector<std::string>& ids) {
  std::map<std::string, size_t> chapter_of;
  for (size_t i = 0; i < book.chapters.size(); ++i)
    for (const auto& b : book.chapters[i].blocks)
      if (!b.anchor.empty()) chapter_of.emplace(b.anchor, i);
  for (size_t i = 0; i < book.chapters.size(); ++i)
    for (auto& b : book.chapters[i].blocks)
      for (auto& l : b.links) {
        if (l.href.empty() || l.href[0] != '#') continue;
        auto it = chapter_of.find(l.href.substr(1));
        if (it != chapter_of.end() && it->second != i) l.href = ids[it->second] + ".md" + l.href;
      }
}

std::string book_dir_rel(const std::string& id) { return "books/" + id; }

}  // namespace

void export_book(Book& book, const std::string& out_dir, const RenderFigure& render, const ExportOptions& options,
                 SitePages* pages) {
  if (pages) pages->reset();
  if (book.id.empty() || book.id.find('/') != std::string::npos || book.id.find("..") != std::string::npos)
    throw Error(ExitCode::Internal, book.file, 0, "book id \"" + book.id + "\" is not a safe folder name");
  const std::string rel = book_dir_rel(book.id);
  const fs::path dir = fs::path(out_dir) / rel;
  std::error_code ec;
  // This book's folder only: no stale chapters or figures. No folder is removed and made
  // again, nor made to be removed: on ext4 mounted with -o discard, removing a folder waits
  // for the disk to discard its block.
  if (fs::is_directory(dir, ec) && !fs::is_empty(dir, ec)) fs::remove_all(dir, ec);
  ec.clear();
  fs::create_directories(dir, ec);
  if (ec) throw Error(ExitCode::Io, dir.string(), 0, "cannot create: " + ec.message());

  const auto ids = chapter_ids(book);
  link_across_chapters(book, ids);
  // Chapters are independent: each writes its own files and figures, and its index entry and
  // warnings go to its own slot, joined in chapter order.
  struct Written {
    Json entry;
    std::vector<Diagnostic> warnings;
  };
  std::vector<Written> written(book.chapters.size());
  // For the site's pages: each chapter's blocks as its file gives them back (links by anchor,
  // only the fields the file holds), made from the blocks the file is written from
  // (block_as_written) rather than parsed from the file again. A chapter whose JSON would
  // not read back the same, as its writer finds while writing it, leaves the book's pages
  // to be made from its files.
  const bool make_pages = pages && options.site;
  std::vector<std::vector<Block>> page_blocks(make_pages ? book.chapters.size() : 0);
  std::atomic<bool> pages_as_written{make_pages};
  // Figures and chapters on one pool (book_work.h). The figures go first, largest first:
  // they cluster in a few chapters (a chapter of plots), and rendering them chapter by
  // chapter would leave threads idle. The chapters follow, largest first, each once its
  // own figures are done. Each figure is written as soon as it is rendered.
  struct FigureJob {
    Block* block;
    std::string file;
    bool written = false;
  };
  std::vector<FigureJob> figure_jobs;
  std::vector<size_t> first_figure(book.chapters.size());
  {
    size_t count = 0;
    for (const auto& c : book.chapters)
      for (const auto& b : c.blocks) count += b.type == BlockType::Figure ? 1 : 0;
    figure_jobs = std::vector<FigureJob>(count);
  }
  for (size_t i = 0, f = 0; i < book.chapters.size(); ++i) {
    first_figure[i] = f;
    int k = 0;
    for (auto& b : book.chapters[i].blocks)
      if (b.type == BlockType::Figure) {
        figure_jobs[f].block = &b;
        figure_jobs[f++].file = ids[i] + "-" + std::to_string(++k) + ".png";
      }
  }
  std::vector<size_t> figure_cost(figure_jobs.size()), chapter_cost(book.chapters.size());
  for (size_t f = 0; f < figure_jobs.size(); ++f) {
    const Box& box = figure_jobs[f].block->bbox;
    figure_cost[f] = static_cast<size_t>(std::max(0.0, box.width()) * std::max(0.0, box.y1 - box.y0));
  }
  for (size_t i = 0; i < book.chapters.size(); ++i)
    for (const auto& b : book.chapters[i].blocks) chapter_cost[i] += b.text.size() + 64;
  std::vector<int> figure_group(figure_jobs.size(), -1);
  if (options.figure_group)
    for (size_t f = 0; f < figure_jobs.size(); ++f) figure_group[f] = options.figure_group(*figure_jobs[f].block);
  std::vector<std::vector<size_t>> chapter_figures(book.chapters.size());
  for (size_t i = 0; i < book.chapters.size(); ++i) {
    const size_t end = i + 1 < book.chapters.size() ? first_figure[i + 1] : figure_jobs.size();
    for (size_t f = first_figure[i]; f < end; ++f) chapter_figures[i].push_back(f);
  }
  exporting::BookWork work(largest_first(figure_cost), std::move(figure_group), largest_first(chapter_cost),
                           std::move(chapter_figures));

  // The figures folder is made with the first figure file (see above).
  std::once_flag figures_folder;
  auto render_figure = [&](FigureJob& f) {
    std::string png = render ? render(book, *f.block) : std::string();
    if (png.empty()) return;
    std::call_once(figures_folder, [&] {
      std::error_code made;
      fs::create_directories(dir / "figures", made);
      if (made) throw Error(ExitCode::Io, (dir / "figures").string(), 0, "cannot create: " + made.message());
    });
    write_file((dir / "figures" / f.file).string(), png);
    f.written = true;
  };
  auto write_chapter = [&](size_t i) {
    Chapter& c = book.chapters[i];
    Written& w = written[i];
    const std::string& id = ids[i];
    long figures = 0, code_blocks = 0;
    int k = 0;
    for (auto& b : c.blocks) {
      if (b.type == BlockType::Code) ++code_blocks;
      if (b.type != BlockType::Figure) continue;
      const FigureJob& f = figure_jobs[first_figure[i] + static_cast<size_t>(k++)];  // done: see BookWork
      ++figures;
      if (!f.written) {
        b.image.clear();
        w.warnings.push_back(Diagnostic::at("export", "figure-unrendered", book.file, b.page,
                                            "figure " + std::to_string(k) + " of chapter \"" + c.title +
                                                "\" could not be rendered"));
        continue;
      }
      b.image = rel + "/figures/" + f.file;
    }
    write_file((dir / (id + ".md")).string(), chapter_markdown(c, rel + "/"));
    {
      std::string text;
      JsonWriter json(text, true);
      write_chapter_json(json, book, c, id, i);
      text += '\n';
      write_file((dir / (id + ".json")).string(), text);
      if (make_pages && pages_as_written) {
        if (json.reads_back_the_same()) {
          page_blocks[i].reserve(c.blocks.size());
          for (const auto& b : c.blocks) page_blocks[i].push_back(block_as_written(b, book_href));
        } else {
          pages_as_written = false;
        }
      }
    }

    Json& e = w.entry;
    e["index"] = i + 1;
    e["id"] = id;
    e["title"] = c.title;
    e["number"] = c.number;
    e["kind"] = to_string(c.kind);
    e["pages"] = pages_json(c.first_page, c.last_page);
    e["markdown"] = rel + "/" + id + ".md";
    e["blocks"] = rel + "/" + id + ".json";
    e["html"] = "site/" + book.id + "/" + id + ".html";
    e["words"] = word_count(c);
    e["figures"] = figures;
    e["code_blocks"] = code_blocks;
    if (c.ledger) e["ledger"] = to_json(*c.ledger);
  };
  // The error rethrown is the first figure's, else the first chapter's, in book order,
  // whatever the thread timing.
  const size_t nf = figure_jobs.size();
  std::vector<std::exception_ptr> errors(nf + book.chapters.size());
  const size_t threads = std::min(static_cast<size_t>(std::max(1, options.jobs)), std::max<size_t>(1, errors.size()));
  parallel_for(threads, static_cast<int>(threads), [&](size_t) {
    while (const auto task = work.take()) {
      const size_t slot = task->figure ? task->index : nf + task->index;
      try {
        if (task->figure) {
          struct Done {
            exporting::BookWork& work;
            size_t f;
            ~Done() { work.figure_done(f); }
          } done{work, task->index};
          render_figure(figure_jobs[task->index]);
        } else {
          write_chapter(task->index);
        }
      } catch (...) {
        errors[slot] = std::current_exception();
      }
    }
  });
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  Json chapters = Json::array();
  for (auto& w : written) {
    chapters.push_back(std::move(w.entry));
    for (auto& m : w.warnings) book.warnings.push_back(std::move(m));
  }
  if (make_pages && pages_as_written) {
    // The titles as book.json has them: they read back the same (they are in the chapters'
    // JSON, checked above).
    std::vector<std::string> titles;
    for (const auto& c : book.chapters) titles.push_back(c.title);
    *pages = std::make_shared<BookPages>(render_book_pages(std::move(page_blocks), ids, titles, options.jobs));
  }
  std::vector<std::vector<Block>>().swap(page_blocks);

  std::string removed;
  std::map<std::string, long> furniture;
  for (const auto& r : book.removed) {
    removed += dump(to_json(r), false);
    furniture[r.reason]++;
  }
  write_file((dir / "removed.jsonl").string(), removed);

  Json j;
  j["format"] = kFormat;
  j["id"] = book.id;
  j["title"] = book.title;
  j["authors"] = book.authors;
  j["source"] = {{"file", fs::path(book.file).filename().string()}, {"sha256", book.sha256}, {"pages", book.page_count}};
  j["chapters"] = std::move(chapters);
  Json excluded = Json::array();
  for (const auto& e : book.excluded) {
    Json ej = {{"title", e.title}, {"kind", e.kind}, {"pages", pages_json(e.first_page, e.last_page)}};
    if (e.words >= 0) ej["words"] = e.words;
    excluded.push_back(std::move(ej));
  }
  j["excluded"] = std::move(excluded);
  if (book.ledger) j["ledger"] = to_json(*book.ledger);
  Json fj = Json::object();
  for (const auto& [reason, n] : furniture) fj[reason] = n;
  j["furniture"] = std::move(fj);
  Json joins = Json::array();
  for (const auto& h : book.joins) joins.push_back(to_json(h));
  j["joins"] = std::move(joins);
  j["ocr_pages"] = book.ocr_pages;
  j["low_confidence_pages"] = book.low_confidence_pages;
  // The lines, as people read them (docs/spec/corpus.md).
  Json warnings = Json::array();
  for (const auto& w : book.warnings) warnings.push_back(w.text());
  j["warnings"] = std::move(warnings);
  write_file((dir / "book.json").string(), dump(j, true));
}

namespace {

// What the corpus-level files need of a book: its book.json's descriptive part and where
// its chapter files are. The chapters' text is read again from their files when it is
// written out, a chapter at a time, so that a shelf of books is never held in memory whole.
struct BookIndex {
  Json entry;                       // the manifest's entry: id, title, authors, source, chapters
  std::vector<std::string> files;   // each chapter's blocks file, in book order
  std::map<std::string, long> furniture;
  long joins = 0, ocr_pages = 0;
  // For the build report.
  int pages = 0;
  std::vector<long> removed_per_page;
  std::vector<int> ocr_page_list, low_confidence_pages;
  std::vector<std::string> warnings;
  std::optional<WordLedger> ledger;
  Book book;                        // titles, numbers and kinds, for resolving map references
};

BookIndex load_book_index(const fs::path& out, const std::string& id) {
  BookIndex bi;
  const std::string path = (out / book_dir_rel(id) / "book.json").string();
  try {
    const Json meta = Json::parse(read_file(path));
    // A book another version of quire wrote (a shard, a cached entry) is not joined to this
    // corpus: its files differ in form.
    if (meta.value("format", std::string()) != kFormat)
      throw Error(ExitCode::BadIntermediate, path, 0,
                  "a book of format " + meta.value("format", std::string("(none)")) + ", not " + kFormat);
    bi.book.id = id;
    bi.book.title = meta.at("title").get<std::string>();
    bi.book.authors = meta.value("authors", std::vector<std::string>{});
    for (const auto& c : meta.at("chapters")) {
      Chapter ch;
      ch.title = c.at("title").get<std::string>();
      ch.number = c.value("number", std::string());
      ch.kind = chapter_kind_or_body(c.value("kind", std::string("body")));
      ch.first_page = c.at("pages")[0].get<int>();
      ch.last_page = c.at("pages")[1].get<int>();
      bi.book.chapters.push_back(std::move(ch));
      bi.files.push_back((out / c.at("blocks").get<std::string>()).string());
    }
    const Json furniture = meta.value("furniture", Json::object());
    for (const auto& [reason, n] : furniture.items()) bi.furniture[reason] = n.get<long>();
    bi.joins = static_cast<long>(meta.value("joins", Json::array()).size());
    bi.ocr_pages = static_cast<long>(meta.value("ocr_pages", Json::array()).size());
    bi.ocr_page_list = meta.value("ocr_pages", std::vector<int>{});
    bi.low_confidence_pages = meta.value("low_confidence_pages", std::vector<int>{});
    bi.warnings = meta.value("warnings", std::vector<std::string>{});
    if (meta.contains("ledger")) bi.ledger = ledger_from_json(meta.at("ledger"));
    bi.pages = meta.at("source").value("pages", 0);
    // removed.jsonl: a span of furniture a line; the report plots them page by page.
    bi.removed_per_page.assign(static_cast<size_t>(std::max(0, bi.pages)), 0);
    const fs::path removed = out / book_dir_rel(id) / "removed.jsonl";
    if (fs::exists(removed)) {
      const std::string text = read_file(removed.string());
      for (size_t at = 0; at < text.size();) {
        size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        if (end > at) {
          const int page = Json::parse(std::string_view(text).substr(at, end - at)).value("page", 0);
          if (page >= 1) {
            if (static_cast<size_t>(page) > bi.removed_per_page.size()) bi.removed_per_page.resize(static_cast<size_t>(page), 0);
            bi.removed_per_page[static_cast<size_t>(page) - 1]++;
          }
        }
        at = end + 1;
      }
    }
    bi.entry["id"] = meta.at("id");
    bi.entry["title"] = meta.at("title");
    bi.entry["authors"] = meta.value("authors", Json::array());
    bi.entry["source"] = meta.at("source");
    bi.entry["chapters"] = meta.at("chapters");
    for (auto& c : bi.entry["chapters"]) c.erase("ledger");  // book.json's; the manifest indexes
  } catch (const Json::exception& e) {
    throw Error(ExitCode::BadIntermediate, path, 0, std::string("malformed book: ") + e.what());
  }
  return bi;
}

// A chapter file's blocks, for its page of the site.
std::vector<Block> load_chapter_blocks(const std::string& file) {
  try {
    std::vector<Block> blocks;
    const Json chapter = Json::parse(read_file(file));
    for (const auto& bj : chapter.at("blocks")) blocks.push_back(block_from_json(bj));
    return blocks;
  } catch (const Json::exception& e) {
    throw Error(ExitCode::BadIntermediate, file, 0, std::string("malformed chapter: ") + e.what());
  }
}

}  // namespace

void export_index(const std::string& out_dir, const std::vector<std::string>& book_ids, const CorpusMap* map,
                  const ExportOptions& options, std::vector<SitePages> pages) {
  if (!pages.empty() && pages.size() != book_ids.size())
    throw Error(ExitCode::Internal, out_dir, 0, "site pages given for some books only");
  pages.resize(book_ids.size());
  const fs::path out(out_dir);
  std::vector<BookIndex> books(book_ids.size());
  std::map<std::string, size_t> by_id;
  for (size_t i = 0; i < book_ids.size(); ++i) by_id[book_ids[i]] = i;
  parallel_for(book_ids.size(), options.jobs, [&](size_t i) { books[i] = load_book_index(out, book_ids[i]); });

  SiteModel site;
  if (map) {
    site.title = map->title;
    site.intro = map->intro;
    site.footer = map->footer;
    site.notes = map->notes;
    site.gaps = map->gaps;
  }
  if (site.title.empty()) site.title = books.size() == 1 ? books[0].book.title : "Learning map";

  std::map<std::string, std::string> short_names;  // the map's, by book id (the last entry of an id wins)
  if (map)
    for (const auto& mb : map->books) short_names[mb.id] = mb.short_name;
  for (const auto& bi : books) {
    SiteBook sb;
    sb.id = bi.book.id;
    sb.title = bi.book.title;
    sb.authors = bi.book.authors;
    if (auto it = short_names.find(sb.id); it != short_names.end()) sb.short_name = it->second;
    sb.chapters.resize(bi.files.size());
    for (size_t i = 0; i < bi.files.size(); ++i) {
      SiteChapter& sc = sb.chapters[i];
      sc.id = bi.entry.at("chapters")[i].at("id").get<std::string>();
      // (Only an order of work: a count that is missing or not a number orders nothing.)
      const Json& words = bi.entry.at("chapters")[i].contains("words") ? bi.entry.at("chapters")[i].at("words") : Json();
      sc.words = words.is_number_unsigned() ? words.get<size_t>() : 0;
      sc.title = bi.book.chapters[i].title;
      sc.number = bi.book.chapters[i].number;
      sc.figures = bi.entry.at("chapters")[i].value("figures", 0L);
      sc.first_page = bi.book.chapters[i].first_page;
      sc.last_page = bi.book.chapters[i].last_page;
    }
    sb.furniture = bi.furniture;
    sb.joins = bi.joins;
    sb.ocr_pages = bi.ocr_pages;
    sb.pages = bi.pages;
    sb.removed_per_page = bi.removed_per_page;
    sb.ocr_page_list = bi.ocr_page_list;
    sb.low_confidence_pages = bi.low_confidence_pages;
    sb.warnings = bi.warnings;
    sb.ledger = bi.ledger;
    if (auto it = options.stage_seconds.find(sb.id); it != options.stage_seconds.end()) sb.seconds = it->second;
    site.books.push_back(std::move(sb));
  }

  // Sections: the map's, with references resolved (books that failed to build are left
  // out: the build reports them), else one section per book.
  if (map && !map->sections.empty()) {
    for (const auto& s : map->sections) {
      SiteSection ss;
      ss.title = s.title;
      for (const auto& ref : s.chapters) {
        auto it = by_id.find(ref.book);
        if (it == by_id.end()) continue;
        size_t ci = resolve_chapter(ref, books[it->second].book);
        ss.entries.push_back({it->second, ci, ref.title.empty() ? books[it->second].book.chapters[ci].title : ref.title});
      }
      site.sections.push_back(std::move(ss));
    }
  } else {
    for (size_t b = 0; b < books.size(); ++b) {
      SiteSection ss;
      ss.title = books[b].book.title;
      for (size_t c = 0; c < books[b].book.chapters.size(); ++c)
        ss.entries.push_back({b, c, books[b].book.chapters[c].title});
      site.sections.push_back(std::move(ss));
    }
  }
  std::set<std::pair<size_t, size_t>> seen;
  for (const auto& s : site.sections)
    for (const auto& e : s.entries)
      if (seen.insert({e.book, e.chapter}).second) site.order.push_back({e.book, e.chapter});

  // corpus.jsonl: the map's chapters in map order, then the chapters no map entry names,
  // in book order, so that every chapter of the corpus is in it once. A chapter file is the
  // pretty form of its corpus line: the line is that text made compact. Chapters are read a
  // few at a time (in parallel) and written in order.
  std::vector<std::pair<size_t, size_t>> lines = site.order;
  for (size_t b = 0; b < books.size(); ++b)
    for (size_t c = 0; c < books[b].files.size(); ++c)
      if (!seen.count({b, c})) lines.push_back({b, c});
  {
    const std::string path = (out / "corpus.jsonl").string();
    std::ofstream corpus(path, std::ios::binary);
    if (!corpus) throw Error(ExitCode::Io, path, 0, "cannot write");
    const size_t batch = 8 * static_cast<size_t>(std::max(1, options.jobs));
    std::vector<std::string> compact(batch);
    for (size_t from = 0; from < lines.size(); from += batch) {
      const size_t n = std::min(batch, lines.size() - from);
      parallel_for(n, options.jobs, [&](size_t k) {
        const auto [b, c] = lines[from + k];
        const std::string& file = books[b].files[c];
        const std::string text = read_file(file);
        // Without a site to parse them, the chapter files are checked here.
        if (!options.site && !Json::accept(text))
          throw Error(ExitCode::BadIntermediate, file, 0, "malformed chapter: not JSON");
        compact[k] = compact_json(text);
      });
      for (size_t k = 0; k < n; ++k) {
        corpus << compact[k];
        std::string().swap(compact[k]);
      }
    }
    corpus.flush();
    if (!corpus) throw Error(ExitCode::Io, path, 0, "cannot write");
  }

  Json manifest;
  manifest["format"] = kFormat;
  manifest["generator"] = std::string("quire ") + kVersion;
  manifest["title"] = site.title;
  Json mbooks = Json::array();
  for (size_t b = 0; b < books.size(); ++b) {
    const Json& m = books[b].entry;
    Json bj;
    bj["id"] = m.at("id");
    bj["title"] = m.at("title");
    if (!site.books[b].short_name.empty()) bj["short"] = site.books[b].short_name;
    bj["authors"] = m.at("authors");
    bj["source"] = m.at("source");
    bj["chapters"] = m.at("chapters");
    mbooks.push_back(std::move(bj));
  }
  manifest["books"] = std::move(mbooks);
  Json sections = Json::array();
  for (const auto& s : site.sections) {
    Json entries = Json::array();
    for (const auto& e : s.entries)
      entries.push_back({{"book", books[e.book].book.id}, {"chapter", site.books[e.book].chapters[e.chapter].id},
                         {"title", e.display}});
    sections.push_back({{"title", s.title}, {"chapters", std::move(entries)}});
  }
  manifest["sections"] = std::move(sections);
  Json notes = Json::array();
  for (const auto& n : site.notes) notes.push_back({{"title", n.title}, {"items", n.items}});
  manifest["notes"] = std::move(notes);
  Json gaps = Json::array();
  for (const auto& g : site.gaps) gaps.push_back({{"topic", g.topic}, {"note", g.note}});
  manifest["gaps"] = std::move(gaps);
  write_file((out / "manifest.json").string(), dump(manifest, true));

  if (options.epub)
    write_epubs(out_dir, site, [&](size_t b, size_t c) { return load_chapter_blocks(books[b].files[c]); },
                options.jobs);

  if (options.site) {
    // A book without pages from export_book has each page made from its chapter file when it
    // is written, a chapter at a time (so that a merge of big books never holds a whole one);
    // the book's chapters are read for their anchors once, when its first page is made.
    std::vector<std::once_flag> anchors_read(books.size());
    std::vector<ChapterOfAnchor> anchors(books.size());
    std::vector<std::vector<std::string>> chapter_ids(books.size());
    write_site(out_dir, site, [&](size_t b, size_t c) {
      // Taken out of the book's pages: a page's body is not needed once it is written.
      if (pages[b]) return std::move(pages[b]->chapters.at(c));
      std::call_once(anchors_read[b], [&] {
        for (size_t k = 0; k < books[b].files.size(); ++k) add_anchors(anchors[b], load_chapter_blocks(books[b].files[k]), k);
        for (const auto& ch : site.books[b].chapters) chapter_ids[b].push_back(ch.id);
      });
      return render_chapter_page(load_chapter_blocks(books[b].files[c]), c, anchors[b], chapter_ids[b],
                                 site.books[b].chapters[c].title);
    }, [&](size_t b) { return pages[b] ? &pages[b]->search : nullptr; }, options.jobs);
  }
}

}  // namespace quire
