// Note marks: a footnote's mark in the text is set smaller than its row and raised over its
// baseline (or in superscript digits), and is kept apart from the words it follows.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

#include "internal.h"
#include "quire/text.h"
#include "quire/typography.h"
#include "note_marks.h"
#include "text_chars.h"

namespace quire::detail {

namespace {

// A note mark: a span of one to three digits, or one note symbol, set smaller than its row
// and raised over its baseline, or in superscript digits.
bool is_note_mark(const Span& s, const Row& r) {
  // Most spans are words of the text: only a short one, raised or with a byte that may
  // start a superscript digit, is looked at further.
  if (s.text.empty() || s.text.size() > kMaxUtf8Bytes * typography::kMaxNoteMarkDigits) return false;
  const bool raised = s.size <= typography::kRaisedSizeRatio * r.size &&
                      s.baseline <= r.baseline - typography::kRaisedRiseRatio * r.size;
  if (!raised && s.text.find_first_of("\xc2\xe2") == std::string::npos) return false;
  const auto toks = whitespace_tokens(s.text);
  if (toks.size() != 1) return false;
  const std::u32string t = to_u32(toks[0]);
  bool superscript = true, digits = true;
  for (char32_t c : t) {
    superscript = superscript && typography::is_superscript_digit(c);
    digits = digits && c >= U'0' && c <= U'9';
  }
  const bool symbol = t.size() == 1 && typography::is_note_symbol(t[0]);
  return !t.empty() && t.size() <= typography::kMaxNoteMarkDigits && (superscript || ((digits || symbol) && raised));
}

}  // namespace

std::vector<std::string> texts_with_marks(const std::vector<const Row*>& rows) {
  bool any = false;  // (most blocks cite no note: they are looked at once, and left)
  for (const Row* r : rows)
    for (const Line* l : r->lines)
      for (const Span& s : l->spans) any = any || is_note_mark(s, *r);
  if (!any) return {};
  std::vector<std::string> texts;
  for (const Row* r : rows) {
    std::string t;
    for (const Line* l : r->lines) {
      if (!t.empty()) t += ' ';
      for (size_t i = 0; i < l->spans.size(); ++i) {
        const Span& s = l->spans[i];
        if (l->space_before(i)) t += ' ';
        if (!is_note_mark(s, *r)) {
          t += s.text;
          continue;
        }
        const size_t from = s.text.find_first_not_of(" \t\n"), to = s.text.find_last_not_of(" \t\n") + 1;
        t.append(s.text, 0, from);
        t += kMarkOpen;
        t.append(s.text, from, to - from);
        t += kMarkClose;
        t.append(s.text, to);
      }
    }
    texts.push_back(std::move(t));
  }
  for (size_t k = 0; k < rows.size(); ++k) {
    std::string plain;
    for (char c : texts[k])
      if (c != kMarkOpen && c != kMarkClose) plain += c;
    if (plain != rows[k]->text || rows[k]->text.find_first_of("\x01\x02") != std::string::npos) return {};
  }
  return texts;
}

// A text made from texts_with_marks less the brackets; each mark found is a RaisedMark at
// the code point where it starts.
std::string find_raised(const std::string& marked, std::vector<RaisedMark>& raised) {
  std::string text;
  text.reserve(marked.size());
  size_t cp = 0;
  for (size_t i = 0; i < marked.size(); ++i) {
    if (marked[i] == kMarkOpen) {
      const size_t close = marked.find(kMarkClose, i);
      if (close != std::string::npos) raised.push_back({cp, marked.substr(i + 1, close - i - 1)});
      continue;
    }
    if (marked[i] == kMarkClose) continue;
    if ((static_cast<unsigned char>(marked[i]) & 0xC0) != 0x80) ++cp;
    text += marked[i];
  }
  return text;
}

void strip_mark_bytes(std::string& s) { std::erase_if(s, [](char c) { return c == kMarkOpen || c == kMarkClose; }); }

}  // namespace quire::detail
