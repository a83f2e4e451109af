// Builds a corpus from the fixture books' ground truth (fixtures/books/*.gt.json: chapters
// and blocks exactly as typeset) with the fixture map, figures rendered from the PDFs. The
// browser test runs against it whatever state the layout stage is in.
//
//   quire_demo_corpus SOURCE_DIR OUT
#include <filesystem>
#include <fstream>
#include <iostream>

#include "quire/error.h"
#include "quire/export.h"
#include "quire/extract.h"
#include "quire/json.h"

namespace fs = std::filesystem;
using namespace quire;

namespace {

// A figure's box on its page: the raster images there, else the vector paths (a TikZ
// drawing is the only vector art on the fixture pages that carry a figure).
Box figure_box(const Document& doc, int page, const std::string& kind) {
  Box box;
  bool any = false;
  for (const auto& p : doc.pages) {
    if (p.number != page) continue;
    auto add = [&](const Box& b) {
      box = any ? box.united(b) : b;
      any = true;
    };
    if (kind == "raster")
      for (const auto& im : p.images) add(im.bbox);
    else
      for (const auto& path : p.paths) add(path.bbox);
  }
  return box;
}

Book book_from_truth(const fs::path& gt_path, const fs::path& pdf) {
  std::ifstream in(gt_path);
  Json gt = Json::parse(in);
  Document doc = extract_document(pdf.string(), {});
  Book b;
  b.id = gt.at("book").get<std::string>();
  b.title = gt.at("title").get<std::string>();
  b.file = pdf.filename().string();
  b.sha256 = doc.sha256;
  b.page_count = doc.page_count;
  for (const auto& cj : gt.at("chapters")) {
    Chapter c;
    c.title = cj.at("title").get<std::string>();
    if (cj.contains("number") && cj["number"].is_string()) c.number = cj["number"].get<std::string>();
    if (cj.value("front_matter", false)) c.kind = ChapterKind::Front;
    else if (!c.number.empty() && !std::isdigit(static_cast<unsigned char>(c.number[0]))) c.kind = ChapterKind::Appendix;
    c.first_page = cj.at("pages")[0];
    c.last_page = cj.at("pages")[1];
    for (const auto& bj : cj.at("blocks")) {
      Block bl;
      bl.type = *block_type_from_string(bj.at("type").get<std::string>());
      bl.level = bj.value("level", 0);
      bl.text = bj.value("text", std::string());
      bl.page = bj.at("page");
      bl.last_page = bj.contains("pages") ? bj["pages"][1].get<int>() : bl.page;
      if (bl.type == BlockType::Figure) {
        bl.figure_ref = "Figure " + bj.value("number", std::string());
        bl.labels = bj.value("labels", std::vector<std::string>{});
        bl.bbox = figure_box(doc, bl.page, bj.value("kind", std::string()));
      }
      c.blocks.push_back(std::move(bl));
    }
    b.chapters.push_back(std::move(c));
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: quire_demo_corpus SOURCE_DIR OUT\n";
    return 2;
  }
  const fs::path src(argv[1]), out(argv[2]);
  try {
    fs::remove_all(out);
    fs::create_directories(out);
    const fs::path books_dir = src / "fixtures/books";
    CorpusMap map = read_map((src / "examples/fixtures/map.toml").string(), books_dir.string());
    std::vector<std::string> ids;
    for (const auto& mb : map.books) {
      Book b = book_from_truth(books_dir / (fs::path(mb.file).stem().string() + ".gt.json"), books_dir / mb.file);
      b.id = mb.id;
      if (!mb.title.empty()) b.title = mb.title;
      PdfRenderer renderer((books_dir / mb.file).string(), "");
      constexpr int kDpi = 150;
      export_book(b, out.string(), [&](const Book&, const Block& bl) { return renderer.png(bl.page, bl.bbox, kDpi); });
      ids.push_back(mb.id);
    }
    export_index(out.string(), ids, &map);
  } catch (const Error& e) {
    std::cerr << "error: " << e.message() << "\n";
    return static_cast<int>(e.code);
  }
  std::cout << (out / "site/index.html").string() << "\n";
  return 0;
}
