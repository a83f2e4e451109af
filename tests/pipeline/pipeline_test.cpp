#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <regex>
#include <thread>

#include "book_io.h"
#include "quire/json.h"
#include "run.h"

namespace quire::test {
namespace {

// A folder with copies of the born-digital fixture books (the scanned twin is tested apart).
fs::path fixture_input(const TempDir& t) {
  fs::path in = t.path / "books";
  fs::create_directories(in);
  for (const char* name : {"fx-classic.pdf", "fx-plain.pdf"}) fs::copy_file(fixture_books() / name, in / name);
  return in;
}

bool built(int code) { return code == 0 || code == 3; }

TEST(Build, WritesTheCorpusAndIsByteIdenticalAtAnyJobs) {
  TempDir t("determinism");
  fs::path in = fixture_input(t);
  auto a = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "j1") + " --jobs 1 --quiet");
  ASSERT_TRUE(built(a.code)) << a.out;
  auto b = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "j2") + " --jobs 2 --quiet");
  ASSERT_TRUE(built(b.code)) << b.out;
  for (const char* f : {"manifest.json", "corpus.jsonl", "site/index.html"})
    EXPECT_TRUE(fs::exists(t.path / "j1" / f)) << f;
  auto t1 = tree(t.path / "j1"), t2 = tree(t.path / "j2");
  EXPECT_EQ(t1.size(), t2.size());
  for (const auto& [name, bytes] : t1) {
    auto it = t2.find(name);
    ASSERT_NE(it, t2.end()) << name << " missing at --jobs 2";
    EXPECT_TRUE(it->second == bytes) << name << " differs between --jobs 1 and --jobs 2";
  }
  // Three jobs for two books: each book's helpers share the one spare lane.
  auto d = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "j3") + " --jobs 3 --quiet");
  ASSERT_TRUE(built(d.code)) << d.out;
  EXPECT_TRUE(tree(t.path / "j3") == t1) << "--jobs 3 differs from --jobs 1";
  // A second run with the same options is byte-identical too.
  auto c = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "j1b") + " --jobs 1 --quiet");
  ASSERT_TRUE(built(c.code)) << c.out;
  EXPECT_TRUE(tree(t.path / "j1b") == t1);
}

// Pages kept out of memory (--spill-after 0: every page waits in the temporary file between
// passes) change nothing in the output, at one job or two, and no file is left behind.
TEST(Build, PagesOutOfMemoryGiveTheSameCorpus) {
  TempDir t("spill");
  fs::path in = fixture_input(t);  // (OCR'd pages out of memory: tests/ocr)
  // (A book printed inside larger paper, whose pages clean scans twice.)
  fs::copy_file(fixture_books() / "ts-groff.pdf", in / "ts-groff.pdf");
  // (With each stage's intermediate file, which is written from the pages as they stand.)
  auto a = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "whole") +
                     " --jobs 2 --quiet --keep-intermediate --spill-after -1");
  ASSERT_TRUE(built(a.code)) << a.out;
  const auto whole = tree(t.path / "whole");
  ASSERT_GT(whole.size(), 10u);
  ASSERT_TRUE(whole.count("intermediate/fx-classic.pages.jsonl"));
  fs::create_directories(t.path / "tmp");
  for (const char* jobs : {"1", "2"}) {
    const fs::path out = t.path / (std::string("out-") + jobs);
    auto b = run_command("TMPDIR=" + shell_quote(t.path / "tmp") + " " + shell_quote(QUIRE_BINARY) + " build " +
                         shell_quote(in) + " -o " + shell_quote(out) + " --jobs " + jobs +
                         " --quiet --keep-intermediate --spill-after 0");
    ASSERT_EQ(b.code, a.code) << b.out;
    EXPECT_TRUE(tree(out) == whole) << "--spill-after 0 --jobs " << jobs << " differs from a build in memory";
    EXPECT_TRUE(fs::is_empty(t.path / "tmp")) << "the spill file is left behind";
  }
  // The wording check re-extracts each book with its pages out of memory as well.
  auto v = run_quire("verify " + shell_quote(t.path / "out-2") + " --pdf-dir " + shell_quote(in) + " --spill-after 0");
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_NE(v.out.find("verified 3 books"), std::string::npos) << v.out;
  // The file goes where TMPDIR says: where it cannot be made, each book fails with the reason.
  const fs::path nowhere = t.path / "no-such-folder";
  auto c = run_command("TMPDIR=" + shell_quote(nowhere) + " " + shell_quote(QUIRE_BINARY) + " build " +
                       shell_quote(in) + " -o " + shell_quote(t.path / "failed") + " --spill-after 0");
  EXPECT_EQ(c.code, 4) << c.out;
  for (const char* book : {"fx-classic.pdf: ", "fx-plain.pdf: "})
    EXPECT_NE(c.out.find(std::string(book) + "cannot make the page spill file " + nowhere.string()),
              std::string::npos)
        << book << c.out;
  // With the pages in memory the same build needs no such file.
  auto d = run_command("TMPDIR=" + shell_quote(nowhere) + " " + shell_quote(QUIRE_BINARY) + " build " +
                       shell_quote(in) + " -o " + shell_quote(t.path / "in-memory") + " --quiet --spill-after -1");
  EXPECT_EQ(d.code, a.code) << d.out;
}

TEST(Verify, PassesOnTheFixtureBooksAndFailsOnAnAlteredWord) {
  TempDir t("verify");
  fs::path in = fixture_input(t);
  fs::path out = t.path / "out";
  auto b = run_quire("build " + shell_quote(in) + " -o " + shell_quote(out) + " --quiet");
  ASSERT_TRUE(built(b.code)) << b.out;
  auto v = run_quire("verify " + shell_quote(out) + " --pdf-dir " + shell_quote(in));
  EXPECT_EQ(v.code, 0) << v.out;

  // Change one word of one paragraph in a chapter's blocks: verify must name it and fail.
  fs::path chapter;
  for (const auto& e : fs::directory_iterator(out / "books" / "fx-classic"))
    if (e.path().extension() == ".json" && e.path().filename() != "book.json") {
      chapter = e.path();
      break;
    }
  ASSERT_FALSE(chapter.empty());
  Json j = Json::parse(read_file(chapter));
  bool changed = false;
  for (auto& block : j["blocks"])
    if (block["type"] == "paragraph" && !changed) {
      std::string text = block["text"];
      auto sp = text.find(' ');
      ASSERT_NE(sp, std::string::npos);
      block["text"] = "Zyzzyva" + text.substr(sp);
      changed = true;
    }
  ASSERT_TRUE(changed);
  std::ofstream(chapter) << dump(j, true);
  auto v2 = run_quire("verify " + shell_quote(out) + " --pdf-dir " + shell_quote(in));
  EXPECT_EQ(v2.code, 1) << v2.out;
  EXPECT_NE(v2.out.find("added word \"Zyzzyva\""), std::string::npos) << v2.out;
  EXPECT_NE(v2.out.find("missing word"), std::string::npos) << v2.out;
}

TEST(Build, ABadBookFailsAloneAndLeavesNothingBehind) {
  TempDir t("badbook");
  fs::path in = fixture_input(t);
  std::ofstream(in / "broken.pdf") << "<html><body>not a PDF</body></html>";
  fs::path out = t.path / "out";
  auto r = run_quire("build " + shell_quote(in) + " -o " + shell_quote(out) + " --log json");
  EXPECT_EQ(r.code, 4) << r.out;  // a book failed, the others were built
  EXPECT_NE(r.out.find("broken.pdf"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(out / "books" / "fx-classic" / "book.json"));
  EXPECT_FALSE(fs::exists(out / "books" / "broken"));
  Json m = Json::parse(read_file(out / "manifest.json"));
  EXPECT_EQ(m["books"].size(), 2u);
  // The last event is the summary: counts, and where the time went.
  const std::string last = r.out.substr(r.out.rfind("{\"event\""));
  Json summary = Json::parse(last);
  EXPECT_EQ(summary["event"], "build_finished");
  EXPECT_EQ(summary["books"], 2);
  EXPECT_EQ(summary["failed"], 1);
  ASSERT_TRUE(summary["seconds_index"].is_number()) << last;
  EXPECT_GT(summary["seconds_index"].get<double>(), 0.0) << last;
  EXPECT_LE(summary["seconds_index"].get<double>(), summary["seconds"].get<double>() + 0.005) << last;
}

TEST(Build, AKilledBuildLeavesThePreviousOutputIntact) {
  TempDir t("kill");
  fs::path in = fixture_input(t);
  fs::path out = t.path / "out";
  auto first = run_quire("build " + shell_quote(in) + " -o " + shell_quote(out) + " --quiet");
  ASSERT_TRUE(built(first.code)) << first.out;
  auto before = tree(out);
  // Kill rebuilds at several moments; OUT must always be the complete previous corpus.
  for (int delay_ms : {5, 40, 120, 300}) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      execl(QUIRE_BINARY, "quire", "build", in.c_str(), "-o", out.c_str(), "--quiet", "--jobs", "1",
            static_cast<char*>(nullptr));
      _exit(127);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(tree(out) == before) << "OUT changed after SIGKILL at " << delay_ms << " ms";
  }
  // The next build removes what killed builds left beside OUT.
  auto again = run_quire("build " + shell_quote(in) + " -o " + shell_quote(out) + " --quiet");
  ASSERT_TRUE(built(again.code)) << again.out;
  for (const auto& e : fs::directory_iterator(t.path))
    EXPECT_EQ(e.path().filename().string().find("out.tmp-"), std::string::npos) << e.path();
}

// The previous corpus is removed by several threads: every file and folder goes, however
// deep, and a symbolic link goes without what it points at.
TEST(Build, RemovingAFolderTakesAllItHoldsAndNoLinkTarget) {
  TempDir t("remove-tree");
  const fs::path keep = t.path / "kept";
  fs::create_directories(keep / "inner");
  std::ofstream(keep / "inner" / "file.txt") << "kept";
  const fs::path gone = t.path / "gone";
  for (int b = 0; b < 7; ++b) {
    const fs::path book = gone / "books" / ("book-" + std::to_string(b));
    fs::create_directories(book / "figures" / "empty");
    for (int f = 0; f < 90; ++f) std::ofstream(book / (std::to_string(f) + ".json")) << f;
  }
  fs::create_directory_symlink(keep, gone / "books" / "link-to-kept");
  fs::create_symlink(keep / "inner" / "file.txt", gone / "file-link");
  ASSERT_GT(std::distance(fs::recursive_directory_iterator(gone), fs::recursive_directory_iterator()), 600);
  remove_tree(gone);
  EXPECT_FALSE(fs::exists(gone));
  EXPECT_FALSE(fs::is_symlink(gone / "file-link"));
  EXPECT_EQ(read_file(keep / "inner" / "file.txt"), "kept");
  remove_tree(t.path / "never-made");  // nothing to remove is no failure
  EXPECT_TRUE(fs::exists(keep / "inner"));
}

TEST(Build, TheCacheReusesUnchangedBooksAndGivesTheSameCorpus) {
  TempDir t("cache");
  fs::path in = fixture_input(t);
  fs::path cache = t.path / "cache";
  auto cold = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "a") + " --log json --cache " +
                        shell_quote(cache));
  ASSERT_TRUE(built(cold.code)) << cold.out;
  EXPECT_EQ(cold.out.find("\"cached\":true"), std::string::npos) << cold.out;
  auto warm = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "b") + " --log json --cache " +
                        shell_quote(cache));
  ASSERT_TRUE(built(warm.code)) << warm.out;
  size_t hits = 0;
  for (size_t at = warm.out.find("\"cached\":true"); at != std::string::npos; at = warm.out.find("\"cached\":true", at + 1))
    ++hits;
  EXPECT_EQ(hits, 2u) << warm.out;
  EXPECT_TRUE(tree(t.path / "a") == tree(t.path / "b"));

  // Changing one PDF rebuilds that book only.
  fs::remove(in / "fx-plain.pdf");
  fs::copy_file(fixture_books() / "fx-plain.pdf", in / "fx-plain.pdf");
  {
    std::ofstream app(in / "fx-plain.pdf", std::ios::app | std::ios::binary);
    app << "\n% trailing comment changes the bytes, not the content\n";
  }
  auto one = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "c") + " --log json --cache " +
                       shell_quote(cache));
  ASSERT_TRUE(built(one.code)) << one.out;
  size_t hits2 = 0;
  for (size_t at = one.out.find("\"cached\":true"); at != std::string::npos; at = one.out.find("\"cached\":true", at + 1))
    ++hits2;
  EXPECT_EQ(hits2, 1u) << one.out;
  // The corpus-level files were rebuilt for the changed book: the same as a build without cache.
  auto fresh = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "d") + " --quiet");
  ASSERT_TRUE(built(fresh.code)) << fresh.out;
  EXPECT_TRUE(tree(t.path / "c") == tree(t.path / "d"));
}

// `--set stage.option=value` is part of the cache key: an option set to its default reuses the
// books, another value builds them again (and the same corpus as without the cache); a bad
// setting is a usage error naming it, before anything is built.
TEST(Build, ASetOptionIsPartOfTheCacheKey) {
  TempDir t("cache-set");
  fs::path in = fixture_input(t);
  fs::path cache = t.path / "cache";
  auto build = [&](const std::string& out, const std::string& settings) {
    return run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / out) + " --log json --cache " +
                     shell_quote(cache) + " " + settings);
  };
  auto hits = [](const std::string& log) {
    size_t n = 0;
    for (size_t at = log.find("\"cached\":true"); at != std::string::npos; at = log.find("\"cached\":true", at + 1)) ++n;
    return n;
  };
  struct Case {
    const char* settings;
    size_t cached;  // books taken from the cache (of 2)
  };
  const Case cases[] = {
      {"", 0},                                                          // the cold build
      {"--set layout.lines.min_gutter=6 --set clean.band_ratio=0.2", 2},  // the defaults
      {"--set layout.lines.min_gutter=7", 0},                             // another value
      {"--set layout.lines.min_gutter=7", 2},                             // ... now cached
      {"--set layout.min_gutter=7", 2},                                   // ... by its name alone too
      {"--set clean.band_ratio=0.21", 0},
      {"--set extract.unusable_text_ratio=0.31", 0},
  };
  int n = 0;
  for (const auto& c : cases) {
    const std::string out = "out" + std::to_string(n++);
    auto r = build(out, c.settings);
    ASSERT_TRUE(built(r.code)) << c.settings << "\n" << r.out;
    EXPECT_EQ(hits(r.out), c.cached) << c.settings << "\n" << r.out;
  }
  auto fresh = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "fresh") +
                         " --quiet --set layout.lines.min_gutter=7");
  ASSERT_TRUE(built(fresh.code)) << fresh.out;
  EXPECT_TRUE(tree(t.path / "out3") == tree(t.path / "fresh"));

  auto bad = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "bad") +
                       " --quiet --set layout.min_guter=7");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("layout has no option 'min_guter'; close: lines.min_gutter"), std::string::npos) << bad.out;
  EXPECT_FALSE(fs::exists(t.path / "bad"));
}

// A cache entry that lost a file or holds one cut short (a cache folder pruned by hand, or
// restored in part by a CI cache) is a miss: that book and the corpus-level files are built
// again, and the corpus is the one a build without the cache makes.
TEST(Build, ADamagedCacheEntryIsBuiltAgain) {
  TempDir t("cache-damaged");
  fs::path in = fixture_input(t);
  fs::path cache = t.path / "cache";
  auto cold = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "a") + " --quiet --cache " +
                        shell_quote(cache));
  ASSERT_TRUE(built(cold.code)) << cold.out;
  // The entry of fx-classic loses a chapter file; the corpus-level entry's corpus.jsonl is cut.
  size_t damaged = 0;
  for (const auto& e : fs::directory_iterator(cache)) {
    const fs::path book = e.path() / "book";
    if (fs::exists(book / "book.json") && Json::parse(read_file(book / "book.json"))["id"] == "fx-classic")
      for (const auto& f : fs::directory_iterator(book))
        if (f.path().extension() == ".md") {
          fs::remove(f.path());
          ++damaged;
          break;
        }
  }
  for (const auto& e : fs::directory_iterator(cache / "index"))
    if (fs::exists(e.path() / "corpus.jsonl")) {
      fs::resize_file(e.path() / "corpus.jsonl", fs::file_size(e.path() / "corpus.jsonl") / 2);
      ++damaged;
    }
  ASSERT_EQ(damaged, 2u);
  auto again = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "b") + " --log json --cache " +
                         shell_quote(cache));
  ASSERT_TRUE(built(again.code)) << again.out;
  EXPECT_EQ(again.out.find("\"book\":\"fx-classic\",\"file\":\"fx-classic.pdf\",\"cached\":true"), std::string::npos)
      << again.out;
  EXPECT_NE(again.out.find("\"book\":\"fx-plain\",\"file\":\"fx-plain.pdf\",\"cached\":true"), std::string::npos)
      << again.out;
  EXPECT_TRUE(tree(t.path / "a") == tree(t.path / "b"));
  // The entries stored again are whole: the next build takes both books from the cache.
  auto third = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "c") + " --log json --cache " +
                         shell_quote(cache));
  ASSERT_TRUE(built(third.code)) << third.out;
  size_t hits = 0;
  for (size_t at = third.out.find("\"cached\":true"); at != std::string::npos; at = third.out.find("\"cached\":true", at + 1))
    ++hits;
  EXPECT_EQ(hits, 2u) << third.out;
  EXPECT_TRUE(tree(t.path / "a") == tree(t.path / "c"));
}

TEST(Build, TheCachedCorpusLevelFilesFollowTheMap) {
  TempDir t("cache-map");
  fs::path in = fixture_input(t);
  fs::path cache = t.path / "cache";
  const std::string map_text = read_file(source_dir() / "examples" / "fixtures" / "map.toml");
  const std::string old_title = "Ringlog and backups";
  ASSERT_NE(map_text.find(old_title), std::string::npos);
  auto build = [&](const std::string& text, const std::string& out, bool cached) {
    std::ofstream(t.path / "map.toml", std::ios::binary) << text;
    return run_quire("build --map " + shell_quote(t.path / "map.toml") + " --pdf-dir " + shell_quote(in) + " -o " +
                     shell_quote(t.path / out) + " --quiet" + (cached ? " --cache " + shell_quote(cache) : ""));
  };
  ASSERT_TRUE(built(build(map_text, "a", true).code));
  ASSERT_TRUE(built(build(map_text, "b", true).code));
  EXPECT_TRUE(tree(t.path / "a") == tree(t.path / "b"));
  // Only the map changes: every book is cached, the corpus-level files are not reused.
  std::string renamed = map_text;
  renamed.replace(renamed.find(old_title), old_title.size(), "Renamed shelf");
  ASSERT_TRUE(built(build(renamed, "c", true).code));
  ASSERT_TRUE(built(build(renamed, "d", false).code));
  EXPECT_TRUE(tree(t.path / "c") == tree(t.path / "d"));
  EXPECT_NE(read_file(t.path / "c" / "manifest.json").find("Renamed shelf"), std::string::npos);
  EXPECT_NE(read_file(t.path / "c" / "site" / "index.html").find("Renamed shelf"), std::string::npos);
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Build, ACachedRebuildOfTheSameOutputTakesItsUntouchedFiles) {
  // A cached rebuild of OUT links OUT's own files, as the last build left them, into the new
  // output (the old one is then removed: no file is shared once the build is done). A file of
  // OUT written since (appended to, here) is not taken: it comes from the cache again.
  TempDir t("cache-same-out");
  fs::path in = fixture_input(t);
  fs::path cache = t.path / "cache", out = t.path / "out";
  auto build = [&] {
    return run_quire("build " + shell_quote(in) + " -o " + shell_quote(out) + " --log json --cache " + shell_quote(cache));
  };
  // The cache entries' records of OUT's files, by the inode each record is in: a rebuild that
  // finds OUT as recorded leaves the records alone (no file written, no rename over one).
  auto records = [&] {
    std::map<std::string, ino_t> inodes;
    for (const auto& e : fs::recursive_directory_iterator(cache)) {
      struct stat st {};
      if (e.path().filename() == "installed" && stat(e.path().c_str(), &st) == 0) inodes[e.path().string()] = st.st_ino;
    }
    return inodes;
  };
  auto fresh = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "fresh") + " --quiet");
  ASSERT_TRUE(built(fresh.code)) << fresh.out;
  std::map<std::string, ino_t> first_records;
  for (int round = 0; round < 2; ++round) {
    auto r = build();
    ASSERT_TRUE(built(r.code)) << r.out;
    EXPECT_EQ(count_of(r.out, "\"cached\":true"), round == 0 ? 0u : 2u) << r.out;
    EXPECT_TRUE(tree(out) == tree(t.path / "fresh"));
    if (round == 0) first_records = records();
  }
  EXPECT_EQ(first_records.size(), 3u);  // two books and the corpus-level files
  EXPECT_EQ(records(), first_records);
  fs::path chapter;
  for (const auto& e : fs::directory_iterator(out / "books" / "fx-plain"))
    if (e.path().extension() == ".md") chapter = e.path();
  ASSERT_FALSE(chapter.empty());
  std::ofstream(chapter, std::ios::app | std::ios::binary) << "\nA line added by hand.\n";
  std::ofstream(out / "corpus.jsonl", std::ios::app | std::ios::binary) << "{}\n";
  auto again = build();
  ASSERT_TRUE(built(again.code)) << again.out;
  EXPECT_EQ(count_of(again.out, "\"cached\":true"), 2u) << again.out;
  EXPECT_TRUE(tree(out) == tree(t.path / "fresh"));
  // The changed book's record and the corpus-level files' record are written anew.
  const auto last_records = records();
  ASSERT_EQ(last_records.size(), first_records.size());
  size_t rewritten = 0;
  for (const auto& [path, ino] : last_records) rewritten += first_records.at(path) != ino;
  EXPECT_EQ(rewritten, 2u);
  for (const auto& e : fs::recursive_directory_iterator(out)) {
    if (!e.is_regular_file()) continue;
    EXPECT_EQ(fs::hard_link_count(e.path()), 1u) << e.path();
  }
}

TEST(Build, ACachedRebuildThatWouldGiveOutputBackLeavesItAlone) {
  // Every book and the corpus-level files cached, and OUT holding them as the last build
  // installed them: OUT is left as it is (the same folder, not a new one swapped in), with the
  // same report. Anything else in OUT, a changed file, or a book gone from the input makes a
  // build that gives OUT anew, as without the cache.
  TempDir t("cache-unchanged-out");
  fs::path in = fixture_input(t);
  fs::path cache = t.path / "cache", out = t.path / "out";
  auto build = [&] {
    return run_quire("build " + shell_quote(in) + " -o " + shell_quote(out) + " --log json --cache " + shell_quote(cache));
  };
  auto inode = [](const fs::path& p) {
    struct stat st {};
    return stat(p.c_str(), &st) == 0 ? st.st_ino : ino_t{0};
  };
  auto fresh = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "fresh") + " --quiet");
  ASSERT_TRUE(built(fresh.code)) << fresh.out;
  auto cold = build();
  ASSERT_TRUE(built(cold.code)) << cold.out;
  const ino_t first = inode(out);
  auto same = build();
  EXPECT_EQ(same.code, cold.code) << same.out;
  EXPECT_EQ(count_of(same.out, "\"cached\":true"), 2u) << same.out;
  EXPECT_EQ(count_of(same.out, "\"event\":\"book_started\""), 2u) << same.out;
  EXPECT_EQ(inode(out), first) << "OUT was made anew";
  EXPECT_TRUE(tree(out) == tree(t.path / "fresh"));

  // A file of OUT's own: the build makes OUT anew, without it.
  std::ofstream(out / "notes.txt") << "mine\n";
  auto stray = build();
  ASSERT_TRUE(built(stray.code)) << stray.out;
  EXPECT_EQ(count_of(stray.out, "\"cached\":true"), 2u) << stray.out;
  EXPECT_NE(inode(out), first);
  EXPECT_FALSE(fs::exists(out / "notes.txt"));
  EXPECT_TRUE(tree(out) == tree(t.path / "fresh"));

  // A changed chapter file is taken from the cache again.
  const ino_t second = inode(out);
  fs::path chapter;
  for (const auto& e : fs::directory_iterator(out / "books" / "fx-plain"))
    if (e.path().extension() == ".md") chapter = e.path();
  ASSERT_FALSE(chapter.empty());
  std::ofstream(chapter, std::ios::app | std::ios::binary) << "\nA line added by hand.\n";
  auto changed = build();
  ASSERT_TRUE(built(changed.code)) << changed.out;
  EXPECT_NE(inode(out), second);
  EXPECT_TRUE(tree(out) == tree(t.path / "fresh"));

  // A book gone from the input goes from OUT.
  fs::remove(in / "fx-classic.pdf");
  auto fewer = build();
  ASSERT_TRUE(built(fewer.code)) << fewer.out;
  EXPECT_FALSE(fs::exists(out / "books" / "fx-classic"));
  EXPECT_TRUE(fs::exists(out / "books" / "fx-plain"));
  auto again = build();
  ASSERT_TRUE(built(again.code)) << again.out;
  EXPECT_EQ(count_of(again.out, "\"cached\":true"), 1u) << again.out;
  EXPECT_FALSE(fs::exists(out / "books" / "fx-classic"));
}

TEST(Build, TheCacheAndOutputFoldersMayBeSpelledAnyWay) {
  // An entry's files are listed relative to the entry by their letters: a folder given with
  // "." and ".." (and the output through a link of its own) must still be read whole, and
  // a rebuild must still take the output's untouched files.
  TempDir t("cache-spelling");
  fs::path in = fixture_input(t);
  fs::create_directories(t.path / "sub");
  fs::create_directory_symlink(t.path, t.path / "here");
  const fs::path cache = t.path / "sub" / ".." / "cache" / ".";
  const fs::path out = t.path / "here" / "." / "out";
  auto fresh = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "fresh") + " --quiet");
  ASSERT_TRUE(built(fresh.code)) << fresh.out;
  for (int round = 0; round < 3; ++round) {
    auto r = run_quire("build " + shell_quote(in) + " -o " + shell_quote(out) + " --log json --cache " + shell_quote(cache));
    ASSERT_TRUE(built(r.code)) << r.out;
    EXPECT_EQ(count_of(r.out, "\"cached\":true"), round == 0 ? 0u : 2u) << "round " << round << ": " << r.out;
    EXPECT_TRUE(tree(t.path / "out") == tree(t.path / "fresh")) << "round " << round;
  }
  for (const auto& e : fs::recursive_directory_iterator(t.path / "out")) {
    if (!e.is_regular_file()) continue;
    EXPECT_EQ(fs::hard_link_count(e.path()), 1u) << e.path();
  }
}

TEST(Build, TheHyphenationDictionaryReachesLayoutAndTheCacheKey) {
  const fs::path english = "/usr/share/hunspell/en_US";
  if (!fs::exists(english.string() + ".dic") || !fs::exists(english.string() + ".aff"))
    GTEST_SKIP() << "no " << english << ".dic (Debian package hunspell-en-us)";
  TempDir t("dictionary");
  fs::path in = fixture_input(t);
  fs::path cache = t.path / "cache";
  fs::path dict = t.path / "en";
  fs::copy_file(english.string() + ".aff", dict.string() + ".aff");
  fs::copy_file(english.string() + ".dic", dict.string() + ".dic");
  auto build = [&](const std::string& out, const std::string& dictionary, bool cached) {
    return run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / out) + " --log json" +
                     " --hyphen-dictionary " + shell_quote(dictionary) + (cached ? " --cache " + shell_quote(cache) : ""));
  };
  // fx-classic breaks "synchronization-heavy" at its own hyphen, and nothing else in the
  // book tells: the dictionary knows both words and not their join, so the hyphen stays.
  auto with = build("with", dict.string(), true);
  ASSERT_TRUE(built(with.code)) << with.out;
  auto without = build("without", "", false);
  ASSERT_TRUE(built(without.code)) << without.out;
  const std::string md = "books/fx-classic/03-the-capture-pipeline.md";
  EXPECT_NE(read_file(t.path / "with" / md).find("synchronization-heavy"), std::string::npos);
  EXPECT_NE(read_file(t.path / "without" / md).find("synchronizationheavy"), std::string::npos);

  auto warm = build("warm", dict.string(), true);
  ASSERT_TRUE(built(warm.code)) << warm.out;
  EXPECT_EQ(count_of(warm.out, "\"cached\":true"), 2u) << warm.out;
  // Another dictionary (one more word) is another key: both books are built again.
  {
    std::ofstream app(dict.string() + ".dic", std::ios::app | std::ios::binary);
    app << "synchronizationheavy\n";
  }
  auto changed = build("changed", dict.string(), true);
  ASSERT_TRUE(built(changed.code)) << changed.out;
  EXPECT_EQ(count_of(changed.out, "\"cached\":true"), 0u) << changed.out;
  EXPECT_NE(read_file(t.path / "changed" / md).find("synchronizationheavy"), std::string::npos);
}

TEST(Build, TheHyphenationPatternsAreInTheCacheKey) {
  const fs::path english = "/usr/share/hyphen/hyph_en_US.dic";
  if (!fs::exists(english)) GTEST_SKIP() << "no " << english << " (Debian package hyphen-en-us)";
  TempDir t("patterns");
  fs::path in = fixture_input(t);
  fs::path cache = t.path / "cache";
  fs::path patterns = t.path / "hyph.dic";
  fs::copy_file(english, patterns);
  auto build = [&](const std::string& out) {
    return run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / out) + " --log json" +
                     " --hyphen-patterns " + shell_quote(patterns) + " --cache " + shell_quote(cache));
  };
  auto cold = build("cold");
  ASSERT_TRUE(built(cold.code)) << cold.out;
  auto warm = build("warm");
  ASSERT_TRUE(built(warm.code)) << warm.out;
  EXPECT_EQ(count_of(warm.out, "\"cached\":true"), 2u) << warm.out;
  // Other patterns (one more) are another key: both books are built again.
  {
    std::ofstream app(patterns, std::ios::app | std::ios::binary);
    app << "ava5hi\n";
  }
  auto changed = build("changed");
  ASSERT_TRUE(built(changed.code)) << changed.out;
  EXPECT_EQ(count_of(changed.out, "\"cached\":true"), 0u) << changed.out;
  EXPECT_TRUE(tree(t.path / "cold") == tree(t.path / "changed"));
}

// Two TeX manuals of other makes than the fixtures (texlive-latex-recommended and
// texlive-plain-generic): the KOMA-Script guide, whose outline has parts without "Part" in
// their titles and syntax lines with the LaTeX logo in typewriter, and the DocByTeX manual,
// whose headings stand on coloured squares and whose listings sit in boxes drawn in pieces.
TEST(TexManuals, BuildAndVerifyWithTheirChaptersAndNoDecorationFigures) {
  const fs::path koma = "/usr/share/doc/texlive-doc/latex/koma-script/scrguide-en.pdf";
  const fs::path docby = "/usr/share/doc/texlive-doc/generic/docbytex/docby-e.pdf";
  if (!fs::exists(koma) || !fs::exists(docby))
    GTEST_SKIP() << "texlive-latex-recommended or texlive-plain-generic not installed";
  TempDir t("tex-manuals");
  fs::create_directories(t.path / "in");
  fs::create_symlink(koma, t.path / "in" / koma.filename());
  fs::create_symlink(docby, t.path / "in" / docby.filename());
  auto b = run_quire("build " + shell_quote(t.path / "in") + " -o " + shell_quote(t.path / "out") + " --quiet");
  ASSERT_TRUE(built(b.code)) << b.out;
  const Json manifest = Json::parse(read_file(t.path / "out" / "manifest.json"));
  std::map<std::string, Json> books;
  for (const auto& book : manifest.at("books")) books[book.at("id").get<std::string>()] = book;
  ASSERT_EQ(books.size(), 2u);
  for (const auto& [id, book] : books) {
    const Json meta = Json::parse(read_file(t.path / "out" / "books" / id / "book.json"));
    for (const auto& w : meta.at("warnings"))
      EXPECT_EQ(w.get<std::string>().find("verify"), std::string::npos) << id << ": " << w;
  }
  // The guide's parts give their chapters: 26, not the 6 top-level bookmarks.
  std::vector<std::string> titles;
  for (const auto& c : books.at("scrguide-en").at("chapters")) titles.push_back(c.at("title").get<std::string>());
  EXPECT_GE(titles.size(), 20u);
  EXPECT_NE(std::find(titles.begin(), titles.end(), "Calculating the Page Layout with typearea"), titles.end());
  EXPECT_EQ(std::find(titles.begin(), titles.end(), "KOMA-Script for Authors"), titles.end());
  // DocByTeX: its squares and box padding are not figures (92 were found before).
  long figures = 0;
  for (const auto& c : books.at("docby-e").at("chapters")) figures += c.at("figures").get<long>();
  EXPECT_LE(figures, 10);
}

TEST(Shards, MergedShardsEqualASingleBuild) {
  TempDir t("shards");
  fs::path in = fixture_input(t);
  auto single = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "single") + " --quiet");
  ASSERT_TRUE(built(single.code)) << single.out;
  for (int i = 0; i < 2; ++i) {
    auto s = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / ("s" + std::to_string(i))) +
                       " --quiet --shard " + std::to_string(i) + "/2");
    ASSERT_TRUE(built(s.code)) << s.out;
  }
  auto m = run_quire("merge " + shell_quote(t.path / "s0") + " " + shell_quote(t.path / "s1") + " -o " +
                     shell_quote(t.path / "merged"));
  ASSERT_EQ(m.code, 0) << m.out;
  EXPECT_TRUE(tree(t.path / "merged") == tree(t.path / "single"));
  // A missing shard is an error naming it.
  auto missing = run_quire("merge " + shell_quote(t.path / "s0") + " -o " + shell_quote(t.path / "m2"));
  EXPECT_NE(missing.code, 0);
  EXPECT_NE(missing.out.find("shard 1/2 is missing"), std::string::npos) << missing.out;
  // Chapters are read from the shards when the corpus files are written: a damaged one is
  // an error naming its file, and no corpus is left behind.
  fs::path chapter;
  for (const auto& e : fs::recursive_directory_iterator(t.path / "s1" / "books"))
    if (e.path().extension() == ".json" && e.path().filename() != "book.json") chapter = e.path();
  ASSERT_FALSE(chapter.empty());
  std::ofstream(chapter, std::ios::trunc) << "{\"blocks\": [";
  auto damaged = run_quire("merge " + shell_quote(t.path / "s0") + " " + shell_quote(t.path / "s1") + " -o " +
                           shell_quote(t.path / "m3"));
  EXPECT_EQ(damaged.code, 10) << damaged.out;
  EXPECT_NE(damaged.out.find(chapter.filename().string() + ": malformed chapter"), std::string::npos) << damaged.out;
  EXPECT_FALSE(fs::exists(t.path / "m3"));
}

TEST(Cli, UsageErrorsAndVersion) {
  EXPECT_EQ(run_quire("--version").code, 0);
  EXPECT_EQ(run_quire("frobnicate").code, 2);
  EXPECT_EQ(run_quire("build").code, 2);
  auto shard = run_quire("build x -o y --shard 3/2");
  EXPECT_EQ(shard.code, 2) << shard.out;
  auto missing = run_quire("build /nonexistent/folder -o /tmp/quire-never");
  EXPECT_EQ(missing.code, 5) << missing.out;
}

}  // namespace
}  // namespace quire::test

namespace quire::test {
namespace {

const fs::path kManuals = "/usr/share/R/doc/manual";

// Real manuals typeset by others (Debian's r-doc-pdf): built, then verified word for word.
TEST(RealManuals, RIntroBuildsAndVerifiesClean) {
  if (!fs::exists(kManuals / "R-intro.pdf")) GTEST_SKIP() << "r-doc-pdf is not installed";
  TempDir t("rintro");
  fs::create_directories(t.path / "in");
  fs::copy_file(kManuals / "R-intro.pdf", t.path / "in" / "R-intro.pdf");
  auto b = run_quire("build " + shell_quote(t.path / "in") + " -o " + shell_quote(t.path / "out") + " --quiet");
  ASSERT_TRUE(built(b.code)) << b.out;
  auto v = run_quire("verify " + shell_quote(t.path / "out") + " --pdf-dir " + shell_quote(t.path / "in"));
  EXPECT_EQ(v.code, 0) << v.out.substr(0, 4000);
  Json m = Json::parse(read_file(t.path / "out" / "manifest.json"));
  ASSERT_EQ(m["books"].size(), 1u);
  // The outline's chapters, in order, from the preface to the appendices.
  std::vector<std::string> titles;
  for (const auto& c : m["books"][0]["chapters"]) titles.push_back(c["title"]);
  ASSERT_GE(titles.size(), 13u);
  EXPECT_NE(std::find(titles.begin(), titles.end(), "Introduction and preliminaries"), titles.end())
      << testing::PrintToString(titles);
}

// The 2,400-page reference manual: built without a crash, in bounded memory.
TEST(RealManuals, RefmanBuilds) {
  if (!fs::exists(kManuals / "refman.pdf")) GTEST_SKIP() << "r-doc-pdf is not installed";
  TempDir t("refman");
  fs::create_directories(t.path / "in");
  fs::create_symlink(kManuals / "refman.pdf", t.path / "in" / "refman.pdf");
  auto b = run_quire("build " + shell_quote(t.path / "in") + " -o " + shell_quote(t.path / "out") +
                     " --quiet --log json --jobs 2");
  ASSERT_TRUE(built(b.code)) << b.out.substr(0, 4000);
  Json m = Json::parse(read_file(t.path / "out" / "manifest.json"));
  ASSERT_EQ(m["books"].size(), 1u);
  EXPECT_GE(m["books"][0]["source"]["pages"].get<int>(), 2000);
  EXPECT_GE(m["books"][0]["chapters"].size(), 1u);
}

// A page over the time limit is skipped with an error naming it; the book is still built.
TEST(Limits, APageOverTheTimeLimitIsSkippedAndNamed) {
  TempDir t("timeout");
  fs::create_directories(t.path / "in");
  fs::copy_file(fixture_books() / "fx-classic.pdf", t.path / "in" / "fx-classic.pdf");
  auto b = run_quire("build " + shell_quote(t.path / "in") + " -o " + shell_quote(t.path / "out") +
                     " --page-timeout 0.000001 --no-verify --ocr never");
  EXPECT_EQ(b.code, 3) << b.out;  // built, with warnings
  const std::string named = "fx-classic.pdf: page 1: cannot read page: skipped: over the";
  const size_t at = b.out.find(named);
  EXPECT_NE(at, std::string::npos) << b.out;
  EXPECT_EQ(b.out.find(named, at + 1), std::string::npos) << "the page is reported once\n" << b.out;
  EXPECT_TRUE(fs::exists(t.path / "out" / "manifest.json"));
}

TEST(Limits, APageOverTheMemoryBudgetIsSkippedAndNamed) {
  TempDir t("memory");
  fs::create_directories(t.path / "in");
  fs::copy_file(fixture_books() / "fx-classic.pdf", t.path / "in" / "fx-classic.pdf");
  auto b = run_quire("build " + shell_quote(t.path / "in") + " -o " + shell_quote(t.path / "out") +
                     " --page-memory 0.01 --no-verify --ocr never");
  EXPECT_EQ(b.code, 3) << b.out;
  EXPECT_NE(b.out.find("skipped: over the 0.01 MiB page memory budget"), std::string::npos) << b.out;
}

}  // namespace
}  // namespace quire::test

namespace quire::test {
namespace {

// `-o` naming a device or a pipe writes into it: renaming a temporary file over it would
// replace /dev/null with a plain file (as root, for everyone).
TEST(Cli, OutputToAPipeIsWrittenNotReplaced) {
  TempDir t("fifo");
  fs::path fifo = t.path / "pipe";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  fs::path copy = t.path / "copy.jsonl";
  std::string cmd = "cat " + shell_quote(fifo) + " > " + shell_quote(copy) + " & " + shell_quote(QUIRE_BINARY) +
                    " extract " + shell_quote(fixture_books() / "fx-plain.pdf") + " -o " + shell_quote(fifo) +
                    " 2>/dev/null; status=$?; wait; exit $status";
  int rc = std::system(cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(rc), 0);
  EXPECT_TRUE(fs::is_fifo(fifo)) << "the pipe was replaced";
  EXPECT_NE(read_file(copy).find("\"format\":\"quire-pages/1\""), std::string::npos);
}

}  // namespace
}  // namespace quire::test

namespace quire::test {
namespace {

// --keep-intermediate writes each stage's file, readable by the single-stage commands.
TEST(Build, KeepIntermediateWritesEachStagesFile) {
  TempDir t("intermediate");
  fs::create_directories(t.path / "in");
  fs::copy_file(fixture_books() / "fx-plain.pdf", t.path / "in" / "fx-plain.pdf");
  auto b = run_quire("build " + shell_quote(t.path / "in") + " -o " + shell_quote(t.path / "out") +
                     " --quiet --keep-intermediate");
  ASSERT_TRUE(built(b.code)) << b.out;
  fs::path dir = t.path / "out" / "intermediate";
  for (const char* f : {"fx-plain.pages.jsonl", "fx-plain.clean.jsonl", "fx-plain.book.jsonl"})
    EXPECT_TRUE(fs::exists(dir / f)) << f;
  // The extracted pages go through `quire clean` and `quire layout` like any intermediate file.
  auto c = run_quire("clean " + shell_quote(dir / "fx-plain.pages.jsonl") + " -o " + shell_quote(t.path / "c.jsonl"));
  EXPECT_EQ(c.code, 0) << c.out;
  auto l = run_quire("layout " + shell_quote(dir / "fx-plain.clean.jsonl") + " -o " + shell_quote(t.path / "b.jsonl"));
  EXPECT_EQ(l.code, 0) << l.out;
  EXPECT_NE(read_file(dir / "fx-plain.book.jsonl").find("\"format\":\"quire-book/1\""), std::string::npos);
}

// On a terminal, a build draws one progress line (books, pages, pages/s, ETA, current book),
// redrawn in place; `script` gives the build a terminal.
RunResult run_on_a_terminal(const std::string& args) {
  return run_command("script -qfec " + shell_quote(shell_quote(QUIRE_BINARY) + " " + args) + " /dev/null");
}

TEST(Progress, ALiveLineWithAnEtaOnATerminal) {
  if (!run_command("script --version").out.size()) GTEST_SKIP() << "no `script` (util-linux) to make a terminal";
  TempDir t("progress");
  fs::path in = fixture_input(t);
  auto r = run_on_a_terminal("build " + shell_quote(in) + " -o " + shell_quote(t.path / "out") + " --jobs 1");
  ASSERT_TRUE(built(r.code)) << r.out;
  EXPECT_NE(r.out.find("books 0/2"), std::string::npos) << r.out;
  // After the first book, the ETA is an estimate in seconds; at the end it is 0.
  EXPECT_TRUE(std::regex_search(r.out, std::regex("books 1/2  pages [0-9]+  [0-9]+ pages/s  ETA [0-9]+s"))) << r.out;
  EXPECT_NE(r.out.find("books 2/2"), std::string::npos) << r.out;
  // Nothing is drawn when the output is not a terminal.
  auto piped = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / "out2") + " --jobs 1");
  EXPECT_EQ(piped.out.find("pages/s"), std::string::npos) << piped.out;
}

// A book typeset by others with groff: the manual of groff's pic (package groff), made into a
// PDF here with gropdf. Its diagrams are separate strokes, circles and arrows with words
// between them, and its folios are "-N-" in the head, some with a figure close below.
TEST(GroffBook, PicsDiagramsAreWholeFiguresAndItsFoliosGo) {
  const fs::path source = "/usr/share/doc/groff-base/pic.ms.gz";
  if (!fs::exists(source) || run_command("command -v gropdf").code != 0)
    GTEST_SKIP() << "groff is not installed (apt-get install groff)";
  TempDir t("groff-pic");
  fs::create_directories(t.path / "in");
  const auto typeset = run_command("zcat " + shell_quote(source) + " | groff -p -e -t -ms -Tpdf > " +
                                   shell_quote(t.path / "in" / "pic.pdf"));
  ASSERT_EQ(typeset.code, 0) << typeset.out;
  auto b = run_quire("build " + shell_quote(t.path / "in") + " -o " + shell_quote(t.path / "out") + " --log json");
  ASSERT_TRUE(built(b.code)) << b.out;
  EXPECT_NE(b.out.find("\"verify_differences\":0"), std::string::npos) << b.out;
  std::string concepts;
  for (const auto& e : fs::directory_iterator(t.path / "out" / "books" / "pic")) {
    if (e.path().extension() != ".md") continue;
    const std::string md = read_file(e.path());
    EXPECT_FALSE(std::regex_search(md, std::regex("(^|\n)-[0-9]+-(\n|$)"))) << e.path() << " keeps a folio";
    if (e.path().filename().string().find("basic-pic-concepts") != std::string::npos) concepts = md;
  }
  ASSERT_FALSE(concepts.empty()) << "no chapter \"Basic PIC Concepts\"";
  // Each of the chapter's seven captions follows its figure, and no label is a paragraph.
  for (int n = 1; n <= 7; ++n) {
    const std::string caption = "\n\nFigure 3-" + std::to_string(n) + ":";
    const size_t at = concepts.find(caption);
    ASSERT_NE(at, std::string::npos) << caption;
    // (The image paragraph may open with the figure's anchor, <a id="figure-3-1"></a>.)
    const size_t image = concepts.rfind("![Figure 3-" + std::to_string(n) + "](", at);
    EXPECT_TRUE(image != std::string::npos && concepts.find("\n\n", image + 1) == at &&
                concepts.rfind("\n\n", image) == concepts.rfind('\n', image) - 1)
        << "Figure 3-" << n;
  }
  for (const char* label : {"\n\nline arrow\n", "\n\narc\n", "\n\now!\n"})
    EXPECT_EQ(concepts.find(label), std::string::npos) << label;
}

// A book printed by a browser: Chromium's print to PDF of an HTML page written here. The
// browser paints white rectangles behind the text (the page's and the blocks' backgrounds);
// the page holds a screenshot with its caption and a note box with a small sign beside its
// text. The screenshot is the one figure; every paragraph and the note stay text.
TEST(ChromiumBook, WhitePaintAndANotesSignMakeNoFigureOfTheProse) {
  const char* env = std::getenv("QUIRE_CHROMIUM");
  const std::string chromium = env && *env ? env : "/usr/bin/chromium";
  if (!fs::exists(chromium)) GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";
  TempDir t("chromium-book");
  fs::create_directories(t.path / "in");
  // An 8x6 screenshot and a 4x4 sign, as PNG.
  const std::string shot =
      "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAAcUlEQVR42g3BIQEEMRADwIg4XLwiVkRwcUVERHFxRKyIxcUn4iT8zwDAwJOIiRR4sAq62"
      "EA8IyIjZ1CxTqhi3zDAGMwkJ5eow130ZQHKIabW1N8+cqmuGjCHV1rTW/Zxlfv6BXqNVvaebXWd7ur39vcDEPA88W275LIAAAAASUVORK5CYII=";
  const std::string sign =
      "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAFklEQVR42mP4jwQYgFgu6gQQYePAAQAkICjdJC3WwQAAAABJRU5ErkJggg==";
  const std::vector<std::string> prose = {
      "The first paragraph tells how the engine paints the page, and it runs on for a while so that it wraps over "
      "several lines of the measure, as prose does in any book that anybody would care to read.",
      "A second paragraph follows it with more words again: the quick brown fox jumps over the lazy dog, and the "
      "dog, being lazy, does not mind at all, since it has seen this many times before.",
      "After the figure the prose goes on, and every word of it belongs to the text, however the engine paints "
      "the background behind it.",
      "This note has a small sign beside it, and its words belong to the note, which is no figure with its "
      "text for labels.",
      "The last paragraph of the chapter closes it with a sentence or two, so that there is text after the note "
      "as well as before it.",
  };
  std::string html =
      "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Painted Pages</title><style>"
      "html, body { background: #ffffff; } body { font-family: serif; font-size: 11pt; margin: 0; }"
      "main { background: white; } h1 { font-size: 20pt; }"
      ".note { border: 1px solid #888; background: #f4f4f4; padding: 8px; margin: 12px 0; display: flex; gap: 10px; }"
      ".note img { width: 24px; height: 24px; flex: none; } figcaption { font-style: italic; }"
      "</style></head><body><main><h1>Chapter One: Paint</h1>";
  html += "<p>" + prose[0] + "</p><p>" + prose[1] + "</p>";
  html += "<figure><img src=\"data:image/png;base64," + shot +
          "\" style=\"width: 300px\"><figcaption>Figure 1. A screenshot of a program.</figcaption></figure>";
  html += "<p>" + prose[2] + "</p>";
  html += "<div class=\"note\"><img src=\"data:image/png;base64," + sign + "\" alt=\"\"><div><b>Note</b><br>" + prose[3] +
          "</div></div>";
  html += "<p>" + prose[4] + "</p></main></body></html>";
  std::ofstream(t.path / "book.html") << html;
  const auto typeset = run_command("timeout 120 " + shell_quote(chromium) +
                                   " --headless --no-sandbox --disable-gpu --no-pdf-header-footer --print-to-pdf=" +
                                   shell_quote(t.path / "in" / "painted.pdf") + " " +
                                   shell_quote("file://" + (t.path / "book.html").string()) + " 2>&1");
  ASSERT_TRUE(fs::exists(t.path / "in" / "painted.pdf")) << typeset.out;
  auto b = run_quire("build " + shell_quote(t.path / "in") + " -o " + shell_quote(t.path / "out") + " --log json");
  ASSERT_TRUE(built(b.code)) << b.out;
  EXPECT_NE(b.out.find("\"verify_differences\":0"), std::string::npos) << b.out;
  std::string md;
  for (const auto& e : fs::directory_iterator(t.path / "out" / "books" / "painted"))
    if (e.path().extension() == ".md") md += read_file(e.path());
  size_t figures = 0;
  // A figure is an image paragraph (its line may start with its anchor).
  for (size_t at = md.find("!["); at != std::string::npos; at = md.find("![", at + 1)) ++figures;
  EXPECT_EQ(figures, 1u) << md;
  for (const auto& p : prose) EXPECT_NE(md.find(p), std::string::npos) << "not in the text: " << p << "\n" << md;
}

// The progress lines drawn on the terminal: what is between carriage returns and line ends,
// with the erase-line sequence taken out.
std::vector<std::string> drawn_lines(const std::string& out) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : out + "\n") {
    if (c != '\r' && c != '\n') {
      cur += c;
      continue;
    }
    for (size_t k; (k = cur.find("\033[K")) != std::string::npos;) cur.erase(k, 3);
    if (cur.rfind("books ", 0) == 0) lines.push_back(cur);
    cur.clear();
  }
  return lines;
}

// Two books at once: the line names both; a narrow terminal gets a line cut to its width,
// since a line that wraps cannot be redrawn in place.
TEST(Progress, TheLineNamesEveryBookInFlightAndFitsTheTerminal) {
  if (!run_command("script --version").out.size()) GTEST_SKIP() << "no `script` (util-linux) to make a terminal";
  TempDir t("progress-width");
  fs::path in = fixture_input(t);
  auto build_at = [&](int columns, const std::string& out) {
    const std::string cmd = "stty cols " + std::to_string(columns) + " rows 24; " + shell_quote(QUIRE_BINARY) +
                            " build " + shell_quote(in) + " -o " + shell_quote(t.path / out) + " --jobs 2";
    return run_command("script -qfec " + shell_quote(cmd) + " /dev/null");
  };
  // Both books are in flight once the second starts, unless the first ends before the second
  // worker runs at all, which a loaded machine can make happen (beside the suite's other
  // tests at two jobs, three builds in a row once showed no such frame): a build that showed
  // no frame with both is run again, up to ten times (each takes a fraction of a second).
  auto both = [](const std::vector<std::string>& ls) {
    return std::any_of(ls.begin(), ls.end(), [](const std::string& l) {
      return std::regex_search(l, std::regex("ETA \\S+  fx-(classic, fx-plain|plain, fx-classic)$"));
    });
  };
  RunResult wide;
  std::vector<std::string> lines;
  for (int attempt = 0; attempt < 10 && (attempt == 0 || !both(lines)); ++attempt) {
    wide = build_at(120, "wide-" + std::to_string(attempt));
    ASSERT_TRUE(built(wide.code)) << wide.out;
    lines = drawn_lines(wide.out);
    ASSERT_FALSE(lines.empty()) << wide.out;
    for (const auto& l : lines) EXPECT_LT(l.size(), 120u) << l;
  }
  EXPECT_TRUE(both(lines)) << wide.out;

  auto narrow = build_at(30, "narrow");
  ASSERT_TRUE(built(narrow.code)) << narrow.out;
  lines = drawn_lines(narrow.out);
  ASSERT_FALSE(lines.empty()) << narrow.out;
  for (const auto& l : lines) EXPECT_LE(l.size(), 29u) << l;
  EXPECT_NE(lines.front().find("books 0/2  pages"), std::string::npos) << lines.front();
}

// A book's report is printed whole: the other worker's redraw of the line (a book started, a
// page read) waits until it is out, so every line on the terminal is either the progress line
// or a line of a report, never the two run together.
TEST(Progress, ABooksReportIsNeverCutByTheLineOfTheOtherWorker) {
  if (!run_command("script --version").out.size()) GTEST_SKIP() << "no `script` (util-linux) to make a terminal";
  TempDir t("progress-reports");
  fs::path in = t.path / "books";
  fs::create_directories(in);
  // Many small books at two jobs: a report is being printed whenever the other worker starts a
  // book or reads a page.
  for (int k = 0; k < 8; ++k)
    for (const char* name : {"fx-classic", "fx-plain"})
      fs::copy_file(fixture_books() / (std::string(name) + ".pdf"), in / (name + std::to_string(k) + ".pdf"));
  const std::regex progress("books [0-9]+/16  pages [0-9]+  [0-9]+ pages/s  ETA \\S+(  [a-z0-9, +-]+)?");
  const std::regex report(
      "(fx-(classic|plain)[0-9]: [0-9]+ pages, .*, wording verified|  words: [0-9]+ extracted = .*|  figures per chapter:( [0-9]+:[0-9]+)+|"
      "built 16 books .*|corpus: .*)");
  for (int run = 0; run < 3; ++run) {
    auto r = run_command("script -qfec " +
                         shell_quote("stty cols 200 rows 24; " + shell_quote(QUIRE_BINARY) + " build " + shell_quote(in) + " -o " +
                                     shell_quote(t.path / ("out" + std::to_string(run))) + " --jobs 2") +
                         " /dev/null");
    ASSERT_TRUE(built(r.code)) << r.out;
    size_t reports = 0;
    std::string cur;
    for (char c : r.out + "\n") {
      if (c != '\r' && c != '\n') {
        cur += c;
        continue;
      }
      for (size_t k; (k = cur.find("\033[K")) != std::string::npos;) cur.erase(k, 3);
      if (!cur.empty()) {
        const bool is_report = std::regex_match(cur, report);
        reports += is_report;
        EXPECT_TRUE(is_report || std::regex_match(cur, progress)) << "run " << run << ": \"" << cur << "\"";
      }
      cur.clear();
    }
    EXPECT_EQ(reports, 16u * 3 + 2) << r.out;  // three lines a book (each has a figure), two at the end
  }
}

TEST(Progress, OneLargeBookHasAnEtaBeforeItEnds) {
  if (!fs::exists(kManuals / "refman.pdf")) GTEST_SKIP() << "r-doc-pdf is not installed";
  if (!run_command("script --version").out.size()) GTEST_SKIP() << "no `script` (util-linux) to make a terminal";
  TempDir t("progress-refman");
  fs::create_directories(t.path / "in");
  fs::create_symlink(kManuals / "refman.pdf", t.path / "in" / "refman.pdf");
  auto r = run_on_a_terminal("build " + shell_quote(t.path / "in") + " -o " + shell_quote(t.path / "out") + " --jobs 2");
  ASSERT_TRUE(built(r.code)) << r.out.substr(0, 2000);
  // While the only book is being read, the ETA is already a number of seconds.
  EXPECT_TRUE(std::regex_search(r.out, std::regex("books 0/1  pages [0-9]+  [0-9]+ pages/s  ETA [0-9]+s  refman")))
      << r.out.substr(0, 2000);
}

}  // namespace
}  // namespace quire::test
