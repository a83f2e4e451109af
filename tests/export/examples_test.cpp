// The maps in examples/ parse, and the learning map of eight books renders on the index page.
#include <gtest/gtest.h>

#include "helpers.h"
#include "quire/error.h"

namespace quire {
namespace {

namespace fs = std::filesystem;
const fs::path kExamples = fs::path(QUIRE_SOURCE_DIR) / "examples";

TEST(Examples, FixtureMapReadsAgainstTheFixtureBooks) {
  CorpusMap m = read_map((kExamples / "fixtures/map.toml").string(), QUIRE_SOURCE_DIR "/fixtures/books");
  EXPECT_EQ(m.books.size(), 2u);
  EXPECT_EQ(m.sections.size(), 3u);
}

TEST(Examples, RManualsMapReadsWhenTheManualsAreInstalled) {
  const std::string dir = "/usr/share/R/doc/manual";
  if (!fs::exists(dir + "/R-intro.pdf")) GTEST_SKIP() << "r-doc-pdf is not installed";
  CorpusMap m = read_map((kExamples / "r-manuals/map.toml").string(), dir);
  EXPECT_EQ(m.books.size(), 7u);
}

TEST(Examples, LearningMapNeedsItsPdfsAndNamesTheFirstMissingOne) {
  const std::string path = (kExamples / "learning-map/map.toml").string();
  test::TempDir empty("no-pdfs");
  try {
    read_map(path, empty.str());
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("PDF file not found"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("fregly-ai-systems-performance-engineering.pdf"), std::string::npos);
  }
}

// Eight books built by hand, with printed chapter numbers 1-24 and the titles that the
// map's references by title look for.
TEST(Examples, LearningMapRendersAllItsParts) {
  const std::string path = (kExamples / "learning-map/map.toml").string();
  test::TempDir pdfs("pdfs"), out("learning-map");
  // Placeholder files so that the map's file checks pass; the books are made below.
  for (const char* f :
       {"fregly-ai-systems-performance-engineering.pdf", "petrov-database-internals.pdf",
        "indrasiri-kuruppu-grpc-up-and-running.pdf", "blandy-orendorff-tindall-programming-rust-2nd-ed.pdf",
        "bos-rust-atomics-and-locks.pdf", "samson-asynchronous-programming-in-rust.pdf",
        "sarda-pandey-llvm-essentials.pdf", "hsu-llvm-techniques-tips-and-best-practices.pdf"})
    test::write(pdfs.path / f, "%PDF-1.7\n");
  CorpusMap map = read_map(path, pdfs.str());
  ASSERT_EQ(map.books.size(), 8u);
  std::vector<Book> books;
  for (const auto& mb : map.books) {
    Book b;
    b.id = mb.id;
    b.title = mb.title;
    b.authors = mb.authors;
    b.file = mb.file;
    for (int k = 1; k <= 24; ++k) {
      Chapter c;
      c.number = std::to_string(k);
      c.title = "Chapter " + c.number + " of " + mb.title;
      c.first_page = c.last_page = k;
      c.blocks = {test::block(BlockType::Paragraph, "Text of chapter " + c.number + ".", k)};
      b.chapters.push_back(c);
    }
    if (mb.id == "fregly")
      for (const char* t : {"CUTLASS and CuTe", "Writing Triton Kernels", "Speculative Decoding",
                            "Quantization for Inference", "Optimization Checklist"}) {
        Chapter c;
        c.title = t;
        c.first_page = c.last_page = 30;
        b.chapters.push_back(c);
      }
    books.push_back(std::move(b));
  }
  test::export_corpus(books, out.str(), &map);
  std::string index = test::read(out.path / "site/index.html");
  auto has = [&](const std::string& s) { return index.find(s) != std::string::npos; };
  EXPECT_TRUE(has("<h1>Systems Performance Engineering — learning map</h1>"));
  EXPECT_TRUE(has("<p class=\"counts\">Eight books, 65 chapters.</p>"));
  EXPECT_TRUE(has("<h2>Not in these eight books</h2>"));
  EXPECT_TRUE(has("<b>gRPC</b> — <cite>gRPC: Up and Running</cite> — Kasun Indrasiri &amp; Danesh Kuruppu"));
  EXPECT_TRUE(has("<b>Rust</b> — <cite>Programming Rust, 2nd ed.</cite> — Blandy, Orendorff, Tindall"));
  size_t s = 0;
  for (const auto& sec : map.sections) {
    EXPECT_TRUE(has("<span class=\"num\">" + std::to_string(++s) + ".</span> " + sec.title + "</h2>")) << sec.title;
    for (const auto& e : sec.chapters) EXPECT_TRUE(has("\">" + e.title + "</a>")) << e.title;
  }
  EXPECT_EQ(s, 8u);
  for (const auto& item : map.notes.at(0).items) {
    std::string escaped = item;
    for (size_t at; (at = escaped.find("->")) != std::string::npos;) escaped.replace(at, 2, "-&gt;");
    EXPECT_TRUE(has("<li>" + escaped + "</li>")) << item;
  }
  for (const auto& g : map.gaps) EXPECT_TRUE(has("<dt>" + g.topic + "</dt><dd>" + g.note + "</dd>")) << g.topic;
}

}  // namespace
}  // namespace quire
