// A Hunspell dictionary's word list, indexed by stem, so that a book's questions load only the
// entries that could answer them. An English dictionary has 79,000 entries and takes 25 ms to
// load whole; a book asks about a few hundred words. For each word asked, the affix file's
// prefix and suffix rules say which stems could spell it (conditions and flags aside: a few
// stems too many cost nothing), and only those stems' entries go to Hunspell, which then gives
// the answer it would give with the whole list.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace quire::detail {

class StemIndex {
 public:
  // The index of `dic_path`'s entries under the rules of `aff_path`; nullptr when a file
  // cannot be read or the affix file uses what the index does not follow (flag aliases and
  // other flag formats, compounding by flags, ignored characters, a language with casing of
  // its own, a non-UTF-8 encoding), in which case the whole dictionary is the only answer.
  static std::unique_ptr<StemIndex> open(const std::string& aff_path, const std::string& dic_path);

  // The entries (lines of the .dic file) that could spell `word` and have not been given
  // before, appended to `lines`; returns how many. The first call also gives the entries
  // that every word may need (parts of compounds, such as the digits of "21st").
  size_t select(std::string_view word, std::string& lines);

 private:
  struct Affix {
    bool prefix;
    std::string strip;  // letters the rule takes off the stem, folded
    std::string add;    // letters it puts on, folded
  };
  struct Entry {
    uint32_t line, line_size;  // the whole line in `dic_`
  };
  struct Slot {
    uint32_t hash;   // of the entry's folded stem
    uint32_t entry;  // index in `entries_` + 1; 0 for an empty slot
  };

  StemIndex() = default;
  bool read_affixes(const std::string& path);
  void index_entries();
  std::vector<std::string> candidate_stems(std::string_view word) const;
  void strip_suffixes(const std::string& word, int depth, std::vector<std::string>& out) const;
  size_t give(const std::string& stem, std::string& lines);

  std::string stem_of(const Entry& e) const;

  std::string dic_;
  std::vector<Entry> entries_;
  std::vector<Slot> slots_;  // open addressing by hash
  std::vector<Affix> affixes_;
  std::vector<std::pair<std::string, std::string>> input_conversions_;  // ICONV
  std::string compound_flags_;                                          // COMPOUNDRULE, ONLYINCOMPOUND
  std::vector<uint32_t> always_;                                        // entries with those flags
  bool started_ = false;
  std::unordered_set<std::string> given_;  // folded stems whose entries were given
};

// A word folded for the index: lower case, by ICU's simple case mapping for letters beyond
// ASCII. Hunspell finds "Paris" for "PARIS" and "paris" for "Paris"; both fold to "paris".
std::string fold_case(std::string_view word);

}  // namespace quire::detail
