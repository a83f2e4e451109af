#include "dictionary.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <unordered_set>
#include <vector>

#include <hunspell/hunspell.hxx>
#include <hyphen.h>

#include "quire/layout.h"
#include "stem_index.h"

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

// Hunspell reads word lists from files only: the entries a book needs are written to a file
// in memory, which Hunspell opens by its /proc name.
class MemoryFile {
 public:
  MemoryFile(const std::string& lines, size_t count) : fd_(::memfd_create("quire-words", MFD_CLOEXEC)) {
    if (fd_ < 0) return;
    const std::string text = std::to_string(std::max<size_t>(count, 1)) + "\n" + lines;
    for (size_t done = 0; done < text.size();) {
      const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
      if (n <= 0) return;
      done += static_cast<size_t>(n);
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
    // Without /proc, Hunspell would find no file and silently know no word.
    if (!std::ifstream(path_)) path_.clear();
  }
  ~MemoryFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  int fd_;
  std::string path_;
};

// Words whose patterns are given to libhyphen alone before it reads the whole file: each
// costs about a thirtieth of the whole file's 7 ms. Books ask about 0-30 words.
constexpr int kSubsetsBeforeWhole = 32;

// Word lists added to a Hunspell object before it is made again from all of them: each one
// added is one more table that every look-up tries.
constexpr int kMaxParts = 8;

}  // namespace

Dictionary::Dictionary(const std::string& prefix)
    : aff_path_(prefix + ".aff"), dic_path_(prefix + ".dic"), index_(StemIndex::open(aff_path_, dic_path_)) {
  if (!index_) hunspell_ = std::make_unique<Hunspell>(aff_path_.c_str(), dic_path_.c_str());
}

Dictionary::~Dictionary() = default;

void Dictionary::load_entries(const std::vector<std::string>& words) const {
  if (!index_) return;
  std::string lines;
  size_t count = 0;
  for (const std::string& w : words)
    if (asked_.insert(w).second) count += index_->select(w, lines);
  if (count == 0 && hunspell_) return;
  loaded_ += lines;
  loaded_count_ += count;
  const bool whole = !hunspell_ || parts_ >= kMaxParts;
  MemoryFile file(whole ? loaded_ : lines, whole ? loaded_count_ : count);
  if (file.path().empty()) {  // no file in memory: the whole list from its own file
    index_.reset();
    hunspell_ = std::make_unique<Hunspell>(aff_path_.c_str(), dic_path_.c_str());
    return;
  }
  if (whole) {
    hunspell_ = std::make_unique<Hunspell>(aff_path_.c_str(), file.path().c_str());
    parts_ = 0;
  } else {
    hunspell_->add_dic(file.path().c_str());
    ++parts_;
  }
}

void Dictionary::prepare(const std::vector<std::string>& words) const {
  std::lock_guard lock(mutex_);
  load_entries(words);
}

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
  load_entries({word});
  return hunspell_->spell(word);
}

bool HyphenPatterns::present(const std::string& path) { return !path.empty() && is_file(path); }

const HyphenPatterns* HyphenPatterns::at(const std::string& path) {
  return loaded_once<HyphenPatterns>(path, [&] {
    std::unique_ptr<HyphenPatterns> p;
    std::ifstream in(path, std::ios::binary);
    if (!in || !is_file(path)) return p;
    p.reset(new HyphenPatterns());
    p->path_ = path;
    p->by_letters_.reserve(16384);  // English has 11,000 patterns
    // libhyphen's format: the encoding on the first line, then directives in capitals and
    // one pattern per line ("%" opens a comment); a pattern is its first word.
    std::string line;
    bool first = true, indexable = true;
    while (indexable && std::getline(in, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (first) {
        p->header_ = line + "\n";
        first = false;
        continue;
      }
      const std::string pattern = line.substr(0, line.find_first_of(" \t"));
      if (pattern.empty() || pattern[0] == '%') continue;
      if (pattern == "NEXTLEVEL") indexable = false;
      else if (pattern.find("HYPHENMIN") != std::string::npos || pattern == "NOHYPHEN") p->header_ += line + "\n";
      else if (pattern.find('/') != std::string::npos ||
               std::any_of(pattern.begin(), pattern.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))
        indexable = false;
      else {
        std::string letters;
        for (char c : pattern)
          if (c < '0' || c > '9') letters += c;
        p->by_letters_[letters] += line + "\n";
        p->longest_ = std::max(p->longest_, letters.size());
      }
    }
    if (!indexable) {
      HyphenDict* d = hnj_hyphen_load(path.c_str());
      if (!d) p.reset();
      else p->whole_ = d;
    }
    return p;
  });
}

HyphenPatterns::~HyphenPatterns() {
  if (whole_) hnj_hyphen_free(whole_);
  if (last_) hnj_hyphen_free(last_);
}

bool HyphenPatterns::allow_break(const std::string& left, const std::string& right) const {
  const std::string word = left + right;
  if (left.empty() || word.empty()) return false;
  std::lock_guard lock(mutex_);
  HyphenDict* dict = whole_;
  if (!dict && word == last_word_) dict = last_;
  if (!dict && ++subsets_ > kSubsetsBeforeWhole) dict = whole_ = hnj_hyphen_load(path_.c_str());
  if (!dict) {
    // The patterns that occur in ".word.", each once, after the header.
    const std::string dotted = "." + word + ".";
    std::string text = header_;
    std::unordered_set<std::string> found;
    for (size_t i = 0; i < dotted.size(); ++i)
      for (size_t n = 1; n <= longest_ && i + n <= dotted.size(); ++n) {
        std::string letters = dotted.substr(i, n);
        auto it = by_letters_.find(letters);
        if (it != by_letters_.end() && found.insert(std::move(letters)).second) text += it->second;
      }
    FILE* f = ::fmemopen(text.data(), text.size(), "r");
    if (!f) return false;
    dict = hnj_hyphen_load_file(f);
    std::fclose(f);
    if (!dict) return false;
    if (last_) hnj_hyphen_free(last_);
    last_ = dict;
    last_word_ = word;
  }
  // libhyphen writes one mark per letter, odd where a break may follow it, and reads up to
  // five bytes past the word's end.
  std::vector<char> marks(word.size() + 5, '\0');
  char** rep = nullptr;
  int* pos = nullptr;
  int* cut = nullptr;
  hnj_hyphen_hyphenate2(dict, word.c_str(), static_cast<int>(word.size()), marks.data(), nullptr, &rep, &pos, &cut);
  if (rep) {
    for (size_t i = 0; i < word.size(); ++i) std::free(rep[i]);
    std::free(rep);
  }
  std::free(pos);
  std::free(cut);
  return (marks[left.size() - 1] & 1) != 0;
}

}  // namespace quire::detail

namespace quire {

void preload_language_resources(const LayoutOptions& options) {
  detail::HyphenPatterns::at(options.hyphenation.hyphen_patterns);
  detail::Dictionary::at(options.hyphenation.hyphen_dictionary);
}

}  // namespace quire
