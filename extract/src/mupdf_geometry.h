// Private to extract/: MuPDF 1.21's rectangle arithmetic, inline, for the loops that run it
// once per character (a call into MuPDF for each costs more than the arithmetic: 3% of a
// build's instructions on R-exts.pdf). Each gives, bit for bit, what MuPDF's function gives,
// NaN and signed zeros included: the comparisons are MuPDF's, in its order.
// tests/extract/geometry_test.cpp holds them to the library's own functions.
#pragma once

extern "C" {
#include <mupdf/fitz.h>
}

namespace quire::detail {

// (a < b ? a : b) and (a > b ? a : b): with a NaN, or two zeros, the second.
inline float mu_lo(float a, float b) { return a < b ? a : b; }
inline float mu_hi(float a, float b) { return a > b ? a : b; }

// fz_rect_from_quad: the box of the quad's corners, the lower pair's bound taken against the
// upper pair's.
inline fz_rect rect_of_quad(const fz_quad& q) {
  return {mu_lo(mu_lo(q.ll.x, q.lr.x), mu_lo(q.ul.x, q.ur.x)), mu_lo(mu_lo(q.ll.y, q.lr.y), mu_lo(q.ul.y, q.ur.y)),
          mu_hi(mu_hi(q.ll.x, q.lr.x), mu_hi(q.ul.x, q.ur.x)), mu_hi(mu_hi(q.ll.y, q.lr.y), mu_hi(q.ul.y, q.ur.y))};
}

// fz_union_rect: a box that is not valid (x0 > x1 or y0 > y1, or NaN) adds nothing; the
// infinite box takes all.
inline fz_rect union_of_rects(fz_rect a, const fz_rect& b) {
  if (!fz_is_valid_rect(b)) return a;
  if (!fz_is_valid_rect(a)) return b;
  if (fz_is_infinite_rect(a)) return a;
  if (fz_is_infinite_rect(b)) return b;
  if (a.x0 > b.x0) a.x0 = b.x0;
  if (a.y0 > b.y0) a.y0 = b.y0;
  if (a.x1 < b.x1) a.x1 = b.x1;
  if (a.y1 < b.y1) a.y1 = b.y1;
  return a;
}

}  // namespace quire::detail
