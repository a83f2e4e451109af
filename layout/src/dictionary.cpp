#include "dictionary.h"

#include <filesystem>
#include <map>

#include <hunspell/hunspell.hxx>

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

}  // namespace quire::detail
