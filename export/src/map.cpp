// map.toml (spec/map.md): parsed with toml++, every error with FILE:LINE:COLUMN.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include <toml++/toml.h>
#include <unicode/unistr.h>

#include "quire/error.h"
#include "quire/export.h"

namespace quire {

namespace fs = std::filesystem;

std::string SourcePos::str() const { return file + ":" + std::to_string(line) + ":" + std::to_string(column); }

namespace {

// A key in double quotes, for messages.
std::string quoted(std::string_view key) {
  std::string q(1, '"');
  q += key;
  q += '"';
  return q;
}

class MapReader {
 public:
  explicit MapReader(std::string path) : path_(std::move(path)) {}

  SourcePos pos(const toml::source_region& r) const {
    return {path_, static_cast<int>(r.begin.line), static_cast<int>(r.begin.column)};
  }

  [[noreturn]] void fail(const toml::source_region& r, const std::string& what) const {
    throw Error(ExitCode::BadMap, "", 0, pos(r).str() + ": " + what);
  }

  void check_keys(const toml::table& t, std::initializer_list<std::string_view> allowed, const std::string& where) const {
    for (auto&& [key, value] : t) {
      if (std::find(allowed.begin(), allowed.end(), key.str()) != allowed.end()) continue;
      std::string list;
      for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      fail(key.source(), "unknown key \"" + std::string(key.str()) + "\" in " + where + " (allowed: " + list + ")");
    }
  }

  // A string value; "" when absent and optional.
  std::string string(const toml::table& t, std::string_view key, const std::string& where, bool required) const {
    const toml::node* n = t.get(key);
    if (!n) {
      if (required) fail(t.source(), where + " needs \"" + std::string(key) + "\"");
      return {};
    }
    if (!n->is_string()) fail(n->source(), quoted(key) + " must be a string");
    return std::string(*n->value<std::string_view>());
  }

  std::vector<std::string> strings(const toml::table& t, std::string_view key) const {
    std::vector<std::string> out;
    const toml::node* n = t.get(key);
    if (!n) return out;
    const toml::array* a = n->as_array();
    if (!a) fail(n->source(), quoted(key) + " must be an array of strings");
    for (const auto& e : *a) {
      if (!e.is_string()) fail(e.source(), quoted(key) + " must contain only strings");
      out.emplace_back(*e.value<std::string_view>());
    }
    return out;
  }

  // The tables of an array of tables ([[books]] or an array of inline tables).
  std::vector<const toml::table*> tables(const toml::table& t, std::string_view key) const {
    std::vector<const toml::table*> out;
    const toml::node* n = t.get(key);
    if (!n) return out;
    const toml::array* a = n->as_array();
    if (!a) fail(n->source(), quoted(key) + " must be an array of tables ([[" + std::string(key) + "]])");
    for (const auto& e : *a) {
      if (!e.is_table()) fail(e.source(), "each entry of \"" + std::string(key) + "\" must be a table");
      out.push_back(e.as_table());
    }
    return out;
  }

 private:
  std::string path_;
};

bool valid_id(const std::string& id) {
  return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

std::string fold(const std::string& s) {
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(s);
  u.foldCase();
  std::string out;
  u.toUTF8String(out);
  return out;
}

std::string describe(const std::variant<int, std::string>& c) {
  if (std::holds_alternative<int>(c)) return "chapter " + std::to_string(std::get<int>(c));
  return "chapter \"" + std::get<std::string>(c) + "\"";
}

std::string chapter_list(const Book& book) {
  std::string list;
  for (size_t i = 0; i < book.chapters.size(); ++i) {
    const Chapter& c = book.chapters[i];
    list += "\n  " + (c.number.empty() ? std::string("-") : c.number) + "  " + c.title;
  }
  return list.empty() ? "\n  (the book has no chapters)" : list;
}

}  // namespace

CorpusMap read_map(const std::string& path, const std::string& pdf_dir) {
  if (!fs::exists(path)) throw Error(ExitCode::NotFound, path, 0, "map file not found");
  MapReader r(path);
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    r.fail(e.source(), std::string(e.description()));
  }
  CorpusMap map;
  map.path = path;
  r.check_keys(root, {"title", "intro", "footer", "books", "sections", "notes", "gaps"}, "the map");
  map.title = r.string(root, "title", "the map", false);
  map.intro = r.string(root, "intro", "the map", false);
  map.footer = r.string(root, "footer", "the map", false);

  const fs::path base = pdf_dir.empty() ? fs::path(path).parent_path() : fs::path(pdf_dir);
  std::map<std::string, SourcePos> ids;
  auto books = r.tables(root, "books");
  if (books.empty()) r.fail(root.source(), "the map names no books ([[books]] with id and file)");
  for (const toml::table* t : books) {
    r.check_keys(*t, {"id", "file", "title", "authors", "short"}, "[[books]]");
    MapBook b;
    b.pos = r.pos(t->source());
    b.id = r.string(*t, "id", "[[books]]", true);
    const toml::source_region& id_at = t->get("id")->source();
    if (!valid_id(b.id)) r.fail(id_at, "book id \"" + b.id + "\" must be made of a-z, 0-9 and '-'");
    if (auto it = ids.find(b.id); it != ids.end())
      r.fail(id_at, "duplicate book id \"" + b.id + "\" (first at " + it->second.str() + ")");
    ids[b.id] = r.pos(id_at);
    b.file = r.string(*t, "file", "[[books]]", true);
    b.title = r.string(*t, "title", "[[books]]", false);
    b.authors = r.strings(*t, "authors");
    b.short_name = r.string(*t, "short", "[[books]]", false);
    map.books.push_back(std::move(b));
  }

  for (const toml::table* t : r.tables(root, "sections")) {
    r.check_keys(*t, {"title", "chapters"}, "[[sections]]");
    MapSection s;
    s.title = r.string(*t, "title", "[[sections]]", true);
    for (const toml::table* c : r.tables(*t, "chapters")) {
      r.check_keys(*c, {"book", "chapter", "title"}, "a chapter entry");
      MapChapterRef ref;
      ref.pos = r.pos(c->source());
      ref.book = r.string(*c, "book", "a chapter entry", true);
      if (!ids.count(ref.book)) r.fail(c->get("book")->source(), "unknown book \"" + ref.book + "\" (not in [[books]])");
      const toml::node* ch = c->get("chapter");
      if (!ch) r.fail(c->source(), "a chapter entry needs \"chapter\" (a number or a title)");
      if (ch->is_integer()) {
        int64_t n = *ch->value<int64_t>();
        if (n < 1 || n > 100000) r.fail(ch->source(), "chapter number must be 1 or more");
        ref.chapter = static_cast<int>(n);
      } else if (ch->is_string()) {
        std::string title(*ch->value<std::string_view>());
        if (title.empty()) r.fail(ch->source(), "chapter title must not be empty");
        ref.chapter = title;
      } else {
        r.fail(ch->source(), "\"chapter\" must be a number or a title");
      }
      ref.title = r.string(*c, "title", "a chapter entry", false);
      s.chapters.push_back(std::move(ref));
    }
    map.sections.push_back(std::move(s));
  }

  for (const toml::table* t : r.tables(root, "notes")) {
    r.check_keys(*t, {"title", "items"}, "[[notes]]");
    map.notes.push_back({r.string(*t, "title", "[[notes]]", true), r.strings(*t, "items")});
  }
  for (const toml::table* t : r.tables(root, "gaps")) {
    r.check_keys(*t, {"topic", "note"}, "[[gaps]]");
    map.gaps.push_back({r.string(*t, "topic", "[[gaps]]", true), r.string(*t, "note", "[[gaps]]", false)});
  }

  // Last, so that every other mistake is reported even before the PDFs are in place.
  for (size_t i = 0; i < books.size(); ++i) {
    fs::path pdf = base / map.books[i].file;
    std::error_code ec;
    if (!fs::is_regular_file(pdf, ec))
      r.fail(books[i]->get("file")->source(), "PDF file not found: " + pdf.string());
  }
  return map;
}

size_t resolve_chapter(const MapChapterRef& ref, const Book& book) {
  auto fail = [&](const std::string& why) -> size_t {
    throw Error(ExitCode::BadMap, "", 0,
                ref.pos.str() + ": " + describe(ref.chapter) + " of book \"" + book.id + "\": " + why +
                    "; the book's chapters are:" + chapter_list(book));
  };
  if (std::holds_alternative<int>(ref.chapter)) {
    const std::string want = std::to_string(std::get<int>(ref.chapter));
    bool any_number = false;
    for (size_t i = 0; i < book.chapters.size(); ++i) {
      if (book.chapters[i].number == want) return i;
      any_number |= !book.chapters[i].number.empty();
    }
    // A book whose chapters carry no printed numbers: count its body chapters instead.
    if (!any_number) {
      int n = 0;
      for (size_t i = 0; i < book.chapters.size(); ++i)
        if (book.chapters[i].kind == ChapterKind::Body && ++n == std::get<int>(ref.chapter)) return i;
    }
    return fail("no chapter with that number");
  }
  const std::string want = fold(std::get<std::string>(ref.chapter));
  for (size_t i = 0; i < book.chapters.size(); ++i)
    if (fold(book.chapters[i].title) == want) return i;
  std::vector<size_t> hits;
  for (size_t i = 0; i < book.chapters.size(); ++i)
    if (fold(book.chapters[i].title).find(want) != std::string::npos) hits.push_back(i);
  if (hits.size() == 1) return hits[0];
  if (hits.empty()) return fail("no chapter title matches");
  std::string names;
  for (size_t h : hits) names += (names.empty() ? "\"" : ", \"") + book.chapters[h].title + "\"";
  return fail("the title matches several chapters (" + names + ")");
}

}  // namespace quire
