// The wording proof as a ledger: every word extracted from a chapter's pages lands in one
// account (text, figure labels, furniture, left-out matter), and a corpus edited to lose,
// add, duplicate or move words, or to hide prose in a figure's labels, fails `quire verify`.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "quire/json.h"
#include "quire/model.h"
#include "quire/pipeline.h"
#include "quire/text.h"
#include "run.h"
#include "../clean/test_pages.h"

namespace quire::test {
namespace {

const fs::path kManuals = "/usr/share/R/doc/manual";

// Builds the given books (copied into a folder of their own) once per test.
struct Built {
  TempDir t;
  fs::path in, out;
  explicit Built(const std::string& name, const std::vector<fs::path>& pdfs) : t(name) {
    in = t.path / "in";
    out = t.path / "out";
    fs::create_directories(in);
    for (const auto& p : pdfs) fs::copy_file(p, in / p.filename());
    auto b = run_quire("build " + shell_quote(in) + " -o " + shell_quote(out) + " --quiet");
    EXPECT_TRUE(b.code == 0 || b.code == 3) << b.out;
  }
  RunResult verify(const std::string& extra = "") const {
    return run_quire("verify " + shell_quote(out) + " --pdf-dir " + shell_quote(in) + " " + extra);
  }
  fs::path chapter_file(const std::string& book, const std::string& prefix) const {
    for (const auto& e : fs::directory_iterator(out / "books" / book))
      if (e.path().filename().string().rfind(prefix, 0) == 0 && e.path().extension() == ".json") return e.path();
    return {};
  }
};

Json load(const fs::path& p) { return Json::parse(read_file(p)); }
void save(const fs::path& p, const Json& j) { std::ofstream(p, std::ios::binary) << dump(j, true); }

std::string regex_escape(const std::string& s) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  return std::regex_replace(s, special, R"(\$&)");
}

long words(const std::string& s) { return static_cast<long>(whitespace_tokens(s).size()); }

// The words of a book's pages, counted apart from quire's build: each extracted line's words.
long extracted_words(const fs::path& pdf, const fs::path& tmp) {
  const fs::path pages = tmp / (pdf.stem().string() + ".pages.jsonl");
  auto e = run_quire("extract " + shell_quote(pdf) + " -o " + shell_quote(pages));
  EXPECT_EQ(e.code, 0) << e.out;
  std::ifstream in(pages);
  Document doc = read_pages_jsonl(in, pages.string());
  long n = 0;
  for (const auto& p : doc.pages)
    for (const auto& l : p.lines) n += words(l.text());
  return n;
}

// A chapter's ledger: its accounts add up to what was extracted, with no difference.
void expect_balanced(const Json& l, const std::string& where) {
  long removed = 0;
  for (const auto& [reason, n] : l.at("removed").items()) removed += n.get<long>();
  EXPECT_EQ(l.at("extracted").get<long>(), l.at("text").get<long>() + l.at("labels").get<long>() + removed +
                                               l.at("excluded").get<long>() + l.at("missing").get<long>() -
                                               l.at("added").get<long>())
      << where << ": " << l;
  EXPECT_EQ(l.at("missing"), 0) << where << ": " << l;
  EXPECT_EQ(l.at("added"), 0) << where << ": " << l;
  EXPECT_EQ(l.at("misplaced"), 0) << where << ": " << l;
}

// Every chapter's ledger and the book's balance, and the book's total is the number of words
// on its pages (each logged hyphen join makes two words one).
void expect_ledger_adds_up(const Built& b, const fs::path& pdf) {
  Json m = load(b.out / "manifest.json");
  for (const auto& bj : m["books"]) {
    if (bj["source"]["file"] != pdf.filename().string()) continue;
    Json book = load(b.out / "books" / bj["id"].get<std::string>() / "book.json");
    ASSERT_TRUE(book.contains("ledger")) << pdf;
    long text = 0;
    for (const auto& c : book["chapters"]) {
      ASSERT_TRUE(c.contains("ledger")) << pdf << " " << c["title"];
      expect_balanced(c["ledger"], pdf.filename().string() + " " + c["title"].get<std::string>());
      text += c["ledger"]["text"].get<long>();
      // The text account is the chapter's own blocks: its word count in the book.
      EXPECT_GE(c["ledger"]["text"].get<long>(), c["words"].get<long>()) << c["title"];
    }
    expect_balanced(book["ledger"], pdf.filename().string());
    EXPECT_EQ(book["ledger"]["text"].get<long>(), text);
    const long joins = static_cast<long>(book["joins"].size());
    EXPECT_EQ(book["ledger"]["extracted"].get<long>(), extracted_words(pdf, b.t.path) - joins) << pdf;
    return;
  }
  ADD_FAILURE() << pdf << " is not in the corpus";
}

TEST(Ledger, EveryFixtureBookAddsUpExactly) {
  const std::vector<fs::path> books = {fixture_books() / "fx-classic.pdf", fixture_books() / "fx-plain.pdf"};
  Built b("ledger-fixtures", books);
  for (const auto& pdf : books) expect_ledger_adds_up(b, pdf);
  auto v = b.verify("--log json");
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_NE(v.out.find("\"event\":\"ledger\""), std::string::npos) << v.out;
}

TEST(Ledger, EveryRManualAddsUpExactly) {
  std::vector<fs::path> books;
  for (const char* name : {"R-data.pdf", "R-intro.pdf", "R-admin.pdf", "R-lang.pdf", "R-ints.pdf", "R-FAQ.pdf", "R-exts.pdf"})
    if (fs::exists(kManuals / name)) books.push_back(kManuals / name);
  if (books.empty()) GTEST_SKIP() << "r-doc-pdf is not installed";
  Built b("ledger-r", books);
  for (const auto& pdf : books) expect_ledger_adds_up(b, pdf);
}

// The paragraph with the most words of a chapter file, with its index.
std::pair<size_t, std::string> longest_paragraph(const Json& chapter) {
  size_t best = 0;
  std::string text;
  for (size_t i = 0; i < chapter["blocks"].size(); ++i) {
    const auto& bl = chapter["blocks"][i];
    if (bl["type"] == "paragraph" && !bl.contains("marks") && words(bl["text"]) > words(text)) {
      best = i;
      text = bl["text"];
    }
  }
  return {best, text};
}

size_t first_figure_with_labels(const Json& chapter) {
  for (size_t i = 0; i < chapter["blocks"].size(); ++i)
    if (chapter["blocks"][i]["type"] == "figure" && chapter["blocks"][i].contains("labels")) return i;
  return chapter["blocks"].size();
}

// Prose moved into a figure's labels stays counted, but not where the page holds it.
TEST(Ledger, AParagraphMovedIntoAFiguresLabelsFailsWithTheFigureAndPageNamed) {
  Built b("ledger-into-figure", {fixture_books() / "fx-classic.pdf"});
  const fs::path file = b.chapter_file("fx-classic", "03-");
  ASSERT_FALSE(file.empty());
  Json ch = load(file);
  const size_t fig = first_figure_with_labels(ch);
  ASSERT_LT(fig, ch["blocks"].size());
  auto [para, text] = longest_paragraph(ch);
  ASSERT_GE(words(text), 41) << "the finding needs more words than a label has";
  ch["blocks"][fig]["labels"].push_back(text);
  const int page = ch["blocks"][fig]["page"];
  ch["blocks"].erase(para);
  save(file, ch);
  for (const char* mode : {"", "--strict"}) {
    auto v = b.verify(mode);
    EXPECT_EQ(v.code, 1) << mode << "\n" << v.out;
    EXPECT_NE(v.out.find("misplaced word"), std::string::npos) << v.out;
    EXPECT_NE(v.out.find("in the labels of figure 1, outside its box"), std::string::npos) << v.out;
    EXPECT_NE(v.out.find("finding figure-holds-many-words"), std::string::npos) << v.out;
    EXPECT_NE(v.out.find("figure 1 on page " + std::to_string(page)), std::string::npos) << v.out;
  }
}

// The way a real book loses prose: the figure grows over the paragraph beside it and takes
// its lines as labels. Every word is where the page holds it, so the count balances: the
// finding is what tells, and --strict makes it fail.
TEST(Ledger, AFigureGrownOverItsParagraphIsAFindingAndFailsStrict) {
  Built b("ledger-figure-grown", {fixture_books() / "fx-classic.pdf"});
  const fs::path file = b.chapter_file("fx-classic", "03-");
  Json ch = load(file);
  const size_t fig = first_figure_with_labels(ch);
  ASSERT_LT(fig, ch["blocks"].size());
  const int page = ch["blocks"][fig]["page"];
  // The paragraph right above the figure, on its page.
  size_t para = fig;
  while (para > 0 && !(ch["blocks"][para]["type"] == "paragraph" && ch["blocks"][para]["page"] == page &&
                       !ch["blocks"][para].contains("pages") && !ch["blocks"][para].contains("marks")))
    --para;
  ASSERT_NE(para, fig);
  ASSERT_GE(words(ch["blocks"][para]["text"]), 12);
  Json& f = ch["blocks"][fig];
  const Json& p = ch["blocks"][para];
  for (int k : {0, 1}) f["bbox"][k] = std::min(f["bbox"][k].get<double>(), p["bbox"][k].get<double>());
  for (int k : {2, 3}) f["bbox"][k] = std::max(f["bbox"][k].get<double>(), p["bbox"][k].get<double>());
  f["labels"].push_back(p["text"]);
  ch["blocks"].erase(para);
  save(file, ch);
  auto v = b.verify();
  EXPECT_EQ(v.code, 3) << v.out;
  EXPECT_EQ(v.out.find("misplaced word"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("finding figure-holds-body-text"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("figure 1 on page " + std::to_string(page) + " holds a line of body text"), std::string::npos)
      << v.out;
  auto s = b.verify("--strict");
  EXPECT_EQ(s.code, 1) << s.out;
}

struct Edit {
  const char* name;
  const char* kind;  // the difference verify must report
  // Changes the chapters' files; returns the word verify must name.
  std::string (*apply)(const Built&);
};

std::string change_a_word(const Built& b) {
  const fs::path file = b.chapter_file("fx-classic", "02-");
  Json ch = load(file);
  auto [i, text] = longest_paragraph(ch);
  ch["blocks"][i]["text"] = "Zyzzyva" + text.substr(text.find(' '));
  save(file, ch);
  return "Zyzzyva";
}

std::string drop_a_word(const Built& b) {
  const fs::path file = b.chapter_file("fx-classic", "02-");
  Json ch = load(file);
  auto [i, text] = longest_paragraph(ch);
  const std::string word = text.substr(0, text.find(' '));
  ch["blocks"][i]["text"] = text.substr(text.find(' ') + 1);
  save(file, ch);
  return word;
}

std::string duplicate_a_word(const Built& b) {
  const fs::path file = b.chapter_file("fx-classic", "02-");
  Json ch = load(file);
  auto [i, text] = longest_paragraph(ch);
  const std::string word = text.substr(0, text.find(' '));
  ch["blocks"][i]["text"] = word + " " + text;
  save(file, ch);
  return word;
}

// A paragraph of one chapter put at the end of the next: its words are missing from one
// chapter's pages and added to the other's.
std::string move_to_another_chapter(const Built& b) {
  const fs::path from = b.chapter_file("fx-classic", "02-"), to = b.chapter_file("fx-classic", "04-");
  Json a = load(from), c = load(to);
  auto [i, text] = longest_paragraph(a);
  c["blocks"].push_back(a["blocks"][i]);
  a["blocks"].erase(i);
  save(from, a);
  save(to, c);
  return text.substr(0, text.find(' '));
}

// A one-page book of `lines`, laid out and checked: its listings' text, every word accounted
// for and in its block's box (a failure of the check fails the test).
std::string listing_accounted(const std::vector<Line>& lines) {
  Document doc;
  doc.file = "wrapped.pdf";
  doc.page_count = 1;
  Page p;
  p.number = 1;
  p.width = 612;
  p.height = 792;
  p.lines = lines;
  doc.pages.push_back(p);
  const std::vector<SourcePage> source = source_words(doc);
  LayoutOptions lo;
  Book book = book_record(doc, "wrapped", lo);
  lay_out_book(book, doc, lo);
  std::string code;
  for (const auto& c : book.chapters)
    for (const auto& b : c.blocks)
      if (b.type == BlockType::Code) code += b.text;
  const BookCheck check = verify_book(book, source);
  for (const auto& d : check.differences) ADD_FAILURE() << d.kind << " " << d.word;
  EXPECT_EQ(check.book.missing, 0);
  EXPECT_EQ(check.book.added, 0);
  EXPECT_EQ(check.book.misplaced, 0);
  return code;
}

// A listing line broken for the measure and led on by a wrap mark (Sphinx's hook arrow, a visible
// space where it broke at a space) comes out whole; the marks' going is logged as a join, so every
// word is accounted for and in its block's box.
TEST(Ledger, AListingLineUnwrappedOverItsWrapMarkAddsUpExactly) {
  // Glyphs advance half their size (test_pages.h): the listing's cells are 5 pt, and the
  // continuation's text starts two cells in, after the mark set at half size.
  const std::string code = listing_accounted({
      text_line("Example, taken from the geneweb package templates, with its choices:", 72, 100),
      line({span("Template: geneweb/lang", 72, 130, 10, "CMTT10", true)}),
      line({span("__Choices: Afrikaans (af), Czech (cs),\u2423", 72, 142, 10, "CMTT10", true)}),
      line({span("\u02D3", 77, 154, 5, "CMMI5"), span("\u2192", 79.5, 154, 5, "CMSY5"),
            span("Danish (da), Swedish (sv)", 82, 154, 10, "CMTT10", true)}),
      line({span("_Default: English", 72, 166, 10, "CMTT10", true)}),
  });
  EXPECT_NE(code.find("Czech (cs), Danish (da), Swedish (sv)\n"), std::string::npos) << code;
}

// Typographic fact: listings' prebreak mark ends the broken line instead (dblatex sets a
// space and \hookleftarrow, which TeX's math fonts make of an arrow and a hook with no
// Unicode mapping), and the line goes on indented on the next one. The line comes out whole,
// glued where it broke inside a token, spaced where it broke at a space; the mark's going is
// logged as a join.
TEST(Ledger, AListingLineUnwrappedOverATrailingWrapMarkAddsUpExactly) {
  const std::string code = listing_accounted({
      text_line("For example, the desktop file of a browser defines its attributes as follows:", 72, 100),
      line({span("[Desktop Entry]", 72, 130, 10, "LiberationMono", true)}),
      line({span("Name=Web Browser", 72, 142, 10, "LiberationMono", true)}),
      // Letters on both sides of the break: it broke at a space (an identifier is broken only
      // where it is longer than the line), which stays.
      line({span("Comment=Access the Internet and read pages from", 72, 154, 10, "LiberationMono", true),
            span(" \u2190", 307, 154, 9, "CMSY9"), span("\uFFFD", 317, 154, 9, "CMMI9")}),
      line({span("the web", 92, 166, 10, "LiberationMono", true)}),
      // After a slash: broken inside a token, glued.
      line({span("MimeType=text/html;text/xml;x-scheme-handler/", 72, 178, 10, "LiberationMono", true),
            span(" \u2190", 297, 178, 9, "CMSY9"), span("\uFFFD", 307, 178, 9, "CMMI9")}),
      line({span("https;", 92, 190, 10, "LiberationMono", true)}),
      line({span("StartupNotify=true", 72, 202, 10, "LiberationMono", true)}),
  });
  EXPECT_EQ(code,
            "[Desktop Entry]\nName=Web Browser\nComment=Access the Internet and read pages from the web\n"
            "MimeType=text/html;text/xml;x-scheme-handler/https;\nStartupNotify=true");
}

// Typographic fact: a block starts on one page and may go on over the break (a copyright
// notice's last sentence, a contents entry carried to the top of the next page). Matter kept
// out of the corpus is accounted for by its pages, so the carried line's words are counted
// as left out, on the page where they stand, and the ledger adds up.
TEST(Ledger, MatterLeftOutCarriedOverAPageBreakAddsUpExactly) {
  Document doc;
  doc.file = "carried.pdf";
  doc.page_count = 3;
  auto page = [](int number) {
    Page p;
    p.number = number;
    p.width = kPageWidth;
    p.height = kPageHeight;
    return p;
  };
  // Lines of one length: the notice's last line on page 1 is full and ends no sentence.
  Page notice = page(1), preface = page(2), chapter = page(3);
  notice.lines = {text_line("Copyright 2015 Ada Quillfeather. All rights reserved in every land and language.", 72, 100),
                  text_line("Permission is granted to copy this manual verbatim provided that the notice is", 72, 113),
                  text_line("kept on each copy and that the copies are not sold for a price and that the ones", 72, 126)};
  preface.lines = {text_line("made carry the same permission notice as this one on the same terms as these.", 72, 100)};
  for (int i = 0; i < 12; ++i)
    preface.lines.push_back(text_line("Preface words " + std::to_string(i) + " of the running prose set in full lines of the page.",
                                      72, 124 + 13.0 * i));
  chapter.lines = {text_line("1 Start", 72, 90, 16)};
  for (int i = 0; i < 6; ++i)
    chapter.lines.push_back(text_line("Chapter words " + std::to_string(i) + " of the running prose set in full lines here.", 72,
                                      120 + 13.0 * i));
  doc.pages = {notice, preface, chapter};
  doc.outline = {{"1 Start", 1, 3, 70}};
  const std::vector<SourcePage> source = source_words(doc);
  LayoutOptions lo;
  Book book = book_record(doc, "carried", lo);
  lay_out_book(book, doc, lo);
  ASSERT_EQ(book.excluded.size(), 1u);
  EXPECT_EQ(book.excluded[0].kind, "copyright");
  EXPECT_EQ(book.excluded[0].last_page, 2);
  const BookCheck check = verify_book(book, source);
  for (const auto& d : check.differences) ADD_FAILURE() << d.kind << " " << d.word << " page " << d.page;
  EXPECT_EQ(check.book.differences(), 0);
  EXPECT_GT(check.book.excluded, 0);
}

TEST(Ledger, ATableHeaderRepeatedOverAPageBreakIsAccountedAsRemoved) {
  // The header printed again at the top of the table's second page leaves the table; its
  // words are in the removal log, so the ledger still adds up.
  Document doc;
  doc.file = "table.pdf";
  doc.page_count = 2;
  Page first = body_page(1, "", 30), second = body_page(2, "", 0);
  const std::vector<std::vector<std::string>> rows = {{"Signal", "Number", "Action"}, {"SIGHUP", "1", "reload"},
                                                      {"SIGINT", "2", "stop"},       {"SIGQUIT", "3", "dump"},
                                                      {"SIGTERM", "15", "finish"},   {"SIGUSR1", "10", "rotate"}};
  auto set_row = [](Page& p, const std::vector<std::string>& row, double baseline) {
    const double xs[] = {72, 200, 320};
    for (size_t c = 0; c < row.size(); ++c) p.lines.push_back(text_line(row[c], xs[c], baseline));
  };
  for (size_t i = 0; i < 3; ++i) set_row(first, rows[i], 560 + 13.0 * static_cast<double>(i));
  set_row(second, rows[0], 100);
  for (size_t i = 3; i < rows.size(); ++i) set_row(second, rows[i], 100 + 13.0 * static_cast<double>(i - 2));
  for (int i = 0; i < 5; ++i)
    second.lines.push_back(text_line("Closing words " + std::to_string(i) + " of the running prose set after the table.", 72,
                                     200 + 15.0 * i));
  doc.pages = {first, second};
  const std::vector<SourcePage> source = source_words(doc);
  LayoutOptions lo;
  Book book = book_record(doc, "table", lo);
  lay_out_book(book, doc, lo);
  size_t tables = 0;
  for (const auto& c : book.chapters)
    for (const auto& b : c.blocks)
      if (b.type == BlockType::Table) {
        ++tables;
        EXPECT_EQ(b.rows, rows) << b.text;
      }
  EXPECT_EQ(tables, 1u);
  ASSERT_EQ(book.removed.size(), 1u);
  EXPECT_EQ(book.removed[0].reason, kRepeatedTableHeader);
  EXPECT_EQ(book.removed[0].page, 2);
  const BookCheck check = verify_book(book, source);
  for (const auto& d : check.differences) ADD_FAILURE() << d.kind << " " << d.word;
  EXPECT_EQ(check.book.differences(), 0);
  EXPECT_EQ(check.book.removed, (std::vector<std::pair<std::string, long>>{{kRepeatedTableHeader, 3}}));
}

TEST(Ledger, AWordChangedDroppedDuplicatedOrMovedIsNamedWithItsPageAndChapter) {
  const Edit edits[] = {
      {"changed", "added", change_a_word},
      {"dropped", "missing", drop_a_word},
      {"duplicated", "added", duplicate_a_word},
      {"moved to another chapter", "missing", move_to_another_chapter},
  };
  for (const auto& e : edits) {
    SCOPED_TRACE(e.name);
    Built b(std::string("ledger-edit-") + std::to_string(&e - edits), {fixture_books() / "fx-classic.pdf"});
    auto clean = b.verify();
    ASSERT_EQ(clean.code, 0) << clean.out;
    const std::string word = e.apply(b);
    auto v = b.verify();
    EXPECT_EQ(v.code, 1) << v.out;
    const std::regex named("fx-classic: page [0-9]+: " + std::string(e.kind) + " word \"" + regex_escape(word) +
                           "\" in chapter \"[^\"]+\"");
    EXPECT_TRUE(std::regex_search(v.out, named)) << v.out;
    // The book's ledger, as verify prints it, shows the difference.
    EXPECT_NE(v.out.find(e.kind == std::string("added") ? " added" : " missing"), std::string::npos) << v.out;
  }
}

// A paragraph moved to another chapter that shares its page: the count of the group still
// balances, but the words stand outside the box of the block that now holds them.
TEST(Ledger, AParagraphMovedWithinAPageIsMisplaced) {
  Built b("ledger-within-page", {fixture_books() / "fx-classic.pdf"});
  const fs::path file = b.chapter_file("fx-classic", "02-");
  Json ch = load(file);
  // Two paragraphs of one page: the first's text is appended to the second's.
  auto plain = [](const Json& b) { return b["type"] == "paragraph" && !b.contains("pages") && !b.contains("marks"); };
  for (size_t i = 0; i < ch["blocks"].size(); ++i)
    for (size_t j = i + 1; j < ch["blocks"].size(); ++j) {
      Json& x = ch["blocks"][i];
      Json& y = ch["blocks"][j];
      if (!plain(x) || !plain(y) || x["page"] != y["page"] || words(x["text"]) < 8) continue;
      y["text"] = y["text"].get<std::string>() + " " + x["text"].get<std::string>();
      ch["blocks"].erase(i);
      save(file, ch);
      auto v = b.verify();
      EXPECT_EQ(v.code, 1) << v.out;
      EXPECT_NE(v.out.find("misplaced word"), std::string::npos) << v.out;
      EXPECT_NE(v.out.find("in a paragraph block, outside its box"), std::string::npos) << v.out;
      return;
    }
  FAIL() << "no two paragraphs on one page in " << file;
}

// A line of a paragraph logged as a running head: every word is accounted for, in the
// furniture account, so the count balances; the findings name the exit.
TEST(Ledger, ABodyLineRemovedAsARunningHeadIsAFinding) {
  Built b("ledger-body-line", {fixture_books() / "fx-classic.pdf"});
  const fs::path file = b.chapter_file("fx-classic", "02-");
  Json ch = load(file);
  const fs::path pages = b.t.path / "pages.jsonl";
  auto e = run_quire("extract " + shell_quote(b.in / "fx-classic.pdf") + " -o " + shell_quote(pages));
  ASSERT_EQ(e.code, 0) << e.out;
  std::ifstream in(pages);
  Document doc = read_pages_jsonl(in, pages.string());
  for (const auto& p : doc.pages) {
    const double mid = p.height / 2;
    for (const auto& l : p.lines) {
      const std::string text = l.text();
      // A whole line of prose in the middle of the page, found once in a paragraph.
      if (l.bbox.y0 < mid - 100 || l.bbox.y1 > mid + 100 || words(text) < 8 || text.back() == '-') continue;
      for (auto& block : ch["blocks"]) {
        if (block["type"] != "paragraph" || block["page"] != p.number) continue;
        std::string t = block["text"];
        const size_t at = t.find(text);
        if (at == std::string::npos || t.find(text, at + 1) != std::string::npos) continue;
        t.erase(at, text.size());
        block["text"] = t;
        save(file, ch);
        Removal r{p.number, l.bbox, text, "running-head"};
        std::ofstream(b.out / "books" / "fx-classic" / "removed.jsonl", std::ios::app) << dump(to_json(r), false);
        auto v = b.verify();
        EXPECT_EQ(v.code, 3) << v.out;
        EXPECT_EQ(v.out.find("word \""), std::string::npos) << "the words are all accounted for\n" << v.out;
        const std::string page = "page " + std::to_string(p.number) + ": ";
        EXPECT_NE(v.out.find(page + "finding body-line-removed"), std::string::npos) << v.out;
        EXPECT_NE(v.out.find(page + "finding running-head-once"), std::string::npos) << v.out;
        auto s = b.verify("--strict");
        EXPECT_EQ(s.code, 1) << s.out;
        return;
      }
    }
  }
  FAIL() << "no line of a paragraph in the middle of a page of chapter 2";
}

// The second engine's words witness the corpus: what the engines are known to read apart is
// counted by kind, anything else is a difference.
TEST(Witness, PopplerRunsCleanOnTheFixtureBooksAndTheRManualsAndStillFindsALostWord) {
  std::vector<fs::path> books = {fixture_books() / "fx-classic.pdf", fixture_books() / "fx-plain.pdf"};
  for (const char* name : {"R-data.pdf", "R-intro.pdf", "R-exts.pdf", "R-lang.pdf"})
    if (fs::exists(kManuals / name)) books.push_back(kManuals / name);
  Built b("witness", books);
  auto v = b.verify("--engine poppler");
  EXPECT_EQ(v.code, 0) << v.out.substr(0, 6000);
  EXPECT_NE(v.out.find("by a known difference: spacing"), std::string::npos) << v.out.substr(0, 6000);
  EXPECT_NE(v.out.find(" 0 differences"), std::string::npos) << v.out.substr(0, 6000);

  std::string word = drop_a_word(b);
  auto w = b.verify("--engine poppler");
  EXPECT_EQ(w.code, 1) << w.out.substr(0, 6000);
  EXPECT_NE(w.out.find("missing word \"" + word + "\""), std::string::npos) << w.out.substr(0, 6000);
}

// `quire verify` takes the --set flags of the build it checks, as they were. The extract
// ones read the PDFs again as the build read them: here every page goes over its time limit,
// so the corpus holds none of the book's words, and only a reading under the same limit
// agrees with it. The later stages' ones are checked as the build checks them and change
// nothing: what those stages did is in the corpus.
TEST(Verify, TakesTheSetFlagsOfTheBuild) {
  TempDir t("verify-set");
  const fs::path in = t.path / "in", out = t.path / "out";
  fs::create_directories(in);
  fs::copy_file(fixture_books() / "fx-plain.pdf", in / "fx-plain.pdf");
  const std::string set =
      " --set extract.page_timeout=0.000001 --set clean.band_ratio=0.2 --set layout.lines.min_gutter=7";
  auto b = run_quire("build " + shell_quote(in) + " -o " + shell_quote(out) + " --ocr never --quiet" + set);
  ASSERT_EQ(b.code, 3) << "built, with a warning for each skipped page\n" << b.out;
  const std::string verify = "verify " + shell_quote(out) + " --pdf-dir " + shell_quote(in) + " --ocr never";

  auto same = run_quire(verify + set);
  EXPECT_EQ(same.code, 0) << same.out;
  EXPECT_NE(same.out.find(" 0 differences"), std::string::npos) << same.out;

  auto without = run_quire(verify);
  EXPECT_EQ(without.code, 1) << "read without the limit, the pages have words the corpus lacks\n" << without.out;
  EXPECT_NE(without.out.find("missing word"), std::string::npos) << without.out;

  auto misspelt = run_quire(verify + " --set layout.min_guter=7");
  EXPECT_EQ(misspelt.code, 2) << misspelt.out;
  EXPECT_NE(misspelt.out.find("layout has no option 'min_guter'; close: lines.min_gutter"), std::string::npos)
      << misspelt.out;
}

}  // namespace
}  // namespace quire::test
