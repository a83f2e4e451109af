// quire diff: identical corpora, changed chapters as unified diffs, added/removed chapters
// and figures (by SHA-256).
#include <gtest/gtest.h>

#include <sstream>

#include "helpers.h"
#include "quire/error.h"

namespace quire {
namespace {

namespace fs = std::filesystem;

struct DiffFixture : ::testing::Test {
  test::TempDir a{"diff-a"}, b{"diff-b"};
  void SetUp() override {
    std::vector<Book> one = {test::sample_book()}, two = {test::sample_book()};
    test::export_corpus(one, a.str());
    test::export_corpus(two, b.str());
  }
  std::pair<bool, std::string> diff() {
    std::ostringstream out;
    bool same = diff_corpora(a.str(), b.str(), out);
    return {same, out.str()};
  }
};

TEST_F(DiffFixture, IdenticalCorporaHaveNoOutput) {
  auto [same, out] = diff();
  EXPECT_TRUE(same);
  EXPECT_EQ(out, "");
}

TEST_F(DiffFixture, ChangedTextIsAUnifiedDiff) {
  test::write(b.path / "notes.txt", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n");
  test::write(a.path / "notes.txt", "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\n");
  auto [same, out] = diff();
  EXPECT_FALSE(same);
  EXPECT_EQ(out,
            "--- expected/notes.txt\n+++ actual/notes.txt\n"
            "@@ -1,10 +1,11 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n h\n i\n j\n+k\n");
}

TEST_F(DiffFixture, DistantChangesAreSeparateHunks) {
  std::string base;
  for (int i = 1; i <= 30; ++i) base += "line " + std::to_string(i) + "\n";
  std::string changed = base;
  changed.replace(changed.find("line 2\n"), 7, "line two\n");
  changed.replace(changed.find("line 25\n"), 8, "");
  test::write(b.path / "notes.txt", base);
  test::write(a.path / "notes.txt", changed);
  auto [same, out] = diff();
  EXPECT_EQ(out,
            "--- expected/notes.txt\n+++ actual/notes.txt\n"
            "@@ -1,5 +1,5 @@\n line 1\n-line 2\n+line two\n line 3\n line 4\n line 5\n"
            "@@ -22,7 +22,6 @@\n line 22\n line 23\n line 24\n-line 25\n line 26\n line 27\n line 28\n");
}

TEST_F(DiffFixture, ChapterChangeShowsInMarkdownAndBlocks) {
  std::vector<Book> changed = {test::sample_book()};
  changed[0].chapters[4].blocks[1].text = "ring: a circular buffer.";
  test::export_corpus(changed, a.str());
  auto [same, out] = diff();
  EXPECT_FALSE(same);
  EXPECT_NE(out.find("--- expected/books/ringlog/05-glossary.md\n+++ actual/books/ringlog/05-glossary.md\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("-ring: a buffer.\n+ring: a circular buffer.\n"), std::string::npos) << out;
  EXPECT_NE(out.find("+++ actual/books/ringlog/05-glossary.json\n"), std::string::npos) << out;
  EXPECT_NE(out.find("+++ actual/corpus.jsonl\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("actual/site/"), std::string::npos) << out;  // the site is derived, not compared
}

TEST_F(DiffFixture, AChangeOfStyleOrLinkIsNamed) {
  // The same words styled or linked otherwise: the JSON's diff shows numbers, so the runs that
  // changed are named with their words.
  std::vector<Book> changed = {test::sample_book()};
  Block& b = changed[0].chapters[4].blocks[1];
  b.styles = {{0, 4, InlineStyle::Code}};
  b.links = {{6, 8, "https://example.org/ring"}};
  test::export_corpus(changed, a.str());
  auto [same, out] = diff();
  EXPECT_FALSE(same);
  EXPECT_NE(out.find("styles and links changed in books/ringlog/05-glossary.json:\n"
                     "  block 2 (page " + std::to_string(b.page) + "): + code \"ring\"\n"
                     "  block 2 (page " + std::to_string(b.page) + "): + link \"a buffer\" -> https://example.org/ring\n"),
            std::string::npos)
      << out;
}

TEST_F(DiffFixture, NamesAddedAndRemovedChaptersAndFigures) {
  fs::remove(a.path / "books/ringlog/05-glossary.md");
  fs::remove(a.path / "books/ringlog/05-glossary.json");
  test::write(a.path / "books/ringlog/06-extra.md", "# Extra\n");
  test::write(a.path / "books/ringlog/06-extra.json", "{}\n");
  fs::remove(a.path / "books/ringlog/figures/02-getting-started-1.png");
  test::write(a.path / "books/ringlog/figures/03-the-capture-pipeline-1.png", "abc");
  test::write(a.path / "books/ringlog/figures/09-new-1.png", "");
  auto [same, out] = diff();
  EXPECT_FALSE(same);
  EXPECT_NE(out.find("chapter removed: ringlog/05-glossary\n"), std::string::npos) << out;
  EXPECT_NE(out.find("chapter added: ringlog/06-extra\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("05-glossary.json"), std::string::npos) << out;  // named once, with its chapter
  EXPECT_NE(out.find("figure removed: books/ringlog/figures/02-getting-started-1.png (sha256 "), std::string::npos);
  // SHA-256 test vectors (FIPS 180-2): "abc" and the empty string.
  EXPECT_NE(out.find("figure changed: books/ringlog/figures/03-the-capture-pipeline-1.png (sha256 ") , std::string::npos);
  EXPECT_NE(out.find("-> ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad)\n"), std::string::npos)
      << out;
  EXPECT_NE(out.find("figure added: books/ringlog/figures/09-new-1.png "
                     "(sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855)\n"),
            std::string::npos)
      << out;
}

TEST(Diff, LongInputHashesMatchTheStandardVector) {
  // FIPS 180-2 vector for the 448-bit message, which crosses into a second padding block.
  test::TempDir a("diff-hash-a"), b("diff-hash-b");
  for (auto* d : {&a, &b}) test::write(d->path / "manifest.json", "{}\n");
  test::write(a.path / "books/x/figures/f.png", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq");
  std::ostringstream out;
  EXPECT_FALSE(diff_corpora(a.str(), b.str(), out));
  EXPECT_NE(out.str().find("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"), std::string::npos)
      << out.str();
}

TEST(Diff, NotACorpusIsAnError) {
  test::TempDir a("diff-empty");
  std::ostringstream out;
  EXPECT_THROW(diff_corpora(a.str(), a.str(), out), Error);
}

}  // namespace
}  // namespace quire
