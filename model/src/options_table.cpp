#include "quire/options_table.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

namespace quire::options_detail {

namespace {

[[noreturn]] void bad_value(std::string_view what, std::string_view value, std::string_view expected) {
  throw Error(ExitCode::Usage, "", 0,
              "--set " + std::string(what) + ": '" + std::string(value) + "' is not " + std::string(expected));
}

// std::from_chars over the whole of `value`: no sign but '-', no spaces, no trailing text,
// and the same result in every locale.
template <class N>
bool read_whole(std::string_view value, N& out) {
  if (value.empty()) return false;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
  return ec == std::errc() && end == value.data() + value.size();
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string_view type_name(size_t index) {
  static constexpr std::string_view kNames[] = {"double", "int", "size_t", "bool", "string"};
  return index < std::size(kNames) ? kNames[index] : "?";
}

double parse_double(std::string_view what, std::string_view value) {
  double v = 0;
  if (!read_whole(value, v) || !std::isfinite(v)) bad_value(what, value, "a number (e.g. 0.25)");
  return v;
}

int parse_int(std::string_view what, std::string_view value) {
  int v = 0;
  if (!read_whole(value, v)) bad_value(what, value, "a whole number");
  return v;
}

size_t parse_size(std::string_view what, std::string_view value) {
  size_t v = 0;
  if (!read_whole(value, v)) bad_value(what, value, "a whole number of 0 or more");
  return v;
}

bool parse_bool(std::string_view what, std::string_view value) {
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  bad_value(what, value, "true or false");
}

std::string format_double(double value) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  return ec == std::errc() ? std::string(buf, end) : std::string("nan");
}

void unknown_option(std::string_view stage, std::string_view name, const std::vector<std::string_view>& names) {
  // Close: a slip of a few letters, or a part of the name (min_gutter for gutter), in the
  // whole name or in the name within its section (min_gutter for lines.min_gutter).
  const size_t slack = std::max<size_t>(2, name.size() / 4);
  auto last = [](std::string_view n) { return n.substr(n.rfind('.') + 1); };
  std::vector<std::string_view> close;
  for (auto n : names)
    if (edit_distance(name, n) <= slack || edit_distance(last(name), last(n)) <= slack ||
        (name.size() >= 4 && n.find(name) != std::string_view::npos))
      close.push_back(n);
  std::string msg = "--set " + std::string(stage) + "." + std::string(name) + ": " + std::string(stage) +
                    " has no option '" + std::string(name) + "'";
  if (!close.empty()) {
    msg += "; close: ";
    for (size_t i = 0; i < close.size() && i < 6; ++i) msg += (i ? ", " : "") + std::string(close[i]);
  }
  msg += " (quire options lists them all)";
  throw Error(ExitCode::Usage, "", 0, msg);
}

std::string markdown_cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

}  // namespace quire::options_detail
