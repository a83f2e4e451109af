// Language resources for the hyphenation rule, loaded on first use and shared by every book
// of the process: a spelling dictionary (Hunspell's .aff and .dic files) and hyphenation
// patterns (libhyphen's .dic, made from TeX's patterns).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

class Hunspell;
struct _HyphenDict;

namespace quire::detail {

class StemIndex;

class Dictionary {
 public:
  // The dictionary whose files are `prefix`.aff and `prefix`.dic, loaded once per process;
  // nullptr when the prefix is empty or a file is missing.
  static const Dictionary* at(const std::string& prefix);

  // Whether the dictionary knows `word` (UTF-8, as spelled in the text: a capital at the
  // start of a sentence or a word in capitals is still the word). Safe from any thread.
  bool knows(const std::string& word) const;

  // Readies the answers about `words` at once: the entries they need are loaded together,
  // rather than a few at each question. The answers are the same either way.
  void prepare(const std::vector<std::string>& words) const;

  ~Dictionary();

 private:
  explicit Dictionary(const std::string& prefix);
  void load_entries(const std::vector<std::string>& words) const;

  std::string aff_path_, dic_path_;
  // The word list by stem; nullptr when the whole list is loaded (see StemIndex::open).
  mutable std::unique_ptr<StemIndex> index_;
  mutable std::unique_ptr<Hunspell> hunspell_;
  mutable std::unordered_set<std::string> asked_;  // words whose entries are loaded
  mutable std::string loaded_;                    // the entries Hunspell has, as .dic lines
  mutable size_t loaded_count_ = 0;
  mutable int parts_ = 0;     // word lists added to hunspell_ since it was made
  mutable std::mutex mutex_;  // Hunspell keeps working state in the object
};

class HyphenPatterns {
 public:
  // The patterns in the file `path`, read once per process; nullptr when the path is empty
  // or the file is missing or unreadable.
  static const HyphenPatterns* at(const std::string& path);

  // Whether `path` names a file of patterns, without reading it.
  static bool present(const std::string& path);

  // Whether the patterns allow a typesetter to break the word left+right between the two
  // (lower-case ASCII letters). Safe from any thread.
  bool allow_break(const std::string& left, const std::string& right) const;

  ~HyphenPatterns();

 private:
  HyphenPatterns() = default;

  // libhyphen builds its automaton from all 11,000 English patterns in 7 ms, and a book asks
  // about a few words. A word's breaks depend only on the patterns whose letters occur in it
  // (Liang's rule: the highest digit of those at each place), so each question gives
  // libhyphen the file's header and those patterns alone.
  std::string header_;                                       // the encoding and the directives
  std::unordered_map<std::string, std::string> by_letters_;  // a pattern's letters: its lines
  size_t longest_ = 0;                                       // letters of the longest pattern
  // The whole file, loaded once for what the index does not follow (a second level of
  // patterns, replacements such as "ff1f/f=f,1,2") or after many words.
  std::string path_;
  mutable _HyphenDict* whole_ = nullptr;
  mutable _HyphenDict* last_ = nullptr;  // the last word's patterns: it is asked at each break
  mutable std::string last_word_;
  mutable int subsets_ = 0;
  mutable std::mutex mutex_;
};

}  // namespace quire::detail
