// Figure kinds: a cluster of drawing is a figure unless it is typographic furniture (rules,
// a box of text, a bar, badges, a banner), told apart by its geometry and the text inside it.
#include "figure_finder.h"
#include "page_passes.h"
#include "quire/typography.h"

#include <algorithm>
#include <cmath>

namespace quire::detail::figure_finder {

void Finder::collect_items() {
  const double page_area = page_.width * page_.height;
  for (const auto& p : page_.paths) {
    Item it;
    it.box = tight_box(p, o_);
    it.ink = p.bbox;
    if (page_area > 0 && area(it.box) >= o_.figures.page_background_ratio * page_area) continue;  // page background
    const double thin = std::min(it.box.width(), it.box.height());
    const double len = std::max(it.box.width(), it.box.height());
    it.rule = thin <= o_.figures.rule_max_thickness && len >= o_.figures.rule_min_length;
    it.flat = p.fill && !p.stroke;
    it.paper = p.paper;
    it.color = p.color;
    // Paper-coloured paint behind lines of prose is the page's background (browsers paint
    // one behind all the text), not a figure's blank canvas.
    if (it.paper && std::any_of(page_.lines.begin(), page_.lines.end(), [&](const Line& l) {
          return prose(l) && inside_share(l.bbox, it.box) >= o_.figures.label_inside_ratio;
        }))
      continue;
    items_.push_back(it);
  }
  for (const auto& im : page_.images) {
    if (im.width <= o_.figures.spacer_max_pixels || im.height <= o_.figures.spacer_max_pixels) continue;  // spacer
    // A stencil mask of glyph size is a character of a bitmap font, not a picture.
    if (im.mask && (im.bbox.width() < o_.figures.min_figure_side || im.bbox.height() < o_.figures.min_figure_side))
      continue;
    if (icon(im)) continue;
    Item it;
    it.box = im.bbox;
    it.ink = im.bbox;
    it.image = true;
    items_.push_back(it);
  }
}

// An icon: a picture a few lines of text high with running text set right beside it,
// starting on its lines (a note's, tip's or warning's sign beside its title and text, in a
// box or not). It belongs to that text; a figure stands apart from the text or is larger,
// and a drawing's labels are short or set in type of their own.
bool Finder::icon(const Image& im) const {
  if (body_.size <= 0) return false;
  const double most = o_.figures.icon_max_ratio * body_.size;
  if (im.bbox.width() > most || im.bbox.height() > most) return false;
  auto body_chars = [&](const Line& l) {
    size_t n = 0;
    for (const auto& sp : l.spans)
      if (!sp.monospace && std::fabs(sp.size - body_.size) <= o_.figures.label_size_ratio * body_.size)
        n += sp.text.size();
    return n;
  };
  for (const auto& l : page_.lines) {
    const double shared = std::min(l.bbox.y1, im.bbox.y1) - std::max(l.bbox.y0, im.bbox.y0);
    if (shared < o_.figures.icon_line_share * std::min(l.bbox.height(), im.bbox.height())) continue;
    const double gap = l.bbox.x0 - im.bbox.x1;
    if (gap < 0 || gap > o_.figures.icon_text_gap_ratio * body_.size || body_chars(l) == 0) continue;
    // The text that starts there: the line and those under it at its left edge, one
    // line's step apart (a note's title over its first lines).
    size_t chars = body_chars(l);
    double bottom = l.bbox.y1;
    for (bool more = true; more && chars < o_.figures.icon_text_min_chars;) {
      more = false;
      for (const auto& m : page_.lines)
        if (m.bbox.y0 >= bottom - o_.figures.icon_text_overlap_ratio * body_.size &&
            m.bbox.y0 <= bottom + o_.blocks.paragraph_gap_ratio * body_.size &&
            m.bbox.y1 > bottom && std::fabs(m.bbox.x0 - l.bbox.x0) <= o_.lines.edge_tolerance) {
          chars += body_chars(m);
          bottom = m.bbox.y1;
          more = true;
          break;
        }
    }
    if (chars >= o_.figures.icon_text_min_chars) return true;
  }
  return false;
}

// A line of prose: most of its characters in the book's body type (its size, not
// monospace), across most of the measure of the body text. A figure's labels are short or
// set in type of their own; a line like this inside a drawing is text the drawing lies
// behind (a page's background).
bool Finder::prose(const Line& l) const {
  const double measure = body_.right - body_.left;
  const double across = std::min(l.bbox.x1, body_.right) - std::max(l.bbox.x0, body_.left);
  if (body_.size <= 0 || measure <= 0 || across < o_.figures.prose_measure_ratio * measure) return false;
  double chars = 0, body = 0;
  for (const auto& sp : l.spans) {
    const double n = static_cast<double>(sp.text.size());
    chars += n;
    if (!sp.monospace && std::fabs(sp.size - body_.size) <= o_.figures.label_size_ratio * body_.size) body += n;
  }
  if (chars <= 0 || body < o_.figures.prose_body_type_share * chars) return false;
  const std::string t = l.text();
  size_t words = 0;
  for (size_t i = 0; i < t.size();) {
    while (i < t.size() && t[i] == ' ') ++i;
    if (i < t.size()) ++words;
    while (i < t.size() && t[i] != ' ') ++i;
  }
  return words >= o_.figures.prose_min_words;
}

// A small piece in a corner of the hull: a rounded corner of a frame drawn with rules
// (Texinfo's cartouche, with LaTeX's quarter-circle glyphs).
bool Finder::corner(const Item& it, const Box& hull) const {
  if (it.image || it.box.width() > o_.figures.frame_side_max || it.box.height() > o_.figures.frame_side_max)
    return false;
  const double e = o_.figures.rule_max_thickness;
  const bool left = it.box.x0 <= hull.x0 + e, right = it.box.x1 >= hull.x1 - e;
  const bool top = it.box.y0 <= hull.y0 + e, bottom = it.box.y1 >= hull.y1 - e;
  return (left || right) && (top || bottom);
}

// The box itself: its background, its frame, a full-width band or rule, a rounded corner.
bool Finder::structural(const Item& it, const Box& hull) const {
  if (it.image) return false;
  const Box& b = it.box;
  if (b.width() >= o_.figures.frame_span_ratio * hull.width()) return true;
  if (it.rule && b.height() >= o_.figures.frame_span_ratio * hull.height()) return true;
  // A fill under the box's whole height and most of its width is a ground the box stands on:
  // a web page's ground, with its panel printed past the page's edge and offset on it.
  if (it.flat && b.height() >= o_.figures.frame_span_ratio * hull.height() &&
      typography::more_than_half(b.width(), hull.width()))
    return true;
  const double e = o_.figures.rule_max_thickness;
  const bool at_side = b.x0 <= hull.x0 + e || b.x1 >= hull.x1 - e;
  // So is a fill down the box's whole height along its left or right side, taller than half
  // the page: the ground of one of the page's columns (a web page's sidebar, painted on
  // down the page past its last link).
  if (it.flat && at_side && b.height() >= o_.figures.frame_span_ratio * hull.height() &&
      typography::more_than_half(b.height(), page_.height))
    return true;
  // A narrow piece along the left or right side: a frame's side, a rounded corner, or the
  // padding of a box drawn in pieces (per line, or split across pages).
  return b.width() <= o_.figures.frame_side_max && at_side;
}

Verdict Finder::classify(const Cluster& c) const {
  Verdict v;
  const Box& h = c.hull;
  const double band = o_.figures.furniture_band_ratio * page_.height;
  if (page_.height > 0 && (h.y1 <= band || h.y0 >= page_.height - band)) return v;  // head or foot decoration
  // Paint of the paper's colour shows nothing: alone, or with no more than the marks of the
  // text on it (a table whose cells a browser paints white, a word of a cell set as code on
  // its grey ground).
  if (std::all_of(c.items.begin(), c.items.end(), [&](size_t i) { return items_[i].paper; })) return v;
  if (std::all_of(c.items.begin(), c.items.end(),
                  [&](size_t i) { return items_[i].paper || (!items_[i].image && text_mark(items_[i])); }))
    return v;
  bool any_image = false, rules_only = true, boxed = false;
  double drawing = 0;
  // Paint in the colour of a box's ground, on it, shows nothing: a browser paints each line of
  // a listing's code on the grey of the listing's box in the same grey.
  std::vector<const Item*> grounds;
  for (size_t i : c.items)
    if (items_[i].flat && structural(items_[i], h)) grounds.push_back(&items_[i]);
  auto unseen = [&](const Item& it) {
    const double e = o_.lines.edge_tolerance;
    return it.flat && std::any_of(grounds.begin(), grounds.end(), [&](const Item* g) {
             return g->color == it.color && it.box.x0 >= g->box.x0 - e && it.box.x1 <= g->box.x1 + e &&
                    it.box.y0 >= g->box.y0 - e && it.box.y1 <= g->box.y1 + e;
           });
  };
  for (size_t i : c.items) {
    const Item& it = items_[i];
    if (!grounds.empty() && !structural(it, h) && unseen(it)) continue;
    any_image |= it.image;
    // (Paint of the paper's colour shows nothing: the white cells a table is painted with.)
    // (So do a table's words set on a grey ground as code, inside its rules; but not a mark
    // before a word, which in a drawing is an arrow's head.)
    rules_only = rules_only && (it.rule || it.paper || corner(it, h) || text_ground(it));
    if (structural(it, h)) {
      boxed = true;
    } else if (it.image || !(it.rule || it.paper)) {
      v.interior.push_back(i);
      drawing += area(intersection(it.box, h));
    }
  }
  if (h.width() < o_.figures.min_figure_side || h.height() < o_.figures.min_figure_side) {
    v.kind = rules_only ? Kind::Furniture : Kind::Piece;
    return v;
  }
  if (rules_only) {
    // Table rules and frames made of rules have a rule across the whole box, drawn in one
    // stroke or cell by cell; a line drawing (LaTeX's picture environment draws boxes and
    // arrows as rules) has none.
    if (spanning_rule(c)) return v;
    v.interior = c.items;
  }
  std::vector<size_t> inside;
  for (size_t i = 0; i < page_.lines.size(); ++i)
    if (inside_share(page_.lines[i].bbox, h) >= o_.figures.label_inside_ratio) inside.push_back(i);
  if (!any_image && (badges(c) || banner(c, inside) || bleeding_bar(c))) {
    v.kind = Kind::Furniture;
    return v;
  }
  const double ha = area(h);
  if (any_image) {
    v.kind = Kind::Figure;
  } else if (v.interior.empty()) {
    // A box holding lines of code or prose and nothing else is a listing or a note; a box
    // with sparse labels (a stack of layers) or no text at all is a drawing.
    v.kind = text_block(inside, h) ? Kind::TextBox : Kind::Figure;
  } else if (boxed && drawing < o_.figures.figure_drawing_min_ratio * ha && text_block(inside, h)) {
    v.kind = Kind::TextBox;
  } else {
    v.kind = Kind::Figure;
  }
  return v;
}

// Badges and highlights: flat shapes no taller than a few lines, each behind a text of its
// own, are that text's background: a small one (a section number's coloured square) or one
// the text fills (a highlighted word, a word set as code on a grey ground). So are the marks
// around such text, as a browser draws them: a rule under the glyphs of a line (a link's
// underline: a shape the line shares all of, its glyphs across it) and a list's bullet before
// a line (drawn as a disc or a ring, not set as a character). A drawing's filled shapes are
// taller, stand without text or with a short label in much room (a stack of layers), or come
// with strokes.
bool Finder::text_mark(const Item& it) const {
  if (body_size_ <= 0 || it.image || it.box.height() > o_.figures.badge_max_ratio * body_size_) return false;
  const bool bullet = std::any_of(page_.lines.begin(), page_.lines.end(), [&](const Line& l) {
    return !l.spans.empty() && bullet_shape_before(it.box, l.baseline(), l.bbox.x0, l.spans.front().size, o_);
  });
  return bullet || text_ground(it);  // (a bullet: a disc filled or a ring stroked)
}

// The ground or the underline of a text (see text_mark).
bool Finder::text_ground(const Item& it) const {
  if (body_size_ <= 0 || it.image || !(it.flat || it.rule)) return false;
  const double most = o_.figures.badge_max_ratio * body_size_;
  if (it.box.height() > most) return false;
  // Glyphs of the lines that share most of the shape's height (or of theirs, for a shape
  // lower than a line) and stand on it.
  double first = it.box.x1, last = it.box.x0;
  for (const auto& l : page_.lines) {
    const double shared = std::min(l.bbox.y1, it.box.y1) - std::max(l.bbox.y0, it.box.y0);
    if (shared < o_.figures.badge_line_share * std::min(l.bbox.height(), it.box.height())) continue;
    for (const auto& sp : l.spans) {
      for (float x : sp.xs)
        if (x >= it.box.x0 - o_.lines.edge_tolerance && x < it.box.x1) {
          first = std::min(first, static_cast<double>(x));
          last = std::max(last, static_cast<double>(x) + o_.figures.badge_glyph_width_ratio * sp.size);
        }
      if (sp.xs.empty() && sp.bbox.x1 > it.box.x0 && sp.bbox.x0 < it.box.x1) {  // no glyph positions
        first = std::min(first, std::max(sp.bbox.x0, it.box.x0));
        last = std::max(last, std::min(sp.bbox.x1, it.box.x1));
      }
    }
  }
  if (last <= first) return false;  // no text on it
  const bool small = it.box.width() <= most;
  const bool filled = last - first >= o_.figures.highlight_text_share * it.box.width();
  return small || filled;
}

// A cluster of such marks alone is its text's, not a drawing.
bool Finder::badges(const Cluster& c) const {
  return std::all_of(c.items.begin(), c.items.end(), [&](size_t i) { return text_mark(items_[i]); });
}

// A bar that runs off the page: filled shapes, at most a few, each reaching past the page's
// left or right edge (a chapter opening's band, a thumb index's tab). Printers trim there;
// a drawing stays inside the page.
bool Finder::bleeding_bar(const Cluster& c) const {
  if (page_.width <= 0 || c.items.size() > o_.figures.bar_max_shapes) return false;
  for (size_t i : c.items) {
    const Item& it = items_[i];
    if (!it.flat || (it.box.x0 > 0 && it.box.x1 < page_.width)) return false;
  }
  return true;
}

// A banner: one box (a flat shape, perhaps framed), a few times as high as the one row of
// text it carries, which starts near its left edge (a heading on a coloured band, a macro's
// name in a framed box). A drawing's box holds its label in the middle (a layer of a stack),
// and a drawing of one box with a word in it is rare.
bool Finder::banner(const Cluster& c, const std::vector<size_t>& inside) const {
  if (inside.empty()) return false;
  // One box: a ground, perhaps with a rule drawn round it (an outline alone, round a word, is
  // a drawing's node).
  if (std::any_of(c.items.begin(), c.items.end(),
                  [&](size_t i) { return items_[i].image || !structural(items_[i], c.hull); }) ||
      std::none_of(c.items.begin(), c.items.end(), [&](size_t i) { return items_[i].flat; }))
    return false;
  const Box& box = c.hull;
  const Line& first = page_.lines[inside.front()];
  const double base = first.baseline();
  double size = 0, left = first.bbox.x0;
  for (size_t i : inside) {
    const Line& l = page_.lines[i];
    const double s = l.spans.empty() ? l.bbox.height() : l.spans.front().size;
    if (std::fabs(l.baseline() - base) >= o_.lines.same_row_ratio * s) return false;  // more than one row
    size = std::max(size, s);
    left = std::min(left, l.bbox.x0);
  }
  return size > 0 && box.height() <= o_.figures.banner_max_ratio * size &&
         left - box.x0 <= o_.figures.banner_max_ratio * size;
}

// Lines of a code listing or of prose: mostly monospace or covering much of the box, and
// set one under the other at the line pitch, whereas a diagram's labels stand apart.
bool Finder::text_block(const std::vector<size_t>& inside, const Box& h) const {
  if (inside.empty()) return false;
  double covered = 0, chars = 0, mono = 0;
  std::vector<char> monospace(inside.size());  // most of the line's characters
  for (size_t k = 0; k < inside.size(); ++k) {
    const Line& l = page_.lines[inside[k]];
    covered += area(intersection(l.bbox, h));
    double line_chars = 0, line_mono = 0;
    for (const auto& sp : l.spans) {
      const double n = static_cast<double>(sp.text.size());
      line_chars += n;
      if (sp.monospace) line_mono += n;
    }
    chars += line_chars;
    mono += line_mono;
    monospace[k] = typography::more_than_half(line_mono, line_chars);
  }
  size_t stacked = 0;
  for (size_t k = 0; k < inside.size(); ++k) {
    const Line& l = page_.lines[inside[k]];
    const double size = l.spans.empty() ? l.bbox.height() : l.spans.front().size;
    for (size_t q = 0; q < inside.size(); ++q) {
      const Line& m = page_.lines[inside[q]];
      const Box& o = m.bbox;
      double gap = std::max(o.y0 - l.bbox.y1, l.bbox.y0 - o.y1);
      // Glyph boxes of consecutive lines may overlap a little, and a lot where a symbol
      // font's boxes are tall (angle brackets of a syntax line): lines of one row are told
      // by their baselines.
      const double other_size = m.spans.empty() ? o.height() : m.spans.front().size;
      bool same_row = std::fabs(m.baseline() - l.baseline()) < o_.lines.same_row_ratio * std::min(size, other_size);
      // (A listing's lines stack with a blank line of the listing between them, a line's
      // height and one more gap, where they start at one margin.)
      const double line_gap = o_.blocks.paragraph_gap_ratio * size;
      const bool listing = monospace[k] && monospace[q] && std::fabs(l.bbox.x0 - o.x0) <= o_.lines.edge_tolerance;
      const double blank = listing ? l.bbox.height() + line_gap : 0;
      if (q != k && !same_row && gap <= line_gap + blank) {
        ++stacked;
        break;
      }
    }
  }
  // (A line of prose makes it text however much room the box leaves around it; so do lines
  // of words in the body's type, all one under the other at one left edge: a box of
  // definitions, "Macro: LEFT" over "Macro: RIGHT". A drawing's labels stand apart, about its
  // shapes.)
  const double e = o_.lines.edge_tolerance;
  const Line& top = page_.lines[inside.front()];
  const bool flush_stack =
      inside.size() >= 2 && stacked == inside.size() && body_.size > 0 &&
      std::all_of(inside.begin(), inside.end(), [&](size_t i) {
        const Line& l = page_.lines[i];
        if (std::fabs(l.bbox.x0 - top.bbox.x0) > e || l.spans.empty() ||
            std::fabs(l.spans.front().size - body_.size) > o_.figures.label_size_ratio * body_.size)
          return false;
        // (Each with a word: a stack of single letters is a drawing's specimen, boxes of "x".)
        size_t run = 0, longest = 0;
        for (char32_t ch : to_u32(l.text())) {
          run = is_letter_cp(ch) ? run + 1 : 0;
          longest = std::max(longest, run);
        }
        return longest >= 2;
      });
  const bool textual = mono >= o_.figures.text_box_mono_share * chars ||
                       covered >= o_.figures.text_box_cover_ratio * area(h) || flush_stack ||
                       std::any_of(inside.begin(), inside.end(), [&](size_t i) { return prose(page_.lines[i]); });
  // (So does one line with a label beside it: a one-line listing and its button's label. A
  // row of labels, none longer than the others together, is a drawing's.)
  const Line& first = page_.lines[inside.front()];
  size_t longest = 0, row_chars = 0;
  const bool one_row = std::all_of(inside.begin(), inside.end(), [&](size_t i) {
    const Line& l = page_.lines[i];
    const double size = l.spans.empty() ? l.bbox.height() : l.spans.front().size;
    const size_t n = code_points(l.text());
    longest = std::max(longest, n);
    row_chars += n;
    return std::fabs(l.baseline() - first.baseline()) < o_.lines.same_row_ratio * size;
  }) && typography::more_than_half(longest, row_chars);
  const bool rows = inside.size() == 1 || one_row ||
                    static_cast<double>(stacked) >= o_.figures.text_box_stacked_share * inside.size();
  return textual && rows;
}

// A horizontal rule across (frame_span_ratio of) the cluster's width: one path, or pieces
// on one line that meet end to end (a table's rule stroked cell by cell).
bool Finder::spanning_rule(const Cluster& c) const {
  const Box& h = c.hull;
  const double e = o_.figures.rule_max_thickness;
  std::vector<Box> flat;
  for (size_t i : c.items)
    if (items_[i].rule && items_[i].box.height() <= e) flat.push_back(items_[i].box);
  for (const Box& r : joined_rules(std::move(flat), e))
    if (r.width() >= o_.figures.frame_span_ratio * h.width()) return true;
  for (size_t i : c.items)  // a frame's side or a full-width shape
    if (items_[i].box.width() >= o_.figures.frame_span_ratio * h.width()) return true;
  return false;
}

// Classifies one cluster; a text box's inner drawing is clustered and classified again.
void Finder::sort_out(const Cluster& c, int depth, std::vector<Cluster>& figures, std::vector<Cluster>& pieces,
                      std::vector<Cluster>& nodes, std::vector<Cluster>& framed) const {
  Verdict v = classify(c);
  // A frame holding a word or two and no drawing (a circle with a name in it, set apart
  // under the boxes and arrows of its diagram) is a node of the figure near it, if any.
  if (v.kind == Kind::Figure && depth == 0 && v.interior.empty() && framed_words(c)) {
    framed.push_back(c);
    return;
  }
  if (v.kind == Kind::Figure) figures.push_back(c);
  if (v.kind == Kind::Piece) pieces.push_back(c);
  if (v.kind == Kind::TextBox && depth == 0 && v.interior.empty() && framed_words(c)) nodes.push_back(c);
  if (v.kind != Kind::TextBox || depth > 0 || v.interior.empty()) return;
  const double e = o_.figures.rule_max_thickness;
  for (const auto& inner : cluster_items(items_, v.interior, o_.figures.figure_cluster_gap)) {
    // A strip down the box's left or right side is its padding, drawn line by line.
    const Box& b = inner.hull;
    if ((b.x0 <= c.hull.x0 + e || b.x1 >= c.hull.x1 - e) && b.height() >= o_.figures.frame_span_ratio * c.hull.height())
      continue;
    Verdict w = classify(inner);
    if (w.kind == Kind::Figure) figures.push_back(inner);
  }
}

// A box around one row of at most a few words, not in monospace: a diagram's node, if a
// figure stands near.
bool Finder::framed_words(const Cluster& c) const {
  if (body_size_ <= 0) return false;
  size_t words = 0;
  double base = 0;
  bool first = true;
  for (const auto& l : page_.lines) {
    if (inside_share(l.bbox, c.hull) < o_.figures.label_inside_ratio) continue;
    const double size = l.spans.empty() ? l.bbox.height() : l.spans.front().size;
    if (!first && std::fabs(l.baseline() - base) >= o_.lines.same_row_ratio * size) return false;  // a second row
    base = l.baseline();
    first = false;
    for (const auto& sp : l.spans)
      if (sp.monospace) return false;  // a framed command line is a listing
    std::string t = l.text();
    for (size_t i = 0; i < t.size();) {
      while (i < t.size() && t[i] == ' ') ++i;
      if (i < t.size()) ++words;
      while (i < t.size() && t[i] != ' ') ++i;
    }
  }
  return !first && words <= static_cast<size_t>(o_.figures.figure_node_max_words);
}

}  // namespace quire::detail::figure_finder
