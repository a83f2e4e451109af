// map.toml: every kind of error names FILE:LINE:COLUMN; chapter references resolve by
// number or title.
#include <gtest/gtest.h>

#include "helpers.h"
#include "quire/error.h"

namespace quire {
namespace {

namespace fs = std::filesystem;

const std::string kGood = R"(title = "Systems — learning map"
intro = "Click a chapter."

[[books]]
id = "fregly"
file = "fregly.pdf"
title = "AI Systems Performance Engineering"
authors = ["Chris Fregly"]
short = "Fregly"

[[books]]
id = "petrov"
file = "sub/petrov.pdf"

[[sections]]
title = "GPU"
chapters = [
  { book = "fregly", chapter = 2, title = "Hardware overview" },
  { book = "petrov", chapter = "Leader Election" },
]

[[notes]]
title = "Suggested reading order"
items = ["Fregly 6-9", "Petrov 8-14"]

[[gaps]]
topic = "MLIR"
note = "no book"
)";

struct MapFixture : ::testing::Test {
  test::TempDir dir{"map"};
  void SetUp() override {
    test::write(dir.path / "fregly.pdf", "%PDF-1.4\n");
    test::write(dir.path / "sub/petrov.pdf", "%PDF-1.4\n");
  }
  std::string write_map(const std::string& text) {
    test::write(dir.path / "map.toml", text);
    return (dir.path / "map.toml").string();
  }
};

TEST_F(MapFixture, ReadsAGoodMap) {
  CorpusMap m = read_map(write_map(kGood), "");
  EXPECT_EQ(m.title, "Systems — learning map");
  EXPECT_EQ(m.intro, "Click a chapter.");
  ASSERT_EQ(m.books.size(), 2u);
  EXPECT_EQ(m.books[0].authors, std::vector<std::string>{"Chris Fregly"});
  EXPECT_EQ(m.books[0].short_name, "Fregly");
  EXPECT_EQ(m.books[1].file, "sub/petrov.pdf");
  ASSERT_EQ(m.sections.size(), 1u);
  ASSERT_EQ(m.sections[0].chapters.size(), 2u);
  EXPECT_EQ(std::get<int>(m.sections[0].chapters[0].chapter), 2);
  EXPECT_EQ(m.sections[0].chapters[0].title, "Hardware overview");
  EXPECT_EQ(std::get<std::string>(m.sections[0].chapters[1].chapter), "Leader Election");
  EXPECT_EQ(m.sections[0].chapters[1].pos.line, 19);
  EXPECT_EQ(m.sections[0].chapters[1].pos.column, 3);
  EXPECT_EQ(m.notes[0].items.size(), 2u);
  EXPECT_EQ(m.gaps[0].topic, "MLIR");
}

TEST_F(MapFixture, PdfDirOverridesTheMapsFolder) {
  test::TempDir other("map-pdfdir");
  test::write(other.path / "fregly.pdf", "x");
  EXPECT_THROW(read_map(write_map(kGood), other.str()), Error);  // sub/petrov.pdf is not there
  test::write(other.path / "sub/petrov.pdf", "x");
  EXPECT_NO_THROW(read_map(write_map(kGood), other.str()));
}

struct BadMap {
  const char* what;
  std::string from, to;  // replace `from` in kGood by `to`
  int line, column;
  const char* message;
};

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

TEST_F(MapFixture, EveryErrorNamesFileLineAndColumn) {
  const std::vector<BadMap> cases = {
      {"unknown top-level key", "intro = ", "intra = ", 2, 1, "unknown key \"intra\" in the map"},
      {"unknown key in a book", "short = ", "shrot = ", 9, 1, "unknown key \"shrot\" in [[books]]"},
      {"unknown key in a chapter entry", "chapter = \"Leader", "chapt = \"Leader", 19, 22,
       "unknown key \"chapt\" in a chapter entry"},
      {"wrong type", "title = \"AI Systems Performance Engineering\"", "title = 3", 7, 9,
       "\"title\" must be a string"},
      {"authors not strings", "authors = [\"Chris Fregly\"]", "authors = [1]", 8, 12, "must contain only strings"},
      {"duplicate id", "id = \"petrov\"", "id = \"fregly\"", 12, 6, "duplicate book id \"fregly\" (first at "},
      {"bad id", "id = \"petrov\"", "id = \"Petrov DB\"", 12, 6, "must be made of a-z, 0-9 and '-'"},
      {"unknown book", "{ book = \"petrov\"", "{ book = \"petrof\"", 19, 12, "unknown book \"petrof\""},
      {"missing PDF", "file = \"sub/petrov.pdf\"", "file = \"sub/nope.pdf\"", 13, 8, "PDF file not found: "},
      {"chapter of a wrong type", "chapter = 2,", "chapter = 2.5,", 18, 32, "must be a number or a title"},
      {"chapter number below 1", "chapter = 2,", "chapter = 0,", 18, 32, "chapter number must be 1 or more"},
      {"missing chapter", ", chapter = \"Leader Election\"", "", 19, 3, "needs \"chapter\""},
      {"missing id", "id = \"petrov\"\n", "", 11, 1, "[[books]] needs \"id\""},
      {"chapters not tables", "chapters = [\n  { book = \"fregly\", chapter = 2, title = \"Hardware overview\" },",
       "chapters = [\"fregly 2\",", 17, 13, "each entry of \"chapters\" must be a table"},
      {"TOML syntax", "note = \"no book\"", "note = \"no book", 28, 16, "unescaped control characters"},
  };
  for (const auto& c : cases) {
    std::string path = write_map(replaced(kGood, c.from, c.to));
    try {
      read_map(path, "");
      ADD_FAILURE() << c.what << ": no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code, ExitCode::BadMap) << c.what;
      std::string want = path + ":" + std::to_string(c.line) + ":" + std::to_string(c.column) + ": ";
      std::string msg = e.message();
      EXPECT_EQ(msg.substr(0, want.size()), want) << c.what << ": " << msg;
      EXPECT_NE(msg.find(c.message), std::string::npos) << c.what << ": " << msg;
    }
  }
}

TEST_F(MapFixture, MissingMapFileIsNotFound) {
  try {
    read_map((dir.path / "absent.toml").string(), "");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code, ExitCode::NotFound);
  }
}

TEST(ResolveChapter, ByNumberTitleAndSubstring) {
  Book book = test::sample_book();  // Preface, 1 Getting Started, 2 The Capture Pipeline, 3 Writing Plugins, A Glossary
  auto ref = [](std::variant<int, std::string> c) {
    MapChapterRef r;
    r.book = "ringlog";
    r.chapter = std::move(c);
    r.pos = {"map.toml", 7, 3};
    return r;
  };
  EXPECT_EQ(resolve_chapter(ref(1), book), 1u);
  EXPECT_EQ(resolve_chapter(ref(3), book), 3u);
  EXPECT_EQ(resolve_chapter(ref("the capture PIPELINE"), book), 2u);
  EXPECT_EQ(resolve_chapter(ref("Glossary"), book), 4u);
  EXPECT_EQ(resolve_chapter(ref("plugins"), book), 3u);  // unique substring
  for (auto bad : {ref(4), ref("ing"), ref("Nothing like it")}) {
    try {
      resolve_chapter(bad, book);
      ADD_FAILURE() << "resolved";
    } catch (const Error& e) {
      EXPECT_EQ(e.code, ExitCode::BadMap);
      std::string m = e.message();
      EXPECT_EQ(m.substr(0, 13), "map.toml:7:3:") << m;
      EXPECT_NE(m.find("\n  1  Getting Started\n  2  The Capture Pipeline"), std::string::npos) << m;
      EXPECT_NE(m.find("\n  A  Glossary"), std::string::npos) << m;
    }
  }
  // Several matches are named.
  try {
    resolve_chapter(ref("ing"), book);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("\"Getting Started\", \"Writing Plugins\""), std::string::npos) << e.what();
  }
}

TEST(ResolveChapter, UnnumberedBookCountsBodyChapters) {
  Book book = test::sample_book();
  for (auto& c : book.chapters) c.number.clear();
  MapChapterRef r;
  r.book = "ringlog";
  r.chapter = 2;
  EXPECT_EQ(resolve_chapter(r, book), 2u);  // Preface is front matter
}

TEST(ResolveChapter, ExportIndexRejectsAnUnresolvedReference) {
  std::vector<Book> books = {test::sample_book()};
  CorpusMap map;
  map.path = "map.toml";
  MapChapterRef r;
  r.book = "ringlog";
  r.chapter = "No such chapter";
  r.pos = {"map.toml", 3, 5};
  map.sections = {{"S", {r}}};
  test::TempDir out("unresolved");
  export_book(books[0], out.str(), test::png_renderer());
  try {
    export_index(out.str(), {"ringlog"}, &map);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code, ExitCode::BadMap);
    EXPECT_EQ(std::string(e.what()).substr(0, 13), "map.toml:3:5:");
  }
}

}  // namespace
}  // namespace quire
