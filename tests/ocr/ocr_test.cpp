// OCR: which pages are read by OCR, how recognised words become spans, and OCR of real
// rendered pages (the scanned twin of fx-classic, and fx-classic itself forced through OCR).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ocr.h"
#include "quire/error.h"
#include "quire/extract.h"
#include "quire/parallel.h"
#include "quire/spill.h"
#include "quire/text.h"

namespace quire {
namespace {

const std::string kBooks = std::string(QUIRE_SOURCE_DIR) + "/fixtures/books/";

Span text_span(const std::string& text) {
  Span s;
  s.text = text;
  s.size = 10;
  return s;
}

Page page_with(const std::vector<std::string>& lines) {
  Page p;
  p.number = 1;
  p.width = 396;
  p.height = 594;
  for (const auto& t : lines) {
    Line l;
    l.spans.push_back(text_span(t));
    p.lines.push_back(l);
  }
  return p;
}

// ---- the decision ----

TEST(OcrDecision, UnmappedGlyphsTriggerOcr) {
  ExtractOptions o;
  // A text layer of glyphs without Unicode mapping: replacement characters and private use.
  Page p = page_with({"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD",
                      "\xEE\x80\x81\xEE\x80\x82\xEE\x80\x83 \xEE\x80\x84"});
  EXPECT_DOUBLE_EQ(detail::unmapped_share(p), 1.0);
  EXPECT_TRUE(detail::page_needs_ocr(p, o));
}

TEST(OcrDecision, ReadableTextIsKept) {
  ExtractOptions o;
  Page p = page_with({"Ringlog is meant to stay out of the way.", "Applications write short records"});
  EXPECT_DOUBLE_EQ(detail::unmapped_share(p), 0.0);
  EXPECT_FALSE(detail::page_needs_ocr(p, o));
}

TEST(OcrDecision, FewUnmappedGlyphsAreNotEnough) {
  ExtractOptions o;
  // One unmapped symbol among 30 letters (a missing bullet glyph): the text is still usable.
  Page p = page_with({"\xEF\xBF\xBD abcdefghij klmnopqrst uvwxyzabcd"});
  EXPECT_LT(detail::unmapped_share(p), o.unusable_text_ratio);
  EXPECT_FALSE(detail::page_needs_ocr(p, o));
  // At the threshold the page is OCR'd.
  o.unusable_text_ratio = detail::unmapped_share(p);
  EXPECT_TRUE(detail::page_needs_ocr(p, o));
}

TEST(OcrDecision, ImageOnlyPageIsOcrdBlankPageIsNot) {
  ExtractOptions o;
  Page blank = page_with({});
  EXPECT_FALSE(detail::page_needs_ocr(blank, o));
  Page spaces = page_with({"   "});
  EXPECT_FALSE(detail::page_needs_ocr(spaces, o));
  Page scan = page_with({});
  scan.images.push_back({{0, 0, 396, 594}, 1650, 2475, false});
  EXPECT_TRUE(detail::page_needs_ocr(scan, o));
}

// ---- words to spans ----

// A word whose characters sit in cells of `pitch` points starting at cell `cell`, with ink
// narrower than the cell and placed differently per glyph, as fixed-pitch glyphs are.
detail::OcrWord mono_word(const std::string& text, int cell, double pitch, double y = 100) {
  detail::OcrWord w;
  w.text = text;
  w.confidence = 90;
  std::u32string cps = to_u32(text);
  for (size_t i = 0; i < cps.size(); ++i) {
    double left = (cell + static_cast<double>(i)) * pitch;
    double inset = (i % 2 ? 0.15 : 0.25) * pitch;  // centred ink of varying width
    detail::OcrSymbol s;
    append_utf8(s.text, cps[i]);
    s.box = {left + inset, y - 7, left + pitch - inset, y};
    w.symbols.push_back(s);
  }
  w.box = {w.symbols.front().box.x0, y - 7, w.symbols.back().box.x1, y};
  return w;
}

// A proportional word: advance per letter from a Times-like width table.
detail::OcrWord prop_word(const std::string& text, double x, double y = 100) {
  detail::OcrWord w;
  w.text = text;
  w.confidence = 95;
  for (char c : text) {
    double adv = c == 'i' || c == 'l' || c == 't' ? 2.8 : c == 'm' || c == 'w' ? 7.8 : 5.0;
    detail::OcrSymbol s;
    s.text = std::string(1, c);
    s.box = {x + 0.3, y - 7, x + adv - 0.3, y};
    w.symbols.push_back(s);
    x += adv;
  }
  w.box = {w.symbols.front().box.x0, y - 7, w.symbols.back().box.x1, y};
  return w;
}

// A line of 9 pt words in Tesseract block `block`, on the first word's baseline.
detail::OcrLine block_line(std::vector<detail::OcrWord> words, int block) {
  detail::OcrLine l;
  l.block = block;
  l.size = 9;
  l.words = std::move(words);
  l.baseline = l.words.front().box.y1;
  l.box = l.words.front().box;
  for (const auto& w : l.words) l.box = l.box.united(w.box);
  return l;
}

// A white page image of `w` x `h` pixels, two pixels per point, to draw ink on.
struct Canvas {
  int w, h;
  std::vector<unsigned char> px;
  Canvas(int w_, int h_) : w(w_), h(h_), px(static_cast<size_t>(w_) * h_, 255) {}
  void fill(int x0, int y0, int x1, int y1) {  // pixels [x0, x1) x [y0, y1)
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) px[static_cast<size_t>(y) * w + x] = 0;
  }
  void frame(int x0, int y0, int x1, int y1) {
    fill(x0, y0, x1, y0 + 2), fill(x0, y1 - 2, x1, y1), fill(x0, y0, x0 + 2, y1), fill(x1 - 2, y0, x1, y1);
  }
};

TEST(OcrDrawings, InkNoWordCoversIsDrawnWithWhatLiesNextToIt) {
  Canvas c(600, 400);
  c.frame(100, 100, 300, 220);                         // a box of a diagram: 100 x 60 pt
  for (int x = 100; x < 300; x += 10) c.fill(x, 228, x + 6, 230);  // a dashed rule 4 pt under it
  c.fill(400, 100, 460, 120);                          // a recognised word's ink
  c.fill(420, 300, 428, 314);                          // a letter Tesseract left: 4 x 7 pt
  c.fill(500, 300, 501, 301);                          // a speck
  c.fill(0, 50, 3, 350);                               // the scanner's shadow at the edge
  detail::Recognised r;
  detail::OcrLine line;
  line.size = 10;
  line.words.push_back({"word", Box{200, 50, 230, 60}, 90, {}});  // points: the ink at 400-460
  r.lines.push_back(line);
  const auto drawn = detail::drawn_ink(c.px.data(), c.w, c.h, c.w, 0, 0, 2.0, r);
  Box all;
  bool first = true;
  for (const Box& b : drawn) {
    EXPECT_GT(b.x0, 2.0) << "the edge's shadow is no drawing";
    EXPECT_LT(b.x1, 190.0) << "nothing of the word, the letter or the speck is drawn";
    all = first ? b : Box{std::min(all.x0, b.x0), std::min(all.y0, b.y0), std::max(all.x1, b.x1), std::max(all.y1, b.y1)};
    first = false;
  }
  ASSERT_FALSE(drawn.empty());
  EXPECT_NEAR(all.x0, 50, 1.01);
  EXPECT_NEAR(all.y0, 50, 1.01);
  EXPECT_NEAR(all.x1, 150, 1.01);
  EXPECT_NEAR(all.y1, 115, 1.01);  // the dashes joined the box
}

TEST(OcrDrawings, APageWithoutWordsHasNoMeasureAndNoDrawings) {
  Canvas c(200, 200);
  c.frame(20, 20, 180, 180);
  EXPECT_TRUE(detail::drawn_ink(c.px.data(), c.w, c.h, c.w, 0, 0, 2.0, detail::Recognised{}).empty());
}

TEST(OcrLines, FixedPitchLineIsMonospaceWithItsSpaces) {
  const double pitch = 5.4;
  detail::OcrLine l;
  l.block = 0;
  l.size = 9;
  l.baseline = 100;
  // "    install -m 644 file   # x": indented four cells, three spaces before the comment.
  l.words = {mono_word("install", 4, pitch), mono_word("-m", 12, pitch), mono_word("644", 15, pitch),
             mono_word("file", 19, pitch), mono_word("#", 26, pitch), mono_word("x", 28, pitch)};
  auto lines = detail::lines_from_ocr({l});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].text(), "install -m 644 file   # x");
  for (const auto& s : lines[0].spans) {
    EXPECT_TRUE(s.monospace) << s.text;
    EXPECT_TRUE(s.ocr);
    EXPECT_EQ(s.xs.size(), to_u32(s.text).size()) << s.text;
  }
  // The first character's cell starts at the indentation: four cells from the margin.
  EXPECT_NEAR(lines[0].spans[0].xs[0], 4 * pitch, 0.05 * pitch);
  EXPECT_NEAR(lines[0].spans[0].last_advance, pitch, 0.05 * pitch);
}

TEST(OcrLines, FixedPitchWordSplitByTesseractIsRejoined) {
  const double pitch = 5.4;
  detail::OcrLine l;
  // "int ring_put(struct ring *r)" read as "ring" and "_put(struct": the two parts are
  // adjacent cells, so no space lies between them.
  l.words = {mono_word("int", 0, pitch), mono_word("ring", 4, pitch), mono_word("_put(struct", 8, pitch),
             mono_word("ring", 20, pitch), mono_word("*r)", 25, pitch)};
  auto lines = detail::lines_from_ocr({l});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(lines[0].spans[0].monospace);
  EXPECT_EQ(lines[0].text(), "int ring_put(struct ring *r)");
}

TEST(OcrLines, ProportionalLineIsNotMonospace) {
  detail::OcrLine l;
  l.block = 0;
  l.size = 10;
  double x = 50;
  for (const char* t : {"will", "time", "limit", "swim", "mill", "wit"}) {
    l.words.push_back(prop_word(t, x));
    x = l.words.back().box.x1 + 3.3;
  }
  auto lines = detail::lines_from_ocr({l});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].text(), "will time limit swim mill wit");
  for (const auto& s : lines[0].spans) {
    EXPECT_FALSE(s.monospace) << s.text;
    EXPECT_EQ(s.xs.size(), to_u32(s.text).size());
  }
  // Proportional xs are the ink's left edges.
  EXPECT_NEAR(lines[0].spans[0].xs[0], 50.3, 1e-3);
}

TEST(OcrLines, ShortLinesFollowTheirListing) {
  const double pitch = 5.4;
  detail::OcrLine a, b, c;
  a.block = b.block = c.block = 3;
  a.words = {mono_word("for", 0, pitch, 100), mono_word("unit", 4, pitch, 100), mono_word("in", 9, pitch, 100),
             mono_word("a", 12, pitch, 100)};
  b.words = {mono_word("echo", 4, pitch, 110), mono_word("$unit", 9, pitch, 110)};
  c.words = {mono_word("fi", 0, pitch, 120)};  // one distance: too few to judge alone
  auto lines = detail::lines_from_ocr({a, b, c});
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_TRUE(lines[2].spans[0].monospace);
  EXPECT_NEAR(lines[1].spans[0].xs[0] - lines[2].spans[0].xs[0], 4 * pitch, 0.1 * pitch);
}

TEST(OcrLines, ALineTesseractCutFromItsListingFollowsItsNeighbours) {
  // Tesseract may put a listing's short line, or one with a misread character, in a block of
  // its own. Between two fixed-pitch lines of one pitch, a few lines away at most, its start
  // on their grid, it is a line of the listing; a proportional line there, or a short line
  // far below the listing, is not.
  const double pitch = 5.4;
  const detail::OcrLine open = block_line({mono_word("return", 4, pitch, 100), mono_word("NULL;", 11, pitch, 100)}, 1);
  const detail::OcrLine brace = block_line({mono_word("}", 0, pitch, 110)}, 2);  // one character: nothing to judge
  const detail::OcrLine next = block_line({mono_word("int", 0, pitch, 120), mono_word("ring_put(void);", 4, pitch, 120)}, 3);
  double x = 0;
  std::vector<detail::OcrWord> prose;
  for (const char* t : {"will", "time", "limit", "swim", "mill", "wit"}) {
    prose.push_back(prop_word(t, x, 130));
    x = prose.back().box.x1 + 3.3;
  }
  const detail::OcrLine words = block_line(prose, 4);
  const detail::OcrLine last = block_line({mono_word("int", 0, pitch, 140), mono_word("ring_get(void);", 4, pitch, 140)}, 5);
  const detail::OcrLine far = block_line({mono_word("}", 0, pitch, 220)}, 6);
  auto lines = detail::lines_from_ocr({open, brace, next, words, last, far});
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_TRUE(lines[0].spans[0].monospace);
  EXPECT_TRUE(lines[1].spans[0].monospace) << "the brace is the listing's";
  EXPECT_TRUE(lines[2].spans[0].monospace);
  EXPECT_FALSE(lines[3].spans[0].monospace) << "a proportional line stays proportional";
  EXPECT_TRUE(lines[4].spans[0].monospace);
  EXPECT_FALSE(lines[5].spans[0].monospace) << "nothing of the listing under it";
}

TEST(OcrLines, ARunOfLinesTesseractCutFromItsListingFollowsIt) {
  // Two lines of a listing in a block of their own, each judged proportional for one gap
  // off the grid (a speck read as ':' beyond the line's end, a word box Tesseract drew over
  // its neighbour), stand between fixed-pitch lines of one pitch: together they are lines of
  // the listing. The same two lines with no listing under them stay as judged.
  const double pitch = 5.4;
  auto off_grid = [&](const std::string& text, int cell, double y) {  // half a cell to the right
    detail::OcrWord w = mono_word(text, cell, pitch, y);
    for (auto& s : w.symbols) s.box = {s.box.x0 + pitch / 2, s.box.y0, s.box.x1 + pitch / 2, s.box.y1};
    w.box = {w.box.x0 + pitch / 2, w.box.y0, w.box.x1 + pitch / 2, w.box.y1};
    return w;
  };
  const detail::OcrLine def = block_line({mono_word("def", 0, pitch, 100), mono_word("process(self,", 4, pitch, 100),
                                    mono_word("record):", 18, pitch, 100)}, 1);
  const detail::OcrLine match = block_line({mono_word("match", 4, pitch, 110), mono_word("=", 10, pitch, 110),
                                      mono_word("PATTERN.match(r)", 12, pitch, 110), off_grid(":", 40, 110)}, 2);
  const detail::OcrLine none = block_line({mono_word("if", 4, pitch, 120), mono_word("match", 7, pitch, 120),
                                     mono_word("is", 13, pitch, 120), mono_word("None:", 16, pitch, 120),
                                     off_grid(":", 30, 120)}, 2);
  const detail::OcrLine ret = block_line({mono_word("return", 8, pitch, 130), mono_word("record", 15, pitch, 130)}, 3);
  auto lines = detail::lines_from_ocr({def, match, none, ret});
  ASSERT_EQ(lines.size(), 4u);
  for (const auto& l : lines) EXPECT_TRUE(l.spans[0].monospace) << l.text();
  EXPECT_NEAR(lines[1].spans[0].xs[0] - lines[0].spans[0].xs[0], 4 * pitch, 0.1 * pitch);
  auto alone = detail::lines_from_ocr({def, match, none});
  ASSERT_EQ(alone.size(), 3u);
  EXPECT_FALSE(alone[1].spans[0].monospace);
  EXPECT_FALSE(alone[2].spans[0].monospace);
}

TEST(OcrLines, ANoteMarkReadIntoItsWordIsASpanOfItsOwn) {
  // Tesseract reads a footnote's raised mark into the word after it ("1Older"): the mark is
  // a span of its own, raised and smaller, as a text layer has it, so that layout tells it
  // from the word. A digit on the baseline stays in its word.
  detail::OcrLine l;
  l.size = 8;
  l.baseline = 100;
  detail::OcrWord w = prop_word("1Older", 50);
  w.symbols[0].box = {50.3, 93, 52.5, 97};  // raised 3 pt, 4 pt tall (the capitals: 7)
  l.words = {w, prop_word("than", 90), prop_word("2x", 120)};
  auto lines = detail::lines_from_ocr({l});
  ASSERT_EQ(lines.size(), 1u);
  const auto& spans = lines[0].spans;
  ASSERT_EQ(spans.size(), 4u);
  EXPECT_EQ(spans[0].text, "1");
  EXPECT_EQ(spans[1].text, "Older ");
  EXPECT_EQ(spans[3].text, "2x");
  EXPECT_EQ(spans[2].text, "than ");
  EXPECT_TRUE(raised_against(spans[0], spans[1]));
  for (const auto& s : spans) EXPECT_EQ(s.xs.size(), to_u32(s.text).size()) << s.text;
}

TEST(OcrImage, ABilevelPageIsToldFromAGrayOneAndSmoothed) {
  // A 1-bit scan drawn at its own resolution has only black and white; a gray scan, or text
  // drawn by MuPDF with anti-aliasing, has a ramp of gray at every edge.
  Canvas bilevel(60, 40);
  bilevel.fill(10, 10, 30, 30);
  EXPECT_TRUE(detail::is_bilevel(bilevel.px.data(), bilevel.w, bilevel.h, bilevel.w));
  Canvas gray = bilevel;
  for (int y = 9; y <= 30; ++y) gray.px[static_cast<size_t>(y) * gray.w + 30] = 128;  // an edge's ramp
  for (int x = 9; x <= 30; ++x) gray.px[static_cast<size_t>(30) * gray.w + x] = 128;
  EXPECT_FALSE(detail::is_bilevel(gray.px.data(), gray.w, gray.h, gray.w));
  EXPECT_FALSE(detail::is_bilevel(Canvas(10, 10).px.data(), 10, 10, 10)) << "no ink";
  // Smoothed: the square's edge is a ramp, its middle and the paper far from it as they were.
  const auto s = detail::smoothed(bilevel.px.data(), bilevel.w, bilevel.h, bilevel.w, 1.2);
  ASSERT_EQ(s.size(), bilevel.px.size());
  auto at = [&](int x, int y) { return s[static_cast<size_t>(y) * bilevel.w + x]; };
  EXPECT_EQ(at(20, 20), 0);
  EXPECT_EQ(at(50, 20), 255);
  EXPECT_GT(at(30, 20), 32);
  EXPECT_LT(at(30, 20), 223);
  EXPECT_GT(at(29, 20), 0);
  EXPECT_LT(at(29, 20), at(30, 20));
}

TEST(OcrLines, WordBoxIsDividedWithoutSymbolBoxes) {
  detail::OcrLine l;
  detail::OcrWord w;
  w.text = "abcd";
  w.box = {10, 0, 30, 8};
  w.confidence = 80;
  l.words = {w};
  auto lines = detail::lines_from_ocr({l});
  ASSERT_EQ(lines.size(), 1u);
  ASSERT_EQ(lines[0].spans[0].xs.size(), 4u);
  EXPECT_FLOAT_EQ(lines[0].spans[0].xs[0], 10);
  EXPECT_FLOAT_EQ(lines[0].spans[0].xs[2], 20);
  EXPECT_FLOAT_EQ(lines[0].spans[0].confidence, 80);
}

// ---- real pages ----

std::vector<std::string> tokens_of(const Page& p) {
  std::vector<std::string> out;
  for (size_t i = 0; i < p.lines.size(); ++i) {
    auto words = whitespace_tokens(p.lines[i].text());
    for (auto& w : words) out.push_back(w);
    // A word hyphenated at the line end also counts joined with the next line's first word.
    if (!words.empty() && words.back().size() > 1 && words.back().back() == '-' && i + 1 < p.lines.size()) {
      auto next = whitespace_tokens(p.lines[i + 1].text());
      if (!next.empty()) out.push_back(words.back().substr(0, words.back().size() - 1) + next.front());
    }
  }
  return out;
}

// Words of the ground-truth blocks that lie wholly on `page`.
std::vector<std::string> gt_words(const std::string& book, int page) {
  std::ifstream in(kBooks + book + ".gt.json");
  nlohmann::json gt = nlohmann::json::parse(in);
  std::vector<std::string> out;
  for (const auto& ch : gt["chapters"])
    for (const auto& b : ch["blocks"]) {
      if (!b.contains("text") || b.value("page", 0) != page) continue;
      if (b.contains("pages") && b["pages"][1].get<int>() != page) continue;
      for (auto& w : whitespace_tokens(b["text"].get<std::string>())) out.push_back(w);
    }
  return out;
}

double recall(const std::vector<std::string>& want, const std::vector<std::string>& have) {
  std::multiset<std::string> pool(have.begin(), have.end());
  size_t found = 0;
  for (const auto& w : want) {
    auto it = pool.find(w);
    if (it != pool.end()) {
      ++found;
      pool.erase(it);
    }
  }
  return want.empty() ? 0 : static_cast<double>(found) / static_cast<double>(want.size());
}

const Line* line_starting(const Page& p, const std::string& start) {
  for (const auto& l : p.lines)
    if (l.text().rfind(start, 0) == 0) return &l;
  return nullptr;
}

TEST(OcrScan, ScannedTwinPageHasTheBookWords) {
  ExtractOptions o;
  o.first_page = o.last_page = 6;
  Document d = extract_document(kBooks + "fx-classic-scan.pdf", o);
  ASSERT_EQ(d.pages.size(), 1u);
  const Page& p = d.pages[0];
  EXPECT_TRUE(p.ocr);
  EXPECT_EQ(d.engine, "tesseract");
  EXPECT_GT(p.ocr_confidence, 85);
  // The scan itself is not left behind as a page-sized figure.
  for (const auto& im : p.images) EXPECT_LT(im.bbox.width() * im.bbox.height(), 0.5 * p.width * p.height);
  for (const auto& l : p.lines)
    for (const auto& s : l.spans) {
      EXPECT_TRUE(s.ocr);
      EXPECT_GE(s.confidence, 0);
      EXPECT_LE(s.confidence, 100);
      EXPECT_GE(s.bbox.x0, 0);
      EXPECT_LE(s.bbox.x1, p.width);
      EXPECT_EQ(s.xs.size(), to_u32(s.text).size()) << s.text;
    }
  auto want = gt_words("fx-classic-scan", 6);
  ASSERT_GT(want.size(), 100u);
  EXPECT_GE(recall(want, tokens_of(p)), 0.95);

  // The shell listing: fixed pitch, with its indentation in the x positions.
  const Line* fi = line_starting(p, "fi");
  const Line* autoreconf = line_starting(p, "autoreconf -fi");
  ASSERT_TRUE(fi && autoreconf);
  EXPECT_TRUE(fi->spans[0].monospace);
  EXPECT_TRUE(autoreconf->spans[0].monospace);
  const double pitch = autoreconf->spans[0].last_advance;
  ASSERT_GT(pitch, 0);
  EXPECT_NEAR((autoreconf->spans[0].xs[0] - fi->spans[0].xs[0]) / pitch, 4.0, 0.5);
  // Prose stays proportional.
  const Line* prose = line_starting(p, "Ringlog is meant");
  ASSERT_TRUE(prose);
  EXPECT_FALSE(prose->spans[0].monospace);
}

TEST(OcrScan, ABilevelScansListingIsReadSmoothed) {
  // The scanned twin is 1-bit with ragged edges. Read as it is, Tesseract took the C
  // listing's "for (;;) {" for "for (53) {", "return s;" for "return 8s;" and "&r->head" for
  // "kr->head"; read smoothed, the lines are as printed.
  ExtractOptions o;
  o.first_page = o.last_page = 10;
  Document d = extract_document(kBooks + "fx-classic-scan.pdf", o);
  ASSERT_EQ(d.pages.size(), 1u);
  std::set<std::string> lines;
  for (const auto& l : d.pages[0].lines) {
    const std::string t = l.text();
    const size_t a = t.find_first_not_of(' '), b = t.find_last_not_of(' ');
    if (a != std::string::npos) lines.insert(t.substr(a, b - a + 1));
  }
  for (const char* want : {"for (;;) {", "return s;", "if (atomic_compare_exchange_weak(&r->head, &head,",
                           "/* Reserve one slot; returns NULL when the ring is full. */"})
    EXPECT_TRUE(lines.count(want)) << want;
}

TEST(OcrScan, TheScansDrawingIsWhereItsTwinDrawsIt) {
  // Page 9 holds a diagram of four framed words and arrows in a dashed frame: on the scan,
  // the ink no word covers is drawn where the born-digital twin has its vector paths.
  auto drawn = [](const std::string& book) {
    ExtractOptions o;
    o.first_page = o.last_page = 9;
    Document d = extract_document(kBooks + book, o);
    Box all;
    bool first = true;
    for (const auto& p : d.pages.at(0).paths) {
      const Box& b = p.bbox;
      all = first ? b : Box{std::min(all.x0, b.x0), std::min(all.y0, b.y0), std::max(all.x1, b.x1), std::max(all.y1, b.y1)};
      first = false;
    }
    return std::make_pair(first ? 0 : 1, all);
  };
  const auto [scan_found, scan] = drawn("fx-classic-scan.pdf");
  const auto [twin_found, twin] = drawn("fx-classic.pdf");
  ASSERT_TRUE(scan_found && twin_found);
  // MuPDF bounds a stroke by its width times the miter limit (about 3 pt for the frame's
  // 0.4 pt dashes); the frame's boxes alone, without its dashes, would be 8 pt in.
  EXPECT_NEAR(scan.x0, twin.x0, 4) << "left";
  EXPECT_NEAR(scan.y0, twin.y0, 4) << "top";
  EXPECT_NEAR(scan.x1, twin.x1, 4) << "right";
  EXPECT_NEAR(scan.y1, twin.y1, 4) << "bottom";
}

TEST(OcrScan, ForcedOcrOfBornDigitalPageMatchesItsTextLayer) {
  ExtractOptions o;
  o.first_page = o.last_page = 6;
  o.ocr = OcrMode::Never;
  Document layer = extract_document(kBooks + "fx-classic.pdf", o);
  ASSERT_FALSE(layer.pages[0].ocr);
  o.ocr = OcrMode::Force;
  Document ocr = extract_document(kBooks + "fx-classic.pdf", o);
  ASSERT_TRUE(ocr.pages[0].ocr);
  EXPECT_GE(recall(tokens_of(layer.pages[0]), tokens_of(ocr.pages[0])), 0.97);
}

TEST(OcrScan, AutoLeavesBornDigitalPagesAlone) {
  ExtractOptions o;
  o.first_page = o.last_page = 6;
  Document d = extract_document(kBooks + "fx-classic.pdf", o);
  EXPECT_FALSE(d.pages[0].ocr);
  EXPECT_EQ(d.engine, "mupdf");
}

TEST(OcrScan, ParallelWorkersGiveTheSameResult) {
  ExtractOptions o;
  o.first_page = 12;
  o.last_page = 13;
  o.jobs = 1;
  Document one = extract_document(kBooks + "fx-classic-scan.pdf", o);
  o.jobs = 2;
  Document two = extract_document(kBooks + "fx-classic-scan.pdf", o);
  ASSERT_EQ(one.pages.size(), 2u);
  EXPECT_TRUE(one.pages[0].ocr && one.pages[1].ocr);
  EXPECT_EQ(one.pages, two.pages);
  // With no spare lane (other books of a batch hold them all) the helper never sets up a
  // reader, and the calling thread reads both pages.
  Lanes::Limit no_spare_lane(0);
  Document lone = extract_document(kBooks + "fx-classic-scan.pdf", o);
  EXPECT_EQ(one.pages, lone.pages);
}

// OCR'd pages that wait out of memory (quire/spill.h) come back as read, with the pictures
// and rules Tesseract found; born-digital pages too, through both engines.
TEST(OcrScan, PagesOutOfMemoryComeBackAsRead) {
  for (const std::string book : {"fx-classic-scan.pdf", "fx-classic.pdf"})
    for (Engine engine : {Engine::MuPdf, Engine::Poppler}) {
      ExtractOptions o;
      o.engine = engine;
      o.first_page = 11;
      o.last_page = 13;
      o.jobs = 2;
      Document whole = extract_document(kBooks + book, o);
      ASSERT_FALSE(whole.spill);
      o.spill_after_mb = 0;
      Document out = extract_document(kBooks + book, o);
      ASSERT_TRUE(out.spill);
      ASSERT_EQ(out.pages.size(), whole.pages.size());
      for (size_t i = 0; i < out.pages.size(); ++i) {
        // (A page with nothing on it has nothing to put out.)
        const bool content = !whole.pages[i].lines.empty() || !whole.pages[i].paths.empty();
        EXPECT_EQ(out.spill->spilled(i), content) << book << " page " << whole.pages[i].number;
        EXPECT_TRUE(out.pages[i].lines.empty());
        with_page(out, i, [&](const Page& p) { EXPECT_EQ(p, whole.pages[i]) << book << " page " << p.number; });
      }
      EXPECT_EQ(out.engine, whole.engine);
      if (book == "fx-classic-scan.pdf" && engine == Engine::MuPdf) {
        EXPECT_TRUE(whole.pages[1].ocr && whole.pages[2].ocr);
        EXPECT_EQ(out.spill->spilled_pages(), 3u);
      }
    }
}

// ---- languages ----

TEST(OcrLanguage, MissingLanguageNamesTheDebianPackage) {
  EXPECT_NO_THROW(detail::check_ocr_language("eng"));
  try {
    detail::check_ocr_language("eng+xyz");
    FAIL() << "no error for a missing language";
  } catch (const Error& e) {
    EXPECT_EQ(e.code, ExitCode::Usage);
    EXPECT_NE(std::string(e.what()).find("install tesseract-ocr-xyz"), std::string::npos) << e.what();
  }
  ExtractOptions o;
  o.ocr = OcrMode::Force;
  o.ocr_lang = "xyz";
  o.first_page = o.last_page = 1;
  EXPECT_THROW(extract_document(kBooks + "fx-classic.pdf", o), Error);
  // Never mode does not need the language.
  o.ocr = OcrMode::Never;
  EXPECT_NO_THROW(extract_document(kBooks + "fx-classic.pdf", o));
}

}  // namespace
}  // namespace quire
