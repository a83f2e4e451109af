// Continuation notes: the line a typesetter sets where a listing or table breaks over a page,
// "(continues on next page)" under its first part and "(continued from previous page)" over
// the rest (Sphinx's listings, longtable's "Continued on next page"). They are the layout's,
// not the text's, and would stand between the lines of the listing they interrupt.
#include <regex>

#include "internal.h"
#include "quire/text.h"

namespace quire::clean_detail {

namespace {

// The note, whole: brackets and a final full stop aside, any capitals.
bool continuation_note(const std::string& text) {
  std::string t;
  for (const auto& w : whitespace_tokens(text)) t += (t.empty() ? "" : " ") + w;
  while (!t.empty() && (t.front() == '(' || t.front() == '[')) t.erase(t.begin());
  while (!t.empty() && (t.back() == ')' || t.back() == ']' || t.back() == '.')) t.pop_back();
  for (auto& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const std::regex note(
      R"(^(continued|continues|cont\.?) (on|from|to) (the )?(next|previous|following|preceding) page$)");
  return t.size() < 48 && std::regex_match(t, note);
}

}  // namespace

void remove_continuation_notes(Page& page, std::vector<Removal>& removed) {
  for (auto it = page.lines.begin(); it != page.lines.end();) {
    if (!continuation_note(it->text())) {
      ++it;
      continue;
    }
    for (const auto& s : it->spans)
      if (!s.text.empty()) removed.push_back({page.number, s.bbox, s.text, "continuation-note"});
    it = page.lines.erase(it);
  }
}

}  // namespace quire::clean_detail
