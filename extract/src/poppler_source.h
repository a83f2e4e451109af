// Private to extract/: what Poppler reads from a PDF, as plain values. Poppler is in the
// module quire-poppler.so (modules.h, poppler_module.cpp); poppler_engine.cpp builds the
// model's lines from these words.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "quire/model.h"

namespace quire::detail {

// One word as Poppler's text list gives it.
struct PopplerWord {
  std::string text;                // UTF-8
  Box box;                         // in the rotated page space, top-left origin, points
  int rotation = 0;                // 0 left to right, 1 top to bottom, 2 right to left, 3 bottom to top
  bool vertical = false;           // written in the vertical writing mode
  bool has_font = false;           // font name and size are known
  double font_size = 0;
  std::vector<std::string> fonts;  // per code point of text (when has_font), as in the PDF
  std::vector<Box> glyphs;         // per code point of text; all zero where Poppler has none
  bool space_after = false;        // Poppler saw a word space after it
};

struct PopplerPage {
  int rotation = 0;                // 0, 90, 180, 270
  double width = 0, height = 0;    // the unrotated crop box
  std::vector<PopplerWord> words;  // in Poppler's reading order
};

struct PopplerOutlineEntry {
  std::string title;  // UTF-8
  int level = 1;
};

// One open document; not for use from two threads at once (a worker opens its own).
class PopplerFile {
 public:
  virtual ~PopplerFile() = default;
  virtual int pages() const = 0;
  // Title, author, subject, creator, producer, UTF-8 ("" when absent).
  virtual std::vector<std::string> info() const = 0;
  // The outline in order, depth first, at most max_entries entries and max_depth levels.
  virtual std::vector<PopplerOutlineEntry> outline(int max_depth, size_t max_entries) const = 0;
  // The label of page `index` (0-based); Poppler answers the page number when the PDF has none.
  virtual std::string label(int index) const = 0;
  // Page `index` (0-based); false when Poppler cannot read it.
  virtual bool page(int index, PopplerPage& out) const = 0;
};

enum class PopplerOpen { Ok, NotPdf, NeedsPassword, WrongPassword, NoPages, Failed };

// Opens `path` (the one password tried as owner and user password). Throws Error naming the
// file: NotPdf, Encrypted, or Internal when the module cannot be loaded.
std::unique_ptr<PopplerFile> open_poppler(const std::string& path, const std::string& password);

// The module's entry point (extern "C", found with dlsym): the open document, or nullptr with
// *status saying why (and *error when Failed).
using OpenPopplerFn = PopplerFile* (*)(const char* path, const char* password, PopplerOpen* status,
                                       std::string* error);
inline constexpr const char* kOpenPopplerSymbol = "quire_open_poppler";

}  // namespace quire::detail
