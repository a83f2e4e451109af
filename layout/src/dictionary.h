// A spelling dictionary for the hyphenation rule: Hunspell's .aff and .dic files, loaded on
// first use and shared by every book of the process.
#pragma once

#include <memory>
#include <mutex>
#include <string>

class Hunspell;

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

}  // namespace quire::detail
