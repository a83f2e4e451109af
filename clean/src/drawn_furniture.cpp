// Drawn furniture: what a page style draws at one place on page after page. An image drawn
// at the same place at the same pixel size on most pages is a logo, an ornament or a
// watermark; a path wholly in the head or foot band drawn at the same place in the same
// colour on many pages is the rule under a running head, a footer's bar or its frame. Both
// are the page's, not the book's: they leave the page here, logged (no words), so no later
// stage takes them for a figure, a table's rule or a note's box.
#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include "internal.h"

namespace quire::clean_detail {

namespace {

// What must be equal for two drawings to be one drawing printed again: an image's pixel
// size and mask, a path's paint (fill, stroke, colour, paper) and its stroke width.
struct Look {
  bool image = false;
  int width = 0, height = 0;  // images: pixels
  bool mask = false;
  bool fill = false, stroke = false, paper = false;
  uint32_t color = 0;
  long line_width = 0;  // paths: hundredths of a point
  bool operator==(const Look&) const = default;
};

Look look_of(const Image& im) { return {true, im.width, im.height, im.mask}; }

Look look_of(const VectorPath& p) {
  Look l;
  l.fill = p.fill;
  l.stroke = p.stroke;
  l.paper = p.paper;
  l.color = p.color;
  l.line_width = std::lround(p.line_width * 100);
  return l;
}

bool same_place(const Box& a, const Box& b, double t) {
  return std::fabs(a.x0 - b.x0) <= t && std::fabs(a.y0 - b.y0) <= t && std::fabs(a.x1 - b.x1) <= t &&
         std::fabs(a.y1 - b.y1) <= t;
}

}  // namespace

struct DrawnFurniturePass::State {
  // A drawing of a page that may be furniture: every image, and the paths in the bands.
  struct Mark {
    Box bbox;
    Look look;
    size_t index = 0;  // in the page's images or paths
    long seen = -1;    // the first drawing like it (decide)
  };
  // A drawing as first seen, and on how many pages one like it is drawn.
  struct Seen {
    Look look;
    Box bbox;
    long pages = 0;
    size_t last_page = 0;
  };
  explicit State(const CleanOptions& options, size_t pages) : o(options), marks(pages), log(pages) {}
  const CleanOptions& o;
  std::vector<std::vector<Mark>> marks;  // per page; after decide, the furniture
  PageRemovals log;
};

DrawnFurniturePass::DrawnFurniturePass(const CleanOptions& options, size_t pages)
    : state_(std::make_unique<State>(options, pages)) {}

DrawnFurniturePass::~DrawnFurniturePass() = default;

void DrawnFurniturePass::scan_page(size_t page_index, const Page& page) {
  auto& marks = state_->marks[page_index];
  for (size_t i = 0; i < page.images.size(); ++i) marks.push_back({page.images[i].bbox, look_of(page.images[i]), i});
  if (page.height <= 0) return;
  const double band = state_->o.drawn_band_ratio * page.height;
  for (size_t i = 0; i < page.paths.size(); ++i) {
    const Box& b = page.paths[i].bbox;
    if (b.y1 <= band || b.y0 >= page.height - band) marks.push_back({b, look_of(page.paths[i]), i});
  }
}

void DrawnFurniturePass::decide() {
  // Each drawing counts against the first like it (same look, same place within the
  // tolerance), once a page; the drawings seen are found by their top-left corner's cell of a
  // grid as fine as the tolerance, so a match lies in that cell or one beside it.
  std::vector<State::Seen> seen;
  const double t = std::max(state_->o.repeated_image_tolerance, 1e-3);
  auto cell = [t](double x, double y) {
    return (static_cast<uint64_t>(static_cast<int64_t>(std::floor(x / t))) << 32) ^
           static_cast<uint64_t>(static_cast<uint32_t>(static_cast<int64_t>(std::floor(y / t))));
  };
  std::unordered_map<uint64_t, std::vector<size_t>> at;
  for (size_t pi = 0; pi < state_->marks.size(); ++pi) {
    for (State::Mark& m : state_->marks[pi]) {
      const Box& b = m.bbox;
      const Look& look = m.look;
      for (int dx = -1; dx <= 1 && m.seen < 0; ++dx)
        for (int dy = -1; dy <= 1 && m.seen < 0; ++dy) {
          auto it = at.find(cell(b.x0 + dx * t, b.y0 + dy * t));
          if (it == at.end()) continue;
          for (size_t s : it->second)
            if (seen[s].look == look && same_place(seen[s].bbox, b, t)) {
              m.seen = static_cast<long>(s);
              break;
            }
        }
      if (m.seen < 0) {
        m.seen = static_cast<long>(seen.size());
        at[cell(b.x0, b.y0)].push_back(seen.size());
        seen.push_back({look, b, 0, pi});
      }
      State::Seen& s = seen[static_cast<size_t>(m.seen)];
      if (s.pages == 0 || s.last_page != pi) {
        ++s.pages;
        s.last_page = pi;
      }
    }
  }
  // (A slide deck's overlays show one picture on a few slides in a row; a logo or a
  // watermark stands on most of the pages. A head's rule is drawn on most pages of the side
  // it stands on, and where odd and even pages mirror their margins that is half of them.)
  const double pages = static_cast<double>(state_->marks.size());
  const double images = std::max(static_cast<double>(state_->o.repeated_image_min_pages), state_->o.repeated_image_min_share * pages);
  const double paths = std::max(static_cast<double>(state_->o.repeated_image_min_pages), state_->o.drawn_rule_min_share * pages);
  for (auto& marks : state_->marks)
    std::erase_if(marks, [&](const State::Mark& m) {
      return static_cast<double>(seen[static_cast<size_t>(m.seen)].pages) < (m.look.image ? images : paths);
    });
}

void DrawnFurniturePass::cut_page(size_t page_index, Page& page) {
  auto& marks = state_->marks[page_index];
  if (marks.empty()) return;
  // Each image is logged; the paths of a band as one drawing (a decorated head may be drawn
  // in dozens of pieces).
  std::vector<uint8_t> image_cut(page.images.size(), 0), path_cut(page.paths.size(), 0);
  std::optional<Box> head, foot;
  for (const State::Mark& m : marks) {
    (m.look.image ? image_cut : path_cut)[m.index] = 1;
    if (m.look.image) {
      state_->log[page_index].push_back({page.number, m.bbox, "", kRepeatedImage});
      continue;
    }
    std::optional<Box>& band = m.bbox.y1 <= page.height / 2 ? head : foot;
    band = band ? band->united(m.bbox) : m.bbox;
  }
  for (const auto& band : {head, foot})
    if (band) state_->log[page_index].push_back({page.number, *band, "", kDrawnFurniture});
  auto keep = [](auto& items, const std::vector<uint8_t>& cut) {
    size_t kept = 0;
    for (size_t i = 0; i < items.size(); ++i)
      if (!cut[i]) {
        if (kept != i) items[kept] = std::move(items[i]);
        ++kept;
      }
    items.resize(kept);
  };
  keep(page.images, image_cut);
  keep(page.paths, path_cut);
  std::vector<State::Mark>().swap(marks);
}

void DrawnFurniturePass::append_log(std::vector<Removal>& removed) { append_in_page_order(state_->log, removed); }

}  // namespace quire::clean_detail
