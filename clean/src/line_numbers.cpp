// Margin line numbers of code listings.
//
// A listing's line numbers form a column: integers that increase by exactly the number of
// listing rows between them (1, 2, 3 on consecutive rows; 5, 10 when every fifth row is
// numbered), right-aligned at one x, beside monospace lines. They come as their own line or
// span beside the code, or at the start of the code line's first span separated by spaces
// (`cat -n` style). Data that begins with numbers ("1 2 3" / "4 5 6") does not advance by one
// per row, a lone column of numbers with no code beside it is data, and a number in the code's
// own style with more text on both sides, or beside more code in the same style, is a column of
// a printed table. Only the `cat -n` form (number and code in one span) relies on the sequence
// alone, so monospace data lines that start with consecutive numbers would be taken for it.
#include <algorithm>
#include <cmath>
#include <map>

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
  int row = 0;
};

std::string trimmed(const std::string& s) {
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

constexpr int kLineNumberDigits = 6;  // listings longer than 999,999 lines are not typeset

bool is_code(const Line& l, double share, size_t skip_first = 0, size_t skip_last = 0) {
  size_t mono = 0, all = 0;
  for (size_t i = skip_first; i + skip_last < l.spans.size(); ++i) {
    size_t n = 0;
    for (char32_t c : to_u32(l.spans[i].text))
      if (!is_space_cp(c)) ++n;
    all += n;
    if (l.spans[i].monospace) mono += n;
  }
  return all > 0 && static_cast<double>(mono) >= share * static_cast<double>(all);
}

std::optional<int> number_of(const std::string& text) { return parse_arabic(trimmed(text), kLineNumberDigits); }

// A margin number set apart from the code (another size, font or colour) is the listing's
// numbering; a number in the code's own style beside more code is a column of data.
bool distinct_style(const Span& number, const Span& code, const CleanOptions& o) {
  return std::abs(number.size - code.size) > o.line_number_size_delta || number.font != code.font ||
         number.color != code.color;
}

const Span& first_visible(const Line& l) {
  for (const auto& s : l.spans)
    if (!trimmed(s.text).empty()) return s;
  return l.spans.front();
}

const Span& last_visible(const Line& l) {
  for (auto it = l.spans.rbegin(); it != l.spans.rend(); ++it)
    if (!trimmed(it->text).empty()) return *it;
  return l.spans.back();
}

// Index of the first and last span with visible text.
std::pair<long, long> visible_span_range(const Line& l) {
  long first = -1, last = -1;
  for (size_t i = 0; i < l.spans.size(); ++i)
    if (!trimmed(l.spans[i].text).empty()) {
      if (first < 0) first = static_cast<long>(i);
      last = static_cast<long>(i);
    }
  return {first, last};
}

// Appends the page's candidates; returns the baselines of the page's listing rows.
std::vector<double> page_candidates(const Page& page, size_t pi, const CleanOptions& o, std::vector<Candidate>& out) {
  std::vector<size_t> code;     // code lines that are not a bare number
  std::vector<size_t> numbers;  // lines that are a bare number
  for (size_t li = 0; li < page.lines.size(); ++li) {
    const Line& l = page.lines[li];
    if (number_of(l.text())) numbers.push_back(li);
    else if (is_code(l, o.code_monospace_share)) code.push_back(li);
  }
  if (code.empty()) return {};
  std::vector<Candidate> found;
  for (size_t li : numbers) {
    const Line& n = page.lines[li];
    Candidate c;
    c.page = pi;
    c.line = li;
    c.form = Form::OwnLine;
    c.value = *number_of(n.text());
    c.baseline = line_baseline(n);
    c.beside_code = false;
    // The margin column is the outermost thing on its row: nothing on the same baseline lies
    // beyond it (a column inside a printed matrix has neighbours on both sides).
    bool any_left = false, any_right = false;
    for (size_t oi = 0; oi < page.lines.size(); ++oi) {
      const Line& k = page.lines[oi];
      if (oi == li || std::abs(line_baseline(k) - c.baseline) > o.baseline_tolerance) continue;
      if (k.bbox.x1 <= n.bbox.x0) any_left = true;
      if (k.bbox.x0 >= n.bbox.x1) any_right = true;
    }
    for (size_t ci : code) {
      const Line& k = page.lines[ci];
      if (std::abs(line_baseline(k) - c.baseline) > o.baseline_tolerance) continue;
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
    const Line& l = page.lines[li];
    auto [first, last] = visible_span_range(l);
    if (first < 0) continue;
    Candidate c;
    c.page = pi;
    c.line = li;
    c.baseline = line_baseline(l);
    const Span& fs = l.spans[static_cast<size_t>(first)];
    const Span& ls = l.spans[static_cast<size_t>(last)];
    if (first != last && number_of(fs.text) && is_code(l, o.code_monospace_share, static_cast<size_t>(first) + 1) &&
        distinct_style(fs, l.spans[static_cast<size_t>(first) + 1], o)) {
      c.form = Form::FirstSpan;
      c.span = static_cast<size_t>(first);
      c.value = *number_of(fs.text);
      c.left = true;
      c.x = fs.bbox.x1;
      found.push_back(c);
      continue;
    }
    if (first != last && number_of(ls.text) && is_code(l, o.code_monospace_share, 0, l.spans.size() - static_cast<size_t>(last)) &&
        distinct_style(ls, l.spans[static_cast<size_t>(last) - 1], o)) {
      c.form = Form::LastSpan;
      c.span = static_cast<size_t>(last);
      c.value = *number_of(ls.text);
      c.left = false;
      c.x = ls.bbox.x0;
      found.push_back(c);
      continue;
    }
    // `cat -n` style: "  12  int x;" in one monospace span.
    if (!fs.monospace) continue;
    std::u32string cps = to_u32(fs.text);
    size_t k = 0;
    while (k < cps.size() && is_space_cp(cps[k])) ++k;
    size_t d = k;
    while (d < cps.size() && cps[d] >= U'0' && cps[d] <= U'9') ++d;
    size_t e = d;
    while (e < cps.size() && is_space_cp(cps[e])) ++e;
    if (d == k || e == d || e == cps.size() || static_cast<int>(d - k) > kLineNumberDigits) continue;
    c.form = Form::Prefix;
    c.span = static_cast<size_t>(first);
    c.digits_end = d;
    c.spaces_after = e - d;
    c.value = *parse_arabic(from_u32(cps.substr(k, d - k)), kLineNumberDigits);
    c.left = true;
    c.x = piece_box(fs, k, d).x1;
    found.push_back(c);
  }
  // Listing rows of the page: distinct baselines of code lines and bare numbers.
  std::vector<double> bases;
  for (size_t li : code) bases.push_back(line_baseline(page.lines[li]));
  for (size_t li : numbers) bases.push_back(line_baseline(page.lines[li]));
  std::sort(bases.begin(), bases.end());
  std::vector<double> rows;
  for (double b : bases)
    if (rows.empty() || b - rows.back() > o.baseline_tolerance) rows.push_back(b);
  for (auto& c : found) {
    auto it = std::lower_bound(rows.begin(), rows.end(), c.baseline - o.baseline_tolerance);
    c.row = static_cast<int>(it - rows.begin());
  }
  std::stable_sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) { return a.row < b.row; });
  for (auto& c : found) out.push_back(c);
  return rows;
}

struct Run {
  std::vector<size_t> members;  // indexes into candidates
};

// `cat -n` numbering covers its whole listing, one number per row: a run of numbered rows with
// an unnumbered row of the same listing right before or after it (one line pitch away) is data
// that starts with row numbers (R's printed data frames: "1 Colorado", "2 Arizona", ...).
bool covers_listing(const Run& run, const std::vector<Candidate>& cands,
                    const std::vector<std::vector<double>>& page_rows, const CleanOptions& o) {
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
  const auto& fr = page_rows[f.page];
  const auto& lr = page_rows[l.page];
  auto fi = static_cast<size_t>(f.row), li = static_cast<size_t>(l.row);
  if (fi > 0 && fi < fr.size() && fr[fi] - fr[fi - 1] <= o.listing_pitch_ratio * pitch) return false;
  if (li + 1 < lr.size() && lr[li + 1] - lr[li] <= o.listing_pitch_ratio * pitch) return false;
  return true;
}

}  // namespace

void remove_line_numbers(Document& doc, const CleanOptions& o, std::vector<Removal>& removed) {
  std::vector<Candidate> cands;
  std::vector<std::vector<double>> page_rows(doc.pages.size());
  for (size_t pi = 0; pi < doc.pages.size(); ++pi) {
    page_rows[pi] = page_candidates(doc.pages[pi], pi, o, cands);
  }
  if (cands.empty()) return;

  std::vector<Run> runs;
  for (size_t i = 0; i < cands.size(); ++i) {
    const Candidate& c = cands[i];
    bool placed = false;
    for (auto r = runs.rbegin(); r != runs.rend() && !placed; ++r) {
      const Candidate& p = cands[r->members.back()];
      if (p.left != c.left || std::abs(p.x - c.x) > o.line_number_x_tolerance) continue;
      int dv = c.value - p.value;
      bool follows = false;
      if (c.page == p.page) follows = dv > 0 && dv == c.row - p.row;
      // Across a page break: the rows after the previous number plus those before this one.
      else if (c.page == p.page + 1) follows = dv > 0 && dv == (static_cast<int>(page_rows[p.page].size()) - 1 - p.row) + c.row + 1;
      if (follows) {
        r->members.push_back(i);
        placed = true;
      }
    }
    if (!placed) runs.push_back({{i}});
  }

  // Per page: lines to drop entirely, spans to drop, prefixes to cut.
  std::map<size_t, std::vector<size_t>> drop_lines;
  std::vector<const Candidate*> accepted;
  std::map<const Candidate*, size_t> separator;  // Prefix: spaces that go with the number
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
      accepted.push_back(&cands[m]);
      separator[&cands[m]] = sep;
    }
  }
  // Spans are cut from the right so earlier span indexes stay valid.
  std::stable_sort(accepted.begin(), accepted.end(), [](const Candidate* a, const Candidate* b) {
    if (a->page != b->page) return a->page < b->page;
    if (a->line != b->line) return a->line < b->line;
    return a->span > b->span;
  });
  for (const Candidate* c : accepted) {
    Page& page = doc.pages[c->page];
    Line& l = page.lines[c->line];
    switch (c->form) {
      case Form::OwnLine:
        for (auto& s : l.spans)
          if (!s.text.empty()) removed.push_back(cut_span(s, 0, utf8_length(s.text), page.number, "line-number"));
        drop_lines[c->page].push_back(c->line);
        break;
      case Form::FirstSpan:
      case Form::LastSpan: {
        Span& s = l.spans[c->span];
        removed.push_back(cut_span(s, 0, utf8_length(s.text), page.number, "line-number"));
        l.spans.erase(l.spans.begin() + static_cast<long>(c->span));
        refit_line_box(l);
        break;
      }
      case Form::Prefix:
        removed.push_back(cut_span(l.spans[c->span], 0, c->digits_end + separator[c], page.number, "line-number"));
        refit_line_box(l);
        break;
    }
  }
  for (auto& [pi, lines] : drop_lines) {
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    auto& pl = doc.pages[pi].lines;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) pl.erase(pl.begin() + static_cast<long>(*it));
  }
}

}  // namespace quire::clean_detail
