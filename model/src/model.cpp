#include <algorithm>

#include "quire/error.h"
#include "quire/model.h"
#include "quire/text.h"
#include "quire/typography.h"

namespace quire {

Box Box::united(const Box& o) const {
  if (empty() && x0 == 0 && y0 == 0 && x1 == 0 && y1 == 0) return o;
  return {std::min(x0, o.x0), std::min(y0, o.y0), std::max(x1, o.x1), std::max(y1, o.y1)};
}

bool Box::intersects(const Box& o) const {
  return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1;
}

bool Box::contains(const Box& o, double slack) const {
  return o.x0 >= x0 - slack && o.y0 >= y0 - slack && o.x1 <= x1 + slack && o.y1 <= y1 + slack;
}

double Box::overlap_ratio(const Box& o) const {
  double area = width() * height();
  if (area <= 0) return 0;
  double w = std::min(x1, o.x1) - std::max(x0, o.x0);
  double h = std::min(y1, o.y1) - std::max(y0, o.y0);
  if (w <= 0 || h <= 0) return 0;
  return w * h / area;
}

long WordLedger::removed_total() const {
  long n = 0;
  for (const auto& r : removed) n += r.second;
  return n;
}

void WordLedger::add(const WordLedger& o) {
  extracted += o.extracted;
  text += o.text;
  labels += o.labels;
  excluded += o.excluded;
  missing += o.missing;
  added += o.added;
  misplaced += o.misplaced;
  for (const auto& [reason, n] : o.removed) add_removed(reason, n);
}

void WordLedger::add_removed(const std::string& reason, long n) {
  if (n == 0) return;  // (a drawing taken off a page takes no word with it)
  auto it = std::lower_bound(removed.begin(), removed.end(), reason,
                             [](const auto& e, const std::string& r) { return e.first < r; });
  if (it != removed.end() && it->first == reason) it->second += n;
  else removed.insert(it, {reason, n});
}

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n'; }

}  // namespace

// Footnote marks are set as superscripts ("Congress.¹", "¹Previously"); they are words of
// their own, not part of the word they touch.
bool raised_against(const Span& mark, const Span& text) {
  if (mark.baseline <= 0 || text.baseline <= 0 || text.size <= 0) return false;  // unknown baselines
  return mark.size <= typography::kRaisedSizeRatio * text.size &&
         text.baseline - mark.baseline >= typography::kRaisedRiseRatio * text.size;
}

bool spans_apart(const Span& a, const Span& b) { return raised_against(a, b) || raised_against(b, a); }

namespace {

// Text that reads as a note mark or a piece of one: digits or note symbols, perhaps in
// brackets or parentheses ("1", "[12]", "*", "¹"; "[" "1" "]" set as three spans),
// of a mark's length.
bool mark_text(std::string_view text) {
  const std::u32string t = to_u32(text);
  if (t.size() > typography::kMaxNoteMarkDigits + 2) return false;
  for (char32_t c : t) {
    const bool digit = (c >= U'0' && c <= U'9') || typography::is_superscript_digit(c);
    if (!digit && !typography::is_note_symbol(c) && c != U'[' && c != U']' && c != U'(' && c != U')' && c != U' ')
      return false;
  }
  return true;
}

}  // namespace

double Line::baseline() const {
  const Span* largest = nullptr;
  for (const auto& s : spans)
    if (s.baseline != 0 && (!largest || s.size > largest->size)) largest = &s;
  if (!largest) return bbox.y1;
  for (const auto& s : spans)
    if (s.baseline != 0 && !(raised_against(s, *largest) && mark_text(s.text))) return s.baseline;
  return largest->baseline;
}

bool Line::opens_with_note_mark() const {
  size_t i = 0;
  while (i < spans.size() && spans[i].text.find_first_not_of(" \t\n") == std::string::npos) ++i;
  if (i == spans.size() || !mark_text(spans[i].text)) return false;
  for (size_t k = i + 1; k < spans.size(); ++k)
    if (!mark_text(spans[k].text)) return raised_against(spans[i], spans[k]);
  return false;
}

bool Line::space_before(size_t i) const {
  if (i == 0 || i >= spans.size() || spans[i].text.empty() || is_blank(spans[i].text.front())) return false;
  // The text so far ends with the last byte of the nearest span before that has text.
  size_t k = i;
  while (k > 0 && spans[k - 1].text.empty()) --k;
  if (k == 0 || is_blank(spans[k - 1].text.back())) return false;
  return spans_apart(spans[i - 1], spans[i]);
}

std::string Line::text() const {
  std::string s;
  size_t bytes = spans.size();
  for (const auto& sp : spans) bytes += sp.text.size();
  s.reserve(bytes);
  for (size_t i = 0; i < spans.size(); ++i) {
    if (space_before(i)) s += ' ';
    s += spans[i].text;
  }
  return s;
}

namespace {
constexpr const char* kBlockNames[] = {"heading", "paragraph", "code",  "list_item", "caption",
                                       "footnote", "table",     "note", "figure"};
}

const char* to_string(BlockType t) { return kBlockNames[static_cast<int>(t)]; }

const char* to_string(InlineStyle s) {
  switch (s) {
    case InlineStyle::Code: return "code";
    case InlineStyle::Emphasis: return "em";
    case InlineStyle::Strong: return "strong";
  }
  return "code";
}

std::optional<InlineStyle> inline_style_from_string(const std::string& s) {
  for (auto st : {InlineStyle::Code, InlineStyle::Emphasis, InlineStyle::Strong})
    if (s == to_string(st)) return st;
  return std::nullopt;
}

std::string text_with_marks(std::string_view text, const std::vector<NoteMark>& marks, MarksAs as,
                            const std::function<std::string(std::string_view)>& piece,
                            const std::function<std::string(const std::string&)>& mark) {
  auto as_piece = [&](std::string_view s) { return piece ? piece(s) : std::string(s); };
  std::string out;
  size_t byte = 0, cp = 0;  // where the text is copied up to
  for (const NoteMark& m : marks) {
    const size_t from = byte;
    while (byte < text.size() && cp < m.at) {
      ++byte;
      while (byte < text.size() && (static_cast<unsigned char>(text[byte]) & 0xC0) == 0x80) ++byte;
      ++cp;
    }
    out += as_piece(text.substr(from, byte - from));
    const bool apart = as == MarksAs::Words && !m.glued;  // (a glued mark is printed touching its words)
    if (apart && byte > 0) out += as_piece(" ");
    out += mark ? mark(m.mark) : m.mark;
    if ((apart || (as == MarksAs::Printed && byte == 0)) && byte < text.size() && text[byte] != ' ') out += as_piece(" ");
  }
  out += as_piece(text.substr(byte));
  return out;
}

std::optional<BlockType> block_type_from_string(const std::string& s) {
  for (int i = 0; i < 9; ++i)
    if (s == kBlockNames[i]) return static_cast<BlockType>(i);
  return std::nullopt;
}

const char* to_string(ChapterKind k) {
  switch (k) {
    case ChapterKind::Front: return "front";
    case ChapterKind::Body: return "body";
    case ChapterKind::Appendix: return "appendix";
    case ChapterKind::Back: return "back";
  }
  return "body";
}

std::optional<ChapterKind> chapter_kind_from_string(const std::string& s) {
  for (ChapterKind k : {ChapterKind::Front, ChapterKind::Body, ChapterKind::Appendix, ChapterKind::Back})
    if (s == to_string(k)) return k;
  return std::nullopt;
}

std::string Error::message() const {
  std::string m = file.empty() ? std::string() : file + ": ";
  if (page > 0) m += "page " + std::to_string(page) + ": ";
  return m + what();
}

}  // namespace quire
