// Books built by hand for the export tests, and small file helpers.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "quire/export.h"
#include "quire/model.h"

namespace quire::test {

// A folder under the system temp dir, removed when the test ends.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name);
  ~TempDir();
  std::string str() const { return path.string(); }
};

std::string read(const std::filesystem::path&);
void write(const std::filesystem::path&, const std::string&);

Block block(BlockType type, std::string text, int page = 1, int level = 0);

// A small technical book: preface, three numbered chapters, an appendix; headings, prose,
// a code listing, list items, a figure with its caption, a footnote, a table, a note;
// furniture removals, hyphen joins, excluded matter.
Book sample_book(const std::string& id = "ringlog");

// PNG bytes for a figure (a valid 1x1 image; its bytes differ per page, so figures differ).
std::string tiny_png(int page);
RenderFigure png_renderer();

// export_book for each book then export_index, into out.
void export_corpus(std::vector<Book>& books, const std::string& out, const CorpusMap* map = nullptr);

// All regular files under root (relative, generic form), sorted.
std::vector<std::string> list_files(const std::filesystem::path& root);

}  // namespace quire::test
