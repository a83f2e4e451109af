// `quire diff`: two corpora compared file by file. The site is left out: it is made from
// the corpus files by the same code, so a difference there always shows in them first.
#include <algorithm>
#include <filesystem>
#include <map>
#include <ostream>
#include <set>

#include "quire/error.h"
#include "quire/export.h"
#include "quire/hash.h"
#include "util.h"

namespace quire {

namespace fs = std::filesystem;
using namespace exporting;

namespace {

std::set<std::string> corpus_files(const fs::path& root) {
  if (!fs::is_directory(root)) throw Error(ExitCode::NotFound, root.string(), 0, "not a folder");
  if (!fs::exists(root / "manifest.json"))
    throw Error(ExitCode::NotFound, root.string(), 0, "no manifest.json: not a quire corpus");
  std::set<std::string> files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    std::string rel = fs::relative(it->path(), root).generic_string();
    if (rel == "site" && it->is_directory()) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) files.insert(rel);
  }
  return files;
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool is_figure(const std::string& rel) { return rel.find("/figures/") != std::string::npos; }

// books/<id>/<NN>-<slug>.md names a chapter; its .json twin is reported with it.
bool is_chapter_md(const std::string& rel) {
  return rel.rfind("books/", 0) == 0 && ends_with(rel, ".md") && std::count(rel.begin(), rel.end(), '/') == 2;
}

std::string chapter_name(const std::string& rel) { return rel.substr(6, rel.size() - 6 - 3); }

bool is_chapter_json(const std::string& rel, const std::set<std::string>& files) {
  return ends_with(rel, ".json") && files.count(rel.substr(0, rel.size() - 5) + ".md");
}

}  // namespace

bool diff_corpora(const std::string& actual, const std::string& expected, std::ostream& out) {
  const fs::path a(actual), e(expected);
  const auto fa = corpus_files(a), fe = corpus_files(e);
  std::set<std::string> all(fa.begin(), fa.end());
  all.insert(fe.begin(), fe.end());
  bool same = true;
  for (const auto& rel : all) {
    const bool in_a = fa.count(rel), in_e = fe.count(rel);
    if (in_a && in_e) {
      std::string ta = read_file((a / rel).string()), te = read_file((e / rel).string());
      if (ta == te) continue;
      same = false;
      if (is_figure(rel) || ends_with(rel, ".png")) {
        out << "figure changed: " << rel << " (sha256 " << sha256_hex(te) << " -> " << sha256_hex(ta) << ")\n";
      } else {
        out << unified_diff(te, ta, "expected/" + rel, "actual/" + rel);
      }
      continue;
    }
    same = false;
    const char* what = in_a ? "added" : "removed";
    const fs::path& root = in_a ? a : e;
    if (is_chapter_md(rel)) {
      out << "chapter " << what << ": " << chapter_name(rel) << "\n";
    } else if (is_chapter_json(rel, in_a ? fa : fe)) {
      continue;  // named with its chapter
    } else if (is_figure(rel)) {
      out << "figure " << what << ": " << rel << " (sha256 " << sha256_hex(read_file((root / rel).string())) << ")\n";
    } else {
      out << "file " << what << ": " << rel << "\n";
    }
  }
  return same;
}

}  // namespace quire
