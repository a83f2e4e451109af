// Private helpers of export/: files, escaping, line diffs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace quire::exporting {

// Writes bytes to path (creating parent folders); throws Error(Io) on failure.
void write_file(const std::string& path, std::string_view content);
// Reads a whole file; throws Error(NotFound) when it cannot be opened.
std::string read_file(const std::string& path);

// Text for HTML element content and attribute values: & < > " ' escaped; NUL, which HTML
// parsers replace anyway, written as U+FFFD so the page is well-formed.
std::string html_escape(std::string_view);

// A unified diff (3 lines of context) of two texts split at '\n'; empty when equal.
std::string unified_diff(std::string_view expected, std::string_view actual, const std::string& expected_name,
                         const std::string& actual_name);

// "one" .. "twelve" for small counts (how the learning map's header line reads), else digits.
std::string count_words(long n, bool capital);

}  // namespace quire::exporting
