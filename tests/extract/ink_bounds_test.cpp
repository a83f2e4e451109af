// The box a figure's crop is trimmed to: every pixel with a channel darker than paper white,
// found by skipping white blocks and searching ink rows from each end. Compared with the
// plain definition (every pixel looked at) on images made to catch the block edges.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "mupdf_util.h"

namespace {

struct Box {
  int x0, y0, x1, y1;
  bool operator==(const Box&) const = default;
};

Box every_pixel(const std::vector<unsigned char>& s, int w, int h, int n, int stride) {
  Box b{w, h, -1, -1};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < n; ++c)
        if (s[static_cast<size_t>(y * stride + x * n + c)] < 250) {
          b.x0 = std::min(b.x0, x);
          b.x1 = std::max(b.x1, x);
          b.y0 = std::min(b.y0, y);
          b.y1 = std::max(b.y1, y);
        }
  return b;
}

Box found(const std::vector<unsigned char>& s, int w, int h, int n, int stride) {
  Box b{};
  quire::detail::ink_bounds(s.data(), w, h, n, stride, b.x0, b.y0, b.x1, b.y1);
  return b;
}

TEST(InkBounds, WhitePaperHasNoInk) {
  std::vector<unsigned char> s(static_cast<size_t>(40 * 3 * 7), 255);
  Box b{};
  EXPECT_FALSE(quire::detail::ink_bounds(s.data(), 40, 7, 3, 120, b.x0, b.y0, b.x1, b.y1));
  EXPECT_LT(b.x1, 0);
  // Anti-aliased edges fade to 250-254: still paper.
  std::fill(s.begin(), s.end(), 250);
  EXPECT_FALSE(quire::detail::ink_bounds(s.data(), 40, 7, 3, 120, b.x0, b.y0, b.x1, b.y1));
}

TEST(InkBounds, OneDarkChannelIsInkAtEveryPlaceOfARow) {
  // Widths around the 64-byte blocks, a dark byte at every position of the row in turn (and
  // in each channel): the box is that one pixel, on the row it is on.
  for (int w : {1, 5, 21, 22, 23, 64, 100}) {
    const int n = 3, stride = w * n + 5, h = 3;  // rows padded past their pixels
    for (int at = 0; at < w * n; ++at) {
      std::vector<unsigned char> s(static_cast<size_t>(stride * h), 255);
      for (int pad = w * n; pad < stride; ++pad) s[static_cast<size_t>(stride + pad)] = 0;  // padding is no pixel
      s[static_cast<size_t>(stride + at)] = 249;
      const Box want{at / n, 1, at / n, 1};
      EXPECT_EQ(found(s, w, h, n, stride), want) << "width " << w << ", byte " << at;
      EXPECT_EQ(every_pixel(s, w, h, n, stride), want);
    }
  }
}

TEST(InkBounds, SameBoxAsLookingAtEveryPixel) {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    const int w = 1 + static_cast<int>(rng() % 130), h = 1 + static_cast<int>(rng() % 40);
    const int n = round % 2 ? 3 : 4, stride = w * n + static_cast<int>(rng() % 9);
    std::vector<unsigned char> s(static_cast<size_t>(stride * h), 255);
    // Near-white noise everywhere, and a few marks of ink (none in some rounds).
    for (auto& v : s) v = static_cast<unsigned char>(250 + rng() % 6);
    const int marks = static_cast<int>(rng() % 4);
    for (int m = 0; m < marks; ++m) {
      const int y = static_cast<int>(rng() % static_cast<unsigned>(h));
      const int x = static_cast<int>(rng() % static_cast<unsigned>(w));
      s[static_cast<size_t>(y * stride + x * n + static_cast<int>(rng() % static_cast<unsigned>(n)))] =
          static_cast<unsigned char>(rng() % 250);
    }
    EXPECT_EQ(found(s, w, h, n, stride), every_pixel(s, w, h, n, stride)) << "round " << round;
  }
}

}  // namespace
