// Footnotes: a note's mark is raised in the block that cites it; the note goes right after
// that block. Figures are linked from the first block that cites them.
#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <regex>
#include <thread>

#include "figures.h"
#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "quire/typography.h"
#include "chapters.h"
#include "note_marks.h"

namespace quire::detail {

namespace {

// Whether a character closes what comes before it: no space goes before it in running text.
bool closes(char c) { return c == ',' || c == '.' || c == ';' || c == ':' || c == ')' || c == ']' || c == '!' || c == '?'; }

// Takes the marks `take` (ascending, each at the code point where it starts) out of a text
// that sets each apart, as a word of its own (Line::text does): with the space before it,
// and with the space after it too where punctuation follows ("systems 1 ." -> "systems.").
// Nothing when the text left is not tidy or text_with_marks would not give the text back.
std::optional<std::pair<std::string, std::vector<NoteMark>>> take_marks(const std::string& text,
                                                                        const std::vector<const RaisedMark*>& take) {
  std::string left;
  std::vector<NoteMark> marks;
  size_t byte = 0, cp = 0;
  auto is_lead = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
  auto code_points = [&](const std::string& s) {
    return static_cast<size_t>(std::count_if(s.begin(), s.end(), is_lead));
  };
  for (const RaisedMark* m : take) {
    if (m->at < cp || m->mark.empty()) return std::nullopt;
    while (byte < text.size() && cp < m->at) {
      left += text[byte++];
      while (byte < text.size() && !is_lead(text[byte])) left += text[byte++];
      ++cp;
    }
    if (text.compare(byte, m->mark.size(), m->mark) != 0) return std::nullopt;
    byte += m->mark.size();
    cp += code_points(m->mark);
    if (!m->glued) {  // (a glued mark has no space of its own on either side)
      if (!left.empty() && left.back() == ' ') left.pop_back();
      const bool space_after = byte < text.size() && text[byte] == ' ';
      if (space_after && (left.empty() || (byte + 1 < text.size() && closes(text[byte + 1])))) {
        ++byte;
        ++cp;
      }
    }
    marks.push_back({code_points(left), m->mark, m->glued});
  }
  left.append(text, byte);
  const bool tidy = !left.empty() && left.front() != ' ' && left.back() != ' ' && left.find("  ") == std::string::npos;
  if (!tidy || text_with_marks(left, marks) != text) return std::nullopt;
  return std::make_pair(std::move(left), std::move(marks));
}

// A mark the citing text keeps as read, not found raised (DocBook's "mode.1", set in the
// text's size on its baseline; "ways2 to", "example 1:", "filesystem. 1"): the whole text of
// a link that leads to the note, after the text's first code point and before its end, a
// space or punctuation. Such marks in `b` citing the
// note (on page `page`; `notes` are that page's footnotes, `self` the note's place among
// them), as RaisedMarks at the code point where each starts; one that touches a character
// that is no space is glued (NoteMark::glued).
std::vector<RaisedMark> linked_marks(const Block& b, const std::u32string& mark, int page,
                                     const std::vector<NoteExtent>& notes, int self, const LayoutOptions& o) {
  std::vector<RaisedMark> found;
  if (b.targets.empty()) return found;
  const std::u32string t = to_u32(b.text);
  for (const auto& target : b.targets) {
    if (target.page != page || target.y < 0 || target.link >= b.links.size()) continue;
    const TextLink& l = b.links[target.link];
    if (l.at == 0 || l.at + l.len > t.size() || t.substr(l.at, l.len) != mark) continue;
    const size_t end = l.at + l.len;
    const bool space_after = end == t.size() || is_space_cp(t[end]);
    if (!space_after && !is_punctuation_cp(t[end])) continue;
    if (note_pointed_at(notes, target.y, o) != self) continue;
    found.push_back({l.at, from_u32(mark), true, !(is_space_cp(t[l.at - 1]) && space_after)});
  }
  return found;
}

// The mark a note opens with (`mark`, its code points), as it is printed in `text`: a word of
// its own, perhaps with a full stop or parenthesis ("1", "1.", "1)"), or glued to the note's
// first word ("1Even"). Empty when the note does not open so.
std::optional<RaisedMark> own_mark(const std::string& text, const std::u32string& mark) {
  const auto toks = whitespace_tokens(text);
  if (toks.empty() || text.compare(0, toks[0].size(), toks[0]) != 0) return std::nullopt;
  const std::string first(toks[0]);
  const std::u32string points = mark_points(first);
  if (points == mark || points == mark + U"." || points == mark + U")") return RaisedMark{0, first, true};
  const std::string glued = from_u32(mark);
  const std::u32string t = to_u32(first);
  if (first.rfind(glued, 0) == 0 && t.size() > mark.size() && is_letter_cp(t[mark.size()]))
    return RaisedMark{0, glued, true, true};
  return std::nullopt;
}

}  // namespace

// The code points of a note mark, superscript digits as ASCII ones, out of its brackets.
std::u32string mark_points(std::string_view text) {
  static const std::u32string kSuperscripts = U"\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079";
  std::u32string cps(typography::unbracketed(to_u32(text)));
  for (auto& c : cps)
    if (auto k = kSuperscripts.find(c); k != std::u32string::npos) c = U'0' + static_cast<char32_t>(k);
  return cps;
}

// The mark a footnote opens with: its first token's leading digits (at most three) or note
// symbol, alone, before "." or ")", or glued to the note's first word ("1Functions"). Empty
// when there is none.
std::u32string footnote_mark(const std::string& text) {
  auto toks = whitespace_tokens(text);
  if (toks.empty()) return {};
  const std::u32string t = mark_points(toks[0]);
  size_t n = 0;
  if (!t.empty() && typography::is_note_symbol(t[0])) n = 1;
  else
    while (n < t.size() && n <= typography::kMaxNoteMarkDigits && t[n] >= U'0' && t[n] <= U'9') ++n;
  if (n == 0 || n > typography::kMaxNoteMarkDigits) return {};
  const std::u32string rest = t.substr(n);
  if (rest.empty() || rest == U"." || rest == U")" || is_letter_cp(rest[0])) return t.substr(0, n);
  return {};
}


void place_footnotes(std::vector<Chapter>& chapters, const LayoutOptions& o) {
  std::vector<NoteExtent> notes;  // the footnotes of a page
  for (auto& c : chapters) {
    auto& bs = c.blocks;
    for (size_t i = 0; i < bs.size(); ++i) {
      if (bs[i].type != BlockType::Footnote) continue;
      const std::u32string mark = footnote_mark(bs[i].text);
      if (mark.empty()) continue;
      const int page = bs[i].page;
      size_t citing = i;
      int citing_blocks = 0;
      auto may_cite = [&](const Block& b) {
        return b.type == BlockType::Paragraph || b.type == BlockType::ListItem || b.type == BlockType::Note ||
               b.type == BlockType::Table || b.type == BlockType::Caption;
      };
      // The block of the note's page that cites it. A note opened by a bracketed mark on
      // the chapter's last page, which no block of the page cites, is one of the notes
      // gathered at the chapter's end (asciidoctor-pdf's): any block of the chapter.
      const bool gathered = page == c.last_page && bs[i].text.front() == '[';
      for (bool whole_chapter : {false, true}) {
        if (whole_chapter && (citing_blocks > 0 || !gathered)) break;
        for (size_t k = 0; k < i; ++k) {
          const Block& b = bs[k];
          if (!may_cite(b)) continue;
          if (!whole_chapter && (b.page > page || std::max(b.page, b.last_page) < page)) continue;
          if (std::any_of(b.raised.begin(), b.raised.end(), [&](const RaisedMark& m) { return mark_points(m.mark) == mark; })) {
            citing = k;
            ++citing_blocks;
          }
        }
      }
      // No block has the mark raised: the one whose link to the note has the mark as its
      // whole text cites it.
      std::vector<RaisedMark> linked;
      if (citing_blocks == 0) {
        notes.clear();
        int self = -1;
        for (size_t k = 0; k < bs.size(); ++k)
          if (bs[k].type == BlockType::Footnote && bs[k].page == page) {
            if (k == i) self = static_cast<int>(notes.size());
            notes.push_back({bs[k].bbox.y0, bs[k].bbox.y1});
          }
        for (size_t k = 0; k < i; ++k) {
          const Block& b = bs[k];
          if (!may_cite(b) || b.page > page || std::max(b.page, b.last_page) < page) continue;
          if (auto found = linked_marks(b, mark, page, notes, self, o); !found.empty()) {
            citing = k;
            ++citing_blocks;
            linked = std::move(found);
          }
        }
      }
      if (citing_blocks != 1) continue;
      // The mark, once in the citing text and opening the note ("1 The ...", "1Even ..."),
      // comes out of both.
      const std::optional<RaisedMark> own = own_mark(bs[i].text, mark);
      if (linked.size() == 1) {
        if (own && take_marks(bs[citing].text, {&linked[0]}) && take_marks(bs[i].text, {&*own})) {
          auto& raised = bs[citing].raised;
          raised.insert(std::upper_bound(raised.begin(), raised.end(), linked[0],
                                         [](const RaisedMark& a, const RaisedMark& b) { return a.at < b.at; }),
                        linked[0]);
          bs[i].raised = {*own};
        }
      } else if (linked.empty()) {
        RaisedMark* cited = nullptr;
        int same = 0;
        for (auto& m : bs[citing].raised)
          if (mark_points(m.mark) == mark) {
            cited = &m;
            ++same;
          }
        if (same == 1 && !cited->cited && cited->at != std::string::npos && own &&
            take_marks(bs[citing].text, {cited}) && take_marks(bs[i].text, {&*own})) {
          cited->cited = true;
          bs[i].raised = {*own};
        }
      }
      size_t at = citing + 1;
      if (bs[citing].type == BlockType::ListItem)
        while (at < i && bs[at].type == BlockType::ListItem) ++at;
      while (at < i && bs[at].type == BlockType::Footnote) ++at;
      if (at >= i) continue;
      // (The note moves up to `at`; only the blocks between move down one.)
      std::rotate(bs.begin() + static_cast<std::ptrdiff_t>(at), bs.begin() + static_cast<std::ptrdiff_t>(i),
                  bs.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    }
    for (auto& b : bs) {
      std::vector<const RaisedMark*> take;
      for (const auto& m : b.raised)
        if (m.cited) take.push_back(&m);
      if (!take.empty())
        if (auto taken = take_marks(b.text, take)) {
          const std::string before = std::move(b.text);
          b.text = std::move(taken->first);
          b.marks = std::move(taken->second);
          detail::remap_inline(b, before);
        }
      std::vector<RaisedMark>().swap(b.raised);
    }
  }
}

// Figures: the first block of the chapter that cites them ("see Figure 3-2").
void link_figure_references(std::vector<Chapter>& chapters) {
  for (auto& c : chapters)
    for (auto& fig : c.blocks) {
      if (fig.type != BlockType::Figure || fig.figure_ref.empty()) continue;
      for (size_t i = 0; i < c.blocks.size(); ++i) {
        const Block& b = c.blocks[i];
        if (b.type == BlockType::Caption || b.type == BlockType::Figure) continue;
        size_t at = b.text.find(fig.figure_ref);
        while (at != std::string::npos) {
          size_t end = at + fig.figure_ref.size();
          bool bounded = end >= b.text.size() || !(std::isalnum(static_cast<unsigned char>(b.text[end])) ||
                                                   (b.text[end] == '.' && end + 1 < b.text.size() &&
                                                    std::isdigit(static_cast<unsigned char>(b.text[end + 1]))));
          if (bounded) break;
          at = b.text.find(fig.figure_ref, end);
        }
        if (at != std::string::npos) {
          fig.referenced_by = static_cast<int>(i);
          break;
        }
      }
    }
}

}  // namespace quire::detail
