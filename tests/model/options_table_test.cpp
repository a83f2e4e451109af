// The generic option table: strict parsing of each type by name, the value read back as
// written, one-line errors that name the option (and the close names, for a slip), JSON and
// Markdown in table order; options of a struct grouped in sections by "section.name", or by
// the name alone where only one section has it.
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

// `set` refuses c with a one-line usage error that says what c.message_has says.
template <class Set>
void expect_refused(const BadCase& c, Set&& set) {
  try {
    set();
    ADD_FAILURE() << c.name << "=" << c.value << " was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code, ExitCode::Usage);
    EXPECT_NE(std::string(e.what()).find(c.message_has), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
}

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
    expect_refused(c, [&] { set_option(kTable, "test", k, c.name, c.value); });
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

// A struct grouped in sections, with one member of its own: rows reach a section's member
// through a function, the struct's own member through a member pointer.
struct Grouped {
  struct Rows {
    double gap = 0.5;
    size_t words = 3;
  } rows;
  struct Cells {
    double gap = 1;
    bool ruled = false;
    std::string face = "mono";
  } cells;
  int pages = 2;
};

constexpr OptionField<Grouped> kGroupedRows[] = {
    {"pages", &Grouped::pages, "pages", "some pages"},
    {"rows.gap", +[](Grouped& g) -> double& { return g.rows.gap; }, "pt", "a row gap"},
    {"rows.words", +[](Grouped& g) -> size_t& { return g.rows.words; }, "words", "a few words"},
    {"cells.gap", +[](Grouped& g) -> double& { return g.cells.gap; }, "em", "a cell gap"},
    {"cells.ruled", +[](Grouped& g) -> bool& { return g.cells.ruled; }, "-", "ruled"},
    {"cells.face", +[](Grouped& g) -> std::string& { return g.cells.face; }, "name", "a face"},
};
const std::span<const OptionField<Grouped>> kGrouped(kGroupedRows);

TEST(OptionsTable, SetsAndGetsASectionsMemberByItsDottedName) {
  Grouped g;
  set_option(kGrouped, "test", g, "rows.gap", "0.25");
  set_option(kGrouped, "test", g, "cells.gap", "2");
  set_option(kGrouped, "test", g, "cells.ruled", "true");
  set_option(kGrouped, "test", g, "cells.face", "bold");
  set_option(kGrouped, "test", g, "pages", "7");
  EXPECT_EQ(g.rows.gap, 0.25);
  EXPECT_EQ(g.cells.gap, 2);
  EXPECT_TRUE(g.cells.ruled);
  EXPECT_EQ(g.cells.face, "bold");
  EXPECT_EQ(g.pages, 7);
  EXPECT_EQ(g.rows.words, 3u);  // untouched
  const Grouped& read_only = g;
  EXPECT_EQ(get_option(*find_option(kGrouped, "rows.gap"), read_only), "0.25");
  EXPECT_EQ(get_option(*find_option(kGrouped, "cells.face"), read_only), "bold");
}

TEST(OptionsTable, ANameWithoutItsSectionIsTheOneRowOfThatName) {
  Grouped g;
  set_option(kGrouped, "test", g, "words", "9");  // only rows.words
  set_option(kGrouped, "test", g, "ruled", "1");  // only cells.ruled
  EXPECT_EQ(g.rows.words, 9u);
  EXPECT_TRUE(g.cells.ruled);
  EXPECT_EQ(find_option(kGrouped, "words"), find_option(kGrouped, "rows.words"));
  // A section's name alone, or a dotted name of no row, is no option.
  EXPECT_EQ(find_option(kGrouped, "rows"), nullptr);
  EXPECT_EQ(find_option(kGrouped, "cells.words"), nullptr);
}

TEST(OptionsTable, ANameTwoSectionsHaveNeedsItsSection) {
  Grouped g;
  EXPECT_EQ(find_option(kGrouped, "gap"), nullptr);
  try {
    set_option(kGrouped, "test", g, "gap", "1");
    ADD_FAILURE() << "gap=1 was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("test has no option 'gap'; close: rows.gap, cells.gap"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(g.rows.gap, 0.5);
  EXPECT_EQ(g.cells.gap, 1);
}

TEST(OptionsTable, ASlipInASectionsMemberListsTheCloseDottedNames) {
  const BadCase cases[] = {
      {"rows.wrds", "1", "test has no option 'rows.wrds'; close: rows.words"},
      {"wrds", "1", "test has no option 'wrds'; close: rows.words"},
      {"cell.ruled", "1", "close: cells.ruled"},
      {"rows.gap", "wide", "test.rows.gap: 'wide' is not a number"},
      {"words", "-2", "test.rows.words: '-2' is not a whole number of 0 or more"},  // named in full
  };
  for (const auto& c : cases) {
    Grouped g;
    expect_refused(c, [&] { set_option(kGrouped, "test", g, c.name, c.value); });
  }
}

TEST(OptionsTable, JsonAndMarkdownOfASectionedStructUseTheDottedNames) {
  Grouped g;
  EXPECT_EQ(dump(options_json(kGrouped, g), false),
            "{\"pages\":2,\"rows.gap\":0.5,\"rows.words\":3,\"cells.gap\":1.0,\"cells.ruled\":false,"
            "\"cells.face\":\"mono\"}\n");
  const std::string md = options_markdown(kGrouped, "test");
  EXPECT_NE(md.find("| `test.rows.words` | size_t | `3` | words | a few words |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| `test.cells.face` | string | `mono` | name | a face |\n"), std::string::npos) << md;
}

}  // namespace
}  // namespace quire
