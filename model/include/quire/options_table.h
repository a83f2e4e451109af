// The tuning options of a stage as a table: one row per field of the stage's options struct
// (name, member, unit, one-line reason). From the table come `--set stage.option=value`, the
// options' part of the build cache key and docs/options.md, so a field is described once.
//
// Values are read and written with the classic locale (a decimal point, never a comma),
// whatever the process's locale is. A bad name or value is an Error(ExitCode::Usage) of one
// line that names the option (and, for a name, the close ones the stage has).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "quire/error.h"
#include "quire/json.h"

namespace quire {

template <class T>
using OptionMember = std::variant<double T::*, int T::*, size_t T::*, bool T::*, std::string T::*>;

template <class T>
struct OptionField {
  std::string_view name;  // the member's name: `--set stage.NAME=VALUE`
  OptionMember<T> member;
  std::string_view unit;  // "pt", "ratio of font size", "share of pages", "count", ...
  std::string_view why;   // one line: what the value measures and why it is what it is
};

// ---- the type-independent part (model/src/options_table.cpp) ----
namespace options_detail {
// "double", "int", "size_t", "bool", "string": the variant's alternative `index`.
std::string_view type_name(size_t index);
// Strict parsing of the whole of `value` (classic locale); `what` ("clean.band_ratio") names
// the option in the error.
double parse_double(std::string_view what, std::string_view value);
int parse_int(std::string_view what, std::string_view value);
size_t parse_size(std::string_view what, std::string_view value);
bool parse_bool(std::string_view what, std::string_view value);
// The shortest text that reads back as the same double ("0.2", "1e-05", "6").
std::string format_double(double value);
// Error for a name the stage does not have, listing the names close to it (edit distance, or
// one containing the other).
[[noreturn]] void unknown_option(std::string_view stage, std::string_view name,
                                 const std::vector<std::string_view>& names);
// A Markdown table cell: no line breaks, '|' escaped.
std::string markdown_cell(std::string_view text);
}  // namespace options_detail

template <class T>
const OptionField<T>* find_option(std::span<const OptionField<T>> table, std::string_view name) {
  for (const auto& f : table)
    if (f.name == name) return &f;
  return nullptr;
}

// The option's value as text, as `--set` reads it back.
template <class T>
std::string get_option(const OptionField<T>& field, const T& options) {
  return std::visit(
      [&](auto member) -> std::string {
        const auto& v = options.*member;
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, double>) return options_detail::format_double(v);
        else if constexpr (std::is_same_v<V, bool>) return v ? "true" : "false";
        else if constexpr (std::is_same_v<V, std::string>) return v;
        else return std::to_string(v);
      },
      field.member);
}

// Sets option `name` of `options` from text. `stage` ("clean") is for the error message.
template <class T>
void set_option(std::span<const OptionField<T>> table, std::string_view stage, T& options, std::string_view name,
                std::string_view value) {
  const OptionField<T>* field = find_option(table, name);
  if (!field) {
    std::vector<std::string_view> names;
    for (const auto& f : table) names.push_back(f.name);
    options_detail::unknown_option(stage, name, names);
  }
  const std::string what = std::string(stage) + "." + std::string(name);
  std::visit(
      [&](auto member) {
        auto& v = options.*member;
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, double>) v = options_detail::parse_double(what, value);
        else if constexpr (std::is_same_v<V, int>) v = options_detail::parse_int(what, value);
        else if constexpr (std::is_same_v<V, size_t>) v = options_detail::parse_size(what, value);
        else if constexpr (std::is_same_v<V, bool>) v = options_detail::parse_bool(what, value);
        else v = std::string(value);
      },
      field->member);
}

// {"name": value, ...} in table order, values in their JSON types.
template <class T>
Json options_json(std::span<const OptionField<T>> table, const T& options) {
  Json j = Json::object();
  for (const auto& f : table) std::visit([&](auto member) { j[std::string(f.name)] = options.*member; }, f.member);
  return j;
}

// The table as Markdown rows "| stage.name | type | default | unit | why |", defaults read
// from `defaults`, after a header row.
template <class T>
std::string options_markdown(std::span<const OptionField<T>> table, std::string_view stage, const T& defaults = {}) {
  std::string out = "| option | type | default | unit | why |\n| --- | --- | --- | --- | --- |\n";
  for (const auto& f : table) {
    std::string value = get_option(f, defaults);
    out += "| `" + std::string(stage) + "." + std::string(f.name) + "` | " +
           std::string(options_detail::type_name(f.member.index())) + " | " +
           (value.empty() ? std::string("\"\"") : "`" + options_detail::markdown_cell(value) + "`") + " | " +
           options_detail::markdown_cell(f.unit) + " | " + options_detail::markdown_cell(f.why) + " |\n";
  }
  return out;
}

}  // namespace quire
