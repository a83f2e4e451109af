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
#include "quire/json.h"
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
    std::string rel = it->path().lexically_relative(root).generic_string();  // (the walk is under root)
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

// A run of a block's text by code points.
std::string cp_substr(const std::string& text, size_t at, size_t len) {
  size_t b = 0, cp = 0;
  auto lead = [&](size_t i) { return (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80; };
  while (b < text.size() && cp < at) {
    ++b;
    while (b < text.size() && !lead(b)) ++b;
    ++cp;
  }
  size_t e = b;
  while (e < text.size() && cp < at + len) {
    ++e;
    while (e < text.size() && !lead(e)) ++e;
    ++cp;
  }
  return text.substr(b, e - b);
}

// The inline styles and links of a chapter's blocks whose text is the same on both sides but
// styled or linked differently, one line each: what a unified diff of the JSON shows only as
// numbers.
std::string inline_changes(const std::string& expected, const std::string& actual) {
  std::vector<Block> be, ba;
  try {
    const Json je = Json::parse(expected), ja = Json::parse(actual);
    for (const auto& j : je.at("blocks")) be.push_back(block_from_json(j));
    for (const auto& j : ja.at("blocks")) ba.push_back(block_from_json(j));
  } catch (const std::exception&) {
    return {};  // not a chapter's blocks: the unified diff says it all
  }
  auto runs = [](const Block& b) {
    std::set<std::string> out;
    for (const auto& r : b.styles) out.insert(std::string(to_string(r.style)) + " \"" + cp_substr(b.text, r.at, r.len) + "\"");
    for (const auto& l : b.links) out.insert("link \"" + cp_substr(b.text, l.at, l.len) + "\" -> " + l.href);
    return out;
  };
  std::string out;
  for (size_t i = 0; i < std::min(be.size(), ba.size()); ++i) {
    if (be[i].text != ba[i].text || (be[i].styles == ba[i].styles && be[i].links == ba[i].links)) continue;
    const auto re = runs(be[i]), ra = runs(ba[i]);
    for (const auto& r : re)
      if (!ra.count(r)) out += "  block " + std::to_string(i + 1) + " (page " + std::to_string(be[i].page) + "): - " + r + "\n";
    for (const auto& r : ra)
      if (!re.count(r)) out += "  block " + std::to_string(i + 1) + " (page " + std::to_string(ba[i].page) + "): + " + r + "\n";
  }
  return out;
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
        if (is_chapter_json(rel, fa))
          if (std::string changes = inline_changes(te, ta); !changes.empty())
            out << "styles and links changed in " << rel << ":\n" << changes;
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
