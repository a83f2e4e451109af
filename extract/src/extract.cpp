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
  if (options.spill_budget) return std::make_shared<PageSpill>(pages, options.spill_budget, path, options.spill_dir);
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

}  // namespace detail

Document extract_document(const std::string& path, const ExtractOptions& options,
                          std::shared_ptr<PageDrawings>* drawings) {
  if (drawings) drawings->reset();
  detail::check_pdf_file(path);
  // With more than one worker and a lane free (quire/parallel.h) the file's digest is taken
  // on a thread of its own while the pages are read, rather than as a serial step after
  // them. (While every lane of a batch is busy, that thread would only wait for a core.)
  std::future<std::string> digest;
  if (options.jobs > 1 && Lanes::shared().spare()) digest = std::async(std::launch::async, sha256_file, path);
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
  detail::infer_monospace(doc, options, [&options](Page& page) {
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
