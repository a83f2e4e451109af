// Wording-preserving normalisation of span text, keeping one x position per code point.
#include <unicode/normalizer2.h>

#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"

namespace quire {

namespace {

// Positions for `count` letters that replace one glyph spanning [x0, x1): the glyph's width is
// shared evenly, so "ﬃ" at 100..112 gives f at 100, f at 104, i at 108.
void spread(std::vector<float>& out, float x0, float x1, size_t count) {
  for (size_t j = 0; j < count; ++j)
    out.push_back(x0 + (x1 - x0) * static_cast<float>(j) / static_cast<float>(count));
}

}  // namespace

void normalize_span(Span& s) {
  // ASCII has no ligature glyphs, soft hyphens or combining marks: already normal.
  if (is_ascii(s.text)) return;
  std::string target = normalize_text(s.text);
  if (target == s.text) return;
  std::u32string cps = to_u32(s.text);
  if (s.xs.size() != cps.size()) {
    // No usable positions to keep aligned: keep the invariant (empty or one per code point).
    s.text = std::move(target);
    s.xs.clear();
    return;
  }
  float end_x = s.last_advance > 0 ? s.xs.back() + s.last_advance : static_cast<float>(s.bbox.x1);
  // Step 1: each code point on its own (ligatures expand, soft hyphens vanish).
  std::u32string mapped;
  std::vector<float> xs;
  for (size_t i = 0; i < cps.size(); ++i) {
    float x0 = s.xs[i];
    float x1 = i + 1 < cps.size() ? s.xs[i + 1] : end_x;
    std::u32string piece = to_u32(normalize_text(from_u32(std::u32string(1, cps[i]))));
    mapped += piece;
    spread(xs, x0, x1, piece.size());
  }
  // Step 2: composition across code points (a letter and a combining accent), one
  // normalisation segment at a time; the composed letter takes the segment's first position.
  if (from_u32(mapped) != target) {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
    std::u32string composed;
    std::vector<float> cxs;
    size_t i = 0;
    while (U_SUCCESS(status) && i < mapped.size()) {
      size_t j = i + 1;
      while (j < mapped.size() && !nfc->hasBoundaryBefore(static_cast<UChar32>(mapped[j]))) ++j;
      std::u32string seg = to_u32(normalize_text(from_u32(mapped.substr(i, j - i))));
      composed += seg;
      if (seg.size() == j - i) cxs.insert(cxs.end(), xs.begin() + static_cast<long>(i), xs.begin() + static_cast<long>(j));
      else spread(cxs, xs[i], j < xs.size() ? xs[j] : end_x, seg.size());
      i = j;
    }
    mapped = std::move(composed);
    xs = std::move(cxs);
  }
  if (from_u32(mapped) != target || xs.size() != mapped.size()) {
    // Should not happen; never let positions disagree with the text.
    xs.clear();
    spread(xs, s.xs.front(), end_x, to_u32(target).size());
  }
  s.text = std::move(target);
  s.xs = std::move(xs);
}

void normalize_line(Line& line) {
  // A soft hyphen that ends a line after a letter is the break the typesetter took inside
  // a word (ConTeXt writes it so): layout joins the word's two parts over it.
  Span* last = line.spans.empty() ? nullptr : &line.spans.back();
  bool keep = false;
  float keep_x = 0;
  if (last && last->text.size() >= 2 && last->text.compare(last->text.size() - 2, 2, "\xC2\xAD") == 0) {
    // (The letter before it may end the span before, the hyphen a span of its own.)
    const size_t own = utf8_length(last->text);
    std::u32string cps = to_u32(last->text);
    if (cps.size() == 1 && line.spans.size() >= 2) cps = to_u32(line.spans[line.spans.size() - 2].text) + cps;
    keep = cps.size() >= 2 && is_letter_cp(cps[cps.size() - 2]);
    if (keep) {
      if (last->xs.size() == own) {
        keep_x = last->xs.back();
        last->xs.pop_back();
      } else {
        last->xs.clear();
      }
      last->text.resize(last->text.size() - 2);
    }
  }
  for (auto& s : line.spans) normalize_span(s);
  if (keep) {
    if (!last->xs.empty() || last->text.empty()) last->xs.push_back(keep_x);
    last->text += "\xC2\xAD";
  }
}

void normalize_document(Document& doc, int jobs) {
  change_pages(doc, jobs, [&](size_t, Page& page) {
    for (auto& l : page.lines) normalize_line(l);
  });
}

}  // namespace quire
