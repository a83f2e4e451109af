// extract/src/mupdf_geometry.h against the MuPDF functions it stands in for: the same bits for
// every input, the awkward ones (NaN, zeros of both signs, infinities, MuPDF's empty and
// infinite boxes, boxes turned inside out) mixed with ordinary ones.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
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

}  // namespace
}  // namespace quire::detail
