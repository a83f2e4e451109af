// The fixture books (fixtures/books, made by fixtures/generate) through both engines, checked
// against their ground truth (*.gt.json): outline, labels, metadata, code listings in fixed
// pitch, fonts, figures' images and paths.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "helpers.h"
#include "quire/text.h"

namespace quire::test {
namespace {

nlohmann::json ground_truth(const std::string& book) {
  std::ifstream in(kBooks + book + ".gt.json");
  if (!in) throw std::runtime_error("missing " + book + ".gt.json");
  return nlohmann::json::parse(in);
}

struct Case {
  std::string book;
  Engine engine;
  std::string code_font;  // the face its listings are set in
  bool has_labels;        // the PDF has /PageLabels
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.book << " with " << engine_name(c.engine); }

class FixtureBook : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    gt_ = ground_truth(GetParam().book);
    doc_ = extract(kBooks + GetParam().book + ".pdf", GetParam().engine);
  }
  bool mupdf() const { return GetParam().engine == Engine::MuPdf; }
  nlohmann::json gt_;
  Document doc_;
};

TEST_P(FixtureBook, PageCountAndSizes) {
  EXPECT_EQ(doc_.page_count, gt_["pages"].get<int>());
  ASSERT_EQ(doc_.pages.size(), static_cast<size_t>(doc_.page_count));
  for (const auto& p : doc_.pages) {
    EXPECT_GT(p.width, 100);
    EXPECT_GT(p.height, p.width);
    EXPECT_EQ(p.rotation, 0);
    EXPECT_TRUE(p.errors.empty()) << "page " << p.number;
  }
}

TEST_P(FixtureBook, OutlineMatchesGroundTruth) {
  const auto& want = gt_["outline"];
  ASSERT_EQ(doc_.outline.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(doc_.outline[i].title, want[i]["title"].get<std::string>());
    EXPECT_EQ(doc_.outline[i].level, want[i]["level"].get<int>()) << doc_.outline[i].title;
    // Poppler-cpp gives no outline destinations: page 0 means unresolved.
    EXPECT_EQ(doc_.outline[i].page, mupdf() ? want[i]["page"].get<int>() : 0) << doc_.outline[i].title;
  }
}

TEST_P(FixtureBook, LabelsMatchPrintedPageNumbers) {
  const auto& printed = gt_["furniture"]["printed_page_numbers"];
  ASSERT_EQ(printed.size(), doc_.pages.size());
  if (!GetParam().has_labels) {
    // No /PageLabels: no label, even where a number is printed (Poppler would echo the index).
    for (const auto& p : doc_.pages) EXPECT_EQ(p.label, "") << "page " << p.number;
    return;
  }
  for (size_t i = 0; i < printed.size(); ++i)
    if (!printed[i].is_null()) {
      EXPECT_EQ(doc_.pages[i].label, printed[i].get<std::string>()) << "page " << i + 1;
    }
}

TEST_P(FixtureBook, FirstLineOfEveryListingIsFixedPitchOnItsPage) {
  int listings = 0;
  for (const auto& ch : gt_["chapters"])
    for (const auto& b : ch["blocks"]) {
      if (b["type"] != "code") continue;
      ++listings;
      const std::string text = b["text"];
      const std::string first = text.substr(0, text.find('\n'));
      const int page = b["page"];
      const Line* l = find_line(doc_, page, first);
      ASSERT_NE(l, nullptr) << "page " << page << ": " << first;
      for (const auto& s : l->spans) {
        if (squeeze(s.text).empty()) continue;
        // Poppler has no fixed-pitch flag; LaTeX listings with flexible columns space even a
        // fixed-pitch face unevenly, so only MuPDF (font flag) can tell for fx-classic.
        if (mupdf() || GetParam().book != "fx-classic") {
          EXPECT_TRUE(s.monospace) << s.font << ": " << s.text;
        }
        EXPECT_EQ(s.font, GetParam().code_font);
        EXPECT_EQ(s.font.find('+'), std::string::npos) << "subset prefix kept: " << s.font;
      }
    }
  EXPECT_GE(listings, 1);
}

TEST_P(FixtureBook, ProseIsProportional) {
  int prose = 0;
  for (const auto& p : doc_.pages)
    for (const auto& l : p.lines)
      for (const auto& s : l.spans)
        if (s.font.find("Rom") != std::string::npos) {
          ++prose;
          EXPECT_FALSE(s.monospace) << s.font << ": " << s.text;
        }
  EXPECT_GT(prose, 100);
}

// MuPDF gives every span its baseline and the font's styles; Poppler's text API gives neither,
// nor images, paths or colours, and the Document says so by leaving them empty.
TEST_P(FixtureBook, WhatPopplerCannotGiveIsAbsent) {
  if (mupdf()) {
    size_t spans = 0, with_baseline = 0, styled = 0;
    for (const auto& p : doc_.pages)
      for (const auto& l : p.lines)
        for (const auto& s : l.spans) {
          ++spans;
          with_baseline += s.baseline > 0;
          styled += s.bold || s.italic;
        }
    EXPECT_GT(spans, 0u);
    EXPECT_EQ(with_baseline, spans);
    EXPECT_GT(styled, 0u);
    return;
  }
  for (const auto& p : doc_.pages) {
    EXPECT_TRUE(p.images.empty());
    EXPECT_TRUE(p.paths.empty());
    for (const auto& l : p.lines)
      for (const auto& s : l.spans) {
        EXPECT_EQ(s.color, 0u);
        EXPECT_FALSE(s.bold);
        EXPECT_FALSE(s.italic);
        EXPECT_EQ(s.baseline, 0);
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Books, FixtureBook,
                         ::testing::Values(Case{"fx-classic", Engine::MuPdf, "LMMono8-Regular", true},
                                           Case{"fx-classic", Engine::Poppler, "LMMono8-Regular", true},
                                           Case{"fx-plain", Engine::MuPdf, "NimbusMonL-Regu", false},
                                           Case{"fx-plain", Engine::Poppler, "NimbusMonL-Regu", false}),
                         [](const auto& info) {
                           std::string n = info.param.book + "_" + engine_name(info.param.engine);
                           for (auto& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

// fx-classic with MuPDF: the concrete things the README of fixtures/books lists.
class Classic : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { doc_ = new Document(extract(kBooks + "fx-classic.pdf", Engine::MuPdf)); }
  static void TearDownTestSuite() { delete doc_; }
  static Document* doc_;
};
Document* Classic::doc_ = nullptr;

TEST_F(Classic, Metadata) {
  EXPECT_EQ(doc_->metadata.title, ground_truth("fx-classic")["title"].get<std::string>());
  EXPECT_EQ(doc_->metadata.author, "Ada Quillfeather");
  EXPECT_EQ(doc_->engine, "mupdf");
  EXPECT_EQ(doc_->sha256.size(), 64u);
}

TEST_F(Classic, ShellListingLineWithBox) {
  const Line* l = find_line(*doc_, 6, "#!/bin/sh");
  ASSERT_NE(l, nullptr);
  ASSERT_EQ(l->spans.size(), 1u);
  const Span& s = l->spans[0];
  EXPECT_EQ(s.text, "#!/bin/sh");
  EXPECT_EQ(s.font, "LMMono8-Regular");
  EXPECT_TRUE(s.monospace);
  EXPECT_NEAR(s.size, 7.97, 0.01);
  EXPECT_EQ(s.color, 0u);
  // Left margin of the listing on this (even, verso) page, one line of 8 pt type.
  EXPECT_NEAR(s.bbox.x0, 75.76, 0.5);
  EXPECT_GT(s.bbox.height(), 5);
  EXPECT_LT(s.bbox.height(), 12);
  EXPECT_GT(s.baseline, s.bbox.y0);
  EXPECT_LE(s.baseline, s.bbox.y1);
}

TEST_F(Classic, ChapterHeadingIsBold) {
  const Line* l = find_line(*doc_, 6, "Getting Started");
  ASSERT_NE(l, nullptr);
  for (const auto& s : l->spans) {
    EXPECT_TRUE(s.bold) << s.font;
    EXPECT_NE(s.font.find("Bold"), std::string::npos) << s.font;
    EXPECT_GT(s.size, 14);
  }
}

TEST_F(Classic, RasterFigureOnPage7AndVectorFigureOnPage9) {
  const Page* p7 = find_page(*doc_, 7);
  ASSERT_NE(p7, nullptr);
  ASSERT_FALSE(p7->images.empty());
  EXPECT_GT(p7->images[0].width, 0);
  EXPECT_TRUE(Box({0, 0, p7->width, p7->height}).contains(p7->images[0].bbox, 1));
  const Page* p9 = find_page(*doc_, 9);
  ASSERT_NE(p9, nullptr);
  EXPECT_GE(p9->paths.size(), 3u);  // TikZ boxes and arrows of producer/ring/flusher/spool
  for (const char* label : {"producer", "flusher", "spool"}) EXPECT_NE(find_line(*doc_, 9, label), nullptr) << label;
}

}  // namespace
}  // namespace quire::test
