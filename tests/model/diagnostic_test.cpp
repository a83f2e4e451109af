// A Diagnostic's line is the one the build has always printed, and its JSON form reads back
// equal, from objects and from the lines older files hold.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "quire/diagnostic.h"
#include "quire/json.h"

namespace quire {
namespace {

struct TextCase {
  const char* what;
  Diagnostic d;
  const char* line;
};

TEST(Diagnostic, TextIsTheLineTheLogPrints) {
  const TextCase cases[] = {
      // A page the engine could not read.
      {"page", Diagnostic::at("extract", "page-unreadable", "book.pdf", 12, "cannot read page: broken stream"),
       "book.pdf: page 12: cannot read page: broken stream"},
      // MuPDF's own repair message is about the whole file.
      {"whole book", Diagnostic::at("extract", "engine-repair", "book.pdf", 0, "repairing PDF document"),
       "book.pdf: repairing PDF document"},
      // The wording check's lines keep their "verify:" and "finding:" words.
      {"verify", Diagnostic::at("verify", "verify-missing", "a b.pdf", 3, "verify: missing word \"x\" near \"y\""),
       "a b.pdf: page 3: verify: missing word \"x\" near \"y\""},
      {"more", Diagnostic::at("verify", "verify-more", "a.pdf", 0, "verify: 4 more word differences"),
       "a.pdf: verify: 4 more word differences"},
      {"finding", Diagnostic::at("verify", "finding-figure-holds-body-text", "a.pdf", 9, "finding: figure-holds-body-text: m"),
       "a.pdf: page 9: finding: figure-holds-body-text: m"},
      // A line read from an older file that did not name its book.
      {"no file", Diagnostic::at("", "", "", 0, "something"), "something"},
  };
  for (const auto& c : cases) EXPECT_EQ(c.d.text(), c.line) << c.what;
}

TEST(Diagnostic, SortsByFilePageStageCodeMessage) {
  std::vector<Diagnostic> v = {
      Diagnostic::at("verify", "verify-added", "a.pdf", 10, "z"),
      Diagnostic::at("extract", "page-unreadable", "a.pdf", 10, "z"),
      Diagnostic::at("extract", "page-unreadable", "a.pdf", 2, "z"),
      Diagnostic::at("extract", "engine-repair", "a.pdf", 0, "z"),
      Diagnostic::at("extract", "engine-repair", "a.pdf", 0, "a"),
      Diagnostic::at("extract", "engine-repair", "B.pdf", 99, "a"),
  };
  std::sort(v.begin(), v.end());
  std::vector<std::string> order;
  for (const auto& d : v) order.push_back(d.file + "|" + std::to_string(d.page) + "|" + d.stage + "|" + d.message);
  EXPECT_EQ(order, (std::vector<std::string>{"B.pdf|99|extract|a", "a.pdf|0|extract|a", "a.pdf|0|extract|z",
                                             "a.pdf|2|extract|z", "a.pdf|10|extract|z", "a.pdf|10|verify|z"}));
}

TEST(Diagnostic, JsonRoundTrip) {
  const Diagnostic cases[] = {
      Diagnostic::at("extract", "page-timeout", "book.pdf", 1, "cannot read page: skipped: over the 1 s page time limit"),
      Diagnostic::at("layout", "one-chapter", "book.pdf", 0, "no outline and no chapter headings: the book is one chapter"),
      Diagnostic::at("export", "figure-unrendered", "a: b.pdf", 7, "figure 1 of chapter \"x\" could not be rendered"),
  };
  for (const auto& d : cases) {
    const Json j = to_json(d);
    EXPECT_EQ(diagnostic_from_json(Json::parse(dump(j, false)), d.file), d) << dump(j, false);
  }
}

struct LegacyCase {
  const char* line;
  const char* file;  // as read: the book's name, "" when the line does not start with it
  int page;
  const char* message;
};

TEST(Diagnostic, ReadsTheLinesOfOlderFiles) {
  const LegacyCase cases[] = {
      {"book.pdf: page 3: repaired xref", "book.pdf", 3, "repaired xref"},
      {"book.pdf: repairing PDF document", "book.pdf", 0, "repairing PDF document"},
      {"book.pdf: verify: 2 more word differences", "book.pdf", 0, "verify: 2 more word differences"},
      // "page" not followed by a number and a colon is part of the message.
      {"book.pdf: page two: odd", "book.pdf", 0, "page two: odd"},
      {"book.pdf: page 0: odd", "book.pdf", 0, "page 0: odd"},
      // A line that does not start with the book's name is kept whole.
      {"other.pdf: page 3: x", "", 0, "other.pdf: page 3: x"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.line);
    const Diagnostic d = diagnostic_from_json(Json(c.line), "book.pdf");
    EXPECT_EQ(d.file, c.file);
    EXPECT_EQ(d.page, c.page);
    EXPECT_EQ(d.message, c.message);
    EXPECT_EQ(d.text(), c.line) << "the line reads back as it was";
    EXPECT_EQ(d.stage, "");
    EXPECT_EQ(d.code, "");
  }
}

TEST(Diagnostic, PagesAndBookFilesWithLinesReadBack) {
  // Intermediate files written before warnings were objects.
  std::istringstream pages(
      R"({"format":"quire-pages/1","generator":"quire 0","file":"b.pdf","sha256":"","engine":"mupdf",)"
      R"("page_count":1,"metadata":{"title":"","author":"","subject":"","creator":"","producer":""},)"
      R"("outline":[],"warnings":["b.pdf: page 1: cannot read page: x","b.pdf: repaired"]})"
      "\n");
  Document d = read_pages_jsonl(pages, "old.pages.jsonl");
  ASSERT_EQ(d.warnings.size(), 2u);
  EXPECT_EQ(d.warnings[0].page, 1);
  EXPECT_EQ(d.warnings[0].text(), "b.pdf: page 1: cannot read page: x");
  EXPECT_EQ(d.warnings[1].page, 0);
  EXPECT_EQ(d.warnings[1].text(), "b.pdf: repaired");
}

}  // namespace
}  // namespace quire
