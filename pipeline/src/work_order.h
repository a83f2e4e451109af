// The order a batch's books start in.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace quire {

// Books start in three groups, each largest file first within it:
// - files of kLargeBookBytes or more: the long books, whose build holds the most memory. They
//   start on a heap that the pieces other books keep until the corpus-level files (each built
//   book's site pages) have not yet scattered: with the small files first, the shelf's peak
//   rose from 180 to 214 MB at one job and from 242 to 281 MB at two;
// - files under kSmallBookBytes: such a book builds in milliseconds (a text PDF builds at 3-4
//   MB a second here) unless its pages go to OCR, which nothing short of reading its text
//   tells. A one-page PDF of 26 KB whose text is Type 3 glyphs without Unicode takes 0.65 s
//   of OCR, forty times a 64 KB book's build. Started here, such a surprise runs beside other
//   books; started among the last (all largest first), it ran alone at the end of the batch;
// - the rest, so that the last book to start is a short one and the workers finish together.
// Measured at two jobs (the default), output on tmpfs, two rounds each, against all largest
// first: the 224 TeX Live PDFs 6.87-6.90 s -> 6.67-6.83 s, the cores 187-188% -> 197% busy;
// the 240-PDF shelf 11.16-11.35 s -> 11.22-11.38 s, 191-192% -> 197%; peak memory the same.
inline constexpr uintmax_t kLargeBookBytes = uintmax_t{1} << 20;
inline constexpr uintmax_t kSmallBookBytes = uintmax_t{64} << 10;

// Indices of the books, by their files' sizes, in the order they start (the groups above).
// Results keep their places whatever the order of work.
inline std::vector<size_t> work_order(const std::vector<uintmax_t>& sizes) {
  std::vector<size_t> order(sizes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto group = [&](size_t i) { return sizes[i] >= kLargeBookBytes ? 0 : sizes[i] < kSmallBookBytes ? 1 : 2; };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (group(a) != group(b)) return group(a) < group(b);
    return sizes[a] > sizes[b];
  });
  return order;
}

}  // namespace quire
