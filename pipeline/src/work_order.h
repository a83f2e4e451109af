// The order a batch's books start in.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace quire {

// A book whose file is smaller than this starts before the others. Such a book builds in
// milliseconds (a text PDF builds at 3-4 MB a second here), unless its pages go to OCR, which
// nothing short of reading its text tells: a one-page PDF of 26 KB whose text is Type 3
// glyphs without Unicode took 0.65 s of OCR, forty times a 64 KB book's build. Started first,
// such a surprise runs beside the long books; started last (largest first), it ran alone at
// the end of the batch. Measured at two jobs, output on tmpfs, three rounds each: the
// 240-PDF shelf 11.20-11.28 s -> 10.87-11.24 s, the 224 TeX Live PDFs 6.84-6.97 s ->
// 6.55-6.66 s (the cores 189-190% -> 196-197% busy).
inline constexpr uintmax_t kSmallBookBytes = uintmax_t{64} << 10;

// Indices of the books by their files' sizes in the order they start: the small books
// (kSmallBookBytes), then the others largest first, so that the last to start is a short one
// and the workers finish together. Results keep their places whatever the order of work.
inline std::vector<size_t> work_order(const std::vector<uintmax_t>& sizes) {
  std::vector<size_t> order(sizes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const bool small_a = sizes[a] < kSmallBookBytes, small_b = sizes[b] < kSmallBookBytes;
    if (small_a != small_b) return small_a;
    return sizes[a] > sizes[b];
  });
  return order;
}

}  // namespace quire
