// Every warning a build reports is a Diagnostic that knows its page, stage and kind: listed
// once in the book, and in --log json as an event with those fields, from the cache too.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "quire/json.h"
#include "quire/pipeline.h"
#include "run.h"

namespace quire::test {
namespace {

// The book's record lists a page the engine could not read once, with the engine's kind,
// though the engine reports it both on the page and in the document's warnings.
TEST(Diagnostics, BookRecordListsEachOnce) {
  Document doc;
  doc.file = "b.pdf";
  doc.metadata.title = "B";  // no title from the pages: no page content needed
  doc.page_count = 3;
  for (int n = 1; n <= 3; ++n) {
    Page p;
    p.number = n;
    doc.pages.push_back(p);
  }
  doc.pages[1].errors = {"cannot read page: broken"};
  doc.pages[2].errors = {"out of memory while recording images and paths"};
  const Diagnostic unreadable = Diagnostic::at("extract", "page-unreadable", "b.pdf", 2, "cannot read page: broken");
  const Diagnostic repair = Diagnostic::at("extract", "engine-repair", "b.pdf", 0, "repairing PDF document");
  doc.warnings = {repair, unreadable, repair};
  const Book book = book_record(doc, "b", LayoutOptions{});
  const std::vector<Diagnostic> expected = {
      unreadable,
      Diagnostic::at("extract", "page-incomplete", "b.pdf", 3, "out of memory while recording images and paths"),
      repair,
  };
  EXPECT_EQ(book.warnings, expected);
}

struct Events {
  std::vector<Json> warnings;  // the warning events, in order
  std::vector<std::string> listed;  // book_finished's warnings
  bool cached = false;
};

Events events_of(const std::string& log) {
  Events e;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("{")) continue;
    Json j = Json::parse(line);
    if (j["event"] == "warning") e.warnings.push_back(j);
    if (j["event"] == "book_finished") {
      for (const auto& w : j["warnings"]) e.listed.push_back(w.get<std::string>());
      e.cached = j["cached"].get<bool>();
    }
  }
  return e;
}

// A build of fx-classic (copied to DIR/in) into DIR/OUT, cached in DIR/cache, where every
// page is over the time limit: a warning per page.
auto build_over_time(const fs::path& dir, const std::string& out) {
  return run_quire("build " + shell_quote(dir / "in") + " -o " + shell_quote(dir / out) +
                   " --page-timeout 0.000001 --no-verify --ocr never --log json --cache " +
                   shell_quote(dir / "cache"));
}

// A page over the time limit is a warning event with its page, stage and kind; its message
// is the line the human log prints. A cached rebuild reports the same events.
TEST(Diagnostics, AWarningEventNamesItsPageAndStageAlsoFromTheCache) {
  TempDir t("diagnostics");
  fs::create_directories(t.path / "in");
  fs::copy_file(fixture_books() / "fx-classic.pdf", t.path / "in" / "fx-classic.pdf");
  auto build = [&](const std::string& out) { return build_over_time(t.path, out); };
  const auto cold = build("a");
  ASSERT_EQ(cold.code, 3) << cold.out;  // built, with warnings
  const Events first = events_of(cold.out);
  ASSERT_FALSE(first.cached);
  ASSERT_FALSE(first.warnings.empty()) << cold.out;
  std::vector<std::string> messages;
  std::vector<int> pages;
  for (const auto& w : first.warnings) {
    SCOPED_TRACE(dump(w, false));
    EXPECT_EQ(w["book"], "fx-classic");
    EXPECT_EQ(w["file"], "fx-classic.pdf");
    EXPECT_EQ(w["stage"], "extract");
    EXPECT_EQ(w["code"], "page-timeout");
    ASSERT_TRUE(w.contains("page"));
    const int page = w["page"].get<int>();
    pages.push_back(page);
    EXPECT_EQ(w["message"], "fx-classic.pdf: page " + std::to_string(page) +
                                ": cannot read page: skipped: over the 1e-06 s page time limit");
    messages.push_back(w["message"].get<std::string>());
  }
  EXPECT_EQ(pages.front(), 1);
  // Each page once, though the engine reports it on the page and in the document.
  std::vector<int> sorted = pages;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
  EXPECT_EQ(messages, first.listed) << "book_finished lists the same lines";

  const auto warm = build("b");
  ASSERT_EQ(warm.code, 3) << warm.out;
  const Events again = events_of(warm.out);
  EXPECT_TRUE(again.cached) << warm.out;
  EXPECT_EQ(again.warnings, first.warnings);
  EXPECT_EQ(again.listed, first.listed);
}

// A cache entry written when warnings were lines is a miss: the rebuild reports each
// warning's page, stage and kind rather than a line without them.
TEST(Diagnostics, ACacheEntryWithWarningLinesIsBuiltAgain) {
  TempDir t("diagnostics-old-cache");
  fs::create_directories(t.path / "in");
  fs::copy_file(fixture_books() / "fx-classic.pdf", t.path / "in" / "fx-classic.pdf");
  auto build = [&](const std::string& out) { return build_over_time(t.path, out); };
  const auto cold = build("a");
  ASSERT_EQ(cold.code, 3) << cold.out;
  size_t rewritten = 0;
  for (const auto& e : fs::directory_iterator(t.path / "cache")) {
    const fs::path outcome = e.path() / "outcome.json";
    if (!fs::exists(outcome)) continue;
    Json j = Json::parse(read_file(outcome));
    Json lines = Json::array();
    for (const auto& w : j["warnings"]) lines.push_back(diagnostic_from_json(w, "").text());
    j["warnings"] = lines;
    std::ofstream(outcome, std::ios::trunc) << dump(j, true);
    ++rewritten;
  }
  ASSERT_EQ(rewritten, 1u);
  const auto warm = build("b");
  ASSERT_EQ(warm.code, 3) << warm.out;
  const Events again = events_of(warm.out);
  EXPECT_FALSE(again.cached) << warm.out;
  EXPECT_EQ(again.warnings, events_of(cold.out).warnings);
}

}  // namespace
}  // namespace quire::test
