#include "cache.h"

#include "book_io.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "quire/hash.h"
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


// A file's SHA-256 (a PDF, a dictionary), remembered in the cache by the file's path, size,
// time and inode, so that an unchanged shelf is not read again; a changed file has a new entry.
std::string file_sha256(const std::string& cache_dir, const std::string& path) {
  struct stat st {};
  std::error_code ec;
  fs::path abs = fs::absolute(path, ec);
  if (cache_dir.empty() || ec || stat(path.c_str(), &st) != 0) return sha256_file(path);
  std::string id = abs.string() + ":" + std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
                   std::to_string(st.st_mtim.tv_nsec) + ":" + std::to_string(st.st_ino);
  fs::path entry = fs::path(cache_dir) / "file-hashes" / sha256_hex(id);
  std::string known;
  if (std::ifstream in(entry); in >> known && known.size() == 64) return known;
  std::string hash = sha256_file(path);
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

// An entry's files are copied into the output. A rebuild of the same OUT that finds OUT's
// copies as the last build left them (same size, modification time, inode and mode, so
// nothing wrote to them since) links those into the new output instead: the old OUT is
// removed when the new one is in place, so no two outputs share a file, and an unchanged
// corpus is rebuilt without copying it. The entry's "installed" file records OUT's path
// and those stamps.

// "path size mtime inode mode" of every file under out_root's entries `roots`, one a line,
// in path order. (Paths are made relative by their letters: the walk gives them under the
// root it starts from, and fs::relative would resolve both, component by component, for
// each of a shelf's thousands of files.)
std::string stamps_of(const fs::path& out_root, const std::vector<std::string>& roots) {
  std::vector<std::string> lines;
  std::error_code ec;
  auto add = [&](const fs::path& p) {
    struct stat st {};
    if (stat(p.c_str(), &st) != 0) return;
    lines.push_back(p.lexically_relative(out_root).generic_string() + " " + std::to_string(st.st_size) + " " +
                    std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + " " +
                    std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + " " + std::to_string(st.st_mode & 07777));
  };
  for (const auto& r : roots) {
    const fs::path root = out_root / r;
    if (!fs::exists(root, ec)) continue;
    if (!fs::is_directory(root, ec)) {
      add(root);
      continue;
    }
    for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
      if (!it->is_directory(ec)) add(it->path());
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// "path size" of every file under root's entries `roots`, one a line, in path order: what an
// entry holds, written when it is stored and compared when it is fetched, so that an entry
// missing a file or holding one cut short (a cache folder pruned by hand or by a CI cache
// that restored part of it) is a miss rather than a damaged corpus.
std::string contents_of(const fs::path& root, const std::vector<std::string>& roots) {
  std::vector<std::string> lines;
  std::error_code ec;
  for (const auto& r : roots) {
    const fs::path top = root / r;
    if (!fs::exists(top, ec)) continue;
    if (!fs::is_directory(top, ec)) {
      lines.push_back(r + " " + std::to_string(fs::file_size(top, ec)));
      continue;
    }
    for (auto it = fs::recursive_directory_iterator(top, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
      if (!it->is_directory(ec))
        lines.push_back(it->path().lexically_relative(root).generic_string() + " " +
                        std::to_string(fs::file_size(it->path(), ec)));
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// True when the entry holds what its "contents" file says it was stored with.
bool entry_is_whole(const fs::path& entry, const std::vector<std::string>& roots) {
  std::ifstream in(entry / "contents", std::ios::binary);
  if (!in) return false;
  std::ostringstream recorded;
  recorded << in.rdbuf();
  return !recorded.str().empty() && recorded.str() == contents_of(entry, roots);
}

bool write_contents(const fs::path& entry, const std::vector<std::string>& roots) {
  std::ofstream out(entry / "contents", std::ios::binary);
  out << contents_of(entry, roots);
  return static_cast<bool>(out);
}

// Links every file under `from` to the same place under `to` (which must not exist).
bool link_tree(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  if (!fs::is_directory(from, ec)) {
    fs::create_hard_link(from, to, ec);
    return !ec;
  }
  fs::create_directories(to, ec);
  for (auto it = fs::recursive_directory_iterator(from, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const fs::path target = to / it->path().lexically_relative(from);
    if (it->is_directory(ec)) fs::create_directories(target, ec);
    else fs::create_hard_link(it->path(), target, ec);
  }
  if (ec) fs::remove_all(to, ec);
  return !ec;
}

// Whether out_root's `roots` are as the entry's record says they were installed.
bool installed_as_recorded(const fs::path& entry, const fs::path& out_root, const std::vector<std::string>& roots) {
  std::ifstream in(entry / "installed", std::ios::binary);
  std::string path;
  if (!in || !std::getline(in, path) || path != out_root.string()) return false;
  std::ostringstream rest;
  rest << in.rdbuf();
  return !rest.str().empty() && rest.str() == stamps_of(out_root, roots);
}

// Links out_root's `roots` into dest when the entry's record says they are as installed.
bool link_installed(const fs::path& entry, const fs::path& out_root, const std::vector<std::string>& roots,
                    const fs::path& dest) {
  if (!installed_as_recorded(entry, out_root, roots)) return false;
  std::error_code ec;
  std::vector<fs::path> made;
  for (const auto& r : roots) {
    if (!fs::exists(out_root / r, ec)) continue;
    fs::create_directories((dest / r).parent_path(), ec);
    made.push_back(dest / r);
    if (!link_tree(out_root / r, dest / r)) {
      for (const auto& m : made) fs::remove_all(m, ec);
      return false;
    }
  }
  return true;
}

void record_installed(const fs::path& entry, const fs::path& out_root, const std::vector<std::string>& roots) {
  std::error_code ec;
  if (!fs::is_directory(entry, ec)) return;
  const std::string record = out_root.string() + "\n" + stamps_of(out_root, roots);
  // A rebuild that linked OUT's files over finds the record as it was: left alone, as a
  // rename over a file makes the file system write the new one out first (ext4 does so
  // for a rename that replaces a file), which a cached rebuild of a shelf waits for
  // book after book behind the writes of the builds before it.
  {
    std::ifstream in(entry / "installed", std::ios::binary);
    std::ostringstream held;
    if (in) held << in.rdbuf();
    if (in && held.str() == record) return;
  }
  fs::path tmp = entry / ("installed.tmp-" + std::to_string(getpid()));
  {
    std::ofstream out(tmp, std::ios::binary);
    out << record;
    if (!out) {
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, entry / "installed", ec);
  if (ec) fs::remove(tmp, ec);
}

// The hyphenation dictionary and patterns decide some hyphens: the hashes of their files
// (empty for a file that is not there), looked up once per process.
std::string file_identity(const std::string& cache_dir, const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::string> known;
  std::lock_guard lock(mutex);
  auto it = known.find(path);
  if (it != known.end()) return it->second;
  std::error_code ec;
  return known[path] =
             !path.empty() && fs::is_regular_file(path, ec) ? file_sha256(cache_dir, path) : std::string();
}

std::string dictionary_identity(const std::string& cache_dir, const std::string& prefix) {
  if (prefix.empty()) return ";;";
  return file_identity(cache_dir, prefix + ".aff") + ";" + file_identity(cache_dir, prefix + ".dic") + ";";
}

}  // namespace

std::string cache_key(const std::string& pdf_path, const std::string& id, const MapBook* map_entry,
                      const BuildOptions& o) {
  // Every option that changes a book's output: the stages' option tables whole (so a build
  // with `--set` never reuses a book made with other values), and the choices outside them.
  Json k;
  k["quire"] = kVersion;
  k["format"] = kCorpusFormat;
  k["binary"] = self_hash();
  k["pdf"] = file_sha256(o.cache_dir, pdf_path);
  k["id"] = id;
  if (map_entry) {
    k["title"] = map_entry->title;
    k["authors"] = map_entry->authors;
  }
  k["engine"] = static_cast<int>(o.extract.engine);
  k["password"] = sha256_hex(o.extract.password);
  k["ocr"] = static_cast<int>(o.extract.ocr);
  k["extract"] = options_json(extract_option_table(), o.extract);
  k["clean"] = options_json(clean_option_table(), o.clean);
  Json layout = options_json(layout_option_table(), o.layout);
  // The dictionary and the patterns count by their contents, not by where they are.
  layout["hyphenation.hyphen_dictionary"] = dictionary_identity(o.cache_dir, o.layout.hyphenation.hyphen_dictionary);
  layout["hyphenation.hyphen_patterns"] = file_identity(o.cache_dir, o.layout.hyphenation.hyphen_patterns);
  k["layout"] = std::move(layout);
  k["verify"] = o.verify;
  k["site"] = o.exporting.site;
  return sha256_hex(dump(k, false));
}

namespace {

// The outcome a whole entry holds; nullopt for a damaged or partial entry.
std::optional<BookOutcome> stored_outcome(const fs::path& entry) {
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
    o.verify_findings = j.at("verify_findings");
    if (j.contains("ledger")) o.ledger = ledger_from_json(j.at("ledger"));
    // An entry from before warnings were stored as objects holds lines: a miss, so that the
    // rebuild reports each warning's page, stage and code.
    for (const auto& w : j.at("warnings")) {
      if (!w.is_object()) return std::nullopt;
      o.warnings.push_back(diagnostic_from_json(w, ""));
    }
  } catch (const std::exception&) {
    return std::nullopt;  // a damaged entry is a miss; it is overwritten on store
  }
  if (!entry_is_whole(entry, {"book"})) return std::nullopt;
  return o;
}

}  // namespace

std::optional<BookOutcome> cache_fetch(const std::string& cache_dir, const std::string& key,
                                       const std::string& id, const std::string& out_dir,
                                       const std::string& installed_out) {
  fs::path entry = fs::path(cache_dir) / key;
  std::optional<BookOutcome> stored = stored_outcome(entry);
  if (!stored) return std::nullopt;
  BookOutcome& o = *stored;
  std::error_code ec;
  fs::path dest = fs::path(out_dir) / "books" / id;
  fs::remove_all(dest, ec);
  const bool linked =
      !installed_out.empty() && link_installed(entry, installed_out, {"books/" + id}, fs::path(out_dir));
  if (!linked) fs::copy(entry / "book", dest, fs::copy_options::recursive, ec);
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
  if (!ec && !write_contents(tmp, {"book"})) ec = std::make_error_code(std::errc::io_error);
  if (!ec) {
    // The warnings as objects (outcome_to_json has their lines, for the log's book_finished).
    Json j = outcome_to_json(outcome);
    Json warnings = Json::array();
    for (const auto& w : outcome.warnings) warnings.push_back(to_json(w));
    j["warnings"] = std::move(warnings);
    std::ofstream(tmp / "outcome.json") << dump(j, true);
  }
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
const char* const kIndexFiles[] = {"corpus.jsonl", "manifest.json", "site", "epub"};

}  // namespace

std::string index_cache_key(const std::vector<std::pair<std::string, std::string>>& books,
                            const std::string& map_path, const BuildOptions& o) {
  Json k;
  k["quire"] = kVersion;
  k["format"] = kCorpusFormat;
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
  k["export"] = options_json(export_option_table(), o.exporting);
  return sha256_hex(dump(k, false));
}

bool index_cache_fetch(const std::string& cache_dir, const std::string& key, const std::string& out_dir,
                       const std::string& installed_out) {
  fs::path entry = fs::path(cache_dir) / "index" / key;
  std::error_code ec;
  const std::vector<std::string> index_files(std::begin(kIndexFiles), std::end(kIndexFiles));
  if (!fs::is_regular_file(entry / "complete", ec) || !entry_is_whole(entry, index_files)) return false;
  if (!installed_out.empty() &&
      link_installed(entry, installed_out, std::vector<std::string>(std::begin(kIndexFiles), std::end(kIndexFiles)),
                     fs::path(out_dir)))
    return true;
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
  if (!ec && !write_contents(tmp, std::vector<std::string>(std::begin(kIndexFiles), std::end(kIndexFiles))))
    ec = std::make_error_code(std::errc::io_error);
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

void cache_note_installed(const std::string& cache_dir, const std::string& out,
                          const std::vector<std::pair<std::string, std::string>>& books, const std::string& index_key) {
  for (const auto& [id, key] : books)
    if (!key.empty()) record_installed(fs::path(cache_dir) / key, out, {"books/" + id});
  if (!index_key.empty())
    record_installed(fs::path(cache_dir) / "index" / index_key, out,
                     std::vector<std::string>(std::begin(kIndexFiles), std::end(kIndexFiles)));
}

std::optional<std::vector<BookOutcome>> cache_unchanged_output(
    const std::string& cache_dir, const std::string& out, const std::vector<std::pair<std::string, std::string>>& books,
    const std::string& index_key) {
  std::error_code ec;
  const fs::path root(out);
  if (index_key.empty() || !fs::is_directory(root / "books", ec)) return std::nullopt;
  // Nothing in OUT that the build would not make: its corpus-level files and its books.
  std::set<std::string> top(std::begin(kIndexFiles), std::end(kIndexFiles));
  top.insert("books");
  for (const auto& e : fs::directory_iterator(root, ec))
    if (!top.count(e.path().filename().string())) return std::nullopt;
  std::set<std::string> ids;
  for (const auto& [id, key] : books) ids.insert(id);
  size_t held = 0;
  for (const auto& e : fs::directory_iterator(root / "books", ec)) {
    if (!ids.count(e.path().filename().string())) return std::nullopt;
    ++held;
  }
  if (ec || held != ids.size() || ids.size() != books.size()) return std::nullopt;
  const fs::path index_entry = fs::path(cache_dir) / "index" / index_key;
  const std::vector<std::string> index_files(std::begin(kIndexFiles), std::end(kIndexFiles));
  if (!fs::is_regular_file(index_entry / "complete", ec) || !entry_is_whole(index_entry, index_files) ||
      !installed_as_recorded(index_entry, root, index_files))
    return std::nullopt;
  std::vector<BookOutcome> outcomes;
  for (const auto& [id, key] : books) {
    const fs::path entry = fs::path(cache_dir) / key;
    std::optional<BookOutcome> o = stored_outcome(entry);
    if (key.empty() || !o || !installed_as_recorded(entry, root, {"books/" + id})) return std::nullopt;
    o->id = id;
    o->ok = true;
    o->cached = true;
    outcomes.push_back(std::move(*o));
  }
  return outcomes;
}

}  // namespace quire
