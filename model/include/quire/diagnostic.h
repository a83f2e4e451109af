// A warning about one book: what kind, where (file, page, stage) and the message.
//
// Every stage reports its warnings as Diagnostics; the build gathers them into the book and
// its outcome. text() is the one-line form people read and book.json lists, so that line
// stays the same wherever a warning comes from.
#pragma once

#include <compare>
#include <string>
#include <tuple>

namespace quire {

struct Diagnostic {
  // A short, stable kebab-case name of the kind of warning, for tools to count and filter on:
  // "page-unreadable", "page-timeout", "engine-repair", "ocr-failed", "verify-missing",
  // "finding-figure-holds-body-text", ...
  std::string code;
  std::string file;  // the PDF's base name
  int page = 0;      // 1-based, or 0: the warning is about the whole book
  // The stage that found it: "extract", "clean", "layout", "verify" or "export".
  std::string stage;
  // The message after the location ("cannot read page: ...", "verify: missing word ...").
  std::string message;

  static Diagnostic at(std::string stage, std::string code, std::string file, int page, std::string message);

  // "FILE: page N: MESSAGE", or "FILE: MESSAGE" for the whole book (each part only when
  // known).
  std::string text() const;

  bool operator==(const Diagnostic&) const = default;
  // Ordered by where (file, page, stage), then by kind and message, for a stable listing.
  std::strong_ordering operator<=>(const Diagnostic& o) const {
    return std::tie(file, page, stage, code, message) <=> std::tie(o.file, o.page, o.stage, o.code, o.message);
  }
};

}  // namespace quire
