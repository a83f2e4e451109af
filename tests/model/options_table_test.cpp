// The generic option table: strict parsing of each type by name, the value read back as
// written, one-line errors that name the option (and the close names, for a slip), JSON and
// Markdown in table order.
#include <gtest/gtest.h>

#include <locale>

#include "quire/options_table.h"

namespace quire {
namespace {

struct Knobs {
  double gap = 0.5;
  int pages = 3;
  size_t words = 20;
  bool keep = false;
  std::string path = "/usr/share/x";
};

constexpr OptionField<Knobs> kKnobs[] = {
    {"gap", &Knobs::gap, "ratio of font size", "a gap"},
    {"pages", &Knobs::pages, "pages", "some pages"},
    {"words", &Knobs::words, "words", "a | few words"},
    {"keep", &Knobs::keep, "-", "keep it"},
    {"path", &Knobs::path, "path", "a file"},
};
const std::span<const OptionField<Knobs>> kTable(kKnobs);

struct SetCase {
  const char* name;
  const char* value;
  const char* read_back;  // get_option after set_option
};

TEST(OptionsTable, SetsEachTypeFromTextAndReadsItBack) {
  const SetCase cases[] = {
      {"gap", "0.15", "0.15"},
      {"gap", "8", "8"},
      {"gap", "-1.5", "-1.5"},
      {"gap", "1e-3", "0.001"},
      {"pages", "-2", "-2"},
      {"pages", "12", "12"},
      {"words", "0", "0"},
      {"words", "4096", "4096"},
      {"keep", "true", "true"},
      {"keep", "1", "true"},
      {"keep", "false", "false"},
      {"path", "", ""},  // a path may be empty: "none"
      {"path", "a=b c", "a=b c"},
  };
  for (const auto& c : cases) {
    Knobs k;
    set_option(kTable, "test", k, c.name, c.value);
    EXPECT_EQ(get_option(*find_option(kTable, c.name), k), c.read_back) << c.name << "=" << c.value;
  }
}

struct BadCase {
  const char* name;
  const char* value;
  const char* message_has;  // a part of the one-line error
};

TEST(OptionsTable, RejectsBadValuesAndNamesWithOneLineNamingTheOption) {
  const BadCase cases[] = {
      {"gap", "", "test.gap: '' is not a number"},
      {"gap", "abc", "test.gap: 'abc' is not a number"},
      {"gap", "0,15", "'0,15' is not a number"},     // a decimal comma is no number here
      {"gap", "0.15x", "'0.15x' is not a number"},   // trailing text
      {"gap", " 1", "' 1' is not a number"},
      {"gap", "inf", "'inf' is not a number"},
      {"gap", "nan", "'nan' is not a number"},
      {"pages", "1.5", "test.pages: '1.5' is not a whole number"},
      {"pages", "99999999999", "is not a whole number"},  // out of int's range
      {"words", "-1", "test.words: '-1' is not a whole number of 0 or more"},
      {"keep", "yes", "test.keep: 'yes' is not true or false"},
      {"gapp", "1", "test has no option 'gapp'; close: gap"},
      {"word", "1", "close: words"},
      {"nothing_like_it", "1", "test has no option 'nothing_like_it' (quire options"},
  };
  for (const auto& c : cases) {
    Knobs k;
    try {
      set_option(kTable, "test", k, c.name, c.value);
      ADD_FAILURE() << c.name << "=" << c.value << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code, ExitCode::Usage);
      EXPECT_NE(std::string(e.what()).find(c.message_has), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
}

// A decimal comma in the global locale (as a user's de_DE would give) changes neither what
// "0.15" reads as nor how 0.15 is written.
struct DecimalComma : std::numpunct<char> {
  char do_decimal_point() const override { return ','; }
};

TEST(OptionsTable, NumbersDoNotFollowTheGlobalLocale) {
  const std::locale saved = std::locale::global(std::locale(std::locale::classic(), new DecimalComma));
  Knobs k;
  set_option(kTable, "test", k, "gap", "0.15");
  const std::string back = get_option(*find_option(kTable, "gap"), k);
  bool comma_rejected = false;
  try {
    set_option(kTable, "test", k, "gap", "0,25");
  } catch (const Error&) {
    comma_rejected = true;
  }
  std::locale::global(saved);
  EXPECT_EQ(k.gap, 0.15);
  EXPECT_EQ(back, "0.15");
  EXPECT_TRUE(comma_rejected);
}

TEST(OptionsTable, JsonHoldsEveryFieldInTableOrderWithItsType) {
  Knobs k;
  k.gap = 0.25;
  EXPECT_EQ(dump(options_json(kTable, k), false),
            "{\"gap\":0.25,\"pages\":3,\"words\":20,\"keep\":false,\"path\":\"/usr/share/x\"}\n");
}

TEST(OptionsTable, MarkdownRowsGiveNameTypeDefaultUnitAndWhy) {
  const std::string md = options_markdown(kTable, "test");
  EXPECT_EQ(md,
            "| option | type | default | unit | why |\n"
            "| --- | --- | --- | --- | --- |\n"
            "| `test.gap` | double | `0.5` | ratio of font size | a gap |\n"
            "| `test.pages` | int | `3` | pages | some pages |\n"
            "| `test.words` | size_t | `20` | words | a \\| few words |\n"
            "| `test.keep` | bool | `false` | - | keep it |\n"
            "| `test.path` | string | `/usr/share/x` | path | a file |\n");
}

}  // namespace
}  // namespace quire
