// Errors that travel up as values: what went wrong, in which file and on which page.
// Engines catch their own library errors at their boundary and turn them into these.
#pragma once

#include <stdexcept>
#include <string>

namespace quire {

// Process exit codes. Documented in the README; scripts rely on them.
enum class ExitCode : int {
  Ok = 0,
  Differences = 1,     // diff/verify found differences
  Usage = 2,           // bad command line
  Warnings = 3,        // built, with warnings
  BookFailed = 4,      // at least one book failed; the others were built
  NotFound = 5,        // input file missing
  NotPdf = 6,          // not a PDF / cannot be parsed
  Encrypted = 7,       // needs a password, or the password is wrong
  BadRange = 8,        // page range outside the document
  BadMap = 9,          // map file error
  BadIntermediate = 10,// malformed intermediate file
  Io = 11,             // cannot write output
  Internal = 70,
};

struct Error : std::runtime_error {
  ExitCode code;
  std::string file;
  int page;  // 1-based, 0 when not about one page

  Error(ExitCode c, std::string file_, int page_, const std::string& what)
      : std::runtime_error(what), code(c), file(std::move(file_)), page(page_) {}

  // "FILE: page N: WHAT" (page part omitted when 0): the one line a user sees.
  std::string message() const;
};

}  // namespace quire
