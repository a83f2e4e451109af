// OCR of scanned pages: MuPDF renders, Tesseract reads, the words become model spans.
//
// fz_try/fz_catch are setjmp/longjmp: render_gray() keeps C++ objects out of its fz_try, hands
// the pixmap to a holder once the block is left and turns MuPDF errors into a message.
// Tesseract throws nothing across its API.
#include "ocr.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

extern "C" {
#include <mupdf/fitz.h>
}

#include "engines.h"
#include "modules.h"
#include "mupdf_holder.h"
#include "mupdf_util.h"
#include "quire/error.h"
#include "quire/parallel.h"
#include "quire/text.h"
#include "quire/typography.h"

namespace quire::detail {

namespace {

constexpr double kPointsPerInch = 72.0;
// Debian's tesseract-ocr-* packages install here (Tesseract 5).
constexpr const char* kDebianTessdata = "/usr/share/tesseract-ocr/5/tessdata";
// Lines of one Tesseract block whose size estimates stay within this share of the block's
// median are one size (the estimate varies with which letters a line holds).
constexpr double kSameSizeShare = 0.15;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// ---- monospace from geometry ----

struct Pitch {
  bool decided = false;
  bool mono = false;
  double pitch = 0;  // points per character cell
};

double centre_x(const Box& b) { return (b.x0 + b.x1) / 2; }

// Centres of the code points of a word: each symbol's box divided evenly among its code
// points, or the word's box divided evenly when there are no usable symbol boxes.
std::vector<double> code_point_centres(const OcrWord& w, size_t count) {
  std::vector<double> c;
  size_t from_symbols = 0;
  for (const auto& s : w.symbols) from_symbols += to_u32(s.text).size();
  if (!w.symbols.empty() && from_symbols == count) {
    for (const auto& s : w.symbols) {
      size_t n = to_u32(s.text).size();
      double cell = s.box.width() / static_cast<double>(std::max<size_t>(n, 1));
      for (size_t i = 0; i < n; ++i) c.push_back(s.box.x0 + cell * (static_cast<double>(i) + 0.5));
    }
    return c;
  }
  double cell = w.box.width() / static_cast<double>(std::max<size_t>(count, 1));
  for (size_t i = 0; i < count; ++i) c.push_back(w.box.x0 + cell * (static_cast<double>(i) + 0.5));
  return c;
}

// Distances between the centres of neighbouring characters inside the words of a line,
// from real symbol boxes only (an evenly divided word box is uniform by construction).
std::vector<double> centre_distances(const OcrLine& line) {
  std::vector<double> d;
  for (const auto& w : line.words) {
    size_t from_symbols = 0;
    for (const auto& s : w.symbols) from_symbols += to_u32(s.text).size();
    if (w.symbols.size() < 2 || from_symbols != to_u32(w.text).size()) continue;
    for (size_t i = 0; i + 1 < w.symbols.size(); ++i)
      d.push_back(centre_x(w.symbols[i + 1].box) - centre_x(w.symbols[i].box));
  }
  return d;
}

double share_at_pitch(const std::vector<double>& d, double pitch, double tolerance) {
  if (d.empty() || pitch <= 0) return 0;
  size_t close = 0;
  for (double x : d)
    if (std::fabs(x - pitch) <= tolerance * pitch) ++close;
  return static_cast<double>(close) / static_cast<double>(d.size());
}

// Every gap between words spans a whole number of cells centre to centre: two or more for
// words apart, one where Tesseract split a word ("ring _put").
bool gaps_on_grid(const OcrLine& line, double pitch, const OcrTuning& t) {
  std::vector<double> prev;
  for (const auto& w : line.words) {
    std::vector<double> c = code_point_centres(w, to_u32(w.text).size());
    if (c.empty()) continue;
    if (!prev.empty()) {
      double cells = (c.front() - prev.back()) / pitch;
      if (cells < 1 - t.mono_gap_tolerance || std::fabs(cells - std::round(cells)) > t.mono_gap_tolerance)
        return false;
    }
    prev = std::move(c);
  }
  return true;
}

Pitch judge_line(const OcrLine& line, const OcrTuning& t) {
  std::vector<double> d = centre_distances(line);
  Pitch p;
  if (static_cast<int>(d.size()) < t.mono_min_samples) return p;
  p.decided = true;
  p.pitch = median(d);
  p.mono = p.pitch > 0 && share_at_pitch(d, p.pitch, t.mono_pitch_tolerance) >= t.mono_pitch_share &&
           gaps_on_grid(line, p.pitch, t);
  return p;
}

}  // namespace

// ---- detection ----

namespace {

// Non-space and unmapped code points of a page's text layer. Runs over every character of
// every page in Auto mode, so ASCII (nearly all of a born-digital book) is classified from
// the bytes, without decoding to UTF-32.
struct TextCounts {
  size_t total = 0;  // non-space code points
  size_t bad = 0;    // of which unmapped
};

// is_space_cp / is_unmapped_cp for the 128 ASCII code points, asked once.
struct AsciiKinds {
  static constexpr uint8_t kText = 0, kSpace = 1, kUnmapped = 2;
  uint8_t kind[128];
  AsciiKinds() {
    for (char32_t c = 0; c < 128; ++c)
      kind[c] = is_space_cp(c) ? kSpace : is_unmapped_cp(c) ? kUnmapped : kText;
  }
};
const AsciiKinds kAscii;

TextCounts count_text(const Page& page) {
  TextCounts n;
  for (const auto& l : page.lines)
    for (const auto& s : l.spans) {
      bool ascii = true;
      for (char ch : s.text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x80) {
          ascii = false;
          break;
        }
      }
      if (ascii) {
        for (char ch : s.text) {
          const uint8_t k = kAscii.kind[static_cast<unsigned char>(ch)];
          if (k == AsciiKinds::kSpace) continue;
          ++n.total;
          if (k == AsciiKinds::kUnmapped) ++n.bad;
        }
        continue;
      }
      for (char32_t c : to_u32(s.text)) {
        if (is_space_cp(c)) continue;
        ++n.total;
        if (is_unmapped_cp(c)) ++n.bad;
      }
    }
  return n;
}

double share(const TextCounts& n) {
  return n.total ? static_cast<double>(n.bad) / static_cast<double>(n.total) : 0.0;
}

}  // namespace

double unmapped_share(const Page& page) { return share(count_text(page)); }

bool page_needs_ocr(const Page& page, const ExtractOptions& options) {
  const TextCounts n = count_text(page);
  // A page with nothing drawn is blank, not scanned.
  if (n.total == 0) return !page.images.empty() || !page.paths.empty();
  return share(n) >= options.unusable_text_ratio;
}

// ---- words to lines ----

namespace {

// A word of a line as it becomes a span: the word, or a piece of it.
struct Piece {
  OcrWord word;
  double size = 0;      // points
  double baseline = 0;  // y in points
  bool glued = false;   // the next piece goes on without a space
};

OcrWord word_of(const OcrWord& w, size_t from, size_t to) {
  OcrWord p;
  p.confidence = w.confidence;
  for (size_t i = from; i < to; ++i) {
    p.text += w.symbols[i].text;
    p.box = i == from ? w.symbols[i].box : p.box.united(w.symbols[i].box);
    p.symbols.push_back(w.symbols[i]);
  }
  return p;
}

// The pieces of a line of prose. Tesseract reads a note mark into the word it is set against
// ("1Older" under a footnote, "header2" in the text): digits or note symbols at a word's
// start or end whose boxes stand above the baseline are a piece of their own, raised, and in
// the size their height gives against the line's other glyphs, as a text layer has them.
std::vector<Piece> pieces_of(const OcrLine& l, double size) {
  auto raised = [&](const OcrSymbol& s) {
    const std::u32string t = to_u32(s.text);
    return t.size() == 1 && ((t[0] >= U'0' && t[0] <= U'9') || typography::is_note_symbol(t[0])) &&
           l.baseline - s.box.y1 >= typography::kRaisedRiseRatio * size;
  };
  double tallest = 0;  // of the glyphs on the baseline
  for (const auto& w : l.words)
    for (const auto& s : w.symbols)
      if (!raised(s)) tallest = std::max(tallest, s.box.height());
  std::vector<Piece> out;
  for (const auto& w : l.words) {
    size_t cps = 0;
    for (const auto& s : w.symbols) cps += to_u32(s.text).size();
    size_t lead = 0, trail = 0;
    if (cps == to_u32(w.text).size() && tallest > 0) {
      while (lead < w.symbols.size() && raised(w.symbols[lead])) ++lead;
      while (trail < w.symbols.size() - lead && raised(w.symbols[w.symbols.size() - 1 - trail])) ++trail;
    }
    if (lead + trail == 0 || lead + trail == w.symbols.size()) {
      out.push_back({w, size, l.baseline, false});
      continue;
    }
    auto mark = [&](size_t from, size_t to, bool glued) {
      OcrWord m = word_of(w, from, to);
      const double mark_size = typography::to_tenth(std::min(size, size * m.box.height() / tallest));
      const double baseline = m.box.y1;
      out.push_back({std::move(m), mark_size, baseline, glued});
    };
    if (lead) mark(0, lead, true);
    out.push_back({word_of(w, lead, w.symbols.size() - trail), size, l.baseline, trail > 0});
    if (trail) mark(w.symbols.size() - trail, w.symbols.size(), false);
  }
  return out;
}

}  // namespace

std::vector<Line> lines_from_ocr(const std::vector<OcrLine>& in, const OcrTuning& t) {
  // Pitch verdicts. Then, by block: a block whose judged lines are mostly fixed-pitch is a
  // listing; its short lines follow it, and so do lines near its pitch that a misread
  // character kept from passing on their own.
  std::vector<Pitch> pitch(in.size());
  std::map<int, std::pair<int, int>> block_votes;  // block -> (fixed-pitch lines, proportional lines)
  std::map<int, std::vector<double>> block_pitches;
  for (size_t i = 0; i < in.size(); ++i) {
    pitch[i] = judge_line(in[i], t);
    if (!pitch[i].decided) continue;
    auto& v = block_votes[in[i].block];
    if (pitch[i].mono) {
      ++v.first;
      block_pitches[in[i].block].push_back(pitch[i].pitch);
    } else {
      ++v.second;
    }
  }
  for (size_t i = 0; i < in.size(); ++i) {
    if (pitch[i].mono) continue;
    auto v = block_votes[in[i].block];
    if (v.first <= v.second) continue;
    double bp = median(block_pitches[in[i].block]);
    if (!pitch[i].decided || share_at_pitch(centre_distances(in[i]), bp, t.mono_pitch_tolerance) >= t.mono_block_share) {
      pitch[i].mono = true;
      pitch[i].pitch = bp;
    }
  }
  // A listing that Tesseract cut into several blocks: a line it left out (a lone "}", a line
  // with a misread character) stands between two fixed-pitch lines of one pitch, at most a
  // few blank lines from each, its start on their character grid. It is a line of theirs
  // when too short to judge, or near enough their pitch; so is a short run of such lines
  // together (Tesseract's block can hold only them).
  auto neighbour = [&](size_t i, bool up) -> int {
    const Box& b = in[i].box;
    const double em = std::max(1.0, in[i].size);
    const double reach = t.listing_blank_lines * em;
    int found = -1;
    for (size_t k = 0; k < in.size(); ++k) {
      const Box& q = in[k].box;
      // (A listing's lines start at its indents, a dozen ems or so apart.)
      if (k == i || in[k].words.empty() || q.x1 < b.x0 || q.x0 - b.x1 > t.listing_indent_ems * em) continue;
      const Box* f = found < 0 ? nullptr : &in[static_cast<size_t>(found)].box;
      if (up && q.y1 <= b.y0 && b.y0 - q.y1 <= reach && (!f || q.y1 > f->y1)) found = static_cast<int>(k);
      if (!up && q.y0 >= b.y1 && q.y0 - b.y1 <= reach && (!f || q.y0 < f->y0)) found = static_cast<int>(k);
    }
    return found;
  };
  auto near_pitch = [&](size_t i, double p) {
    return !pitch[i].decided || share_at_pitch(centre_distances(in[i]), p, t.mono_pitch_tolerance) >= t.mono_block_share;
  };
  for (bool joined = true; joined;) {  // (a line that joins makes a neighbour for the next)
   joined = false;
   for (size_t i = 0; i < in.size(); ++i) {
    if (pitch[i].mono || in[i].words.empty()) continue;
    // The nearest fixed-pitch line each way, over the lines of the run.
    std::vector<size_t> run;
    auto fixed_line = [&](bool up) -> const OcrLine* {
      int k = neighbour(i, up);
      while (k >= 0 && !pitch[static_cast<size_t>(k)].mono) {
        if (static_cast<int>(run.size()) + 2 > t.listing_run_lines) return nullptr;  // (with line i)
        run.push_back(static_cast<size_t>(k));
        k = neighbour(static_cast<size_t>(k), up);
      }
      return k < 0 ? nullptr : &in[static_cast<size_t>(k)];
    };
    const OcrLine* above = fixed_line(true);
    const OcrLine* below = fixed_line(false);
    if (!above || !below) continue;
    const double pa = pitch[static_cast<size_t>(above - in.data())].pitch;
    const double pb = pitch[static_cast<size_t>(below - in.data())].pitch;
    if (pa <= 0 || pb <= 0 || std::fabs(pa - pb) > t.mono_pitch_tolerance * pa) continue;
    // Its first character on their grid: measured from the nearest character of theirs (a
    // pitch read off a line is a little off over many cells).
    const OcrWord& w0 = in[i].words.front();
    const double first = code_point_centres(w0, std::max<size_t>(1, to_u32(w0.text).size())).front();
    double nearest = first + 1e9;
    for (const OcrLine* l : {above, below})
      for (const OcrWord& w : l->words)
        for (double c : code_point_centres(w, to_u32(w.text).size()))
          if (std::fabs(c - first) < std::fabs(nearest - first)) nearest = c;
    const double cells = (first - nearest) / pa;
    if (std::fabs(cells - std::round(cells)) > t.mono_gap_tolerance) continue;
    if (near_pitch(i, pa) && std::all_of(run.begin(), run.end(), [&](size_t k) { return near_pitch(k, pa); })) {
      pitch[i].mono = true;
      pitch[i].pitch = pa;
      joined = true;
    }
   }
  }
  // One size for the lines of a block that agree with its median.
  std::map<int, std::vector<double>> block_sizes;
  for (const auto& l : in) block_sizes[l.block].push_back(l.size);
  std::map<int, double> block_size;
  for (auto& [b, v] : block_sizes) block_size[b] = median(v);

  std::vector<Line> out;
  for (size_t li = 0; li < in.size(); ++li) {
    const OcrLine& ol = in[li];
    if (ol.words.empty()) continue;
    const bool mono = pitch[li].mono && pitch[li].pitch > 0;
    const double p = pitch[li].pitch;
    double size = ol.size;
    double bs = block_size[ol.block];
    if (bs > 0 && std::fabs(size - bs) <= kSameSizeShare * bs) size = bs;
    size = typography::to_tenth(size);

    std::vector<Piece> pieces;
    if (mono)
      for (const auto& w : ol.words) pieces.push_back({w, size, ol.baseline, false});
    else
      pieces = pieces_of(ol, size);

    Line line;
    line.direction = 0;
    bool first_box = true;
    for (size_t wi = 0; wi < pieces.size(); ++wi) {
      const OcrWord& w = pieces[wi].word;
      std::u32string cps = to_u32(w.text);
      if (cps.empty()) continue;
      Span s;
      s.text = w.text;
      s.bbox = w.box;
      s.font = mono ? "ocr-mono" : "ocr";
      s.size = pieces[wi].size;
      s.monospace = mono;
      s.baseline = pieces[wi].baseline;
      s.ocr = true;
      s.confidence = w.confidence;
      std::vector<double> centres = code_point_centres(w, cps.size());
      // Left edge of each character: for fixed pitch the cell around the glyph's centre (the
      // ink of 'i' and 'm' starts at different places inside equal cells), otherwise the ink.
      size_t from_symbols = 0;
      for (const auto& sym : w.symbols) from_symbols += to_u32(sym.text).size();
      const bool real_symbols = !w.symbols.empty() && from_symbols == cps.size();
      if (mono) {
        for (double c : centres) s.xs.push_back(static_cast<float>(c - p / 2));
        s.last_advance = static_cast<float>(p);
      } else if (real_symbols) {
        for (const auto& sym : w.symbols) {
          size_t n = to_u32(sym.text).size();
          double cell = sym.box.width() / static_cast<double>(std::max<size_t>(n, 1));
          for (size_t k = 0; k < n; ++k) s.xs.push_back(static_cast<float>(sym.box.x0 + cell * static_cast<double>(k)));
        }
        s.last_advance = static_cast<float>(w.symbols.back().box.width() /
                                            static_cast<double>(std::max<size_t>(to_u32(w.symbols.back().text).size(), 1)));
      } else {
        double cell = w.box.width() / static_cast<double>(cps.size());
        for (size_t k = 0; k < cps.size(); ++k) s.xs.push_back(static_cast<float>(w.box.x0 + cell * static_cast<double>(k)));
        s.last_advance = static_cast<float>(cell);
      }
      // The spaces up to the next word belong to this span, as a text layer has them.
      if (wi + 1 < pieces.size()) {
        int spaces = pieces[wi].glued ? 0 : 1;
        float x = static_cast<float>(w.box.x1);
        if (mono) {
          const OcrWord& next = pieces[wi + 1].word;
          std::vector<double> nc = code_point_centres(next, to_u32(next.text).size());
          if (!nc.empty()) spaces = std::max(0, static_cast<int>(std::lround((nc.front() - centres.back()) / p)) - 1);
          x = static_cast<float>(centres.back() + p / 2);
        }
        for (int k = 0; k < spaces; ++k) {
          s.text += ' ';
          s.xs.push_back(mono ? x + static_cast<float>(p * k) : x);
        }
        if (mono) s.last_advance = static_cast<float>(p);
      }
      line.bbox = first_box ? w.box : line.bbox.united(w.box);
      first_box = false;
      line.spans.push_back(std::move(s));
    }
    if (!line.spans.empty()) out.push_back(std::move(line));
  }
  return out;
}

// ---- Tesseract set-up ----

std::string tessdata_dir() {
  const char* env = std::getenv("TESSDATA_PREFIX");
  if (env && *env) return env;
  return kDebianTessdata;
}

std::unique_ptr<OcrReader> new_ocr_reader(const std::string& tessdata, const std::string& lang) {
  // Tesseract's OpenMP runtime reads its limits when it is loaded, which is with the module:
  // pages are read in parallel by quire's own workers, so OpenMP gets one thread unless the
  // environment says otherwise.
  auto open = reinterpret_cast<NewOcrReaderFn>(module_entry("quire-ocr.so", kNewOcrReaderSymbol, "OCR module",
                                                            [] { setenv("OMP_THREAD_LIMIT", "1", 0); }));
  // Tesseract keeps some of its parameters in globals, which every reader's start-up writes:
  // readers are made one at a time (reading pages with them is independent).
  static std::mutex starting;
  std::string error;
  std::unique_ptr<OcrReader> reader;
  {
    std::lock_guard<std::mutex> lock(starting);
    reader.reset(open(tessdata.c_str(), lang.c_str(), &error));
  }
  if (!reader) throw Error(ExitCode::Internal, "", 0, error);
  return reader;
}

void check_ocr_language(const std::string& lang) {
  std::string dir = tessdata_dir();
  size_t start = 0;
  while (start <= lang.size()) {
    size_t plus = lang.find('+', start);
    std::string one = lang.substr(start, plus == std::string::npos ? std::string::npos : plus - start);
    if (one.empty())
      throw Error(ExitCode::Usage, "", 0, "--ocr-lang '" + lang + "' names an empty language");
    std::error_code ec;
    if (!std::filesystem::exists(dir + "/" + one + ".traineddata", ec)) {
      std::string pkg = one;
      std::replace(pkg.begin(), pkg.end(), '_', '-');
      std::transform(pkg.begin(), pkg.end(), pkg.begin(), [](unsigned char c) { return std::tolower(c); });
      throw Error(ExitCode::Usage, "", 0,
                  "OCR language '" + one + "' is not installed (no " + one + ".traineddata in " + dir +
                      "): install tesseract-ocr-" + pkg);
    }
    if (plus == std::string::npos) break;
    start = plus + 1;
  }
}

namespace {

// Renders one page to an 8-bit gray pixmap at `scale` pixels per point. Returns none with
// the reason in err on failure.
HeldPixmap render_gray(fz_context* ctx, fz_document* doc, int index, float scale, char* err, size_t errsize) {
  fz_page* volatile page = nullptr;
  fz_device* volatile dev = nullptr;
  fz_pixmap* volatile pix = nullptr;
  volatile int ok = 1;
  fz_try(ctx) {
    page = fz_load_page(ctx, doc, index);
    fz_matrix ctm = fz_scale(scale, scale);
    fz_irect ibox = fz_round_rect(fz_transform_rect(fz_bound_page(ctx, page), ctm));
    pix = fz_new_pixmap_with_bbox(ctx, fz_device_gray(ctx), ibox, nullptr, 0);
    fz_clear_pixmap_with_value(ctx, pix, 255);
    dev = fz_new_draw_device(ctx, fz_identity, pix);
    fz_run_page(ctx, page, dev, ctm, nullptr);
    fz_close_device(ctx, dev);
  }
  fz_always(ctx) {
    fz_drop_device(ctx, dev);
    fz_drop_page(ctx, page);
  }
  fz_catch(ctx) {
    ok = 0;
    std::snprintf(err, errsize, "%s", fz_caught_message(ctx));
  }
  HeldPixmap rendered(ctx, pix);
  if (!ok) rendered.reset();
  return rendered;
}

// Whitens dark pixels that have no dark neighbour. At OCR resolutions no stroke of a glyph
// is a lone pixel (a hairline of 5-point type is two or more pixels at 150 dpi), but the dust
// and toner specks of a scan are, and Tesseract reads them as periods and commas.
void despeckle(unsigned char* samples, int width, int height, int stride, int ink_level) {
  for (int y = 1; y + 1 < height; ++y) {
    unsigned char* row = samples + static_cast<ptrdiff_t>(y) * stride;
    for (int x = 1; x + 1 < width; ++x) {
      if (row[x] >= ink_level) continue;
      bool lone = true;
      for (int dy = -1; dy <= 1 && lone; ++dy) {
        const unsigned char* r = row + static_cast<ptrdiff_t>(dy) * stride;
        for (int dx = -1; dx <= 1; ++dx)
          if ((dx || dy) && r[x + dx] < ink_level) {
            lone = false;
            break;
          }
      }
      if (lone) row[x] = 255;
    }
  }
}

}  // namespace

bool is_bilevel(const unsigned char* gray, int width, int height, int stride, const OcrTuning& tuning) {
  const int black = tuning.bilevel_margin, white = 255 - tuning.bilevel_margin;
  size_t ink = 0, between = 0;
  for (int y = 0; y < height; ++y) {
    const unsigned char* row = gray + static_cast<ptrdiff_t>(y) * stride;
    for (int x = 0; x < width; ++x) {
      if (row[x] >= white) continue;
      ++ink;
      if (row[x] > black) ++between;
    }
  }
  return ink > 0 && static_cast<double>(between) <= tuning.bilevel_gray_share * static_cast<double>(ink);
}

std::vector<unsigned char> smoothed(const unsigned char* gray, int width, int height, int stride, double sigma) {
  if (width <= 0 || height <= 0) return {};
  const size_t w = static_cast<size_t>(width), h = static_cast<size_t>(height);
  std::vector<unsigned char> out(w * h);
  if (sigma <= 0) {
    for (size_t y = 0; y < h; ++y) std::memcpy(&out[y * w], gray + static_cast<ptrdiff_t>(y) * stride, w);
    return out;
  }
  // Separable: rows into `across`, then columns into `out`. Three deviations hold all but a
  // few thousandths of the kernel.
  const int r = static_cast<int>(std::ceil(3 * sigma));
  std::vector<float> k(static_cast<size_t>(2 * r + 1));
  float sum = 0;
  for (int i = -r; i <= r; ++i) sum += k[static_cast<size_t>(i + r)] = static_cast<float>(std::exp(-i * i / (2 * sigma * sigma)));
  for (float& v : k) v /= sum;
  std::vector<float> across(w * h);
  for (int y = 0; y < height; ++y) {
    const unsigned char* row = gray + static_cast<ptrdiff_t>(y) * stride;
    float* dst = &across[static_cast<size_t>(y) * w];
    for (int x = 0; x < width; ++x) {
      float v = 0;
      for (int i = -r; i <= r; ++i) v += k[static_cast<size_t>(i + r)] * row[std::clamp(x + i, 0, width - 1)];
      dst[x] = v;
    }
  }
  for (int y = 0; y < height; ++y) {
    unsigned char* dst = &out[static_cast<size_t>(y) * w];
    for (int x = 0; x < width; ++x) {
      float v = 0;
      for (int i = -r; i <= r; ++i)
        v += k[static_cast<size_t>(i + r)] * across[static_cast<size_t>(std::clamp(y + i, 0, height - 1)) * w + static_cast<size_t>(x)];
      dst[x] = static_cast<unsigned char>(std::clamp(std::lround(v), 0L, 255L));
    }
  }
  return out;
}

std::vector<Box> drawn_ink(const unsigned char* gray, int width, int height, int stride, double ox, double oy,
                           double scale, const Recognised& r, const OcrTuning& tuning) {
  if (width <= 0 || height <= 0 || scale <= 0) return {};
  const int cell = std::max(1, static_cast<int>(std::lround(scale * tuning.ink_cell_pt)));
  const int gw = (width + cell - 1) / cell, gh = (height + cell - 1) / cell;
  enum : uint8_t { kEmpty, kInk, kCovered };
  std::vector<uint8_t> grid(static_cast<size_t>(gw) * static_cast<size_t>(gh), kEmpty);
  auto cover = [&](const Box& b, double pad) {
    const int x0 = std::max(0, static_cast<int>(std::floor(((b.x0 - pad) * scale - ox) / cell)));
    const int y0 = std::max(0, static_cast<int>(std::floor(((b.y0 - pad) * scale - oy) / cell)));
    const int x1 = std::min(gw - 1, static_cast<int>(std::floor(((b.x1 + pad) * scale - ox) / cell)));
    const int y1 = std::min(gh - 1, static_cast<int>(std::floor(((b.y1 + pad) * scale - oy) / cell)));
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) grid[static_cast<size_t>(y) * gw + x] = kCovered;
  };
  std::vector<double> sizes;
  for (const auto& l : r.lines) {
    if (!l.words.empty() && l.size > 0) sizes.push_back(l.size);
    for (const auto& w : l.words) cover(w.box, tuning.word_pad_em * l.size);
  }
  for (const Box& p : r.pictures) cover(p, 0);
  if (sizes.empty()) return {};  // no text to measure a drawing by (a page of pictures)
  std::nth_element(sizes.begin(), sizes.begin() + static_cast<std::ptrdiff_t>(sizes.size() / 2), sizes.end());
  const double min_extent = tuning.min_drawing_em * sizes[sizes.size() / 2];

  for (int y = 0; y < height; ++y) {
    const unsigned char* row = gray + static_cast<ptrdiff_t>(y) * stride;
    uint8_t* cells = grid.data() + static_cast<size_t>(y / cell) * gw;
    for (int x = 0; x < width; ++x)
      if (row[x] < tuning.ink_level && cells[x / cell] == kEmpty) cells[x / cell] = kInk;
  }
  // Connected runs of ink cells (eight neighbours), each taken off the grid as it is found,
  // in the order of their first cell: the boxes come out the same on every run.
  std::vector<Box> out, small;
  std::vector<int> stack;
  for (int start = 0; start < gw * gh; ++start) {
    if (grid[static_cast<size_t>(start)] != kInk) continue;
    int x0 = gw, y0 = gh, x1 = -1, y1 = -1;
    grid[static_cast<size_t>(start)] = kEmpty;
    stack.assign(1, start);
    while (!stack.empty()) {
      const int c = stack.back();
      stack.pop_back();
      const int cx = c % gw, cy = c / gw;
      x0 = std::min(x0, cx), y0 = std::min(y0, cy), x1 = std::max(x1, cx), y1 = std::max(y1, cy);
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int nx = cx + dx, ny = cy + dy;
          if (nx < 0 || ny < 0 || nx >= gw || ny >= gh) continue;
          const size_t n = static_cast<size_t>(ny) * gw + nx;
          if (grid[n] != kInk) continue;
          grid[n] = kEmpty;
          stack.push_back(static_cast<int>(n));
        }
    }
    if (x0 == 0 || y0 == 0 || x1 == gw - 1 || y1 == gh - 1) continue;  // the scan's edge
    const Box b{(x0 * cell + ox) / scale, (y0 * cell + oy) / scale, ((x1 + 1) * cell + ox) / scale,
                ((y1 + 1) * cell + oy) / scale};
    if (std::max(b.width(), b.height()) >= min_extent) out.push_back(b);
    else if (x1 > x0 || y1 > y0) small.push_back(b);  // (one cell: a speck)
  }
  // Smaller runs next to a drawing are part of it (the dashes of a frame, an arrow's head,
  // the ticks of an axis), and so are the runs next to those.
  const double join = tuning.drawing_join_em * sizes[sizes.size() / 2];
  auto next_to = [&](const Box& a, const Box& b) {
    return a.x0 <= b.x1 + join && b.x0 <= a.x1 + join && a.y0 <= b.y1 + join && b.y0 <= a.y1 + join;
  };
  std::vector<char> taken(small.size(), 0);
  for (size_t grown = 0; grown < out.size(); ++grown)  // `out` grows as runs join it
    for (size_t i = 0; i < small.size(); ++i)
      if (!taken[i] && next_to(small[i], out[grown])) {
        taken[i] = 1;
        out.push_back(small[i]);
      }
  return out;
}

namespace {

// Words that are empty or only white space carry nothing.
void drop_blank_words(Recognised& r) {
  for (auto& l : r.lines)
    l.words.erase(std::remove_if(l.words.begin(), l.words.end(),
                                 [](const OcrWord& w) {
                                   for (char32_t c : to_u32(w.text))
                                     if (!is_space_cp(c)) return false;
                                   return true;
                                 }),
                  l.words.end());
}

struct Worker {
  MuContext mu;
  std::unique_ptr<OcrReader> reader;
};

// Readers once set up serve the books after: Tesseract's start-up (reading and setting up its
// language model) takes longer than reading a small scan, and a shelf has many books with a
// page or two to read. A reader keeps nothing from one page to the next that changes what it
// reads (a book's pages already go to whichever worker is free, and the output is the same
// at any --jobs), so the book it read before changes nothing. The readers kept idle are at
// most those of the threads that read pages at once.
class IdleReaders {
 public:
  std::unique_ptr<OcrReader> take(const std::string& tessdata, const std::string& lang) {
    {
      std::lock_guard lock(m_);
      auto it = idle_.find({tessdata, lang});
      if (it != idle_.end() && !it->second.empty()) {
        std::unique_ptr<OcrReader> r = std::move(it->second.back());
        it->second.pop_back();
        return r;
      }
    }
    return new_ocr_reader(tessdata, lang);
  }

  void give(const std::string& tessdata, const std::string& lang, std::unique_ptr<OcrReader> r) {
    if (!r) return;
    std::lock_guard lock(m_);
    idle_[{tessdata, lang}].push_back(std::move(r));
  }

 private:
  std::mutex m_;
  std::map<std::pair<std::string, std::string>, std::vector<std::unique_ptr<OcrReader>>> idle_;
};

// (Never destroyed: the readers' code is in the OCR module, and a reader torn down at exit
// after the module's own globals would touch freed state.)
IdleReaders& idle_readers() {
  static IdleReaders* const readers = new IdleReaders;
  return *readers;
}

}  // namespace

int ocr_document(const std::string& path, const ExtractOptions& options, Document& doc, const OcrTuning& tuning,
                 const std::vector<char>* needs_ocr) {
  if (options.ocr == OcrMode::Never) return 0;
  if (needs_ocr && needs_ocr->size() != doc.pages.size()) needs_ocr = nullptr;
  std::vector<size_t> todo;
  for (size_t i = 0; i < doc.pages.size(); ++i)
    if (options.ocr == OcrMode::Force ||
        (needs_ocr ? (*needs_ocr)[i] != 0 : with_page(doc, i, [&](const Page& p) { return page_needs_ocr(p, options); })))
      todo.push_back(i);
  if (todo.empty()) return 0;
  check_ocr_language(options.ocr_lang);

  const int count = static_cast<int>(todo.size());
  const int jobs = std::max(1, std::min(options.jobs, count));
  const float scale = static_cast<float>(options.ocr_dpi / kPointsPerInch);
  const std::string tessdata = tessdata_dir();
  std::atomic<int> next{0};
  std::mutex warn_mutex;
  std::vector<Diagnostic> warnings;
  std::vector<std::exception_ptr> failures(static_cast<size_t>(jobs));

  auto work = [&](int id) {
    try {
      Worker w;
      auto open = [&] {
        if (w.reader) return;
        w.mu.open(path, options.password);
        try {
          w.reader = idle_readers().take(tessdata, options.ocr_lang);
        } catch (const Error& e) {
          throw Error(e.code, path, 0, e.what());
        }
      };
      auto read_page = [&](Page& page) {
        char err[512] = "";
        fz_context* ctx = w.mu.ctx();
        HeldPixmap rendered = render_gray(ctx, w.mu.doc(), page.number - 1, scale, err, sizeof err);
        fz_pixmap* pix = rendered.get();
        if (!pix) {
          page.errors.push_back(std::string("cannot render the page for OCR: ") + err);
          std::lock_guard lock(warn_mutex);
          warnings.push_back(Diagnostic::at("extract", "ocr-failed", doc.file, page.number, page.errors.back()));
          return;
        }
        const int width = fz_pixmap_width(ctx, pix), height = fz_pixmap_height(ctx, pix);
        const double ox = fz_pixmap_x(ctx, pix), oy = fz_pixmap_y(ctx, pix);
        const int stride = static_cast<int>(fz_pixmap_stride(ctx, pix));
        if (tuning.despeckle) despeckle(fz_pixmap_samples(ctx, pix), width, height, stride, tuning.ink_level);
        // The characters of a bilevel page are read from it smoothed.
        std::vector<unsigned char> shades;
        if (tuning.bilevel_smooth_px > 0 && is_bilevel(fz_pixmap_samples(ctx, pix), width, height, stride, tuning))
          shades = smoothed(fz_pixmap_samples(ctx, pix), width, height, stride, tuning.bilevel_smooth_px);
        Recognised r;
        const bool read = w.reader->read(fz_pixmap_samples(ctx, pix), width, height, stride, options.ocr_dpi, ox, oy,
                                         scale, r, shades.empty() ? nullptr : shades.data());
        shades = {};
        std::vector<Box> drawings;
        if (read) {
          drop_blank_words(r);
          drawings = drawn_ink(fz_pixmap_samples(ctx, pix), width, height, stride, ox, oy, scale, r, tuning);
        }
        rendered.reset();  // a scan at 300 dpi is megabytes: freed before the words are made
        if (!read) {
          page.errors.push_back("Tesseract could not read the page");
          std::lock_guard lock(warn_mutex);
          warnings.push_back(Diagnostic::at("extract", "ocr-failed", doc.file, page.number, page.errors.back()));
          return;
        }
        page.lines = lines_from_ocr(r.lines, tuning);
        page.ocr = true;
        double sum = 0;
        int words = 0;
        for (const auto& l : page.lines)
          for (const auto& s : l.spans) {
            sum += s.confidence;
            ++words;
          }
        page.ocr_confidence = words ? sum / words : -1;
        // The scan itself is not a figure; the pictures Tesseract found inside it are.
        const double area = page.width * page.height;
        auto is_scan = [&](const Image& im) {
          return area > 0 && im.bbox.width() * im.bbox.height() >= tuning.scan_image_cover * area;
        };
        if (std::any_of(page.images.begin(), page.images.end(), is_scan)) {
          page.images.erase(std::remove_if(page.images.begin(), page.images.end(), is_scan), page.images.end());
          for (const Box& b : r.pictures)
            page.images.push_back({b, static_cast<int>(std::lround(b.width() * scale)),
                                   static_cast<int>(std::lround(b.height() * scale)), false});
          for (const Box& b : r.rules) page.paths.push_back({b, true, false, 0, 0});
          // What else is drawn on the scan: a diagram's boxes and arrows, a chart's axes.
          for (const Box& b : drawings) page.paths.push_back({b, false, true, 0, 0});
        }
      };
      auto read = [&](int k) {
        open();
        const size_t pi = todo[static_cast<size_t>(k)];
        Page& page = doc.pages[pi];
        if (!doc.spill || !doc.spill->spilled(pi)) {
          read_page(page);
          // The recognised text counts against the budget as extracted text does.
          if (doc.spill) doc.spill->settle(pi, page);
          return;
        }
        change_page(doc, pi, read_page);
      };
      // The calling thread reads pages until none is left; a helper reads one page at a
      // time while it holds a lane, and sets up its reader only once it has one.
      if (id == 0) {
        for (int k = next++; k < count; k = next++) read(k);
      } else {
        for (;;) {
          Lanes::Lane lane(Lanes::shared(), [&] { return next.load() >= count; });
          if (!lane) break;
          const int k = next++;
          if (k >= count) break;
          read(k);
        }
      }
      idle_readers().give(tessdata, options.ocr_lang, std::move(w.reader));
    } catch (...) {
      failures[static_cast<size_t>(id)] = std::current_exception();
      if (id == 0) next = count;  // the error ends the book: helpers stop waiting for pages
    }
    if (id == 0) Lanes::shared().wake();
  };
  std::vector<std::thread> threads;
  for (int i = 1; i < jobs; ++i) threads.emplace_back(work, i);
  work(0);
  for (auto& t : threads) t.join();
  for (auto& f : failures)
    if (f) std::rethrow_exception(f);
  std::ranges::sort(warnings, {}, &Diagnostic::text);  // by their lines, as always
  for (auto& w : warnings) doc.warnings.push_back(w);
  return count;
}

}  // namespace quire::detail
