// Broken, huge, encrypted and crafted PDFs in one batch: each has its documented outcome
// (docs/bad-input.md), the good book is built either way, and nothing escapes OUT.
#include <gtest/gtest.h>

#include <set>

#include "quire/json.h"
#include "run.h"

namespace quire::test {
namespace {

struct Batch {
  TempDir dir{"hostile"};
  fs::path in, out;
  std::map<std::string, std::string> expected;  // file -> built | warned | failed | warned-or-failed
  std::map<std::string, Json> events;           // file -> book_finished / book_failed event
  std::map<std::string, std::vector<std::string>> warning_events;  // file -> its warning events' messages
  RunResult result;

  Batch() {
    in = dir.path / "in";
    out = dir.path / "out";
    std::string cmd = std::string(PYTHON3) + " " + shell_quote(source_dir() / "tests/hostile/make_hostile.py") + " " +
                      shell_quote(in) + " " + shell_quote(fixture_books() / "fx-plain.pdf");
    if (std::system(cmd.c_str()) != 0) return;
    fs::copy_file(fixture_books() / "fx-plain.pdf", in / "good-book.pdf");
    std::ifstream ex(in / "EXPECTED");
    std::string name, outcome;
    while (ex >> name >> outcome) expected[name] = outcome;
    fs::remove(in / "EXPECTED");
    result = run_quire("build " + shell_quote(in) + " -o " + shell_quote(out) + " --ocr never --log json --jobs 2");
    std::istringstream lines(result.out);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.empty() || line[0] != '{') continue;
      Json j = Json::parse(line, nullptr, false);
      if (j.is_discarded()) continue;
      std::string ev = j.value("event", "");
      if (ev == "book_finished" || ev == "book_failed") events[j.value("file", "")] = j;
      if (ev == "warning") {
        EXPECT_EQ(events.count(j.value("file", "")), 0u) << "a warning comes before its book's end: " << line;
        warning_events[j.value("file", "")].push_back(j.value("message", ""));
      }
    }
  }
};

Batch& batch() {
  static Batch b;
  return b;
}

TEST(Hostile, TheCorpusWasMade) {
  ASSERT_GE(batch().expected.size(), 10u) << "make_hostile.py failed";
}

TEST(Hostile, EachBookHasItsDocumentedOutcome) {
  auto& b = batch();
  ASSERT_FALSE(b.expected.empty());
  EXPECT_EQ(b.result.code, 4) << "some books fail, so the batch exits 4\n" << b.result.out;
  for (const auto& [file, outcome] : b.expected) {
    SCOPED_TRACE(file + " expected " + outcome);
    auto it = b.events.find(file);
    ASSERT_NE(it, b.events.end()) << "no event for the book";
    const Json& e = it->second;
    bool finished = e["event"] == "book_finished";
    if (outcome == "failed") {
      ASSERT_FALSE(finished);
      std::string err = e["error"];
      EXPECT_NE(err.find(file), std::string::npos) << "the error names the file: " << err;
      EXPECT_EQ(err.find('\n'), std::string::npos) << "one line: " << err;
      EXPECT_FALSE(fs::exists(b.out / "books" / fs::path(file).stem())) << "no partial output";
    } else if (outcome == "warned-or-failed") {
      if (finished) {
        EXPECT_FALSE(e["warnings"].empty());
      } else {
        EXPECT_NE(e["error"].get<std::string>().find(file), std::string::npos);
      }
    } else {
      ASSERT_TRUE(finished) << e.dump();
      EXPECT_EQ(e["verify_differences"], 0) << e.dump();
      if (outcome == "warned") {
        EXPECT_FALSE(e["warnings"].empty()) << e.dump();
      }
    }
  }
  // The good book of the batch is built whatever the others do.
  ASSERT_TRUE(b.events.count("good-book.pdf"));
  EXPECT_EQ(b.events["good-book.pdf"]["event"], "book_finished");
}

// With --log json each warning is also an event of its own, one line each, naming its book.
TEST(Hostile, EachWarningIsAnEventOfItsOwn) {
  auto& b = batch();
  ASSERT_FALSE(b.expected.empty());
  size_t warned = 0;
  for (const auto& [file, e] : b.events) {
    SCOPED_TRACE(file);
    std::vector<std::string> listed;
    if (e["event"] == "book_finished")
      for (const auto& w : e["warnings"]) listed.push_back(w.get<std::string>());
    const auto it = b.warning_events.find(file);
    const std::vector<std::string> seen = it == b.warning_events.end() ? std::vector<std::string>{} : it->second;
    EXPECT_EQ(seen, listed);
    warned += listed.empty() ? 0 : 1;
  }
  EXPECT_GE(warned, 1u) << "the batch has books that build with warnings";
  for (const auto& [file, messages] : b.warning_events) EXPECT_TRUE(b.events.count(file)) << file;
}

TEST(Hostile, NothingIsWrittenOutsideOut) {
  auto& b = batch();
  ASSERT_FALSE(b.expected.empty());
  std::set<std::string> top;
  for (const auto& e : fs::directory_iterator(b.dir.path)) top.insert(e.path().filename().string());
  EXPECT_EQ(top, (std::set<std::string>{"in", "out"}));
  for (const auto& e : fs::recursive_directory_iterator(b.out)) {
    std::string rel = fs::relative(e.path(), b.out).string();
    EXPECT_EQ(rel.find(".."), std::string::npos) << rel;
    for (unsigned char c : rel) EXPECT_GE(c, 0x20) << "control character in a file name: " << rel;
  }
}

TEST(Hostile, HostileStringsAreEscapedInTheSite) {
  auto& b = batch();
  ASSERT_TRUE(fs::exists(b.out / "site" / "index.html"));
  for (const auto& e : fs::recursive_directory_iterator(b.out / "site")) {
    if (e.path().extension() != ".html") continue;
    std::string html = read_file(e.path());
    EXPECT_EQ(html.find("<script>alert"), std::string::npos) << e.path();
    EXPECT_EQ(html.find("<img src=x"), std::string::npos) << e.path();
    EXPECT_EQ(html.find("<b>Mallory"), std::string::npos) << e.path();
    EXPECT_EQ(html.find("href=\"javascript"), std::string::npos) << e.path();
    EXPECT_EQ(html.find("http://"), std::string::npos) << "the site loads nothing from the network: " << e.path();
    EXPECT_EQ(html.find("https://"), std::string::npos) << "the site loads nothing from the network: " << e.path();
  }
}

TEST(Hostile, TextFarBeyondThePageKeepsItsWordsInBoundedText) {
  // A listing's line 1e8 pt out once made its chapter 18 MB of spaces (and far more out, no
  // string could hold them): now its spaces stop at the largest page's width in cells.
  auto& b = batch();
  ASSERT_TRUE(b.events.count("text-beyond-the-page.pdf"));
  EXPECT_EQ(b.events["text-beyond-the-page.pdf"]["event"], "book_finished");
  std::string md;
  for (const auto& e : fs::directory_iterator(b.out / "books" / "text-beyond-the-page"))
    if (e.path().extension() == ".md") md += read_file(e.path());
  EXPECT_LT(md.size(), 100000u);
  for (const char* words : {"Far away words.", "far();", "int x5 = f(5);", "Right column line 11 of its own text."})
    EXPECT_NE(md.find(words), std::string::npos) << words;
}

TEST(Hostile, AnOutlineEntryThatCannotBeReadIsLeftOutAndTheOthersKept) {
  // Before, MuPDF's outline loader gave up on the whole outline: the book was one chapter.
  auto& b = batch();
  ASSERT_TRUE(b.events.count("outline-entry-unreadable.pdf"));
  const Json& e = b.events["outline-entry-unreadable.pdf"];
  ASSERT_EQ(e["event"], "book_finished");
  EXPECT_EQ(e["chapters"], 2) << e.dump();  // "Opening" and "Closing"
  bool warned = false;
  for (const auto& w : e["warnings"]) warned = warned || w.get<std::string>().find("outline entry left out") != std::string::npos;
  EXPECT_TRUE(warned) << e.dump();
}

TEST(Hostile, AnEncryptedBookBuildsWithItsPassword) {
  auto& b = batch();
  if (!b.expected.count("encrypted.pdf")) GTEST_SKIP() << "qpdf is not installed";
  TempDir t("encrypted");
  fs::create_directories(t.path / "in");
  fs::copy_file(b.in / "encrypted.pdf", t.path / "in" / "encrypted.pdf");
  auto no = run_quire("build " + shell_quote(t.path / "in") + " -o " + shell_quote(t.path / "o1") + " --quiet");
  EXPECT_EQ(no.code, 4) << no.out;
  auto ex = run_quire("extract " + shell_quote(t.path / "in" / "encrypted.pdf") + " -o " + shell_quote(t.path / "p.jsonl"));
  EXPECT_EQ(ex.code, 7) << ex.out;
  EXPECT_FALSE(fs::exists(t.path / "p.jsonl"));
  auto yes = run_quire("build " + shell_quote(t.path / "in") + " -o " + shell_quote(t.path / "o2") +
                       " --quiet --password secret");
  EXPECT_TRUE(yes.code == 0 || yes.code == 3) << yes.out;
  EXPECT_TRUE(fs::exists(t.path / "o2" / "books" / "encrypted" / "book.json"));
}

}  // namespace
}  // namespace quire::test
