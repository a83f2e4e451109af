// The spelling dictionary loads only the entries a book's words need: its answers must be
// Hunspell's answers with the whole word list, for every kind of word a book asks about.
#include <gtest/gtest.h>

#include <hunspell/hunspell.hxx>
#include <hyphen.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dictionary.h"
#include "stem_index.h"

namespace quire::detail {
namespace {

namespace fs = std::filesystem;

const std::string kEnglish = "/usr/share/hunspell/en_US";

bool have_english() { return fs::is_regular_file(kEnglish + ".aff") && fs::is_regular_file(kEnglish + ".dic"); }

fs::path copies_dir() { return fs::temp_directory_path() / ("quire-dictionary-test-" + std::to_string(::getpid())); }

// A copy of the English dictionary under another name: a Dictionary of its own, with
// nothing loaded yet.
std::string fresh_copy(const std::string& name) {
  const fs::path dir = copies_dir();
  fs::create_directories(dir);
  fs::copy_file(kEnglish + ".aff", dir / (name + ".aff"), fs::copy_options::overwrite_existing);
  fs::copy_file(kEnglish + ".dic", dir / (name + ".dic"), fs::copy_options::overwrite_existing);
  return (dir / name).string();
}

void remove_copy(const std::string& name) {
  fs::remove(copies_dir() / (name + ".aff"));
  fs::remove(copies_dir() / (name + ".dic"));
  std::error_code ec;
  fs::remove(copies_dir(), ec);  // once empty
}

// Words of every kind a book asks about, made from every `every`th stem of the dictionary:
// inflections and derivations (some real, some not), capitals, parts of hyphenated
// compounds, curly apostrophes, fragments a line-end hyphen leaves; then ordinals, numbers
// and abbreviations. Without `with_stems` the stems themselves are not asked, so that each
// word's answer rests on the entries its own question loads.
std::vector<std::string> sample_words(size_t every, bool with_stems, bool one_form_each = false) {
  std::ifstream in(kEnglish + ".dic");
  std::string line;
  std::getline(in, line);
  std::vector<std::string> words;
  for (size_t i = 0; std::getline(in, line); ++i) {
    if (i % every != 0) continue;
    const std::string stem = line.substr(0, line.find_first_of("/\t "));
    if (stem.empty()) continue;
    std::string upper = stem, capital = stem;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    capital[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(capital[0])));
    if (with_stems)
      for (const std::string& w : {stem, upper, capital}) words.push_back(w);
    const std::vector<std::string> forms = {
        stem + "s",  stem + "es",      stem + "ed",          stem + "ing",      stem + "er",
        stem + "ly", stem + "ness",    stem + "'s",          stem + "’s",       stem + "ions",
        stem + "ability", "un" + stem, "re" + stem + "ed",   "pre" + stem,      upper + "S",
        capital + "s", stem.substr(0, stem.size() / 2), stem.substr(stem.size() / 2), stem + "-based",
        "non-" + stem, stem + "."};
    if (one_form_each) words.push_back(forms[(i / every) % forms.size()]);
    else words.insert(words.end(), forms.begin(), forms.end());
  }
  for (const char* w : {"1st", "21st", "22nd", "103rd", "11th", "4th", "12", "3.14", "2nd-order", "PARIS",
                        "Paris", "paris", "it’s", "etc.", "e.g.", "state-of-the-art", "", "-", "--", "café"})
    words.push_back(w);
  return words;
}

std::vector<bool> whole_list_answers(const std::vector<std::string>& words) {
  Hunspell whole((kEnglish + ".aff").c_str(), (kEnglish + ".dic").c_str());
  std::vector<bool> out;
  for (const std::string& w : words) out.push_back(!w.empty() && whole.spell(w));
  return out;
}

TEST(Dictionary, AnswersAsTheWholeWordListAskedAllAtOnce) {
  if (!have_english()) GTEST_SKIP() << "no " << kEnglish << ".dic (Debian package hunspell-en-us)";
  const std::vector<std::string> words = sample_words(13, false);
  const std::vector<bool> expected = whole_list_answers(words);
  const Dictionary* d = Dictionary::at(fresh_copy("batch"));
  ASSERT_NE(d, nullptr);
  d->prepare(words);
  size_t known = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    EXPECT_EQ(d->knows(words[i]), expected[i]) << words[i];
    known += expected[i] ? 1 : 0;
  }
  remove_copy("batch");
  // The sample holds both kinds, in numbers.
  EXPECT_GT(known, words.size() / 5);
  EXPECT_LT(known, words.size() * 4 / 5);
}

TEST(Dictionary, AnswersAsTheWholeWordListAskedOneByOne) {
  if (!have_english()) GTEST_SKIP() << "no " << kEnglish << ".dic (Debian package hunspell-en-us)";
  // Each question loads its own entries, and the lists are merged again as they grow. One
  // form of each stem, so that no question finds the entries another one loaded.
  const std::vector<std::string> words = sample_words(23, false, true);
  const std::vector<bool> expected = whole_list_answers(words);
  const Dictionary* d = Dictionary::at(fresh_copy("single"));
  ASSERT_NE(d, nullptr);
  for (size_t i = 0; i < words.size(); ++i) EXPECT_EQ(d->knows(words[i]), expected[i]) << words[i];
  remove_copy("single");
}

TEST(Dictionary, AnswersAsTheWholeWordListOnStemsAndTheirForms) {
  if (!have_english()) GTEST_SKIP() << "no " << kEnglish << ".dic (Debian package hunspell-en-us)";
  const std::vector<std::string> words = sample_words(29, true);
  const std::vector<bool> expected = whole_list_answers(words);
  const Dictionary* d = Dictionary::at(fresh_copy("stems"));
  ASSERT_NE(d, nullptr);
  d->prepare(words);
  for (size_t i = 0; i < words.size(); ++i) EXPECT_EQ(d->knows(words[i]), expected[i]) << words[i];
  remove_copy("stems");
}

TEST(Dictionary, AffixFilesTheIndexDoesNotFollowLoadTheWholeList) {
  // Two-letter flags: the index steps aside and Hunspell reads the whole list.
  const fs::path dir = fs::temp_directory_path() / ("quire-dictionary-long-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "xx.aff") << "SET UTF-8\nFLAG long\nSFX Aa Y 1\nSFX Aa 0 s .\n";
  std::ofstream(dir / "xx.dic") << "2\nbook/Aa\ntable\n";
  EXPECT_EQ(StemIndex::open((dir / "xx.aff").string(), (dir / "xx.dic").string()), nullptr);
  const Dictionary* d = Dictionary::at((dir / "xx").string());
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(d->knows("books"));
  EXPECT_TRUE(d->knows("Table"));
  EXPECT_FALSE(d->knows("tables"));
  fs::remove_all(dir);
}

const std::string kEnglishPatterns = "/usr/share/hyphen/hyph_en_US.dic";

// Every break of `word` that the whole file of patterns allows.
std::vector<bool> whole_file_breaks(HyphenDict* whole, const std::string& word) {
  std::vector<char> marks(word.size() + 5, '\0');
  char** rep = nullptr;
  int* pos = nullptr;
  int* cut = nullptr;
  hnj_hyphen_hyphenate2(whole, word.c_str(), static_cast<int>(word.size()), marks.data(), nullptr, &rep, &pos, &cut);
  if (rep) {
    for (size_t i = 0; i < word.size(); ++i) std::free(rep[i]);
    std::free(rep);
  }
  std::free(pos);
  std::free(cut);
  std::vector<bool> out;
  for (size_t i = 0; i + 1 < word.size(); ++i) out.push_back((marks[i] & 1) != 0);
  return out;
}

TEST(HyphenPatternsIndex, BreaksAsTheWholeFileOfPatterns) {
  if (!have_english() || !fs::is_regular_file(kEnglishPatterns))
    GTEST_SKIP() << "no English dictionary or patterns (Debian packages hunspell-en-us, hyphen-en-us)";
  HyphenDict* whole = hnj_hyphen_load(kEnglishPatterns.c_str());
  ASSERT_NE(whole, nullptr);
  // After 32 words the whole file is read: a fresh copy of it for every 30 words keeps each
  // answer on the patterns of its own word.
  const fs::path dir = copies_dir();
  fs::create_directories(dir);
  const HyphenPatterns* patterns = nullptr;
  // Every 11th stem of the English word list in lower-case letters, and its plural.
  std::ifstream in(kEnglish + ".dic");
  std::string line;
  std::getline(in, line);
  size_t words = 0, breaks = 0;
  for (size_t i = 0; std::getline(in, line); ++i) {
    const std::string stem = line.substr(0, line.find_first_of("/\t "));
    if (i % 11 != 0 || stem.size() < 2 ||
        !std::all_of(stem.begin(), stem.end(), [](char c) { return c >= 'a' && c <= 'z'; }))
      continue;
    if (words % 30 == 0) {
      const fs::path copy = dir / ("hyph-" + std::to_string(words) + ".dic");
      fs::copy_file(kEnglishPatterns, copy, fs::copy_options::overwrite_existing);
      patterns = HyphenPatterns::at(copy.string());
      ASSERT_NE(patterns, nullptr);
      fs::remove(copy);
    }
    for (const std::string& word : {stem, stem + "s"}) {
      const std::vector<bool> expected = whole_file_breaks(whole, word);
      for (size_t k = 0; k < expected.size(); ++k) {
        EXPECT_EQ(patterns->allow_break(word.substr(0, k + 1), word.substr(k + 1)), expected[k]) << word << " after " << k + 1;
        breaks += expected[k] ? 1 : 0;
      }
      ++words;
    }
  }
  hnj_hyphen_free(whole);
  fs::remove_all(dir);
  EXPECT_GT(words, 5000u);
  EXPECT_GT(breaks, words);  // most words break somewhere, many in several places
}

TEST(HyphenPatternsIndex, FilesTheIndexDoesNotFollowAreLoadedWhole) {
  const fs::path dir = fs::temp_directory_path() / ("quire-patterns-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // A second level of patterns: libhyphen reads the whole file.
  std::ofstream(dir / "two.dic") << "UTF-8\nLEFTHYPHENMIN 1\nRIGHTHYPHENMIN 1\n1-1\nNEXTLEVEL\na1b\n";
  const HyphenPatterns* two = HyphenPatterns::at((dir / "two.dic").string());
  ASSERT_NE(two, nullptr);
  EXPECT_TRUE(two->allow_break("a", "b"));
  EXPECT_FALSE(two->allow_break("b", "a"));
  // A header and one pattern, read through the index.
  std::ofstream(dir / "one.dic") << "UTF-8\n% a comment\nLEFTHYPHENMIN 1\nRIGHTHYPHENMIN 1\na1b\n";
  const HyphenPatterns* one = HyphenPatterns::at((dir / "one.dic").string());
  ASSERT_NE(one, nullptr);
  EXPECT_TRUE(one->allow_break("xa", "by"));
  EXPECT_FALSE(one->allow_break("xb", "ay"));
  EXPECT_EQ(HyphenPatterns::at((dir / "missing.dic").string()), nullptr);
  fs::remove_all(dir);
}

TEST(Dictionary, FoldsCaseBeyondAscii) {
  EXPECT_EQ(fold_case("PARIS"), "paris");
  EXPECT_EQ(fold_case("Éclair"), "éclair");
  EXPECT_EQ(fold_case("ΣΟΦΙΑ"), "σοφια");
  EXPECT_EQ(fold_case("it’s"), "it’s");
  // Bytes that are not UTF-8 stay as they are.
  EXPECT_EQ(fold_case(std::string("A\xff" "B")), std::string("a\xff" "b"));
}

}  // namespace
}  // namespace quire::detail
