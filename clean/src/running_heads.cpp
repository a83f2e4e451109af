// Running heads and page numbers, found from the whole book.
//
// Evidence, not fixed margins:
//  * A row is the set of lines in the head (or foot) band that share one baseline: a head and
//    its folio are often separate lines on one baseline ("Chapter 1: Introduction ... 5").
//  * A slot is one baseline position in a band, the same across pages (folios and heads are
//    placed by the page style, so they sit at one y on every page that has them).
//  * A page number is a number at the start or end of a row that equals the page's label, or
//    whose offset from the page index (index - number) is shared by a run of pages: folios
//    follow the page sequence, arabic and roman each with their own offset.
//  * A running head is a row whose text, digits and roman numerals masked, recurs in its slot
//    (a chapter head recurs within its chapter, even and odd pages each with their own head),
//    or any row of normal size in a slot that is mostly furniture (a section head used once,
//    on the odd page beside the folio).
// A chapter opening page has no row in the head slot (its title sits lower and larger); a body
// line near the top sits in the first body line's slot, which is full of varied text; a
// section heading at the top of a page does not recur and is larger than the body: all stay.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "quire/typography.h"

namespace quire::clean_detail {

namespace {

// `t` with the letters OCR takes for digits read as those digits ("ii" -> "11", "1O" ->
// "10"), when it holds such a letter and nothing but digits besides; empty otherwise.
std::string ocr_digits(std::string_view t) {
  std::string out;
  bool letter = false;
  for (char c : t) {
    if (c >= '0' && c <= '9') out += c;
    else if (c == 'i' || c == 'l' || c == 'I' || c == '|') out += '1', letter = true;
    else if (c == 'o' || c == 'O') out += '0', letter = true;
    else return {};
  }
  return letter ? out : std::string();
}

struct NumberCandidate {
  ParsedNumber number;
  std::string token;
  bool at_start = false;
  bool label_match = false;
};

struct Row {
  size_t page = 0;   // index into doc.pages
  bool top = true;
  double key = 0;    // distance of the baseline from its edge of the page
  double base = 0;   // baseline y
  std::vector<size_t> lines;  // indexes into the page's lines, left to right
  std::string text;
  // whitespace_tokens(text): views into `text` when it is ASCII (splitting is all that
  // whitespace_tokens does to ASCII), else into `owned_tokens`. One allocation per row
  // instead of one per word.
  std::vector<std::string_view> tokens;
  std::vector<std::string> owned_tokens;
  double max_size = 0;
  bool number_only = false;
  bool decorated = false;  // the number and decoration only: "-4-", "— 4 —" (see decorated())
  std::string counted;     // the number of a folio with its count ("12 / 233"; see counted_folio())
  std::vector<NumberCandidate> candidates;
  std::optional<NumberCandidate> folio;  // the candidate accepted as the page number
  // A footnote: the row opens with a raised note mark ("5 http://..."). The same note can
  // stand at the foot of several pages, its mark masked like a folio, and a running foot
  // carries no note mark: the row is text, and its number no folio.
  bool note = false;
  // The lines of its band printed over its lines, or under them (a browser prints a fixed
  // element on every page over the text that stands there); at one baseline the two are rows
  // of their own, not one row. Indexes into the page's lines.
  std::vector<size_t> overprints;
  bool layered = false;  // one of two layers or more at its baseline (see overprint_layers)
  std::string signature;                 // text without the folio, masked
  size_t folio_index = std::string::npos;  // the folio's index in tokens
  int slot = -1;
};

// The word a chapter or part opener prints over its number ("CHAPTER" over "ONE"), alone on
// its row: it stands at one place on every opening page, as a head does, but it is the
// heading's, and no head is that word alone.
bool opener_word_alone(const std::vector<std::string_view>& tokens) {
  if (tokens.size() != 1) return false;
  static const std::string_view words[] = {"Chapter", "CHAPTER", "Part", "PART", "Appendix", "APPENDIX"};
  return std::find(std::begin(words), std::end(words), tokens[0]) != std::end(words);
}

bool has_alnum(std::string_view t) {
  for (unsigned char c : t)
    if (std::isalnum(c) || c >= 0x80) return true;
  return false;
}

// A folio's number inside the decoration set around it with no space: "-4-" (groff's
// default page header), "(iv)", "[12]", "—7—". Only a number with decoration on both sides
// is unwrapped: "4." or "(4" is left as it is (a list or an equation number).
std::string_view folio_core(std::string_view t) {
  auto opener = [](std::string_view s) -> size_t {
    if (s.empty()) return 0;
    if (s.substr(0, 3) == "\u2013" || s.substr(0, 3) == "\u2014") return 3;  // en and em dash
    const char c = s.front();
    return c == '-' || c == '(' || c == '[' || c == '<' || c == '|' || c == '*' || c == '~' ? 1 : 0;
  };
  auto closer = [](std::string_view s) -> size_t {
    if (s.size() >= 3 && (s.substr(s.size() - 3) == "\u2013" || s.substr(s.size() - 3) == "\u2014")) return 3;
    if (s.empty()) return 0;
    const char c = s.back();
    return c == '-' || c == ')' || c == ']' || c == '>' || c == '|' || c == '*' || c == '~' ? 1 : 0;
  };
  size_t front = 0, back = t.size();
  while (size_t n = opener(t.substr(front, back - front))) front += n;
  if (front == 0) return t;
  const size_t opened = front;
  while (back > front)
    if (size_t n = closer(t.substr(front, back - front))) back -= n;
    else break;
  if (back == t.size() || back <= opened) return t;
  return t.substr(front, back - front);
}

// A row that is its number and decoration only: the number's token is wrapped ("-4-") or
// the other tokens are dashes, bars, dots or brackets ("— 4 —", "| 4 |").
bool decorated(const Row& r) {
  static constexpr std::string_view kMarks[] = {"-", "\u2013", "\u2014", "|", "\u00b7", "\u2022", "[", "]",
                                                "(", ")", "<", ">", "*", "~"};
  auto mark_only = [](std::string_view t) {
    while (!t.empty()) {
      bool cut = false;
      for (std::string_view m : kMarks)
        if (t.substr(0, m.size()) == m) {
          t.remove_prefix(m.size());
          cut = true;
          break;
        }
      if (!cut) return false;
    }
    return true;
  };
  bool wrapped = false, others = false;
  for (std::string_view t : r.tokens) {
    if (has_alnum(t)) {
      wrapped = folio_core(t) != t;
      continue;
    }
    if (!mark_only(t)) return false;
    others = true;
  }
  return wrapped || others;
}

// A folio with the count of pages beside it: "12 / 233", "12 of 233", "Page 12 of 233". The
// folio (at least 1), then a slash, a bar or a short lower-case word ("of", "von", "de"),
// then the count, no smaller than the folio; before the folio at most one word of letters
// ("Page", "p."). Returns the index of the folio's token, npos when the row is not so. (The
// count is no folio of its own: it is the same on every page.)
size_t counted_folio(const std::vector<std::string_view>& tokens, int max_digits) {
  constexpr size_t kNone = std::string_view::npos;
  const size_t n = tokens.size();
  if (n != 3 && n != 4) return kNone;
  const size_t at = n - 3;
  if (at == 1) {
    std::string_view w = tokens[0];
    if (!w.empty() && w.back() == '.') w.remove_suffix(1);
    if (w.empty() || !std::all_of(w.begin(), w.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
      return kNone;
  }
  const std::string_view sep = tokens[at + 1];
  const bool joins = sep == "/" || sep == "|" ||
                     (sep.size() <= 3 && std::all_of(sep.begin(), sep.end(), [](char c) { return c >= 'a' && c <= 'z'; }));
  const auto folio = parse_arabic(tokens[at], max_digits), count = parse_arabic(tokens[at + 2], max_digits);
  if (!joins || !folio || !count || *folio < 1 || *folio > *count) return kNone;
  return at;
}

bool label_matches(std::string_view token, const ParsedNumber& n, const std::string& label, int max_digits) {
  if (label.empty()) return false;
  if (token == label) return true;
  auto l = parse_page_number(label, max_digits);
  if (!l || l->kind != n.kind || l->value != n.value) return false;
  // "XIV" against label "xiv": same numeral in another case is the same folio.
  return true;
}

void split_tokens(Row& r) {
  if (!r.owned_tokens.empty() || !is_ascii(r.text)) {
    if (r.owned_tokens.empty()) r.owned_tokens = whitespace_tokens(r.text);
    r.tokens.assign(r.owned_tokens.begin(), r.owned_tokens.end());
    return;
  }
  const std::string_view text = r.text;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_ascii_space(static_cast<unsigned char>(text[i]))) ++i;
    const size_t start = i;
    while (i < text.size() && !is_ascii_space(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) r.tokens.push_back(text.substr(start, i - start));
  }
}

// Where the head and foot bands end, as shares of the page height from its top: a line whose
// top is above `head` is in the head band; one whose bottom is below `foot` (and not in the
// head band) in the foot band.
struct Bands {
  double head = 0;
  double foot = 1;
  bool in_head(const Line& l, double height) const { return l.bbox.y0 < head * height; }
  bool in_foot(const Line& l, double height) const { return l.bbox.y1 > foot * height && !in_head(l, height); }
};

// Whether lines `a` and `b` of a page are printed over each other: their boxes share more than
// half the lower one's height, and across more than overprint_share of it (no kerning or
// overhang brings two lines of a row that close), and their texts differ (a line printed
// twice to embolden it is one line).
bool overprint(const Line& a, const Line& b, const CleanOptions& o) {
  const double lower = std::min(a.bbox.height(), b.bbox.height());
  const double across = std::min(a.bbox.x1, b.bbox.x1) - std::max(a.bbox.x0, b.bbox.x0);
  const double down = std::min(a.bbox.y1, b.bbox.y1) - std::max(a.bbox.y0, b.bbox.y0);
  return across > o.overprint_share * lower && typography::more_than_half(down, lower) && a.text() != b.text();
}

// The lines of one baseline, in_band[from, to), left to right, in layers: a line printed
// over a line of a layer goes to the next (one layer where nothing is printed over anything).
std::vector<std::vector<size_t>> overprint_layers(const Page& page, const std::vector<std::pair<double, size_t>>& in_band,
                                                  size_t from, size_t to, const CleanOptions& o) {
  std::vector<size_t> ids;
  for (size_t k = from; k < to; ++k) ids.push_back(in_band[k].second);
  std::stable_sort(ids.begin(), ids.end(), [&](size_t a, size_t b) { return page.lines[a].bbox.x0 < page.lines[b].bbox.x0; });
  std::vector<std::vector<size_t>> layers;
  for (size_t id : ids) {
    auto fits = std::find_if(layers.begin(), layers.end(), [&](const std::vector<size_t>& layer) {
      return std::none_of(layer.begin(), layer.end(), [&](size_t other) { return overprint(page.lines[id], page.lines[other], o); });
    });
    if (fits == layers.end()) layers.push_back({id});
    else fits->push_back(id);
  }
  return layers;
}

// The rows of one page's head and foot bands: the head band's first, each band's from the
// smallest baseline down. Lines printed over each other at one baseline are rows of their own
// (overprint_layers).
std::vector<Row> page_band_rows(const Page& page, size_t pi, const CleanOptions& o, const Bands& bands) {
  std::vector<Row> rows;
  if (page.height <= 0) return rows;
  for (bool top : {true, false}) {
    std::vector<std::pair<double, size_t>> in_band;
    for (size_t li = 0; li < page.lines.size(); ++li) {
      const Line& l = page.lines[li];
      bool inside = top ? bands.in_head(l, page.height) : bands.in_foot(l, page.height);
      if (inside && l.direction == 0) in_band.push_back({line_baseline(l), li});
    }
    std::stable_sort(in_band.begin(), in_band.end());
    for (size_t i = 0; i < in_band.size();) {
      size_t j = i + 1;
      while (j < in_band.size() && in_band[j].first - in_band[j - 1].first <= o.baseline_tolerance) ++j;
      const std::vector<std::vector<size_t>> layers = overprint_layers(page, in_band, i, j, o);
      const double base = in_band[i].first;
      i = j;
      for (const auto& layer : layers) {
        Row r;
        r.page = pi;
        r.top = top;
        r.key = top ? base : page.height - base;
        r.base = base;
        r.lines = layer;
        r.layered = layers.size() > 1;
        for (size_t li : layer)
          for (const auto& [b, other] : in_band)
            if (other != li && overprint(page.lines[li], page.lines[other], o)) r.overprints.push_back(other);
        std::sort(r.overprints.begin(), r.overprints.end());
        r.overprints.erase(std::unique(r.overprints.begin(), r.overprints.end()), r.overprints.end());
        bool read_by_ocr = false;
        for (size_t li : r.lines) {
          if (!r.text.empty()) r.text += ' ';
          r.text += page.lines[li].text();
          r.max_size = std::max(r.max_size, line_max_size(page.lines[li]));
          for (const auto& s : page.lines[li].spans) read_by_ocr = read_by_ocr || s.ocr;
        }
        split_tokens(r);
        const auto& tokens = r.tokens;
        if (tokens.empty()) continue;
        // The number stands at the start or the end of the row, perhaps beside decoration
        // ("— 12 —", "2 | Chapter 1").
        long first = -1, last = -1;
        for (size_t t = 0; t < tokens.size(); ++t)
          if (has_alnum(tokens[t])) {
            if (first < 0) first = static_cast<long>(t);
            last = static_cast<long>(t);
          }
        if (first < 0) continue;
        r.number_only = first == last;
        r.decorated = r.number_only && decorated(r);
        std::vector<long> ends{first};
        if (last != first) ends.push_back(last);
        // A folio with its count may stand inside the row ("Page 12 of 233").
        const size_t counted = counted_folio(tokens, o.max_page_number_digits);
        if (counted != std::string_view::npos) {
          r.counted = std::string(tokens[counted]);
          if (static_cast<long>(counted) != first && static_cast<long>(counted) != last)
            ends.push_back(static_cast<long>(counted));
        }
        r.note = page.lines[r.lines.front()].opens_with_note_mark();
        for (long t : ends) {
          if (r.note) break;
          const std::string_view tok = tokens[static_cast<size_t>(t)];
          const std::string_view core = folio_core(tok);
          if (auto n = parse_page_number(core, o.max_page_number_digits)) {
            NumberCandidate c{*n, std::string(tok), t == first || t != last, false};
            c.label_match = label_matches(core, *n, page.label, o.max_page_number_digits);
            r.candidates.push_back(c);
          }
          // OCR reads a printed number's ones as i, l or I and its zeros as o or O ("11" as
          // "ii"): read so, the number may stand in the page sequence where the letters do not.
          if (const std::string digits = read_by_ocr ? ocr_digits(core) : std::string(); !digits.empty())
            if (auto a = parse_arabic(digits, o.max_page_number_digits))
              r.candidates.push_back({ParsedNumber{NumberKind::Arabic, *a}, std::string(tok), t == first || t != last, false});
        }
        rows.push_back(std::move(r));
      }
    }
  }
  // Moving a row moves a short text to another address: its token views are made again
  // where the rows now stay.
  for (auto& r : rows) {
    r.tokens.clear();
    split_tokens(r);
  }
  return rows;
}

// Index of a row's folio token among its tokens (the first or the last with its text, as it
// stands at the start or the end), npos when the row has no folio.
size_t folio_token(const Row& r) {
  if (!r.folio) return std::string::npos;
  const size_t n = r.tokens.size();
  for (size_t k = 0; k < n; ++k) {
    size_t i = r.folio->at_start ? k : n - 1 - k;
    if (r.tokens[i] == r.folio->token) return i;
  }
  return std::string::npos;
}

// Comparable form of a title: case-folded letters and digits only, without the leading
// numbering ("1.2. INSTALL SECTION" and "1.2 Install section" meet as "installsection").
// `tokens` as whitespace_tokens gives them, leaving out token `skip` (npos: none).
std::string title_key(const std::vector<std::string_view>& tokens, size_t skip) {
  size_t start = 0;
  while (start < tokens.size()) {
    const std::string_view t = tokens[start];
    bool numbering = start == skip ||
                     std::any_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }) || !has_alnum(t);
    if (!numbering) break;
    ++start;
  }
  std::string key;
  for (size_t i = start; i < tokens.size(); ++i) {
    if (i == skip) continue;
    for (unsigned char c : tokens[i]) {
      // (The C locale's letters and digits, asked inline: this runs for every row at a page's
      // edges.)
      if (c >= 'A' && c <= 'Z') key += static_cast<char>(c - 'A' + 'a');
      else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c >= 0x80) key += static_cast<char>(c);
    }
  }
  return key;
}

std::string title_key(const std::string& text) {
  const std::vector<std::string> owned = whitespace_tokens(text);
  return title_key(std::vector<std::string_view>(owned.begin(), owned.end()), std::string::npos);
}

bool all_space(std::u32string_view s) {
  return std::all_of(s.begin(), s.end(), [](char32_t c) { return is_space_cp(c); });
}

// Code points [from, to) of a line's text (Line::text(): its spans concatenated, a raised
// span set apart by a space) as one Removal: the box is the union of the spans' pieces in
// the range.
Removal line_piece(const Line& l, size_t from, size_t to, int page, const char* reason) {
  Removal r;
  r.page = page;
  r.reason = reason;
  bool first = true;
  size_t at = 0;
  for (size_t i = 0; i < l.spans.size(); ++i) {
    const Span& s = l.spans[i];
    if (l.space_before(i)) {
      if (at >= from && at < to) r.text += ' ';
      ++at;
    }
    std::u32string cps = to_u32(s.text);
    size_t a = std::max(from, at), b = std::min(to, at + cps.size());
    if (a < b) {
      r.text += from_u32(cps.substr(a - at, b - a));
      Box piece = piece_box(s, a - at, b - at);
      r.bbox = first ? piece : r.bbox.united(piece);
      first = false;
    }
    at += cps.size();
  }
  return r;
}

// Logs every line of a furniture row; the folio's characters under "page-number", the rest
// under "running-head". Pieces are cut from the line's whole text, never per span: a word
// set in two fonts ("API" in a smaller size before its colon) is one source word, and the
// log must hold it whole for the wording check to subtract it.
void log_row(const Page& page, const Row& row, std::vector<Removal>& removed) {
  // Locate the folio token: (line position in row, code point range in the line's text).
  long at_line = -1;
  size_t from = 0, to = 0;
  if (row.folio) {
    std::vector<std::tuple<size_t, size_t, size_t>> hits;  // line pos, from, to
    for (size_t lp = 0; lp < row.lines.size(); ++lp) {
      std::u32string cps = to_u32(page.lines[row.lines[lp]].text());
      size_t k = 0;
      while (k < cps.size()) {
        while (k < cps.size() && is_space_cp(cps[k])) ++k;
        size_t e = k;
        while (e < cps.size() && !is_space_cp(cps[e])) ++e;
        if (e > k && from_u32(cps.substr(k, e - k)) == row.folio->token) hits.push_back({lp, k, e});
        k = e;
      }
    }
    if (!hits.empty()) {
      auto h = row.folio->at_start ? hits.front() : hits.back();
      at_line = static_cast<long>(std::get<0>(h));
      from = std::get<1>(h);
      to = std::get<2>(h);
    }
  }
  for (size_t lp = 0; lp < row.lines.size(); ++lp) {
    const Line& l = page.lines[row.lines[lp]];
    std::u32string cps = to_u32(l.text());
    if (cps.empty()) continue;
    if (static_cast<long>(lp) != at_line) {
      removed.push_back(line_piece(l, 0, cps.size(), page.number, "running-head"));
      continue;
    }
    size_t a = from, b = to;
    // White space beside the folio goes with it rather than standing as an entry of its own.
    if (all_space(std::u32string_view(cps).substr(0, a))) a = 0;
    if (all_space(std::u32string_view(cps).substr(b))) b = cps.size();
    if (a > 0) removed.push_back(line_piece(l, 0, a, page.number, "running-head"));
    removed.push_back(line_piece(l, a, b, page.number, "page-number"));
    if (b < cps.size()) removed.push_back(line_piece(l, b, cps.size(), page.number, "running-head"));
  }
}

// A row's place for finding slots: its band, its baseline's distance from the band's edge,
// its page, and its index among the book's rows.
struct SlotPlace {
  bool top;
  double key;
  size_t page;
  size_t row;
};

// The slots of one chain of rows, order[from, to) (sorted by key, each within `tolerance` of
// the one before), numbered on from `slots`. A page style sets a slot's row at one place on
// every page, so a page has one row in it; a chain in which a page has two rows runs over text
// set at varying heights (the last lines and footnotes of pages whose text ends at different
// heights, an index of the page's macros at its foot), which chains up the places between.
// Such a chain is cut into the places where rows of many pages stand together: windows one
// tolerance wide, the one holding most rows first (the lower one of equals), until every row
// has its slot.
void assign_slots(const std::vector<SlotPlace>& order, size_t from, size_t to, double tolerance, int& slots,
                  std::vector<int>& slot_of) {
  std::vector<size_t> pages;
  pages.reserve(to - from);
  for (size_t k = from; k < to; ++k) pages.push_back(order[k].page);
  std::sort(pages.begin(), pages.end());
  if (std::adjacent_find(pages.begin(), pages.end()) == pages.end()) {
    for (size_t k = from; k < to; ++k) slot_of[order[k].row] = slots;
    ++slots;
    return;
  }
  std::vector<size_t> left;  // indexes into order, by key
  for (size_t k = from; k < to; ++k) left.push_back(k);
  while (!left.empty()) {
    size_t best = 0, best_end = 0;
    for (size_t i = 0, j = 0; i < left.size(); ++i) {
      j = std::max(j, i);
      while (j < left.size() && order[left[j]].key - order[left[i]].key <= tolerance) ++j;
      if (j - i > best_end - best) best = i, best_end = j;
    }
    for (size_t k = best; k < best_end; ++k) slot_of[order[left[k]].row] = slots;
    ++slots;
    left.erase(left.begin() + static_cast<std::ptrdiff_t>(best), left.begin() + static_cast<std::ptrdiff_t>(best_end));
  }
}

// The usual distance between consecutive baselines of the text: the median over all pages.
double body_line_pitch(const std::vector<std::vector<double>>& page_gaps) {
  std::vector<double> gaps;
  for (const auto& g : page_gaps) gaps.insert(gaps.end(), g.begin(), g.end());
  if (gaps.empty()) return 0;
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<long>(gaps.size() / 2), gaps.end());
  return gaps[gaps.size() / 2];
}

}  // namespace

struct RunningHeadPass::State {
  Document& doc;
  const CleanOptions& o;
  // Gathered by scan_page, one slot per page.
  std::vector<std::vector<Row>> page_rows;
  std::vector<std::vector<double>> bases;     // baseline of each line, in line order
  std::vector<std::vector<double>> gaps;      // between consecutive distinct baselines
  std::vector<std::vector<double>> max_size;  // line_max_size of each line
  std::vector<SizeChars> size_chars;
  // Signatures of the short lines in the middle of the page (outside both bands), each once.
  std::vector<std::vector<std::string>> mid_lines;
  // Per page: the top of its highest line and the bottom of its lowest, as shares of the page
  // height (NaN for a page without horizontal text), for printed_area.
  std::vector<std::pair<double, double>> ink;
  Bands bands;
  // Set by decide.
  std::vector<Row*> rows;  // into page_rows, page by page
  std::vector<std::pair<size_t, size_t>> page_group;   // per page: [begin, end) in rows
  std::vector<char> furniture;                         // per row: is furniture
  std::vector<char> small_type;                        // per row: evidenced furniture in small type
  std::vector<char> over_text;  // per row: evidenced furniture printed over the text, on nearly every page
  double min_gap = 0;
  // Written by cut_page.
  PageRemovals logged;
  std::vector<std::vector<size_t>> dropped;

  State(Document& d, const CleanOptions& options) : doc(d), o(options) {
    const size_t n = doc.pages.size();
    page_rows.resize(n);
    bases.resize(n);
    gaps.resize(n);
    max_size.resize(n);
    size_chars.resize(n);
    mid_lines.resize(n);
    ink.assign(n, {std::nan(""), std::nan("")});
    bands.head = o.band_ratio;
    bands.foot = 1 - o.band_ratio;
    page_group.assign(n, {0, 0});
    logged.resize(n);
    dropped.resize(n);
  }
};

RunningHeadPass::RunningHeadPass(Document& doc, const CleanOptions& options)
    : state_(std::make_unique<State>(doc, options)) {}
RunningHeadPass::~RunningHeadPass() = default;

void RunningHeadPass::scan_page(size_t pi) {
  State& st = *state_;
  const Page& page = st.doc.pages[pi];
  st.page_rows[pi] = page_band_rows(page, pi, st.o, st.bands);
  auto& bases = st.bases[pi];
  auto& sizes = st.max_size[pi];
  bases.clear();
  sizes.clear();
  st.gaps[pi].clear();
  st.mid_lines[pi].clear();
  bases.reserve(page.lines.size());
  sizes.reserve(page.lines.size());
  for (const auto& l : page.lines) {
    bases.push_back(line_baseline(l));
    sizes.push_back(line_max_size(l));
  }
  std::vector<double> sorted = bases;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i] - sorted[i - 1] > st.o.baseline_tolerance) st.gaps[pi].push_back(sorted[i] - sorted[i - 1]);
  st.size_chars[pi] = page_size_chars(page);
  // A head is short; what stands as a whole line in the middle of the page is the text's.
  auto& mid = st.mid_lines[pi];
  double top = std::numeric_limits<double>::infinity(), bottom = -top;
  for (const auto& l : page.lines) {
    if (l.direction != 0) continue;
    top = std::min(top, l.bbox.y0);
    bottom = std::max(bottom, l.bbox.y1);
  }
  if (page.height > 0 && bottom >= top) st.ink[pi] = {top / page.height, bottom / page.height};
  for (const auto& l : page.lines) {
    if (l.direction != 0 || l.bbox.y0 < st.bands.head * page.height || l.bbox.y1 > st.bands.foot * page.height)
      continue;
    // The line's words (whitespace_tokens) as views, read only as far as a head's length:
    // most lines are the text's, longer than a head.
    const std::string text = l.text();
    const auto most = static_cast<size_t>(st.o.head_max_tokens);
    WordViews views;
    views.add_while(text, [&](size_t words) { return words <= most; });
    const std::vector<std::string_view>& tokens = views.words();
    if (tokens.empty() || tokens.size() > most) continue;
    mid.push_back(head_signature(tokens, std::string_view::npos));
  }
  std::sort(mid.begin(), mid.end());
  mid.erase(std::unique(mid.begin(), mid.end()), mid.end());
}

// The edge of the printed area on one side: the position (points from the page's top) where
// the text of at least `frame_share` of the pages ends within `tolerance` (the page frame: a
// folio, a foot or a head line stands in the same place on every page), provided no more than
// 1 - `share` of the pages print beyond it. `ends` holds each page's outermost edge of text,
// signed so that larger is farther out. NaN when the pages show no such frame.
static double frame_edge(std::vector<double> ends, double frame_share, double share, double tolerance) {
  if (ends.empty()) return std::nan("");
  std::sort(ends.begin(), ends.end());
  size_t best = 0, best_end = 0;
  for (size_t i = 0, j = 0; j < ends.size(); ++j) {
    while (ends[j] - ends[i] > tolerance) ++i;
    if (j - i + 1 > best) best = j - i + 1, best_end = j;
  }
  const double n = static_cast<double>(ends.size());
  if (static_cast<double>(best) < frame_share * n) return std::nan("");
  const double edge = ends[best_end];
  const auto beyond = std::count_if(ends.begin(), ends.end(), [&](double e) { return e > edge + tolerance; });
  if (static_cast<double>(beyond) > (1 - share) * n) return std::nan("");
  return edge;
}

bool RunningHeadPass::printed_area() {
  State& st = *state_;
  const CleanOptions& o = st.o;
  std::vector<double> tops, bottoms, heights;
  for (size_t pi = 0; pi < st.ink.size(); ++pi) {
    const auto& [top, bottom] = st.ink[pi];
    if (std::isnan(top)) continue;
    const double h = st.doc.pages[pi].height;
    tops.push_back(-top * h);
    bottoms.push_back(bottom * h);
    heights.push_back(h);
  }
  if (tops.size() < static_cast<size_t>(std::max(1, o.printed_area_min_pages))) return false;
  std::sort(heights.begin(), heights.end());
  const double height = heights[heights.size() / 2];
  const double tol = o.baseline_tolerance;
  const double top = -frame_edge(tops, o.printed_area_frame_share, o.printed_area_share, tol) / height;
  const double bottom = frame_edge(bottoms, o.printed_area_frame_share, o.printed_area_share, tol) / height;
  Bands bands = st.bands;
  if (!std::isnan(top) && top > o.band_ratio) bands.head = top + o.band_ratio;
  if (!std::isnan(bottom) && bottom < 1 - o.band_ratio) bands.foot = bottom - o.band_ratio;
  if (bands.head == st.bands.head && bands.foot == st.bands.foot) return false;
  st.bands = bands;
  return true;
}

void RunningHeadPass::decide() {
  State& st = *state_;
  const Document& doc = st.doc;
  const CleanOptions& o = st.o;
  const size_t page_count = doc.pages.size();
  constexpr size_t kNone = static_cast<size_t>(-1);

  // All rows in page order; they stay where scan_page put them.
  std::vector<Row*>& rows = st.rows;
  for (size_t pi = 0; pi < page_count; ++pi) {
    if (st.page_rows[pi].empty()) continue;
    st.page_group[pi] = {rows.size(), rows.size() + st.page_rows[pi].size()};
    for (auto& r : st.page_rows[pi]) rows.push_back(&r);
  }
  if (rows.empty()) return;
  const double body = body_size(st.size_chars);
  st.size_chars.clear();

  // Folio offsets over the whole book: page index - printed number, per numbering kind, with
  // the number of pages showing each (rows come in page order: a page counts when first seen).
  struct Offset {
    size_t last_page;
    int pages;
  };
  std::map<std::pair<NumberKind, int>, Offset> offset_pages;
  for (const Row* row : rows)
    for (const Row& r = *row; const auto& c : r.candidates) {
      auto [it, fresh] = offset_pages.try_emplace({c.number.kind, doc.pages[r.page].number - c.number.value}, Offset{r.page, 1});
      if (!fresh && it->second.last_page != r.page) {
        it->second.last_page = r.page;
        ++it->second.pages;
      }
    }
  auto in_sequence = [&](const Row& r, const NumberCandidate& c) {
    auto it = offset_pages.find({c.number.kind, doc.pages[r.page].number - c.number.value});
    return it != offset_pages.end() && it->second.pages >= o.min_page_number_pages;
  };
  parallel_for(rows.size(), o.jobs, [&](size_t i) {
    Row& r = *rows[i];
    for (const auto& c : r.candidates)
      if (c.label_match || in_sequence(r, c)) { r.folio = c; break; }
  }, 256);

  // Slots: rows at one baseline distance from their edge, across pages. Sorted as small
  // records: the rows themselves are large and far apart in memory.
  std::vector<SlotPlace> order(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) order[i] = {rows[i]->top, rows[i]->key, rows[i]->page, i};
  std::stable_sort(order.begin(), order.end(), [](const SlotPlace& a, const SlotPlace& b) {
    if (a.top != b.top) return a.top;
    if (a.key != b.key) return a.key < b.key;
    return a.page < b.page;
  });
  int slots = 0;
  std::vector<int> slot_of(rows.size());
  for (size_t k = 0; k < order.size();) {
    size_t end = k + 1;  // a chain: each row's key within tolerance of the one before
    while (end < order.size() && order[end].top == order[k].top &&
           order[end].key - order[end - 1].key <= o.baseline_tolerance)
      ++end;
    assign_slots(order, k, end, o.baseline_tolerance, slots, slot_of);
    k = end;
  }
  std::vector<SlotPlace>().swap(order);

  // A page prints its number once: a second number that passes for the folio, in a slot that
  // holds folios on far fewer pages than the page's other folio slot, is text (a footnote's
  // mark at the foot, a list number at the head).
  {
    std::vector<int> folio_pages(static_cast<size_t>(slots), 0);
    std::vector<size_t> folio_last(static_cast<size_t>(slots), kNone);
    for (size_t i = 0; i < rows.size(); ++i) {
      const auto s = static_cast<size_t>(slot_of[i]);
      if (rows[i]->folio && folio_last[s] != rows[i]->page) {
        folio_last[s] = rows[i]->page;
        ++folio_pages[s];
      }
    }
    for (size_t pi = 0; pi < page_count; ++pi) {
      const auto [first, end] = st.page_group[pi];
      int best = 0;
      for (size_t i = first; i < end; ++i)
        if (rows[i]->folio) best = std::max(best, folio_pages[static_cast<size_t>(slot_of[i])]);
      for (size_t i = first; i < end; ++i)
        if (rows[i]->folio && folio_pages[static_cast<size_t>(slot_of[i])] < o.second_folio_share * best)
          rows[i]->folio.reset();
    }
  }

  // What the book-level counts need of each row, kept small so that the serial loops below
  // do not stream the rows through the cache.
  struct Brief {
    size_t page;
    size_t signature_hash;  // of the slot and the signature; 0 when there is no signature
    int slot;
    bool top;
    bool folio;
    bool number_only;  // a bare folio, or one with its count (see counted_folio())
    bool size_ok;
    bool note;  // see Row::note
    bool overprinted;  // see Row::overprints
    bool layered;      // see Row::layered
  };
  std::vector<Brief> brief(rows.size());
  auto size_ok = [&](const Row& r) { return body <= 0 || r.max_size <= body * o.head_max_size_ratio; };
  // Signatures recurring in their slot: the text without the folio, masked.
  parallel_for(rows.size(), o.jobs, [&](size_t i) {
    Row& r = *rows[i];
    r.slot = slot_of[i];
    r.folio_index = folio_token(r);
    r.signature = opener_word_alone(r.tokens) || r.note ? std::string() : head_signature(r.tokens, r.folio_index);
    size_t h = 0;
    if (!r.signature.empty())
      h = (std::hash<std::string_view>()(r.signature) ^ (static_cast<size_t>(r.slot) * 0x9E3779B97F4A7C15ULL)) | 1;
    const bool with_count = r.folio && !r.counted.empty() && r.folio->token == r.counted;
    brief[i] = {r.page, h, r.slot, r.top, r.folio.has_value(), r.number_only || with_count, size_ok(r), r.note,
                !r.overprints.empty(), r.layered};
  }, 64);

  // Pages per (slot, signature), counted as the rows go by in page order. Looked up by hash
  // in an open-addressing table; rows whose hashes meet are compared by slot and text, so a
  // collision never merges two signatures.
  std::vector<int> signature_pages(rows.size(), 0), signature_overprinted(rows.size(), 0);
  {
    struct Group {
      size_t hash;
      size_t first_row;  // a row with this slot and signature
      size_t last_page;
      int pages;
      int overprinted = 0;  // rows printed over other lines of their pages
    };
    std::vector<Group> groups;
    std::vector<size_t> group_of(rows.size(), kNone);
    size_t capacity = 64;
    while (capacity < 2 * rows.size()) capacity *= 2;
    std::vector<size_t> table(capacity, kNone);  // group indexes
    for (size_t i = 0; i < rows.size(); ++i) {
      const Brief& r = brief[i];
      if (r.signature_hash == 0) continue;
      size_t at = r.signature_hash & (capacity - 1);
      for (;; at = (at + 1) & (capacity - 1)) {
        if (table[at] == kNone) {
          table[at] = groups.size();
          groups.push_back({r.signature_hash, i, r.page, 0, 0});
          break;
        }
        const Group& g = groups[table[at]];
        if (g.hash == r.signature_hash && brief[g.first_row].slot == r.slot &&
            rows[g.first_row]->signature == rows[i]->signature)
          break;
      }
      Group& g = groups[table[at]];
      if (g.pages == 0 || g.last_page != r.page) {
        g.last_page = r.page;
        ++g.pages;
      }
      g.overprinted += r.overprinted;
      group_of[i] = table[at];
    }
    for (size_t i = 0; i < rows.size(); ++i)
      if (group_of[i] != kNone) {
        signature_pages[i] = groups[group_of[i]].pages;
        signature_overprinted[i] = groups[group_of[i]].overprinted;
      }
  }

  // A head's text stands in its slot; a line that recurs there because the book sets it
  // everywhere (a section heading every entry has: "Arguments", "Examples") stands as a whole
  // line in the middle of many more pages. Such a signature's recurrence is no evidence.
  std::vector<char> body_style(rows.size(), 0);
  {
    std::unordered_map<std::string_view, int> mid_pages;  // recurring signature -> pages
    for (size_t i = 0; i < rows.size(); ++i)
      if (brief[i].signature_hash != 0 && signature_pages[i] >= o.min_recurrence)
        mid_pages.emplace(rows[i]->signature, 0);
    if (!mid_pages.empty())
      for (const auto& page : st.mid_lines)
        for (const auto& sig : page)
          if (auto it = mid_pages.find(sig); it != mid_pages.end()) ++it->second;
    for (size_t i = 0; i < rows.size(); ++i)
      if (brief[i].signature_hash != 0 && signature_pages[i] >= o.min_recurrence) {
        const int mid = mid_pages.at(rows[i]->signature);
        body_style[i] = mid > 0 && static_cast<double>(mid) > o.head_mid_page_ratio * signature_pages[i];
      }
  }
  std::vector<std::vector<std::string>>().swap(st.mid_lines);

  // A running head repeats a title: the book's, a chapter's or a section's. A head used on one
  // page only (a short section's) still names a heading set larger elsewhere in the book.
  // Hashed: every row without other evidence looks its title up (refman: thousands of
  // headings and outline entries, ~15,000 lookups).
  struct TitlePages {
    size_t first_page;
    bool several = false;  // set as a heading on more than one page
  };
  std::unordered_map<std::string, TitlePages> titles;  // title key -> pages where it is a heading
  if (body > 0) {
    const double heading_size = body * o.head_max_size_ratio;
    std::vector<std::vector<std::string>> page_titles(page_count);
    parallel_for(page_count, o.jobs, [&](size_t pi) {
      const auto& sizes = st.max_size[pi];
      // (Most pages have no line of a heading's size: those stay where they are.)
      if (std::none_of(sizes.begin(), sizes.end(), [&](double s) { return s > heading_size; })) return;
      with_page(doc, pi, [&](const Page& page) {
        for (size_t li = 0; li < sizes.size(); ++li) {
          if (!(sizes[li] > heading_size)) continue;
          std::string k = title_key(page.lines[li].text());
          if (!k.empty()) page_titles[pi].push_back(std::move(k));
        }
      });
    });
    for (size_t pi = 0; pi < page_count; ++pi)
      for (auto& k : page_titles[pi]) {
        auto [it, fresh] = titles.try_emplace(std::move(k), TitlePages{pi});
        if (!fresh && it->second.first_page != pi) it->second.several = true;
      }
  }
  st.max_size.clear();
  std::unordered_set<std::string> outline_titles;
  for (const auto& e : doc.outline) outline_titles.insert(title_key(e.title));
  outline_titles.insert(title_key(doc.metadata.title));
  outline_titles.erase("");
  auto names_a_title = [&](const Row& r) {
    const std::string k = title_key(r.tokens, r.folio_index);
    if (k.empty()) return false;
    if (outline_titles.count(k)) return true;
    auto it = titles.find(k);
    return it != titles.end() && (it->second.several || it->second.first_page != r.page);
  };
  std::vector<char> evidenced(rows.size());
  parallel_for(rows.size(), o.jobs, [&](size_t i) {
    const Brief& r = brief[i];
    if (r.folio) evidenced[i] = true;
    else if (r.signature_hash == 0 || !r.size_ok) evidenced[i] = false;
    else evidenced[i] = (signature_pages[i] >= o.min_recurrence && !body_style[i]) || names_a_title(*rows[i]);
    // Not needed any more: freed here, on the worker, rather than all at once at the end.
    std::vector<std::string_view>().swap(rows[i]->tokens);
    std::vector<std::string>().swap(rows[i]->owned_tokens);
    std::string().swap(rows[i]->text);
  }, 256);

  // Pages per slot with a row there, with evidence there, and pages per band; rows come in
  // page order, so a page is counted when it first shows up.
  std::vector<size_t> occupied(static_cast<size_t>(slots), 0), evidence(static_cast<size_t>(slots), 0);
  std::vector<size_t> occupied_last(static_cast<size_t>(slots), kNone), evidence_last(static_cast<size_t>(slots), kNone);
  std::vector<bool> top_slot(static_cast<size_t>(slots));
  size_t band_pages[2] = {0, 0}, band_last[2] = {kNone, kNone};
  for (size_t i = 0; i < rows.size(); ++i) {
    const Brief& r = brief[i];
    const auto s = static_cast<size_t>(r.slot);
    if (occupied_last[s] != r.page) { occupied_last[s] = r.page; ++occupied[s]; }
    if (evidenced[i] && evidence_last[s] != r.page) { evidence_last[s] = r.page; ++evidence[s]; }
    const int b = r.top ? 0 : 1;
    if (band_last[b] != r.page) { band_last[b] = r.page; ++band_pages[b]; }
    top_slot[s] = r.top;
  }
  // A row of an element printed over the text (a browser's fixed element): evidenced, and its
  // signature printed over other lines on several pages.
  auto over_text_element = [&](size_t i) { return evidenced[i] && signature_overprinted[i] >= o.min_recurrence; };
  // A slot holding such an element is where the text block's first line stands too: a row
  // there is furniture by its own evidence only.
  std::vector<char> over_text_slot(static_cast<size_t>(slots));
  for (size_t i = 0; i < rows.size(); ++i)
    if (over_text_element(i)) over_text_slot[static_cast<size_t>(brief[i].slot)] = 1;
  std::vector<char> furniture_slot(static_cast<size_t>(slots));
  for (size_t s = 0; s < furniture_slot.size(); ++s) {
    const size_t ev = evidence[s];
    const size_t oc = occupied[s];
    double band_n = static_cast<double>(band_pages[top_slot[s] ? 0 : 1]);
    furniture_slot[s] = static_cast<int>(ev) >= o.min_recurrence &&
                        static_cast<double>(ev) >= o.head_slot_purity * static_cast<double>(oc) &&
                        static_cast<double>(ev) >= o.head_slot_min_share * band_n;
  }
  st.furniture.resize(rows.size());
  st.small_type.resize(rows.size());
  st.over_text.resize(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const Brief& r = brief[i];
    if (r.number_only && r.folio) st.furniture[i] = true;  // a bare folio, in any slot
    else
      st.furniture[i] = furniture_slot[static_cast<size_t>(r.slot)] &&
                        (evidenced[i] || (r.size_ok && !r.layered && !over_text_slot[static_cast<size_t>(r.slot)])) &&
                        !r.note;
    // Small type that recurs, as such, in a slot of furniture: a folio alone is not enough
    // (a small digit in a displayed sum can fall in with the page numbers). Type a little
    // smaller than the body will do when the row is the same on nearly every page of its band
    // (a browser prints its header in 8 pt whatever the scale of the page's text).
    const double band_n = static_cast<double>(band_pages[r.top ? 0 : 1]);
    const bool everywhere = signature_pages[i] >= o.min_page_number_pages &&
                            static_cast<double>(signature_pages[i]) >= o.furniture_everywhere_share * band_n;
    st.small_type[i] = st.furniture[i] && furniture_slot[static_cast<size_t>(r.slot)] && r.signature_hash != 0 &&
                       signature_pages[i] >= o.min_recurrence && body > 0 &&
                       (rows[i]->max_size <= body * o.furniture_small_ratio ||
                        (everywhere && rows[i]->max_size < body * o.furniture_smaller_ratio));
    // So does a row the same on nearly every page and printed over the text on some (a
    // browser's fixed header, printed wherever the page's text stands): it is set off from
    // nothing, and no body line is printed over another.
    st.over_text[i] = st.furniture[i] && everywhere && over_text_element(i);
  }
  // A running foot (or head) with its folio set off its slot on a few pages (groff lowers the
  // foot of a page whose last lines ran past the trap): the same words, folio masked, as the
  // rows of a furniture slot of its band, with the page's own number, are the same furniture.
  {
    std::unordered_set<std::string_view> in_slot[2];
    for (size_t i = 0; i < rows.size(); ++i)
      if (st.furniture[i] && brief[i].signature_hash != 0 && furniture_slot[static_cast<size_t>(brief[i].slot)])
        in_slot[brief[i].top ? 0 : 1].insert(rows[i]->signature);
    for (size_t i = 0; i < rows.size(); ++i) {
      const Brief& r = brief[i];
      if (st.furniture[i] || !r.folio || r.signature_hash == 0 || r.note) continue;
      st.furniture[i] = in_slot[r.top ? 0 : 1].count(rows[i]->signature) > 0;
    }
  }

  // ...and furniture is set off from the text block by more than a line of body text: the
  // cut falls at a gap, never between two body lines that merely look alike page after page
  // (a recurring row in small type needs no gap: it is no body line).
  st.min_gap = body_line_pitch(st.gaps) * o.furniture_gap_ratio;
  st.gaps.clear();
}

const std::vector<size_t>& RunningHeadPass::cut_page(size_t pi) {
  State& st = *state_;
  const auto [first_row, end_row] = st.page_group[pi];
  std::vector<size_t>& drop = st.dropped[pi];
  if (first_row == end_row) return drop;
  const std::vector<Row*>& rows = st.rows;
  const CleanOptions& o = st.o;
  Page& page = st.doc.pages[pi];
  const std::vector<double>& bases = st.bases[pi];  // the page is as scan_page saw it
  // Furniture stands at the edge: from each edge inwards, rows are furniture until the first
  // one that is not (a caption or heading below the head stays even if it looks like one).
  std::vector<size_t> by_edge(end_row - first_row);
  for (size_t i = 0; i < by_edge.size(); ++i) by_edge[i] = first_row + i;
  std::stable_sort(by_edge.begin(), by_edge.end(), [&](size_t a, size_t b) {
    if (rows[a]->top != rows[b]->top) return rows[a]->top;
    return rows[a]->key < rows[b]->key;
  });
  const size_t stop = by_edge.size();
  for (size_t k = 0; k < stop;) {
    size_t end = k;
    while (end < stop && rows[by_edge[end]]->top == rows[by_edge[k]]->top) ++end;
    long cut = -1;
    for (size_t m = k; m < end; ++m) {
      const Row& r = *rows[by_edge[m]];
      if (!st.furniture[by_edge[m]]) {
        // The text a row of furniture is printed over stays, and the walk goes on to that row.
        auto over = [&](const Row& a, const Row& b) {
          for (size_t x : a.lines)
            for (size_t y : b.lines)
              if (overprint(page.lines[x], page.lines[y], o)) return true;
          return false;
        };
        const bool under = std::any_of(by_edge.begin() + static_cast<long>(m) + 1, by_edge.begin() + static_cast<long>(end),
                                       [&](size_t q) { return st.over_text[q] && over(r, *rows[q]); });
        if (under) continue;
        break;
      }
      // Distance to the nearest line further inside the page.
      double gap = -1;
      for (double b : bases) {
        double d = r.top ? b - r.base : r.base - b;
        if (d > o.baseline_tolerance && (gap < 0 || d < gap)) gap = d;
      }
      // A page number set off by its own decoration ("-4-", "[4]", "— 4 —") and alone on its
      // row needs no gap: no line of text reads so, and a drawing's labels can stand closer
      // below it than a line of text would (a figure at the top of the page). A plain number
      // still needs the gap: a listing's line number at the edge of a page can follow the
      // page sequence for a while.
      // So does a folio with the count of pages beside it ("12 / 233", "Page 12 of 233"):
      // no line number or line of text carries the same total on every page.
      const bool decorated_folio =
          r.folio.has_value() && (r.decorated || (!r.counted.empty() && r.folio->token == r.counted));
      if (gap < 0 || gap >= st.min_gap || st.small_type[by_edge[m]] || st.over_text[by_edge[m]] || decorated_folio)
        cut = static_cast<long>(m);
    }
    for (long m = static_cast<long>(k); m <= cut; ++m) {
      if (!st.furniture[by_edge[static_cast<size_t>(m)]]) continue;  // (text printed under furniture)
      const Row& r = *rows[by_edge[static_cast<size_t>(m)]];
      log_row(page, r, st.logged[pi]);
      for (size_t li : r.lines) drop.push_back(li);
    }
    k = end;
  }
  std::sort(drop.begin(), drop.end());
  drop.erase(std::unique(drop.begin(), drop.end()), drop.end());
  auto& pl = page.lines;
  for (auto it = drop.rbegin(); it != drop.rend(); ++it) pl.erase(pl.begin() + static_cast<long>(*it));
  return drop;
}

void RunningHeadPass::release_page(size_t pi) {
  State& st = *state_;
  std::vector<Row>().swap(st.page_rows[pi]);
  std::vector<double>().swap(st.bases[pi]);
  std::vector<size_t>().swap(st.dropped[pi]);
}

void RunningHeadPass::append_log(std::vector<Removal>& removed) { append_in_page_order(state_->logged, removed); }

}  // namespace quire::clean_detail
