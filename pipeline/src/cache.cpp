#include "cache.h"

#include "book_io.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "quire/json.h"

namespace quire {

namespace fs = std::filesystem;

namespace {

// The binary's identity: its path, size and modification time (hashing its 60 MB would
// cost more than a whole cached rebuild). Any rebuild or reinstall of quire changes it.
const std::string& self_hash() {
  static std::once_flag once;
  static std::string id;
  std::call_once(once, [] {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    struct stat st {};
    if (ec || stat(exe.c_str(), &st) != 0) {
      id = kVersion;
      return;
    }
    id = exe.string() + ":" + std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec) + ":" + std::to_string(st.st_ino);
  });
  return id;
}


// The PDF's SHA-256, remembered in the cache by the file's path, size, time and inode, so
// that an unchanged shelf is not read again; a changed file has a new entry.
std::string pdf_sha256(const std::string& cache_dir, const std::string& pdf_path) {
  struct stat st {};
  std::error_code ec;
  fs::path abs = fs::absolute(pdf_path, ec);
  if (cache_dir.empty() || ec || stat(pdf_path.c_str(), &st) != 0) return sha256_file(pdf_path);
  std::string id = abs.string() + ":" + std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
                   std::to_string(st.st_mtim.tv_nsec) + ":" + std::to_string(st.st_ino);
  fs::path entry = fs::path(cache_dir) / "pdf-hashes" / sha256_hex(id);
  std::string known;
  if (std::ifstream in(entry); in >> known && known.size() == 64) return known;
  std::string hash = sha256_file(pdf_path);
  fs::create_directories(entry.parent_path(), ec);
  fs::path tmp = entry;
  tmp += ".tmp-" + std::to_string(getpid());
  if (std::ofstream out(tmp); out << hash << "\n") {
    out.close();
    fs::rename(tmp, entry, ec);
  }
  if (ec) fs::remove(tmp, ec);
  return hash;
}

// The hyphenation dictionary and patterns decide some hyphens: the hashes of their files
// (empty for a file that is not there), computed once per process.
std::string file_identity(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::string> known;
  std::lock_guard lock(mutex);
  auto it = known.find(path);
  if (it != known.end()) return it->second;
  std::error_code ec;
  return known[path] = !path.empty() && fs::is_regular_file(path, ec) ? sha256_file(path) : std::string();
}

std::string dictionary_identity(const std::string& prefix) {
  if (prefix.empty()) return ";;";
  return file_identity(prefix + ".aff") + ";" + file_identity(prefix + ".dic") + ";";
}

}  // namespace

std::string cache_key(const std::string& pdf_path, const std::string& id, const MapBook* map_entry,
                      const BuildOptions& o) {
  // Every option a user can set that changes a book's output (a new command-line option must
  // be added here). Options only settable in code keep their defaults, which the binary's
  // hash covers.
  Json k;
  k["quire"] = kVersion;
  k["binary"] = self_hash();
  k["pdf"] = pdf_sha256(o.cache_dir, pdf_path);
  k["id"] = id;
  if (map_entry) {
    k["title"] = map_entry->title;
    k["authors"] = map_entry->authors;
  }
  k["engine"] = static_cast<int>(o.extract.engine);
  k["password"] = sha256_hex(o.extract.password);
  k["ocr"] = static_cast<int>(o.extract.ocr);
  k["ocr_lang"] = o.extract.ocr_lang;
  k["ocr_dpi"] = o.extract.ocr_dpi;
  k["unusable_text_ratio"] = o.extract.unusable_text_ratio;
  k["page_timeout"] = o.extract.page_timeout;
  k["band_ratio"] = o.clean.band_ratio;
  k["min_recurrence"] = o.clean.min_recurrence;
  k["keep_matter"] = o.layout.keep_matter;
  k["figure_dpi"] = o.layout.figure_dpi;
  k["hyphen_dictionary"] = dictionary_identity(o.layout.hyphen_dictionary);
  k["hyphen_patterns"] = file_identity(o.layout.hyphen_patterns);
  k["verify"] = o.verify;
  k["site"] = o.exporting.site;
  return sha256_hex(dump(k, false));
}

std::optional<BookOutcome> cache_fetch(const std::string& cache_dir, const std::string& key,
                                       const std::string& id, const std::string& out_dir) {
  fs::path entry = fs::path(cache_dir) / key;
  std::ifstream in(entry / "outcome.json");
  if (!in) return std::nullopt;
  BookOutcome o;
  try {
    Json j = Json::parse(in);
    o.pages = j.at("pages");
    o.chapters = j.at("chapters");
    o.figures = j.at("figures");
    o.chapter_figures = j.at("chapter_figures").get<std::vector<int>>();
    o.removed = j.at("removed");
    o.ocr_pages = j.at("ocr_pages");
    o.verify_differences = j.at("verify_differences");
    o.warnings = j.at("warnings").get<std::vector<std::string>>();
  } catch (const std::exception&) {
    return std::nullopt;  // a damaged entry is a miss; it is overwritten on store
  }
  std::error_code ec;
  fs::path dest = fs::path(out_dir) / "books" / id;
  fs::remove_all(dest, ec);
  fs::copy(entry / "book", dest, fs::copy_options::recursive, ec);
  if (ec) return std::nullopt;
  o.id = id;
  o.ok = true;
  o.cached = true;
  return o;
}

void cache_store(const std::string& cache_dir, const std::string& key, const BookOutcome& outcome,
                 const std::string& out_dir) {
  std::error_code ec;
  fs::create_directories(cache_dir, ec);
  fs::path entry = fs::path(cache_dir) / key;
  fs::path tmp = entry;
  tmp += ".tmp-" + std::to_string(getpid()) + "-" + outcome.id;
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  fs::copy(fs::path(out_dir) / "books" / outcome.id, tmp / "book", fs::copy_options::recursive, ec);
  if (!ec) std::ofstream(tmp / "outcome.json") << dump(outcome_to_json(outcome), true);
  if (ec) {
    fs::remove_all(tmp, ec);
    return;  // a cache that cannot be written only costs time
  }
  fs::remove_all(entry, ec);
  fs::rename(tmp, entry, ec);
  if (ec) fs::remove_all(tmp, ec);
}

namespace {

// The files export_index writes, which the index cache holds.
const char* const kIndexFiles[] = {"corpus.jsonl", "manifest.json", "site"};

}  // namespace

std::string index_cache_key(const std::vector<std::pair<std::string, std::string>>& books,
                            const std::string& map_path, const BuildOptions& o) {
  Json k;
  k["quire"] = kVersion;
  k["binary"] = self_hash();
  Json list = Json::array();
  for (const auto& [id, key] : books) list.push_back({id, key});
  k["books"] = std::move(list);
  std::string map_bytes;
  if (!map_path.empty()) {
    std::ifstream in(map_path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    map_bytes = ss.str();
  }
  k["map"] = map_path.empty() ? std::string() : sha256_hex(map_bytes);
  k["site"] = o.exporting.site;
  return sha256_hex(dump(k, false));
}

bool index_cache_fetch(const std::string& cache_dir, const std::string& key, const std::string& out_dir) {
  fs::path entry = fs::path(cache_dir) / "index" / key;
  std::error_code ec;
  if (!fs::is_regular_file(entry / "complete", ec)) return false;
  std::vector<fs::path> copied;
  for (const char* name : kIndexFiles) {
    if (!fs::exists(entry / name, ec)) continue;
    fs::copy(entry / name, fs::path(out_dir) / name, fs::copy_options::recursive, ec);
    copied.push_back(fs::path(out_dir) / name);
    if (ec) {
      for (const auto& p : copied) fs::remove_all(p, ec);
      return false;
    }
  }
  return true;
}

void index_cache_store(const std::string& cache_dir, const std::string& key, const std::string& out_dir) {
  std::error_code ec;
  fs::path entry = fs::path(cache_dir) / "index" / key;
  fs::create_directories(entry.parent_path(), ec);
  fs::path tmp = entry;
  tmp += ".tmp-" + std::to_string(getpid());
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  for (const char* name : kIndexFiles)
    if (!ec && fs::exists(fs::path(out_dir) / name))
      fs::copy(fs::path(out_dir) / name, tmp / name, fs::copy_options::recursive, ec);
  // Written last: an entry without it (a store cut short) is a miss.
  if (!ec) std::ofstream(tmp / "complete") << key << "\n";
  if (ec) {
    fs::remove_all(tmp, ec);
    return;
  }
  fs::remove_all(entry, ec);
  fs::rename(tmp, entry, ec);
  if (ec) fs::remove_all(tmp, ec);
}

}  // namespace quire
