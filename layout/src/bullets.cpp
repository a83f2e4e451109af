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
bool drawn_bullet_before(const Row& r, const Page& page, const LayoutOptions& o) {
  const double em = r.size;
  for (const auto& p : page.paths) {
    // A stroked mark's box takes in its joins (see kStrokeBoxPad): its shape lies inside.
    const double e = p.stroke && !p.fill ? std::min(kStrokeBoxPad * p.line_width, std::min(p.bbox.width(), p.bbox.height()) / 2) : 0;
    const Box b{p.bbox.x0 + e, p.bbox.y0 + e, p.bbox.x1 - e, p.bbox.y1 - e};
    const double w = b.width(), h = b.height(), cy = (b.y0 + b.y1) / 2;
    if (std::min(w, h) < o.bullet_min_ratio * em || std::max(w, h) > o.bullet_max_ratio * em) continue;
    if (std::max(w, h) > o.bullet_aspect_max * std::min(w, h)) continue;  // a dash or a bar, not a bullet
    if (cy < r.baseline - o.bullet_rise_max_ratio * em || cy > r.baseline - o.bullet_rise_min_ratio * em) continue;
    if (b.x1 > r.bbox.x0 - o.bullet_gap_min_ratio * em || b.x1 < r.bbox.x0 - o.bullet_reach_ratio * em) continue;
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
// line may end a sentence over a next one indented as far as its second word). A description list's one-letter term
// ("x" before its argument's text) has other terms beside it; a table's rows that open with
// one letter ("x == y", "x != y") wrap under no second word.
void find_hanging_markers(std::vector<Row>& rows, const LayoutOptions& o) {
  const double tol = o.edge_tolerance;
  std::vector<size_t> found;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const char32_t c = r.marker || r.drawn_marker || r.mono || r.footnote ? 0 : lone_first(r);
    const std::optional<double> text = c ? text_x_after(r, 1) : std::nullopt;
    // Whether the line under row q hangs under the text.
    auto hangs = [&](size_t qi) {
      const Row& q = rows[qi];
      for (size_t j = qi + 1; j < rows.size(); ++j) {
        const Row& u = rows[j];
        if (u.column != q.column || u.page != q.page || u.baseline <= q.baseline) continue;
        return u.baseline - q.baseline <= typography::max_line_pitch(q.size, o.paragraph_gap_ratio) &&
               std::fabs(u.bbox.x0 - *text) <= tol;
      }
      return false;
    };
    if (!text || *text <= r.bbox.x0 + tol || r.full_stop || !hangs(i)) continue;
    auto sibling = [&](const Row& q) {
      if (std::fabs(q.bbox.x0 - r.bbox.x0) > tol || q.mono || q.footnote) return false;
      size_t skip = 0;
      if (q.marker) skip = utf8_length(std::string_view(q.text).substr(0, q.marker));
      else if (q.drawn_marker) skip = 0;
      else if (lone_first(q) == c) skip = 1;
      else return false;
      const std::optional<double> x = text_x_after(q, skip);
      return x && std::fabs(*x - *text) <= tol;
    };
    // The item after it, past its hanging lines; the item before it, past that one's.
    bool listed = false;
    for (size_t j = i + 1; j < rows.size() && !listed; ++j) {
      const Row& q = rows[j];
      if (q.column != r.column || q.page != r.page) continue;
      if (std::fabs(q.bbox.x0 - *text) <= tol) continue;
      listed = sibling(q);
      break;
    }
    for (size_t j = i; j-- > 0 && !listed;) {
      const Row& q = rows[j];
      if (q.column != r.column || q.page != r.page) continue;
      if (std::fabs(q.bbox.x0 - *text) <= tol) continue;
      listed = sibling(q);
      break;
    }
    if (listed) found.push_back(i);
  }
  for (size_t i : found) {
    std::string first;
    append_utf8(first, to_u32(std::string_view(rows[i].text).substr(0, 4)).front());
    rows[i].marker = first.size();
  }
}

}  // namespace quire::detail
