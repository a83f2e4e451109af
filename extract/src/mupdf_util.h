// Private to extract/: one MuPDF context with one open document, owned by one thread.
#pragma once

#include <mutex>
#include <string>
#include <vector>

extern "C" {
#include <mupdf/fitz.h>
}

namespace quire::detail {

struct MuContext {
  fz_context* ctx = nullptr;
  fz_document* doc = nullptr;
  int page_count = 0;
  std::mutex mutex;
  std::vector<std::string> warnings;  // MuPDF's own warnings (repairs), deduplicated

  MuContext();
  ~MuContext();
  MuContext(const MuContext&) = delete;
  MuContext& operator=(const MuContext&) = delete;

  // Opens and authenticates; throws quire::Error (NotPdf, Encrypted).
  void open(const std::string& path, const std::string& password);
};

std::string base_name(const std::string& path);

}  // namespace quire::detail
