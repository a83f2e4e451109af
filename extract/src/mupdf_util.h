// Private to extract/: one MuPDF context with one open document, owned by one thread.
#pragma once

#include <mutex>
#include <string>
#include <vector>

extern "C" {
#include <mupdf/fitz.h>
}

namespace quire::detail {

// Counts a context's live allocations so that a page can be held to a memory budget.
struct MemoryBudget {
  size_t live = 0;   // bytes; one context is used by one thread at a time
  size_t limit = 0;  // 0 = none
};

struct MuContext {
  MemoryBudget budget;
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

  // Drops the document and the context now rather than at destruction; warnings stay.
  void close();
};

std::string base_name(const std::string& path);

}  // namespace quire::detail
