// Small synthetic pages for layout tests: lines placed as a typesetter would place them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "quire/model.h"
#include "quire/text.h"

namespace quire::test {

struct LineSpec {
  double x = 72;         // left edge, points
  double baseline = 100;
  std::string text;
  double size = 10;
  bool mono = false;
  bool bold = false;
};

// Advance of a proportional glyph, in em: the widths of Computer Modern Roman (cmr10), so
// that proportional text never looks like a monospace grid.
inline double proportional_em(char32_t c) {
  static const double lower[26] = {.5,   .556, .444, .556, .444, .306, .5,   .556, .278, .306, .528, .278, .833,
                                   .556, .5,   .556, .528, .392, .394, .389, .556, .528, .722, .528, .528, .444};
  if (c >= U'a' && c <= U'z') return lower[c - U'a'];
  if (c >= U'A' && c <= U'Z') return c == U'I' ? 0.361 : (c == U'M' || c == U'W') ? 0.917 : 0.75;
  if (c >= U'0' && c <= U'9') return 0.5;
  if (c == U' ') return 0.333;
  return 0.278;
}

// A line of one span. Monospace glyphs sit on a grid of 0.6 em.
inline Line make_line(const LineSpec& s) {
  Line l;
  Span sp;
  sp.text = s.text;
  sp.size = s.size;
  sp.monospace = s.mono;
  sp.bold = s.bold;
  sp.font = s.mono ? "CMTT10" : (s.bold ? "CMBX10" : "CMR10");
  sp.baseline = s.baseline;
  double adv = 0.6 * s.size;
  double x = s.x;
  for (char32_t c : to_u32(s.text)) {
    sp.xs.push_back(static_cast<float>(x));
    adv = (s.mono ? 0.6 : proportional_em(c)) * s.size;
    x += adv;
  }
  sp.last_advance = static_cast<float>(adv);
  sp.bbox = {s.x, s.baseline - 0.8 * s.size, x, s.baseline + 0.25 * s.size};
  l.bbox = sp.bbox;
  l.spans.push_back(sp);
  return l;
}

inline Page make_page(int number, const std::vector<LineSpec>& lines, double width = 612, double height = 792) {
  Page p;
  p.number = number;
  p.width = width;
  p.height = height;
  for (const auto& s : lines) p.lines.push_back(make_line(s));
  return p;
}

inline Document make_doc(std::vector<Page> pages) {
  Document d;
  d.file = "test.pdf";
  d.page_count = static_cast<int>(pages.size());
  d.pages = std::move(pages);
  return d;
}

// Body lines of a justified paragraph: `n` full lines from `top`, 12 pt apart.
inline std::vector<LineSpec> paragraph(double x, double top, const std::vector<std::string>& texts, double size = 10,
                                       bool indent_first = true) {
  std::vector<LineSpec> out;
  double b = top;
  for (size_t i = 0; i < texts.size(); ++i) {
    out.push_back({x + (i == 0 && indent_first ? 15 : 0), b, texts[i], size});
    b += 1.2 * size;
  }
  return out;
}

}  // namespace quire::test
