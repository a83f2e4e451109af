#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <future>
#include <unordered_map>

extern "C" {
#include <mupdf/fitz.h>
}

#include "engines.h"
#include "mupdf_util.h"
#include "ocr.h"
#include "quire/error.h"
#include "quire/extract.h"
#include "quire/parallel.h"
#include "quire/text.h"

namespace quire {

namespace detail {

std::string base_name(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string strip_subset_prefix(const std::string& name) {
  // A subset font is tagged with six upper-case letters and '+' (PDF 32000, 9.6.4).
  if (name.size() > 7 && name[6] == '+' &&
      std::all_of(name.begin(), name.begin() + 6, [](char c) { return c >= 'A' && c <= 'Z'; }))
    return name.substr(7);
  return name;
}

bool picture_font(const std::string& name) {
  return name == "LINE10" || name == "LINEW10" || name == "LCIRCLE10" || name == "LCIRCLEW10";
}

void check_pdf_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ExitCode::NotFound, path, 0, "no such file or not readable");
  char head[1024];
  in.read(head, sizeof head);
  std::string_view s(head, static_cast<size_t>(in.gcount()));
  if (s.empty()) throw Error(ExitCode::NotPdf, path, 0, "not a PDF: the file is empty");
  // Readers accept the header anywhere in the first 1024 bytes (PDF 32000, 7.5.2 and practice).
  if (s.find("%PDF-") == std::string_view::npos)
    throw Error(ExitCode::NotPdf, path, 0, "not a PDF: no %PDF- header in the first 1024 bytes");
}

std::shared_ptr<PageSpill> make_spill(const std::string& path, size_t pages, const ExtractOptions& options) {
  if (options.spill_after_mb < 0) return nullptr;
  return std::make_shared<PageSpill>(pages, static_cast<size_t>(options.spill_after_mb * 1024 * 1024), path,
                                     options.spill_dir);
}

std::pair<int, int> page_range(const std::string& path, const ExtractOptions& o, int page_count) {
  int first = o.first_page > 0 ? o.first_page : 1;
  int last = o.last_page > 0 ? o.last_page : page_count;
  if (first > page_count || last > page_count || first > last)
    throw Error(ExitCode::BadRange, path, 0,
                "page range " + std::to_string(first) + "-" + std::to_string(last) +
                    " is outside the document's " + std::to_string(page_count) + " pages");
  return {first, last};
}

namespace {

bool is_ascii(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

bool monospace_by_name(const std::string& font) {
  std::string f;
  for (char c : font) f += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const char* hints[] = {"mono", "courier", "consol", "menlo", "cmtt", "sftt", "typewriter",
                                "inconsolata", "lettergothic", "fixed", "andale", "monaco"};
  for (const char* h : hints)
    if (f.find(h) != std::string::npos) return true;
  // Computer Modern / Latin Modern typewriter faces: "lmtt10", "cmtt9", "rm-lmtt10".
  return f.find("lmtt") != std::string::npos;
}

}  // namespace

void infer_monospace(Document& doc, int jobs, const std::function<void(Page&)>& then) {
  // Advances between consecutive non-space glyphs of one span; a fixed-pitch font has one
  // advance for every glyph, a proportional one ranges from 'i' to 'm' (a ratio near 3).
  //
  // Fonts are looked up by name and then by size in tenths of a point; a book has a few
  // dozen of each, and building a "name@size" string for every span cost more than the
  // sampling itself.
  struct Stats {
    long size10 = 0;
    std::vector<float> advances;
    bool decided = false;  // enough samples to judge
    bool mono = false;
  };
  struct Font {
    bool mono_by_name = false;
    std::vector<Stats> sizes;
    Stats* find(long size10) {
      for (auto& st : sizes)
        if (st.size10 == size10) return &st;
      return nullptr;
    }
    Stats& at(long size10) {
      if (Stats* st = find(size10)) return *st;
      sizes.push_back({size10, {}, false, false});
      return sizes.back();
    }
  };
  using Fonts = std::unordered_map<std::string, Font>;
  // The last font looked up: consecutive spans mostly share it.
  struct Lookup {
    Fonts& fonts;
    const std::string* last_name = nullptr;
    Font* last_font = nullptr;
    Font& operator()(const std::string& name) {
      if (last_name && *last_name == name) return *last_font;
      auto [it, fresh] = fonts.try_emplace(name);
      if (fresh) it->second.mono_by_name = monospace_by_name(name);
      last_name = &it->first;
      last_font = &it->second;
      return it->second;
    }
  };
  constexpr size_t kMaxSamples = 4000;
  // is_space_cp for ASCII from a table (asked once), the library call otherwise.
  static const auto ascii_space = [] {
    std::array<bool, 128> t{};
    for (char32_t c = 0; c < 128; ++c) t[c] = is_space_cp(c);
    return t;
  }();
  auto space = [](char32_t c) { return c < 128 ? ascii_space[c] : is_space_cp(c); };
  // The first kMaxSamples advances of each font and size, in page order: runs of
  // consecutive pages are sampled apart (each keeps its own first kMaxSamples) and then
  // joined in page order, which keeps the same first ones at any thread count.
  auto sample = [&](size_t from, size_t to, Fonts& fonts) {
    Lookup font_of{fonts};
    std::u32string wide;
    for (size_t pi = from; pi < to; ++pi)
      with_page(doc, pi, [&](const Page& page) {
      for (const auto& l : page.lines) {
        if (l.direction != 0) continue;
        for (const auto& s : l.spans) {
          if (s.monospace || s.xs.size() < 3) continue;
          auto& st = font_of(s.font).at(std::lround(s.size * 10));
          if (st.advances.size() >= kMaxSamples) continue;  // the book's main fonts, soon
          // Code points without decoding when the span is ASCII (nearly all of them).
          const bool ascii = is_ascii(s.text);
          if (!ascii) wide = to_u32(s.text);
          const size_t n = ascii ? s.text.size() : wide.size();
          if (n != s.xs.size()) continue;
          auto cp = [&](size_t i) -> char32_t {
            return ascii ? static_cast<unsigned char>(s.text[i]) : wide[i];
          };
          for (size_t i = 0; i + 1 < n && st.advances.size() < kMaxSamples; ++i) {
            // (A wide character stands on the em square in every face: it tells nothing.)
            if (space(cp(i)) || space(cp(i + 1)) || (cp(i) >= 0x1100 && is_wide_cp(cp(i)))) continue;
            float a = s.xs[i + 1] - s.xs[i];
            if (a > 0) st.advances.push_back(a / static_cast<float>(s.size));
          }
        }
      }
      });
  };
  const size_t n = doc.pages.size();
  const size_t groups = jobs <= 1 ? 1 : std::min(n, static_cast<size_t>(jobs) * 4);
  Fonts fonts;
  if (groups <= 1) {
    sample(0, n, fonts);
  } else {
    std::vector<Fonts> parts(groups);
    parallel_for(groups, jobs, [&](size_t g) { sample(n * g / groups, n * (g + 1) / groups, parts[g]); });
    for (auto& part : parts)
      for (auto& [name, pf] : part) {
        auto [it, fresh] = fonts.try_emplace(name);
        if (fresh) it->second.mono_by_name = pf.mono_by_name;
        for (auto& ps : pf.sizes) {
          Stats& st = it->second.at(ps.size10);
          const size_t take = std::min(ps.advances.size(), kMaxSamples - st.advances.size());
          st.advances.insert(st.advances.end(), ps.advances.begin(), ps.advances.begin() + static_cast<long>(take));
        }
      }
  }
  // A font is fixed-pitch when nearly all advances equal the median (3% tolerance covers
  // rounding of glyph positions in the content stream).
  constexpr size_t kMinSamples = 20;
  constexpr double kTolerance = 0.03;
  constexpr double kShare = 0.97;
  for (auto& [name, font] : fonts)
    for (auto& st : font.sizes) {
      if (st.advances.size() < kMinSamples) continue;
      auto v = st.advances;
      std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
      double median = v[v.size() / 2];
      size_t close = 0;
      for (float a : st.advances)
        if (std::fabs(a - median) <= kTolerance * median) ++close;
      st.decided = true;
      st.mono = static_cast<double>(close) >= kShare * static_cast<double>(st.advances.size());
    }
  // Every span's font and size were sampled above: the lookups below only read.
  change_pages(
      doc, jobs,
      [&](size_t, Page& page) {
        const std::string* last_name = nullptr;
        const Font* last_font = nullptr;
        for (auto& l : page.lines)
          for (auto& s : l.spans) {
            if (s.monospace) continue;
            if (!last_name || *last_name != s.font) {
              auto it = fonts.find(s.font);
              if (it == fonts.end()) {  // no span of it was sampled: its name alone decides
                if (monospace_by_name(s.font)) s.monospace = true;
                continue;
              }
              last_name = &it->first;
              last_font = &it->second;
            }
            // A typewriter face by name is fixed-pitch even where a justified or
            // flexible-column listing spreads its glyphs unevenly; otherwise the measured
            // advances decide.
            if (last_font->mono_by_name) {
              s.monospace = true;
              continue;
            }
            const long size10 = std::lround(s.size * 10);
            for (const auto& st : last_font->sizes)
              if (st.size10 == size10 && st.decided) s.monospace = st.mono;
          }
        if (then) then(page);
      },
      16);
}

}  // namespace detail

Document extract_document(const std::string& path, const ExtractOptions& options,
                          std::shared_ptr<PageDrawings>* drawings) {
  if (drawings) drawings->reset();
  detail::check_pdf_file(path);
  // With more than one worker the file's digest is taken on a thread of its own while the
  // pages are read, rather than as a serial step after them.
  std::future<std::string> digest;
  if (options.jobs > 1) digest = std::async(std::launch::async, sha256_file, path);
  Document doc;
  std::vector<char> needs_ocr;  // per page, from the MuPDF workers (Auto mode)
  if (options.engine == Engine::Poppler) {
    doc = detail::extract_poppler(path, options);
  } else {
    try {
      doc = detail::extract_mupdf(path, options, options.ocr == OcrMode::Auto ? &needs_ocr : nullptr, drawings);
    } catch (const Error& e) {
      // Poppler's parser sometimes reads files MuPDF rejects; never for password or range errors.
      if (e.code != ExitCode::NotPdf || !options.fallback_to_poppler) throw;
      needs_ocr.clear();  // Poppler's pages are checked afresh
      if (drawings) drawings->reset();
      try {
        doc = detail::extract_poppler(path, options);
      } catch (const Error&) {
        throw e;  // report MuPDF's reason: it is the default engine
      }
      doc.warnings.insert(doc.warnings.begin(),
                          Diagnostic::at("extract", "engine-fallback", detail::base_name(path), 0,
                                         std::string("MuPDF could not open the file (") + e.what() +
                                             "); extracted with Poppler instead"));
    }
  }
  doc.sha256 = digest.valid() ? digest.get() : sha256_file(path);
  // Cell gaps are found among monospace spans, and glued cells outside them: on each page as
  // soon as its spans are marked.
  detail::infer_monospace(doc, options.jobs, [&options](Page& page) {
    detail::drop_page_cell_gaps(page);
    detail::split_page_glued_cells(page, options);
  });
  // Pages without a usable text layer (or every page, with OcrMode::Force) are read by OCR.
  int ocr_pages = detail::ocr_document(path, options, doc, {}, needs_ocr.empty() ? nullptr : &needs_ocr);
  if (ocr_pages > 0)
    doc.engine = ocr_pages == static_cast<int>(doc.pages.size()) ? "tesseract" : doc.engine + "+tesseract";
  if (options.on_warning)
    for (const auto& w : doc.warnings) options.on_warning(w.text());
  return doc;
}

}  // namespace quire
