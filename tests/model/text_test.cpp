// The text helpers every stage leans on: decoding, word splitting, normalisation.
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "quire/model.h"
#include "quire/text.h"
#include "quire/typography.h"

namespace quire {
namespace {

TEST(ToU32, AsciiThenMultibyteThenInvalid) {
  // "ab" + e-acute (2 bytes) + euro (3 bytes) + G clef (4 bytes) + a lone continuation byte
  // + a truncated 3-byte sequence at the end.
  const std::string s = "ab\xC3\xA9\xE2\x82\xAC\xF0\x9D\x84\x9E\x80z\xE2\x82";
  EXPECT_EQ(to_u32(s), (std::u32string{U'a', U'b', 0xE9, 0x20AC, 0x1D11E, 0xFFFD, U'z', 0xFFFD, 0xFFFD}));
  EXPECT_EQ(to_u32(""), std::u32string());
  EXPECT_EQ(to_u32("plain ascii only"), std::u32string(U"plain ascii only"));
  EXPECT_EQ(from_u32(to_u32("caf\xC3\xA9 \xE2\x82\xAC")), "caf\xC3\xA9 \xE2\x82\xAC");
}

TEST(ToU32, IntoAReusedBufferAsIntoAFreshOne) {
  // The buffer held a longer text, a shorter one, and then nothing: each time it holds
  // exactly what a fresh decoding gives.
  std::u32string buffer = U"a text decoded before, longer than any below";
  for (const std::string s : {"ab\xC3\xA9\xE2\x82\xAC\xF0\x9D\x84\x9E\x80z\xE2\x82", "x", "", "plain ascii", "\xC3"}) {
    to_u32(s, buffer);
    EXPECT_EQ(buffer, to_u32(s)) << s;
  }
}

TEST(AppendUtf8, ASurrogateOrAValuePastUnicodeIsNoCharacter) {
  // A font's map may name a lone surrogate: UTF-8 has no form for it, so it is U+FFFD, and
  // every file and every reader see the same text.
  std::string s;
  for (char32_t c : {char32_t{U'a'}, char32_t{0xD800}, char32_t{0xDFFF}, char32_t{0x110000}, char32_t{0x10FFFF}})
    append_utf8(s, c);
  EXPECT_EQ(s, "a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xF4\x8F\xBF\xBF");
}

TEST(Punctuation, AsCommonMarkReadsIt) {
  for (char32_t c : {U'$', U'`', U'*', U'(', U'~', char32_t{0x27E8}, char32_t{0x2014}, char32_t{0x201C}})
    EXPECT_TRUE(is_punctuation_cp(c)) << static_cast<uint32_t>(c);
  for (char32_t c : {U'a', U'1', U' ', char32_t{0x22C6}, char32_t{0xE9}})  // (a symbol is no punctuation)
    EXPECT_FALSE(is_punctuation_cp(c)) << static_cast<uint32_t>(c);
}

TEST(SameSize, WithinAShareOfTheLargerEitherWayRound) {
  // One definition of "in one size": symmetric, measured against the larger size.
  EXPECT_TRUE(typography::same_size(10, 10.9, 0.1));
  EXPECT_TRUE(typography::same_size(10.9, 10, 0.1));
  EXPECT_FALSE(typography::same_size(10, 12, 0.1));  // the next step of a 10/12/14.4 scale
  EXPECT_FALSE(typography::same_size(12, 10, 0.1));
  EXPECT_TRUE(typography::same_size(8.6, 10, 0.15));  // a line mostly in smaller inline code
  EXPECT_FALSE(typography::same_size(8, 10, 0.15));   // a footnote's size under the text's
}

TEST(WhitespaceTokens, AsciiSplitsOnEveryAsciiSpace) {
  EXPECT_EQ(whitespace_tokens("  one\ttwo\nthree\r\nfour\f\vfive  "),
            (std::vector<std::string>{"one", "two", "three", "four", "five"}));
  EXPECT_TRUE(whitespace_tokens(" \t\n").empty());
  // Long enough to cross the eight-byte ASCII check more than once.
  EXPECT_EQ(whitespace_tokens("abcdefghijklmnop qrstuvwxyz0123456789"),
            (std::vector<std::string>{"abcdefghijklmnop", "qrstuvwxyz0123456789"}));
}

TEST(WhitespaceTokens, UnicodeSpacesLigaturesAndSoftHyphens) {
  // No-break space and em space separate words; the fi ligature expands; a soft hyphen goes,
  // and a token made of one alone disappears; a decomposed e + acute becomes NFC.
  const std::string s = "de\xEF\xAC\x81ne\xC2\xA0x\xE2\x80\x83y co\xC2\xADop \xC2\xAD e\xCC\x81t\xC3\xA9";
  EXPECT_EQ(whitespace_tokens(s),
            (std::vector<std::string>{"define", "x", "y", "coop", "\xC3\xA9t\xC3\xA9"}));
}


TEST(WhitespaceTokens, MalformedBytesReadAsToU32ReadsThem) {
  // A stray continuation byte and a sequence cut short by a space are each U+FFFD, never a
  // space; an overlong form of a space ("\xC0\xA0") decodes to one and splits as it; a
  // surrogate's form is written as U+FFFD. Plain ASCII words beside them stay as they are.
  const std::string s = "ab\x80" "cd e\xC3 f g\xC0\xA0h \xED\xA0\x80z plain";
  EXPECT_EQ(whitespace_tokens(s), (std::vector<std::string>{"ab\xEF\xBF\xBD" "cd", "e\xEF\xBF\xBD", "f", "g", "h",
                                                            "\xEF\xBF\xBDz", "plain"}));
}
TEST(WhitespaceTokens, CountAndVisitAgreeWithTheTokens) {
  // The count and the visitor give the words whitespace_tokens makes, on ASCII, mixed and
  // malformed text alike; a word whose bytes are ASCII is a view into the text.
  const std::vector<std::string> texts = {
      "", "  ", "one two  three", "de\xEF\xAC\x81ne\xC2\xA0x \xC2\xAD co\xC2\xADop end",
      "ab\x80" "cd e\xC3 f g\xC0\xA0h \xED\xA0\x80z", "\xE2\x80\x83lead and trail\xE3\x80\x80"};
  for (const std::string& s : texts) {
    const auto tokens = whitespace_tokens(s);
    EXPECT_EQ(whitespace_token_count(s), tokens.size()) << s;
    std::vector<std::string> visited;
    for_each_whitespace_token(s, [&](std::string_view w, bool in_s) {
      visited.emplace_back(w);
      const bool inside = w.data() >= s.data() && w.data() + w.size() <= s.data() + s.size();
      EXPECT_EQ(in_s, inside) << w;
      if (in_s) {
        EXPECT_TRUE(is_ascii(w)) << w;  // (a ligature may normalise to ASCII: "define")
      }
    });
    EXPECT_EQ(visited, tokens) << s;
    // Stopped after k words, the walk has given the first k of them, and no more.
    for (size_t k = 1; k <= tokens.size(); ++k) {
      std::vector<std::string> first;
      for_each_whitespace_token_while(s, [&](std::string_view w, bool) {
        first.emplace_back(w);
        return first.size() < k;
      });
      EXPECT_EQ(first, std::vector<std::string>(tokens.begin(), tokens.begin() + static_cast<std::ptrdiff_t>(k))) << s;
    }
  }
}

TEST(WhitespaceTokens, WordViewsHoldTheWordsOfEveryTextAdded) {
  // The words of several texts, one after another, as whitespace_tokens makes them: an ASCII
  // word a view into its text, another into a copy that stays where it is while more words
  // are added (here enough to move a vector's storage many times).
  std::vector<std::string> texts = {"one two", "de\xEF\xAC\x81ne\xC2\xA0x", "\xC2\xAD", "ab\x80" "cd e\xC3 f"};
  for (int i = 0; i < 200; ++i) texts.push_back("caf\xC3\xA9 " + std::to_string(i) + " na\xC3\xAFve");
  WordViews views;
  std::vector<std::string> expected;
  for (const auto& t : texts) {
    views.add(t);
    for (auto& w : whitespace_tokens(t)) expected.push_back(std::move(w));
  }
  EXPECT_EQ(std::vector<std::string>(views.words().begin(), views.words().end()), expected);
  for (std::string_view w : views.words())
    if (is_ascii(w) && w != "define") {  // (a ligature normalises to ASCII, a copy)
      bool inside = false;
      for (const auto& t : texts) inside = inside || (w.data() >= t.data() && w.data() + w.size() <= t.data() + t.size());
      EXPECT_TRUE(inside) << w;
    }
  // add_while stops after the word that makes keep false: at most three words here.
  WordViews first;
  first.add_while("a b c d e", [](size_t words) { return words < 3; });
  EXPECT_EQ(first.words(), (std::vector<std::string_view>{"a", "b", "c"}));
}

TEST(LineText, FootnoteMarkIsItsOwnWord) {
  Line l;
  Span word;
  word.text = "text";
  word.size = 10;
  word.baseline = 100;
  word.bbox = {0, 92, 20, 102};
  Span mark;
  mark.text = "1";
  mark.size = 7;
  mark.baseline = 96;
  mark.bbox = {20, 90, 24, 97};
  l.spans = {word, mark};
  EXPECT_EQ(l.text(), "text 1");
  Span same = word;
  same.text = "book";
  same.bbox = {20, 92, 40, 102};
  l.spans = {word, same};
  EXPECT_EQ(l.text(), "textbook");
}

// As words, each mark is set apart from the text around it, as Line::text sets a raised
// mark; as printed, it touches the word before it. Code points, not bytes, count.
TEST(TextWithMarks, PutsEachMarkBackWhereItStood) {
  EXPECT_EQ(text_with_marks("no marks", {}), "no marks");
  EXPECT_EQ(text_with_marks("memory, and", {{6, "1"}}), "memory 1 , and");
  EXPECT_EQ(text_with_marks("file. Fix", {{5, "1"}}), "file. 1 Fix");
  EXPECT_EQ(text_with_marks("The note.", {{0, "1"}}), "1 The note.");
  EXPECT_EQ(text_with_marks("at the end.", {{11, "2"}}), "at the end. 2");
  EXPECT_EQ(text_with_marks("word b", {{4, "1"}, {4, "2"}}), "word 1 2 b");
  EXPECT_EQ(text_with_marks("\u00e9t\u00e9 d", {{3, "\u00b9"}}), "\u00e9t\u00e9 \u00b9 d");
  EXPECT_EQ(text_with_marks("memory, and", {{6, "1"}}, MarksAs::Printed), "memory1, and");
  EXPECT_EQ(text_with_marks("The note.", {{0, "1"}}, MarksAs::Printed), "1 The note.");
  EXPECT_EQ(text_with_marks("word b", {{4, "1"}, {4, "2"}}, MarksAs::Printed), "word12 b");
  // A glued mark, printed touching the text beside it, goes back with no space put in, as
  // words as well as printed; at a note's start, printed for reading, a space follows it.
  EXPECT_EQ(text_with_marks("mode.", {{5, "1", true}}), "mode.1");
  EXPECT_EQ(text_with_marks("ways to", {{4, "2", true}}), "ways2 to");
  EXPECT_EQ(text_with_marks("example :", {{8, "1", true}}), "example 1:");
  EXPECT_EQ(text_with_marks("Even the", {{0, "1", true}}), "1Even the");
  EXPECT_EQ(text_with_marks("ways to", {{4, "2", true}}, MarksAs::Printed), "ways2 to");
  EXPECT_EQ(text_with_marks("Even the", {{0, "1", true}}, MarksAs::Printed), "1 Even the");
  EXPECT_EQ(text_with_marks("a word. b", {{6, "1", true}, {7, "2"}}), "a word1. 2 b");
  auto upper = [](std::string_view s) {
    std::string u(s);
    for (auto& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return u;
  };
  EXPECT_EQ(text_with_marks("word, then", {{4, "1"}}, MarksAs::Printed, upper,
                            [](const std::string& m) { return "<sup>" + m + "</sup>"; }),
            "WORD<sup>1</sup>, THEN");
}

// A line's baseline is its text's: a note mark raised at its start ("[" "1" "]" or "1") does
// not move it; a raised letter (a formula's) is text, and a line of unknown baselines stands
// on the bottom of its box.
TEST(LineBaseline, ARaisedMarkAtTheStartDoesNotMoveIt) {
  auto span = [](const std::string& text, double size, double baseline) {
    Span s;
    s.text = text;
    s.size = size;
    s.baseline = baseline;
    return s;
  };
  Line bracketed;
  bracketed.spans = {span("[", 6, 236), span("1", 6, 236), span("]", 6, 236), span(" After installation", 10, 240)};
  EXPECT_DOUBLE_EQ(bracketed.baseline(), 240);
  Line plain;
  plain.spans = {span("\u00b9", 6, 236), span("The note", 10, 240)};
  EXPECT_DOUBLE_EQ(plain.baseline(), 240);
  Line formula;
  formula.spans = {span("a", 6, 236), span("f(a)", 10, 240)};
  EXPECT_DOUBLE_EQ(formula.baseline(), 236);
  Line unknown;
  unknown.bbox = {0, 10, 50, 22};
  unknown.spans = {span("text", 10, 0)};
  EXPECT_DOUBLE_EQ(unknown.baseline(), 22);
}

// A footnote's first line opens with its mark raised against its text; a number at the start
// of a line in the text's own size (a list's, a folio's), a raised letter (a formula's) or a
// mark with no text after it opens no note.
TEST(LineOpensWithNoteMark, ARaisedMarkBeforeTextOnly) {
  auto line = [](std::vector<std::pair<std::string, std::pair<double, double>>> parts) {
    Line l;
    for (auto& [text, sb] : parts) {
      Span s;
      s.text = text;
      s.size = sb.first;
      s.baseline = sb.second;
      l.spans.push_back(s);
    }
    return l;
  };
  EXPECT_TRUE(line({{"5", {6, 668}}, {"http://www.example.org/", {8, 670}}}).opens_with_note_mark());
  EXPECT_TRUE(line({{" ", {8, 670}}, {"*", {6, 668}}, {"Thanks to the readers.", {8, 670}}}).opens_with_note_mark());
  EXPECT_TRUE(line({{"[", {6, 236}}, {"1", {6, 236}}, {"]", {6, 236}}, {" After installation", {10, 240}}})
                  .opens_with_note_mark());
  EXPECT_FALSE(line({{"5 apples and pears", {10, 240}}}).opens_with_note_mark());
  EXPECT_FALSE(line({{"5", {10, 240}}, {" apples", {10, 240}}}).opens_with_note_mark());
  EXPECT_FALSE(line({{"a", {6, 236}}, {"f(a)", {10, 240}}}).opens_with_note_mark());
  EXPECT_FALSE(line({{"12", {6, 236}}}).opens_with_note_mark());
  EXPECT_FALSE(line({{"Text", {10, 240}}, {"2", {6, 236}}}).opens_with_note_mark());
}

}  // namespace
}  // namespace quire
