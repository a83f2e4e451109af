// layout on a real book (skipped when the R manuals are not installed): chapters from the
// outline, a known listing exact, and every word of the cleaned pages kept.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "quire/clean.h"
#include "quire/extract.h"
#include "quire/layout.h"
#include "quire/text.h"

namespace quire {
namespace {

namespace fs = std::filesystem;

const char* kRIntro = "/usr/share/R/doc/manual/R-intro.pdf";

struct Laid {
  Document doc;
  LayoutResult result;
};

const Laid& r_intro() {
  static Laid laid = [] {
    Laid l;
    l.doc = extract_document(kRIntro, {});
    clean_document(l.doc, {});
    l.result = layout_document(l.doc, {});
    return l;
  }();
  return laid;
}

TEST(RIntro, ChapterTitlesFromTheOutline) {
  if (!fs::exists(kRIntro)) GTEST_SKIP() << kRIntro << " not installed";
  const auto& r = r_intro().result;
  std::vector<std::string> titles;
  for (const auto& c : r.chapters) titles.push_back(c.title);
  ASSERT_GE(titles.size(), 15u);
  EXPECT_EQ(titles[0], "Preface");
  EXPECT_EQ(titles[1], "Introduction and preliminaries");
  EXPECT_EQ(r.chapters[1].number, "1");
  EXPECT_EQ(titles[2], "Simple manipulations; numbers and vectors");
  // The indexes are excluded matter, not chapters.
  for (const auto& t : titles) EXPECT_EQ(t.find("index"), std::string::npos) << t;
  bool index_excluded = false;
  for (const auto& e : r.excluded) index_excluded |= e.kind == "index";
  EXPECT_TRUE(index_excluded);
}

TEST(RIntro, KnownListingExact) {
  if (!fs::exists(kRIntro)) GTEST_SKIP() << kRIntro << " not installed";
  // Section 1.6 of R-intro: two shell commands set as one @example.
  bool found = false;
  for (const auto& c : r_intro().result.chapters)
    for (const auto& b : c.blocks)
      if (b.type == BlockType::Code && b.text == "$ mkdir work\n$ cd work") found = true;
  EXPECT_TRUE(found);
}

TEST(RIntro, EveryWordKept) {
  if (!fs::exists(kRIntro)) GTEST_SKIP() << kRIntro << " not installed";
  const auto& l = r_intro();
  // Pages shared with excluded matter (an index starting under the last chapter's end)
  // are left out: their excluded words are dropped on purpose.
  std::set<int> excluded;
  for (const auto& e : l.result.excluded)
    for (int p = e.first_page; p <= e.last_page; ++p) excluded.insert(p);
  std::map<std::string, long> bag;
  for (const auto& p : l.doc.pages)
    if (!excluded.count(p.number))
      for (const auto& line : p.lines)
        for (const auto& t : whitespace_tokens(line.text())) bag[t]++;
  for (const auto& j : l.result.joins)
    if (!excluded.count(j.page)) {
      bag[j.before]--;
      bag[j.after]--;
      bag[j.joined]++;
    }
  for (const auto& c : l.result.chapters)
    for (const auto& b : c.blocks) {
      if (excluded.count(b.page) || excluded.count(b.last_page)) continue;
      // (Note marks taken out of the text are words of the page.)
      for (const auto& t : whitespace_tokens(text_with_marks(b.text, b.marks))) bag[t]--;
      for (const auto& lb : b.labels)
        for (const auto& t : whitespace_tokens(lb)) bag[t]--;
    }
  long diffs = 0;
  std::string first;
  for (const auto& [w, n] : bag)
    if (n != 0) {
      diffs += std::labs(n);
      if (std::count(first.begin(), first.end(), ';') < 10) first += w + " (" + std::to_string(n) + "); ";
    }
  EXPECT_EQ(diffs, 0) << "differences: " << first;
}

}  // namespace
}  // namespace quire
