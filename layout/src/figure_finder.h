// Private to layout/: the figure finder's pieces of drawing, clusters and verdicts, shared by
// its passes (figure_kinds.cpp: what a cluster is; figure_captions.cpp: captions under a
// figure; figures.cpp: regions).
#pragma once

#include "figures.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <string_view>

#include "quire/typography.h"

namespace quire::detail::figure_finder {


inline double area(const Box& b) { return b.empty() ? 0 : b.width() * b.height(); }

inline Box grown(const Box& b, double d) { return {b.x0 - d, b.y0 - d, b.x1 + d, b.y1 + d}; }

inline Box intersection(const Box& a, const Box& b) {
  return {std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1), std::min(a.y1, b.y1)};
}

// Boxes touch when they overlap or their edges are at most `gap` apart.
inline bool near(const Box& a, const Box& b, double gap) {
  return a.x0 <= b.x1 + gap && b.x0 <= a.x1 + gap && a.y0 <= b.y1 + gap && b.y0 <= a.y1 + gap;
}

// Distance between two boxes (0 when they overlap).
inline double distance(const Box& a, const Box& b) {
  double dx = std::max({0.0, b.x0 - a.x1, a.x0 - b.x1});
  double dy = std::max({0.0, b.y0 - a.y1, a.y0 - b.y1});
  return std::hypot(dx, dy);
}

// Share of `line`'s area lying inside `region`.
inline double inside_share(const Box& line, const Box& region) { return line.overlap_ratio(region); }

// The geometry of a stroked path: MuPDF bounds a stroke by line width x miter limit on each
// side, so undo that, keeping half a line width of ink. Fills are exact.
inline Box tight_box(const VectorPath& p, const LayoutOptions& o) {
  Box b = p.bbox;
  if (!p.stroke || p.line_width <= 0) return b;
  const double pad = p.line_width * (o.figures.stroke_box_pad - 0.5);
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
  uint32_t color = 0;  // a path's colour (VectorPath::color)
};

struct Cluster {
  Box hull;
  std::vector<size_t> items;  // indexes into the item list, ascending
};

// Groups items whose boxes lie within `gap` of a cluster's hull. Items are visited top to
// bottom so the result does not depend on the order the PDF drew them in.
inline std::vector<Cluster> cluster_items(const std::vector<Item>& items, std::vector<size_t> members, double gap) {
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
  Finder(const Page& page, const LayoutOptions& o, const BodyText& body) : page_(page), o_(o), body_(body) {}

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
  bool spanning_rule(const Cluster& c) const;
  bool text_block(const std::vector<size_t>& inside, const Box& h) const;
  bool text_mark(const Item& it) const;
  bool text_ground(const Item& it) const;
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
    if (gap < 0 || gap > o_.figures.figure_stack_gap_ratio * body_size_ ||
        typography::less_than_half(overlap, std::min(a.hull.x1 - a.hull.x0, b.hull.x1 - b.hull.x0)))
      return false;
    for (const auto& l : page_.lines)
      if (l.bbox.y0 < bottom.y0 && l.bbox.y1 > top.y1) return false;
    return true;
  }

  bool icon(const Image& im) const;
  bool prose(const Line& l) const;

  const Page& page_;
  const LayoutOptions& o_;
  std::vector<Item> items_;
  double body_size_ = 0;  // points, the page's
  BodyText body_;         // the book's (its size, or the page's if the book's is unknown)
};

inline size_t code_points(const std::string& s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

}  // namespace quire::detail::figure_finder
