// Margin line numbers of code listings.
//
// A listing's line numbers form a column: integers that increase by exactly the number of
// listing rows between them (1, 2, 3 on consecutive rows; 5, 10 when every fifth row is
// numbered), right-aligned at one x, beside monospace lines. They come as their own line or
// span beside the code, or at the start of the code line's first span separated by spaces
// (`cat -n` style). Data that begins with numbers ("1 2 3" / "4 5 6") does not advance by one
// per row, a lone column of numbers with no code beside it is data, and a number in the code's
// own style with more text on both sides, or beside more code in the same style, is a column of
// a printed table, as is a row with numbers beside code in more places than listings stand side
// by side. Only the `cat -n` form (number and code in one span) relies on the sequence alone, so
// monospace data lines that start with consecutive numbers would be taken for it.
#include <algorithm>
#include <cmath>
#include <optional>

#include "internal.h"
#include "quire/text.h"

namespace quire::clean_detail {

namespace {

enum class Form { OwnLine, FirstSpan, LastSpan, Prefix };

struct Candidate {
  size_t page = 0;
  size_t line = 0;
  size_t span = 0;
  size_t digits_end = 0;  // Prefix: code point after the number's last digit
  size_t spaces_after = 0;  // Prefix: spaces between the number and the code
  Form form = Form::OwnLine;
  bool left = true;       // column left of the code
  bool beside_code = true;
  int value = 0;
  double x = 0;           // the column's aligned edge: right edge for a left column
  double baseline = 0;
  int lane = 0;  // the page's column of numbers it stands in (see page_candidates)
  int row = 0;   // its row among the listing rows of its lane
};

std::string_view trimmed(std::string_view s) {
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string_view::npos) return {};
  size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

bool has_visible(std::string_view s) { return s.find_first_not_of(" \t") != std::string_view::npos; }

// Code points of `text` that are not white space.
size_t visible_count(const std::string& text) {
  size_t n = 0;
  for (unsigned char c : text) {
    if (c >= 0x80) {
      n = 0;
      for (char32_t cp : to_u32(text))
        if (!is_space_cp(cp)) ++n;
      return n;
    }
    if (!is_ascii_space(c)) ++n;
  }
  return n;
}

constexpr int kLineNumberDigits = 6;  // listings longer than 999,999 lines are not typeset
constexpr size_t kMostListingsSideBySide = 2;  // a page's columns that hold listings on one row

bool is_code(const Line& l, double share, size_t skip_first = 0, size_t skip_last = 0) {
  // Most lines of a book have no monospace span at all: no need to count their characters.
  bool any_mono = false;
  for (size_t i = skip_first; i + skip_last < l.spans.size() && !any_mono; ++i) any_mono = l.spans[i].monospace;
  if (!any_mono && share > 0) return false;
  size_t mono = 0, all = 0;
  for (size_t i = skip_first; i + skip_last < l.spans.size(); ++i) {
    size_t n = visible_count(l.spans[i].text);
    all += n;
    if (l.spans[i].monospace) mono += n;
  }
  return all > 0 && static_cast<double>(mono) >= share * static_cast<double>(all);
}

std::optional<int> number_of(std::string_view text) { return parse_arabic(trimmed(text), kLineNumberDigits); }

// number_of(l.text()) without building the text of every line: a line holding anything but
// digits, spaces and tabs is no bare number, whatever spaces text() puts between its spans.
std::optional<int> line_number_of(const Line& l) {
  for (const auto& s : l.spans)
    for (char c : s.text)
      if (!(c >= '0' && c <= '9') && c != ' ' && c != '\t') return std::nullopt;
  return number_of(l.text());
}

// A margin number set apart from the code (another size, font or colour) is the listing's
// numbering; a number in the code's own style beside more code is a column of data.
bool distinct_style(const Span& number, const Span& code, const CleanOptions& o) {
  return std::abs(number.size - code.size) > o.line_number_size_delta || number.font != code.font ||
         number.color != code.color;
}

const Span& first_visible(const Line& l) {
  for (const auto& s : l.spans)
    if (has_visible(s.text)) return s;
  return l.spans.front();
}

const Span& last_visible(const Line& l) {
  for (auto it = l.spans.rbegin(); it != l.spans.rend(); ++it)
    if (has_visible(it->text)) return *it;
  return l.spans.back();
}

// Index of the first and last span with visible text.
std::pair<long, long> visible_span_range(const Line& l) {
  long first = -1, last = -1;
  for (size_t i = 0; i < l.spans.size(); ++i)
    if (has_visible(l.spans[i].text)) {
      if (first < 0) first = static_cast<long>(i);
      last = static_cast<long>(i);
    }
  return {first, last};
}

// Whether the line's text (Line::text()) has white space between span a and a later span b:
// a line number is a word of its own, never the start or the end of one ("2014-10-28" in a
// table, its year set in another font).
bool apart(const Line& l, size_t a, size_t b) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n'; };
  if (!l.spans[a].text.empty() && blank(l.spans[a].text.back())) return true;
  for (size_t k = a + 1; k <= b; ++k) {
    if (l.space_before(k)) return true;
    const std::string& t = l.spans[k].text;
    if (!t.empty() && blank(t.front())) return true;
  }
  return false;
}

// One page's candidates, ordered by listing row, and the baselines of the listing rows of
// each lane.
struct PageCandidates {
  std::vector<Candidate> found;
  std::vector<std::vector<double>> rows;
};

// The candidate a code line holds by itself, in its first or last span or as a `cat -n`
// prefix (page, line and baseline left for the page to fill in).
// A number set raised against the rest of its line is a note's mark (a footnote's "7" before
// its text): line numbers stand on their line's baseline.
bool raised_in_line(const Line& l, size_t i) {
  return std::any_of(l.spans.begin(), l.spans.end(), [&](const Span& s) { return raised_against(l.spans[i], s); });
}

std::optional<Candidate> code_line_candidate(const Line& l, const CleanOptions& o) {
  auto [first, last] = visible_span_range(l);
  if (first < 0) return std::nullopt;
  Candidate c;
  const Span& fs = l.spans[static_cast<size_t>(first)];
  const Span& ls = l.spans[static_cast<size_t>(last)];
  if (first != last && number_of(fs.text) && !raised_in_line(l, static_cast<size_t>(first)) && is_code(l, o.code_monospace_share, static_cast<size_t>(first) + 1) &&
      distinct_style(fs, l.spans[static_cast<size_t>(first) + 1], o) &&
      apart(l, static_cast<size_t>(first), static_cast<size_t>(first) + 1)) {
    c.form = Form::FirstSpan;
    c.span = static_cast<size_t>(first);
    c.value = *number_of(fs.text);
    c.left = true;
    c.x = fs.bbox.x1;
    return c;
  }
  if (first != last && number_of(ls.text) && !raised_in_line(l, static_cast<size_t>(last)) && is_code(l, o.code_monospace_share, 0, l.spans.size() - static_cast<size_t>(last)) &&
      distinct_style(ls, l.spans[static_cast<size_t>(last) - 1], o) &&
      apart(l, static_cast<size_t>(last) - 1, static_cast<size_t>(last))) {
    c.form = Form::LastSpan;
    c.span = static_cast<size_t>(last);
    c.value = *number_of(ls.text);
    c.left = false;
    c.x = ls.bbox.x0;
    return c;
  }
  // `cat -n` style: "  12  int x;" in one monospace span.
  if (!fs.monospace) return std::nullopt;
  // Code points of the span: ASCII text is its own (byte = code point).
  std::u32string wide;
  const bool ascii = is_ascii(fs.text);
  if (!ascii) wide = to_u32(fs.text);
  const size_t size = ascii ? fs.text.size() : wide.size();
  auto cp = [&](size_t i) -> char32_t { return ascii ? static_cast<unsigned char>(fs.text[i]) : wide[i]; };
  size_t k = 0;
  while (k < size && is_space_cp(cp(k))) ++k;
  size_t d = k;
  while (d < size && cp(d) >= U'0' && cp(d) <= U'9') ++d;
  size_t e = d;
  while (e < size && is_space_cp(cp(e))) ++e;
  if (d == k || e == d || e == size || static_cast<int>(d - k) > kLineNumberDigits) return std::nullopt;
  c.form = Form::Prefix;
  c.span = static_cast<size_t>(first);
  c.digits_end = d;
  c.spaces_after = e - d;
  std::string digits;
  for (size_t i = k; i < d; ++i) digits += static_cast<char>(cp(i));
  c.value = *parse_arabic(digits, kLineNumberDigits);
  c.left = true;
  c.x = piece_box(fs, k, d).x1;
  return c;
}

// What a line is, for this pass: noted once per line while its page is at hand.
struct LineFacts {
  double baseline = 0;
  std::optional<int> number;  // a bare number
  bool code = false;          // a code line that is not a bare number
  std::optional<Candidate> candidate;  // code lines: code_line_candidate
};

std::vector<LineFacts> line_facts(const Page& page, const CleanOptions& o) {
  std::vector<LineFacts> facts(page.lines.size());
  for (size_t li = 0; li < page.lines.size(); ++li) {
    const Line& l = page.lines[li];
    facts[li].baseline = line_baseline(l);
    facts[li].number = line_number_of(l);
    if (!facts[li].number) facts[li].code = is_code(l, o.code_monospace_share);
    if (facts[li].code) facts[li].candidate = code_line_candidate(l, o);
  }
  return facts;
}

PageCandidates page_candidates(const Page& page, size_t pi, const CleanOptions& o, const std::vector<LineFacts>& facts) {
  std::vector<size_t> code;     // code lines that are not a bare number
  std::vector<size_t> numbers;  // lines that are a bare number
  for (size_t li = 0; li < facts.size(); ++li) {
    if (facts[li].number) numbers.push_back(li);
    else if (facts[li].code) code.push_back(li);
  }
  if (code.empty()) return {};
  std::vector<Candidate> found;
  for (size_t li : numbers) {
    const Line& n = page.lines[li];
    Candidate c;
    c.page = pi;
    c.line = li;
    c.form = Form::OwnLine;
    c.value = *facts[li].number;
    c.baseline = facts[li].baseline;
    c.beside_code = false;
    // The margin column is the outermost thing on its row: nothing on the same baseline lies
    // beyond it (a column inside a printed matrix has neighbours on both sides).
    bool any_left = false, any_right = false, only_code = true;
    for (size_t oi = 0; oi < page.lines.size(); ++oi) {
      if (oi == li || std::abs(facts[oi].baseline - c.baseline) > o.baseline_tolerance) continue;
      const Line& k = page.lines[oi];
      if (k.bbox.x1 <= n.bbox.x0) any_left = true;
      if (k.bbox.x0 >= n.bbox.x1) any_right = true;
      // (The other listing's own numbers stand on the row as well.)
      if (k.bbox.x1 <= n.bbox.x0 || k.bbox.x0 >= n.bbox.x1)
        only_code = only_code && (facts[oi].code || facts[oi].number);
    }
    // Code on both sides: two listings side by side, the number between them. It is the left
    // margin column of the listing on its right when the one on its left stands much farther
    // off. Each side is measured to its listing's edge over the rows around, not to this
    // row's line, which may be indented. (Not the other way round: page references after
    // the entries of a two-column index have the right column's entries far off on their
    // right, and numbers set right of a listing are rare.)
    if (any_left && any_right && only_code) {
      const double reach = 3 * (n.bbox.height() + o.baseline_tolerance);
      double left_edge = -1e300, right_edge = 1e300;
      for (size_t ci : code) {
        if (std::abs(facts[ci].baseline - c.baseline) > reach) continue;
        const Box& b = page.lines[ci].bbox;
        if (b.x1 <= n.bbox.x0) left_edge = std::max(left_edge, b.x1);
        if (b.x0 >= n.bbox.x1) right_edge = std::min(right_edge, b.x0);
      }
      const double gap_left = n.bbox.x0 - left_edge, gap_right = right_edge - n.bbox.x1;
      if (gap_left >= o.line_number_far_side_ratio * gap_right) any_left = false;
    }
    // Prose on the row between the number and a code line: the number stands in a table's
    // column, not in the listing's margin ("stdin", "standard input", "0").
    auto prose_between = [&](double x0, double x1) {
      for (size_t oi = 0; oi < page.lines.size(); ++oi) {
        if (oi == li || facts[oi].code || facts[oi].number || std::abs(facts[oi].baseline - c.baseline) > o.baseline_tolerance)
          continue;
        const Box& b = page.lines[oi].bbox;
        if (b.x0 >= x0 && b.x1 <= x1 && has_visible(page.lines[oi].text())) return true;
      }
      return false;
    };
    for (size_t ci : code) {
      if (std::abs(facts[ci].baseline - c.baseline) > o.baseline_tolerance) continue;
      const Line& k = page.lines[ci];
      // A number raised against the line beside it is a note's mark: see raised_in_line.
      if (std::any_of(k.spans.begin(), k.spans.end(), [&](const Span& s) { return raised_against(n.spans.front(), s); }))
        continue;
      if (prose_between(std::min(k.bbox.x1, n.bbox.x1), std::max(k.bbox.x0, n.bbox.x0))) continue;
      // No limit on the distance: an indented code line stands far from the margin column.
      if (k.bbox.x0 >= n.bbox.x1 && !any_left && distinct_style(n.spans.front(), first_visible(k), o)) {
        c.beside_code = true;
        c.left = true;
      } else if (n.bbox.x0 >= k.bbox.x1 && !any_right && distinct_style(n.spans.front(), last_visible(k), o)) {
        c.beside_code = true;
        c.left = false;
      }
    }
    c.x = c.left ? n.bbox.x1 : n.bbox.x0;
    found.push_back(c);
  }
  for (size_t li : code) {
    if (!facts[li].candidate) continue;
    Candidate c = *facts[li].candidate;
    c.page = pi;
    c.line = li;
    c.baseline = facts[li].baseline;
    found.push_back(c);
  }
  // Listings stand side by side in two columns at most: a row with numbers beside code in
  // three or more places is a row of a table of numbered entries (an encoding table's slots,
  // "0 x00 `" to "222 xDE Þ" across the page), each of whose columns would read as a numbered
  // listing flowing into the next.
  std::vector<char> crowded(found.size(), 0);
  for (size_t i = 0; i < found.size(); ++i) {
    if (!found[i].beside_code) continue;
    size_t on_row = 0;
    for (const auto& c : found)
      if (c.beside_code && std::abs(c.baseline - found[i].baseline) <= o.baseline_tolerance) ++on_row;
    crowded[i] = on_row > kMostListingsSideBySide;
  }
  size_t kept = 0;
  for (size_t i = 0; i < found.size(); ++i)
    if (!crowded[i]) found[kept++] = found[i];
  found.resize(kept);
  // Lanes: each column of numbers counts the rows of its own listing, the code lines on its
  // code side up to the next column of numbers on that side. On a two-column page a listing
  // stands in each column, and their rows interleave.
  struct Lane {
    bool left;
    double x;
    double edge;  // where its lines start (left) or end (right): the numbers' outer edge
    bool beside_code;  // numbers beside code made it (a section number alone bounds no lane)
    std::vector<double> bases;
  };
  std::vector<Lane> lanes;
  for (bool beside : {true, false})
    for (auto& c : found) {
      if (c.beside_code != beside) continue;
      size_t k = 0;
      while (k < lanes.size() && (lanes[k].left != c.left || std::abs(lanes[k].x - c.x) > o.line_number_x_tolerance)) ++k;
      const Box& b = page.lines[c.line].bbox;
      if (k == lanes.size()) lanes.push_back({c.left, c.x, c.left ? b.x0 : b.x1, beside, {}});
      if (lanes[k].beside_code == beside) lanes[k].edge = c.left ? std::min(lanes[k].edge, b.x0) : std::max(lanes[k].edge, b.x1);
      c.lane = static_cast<int>(k);
      lanes[k].bases.push_back(c.baseline);
    }
  for (Lane& lane : lanes) {
    // The lane's lines: from its numbers' outer edge up to the next lane's on that side
    // (code lines of the listing may start where its numbers start: `cat -n`).
    const double tol = o.line_number_x_tolerance;
    double from = lane.left ? lane.edge - tol : -1e300, to = lane.left ? 1e300 : lane.edge + tol;
    for (const Lane& other : lanes) {
      if (other.left != lane.left || !other.beside_code) continue;
      if (lane.left && other.x > lane.x + tol) to = std::min(to, other.edge - tol);
      if (!lane.left && other.x < lane.x - tol) from = std::max(from, other.edge + tol);
    }
    for (size_t li : code) {
      const Box& b = page.lines[li].bbox;
      if (lane.left ? (b.x0 >= from && b.x0 < to) : (b.x1 > from && b.x1 <= to)) lane.bases.push_back(facts[li].baseline);
    }
  }
  std::vector<std::vector<double>> rows(lanes.size());
  for (size_t k = 0; k < lanes.size(); ++k) {
    auto& bases = lanes[k].bases;
    std::sort(bases.begin(), bases.end());
    for (double b : bases)
      if (rows[k].empty() || b - rows[k].back() > o.baseline_tolerance) rows[k].push_back(b);
  }
  for (auto& c : found) {
    const auto& lr = rows[static_cast<size_t>(c.lane)];
    auto it = std::lower_bound(lr.begin(), lr.end(), c.baseline - o.baseline_tolerance);
    c.row = static_cast<int>(it - lr.begin());
  }
  std::stable_sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) { return a.row < b.row; });
  return {std::move(found), std::move(rows)};
}

struct Run {
  std::vector<size_t> members;  // indexes into candidates
};

// `cat -n` numbering covers its whole listing, one number per row: a run of numbered rows with
// an unnumbered row of the same listing right before or after it (one line pitch away) is data
// that starts with row numbers (R's printed data frames: "1 Colorado", "2 Arizona", ...).
bool covers_listing(const Run& run, const std::vector<Candidate>& cands,
                    const std::vector<std::vector<std::vector<double>>>& page_rows, const CleanOptions& o) {
  std::vector<double> gaps;
  for (size_t k = 1; k < run.members.size(); ++k) {
    const Candidate& a = cands[run.members[k - 1]];
    const Candidate& b = cands[run.members[k]];
    if (a.page != b.page) continue;
    if (b.row - a.row != 1) return false;
    gaps.push_back(b.baseline - a.baseline);
  }
  if (gaps.empty()) return false;
  std::sort(gaps.begin(), gaps.end());
  double pitch = gaps[gaps.size() / 2];
  const Candidate& f = cands[run.members.front()];
  const Candidate& l = cands[run.members.back()];
  const auto& fr = page_rows[f.page][static_cast<size_t>(f.lane)];
  const auto& lr = page_rows[l.page][static_cast<size_t>(l.lane)];
  auto fi = static_cast<size_t>(f.row), li = static_cast<size_t>(l.row);
  if (fi > 0 && fi < fr.size() && fr[fi] - fr[fi - 1] <= o.listing_pitch_ratio * pitch) return false;
  if (li + 1 < lr.size() && lr[li + 1] - lr[li] <= o.listing_pitch_ratio * pitch) return false;
  return true;
}

}  // namespace

struct LineNumberPass::State {
  Document& doc;
  const CleanOptions& o;
  std::vector<std::vector<LineFacts>> facts;  // per page, per line; by classify_page
  std::vector<PageCandidates> per_page;       // by scan_page
  // Set by decide.
  std::vector<Candidate> cands;
  std::vector<size_t> accepted;                         // indexes into cands, by page, line, span
  std::vector<size_t> separator;                        // per candidate, Prefix: spaces cut with it
  std::vector<std::pair<size_t, size_t>> page_range;   // per page: [begin, end) in accepted
  PageRemovals logged;                                  // by cut_page

  State(Document& d, const CleanOptions& options) : doc(d), o(options) {
    facts.resize(doc.pages.size());
    per_page.resize(doc.pages.size());
    page_range.assign(doc.pages.size(), {0, 0});
    logged.resize(doc.pages.size());
  }
};

LineNumberPass::LineNumberPass(Document& doc, const CleanOptions& options)
    : state_(std::make_unique<State>(doc, options)) {}
LineNumberPass::~LineNumberPass() = default;

void LineNumberPass::classify_page(size_t pi) { state_->facts[pi] = line_facts(state_->doc.pages[pi], state_->o); }

void LineNumberPass::scan_page(size_t pi, const std::vector<size_t>& removed_lines) {
  State& st = *state_;
  auto& facts = st.facts[pi];
  for (auto it = removed_lines.rbegin(); it != removed_lines.rend(); ++it) facts.erase(facts.begin() + static_cast<long>(*it));
  st.per_page[pi] = page_candidates(st.doc.pages[pi], pi, st.o, facts);
  facts = {};
}

void LineNumberPass::decide() {
  State& st = *state_;
  const CleanOptions& o = st.o;
  std::vector<Candidate>& cands = st.cands;
  std::vector<std::vector<std::vector<double>>> page_rows(st.doc.pages.size());  // page, lane, row
  for (size_t pi = 0; pi < st.doc.pages.size(); ++pi) {
    cands.insert(cands.end(), st.per_page[pi].found.begin(), st.per_page[pi].found.end());
    page_rows[pi] = std::move(st.per_page[pi].rows);
  }
  st.per_page.clear();
  if (cands.empty()) return;

  // A candidate joins the most recently started run it follows. Candidates come in page
  // order and a run goes on only on its last number's page or the next, so runs that ended
  // two pages back are left out of the search (`open`, in the order the runs started).
  std::vector<Run> runs;
  std::vector<size_t> open;
  for (size_t i = 0; i < cands.size(); ++i) {
    const Candidate& c = cands[i];
    open.erase(std::remove_if(open.begin(), open.end(),
                              [&](size_t r) { return cands[runs[r].members.back()].page + 1 < c.page; }),
               open.end());
    bool placed = false;
    for (auto r = open.rbegin(); r != open.rend() && !placed; ++r) {
      Run& run = runs[*r];
      const Candidate& p = cands[run.members.back()];
      if (p.left != c.left || std::abs(p.x - c.x) > o.line_number_x_tolerance) continue;
      int dv = c.value - p.value;
      bool follows = false;
      if (c.page == p.page) follows = dv > 0 && dv == c.row - p.row;
      // Across a page break: the rows after the previous number plus those before this one.
      else if (c.page == p.page + 1) follows = dv > 0 && dv == (static_cast<int>(page_rows[p.page][static_cast<size_t>(p.lane)].size()) - 1 - p.row) + c.row + 1;
      if (follows) {
        run.members.push_back(i);
        placed = true;
      }
    }
    if (!placed) {
      open.push_back(runs.size());
      runs.push_back({{i}});
    }
  }

  std::vector<size_t>& accepted = st.accepted;
  std::vector<size_t>& separator = st.separator;
  separator.assign(cands.size(), 0);
  for (const auto& r : runs) {
    long beside = std::count_if(r.members.begin(), r.members.end(), [&](size_t m) { return cands[m].beside_code; });
    if (beside < o.min_line_number_run) continue;
    if (cands[r.members.front()].form == Form::Prefix && !covers_listing(r, cands, page_rows, o)) continue;
    // The separator is the narrowest run of spaces after a number in the column; spaces beyond
    // it on a line are that line's indentation and stay with the code.
    size_t sep = 0;
    for (size_t k = 0; k < r.members.size(); ++k) {
      size_t sp = cands[r.members[k]].spaces_after;
      if (k == 0 || sp < sep) sep = sp;
    }
    for (size_t m : r.members) {
      accepted.push_back(m);
      separator[m] = sep;
    }
  }
  if (accepted.empty()) return;
  // Spans are cut from the right so earlier span indexes stay valid.
  std::stable_sort(accepted.begin(), accepted.end(), [&](size_t ia, size_t ib) {
    const Candidate& a = cands[ia];
    const Candidate& b = cands[ib];
    if (a.page != b.page) return a.page < b.page;
    if (a.line != b.line) return a.line < b.line;
    return a.span > b.span;
  });
  for (size_t k = 0; k < accepted.size();) {
    size_t e = k + 1;
    while (e < accepted.size() && cands[accepted[e]].page == cands[accepted[k]].page) ++e;
    st.page_range[cands[accepted[k]].page] = {k, e};
    k = e;
  }
}

bool LineNumberPass::cuts(size_t pi) const {
  const auto [begin, end] = state_->page_range[pi];
  return begin != end;
}

void LineNumberPass::cut_page(size_t pi) {
  State& st = *state_;
  const auto [begin, end] = st.page_range[pi];
  if (begin == end) return;
  Page& page = st.doc.pages[pi];
  std::vector<Removal>& out = st.logged[pi];
  // Lines to drop entirely, spans to drop, prefixes to cut.
  std::vector<size_t> drop_lines;
  for (size_t k = begin; k < end; ++k) {
    const Candidate* c = &st.cands[st.accepted[k]];
    Line& l = page.lines[c->line];
    switch (c->form) {
      case Form::OwnLine:
        for (auto& s : l.spans)
          if (!s.text.empty()) out.push_back(cut_span(s, 0, utf8_length(s.text), page.number, "line-number"));
        drop_lines.push_back(c->line);
        break;
      case Form::FirstSpan:
      case Form::LastSpan: {
        Span& s = l.spans[c->span];
        out.push_back(cut_span(s, 0, utf8_length(s.text), page.number, "line-number"));
        l.spans.erase(l.spans.begin() + static_cast<long>(c->span));
        refit_line_box(l);
        break;
      }
      case Form::Prefix:
        out.push_back(cut_span(l.spans[c->span], 0, c->digits_end + st.separator[st.accepted[k]], page.number, "line-number"));
        refit_line_box(l);
        break;
    }
  }
  std::sort(drop_lines.begin(), drop_lines.end());
  drop_lines.erase(std::unique(drop_lines.begin(), drop_lines.end()), drop_lines.end());
  auto& pl = page.lines;
  for (auto it = drop_lines.rbegin(); it != drop_lines.rend(); ++it) pl.erase(pl.begin() + static_cast<long>(*it));
}

void LineNumberPass::append_log(std::vector<Removal>& removed) { append_in_page_order(state_->logged, removed); }

}  // namespace quire::clean_detail
