// Code grid: a listing is set in a monospace font, every glyph one advance wide, so a
// glyph's column is its distance from the listing's left edge over the font's advance.
#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <map>
#include <optional>

#include "internal.h"
#include "quire/text.h"
#include "quire/typography.h"
#include "text_chars.h"

namespace quire::detail {

namespace {

// A monospace span's advance: as the book measured the font at that size, else as the span's
// last glyph measured it, else the share of an em that typewriter faces advance.
double font_advance(const Span& s, const BookStats& st, const LayoutOptions& o) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "@%.1f", s.size);
  auto it = st.mono_advance.find(s.font + buf);
  if (it != st.mono_advance.end() && it->second > 0) return it->second;
  if (s.last_advance > 0) return static_cast<double>(s.last_advance);
  return o.blocks.mono_advance_ratio * s.size;
}

// The faces of a listing (font at size) with their glyph counts, each span's face in order,
// and the face most of its glyphs are set in with that face's advance.
struct ListingFonts {
  std::map<std::string, std::pair<long, const Span*>> fonts;
  std::vector<const std::string*> span_font;  // each span's key in `fonts`, spans in order
  const std::string* main_font = nullptr;     // (keys are unique: the same key, the same string)
  double adv = 0;
};

// One advance for the whole listing: that of the font most of its glyphs are set in
// (margin line numbers and bold keywords may use other faces of other sizes).
ListingFonts listing_fonts(const std::vector<const Row*>& rows, const BookStats& st, const LayoutOptions& o) {
  ListingFonts lf;
  auto& fonts = lf.fonts;
  {
    const Span* prev = nullptr;
    decltype(lf.fonts)::value_type* entry = nullptr;
    for (const Row* r : rows)
      for (const auto* l : r->lines)
        for (const auto& s : l->spans) {
          // (Consecutive spans of a listing mostly share one font: its key is made once.)
          if (!prev || prev->font != s.font || typography::tenths_key(prev->size) != typography::tenths_key(s.size))
            entry = &*fonts.try_emplace(s.font + "@" + std::to_string(typography::tenths_key(s.size))).first;
          prev = &s;
          entry->second.first += static_cast<long>(utf8_length(s.text));
          entry->second.second = &s;
          lf.span_font.push_back(&entry->first);
        }
  }
  long most = -1;
  for (const auto& [k, f] : fonts)
    if (f.first > most) {
      most = f.first;
      lf.adv = font_advance(*f.second, st, o);
      lf.main_font = &k;
    }
  return lf;
}

// The listing's own advance where it has enough glyphs: a listing package may set every
// character in a fixed box wider than the font's natural advance, so the same font has
// different pitches in different listings.
// Measured from token start to token start across one space (a glyph may sit off
// centre in its cell, and the space cell is where the difference shows).
std::vector<double> own_advances(const std::vector<const Row*>& rows, const ListingFonts& lf) {
  std::vector<double> own;
  size_t span_index = 0;
  for (const Row* r : rows)
    for (const auto* l : r->lines)
      for (const auto& s : l->spans) {
        if (lf.span_font[span_index++] != lf.main_font) continue;
        auto cps = to_u32(s.text);
        if (s.xs.size() != cps.size()) continue;
        long prev_start = -1;
        for (size_t i = 0; i < cps.size(); ++i) {
          if (is_space_cp(cps[i]) || (i > 0 && !is_space_cp(cps[i - 1]))) continue;
          bool one_space = i >= 2 && !is_space_cp(cps[i - 2]);
          if (prev_start >= 0 && one_space)
            own.push_back((s.xs[i] - s.xs[prev_start]) / static_cast<double>(i - static_cast<size_t>(prev_start)));
          prev_start = static_cast<long>(i);
        }
      }
  return own;
}

// A short listing measures its own advance where that puts its glyphs on whole character
// cells, and the font's advance over the book does not: a listing package may set each
// character in a cell wider than the glyph, so that the glyphs of a word stand closer
// together than the cells. Of the listing's measures `own`, the one that fits best; else `adv`.
//
// Glyph positions are taken from the column's edge, as the columns are counted (a listing
// that goes on over a page break may stand at another margin there).
double best_fitting_cell(const std::vector<const Row*>& rows, const std::vector<double>& own, double adv,
                         const LayoutOptions& o) {
  std::vector<double> xs;
  for (const Row* r : rows)
    for (const auto* l : r->lines)
      for (const auto& s : l->spans)
        for (float x : s.xs) xs.push_back(x - r->col_left);
  const double base = xs.empty() ? 0 : *std::min_element(xs.begin(), xs.end());
  // Mean distance of the glyphs from the nearest cell start, in cells.
  auto misfit = [&](double cell) {
    if (xs.empty() || cell <= 0) return 1.0;
    double off = 0;
    for (double x : xs) {
      const double t = (x - base) / cell;
      off += std::fabs(t - std::round(t));
    }
    return off / static_cast<double>(xs.size());
  };
  // (Searched from the least to the greatest measure, the font's advance included, in
  // steps of a thousandth, or in 200 steps where the measures disagree more: the options
  // cell_search_fine_steps and cell_search_steps.)
  double lo = *std::min_element(own.begin(), own.end()), hi = *std::max_element(own.begin(), own.end());
  if (adv > 0) {
    lo = std::min(lo, adv);
    hi = std::max(hi, adv);
  }
  double best = 0, best_misfit = 1;
  const double step = std::max(lo / o.blocks.cell_search_fine_steps, (hi - lo) / o.blocks.cell_search_steps);
  for (double cell = lo; cell <= hi + 1e-9; cell += step)
    if (double m = misfit(cell); m < best_misfit) {
      best = cell;
      best_misfit = m;
    }
  if (best_misfit <= o.blocks.cell_misfit && (adv <= 0 || typography::less_than_half(best_misfit, misfit(adv))))
    return best;
  return adv;
}

// The listing's advance: its own measures where there are many, the best fitting of a few,
// else its main font's advance (or, with none, that of typewriter faces at the body size).
double listing_advance(const std::vector<const Row*>& rows, const BookStats& st, const LayoutOptions& o) {
  const ListingFonts lf = listing_fonts(rows, st, o);
  double adv = lf.adv;
  std::vector<double> own = own_advances(rows, lf);
  if (own.size() >= o.blocks.min_advance_samples) {
    auto mid = own.begin() + static_cast<std::ptrdiff_t>(own.size() / 2);
    std::nth_element(own.begin(), mid, own.end());
    adv = *mid;
  } else if (own.size() >= o.blocks.min_own_advance_samples) {
    adv = best_fitting_cell(rows, own, adv, o);
  }
  if (adv <= 0) adv = o.blocks.mono_advance_ratio * st.body_size;
  return adv;
}

// The most cells a listing's line or its blank lines run to: the largest page
// (typography::kWidestPage) in 2 pt type at half an em a cell, far more than any book sets.
// A distance measured past it (a glyph placed by a broken text matrix, a cell measured from
// garbage) is counted as this many cells, so that no line grows without bound.
constexpr long kMostCells = static_cast<long>(typography::kWidestPage / (0.5 * 2));

// `distance` in cells of `cell` points, to the nearest whole one, within ±kMostCells.
long cells(double distance, double cell) {
  const double n = distance / cell;
  if (!(n > -static_cast<double>(kMostCells))) return -kMostCells;  // (and NaN)
  if (n > static_cast<double>(kMostCells)) return kMostCells;
  return std::lround(n);
}

// floor(n), within 0..kMostCells.
long whole_cells(double n) {
  if (!(n > 0)) return 0;
  return n >= static_cast<double>(kMostCells) ? kMostCells : static_cast<long>(std::floor(n));
}

struct Glyph {
  long col;
  char32_t c;
  bool gap_before;  // white space before it in the source (a token boundary)
};

// How a listing row ending in a wrap mark goes on (code_text's `broken`).
constexpr char kBrokenInToken = 1;  // glued to the next row's first token
constexpr char kBrokenAtSpace = 2;  // a space between

// Each row's glyphs on the character grid: column = distance from the column's edge over
// the advance (a glyph without a recorded position stands one advance after the last).
// A glyph from a font not monospace (a result arrow from a symbol font, a comment set in
// roman) stands at its column of the grid, yet takes one column in the text whatever its
// width: its source is one character, and the typesetter pushed what follows on the line by
// the difference. So what follows it is counted from its end: the next glyph stands as many
// advances after it as the gap between them measures, and the grid goes on from there.
// `base` receives the leftmost first column of a row (the listing's left edge), 0 for none.
// A row that continues the line above (`continues`) leaves its wrap mark out, and so does a
// row the next goes on from (`broken`: its mark at its end); a row that goes on from one
// broken inside a token starts glued to it, as after a leading mark.
std::vector<std::vector<Glyph>> glyph_grid(const std::vector<const Row*>& rows, double adv, long& base,
                                           const std::vector<char>& continues, const std::vector<char>& broken) {
  std::vector<std::vector<Glyph>> glyphs(rows.size());
  base = LONG_MAX;
  for (size_t r = 0; r < rows.size(); ++r) {
    const Row& row = *rows[r];
    const size_t spans = span_count(row.lines);
    const bool fonts_known = row.span_fonts.size() == spans;
    size_t span_index = 0;
    // Where the grid is counted from: a point and its column (the column's edge at first,
    // then the first glyph after a foreign one).
    double origin = row.col_left;
    long origin_col = 0;
    // The last glyph placed was foreign: its column and where it ends.
    bool after_foreign = false;
    long foreign_col = 0;
    double foreign_end = 0;
    bool gap = true;
    size_t skip = continues[r] ? row.wrap_mark : 0;  // the wrap mark's spans
    // Spans from here on are the trailing wrap mark's.
    const size_t mark_from = broken[r] ? spans - row.wrap_mark_end : spans;
    const bool glued = r > 0 && broken[r - 1] == kBrokenInToken;  // on from a trailing mark
    for (const Line* l : row.lines) {
      gap = !(glued && l == row.lines.front());  // each line is its own run of tokens
      const Span* prev = nullptr;
      for (const auto& s : l->spans) {
        const bool foreign = fonts_known && !(row.span_fonts[span_index] & kSpanMono);
        if (span_index++ >= mark_from) break;
        if (skip > 0) {  // (what follows the mark is counted as after any glyph)
          --skip;
          prev = &s;
          gap = false;
          continue;
        }
        if (prev && spans_apart(*prev, s)) gap = true;  // as Line::text() sets them apart
        prev = &s;
        auto cps = to_u32(s.text);
        const bool placed = s.xs.size() == cps.size();
        double x = s.bbox.x0;
        for (size_t i = 0; i < cps.size(); ++i) {
          if (placed) x = s.xs[i];
          else if (i > 0) x += adv;
          if (is_space_cp(cps[i])) {
            gap = true;
            continue;
          }
          long col;
          if (after_foreign) {
            col = foreign_col + 1 + std::max(0L, cells(x - foreign_end, adv));
            origin = x;
            origin_col = col;
          } else {
            col = origin_col + cells(x - origin, adv);
          }
          after_foreign = foreign;
          if (foreign) {
            foreign_col = col;
            const double width = placed && i + 1 < cps.size() ? s.xs[i + 1] - x
                                 : i + 1 == cps.size() && s.last_advance > 0 ? s.last_advance
                                 : i + 1 == cps.size() ? s.bbox.x1 - x
                                                       : adv;
            foreign_end = x + width;
          }
          glyphs[r].push_back({col, cps[i], gap});
          gap = false;
        }
      }
    }
    if (!glyphs[r].empty() && !continues[r]) base = std::min(base, glyphs[r].front().col);
  }
  if (base == LONG_MAX) base = 0;
  return glyphs;
}

// Line pitch of the listing: the usual baseline distance between consecutive rows (going
// down the page: a listing continued in the next column starts higher up), 0 for none.
double listing_pitch(const std::vector<const Row*>& rows, const LayoutOptions& o) {
  std::vector<double> pitches;
  for (size_t r = 1; r < rows.size(); ++r)
    if (rows[r]->page == rows[r - 1]->page && rows[r]->baseline > rows[r - 1]->baseline)
      pitches.push_back(rows[r]->baseline - rows[r - 1]->baseline);
  if (pitches.empty()) return 0;
  double mn = *std::min_element(pitches.begin(), pitches.end());
  std::vector<double> near;
  for (double p : pitches)
    if (p <= mn * o.blocks.code_pitch_spread) near.push_back(p);
  auto mid = near.begin() + static_cast<std::ptrdiff_t>(near.size() / 2);
  std::nth_element(near.begin(), mid, near.end());
  return *mid;
}

// Blank lines between two consecutive rows of a listing: each is one more line pitch of
// vertical space.
long blank_lines_between(const Row& above, const Row& row, double pitch, const BookStats& st,
                         const LayoutOptions& o) {
  long extra = 0;
  if (pitch > 0 && row.page == above.page) {
    extra = cells(row.baseline - above.baseline, pitch) - 1;
  } else if (pitch > 0) {
    // At a page break, blank lines show as room left at the foot of the text block
    // and room above the first line of the next page.
    auto bottom = st.text_bottom.find(above.page % 2);
    auto top = st.text_top.find(row.page % 2);
    if (bottom != st.text_bottom.end() && above.nothing_below)
      extra += whole_cells((bottom->second - above.baseline) / pitch + o.blocks.code_page_room_round);
    if (top != st.text_top.end() && row.nothing_above)
      extra += whole_cells((row.baseline - top->second) / pitch + o.blocks.code_page_room_round);
  }
  return extra;
}

}  // namespace

std::string code_text(const std::vector<const Row*>& rows, const BookStats& st, const LayoutOptions& o,
                      std::vector<HyphenJoin>& log) {
  if (rows.empty()) return {};
  const double adv = listing_advance(rows, st, o);
  // Rows that go on with the line above: led by a wrap mark, under a row of the listing; or
  // under a row that ends in one (`broken`) and is as wide as the listing's widest on its
  // page, within two ems (a line is broken where it is full: the glyph that did not fit and
  // the mark). Where such a line went on at a space of the source: a blank cell more before its mark
  // than the book's fewest (BookStats::wrap_mark_blank, the mark's own spacing), or, where a
  // space too many for the line was dropped, letters or digits on both sides (an identifier
  // is broken only where it is longer than the line). Elsewhere it broke inside a token.
  std::vector<char> continues(rows.size(), 0), broken(rows.size(), 0);
  std::map<int, double> widest;  // page -> the right edge of the listing's widest row there
  for (const Row* row : rows) widest[row->page] = std::max(widest[row->page], row->bbox.x1);
  for (size_t r = 0; r + 1 < rows.size(); ++r) {
    const Row& row = *rows[r];
    if (row.wrap_mark_end == 0 || row.bbox.x1 < widest[row.page] - 2 * row.size) continue;
    const long blank = std::lround(wrap_mark_blank(row.lines, row.wrap_mark_end, adv));
    const long own = st.wrap_mark_blank >= 0 ? std::lround(st.wrap_mark_blank) : blank;
    const std::u32string before =
        to_u32(row_span(row.lines, span_count(row.lines) - row.wrap_mark_end - 1).text);
    const std::u32string after = to_u32(rows[r + 1]->text);
    const auto first = std::find_if(after.begin(), after.end(), [](char32_t c) { return !is_space_cp(c); });
    // (Listings count the underscore among an identifier's letters.)
    auto word_cp = [](char32_t c) { return is_word_cp(c) || c == U'_'; };
    const bool space_set = !before.empty() && is_space_cp(before.back());
    const bool words = !before.empty() && first != after.end() && word_cp(before.back()) && word_cp(*first);
    broken[r] = blank > own || space_set || words ? kBrokenAtSpace : kBrokenInToken;
  }
  for (size_t r = 1; r < rows.size(); ++r) continues[r] = rows[r]->wrap_mark > 0 || broken[r - 1];
  long base = 0;
  const std::vector<std::vector<Glyph>> glyphs = glyph_grid(rows, adv, base, continues, broken);
  const double pitch = listing_pitch(rows, o);
  std::string out;
  for (size_t r = 0; r < rows.size(); ++r) {
    long cur = 0;
    size_t first = 0;  // the first glyph set by column
    if (continues[r]) {
      // The line goes on: its wrap mark and the line break come out, and a break taken at a
      // space, printed as a visible space, is that space again. Logged as a join: the broken
      // line's last token and the mark's token make way for the text they stand for.
      const size_t ws = out.find_last_of(" \n");
      const size_t token_start = ws == std::string::npos ? 0 : ws + 1;
      HyphenJoin j;
      j.page = rows[r - 1]->page;
      j.before = out.substr(token_start);
      if (broken[r - 1]) {
        // The mark ends the broken line's last token, or is a token of its own after it.
        const std::vector<std::string> above = whitespace_tokens(rows[r - 1]->text);
        if (!above.empty() && is_trailing_wrap_mark(to_u32(above.back()))) j.before += " " + above.back();
        else if (!above.empty()) j.before = above.back();
      }
      const std::vector<std::string> source = whitespace_tokens(rows[r]->text);
      if (!source.empty()) j.after = source.front();
      std::string visible_space;
      append_utf8(visible_space, kVisibleSpace);
      if (out.size() > token_start && out.ends_with(visible_space)) {
        out.resize(out.size() - visible_space.size());
        out += ' ';
      }
      // The continuation's first token: glued to the broken line unless a space leads it
      // (then the mark stood alone, and the token is a word of its own in the source too).
      const bool spaced = !glyphs[r].empty() && glyphs[r][0].gap_before;
      if (spaced && !out.empty() && out.back() != ' ') out += ' ';
      if (spaced) j.joined = out.substr(token_start);
      if (!glyphs[r].empty()) {
        do append_utf8(out, glyphs[r][first++].c);
        while (first < glyphs[r].size() && !glyphs[r][first].gap_before);
        cur = glyphs[r][first - 1].col - base + 1;
      }
      if (!spaced) j.joined = out.substr(token_start);
      if (broken[r - 1] == kBrokenAtSpace) {
        // The mark alone goes: the broken line's last token stands for itself and the mark,
        // and the next line's first token for itself.
        j.joined = out.substr(token_start, out.find(' ', token_start) - token_start);
        j.after.clear();
      }
      log.push_back(std::move(j));
    } else if (r > 0) {
      out += '\n';
      const long extra = blank_lines_between(*rows[r - 1], *rows[r], pitch, st, o);
      for (long k = 0; k < extra; ++k) out += '\n';
    }
    for (size_t i = first; i < glyphs[r].size(); ++i) {
      const Glyph& g = glyphs[r][i];
      long target = std::min(g.col - base, kMostCells);
      long pad = 0;
      if (i == 0) pad = std::max(0L, target);
      // Spaces only where the source has a token boundary, so tokens never split or merge.
      else if (g.gap_before) pad = std::max(1L, target - cur);
      out.append(static_cast<size_t>(pad), ' ');
      append_utf8(out, g.c);
      cur += pad + 1;
    }
  }
  return out;
}

}  // namespace quire::detail
