#include "dictionary.h"

#include <cstdlib>
#include <filesystem>
#include <map>

#include <hunspell/hunspell.hxx>
#include <hyphen.h>
#include <vector>

namespace quire::detail {

Dictionary::Dictionary(const std::string& prefix)
    : hunspell_(std::make_unique<Hunspell>((prefix + ".aff").c_str(), (prefix + ".dic").c_str())) {}

Dictionary::~Dictionary() = default;

const Dictionary* Dictionary::at(const std::string& prefix) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Dictionary>> loaded;
  if (prefix.empty()) return nullptr;
  std::lock_guard lock(mutex);
  auto it = loaded.find(prefix);
  if (it == loaded.end()) {
    std::error_code ec;
    std::unique_ptr<Dictionary> d;
    if (std::filesystem::is_regular_file(prefix + ".aff", ec) && std::filesystem::is_regular_file(prefix + ".dic", ec))
      d.reset(new Dictionary(prefix));
    it = loaded.emplace(prefix, std::move(d)).first;
  }
  return it->second.get();
}

bool Dictionary::knows(const std::string& word) const {
  if (word.empty()) return false;
  std::lock_guard lock(mutex_);
  return hunspell_->spell(word);
}

const HyphenPatterns* HyphenPatterns::at(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<HyphenPatterns>> loaded;
  if (path.empty()) return nullptr;
  std::lock_guard lock(mutex);
  auto it = loaded.find(path);
  if (it == loaded.end()) {
    std::error_code ec;
    std::unique_ptr<HyphenPatterns> p;
    if (std::filesystem::is_regular_file(path, ec))
      if (HyphenDict* d = hnj_hyphen_load(path.c_str())) p.reset(new HyphenPatterns(d));
    it = loaded.emplace(path, std::move(p)).first;
  }
  return it->second.get();
}

HyphenPatterns::~HyphenPatterns() { hnj_hyphen_free(dict_); }

bool HyphenPatterns::allow_break(const std::string& left, const std::string& right) const {
  const std::string word = left + right;
  // libhyphen writes one mark per letter, odd where a break may follow it, and reads up to
  // five bytes past the word's end.
  std::vector<char> marks(word.size() + 5, '\0');
  char** rep = nullptr;
  int* pos = nullptr;
  int* cut = nullptr;
  {
    std::lock_guard lock(mutex_);
    hnj_hyphen_hyphenate2(dict_, word.c_str(), static_cast<int>(word.size()), marks.data(), nullptr, &rep, &pos,
                          &cut);
  }
  if (rep) {
    for (size_t i = 0; i < word.size(); ++i) std::free(rep[i]);
    std::free(rep);
  }
  std::free(pos);
  std::free(cut);
  return !left.empty() && (marks[left.size() - 1] & 1) != 0;
}

}  // namespace quire::detail
