#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include <unistd.h>

#include "book_io.h"
#include "quire/json.h"
#include "quire/pipeline.h"

namespace quire {

namespace fs = std::filesystem;

namespace {

// What merge needs of a shard's shard.json.
struct ShardInfo {
  int index = 0, count = 0;
  std::vector<std::string> books;
  bool as_first = false;  // the first file's text but for the index: its count and books
};

// Every shard's shard.json names every book of the build (the list shows that the shards
// are of one build), so N shards of B books hold N x B names: 1,000 shards of 100,000 books
// are 2.4 GB of JSON, which took 41 s to parse. A file that is the first one's text but for
// the number of its index (what `build --shard` writes) is taken as the first one with that
// index, without parsing; any other file is parsed and compared.
class ShardInfoReader {
 public:
  ShardInfo read(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw Error(ExitCode::NotFound, file.string(), 0, "not a shard output (no shard.json)");
    // One buffer for every file: a fresh one of a few MB per shard costs more in page faults
    // than the reading.
    std::string& text = buffer_;
    in.seekg(0, std::ios::end);
    text.resize(static_cast<size_t>(std::max<std::streamoff>(0, in.tellg())));
    in.seekg(0);
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (!in) throw Error(ExitCode::Io, file.string(), 0, "cannot read");
    if (first_ && matches_first(text)) return {index_of(text), first_->count, {}, true};
    Json j;
    try {
      j = Json::parse(text);
    } catch (const std::exception& e) {
      throw Error(ExitCode::BadIntermediate, file.string(), 0, e.what());
    }
    ShardInfo info;
    try {
      info.books = j.at("books").get<std::vector<std::string>>();
      info.count = j.at("count");
      info.index = j.at("index");
    } catch (const std::exception& e) {
      throw Error(ExitCode::BadIntermediate, file.string(), 0, e.what());
    }
    if (!first_) remember_first(j, info);
    return info;
  }
  const ShardInfo* first() const { return first_ ? &*first_ : nullptr; }

 private:
  // The text of the first file, written again as quire writes shard.json, split where its
  // index stands.
  void remember_first(Json j, const ShardInfo& info) {
    first_ = info;
    j["index"] = 999999999;  // a number no index reaches, to find in the text
    const std::string text = dump(j, true);
    const std::string mark = "\"index\": 999999999";
    const size_t at = text.find(mark);
    if (at == std::string::npos || text.find(mark, at + 1) != std::string::npos) return;
    prefix_ = text.substr(0, at + mark.size() - 9);
    suffix_ = text.substr(at + mark.size());
    fast_ = true;
  }
  bool matches_first(const std::string& text) const {
    if (!fast_ || text.size() <= prefix_.size() + suffix_.size() || text.size() > prefix_.size() + suffix_.size() + 9)
      return false;
    if (text.compare(0, prefix_.size(), prefix_) != 0) return false;
    if (text.compare(text.size() - suffix_.size(), suffix_.size(), suffix_) != 0) return false;
    const std::string_view digits(text.data() + prefix_.size(), text.size() - prefix_.size() - suffix_.size());
    if (digits.size() > 1 && digits[0] == '0') return false;
    return std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
  }
  int index_of(const std::string& text) const {
    return std::stoi(text.substr(prefix_.size(), text.size() - prefix_.size() - suffix_.size()));
  }

  std::string buffer_;
  std::optional<ShardInfo> first_;
  bool fast_ = false;
  std::string prefix_, suffix_;
};

// Links every file under `from` to the same place under `to`; false (and nothing left under
// `to`) when one cannot be linked.
bool link_book(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_directories(to, ec);
  for (auto it = fs::recursive_directory_iterator(from, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const fs::path target = to / it->path().lexically_relative(from);
    if (it->is_directory(ec)) fs::create_directories(target, ec);
    else if (!ec) fs::create_hard_link(it->path(), target, ec);
  }
  if (!ec) return true;
  fs::remove_all(to, ec);
  return false;
}

}  // namespace

void merge_corpora(const MergeOptions& options) {
  if (options.shards.empty()) throw Error(ExitCode::Usage, "", 0, "merge needs at least one shard output");
  ShardInfoReader reader;
  std::set<int> seen;
  std::map<std::string, fs::path> book_dirs;
  for (const auto& shard : options.shards) {
    const fs::path info_file = fs::path(shard) / "shard.json";
    const ShardInfo info = reader.read(info_file);
    const ShardInfo& first = *reader.first();
    if (!info.as_first && (info.count != first.count || info.books != first.books))
      throw Error(ExitCode::BadIntermediate, info_file.string(), 0, "this shard belongs to another build (book list or N differ)");
    if (!seen.insert(info.index).second)
      throw Error(ExitCode::BadIntermediate, info_file.string(), 0, "shard " + std::to_string(info.index) + " given twice");
    for (const auto& e : fs::directory_iterator(fs::path(shard) / "books"))
      if (e.is_directory()) book_dirs[e.path().filename().string()] = e.path();
  }
  const int count = reader.first()->count;
  const std::vector<std::string>& all_ids = reader.first()->books;
  for (int i = 0; i < count; ++i)
    if (!seen.count(i))
      throw Error(ExitCode::NotFound, options.out_dir, 0,
                  "shard " + std::to_string(i) + "/" + std::to_string(count) + " is missing");

  std::optional<CorpusMap> map;
  if (!options.map_path.empty()) map = read_map(options.map_path, options.pdf_dir);

  fs::path out = fs::absolute(options.out_dir).lexically_normal();
  if (out.filename().empty()) out = out.parent_path();
  fs::create_directories(out.parent_path());
  fs::path tmp = out;
  tmp += ".tmp-" + std::to_string(getpid());
  std::error_code ec;
  remove_stale_temporaries(out);
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp / "books");
  std::vector<std::string> ids;
  try {
    for (const auto& id : all_ids) {
      auto it = book_dirs.find(id);
      if (it == book_dirs.end()) continue;  // that book failed in its shard
      // A new file costs the file system more than its bytes: linking a shard's book
      // instead of copying it makes a 1,000-book merge several times faster.
      if (!options.link || !link_book(it->second, tmp / "books" / id))
        fs::copy(it->second, tmp / "books" / id, fs::copy_options::recursive);
      ids.push_back(id);
    }
    export_index(tmp.string(), ids, map ? &*map : nullptr, options.exporting);
    install_output_dir(tmp, out);
  } catch (...) {
    fs::remove_all(tmp, ec);
    throw;
  }
}

}  // namespace quire
