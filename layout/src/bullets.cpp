// Bullets: a list item's marker is a glyph or a drawn shape before its first word.
#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstring>

#include "figures.h"
#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "quire/typography.h"
#include "page_passes.h"

namespace quire::detail {

// Whether a list's bullet is drawn before the row's first word: browsers print a disc or a
// square as a path, not as a character. A small mark, about as wide as high, its middle in
// the row's x-height, shortly left of the row.
bool bullet_shape_before(const Box& b, double baseline, double x0, double em, const LayoutOptions& o) {
  const double w = b.width(), h = b.height(), cy = (b.y0 + b.y1) / 2;
  if (std::min(w, h) < o.notes.bullet_min_ratio * em || std::max(w, h) > o.notes.bullet_max_ratio * em) return false;
  if (std::max(w, h) > o.notes.bullet_aspect_max * std::min(w, h)) return false;  // a dash or a bar, not a bullet
  if (cy < baseline - o.notes.bullet_rise_max_ratio * em || cy > baseline - o.notes.bullet_rise_min_ratio * em)
    return false;
  return b.x1 <= x0 - o.notes.bullet_gap_min_ratio * em && b.x1 >= x0 - o.notes.bullet_reach_ratio * em;
}

bool drawn_bullet_before(const Row& r, const Page& page, const LayoutOptions& o) {
  for (const auto& p : page.paths) {
    // A stroked mark's box takes in its joins (see kStrokeBoxPad): its shape lies inside.
    const double e = p.stroke && !p.fill ? std::min(kStrokeBoxPad * p.line_width, std::min(p.bbox.width(), p.bbox.height()) / 2) : 0;
    if (bullet_shape_before({p.bbox.x0 + e, p.bbox.y0 + e, p.bbox.x1 - e, p.bbox.y1 - e}, r.baseline, r.bbox.x0, r.size, o))
      return true;
  }
  return false;
}

bool starts_with_note_mark(const Row& r, bool bracketed) {
  if (r.lines.empty() || r.lines.front()->spans.empty()) return false;
  const auto& spans = r.lines.front()->spans;
  // A superscript mark: a first span set smaller than the note's text.
  if (spans.size() > 1 && spans.front().size < r.size * typography::kRaisedSizeRatio && has_visible(spans.front().text)) return true;
  std::u32string cps = to_u32(r.text);
  if (cps.empty()) return false;
  if (typography::is_note_symbol(cps.front())) return true;
  // "[1] The note", in a book that raises its marks so.
  if (const size_t close = cps.find(U']');
      bracketed && cps.front() == U'[' && close != std::u32string::npos && (close + 1 == cps.size() || cps[close + 1] == U' '))
    cps = std::u32string(typography::unbracketed(std::u32string_view(cps).substr(0, close + 1)));
  size_t digits = 0;
  while (digits < cps.size() && ((cps[digits] >= U'0' && cps[digits] <= U'9') || typography::is_superscript_digit(cps[digits]))) ++digits;
  return digits > 0 && digits <= typography::kMaxNoteMarkDigits;
}

namespace {

// Where a row's text starts after its first `skip` code points and the white space after
// them (none when the row's glyph positions are not known).
std::optional<double> text_x_after(const Row& r, size_t skip) {
  size_t seen = 0;
  for (const Line* line : r.lines)
    for (const Span& s : line->spans) {
      const std::u32string cps = to_u32(s.text);
      if (s.xs.size() != cps.size()) return std::nullopt;
      for (size_t k = 0; k < cps.size(); ++k, ++seen)
        if (seen >= skip && !is_space_cp(cps[k])) return s.xs[k];
    }
  return std::nullopt;
}

// The first code point of a row opened by one character and a space, or 0.
char32_t lone_first(const Row& r) {
  const std::u32string head = to_u32(std::string_view(r.text).substr(0, 8));
  if (head.size() < 3 || is_space_cp(head[0]) || (head[0] >= U'0' && head[0] <= U'9') || !is_space_cp(head[1])) return 0;
  return head[0];
}

}  // namespace

// A list item's marker that no font names a bullet: a glyph read as a letter (a scan's "•"
// read as "e", a dingbat font's "o" or "§"). Items of one list start at one x with the same
// marker, their text at one x right of it, and an item's further lines hang under its text:
// a row opened by one character and a space is an item when the item before or after it
// (past its hanging lines) starts so too, with that character or a marker of its own, and
// its own next line hangs under its text, going on with its sentence (a paragraph's first
// line may end a sentence over a next one indented as far as its second word). A
// description list's one-letter term ("x" before its argument's text) has other terms
// beside it; a table's rows that open with one letter ("x == y", "x != y") wrap under no
// second word.
void find_hanging_markers(std::vector<Row>& rows, const LayoutOptions& o) {
  const double tol = o.lines.edge_tolerance;
  std::vector<std::pair<size_t, char32_t>> found;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const char32_t c = r.marker || r.drawn_marker || r.mono || r.footnote || r.full_stop ? 0 : lone_first(r);
    const std::optional<double> text = c ? text_x_after(r, 1) : std::nullopt;
    if (!text || *text <= r.bbox.x0 + tol) continue;
    // The next row of its column in step `dir` (+1 down, -1 up), past the rows that hang at
    // the text (going down: none for its own next line; going up: the item before's).
    auto next = [&](size_t from, int dir, bool past_hanging) -> const Row* {
      for (size_t j = from; dir > 0 ? j + 1 < rows.size() : j > 0;) {
        j = dir > 0 ? j + 1 : j - 1;
        const Row& q = rows[j];
        if (q.column != r.column || q.page != r.page || (dir > 0 && q.baseline <= r.baseline)) continue;
        if (past_hanging && std::fabs(q.bbox.x0 - *text) <= tol) continue;
        return &q;
      }
      return nullptr;
    };
    // Its own next line hangs under its text, at the line pitch.
    const Row* under = next(i, 1, false);
    if (!under || under->baseline - r.baseline > typography::max_line_pitch(r.size, o.blocks.paragraph_gap_ratio) ||
        std::fabs(under->bbox.x0 - *text) > tol)
      continue;
    auto sibling = [&](const Row* q) {
      if (!q || std::fabs(q->bbox.x0 - r.bbox.x0) > tol || q->mono || q->footnote) return false;
      size_t skip = 0;  // (a drawn bullet stands outside the text)
      if (q->marker) skip = utf8_length(std::string_view(q->text).substr(0, q->marker));
      else if (!q->drawn_marker && lone_first(*q) != c) return false;
      else if (!q->drawn_marker) skip = 1;
      const std::optional<double> x = text_x_after(*q, skip);
      return x && std::fabs(*x - *text) <= tol;
    };
    // The item after it, past its hanging lines, or the item before it, past that one's.
    if (sibling(next(i, 1, true)) || sibling(next(i, -1, true))) found.push_back({i, c});
  }
  for (const auto& [i, c] : found) {
    std::string mark;
    append_utf8(mark, c);
    rows[i].marker = mark.size();
  }
}

}  // namespace quire::detail
