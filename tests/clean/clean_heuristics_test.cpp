// clean's heuristics, one synthetic book per case. Each case states the typographic fact it
// relies on; every case also checks that the removal log accounts for every vanished word.
#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "test_pages.h"

namespace quire::test {
namespace {

constexpr double kHeadBaseline = 58;   // head row, in the top margin
constexpr double kFootBaseline = 750;  // foot row, in the bottom margin

std::string arabic(int n) { return std::to_string(n); }

Document book(int pages, const std::function<void(Page&)>& decorate, const std::function<std::string(int)>& label = {}) {
  Document d;
  d.file = "synthetic.pdf";
  d.page_count = pages;
  for (int n = 1; n <= pages; ++n) {
    Page p = body_page(n, label ? label(n) : "");
    decorate(p);
    d.pages.push_back(std::move(p));
  }
  return d;
}

// Typographic fact: book designs alternate heads, the book title on even (verso) pages and the
// chapter title on odd (recto) pages, each with the folio at the outer corner.
TEST(RunningHeads, AlternatingEvenOddHeadsAreRemoved) {
  Document d = book(8, [](Page& p) {
    bool even = p.number % 2 == 0;
    std::string head = even ? "A Treatise on Rotation" : "Chapter 1: Getting Started";
    p.lines.push_back(text_line(head, even ? 120 : 72, kHeadBaseline));
    p.lines.push_back(text_line(arabic(p.number), even ? 72 : 530, kHeadBaseline));
  });
  CleanResult r = clean_and_account(d);
  for (const auto& p : d.pages) {
    EXPECT_FALSE(has_line(p, "A Treatise on Rotation")) << p.number;
    EXPECT_FALSE(has_line(p, "Chapter 1: Getting Started")) << p.number;
    EXPECT_EQ(removed_texts(r, p.number, "page-number"), std::vector<std::string>{arabic(p.number)});
    EXPECT_EQ(p.lines.size(), 40u) << "body lines must all stay on page " << p.number;
  }
}

// Typographic fact: a page style sets its foot at one height, but a formatter may set it lower
// on a page whose last lines ran past the foot's trap (groff's man pages: "BSD November 28,
// 2022 6" half a line down on three of sixteen pages). The same words with the page's own
// number are the same running foot, wherever on the foot band they stand; a body line at the
// foot with those words but not the page's number stays.
TEST(RunningHeads, TheFootSetLowerOnAFewPagesIsTheSameFoot) {
  Document d = book(16, [](Page& p) {
    const bool lower = p.number == 6 || p.number == 8 || p.number == 12;
    const double base = kFootBaseline + (lower ? 6 : 0);
    p.lines.push_back(text_line("BSD", 72, base));
    p.lines.push_back(text_line("November 28, 2022 " + arabic(p.number), 266, base));
  });
  d.pages[13].lines.push_back(text_line("November 28, 2022 4", 266, 720));
  CleanResult r = clean_and_account(d);
  for (const auto& p : d.pages) {
    EXPECT_FALSE(has_line(p, "BSD")) << p.number;
    EXPECT_EQ(removed_texts(r, p.number, "page-number"), std::vector<std::string>{arabic(p.number)}) << p.number;
  }
  EXPECT_TRUE(has_line(d.pages[13], "November 28, 2022 4"));
}

// Typographic fact: a head naming the current chapter recurs only within that chapter, and a
// chapter opening page carries no head: its large title sits lower and the folio moves to the
// foot.
TEST(RunningHeads, ChapterSpecificHeadsAndOpeningPages) {
  Document d = book(9, [](Page& p) {
    int chapter = p.number <= 3 ? 1 : (p.number <= 6 ? 2 : 3);
    bool opener = p.number == 1 || p.number == 4 || p.number == 7;
    if (opener) {
      p.lines.insert(p.lines.begin(), text_line("Chapter " + arabic(chapter) + " Title", 72, 80, 20));
      p.lines.push_back(text_line(arabic(p.number), 300, kFootBaseline));
    } else {
      p.lines.push_back(text_line("Chapter " + arabic(chapter) + ": Topic number " + arabic(chapter), 72, kHeadBaseline));
      p.lines.push_back(text_line(arabic(p.number), 530, kHeadBaseline));
    }
  });
  CleanResult r = clean_and_account(d);
  for (const auto& p : d.pages) {
    bool opener = p.number == 1 || p.number == 4 || p.number == 7;
    int chapter = p.number <= 3 ? 1 : (p.number <= 6 ? 2 : 3);
    if (opener) {
      EXPECT_TRUE(has_line(p, "Chapter " + arabic(chapter) + " Title")) << "opening title kept, page " << p.number;
    }
    EXPECT_EQ(p.lines.size(), opener ? 41u : 40u) << p.number;
    EXPECT_EQ(removed_texts(r, p.number, "page-number"), std::vector<std::string>{arabic(p.number)}) << p.number;
  }
}

// Typographic fact: a chapter opener may set its label's word alone at the top of the page
// ("CHAPTER" over "ONE", Sphinx's default), at one place on every opening page as a head
// stands. It is the heading's; the heads of the other pages go.
TEST(RunningHeads, OpenerWordAloneOnEveryOpeningPageStays) {
  static const char* numbers[] = {"ONE", "TWO", "THREE"};
  Document d = book(9, [](Page& p) {
    int chapter = p.number <= 3 ? 1 : (p.number <= 6 ? 2 : 3);
    bool opener = p.number == 1 || p.number == 4 || p.number == 7;
    if (opener) {
      // The opener stands where the text block starts; the body starts lower.
      p.lines.erase(p.lines.begin(), p.lines.begin() + 6);
      p.lines.insert(p.lines.begin(), text_line("TITLE " + arabic(chapter), 300, 160, 14));
      p.lines.insert(p.lines.begin(), text_line(numbers[chapter - 1], 500, 124, 14));
      p.lines.insert(p.lines.begin(), text_line("CHAPTER", 490, 92));
    } else {
      p.lines.push_back(text_line("Practical Notes, Release 1.0", 72, kHeadBaseline));
    }
  });
  CleanResult r = clean_and_account(d);
  for (const auto& p : d.pages) {
    bool opener = p.number == 1 || p.number == 4 || p.number == 7;
    if (opener) {
      EXPECT_TRUE(has_line(p, "CHAPTER")) << p.number;
    } else {
      EXPECT_EQ(removed_texts(r, p.number, "running-head"), std::vector<std::string>{"Practical Notes, Release 1.0"})
          << p.number;
    }
  }
}

// Typographic fact: the folio may stand in the head or the foot, alone or at the start or end of
// the head line, as one line or several on one baseline; it follows the page sequence whether
// or not the PDF has page labels.
struct FolioCase {
  const char* name;
  bool labels;
  std::function<void(Page&, const std::string&)> place;  // adds head/folio lines for a folio
  std::vector<std::string> expect_folio;                  // page-number entries per page
};

TEST(PageNumbers, InHeadAndFootWithOrWithoutLabels) {
  const int offset = 2;  // two unnumbered pages (title, copyright) before page 1
  std::vector<FolioCase> cases = {
      {"foot alone, labels", true, [](Page& p, const std::string& f) { p.lines.push_back(text_line(f, 300, kFootBaseline)); }, {}},
      {"foot alone, no labels", false, [](Page& p, const std::string& f) { p.lines.push_back(text_line(f, 300, kFootBaseline)); }, {}},
      {"end of head line, separate line", false,
       [](Page& p, const std::string& f) {
         p.lines.push_back(text_line("Chapter 1: Introduction", 72, kHeadBaseline));
         p.lines.push_back(text_line(f, 530, kHeadBaseline));
       }, {}},
      {"start of head line, one span", false,
       [](Page& p, const std::string& f) { p.lines.push_back(text_line(f + "   CHAPTER 2. TITLE", 72, kHeadBaseline)); }, {}},
      {"end of head line, one span", true,
       [](Page& p, const std::string& f) { p.lines.push_back(text_line("Chapter 1: Introduction  " + f, 72, kHeadBaseline)); }, {}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Document d = book(
        8,
        [&](Page& p) {
          if (p.number > offset) c.place(p, arabic(p.number - offset));
        },
        [&](int n) { return c.labels && n > offset ? arabic(n - offset) : std::string(); });
    CleanResult r = clean_and_account(d);
    for (const auto& p : d.pages) {
      std::vector<std::string> want;
      if (p.number > offset) want.push_back(arabic(p.number - offset));
      auto got = removed_texts(r, p.number, "page-number");
      for (auto& g : got) g = whitespace_tokens(g).empty() ? g : whitespace_tokens(g).front();
      EXPECT_EQ(got, want) << "page " << p.number;
      EXPECT_EQ(p.lines.size(), 40u) << "page " << p.number;
    }
  }
}

// OCR fact: a scanned page's folio comes back with its ones read as i, l or I and its zeros
// as o or O ("11" as "ii", "10" as "1O"); read so, it stands in the page sequence as printed,
// and goes with the others. A misreading that is not its page's number, a word of the same
// letters in the body, and the same letters in a text layer (no OCR) all stay.
TEST(PageNumbers, AFolioOcrReadAsLettersGoesInItsSequence) {
  const std::map<int, std::string> misread = {{3, "l"}, {10, "1O"}, {11, "ii"}};
  for (const bool ocr : {true, false}) {
    SCOPED_TRACE(ocr ? "OCR" : "text layer");
    Document d = book(
        12,
        [&](Page& p) {
          auto it = misread.find(p.number);
          p.lines.push_back(text_line(it != misread.end() ? it->second : arabic(p.number), 300, kFootBaseline));
          p.lines.push_back(text_line("ii", 72, 400));
          for (auto& l : p.lines)
            for (auto& sp : l.spans) sp.ocr = ocr;
        },
        [](int) { return std::string(); });
    CleanResult r = clean_and_account(d);
    for (const auto& p : d.pages) {
      auto got = removed_texts(r, p.number, "page-number");
      auto it = misread.find(p.number);
      if (it == misread.end()) {
        EXPECT_EQ(got, std::vector<std::string>{arabic(p.number)}) << "page " << p.number;
      } else if (ocr && p.number != 3) {
        EXPECT_EQ(got, std::vector<std::string>{it->second}) << "page " << p.number;
      } else {
        EXPECT_TRUE(got.empty()) << "page " << p.number;  // "l" reads 1, not page 3's number
      }
      bool body = false;
      for (const auto& l : p.lines) body = body || l.text() == "ii";
      EXPECT_TRUE(body) << "page " << p.number;
    }
  }
}

// Typographic fact: groff prints the folio between dashes ("-4-") centred in the head, and
// other styles in brackets ("[4]", "(iv)"); the number inside follows the pages as a bare one
// does. A drawing at the top of a page can set its labels closer below the folio than a line
// of text would stand: the folio goes all the same, and the labels stay.
TEST(PageNumbers, DecoratedFoliosGoEvenWithADrawingsLabelsCloseBelow) {
  for (const auto& marks : std::vector<std::pair<std::string, std::string>>{{"-", "-"}, {"[", "]"}, {"\u2014", "\u2014"}}) {
    // Named copies, not a structured binding: the lambda below captures them.
    const std::string open = marks.first, close = marks.second;
    SCOPED_TRACE(open + "N" + close);
    Document d = book(8, [&](Page& p) {
      p.lines.push_back(text_line(open + arabic(p.number) + close, 290, kHeadBaseline));
      // Page 4: the labels of a figure 12 pt under the folio, less than a body line's pitch.
      if (p.number == 4) {
        p.lines.push_back(text_line("1", 322, kHeadBaseline + 12));
        p.lines.push_back(text_line("2", 358, kHeadBaseline + 24));
      }
    });
    CleanResult r = clean_and_account(d);
    for (const auto& p : d.pages)
      EXPECT_EQ(removed_texts(r, p.number, "page-number"), std::vector<std::string>{open + arabic(p.number) + close})
          << p.number;
    EXPECT_TRUE(has_line(d.pages[3], "1"));
    EXPECT_TRUE(has_line(d.pages[3], "2"));
  }
  // A number with decoration on one side only is no folio: "4." opens a list item.
  Document d = book(8, [&](Page& p) { p.lines.push_back(text_line(arabic(p.number) + ".", 72, kHeadBaseline + 12)); });
  CleanResult r = clean_and_account(d);
  for (const auto& p : d.pages) EXPECT_TRUE(removed_texts(r, p.number, "page-number").empty()) << p.number;
}

// Typographic fact: browsers, XSL-FO formatters and some LaTeX classes print the folio with
// the count of pages ("12 / 233", "Page 12 of 233"), sometimes less than a line's gap below
// the text block. The count is the same on every page, as no line number or line of text
// is: the folio goes, with its count and words, also where the text comes that close.
TEST(PageNumbers, AFolioWithItsCountGoesEvenCloseToTheText) {
  for (const auto& form : std::vector<std::pair<std::string, std::string>>{{"", " / 8"}, {"Page ", " of 8"}, {"", " of 8"}}) {
    SCOPED_TRACE(form.first + "N" + form.second);
    // The last body line's baseline is 685: the foot row at 700 stands one body pitch below.
    Document d = book(8, [&](Page& p) { p.lines.push_back(text_line(form.first + arabic(p.number) + form.second, 280, 700)); });
    CleanResult r = clean_and_account(d);
    for (const auto& p : d.pages) {
      EXPECT_EQ(removed_texts(r, p.number, "page-number"), std::vector<std::string>{arabic(p.number)}) << p.number;
      EXPECT_EQ(p.lines.size(), 40u) << p.number;
    }
  }
  // Two numbers that are no folio and its count stay: "3 / 4" of a fraction in the text.
  Document d = book(8, [&](Page& p) { p.lines.push_back(text_line("10 / 2", 280, 700)); });
  CleanResult r = clean_and_account(d);
  for (const auto& p : d.pages) EXPECT_TRUE(has_line(p, "10 / 2")) << p.number;
}

// Typographic fact: front matter is numbered in roman numerals and the PDF labels say so
// ("iv"); the body restarts at arabic 1. Each numbering has its own offset from the page index.
TEST(PageNumbers, RomanFrontMatterMatchesLabels) {
  const char* romans[] = {"i", "ii", "iii", "iv"};
  auto label = [&](int n) { return n <= 4 ? std::string(romans[n - 1]) : arabic(n - 4); };
  Document d = book(10, [&](Page& p) { p.lines.push_back(text_line(label(p.number), 300, kFootBaseline)); }, label);
  CleanResult r = clean_and_account(d);
  for (const auto& p : d.pages)
    EXPECT_EQ(removed_texts(r, p.number, "page-number"), std::vector<std::string>{label(p.number)}) << p.number;
}

// Typographic fact: a body line may sit near the top (a page with less top space, a line that
// starts with a number) and a section heading may open a page; neither recurs in the head slot,
// and the heading is larger than the body. Both stay, while the real head above them goes.
TEST(RunningHeads, BodyLineAndSectionHeadingNearTopStay) {
  Document d = book(8, [](Page& p) {
    p.lines.push_back(text_line("Notes on Rotation", 72, kHeadBaseline));
    p.lines.push_back(text_line(arabic(p.number), 530, kHeadBaseline));
    if (p.number == 3) p.lines.push_back(text_line("12 monkeys were counted at the top of this page.", 72, 82));
    if (p.number == 5) p.lines.push_back(text_line("2.3 Results", 72, 84, 14));
    if (p.number == 6) p.lines.push_back(text_line("6", 72, 84));  // a lone number in the text, not in the slot
  });
  CleanResult r = clean_and_account(d);
  EXPECT_TRUE(has_line(d.pages[2], "12 monkeys were counted at the top of this page."));
  EXPECT_TRUE(has_line(d.pages[4], "2.3 Results"));
  for (const auto& p : d.pages) EXPECT_FALSE(has_line(p, "Notes on Rotation")) << p.number;
  EXPECT_EQ(removed_texts(r, 3, "running-head"), std::vector<std::string>{"Notes on Rotation"});
}

// Typographic fact: a browser prints its header (date, title) and footer (address, "page/of")
// in small type less than a line from the text; small type beside the text block is no body
// line, so no gap is asked of it. The same rows in body type would stay: two body lines that
// merely look alike page after page are not cut apart.
TEST(RunningHeads, SmallPrintHeaderAndFooterCloseToTheTextAreRemoved) {
  // 7 pt: small type. 9 pt: a little smaller than the body, but the same on every page (a
  // browser's header keeps its 8 pt when the page's text is scaled down to fit).
  for (double size : {7.0, 9.0, kBodySize}) {
    Document d = book(8, [&](Page& p) {
      p.lines.push_back(text_line("11/30/26, 3:14 AM", 24, 88, size));
      p.lines.push_back(text_line("Data Import/Export", 300, 88, size));
      p.lines.push_back(text_line("file:///usr/share/doc/data.html", 24, 697, size));
      p.lines.push_back(text_line(arabic(p.number) + "/8", 560, 697, size));
    });
    CleanResult r = clean_and_account(d);
    for (const auto& p : d.pages) {
      const bool small = size < kBodySize;
      EXPECT_EQ(has_line(p, "11/30/26, 3:14 AM"), !small) << "size " << size << ", page " << p.number;
      EXPECT_EQ(has_line(p, "file:///usr/share/doc/data.html"), !small) << "size " << size << ", page " << p.number;
      EXPECT_EQ(has_line(p, arabic(p.number) + "/8"), !small) << "size " << size << ", page " << p.number;
      EXPECT_EQ(p.lines.size(), small ? 40u : 44u) << "size " << size << ", page " << p.number;
    }
  }
}

// Typographic fact: a browser prints a fixed element ("Skip to content") at one place on every
// page, over whatever text the page has there: the same line on every page, printed over a
// line of text on some. It is furniture however near the text stands (it is set off from
// nothing). The text under it stays, a line of the page's own or one a few glyphs of it
// touch, as does every body line below it, and a page's first line standing in its place on a
// page without it (the place is the text's as much as the element's). The same line in body
// type, never printed over anything, is two body lines that look alike (it stays: no gap
// sets it off).
TEST(RunningHeads, ALinePrintedOverTheTextOnEveryPageGoesAndTheTextUnderItStays) {
  static const char* words[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"};
  auto lead = [](int n) { return std::string("The ") + words[n - 1] + " paragraph opens the page here."; };
  for (bool over : {true, false}) {
    Document d;
    d.file = "synthetic.pdf";
    d.page_count = 8;
    for (int n = 1; n <= 8; ++n) {
      Page p;
      p.number = n;
      p.width = kPageWidth;
      p.height = kPageHeight;
      // (Page 7 lacks it: its first line, alone in the element's place, is the text's.)
      if (!over || n != 7) p.lines.push_back(text_line("Skip to content", 30, 41));
      // Under it (odd pages: wholly; page 4: by a few glyphs at its end), or below it.
      const double x = !over || n % 2 == 0 ? 72 : 28;
      const double first = over && n != 2 && n != 6 ? 40 : 53;
      const double start = n == 4 && over ? 98 : x;
      p.lines.push_back(text_line(lead(n), start, first));
      // A paragraph's space after the first line, then the rest of the page.
      for (int i = 0; i < 30; ++i)
        p.lines.push_back(text_line("Body words " + arabic(n) + "-" + arabic(i) + " of the running prose here.", 72,
                                    first + 24 + 15.0 * i));
      d.pages.push_back(std::move(p));
    }
    CleanResult r = clean_and_account(d);
    for (const auto& p : d.pages) {
      EXPECT_EQ(has_line(p, "Skip to content"), !over) << "over " << over << ", page " << p.number;
      EXPECT_TRUE(has_line(p, lead(p.number))) << "over " << over << ", page " << p.number;
      EXPECT_EQ(p.lines.size(), over ? 31u : 32u) << "over " << over << ", page " << p.number;
      if (over) {
        EXPECT_EQ(removed_texts(r, p.number, "running-head"),
                  p.number == 7 ? std::vector<std::string>{} : std::vector<std::string>{"Skip to content"});
      }
    }
  }
}

// Typographic fact: a caption pattern that recurs at the top of two pages sits below the head,
// inside the text block: furniture is only what lies between the page edge and the first
// line that is not furniture.
TEST(RunningHeads, RecurringCaptionBelowTheHeadStays) {
  Document d = book(12, [](Page& p) {
    p.lines.push_back(text_line("Notes on Rotation", 72, kHeadBaseline));
    p.lines.push_back(text_line(arabic(p.number), 530, kHeadBaseline));
    if (p.number == 4 || p.number == 9)
      p.lines.push_back(text_line("Table " + arabic(p.number) + ": Source files quoted in this chapter.", 90, 76));
  });
  clean_and_account(d);
  EXPECT_TRUE(has_line(d.pages[3], "Table 4: Source files quoted in this chapter."));
  EXPECT_TRUE(has_line(d.pages[8], "Table 9: Source files quoted in this chapter."));
}

// Typographic fact: a reference sets the same section headings in every entry ("Arguments",
// "Examples"), in body type, and a page break now and then puts one at the top of a page, in
// the slot of the first body line, set off by the space after a heading. Its recurrence there
// is no head's: the same line stands in the middle of many more pages. Neither the heading nor
// a body line that opens another page in that slot (before a paragraph's space) is furniture.
TEST(RunningHeads, SectionHeadingEveryEntryHasStaysAtTheTopOfAPage) {
  const std::string words[] = {"aliases", "topics", "keywords", "concepts", "vignettes", "demos"};
  auto opening = [&](int n) {
    return n % 2 == 0 ? std::string("Arguments") : "Note that the " + words[n / 2] + " are not shown here.";
  };
  Document d = book(12, [&](Page& p) {
    p.lines.push_back(text_line("entry" + arabic(p.number), 72, kHeadBaseline));
    p.lines.push_back(text_line(arabic(p.number), 530, kHeadBaseline));
    p.lines.erase(p.lines.begin() + 1);  // the space after the page's first line
    p.lines[0] = text_line(opening(p.number), 72, 100);
    p.lines.push_back(text_line("Arguments", 72, 407));
  });
  CleanResult r = clean_and_account(d);
  for (const auto& p : d.pages) {
    EXPECT_TRUE(has_line(p, opening(p.number))) << p.number;
    EXPECT_EQ(removed_texts(r, p.number, "running-head"), std::vector<std::string>{"entry" + arabic(p.number)}) << p.number;
  }
}

// Typographic fact: a book set for a small page and printed on larger paper (A5 text on A4,
// as groff does when its page length and the device's paper disagree) has its foot, folio
// included, two thirds of the way down the page, far outside a band measured from the
// paper's edge; the rest of the paper is empty on every page. The bands are measured from
// the edges of the printed area, and the body's last lines stay.
TEST(PageNumbers, FolioOfASmallPagePrintedOnLargerPaperIsRemoved) {
  constexpr double kA4 = 842, kA5 = 595;
  Document d = book(8, [&](Page& p) {
    p.height = kA4;
    p.lines.clear();
    p.lines.push_back(text_line(p.number % 2 ? "Getting Started" : "The Ring Log", 72, 40));
    for (int i = 0; i < 30; ++i)
      p.lines.push_back(text_line("Body words " + arabic(p.number) + "-" + std::to_string(i) + " of the running prose.", 72, 70 + 15.0 * i));
    p.lines.push_back(text_line(arabic(p.number), 210, kA5 - 25));
  });
  CleanResult r = clean_and_account(d);
  for (const auto& p : d.pages) {
    EXPECT_EQ(removed_texts(r, p.number, "page-number"), std::vector<std::string>{arabic(p.number)}) << p.number;
    EXPECT_EQ(p.lines.size(), 30u) << p.number;
    EXPECT_TRUE(has_line(p, "Body words " + arabic(p.number) + "-29 of the running prose.")) << p.number;
  }
}

// Typographic fact: a section's running head may appear on one page only, but it repeats a
// title set larger elsewhere in the book.
TEST(RunningHeads, OneOffHeadNamingASectionIsRemoved) {
  Document d = book(6, [](Page& p) {
    if (p.number == 2) p.lines.push_back(text_line("Why Rotate Backups", 72, 300, 14));
    if (p.number == 4) p.lines.push_back(text_line("The Rotation Script", 72, 300, 14));
    if (p.number == 3) p.lines.push_back(text_line("Why Rotate Backups", 150, kHeadBaseline));
    if (p.number == 5) p.lines.push_back(text_line("The Rotation Script", 150, kHeadBaseline));
    p.lines.push_back(text_line(arabic(p.number), 300, kFootBaseline));
  });
  CleanResult r = clean_and_account(d);
  EXPECT_EQ(removed_texts(r, 3, "running-head"), std::vector<std::string>{"Why Rotate Backups"});
  EXPECT_EQ(removed_texts(r, 5, "running-head"), std::vector<std::string>{"The Rotation Script"});
  EXPECT_TRUE(has_line(d.pages[1], "Why Rotate Backups"));
  EXPECT_TRUE(has_line(d.pages[3], "The Rotation Script"));
}

// Typographic fact: a page prints its number once. A footnote that begins with its mark sits
// in the foot band, and its mark can equal the page's number ("2 for some clients ..." on a
// page numbered 2 at its head): it is a note, not a second folio, and its text stays.
TEST(PageNumbers, AFootnoteThatBeginsWithThePagesNumberStays) {
  auto note = [](int n) { return " for " + std::string(n == 2 ? "some clients" : n == 5 ? "older builds" : "a mirror") +
                                 " the old address may appear to work."; };
  Document d = book(
      10,
      [&](Page& p) {
        p.lines.push_back(text_line("Chapter 1: Getting the sources", 72, kHeadBaseline));
        p.lines.push_back(text_line(arabic(p.number), 530, kHeadBaseline));
        if (p.number == 2 || p.number == 5 || p.number == 8)
          p.lines.push_back(line({span(arabic(p.number), 72, kFootBaseline - 10 - 2, 6), span(note(p.number), 76, kFootBaseline - 10, 8)}));
      },
      arabic);
  CleanResult r = clean_and_account(d);
  for (int n : {2, 5, 8}) {
    EXPECT_EQ(removed_texts(r, n, "page-number"), (std::vector<std::string>{arabic(n)})) << "page " << n;
    EXPECT_TRUE(has_line(d.pages[static_cast<size_t>(n - 1)], arabic(n) + note(n))) << "page " << n;
  }
}

// Typographic fact: a footnote opens with its mark, set raised and smaller than its text, and a
// running foot carries no note mark. The same note (a URL cited from several pages) stands at
// the foot's one place under each page's text, its marks (3, 7, 11) masked as a folio's are:
// it recurs in its slot, but it is the text's, on a page whose text ends high as on the others.
TEST(RunningHeads, TheSameFootnoteOnSeveralPagesStays) {
  const std::string url = "http://www.example.org/faq/install-where.html";
  const std::map<int, int> marks{{3, 3}, {6, 7}, {9, 11}, {12, 14}};
  Document d = book(14, [&](Page& p) {
    auto it = marks.find(p.number);
    if (p.number >= 9 && it != marks.end()) p.lines.resize(30);  // the text ends high: a gap over the note
    p.lines.push_back(text_line("Chapter 1: Getting the sources", 72, kHeadBaseline));
    p.lines.push_back(text_line(arabic(p.number), 530, kHeadBaseline));
    if (it == marks.end()) return;
    p.lines.push_back(line({span(arabic(it->second), 72, kFootBaseline - 2, 6), span(url, 76, kFootBaseline, 8)}));
  });
  CleanResult r = clean_and_account(d);
  for (const auto& [page, mark] : marks) {
    EXPECT_TRUE(removed_texts(r, page, "running-head").size() == 1 &&
                removed_texts(r, page, "running-head")[0] == "Chapter 1: Getting the sources")
        << "page " << page;
    EXPECT_TRUE(removed_texts(r, page, "page-number") == std::vector<std::string>{arabic(page)}) << "page " << page;
    EXPECT_TRUE(has_line(d.pages[static_cast<size_t>(page - 1)], arabic(mark) + " " + url)) << "page " << page;
  }
}

// Typographic fact: a page style sets the folio and the heads at one place on every page, so a
// slot holds one row of each page. The text ends at another height on each page, and what
// stands below it (its last lines, an index of the macros the page defines, each citing the
// page: "\alpha: 3, 7" on page 7) fills the foot band at every height. Those places chain
// up into one slot within the baseline tolerance, in which a row ending with the page's number
// on every page passed for a folio: the slot became furniture, and the body lines in it went.
TEST(PageNumbers, TextAtEveryHeightOfTheFootBandIsNoSlotOfFolios) {
  Document d = book(
      12,
      [&](Page& p) {
        // The body ends lower on each page: 1.5 pt steps fill the band between lines.
        const double shift = 1.5 * static_cast<double>(p.number % 10);
        p.lines.clear();
        for (int i = 0; i < 38; ++i)
          p.lines.push_back(text_line("Body words " + arabic(p.number) + "-" + arabic(i) + " of the running prose here.", 72,
                                      100 + 15.0 * i + shift));
        const double last = 100 + 15.0 * 37 + shift;
        for (int k = 0; k < 3; ++k)
          p.lines.push_back(line({span("\\macro" + arabic(k) + ": 3, " + arabic(p.number), 100, last + 18 + 10.0 * k, 8,
                                       "Mono", true)}));
        p.lines.push_back(text_line("Chapter 1: Getting the sources", 72, kHeadBaseline));
        p.lines.push_back(text_line(arabic(p.number), 300, 770));
      },
      arabic);
  CleanResult r = clean_and_account(d);
  for (const auto& p : d.pages) {
    EXPECT_EQ(removed_texts(r, p.number, "page-number"), std::vector<std::string>{arabic(p.number)}) << p.number;
    EXPECT_FALSE(has_line(p, "Chapter 1: Getting the sources")) << p.number;
    for (int i = 0; i < 38; ++i)
      EXPECT_TRUE(has_line(p, "Body words " + arabic(p.number) + "-" + arabic(i) + " of the running prose here."))
          << "page " << p.number << " line " << i;
    for (int k = 0; k < 3; ++k)
      EXPECT_TRUE(has_line(p, "\\macro" + arabic(k) + ": 3, " + arabic(p.number))) << "page " << p.number << " row " << k;
  }
}

// --- Margin line numbers ------------------------------------------------------------------------

Page listing_page(int number, const std::vector<std::string>& code, const std::function<void(Page&, size_t, double)>& number_at) {
  Page p = body_page(number, "", 5);
  for (size_t i = 0; i < code.size(); ++i) {
    double base = 200 + 12.0 * static_cast<double>(i);
    p.lines.push_back(line({span(code[i], 100, base, 9, "Mono", true)}));
    if (number_at) number_at(p, i, base);
  }
  return p;
}

bool number_of_line(const Line& l) {
  const std::string t = l.text();
  return !t.empty() && t.find_first_not_of("0123456789") == std::string::npos;
}

Document one_page(Page p) {
  Document d;
  d.pages.push_back(std::move(p));
  return d;
}

const std::vector<std::string> kCode = {"int main() {", "  int x = 0;", "  x += 1;", "  return x;", "}"};

// Typographic fact: listing line numbers are a column of consecutive integers, right-aligned in
// the margin, set apart from the code (smaller type), one per listing row.
TEST(LineNumbers, MarginColumnIsRemovedAndLogged) {
  Document d = one_page(listing_page(1, kCode, [](Page& p, size_t i, double base) {
    std::string n = arabic(static_cast<int>(i) + 1);
    p.lines.push_back(line({span(n, 90 - 2.5 * static_cast<double>(n.size()), base, 5, "Mono8", true)}));
  }));
  CleanResult r = clean_and_account(d);
  EXPECT_EQ(removed_texts(r, 1, "line-number"), (std::vector<std::string>{"1", "2", "3", "4", "5"}));
  for (const auto& c : kCode) EXPECT_TRUE(has_line(d.pages[0], c)) << c;
}

// Typographic fact: on a two-column page each column may hold a numbered listing, and the
// rows of the two interleave down the page. Each column of numbers counts the rows of its
// own listing only.
TEST(LineNumbers, ListingsSideBySideInTwoColumnsAreBothNumbered) {
  Page p = body_page(1, "", 0);
  for (size_t i = 0; i < kCode.size(); ++i) {
    const std::string n = arabic(static_cast<int>(i) + 1);
    const double left = 200 + 12.0 * static_cast<double>(i), right = 206 + 12.0 * static_cast<double>(i);
    p.lines.push_back(line({span(kCode[i], 100, left, 9, "Mono", true)}));
    p.lines.push_back(line({span(n, 90 - 2.5 * static_cast<double>(n.size()), left, 5, "Mono8", true)}));
    p.lines.push_back(line({span(kCode[i], 340, right, 9, "Mono", true)}));
    p.lines.push_back(line({span(n, 330 - 2.5 * static_cast<double>(n.size()), right, 5, "Mono8", true)}));
  }
  Document d = one_page(std::move(p));
  CleanResult r = clean_and_account(d);
  EXPECT_EQ(removed_texts(r, 1, "line-number").size(), 2 * kCode.size());
  for (const auto& l : d.pages[0].lines) EXPECT_FALSE(number_of_line(l)) << l.text();
}

// Typographic fact: a listing in the right column of a two-column page has its numbers in the
// gutter, and a listing in the left column may stand on the same baselines: its code lies on
// the numbers' left, a gutter away, and their own listing's code close on their right. A
// table row sets its cells about equally far apart, so a number cell between two code cells
// is data.
TEST(LineNumbers, GutterNumbersBesideTheOtherColumnsListingAreRemoved) {
  Page p = body_page(1, "", 0);
  for (size_t i = 0; i < kCode.size(); ++i) {
    const std::string n = arabic(static_cast<int>(i) + 1);
    const double base = 200 + 12.0 * static_cast<double>(i);
    p.lines.push_back(line({span(kCode[i], 100, base, 9, "Mono", true)}));
    p.lines.push_back(line({span(n, 90 - 2.5 * static_cast<double>(n.size()), base, 5, "Mono8", true)}));
    p.lines.push_back(line({span(kCode[i], 340, base + 0.5, 9, "Mono", true)}));
    p.lines.push_back(line({span(n, 330 - 2.5 * static_cast<double>(n.size()), base + 0.5, 5, "Mono8", true)}));
  }
  Document d = one_page(std::move(p));
  CleanResult r = clean_and_account(d);
  EXPECT_EQ(removed_texts(r, 1, "line-number").size(), 2 * kCode.size());
  for (const auto& l : d.pages[0].lines) EXPECT_FALSE(number_of_line(l)) << l.text();

  Page t = body_page(1, "", 0);
  const std::vector<std::string> names = {"alpha", "beta", "gamma", "delta", "omega"};
  for (size_t i = 0; i < names.size(); ++i) {
    const double base = 200 + 12.0 * static_cast<double>(i);
    t.lines.push_back(line({span("--" + names[i], 100, base, 9, "Mono", true)}));
    t.lines.push_back(line({span(arabic(static_cast<int>(i) + 1), 150, base, 5, "Roman", false)}));
    t.lines.push_back(line({span(names[i] + "_value", 165, base, 9, "Mono", true)}));
  }
  Document table = one_page(std::move(t));
  CleanResult kept = clean_and_account(table);
  EXPECT_TRUE(removed_texts(kept, 1, "line-number").empty());
}

// Typographic fact: `cat -n` style numbering puts the number at the start of the code line's
// own span, separated by spaces; only the number (and its spaces) goes, and the glyph positions
// of the code stay where they were typeset.
TEST(LineNumbers, PrefixInsideTheFirstSpanIsCutWithAlignedPositions) {
  std::vector<std::string> numbered;
  for (size_t i = 0; i < kCode.size(); ++i) numbered.push_back(" " + arabic(static_cast<int>(i) + 1) + "  " + kCode[i]);
  Document d = one_page(listing_page(1, numbered, {}));
  CleanResult r = clean_and_account(d);
  EXPECT_EQ(removed_texts(r, 1, "line-number"), (std::vector<std::string>{" 1  ", " 2  ", " 3  ", " 4  ", " 5  "}));
  for (const auto& l : d.pages[0].lines) {
    if (!l.spans.front().monospace) continue;
    const Span& s = l.spans.front();
    EXPECT_EQ(s.xs.size(), utf8_length(s.text));
    EXPECT_FLOAT_EQ(s.xs.front(), static_cast<float>(100 + 4 * 9 * kAdvanceRatio)) << s.text;  // after " 1  "
  }
  EXPECT_TRUE(has_line(d.pages[0], "  int x = 0;"));
}

// Typographic fact: data lines may begin with numbers. "1 2 3 / 4 5 6" does not advance by one
// per row; a printed data frame ("1 Colorado", "2 Arizona") is followed by more listing rows
// that carry no number; a matrix column has neighbours on both sides in the code's own style.
// None of them is a line-number column.
TEST(LineNumbers, DataLinesStartingWithNumbersStay) {
  struct Case {
    const char* name;
    std::vector<std::string> code;
  };
  std::vector<Case> cases = {
      {"matrix rows", {"1 2 3", "4 5 6", "7 8 9", "10 11 12"}},
      {"data frame then more code", {"1 Colorado  7.9", "2 Arizona   8.1", "3 Alaska   10.0", "> odbcClose(channel)"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Document d = one_page(listing_page(1, c.code, {}));
    CleanResult r = clean_and_account(d);
    EXPECT_TRUE(removed_texts(r, 1, "line-number").empty());
    for (const auto& t : c.code) EXPECT_TRUE(has_line(d.pages[0], t)) << t;
  }
  // A printed matrix: each cell its own line, all in the code's font and size.
  Page p = body_page(1, "", 5);
  for (int row = 0; row < 4; ++row) {
    double base = 200 + 12.0 * row;
    p.lines.push_back(line({span("[" + arabic(row + 1) + ",]", 100, base, 9, "Mono", true)}));
    for (int col = 0; col < 3; ++col)
      p.lines.push_back(line({span(arabic(row + 1 + 4 * col), 140 + 30.0 * col, base, 9, "Mono", true)}));
  }
  Document d = one_page(std::move(p));
  CleanResult r = clean_and_account(d);
  EXPECT_TRUE(removed_texts(r, 1, "line-number").empty());
}

// Typographic fact: a listing's numbers stand next to its code, with white space between.
// A table whose first column holds code and whose last holds consecutive numbers ("stdin",
// "standard input", "0") has prose between the two: the numbers are its column.
TEST(LineNumbers, NumbersBeyondProseFromTheCodeAreATablesColumn) {
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"stdin", "standard input"}, {"stdout", "standard output"}, {"stderr", "standard error"}};
  for (const bool prose : {true, false}) {
    Page p = body_page(1, "", 5);
    for (size_t i = 0; i < rows.size(); ++i) {
      const double base = 200 + 12.0 * static_cast<double>(i);
      p.lines.push_back(line({span(rows[i].first, 70, base, 9, "Mono", true)}));
      if (prose) p.lines.push_back(line({span(rows[i].second, 220, base, 10, "Roman")}));
      p.lines.push_back(line({span(arabic(static_cast<int>(i)), 370, base, 10, "Roman")}));
    }
    Document d = one_page(std::move(p));
    CleanResult r = clean_and_account(d);
    // Without the prose the numbers are a margin column set right of the code.
    EXPECT_EQ(removed_texts(r, 1, "line-number").size(), prose ? 0u : rows.size()) << prose;
    if (prose) {
      for (const char* n : {"0", "1", "2"}) EXPECT_TRUE(has_line(d.pages[0], n)) << n;
    }
  }
}

// Typographic fact: a line number is a word of its own, set apart from the code by white space.
// A table's date column whose year is set in another font ("2014" then "-10-28", no space
// between) starts with numbers that may even advance by the row count between them (2014 on
// row 1, 2019 on row 6, 2020 on row 7): the year is part of a word, not a line number.
TEST(LineNumbers, ANumberGluedToTheTextAfterItStays) {
  Page p = body_page(1, "", 5);
  const std::vector<std::pair<int, std::string>> dates = {{2014, "-10-28"}, {2020, "-10-10"}, {2020, "-04-27"},
                                                          {2020, "-09-05"}, {2015, "-03-01"}, {2019, "-12-15"},
                                                          {2020, "-09-24"}};
  for (size_t i = 0; i < dates.size(); ++i) {
    const double base = 200 + 12.0 * static_cast<double>(i);
    Span year = span(arabic(dates[i].first), 400, base, 10, "Serif-Oldstyle");
    Span rest = span(dates[i].second, year.bbox.x1, base, 10, "Mono", true);
    p.lines.push_back(line({year, rest}));
  }
  Document d = one_page(std::move(p));
  CleanResult r = clean_and_account(d);
  EXPECT_TRUE(removed_texts(r, 1, "line-number").empty());
  EXPECT_TRUE(has_line(d.pages[0], "2014-10-28"));
  EXPECT_TRUE(has_line(d.pages[0], "2019-12-15"));
}

// Typographic fact: listings stand side by side in two columns at most. An encoding table
// sets its slots down columns, each row "0 x00 `" with its number, code and glyph, five
// columns across the page: each column reads as a `cat -n` listing (consecutive numbers at
// the start of monospace lines) flowing into the next, but no page sets five listings on one
// row. The same column alone, beside one other listing, is numbering.
TEST(LineNumbers, NumbersBesideCodeInFiveColumnsOfARowAreATablesSlots) {
  for (const int columns : {5, 2}) {
    SCOPED_TRACE(columns);
    Page p = body_page(1, "", 0);
    constexpr int kRows = 6;
    for (int col = 0; col < columns; ++col)
      for (int row = 0; row < kRows; ++row) {
        const int slot = col * kRows + row;
        const double base = 200 + 14.0 * row, x = 60 + 95.0 * col;
        const std::string text = (slot < 10 ? " " : "") + arabic(slot) + " c" + arabic(slot);
        const Span code = span(text, x, base, 10, "MonoCond", true);
        p.lines.push_back(line({code, span(" g", code.bbox.x1, base, 10, "Roman")}));
      }
    Document d = one_page(std::move(p));
    CleanResult r = clean_and_account(d);
    if (columns == 5) {
      EXPECT_TRUE(removed_texts(r, 1, "line-number").empty());
      EXPECT_TRUE(has_line(d.pages[0], "29 c29 g")) << page_text(d.pages[0]);
    } else {
      EXPECT_EQ(removed_texts(r, 1, "line-number").size(), 2u * kRows);
    }
  }
}

// --- Crop marks and normalisation -------------------------------------------------------------

// Typographic fact: printer's slugs and registration text stand outside the page box.
// Typographic fact: a footnote's mark is set raised and smaller before its text; line numbers
// stand on their line's baseline. Footnotes in code ("7 including expm1, hypot") whose marks
// follow one another down the page are no numbered listing.
TEST(LineNumbers, RaisedNoteMarksBeforeCodeAreNoLineNumbers) {
  Page p = body_page(1, "", 5);
  const std::vector<std::string> notes = {" including expm1, hypot, log1p", " including opendir, readdir, popen",
                                          " such as realpath, symlink"};
  for (size_t i = 0; i < notes.size(); ++i) {
    const double base = 600 + 12.0 * static_cast<double>(i);
    p.lines.push_back(line({span(arabic(7 + static_cast<int>(i)), 90, base - 2.5, 6), span(notes[i], 96, base, 9, "Mono", true)}));
  }
  Document d = one_page(std::move(p));
  CleanResult r = clean_and_account(d);
  EXPECT_TRUE(removed_texts(r, 1, "line-number").empty());
  EXPECT_TRUE(has_line(d.pages[0], "7" + notes[0])) << page_text(d.pages[0]);
}

TEST(CropMarks, TextOutsideThePageIsRemovedAndLogged) {
  Page p = body_page(1);
  p.lines.push_back(text_line("job 4711 plate K", -80, 20, 6));
  Document d = one_page(std::move(p));
  CleanResult r = clean_and_account(d);
  EXPECT_EQ(removed_texts(r, 1, "crop-mark"), std::vector<std::string>{"job 4711 plate K"});
}

// Typographic fact: where a listing or a table breaks over a page, some typesetters note it
// on a line of its own: "(continues on next page)" under the first part, "(continued from
// previous page)" over the rest (Sphinx), "Continued on next page" (longtable). The notes go;
// the same words inside a sentence stay.
TEST(ContinuationNotes, NotesOfABrokenListingAreRemovedAndLogged) {
  Page p1 = body_page(1, "", 10);
  p1.lines.push_back(line({span("int main(void) {", 72, 300, 9, "Mono", true)}));
  p1.lines.push_back(line({span("(continues on next page)", 450, 312, 7, "Italic")}));
  p1.lines.push_back(text_line("The table is continued on the next page, as shown below.", 72, 330));
  Page p2 = body_page(2, "", 10);
  p2.lines.insert(p2.lines.begin(), line({span("(continued from previous page)", 430, 80, 7, "Italic")}));
  p2.lines.insert(p2.lines.begin() + 1, line({span("  return 0;", 72, 92, 9, "Mono", true)}));
  p2.lines.push_back(text_line("Continued on next page", 400, 700, 8));
  Document d;
  d.pages.push_back(std::move(p1));
  d.pages.push_back(std::move(p2));
  CleanResult r = clean_and_account(d);
  EXPECT_EQ(removed_texts(r, 1, "continuation-note"), std::vector<std::string>{"(continues on next page)"});
  EXPECT_EQ(removed_texts(r, 2, "continuation-note"),
            (std::vector<std::string>{"(continued from previous page)", "Continued on next page"}));
  EXPECT_TRUE(has_line(d.pages[0], "The table is continued on the next page, as shown below."));
  EXPECT_TRUE(has_line(d.pages[1], "  return 0;"));
}

// Typographic fact: ligature glyphs stand for letters, soft hyphens are invisible break hints,
// and a letter with a combining accent is the same text as the precomposed letter. Positions
// stay one per code point, a ligature's width shared among its letters.
TEST(Normalise, LigaturesSoftHyphensAndNfcKeepPositionsAligned) {
  struct Case {
    const char* input;
    const char* text;
    std::vector<float> xs;
  };
  // Input glyphs are 5 pt apart from x=0; the span ends at the last glyph's x + 5.
  std::vector<Case> cases = {
      {"\xEF\xAC\x81nd", "find", {0, 2.5f, 5, 10}},              // ﬁ: two letters share 5 pt
      {"e\xEF\xAC\x83" "cient", "efficient", {0, 5, 6.6666665f, 8.333333f, 10, 15, 20, 25, 30}},  // ﬃ
      {"co\xC2\xAD" "operate", "cooperate", {0, 5, 15, 20, 25, 30, 35, 40, 45}},  // soft hyphen drops its x
      {"cafe\xCC\x81", "caf\xC3\xA9", {0, 5, 10, 15}},          // e + combining acute -> é at e's x
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input);
    Span s = span(c.input, 0, 100, 10);
    ASSERT_EQ(s.xs.size(), utf8_length(c.input));
    normalize_span(s);
    EXPECT_EQ(s.text, c.text);
    EXPECT_EQ(s.text, normalize_text(c.input));
    ASSERT_EQ(s.xs.size(), c.xs.size());
    for (size_t i = 0; i < c.xs.size(); ++i) EXPECT_NEAR(s.xs[i], c.xs[i], 1e-3) << i;
  }
}

// Typographic fact: a soft hyphen that ends a line after a letter is the break the
// typesetter took inside a word (ConTeXt writes it so, in the word's span or as a span of
// its own); it stays for layout to join the word over. Inside a line it goes.
TEST(Normalise, ALineEndingSoftHyphenStaysForTheJoin) {
  Line in_span;
  in_span.spans = {span("the dura\xC2\xAD", 0, 100, 10)};
  normalize_line(in_span);
  EXPECT_EQ(in_span.spans[0].text, "the dura\xC2\xAD");
  EXPECT_EQ(in_span.spans[0].xs.size(), 9u);
  Line own_span;
  own_span.spans = {span("the ef\xEF\xAC\x81", 0, 100, 10), span("\xC2\xAD", 40, 100, 10)};
  normalize_line(own_span);
  EXPECT_EQ(own_span.spans[0].text, "the effi");
  EXPECT_EQ(own_span.spans[1].text, "\xC2\xAD");
  ASSERT_EQ(own_span.spans[1].xs.size(), 1u);
  EXPECT_EQ(own_span.spans[1].xs[0], 40.0f);
  Line inside;
  inside.spans = {span("co\xC2\xAD" "operate", 0, 100, 10), span("now", 50, 100, 10)};
  normalize_line(inside);
  EXPECT_EQ(inside.spans[0].text, "cooperate");
  Line after_digit;
  after_digit.spans = {span("1990\xC2\xAD", 0, 100, 10)};
  normalize_line(after_digit);
  EXPECT_EQ(after_digit.spans[0].text, "1990");
}

// Typographic fact: a page with no text, or no pages at all, has no furniture.
TEST(Clean, EmptyInputIsDefined) {
  Document none;
  EXPECT_TRUE(clean_document(none).removed.empty());
  Document blank;
  Page p;
  p.number = 1;
  p.width = kPageWidth;
  p.height = kPageHeight;
  blank.pages.push_back(p);
  EXPECT_TRUE(clean_document(blank).removed.empty());
}

// Every removal is logged, whatever removed it: the sum of the logged text is what vanished,
// character for character (not only word for word).
// Typographic fact: a head may change font inside a word (an acronym in small caps or a
// smaller size, "The R API: entry points", code names in a typewriter face followed by
// punctuation), so one printed word spans two spans; the log must hold each word whole, as
// the wording check subtracts logged words from the page's words.
struct SplitWordCase {
  const char* name;
  std::vector<std::pair<std::string, double>> head;  // spans of the head line: text, size
  bool folio_first;                                   // folio at the start of the head line
};

TEST(RunningHeads, WordsSplitAcrossSpansAreLoggedWhole) {
  const std::vector<SplitWordCase> cases = {
      {"smaller acronym before a colon", {{"Chapter 6: The R", 10}, {" API", 9}, {": entry points for C code", 10}}, false},
      {"code name then full stop", {{"Section on ", 10}, {"zip", 9}, {". Archives", 10}}, false},
      {"folio and word in one span, word split", {{"7 Using ", 10}, {"R_BROWSER", 9}, {": Settings", 10}}, true},
  };
  for (const auto& c : cases) {
    Document d = book(6, [&](Page& p) {
      std::vector<Span> spans;
      double x = 72;
      for (size_t i = 0; i < c.head.size(); ++i) {
        std::string text = c.head[i].first;
        if (c.folio_first && i == 0) text.replace(0, 1, arabic(p.number));
        spans.push_back(span(text, x, kHeadBaseline, c.head[i].second));
        x = spans.back().bbox.x1;
      }
      p.lines.push_back(line(spans));
      if (!c.folio_first) p.lines.push_back(text_line(arabic(p.number), 530, kHeadBaseline));
    });
    Document before = d;
    CleanResult r = clean_and_account(d);
    for (size_t i = 0; i < d.pages.size(); ++i) {
      const Page& p = before.pages[i];
      auto expected = bag(page_text(p));
      for (const auto& [w, n] : bag(page_text(d.pages[i]))) expected[w] -= n;
      std::erase_if(expected, [](const auto& kv) { return kv.second == 0; });
      std::map<std::string, long> logged;
      for (const auto& rm : r.removed)
        if (rm.page == p.number)
          for (const auto& t : whitespace_tokens(rm.text)) ++logged[t];
      EXPECT_EQ(logged, expected) << c.name << ", page " << p.number;
      EXPECT_EQ(removed_texts(r, p.number, "page-number"), std::vector<std::string>{arabic(p.number)}) << c.name;
    }
  }
}

TEST(RunningHeads, RaisedLetterOfALogoIsLoggedAsTheLineReadsIt) {
  // The LaTeX logo in a head: "L", a smaller "A" raised against it, "TEX". The line's text
  // sets the raised letter apart ("L A TEX"), so the log must too, and the folio after it in
  // the same line is cut at the same place, or the wording check finds "LATEX" for three words.
  Document d = book(6, [&](Page& p) {
    std::vector<Span> spans;
    spans.push_back(span("How to use fonts with L", 72, kHeadBaseline, 10));
    spans.push_back(span("A", spans.back().bbox.x1 - 1, kHeadBaseline - 1.8, 7));
    spans.push_back(span("TEX   " + arabic(p.number), spans.back().bbox.x1, kHeadBaseline, 10));
    p.lines.push_back(line(spans));
  });
  Document before = d;
  ASSERT_EQ(before.pages[0].lines.back().text(), "How to use fonts with L A TEX   1");
  CleanResult r = clean_and_account(d);
  for (const auto& p : before.pages) {
    EXPECT_EQ(removed_texts(r, p.number, "running-head"), std::vector<std::string>{"How to use fonts with L A TEX   "});
    EXPECT_EQ(removed_texts(r, p.number, "page-number"), std::vector<std::string>{arabic(p.number)});
  }
}

TEST(Clean, LoggedTextIsExactlyWhatDisappeared) {
  Document d = book(6, [](Page& p) {
    p.lines.push_back(text_line(arabic(p.number) + "   NOTES ON ROTATION", 72, kHeadBaseline));
  });
  Document before = d;
  CleanResult r = clean_and_account(d);
  ASSERT_FALSE(r.removed.empty());
  for (size_t i = 0; i < d.pages.size(); ++i) {
    std::string removed_chars;
    for (const auto& rm : r.removed)
      if (rm.page == d.pages[i].number) removed_chars += rm.text;
    std::string vanished;
    for (const auto& l : before.pages[i].lines)
      if (!has_line(d.pages[i], l.text())) vanished += l.text();
    EXPECT_EQ(removed_chars, vanished) << "page " << d.pages[i].number;
  }
}

}  // namespace
}  // namespace quire::test
