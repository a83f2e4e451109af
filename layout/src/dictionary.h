// Language resources for the hyphenation rule, loaded on first use and shared by every book
// of the process: a spelling dictionary (Hunspell's .aff and .dic files) and hyphenation
// patterns (libhyphen's .dic, made from TeX's patterns).
#pragma once

#include <memory>
#include <mutex>
#include <string>

class Hunspell;
struct _HyphenDict;

namespace quire::detail {

class Dictionary {
 public:
  // The dictionary whose files are `prefix`.aff and `prefix`.dic, loaded once per process;
  // nullptr when the prefix is empty or a file is missing.
  static const Dictionary* at(const std::string& prefix);

  // Whether the dictionary knows `word` (UTF-8, as spelled in the text: a capital at the
  // start of a sentence or a word in capitals is still the word). Safe from any thread.
  bool knows(const std::string& word) const;

  ~Dictionary();

 private:
  explicit Dictionary(const std::string& prefix);
  std::unique_ptr<Hunspell> hunspell_;
  mutable std::mutex mutex_;  // Hunspell keeps working state in the object
};

class HyphenPatterns {
 public:
  // The patterns in the file `path`, loaded once per process; nullptr when the path is empty
  // or the file is missing or unreadable.
  static const HyphenPatterns* at(const std::string& path);

  // Whether the patterns allow a typesetter to break the word left+right between the two
  // (lower-case ASCII letters). Safe from any thread.
  bool allow_break(const std::string& left, const std::string& right) const;

  ~HyphenPatterns();

 private:
  explicit HyphenPatterns(_HyphenDict* dict) : dict_(dict) {}
  _HyphenDict* dict_;
  mutable std::mutex mutex_;
};

}  // namespace quire::detail
