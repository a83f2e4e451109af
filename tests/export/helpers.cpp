#include "helpers.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace quire::test {

namespace fs = std::filesystem;

TempDir::TempDir(const std::string& name)
    : path(fs::temp_directory_path() / ("quire-export-" + name + "-" + std::to_string(getpid()))) {
  fs::remove_all(path);
  fs::create_directories(path);
}
TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path, ec);
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write(const fs::path& p, const std::string& s) {
  if (p.has_parent_path()) fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << s;
}

Block block(BlockType type, std::string text, int page, int level) {
  Block b;
  b.type = type;
  b.text = std::move(text);
  b.page = page;
  b.last_page = page;
  b.level = level;
  b.bbox = {72, 100.004, 300.5, 120.256};
  return b;
}

Book sample_book(const std::string& id) {
  Book b;
  b.id = id;
  b.title = "The Ringlog Manual";
  b.authors = {"A. Writer", "B. Editor"};
  b.file = "fx-classic.pdf";
  b.sha256 = std::string(64, 'a');
  b.page_count = 16;

  Chapter pre;
  pre.title = "Preface";
  pre.kind = ChapterKind::Front;
  pre.first_page = pre.last_page = 2;
  pre.blocks = {block(BlockType::Heading, "Preface", 2, 1),
                block(BlockType::Paragraph, "This manual describes ringlog, a small daemon.", 2)};

  Chapter one;
  one.title = "Getting Started";
  one.number = "1";
  one.first_page = 6;
  one.last_page = 8;
  Block code = block(BlockType::Code, "#!/bin/sh\nset -eu\n\nfor unit in a b; do\n    echo \"$unit\" >&2\ndone", 6);
  code.last_page = 7;
  Block fig = block(BlockType::Figure, "", 7);
  fig.figure_ref = "Figure 1.1";
  one.blocks = {block(BlockType::Heading, "1 Getting Started", 6, 1),
                block(BlockType::Paragraph, "Ringlog is meant to stay out of the way.", 6),
                block(BlockType::Heading, "1.1 Installing from Source", 6, 2),
                code,
                block(BlockType::Paragraph, "The build needs a C11 compiler.", 7),
                block(BlockType::Footnote, "Older compilers can still build it.", 7),
                block(BlockType::ListItem, "Create the spool directory.", 7),
                block(BlockType::ListItem, "Enable and start the service.", 7),
                fig,
                block(BlockType::Caption, "Figure 1.1: Ring occupancy during a short burst.", 7)};

  Chapter two;
  two.title = "The Capture Pipeline";
  two.number = "2";
  two.first_page = 9;
  two.last_page = 12;
  Block fig2 = block(BlockType::Figure, "", 9);
  fig2.figure_ref = "Figure 2.1";
  fig2.labels = {"producer", "ring", "flusher", "spool"};
  two.blocks = {block(BlockType::Heading, "2 The Capture Pipeline", 9, 1),
                fig2,
                block(BlockType::Caption, "Figure 2.1: Data flow.", 9),
                block(BlockType::Caption, "Table 2.1: Flush parameters.", 12),
                block(BlockType::Table, "Parameter Default Unit\nflush_interval 500 ms", 12),
                block(BlockType::Note, "Flushing is never skipped.", 12)};

  Chapter three;
  three.title = "Writing Plugins";
  three.number = "3";
  three.first_page = 13;
  three.last_page = 14;
  three.blocks = {block(BlockType::Heading, "3 Writing Plugins", 13, 1),
                  block(BlockType::Code, "def f(x):\n    return x", 13),
                  block(BlockType::Heading, "3.2.1 Sample Files", 14, 3)};

  Chapter app;
  app.title = "Glossary";
  app.number = "A";
  app.kind = ChapterKind::Appendix;
  app.first_page = app.last_page = 15;
  app.blocks = {block(BlockType::Heading, "A Glossary", 15, 1), block(BlockType::Paragraph, "ring: a buffer.", 15)};

  b.chapters = {pre, one, two, three, app};
  b.excluded = {{"Title page", "title-page", 1, 1}, {"Contents", "contents", 3, 3}, {"Index", "index", 16, 16}};
  b.removed = {{6, {300, 40, 310, 50}, "1", "page-number"},
               {7, {72, 40, 200, 50}, "Chapter 1. Getting Started", "running-head"},
               {8, {72, 40, 200, 50}, "1.2 A First Capture", "running-head"}};
  b.joins = {{6, "charac-", "teristically", "characteristically"}};
  return b;
}

std::string tiny_png(int page) {
  // A 1x1 grey PNG, then the page number after IEND (where decoders stop reading), so that
  // figures of different pages have different bytes.
  static const unsigned char kPng[] = {
      0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
      0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3A, 0x7E, 0x9B,
      0x55, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x08, 0xD7, 0x63, 0x60, 0x00, 0x00, 0x00,
      0x02, 0x00, 0x01, 0xE2, 0x21, 0xBC, 0x33, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
      0x42, 0x60, 0x82};
  std::string s(reinterpret_cast<const char*>(kPng), sizeof kPng);
  return s + std::string("page") + std::to_string(page);  // trailing bytes after IEND: ignored by decoders
}

RenderFigure png_renderer() {
  return [](const Book&, const Block& b) { return tiny_png(b.page); };
}

void export_corpus(std::vector<Book>& books, const std::string& out, const CorpusMap* map) {
  std::vector<std::string> ids;
  for (auto& b : books) {
    export_book(b, out, png_renderer());
    ids.push_back(b.id);
  }
  export_index(out, ids, map);
}

std::vector<std::string> list_files(const fs::path& root) {
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) files.push_back(fs::relative(e.path(), root).generic_string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace quire::test
