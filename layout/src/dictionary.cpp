#include "dictionary.h"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <vector>

#include <hunspell/hunspell.hxx>
#include <hyphen.h>

#include "quire/layout.h"

namespace quire::detail {

namespace {

// One object per key for the whole process, made by `make` on first use; a key for which it
// gives nullptr stays without one. The objects are never freed: the process's end reclaims
// them without a pass over a spelling dictionary's tables (several milliseconds, the last
// thing a build would do).
template <class T, class Make>
const T* loaded_once(const std::string& key, Make make) {
  static std::mutex mutex;
  static auto* loaded = new std::map<std::string, std::unique_ptr<T>>();
  if (key.empty()) return nullptr;
  std::lock_guard lock(mutex);
  auto it = loaded->find(key);
  if (it == loaded->end()) it = loaded->emplace(key, make()).first;
  return it->second.get();
}

bool is_file(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

}  // namespace

Dictionary::Dictionary(const std::string& prefix)
    : hunspell_(std::make_unique<Hunspell>((prefix + ".aff").c_str(), (prefix + ".dic").c_str())) {}

Dictionary::~Dictionary() = default;

const Dictionary* Dictionary::at(const std::string& prefix) {
  return loaded_once<Dictionary>(prefix, [&] {
    std::unique_ptr<Dictionary> d;
    if (is_file(prefix + ".aff") && is_file(prefix + ".dic")) d.reset(new Dictionary(prefix));
    return d;
  });
}

bool Dictionary::knows(const std::string& word) const {
  if (word.empty()) return false;
  std::lock_guard lock(mutex_);
  return hunspell_->spell(word);
}

const HyphenPatterns* HyphenPatterns::at(const std::string& path) {
  return loaded_once<HyphenPatterns>(path, [&] {
    std::unique_ptr<HyphenPatterns> p;
    if (is_file(path))
      if (HyphenDict* d = hnj_hyphen_load(path.c_str())) p.reset(new HyphenPatterns(d));
    return p;
  });
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

namespace quire {

void preload_language_resources(const LayoutOptions& options) {
  detail::HyphenPatterns::at(options.hyphen_patterns);
  detail::Dictionary::at(options.hyphen_dictionary);
}

}  // namespace quire
