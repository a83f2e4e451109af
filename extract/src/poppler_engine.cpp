// The Poppler-cpp engine: the same model as the MuPDF engine, built from Poppler's text boxes
// (roughly one word each, with per-glyph boxes and font names).
//
// What Poppler-cpp does not give is left absent, never guessed: no images, no vector paths,
// colour 0, no bold/italic flags, baseline 0 (a word's box spans the font's ascent and descent,
// so the baseline cannot be recovered from it), outline entries without target pages (page 0,
// y -1). Monospace is left to infer_monospace (uniform advances, then font names), which
// extract_document runs for every engine.
//
// Poppler itself is in the module quire-poppler.so (poppler_source.h), loaded on first use.
//
// Threads: one open document per worker; pages are handed out by an atomic counter and
// stored by index, so the output does not depend on thread timing.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <thread>

#include "engines.h"
#include "modules.h"
#include "poppler_source.h"
#include "quire/error.h"
#include "quire/parallel.h"
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

bool is_zero(const Box& b) { return b.x0 == 0 && b.y0 == 0 && b.x1 == 0 && b.y1 == 0; }

// 0 left-to-right, 1 upside down, 2 vertical (the model's Line::direction).
int direction_of(const PopplerWord& w) {
  if (w.vertical) return 2;
  switch (w.rotation) {
    case 0: return 0;
    case 2: return 1;
    default: return 2;
  }
}

// Appends one word's glyphs to the line, starting a new span where the font or size changes.
// `space_before`: Poppler found a word space between the previous word and this one (a gap
// wider than its space threshold). Like MuPDF's, the space leads the next word's span and
// starts where the previous word's last glyph ended (`space_x`).
void add_word(Line& line, const PopplerWord& w, bool space_before, double space_x) {
  const std::u32string cps = to_u32(w.text);
  const double size = w.has_font ? w.font_size : 0;
  // Per-glyph boxes are usable only when there is one per code point (complex scripts may map
  // several code points to one glyph; Poppler then answers a zero box past the last glyph).
  bool have_boxes = w.glyphs.size() == cps.size();
  for (const Box& g : w.glyphs)
    if (is_zero(g)) have_boxes = false;
  for (size_t i = 0; i < cps.size(); ++i) {
    std::string font = w.has_font && i < w.fonts.size() ? strip_subset_prefix(w.fonts[i]) : "";
    Span* cur = line.spans.empty() ? nullptr : &line.spans.back();
    if (!cur || cur->font != font || std::fabs(cur->size - size) > kOptions.size_tolerance ||
        (!have_boxes && !cur->xs.empty())) {
      line.spans.emplace_back();
      cur = &line.spans.back();
      cur->font = font;
      cur->size = size;
    }
    const Box glyph = have_boxes ? w.glyphs[i] : w.box;
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

bool same_line(const Box& prev, int prev_rot, const PopplerWord& word) {
  if (word.rotation != prev_rot) return false;
  const Extent p = extent(prev, prev_rot), w = extent(word.box, prev_rot);
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

Page convert_page(const PopplerPage& page, int number) {
  Page p;
  p.number = number;
  p.rotation = page.rotation;
  // The crop box is unrotated; word boxes are in the rotated page space (top-left origin),
  // like MuPDF's page bounds.
  p.width = page.width;
  p.height = page.height;
  if (p.rotation == 90 || p.rotation == 270) std::swap(p.width, p.height);

  Line line;
  Box prev;
  int prev_rot = 0;
  bool space_pending = false;
  for (const auto& w : page.words) {
    if (w.has_font && !w.fonts.empty() &&
        std::all_of(w.fonts.begin(), w.fonts.end(), [](const std::string& f) { return picture_font(strip_subset_prefix(f)); }))
      continue;  // a piece of a drawing
    if (!line.spans.empty() && !same_line(prev, prev_rot, w)) finish_line(p, line);
    const bool first = line.spans.empty();
    if (first) line.direction = direction_of(w);
    // A space after the last word of a line separates nothing and is dropped.
    const Extent pe = extent(prev, w.rotation), we = extent(w.box, w.rotation);
    const double em = w.has_font ? w.font_size : we.high - we.low;
    const bool gap = we.start - pe.end > kOptions.min_space_gap_em * em;
    add_word(line, w, !first && (space_pending || gap), w.rotation == 0 ? prev.x1 : w.box.x0);
    prev = w.box;
    prev_rot = w.rotation;
    space_pending = w.space_after;
  }
  finish_line(p, line);
  return p;
}

std::vector<OutlineEntry> load_outline(const PopplerFile& doc) {
  // Same bounds as the MuPDF engine: a hostile outline stays finite.
  constexpr int kMaxDepth = 32;
  constexpr size_t kMaxEntries = 100000;
  std::vector<OutlineEntry> out;
  for (auto& item : doc.outline(kMaxDepth, kMaxEntries)) {
    OutlineEntry e;
    e.title = normalize_text(item.title);
    e.level = item.level;
    e.page = 0;  // Poppler-cpp's outline has titles but no destinations: unresolved
    e.y = -1;
    out.push_back(std::move(e));
  }
  return out;
}

// Poppler answers the 1-based page number as the label of every page when the PDF has no
// /PageLabels; labels that are exactly that everywhere are treated as no labels, as MuPDF has.
std::vector<std::string> load_labels(const PopplerFile& doc) {
  const int n = doc.pages();
  std::vector<std::string> labels(static_cast<size_t>(n));
  bool informative = false;
  for (int i = 0; i < n; ++i) {
    labels[static_cast<size_t>(i)] = doc.label(i);
    if (labels[static_cast<size_t>(i)] != std::to_string(i + 1)) informative = true;
  }
  if (!informative) labels.clear();
  return labels;
}

}  // namespace

std::unique_ptr<PopplerFile> open_poppler(const std::string& path, const std::string& password) {
  auto open = reinterpret_cast<OpenPopplerFn>(module_entry("quire-poppler.so", kOpenPopplerSymbol, "Poppler module"));
  PopplerOpen status = PopplerOpen::Failed;
  std::string error;
  std::unique_ptr<PopplerFile> doc(open(path.c_str(), password.c_str(), &status, &error));
  switch (status) {
    case PopplerOpen::Ok: break;
    case PopplerOpen::NotPdf: throw Error(ExitCode::NotPdf, path, 0, "cannot open PDF (Poppler could not parse it)");
    case PopplerOpen::NeedsPassword:
      throw Error(ExitCode::Encrypted, path, 0, "encrypted: a password is needed (--password)");
    case PopplerOpen::WrongPassword: throw Error(ExitCode::Encrypted, path, 0, "encrypted: the password is wrong");
    case PopplerOpen::NoPages: throw Error(ExitCode::NotPdf, path, 0, "the PDF has no pages");
    case PopplerOpen::Failed: throw Error(ExitCode::Internal, path, 0, "Poppler failed: " + error);
  }
  if (!doc) throw Error(ExitCode::Internal, path, 0, "Poppler failed");
  return doc;
}

Document extract_poppler(const std::string& path, const ExtractOptions& options) {
  std::unique_ptr<PopplerFile> main = open_poppler(path, options.password);
  Document doc;
  doc.file = base_name(path);
  doc.engine = "poppler";
  doc.page_count = main->pages();
  const auto range = page_range(path, options, doc.page_count);
  const int first = range.first, last = range.second;
  const std::vector<std::string> info = main->info();
  auto info_at = [&](size_t i) { return i < info.size() ? normalize_text(info[i]) : std::string(); };
  doc.metadata.title = info_at(0);
  doc.metadata.author = info_at(1);
  doc.metadata.subject = info_at(2);
  doc.metadata.creator = info_at(3);
  doc.metadata.producer = info_at(4);
  doc.outline = load_outline(*main);
  const std::vector<std::string> labels = load_labels(*main);

  const int count = last - first + 1;
  if (options.on_open) options.on_open(count);
  doc.pages.resize(static_cast<size_t>(count));
  doc.spill = make_spill(path, static_cast<size_t>(count), options);
  const int jobs = std::max(1, std::min(options.jobs, count));
  std::atomic<int> next{0};
  std::mutex warn_mutex;
  std::vector<Diagnostic> page_warnings;

  auto read_one = [&](const PopplerFile* d, int k) {
    PopplerPage read;
    {
      const int index = first - 1 + k;
      Page p;
      if (d->page(index, read)) {
        p = convert_page(read, index + 1);
      } else {
        p.number = index + 1;
        p.errors.push_back("cannot read page (Poppler)");
        std::lock_guard lock(warn_mutex);
        page_warnings.push_back(Diagnostic::at("extract", "page-unreadable", doc.file, index + 1, p.errors.back()));
      }
      if (static_cast<size_t>(index) < labels.size()) p.label = labels[static_cast<size_t>(index)];
      doc.pages[static_cast<size_t>(k)] = std::move(p);
      if (doc.spill) doc.spill->settle(static_cast<size_t>(k), doc.pages[static_cast<size_t>(k)]);
      if (options.on_page) options.on_page(index + 1);
    }
  };
  auto work = [&](const PopplerFile* d) {
    for (int k = next++; k < count; k = next++) read_one(d, k);
  };

  if (jobs == 1) {
    work(main.get());
  } else {
    // A helper reads one page at a time while it holds a lane, and opens its document only
    // once it has one.
    std::vector<std::exception_ptr> failures(static_cast<size_t>(jobs));
    auto help = [&](size_t slot) {
      try {
        std::unique_ptr<PopplerFile> mine;
        for (;;) {
          Lanes::Lane lane(Lanes::shared(), [&] { return next.load() >= count; });
          if (!lane) return;
          const int k = next++;
          if (k >= count) return;
          if (!mine) mine = open_poppler(path, options.password);
          read_one(mine.get(), k);
        }
      } catch (...) {
        failures[slot] = std::current_exception();
      }
    };
    std::vector<std::thread> threads;
    for (int i = 1; i < jobs; ++i) threads.emplace_back(help, static_cast<size_t>(i));
    try {
      work(main.get());
    } catch (...) {
      failures[0] = std::current_exception();
      next = count;
    }
    Lanes::shared().wake();
    for (auto& t : threads) t.join();
    for (auto& f : failures)
      if (f) std::rethrow_exception(f);
  }
  std::ranges::sort(page_warnings, {}, &Diagnostic::text);  // by their lines, as always
  doc.warnings = std::move(page_warnings);
  return doc;
}

}  // namespace quire::detail
