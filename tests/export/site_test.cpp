// The reading site: escaping, map order, previous/next links, self-contained pages.
#include <gtest/gtest.h>

#include <regex>

#include "helpers.h"
#include "quire/json.h"

namespace quire {
namespace {

namespace fs = std::filesystem;
using test::read;

const std::string kEvil = "<script>alert(\"x\")</script> & 'q' <img src=x onerror=alert(1)>";
const std::string kEvilEscaped =
    "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; &lt;img src=x onerror=alert(1)&gt;";

// Every "<script" on a page must be the site's own script tag.
void expect_no_injection(const std::string& html, const std::string& name) {
  size_t count = 0, at = 0;
  while ((at = html.find("<script", at)) != std::string::npos) {
    EXPECT_EQ(html.compare(at, 30, "<script src=\"../assets/quire.j") == 0 ||
                  html.compare(at, 27, "<script src=\"assets/quire.j") == 0,
              true)
        << name << ": " << html.substr(at, 60);
    ++count;
    ++at;
  }
  EXPECT_EQ(count, 1u) << name;
  EXPECT_EQ(html.find("<img src=x"), std::string::npos) << name;
  EXPECT_NE(html.find(kEvilEscaped), std::string::npos) << name;
}

TEST(Site, EscapesEveryString) {
  Book book = test::sample_book("evil");
  book.title = "Book " + kEvil;
  book.authors = {kEvil};
  for (auto& c : book.chapters) {
    c.title += " " + kEvil;
    for (auto& b : c.blocks) {
      if (b.type == BlockType::Figure) {
        b.figure_ref = kEvil;
        b.labels = {kEvil};
      } else {
        b.text += " " + kEvil;
      }
    }
  }
  CorpusMap map;
  map.path = "map.toml";
  map.title = "Map " + kEvil;
  map.intro = kEvil;
  map.footer = kEvil;
  map.books = {{"evil", "evil.pdf", "", kEvil, {}, {}}};
  MapChapterRef ref;
  ref.book = "evil";
  ref.chapter = 1;
  ref.title = kEvil;
  map.sections = {{kEvil, {ref}}};
  map.notes = {{kEvil, {kEvil, kEvil}}};
  map.gaps = {{kEvil, kEvil}};
  test::TempDir out("evil");
  std::vector<Book> books = {book};
  test::export_corpus(books, out.str(), &map);
  for (const auto& f : test::list_files(out.path / "site"))
    if (f.size() > 5 && f.substr(f.size() - 5) == ".html") expect_no_injection(read(out.path / "site" / f), f);
}

TEST(Site, CodeBlockKeepsItsSpacingInPre) {
  std::vector<Book> books = {test::sample_book()};
  test::TempDir out("pre");
  test::export_corpus(books, out.str());
  std::string html = read(out.path / "site/ringlog/02-getting-started.html");
  EXPECT_NE(html.find("<pre class=\"code\" data-page=\"6\"><code>#!/bin/sh\nset -eu\n\nfor unit in a b; do\n    echo "
                      "&quot;$unit&quot; &gt;&amp;2\ndone</code></pre>"),
            std::string::npos)
      << html;
  // The figure opens full size; its alt text is its caption.
  EXPECT_NE(html.find("<figure data-page=\"7\"><a class=\"full\" href=\"../../books/ringlog/figures/02-getting-started-1.png\" "
                      "title=\"Open the figure full size\"><img src=\"../../books/ringlog/figures/02-getting-started-1.png\" "
                      "alt=\"Figure 1.1: Ring occupancy during a short burst.\"></a><figcaption>Figure 1.1: Ring occupancy during a short "
                      "burst.</figcaption></figure>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<ul>\n<li data-page=\"7\">Create the spool directory.</li>\n<li data-page=\"7\">Enable"),
            std::string::npos);
}

TEST(Site, AnItemWhoseBulletIsDrawnGetsOneFromTheStyleSheet) {
  // An item's printed marker is in its text, and the style sheet adds none; a browser's
  // drawn disc is not text, so the item is marked for the style sheet to draw one.
  Book book = test::sample_book();
  for (auto& b : book.chapters[1].blocks)
    if (b.type == BlockType::ListItem && b.text == "Create the spool directory.") b.drawn_marker = true;
  std::vector<Book> books = {book};
  test::TempDir out("drawn");
  test::export_corpus(books, out.str());
  std::string html = read(out.path / "site/ringlog/02-getting-started.html");
  EXPECT_NE(html.find("<li class=\"drawn-marker\" data-page=\"7\">Create the spool directory.</li>\n<li data-page=\"7\">Enable"),
            std::string::npos)
      << html;
  EXPECT_NE(read(out.path / "site/assets/quire.css").find("li.drawn-marker { list-style: disc;"), std::string::npos);
}

TEST(Site, ANestedItemIsSetInByItsLevel) {
  // An item in an item (level 2) is marked with its level, which the style sheet sets in;
  // one drawn and nested has both marks.
  Book book = test::sample_book();
  for (auto& b : book.chapters[1].blocks)
    if (b.type == BlockType::ListItem && b.text == "Enable and start the service.") {
      b.level = 2;
      b.drawn_marker = true;
    }
  std::vector<Book> books = {book};
  test::TempDir out("nested");
  test::export_corpus(books, out.str());
  std::string html = read(out.path / "site/ringlog/02-getting-started.html");
  EXPECT_NE(html.find("<li data-page=\"7\">Create the spool directory.</li>\n"
                      "<li class=\"drawn-marker level-2\" data-page=\"7\">Enable and start the service.</li>"),
            std::string::npos)
      << html;
  EXPECT_NE(read(out.path / "site/assets/quire.css").find("li.level-2 { margin-left: 1.4rem; }"), std::string::npos);
}

TEST(Site, NoteMarksAreRaisedWhereThePrintHasThem) {
  // A block's marks go back into its text as superscripts touching the word before, escaped
  // like the text; a footnote opens with its own. The marks of an evil string stay inert.
  Book book = test::sample_book("marks");
  Chapter& c = book.chapters.back();
  Block cites = test::block(BlockType::Paragraph, "Rings need memory. The <b>size</b> is fixed.", c.first_page);
  cites.marks = {{18, "1"}, {45, "<i>"}};
  Block note = test::block(BlockType::Footnote, "Sizes are powers of two.", c.first_page);
  note.marks = {{0, "1"}};
  c.blocks.push_back(cites);
  c.blocks.push_back(note);
  std::vector<Book> books = {book};
  test::TempDir out("marks");
  test::export_corpus(books, out.str());
  const Json manifest = Json::parse(read(out.path / "manifest.json"));
  const std::string html = read(out.path / manifest["books"][0]["chapters"].back()["html"].get<std::string>());
  EXPECT_NE(html.find(">Rings need memory.<sup class=\"mark\">1</sup> The &lt;b&gt;size&lt;/b&gt; is "
                      "fixed.<sup class=\"mark\">&lt;i&gt;</sup></p>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<p class=\"footnote\" data-page=\"" + std::to_string(c.first_page) +
                      "\"><sup class=\"mark\">1</sup> Sizes are powers of two.</p>"),
            std::string::npos)
      << html;
}

TEST(Site, StylesAndLinksAreElementsAndEveryStringIsEscaped) {
  // Code, emphasis and strong runs become <code>, <em>, <strong>; links <a>, with the href
  // escaped and an anchor in another chapter read as that chapter's page; headings and figures carry
  // their anchors as ids.
  Book book = test::sample_book("styled");
  Chapter& c = book.chapters.back();
  Block b = test::block(BlockType::Paragraph, "Call <f>() with *x*, see the guide and Figure 1.", c.first_page);
  b.styles = {{5, 5, InlineStyle::Code}, {16, 3, InlineStyle::Emphasis}, {25, 3, InlineStyle::Strong}};
  b.links = {{21, 13, "https://example.org/?a=1&b=\"2\""}, {39, 8, "#figure-1-1"}};
  c.blocks.push_back(b);
  c.blocks[0].anchor = "glossary";
  // The link names its target by anchor alone; the page leads to the chapter that holds it.
  for (auto& ch : book.chapters)
    for (auto& fb : ch.blocks)
      if (fb.figure_ref == "Figure 1.1") fb.anchor = "figure-1-1";
  std::vector<Book> books = {book};
  test::TempDir out("styled");
  test::export_corpus(books, out.str());
  const Json manifest = Json::parse(read(out.path / "manifest.json"));
  const std::string html = read(out.path / manifest["books"][0]["chapters"].back()["html"].get<std::string>());
  EXPECT_NE(html.find(">Call <code>&lt;f&gt;()</code> with <em>*x*</em>, <a href=\"https://example.org/?a=1&amp;b=&quot;2&quot;\">see "
                      "<strong>the</strong> guide</a> and <a href=\"02-getting-started.html#figure-1-1\">Figure 1</a>.</p>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<h1 id=\"glossary\""), std::string::npos) << html;
}

TEST(Site, ArrowsFollowTheMapOrderEachChapterOnce) {
  std::vector<Book> books = {test::sample_book("alpha"), test::sample_book("beta")};
  CorpusMap map;
  map.path = "map.toml";
  map.title = "Two books";
  map.books = {{"alpha", "a.pdf", "", "Alpha", {}, {}}, {"beta", "b.pdf", "", "", {}, {}}};
  auto ref = [](std::string book, std::variant<int, std::string> ch, std::string title = "") {
    MapChapterRef r;
    r.book = std::move(book);
    r.chapter = std::move(ch);
    r.title = std::move(title);
    return r;
  };
  map.sections = {{"First", {ref("beta", 2, "Beta two, shown"), ref("alpha", "getting started")}},
                  {"Second", {ref("alpha", 1), ref("alpha", "Writing Plugins")}}};
  test::TempDir out("order");
  test::export_corpus(books, out.str(), &map);

  auto links = [&](const std::string& page) {
    std::string html = read(out.path / "site" / page);
    std::smatch m;
    std::string prev, next;
    if (std::regex_search(html, m, std::regex("rel=\"prev\" href=\"\\.\\./([^\"]+)\""))) prev = m[1];
    if (std::regex_search(html, m, std::regex("rel=\"next\" href=\"\\.\\./([^\"]+)\""))) next = m[1];
    return std::make_pair(prev, next);
  };
  using P = std::pair<std::string, std::string>;
  EXPECT_EQ(links("beta/03-the-capture-pipeline.html"), (P{"", "alpha/02-getting-started.html"}));
  EXPECT_EQ(links("alpha/02-getting-started.html"),
            (P{"beta/03-the-capture-pipeline.html", "alpha/04-writing-plugins.html"}));
  EXPECT_EQ(links("alpha/04-writing-plugins.html"), (P{"alpha/02-getting-started.html", ""}));
  // Not on the map: a page, but outside the reading order.
  EXPECT_EQ(links("alpha/01-preface.html"), (P{"", ""}));

  Json manifest = Json::parse(read(out.path / "manifest.json"));
  EXPECT_EQ(manifest["title"], "Two books");
  EXPECT_EQ(manifest["books"][0]["short"], "Alpha");
  EXPECT_EQ(manifest["sections"][0]["chapters"][0],
            Json::parse(R"({"book": "beta", "chapter": "03-the-capture-pipeline", "title": "Beta two, shown"})"));
  EXPECT_EQ(manifest["sections"][1]["chapters"][0]["title"], "Getting Started");
  // corpus.jsonl: map order first, then the chapters no entry names, in book order.
  std::istringstream lines(read(out.path / "corpus.jsonl"));
  std::string line;
  std::vector<std::string> order;
  while (std::getline(lines, line)) {
    Json j = Json::parse(line);
    order.push_back(j["book"].get<std::string>() + "/" + j["chapter"].get<std::string>());
  }
  ASSERT_EQ(order.size(), 10u);
  EXPECT_EQ(order[0], "beta/03-the-capture-pipeline");
  EXPECT_EQ(order[1], "alpha/02-getting-started");
  EXPECT_EQ(order[2], "alpha/04-writing-plugins");
  EXPECT_EQ(order[3], "alpha/01-preface");

  std::string index = read(out.path / "site/index.html");
  EXPECT_NE(index.find("<h1>Two books</h1>"), std::string::npos);
  EXPECT_NE(index.find("Two books, 3 chapters."), std::string::npos);
  EXPECT_NE(index.find("<a href=\"beta/03-the-capture-pipeline.html\">Beta two, shown</a>"), std::string::npos);
  // One link per entry, so the chapter that appears in two sections is linked twice.
  size_t n = 0;
  for (size_t at = 0; (at = index.find("<a href=\"alpha/02-getting-started.html\">Getting Started", at)) != std::string::npos; ++at) ++n;
  EXPECT_EQ(n, 2u);
}

// Without a map each book is a section. A page lists them all in its bar while they are
// few; a shelf of many books would put a link to every book on every page, so there the bar
// leads to the map, and a page's size no longer grows with the number of books.
TEST(Site, TheSectionsMenuOfAManyBookShelfLeadsToTheMap) {
  auto header_links = [](size_t count) {
    std::vector<Book> books;
    for (size_t i = 0; i < count; ++i) books.push_back(test::sample_book("book-" + std::to_string(100 + i)));
    test::TempDir out("menu");
    test::export_corpus(books, out.str());
    std::string page;
    for (const auto& f : test::list_files(out.path / "site" / "book-100"))
      if (f.size() > 5 && f.substr(f.size() - 5) == ".html") {
        page = read(out.path / "site" / "book-100" / f);
        break;
      }
    const size_t begin = page.find("<nav class=\"sections-menu\""), end = page.find("</nav>", begin);
    EXPECT_NE(begin, std::string::npos);
    return page.substr(begin, end - begin);
  };
  const std::string few = header_links(3);
  EXPECT_NE(few.find("index.html#section-3\""), std::string::npos) << few;
  const std::string many = header_links(61);
  EXPECT_EQ(many.find("#section-"), std::string::npos) << many;
  EXPECT_NE(many.find("<a href=\"../index.html\">All 61 sections, on the map</a>"), std::string::npos) << many;
}

TEST(Site, PagesAreSelfContained) {
  std::vector<Book> books = {test::sample_book()};
  test::TempDir out("static");
  test::export_corpus(books, out.str());
  for (const auto& f : test::list_files(out.path / "site")) {
    std::string s = read(out.path / "site" / f);
    EXPECT_EQ(s.find("http://"), std::string::npos) << f;
    EXPECT_EQ(s.find("https://"), std::string::npos) << f;
    EXPECT_EQ(s.find("//fonts"), std::string::npos) << f;
    EXPECT_EQ(s.find("@import"), std::string::npos) << f;
    if (f.size() > 5 && f.substr(f.size() - 5) == ".html") {
      // Every local link and image exists on disk.
      std::regex ref_re("(?:href|src)=\"([^\"#]+)\"");
      for (std::sregex_iterator it(s.begin(), s.end(), ref_re), end; it != end; ++it) {
        fs::path target = (out.path / "site" / f).parent_path() / (*it)[1].str();
        EXPECT_TRUE(fs::exists(target)) << f << " -> " << (*it)[1];
      }
      EXPECT_NE(s.find("<meta name=\"viewport\""), std::string::npos) << f;
    }
  }
}

TEST(Site, IndexShowsTheLearningMapParts) {
  std::vector<Book> books = {test::sample_book("fregly")};
  CorpusMap map;
  map.path = "map.toml";
  map.title = "Systems Performance Engineering — learning map";
  map.books = {{"fregly", "f.pdf", "AI Systems Performance Engineering", "Fregly", {"Chris Fregly"}, {}}};
  MapChapterRef r;
  r.book = "fregly";
  r.chapter = 2;
  r.title = "Hardware overview: SMs, HBM, NVLink, PCIe";
  map.sections = {{"GPU architecture and kernels", {r}}};
  map.notes = {{"Suggested reading order", {"Fregly 6-9 -> write Triton kernels"}}};
  map.gaps = {{"AMD ROCm / HIP", "no book — use AMD docs"}};
  books[0].title = "AI Systems Performance Engineering";
  books[0].authors = {"Chris Fregly"};
  test::TempDir out("parts");
  test::export_corpus(books, out.str(), &map);
  std::string index = read(out.path / "site/index.html");
  for (const std::string want :
       {"<h1>Systems Performance Engineering — learning map</h1>", "One book, 1 chapter.",
        "<span class=\"num\">1.</span> GPU architecture and kernels",
        ">Hardware overview: SMs, HBM, NVLink, PCIe</a> <span class=\"src\">Fregly 2</span>",
        "<h2>Suggested reading order</h2>", "<li>Fregly 6-9 -&gt; write Triton kernels</li>",
        "<h2>Not in this book</h2>", "<dt>AMD ROCm / HIP</dt><dd>no book — use AMD docs</dd>",
        "<b>Fregly</b> — <cite>AI Systems Performance Engineering</cite> — Chris Fregly",
        "Removed as page furniture: 1 page number, 2 running heads. 1 line-end hyphen joined."})
    EXPECT_NE(index.find(want), std::string::npos) << want;
}

TEST(Site, ATableWithCellsIsATableANoteAnAsideWithItsTitle) {
  Book book = test::sample_book();
  for (auto& c : book.chapters)
    for (auto& b : c.blocks) {
      if (b.type == BlockType::Table) {
        b.rows = {{"Parameter", "Default <ms>"}, {"flush_interval", "500"}};
        b.header_rows = 1;
      }
      if (b.type == BlockType::Note) {
        b.kind = "tip";
        b.title = "Tip";
      }
    }
  test::TempDir out("structure");
  std::vector<Book> books = {book};
  test::export_corpus(books, out.str());
  std::string html;
  for (const auto& e : fs::directory_iterator(out.path / "site/ringlog")) {
    std::string page = read(e.path());
    if (page.find("<table") != std::string::npos) html = page;
  }
  EXPECT_NE(html.find("<thead>\n<tr><th>Parameter</th><th>Default &lt;ms&gt;</th></tr>\n</thead>\n<tbody>\n"
                      "<tr><td>flush_interval</td><td>500</td></tr>\n</tbody>\n</table>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<aside class=\"note tip\" data-page=\"12\"><p class=\"note-title\">Tip</p><p>Flushing is never skipped.</p></aside>"),
            std::string::npos)
      << html;
}

}  // namespace
}  // namespace quire
