// EPUB 3: each book, and the learning map, as one archive of XHTML chapters, their figures,
// a style sheet and a navigation document; written to pass epubcheck with no warning.
#include "epub.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "inline.h"
#include "quire/error.h"
#include "quire/parallel.h"
#include "quire/text.h"
#include "quire/typography.h"
#include "util.h"
#include "zip.h"

namespace quire::exporting {

namespace fs = std::filesystem;

namespace {

// The package's dcterms:modified, which EPUB requires: a fixed date rather than the time of
// the build, so that the archive is the same bytes at every run.
constexpr const char* kModified = "2000-01-01T00:00:00Z";
// The books are read in English (the site's pages say so too); the map says no other.
constexpr const char* kLanguage = "en";

constexpr const char* kStyle =
    "body { font-family: serif; line-height: 1.45; margin: 0 1em; }\n"
    "h1, h2, h3, h4, h5, h6 { font-family: sans-serif; line-height: 1.2; }\n"
    ".opener { display: block; font-size: 0.7em; font-weight: normal; }\n"
    "pre { font-family: monospace; font-size: 0.85em; white-space: pre-wrap; background: #f4f4f4; padding: 0.5em; }\n"
    "code { font-family: monospace; }\n"
    "figure { margin: 1em 0; text-align: center; }\n"
    "figure img { max-width: 100%; }\n"
    ".caption { font-size: 0.9em; text-align: center; }\n"
    ".footnote { font-size: 0.85em; }\n"
    "aside.note { border-left: 3px solid #888; padding-left: 0.8em; margin: 1em 0; }\n"
    ".note-title { font-weight: bold; }\n"
    "ul.list { padding-left: 1.5em; }\n"
    "li.printed { list-style: none; }\n"
    "li.term { list-style: none; font-weight: bold; }\n"
    "table { border-collapse: collapse; margin: 1em 0; }\n"
    "td, th { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }\n";

// Text for XML: escaped as for HTML, and the C0 controls XML 1.0 does not allow (a form feed
// in a listing) as U+FFFD, which html_escape already makes of NUL.
std::string xml(std::string_view s) {
  std::string clean;
  clean.reserve(s.size());
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\0') clean += "\xEF\xBF\xBD";
    else clean += c;
  }
  return html_escape(clean);
}

// An XML id from a block's anchor: an NCName ("a-" and the anchor's safe characters).
std::string anchor_id(const std::string& anchor) {
  std::string id = "a-";
  for (char c : anchor) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                    c == '_' || c == '.';
    id += ok ? c : '_';
  }
  return id;
}

// A link out of the book is kept where its URI is one a reading system can follow and
// epubcheck accepts as written: a web or mail address of URI characters only.
bool followable_uri(const std::string& href) {
  const bool scheme = href.rfind("http://", 0) == 0 || href.rfind("https://", 0) == 0 || href.rfind("mailto:", 0) == 0;
  if (!scheme || href.size() > 2000) return false;
  for (size_t i = 0; i < href.size(); ++i) {
    const char c = href[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string_view("-._~:/?#[]@!$&'()*+,;=").find(c) != std::string_view::npos;
    if (c == '%') {
      if (i + 2 >= href.size() || !std::isxdigit(static_cast<unsigned char>(href[i + 1])) ||
          !std::isxdigit(static_cast<unsigned char>(href[i + 2])))
        return false;
      continue;
    }
    if (!ok) return false;
  }
  // A fragment may hold no second '#'.
  const size_t hash = href.find('#');
  return hash == std::string::npos || href.find('#', hash + 1) == std::string::npos;
}

// One chapter of an archive: which, its file name, its blocks.
struct Part {
  size_t book = 0, chapter = 0;
  std::string path;  // in EPUB/: "text/<book>/<chapter>.xhtml"
};

struct NavItem {
  std::string href, text;
  std::vector<NavItem> children;
};

std::string nav_list(const std::vector<NavItem>& items, const std::string& indent) {
  if (items.empty()) return {};
  std::string out = indent + "<ol>\n";
  for (const auto& it : items) {
    out += indent + "  <li>" + (it.href.empty() ? "<span>" + xml(it.text) + "</span>"
                                                 : "<a href=\"" + xml(it.href) + "\">" + xml(it.text) + "</a>");
    if (!it.children.empty()) out += "\n" + nav_list(it.children, indent + "    ") + indent + "  ";
    out += "</li>\n";
  }
  return out + indent + "</ol>\n";
}

// Headings below the chapter's title, nested by level, as navigation entries.
std::vector<NavItem> heading_tree(const std::vector<std::tuple<int, std::string, std::string>>& headings,
                                  const std::string& file) {
  std::vector<NavItem> top;
  std::vector<std::pair<int, std::vector<NavItem>*>> stack;  // (level, the list its children go into)
  for (const auto& [level, id, text] : headings) {
    while (!stack.empty() && stack.back().first >= level) stack.pop_back();
    std::vector<NavItem>& into = stack.empty() ? top : *stack.back().second;
    into.push_back({file + "#" + id, text, {}});
    stack.push_back({level, &into.back().children});
  }
  return top;
}

std::string xhtml_head(const std::string& title, const std::string& to_root) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n"
         "<html xmlns=\"http://www.w3.org/1999/xhtml\" xmlns:epub=\"http://www.idpf.org/2007/ops\" lang=\"" +
         std::string(kLanguage) + "\" xml:lang=\"" + kLanguage + "\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>" +
         xml(title) + "</title>\n<link rel=\"stylesheet\" type=\"text/css\" href=\"" + to_root + "style.css\"/>\n</head>\n";
}

// Anchors of a book's chapters: which chapter holds each.
using Anchors = std::map<std::string, size_t>;

struct ChapterHtml {
  std::string xhtml;
  std::vector<std::tuple<int, std::string, std::string>> headings;  // below the title: level, id, text
  std::vector<std::string> images;  // figure files, relative to OUT
};

// One chapter as XHTML. `href_of(chapter, id)`: the link to an id in another chapter of the
// book, "" when that chapter is not in this archive.
ChapterHtml chapter_xhtml(const SiteBook& book, size_t c, const std::vector<Block>& blocks, const Anchors& anchors,
                          const std::function<std::string(size_t chapter)>& file_of) {
  ChapterHtml out;
  const SiteChapter& ch = book.chapters[c];
  const std::string title = ch.title.empty() ? "Chapter " + std::to_string(c + 1) : ch.title;
  InlineMarkup m;
  m.text = [](std::string_view s, bool, bool) { return xml(s); };
  m.code = [](std::string_view s) { return "<code>" + xml(s) + "</code>"; };
  m.em_open = "<em>";
  m.em_close = "</em>";
  m.strong_open = "<strong>";
  m.strong_close = "</strong>";
  auto target = [&](const std::string& href) -> std::string {
    if (href.empty()) return {};
    if (href[0] == '#') {
      auto it = anchors.find(href.substr(1));
      if (it == anchors.end()) return {};
      if (it->second == c) return "#" + anchor_id(it->first);
      std::string file = file_of(it->second);
      return file.empty() ? std::string() : file + "#" + anchor_id(it->first);
    }
    return followable_uri(href) ? href : std::string();
  };
  m.link = [&](const std::string& href) {
    const std::string t = target(href);
    return t.empty() ? std::string() : "<a href=\"" + xml(t) + "\">";
  };
  m.link_close = [&](const std::string& href) { return target(href).empty() ? std::string() : "</a>"; };
  auto text = [&](const Block& b) { return render_text(b, m, [](const std::string& mk) { return "<sup>" + xml(mk) + "</sup>"; }); };

  std::string body;
  bool in_list = false;
  int heading_number = 0;
  bool has_title = false;
  for (const auto& b : blocks) {
    if (b.type != BlockType::ListItem && in_list) {
      body += "</ul>\n";
      in_list = false;
    }
    const std::string id = b.anchor.empty() ? std::string() : " id=\"" + anchor_id(b.anchor) + "\"";
    switch (b.type) {
      case BlockType::Heading: {
        const int level = std::clamp(b.level, 1, typography::kDeepestHeadingLevel);
        std::string hid = b.anchor.empty() ? "h-" + std::to_string(++heading_number) : anchor_id(b.anchor);
        body += "<h" + std::to_string(level) + " id=\"" + hid + "\">";
        for (const auto& l : b.labels) body += "<span class=\"opener\">" + xml(l) + "</span>";
        body += text(b) + "</h" + std::to_string(level) + ">\n";
        if (b.level <= 1) has_title = true;
        else if (!whitespace_tokens(b.text).empty()) out.headings.push_back({b.level, hid, b.text});
        break;
      }
      case BlockType::Code:
        body += "<pre" + id + "><code>" + xml(b.text) + "</code></pre>\n";
        break;
      case BlockType::ListItem:
        if (!in_list) {
          body += "<ul class=\"list\">\n";
          in_list = true;
        }
        body += "<li class=\"" + std::string(b.drawn_marker ? "drawn" : b.term ? "term" : "printed") + "\"" +
                (b.level > 1 ? " style=\"margin-left:" + std::to_string(1.5 * (b.level - 1)).substr(0, 3) + "em\""
                             : std::string()) +
                ">" + text(b) + "</li>\n";
        break;
      case BlockType::Caption:
        body += "<p class=\"caption\"" + id + ">" + text(b) + "</p>\n";
        break;
      case BlockType::Footnote:
        body += "<p class=\"footnote\"" + id + ">" + text(b) + "</p>\n";
        break;
      case BlockType::Note:
        body += "<aside class=\"note\"" + id + ">";
        if (!b.title.empty()) body += "<p class=\"note-title\">" + xml(b.title) + "</p>";
        body += "<p>" + text(b) + "</p></aside>\n";
        break;
      case BlockType::Table:
        if (b.rows.empty()) {
          body += "<pre" + id + ">" + xml(b.text) + "</pre>\n";
          break;
        }
        body += "<table" + id + ">\n";
        for (size_t r = 0; r < b.rows.size(); ++r) {
          const bool header = static_cast<int>(r) < b.header_rows;
          if (r == 0 && header) body += "<thead>\n";
          if (static_cast<int>(r) == b.header_rows) body += "<tbody>\n";
          body += "<tr>";
          for (const auto& cell : b.rows[r]) body += (header ? "<th>" : "<td>") + xml(cell) + (header ? "</th>" : "</td>");
          body += "</tr>\n";
          if (header && static_cast<int>(r) + 1 == b.header_rows) body += "</thead>\n";
        }
        if (static_cast<int>(b.rows.size()) > b.header_rows) body += "</tbody>\n";
        body += "</table>\n";
        break;
      case BlockType::Figure: {
        std::string alt = b.figure_ref.empty() ? "Figure" : b.figure_ref;
        body += "<figure" + id + ">";
        if (!b.image.empty()) {
          out.images.push_back(b.image);
          body += "<img src=\"../../images/" + xml(book.id) + "/" + xml(fs::path(b.image).filename().string()) +
                  "\" alt=\"" + xml(alt) + "\"/>";
        }
        body += "</figure>\n";
        break;
      }
      case BlockType::Paragraph:
        body += "<p" + id + ">" + text(b) + "</p>\n";
        break;
    }
  }
  if (in_list) body += "</ul>\n";
  if (!has_title) body = "<h1>" + xml(title) + "</h1>\n" + body;
  out.xhtml = xhtml_head(title, "../../") + "<body>\n<section epub:type=\"chapter\">\n" + body +
              "</section>\n</body>\n</html>\n";
  return out;
}

struct Archive {
  std::string identifier, title, description;
  std::vector<std::string> authors;
  std::vector<std::pair<std::string, std::string>> front;  // pages before the chapters: path, XHTML
  std::vector<Part> parts;           // the spine, in reading order
  std::vector<NavItem> nav;          // filled while the parts are written
};

// Builds one archive: parts' chapters read with `blocks_of`, figures read from OUT.
std::string build_archive(const std::string& out_dir, const SiteModel& site, Archive& a,
                          const ChapterBlocks& blocks_of, const std::vector<Anchors>& anchors,
                          const std::function<std::vector<NavItem>(const std::map<std::pair<size_t, size_t>, std::vector<NavItem>>&)>& make_nav) {
  ZipWriter zip;
  // The mimetype first, stored: how a reading system knows the file (OCF 3.0).
  zip.add("mimetype", "application/epub+zip", false);
  zip.add("META-INF/container.xml",
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<container version=\"1.0\" xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\">\n"
          "  <rootfiles>\n"
          "    <rootfile full-path=\"EPUB/package.opf\" media-type=\"application/oebps-package+xml\"/>\n"
          "  </rootfiles>\n</container>\n");
  std::map<std::pair<size_t, size_t>, std::string> file_of;
  for (const auto& p : a.parts) file_of[{p.book, p.chapter}] = p.path;
  std::map<std::pair<size_t, size_t>, std::vector<NavItem>> headings;
  std::vector<std::pair<std::string, std::string>> chapters;  // path, xhtml
  std::set<std::string> images;                              // relative to OUT, sorted
  for (const auto& p : a.parts) {
    const SiteBook& book = site.books[p.book];
    ChapterHtml h = chapter_xhtml(book, p.chapter, blocks_of(p.book, p.chapter), anchors[p.book], [&](size_t c) {
      auto it = file_of.find({p.book, c});
      // Chapters of one book share a folder: a link goes to the file beside.
      return it == file_of.end() ? std::string() : fs::path(it->second).filename().string();
    });
    headings[{p.book, p.chapter}] = heading_tree(h.headings, "text/" + book.id + "/" + fs::path(p.path).filename().string());
    for (auto& img : h.images) images.insert(std::move(img));
    chapters.push_back({p.path, std::move(h.xhtml)});
  }
  a.nav = make_nav(headings);

  std::string nav = xhtml_head(a.title, "") + "<body>\n<nav epub:type=\"toc\" id=\"toc\">\n<h1>" + xml(a.title) +
                    "</h1>\n" + nav_list(a.nav, "") + "</nav>\n</body>\n</html>\n";
  std::string opf = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<package xmlns=\"http://www.idpf.org/2007/opf\" version=\"3.0\" unique-identifier=\"id\" xml:lang=\"" +
                    std::string(kLanguage) + "\">\n  <metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n" +
                    "    <dc:identifier id=\"id\">" + xml(a.identifier) + "</dc:identifier>\n" +
                    "    <dc:title>" + xml(a.title) + "</dc:title>\n";
  for (const auto& au : a.authors) opf += "    <dc:creator>" + xml(au) + "</dc:creator>\n";
  opf += "    <dc:language>" + std::string(kLanguage) + "</dc:language>\n";
  if (!a.description.empty()) opf += "    <dc:description>" + xml(a.description) + "</dc:description>\n";
  opf += "    <dc:publisher>quire</dc:publisher>\n";
  opf += "    <meta property=\"dcterms:modified\">" + std::string(kModified) + "</meta>\n  </metadata>\n  <manifest>\n";
  opf += "    <item id=\"nav\" href=\"nav.xhtml\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>\n";
  opf += "    <item id=\"style\" href=\"style.css\" media-type=\"text/css\"/>\n";
  for (size_t i = 0; i < a.front.size(); ++i)
    opf += "    <item id=\"f" + std::to_string(i + 1) + "\" href=\"" + xml(a.front[i].first) +
           "\" media-type=\"application/xhtml+xml\"/>\n";
  for (size_t i = 0; i < chapters.size(); ++i)
    opf += "    <item id=\"c" + std::to_string(i + 1) + "\" href=\"" + xml(chapters[i].first) +
           "\" media-type=\"application/xhtml+xml\"/>\n";
  std::vector<std::pair<std::string, std::string>> image_files;  // archive path, OUT path
  for (const auto& img : images) {
    // books/<id>/figures/<file>
    const fs::path p(img);
    const std::string id = p.parent_path().parent_path().filename().string();
    image_files.push_back({"images/" + id + "/" + p.filename().string(), img});
  }
  for (size_t i = 0; i < image_files.size(); ++i)
    opf += "    <item id=\"i" + std::to_string(i + 1) + "\" href=\"" + xml(image_files[i].first) +
           "\" media-type=\"image/png\"/>\n";
  opf += "  </manifest>\n  <spine>\n";
  for (size_t i = 0; i < a.front.size(); ++i) opf += "    <itemref idref=\"f" + std::to_string(i + 1) + "\"/>\n";
  for (size_t i = 0; i < chapters.size(); ++i) opf += "    <itemref idref=\"c" + std::to_string(i + 1) + "\"/>\n";
  opf += "  </spine>\n</package>\n";

  zip.add("EPUB/package.opf", opf);
  zip.add("EPUB/nav.xhtml", nav);
  zip.add("EPUB/style.css", kStyle);
  for (const auto& [path, x] : a.front) zip.add("EPUB/" + path, x);
  for (const auto& [path, x] : chapters) zip.add("EPUB/" + path, x);
  // PNGs are deflated already: stored, they cost no time to pack.
  for (const auto& [in_zip, from] : image_files) zip.add("EPUB/" + in_zip, read_file((fs::path(out_dir) / from).string()), false);
  return zip.finish();
}

}  // namespace

std::string map_epub_name(const SiteModel& site) {
  for (const auto& b : site.books)
    if (b.id == "map") return "learning-map.epub";
  return "map.epub";
}

void write_epubs(const std::string& out_dir, const SiteModel& site, const ChapterBlocks& blocks_of, int jobs) {
  const fs::path dir = fs::path(out_dir) / "epub";
  fs::create_directories(dir);
  // Each book's anchors, to lead internal links to the chapter that holds them.
  std::vector<Anchors> anchors(site.books.size());
  parallel_for(site.books.size(), jobs, [&](size_t b) {
    for (size_t c = 0; c < site.books[b].chapters.size(); ++c)
      for (const auto& bl : blocks_of(b, c))
        if (!bl.anchor.empty()) anchors[b].emplace(bl.anchor, c);
  });
  auto path_of = [&](size_t b, size_t c) {
    return "text/" + site.books[b].id + "/" + site.books[b].chapters[c].id + ".xhtml";
  };
  auto chapter_title = [&](size_t b, size_t c) {
    const auto& t = site.books[b].chapters[c].title;
    return t.empty() ? "Chapter " + std::to_string(c + 1) : t;
  };
  parallel_for(site.books.size(), jobs, [&](size_t b) {
    const SiteBook& book = site.books[b];
    Archive a;
    a.identifier = "urn:quire:book:" + book.id;
    a.title = book.title.empty() ? book.id : book.title;
    a.authors = book.authors;
    for (size_t c = 0; c < book.chapters.size(); ++c) a.parts.push_back({b, c, path_of(b, c)});
    std::string bytes = build_archive(out_dir, site, a, blocks_of, anchors, [&](const auto& headings) {
      std::vector<NavItem> nav;
      for (size_t c = 0; c < book.chapters.size(); ++c)
        nav.push_back({path_of(b, c), chapter_title(b, c), headings.at({b, c})});
      return nav;
    });
    write_file((dir / (book.id + ".epub")).string(), bytes);
  });

  // The learning map: its sections' chapters in the map's reading order, one book after
  // another where the map has no sections.
  Archive a;
  a.title = site.title.empty() ? "Learning map" : site.title;
  a.identifier = "urn:quire:map:" + slugify(a.title, 60, "map");
  a.description = site.intro;
  std::set<std::string> authors;
  for (const auto& b : site.books)
    for (const auto& au : b.authors)
      if (authors.insert(au).second) a.authors.push_back(au);
  for (const auto& [b, c] : site.order) a.parts.push_back({b, c, path_of(b, c)});
  // The map itself opens the book: its sections with every entry (a chapter may stand in
  // more than one), its notes and gaps.
  auto source = [&](const SiteEntry& e) {
    const SiteBook& book = site.books[e.book];
    return book.short_name.empty() ? book.title : book.short_name;
  };
  std::string page = "<h1>" + xml(a.title) + "</h1>\n";
  if (!site.intro.empty()) page += "<p>" + xml(site.intro) + "</p>\n";
  for (const auto& s : site.sections) {
    if (s.entries.empty()) continue;
    page += "<h2>" + xml(s.title) + "</h2>\n<ul>\n";
    for (const auto& e : s.entries)
      page += "<li><a href=\"" + xml(path_of(e.book, e.chapter)) + "\">" +
              xml(e.display.empty() ? chapter_title(e.book, e.chapter) : e.display) + "</a> (" + xml(source(e)) +
              ")</li>\n";
    page += "</ul>\n";
  }
  for (const auto& n : site.notes) {
    page += "<h2>" + xml(n.title) + "</h2>\n";
    if (n.items.empty()) continue;
    page += "<ul>\n";
    for (const auto& item : n.items) page += "<li>" + xml(item) + "</li>\n";
    page += "</ul>\n";
  }
  if (!site.gaps.empty()) {
    page += "<h2>Gaps</h2>\n<ul>\n";
    for (const auto& g : site.gaps) page += "<li><strong>" + xml(g.topic) + "</strong>: " + xml(g.note) + "</li>\n";
    page += "</ul>\n";
  }
  if (!site.footer.empty()) page += "<p>" + xml(site.footer) + "</p>\n";
  a.front.push_back({"map.xhtml", xhtml_head(a.title, "") + "<body>\n<section>\n" + page + "</section>\n</body>\n</html>\n"});
  std::string bytes = build_archive(out_dir, site, a, blocks_of, anchors, [&](const auto& headings) {
    // The navigation goes in the order of the spine (epubcheck's NAV-011): a chapter is led
    // to where it first stands on the map; the map page lists it wherever it stands.
    std::vector<NavItem> nav = {{"map.xhtml", a.title, {}}};
    std::set<std::pair<size_t, size_t>> listed;
    for (const auto& s : site.sections) {
      NavItem section{"", s.title.empty() ? "Section" : s.title, {}};
      for (const auto& e : s.entries) {
        if (!listed.insert({e.book, e.chapter}).second) continue;
        const std::string label = e.display.empty() ? chapter_title(e.book, e.chapter) : e.display;
        section.children.push_back({path_of(e.book, e.chapter), label + " (" + source(e) + ")",
                                    headings.at({e.book, e.chapter})});
      }
      // A navigation heading must lead to a list: an empty section is left out.
      if (!section.children.empty()) nav.push_back(std::move(section));
    }
    return nav;
  });
  write_file((dir / map_epub_name(site)).string(), bytes);
}

}  // namespace quire::exporting
