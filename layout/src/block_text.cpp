// Block text: the text of a finished block from its rows. Prose joins its lines with one
// space (line-end hyphens decided by hyphenation.cpp); a table's grid is table_grid.cpp's;
// a note mark is raised out of the text.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>

#include "internal.h"
#include "quire/parallel.h"
#include "quire/text.h"
#include "builder.h"
#include "note_marks.h"
#include "page_passes.h"
#include "tables.h"
#include "text_chars.h"

namespace quire::detail {

std::string Builder::prose(const std::vector<const Row*>& rs, std::vector<HyphenJoin>& log,
                           const std::vector<std::string>* texts) const {
  std::string text;
  for (size_t i = 0; i < rs.size(); ++i) {
    const std::string& t = texts ? (*texts)[i] : rs[i]->text;
    if (i == 0) {
      text = t;
      continue;
    }
    std::optional<std::string> prev_last = last_token(text);
    // Only a token ending in a hyphen (or a soft one, which tokens leave out) may join the
    // next line's first one.
    const bool soft = ends_with_soft_hyphen(trimmed_end(text));
    if (prev_last && (ends_with_hyphen(*prev_last) || soft)) {
      const std::string before = soft ? *prev_last + "\xC2\xAD" : std::move(*prev_last);
      auto toks = whitespace_tokens(t);
      if (toks.empty()) {
        text += ' ';
        text += t;
        continue;
      }
      const std::string& after = toks.front();
      std::string joined = join_hyphenated(before, after, rs[i - 1]->mono_end, ev, o);
      if (!joined.empty()) {
        log.push_back({rs[i - 1]->page, before, after, joined});
        // Drop the trailing white space of the text and the leading one of the line.
        while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
        text.resize(text.size() - before.size());
        size_t at = t.find(after);
        text += joined + t.substr(at + after.size());
        continue;
      }
    }
    text += ' ';
    text += t;
  }
  // Collapse runs of white space to single spaces: prose keeps no line structure.
  std::string clean;
  clean.reserve(text.size());
  bool sp = false;
  if (is_ascii(text)) {
    for (char c : text) {
      if (ascii_space(c)) {
        sp = true;
        continue;
      }
      if (sp && !clean.empty()) clean += ' ';
      sp = false;
      clean += c;
    }
    return clean;
  }
  for (char32_t c : to_u32(text)) {
    if (is_space_cp(c)) {
      sp = true;
      continue;
    }
    if (sp && !clean.empty()) clean += ' ';
    sp = false;
    append_utf8(clean, c);
  }
  return clean;
}

void Builder::make_texts(bool all) {
  const size_t from = texts_made;
  size_t to = out.size();
  if (!all) {
    to = to > from + o.blocks.term_lookahead + 1 ? to - o.blocks.term_lookahead - 1 : from;
    if (to > from && captioned[to - 1]) --to;
  }
  to = find_terms(from, to);
  find_spaced_headings(from, to);
  const size_t n = to - from;
  std::vector<std::vector<HyphenJoin>> logged(n);
  constexpr size_t kBlocksPerTask = 16;  // blocks a thread takes at once: the order of work only
  parallel_for(
      n, o.jobs,
      [&](size_t k) {
        const size_t i = from + k;
        std::vector<const Row*> rs = text_rows[i];
        if (titled[i] == kTitleRow) rs.erase(rs.begin());  // (the note's title, on a row of its own)
        if (rs.empty()) return;
        Block& b = out[i];
        const bool may_cite = b.type != BlockType::Code && b.type != BlockType::Footnote &&
                              b.type != BlockType::Heading && b.type != BlockType::Figure;
        const std::vector<std::string> marked = may_cite ? texts_with_marks(rs) : std::vector<std::string>();
        std::vector<RowLine> table_order;
        if (b.type == BlockType::Code) {
          b.text = code_text(rs, st, o, logged[k]);
        } else if (b.type == BlockType::Table) {
          table_grid(rs, b, table_order, logged[k]);
          // A table's marks cite its notes, but are not found in its text.
          for (const auto& t : marked) find_raised(t, b.raised);
          for (auto& m : b.raised) m.at = std::string::npos;
        } else if (marked.empty()) {
          b.text = prose(rs, logged[k]);
        } else {
          b.text = find_raised(prose(rs, logged[k], &marked), b.raised);
          for (auto& j : logged[k]) {
            strip_mark_bytes(j.before);
            strip_mark_bytes(j.after);
            strip_mark_bytes(j.joined);
          }
        }
        if (b.type == BlockType::Table) find_inline(b, table_order, o);
        else find_inline(b, rs, o);
        if (titled[i] == kRunInTitle) strip_title(b);
      },
      kBlocksPerTask);
  join_ends.resize(to);
  for (size_t k = 0; k < n; ++k) {
    const size_t i = from + k;
    if (captioned[i] && k + 1 < n) {
      out[i].figure_ref = caption_label(out[i + 1].text);
      joins.insert(joins.end(), logged[k + 1].begin(), logged[k + 1].end());
      logged[k + 1].clear();
    }
    joins.insert(joins.end(), logged[k].begin(), logged[k].end());
    join_ends[i] = joins.size();
    std::vector<const Row*>().swap(text_rows[i]);
  }
  texts_made = to;
  const int in_use = first_page_in_use();
  std::erase_if(rules, [&](const auto& r) { return r.first < in_use; });
  std::erase_if(bars, [&](const auto& r) { return r.first < in_use; });
  std::erase_if(grids, [&](const auto& g) { return g.first < in_use; });
}

void Builder::strip_title(Block& b) {
  if (b.text.compare(0, b.title.size(), b.title) != 0) {
    b.title.clear();
    return;
  }
  size_t cut = b.title.size();
  while (cut < b.text.size() && b.text[cut] == ' ') ++cut;
  const size_t moved = utf8_length(std::string_view(b.text).substr(0, cut));
  b.text.erase(0, cut);
  for (auto& m : b.raised)
    if (m.at != std::string::npos) m.at = m.at >= moved ? m.at - moved : 0;
  // Styles and links found on the whole text move with it; what lay in the title goes.
  auto shift = [moved](auto& runs) {
    std::erase_if(runs, [moved](const auto& r) { return r.at + r.len <= moved; });
    for (auto& r : runs) {
      if (r.at < moved) {
        r.len -= moved - r.at;
        r.at = 0;
      } else {
        r.at -= moved;
      }
    }
  };
  shift(b.styles);
  shift(b.links);
}

}  // namespace quire::detail
