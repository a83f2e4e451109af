// Renders a region of a page to PNG: the figure crops of the corpus.
#include <algorithm>
#include <cmath>
#include <cstring>

extern "C" {
#include <mupdf/fitz.h>
}

#include "mupdf_util.h"
#include "quire/error.h"
#include "quire/extract.h"

namespace quire {

namespace {

// A pixel is ink when any channel is darker than this (anti-aliased edges fade to ~254).
constexpr int kWhiteThreshold = 250;

// The render, then trimmed to the bounding box of the ink, as PNG bytes; "" if no ink.
std::string trimmed_png(fz_context* ctx, fz_pixmap* pix) {
  const int w = fz_pixmap_width(ctx, pix), h = fz_pixmap_height(ctx, pix);
  const int n = fz_pixmap_components(ctx, pix);
  const int stride = static_cast<int>(fz_pixmap_stride(ctx, pix));
  const unsigned char* s = fz_pixmap_samples(ctx, pix);
  int x0 = w, y0 = h, x1 = -1, y1 = -1;
  for (int y = 0; y < h; ++y) {
    const unsigned char* row = s + static_cast<ptrdiff_t>(y) * stride;
    for (int x = 0; x < w; ++x) {
      const unsigned char* px = row + x * n;
      bool ink = false;
      for (int c = 0; c < n; ++c) ink |= px[c] < kWhiteThreshold;
      if (ink) {
        x0 = std::min(x0, x);
        x1 = std::max(x1, x);
        y0 = std::min(y0, y);
        y1 = std::max(y1, y);
      }
    }
  }
  if (x1 < 0) return {};
  fz_pixmap* volatile out = nullptr;
  fz_buffer* volatile buf = nullptr;
  std::string png;
  fz_try(ctx) {
    out = fz_new_pixmap(ctx, fz_pixmap_colorspace(ctx, pix), x1 - x0 + 1, y1 - y0 + 1, nullptr, 0);
    unsigned char* d = fz_pixmap_samples(ctx, out);
    const int dstride = static_cast<int>(fz_pixmap_stride(ctx, out));
    for (int y = y0; y <= y1; ++y)
      std::memcpy(d + static_cast<ptrdiff_t>(y - y0) * dstride, s + static_cast<ptrdiff_t>(y) * stride + x0 * n,
                  static_cast<size_t>((x1 - x0 + 1) * n));
    buf = fz_new_buffer_from_pixmap_as_png(ctx, out, fz_default_color_params);
  }
  fz_always(ctx) fz_drop_pixmap(ctx, out);
  fz_catch(ctx) {
    fz_drop_buffer(ctx, buf);
    return {};
  }
  unsigned char* data = nullptr;
  size_t len = fz_buffer_storage(ctx, buf, &data);
  png.assign(reinterpret_cast<const char*>(data), len);
  fz_drop_buffer(ctx, buf);
  return png;
}

}  // namespace

struct PdfRenderer::Impl {
  detail::MuContext mu;
};

PdfRenderer::PdfRenderer(const std::string& path, const std::string& password) : impl_(std::make_unique<Impl>()) {
  impl_->mu.open(path, password);
}

PdfRenderer::~PdfRenderer() = default;

std::string PdfRenderer::png(int page, const Box& box, int dpi) {
  fz_context* ctx = impl_->mu.ctx;
  if (page < 1 || page > impl_->mu.page_count) return {};
  const float scale = static_cast<float>(dpi) / 72.f;
  fz_page* volatile pg = nullptr;
  fz_pixmap* volatile pix = nullptr;
  fz_device* volatile dev = nullptr;
  std::string png;
  volatile int ok = 1;
  fz_try(ctx) {
    pg = fz_load_page(ctx, impl_->mu.doc, page - 1);
    fz_rect area = fz_make_rect(static_cast<float>(box.x0), static_cast<float>(box.y0),
                                static_cast<float>(box.x1), static_cast<float>(box.y1));
    area = fz_intersect_rect(area, fz_bound_page(ctx, pg));
    fz_matrix ctm = fz_scale(scale, scale);
    fz_irect ibox = fz_round_rect(fz_transform_rect(area, ctm));
    pix = fz_new_pixmap_with_bbox(ctx, fz_device_rgb(ctx), ibox, nullptr, 0);
    fz_clear_pixmap_with_value(ctx, pix, 255);
    dev = fz_new_draw_device(ctx, fz_identity, pix);
    fz_run_page(ctx, pg, dev, ctm, nullptr);
    fz_close_device(ctx, dev);
  }
  fz_always(ctx) {
    fz_drop_device(ctx, dev);
    fz_drop_page(ctx, pg);
  }
  fz_catch(ctx) ok = 0;
  if (ok) png = trimmed_png(ctx, pix);
  fz_drop_pixmap(ctx, pix);
  return png;
}

std::string render_region_png(const std::string& pdf_path, const std::string& password, int page,
                              const Box& box, int dpi) {
  PdfRenderer r(pdf_path, password);
  return r.png(page, box, dpi);
}

}  // namespace quire
