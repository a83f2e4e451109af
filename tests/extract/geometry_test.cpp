// What extraction takes from MuPDF 1.21 without calling it: extract/src/mupdf_geometry.h
// against the functions it stands in for (the same bits for every input, the awkward ones
// -- NaN, zeros of both signs, infinities, MuPDF's empty and infinite boxes, boxes turned
// inside out -- mixed with ordinary ones), and the stext device closed without its own close
// step (mupdf_engine.cpp's dev_close), which must keep every character it was given.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "mupdf_geometry.h"

namespace quire::detail {
namespace {

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

bool same(const fz_rect& a, const fz_rect& b) {
  return bits(a.x0) == bits(b.x0) && bits(a.y0) == bits(b.y0) && bits(a.x1) == bits(b.x1) && bits(a.y1) == bits(b.y1);
}

// Coordinates drawn from the awkward values and from a page's range.
class Coordinates {
 public:
  float next() {
    static const float kAwkward[] = {0.0f,
                                     -0.0f,
                                     1.0f,
                                     -1.0f,
                                     612.0f,
                                     std::numeric_limits<float>::quiet_NaN(),
                                     std::numeric_limits<float>::infinity(),
                                     -std::numeric_limits<float>::infinity(),
                                     static_cast<float>(FZ_MIN_INF_RECT),
                                     static_cast<float>(FZ_MAX_INF_RECT)};
    if (pick_(rng_) < 6) return kAwkward[pick_(rng_)];
    return page_(rng_);
  }
  fz_rect rect() {
    switch (pick_(rng_)) {
      case 0:
        return fz_empty_rect;
      case 1:
        return fz_infinite_rect;
      default:
        return {next(), next(), next(), next()};
    }
  }

 private:
  std::mt19937 rng_{20261204};
  std::uniform_int_distribution<int> pick_{0, 9};
  std::uniform_real_distribution<float> page_{-50.0f, 700.0f};
};

TEST(MuPdfGeometry, AQuadsBoxIsMuPdfsBitForBit) {
  Coordinates c;
  int checked = 0;
  for (int i = 0; i < 200000; ++i) {
    const fz_quad q{{c.next(), c.next()}, {c.next(), c.next()}, {c.next(), c.next()}, {c.next(), c.next()}};
    const fz_rect want = fz_rect_from_quad(q), got = rect_of_quad(q);
    ASSERT_TRUE(same(want, got)) << "quad " << i << ": " << want.x0 << " " << want.y0 << " " << want.x1 << " "
                                 << want.y1 << " against " << got.x0 << " " << got.y0 << " " << got.x1 << " " << got.y1;
    ++checked;
  }
  // A character's quad as the stext device makes it: upright, and turned.
  const fz_quad upright{{10, 20}, {15, 20}, {10, 30}, {15, 30}};
  EXPECT_TRUE(same(rect_of_quad(upright), fz_rect{10, 20, 15, 30}));
  const fz_quad turned{{15, 30}, {10, 30}, {15, 20}, {10, 20}};
  EXPECT_TRUE(same(rect_of_quad(turned), fz_rect{10, 20, 15, 30}));
  EXPECT_EQ(checked, 200000);
}

TEST(MuPdfGeometry, TheUnionOfTwoBoxesIsMuPdfsBitForBit) {
  Coordinates c;
  for (int i = 0; i < 200000; ++i) {
    const fz_rect a = c.rect(), b = c.rect();
    const fz_rect want = fz_union_rect(a, b), got = union_of_rects(a, b);
    ASSERT_TRUE(same(want, got)) << "pair " << i << ": (" << a.x0 << " " << a.y0 << " " << a.x1 << " " << a.y1 << ") ("
                                 << b.x0 << " " << b.y0 << " " << b.x1 << " " << b.y1 << ")";
  }
  // What the character loop relies on: the empty box adds nothing and takes the first box
  // whole; a box of no width still counts, one turned inside out does not.
  const fz_rect glyph{10, 20, 15, 30};
  EXPECT_TRUE(same(union_of_rects(fz_empty_rect, glyph), glyph));
  EXPECT_TRUE(same(union_of_rects(glyph, fz_rect{40, 20, 40, 30}), fz_rect{10, 20, 40, 30}));
  EXPECT_TRUE(same(union_of_rects(glyph, fz_rect{50, 20, 40, 30}), glyph));
}

// Every character of a page's stext, in order: its code point, origin, quad, size and font.
struct StextChar {
  int c;
  fz_point origin;
  fz_quad quad;
  float size;
  fz_font* font;
  bool operator==(const StextChar& o) const {
    return c == o.c && std::memcmp(&origin, &o.origin, sizeof origin) == 0 && std::memcmp(&quad, &o.quad, sizeof quad) == 0 &&
           std::memcmp(&size, &o.size, sizeof size) == 0 && font == o.font;
  }
};

// The page run through an stext device, closed as MuPDF closes it or, with `own_close`, as
// dev_close does (its close step cleared first). Empty when MuPDF throws.
std::vector<StextChar> stext_chars(fz_context* ctx, fz_page* page, bool own_close, int* lines) {
  std::vector<StextChar> out;
  fz_stext_page* volatile text = nullptr;
  fz_device* volatile dev = nullptr;
  fz_stext_options opts;
  std::memset(&opts, 0, sizeof opts);
  fz_try(ctx) {
    text = fz_new_stext_page(ctx, fz_bound_page(ctx, page));
    dev = fz_new_stext_device(ctx, text, &opts);
    fz_run_page(ctx, page, dev, fz_identity, nullptr);
    if (own_close) dev->close_device = nullptr;
    fz_close_device(ctx, dev);
  }
  fz_always(ctx) fz_drop_device(ctx, dev);
  fz_catch(ctx) {
    fz_drop_stext_page(ctx, text);
    return {};
  }
  *lines = 0;
  for (fz_stext_block* b = text->first_block; b; b = b->next) {
    if (b->type != FZ_STEXT_BLOCK_TEXT) continue;
    for (fz_stext_line* l = b->u.t.first_line; l; l = l->next) {
      ++*lines;
      for (fz_stext_char* ch = l->first_char; ch; ch = ch->next)
        out.push_back({ch->c, ch->origin, ch->quad, ch->size, ch->font});
    }
  }
  fz_drop_stext_page(ctx, text);
  return out;
}

// The document at `path`, or nullptr where MuPDF cannot open it. (Its own function: a
// setjmp-based fz_try inside the loop below would leave the loop's variables clobberable.)
fz_document* open_or_null(fz_context* ctx, const char* path) {
  fz_document* volatile doc = nullptr;
  fz_try(ctx) doc = fz_open_document(ctx, path);
  fz_catch(ctx) doc = nullptr;
  return doc;
}

TEST(MuPdfTextDevice, ClosedWithoutItsCloseStepItKeepsEveryCharacter) {
  // The fixture books: one text set by fourteen typesetters.
  std::vector<std::filesystem::path> books;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(QUIRE_SOURCE_DIR) / "fixtures" / "books"))
    if (e.path().extension() == ".pdf") books.push_back(e.path());
  std::sort(books.begin(), books.end());
  ASSERT_GE(books.size(), 10u);
  fz_context* ctx = fz_new_context(nullptr, nullptr, FZ_STORE_DEFAULT);
  ASSERT_NE(ctx, nullptr);
  fz_register_document_handlers(ctx);
  size_t characters = 0;
  for (const auto& path : books) {
    fz_document* doc = open_or_null(ctx, path.c_str());
    ASSERT_NE(doc, nullptr) << path;
    const int pages = fz_count_pages(ctx, doc);
    for (int i = 0; i < pages; ++i) {
      fz_page* page = fz_load_page(ctx, doc, i);
      int lines_closed = 0, lines_own = 0;
      const std::vector<StextChar> closed = stext_chars(ctx, page, false, &lines_closed);
      const std::vector<StextChar> own = stext_chars(ctx, page, true, &lines_own);
      EXPECT_EQ(lines_closed, lines_own) << path.filename() << " page " << i + 1;
      EXPECT_TRUE(closed == own) << path.filename() << " page " << i + 1 << ": " << closed.size()
                                 << " characters when closed by MuPDF, " << own.size() << " without its close step";
      characters += closed.size();
      fz_drop_page(ctx, page);
    }
    fz_drop_document(ctx, doc);
  }
  fz_drop_context(ctx);
  EXPECT_GT(characters, 10000u);  // (the books hold text: the comparison compared something)
}

}  // namespace
}  // namespace quire::detail
