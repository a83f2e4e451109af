// The stages' option tables: every field of an options struct is in its stage's table or
// named below as left out on purpose; docs/options.md is what `quire options` prints;
// `stage.option=value` reaches the right struct, and a bad one is a clear error.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "quire/pipeline.h"

namespace quire {
namespace {

std::string read_source(const std::string& relative) {
  std::ifstream in(std::string(QUIRE_SOURCE_DIR) + "/" + relative, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The names of the data members declared in `struct NAME { ... };` of a header: the body's
// statements (split at ';' outside braces, comments dropped), each one's last identifier
// before an initializer.
std::set<std::string> declared_fields(const std::string& header, const std::string& name) {
  std::string src = std::regex_replace(read_source(header), std::regex("//[^\n]*"), "");
  const std::string open = "struct " + name + " {";
  const size_t start = src.find(open);
  if (start == std::string::npos) return {};
  std::set<std::string> fields;
  std::string statement;
  int depth = 0;
  for (size_t i = start + open.size(); i < src.size(); ++i) {
    const char c = src[i];
    if (c == '{') ++depth;
    if (c == '}' && depth-- == 0) break;
    if (c == ';' && depth == 0) {
      std::string decl = statement.substr(0, std::min(statement.find('='), statement.find('{')));
      std::smatch m;
      if (std::regex_search(decl, m, std::regex(R"((\w+)\s*$)"))) fields.insert(m[1]);
      statement.clear();
      continue;
    }
    statement += c;
  }
  return fields;
}

template <class T>
std::set<std::string> table_names(std::span<const OptionField<T>> table) {
  std::set<std::string> names;
  for (const auto& f : table) EXPECT_TRUE(names.insert(std::string(f.name)).second) << "twice: " << f.name;
  return names;
}

struct Completeness {
  const char* header;
  const char* name;
  std::set<std::string> table;
  // Fields left out of the table on purpose, and why: they never change a page's output, or
  // they are not a single value a command line can give.
  std::set<std::string> left_out;
};

TEST(OptionTables, EveryFieldOfAnOptionsStructIsInItsTableOrLeftOutOnPurpose) {
  const Completeness stages[] = {
      {"extract/include/quire/extract.h", "ExtractOptions", table_names(extract_option_table()),
       {"engine", "ocr",                  // choices with flags of their own (--engine, --ocr), in the cache key
        "password",                       // a secret: the cache key holds its hash
        "first_page", "last_page",        // which pages, not what they give (--pages)
        "jobs", "spill_after_mb", "spill_dir", "spill_budget",  // speed and memory, never output
        "on_warning", "on_open", "on_page"}},   // callbacks
      {"clean/include/quire/clean.h", "CleanOptions", table_names(clean_option_table()), {"jobs"}},
      {"layout/include/quire/layout_options.h", "LayoutOptions", table_names(layout_option_table()),
       {"jobs",           // the result is the same at any count
        "note_titles"}},  // a list of words, not a value
      {"export/include/quire/export.h", "ExportOptions", table_names(export_option_table()),
       {"jobs", "figure_group",  // the order of work only
        "stage_seconds"}},      // the report's times
  };
  for (const auto& s : stages) {
    const std::set<std::string> declared = declared_fields(s.header, s.name);
    ASSERT_GT(declared.size(), s.left_out.size()) << s.header << ": struct " << s.name << " not found";
    for (const auto& field : declared)
      EXPECT_TRUE(s.table.count(field) || s.left_out.count(field))
          << s.name << "::" << field << " is in no option table: add it to the stage's src/options.cpp "
          << "(or to this test's list of fields left out, with the reason)";
    for (const auto& name : s.table) EXPECT_TRUE(declared.count(name)) << s.name << " has no field " << name;
    for (const auto& name : s.left_out) {
      EXPECT_TRUE(declared.count(name)) << s.name << " has no field " << name;
      EXPECT_FALSE(s.table.count(name)) << name << " is both in the table and left out";
    }
  }
}

TEST(OptionTables, EveryRowHasAUnitAndAReason) {
  auto check = [](auto table, const char* stage) {
    for (const auto& f : table) {
      EXPECT_FALSE(f.unit.empty()) << stage << "." << f.name;
      EXPECT_FALSE(f.why.empty()) << stage << "." << f.name;
    }
  };
  check(extract_option_table(), "extract");
  check(clean_option_table(), "clean");
  check(layout_option_table(), "layout");
  check(export_option_table(), "export");
}

TEST(OptionTables, DocsOptionsMdIsWhatQuireOptionsPrints) {
  EXPECT_EQ(read_source("docs/options.md"), options_reference())
      << "docs/options.md is out of date: run tools/update-options-doc.sh";
}

// Every default written as text and read back is the same value: `--set x=<its default>`
// builds what no --set builds.
TEST(OptionTables, EachDefaultReadsBackAsItself) {
  auto check = [](auto table, auto options, const char* stage) {
    const auto defaults = options;
    for (const auto& f : table) set_option(table, stage, options, f.name, get_option(f, defaults));
    EXPECT_EQ(dump(options_json(table, options), false), dump(options_json(table, defaults), false)) << stage;
  };
  check(extract_option_table(), ExtractOptions{}, "extract");
  check(clean_option_table(), CleanOptions{}, "clean");
  check(layout_option_table(), LayoutOptions{}, "layout");
  check(export_option_table(), ExportOptions{}, "export");
}

TEST(SetStageOption, ReachesTheNamedStagesField) {
  ExtractOptions e;
  CleanOptions c;
  LayoutOptions l;
  ExportOptions x;
  const StageOptionTargets all{&e, &c, &l, &x};
  set_stage_option(all, "clean.band_ratio=0.15");
  set_stage_option(all, "layout.min_gutter=8");
  set_stage_option(all, "layout.min_table_rows=4");
  set_stage_option(all, "layout.hyphen_dictionary=");
  set_stage_option(all, "extract.ocr_dpi=400");
  set_stage_option(all, "export.site=false");
  EXPECT_EQ(c.band_ratio, 0.15);
  EXPECT_EQ(l.min_gutter, 8);
  EXPECT_EQ(l.min_table_rows, 4u);
  EXPECT_EQ(l.hyphen_dictionary, "");
  EXPECT_EQ(e.ocr_dpi, 400);
  EXPECT_FALSE(x.site);
  // Other fields keep their defaults.
  EXPECT_EQ(c.min_recurrence, CleanOptions{}.min_recurrence);
  EXPECT_EQ(l.same_row_ratio, LayoutOptions{}.same_row_ratio);
}

struct BadSetting {
  const char* setting;
  const char* message_has;
};

TEST(SetStageOption, ABadSettingIsOneLineNamingIt) {
  CleanOptions c;
  const StageOptionTargets clean_only{.clean = &c};
  const BadSetting cases[] = {
      {"band_ratio=0.1", "--set takes stage.option=value"},
      {"clean.band_ratio", "--set takes stage.option=value"},
      {"clean=band_ratio.0", "--set takes stage.option=value"},
      {"cleaning.band_ratio=0.1", "no stage 'cleaning' (stages: extract, clean, layout, export)"},
      {"clean.band_rato=0.1", "clean has no option 'band_rato'; close: band_ratio"},
      {"clean.band_ratio=wide", "--set clean.band_ratio: 'wide' is not a number"},
      {"clean.min_recurrence=2.5", "--set clean.min_recurrence: '2.5' is not a whole number"},
      {"clean.jobs=4", "clean has no option 'jobs'"},
      {"layout.min_gutter=8", "this command does not run the layout stage"},
  };
  for (const auto& b : cases) {
    try {
      set_stage_option(clean_only, b.setting);
      ADD_FAILURE() << b.setting << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code, ExitCode::Usage) << b.setting;
      EXPECT_NE(std::string(e.what()).find(b.message_has), std::string::npos) << b.setting << ": " << e.what();
    }
  }
  EXPECT_EQ(c.band_ratio, CleanOptions{}.band_ratio);
}

}  // namespace
}  // namespace quire
