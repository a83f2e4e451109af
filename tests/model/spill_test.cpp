// Pages out of memory (quire/spill.h): a spilled page comes back with every value it had,
// the budget decides which pages stay, changes made while a page is in are kept, and the
// loops see whole pages whether or not they are spilled.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "quire/error.h"
#include "quire/spill.h"

namespace quire {
namespace {

// A page with values no rounding would keep: odd coordinates, long and short strings,
// non-ASCII text, a span without positions, OCR fields, paths of both kinds.
Page full_page(int number) {
  Page p;
  p.number = number;
  p.label = "xiv";
  p.width = 612.3456789;
  p.height = 791.987654321;
  p.rotation = 90;
  Line l;
  l.bbox = {72.123456789, 100.1, 300.00000001, 110.7};
  l.direction = 1;
  Span a;
  a.text = "A long span of text, “quoted”, past any short-string buffer — " + std::to_string(number);
  a.bbox = {72.1, 100.2, 140.3, 110.4};
  a.font = "NimbusRomNo9L-ReguItal";
  a.size = 9.962640000000001;
  a.monospace = true;
  a.italic = true;
  a.color = 0x1a2b3c;
  a.baseline = 108.123456789;
  for (size_t i = 0; i < 70; ++i) a.xs.push_back(72.1f + 4.987654f * static_cast<float>(i));
  a.last_advance = 4.987654f;
  Span b;
  b.text = "ﬁ";
  b.font = "CMR10";
  b.size = 10;
  b.bold = true;
  b.ocr = true;
  b.confidence = 87.25f;
  l.spans = {a, b};
  Line empty;
  empty.bbox = {1, 2, 3, 4};
  empty.direction = 2;
  p.lines = {l, empty};
  p.images = {{{100, 200, 300, 400}, 640, 480, false}};
  p.paths = {{{50.5, 60.25, 70.125, 80.0625}, true, false, 0, 0xff0000},
             {{1.1, 2.2, 3.3, 4.4}, false, true, 0.39851, 0x00ff00}};
  p.ocr = true;
  p.ocr_confidence = 91.5;
  p.errors = {"skipped an image"};
  return p;
}

Document book(int pages) {
  Document d;
  d.file = "book.pdf";
  for (int i = 1; i <= pages; ++i) d.pages.push_back(full_page(i));
  return d;
}

TEST(PageSpill, ASpilledPageComesBackWithEveryValue) {
  Document d = book(3);
  const Document whole = d;
  d.spill = std::make_shared<PageSpill>(d.pages.size(), 0, "book.pdf");
  for (size_t i = 0; i < d.pages.size(); ++i) d.spill->settle(i, d.pages[i]);
  EXPECT_EQ(d.spill->spilled_pages(), 3u);
  for (size_t i = 0; i < d.pages.size(); ++i) {
    ASSERT_TRUE(d.spill->spilled(i));
    // Out of memory: the content is gone from the Document, the rest of the page is there.
    EXPECT_TRUE(d.pages[i].lines.empty());
    EXPECT_TRUE(d.pages[i].paths.empty());
    EXPECT_EQ(d.pages[i].number, whole.pages[i].number);
    EXPECT_EQ(d.pages[i].images, whole.pages[i].images);
    EXPECT_EQ(d.pages[i].errors, whole.pages[i].errors);
    with_page(d, i, [&](const Page& p) { EXPECT_EQ(p, whole.pages[i]); });
  }
}

TEST(PageSpill, PagesStayInMemoryWhileTheyFitTheBudget) {
  Document d = book(4);
  const size_t one = PageSpill::content_bytes(d.pages[0]);
  ASSERT_GT(one, 0u);
  // Room for two pages' content: the first two settled stay, the others go out.
  PageSpill spill(d.pages.size(), 2 * one, "book.pdf");
  for (size_t i = 0; i < d.pages.size(); ++i) spill.settle(i, d.pages[i]);
  EXPECT_FALSE(spill.spilled(0));
  EXPECT_FALSE(spill.spilled(1));
  EXPECT_TRUE(spill.spilled(2));
  EXPECT_TRUE(spill.spilled(3));
  EXPECT_EQ(spill.spilled_pages(), 2u);
  EXPECT_FALSE(d.pages[1].lines.empty());
  EXPECT_TRUE(d.pages[2].lines.empty());
}

TEST(PageSpill, BooksThatShareABudgetKeepNoMoreThanItInAll) {
  Document a = book(2), b = book(2);
  const size_t one = PageSpill::content_bytes(a.pages[0]);
  auto budget = std::make_shared<SpillBudget>(3 * one);
  {
    PageSpill first(a.pages.size(), budget, "a.pdf");
    for (size_t i = 0; i < a.pages.size(); ++i) first.settle(i, a.pages[i]);
    EXPECT_EQ(first.spilled_pages(), 0u);
    EXPECT_EQ(budget->kept(), 2 * one);
    // The second book finds room for one page only: the first book holds the rest.
    PageSpill second(b.pages.size(), budget, "b.pdf");
    for (size_t i = 0; i < b.pages.size(); ++i) second.settle(i, b.pages[i]);
    EXPECT_FALSE(second.spilled(0));
    EXPECT_TRUE(second.spilled(1));
    EXPECT_EQ(budget->kept(), 3 * one);
  }
  // A book done gives its share back, for the books after it.
  EXPECT_EQ(budget->kept(), 0u);
  Document c = book(2);
  PageSpill third(c.pages.size(), budget, "c.pdf");
  for (size_t i = 0; i < c.pages.size(); ++i) third.settle(i, c.pages[i]);
  EXPECT_EQ(third.spilled_pages(), 0u);
}

TEST(PageSpill, APageSettledAgainIsCountedOnce) {
  Document d = book(1);
  const size_t one = PageSpill::content_bytes(d.pages[0]);
  auto budget = std::make_shared<SpillBudget>(one);
  PageSpill spill(d.pages.size(), budget, "book.pdf");
  spill.settle(0, d.pages[0]);
  spill.settle(0, d.pages[0]);  // read again (OCR) and settled afresh: it still fits
  EXPECT_FALSE(spill.spilled(0));
  EXPECT_EQ(budget->kept(), one);
}

TEST(PageSpill, ChangesMadeWhileAPageIsInAreKept) {
  Document d = book(3);
  d.spill = std::make_shared<PageSpill>(d.pages.size(), 0, "book.pdf");
  for (size_t i = 0; i < d.pages.size(); ++i) d.spill->settle(i, d.pages[i]);
  // Page 0 shrinks (written where it was), page 1 grows (written anew), page 2 is untouched.
  change_pages(d, 2, [](size_t i, Page& p) {
    ASSERT_EQ(p.lines.size(), 2u);
    if (i == 0) {
      p.lines.pop_back();
      p.paths.clear();
    } else if (i == 1) {
      p.lines[0].spans[0].text += std::string(500, 'x');
      p.lines.push_back(p.lines[0]);
    }
  });
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(d.pages[i].lines.empty()) << "page " << i << " stays out";
  with_page(d, 0, [](const Page& p) {
    EXPECT_EQ(p.lines.size(), 1u);
    EXPECT_TRUE(p.paths.empty());
  });
  with_page(d, 1, [](const Page& p) {
    ASSERT_EQ(p.lines.size(), 3u);
    EXPECT_EQ(p.lines[2].spans[0].text.size(), p.lines[0].spans[0].text.size());
    EXPECT_EQ(p.lines[0].spans[0].text.substr(p.lines[0].spans[0].text.size() - 3), "xxx");
  });
  with_page(d, 2, [](const Page& p) { EXPECT_EQ(p, full_page(3)); });
}

TEST(PageSpill, ReadingLeavesTheDocumentAsItWas) {
  Document d = book(5);
  const Document whole = d;
  d.spill = std::make_shared<PageSpill>(d.pages.size(), PageSpill::content_bytes(d.pages[0]), "book.pdf");
  for (size_t i = 0; i < d.pages.size(); ++i) d.spill->settle(i, d.pages[i]);
  std::vector<size_t> lines(d.pages.size());
  read_pages(d, 2, [&](size_t i, const Page& p) {
    EXPECT_EQ(p, whole.pages[i]);
    lines[i] = p.lines.size();
  });
  EXPECT_EQ(lines, std::vector<size_t>(5, 2));
  EXPECT_FALSE(d.pages[0].lines.empty());
  for (size_t i = 1; i < d.pages.size(); ++i) EXPECT_TRUE(d.pages[i].lines.empty());
}

TEST(PageSpill, APageBroughtBackWhileAnotherIsInComesBackWholeToo) {
  // Each thread lends its spare containers to one page at a time: a page brought back
  // inside the call for another gets its own, and both leave the Document as they found it.
  Document d = book(3);
  const Document whole = d;
  d.spill = std::make_shared<PageSpill>(d.pages.size(), 0, "book.pdf");
  for (size_t i = 0; i < d.pages.size(); ++i) d.spill->settle(i, d.pages[i]);
  change_page(d, 0, [&](Page& outer) {
    outer.label = "outer";
    with_page(d, 1, [&](const Page& p) { EXPECT_EQ(p, whole.pages[1]); });
    change_page(d, 2, [&](Page& inner) {
      EXPECT_EQ(inner.lines, whole.pages[2].lines);
      inner.lines.pop_back();
    });
    EXPECT_EQ(outer.lines, whole.pages[0].lines);
  });
  for (size_t i = 0; i < d.pages.size(); ++i) EXPECT_TRUE(d.pages[i].lines.empty()) << "page " << i << " stays out";
  with_page(d, 2, [](const Page& p) { EXPECT_EQ(p.lines.size(), 1u); });
  with_page(d, 0, [&](const Page& p) { EXPECT_EQ(p.lines, whole.pages[0].lines); });
}

TEST(PageSpill, WithoutASpillTheLoopsUseThePagesThemselves) {
  Document d = book(2);
  change_pages(d, 1, [&](size_t i, Page& p) {
    EXPECT_EQ(&p, &d.pages[i]);
    p.label = "changed";
  });
  EXPECT_EQ(d.pages[1].label, "changed");
  read_pages(d, 1, [&](size_t i, const Page& p) { EXPECT_EQ(&p, &d.pages[i]); });
}

TEST(PageSpill, AFolderThatCannotHoldTheFileIsAnError) {
  try {
    PageSpill spill(1, 0, "book.pdf", "/nonexistent/quire-spill-dir");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code, ExitCode::Io);
    EXPECT_EQ(e.message().rfind("book.pdf: cannot make the page spill file /nonexistent/quire-spill-dir/", 0), 0u)
        << e.message();
  }
}

}  // namespace
}  // namespace quire
