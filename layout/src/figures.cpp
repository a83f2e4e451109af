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
#include "figure_finder.h"

#include <algorithm>
#include <cmath>

#include "quire/typography.h"

namespace quire::detail::figure_finder {

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
    if (!taken[i] && !prose(page_.lines[i]) && inside_share(page_.lines[i].bbox, hull) >= o_.figures.label_inside_ratio)
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
      const bool off_body = body_size_ > 0 && std::fabs(size - body_size_) > o_.figures.label_size_ratio * body_size_;
      const double reach = off_body ? o_.figures.label_near_gap : o_.figures.label_attach_gap;
      if (distance(l.bbox, off_body ? grown_hull : hull) > reach) continue;
      std::string t = l.text();
      if (code_points(t) > static_cast<size_t>(o_.figures.label_max_chars) || caption_like(t) || prose(l)) continue;
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
  Box crop = grown(ink, o_.figures.figure_crop_margin);
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
  r.raster = r.images > 0 && image_area >= o_.figures.raster_share * area(region);
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
    for (const auto& sp : l.spans) by_size[typography::to_tenth(sp.size)] += sp.text.size();
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
        if (!sp.monospace && std::fabs(sp.size - body_.size) <= o_.figures.label_size_ratio * body_.size) {
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
  for (const auto& c : cluster_items(items_, all, o_.figures.figure_cluster_gap)) sort_out(c, 0, figures, pieces, nodes, framed);
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
              (near(figures[i].hull, figures[j].hull, o_.figures.figure_merge_gap) ||
               stacked(figures[i], figures[j]))) {
            absorb(figures[i], figures[j]);
            merged = true;
          }
        for (auto& p : pieces)
          if (!figures[i].items.empty() && !p.items.empty() &&
              near(figures[i].hull, p.hull, o_.figures.figure_merge_gap)) {
            absorb(figures[i], p);
            merged = true;
          }
        for (auto* group : {&nodes, &framed})
          for (auto& n : *group)
            if (!figures[i].items.empty() && !n.items.empty() &&
                near(figures[i].hull, n.hull, o_.figures.figure_node_gap_ratio * body_size_)) {
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

}  // namespace quire::detail::figure_finder

namespace quire::detail {

using figure_finder::Finder;
using figure_finder::tight_box;

std::vector<FigureRegion> find_figures(const Page& page, const LayoutOptions& options, const BodyText& body) {
  return Finder(page, options, body).run();
}

std::vector<Box> joined_rules(std::vector<Box> pieces, double slack) {
  std::sort(pieces.begin(), pieces.end(), [](const Box& a, const Box& b) { return a.y0 != b.y0 ? a.y0 < b.y0 : a.x0 < b.x0; });
  std::vector<Box> out;
  for (size_t i = 0; i < pieces.size();) {
    size_t j = i;
    while (j < pieces.size() && pieces[j].y0 - pieces[i].y0 <= slack) ++j;
    std::sort(pieces.begin() + static_cast<long>(i), pieces.begin() + static_cast<long>(j),
              [](const Box& a, const Box& b) { return a.x0 != b.x0 ? a.x0 < b.x0 : a.x1 < b.x1; });
    Box rule = pieces[i];
    for (size_t k = i + 1; k < j; ++k) {
      if (pieces[k].x0 > rule.x1 + slack) {
        out.push_back(rule);
        rule = pieces[k];
        continue;
      }
      rule = rule.united(pieces[k]);
    }
    out.push_back(rule);
    i = j;
  }
  return out;
}

PageDecor page_decor(const Page& page, const LayoutOptions& options) {
  PageDecor d;
  for (const auto& p : page.paths) {
    const Box b = tight_box(p, options);
    const bool thin_y = b.height() <= options.figures.rule_max_thickness,
               thin_x = b.width() <= options.figures.rule_max_thickness;
    if (thin_y && b.width() >= options.figures.rule_min_length) d.rules.push_back(b);
    else if (thin_x && b.height() >= options.figures.rule_min_length) d.bars.push_back(b);
    else if (!thin_x && !thin_y && ((p.fill && p.color != 0xFFFFFF) || p.stroke)) d.panels.push_back(b);
    if (!thin_x && !thin_y && p.fill && !p.stroke) d.fills.push_back(b);
  }
  for (const auto& im : page.images) d.pictures.push_back(im.bbox);
  return d;
}

}  // namespace quire::detail
