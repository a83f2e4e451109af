// The site's search index (site/search-index.js) and build report (site/report.html), read
// back from what export_index writes.
#include <gtest/gtest.h>
#include <zlib.h>

#include <regex>

#include "helpers.h"
#include "quire/json.h"

namespace quire {
namespace {

namespace fs = std::filesystem;
using test::read;

struct SearchIndex {
  Json meta;                       // format, chapters, bytes
  std::vector<std::string> lines;  // the inflated text, a line per page element
};

std::string unbase64(const std::string& in) {
  static const std::string kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned v = 0;
  int bits = 0;
  for (char c : in) {
    if (c == '=') break;
    const size_t k = kAlphabet.find(c);
    if (k == std::string::npos) throw std::runtime_error("not base64");
    v = (v << 6) | static_cast<unsigned>(k);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((v >> bits) & 0xff);
    }
  }
  return out;
}

SearchIndex read_index(const fs::path& file) {
  const std::string js = read(file);
  const std::string lead = "window.QUIRE_SEARCH = ";
  const size_t at = js.find(lead);
  if (at == std::string::npos) throw std::runtime_error("no QUIRE_SEARCH in " + file.string());
  SearchIndex index;
  index.meta = Json::parse(js.substr(at + lead.size()));
  const std::string z = unbase64(index.meta.at("text").get<std::string>());
  std::string text(index.meta.at("bytes").get<size_t>(), '\0');
  uLongf size = static_cast<uLongf>(text.size());
  if (uncompress(reinterpret_cast<Bytef*>(text.data()), &size, reinterpret_cast<const Bytef*>(z.data()),
                 static_cast<uLong>(z.size())) != Z_OK || size != text.size())
    throw std::runtime_error("the index's text does not inflate to its stated size");
  for (size_t from = 0; from < text.size();) {
    const size_t end = text.find('\n', from);
    index.lines.push_back(text.substr(from, end - from));
    from = end + 1;
  }
  return index;
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST(SiteSearch, TheIndexHoldsEveryChaptersTextLineByLine) {
  std::vector<Book> books = {test::sample_book()};
  const Book book = books[0];
  test::TempDir out("search");
  test::export_corpus(books, out.str());
  const SearchIndex index = read_index(out.path / "site/search-index.js");
  EXPECT_EQ(index.meta.at("format"), 1);
  // The script's object is JSON as dump() writes it compact, then a line's end.
  const std::string js = read(out.path / "site/search-index.js");
  EXPECT_EQ(js.substr(js.find(" = ") + 3), dump(index.meta, false));
  const Json& chapters = index.meta.at("chapters");
  ASSERT_EQ(chapters.size(), book.chapters.size());
  size_t line = 0;
  for (size_t c = 0; c < chapters.size(); ++c) {
    const Json& ch = chapters[c];
    EXPECT_EQ(ch[1], book.chapters[c].title);
    EXPECT_EQ(ch[2], book.title);
    EXPECT_EQ(ch[3], line) << "chapter " << c << " starts where the last one ended";
    const size_t n = ch[4].get<size_t>();
    line += n;
    // Result N opens the page at its N-th element with data-page: the page has as many.
    const std::string html = read(out.path / "site" / ch[0].get<std::string>());
    EXPECT_EQ(count(html, " data-page=\""), n) << ch[0];
    // Every word of a paragraph, heading or code block is in the chapter's lines.
    std::string lines;
    for (size_t k = ch[3].get<size_t>(); k < ch[3].get<size_t>() + n; ++k) lines += index.lines.at(k) + "\n";
    for (const auto& b : book.chapters[c].blocks) {
      if (b.type == BlockType::Figure) continue;
      std::string plain = b.text;
      for (auto& ch2 : plain)
        if (ch2 == '\n' || ch2 == '\t') ch2 = ' ';
      std::istringstream words(plain);
      for (std::string w; words >> w;) EXPECT_NE(lines.find(w), std::string::npos) << w << " of chapter " << c;
    }
  }
  EXPECT_EQ(line, index.lines.size());
  for (const auto& l : index.lines) {
    EXPECT_EQ(l.find('\n'), std::string::npos);
    EXPECT_EQ(l.find("  "), std::string::npos) << "whitespace is one space: " << l;
  }
}

TEST(SiteSearch, TheIndexAndReportAreTheSameBytesAtAnyNumberOfThreads) {
  std::string first_index, first_report;
  for (int jobs : {1, 3}) {
    std::vector<Book> books = {test::sample_book("alpha"), test::sample_book("beta")};
    test::TempDir out("search-jobs");
    ExportOptions o;
    o.jobs = jobs;
    std::vector<std::string> ids;
    for (auto& b : books) {
      export_book(b, out.str(), test::png_renderer(), o);
      ids.push_back(b.id);
    }
    export_index(out.str(), ids, nullptr, o);
    const std::string index = read(out.path / "site/search-index.js");
    const std::string report = read(out.path / "site/report.html");
    if (jobs == 1) {
      first_index = index;
      first_report = report;
      EXPECT_EQ(read_index(out.path / "site/search-index.js").meta.at("chapters").size(), 2 * books[0].chapters.size());
    } else {
      EXPECT_EQ(index, first_index);
      EXPECT_EQ(report, first_report);
    }
  }
}

// An index of several MB is deflated in pieces on the pool, each book's part on its own (as
// the book is written, or later from its chapter files): the parts must still read as one
// zlib stream, whole, and be the same bytes at any number of workers, made either way.
TEST(SiteSearch, ALargeIndexInflatesWholeAndIsTheSameAtAnyNumberOfThreads) {
  std::string first_index;
  for (const auto& [jobs, from_memory] : {std::pair{1, false}, {2, false}, {2, true}, {3, true}}) {
    std::vector<Book> books = {test::sample_book("large"), test::sample_book("small")};
    // About 3.5 MB of text in paragraphs of words from a small vocabulary, in an order that
    // repeats rarely (so that each piece of the stream has work to do).
    static const char* const kWords[] = {"ring", "log", "daemon", "unit", "buffer", "flush", "signal", "rotate",
                                         "syslog", "journal", "socket", "reader", "writer", "queue", "spool", "tail"};
    uint32_t state = 12345;
    Chapter& chapter = books[0].chapters.back();
    size_t total = 0;
    for (int p = 0; total < 3'500'000; ++p) {
      std::string text;
      for (int w = 0; w < 120; ++w) {
        state = state * 1103515245u + 12345u;
        if (w > 0) text += w % 17 == 0 ? ". " : " ";
        text += kWords[(state >> 16) % 16];
      }
      total += text.size();
      Block b;
      b.type = BlockType::Paragraph;
      b.text = text;
      b.page = chapter.last_page;
      b.bbox = {72, 72, 540, 720};
      chapter.blocks.push_back(b);
    }
    test::TempDir out("search-large");
    ExportOptions o;
    o.jobs = jobs;
    std::vector<SitePages> pages(books.size());
    for (size_t b = 0; b < books.size(); ++b)
      export_book(books[b], out.str(), test::png_renderer(), o, from_memory && b == 0 ? &pages[b] : nullptr);
    ASSERT_EQ(static_cast<bool>(pages[0]), from_memory);
    export_index(out.str(), {books[0].id, books[1].id}, nullptr, o, from_memory ? pages : std::vector<SitePages>());
    const SearchIndex index = read_index(out.path / "site/search-index.js");  // inflates, or throws
    EXPECT_GT(index.meta.at("bytes").get<size_t>(), size_t{3} << 20) << "several pieces";
    size_t count = 0;
    for (const auto& ch : index.meta.at("chapters")) count += ch[4].get<size_t>();
    EXPECT_EQ(count, index.lines.size());
    EXPECT_NE(std::find_if(index.lines.begin(), index.lines.end(),
                           [&](const std::string& l) { return l == chapter.blocks.back().text; }),
              index.lines.end())
        << "the last paragraph, in the last piece, reads back whole";
    EXPECT_EQ(index.lines.back(), books[1].chapters.back().blocks.back().text) << "the next book's part follows";
    const std::string bytes = read(out.path / "site/search-index.js");
    if (jobs == 1) first_index = bytes;
    else EXPECT_EQ(bytes, first_index) << "jobs " << jobs << (from_memory ? ", pages from memory" : "");
  }
}

TEST(SiteReport, ShowsEachBooksCountsChecksAndPlots) {
  std::vector<Book> books = {test::sample_book("alpha"), test::sample_book("beta")};
  books[1].title = "Beta <book>";
  books[1].warnings.push_back(Diagnostic::at("export", "figure-unrendered", "", 3, "a <warning> & more"));
  WordLedger ledger;
  ledger.extracted = 1234;
  ledger.text = 1200;
  ledger.add_removed("page-number", 34);
  books[0].ledger = ledger;
  test::TempDir out("report");
  test::export_corpus(books, out.str());
  const std::string report = read(out.path / "site/report.html");
  const std::string index = read(out.path / "site/index.html");
  EXPECT_NE(index.find("<a href=\"report.html\">"), std::string::npos) << "the map's footer links the report";
  EXPECT_NE(report.find("<section class=\"book\" id=\"book-alpha\">"), std::string::npos);
  EXPECT_NE(report.find("<h2>Beta &lt;book&gt;</h2>"), std::string::npos);
  EXPECT_NE(report.find("<dt>Pages</dt><dd>16</dd>"), std::string::npos) << report;
  EXPECT_NE(report.find("every word kept</strong>: 1,234 words extracted = 1,200 in the text"), std::string::npos)
      << report;
  EXPECT_NE(report.find("not run (built with --no-verify)"), std::string::npos);
  EXPECT_NE(report.find("<li>page 3: a &lt;warning&gt; &amp; more</li>"), std::string::npos);
  EXPECT_NE(report.find("page number"), std::string::npos) << "furniture by reason";
  EXPECT_EQ(count(report, "<svg "), 2 * books.size() + 1) << "words per chapter and furniture per page, each book; words per book";
  EXPECT_NE(report.find("aria-label=\"Words per chapter of Beta &lt;book&gt;\""), std::string::npos);
  EXPECT_EQ(report.find("<script>"), std::string::npos) << "the plots are drawn by quire, not a script";
  // A bar's height is its share of the largest: the largest bar fills the plot.
  EXPECT_NE(report.find("height=\"118\"><title>"), std::string::npos) << report;
}

TEST(SiteReport, HasTimesOnlyWhenAskedFor) {
  for (bool timed : {false, true}) {
    std::vector<Book> books = {test::sample_book("alpha"), test::sample_book("beta")};
    test::TempDir out("report-times");
    ExportOptions o;
    if (timed) o.stage_seconds["alpha"] = {{"extract", 1.25}, {"clean and layout", 0.5}, {"verify", 0.125}, {"export", 0.0625}};
    std::vector<std::string> ids;
    for (auto& b : books) {
      export_book(b, out.str(), test::png_renderer(), o);
      ids.push_back(b.id);
    }
    export_index(out.str(), ids, nullptr, o);
    const std::string report = read(out.path / "site/report.html");
    EXPECT_EQ(report.find("<th>Seconds</th>") != std::string::npos, timed);
    EXPECT_EQ(count(report, "aria-label=\"Milliseconds per stage"), timed ? 2u : 0u) << "alpha's and all books'";
    if (timed) {
      EXPECT_NE(report.find("<td>1.9</td>"), std::string::npos) << "alpha's seconds, to a tenth";
      EXPECT_NE(report.find("<td class=\"muted\">cached</td>"), std::string::npos) << "beta was not timed";
      EXPECT_NE(report.find("extract: 1,250 ms"), std::string::npos);
    } else {
      EXPECT_NE(report.find("--report-times"), std::string::npos) << "says how to get them";
    }
  }
}

}  // namespace
}  // namespace quire
