// The book's word evidence reads a line of ASCII from its bytes and decodes any other line:
// the words, compounds and line-end breaks it counts are the same either way.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "internal.h"
#include "page_builder.h"

namespace quire::detail {
namespace {

std::map<std::string, int> table(const WordCounts& counts) {
  std::map<std::string, int> out;
  counts.for_each([&](const std::string& w, int n) { out[w] = n; });
  return out;
}

// One page of the lines, each followed by `tail`.
WordEvidence evidence(const std::vector<std::string>& texts, const std::string& tail) {
  std::vector<test::LineSpec> specs;
  double baseline = 100;
  for (const auto& t : texts) specs.push_back({72, baseline += 12, t + tail});
  const Document doc = test::make_doc({test::make_page(1, specs)});
  LayoutOptions o;
  std::vector<PageLines> lines{PageLines(doc.pages[0], o)};
  return collect_words(doc, lines, o);
}

TEST(WordEvidence, AsciiLinesCountAsDecodedLinesDo) {
  // Capitals lowered, compounds ("well-known", "A-B-C"), a word broken at a line's end
  // ("exam-" "ple", "Sec-" "tion"), hyphens that join nothing, digits and punctuation.
  const std::vector<std::string> texts = {"The exam-",
                                          "ple of well-known words, self-con-",
                                          "tained in Sec-",
                                          "tion 3.2-4 of A-B-C and co-op.",
                                          "- x- -y end- (Zed) 42 words in a longer line here",
                                          "plain words only here to close"};
  // A no-break space at each line's end is white space (no word), and makes every line one
  // of more than ASCII.
  const WordEvidence ascii = evidence(texts, "");
  const WordEvidence decoded = evidence(texts, "\xC2\xA0");
  EXPECT_EQ(table(ascii.words), table(decoded.words));
  EXPECT_EQ(table(ascii.hyphenated), table(decoded.hyphenated));
  EXPECT_EQ(table(ascii.compound_first), table(decoded.compound_first));
  EXPECT_EQ(table(ascii.compound_last), table(decoded.compound_last));
  EXPECT_EQ(ascii.sorted_words, decoded.sorted_words);
  EXPECT_EQ(ascii.prose_lines, decoded.prose_lines);
  EXPECT_EQ(ascii.unhyphenated, decoded.unhyphenated);
  // And what they count is what the lines hold.
  EXPECT_EQ(table(ascii.words).count("the"), 1u);
  EXPECT_EQ(table(ascii.words).count("exam"), 0u);  // (half of a broken word)
  EXPECT_EQ(table(ascii.hyphenated)["well-known"], 1);
  EXPECT_EQ(table(ascii.hyphenated)["a-b"], 1);
  EXPECT_EQ(table(ascii.compound_last)["known"], 1);
  EXPECT_EQ(table(ascii.words)["words"], 3);
}

}  // namespace
}  // namespace quire::detail
