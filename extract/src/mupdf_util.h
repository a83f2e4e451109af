// Private to extract/: one MuPDF context with one open document, owned by one thread.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

extern "C" {
#include <mupdf/fitz.h>
}

#include "mupdf_holder.h"
#include "quire/extract.h"

namespace quire::detail {

// Counts a context's live allocations so that a page can be held to a memory budget.
struct MemoryBudget {
  size_t live = 0;   // bytes; one context is used by one thread at a time
  size_t limit = 0;  // 0 = none
};

// What reading the document's links has looked up, kept for the document's next links: a
// book of hyperlinks names the same few thousand places again and again, and MuPDF finds a
// page object's number by walking the page tree up from it, each time.
struct LinkMemo {
  struct Target {
    int page = 0;  // 1-based; 0: the link is left out
    float y = -1;
  };
  // The named destinations found by any of a book's contexts. A name leads to the same place
  // whichever context looks it up; each context parses the objects it reads, so a context
  // need not load again a destination another has found (refman.pdf's links at two jobs: a
  // fifth of the second context's time went to them).
  struct Shared {
    std::mutex mutex;
    std::unordered_map<std::string, Target> named;
  };
  std::unordered_map<std::string, Target> named;  // a named destination: 'n' or 's', then its bytes
  Shared* shared = nullptr;                       // the book's, where more than one context reads it
  std::unordered_map<int, int> page_of_object;    // a page object's number -> its 0-based index
  std::unordered_map<int, fz_matrix> ctm_of_object;
  std::unordered_map<int, fz_rect> box_of_page;   // 0-based index -> its media box, transformed
};

struct MuContext {
  // (In this order: the allocator and the warning sink outlive the context, the context
  // outlives the document.)
  MemoryBudget budget;
  std::mutex mutex;
  std::vector<std::string> warnings;  // MuPDF's own warnings (repairs), deduplicated
  HeldContext context;
  HeldDocument document;
  int page_count = 0;
  LinkMemo links;

  MuContext();
  ~MuContext();
  MuContext(const MuContext&) = delete;
  MuContext& operator=(const MuContext&) = delete;

  fz_context* ctx() const { return context.get(); }
  fz_document* doc() const { return document.get(); }

  // Opens and authenticates; throws quire::Error (NotPdf, Encrypted).
  void open(const std::string& path, const std::string& password);

  // Drops the document and the context now rather than at destruction; warnings stay.
  void close();
};

std::string base_name(const std::string& path);

// The pixels of a page region, trimmed to the ink: RGB, 3 bytes a pixel, rows packed.
struct Pixels {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;
};

// The box of the pixels of an image (`n` bytes a pixel, rows `stride` bytes apart) with any
// byte darker than paper white: the ink a figure's crop is trimmed to. False (and x1 < 0)
// where every pixel is white.
bool ink_bounds(const unsigned char* samples, int w, int h, int n, ptrdiff_t stride, int& x0, int& y0, int& x1,
                int& y1);

// Draws `box` (PDF points) of a page's display list at `dpi` and trims it to the ink
// (`out` is left empty when there is none). Returns 0 when MuPDF fails. Every figure is
// drawn through a display list, whether extraction kept it or the renderer made it, so the
// pixels do not depend on which.
int draw_trimmed(fz_context* ctx, fz_display_list* list, double x0, double y0, double x1, double y1, int dpi,
                 Pixels& out);

// PNG bytes (8-bit RGB, no interlace) with the resolution recorded.
std::string encode_png(const Pixels& pixels, int dpi);

}  // namespace quire::detail

namespace quire {

// Display lists kept from extraction, each with the context and document that made it:
// a list holds that context's fonts and images (and a Type 3 font, the document itself),
// so it is drawn with that context alone, one thread at a time.
struct PageDrawings::Impl {
  struct Owner {
    std::unique_ptr<detail::MuContext> mu;
    std::mutex in_use;
  };
  struct Drawn {
    detail::HeldDisplayList list;  // made in owner's context
    Owner* owner = nullptr;
  };
  // (Declared before `pages`, so that the lists are dropped before their contexts.)
  std::vector<std::unique_ptr<Owner>> owners;
  std::map<int, Drawn> pages;  // by page number
};

}  // namespace quire
