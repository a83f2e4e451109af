#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <unistd.h>

#include "book_io.h"
#include "quire/json.h"
#include "quire/pipeline.h"

namespace quire {

namespace fs = std::filesystem;

void merge_corpora(const MergeOptions& options) {
  if (options.shards.empty()) throw Error(ExitCode::Usage, "", 0, "merge needs at least one shard output");
  std::vector<std::string> all_ids;
  int count = -1;
  std::set<int> seen;
  std::map<std::string, fs::path> book_dirs;
  for (const auto& shard : options.shards) {
    fs::path info = fs::path(shard) / "shard.json";
    std::ifstream in(info);
    if (!in) throw Error(ExitCode::NotFound, info.string(), 0, "not a shard output (no shard.json)");
    Json j;
    try {
      j = Json::parse(in);
    } catch (const std::exception& e) {
      throw Error(ExitCode::BadIntermediate, info.string(), 0, e.what());
    }
    auto ids = j.at("books").get<std::vector<std::string>>();
    int n = j.at("count"), i = j.at("index");
    if (count < 0) {
      count = n;
      all_ids = ids;
    } else if (n != count || ids != all_ids) {
      throw Error(ExitCode::BadIntermediate, info.string(), 0, "this shard belongs to another build (book list or N differ)");
    }
    if (!seen.insert(i).second)
      throw Error(ExitCode::BadIntermediate, info.string(), 0, "shard " + std::to_string(i) + " given twice");
    for (const auto& e : fs::directory_iterator(fs::path(shard) / "books"))
      if (e.is_directory()) book_dirs[e.path().filename().string()] = e.path();
  }
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
