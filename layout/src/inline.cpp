// Inline styles and links of a block: its text matched back, character by character, to the
// glyphs it was made from, which carry their font and stand under the page's link annotations.
#include <algorithm>
#include <cctype>
#include <tuple>

#include "internal.h"
#include "quire/text.h"
#include "quire/typography.h"

namespace quire::detail {

namespace {

// A character of the block's rows as the page sets it.
struct Glyph {
  char32_t c = 0;
  uint8_t font = 0;  // kSpan* bits
  int link = -1;     // index in the block's link keys, -1 for none
};

// Where a link leads: a URI, or a page and y for an internal one.
using LinkKey = std::tuple<std::string, int, double>;

// A letter or digit: what an emphasis starts and ends with (CommonMark's flanking rules make
// `*` beside punctuation ambiguous, and a reader does not see a comma as emphasised).
bool word_cp(char32_t c) {
  if (c < 0x80) return (c >= U'0' && c <= U'9') || (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z');
  return !is_space_cp(c) && !(c >= 0xA0 && c <= 0xBF) && c != 0xD7 && c != 0xF7 && !(c >= 0x2000 && c <= 0x2BFF) &&
         !(c >= 0x3000 && c <= 0x303F) && !(c >= 0xFE10 && c <= 0xFE6F) && !(c >= 0xFF00 && c <= 0xFF0F);
}

// Punctuation that ends a sentence or a clause after a word: outside a code run.
bool clause_end(char32_t c) { return c == U',' || c == U'.' || c == U';' || c == U':'; }

// Punctuation around a link's words that the annotation's box may take in with them.
bool link_edge(char32_t c, bool leading) {
  if (leading) return c == U'(' || c == U'[' || c == 0x201C || c == 0x2018 || c == U'"';
  return clause_end(c) || c == U')' || c == U']' || c == 0x201D || c == 0x2019 || c == U'"';
}

// The glyphs of the rows, spaces left out (the block's text sets its own), each with its
// font and the link annotation its centre lies in.
std::vector<Glyph> row_glyphs(const std::vector<RowLine>& lines, std::vector<LinkKey>& keys) {
  std::vector<Glyph> out;
  std::u32string cps;
  for (const auto& [r, line] : lines) {
    // (The row's span fonts count its lines' spans in order.)
    size_t k = 0;
    for (const Line* l : r->lines) {
      if (l == line) break;
      k += l->spans.size();
    }
    for (const Span& s : line->spans) {
      const uint8_t font = k < r->span_fonts.size() ? r->span_fonts[k] : 0;
      ++k;
      to_u32(s.text, cps);
      for (size_t i = 0; i < cps.size(); ++i) {
        if (is_space_cp(cps[i])) continue;
        Glyph g{cps[i], font, -1};
        if (!r->links.empty()) {
          // The glyph's centre: from its own x where the engine gives it, else its share
          // of the span's width.
          double x0 = s.bbox.x0 + s.bbox.width() * static_cast<double>(i) / static_cast<double>(cps.size());
          double x1 = s.bbox.x0 + s.bbox.width() * static_cast<double>(i + 1) / static_cast<double>(cps.size());
          if (s.xs.size() == cps.size()) {
            x0 = s.xs[i];
            x1 = i + 1 < cps.size() ? s.xs[i + 1] : (s.last_advance > 0 ? s.xs[i] + s.last_advance : s.bbox.x1);
          }
          const double x = (x0 + x1) / 2, y = (s.bbox.y0 + s.bbox.y1) / 2;
          for (const auto& a : r->links)
            if (x >= a.bbox.x0 && x <= a.bbox.x1 && y >= a.bbox.y0 && y <= a.bbox.y1) {
              LinkKey key{a.uri, a.uri.empty() ? a.page : 0, a.uri.empty() ? a.y : -1};
              auto it = std::find(keys.begin(), keys.end(), key);
              g.link = static_cast<int>(it - keys.begin());
              if (it == keys.end()) keys.push_back(std::move(key));
              break;
            }
        }
        out.push_back(g);
      }
    }
  }
  return out;
}

// Runs of code points of `text` that share a non-negative value of `of` (per code point; -1
// for none), made of whole words: a run goes on over spaces only where the characters on both
// sides share the value. Returns [from, to, value) triples.
std::vector<std::tuple<size_t, size_t, int>> runs(const std::u32string& text, const std::vector<int>& of) {
  std::vector<std::tuple<size_t, size_t, int>> out;
  size_t i = 0;
  while (i < text.size()) {
    if (is_space_cp(text[i]) || of[i] < 0) {
      ++i;
      continue;
    }
    const int v = of[i];
    size_t end = i + 1;  // one past the last character of the run
    size_t j = i + 1;
    while (j < text.size()) {
      if (is_space_cp(text[j])) {
        ++j;
        continue;
      }
      if (of[j] != v) break;
      end = ++j;
    }
    out.emplace_back(i, end, v);
    i = end;
  }
  return out;
}

// Each character of the text takes the glyph it was made from: the text holds the glyphs'
// characters in order, less the hyphens of joined words (and note marks), so the next
// glyph with the same character, a few on at most, is its own. Fills each character's font
// bits and link key index (-1: none).
void match_glyphs(const std::u32string& text, const std::vector<Glyph>& glyphs, const LayoutOptions& o,
                  std::vector<int>& font, std::vector<int>& link) {
  size_t g = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (is_space_cp(text[i])) continue;
    for (size_t k = g; k < glyphs.size() && k < g + o.styles.inline_match_window; ++k)
      if (glyphs[k].c == text[i]) {
        font[i] = glyphs[k].font;
        link[i] = glyphs[k].link;
        g = k + 1;
        break;
      }
  }
}

// A word of the text (a code point range) and the font bits most of its characters carry.
struct Word {
  size_t from, to;
  uint8_t font;
  size_t line;  // line of the text (a table's row)
};

// The words of the text: a word's style is that of most of its letters (a word's glyphs
// are set in one font; a stray glyph of another face is a symbol the font lacks).
std::vector<Word> text_words(const std::u32string& text, const std::vector<int>& font) {
  std::vector<Word> ws;
  size_t line = 0;
  for (size_t i = 0; i < text.size();) {
    if (is_space_cp(text[i])) {
      line += text[i] == U'\n';
      ++i;
      continue;
    }
    size_t j = i, matched = 0;
    int count[kSpanFaceBits] = {0, 0, 0};
    for (; j < text.size() && !is_space_cp(text[j]); ++j) {
      if (font[j] < 0) continue;
      ++matched;
      for (int bit = 0; bit < kSpanFaceBits; ++bit) count[bit] += (font[j] >> bit) & 1;
    }
    uint8_t f = 0;
    for (int bit = 0; bit < kSpanFaceBits; ++bit)
      if (matched > 0 && typography::more_than_half(static_cast<size_t>(count[bit]), matched))
        f |= static_cast<uint8_t>(1 << bit);
    ws.push_back({i, j, f, line});
    i = j;
  }
  return ws;
}

// A font a run of words shares with the block is the block's own, not a style: where most
// of the other words are set in it too (a listing's line in an item, a table of commands),
// or where the run is most of the block and bold or italic (a heading, a glossary term, an
// epigraph) or the block is a heading, and opens or closes the block, but not in an item
// after a marker in another font (the item's title, "2. Header line"). A short item set in
// monospace (naming an option) is code. A table's row set wholly bold or italic is its
// header. A note's printed title ("Note", "Tip:") opening the block in bold or italic is its
// title. Each word's font bits that are the block's own.
std::vector<uint8_t> own_fonts(const std::u32string& text, const std::vector<Word>& ws, BlockType type,
                               const LayoutOptions& o) {
  uint8_t keep_mask[kSpanFaceBits] = {kSpanMono, kSpanBold, kSpanItalic};
  std::vector<uint8_t> cleared(ws.size(), 0);
  for (int bit = 0; bit < kSpanFaceBits; ++bit) {
    const uint8_t m = keep_mask[bit];
    const auto styled = static_cast<size_t>(std::count_if(ws.begin(), ws.end(), [&](const Word& w) { return w.font & m; }));
    for (size_t i = 0; i < ws.size();) {
      if (!(ws[i].font & m)) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < ws.size() && (ws[j].font & m)) ++j;
      const size_t run = j - i, others = ws.size() - run;
      const size_t styled_others = styled - run;  // (every word of the run is styled)
      const bool throughout =
          others >= o.styles.own_font_min_others &&
          static_cast<double>(styled_others) >= o.styles.own_font_share * static_cast<double>(others);
      // An item's text set in bold or italic after a marker that is not is the item's
      // title ("2. Header line" over its text): the marker's font is the item's own.
      const bool after_plain_marker = type == BlockType::ListItem && i == 1 && !(ws[0].font & m);
      // (A run with plain words on both sides is set apart inside the block: a book's title
      // in a reference, "(1998) Programming with Data. A Guide to the S Language. Springer".)
      const bool inside = i > 0 && j < ws.size();
      const bool most = (bit != 0 || type == BlockType::Heading) && !after_plain_marker && !inside &&
                        static_cast<double>(run) >= o.styles.own_font_share * static_cast<double>(ws.size());
      if (throughout || most)
        for (size_t k = i; k < j; ++k) cleared[k] |= m;
      i = j;
    }
  }
  // A heading is set in its own face throughout, but a code span in it ("9.1.1 dpkg-dev",
  // "4.9.2 The dak ls utility") keeps the typewriter face, which often has no bold or italic:
  // the code neither breaks the heading's run of its face nor counts among the words that
  // could carry it. Not in a heading mostly of code, whose italics are placeholders
  // ("try body catch cleanup end"), nor in other blocks, where a bold term before code
  // ("ROracle (URL)") is a style.
  if (type == BlockType::Heading)
    for (uint8_t m : {kSpanBold, kSpanItalic}) {
      auto code_only = [&](const Word& w) { return (w.font & kSpanMono) && !(w.font & m); };
      const size_t faced =
          ws.size() - static_cast<size_t>(std::count_if(ws.begin(), ws.end(), code_only));
      if (faced < ws.size() - faced) continue;
      for (size_t i = 0; i < ws.size();) {
        if (!(ws[i].font & m)) {
          ++i;
          continue;
        }
        size_t j = i + 1, end = i + 1, styled = 1;  // the run [i, end) over code spans
        while (j < ws.size() && ((ws[j].font & m) || code_only(ws[j]))) {
          if (ws[j].font & m) {
            ++styled;
            end = j + 1;
          }
          ++j;
        }
        if (static_cast<double>(styled) >= o.styles.own_font_share * static_cast<double>(faced))
          for (size_t k = i; k < end; ++k) cleared[k] |= m;
        i = end;
      }
    }
  if (type == BlockType::Table)
    for (size_t i = 0; i < ws.size();) {
      size_t j = i;
      uint8_t all = kSpanBold | kSpanItalic;
      while (j < ws.size() && ws[j].line == ws[i].line) all &= ws[j++].font;
      for (size_t k = i; k < j; ++k) cleared[k] |= all;
      i = j;
    }
  if (!ws.empty() && (ws[0].font & (kSpanBold | kSpanItalic))) {
    std::string first;
    for (size_t k = ws[0].from; k < ws[0].to; ++k)
      if (text[k] < 0x80 && text[k] != U':' && text[k] != U'.') first += static_cast<char>(std::tolower(static_cast<int>(text[k])));
    for (std::string_view title : typography::kNoteTitleWords)
      if (first == title) cleared[0] |= kSpanBold | kSpanItalic;
  }
  return cleared;
}

// The block's style runs. Monospace first, then bold, then italic; inside code, bold or
// italic letters (a placeholder set in italic typewriter, "package_name") are a run of their
// own within the code run. Emphasis starts and ends on a word character (a reader does not
// see a comma as emphasised); a sentence's comma or full stop after code is not code.
void add_styles(Block& b, const std::u32string& text, const std::vector<Word>& ws, const std::vector<int>& font,
                const std::vector<uint8_t>& cleared) {
  std::vector<int> style(text.size(), -1), inner(text.size(), -1);
  bool styled = false, nesting = false;  // (without either, runs has nothing to find)
  for (size_t w = 0; w < ws.size(); ++w)
    for (size_t i = ws[w].from; i < ws[w].to; ++i) {
      if (font[i] < 0) continue;
      const int f = font[i] & ~cleared[w];
      const int face = (f & kSpanBold)     ? static_cast<int>(InlineStyle::Strong)
                       : (f & kSpanItalic) ? static_cast<int>(InlineStyle::Emphasis)
                                           : -1;
      if (f & kSpanMono) {
        style[i] = static_cast<int>(InlineStyle::Code);
        inner[i] = face;
      } else {
        style[i] = face;
      }
      styled = styled || style[i] >= 0;
      nesting = nesting || inner[i] >= 0;
    }
  if (!styled) return;  // (a character with an inner face has a style too)
  std::vector<StyleRun> nested;
  if (nesting) {
    for (auto [from, to, v] : runs(text, inner)) {
      while (from < to && !word_cp(text[from])) ++from;
      while (to > from && !word_cp(text[to - 1])) --to;
      if (from < to) nested.push_back({from, to - from, static_cast<InlineStyle>(v)});
    }
  }
  for (auto [from, to, v] : runs(text, style)) {
    const auto st = static_cast<InlineStyle>(v);
    if (st == InlineStyle::Code) {
      // A comma or full stop after a word in code is the sentence's.
      while (to > from + 1 && clause_end(text[to - 1]) && (to == text.size() || is_space_cp(text[to]))) --to;
    } else {
      while (from < to && !word_cp(text[from])) ++from;
      while (to > from && !word_cp(text[to - 1])) --to;
    }
    if (from >= to) continue;
    // Emphases that touch are one (CommonMark cannot tell `*a***b**` apart).
    if (st != InlineStyle::Code && !b.styles.empty()) {
      StyleRun& last = b.styles.back();
      if (last.style != InlineStyle::Code && last.at + last.len == from) {
        last.len = to - last.at;
        continue;
      }
    }
    b.styles.push_back({from, to - from, st});
  }
  // (A nested run lies in its code run, which a comma after the code never shortens past a
  // word character; in text order, after the code run that holds it.)
  for (const StyleRun& r : nested) {
    auto in = std::find_if(b.styles.begin(), b.styles.end(), [&](const StyleRun& c) {
      return c.style == InlineStyle::Code && c.at <= r.at && r.at + r.len <= c.at + c.len;
    });
    if (in == b.styles.end()) continue;
    auto at = in + 1;
    while (at != b.styles.end() && at->at <= r.at && at->at + at->len <= in->at + in->len) ++at;
    b.styles.insert(at, r);
  }
}

// A link's run [from, to) less the punctuation around it that the annotation's box took in
// with its words: brackets around all of them, and the sentence's punctuation at its ends.
void trim_link(const std::u32string& text, size_t& from, size_t& to) {
  // (A bracket that closes one opened in the link's words is theirs: "Reference (2.100)".)
  auto opened = [&](size_t a, size_t z, char32_t open, char32_t close) {
    long depth = 0;
    for (size_t k = a; k < z; ++k) depth += text[k] == open ? 1 : text[k] == close ? -1 : 0;
    return depth;
  };
  // A pair of brackets around all the link's words is the sentence's.
  auto encloses = [&](char32_t open, char32_t close) {
    if (to - from < 2 || text[from] != open || text[to - 1] != close) return false;
    long depth = 0;
    for (size_t k = from + 1; k + 1 < to; ++k) {
      depth += text[k] == open ? 1 : text[k] == close ? -1 : 0;
      if (depth < 0) return false;
    }
    return depth == 0;
  };
  while (encloses(U'(', U')') || encloses(U'[', U']')) ++from, --to;
  while (from < to && link_edge(text[from], true) && !(text[from] == U'(' && opened(from, to, U'(', U')') == 0) &&
         !(text[from] == U'[' && opened(from, to, U'[', U']') == 0))
    ++from;
  while (to > from && link_edge(text[to - 1], false) && !(text[to - 1] == U')' && opened(from, to, U'(', U')') == 0) &&
         !(text[to - 1] == U']' && opened(from, to, U'[', U']') == 0))
    --to;
}

// The block's links: runs of words under one annotation; an internal one also as a target.
void add_links(Block& b, const std::u32string& text, const std::vector<int>& link, const std::vector<LinkKey>& keys) {
  if (keys.empty()) return;  // (no glyph under a link: no run)
  for (auto [from, to, v] : runs(text, link)) {
    trim_link(text, from, to);
    if (from >= to) continue;
    const auto& [uri, page, y] = keys[static_cast<size_t>(v)];
    if (!uri.empty()) {
      b.links.push_back({from, to - from, uri});
    } else {
      b.targets.push_back({b.links.size(), page, y});
      b.links.push_back({from, to - from, ""});
    }
  }
}

}  // namespace

void find_inline(Block& b, const std::vector<const Row*>& rs, const LayoutOptions& o) {
  std::vector<RowLine> lines;
  for (const Row* r : rs)
    for (const Line* l : r->lines) lines.emplace_back(r, l);
  find_inline(b, lines, o);
}

void find_inline(Block& b, const std::vector<RowLine>& lines, const LayoutOptions& o) {
  if (b.type == BlockType::Code || b.type == BlockType::Figure || b.text.empty()) return;
  // Rows set wholly in the plain face, under no link annotation, give no run: most of a
  // book's paragraphs, which need not be read glyph by glyph.
  const bool plain = std::all_of(lines.begin(), lines.end(), [](const RowLine& rl) {
    const Row* r = rl.first;
    return r->links.empty() && std::all_of(r->span_fonts.begin(), r->span_fonts.end(), [](uint8_t f) { return f == 0; });
  });
  if (plain) return;
  std::vector<LinkKey> keys;
  const std::vector<Glyph> glyphs = row_glyphs(lines, keys);
  const std::u32string text = to_u32(b.text);
  std::vector<int> font(text.size(), -1), link(text.size(), -1);
  match_glyphs(text, glyphs, o, font, link);
  const std::vector<Word> ws = text_words(text, font);
  const std::vector<uint8_t> cleared = own_fonts(text, ws, b.type, o);
  add_styles(b, text, ws, font, cleared);
  add_links(b, text, link, keys);
}

void remap_inline(Block& b, const std::string& before) {
  if (b.styles.empty() && b.links.empty()) return;
  const std::u32string was = to_u32(before), now = to_u32(b.text);
  // Each character of `before` that is still there, where it is now (npos: taken out).
  std::vector<size_t> to(was.size() + 1, std::string::npos);
  size_t j = 0;
  for (size_t i = 0; i < was.size(); ++i)
    if (j < now.size() && was[i] == now[j]) to[i] = j++;
  to[was.size()] = now.size();
  auto span = [&](size_t& at, size_t& len) {
    size_t from = at, end = at + len;
    while (from < end && to[from] == std::string::npos) ++from;
    while (end > from && to[end - 1] == std::string::npos) --end;
    if (from >= end) return false;
    at = to[from];
    len = to[end - 1] + 1 - at;
    return true;
  };
  std::erase_if(b.styles, [&](StyleRun& r) { return !span(r.at, r.len); });
  std::vector<TextLink> links;
  std::vector<Block::Target> targets;
  for (size_t i = 0; i < b.links.size(); ++i) {
    TextLink l = b.links[i];
    if (!span(l.at, l.len)) continue;
    for (const auto& t : b.targets)
      if (t.link == i) targets.push_back({links.size(), t.page, t.y});
    links.push_back(std::move(l));
  }
  b.links = std::move(links);
  b.targets = std::move(targets);
}

}  // namespace quire::detail
