// The row-end checks that read ASCII bytes without decoding the row, against the decoded text:
// the same answer on rows that end in ASCII, in curly quotes, after bytes that start no
// character, and on rows of white space only.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "internal.h"
#include "page_passes.h"
#include "quire/text.h"

namespace quire::detail {
namespace {

// What the checks answer when every character is decoded first.
bool ends_sentence_decoded(const std::string& t) {
  std::u32string cps = to_u32(t);
  while (!cps.empty() && (is_space_cp(cps.back()) || cps.back() == U')' || cps.back() == U'\u201D' ||
                          cps.back() == U'\u2019' || cps.back() == U'"' || cps.back() == U'\''))
    cps.pop_back();
  return cps.empty() || cps.back() == U'.' || cps.back() == U'!' || cps.back() == U'?' || cps.back() == U':';
}

bool has_visible_decoded(const std::string& s) {
  for (char32_t c : to_u32(s))
    if (!is_space_cp(c)) return true;
  return false;
}

const std::vector<std::string>& rows() {
  static const std::vector<std::string> kRows = {
      "",
      " ",
      "\t\n ",
      "The end.",
      "The end. ",
      "(see above.)",
      "He said \"stop.\"  ",
      "a list:",
      "and so on",
      "Why?)'",
      "caf\xC3\xA9.",                    // é, then a full stop
      "caf\xC3\xA9",                     // ends beyond ASCII
      "It ends.\xE2\x80\x9D",            // a closing curly quote after the stop
      "It ends\xE2\x80\x9D",             // ... after a word
      "x\xE2\x80\x99 .",                 // a curly apostrophe, a space, a stop
      "broken \xE2\x80.",                // a character cut short, then a stop
      "broken \xE2\x80",                 // ... at the end
      "\xC3",                            // a lead byte alone
      "\xE2\x80\x83",                    // an em space only (Unicode white space)
      "\xE2\x80\x83 x",                  // an em space, then a letter
      " \xC2\xA0",                       // a no-break space after a space
  };
  return kRows;
}

TEST(RowEnds, ASentenceEndReadFromTheBytesIsTheDecodedOne) {
  for (const auto& r : rows()) EXPECT_EQ(ends_sentence(r), ends_sentence_decoded(r)) << "row \"" << r << "\"";
  EXPECT_TRUE(ends_sentence("The end. "));
  EXPECT_FALSE(ends_sentence("and so on"));
  EXPECT_TRUE(ends_sentence("It ends.\xE2\x80\x9D"));
}

TEST(RowEnds, AVisibleCharacterReadFromTheBytesIsTheDecodedOne) {
  for (const auto& r : rows()) EXPECT_EQ(has_visible(r), has_visible_decoded(r)) << "row \"" << r << "\"";
  EXPECT_FALSE(has_visible(" \t"));
  EXPECT_FALSE(has_visible("\xE2\x80\x83"));
  EXPECT_TRUE(has_visible("\xE2\x80\x83 x"));
}

}  // namespace
}  // namespace quire::detail
