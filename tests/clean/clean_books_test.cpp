// clean on real books: R-intro (Texinfo, heads "Chapter 1: ..." with the folio at the right),
// the eval synthetic books (exact ground truth of their running heads), and the fixture books.
// Each is skipped when its PDF is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "quire/extract.h"
#include "test_pages.h"

namespace quire::test {
namespace {

namespace fs = std::filesystem;

std::string collapse(const std::string& s) {
  std::string out;
  for (const auto& t : whitespace_tokens(s)) out += (out.empty() ? "" : " ") + t;
  return out;
}

struct BookCase {
  std::string pdf;
  std::string gt;  // ground truth with furniture.running_heads, or empty
};

std::vector<BookCase> books() {
  std::string eval = "/work/shared/eval/books/";
  std::string fixtures = std::string(QUIRE_SOURCE_DIR) + "/fixtures/books/";
  return {
      {"/usr/share/R/doc/manual/R-intro.pdf", ""},
      {"/usr/share/R/doc/manual/R-data.pdf", eval + "r-data.gt.json"},
      {eval + "synth-classic-s1.pdf", eval + "synth-classic-s1.gt.json"},
      {eval + "synth-trade-s1.pdf", eval + "synth-trade-s1.gt.json"},
      {fixtures + "fx-classic.pdf", fixtures + "fx-classic.gt.json"},
      {fixtures + "fx-plain.pdf", fixtures + "fx-plain.gt.json"},
  };
}

class CleanBook : public ::testing::TestWithParam<BookCase> {};

// After cleaning: no line in the head or foot margin is a ground-truth running head, except a
// large title (the title page); no line there is the page's label; every
// labelled page between two pages with folios logged its own; listings' margin numbers are all
// logged as line numbers and nothing else is; every removed word is logged.
TEST_P(CleanBook, NoRunningHeadOrPageNumberLeft) {
  const BookCase& c = GetParam();
  if (!fs::exists(c.pdf)) GTEST_SKIP() << c.pdf << " not installed";
  Document doc = extract_document(c.pdf, {});
  std::set<std::string> heads;
  long numbered_code_lines = -1;  // from the ground truth's listings with margin numbers
  if (!c.gt.empty() && fs::exists(c.gt)) {
    std::ifstream in(c.gt);
    auto gt = nlohmann::json::parse(in);
    for (const auto& h : gt["furniture"]["running_heads"]) heads.insert(collapse(h.get<std::string>()));
    if (gt["furniture"].contains("code_line_numbers")) {
      numbered_code_lines = 0;
      for (const auto& ch : gt["chapters"])
        for (const auto& b : ch["blocks"])
          if (b.contains("line_numbers")) {
            const auto& ln = b["line_numbers"];
            // [first, last] printed numbers, or true: every line of the listing is numbered.
            if (ln.is_array()) numbered_code_lines += ln[1].get<long>() - ln[0].get<long>() + 1;
            else if (ln.is_boolean() && ln.get<bool>()) {
              const std::string text = b["text"].get<std::string>();
              numbered_code_lines += static_cast<long>(std::count(text.begin(), text.end(), '\n')) + 1;
            }
          }
    }
  }
  const double body = 10.0;  // every book here sets its body at 10-11 pt
  CleanResult r = clean_and_account(doc);
  std::set<int> folio_pages;
  for (const auto& rm : r.removed)
    if (rm.reason == "page-number") folio_pages.insert(rm.page);
  int heads_left = 0, numbers_left = 0, folios_missing = 0;
  for (const auto& p : doc.pages) {
    for (const auto& l : p.lines) {
      std::string t = collapse(l.text());
      double size = 0;
      for (const auto& sp : l.spans) size = std::max(size, sp.size);
      bool large = size > body * 1.2;
      // Heads stand in the margin; the same words lower down are headings or contents entries.
      bool margin = l.bbox.y1 < 0.12 * p.height || l.bbox.y0 > 0.88 * p.height;
      if (heads.count(t) && !large && margin) {
        ++heads_left;
        ADD_FAILURE() << "running head left on page " << p.number << ": " << t;
      }
      if (margin && !p.label.empty() && t == p.label) {
        ++numbers_left;
        ADD_FAILURE() << "page number left on page " << p.number << ": " << t;
      }
    }
  }
  // Pages whose printed folio matches their label: each must have logged one.
  for (const auto& p : doc.pages) {
    bool printed = false;
    for (const auto& rm : r.removed)
      if (rm.page == p.number && collapse(rm.text) == p.label) printed = true;
    if (!printed && !p.label.empty() && folio_pages.count(p.number) == 0 && !p.lines.empty()) {
      // Title pages and blank-ish pages carry labels but no printed folio; count only pages whose
      // neighbours have one, where a folio is expected.
      if (folio_pages.count(p.number - 1) && folio_pages.count(p.number + 1)) ++folios_missing;
    }
  }
  if (numbered_code_lines >= 0) {
    long logged = std::count_if(r.removed.begin(), r.removed.end(), [](const Removal& rm) { return rm.reason == "line-number"; });
    EXPECT_EQ(logged, numbered_code_lines) << "every margin line number, and nothing else";
  }
  EXPECT_EQ(heads_left, 0);
  EXPECT_EQ(numbers_left, 0);
  EXPECT_EQ(folios_missing, 0);
  EXPECT_GT(folio_pages.size(), doc.pages.size() / 2) << "most pages of a book carry a folio";
}

INSTANTIATE_TEST_SUITE_P(Books, CleanBook, ::testing::ValuesIn(books()), [](const auto& info) {
  std::string name = fs::path(info.param.pdf).stem().string();
  for (auto& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
});

}  // namespace
}  // namespace quire::test
