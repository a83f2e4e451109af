// `quire merge` at cluster scale: a thousand shard outputs, one book each, joined into one
// corpus. Building a thousand books would take minutes, so the test builds four real books in
// four shards once, checks that a shard made by renaming a built book (its id written anew in
// its files) is byte for byte the shard a build of that book makes, and then makes the
// thousand shards that way. No timing is asserted: the merge's seconds are printed, and
// bench/merge.sh measures them.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <sstream>

#include "quire/json.h"
#include "run.h"

namespace quire::test {
namespace {

constexpr int kShards = 1000;

// A book id that appears nowhere in a book's files but where the id stands (the file name
// of its source included), so that writing another id in its place renames the book.
std::string book_id(int i) {
  char name[32];
  std::snprintf(name, sizeof name, "zq-book-%04d", i);
  return name;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// The folder books/<from>/ of a built shard, as books/<to>/ of a shard of another book: every
// text file with the id written anew; images (which do not hold it) hard-linked.
void copy_book_renamed(const fs::path& from_dir, const std::string& from, const fs::path& to_dir, const std::string& to) {
  fs::create_directories(to_dir);
  for (const auto& e : fs::recursive_directory_iterator(from_dir)) {
    const fs::path target = to_dir / fs::relative(e.path(), from_dir);
    if (e.is_directory()) {
      fs::create_directories(target);
    } else if (e.path().extension() == ".png") {
      fs::create_hard_link(e.path(), target);
    } else {
      std::ofstream(target, std::ios::binary) << replace_all(read_file(e.path()), from, to);
    }
  }
}

// shard.json as `quire build --shard I/N` writes it.
std::string shard_info(int index, int count, const std::vector<std::string>& ids) {
  Json j;
  j["format"] = "quire-shard/1";
  j["index"] = index;
  j["count"] = count;
  j["books"] = ids;
  return dump(j, true);
}

// Shard I of N holding the one book ids[I], renamed from the book `from` of the built shard
// `built`.
void make_shard(const fs::path& dir, int index, const std::vector<std::string>& ids, const fs::path& built,
                const std::string& from) {
  fs::create_directories(dir / "books");
  copy_book_renamed(built / "books" / from, from, dir / "books" / ids[index], ids[index]);
  std::ofstream(dir / "shard.json", std::ios::binary) << shard_info(index, static_cast<int>(ids.size()), ids);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool same_tree(const fs::path& a, const fs::path& b, std::string* why) {
  auto r = run_command("diff -r -q " + shell_quote(a) + " " + shell_quote(b));
  *why = r.out.substr(0, 2000);
  return r.code == 0;
}

bool built(int code) { return code == 0 || code == 3; }

TEST(MergeScale, AThousandShardsMergeIntoOneCorpusInBookOrderWhateverTheShardOrder) {
  TempDir t("merge-scale");
  // Two kinds of book, one with figures (fx-classic) and one without (fx-plain), alternating.
  const std::vector<std::string> templates = {"fx-plain.pdf", "fx-classic.pdf"};
  fs::path in = t.path / "in";
  fs::create_directories(in);
  std::vector<std::string> four;
  for (int i = 0; i < 4; ++i) {
    four.push_back(book_id(i));
    fs::create_symlink(fixture_books() / templates[i % 2], in / (book_id(i) + ".pdf"));
  }
  // The real thing, four books in four shards.
  for (int i = 0; i < 4; ++i) {
    auto b = run_quire("build " + shell_quote(in) + " -o " + shell_quote(t.path / ("real" + std::to_string(i))) +
                       " --quiet --shard " + std::to_string(i) + "/4");
    ASSERT_TRUE(built(b.code)) << b.out;
  }
  // Renaming books 0 and 1 gives shards 2 and 3 byte for byte (their shard.json included).
  std::string why;
  for (int i = 2; i < 4; ++i) {
    const fs::path made = t.path / ("made" + std::to_string(i));
    make_shard(made, i, four, t.path / ("real" + std::to_string(i % 2)), book_id(i % 2));
    EXPECT_EQ(read_file(made / "shard.json"), read_file(t.path / ("real" + std::to_string(i)) / "shard.json"));
    EXPECT_TRUE(same_tree(made / "books", t.path / ("real" + std::to_string(i)) / "books", &why)) << why;
  }
  // The merge of the four real shards: its corpus lines and manifest entries of books 0 and 1
  // are the templates of the thousand.
  std::string four_shards;
  for (int i = 0; i < 4; ++i) four_shards += " " + shell_quote(t.path / ("real" + std::to_string(i)));
  auto m4 = run_quire("merge" + four_shards + " -o " + shell_quote(t.path / "merged4") + " --jobs 2");
  ASSERT_EQ(m4.code, 0) << m4.out;
  std::vector<std::vector<std::string>> template_lines(2);
  for (const auto& line : lines_of(read_file(t.path / "merged4" / "corpus.jsonl"))) {
    const std::string book = Json::parse(line).at("book");
    if (book == book_id(0)) template_lines[0].push_back(line);
    if (book == book_id(1)) template_lines[1].push_back(line);
  }
  ASSERT_FALSE(template_lines[0].empty());
  ASSERT_FALSE(template_lines[1].empty());
  const Json manifest4 = Json::parse(read_file(t.path / "merged4" / "manifest.json"));
  ASSERT_EQ(manifest4.at("books").size(), 4u);
  // Without the site, the same corpus but site/.
  auto bare = run_quire("merge" + four_shards + " -o " + shell_quote(t.path / "bare4") + " --no-site");
  ASSERT_EQ(bare.code, 0) << bare.out;
  EXPECT_FALSE(fs::exists(t.path / "bare4" / "site"));
  EXPECT_EQ(run_command("diff -r -q -x site " + shell_quote(t.path / "merged4") + " " + shell_quote(t.path / "bare4")).code, 0);
  // Linked instead of copied: the same bytes, and the shards' files.
  auto linked = run_quire("merge" + four_shards + " -o " + shell_quote(t.path / "linked4") + " --link");
  ASSERT_EQ(linked.code, 0) << linked.out;
  EXPECT_TRUE(same_tree(t.path / "merged4", t.path / "linked4", &why)) << why;
  EXPECT_TRUE(fs::equivalent(t.path / "linked4" / "books" / book_id(1) / "book.json",
                             t.path / "real1" / "books" / book_id(1) / "book.json"));
  EXPECT_FALSE(fs::equivalent(t.path / "merged4" / "books" / book_id(1) / "book.json",
                              t.path / "real1" / "books" / book_id(1) / "book.json"));

  // The thousand shards, one book each.
  std::vector<std::string> ids;
  for (int i = 0; i < kShards; ++i) ids.push_back(book_id(i));
  std::vector<std::string> shard_dirs;
  for (int i = 0; i < kShards; ++i) {
    const fs::path dir = t.path / "shards" / ("s" + std::to_string(i));
    make_shard(dir, i, ids, t.path / ("real" + std::to_string(i % 2)), book_id(i % 2));
    shard_dirs.push_back(shell_quote(dir));
  }
  auto merge = [&](const std::vector<std::string>& dirs, const std::string& out, int jobs, const std::string& more = "") {
    std::string args;
    for (const auto& d : dirs) args += " " + d;
    const auto started = std::chrono::steady_clock::now();
    auto r = run_quire("merge" + args + " -o " + shell_quote(t.path / out) + " --jobs " + std::to_string(jobs) + more);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("merge of %zu shards at --jobs %d%s: %.2f s\n", dirs.size(), jobs, more.c_str(), seconds);
    return r;
  };
  auto first = merge(shard_dirs, "merged", 2);
  ASSERT_EQ(first.code, 0) << first.out;

  // corpus.jsonl: every chapter of every book, books in id order, each line its template's
  // with the book's id.
  const std::string corpus = read_file(t.path / "merged" / "corpus.jsonl");
  std::string expected;
  size_t chapters = 0;
  for (int i = 0; i < kShards; ++i)
    for (const auto& line : template_lines[i % 2]) {
      expected += replace_all(line, book_id(i % 2), book_id(i)) + "\n";
      ++chapters;
    }
  EXPECT_EQ(lines_of(corpus).size(), chapters);
  EXPECT_TRUE(corpus == expected) << "corpus.jsonl is not the books' chapters in book order";

  // manifest.json: the thousand books in id order, each entry its template's with its id.
  const Json manifest = Json::parse(read_file(t.path / "merged" / "manifest.json"));
  ASSERT_EQ(manifest.at("books").size(), static_cast<size_t>(kShards));
  for (int i = 0; i < kShards; ++i) {
    const Json& entry = manifest.at("books")[i];
    ASSERT_EQ(entry.at("id"), book_id(i));
    const Json want =
        Json::parse(replace_all(dump(manifest4.at("books")[i % 2], false), book_id(i % 2), book_id(i)));
    EXPECT_EQ(entry, want) << "manifest entry of " << book_id(i);
  }
  EXPECT_EQ(manifest.at("sections").size(), static_cast<size_t>(kShards));

  // Every book folder, and a page of the site per chapter.
  size_t book_dirs = 0, chapter_pages = 0;
  for (const auto& e : fs::directory_iterator(t.path / "merged" / "books")) book_dirs += e.is_directory();
  for (const auto& e : fs::recursive_directory_iterator(t.path / "merged" / "site"))
    chapter_pages += e.is_regular_file() && e.path().extension() == ".html" &&
                     e.path().parent_path().filename().string().starts_with("zq-book-");
  EXPECT_EQ(book_dirs, static_cast<size_t>(kShards));
  EXPECT_EQ(chapter_pages, chapters);
  EXPECT_TRUE(same_tree(t.path / "shards" / "s999" / "books" / book_id(999),
                        t.path / "merged" / "books" / book_id(999), &why)) << why;

  // The same bytes from the shards in reverse order (listed in a file) at one job, and in a
  // shuffled order with the books linked.
  std::vector<std::string> reversed(shard_dirs.rbegin(), shard_dirs.rend());
  {
    // The list from a file, as a merge of more shards than a command line holds takes it.
    std::ofstream list(t.path / "reversed.txt");
    for (const auto& d : reversed) list << d.substr(1, d.size() - 2) << "\n";  // unquoted
  }
  auto second = run_quire("merge --shards-from " + shell_quote(t.path / "reversed.txt") + " -o " +
                          shell_quote(t.path / "reversed") + " --jobs 1");
  ASSERT_EQ(second.code, 0) << second.out;
  EXPECT_TRUE(same_tree(t.path / "merged", t.path / "reversed", &why)) << why;
  std::vector<std::string> shuffled = shard_dirs;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(32));
  auto third = merge(shuffled, "shuffled", 2, " --link");
  ASSERT_EQ(third.code, 0) << third.out;
  EXPECT_TRUE(same_tree(t.path / "merged", t.path / "shuffled", &why)) << why;

  // One shard short of the thousand is an error that names the missing one.
  std::vector<std::string> short_one = shard_dirs;
  short_one.erase(short_one.begin() + 500);
  auto missing = merge(short_one, "short", 2);
  EXPECT_NE(missing.code, 0);
  EXPECT_NE(missing.out.find("shard 500/1000 is missing"), std::string::npos) << missing.out;
  EXPECT_FALSE(fs::exists(t.path / "short"));
}


// Merge reads a shard.json that is the first one's text but for its index without parsing
// it (a cluster's shards each name every book); any other file is parsed and compared.
TEST(MergeScale, EveryShardListIsCheckedWhetherOrNotItIsTheFirstOnesText) {
  TempDir t("merge-lists");
  fs::path in = t.path / "in";
  fs::create_directories(in);
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    ids.push_back(book_id(i));
    fs::create_symlink(fixture_books() / "fx-plain.pdf", in / (book_id(i) + ".pdf"));
  }
  std::string shards;
  for (int i = 0; i < 3; ++i) {
    const fs::path dir = t.path / ("s" + std::to_string(i));
    auto b = run_quire("build " + shell_quote(in) + " -o " + shell_quote(dir) + " --quiet --shard " + std::to_string(i) + "/3");
    ASSERT_TRUE(built(b.code)) << b.out;
    shards += " " + shell_quote(dir);
  }
  auto good = run_quire("merge" + shards + " -o " + shell_quote(t.path / "good"));
  ASSERT_EQ(good.code, 0) << good.out;
  const fs::path last = t.path / "s2" / "shard.json";
  const std::string original = read_file(last);
  ASSERT_EQ(original, shard_info(2, 3, ids));
  auto merge_with = [&](const std::string& text, const std::string& out) {
    std::ofstream(last, std::ios::binary | std::ios::trunc) << text;
    return run_quire("merge" + shards + " -o " + shell_quote(t.path / out));
  };
  // The same content in another layout: parsed, and the same corpus.
  auto compact = merge_with(dump(Json::parse(original), false), "compact");
  EXPECT_EQ(compact.code, 0) << compact.out;
  std::string why;
  EXPECT_TRUE(same_tree(t.path / "good", t.path / "compact", &why)) << why;
  // Another book list, N or index: refused, whatever the layout.
  std::vector<std::string> other = ids;
  other[1] = "zq-book-9999";
  for (bool pretty : {true, false}) {
    Json j = Json::parse(shard_info(2, 3, other));
    auto r = merge_with(dump(j, pretty), "other-list");
    EXPECT_EQ(r.code, 10) << r.out;
    EXPECT_NE(r.out.find("belongs to another build"), std::string::npos) << r.out;
    j = Json::parse(shard_info(2, 4, ids));
    r = merge_with(dump(j, pretty), "other-count");
    EXPECT_EQ(r.code, 10) << r.out;
    EXPECT_NE(r.out.find("belongs to another build"), std::string::npos) << r.out;
    j = Json::parse(shard_info(0, 3, ids));
    r = merge_with(dump(j, pretty), "twice");
    EXPECT_EQ(r.code, 10) << r.out;
    EXPECT_NE(r.out.find("shard 0 given twice"), std::string::npos) << r.out;
  }
  // An index with a leading zero or a sign is not the first one's text: parsed (and a JSON
  // parser refuses a leading zero).
  auto zero = merge_with(replace_all(original, "\"index\": 2", "\"index\": 02"), "zero");
  EXPECT_EQ(zero.code, 10) << zero.out;
  EXPECT_FALSE(fs::exists(t.path / "other-list"));
  EXPECT_FALSE(fs::exists(t.path / "zero"));
}

}  // namespace
}  // namespace quire::test
