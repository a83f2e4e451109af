// Figure regions: raster images and clusters of vector paths, with the text drawn inside.
//
// The page's drawing (paths and images) is grouped into clusters of touching boxes. A
// cluster is a figure unless it is typographic furniture:
//   - rules only (table rules, underlines, frames made of rules, header and footer rules);
//   - a text box: a frame or background whose inside is filled with lines of text (code
//     listings, notes) and holds little other drawing. A drawing inside such a box is looked
//     at on its own;
//   - too small (a fraction bar, a bullet), unless it lies next to a figure it belongs to;
//   - drawn entirely in the running-head or footer band.
// Text lines lying inside a figure are its labels.
#include "figures.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <string_view>

namespace quire::detail {

namespace {

// Words that open a caption: a caption next to a figure is never one of its labels.
constexpr std::array<std::string_view, 8> kCaptionWords = {"figure", "fig.", "fig", "table",
                                                           "listing", "exhibit", "plate", "chart"};

double area(const Box& b) { return b.empty() ? 0 : b.width() * b.height(); }

Box grown(const Box& b, double d) { return {b.x0 - d, b.y0 - d, b.x1 + d, b.y1 + d}; }

Box intersection(const Box& a, const Box& b) {
  return {std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1), std::min(a.y1, b.y1)};
}

// Boxes touch when they overlap or their edges are at most `gap` apart.
bool near(const Box& a, const Box& b, double gap) {
  return a.x0 <= b.x1 + gap && b.x0 <= a.x1 + gap && a.y0 <= b.y1 + gap && b.y0 <= a.y1 + gap;
}

// Distance between two boxes (0 when they overlap).
double distance(const Box& a, const Box& b) {
  double dx = std::max({0.0, b.x0 - a.x1, a.x0 - b.x1});
  double dy = std::max({0.0, b.y0 - a.y1, a.y0 - b.y1});
  return std::hypot(dx, dy);
}

// Share of `line`'s area lying inside `region`.
double inside_share(const Box& line, const Box& region) { return line.overlap_ratio(region); }

// The geometry of a stroked path: MuPDF bounds a stroke by line width x miter limit on each
// side, so undo that, keeping half a line width of ink. Fills are exact.
Box tight_box(const VectorPath& p, const LayoutOptions& o) {
  Box b = p.bbox;
  if (!p.stroke || p.line_width <= 0) return b;
  const double pad = p.line_width * (o.stroke_box_pad - 0.5);
  const double half = p.line_width / 2;
  auto shrink = [&](double& lo, double& hi) {
    if (hi - lo > 2 * pad + 2 * half) {
      lo += pad;
      hi -= pad;
    } else {
      double c = (lo + hi) / 2, h = std::max(half, (hi - lo) / 2 - pad);
      lo = c - h;
      hi = c + h;
    }
  };
  shrink(b.x0, b.x1);
  shrink(b.y0, b.y1);
  return b;
}

// One piece of drawing: a path or an image.
struct Item {
  Box box;    // geometry (tight)
  Box ink;    // as recorded (a stroke's box with its padding): the crop may reach it
  bool image = false;
  bool rule = false;  // a thin, long, axis-aligned path
  bool flat = false;  // a path filled and not stroked
  bool paper = false;  // painted in the paper's colour on bare paper (VectorPath::paper)
};

struct Cluster {
  Box hull;
  std::vector<size_t> items;  // indexes into the item list, ascending
};

// Groups items whose boxes lie within `gap` of a cluster's hull. Items are visited top to
// bottom so the result does not depend on the order the PDF drew them in.
std::vector<Cluster> cluster_items(const std::vector<Item>& items, std::vector<size_t> members, double gap) {
  std::sort(members.begin(), members.end(), [&](size_t a, size_t b) {
    const Box &p = items[a].box, &q = items[b].box;
    if (p.y0 != q.y0) return p.y0 < q.y0;
    if (p.x0 != q.x0) return p.x0 < q.x0;
    return a < b;
  });
  std::vector<Cluster> out;
  for (size_t m : members) {
    const Box& b = items[m].box;
    size_t into = out.size();
    for (size_t c = 0; c < out.size(); ++c) {
      if (!near(out[c].hull, b, gap)) continue;
      if (into == out.size()) {
        into = c;
        continue;
      }
      out[into].hull = out[into].hull.united(out[c].hull);
      out[into].items.insert(out[into].items.end(), out[c].items.begin(), out[c].items.end());
      out[c].items.clear();
    }
    if (into == out.size()) {
      out.push_back({b, {m}});
    } else {
      out[into].hull = out[into].hull.united(b);
      out[into].items.push_back(m);
    }
    out.erase(std::remove_if(out.begin(), out.end(), [](const Cluster& c) { return c.items.empty(); }), out.end());
  }
  // A hull that grew may now reach another cluster.
  for (bool merged = true; merged;) {
    merged = false;
    for (size_t i = 0; i < out.size() && !merged; ++i)
      for (size_t j = i + 1; j < out.size() && !merged; ++j)
        if (near(out[i].hull, out[j].hull, gap)) {
          out[i].hull = out[i].hull.united(out[j].hull);
          out[i].items.insert(out[i].items.end(), out[j].items.begin(), out[j].items.end());
          out.erase(out.begin() + static_cast<ptrdiff_t>(j));
          merged = true;
        }
  }
  for (auto& c : out) std::sort(c.items.begin(), c.items.end());
  return out;
}

enum class Kind { Figure, Piece, TextBox, Furniture };

struct Verdict {
  Kind kind = Kind::Furniture;
  std::vector<size_t> interior;  // for a text box: the drawing inside it
};

class Finder {
 public:
  Finder(const Page& page, const LayoutOptions& o, const std::vector<Image>& furniture, const BodyText& body)
      : page_(page), o_(o), furniture_(furniture), body_(body) {}

  std::vector<FigureRegion> run();

 private:
  void collect_items();
  Verdict classify(const Cluster& c) const;
  // Sorts a cluster into figures, pieces of figures, framed text nodes that join a figure
  // near them, and frames around a few words that are figures of their own unless a figure
  // stands near (`framed`).
  void sort_out(const Cluster& c, int depth, std::vector<Cluster>& figures, std::vector<Cluster>& pieces,
                std::vector<Cluster>& nodes, std::vector<Cluster>& framed) const;
  bool framed_words(const Cluster& c) const;
  FigureRegion make_region(const Cluster& c, std::vector<bool>& taken) const;
  bool structural(const Item& it, const Box& hull) const;
  bool text_block(const std::vector<size_t>& inside, const Box& h) const;
  bool badges(const Cluster& c) const;
  bool banner(const Cluster& c, const std::vector<size_t>& inside) const;
  bool bleeding_bar(const Cluster& c) const;
  bool corner(const Item& it, const Box& hull) const;
  bool caption_like(const std::string& text) const;
  bool figure_caption(const Line& line) const;
  void join_under_captions(std::vector<Cluster>& figures) const;

  // Whether two drawings of lines and shapes stand one above the other, overlapping across
  // at least half the narrower one's width, less than figure_stack_gap_ratio body sizes
  // apart with no text on the page between them: parts of one picture (an SVG of separate
  // shapes), not two figures, which a caption or the text would stand between. Images are
  // whole pictures each.
  bool stacked(const Cluster& a, const Cluster& b) const {
    for (const Cluster* c : {&a, &b})
      for (size_t i : c->items)
        if (items_[i].image) return false;
    const Box& top = a.hull.y0 <= b.hull.y0 ? a.hull : b.hull;
    const Box& bottom = a.hull.y0 <= b.hull.y0 ? b.hull : a.hull;
    const double gap = bottom.y0 - top.y1;
    const double overlap = std::min(a.hull.x1, b.hull.x1) - std::max(a.hull.x0, b.hull.x0);
    if (gap < 0 || gap > o_.figure_stack_gap_ratio * body_size_ ||
        overlap < 0.5 * std::min(a.hull.x1 - a.hull.x0, b.hull.x1 - b.hull.x0))
      return false;
    for (const auto& l : page_.lines)
      if (l.bbox.y0 < bottom.y0 && l.bbox.y1 > top.y1) return false;
    return true;
  }

  bool icon(const Image& im) const;
  bool prose(const Line& l) const;

  const Page& page_;
  const LayoutOptions& o_;
  const std::vector<Image> furniture_;
  std::vector<Item> items_;
  double body_size_ = 0;  // points, the page's
  BodyText body_;         // the book's (its size, or the page's if the book's is unknown)
};

void Finder::collect_items() {
  const double page_area = page_.width * page_.height;
  for (const auto& p : page_.paths) {
    Item it;
    it.box = tight_box(p, o_);
    it.ink = p.bbox;
    if (page_area > 0 && area(it.box) >= o_.page_background_ratio * page_area) continue;  // page background
    const double thin = std::min(it.box.width(), it.box.height());
    const double len = std::max(it.box.width(), it.box.height());
    it.rule = thin <= o_.rule_max_thickness && len >= o_.rule_min_length;
    it.flat = p.fill && !p.stroke;
    it.paper = p.paper;
    // Paper-coloured paint behind lines of prose is the page's background (browsers paint
    // one behind all the text), not a figure's blank canvas.
    if (it.paper && std::any_of(page_.lines.begin(), page_.lines.end(), [&](const Line& l) {
          return prose(l) && inside_share(l.bbox, it.box) >= o_.label_inside_ratio;
        }))
      continue;
    items_.push_back(it);
  }
  for (const auto& im : page_.images) {
    if (im.width <= o_.spacer_max_pixels || im.height <= o_.spacer_max_pixels) continue;  // spacer
    // A stencil mask of glyph size is a character of a bitmap font, not a picture.
    if (im.mask && (im.bbox.width() < o_.min_figure_side || im.bbox.height() < o_.min_figure_side)) continue;
    if (is_repeated_image(im, furniture_, o_)) continue;
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
  const double most = o_.icon_max_ratio * body_.size;
  if (im.bbox.width() > most || im.bbox.height() > most) return false;
  auto body_chars = [&](const Line& l) {
    size_t n = 0;
    for (const auto& sp : l.spans)
      if (!sp.monospace && std::fabs(sp.size - body_.size) <= o_.label_size_ratio * body_.size) n += sp.text.size();
    return n;
  };
  for (const auto& l : page_.lines) {
    const double shared = std::min(l.bbox.y1, im.bbox.y1) - std::max(l.bbox.y0, im.bbox.y0);
    if (shared < 0.5 * std::min(l.bbox.height(), im.bbox.height())) continue;
    const double gap = l.bbox.x0 - im.bbox.x1;
    if (gap < 0 || gap > o_.icon_text_gap_ratio * body_.size || body_chars(l) == 0) continue;
    // The text that starts there: the line and those under it at its left edge, one
    // line's step apart (a note's title over its first lines).
    size_t chars = body_chars(l);
    double bottom = l.bbox.y1;
    for (bool more = true; more && chars < o_.icon_text_min_chars;) {
      more = false;
      for (const auto& m : page_.lines)
        if (m.bbox.y0 >= bottom - 0.5 * body_.size && m.bbox.y0 <= bottom + o_.paragraph_gap_ratio * body_.size &&
            m.bbox.y1 > bottom && std::fabs(m.bbox.x0 - l.bbox.x0) <= o_.edge_tolerance) {
          chars += body_chars(m);
          bottom = m.bbox.y1;
          more = true;
          break;
        }
    }
    if (chars >= o_.icon_text_min_chars) return true;
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
  if (body_.size <= 0 || measure <= 0 || across < o_.prose_measure_ratio * measure) return false;
  double chars = 0, body = 0;
  for (const auto& sp : l.spans) {
    const double n = static_cast<double>(sp.text.size());
    chars += n;
    if (!sp.monospace && std::fabs(sp.size - body_.size) <= o_.label_size_ratio * body_.size) body += n;
  }
  if (chars <= 0 || body < 0.5 * chars) return false;
  const std::string t = l.text();
  size_t words = 0;
  for (size_t i = 0; i < t.size();) {
    while (i < t.size() && t[i] == ' ') ++i;
    if (i < t.size()) ++words;
    while (i < t.size() && t[i] != ' ') ++i;
  }
  return words >= o_.prose_min_words;
}

// A small piece in a corner of the hull: a rounded corner of a frame drawn with rules
// (Texinfo's cartouche, with LaTeX's quarter-circle glyphs).
bool Finder::corner(const Item& it, const Box& hull) const {
  if (it.image || it.box.width() > o_.frame_side_max || it.box.height() > o_.frame_side_max) return false;
  const double e = o_.rule_max_thickness;
  const bool left = it.box.x0 <= hull.x0 + e, right = it.box.x1 >= hull.x1 - e;
  const bool top = it.box.y0 <= hull.y0 + e, bottom = it.box.y1 >= hull.y1 - e;
  return (left || right) && (top || bottom);
}

// The box itself: its background, its frame, a full-width band or rule, a rounded corner.
bool Finder::structural(const Item& it, const Box& hull) const {
  if (it.image) return false;
  const Box& b = it.box;
  if (b.width() >= o_.frame_span_ratio * hull.width()) return true;
  if (it.rule && b.height() >= o_.frame_span_ratio * hull.height()) return true;
  const double e = o_.rule_max_thickness;
  const bool at_side = b.x0 <= hull.x0 + e || b.x1 >= hull.x1 - e;
  // A narrow piece along the left or right side: a frame's side, a rounded corner, or the
  // padding of a box drawn in pieces (per line, or split across pages).
  return b.width() <= o_.frame_side_max && at_side;
}

Verdict Finder::classify(const Cluster& c) const {
  Verdict v;
  const Box& h = c.hull;
  const double band = o_.furniture_band_ratio * page_.height;
  if (page_.height > 0 && (h.y1 <= band || h.y0 >= page_.height - band)) return v;  // head or foot decoration
  // Paint of the paper's colour alone shows nothing.
  if (std::all_of(c.items.begin(), c.items.end(), [&](size_t i) { return items_[i].paper; })) return v;
  bool any_image = false, rules_only = true, boxed = false;
  double drawing = 0;
  for (size_t i : c.items) {
    const Item& it = items_[i];
    any_image |= it.image;
    rules_only &= it.rule || corner(it, h);
    if (structural(it, h)) {
      boxed = true;
    } else if (it.image || !it.rule) {
      v.interior.push_back(i);
      drawing += area(intersection(it.box, h));
    }
  }
  if (h.width() < o_.min_figure_side || h.height() < o_.min_figure_side) {
    v.kind = rules_only ? Kind::Furniture : Kind::Piece;
    return v;
  }
  if (rules_only) {
    // Table rules and frames made of rules have a rule across the whole box; a line
    // drawing (LaTeX's picture environment draws boxes and arrows as rules) has none.
    for (size_t i : c.items)
      if (items_[i].box.width() >= o_.frame_span_ratio * h.width()) return v;
    v.interior = c.items;
  }
  std::vector<size_t> inside;
  for (size_t i = 0; i < page_.lines.size(); ++i)
    if (inside_share(page_.lines[i].bbox, h) >= o_.label_inside_ratio) inside.push_back(i);
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
  } else if (boxed && drawing < o_.figure_drawing_min_ratio * ha && text_block(inside, h)) {
    v.kind = Kind::TextBox;
  } else {
    v.kind = Kind::Figure;
  }
  return v;
}

// Badges and highlights: flat shapes no taller than a few lines, each behind a text of its
// own, are that text's background: a small one (a section number's coloured square) or one
// the text fills (a highlighted word). A drawing's filled shapes are taller, stand without
// text or with a short label in much room (a stack of layers), or come with strokes.
bool Finder::badges(const Cluster& c) const {
  if (body_size_ <= 0) return false;
  const double most = o_.badge_max_ratio * body_size_;
  for (size_t i : c.items) {
    const Item& it = items_[i];
    if (!it.flat || it.box.height() > most) return false;
    // Glyphs of the lines that share most of the shape's height and stand on it.
    double first = it.box.x1, last = it.box.x0;
    for (const auto& l : page_.lines) {
      const double shared = std::min(l.bbox.y1, it.box.y1) - std::max(l.bbox.y0, it.box.y0);
      if (shared < 0.5 * l.bbox.height()) continue;
      for (const auto& sp : l.spans) {
        for (float x : sp.xs)
          if (x >= it.box.x0 - o_.edge_tolerance && x < it.box.x1) {
            first = std::min(first, static_cast<double>(x));
            last = std::max(last, static_cast<double>(x) + 0.5 * sp.size);
          }
        if (sp.xs.empty() && sp.bbox.x1 > it.box.x0 && sp.bbox.x0 < it.box.x1) {  // no glyph positions
          first = std::min(first, std::max(sp.bbox.x0, it.box.x0));
          last = std::max(last, std::min(sp.bbox.x1, it.box.x1));
        }
      }
    }
    if (last <= first) return false;  // no text on it
    const bool small = it.box.width() <= most;
    const bool filled = last - first >= o_.highlight_text_share * it.box.width();
    if (!small && !filled) return false;
  }
  return true;
}

// A bar that runs off the page: filled shapes, at most a few, each reaching past the page's
// left or right edge (a chapter opening's band, a thumb index's tab). Printers trim there;
// a drawing stays inside the page.
bool Finder::bleeding_bar(const Cluster& c) const {
  if (page_.width <= 0 || c.items.size() > o_.bar_max_shapes) return false;
  for (size_t i : c.items) {
    const Item& it = items_[i];
    if (!it.flat || (it.box.x0 > 0 && it.box.x1 < page_.width)) return false;
  }
  return true;
}

// Where a line stands: its first span's baseline (the bottom of its box without spans).
double baseline_of(const Line& l) { return l.spans.empty() ? l.bbox.y1 : l.spans.front().baseline; }

// A banner: one flat shape, a few times as high as the one row of text it carries, which
// starts near its left edge (a heading on a coloured band). A drawing's box holds its label
// in the middle (a layer of a stack), and a drawing of one box with a word in it is rare.
bool Finder::banner(const Cluster& c, const std::vector<size_t>& inside) const {
  if (c.items.size() != 1 || inside.empty()) return false;
  const Item& it = items_[c.items.front()];
  if (!it.flat || it.image) return false;
  const Line& first = page_.lines[inside.front()];
  const double base = baseline_of(first);
  double size = 0, left = first.bbox.x0;
  for (size_t i : inside) {
    const Line& l = page_.lines[i];
    const double s = l.spans.empty() ? l.bbox.height() : l.spans.front().size;
    if (std::fabs(baseline_of(l) - base) >= 0.5 * s) return false;  // more than one row
    size = std::max(size, s);
    left = std::min(left, l.bbox.x0);
  }
  return size > 0 && it.box.height() <= o_.banner_max_ratio * size && left - it.box.x0 <= o_.banner_max_ratio * size;
}

// Lines of a code listing or of prose: mostly monospace or covering much of the box, and
// set one under the other at the line pitch, whereas a diagram's labels stand apart.
bool Finder::text_block(const std::vector<size_t>& inside, const Box& h) const {
  if (inside.empty()) return false;
  double covered = 0, chars = 0, mono = 0;
  size_t stacked = 0;
  for (size_t i : inside) {
    const Line& l = page_.lines[i];
    covered += area(intersection(l.bbox, h));
    for (const auto& sp : l.spans) {
      double n = static_cast<double>(sp.text.size());
      chars += n;
      if (sp.monospace) mono += n;
    }
    const double size = l.spans.empty() ? l.bbox.height() : l.spans.front().size;
    for (size_t j : inside) {
      const Line& m = page_.lines[j];
      const Box& o = m.bbox;
      double gap = std::max(o.y0 - l.bbox.y1, l.bbox.y0 - o.y1);
      // Glyph boxes of consecutive lines may overlap a little, and a lot where a symbol
      // font's boxes are tall (angle brackets of a syntax line): lines of one row are told
      // by their baselines.
      const double other_size = m.spans.empty() ? o.height() : m.spans.front().size;
      bool same_row = std::fabs(baseline_of(m) - baseline_of(l)) < 0.5 * std::min(size, other_size);
      if (j != i && !same_row && gap <= o_.paragraph_gap_ratio * size) {
        ++stacked;
        break;
      }
    }
  }
  // (A line of prose makes it text however much room the box leaves around it.)
  const bool textual = mono >= o_.text_box_mono_share * chars || covered >= o_.text_box_cover_ratio * area(h) ||
                       std::any_of(inside.begin(), inside.end(), [&](size_t i) { return prose(page_.lines[i]); });
  const bool rows = inside.size() == 1 || static_cast<double>(stacked) >= o_.text_box_stacked_share * inside.size();
  return textual && rows;
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
  const double e = o_.rule_max_thickness;
  for (const auto& inner : cluster_items(items_, v.interior, o_.figure_cluster_gap)) {
    // A strip down the box's left or right side is its padding, drawn line by line.
    const Box& b = inner.hull;
    if ((b.x0 <= c.hull.x0 + e || b.x1 >= c.hull.x1 - e) && b.height() >= o_.frame_span_ratio * c.hull.height())
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
    if (inside_share(l.bbox, c.hull) < o_.label_inside_ratio) continue;
    const double size = l.spans.empty() ? l.bbox.height() : l.spans.front().size;
    if (!first && std::fabs(baseline_of(l) - base) >= 0.5 * size) return false;  // a second row
    base = baseline_of(l);
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
  return !first && words <= static_cast<size_t>(o_.figure_node_max_words);
}

bool Finder::caption_like(const std::string& text) const {
  size_t b = text.find_first_not_of(' ');
  if (b == std::string::npos) return false;
  size_t e = text.find(' ', b);
  std::string first = text.substr(b, e == std::string::npos ? std::string::npos : e - b);
  for (auto& ch : first) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return std::find(kCaptionWords.begin(), kCaptionWords.end(), first) != kCaptionWords.end();
}

size_t code_points(const std::string& s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// "Figure 3-2: ...", "Fig. 4 ...": a caption word of figures, then a token with a digit.
bool Finder::figure_caption(const Line& line) const {
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

// Line-art tools (groff's pic, some diagram editors) draw a diagram as separate strokes,
// circles and arrows with words between them: clustering by touching boxes finds pieces of
// it, or nothing where a piece is a lone line. Under a figure caption, though, everything
// drawn between the caption and the text above is the figure, and the short lines there
// are its labels.
void Finder::join_under_captions(std::vector<Cluster>& figures) const {
  const auto& lines = page_.lines;
  if (lines.empty()) return;
  double left = lines.front().bbox.x0, right = lines.front().bbox.x1;
  for (const auto& l : lines) {
    left = std::min(left, l.bbox.x0);
    right = std::max(right, l.bbox.x1);
  }
  const double measure = right - left;
  if (measure <= 0) return;
  const double band = o_.furniture_band_ratio * page_.height;
  auto centre_in = [](const Box& b, const Box& z) {
    const double cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2;
    return cx >= z.x0 && cx <= z.x1 && cy >= z.y0 && cy <= z.y1;
  };
  for (const auto& caption : lines) {
    if (!figure_caption(caption)) continue;
    // The zone: from the lowest line of text above the caption down to the caption, across
    // the text block. A line of text is a wide one, one longer than a label, or a caption.
    double top = 0, top_x0 = left;
    for (const auto& l : lines) {
      if (&l == &caption || l.bbox.y1 > caption.bbox.y0) continue;
      if ((l.bbox.width() >= o_.caption_zone_body_ratio * measure ||
           code_points(l.text()) > static_cast<size_t>(o_.label_max_chars) || caption_like(l.text())) &&
          l.bbox.y1 > top) {
        top = l.bbox.y1;
        top_x0 = l.bbox.x0;
      }
    }
    // The short last line of that text (a paragraph's "See Figure 2.", a caption's last
    // word) follows it at a line's distance and starts where it or the text block does.
    const double indent = std::max(1.0, body_size_);
    for (bool moved = top > 0; moved;) {
      moved = false;
      for (const auto& l : lines) {
        if (&l == &caption || l.bbox.y0 < top - indent || l.bbox.y1 <= top || l.bbox.y1 > caption.bbox.y0) continue;
        const bool tail = l.bbox.y0 - top <= o_.caption_zone_tail_gap_ratio * indent &&
                          (std::fabs(l.bbox.x0 - top_x0) <= indent || std::fabs(l.bbox.x0 - left) <= indent);
        if (!tail) continue;
        top = l.bbox.y1;
        moved = true;
      }
    }
    // Captions side by side share the width: each has the part on its side of the middle
    // between them.
    double zone_left = left, zone_right = right;
    for (const auto& other : lines) {
      if (&other == &caption || !figure_caption(other) || other.bbox.y1 <= caption.bbox.y0 ||
          other.bbox.y0 >= caption.bbox.y1)
        continue;
      if (other.bbox.x0 >= caption.bbox.x1) zone_right = std::min(zone_right, (caption.bbox.x1 + other.bbox.x0) / 2);
      if (other.bbox.x1 <= caption.bbox.x0) zone_left = std::max(zone_left, (other.bbox.x1 + caption.bbox.x0) / 2);
    }
    const Box zone{zone_left, top, zone_right, caption.bbox.y0};
    if (zone.height() < o_.min_figure_side) continue;
    // Left alone: a zone with monospace in it (a listing is the figure), and one a figure
    // from outside reaches into (it has its parts; text beside a figure makes the zone
    // shorter than the figure).
    bool blocked = false;
    std::vector<Box> label_boxes;
    for (const auto& l : lines) {
      if (&l == &caption || !centre_in(l.bbox, zone)) continue;
      for (const auto& sp : l.spans) blocked = blocked || sp.monospace;
      label_boxes.push_back(l.bbox);
    }
    const Box room = grown(zone, o_.figure_cluster_gap);
    auto within = [&](const Box& b) { return b.x0 >= room.x0 && b.x1 <= room.x1 && b.y0 >= room.y0 && b.y1 <= room.y1; };
    std::vector<Cluster*> parts;
    for (auto& f : figures) {
      if (f.items.empty() || !f.hull.intersects(zone)) continue;
      if (centre_in(f.hull, zone) && within(f.hull)) parts.push_back(&f);
      else blocked = true;
    }
    if (blocked) continue;
    // The drawing must lie in the zone (a frame around text above, or a box behind the
    // caption, reaches out of it), and be more than rules unless words stand with them: a
    // rule alone between a listing and its caption is the float's rule.
    Cluster joined;
    bool drawn = false;
    for (size_t i = 0; i < items_.size(); ++i) {
      const Box& b = items_[i].box;
      if (page_.height > 0 && (b.y1 <= band || b.y0 >= page_.height - band)) continue;
      // A rule across the text block is the page's or the float's (under a running head,
      // above a footnote), not a drawing's.
      if (items_[i].rule && b.width() >= o_.frame_span_ratio * measure) continue;
      // A drawing that goes on past the zone (a frame drawn in pieces around text above)
      // is no figure of this caption's.
      if (!centre_in(b, zone)) {
        blocked = blocked || b.intersects(room);
        continue;
      }
      blocked = blocked || !within(b);
      drawn = drawn || !items_[i].rule;
      joined.items.push_back(i);
      joined.hull = joined.items.size() == 1 ? b : joined.hull.united(b);
    }
    if (blocked || joined.items.empty()) continue;
    // A line at the text block's left edge above all the drawing is text that leads into
    // the figure ("It yields the following:"), not a label: labels stand among or beside
    // what they name.
    label_boxes.erase(std::remove_if(label_boxes.begin(), label_boxes.end(),
                                     [&](const Box& b) {
                                       return std::fabs(b.x0 - left) <= o_.caption_zone_margin_ratio * indent &&
                                              b.y1 <= joined.hull.y0;
                                     }),
                      label_boxes.end());
    if (!drawn && label_boxes.empty()) continue;
    // The figures in the zone are parts of this one.
    Box hull = joined.hull;
    for (const Cluster* f : parts) hull = hull.united(f->hull);
    for (const Box& b : label_boxes) hull = hull.united(b);
    if (hull.width() < o_.min_figure_side && hull.height() < o_.min_figure_side) continue;
    for (Cluster* f : parts) {
      for (size_t i : f->items)
        if (std::find(joined.items.begin(), joined.items.end(), i) == joined.items.end()) joined.items.push_back(i);
      f->items.clear();
    }
    joined.hull = hull;
    std::sort(joined.items.begin(), joined.items.end());
    figures.push_back(std::move(joined));
  }
  figures.erase(std::remove_if(figures.begin(), figures.end(), [](const Cluster& c) { return c.items.empty(); }),
                figures.end());
}

FigureRegion Finder::make_region(const Cluster& c, std::vector<bool>& taken) const {
  FigureRegion r;
  Box hull = c.hull, ink = c.hull;
  double image_area = 0;
  for (size_t i : c.items) {
    const Item& it = items_[i];
    ink = ink.united(it.ink);
    if (it.image) {
      ++r.images;
      image_area += area(it.box);
    } else {
      ++r.paths;
    }
  }
  std::vector<size_t> labels;
  for (size_t i = 0; i < page_.lines.size(); ++i)
    if (!taken[i] && !prose(page_.lines[i]) && inside_share(page_.lines[i].bbox, hull) >= o_.label_inside_ratio)
      labels.push_back(i);
  // Tick values and axis names just outside the drawing. Lines set smaller or larger than
  // the body may chain outwards (an axis title beyond its tick values); body-size lines
  // must touch the drawing itself.
  Box grown_hull = hull;
  for (size_t i : labels) grown_hull = grown_hull.united(page_.lines[i].bbox);
  for (bool added = true; added;) {
    added = false;
    for (size_t i = 0; i < page_.lines.size(); ++i) {
      const Line& l = page_.lines[i];
      if (taken[i] || std::find(labels.begin(), labels.end(), i) != labels.end()) continue;
      const double size = l.spans.empty() ? 0 : l.spans.front().size;
      const bool off_body = body_size_ > 0 && std::fabs(size - body_size_) > o_.label_size_ratio * body_size_;
      const double reach = off_body ? o_.label_near_gap : o_.label_attach_gap;
      if (distance(l.bbox, off_body ? grown_hull : hull) > reach) continue;
      std::string t = l.text();
      if (code_points(t) > static_cast<size_t>(o_.label_max_chars) || caption_like(t) || prose(l)) continue;
      labels.push_back(i);
      grown_hull = grown_hull.united(l.bbox);
      added = true;
    }
  }
  Box region = hull;
  for (size_t i : labels) {
    region = region.united(page_.lines[i].bbox);
    ink = ink.united(page_.lines[i].bbox);
  }
  // The crop may reach the recorded ink and a margin for anti-aliasing, but never a line
  // of text that is not the figure's own.
  Box crop = grown(ink, o_.figure_crop_margin);
  for (size_t i = 0; i < page_.lines.size(); ++i) {
    if (std::find(labels.begin(), labels.end(), i) != labels.end()) continue;
    const Box& l = page_.lines[i].bbox;
    if (!l.intersects(crop) || l.intersects(region)) continue;
    if (l.y0 >= region.y1) crop.y1 = std::min(crop.y1, l.y0);
    else if (l.y1 <= region.y0) crop.y0 = std::max(crop.y0, l.y1);
    else if (l.x0 >= region.x1) crop.x1 = std::min(crop.x1, l.x0);
    else if (l.x1 <= region.x0) crop.x0 = std::max(crop.x0, l.x1);
  }
  crop = crop.united(region);
  if (page_.width > 0 && page_.height > 0) crop = intersection(crop, {0, 0, page_.width, page_.height});
  r.bbox = crop;
  r.raster = r.images > 0 && image_area >= o_.raster_share * area(region);
  // Reading order: rows top to bottom (a line joins a row when its middle is within half
  // the row's height), left to right within a row.
  std::sort(labels.begin(), labels.end(), [&](size_t a, size_t b) {
    const Box &p = page_.lines[a].bbox, &q = page_.lines[b].bbox;
    if (p.y0 != q.y0) return p.y0 < q.y0;
    return p.x0 < q.x0;
  });
  std::vector<std::vector<size_t>> rows;
  for (size_t i : labels) {
    const Box& b = page_.lines[i].bbox;
    double mid = (b.y0 + b.y1) / 2;
    if (!rows.empty()) {
      const Box& f = page_.lines[rows.back().front()].bbox;
      if (std::fabs(mid - (f.y0 + f.y1) / 2) <= f.height() / 2) {
        rows.back().push_back(i);
        continue;
      }
    }
    rows.push_back({i});
  }
  for (auto& row : rows) {
    std::stable_sort(row.begin(), row.end(),
                     [&](size_t a, size_t b) { return page_.lines[a].bbox.x0 < page_.lines[b].bbox.x0; });
    for (size_t i : row) {
      r.label_lines.push_back(i);
      r.labels.push_back(page_.lines[i].text());
      taken[i] = true;
    }
  }
  return r;
}

std::vector<FigureRegion> Finder::run() {
  // The body size: the font size carrying most characters on the page; the body font, the
  // font carrying most of them at that size.
  std::map<double, size_t> by_size;
  for (const auto& l : page_.lines)
    for (const auto& sp : l.spans) by_size[std::round(sp.size * 10) / 10] += sp.text.size();
  size_t best = 0;
  for (const auto& [size, n] : by_size)
    if (n > best) {
      best = n;
      body_size_ = size;
    }
  // The measure, where the book does not say: the extent of the page's lines in body type.
  if (body_.size <= 0) body_.size = body_size_;
  if (body_.right <= body_.left) {
    bool first = true;
    for (const auto& l : page_.lines)
      for (const auto& sp : l.spans)
        if (!sp.monospace && std::fabs(sp.size - body_.size) <= o_.label_size_ratio * body_.size) {
          body_.left = first ? l.bbox.x0 : std::min(body_.left, l.bbox.x0);
          body_.right = first ? l.bbox.x1 : std::max(body_.right, l.bbox.x1);
          first = false;
          break;
        }
  }
  collect_items();
  std::vector<size_t> all(items_.size());
  std::iota(all.begin(), all.end(), 0);
  std::vector<Cluster> figures, pieces, nodes, framed;
  for (const auto& c : cluster_items(items_, all, o_.figure_cluster_gap)) sort_out(c, 0, figures, pieces, nodes, framed);
  // Sub-plots and pieces of one diagram lying close together are one figure.
  auto absorb = [&](Cluster& into, Cluster& from) {
    into.hull = into.hull.united(from.hull);
    into.items.insert(into.items.end(), from.items.begin(), from.items.end());
    from.items.clear();
  };
  auto merge = [&] {
    for (bool merged = true; merged;) {
      merged = false;
      for (size_t i = 0; i < figures.size(); ++i) {
        for (size_t j = 0; j < figures.size(); ++j)
          if (j != i && !figures[i].items.empty() && !figures[j].items.empty() &&
              (near(figures[i].hull, figures[j].hull, o_.figure_merge_gap) ||
               stacked(figures[i], figures[j]))) {
            absorb(figures[i], figures[j]);
            merged = true;
          }
        for (auto& p : pieces)
          if (!figures[i].items.empty() && !p.items.empty() && near(figures[i].hull, p.hull, o_.figure_merge_gap)) {
            absorb(figures[i], p);
            merged = true;
          }
        for (auto* group : {&nodes, &framed})
          for (auto& n : *group)
            if (!figures[i].items.empty() && !n.items.empty() &&
                near(figures[i].hull, n.hull, o_.figure_node_gap_ratio * body_size_)) {
              absorb(figures[i], n);
              merged = true;
            }
      }
      figures.erase(std::remove_if(figures.begin(), figures.end(), [](const Cluster& c) { return c.items.empty(); }),
                    figures.end());
    }
  };
  merge();
  // Frames no figure took are figures of their own, as any other drawing.
  const size_t before = figures.size();
  for (auto& f : framed)
    if (!f.items.empty()) figures.push_back(std::move(f));
  if (figures.size() != before) merge();
  join_under_captions(figures);
  for (auto& f : figures) std::sort(f.items.begin(), f.items.end());
  std::sort(figures.begin(), figures.end(), [](const Cluster& a, const Cluster& b) {
    if (a.hull.y0 != b.hull.y0) return a.hull.y0 < b.hull.y0;
    if (a.hull.x0 != b.hull.x0) return a.hull.x0 < b.hull.x0;
    return a.items < b.items;
  });
  std::vector<bool> taken(page_.lines.size(), false);
  std::vector<FigureRegion> out;
  for (const auto& f : figures) out.push_back(make_region(f, taken));
  std::stable_sort(out.begin(), out.end(), [](const FigureRegion& a, const FigureRegion& b) {
    if (a.bbox.y0 != b.bbox.y0) return a.bbox.y0 < b.bbox.y0;
    return a.bbox.x0 < b.bbox.x0;
  });
  return out;
}

}  // namespace

std::vector<FigureRegion> find_figures(const Page& page, const LayoutOptions& options, const BodyText& body) {
  return Finder(page, options, {}, body).run();
}

std::vector<FigureRegion> find_figures(const Page& page, const LayoutOptions& options,
                                       const std::vector<Image>& furniture) {
  return Finder(page, options, furniture, {}).run();
}

PageDecor page_decor(const Page& page, const LayoutOptions& options) {
  PageDecor d;
  for (const auto& p : page.paths) {
    const Box b = tight_box(p, options);
    const bool thin_y = b.height() <= options.rule_max_thickness, thin_x = b.width() <= options.rule_max_thickness;
    if (thin_y && b.width() >= options.rule_min_length) d.rules.push_back(b);
    else if (thin_x && b.height() >= options.rule_min_length) d.bars.push_back(b);
    else if (!thin_x && !thin_y && ((p.fill && p.color != 0xFFFFFF) || p.stroke)) d.panels.push_back(b);
  }
  for (const auto& im : page.images) d.pictures.push_back(im.bbox);
  return d;
}

bool is_repeated_image(const Image& image, const std::vector<Image>& repeated, const LayoutOptions& options) {
  const double t = options.repeated_image_tolerance;
  for (const auto& r : repeated) {
    if (r.width != image.width || r.height != image.height) continue;
    if (std::fabs(r.bbox.x0 - image.bbox.x0) <= t && std::fabs(r.bbox.y0 - image.bbox.y0) <= t &&
        std::fabs(r.bbox.x1 - image.bbox.x1) <= t && std::fabs(r.bbox.y1 - image.bbox.y1) <= t)
      return true;
  }
  return false;
}

std::vector<Image> repeated_images(const Document& doc, const LayoutOptions& options) {
  struct Seen {
    Image image;
    int pages = 0;
    int last_page = -1;
  };
  std::vector<Seen> seen;
  for (const auto& page : doc.pages) {
    for (const auto& im : page.images) {
      auto it = std::find_if(seen.begin(), seen.end(),
                             [&](const Seen& s) { return is_repeated_image(im, {s.image}, options); });
      if (it == seen.end()) {
        seen.push_back({im, 1, page.number});
      } else if (it->last_page != page.number) {
        it->pages++;
        it->last_page = page.number;
      }
    }
  }
  std::vector<Image> out;
  for (const auto& s : seen)
    if (s.pages >= options.repeated_image_min_pages) out.push_back(s.image);
  return out;
}

}  // namespace quire::detail
