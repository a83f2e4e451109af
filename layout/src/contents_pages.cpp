// Contents and index pages: most of their rows end with a page number or hold dot leaders.
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

// Dot leaders between a contents entry and its page number: a run of dots, which OCR may
// read partly as "0", "o" or "," ("..0..0.00..") but mostly as dots.
bool has_leader_run(const std::string& text, const LayoutOptions& o) {
  size_t run = 0, dots = 0;
  for (char c : text) {
    if (c == ' ') continue;
    if (c == '.' || c == '0' || c == 'o' || c == ',') {
      ++run;
      if (c == '.') ++dots;
      if (run >= o.chapters.min_leader_chars && typography::more_than_half(dots, run)) return true;
    } else {
      run = dots = 0;
    }
  }
  return false;
}

std::vector<NumberRow> number_rows(const Page& page, const PageLines& pl, const LayoutOptions& o) {
  // Rows of the page (a contents line is often several lines: number, title, leaders, page).
  std::vector<const Line*> lines;
  for (const auto& l : page.lines)
    if (pl.visible(l)) lines.push_back(&l);
  std::stable_sort(lines.begin(), lines.end(), [](const Line* a, const Line* b) { return a->bbox.y1 < b->bbox.y1; });
  std::vector<NumberRow> rows;
  for (size_t i = 0; i < lines.size();) {
    // (A line is in its own row even where its box has no height: glyphs without metrics.)
    size_t j = i + 1;
    std::vector<const Line*> row{lines[i]};
    while (j < lines.size() && std::fabs(lines[j]->bbox.y1 - lines[i]->bbox.y1) <
                                   o.chapters.contents_row_tolerance * lines[i]->bbox.height())
      row.push_back(lines[j++]);
    i = j;
    std::stable_sort(row.begin(), row.end(), [](const Line* a, const Line* b) { return a->bbox.x0 < b->bbox.x0; });
    std::string text;
    double top = 1e300;
    for (const Line* l : row) {
      text += pl.text(*l);
      text += ' ';
      top = std::min(top, l->bbox.y0);
    }
    bool more = false;
    const std::optional<std::string> last_tok = last_token(text, &more);
    if (!last_tok) continue;
    const std::string& last = *last_tok;
    // Arabic or roman page numbers, or a list of them ("12, 34, 56" in an index).
    bool number = std::all_of(last.begin(), last.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) || c == ',' || c == '-' || std::strchr("ivxlcdm", c);
    }) && std::any_of(last.begin(), last.end(), [](char c) { return c != ',' && c != '-'; });
    rows.push_back({top, (number && more) || has_leader_run(text, o)});
  }
  return rows;
}

double entry_share(const std::vector<NumberRow>& rows, double from, double to) {
  int counted = 0, entries = 0;
  for (const auto& r : rows)
    if (r.top >= from && r.top < to) {
      ++counted;
      if (r.entry) ++entries;
    }
  return counted ? static_cast<double>(entries) / counted : 0;
}

}  // namespace quire::detail
