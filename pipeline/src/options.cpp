#include "quire/pipeline.h"

namespace quire {

namespace {

constexpr std::string_view kStages[] = {"extract", "clean", "layout", "export"};

template <class T>
void set_in(T* options, std::span<const OptionField<T>> table, std::string_view stage, std::string_view setting,
            std::string_view name, std::string_view value) {
  if (!options)
    throw Error(ExitCode::Usage, "", 0,
                "--set " + std::string(setting) + ": this command does not run the " + std::string(stage) + " stage");
  set_option(table, stage, *options, name, value);
}

}  // namespace

void set_stage_option(const StageOptionTargets& t, std::string_view setting) {
  const size_t dot = setting.find('.');
  const size_t eq = setting.find('=');
  if (dot == std::string_view::npos || eq == std::string_view::npos || eq < dot)
    throw Error(ExitCode::Usage, "", 0,
                "--set takes stage.option=value (e.g. clean.band_ratio=0.15), not '" + std::string(setting) + "'");
  const std::string_view stage = setting.substr(0, dot);
  const std::string_view name = setting.substr(dot + 1, eq - dot - 1);
  const std::string_view value = setting.substr(eq + 1);
  if (stage == "extract") set_in(t.extract, extract_option_table(), stage, setting, name, value);
  else if (stage == "clean") set_in(t.clean, clean_option_table(), stage, setting, name, value);
  else if (stage == "layout") set_in(t.layout, layout_option_table(), stage, setting, name, value);
  else if (stage == "export") set_in(t.exporting, export_option_table(), stage, setting, name, value);
  else {
    std::string stages;
    for (auto s : kStages) stages += (stages.empty() ? "" : ", ") + std::string(s);
    throw Error(ExitCode::Usage, "", 0,
                "--set " + std::string(setting) + ": no stage '" + std::string(stage) + "' (stages: " + stages + ")");
  }
}

std::string options_reference() {
  std::string out =
      "# Stage options\n\n"
      "<!-- Made by `quire options` from the stages' option tables; regenerate with\n"
      "     tools/update-options-doc.sh, never by hand. -->\n\n"
      "Each stage's tuning options, with the values a build uses. Any of them can be tried\n"
      "without recompiling: `quire build --set stage.option=value` (repeatable; also on\n"
      "`quire extract`, `clean`, `layout` and `inspect` for the stages they run). `quire verify`\n"
      "takes a build's `--set` flags as they were: the extract ones read the PDFs again as the\n"
      "build read them, the others are checked and change nothing (the corpus holds what those\n"
      "stages did). The values are part of the build cache key, so a cached book is never\n"
      "reused under other values.\n"
      "Layout's options are grouped by the pass that reads them: `layout.section.option`\n"
      "(`layout.lines.min_gutter`). An option's name without its section (`layout.min_gutter`)\n"
      "is taken too, as no two sections share one.\n"
      "The header files (`extract.h`, `clean.h`, `export.h`; for layout, its sections' lists\n"
      "`layout_options/SECTION.def`) give the full reason for each default.\n";
  out += "\n## extract\n\n" + options_markdown(extract_option_table(), "extract");
  out += "\n## clean\n\n" + options_markdown(clean_option_table(), "clean");
  out += "\n## layout\n\n" + options_markdown(layout_option_table(), "layout");
  out += "\n## export\n\n" + options_markdown(export_option_table(), "export");
  return out;
}

}  // namespace quire
