// Builders of small synthetic pages for clean's tests, and the accounting check every test
// shares: the words of a page before cleaning are the words after plus the logged ones.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "quire/clean.h"
#include "quire/text.h"

namespace quire::test {

constexpr double kPageWidth = 612, kPageHeight = 792;
constexpr double kBodySize = 10;
constexpr double kAdvanceRatio = 0.5;  // glyph advance as a share of the font size

inline Span span(const std::string& text, double x, double baseline, double size = kBodySize,
                 const std::string& font = "Serif", bool mono = false) {
  Span s;
  s.text = text;
  s.size = size;
  s.font = font;
  s.monospace = mono;
  s.baseline = baseline;
  size_t n = utf8_length(text);
  for (size_t i = 0; i < n; ++i) s.xs.push_back(static_cast<float>(x + static_cast<double>(i) * size * kAdvanceRatio));
  s.last_advance = static_cast<float>(size * kAdvanceRatio);
  s.bbox = {x, baseline - 0.8 * size, x + static_cast<double>(n) * size * kAdvanceRatio, baseline + 0.2 * size};
  return s;
}

inline Line line(std::vector<Span> spans) {
  Line l;
  l.spans = std::move(spans);
  l.bbox = l.spans.front().bbox;
  for (const auto& s : l.spans) l.bbox = l.bbox.united(s.bbox);
  return l;
}

inline Line text_line(const std::string& text, double x, double baseline, double size = kBodySize) {
  return line({span(text, x, baseline, size)});
}

// Page `number` with body lines of distinct prose from y=100 to y=700.
inline Page body_page(int number, const std::string& label = "", int body_lines = 40) {
  Page p;
  p.number = number;
  p.label = label;
  p.width = kPageWidth;
  p.height = kPageHeight;
  for (int i = 0; i < body_lines; ++i)
    p.lines.push_back(text_line("Body words " + std::to_string(number) + "-" + std::to_string(i) + " of the running prose here.",
                                72, 100 + 15.0 * i));
  return p;
}

inline std::string page_text(const Page& p) {
  std::string s;
  for (const auto& l : p.lines) s += l.text() + "\n";
  return s;
}

inline std::map<std::string, long> bag(const std::string& text) {
  std::map<std::string, long> b;
  for (const auto& t : whitespace_tokens(text)) ++b[t];
  return b;
}

// Runs clean and checks the log accounts for every word that disappeared, page by page, and
// that each entry's text is not empty (but a drawing's, which holds no words).
inline CleanResult clean_and_account(Document& doc, const CleanOptions& options = {}) {
  std::map<int, std::string> before;
  for (const auto& p : doc.pages) before[p.number] = page_text(p);
  CleanResult r = clean_document(doc, options);
  std::map<int, std::string> logged;
  for (const auto& rm : r.removed) {
    const bool drawing = rm.reason == kRepeatedImage || rm.reason == kDrawnFurniture;
    EXPECT_NE(rm.text.empty(), !drawing) << rm.reason << " removal on page " << rm.page << ": \"" << rm.text << "\"";
    logged[rm.page] += rm.text + "\n";
  }
  for (const auto& p : doc.pages) {
    auto after = bag(page_text(p));
    for (const auto& [w, n] : bag(logged[p.number])) after[w] += n;
    EXPECT_EQ(bag(before[p.number]), after) << "page " << p.number << ": removed words not logged exactly";
    for (const auto& l : p.lines)
      for (const auto& s : l.spans)
        EXPECT_TRUE(s.xs.empty() || s.xs.size() == utf8_length(s.text)) << "xs misaligned: " << s.text;
  }
  return r;
}

inline bool has_line(const Page& p, const std::string& text) {
  for (const auto& l : p.lines)
    if (l.text() == text) return true;
  return false;
}

inline std::vector<std::string> removed_texts(const CleanResult& r, int page, const std::string& reason) {
  std::vector<std::string> out;
  for (const auto& rm : r.removed)
    if (rm.page == page && rm.reason == reason) out.push_back(rm.text);
  return out;
}

}  // namespace quire::test
