// Anchors and internal links. A heading, a figure and a footnote are the places a book's
// internal links lead to, each given an id from its text; a PDF link's destination is only a
// page and a height, which producers set at the target's top or a line or so above it, so a
// link leads to the footnote printed at that point, else to the last anchor at or above it.
#include <algorithm>
#include <set>

#include "internal.h"
#include "note_marks.h"
#include "quire/text.h"

namespace quire::detail {

namespace {

// An anchor id from a heading's or figure's text: ASCII lowercase letters, digits and '-'.
std::string anchor_slug(const std::string& text, size_t max) {
  std::string out;
  bool dash = false;
  for (char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if ((u >= 'a' && u <= 'z') || (u >= '0' && u <= '9')) {
      if (dash && !out.empty()) out += '-';
      dash = false;
      out += c;
    } else if (u >= 'A' && u <= 'Z') {
      if (dash && !out.empty()) out += '-';
      dash = false;
      out += static_cast<char>(u - 'A' + 'a');
    } else {
      dash = true;
    }
    if (out.size() >= max) break;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

// A footnote's mark, digits as ASCII ones: its own, taken out of its text, or the one it
// opens with as printed ("1", "[1]", "¹", "1Older" where the mark touches the first word).
std::string printed_note_mark(const Block& b) {
  if (!b.marks.empty() && b.marks.front().at == 0) return from_u32(mark_points(b.marks.front().mark));
  return from_u32(footnote_mark(b.text));  // (its first token out of its brackets: "[1]" is "1")
}

}  // namespace

int note_pointed_at(const std::vector<NoteExtent>& notes, double y, const LayoutOptions& o) {
  int below = -1, around = -1;
  for (size_t k = 0; k < notes.size(); ++k) {
    const NoteExtent& n = notes[k];
    if (n.top >= y - o.lines.edge_tolerance && n.top - y <= o.styles.anchor_reach &&
        (below < 0 || n.top < notes[static_cast<size_t>(below)].top))
      below = static_cast<int>(k);
    if (n.top <= y && y <= n.bottom) around = static_cast<int>(k);
  }
  return below >= 0 ? below : around;
}

void anchor_links(std::vector<Chapter>& chapters, const LayoutOptions& o) {
  // Anchors, in book order; a repeated id takes the next free "-2", "-3". A footnote's is
  // "note-" and its mark ("note-3"), or "footnote" where it has none: a link from its mark
  // in the text leads to it.
  struct Place {
    int page;
    double y, bottom;
    std::string anchor;
  };
  std::vector<Place> places, notes;
  std::set<std::string> taken;
  for (auto& c : chapters)
    for (auto& b : c.blocks) {
      std::string base;
      if (b.type == BlockType::Heading) {
        base = anchor_slug(b.text, o.styles.max_anchor_chars);
        if (base.empty()) base = "section";
      } else if (b.type == BlockType::Figure) {
        base = anchor_slug(b.figure_ref, o.styles.max_anchor_chars);
        if (base.empty()) base = "figure";
        if (base.rfind("fig", 0) != 0) base = "figure-" + base;
      } else if (b.type == BlockType::Footnote) {
        base = anchor_slug(printed_note_mark(b), o.styles.max_anchor_chars);
        base = base.empty() ? "footnote" : "note-" + base;
      } else {
        continue;
      }
      std::string id = base;
      for (int n = 2; !taken.insert(id).second; ++n) id = base + "-" + std::to_string(n);
      b.anchor = id;
      (b.type == BlockType::Footnote ? notes : places).push_back({b.page, b.bbox.y0, b.bbox.y1, id});
    }
  // A link leads to the footnote printed where it points, else to the last heading or figure
  // anchor at or above that place, or to the first anchor of the target page when that starts
  // within anchor_reach of the point (a destination is often set a line or two above its
  // heading or at a float's top).
  std::stable_sort(places.begin(), places.end(),
                   [](const Place& a, const Place& b) { return a.page != b.page ? a.page < b.page : a.y < b.y; });
  std::vector<const Place*> on_page;
  std::vector<NoteExtent> extents;
  auto find = [&](int page, double y) -> const Place* {
    if (y >= 0) {
      on_page.clear();
      extents.clear();
      for (const auto& n : notes)
        if (n.page == page) {
          on_page.push_back(&n);
          extents.push_back({n.y, n.bottom});
        }
      if (const int k = note_pointed_at(extents, y, o); k >= 0) return on_page[static_cast<size_t>(k)];
    }
    const Place* best = nullptr;
    for (const auto& p : places) {
      const bool before = p.page < page || (p.page == page && (y < 0 || p.y <= y + o.styles.anchor_reach));
      if (!before) break;
      best = &p;
    }
    return best;
  };
  auto in_chapters = [&](int page) {
    return std::any_of(chapters.begin(), chapters.end(),
                       [&](const Chapter& c) { return page >= c.first_page && page <= c.last_page; });
  };
  for (auto& c : chapters)
    for (auto& b : c.blocks) {
      if (b.targets.empty()) continue;
      for (const auto& t : b.targets)
        if (const Place* p = in_chapters(t.page) ? find(t.page, t.y) : nullptr) b.links[t.link].href = "#" + p->anchor;
      std::erase_if(b.links, [](const TextLink& l) { return l.href.empty(); });
      std::vector<Block::Target>().swap(b.targets);
    }
}

}  // namespace quire::detail
