// Continuation notes: the line a typesetter sets where a listing or table breaks over a page,
// "(continues on next page)" under its first part and "(continued from previous page)" over
// the rest (Sphinx's listings, longtable's "Continued on next page"). They are the layout's,
// not the text's, and would stand between the lines of the listing they interrupt.
#include <cstring>
#include <initializer_list>

#include "internal.h"
#include "quire/text.h"

namespace quire::clean_detail {

namespace {

// The note, whole: brackets and a final full stop aside, any capitals. "continued on the
// next page", "continues on next page", "(continued from previous page)", "cont. on next page".
bool continuation_note(const std::string& text) {
  if (text.size() > 48) return false;
  std::string t = text;
  for (auto& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto words = whitespace_tokens(t);
  if (words.size() < 4 || words.size() > 5) return false;
  auto strip = [](std::string& w, const char* chars) {
    while (!w.empty() && std::strchr(chars, w.front())) w.erase(w.begin());
    while (!w.empty() && std::strchr(chars, w.back())) w.pop_back();
  };
  strip(words.front(), "([");
  strip(words.back(), ")].");
  auto one_of = [](const std::string& w, std::initializer_list<const char*> options) {
    for (const char* o : options)
      if (w == o) return true;
    return false;
  };
  size_t i = 0;
  if (!one_of(words[i++], {"continued", "continues", "cont", "cont."})) return false;
  if (!one_of(words[i++], {"on", "from", "to"})) return false;
  if (words.size() == 5 && words[i++] != "the") return false;
  if (!one_of(words[i++], {"next", "previous", "following", "preceding"})) return false;
  return words[i] == "page";
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
