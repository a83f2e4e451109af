// The tuning options of a stage as a table: one row per option of the stage's options struct
// (name, where the value is, unit, one-line reason). From the table come `--set
// stage.option=value`, the options' part of the build cache key and docs/options.md, so a
// field is described once.
//
// A flat struct's row names a data member (`&ExtractOptions::ocr_dpi`). A struct grouped in
// sections names its option "section.name" and reaches it through a function
// (`+[](LayoutOptions& o) -> double& { return o.lines.min_gutter; }`), since a member
// pointer cannot name a member of a member. Such an option may also be given by its name
// alone ("min_gutter") while no other section has that name.
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

// Where an option's value of type V is in a T: a data member of T, or a function that gives
// the value's place (a member of one of T's sections).
template <class T, class V>
struct OptionPlace {
  V T::*member = nullptr;
  V& (*access)(T&) = nullptr;

  constexpr OptionPlace(V T::*m) : member(m) {}
  constexpr OptionPlace(V& (*a)(T&)) : access(a) {}
  V& operator()(T& options) const { return access ? access(options) : options.*member; }
  // The accessor only reads here: the place of a value of a const T is a const place.
  const V& operator()(const T& options) const { return (*this)(const_cast<T&>(options)); }
};

template <class T>
using OptionMember = std::variant<OptionPlace<T, double>, OptionPlace<T, int>, OptionPlace<T, size_t>,
                                  OptionPlace<T, bool>, OptionPlace<T, std::string>>;

template <class T>
struct OptionField {
  std::string_view name;  // `--set stage.NAME=VALUE`: the member's name, or "section.member"
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

// The row named `name`, or, for a name without a section ("min_gutter"), the one row of any
// section whose name it is ("lines.min_gutter"); none when no row or several are so named.
template <class T>
const OptionField<T>* find_option(std::span<const OptionField<T>> table, std::string_view name) {
  for (const auto& f : table)
    if (f.name == name) return &f;
  if (name.find('.') != std::string_view::npos) return nullptr;
  const OptionField<T>* found = nullptr;
  for (const auto& f : table) {
    const size_t dot = f.name.rfind('.');
    if (dot == std::string_view::npos || f.name.substr(dot + 1) != name) continue;
    if (found) return nullptr;
    found = &f;
  }
  return found;
}

// The option's value as text, as `--set` reads it back.
template <class T>
std::string get_option(const OptionField<T>& field, const T& options) {
  return std::visit(
      [&](const auto& place) -> std::string {
        const auto& v = place(options);
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
  const std::string what = std::string(stage) + "." + std::string(field->name);
  std::visit(
      [&](const auto& place) {
        auto& v = place(options);
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
  for (const auto& f : table) std::visit([&](const auto& place) { j[std::string(f.name)] = place(options); }, f.member);
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
