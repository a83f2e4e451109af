// The reading site: static HTML that opens from disk (file://), with no server, network,
// external fonts or scripts. Every piece of text goes through html_escape.
#include "site.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "assets.h"
#include "search.h"
#include "inline.h"
#include "quire/parallel.h"
#include "quire/typography.h"
#include "util.h"

namespace quire::exporting {

namespace fs = std::filesystem;

namespace {

std::string esc(std::string_view s) { return html_escape(s); }

// Where a link of the corpus leads from a chapter's page: another chapter's Markdown file
// is that chapter's page beside it.
std::string site_href(const std::string& href) {
  const size_t hash = href.find('#');
  if (hash != std::string::npos && hash >= 3 && href.compare(hash - 3, 3, ".md") == 0 &&
      href.find(':') == std::string::npos && href.find('/') == std::string::npos)
    return href.substr(0, hash - 3) + ".html" + href.substr(hash);
  return href;
}

// A block's text, escaped, with its styles, links and note marks (raised).
std::string esc_text(const Block& b) {
  InlineMarkup m;
  m.text = [](std::string_view s, bool, bool) { return esc(s); };
  m.code = [](std::string_view s) { return "<code>" + esc(s) + "</code>"; };
  m.em_open = "<em>";
  m.em_close = "</em>";
  m.strong_open = "<strong>";
  m.strong_close = "</strong>";
  m.link = [](const std::string& href) { return "<a href=\"" + esc(site_href(href)) + "\">"; };
  m.link_close = [](const std::string&) { return std::string("</a>"); };
  return render_text(b, m, [](const std::string& mk) { return "<sup class=\"mark\">" + esc(mk) + "</sup>"; });
}

// The id attribute of a heading or figure that internal links point at.
std::string id_attr(const Block& b) { return b.anchor.empty() ? std::string() : " id=\"" + esc(b.anchor) + "\""; }

std::string chapter_href(const SiteModel& site, size_t b, size_t c) {
  return site.books[b].id + "/" + site.books[b].chapters[c].id + ".html";
}

// "A", "A & B", "A, B, C": how a book's cover names its authors.
std::string author_line(const std::vector<std::string>& authors) {
  if (authors.size() == 2) return authors[0] + " & " + authors[1];
  std::string a;
  for (const auto& x : authors) a += (a.empty() ? "" : ", ") + x;
  return a;
}

std::string book_label(const SiteBook& b) { return b.short_name.empty() ? b.title : b.short_name; }

// "Fregly 2" / "Fregly, Preface": where a map entry comes from.
std::string source_label(const SiteBook& b, const SiteChapter& c) {
  return book_label(b) + (c.number.empty() ? ", " + c.title : " " + c.number);
}

// A chapter's page body: its HTML, the plain text of each element that carries data-page
// (what the search index holds; result N opens the N-th), and its contents.
struct RenderedChapter {
  std::string html;
  std::vector<std::string> elements;
  std::vector<TocEntry> toc;
};

// Consecutive list items become one <ul>; a caption right after a figure becomes its
// <figcaption>; everything else is one element per block. A list item's text starts with
// the marker the book printed ("•", "1.", "(a)"), so the style sheet draws no marker of its
// own: the reader sees each item's marker once, as printed. Every heading has an id (the
// book's anchor, else "h<N>") and a link to itself.
RenderedChapter render_blocks(const std::vector<Block>& blocks, const std::string& chapter_title) {
  constexpr int kMaxHeadingLevel = 6;
  constexpr int kMaxTocLevel = 4;  // deeper headings would make the panel longer than it helps
  RenderedChapter r;
  std::string& out = r.html;
  std::set<std::string> anchors;
  for (const auto& b : blocks)
    if (!b.anchor.empty()) anchors.insert(b.anchor);
  bool in_list = false;
  bool has_title = !blocks.empty() && blocks[0].type == BlockType::Heading && blocks[0].level == 1;
  if (!has_title) {
    std::string id = "title";
    while (anchors.count(id)) id += "-";
    anchors.insert(id);
    out += "<h1 id=\"" + esc(id) + "\">" + esc(chapter_title) + "<a class=\"anchor\" href=\"#" + esc(id) +
           "\" aria-label=\"Link to this heading\">#</a></h1>\n";
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    const Block& b = blocks[i];
    if (b.type != BlockType::ListItem && in_list) {
      out += "</ul>\n";
      in_list = false;
    }
    const std::string page = " data-page=\"" + std::to_string(b.page) + "\"";
    std::string text = b.text;
    switch (b.type) {
      case BlockType::Heading: {
        const int level = std::clamp(b.level, 1, kMaxHeadingLevel);
        std::string h = std::to_string(level);
        std::string label, label_text;
        for (const auto& l : b.labels) {
          label += "<span class=\"opener\">" + esc(l) + "</span> ";
          label_text += l + " ";
        }
        text = label_text + b.text;
        std::string id = b.anchor;
        if (id.empty()) {
          id = "h" + std::to_string(r.elements.size() + 1);
          while (anchors.count(id)) id += "-";
          anchors.insert(id);
        }
        out += "<h" + h + " id=\"" + esc(id) + "\"" + page + ">" + label + esc_text(b) +
               "<a class=\"anchor\" href=\"#" + esc(id) + "\" aria-label=\"Link to this heading\">#</a></h" + h + ">\n";
        if (level >= 2 && level <= kMaxTocLevel) r.toc.push_back({level, id, esc_text(b)});
        break;
      }
      case BlockType::Paragraph:
        out += "<p" + page + ">" + esc_text(b) + "</p>\n";
        break;
      case BlockType::ListItem:
        if (!in_list) {
          out += "<ul>\n";
          in_list = true;
        }
        // An item's printed marker is part of its text, except a drawn one.
        {
          std::string classes = b.drawn_marker ? "drawn-marker" : b.term ? "term" : "";
          if (b.level > 1) classes += std::string(classes.empty() ? "" : " ") + "level-" + std::to_string(std::min(b.level, typography::kDeepestHeadingLevel));
          out += "<li" + (classes.empty() ? std::string() : " class=\"" + classes + "\"") + page + ">" + esc_text(b) + "</li>\n";
        }
        break;
      case BlockType::Code:
        // The line break after <pre> would be dropped by the HTML parser; <code> starts the
        // content so that a listing's first blank line survives.
        out += "<pre class=\"code\"" + page + "><code>" + esc(b.text) + "</code></pre>\n";
        break;
      case BlockType::Table:
        // A table scrolls inside its own box on a narrow screen, not the page.
        if (b.rows.empty()) {
          out += "<div class=\"table\"" + page + "><pre>" + esc(b.text) + "</pre></div>\n";
          break;
        }
        out += "<table" + page + ">\n";
        for (size_t row = 0; row < b.rows.size(); ++row) {
          const bool head = row < static_cast<size_t>(std::max(0, b.header_rows));
          if (row == 0) out += head ? "<thead>\n" : "<tbody>\n";
          else if (!head && static_cast<int>(row) == b.header_rows) out += "</thead>\n<tbody>\n";
          out += "<tr>";
          for (const auto& cell : b.rows[row]) out += (head ? "<th>" : "<td>") + esc(cell) + (head ? "</th>" : "</td>");
          out += "</tr>\n";
        }
        out += static_cast<size_t>(std::max(0, b.header_rows)) >= b.rows.size() ? "</thead>\n" : "</tbody>\n";
        out += "</table>\n";
        break;
      case BlockType::Caption:
        out += "<p class=\"caption\"" + page + ">" + esc_text(b) + "</p>\n";
        break;
      case BlockType::Footnote:
        out += "<p class=\"footnote\"" + id_attr(b) + page + ">" + esc_text(b) + "</p>\n";
        break;
      case BlockType::Note:
        out += "<aside class=\"note" + (b.kind.empty() ? std::string() : " " + esc(b.kind)) + "\"" + page + ">";
        if (!b.title.empty()) out += "<p class=\"note-title\">" + esc(b.title) + "</p>";
        if (!b.text.empty()) out += "<p>" + esc_text(b) + "</p>";
        out += "</aside>\n";
        if (!b.title.empty()) text = b.title + " " + b.text;
        break;
      case BlockType::Figure: {
        // The alt text is the caption's when there is one: what the figure shows, in the
        // book's words.
        const bool captioned = i + 1 < blocks.size() && blocks[i + 1].type == BlockType::Caption;
        std::string alt = b.figure_ref.empty() ? "Figure" : b.figure_ref;
        if (!b.labels.empty()) {
          alt += ":";
          for (const auto& l : b.labels) alt += " " + l;
        }
        if (captioned) alt = search_line(blocks[i + 1].text);
        text.clear();
        for (const auto& l : b.labels) text += l + " ";
        out += "<figure" + id_attr(b) + page + ">";
        if (b.image.empty()) out += "<div class=\"missing\">" + esc(alt) + " (this figure could not be rendered)</div>";
        else
          out += "<a class=\"full\" href=\"../../" + esc(b.image) + "\" title=\"Open the figure full size\"><img src=\"../../" +
                 esc(b.image) + "\" alt=\"" + esc(alt) + "\"></a>";
        if (captioned) {
          out += "<figcaption>" + esc_text(blocks[i + 1]) + "</figcaption>";
          text += blocks[i + 1].text;
          ++i;
        }
        out += "</figure>\n";
        break;
      }
    }
    r.elements.push_back(std::move(text));
  }
  if (in_list) out += "</ul>\n";
  return r;
}

std::string footer_text(const SiteModel& site) {
  std::string text = site.footer.empty()
                         ? "Chapter text and figures were extracted from the PDFs. Running heads, page numbers and "
                           "figure whitespace were removed. Code listings keep their monospace layout. Nothing was "
                           "reworded."
                         : site.footer;
  std::map<std::string, long> furniture;
  long joins = 0, ocr = 0;
  for (const auto& b : site.books) {
    for (const auto& [r, n] : b.furniture) furniture[r] += n;
    joins += b.joins;
    ocr += b.ocr_pages;
  }
  std::string facts;
  for (const auto& [reason, n] : furniture) {
    std::string name = reason;
    std::replace(name.begin(), name.end(), '-', ' ');
    facts += (facts.empty() ? "" : ", ") + std::to_string(n) + " " + name + (n == 1 ? "" : "s");
  }
  std::string out = "<p>" + esc(text) + "</p>\n<p class=\"facts\">";
  out += facts.empty() ? std::string("No page furniture was removed") : "Removed as page furniture: " + esc(facts);
  out += joins == 0 ? std::string(". No line-end hyphen was joined")
                   : ". " + std::to_string(joins) + " line-end hyphen" + (joins == 1 ? "" : "s") + " joined";
  if (ocr) out += ". " + std::to_string(ocr) + " page" + (ocr == 1 ? "" : "s") + " read by OCR";
  out += ".</p>\n";
  return out;
}

std::string index_page(const SiteModel& site) {
  std::string o = page_head(site.title, "");
  o += "<body class=\"map\">\n" + site_header(site, "", "") + "<main id=\"content\" tabindex=\"-1\">\n<div class=\"masthead\">\n<h1>" + esc(site.title) + "</h1>\n";
  const long books = static_cast<long>(site.books.size());
  const long chapters = static_cast<long>(site.order.size());
  o += "<p class=\"counts\">" + count_words(books, true) + (books == 1 ? " book, " : " books, ") +
       std::to_string(chapters) + (chapters == 1 ? " chapter." : " chapters.") + "</p>\n";
  std::string intro = site.intro.empty() ? "Click a chapter to read it. Inside a chapter, the arrows (and the arrow "
                                           "keys) move to the previous and next chapter."
                                         : site.intro;
  o += "<p class=\"intro\">" + esc(intro) + "</p>\n</div>\n";

  o += "<div class=\"sections\">\n";
  for (size_t s = 0; s < site.sections.size(); ++s) {
    const auto& sec = site.sections[s];
    o += "<section class=\"section\" id=\"section-" + std::to_string(s + 1) + "\">\n<h2><span class=\"num\">" + std::to_string(s + 1) + ".</span> " +
         esc(sec.title) + "</h2>\n<ol class=\"chapters\">\n";
    for (const auto& e : sec.entries) {
      const SiteBook& b = site.books[e.book];
      const SiteChapter& c = b.chapters[e.chapter];
      o += "<li><a href=\"" + esc(chapter_href(site, e.book, e.chapter)) + "\">" + esc(e.display) +
           "</a> <span class=\"src\">" + esc(source_label(b, c)) + "</span></li>\n";
    }
    if (sec.entries.empty()) o += "<li class=\"empty\">No chapter of this section was built.</li>\n";
    o += "</ol>\n</section>\n";
  }
  o += "</div>\n";

  for (const auto& n : site.notes) {
    o += "<section class=\"notes\">\n<h2>" + esc(n.title) + "</h2>\n<ol>\n";
    for (const auto& item : n.items) o += "<li>" + esc(item) + "</li>\n";
    o += "</ol>\n</section>\n";
  }
  if (!site.gaps.empty()) {
    o += "<section class=\"gaps\">\n<h2>Not in " + std::string(books == 1 ? "this book" : "these " +
         count_words(books, false) + " books") + "</h2>\n<dl>\n";
    for (const auto& g : site.gaps) o += "<dt>" + esc(g.topic) + "</dt><dd>" + esc(g.note) + "</dd>\n";
    o += "</dl>\n</section>\n";
  }

  o += "<section class=\"books\">\n<h2>Books</h2>\n<ul>\n";
  for (size_t b = 0; b < site.books.size(); ++b) {
    const SiteBook& book = site.books[b];
    std::string line;
    if (!book.short_name.empty()) line += "<b>" + esc(book.short_name) + "</b> — ";
    line += "<cite>" + esc(book.title) + "</cite>";
    if (!book.authors.empty()) line += " — " + esc(author_line(book.authors));
    o += "<li><details><summary>" + line + "</summary>\n<ol class=\"all\">\n";
    for (size_t c = 0; c < book.chapters.size(); ++c) {
      const SiteChapter& ch = book.chapters[c];
      o += "<li><a href=\"" + esc(chapter_href(site, b, c)) + "\">" +
           (ch.number.empty() ? std::string() : "<span class=\"n\">" + esc(ch.number) + "</span> ") + esc(ch.title) +
           "</a></li>\n";
    }
    o += "</ol></details></li>\n";
  }
  o += "</ul>\n</section>\n</main>\n<footer>\n" + footer_text(site) +
       "<p class=\"report\"><a href=\"report.html\">The build report</a>: pages, words, furniture and the wording "
       "check, book by book.</p>\n</footer>\n</body>\n</html>\n";
  return o;
}

std::string chapter_page(const SiteModel& site, size_t b, size_t c, const ChapterPage& body,
                         const std::pair<size_t, size_t>* prev, const std::pair<size_t, size_t>* next, bool on_map) {
  const SiteBook& book = site.books[b];
  const SiteChapter& ch = book.chapters[c];
  std::string o = page_head(ch.title + " — " + book.title, "../");
  o += "<body class=\"chapter\">\n" +
       site_header(site, "../", "<span class=\"book\">" + esc(book.title) +
                                    (ch.number.empty() ? std::string() : " · " + esc(ch.number)) + "</span>\n");
  o += "<div class=\"page\">\n";
  if (!body.toc.empty()) {
    o += "<nav class=\"toc\" aria-label=\"Contents of this chapter\"><details open><summary>Contents</summary><ol>\n";
    for (const auto& t : body.toc)
      o += "<li class=\"toc-" + std::to_string(t.level) + "\"><a href=\"#" + esc(t.id) + "\">" + t.html + "</a></li>\n";
    o += "</ol></details></nav>\n";
  }
  o += "<main id=\"content\" tabindex=\"-1\">\n<article>\n" + body.html + "</article>\n";
  auto link = [&](const std::pair<size_t, size_t>* to, const char* rel, const char* arrow) -> std::string {
    if (!to) return std::string("<span class=\"") + rel + " none\"></span>";
    const SiteChapter& t = site.books[to->first].chapters[to->second];
    std::string label = esc(t.title);
    std::string inner = std::string(rel) == "prev" ? "<span class=\"arrow\">" + std::string(arrow) + "</span> " + label
                                                   : label + " <span class=\"arrow\">" + std::string(arrow) + "</span>";
    return "<a class=\"" + std::string(rel) + "\" rel=\"" + rel + "\" href=\"../" +
           esc(chapter_href(site, to->first, to->second)) + "\">" + inner + "</a>";
  };
  o += "<nav class=\"pager\" aria-label=\"Previous and next chapter\">" + link(prev, "prev", "←") +
       "<a class=\"up\" href=\"../index.html\">Map</a>" + link(next, "next", "→") + "</nav>\n";
  if (!on_map) o += "<p class=\"offmap\">This chapter is not on the map.</p>\n";
  o += "</main>\n</div>\n</body>\n</html>\n";
  return o;
}

}  // namespace

void add_anchors(ChapterOfAnchor& anchors, const std::vector<Block>& chapter_blocks, size_t chapter) {
  for (const auto& bl : chapter_blocks)
    if (!bl.anchor.empty()) anchors.emplace(bl.anchor, chapter);
}

ChapterPage render_chapter_page(std::vector<Block> blocks, size_t chapter, const ChapterOfAnchor& anchors,
                                const std::vector<std::string>& ids, const std::string& title) {
  // The chapter files name an internal link's target by its anchor alone; a page leads to
  // the page of the chapter that holds it.
  for (auto& bl : blocks)
    for (auto& l : bl.links) {
      if (l.href.empty() || l.href[0] != '#') continue;
      auto it = anchors.find(l.href.substr(1));
      if (it != anchors.end() && it->second != chapter) l.href = ids.at(it->second) + ".md" + l.href;
    }
  RenderedChapter r = render_blocks(blocks, title);
  ChapterPage page;
  page.html = std::move(r.html);
  page.toc = std::move(r.toc);
  for (const auto& e : r.elements) append_search_line(page.search_text, e);
  page.search_lines = r.elements.size();
  return page;
}

BookPages render_book_pages(std::vector<std::vector<Block>> chapters, const std::vector<std::string>& ids,
                            const std::vector<std::string>& titles, int jobs) {
  ChapterOfAnchor anchors;
  for (size_t c = 0; c < chapters.size(); ++c) add_anchors(anchors, chapters[c], c);
  BookPages pages;
  pages.chapters.resize(chapters.size());
  parallel_for(chapters.size(), jobs, [&](size_t c) {
    pages.chapters[c] = render_chapter_page(std::move(chapters[c]), c, anchors, ids, titles[c]);
  });
  std::vector<std::string*> texts;
  for (auto& c : pages.chapters) texts.push_back(&c.search_text);
  pages.search = deflate_search_texts(std::move(texts), jobs);
  return pages;
}

std::string page_head(const std::string& title, const std::string& root) {
  // The script is not deferred: it sets the remembered colour scheme before the page is
  // drawn, and waits for the document for everything else.
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta name=\"generator\" content=\"quire\">\n"
         "<title>" + html_escape(title) + "</title>\n"
         "<link rel=\"stylesheet\" href=\"" + root + "assets/quire.css\">\n"
         "<script src=\"" + root + "assets/quire.js\"></script>\n"
         "</head>\n";
}

// Sections the bar lists on every page. A corpus built without a map has one section per
// book, and every page of a shelf of thousands would carry a link to each (the site would
// grow with the square of the books): past this many, the bar leads to the map instead.
constexpr size_t kMenuMaxSections = 60;

// The bar at the top of every page: a skip link, the way home, the map's sections, the
// search box and the colour scheme's switch. `root` leads from the page to site/.
std::string site_header(const SiteModel& site, const std::string& root, const std::string& extra) {
  std::string o = "<header class=\"site\">\n<a class=\"skip\" href=\"#content\">Skip to the text</a>\n";
  o += "<a class=\"home\" href=\"" + root + "index.html\">" + html_escape(site.title) + "</a>\n";
  o += "<nav class=\"sections-menu\" aria-label=\"Sections of the map\"><details><summary>Sections</summary><ol>\n";
  if (site.sections.size() <= kMenuMaxSections) {
    for (size_t s = 0; s < site.sections.size(); ++s)
      o += "<li><a href=\"" + root + "index.html#section-" + std::to_string(s + 1) + "\">" +
           html_escape(site.sections[s].title) + "</a></li>\n";
  } else {
    o += "<li><a href=\"" + root + "index.html\">All " + std::to_string(site.sections.size()) +
         " sections, on the map</a></li>\n";
  }
  o += "<li class=\"report\"><a href=\"" + root + "report.html\">Build report</a></li>\n</ol></details></nav>\n";
  o += "<form class=\"search\" role=\"search\" data-root=\"" + root + "\">"
       "<label class=\"sr\" for=\"search-box\">Search the books</label>"
       "<input id=\"search-box\" type=\"search\" placeholder=\"Search (press /)\" autocomplete=\"off\" "
       "spellcheck=\"false\" aria-controls=\"search-results\">"
       "<div id=\"search-results\" class=\"results\" hidden></div></form>\n";
  o += "<button type=\"button\" class=\"theme\" aria-pressed=\"false\">Dark</button>\n";
  o += extra;
  o += "</header>\n";
  return o;
}

void write_site(const std::string& out_dir, const SiteModel& site, const PageOf& page_of, const SearchOf& search_of,
                int jobs) {
  const fs::path dir = fs::path(out_dir) / "site";
  write_file((dir / "index.html").string(), index_page(site));
  write_file((dir / "report.html").string(), report_page(site));
  write_file((dir / "assets" / "quire.css").string(), kStylesheet);
  write_file((dir / "assets" / "quire.js").string(), kScript);
  std::map<std::pair<size_t, size_t>, size_t> position;
  for (size_t i = 0; i < site.order.size(); ++i) position[site.order[i]] = i;
  std::vector<std::pair<size_t, size_t>> pages;  // (book, chapter): one page each
  std::vector<size_t> cost;                       // largest chapters first: the pages end together
  for (size_t b = 0; b < site.books.size(); ++b)
    for (size_t c = 0; c < site.books[b].chapters.size(); ++c) {
      pages.push_back({b, c});
      cost.push_back(site.books[b].chapters[c].words);
    }
  // Each page leaves its elements' text in its own slot; the index is written from the slots
  // in book order, whatever order the pages were made in.
  std::vector<SearchChapter> search(pages.size());
  std::vector<std::string> search_text(pages.size());
  parallel_for_largest_first(cost, jobs, [&](size_t i) {
    const auto [b, c] = pages[i];
    const std::pair<size_t, size_t>* prev = nullptr;
    const std::pair<size_t, size_t>* next = nullptr;
    auto it = position.find({b, c});
    if (it != position.end()) {
      if (it->second > 0) prev = &site.order[it->second - 1];
      if (it->second + 1 < site.order.size()) next = &site.order[it->second + 1];
    }
    const SiteBook& book = site.books[b];
    ChapterPage body = page_of(b, c);
    write_file((dir / book.id / (book.chapters[c].id + ".html")).string(),
               chapter_page(site, b, c, body, prev, next, it != position.end()));
    search[i] = {chapter_href(site, b, c), book.chapters[c].title, book_label(book), body.search_lines};
    search_text[i] = std::move(body.search_text);
  });
  // The books' parts of the index: made with their pages, else here from the pages' texts.
  std::vector<SearchText> parts(site.books.size());
  std::vector<size_t> to_make;
  for (size_t b = 0; b < site.books.size(); ++b) {
    if (const SearchText* made = search_of(b)) parts[b] = *made;
    else to_make.push_back(b);
  }
  std::vector<size_t> first_page(site.books.size() + 1, 0);  // of book b, in `pages`
  for (size_t b = 0; b < site.books.size(); ++b) first_page[b + 1] = first_page[b] + site.books[b].chapters.size();
  parallel_for(to_make.size(), jobs, [&](size_t k) {
    const size_t b = to_make[k];
    std::vector<std::string*> texts;
    for (size_t i = first_page[b]; i < first_page[b + 1]; ++i) texts.push_back(&search_text[i]);
    parts[b] = deflate_search_texts(std::move(texts), to_make.size() == 1 ? jobs : 1);
  });
  write_file((dir / "search-index.js").string(), search_index_js(search, parts));
}

}  // namespace quire::exporting
