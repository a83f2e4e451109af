// The corpus files of spec/corpus.md, written from hand-made Books.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <thread>

#include "helpers.h"
#include "quire/error.h"
#include "quire/json.h"

namespace quire {
namespace {

namespace fs = std::filesystem;
using test::read;

std::vector<std::string> keys(const Json& j) {
  std::vector<std::string> k;
  for (const auto& [key, v] : j.items()) k.push_back(key);
  return k;
}

using Keys = std::vector<std::string>;

TEST(Corpus, WritesEveryFileOfTheSpec) {
  test::TempDir out("files");
  std::vector<Book> books = {test::sample_book()};
  test::export_corpus(books, out.str());
  const Keys expected = {
      "books/ringlog/01-preface.json",
      "books/ringlog/01-preface.md",
      "books/ringlog/02-getting-started.json",
      "books/ringlog/02-getting-started.md",
      "books/ringlog/03-the-capture-pipeline.json",
      "books/ringlog/03-the-capture-pipeline.md",
      "books/ringlog/04-writing-plugins.json",
      "books/ringlog/04-writing-plugins.md",
      "books/ringlog/05-glossary.json",
      "books/ringlog/05-glossary.md",
      "books/ringlog/book.json",
      "books/ringlog/figures/02-getting-started-1.png",
      "books/ringlog/figures/03-the-capture-pipeline-1.png",
      "books/ringlog/removed.jsonl",
      "corpus.jsonl",
      "manifest.json",
      "site/assets/quire.css",
      "site/assets/quire.js",
      "site/index.html",
      "site/report.html",
      "site/ringlog/01-preface.html",
      "site/ringlog/02-getting-started.html",
      "site/ringlog/03-the-capture-pipeline.html",
      "site/ringlog/04-writing-plugins.html",
      "site/ringlog/05-glossary.html",
      "site/search-index.js",
  };
  EXPECT_EQ(test::list_files(out.path), expected);
  // The Book handed in now carries the figure paths (relative to OUT).
  EXPECT_EQ(books[0].chapters[1].blocks[8].image, "books/ringlog/figures/02-getting-started-1.png");
  EXPECT_EQ(read(out.path / books[0].chapters[1].blocks[8].image), test::tiny_png(7));
}

TEST(Corpus, KeysInTheSpecOrder) {
  test::TempDir out("keys");
  std::vector<Book> books = {test::sample_book()};
  test::export_corpus(books, out.str());

  Json book = Json::parse(read(out.path / "books/ringlog/book.json"));
  EXPECT_EQ(keys(book), (Keys{"format", "id", "title", "authors", "source", "chapters", "excluded", "furniture", "joins",
                              "ocr_pages", "low_confidence_pages", "warnings"}));
  EXPECT_EQ(keys(book["source"]), (Keys{"file", "sha256", "pages"}));
  const Keys chapter_keys = {"index", "id", "title", "number", "kind", "pages", "markdown",
                             "blocks", "html", "words", "figures", "code_blocks"};
  EXPECT_EQ(keys(book["chapters"][0]), chapter_keys);
  EXPECT_EQ(book["chapters"][1]["markdown"], "books/ringlog/02-getting-started.md");
  EXPECT_EQ(book["chapters"][1]["blocks"], "books/ringlog/02-getting-started.json");
  EXPECT_EQ(book["chapters"][1]["html"], "site/ringlog/02-getting-started.html");
  EXPECT_EQ(book["chapters"][1]["figures"], 1);
  EXPECT_EQ(book["chapters"][1]["code_blocks"], 1);
  EXPECT_EQ(book["chapters"][1]["number"], "1");
  EXPECT_EQ(book["chapters"][0]["kind"], "front");
  EXPECT_EQ(book["chapters"][4]["kind"], "appendix");
  EXPECT_EQ(book["chapters"][0]["words"], 8);  // "Preface" + 7 words
  EXPECT_EQ(keys(book["excluded"][0]), (Keys{"title", "kind", "pages"}));
  EXPECT_EQ(book["furniture"], Json::parse(R"({"page-number": 1, "running-head": 2})"));
  EXPECT_EQ(keys(book["joins"][0]), (Keys{"page", "before", "after", "joined"}));

  Json chapter = Json::parse(read(out.path / "books/ringlog/02-getting-started.json"));
  EXPECT_EQ(keys(chapter), (Keys{"book", "chapter", "index", "title", "pages", "blocks"}));
  EXPECT_EQ(keys(chapter["blocks"][0]), (Keys{"type", "level", "text", "page", "bbox"}));
  EXPECT_EQ(keys(chapter["blocks"][3]), (Keys{"type", "text", "page", "pages", "bbox"}));
  EXPECT_EQ(chapter["blocks"][3]["pages"], Json::parse("[6, 7]"));
  EXPECT_EQ(chapter["blocks"][0]["bbox"], Json::parse("[72.0, 100.0, 300.5, 120.26]"));
  // Pretty, two-space indent, '\n' at the end.
  std::string text = read(out.path / "books/ringlog/02-getting-started.json");
  EXPECT_EQ(text.substr(0, 20), "{\n  \"book\": \"ringlog");
  EXPECT_EQ(text.back(), '\n');

  Json manifest = Json::parse(read(out.path / "manifest.json"));
  EXPECT_EQ(keys(manifest), (Keys{"format", "generator", "title", "books", "sections", "notes", "gaps"}));
  EXPECT_EQ(manifest["format"], "quire-corpus/6");
  EXPECT_EQ(keys(manifest["books"][0]), (Keys{"id", "title", "authors", "source", "chapters"}));
  EXPECT_EQ(keys(manifest["books"][0]["chapters"][0]), chapter_keys);
  // Without a map: one section per book with all its chapters.
  ASSERT_EQ(manifest["sections"].size(), 1u);
  EXPECT_EQ(manifest["sections"][0]["title"], "The Ringlog Manual");
  EXPECT_EQ(manifest["sections"][0]["chapters"].size(), 5u);
  EXPECT_EQ(keys(manifest["sections"][0]["chapters"][0]), (Keys{"book", "chapter", "title"}));

  // corpus.jsonl: one compact line per chapter, each equal to the chapter's .json.
  std::istringstream lines(read(out.path / "corpus.jsonl"));
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    Json j = Json::parse(line);
    EXPECT_EQ(line.find('\n'), std::string::npos);
    EXPECT_EQ(j, Json::parse(read(out.path / ("books/ringlog/" + j["chapter"].get<std::string>() + ".json"))));
    EXPECT_EQ(j["index"], ++n);
  }
  EXPECT_EQ(n, 5);

  std::istringstream removed(read(out.path / "books/ringlog/removed.jsonl"));
  int r = 0;
  while (std::getline(removed, line)) {
    EXPECT_EQ(keys(Json::parse(line)), (Keys{"page", "bbox", "text", "reason"}));
    ++r;
  }
  EXPECT_EQ(r, 3);
}

TEST(Corpus, BytesAreIdenticalAcrossExports) {
  test::TempDir a("det-a"), b("det-b");
  std::vector<Book> b1 = {test::sample_book("one"), test::sample_book("two")};
  std::vector<Book> b2 = {test::sample_book("one"), test::sample_book("two")};
  test::export_corpus(b1, a.str());
  test::export_corpus(b2, b.str());
  auto files = test::list_files(a.path);
  ASSERT_EQ(files, test::list_files(b.path));
  for (const auto& f : files) EXPECT_EQ(read(a.path / f), read(b.path / f)) << f;
  // No absolute path of the output folder anywhere.
  for (const auto& f : files) EXPECT_EQ(read(a.path / f).find(a.str()), std::string::npos) << f;
}

TEST(Corpus, SlugsAreAsciiUniqueAndNeverEmpty) {
  Book book = test::sample_book();
  book.chapters.clear();
  const std::vector<std::string> titles = {"Введение", "日本語の章", "", "???", "Intro", "Intro", "INTRO!",
                                           std::string(200, 'x') + " tail", std::string(200, 'x') + " tail",
                                           "Ünïcödé Façade — “quoted”"};
  for (const auto& t : titles) {
    Chapter c;
    c.title = t;
    c.first_page = c.last_page = 1;
    c.blocks = {test::block(BlockType::Paragraph, "Text.")};
    book.chapters.push_back(c);
  }
  test::TempDir out("slugs");
  export_book(book, out.str(), test::png_renderer());
  Json j = Json::parse(read(out.path / "books/ringlog/book.json"));
  std::vector<std::string> ids;
  for (const auto& c : j["chapters"]) ids.push_back(c["id"]);
  EXPECT_EQ(ids[0], "01-vvedenie");
  EXPECT_EQ(ids[2], "03-chapter");
  EXPECT_EQ(ids[3], "04-chapter-2");
  EXPECT_EQ(ids[4], "05-intro");
  EXPECT_EQ(ids[5], "06-intro-2");
  EXPECT_EQ(ids[6], "07-intro-3");
  EXPECT_EQ(ids[9], "10-unicode-facade-quoted");
  const std::regex slug_re("[0-9]{2}-[a-z0-9]+(-[a-z0-9]+)*");
  std::set<std::string> slugs;
  for (const auto& id : ids) {
    EXPECT_TRUE(std::regex_match(id, slug_re)) << id;
    EXPECT_LE(id.size() - 3, 60u) << id;
    EXPECT_TRUE(slugs.insert(id.substr(3)).second) << "slug used twice: " << id;
    EXPECT_TRUE(fs::exists(out.path / "books/ringlog" / (id + ".md")));
  }
  EXPECT_NE(ids[1].find("ri-ben"), std::string::npos) << ids[1];  // ICU transliteration of Japanese
}

TEST(Corpus, ThreeDigitChapterNumbersFrom100Chapters) {
  Book book = test::sample_book();
  book.chapters.clear();
  for (int i = 1; i <= 100; ++i) {
    Chapter c;
    c.title = "Part " + std::to_string(i);
    c.first_page = c.last_page = i;
    book.chapters.push_back(c);
  }
  test::TempDir out("width");
  export_book(book, out.str(), test::png_renderer());
  EXPECT_TRUE(fs::exists(out.path / "books/ringlog/001-part-1.md"));
  EXPECT_TRUE(fs::exists(out.path / "books/ringlog/100-part-100.md"));
}

TEST(Corpus, FigureThatFailsToRenderKeepsItsBlockWithAWarning) {
  Book book = test::sample_book();
  test::TempDir out("nofig");
  // Only page 9's figure renders.
  export_book(book, out.str(), [](const Book&, const Block& b) { return b.page == 9 ? test::tiny_png(9) : ""; });
  Json ch = Json::parse(read(out.path / "books/ringlog/02-getting-started.json"));
  EXPECT_EQ(ch["blocks"][8]["type"], "figure");
  EXPECT_EQ(ch["blocks"][8]["image"], "");
  EXPECT_FALSE(fs::exists(out.path / "books/ringlog/figures/02-getting-started-1.png"));
  EXPECT_TRUE(fs::exists(out.path / "books/ringlog/figures/03-the-capture-pipeline-1.png"));
  Json bj = Json::parse(read(out.path / "books/ringlog/book.json"));
  ASSERT_EQ(bj["warnings"].size(), 1u);
  EXPECT_NE(bj["warnings"][0].get<std::string>().find("page 7"), std::string::npos);
  EXPECT_EQ(read(out.path / "books/ringlog/02-getting-started.md").find("!["), std::string::npos);
  std::string md = read(out.path / "books/ringlog/03-the-capture-pipeline.md");
  EXPECT_NE(md.find("![Figure 2.1](figures/03-the-capture-pipeline-1.png)\n\nFigure 2.1: Data flow.\n"), std::string::npos)
      << md;
}

TEST(Corpus, FiguresAndChaptersOnThreadsGiveTheSameFiles) {
  // Chapters are written while figures are still being rendered on other threads: each
  // waits for its own figures. A slow renderer makes them wait; one figure fails.
  auto slow = [](const Book&, const Block& b) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return b.page == 9 ? test::tiny_png(9) : std::string();
  };
  test::TempDir one("threads-1");
  Book book = test::sample_book();
  export_book(book, one.str(), slow);
  const auto files = test::list_files(one.path);
  for (int jobs : {2, 4}) {
    test::TempDir many("threads-" + std::to_string(jobs));
    Book again = test::sample_book();
    ExportOptions o;
    o.jobs = jobs;
    export_book(again, many.str(), slow, o);
    ASSERT_EQ(test::list_files(many.path), files) << jobs;
    for (const auto& f : files) EXPECT_EQ(read(many.path / f), read(one.path / f)) << jobs << " " << f;
    EXPECT_EQ(again.warnings, book.warnings) << jobs;
  }
}

// A book with many figures in two groups, most of them in one (as the pages kept by one of
// two extracting contexts): the figures of a group are never drawn two at once, every file is
// that of one thread, and a group whose figures all fail or throw still lets the book end.
TEST(Corpus, FiguresOfOneGroupAreNeverDrawnTwoAtOnce) {
  auto many_figures = [] {
    Book b = test::sample_book();
    for (size_t c = 0; c < b.chapters.size(); ++c)
      for (int k = 0; k < 6; ++k) {
        Block fig;
        fig.type = BlockType::Figure;
        fig.page = b.chapters[c].first_page;
        fig.bbox = {72, 100.0 + 10 * k, 72 + 50.0 * (k + 1), 300};
        b.chapters[c].blocks.push_back(fig);
      }
    return b;
  };
  // Group 0 holds two figures of every three.
  std::atomic<int> next_group{0};
  std::map<const Block*, int> groups;
  auto group_of = [&](const Block& b) {
    static std::mutex m;
    std::lock_guard lock(m);
    auto [it, fresh] = groups.try_emplace(&b, 0);
    if (fresh) it->second = next_group++ % 3 == 2 ? 1 : 0;
    return it->second;
  };
  std::mutex drawing_mutex;
  std::map<int, int> drawing;  // group -> figures being drawn
  std::atomic<int> overlaps{0};
  auto draw = [&](const Book&, const Block& b) {
    const int g = group_of(b);
    {
      std::lock_guard lock(drawing_mutex);
      if (++drawing[g] > 1) ++overlaps;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    std::lock_guard lock(drawing_mutex);
    --drawing[g];
    return test::tiny_png(b.page);
  };

  test::TempDir one("groups-1");
  Book single = many_figures();
  export_book(single, one.str(), draw);
  const auto files = test::list_files(one.path);
  EXPECT_GE(files.size(), 30u);
  for (int jobs : {2, 4}) {
    SCOPED_TRACE(jobs);
    test::TempDir out("groups-" + std::to_string(jobs));
    Book book = many_figures();
    groups.clear();
    next_group = 0;
    ExportOptions o;
    o.jobs = jobs;
    o.figure_group = group_of;
    export_book(book, out.str(), draw, o);
    EXPECT_EQ(overlaps.load(), 0);
    ASSERT_EQ(test::list_files(out.path), files);
    for (const auto& f : files) EXPECT_EQ(read(out.path / f), read(one.path / f)) << f;
  }

  // Every figure of the one group fails, some by throwing: the book still ends, with the
  // first figure's error.
  test::TempDir failing("groups-fail");
  Book book = many_figures();
  ExportOptions o;
  o.jobs = 2;
  o.figure_group = [](const Block&) { return 0; };
  try {
    export_book(book, failing.str(), [](const Book&, const Block& b) -> std::string {
      if (b.bbox.x1 > 300) throw Error(ExitCode::Internal, "ringlog.pdf", b.page, "cannot draw");
      return "";
    }, o);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.page, book.chapters[0].first_page);
  }
}

TEST(Corpus, RendererErrorIsTheFirstFiguresAtAnyJobs) {
  for (int jobs : {1, 2, 4}) {
    test::TempDir out("render-error-" + std::to_string(jobs));
    Book book = test::sample_book();
    ExportOptions o;
    o.jobs = jobs;
    try {
      export_book(book, out.str(), [](const Book&, const Block& b) -> std::string {
        throw Error(ExitCode::Internal, "ringlog.pdf", b.page, "cannot draw");
      }, o);
      ADD_FAILURE() << "no error at " << jobs << " jobs";
    } catch (const Error& e) {
      EXPECT_EQ(e.page, 7) << jobs;  // the book's first figure
    }
  }
}

TEST(Corpus, ReexportRemovesStaleChapters) {
  test::TempDir out("stale");
  Book book = test::sample_book();
  export_book(book, out.str(), test::png_renderer());
  book.chapters.resize(2);
  export_book(book, out.str(), test::png_renderer());
  EXPECT_FALSE(fs::exists(out.path / "books/ringlog/05-glossary.md"));
  EXPECT_FALSE(fs::exists(out.path / "books/ringlog/figures/03-the-capture-pipeline-1.png"));
}

// A book just written gives export_index its site pages from memory; a book taken from the
// cache or a shard has them made from its chapter files. Both give the same bytes: internal
// links across chapters, a link that only looks like a chapter file's, and a book with a
// string that is not UTF-8 (which the files hold as U+FFFD, so its pages come from them).
TEST(Corpus, SitePagesFromMemoryEqualThoseFromTheChapterFiles) {
  auto books = [] {
    Book linked = test::sample_book("linked");
    Block& from = linked.chapters[1].blocks.back();
    from.anchor = "linked-from";
    Block& to = linked.chapters[3].blocks.back();
    to.anchor = "linked-to";
    to.links.push_back({0, 1, "#linked-from"});
    to.links.push_back({1, 1, "#linked-to"});
    from.links.push_back({0, 1, "#linked-to"});
    from.links.push_back({1, 1, "notes.md#linked-to"});
    Book bad = test::sample_book("bad");
    bad.chapters[2].blocks.back().text += " caf\xC3 \xED\xA0\x80";
    bad.chapters[0].title += "\xFF";
    return std::vector<Book>{linked, bad};
  };
  test::TempDir from_memory("pages-memory"), from_files("pages-files");
  for (int jobs : {1, 2}) {
    ExportOptions o;
    o.jobs = jobs;
    std::vector<Book> a = books(), b = books();
    std::vector<SitePages> pages(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
      export_book(a[i], from_memory.str(), test::png_renderer(), o, &pages[i]);
      export_book(b[i], from_files.str(), test::png_renderer(), o);
    }
    EXPECT_TRUE(pages[0]);
    EXPECT_FALSE(pages[1]) << "a book whose strings do not read back the same has no pages from memory";
    export_index(from_memory.str(), {"linked", "bad"}, nullptr, o, pages);
    export_index(from_files.str(), {"linked", "bad"}, nullptr, o);
    const auto files = test::list_files(from_memory.path);
    ASSERT_EQ(files, test::list_files(from_files.path));
    for (const auto& f : files) EXPECT_EQ(read(from_memory.path / f), read(from_files.path / f)) << f << " at jobs " << jobs;
    // The link to another chapter leads to its page.
    const std::string page = read(from_memory.path / "site/linked/02-getting-started.html");
    EXPECT_NE(page.find("href=\"04-"), std::string::npos) << page;
  }
}

TEST(Corpus, DamagedChapterFileIsAnErrorNamingIt) {
  // The corpus files are written from the chapter files, a chapter at a time; a damaged one
  // stops the index with its name, with or without a site.
  for (bool site : {true, false}) {
    test::TempDir out(site ? "damaged-site" : "damaged-nosite");
    Book book = test::sample_book();
    export_book(book, out.str(), test::png_renderer());
    const fs::path chapter = out.path / "books/ringlog/02-getting-started.json";
    ASSERT_TRUE(fs::exists(chapter));
    std::ofstream(chapter, std::ios::trunc) << "{\"blocks\": [";
    ExportOptions o;
    o.site = site;
    try {
      export_index(out.str(), {"ringlog"}, nullptr, o);
      ADD_FAILURE() << "no error (site " << site << ")";
    } catch (const Error& e) {
      EXPECT_EQ(e.code, ExitCode::BadIntermediate);
      EXPECT_EQ(e.file, chapter.string());
      EXPECT_NE(std::string(e.what()).find("malformed chapter"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace quire
