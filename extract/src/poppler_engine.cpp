// The Poppler-cpp engine: the same model as the MuPDF engine, built from Poppler's text boxes
// (roughly one word each, with per-glyph boxes and font names).
//
// What Poppler-cpp does not give is left absent, never guessed: no images, no vector paths,
// colour 0, no bold/italic flags, baseline 0 (a word's box spans the font's ascent and descent,
// so the baseline cannot be recovered from it), outline entries without target pages (page 0,
// y -1). Monospace is left to infer_monospace (uniform advances, then font names), which
// extract_document runs for every engine.
//
// Threads: one poppler::document per worker; pages are handed out by an atomic counter and
// stored by index, so the output does not depend on thread timing.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <thread>

#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-page.h>
#include <poppler/cpp/poppler-toc.h>

#include "engines.h"
#include "quire/error.h"
#include "quire/text.h"

namespace quire::detail {

std::string base_name(const std::string& path);  // extract.cpp

namespace {

// Tunables of the line grouping. Poppler gives words in reading order (block by block, line
// by line) but not which line a word belongs to, so lines are rebuilt from word geometry.
struct PopplerOptions {
  // Two consecutive words are on one line when their boxes overlap across the writing
  // direction by at least this share of the smaller box's height: words of one line share ascent and descent, while the
  // next line starts at least a line gap lower. Sub- and superscripts still overlap well.
  double same_line_overlap = 0.5;
  // A word that starts this many points behind the previous word's end (against the writing
  // direction) starts a new line even on the same row: a new column or cell begins there.
  double backward_tolerance = 1.0;
  // Two font sizes closer than this (points) are one size: sizes come from text matrices with
  // rounding noise.
  double size_tolerance = 0.01;
  // Poppler marks no space after the last word of its own lines. When two of its lines are
  // one row here (a table cell, a number after a heading), a gap wider than this share of the
  // font size is a word space: TeX's narrowest interword space is about 0.22 em, kerns and
  // italic corrections stay under 0.1 em.
  double min_space_gap_em = 0.15;
};

constexpr PopplerOptions kOptions;

// Poppler reports syntax errors and repairs on stderr through this hook; the MuPDF engine is
// the one whose warnings we relay, so Poppler's are dropped.
void silence(const std::string&, void*) {}

void silence_poppler_once() {
  static std::once_flag once;
  std::call_once(once, [] { poppler::set_debug_error_function(silence, nullptr); });
}

std::string utf8(const poppler::ustring& s) {
  poppler::byte_array bytes = s.to_utf8();
  return std::string(bytes.begin(), bytes.end());
}

Box to_box(const poppler::rectf& r) { return {r.left(), r.top(), r.right(), r.bottom()}; }

bool is_zero(const poppler::rectf& r) {
  return r.x() == 0 && r.y() == 0 && r.width() == 0 && r.height() == 0;
}

// 0 left-to-right, 1 upside down, 2 vertical (the model's Line::direction).
int direction_of(const poppler::text_box& tb) {
  if (tb.has_font_info() && tb.get_wmode(0) == poppler::text_box::vertical_wmode) return 2;
  switch (tb.rotation()) {
    case 0: return 0;
    case 2: return 1;
    default: return 2;
  }
}

std::unique_ptr<poppler::document> open_document(const std::string& path, const std::string& password) {
  silence_poppler_once();
  // The one password is tried as both owner and user password, like MuPDF's authenticate.
  std::unique_ptr<poppler::document> doc(poppler::document::load_from_file(path, password, password));
  if (!doc) throw Error(ExitCode::NotPdf, path, 0, "cannot open PDF (Poppler could not parse it)");
  if (doc->is_locked()) {
    if (password.empty())
      throw Error(ExitCode::Encrypted, path, 0, "encrypted: a password is needed (--password)");
    throw Error(ExitCode::Encrypted, path, 0, "encrypted: the password is wrong");
  }
  if (doc->pages() <= 0) throw Error(ExitCode::NotPdf, path, 0, "the PDF has no pages");
  return doc;
}

// Appends one word's glyphs to the line, starting a new span where the font or size changes.
// `space_before`: Poppler found a word space between the previous word and this one (a gap
// wider than its space threshold). Like MuPDF's, the space leads the next word's span and
// starts where the previous word's last glyph ended (`space_x`).
void add_word(Line& line, const poppler::text_box& tb, bool space_before, double space_x) {
  const std::u32string cps = to_u32(utf8(tb.text()));
  const double size = tb.has_font_info() ? tb.get_font_size() : 0;
  // Per-glyph boxes are usable only when there is one per code point (complex scripts may map
  // several code points to one glyph; Poppler then answers a zero box past the last glyph).
  std::vector<poppler::rectf> boxes;
  boxes.reserve(cps.size());
  bool have_boxes = true;
  for (size_t i = 0; i < cps.size(); ++i) {
    boxes.push_back(tb.char_bbox(i));
    if (is_zero(boxes.back())) have_boxes = false;
  }
  const Box word_box = to_box(tb.bbox());
  for (size_t i = 0; i < cps.size(); ++i) {
    std::string font = tb.has_font_info() ? strip_subset_prefix(tb.get_font_name(static_cast<int>(i))) : "";
    Span* cur = line.spans.empty() ? nullptr : &line.spans.back();
    if (!cur || cur->font != font || std::fabs(cur->size - size) > kOptions.size_tolerance ||
        (!have_boxes && !cur->xs.empty())) {
      line.spans.emplace_back();
      cur = &line.spans.back();
      cur->font = font;
      cur->size = size;
    }
    const Box glyph = have_boxes ? to_box(boxes[i]) : word_box;
    if (i == 0 && space_before) {
      cur->text += ' ';
      if (have_boxes) cur->xs.push_back(static_cast<float>(space_x));
      // The space covers the gap it stands for, as MuPDF's space characters do.
      if (space_x < glyph.x0) cur->bbox = cur->bbox.united({space_x, glyph.y0, glyph.x0, glyph.y1});
    }
    cur->bbox = cur->bbox.united(glyph);
    append_utf8(cur->text, cps[i]);
    if (have_boxes) {
      cur->xs.push_back(static_cast<float>(glyph.x0));
      cur->last_advance = static_cast<float>(glyph.width());
    } else {
      cur->xs.clear();
      cur->last_advance = 0;
    }
  }
}

// A word's extent along its writing direction (start, end) and across it (low, high), in page
// space, for Poppler's rotations 0 (left to right), 1 (top to bottom), 2 (right to left) and
// 3 (bottom to top). "Along" grows in reading direction.
struct Extent {
  double start, end, low, high;
};

Extent extent(const Box& b, int rotation) {
  switch (rotation) {
    case 1: return {b.y0, b.y1, b.x0, b.x1};
    case 2: return {-b.x1, -b.x0, b.y0, b.y1};
    case 3: return {-b.y1, -b.y0, b.x0, b.x1};
    default: return {b.x0, b.x1, b.y0, b.y1};
  }
}

bool same_line(const Box& prev, int prev_rot, const poppler::text_box& tb) {
  if (tb.rotation() != prev_rot) return false;
  const Extent p = extent(prev, prev_rot), w = extent(to_box(tb.bbox()), prev_rot);
  if (w.start < p.end - kOptions.backward_tolerance) return false;
  const double overlap = std::min(p.high, w.high) - std::max(p.low, w.low);
  const double smaller = std::min(p.high - p.low, w.high - w.low);
  return smaller > 0 && overlap >= kOptions.same_line_overlap * smaller;
}

void finish_line(Page& p, Line& line) {
  if (line.spans.empty()) return;
  line.bbox = {};
  for (const auto& s : line.spans) line.bbox = line.bbox.united(s.bbox);
  p.lines.push_back(std::move(line));
  line = Line{};
}

Page convert_page(const poppler::page& page, int number) {
  Page p;
  p.number = number;
  switch (page.orientation()) {
    case poppler::page::landscape: p.rotation = 90; break;
    case poppler::page::upside_down: p.rotation = 180; break;
    case poppler::page::seascape: p.rotation = 270; break;
    default: p.rotation = 0; break;
  }
  // page_rect is the unrotated crop box; text boxes are in the rotated page space (top-left
  // origin), like MuPDF's page bounds.
  poppler::rectf crop = page.page_rect(poppler::crop_box);
  p.width = crop.width();
  p.height = crop.height();
  if (p.rotation == 90 || p.rotation == 270) std::swap(p.width, p.height);

  std::vector<poppler::text_box> words = page.text_list(poppler::page::text_list_include_font);
  Line line;
  Box prev;
  int prev_rot = 0;
  bool space_pending = false;
  for (const auto& tb : words) {
    if (!line.spans.empty() && !same_line(prev, prev_rot, tb)) finish_line(p, line);
    const bool first = line.spans.empty();
    if (first) line.direction = direction_of(tb);
    // A space after the last word of a line separates nothing and is dropped.
    const Box b = to_box(tb.bbox());
    const Extent pe = extent(prev, tb.rotation()), we = extent(b, tb.rotation());
    const double em = tb.has_font_info() ? tb.get_font_size() : we.high - we.low;
    const bool gap = we.start - pe.end > kOptions.min_space_gap_em * em;
    add_word(line, tb, !first && (space_pending || gap), tb.rotation() == 0 ? prev.x1 : b.x0);
    prev = b;
    prev_rot = tb.rotation();
    space_pending = tb.has_space_after();
  }
  finish_line(p, line);
  return p;
}

void walk_toc(const poppler::toc_item* item, int level, std::vector<OutlineEntry>& out) {
  // Same bounds as the MuPDF engine: a hostile outline stays finite.
  constexpr int kMaxDepth = 32;
  constexpr size_t kMaxEntries = 100000;
  for (const poppler::toc_item* child : item->children()) {
    if (out.size() >= kMaxEntries) return;
    OutlineEntry e;
    e.title = normalize_text(utf8(child->title()));
    e.level = level;
    e.page = 0;  // Poppler-cpp's outline has titles but no destinations: unresolved
    e.y = -1;
    out.push_back(std::move(e));
    if (level < kMaxDepth) walk_toc(child, level + 1, out);
  }
}

std::vector<OutlineEntry> load_outline(const poppler::document& doc) {
  std::vector<OutlineEntry> out;
  std::unique_ptr<poppler::toc> toc(doc.create_toc());
  if (toc && toc->root()) walk_toc(toc->root(), 1, out);
  return out;
}

// Poppler answers the 1-based page number as the label of every page when the PDF has no
// /PageLabels; labels that are exactly that everywhere are treated as no labels, as MuPDF has.
std::vector<std::string> load_labels(const poppler::document& doc) {
  const int n = doc.pages();
  std::vector<std::string> labels(static_cast<size_t>(n));
  bool informative = false;
  for (int i = 0; i < n; ++i) {
    std::unique_ptr<poppler::page> pg(doc.create_page(i));
    if (!pg) continue;
    labels[static_cast<size_t>(i)] = utf8(pg->label());
    if (labels[static_cast<size_t>(i)] != std::to_string(i + 1)) informative = true;
  }
  if (!informative) labels.clear();
  return labels;
}

}  // namespace

Document extract_poppler(const std::string& path, const ExtractOptions& options) {
  std::unique_ptr<poppler::document> main = open_document(path, options.password);
  Document doc;
  doc.file = base_name(path);
  doc.engine = "poppler";
  doc.page_count = main->pages();
  const auto range = page_range(path, options, doc.page_count);
  const int first = range.first, last = range.second;
  doc.metadata.title = normalize_text(utf8(main->get_title()));
  doc.metadata.author = normalize_text(utf8(main->get_author()));
  doc.metadata.subject = normalize_text(utf8(main->get_subject()));
  doc.metadata.creator = normalize_text(utf8(main->get_creator()));
  doc.metadata.producer = normalize_text(utf8(main->get_producer()));
  doc.outline = load_outline(*main);
  const std::vector<std::string> labels = load_labels(*main);

  const int count = last - first + 1;
  if (options.on_open) options.on_open(count);
  doc.pages.resize(static_cast<size_t>(count));
  doc.spill = make_spill(path, static_cast<size_t>(count), options);
  const int jobs = std::max(1, std::min(options.jobs, count));
  std::atomic<int> next{0};
  std::mutex warn_mutex;
  std::vector<std::string> page_warnings;

  auto work = [&](const poppler::document* d) {
    for (int k = next++; k < count; k = next++) {
      const int index = first - 1 + k;
      Page p;
      std::unique_ptr<poppler::page> pg(d->create_page(index));
      if (pg) {
        p = convert_page(*pg, index + 1);
      } else {
        p.number = index + 1;
        p.errors.push_back("cannot read page (Poppler)");
        std::lock_guard lock(warn_mutex);
        page_warnings.push_back(doc.file + ": page " + std::to_string(index + 1) + ": " + p.errors.back());
      }
      if (static_cast<size_t>(index) < labels.size()) p.label = labels[static_cast<size_t>(index)];
      doc.pages[static_cast<size_t>(k)] = std::move(p);
      if (doc.spill) doc.spill->settle(static_cast<size_t>(k), doc.pages[static_cast<size_t>(k)]);
      if (options.on_page) options.on_page(index + 1);
    }
  };

  if (jobs == 1) {
    work(main.get());
  } else {
    std::vector<std::unique_ptr<poppler::document>> workers;
    for (int i = 1; i < jobs; ++i) workers.push_back(open_document(path, options.password));
    std::vector<std::thread> threads;
    for (auto& w : workers) threads.emplace_back(work, w.get());
    work(main.get());
    for (auto& t : threads) t.join();
  }
  std::sort(page_warnings.begin(), page_warnings.end());
  doc.warnings = std::move(page_warnings);
  return doc;
}

}  // namespace quire::detail
