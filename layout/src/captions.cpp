// Captions: a caption starts with its label ("Figure 1.1", "Table 2") and stands next to its
// figure, set apart from the body text by size or space.
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

namespace {

// A caption's label and nothing else: "Figure 3.", "Table 2.1:".
bool label_alone(const std::string& text) {
  const std::string label = caption_label(text);
  if (label.empty()) return false;
  auto words = whitespace_tokens(text);
  return words.size() == whitespace_token_count(label);
}

}  // namespace

std::string caption_label(const std::string& text) {
  // "Figure 1.1:", "Figure 3-2.", "Fig. 4", "Table 2:", "Listing 5", "Exhibit A".
  // The caption words capitalised or in capitals (a lowercase "figure 3" goes on a sentence).
  static const std::vector<std::string> kWords = [] {
    std::vector<std::string> out;
    for (std::string_view w : typography::kCaptionWords) {
      std::string title(w), caps(w);
      title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
      for (auto& c : caps) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      out.push_back(title);
      out.push_back(caps);
    }
    return out;
  }();
  // (Every row is asked: most start with none of the words' initials.)
  switch (text.empty() ? '\0' : text[0]) {
    case 'F': case 'T': case 'L': case 'E': case 'P': case 'C': case 'D': break;
    default: return {};
  }
  for (const std::string& ws : kWords) {
    if (text.rfind(ws, 0) != 0) continue;
    // The whole word: "Figures 3" is no "Figure", "Fight" no "Fig".
    if (ws.size() < text.size() && std::isalpha(static_cast<unsigned char>(text[ws.size()]))) continue;
    size_t i = ws.size();
    while (i < text.size() && text[i] == ' ') ++i;
    size_t j = i;
    while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '.' || text[j] == '-'))
      ++j;
    if (j == i || !std::isalnum(static_cast<unsigned char>(text[i]))) continue;
    // A number must contain a digit or be a single letter ("Exhibit A").
    std::string num = text.substr(i, j - i);
    while (!num.empty() && (num.back() == '.' || num.back() == '-')) num.pop_back();
    bool digit = std::any_of(num.begin(), num.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (!digit && num.size() != 1) continue;
    return ws + " " + num;
  }
  return {};
}

// The lines of a caption that starts at row `start` and runs down: same size, tight leading,
// and set as the caption is: flush with the line above, centred under it, or, under a full
// line, hanging under the text after the label or back at the column's edge (a caption set
// as an indented paragraph). A short line that ends a sentence ends it: the paragraph that
// opens under a one-line caption is not the caption's.
size_t caption_end(const std::vector<Row>& rows, size_t start, const LayoutOptions& o) {
  const Row& first = rows[start];
  size_t end = start + 1;
  while (end < rows.size()) {
    const Row& prev = rows[end - 1];
    const Row& r = rows[end];
    double pitch = r.baseline - prev.baseline;
    if (pitch > typography::max_line_pitch(prev.size, o.blocks.paragraph_gap_ratio) ||
        !typography::same_size(r.size, prev.size, o.blocks.size_step_tolerance))
      break;
    if (r.caption) break;
    const double tol = o.blocks.caption_align_tolerance * prev.size;
    // The label alone on the first line ("Figure 3." over the text).
    const bool after_label = end - 1 == start && label_alone(prev.text);
    const bool flush = std::fabs(r.bbox.x0 - prev.bbox.x0) <= tol;
    // (The lines of a centred caption fill its measure but the last: none is wider than
    // the line above, but for the text under a label set alone, or where the typesetter
    // balances a caption's lines (ConTeXt), a line set in from both edges of the column:
    // a line of the text under the caption runs from edge to edge.)
    const bool inset = r.bbox.x0 > r.col_left + tol && r.bbox.x1 < r.col_right - tol;
    const bool centred = typography::same_centre(r.bbox.x0, r.bbox.x1, prev.bbox.x0, prev.bbox.x1, tol) &&
                         (r.bbox.width() <= prev.bbox.width() + tol || after_label || inset);
    const bool full = prev.bbox.x1 >= prev.col_right - tol;
    // A short line that ends a sentence is the caption's last.
    if (!full && prev.full_stop && !after_label) break;
    const bool hanging = full && r.bbox.x0 > first.bbox.x0 + tol &&
                         r.bbox.x0 <= first.bbox.x0 + o.blocks.caption_hang_max_ratio * first.bbox.width();
    // A caption set as a paragraph: its first line indented, the next back at the edge.
    const bool wrapped = full && r.bbox.x0 < prev.bbox.x0 && r.bbox.x0 <= r.col_left + tol;
    if (!flush && !centred && !hanging && !wrapped) break;
    ++end;
  }
  return end;
}

}  // namespace quire::detail
