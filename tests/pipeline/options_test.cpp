// The stages' option tables: every field of an options struct (and of each of its sections)
// is in its stage's table or named below as left out on purpose; docs/options.md is what
// `quire options` prints; `stage.option=value` and `stage.section.option=value` reach the
// right struct, and a bad one is a clear error.
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

// A header's text as the compiler reads a struct of it: comments and string literals emptied,
// each `#include "quire/NAME.def"` replaced by that list of rows, and each row
// `QUIRE_..._OPTION(section, type, name, ...)` by the member it declares, `type name;`.
std::string struct_source(const std::string& header) {
  std::string src = read_source(header);
  const std::regex include(R"re(#include "quire/([\w/]+\.def)")re");
  std::smatch m;
  while (std::regex_search(src, m, include)) {
    const std::string dir = header.substr(0, header.find("/include/") + 9) + "quire/";
    src = m.prefix().str() + read_source(dir + m[1].str()) + m.suffix().str();
  }
  src = std::regex_replace(src, std::regex("//[^\n]*"), "");
  src = std::regex_replace(src, std::regex(R"re("(\\.|[^"\\\n])*")re"), "\"\"");
  src = std::regex_replace(src, std::regex(R"(#[^\n]*)"), "");
  return std::regex_replace(src, std::regex(R"(\bQUIRE_\w+_OPTION\(\s*\w+\s*,\s*([^,]+?)\s*,\s*(\w+)\s*,[^)]*\))"),
                            "$1 $2;");
}

// The data members declared in the braces from `from` on (just past a '{'): the statements
// (split at ';' outside braces), each one's last identifier before an initializer. A
// nested `struct S { ... } name;` gives its members as "name.member". `from` ends past the
// closing brace.
void collect_fields(const std::string& src, size_t& from, const std::string& prefix, std::set<std::string>& fields) {
  std::string statement;
  int depth = 0;
  for (; from < src.size(); ++from) {
    const char c = src[from];
    if (c == '{' && depth == 0 && std::regex_search(statement, std::regex(R"(^\s*struct\s+\w+\s*$)"))) {
      std::set<std::string> inner;
      collect_fields(src, ++from, "", inner);
      const size_t end = src.find(';', from);
      std::smatch m;
      const std::string name = src.substr(from, end - from);
      if (std::regex_search(name, m, std::regex(R"((\w+)\s*$)")))
        for (const auto& f : inner) fields.insert(prefix + m[1].str() + "." + f);
      from = end;
      statement.clear();
      continue;
    }
    if (c == '{') ++depth;
    if (c == '}' && depth-- == 0) {
      ++from;
      return;
    }
    if (c == ';' && depth == 0) {
      std::string decl = statement.substr(0, std::min(statement.find('='), statement.find('{')));
      std::smatch m;
      if (std::regex_search(decl, m, std::regex(R"((\w+)\s*$)"))) fields.insert(prefix + m[1].str());
      statement.clear();
      continue;
    }
    statement += c;
  }
}

// The data members of `struct NAME { ... };` in a header, a section's as "section.member".
std::set<std::string> declared_fields(const std::string& header, const std::string& name) {
  const std::string src = struct_source(header);
  const std::string open = "struct " + name + " {";
  size_t start = src.find(open);
  if (start == std::string::npos) return {};
  start += open.size();
  std::set<std::string> fields;
  collect_fields(src, start, "", fields);
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
       {"jobs",                 // the result is the same at any count
        "notes.note_titles"}},  // a list of words, not a value
      {"export/include/quire/export.h", "ExportOptions", table_names(export_option_table()),
       {"jobs", "figure_group",  // the order of work only
        "stage_seconds"}},      // the report's times
  };
  for (const auto& s : stages) {
    const std::set<std::string> declared = declared_fields(s.header, s.name);
    ASSERT_GT(declared.size(), s.left_out.size()) << s.header << ": struct " << s.name << " not found";
    for (const auto& field : declared)
      EXPECT_TRUE(s.table.count(field) || s.left_out.count(field))
          << s.name << "::" << field << " is in no option table: add it to the stage's src/options.cpp (layout: "
          << "a row of quire/layout_options/SECTION.def) "
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
  set_stage_option(all, "layout.lines.min_gutter=8");
  set_stage_option(all, "layout.tables.min_table_rows=4");
  set_stage_option(all, "layout.hyphenation.hyphen_dictionary=");
  set_stage_option(all, "extract.ocr_dpi=400");
  set_stage_option(all, "export.site=false");
  EXPECT_EQ(c.band_ratio, 0.15);
  EXPECT_EQ(l.lines.min_gutter, 8);
  EXPECT_EQ(l.tables.min_table_rows, 4u);
  EXPECT_EQ(l.hyphenation.hyphen_dictionary, "");
  EXPECT_EQ(e.ocr_dpi, 400);
  EXPECT_FALSE(x.site);
  // Other fields keep their defaults.
  EXPECT_EQ(c.min_recurrence, CleanOptions{}.min_recurrence);
  EXPECT_EQ(l.lines.same_row_ratio, LayoutOptions{}.lines.same_row_ratio);
}

struct BadSetting {
  const char* setting;
  const char* message_has;
};

// The setting is refused with a one-line usage error that says what `message_has` says.
void expect_refused(const StageOptionTargets& targets, const BadSetting& b) {
  try {
    set_stage_option(targets, b.setting);
    ADD_FAILURE() << b.setting << " was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code, ExitCode::Usage) << b.setting;
    EXPECT_NE(std::string(e.what()).find(b.message_has), std::string::npos) << b.setting << ": " << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
}

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
      {"layout.lines.min_gutter=8", "this command does not run the layout stage"},
  };
  for (const auto& b : cases) expect_refused(clean_only, b);
  EXPECT_EQ(c.band_ratio, CleanOptions{}.band_ratio);
}

// Layout's options are grouped in sections (`layout.lines.min_gutter`); a script that names
// one without its section (`layout.min_gutter`) still reaches it, since no two sections have
// an option of the same name.
TEST(SetStageOption, ALayoutOptionsNameWithoutItsSectionIsTheSame) {
  LayoutOptions l;
  const StageOptionTargets layout_only{.layout = &l};
  set_stage_option(layout_only, "layout.min_gutter=9");
  set_stage_option(layout_only, "layout.keep_matter=true");
  set_stage_option(layout_only, "layout.hyphen_patterns=");
  set_stage_option(layout_only, "layout.figures.figure_dpi=300");
  set_stage_option(layout_only, "layout.max_anchor_chars=40");
  EXPECT_EQ(l.lines.min_gutter, 9);
  EXPECT_TRUE(l.chapters.keep_matter);
  EXPECT_EQ(l.hyphenation.hyphen_patterns, "");
  EXPECT_EQ(l.figures.figure_dpi, 300);
  EXPECT_EQ(l.styles.max_anchor_chars, 40u);
  EXPECT_EQ(l.blocks.paragraph_gap_ratio, LayoutOptions{}.blocks.paragraph_gap_ratio);
  // Every row is "section.name", and its name alone finds it.
  const auto table = layout_option_table();
  for (const auto& f : table) {
    const size_t dot = f.name.find('.');
    ASSERT_NE(dot, std::string_view::npos) << f.name;
    EXPECT_EQ(f.name.find('.', dot + 1), std::string_view::npos) << f.name;
    EXPECT_EQ(find_option(table, f.name.substr(dot + 1)), &f) << f.name;
  }
}

TEST(SetStageOption, ABadLayoutSettingNamesTheCloseOptionsWithTheirSections) {
  LayoutOptions l;
  const StageOptionTargets layout_only{.layout = &l};
  const BadSetting cases[] = {
      {"layout.lines.min_guter=7", "layout has no option 'lines.min_guter'; close: lines.min_gutter"},
      {"layout.min_guter=7", "layout has no option 'min_guter'; close: lines.min_gutter"},
      {"layout.tables.min_gutter=7", "layout has no option 'tables.min_gutter'; close: lines.min_gutter"},
      {"layout.lines=7", "layout has no option 'lines'"},
      {"layout.lines.min_gutter=wide", "--set layout.lines.min_gutter: 'wide' is not a number"},
      {"layout.min_gutter=wide", "--set layout.lines.min_gutter: 'wide' is not a number"},
      {"layout.jobs=4", "layout has no option 'jobs'"},
      {"layout.note_titles=x", "layout has no option 'note_titles'"},
  };
  for (const auto& b : cases) expect_refused(layout_only, b);
  EXPECT_EQ(l.lines.min_gutter, LayoutOptions{}.lines.min_gutter);
}

}  // namespace
}  // namespace quire
