// Figure captions: a caption starts with a caption word and a number and stands under or
// over its figure; what stands between a figure and its caption belongs to the figure.
#include "figure_finder.h"
#include "quire/typography.h"

#include <algorithm>
#include <cmath>

namespace quire::detail::figure_finder {

bool Finder::caption_like(const std::string& text) const {
  size_t b = text.find_first_not_of(' ');
  if (b == std::string::npos) return false;
  size_t e = text.find(' ', b);
  std::string first = text.substr(b, e == std::string::npos ? std::string::npos : e - b);
  for (auto& ch : first) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  // A caption next to a figure is never one of its labels.
  const auto& words = typography::kCaptionWords;
  return std::find(words.begin(), words.end(), first) != words.end();
}

// "Figure 3-2: ...", "Fig. 4 ...": a caption word of figures, then a token with a digit.
bool Finder::figure_caption(const Line& line) const {
  // The first word is "figure", "fig." or "fig": a line that starts with another letter (most
  // lines of a book) is not joined into its text to tell. (Spans are joined by spaces, so the
  // text's first character other than a space is the spans'.)
  for (const auto& sp : line.spans) {
    const size_t first = sp.text.find_first_not_of(' ');
    if (first == std::string::npos) continue;
    if (sp.text[first] != 'f' && sp.text[first] != 'F') return false;
    break;
  }
  const std::string text = line.text();
  std::vector<std::string> words;
  for (size_t i = 0; i < text.size() && words.size() < 2;) {
    while (i < text.size() && text[i] == ' ') ++i;
    const size_t start = i;
    while (i < text.size() && text[i] != ' ') ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  if (words.size() < 2) return false;
  std::string first = words[0];
  for (auto& ch : first) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (first != "figure" && first != "fig." && first != "fig") return false;
  return std::any_of(words[1].begin(), words[1].end(), [](char c) { return c >= '0' && c <= '9'; });
}

namespace {

bool centre_in(const Box& b, const Box& z) {
  const double cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2;
  return cx >= z.x0 && cx <= z.x1 && cy >= z.y0 && cy <= z.y1;
}

// The text block's left and right edge on a page: those of its lines.
struct TextBlock {
  double left = 0, right = 0;
  double measure() const { return right - left; }
};

// The top of a caption's zone: the lowest line of text above the caption. A line of text is
// a wide one, one longer than a label, or a caption (`caption_like`, per line). The short
// last line of that text (a paragraph's "See Figure 2.", a caption's last word) follows it
// at a line's distance (`indent`, the body size) and starts where it or the text block does.
double zone_top(const std::vector<Line>& lines, const Line& caption, const std::vector<bool>& caption_like,
                const TextBlock& tb, double indent, const LayoutOptions& o) {
  double top = 0, top_x0 = tb.left;
  for (size_t k = 0; k < lines.size(); ++k) {
    const Line& l = lines[k];
    if (&l == &caption || l.bbox.y1 > caption.bbox.y0) continue;
    if ((l.bbox.width() >= o.figures.caption_zone_body_ratio * tb.measure() ||
         code_points(l.text()) > static_cast<size_t>(o.figures.label_max_chars) || caption_like[k]) &&
        l.bbox.y1 > top) {
      top = l.bbox.y1;
      top_x0 = l.bbox.x0;
    }
  }
  for (bool moved = top > 0; moved;) {
    moved = false;
    for (const auto& l : lines) {
      if (&l == &caption || l.bbox.y0 < top - indent || l.bbox.y1 <= top || l.bbox.y1 > caption.bbox.y0) continue;
      const bool tail = l.bbox.y0 - top <= o.figures.caption_zone_tail_gap_ratio * indent &&
                        (std::fabs(l.bbox.x0 - top_x0) <= indent || std::fabs(l.bbox.x0 - tb.left) <= indent);
      if (!tail) continue;
      top = l.bbox.y1;
      moved = true;
    }
  }
  return top;
}

// The zone of a caption, from `top` down to the caption, across the text block. Captions
// side by side share the width: each has the part on its side of the middle between them.
Box caption_zone(const std::vector<Line>& lines, const Line& caption, const std::vector<bool>& is_caption,
                 const TextBlock& tb, double top) {
  double zone_left = tb.left, zone_right = tb.right;
  for (size_t k = 0; k < lines.size(); ++k) {
    const Line& other = lines[k];
    if (&other == &caption || !is_caption[k] || other.bbox.y1 <= caption.bbox.y0 || other.bbox.y0 >= caption.bbox.y1)
      continue;
    if (other.bbox.x0 >= caption.bbox.x1) zone_right = std::min(zone_right, (caption.bbox.x1 + other.bbox.x0) / 2);
    if (other.bbox.x1 <= caption.bbox.x0) zone_left = std::max(zone_left, (other.bbox.x1 + caption.bbox.x0) / 2);
  }
  return Box{zone_left, top, zone_right, caption.bbox.y0};
}

// What a zone holds: the boxes of its lines (the figure's labels) and the figures found in
// it. `blocked`: the zone is left alone, for monospace in it (a listing is the figure), or a
// figure from outside reaching into it (it has its parts; text beside a figure makes the
// zone shorter than the figure).
struct ZoneContents {
  std::vector<Box> label_boxes;
  std::vector<Cluster*> parts;
  bool blocked = false;
};

ZoneContents zone_contents(const std::vector<Line>& lines, const Line& caption, const Box& zone, const Box& room,
                           std::vector<Cluster>& figures) {
  ZoneContents zc;
  for (const auto& l : lines) {
    if (&l == &caption || !centre_in(l.bbox, zone)) continue;
    for (const auto& sp : l.spans) zc.blocked = zc.blocked || sp.monospace;
    zc.label_boxes.push_back(l.bbox);
  }
  auto within = [&](const Box& b) { return b.x0 >= room.x0 && b.x1 <= room.x1 && b.y0 >= room.y0 && b.y1 <= room.y1; };
  for (auto& f : figures) {
    if (f.items.empty() || !f.hull.intersects(zone)) continue;
    if (centre_in(f.hull, zone) && within(f.hull)) zc.parts.push_back(&f);
    else zc.blocked = true;
  }
  return zc;
}

// The drawing in a zone: it must lie in the zone (a frame around text above, or a box
// behind the caption, reaches out of it), and be more than rules unless words stand with
// them (`drawn`: not rules only; a rule alone between a listing and its caption is the
// float's rule). Items in the page's head and foot bands (`band` points) are furniture.
Cluster zone_drawing(const std::vector<Item>& items, const Box& zone, const Box& room, const TextBlock& tb,
                     double band, double page_height, const LayoutOptions& o, bool& blocked, bool& drawn) {
  auto within = [&](const Box& b) { return b.x0 >= room.x0 && b.x1 <= room.x1 && b.y0 >= room.y0 && b.y1 <= room.y1; };
  Cluster joined;
  for (size_t i = 0; i < items.size(); ++i) {
    const Box& b = items[i].box;
    if (page_height > 0 && (b.y1 <= band || b.y0 >= page_height - band)) continue;
    // A rule across the text block is the page's or the float's (under a running head,
    // above a footnote), not a drawing's.
    if (items[i].rule && b.width() >= o.figures.frame_span_ratio * tb.measure()) continue;
    // A drawing that goes on past the zone (a frame drawn in pieces around text above)
    // is no figure of this caption's.
    if (!centre_in(b, zone)) {
      blocked = blocked || b.intersects(room);
      continue;
    }
    blocked = blocked || !within(b);
    drawn = drawn || !items[i].rule;
    joined.items.push_back(i);
    joined.hull = joined.items.size() == 1 ? b : joined.hull.united(b);
  }
  return joined;
}

}  // namespace

// Line-art tools (groff's pic, some diagram editors) draw a diagram as separate strokes,
// circles and arrows with words between them: clustering by touching boxes finds pieces of
// it, or nothing where a piece is a lone line. Under a figure caption, though, everything
// drawn between the caption and the text above is the figure, and the short lines there
// are its labels.
void Finder::join_under_captions(std::vector<Cluster>& figures) const {
  const auto& lines = page_.lines;
  if (lines.empty()) return;
  TextBlock tb{lines.front().bbox.x0, lines.front().bbox.x1};
  for (const auto& l : lines) {
    tb.left = std::min(tb.left, l.bbox.x0);
    tb.right = std::max(tb.right, l.bbox.x1);
  }
  const double measure = tb.measure();
  if (measure <= 0) return;
  const double band = o_.figures.furniture_band_ratio * page_.height;
  std::vector<bool> is_caption(lines.size()), like_caption(lines.size());
  for (size_t k = 0; k < lines.size(); ++k) {
    is_caption[k] = figure_caption(lines[k]);
    like_caption[k] = caption_like(lines[k].text());
  }
  for (size_t c = 0; c < lines.size(); ++c) {
    if (!is_caption[c]) continue;
    const Line& caption = lines[c];
    const double indent = std::max(1.0, body_size_);
    const double top = zone_top(lines, caption, like_caption, tb, indent, o_);
    const Box zone = caption_zone(lines, caption, is_caption, tb, top);
    if (zone.height() < o_.figures.min_figure_side) continue;
    const Box room = grown(zone, o_.figures.figure_cluster_gap);
    ZoneContents zc = zone_contents(lines, caption, zone, room, figures);
    if (zc.blocked) continue;
    bool drawn = false;
    Cluster joined = zone_drawing(items_, zone, room, tb, band, page_.height, o_, zc.blocked, drawn);
    if (zc.blocked || joined.items.empty()) continue;
    // A line at the text block's left edge above all the drawing is text that leads into
    // the figure ("It yields the following:"), not a label: labels stand among or beside
    // what they name.
    auto& label_boxes = zc.label_boxes;
    label_boxes.erase(std::remove_if(label_boxes.begin(), label_boxes.end(),
                                     [&](const Box& b) {
                                       return std::fabs(b.x0 - tb.left) <=
                                                  o_.figures.caption_zone_margin_ratio * indent &&
                                              b.y1 <= joined.hull.y0;
                                     }),
                      label_boxes.end());
    if (!drawn && label_boxes.empty()) continue;
    // The figures in the zone are parts of this one.
    Box hull = joined.hull;
    for (const Cluster* f : zc.parts) hull = hull.united(f->hull);
    for (const Box& b : label_boxes) hull = hull.united(b);
    if (hull.width() < o_.figures.min_figure_side && hull.height() < o_.figures.min_figure_side) continue;
    // A plot's parts hold thousands of items: joined as one sorted set, not one search each.
    for (Cluster* f : zc.parts) {
      joined.items.insert(joined.items.end(), f->items.begin(), f->items.end());
      f->items.clear();
    }
    joined.hull = hull;
    std::sort(joined.items.begin(), joined.items.end());
    joined.items.erase(std::unique(joined.items.begin(), joined.items.end()), joined.items.end());
    figures.push_back(std::move(joined));
  }
  figures.erase(std::remove_if(figures.begin(), figures.end(), [](const Cluster& c) { return c.items.empty(); }),
                figures.end());
}

}  // namespace quire::detail::figure_finder
