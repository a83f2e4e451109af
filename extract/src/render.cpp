// Renders a region of a page to PNG: the figure crops of the corpus.
//
// A region is always drawn through the page's display list: the one extraction kept
// (PageDrawings) or, for a page it did not keep, one made here. Drawing a list is not bit for
// bit the same as drawing the page directly (anti-aliased edges differ by a few levels), so
// one way for both keeps the figures independent of which pages were kept.
#include <algorithm>
#include <cmath>
#include <cstring>

extern "C" {
#include <mupdf/fitz.h>
}
#include <zlib.h>

#include "mupdf_holder.h"
#include "mupdf_util.h"
#include "quire/error.h"
#include "quire/extract.h"

namespace quire {

namespace detail {

namespace {

// A pixel is ink when any channel is darker than this (anti-aliased edges fade to ~254).
constexpr int kWhiteThreshold = 250;

// Deflate level for figure PNGs: level 3 is twice as fast as zlib's default (6) on rendered
// plots and diagrams, for files about 5% larger.
constexpr int kPngLevel = 3;
// Anti-aliasing of figures, in bits: 4 (16 levels of coverage) where MuPDF's default is 8. At
// 150 dpi the edges look the same; octave's 29 plots are drawn in 0.21 s instead of 0.28 s and
// take 20% fewer bytes.
constexpr int kFigureAaBits = 4;

// The first and last byte of [p, p + size) darker than kWhiteThreshold, or false where there
// is none. Blocks of bytes are skipped by their least value (a loop the compiler vectorizes):
// most of a figure's crop is white paper, and its ink rows are only searched from each end.
bool darker_bytes(const unsigned char* p, size_t size, size_t& first, size_t& last) {
  constexpr size_t kBlock = 64;
  auto least = [p](size_t from, size_t to) {
    unsigned char m = 255;
    for (size_t i = from; i < to; ++i) m = std::min(m, p[i]);
    return m;
  };
  size_t at = 0;
  while (at < size && least(at, std::min(size, at + kBlock)) >= kWhiteThreshold) at += kBlock;
  if (at >= size) return false;
  while (p[at] >= kWhiteThreshold) ++at;
  first = at;
  size_t end = size;  // blocks from the end, aligned to the row's end
  while (least(end - std::min(end, kBlock), end) >= kWhiteThreshold) end -= std::min(end, kBlock);
  while (p[end - 1] >= kWhiteThreshold) --end;
  last = end - 1;
  return true;
}

}  // namespace

bool ink_bounds(const unsigned char* samples, int w, int h, int n, ptrdiff_t stride, int& x0, int& y0, int& x1,
                int& y1) {
  x0 = w, y0 = h, x1 = -1, y1 = -1;
  if (n <= 0) return false;
  for (int y = 0; y < h; ++y) {
    size_t first = 0, last = 0;
    if (!darker_bytes(samples + y * stride, static_cast<size_t>(w) * static_cast<size_t>(n), first, last)) continue;
    x0 = std::min(x0, static_cast<int>(first / static_cast<size_t>(n)));
    x1 = std::max(x1, static_cast<int>(last / static_cast<size_t>(n)));
    y0 = std::min(y0, y);
    y1 = y;
  }
  return x1 >= 0;
}

namespace {

// Copies the bounding box of the ink of an RGB pixmap into `out`.
void trim_to_ink(fz_context* ctx, fz_pixmap* pix, Pixels& out) {
  const int w = fz_pixmap_width(ctx, pix), h = fz_pixmap_height(ctx, pix);
  const int n = fz_pixmap_components(ctx, pix);
  const ptrdiff_t stride = fz_pixmap_stride(ctx, pix);
  const unsigned char* s = fz_pixmap_samples(ctx, pix);
  int x0, y0, x1, y1;
  ink_bounds(s, w, h, n, stride, x0, y0, x1, y1);
  out = Pixels{};
  if (x1 < 0 || n != 3) return;
  out.width = x1 - x0 + 1;
  out.height = y1 - y0 + 1;
  const size_t row_bytes = static_cast<size_t>(out.width) * 3;
  out.rgb.resize(row_bytes * static_cast<size_t>(out.height));
  for (int y = y0; y <= y1; ++y)
    std::memcpy(out.rgb.data() + static_cast<size_t>(y - y0) * row_bytes, s + y * stride + x0 * 3, row_bytes);
}

void put32(std::string& out, uint32_t v) {
  const char b[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
                     static_cast<char>(v)};
  out.append(b, 4);
}

void put_chunk(std::string& out, const char* type, const std::string& data) {
  put32(out, static_cast<uint32_t>(data.size()));
  const size_t start = out.size();
  out.append(type, 4);
  out += data;
  uLong crc = crc32(0, reinterpret_cast<const Bytef*>(out.data() + start), static_cast<uInt>(out.size() - start));
  put32(out, static_cast<uint32_t>(crc));
}

}  // namespace

int draw_trimmed(fz_context* ctx, fz_display_list* list, double x0, double y0, double x1, double y1, int dpi,
                 Pixels& out) {
  out = Pixels{};
  const float scale = static_cast<float>(dpi) / 72.f;
  fz_pixmap* volatile pix = nullptr;
  fz_device* volatile dev = nullptr;
  volatile int ok = 1;
  fz_try(ctx) {
    fz_rect area = fz_make_rect(static_cast<float>(x0), static_cast<float>(y0), static_cast<float>(x1),
                                static_cast<float>(y1));
    area = fz_intersect_rect(area, fz_bound_display_list(ctx, list));
    fz_matrix ctm = fz_scale(scale, scale);
    fz_rect drawn = fz_transform_rect(area, ctm);
    fz_set_aa_level(ctx, kFigureAaBits);
    pix = fz_new_pixmap_with_bbox(ctx, fz_device_rgb(ctx), fz_round_rect(drawn), nullptr, 0);
    fz_clear_pixmap_with_value(ctx, pix, 255);
    dev = fz_new_draw_device(ctx, fz_identity, pix);
    fz_run_display_list(ctx, list, dev, ctm, drawn, nullptr);
    fz_close_device(ctx, dev);
  }
  fz_always(ctx) fz_drop_device(ctx, dev);
  fz_catch(ctx) ok = 0;
  const HeldPixmap pixmap(ctx, pix);
  if (ok) trim_to_ink(ctx, pixmap.get(), out);
  return ok;
}

std::string encode_png(const Pixels& p, int dpi) {
  if (p.width <= 0 || p.height <= 0) return {};
  const size_t row_bytes = static_cast<size_t>(p.width) * 3;
  std::string raw;
  raw.reserve((row_bytes + 1) * static_cast<size_t>(p.height));
  for (int y = 0; y < p.height; ++y) {
    raw.push_back('\0');  // filter: none (plots and diagrams are mostly flat runs)
    raw.append(reinterpret_cast<const char*>(p.rgb.data()) + static_cast<size_t>(y) * row_bytes, row_bytes);
  }
  std::string packed(compressBound(static_cast<uLong>(raw.size())), '\0');
  z_stream z{};
  if (deflateInit(&z, kPngLevel) != Z_OK) return {};
  z.next_in = reinterpret_cast<Bytef*>(raw.data());
  z.avail_in = static_cast<uInt>(raw.size());
  z.next_out = reinterpret_cast<Bytef*>(packed.data());
  z.avail_out = static_cast<uInt>(packed.size());
  int rc = deflate(&z, Z_FINISH);
  packed.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) return {};

  std::string png("\x89PNG\r\n\x1a\n", 8);
  std::string ihdr;
  put32(ihdr, static_cast<uint32_t>(p.width));
  put32(ihdr, static_cast<uint32_t>(p.height));
  ihdr += std::string("\x08\x02\x00\x00\x00", 5);  // 8 bits, RGB, deflate, no filter set, no interlace
  put_chunk(png, "IHDR", ihdr);
  std::string phys;
  const auto per_metre = static_cast<uint32_t>(std::lround(dpi / 0.0254));
  put32(phys, per_metre);
  put32(phys, per_metre);
  phys.push_back('\x01');  // unit: metre
  put_chunk(png, "pHYs", phys);
  put_chunk(png, "IDAT", packed);
  put_chunk(png, "IEND", {});
  return png;
}

}  // namespace detail

PageDrawings::PageDrawings(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

PageDrawings::~PageDrawings() = default;

int PageDrawings::pages() const { return static_cast<int>(impl_->pages.size()); }

int PageDrawings::holder(int page) const {
  auto it = impl_->pages.find(page);
  if (it == impl_->pages.end()) return -1;
  for (size_t i = 0; i < impl_->owners.size(); ++i)
    if (impl_->owners[i].get() == it->second.owner) return static_cast<int>(i);
  return -1;
}

struct PdfRenderer::Impl {
  std::string path, password;
  std::shared_ptr<PageDrawings> drawings;
  std::unique_ptr<detail::MuContext> mu;  // opened on the first page the drawings lack

  void open() {
    if (mu) return;
    auto m = std::make_unique<detail::MuContext>();
    m->open(path, password);
    mu = std::move(m);
  }
};

PdfRenderer::PdfRenderer(const std::string& path, const std::string& password,
                         std::shared_ptr<PageDrawings> drawings)
    : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  impl_->password = password;
  impl_->drawings = std::move(drawings);
  if (!impl_->drawings) impl_->open();
}

PdfRenderer::~PdfRenderer() = default;

std::string PdfRenderer::png(int page, const Box& box, int dpi) {
  detail::Pixels pixels;
  if (impl_->drawings) {
    auto& kept = impl_->drawings->impl().pages;
    // A list whose context is drawing another figure is waited for. Drawing the page again
    // from the document instead gives the same pixels but reads and interprets the page
    // once more, two to four times the drawing's own time on octave's plots; export hands
    // out figures of different holders in turn (ExportOptions::figure_group), so that
    // threads seldom wait.
    if (auto it = kept.find(page); it != kept.end()) {
      std::unique_lock lock(it->second.owner->in_use);
      if (!detail::draw_trimmed(it->second.owner->mu->ctx(), it->second.list.get(), box.x0, box.y0, box.x1, box.y1, dpi,
                                pixels))
        return {};
      lock.unlock();
      return detail::encode_png(pixels, dpi);
    }
  }
  impl_->open();
  fz_context* ctx = impl_->mu->ctx();
  fz_document* doc = impl_->mu->doc();
  if (page < 1 || page > impl_->mu->page_count) return {};
  fz_page* volatile pg = nullptr;
  fz_display_list* volatile made = nullptr;
  volatile int ok = 1;
  fz_try(ctx) {
    pg = fz_load_page(ctx, doc, page - 1);
    made = fz_new_display_list_from_page(ctx, pg);
  }
  fz_always(ctx) fz_drop_page(ctx, pg);
  fz_catch(ctx) ok = 0;
  const detail::HeldDisplayList list(ctx, made);
  if (ok) ok = detail::draw_trimmed(ctx, list.get(), box.x0, box.y0, box.x1, box.y1, dpi, pixels);
  return ok ? detail::encode_png(pixels, dpi) : std::string();
}

namespace {

// Overlay labels: Helvetica at this size in points, on a tab padded by this much.
constexpr float kLabelSize = 7.f;
constexpr float kLabelPad = 1.f;

void set_rgb(uint32_t c, float rgb[3]) {
  rgb[0] = static_cast<float>((c >> 16) & 0xff) / 255.f;
  rgb[1] = static_cast<float>((c >> 8) & 0xff) / 255.f;
  rgb[2] = static_cast<float>(c & 0xff) / 255.f;
}

// Draws the marks through `dev` (which maps PDF points by `ctm`). Throws MuPDF errors.
void draw_marks(fz_context* ctx, fz_device* dev, fz_matrix ctm, fz_font* font, const std::vector<OverlayMark>& marks) {
  fz_colorspace* rgb = fz_device_rgb(ctx);
  const float white[3] = {1, 1, 1};
  for (const auto& m : marks) {
    float color[3];
    set_rgb(m.color, color);
    const auto x0 = static_cast<float>(m.box.x0), y0 = static_cast<float>(m.box.y0);
    const auto x1 = static_cast<float>(m.box.x1), y1 = static_cast<float>(m.box.y1);
    fz_path* path = fz_new_path(ctx);
    fz_stroke_state* volatile stroke = nullptr;
    fz_try(ctx) {
      if (x1 > x0 && y1 > y0) {
        fz_rectto(ctx, path, x0, y0, x1, y1);
      } else {
        fz_moveto(ctx, path, x0, y0);
        fz_lineto(ctx, path, x1, y1);
      }
      if (m.fill_alpha > 0 && x1 > x0 && y1 > y0)
        fz_fill_path(ctx, dev, path, 0, ctm, rgb, color, static_cast<float>(m.fill_alpha), fz_default_color_params);
      stroke = fz_new_stroke_state(ctx);
      stroke->linewidth = static_cast<float>(m.line_width);
      fz_stroke_path(ctx, dev, path, stroke, ctm, rgb, color, 1.f, fz_default_color_params);
    }
    fz_always(ctx) {
      fz_drop_stroke_state(ctx, stroke);
      fz_drop_path(ctx, path);
    }
    fz_catch(ctx) fz_rethrow(ctx);
    if (m.label.empty()) continue;
    // The tab sits above the box's top-left corner, or inside it at the top of the page.
    const volatile float baseline = y0 - kLabelPad - kLabelSize * 0.2f >= kLabelSize ? y0 - kLabelPad - kLabelSize * 0.2f
                                                                             : y0 + kLabelSize + kLabelPad;
    fz_text* text = fz_new_text(ctx);
    fz_path* volatile tab = nullptr;
    fz_try(ctx) {
      // Text space flips y: the model's y grows downwards.
      fz_matrix trm = fz_make_matrix(kLabelSize, 0, 0, -kLabelSize, x0 + kLabelPad, baseline);
      fz_show_string(ctx, text, font, trm, m.label.c_str(), 0, 0, FZ_BIDI_LTR, FZ_LANG_UNSET);
      fz_rect b = fz_bound_text(ctx, text, nullptr, fz_identity);
      tab = fz_new_path(ctx);
      fz_rectto(ctx, tab, b.x0 - kLabelPad, baseline - kLabelSize * 0.8f - kLabelPad, b.x1 + kLabelPad,
                baseline + kLabelSize * 0.2f + kLabelPad);
      fz_fill_path(ctx, dev, tab, 0, ctm, rgb, color, 1.f, fz_default_color_params);
      fz_fill_text(ctx, dev, text, ctm, rgb, white, 1.f, fz_default_color_params);
    }
    fz_always(ctx) {
      fz_drop_path(ctx, tab);
      fz_drop_text(ctx, text);
    }
    fz_catch(ctx) fz_rethrow(ctx);
  }
}

}  // namespace

std::string PdfRenderer::page_png(int page, int dpi, const std::vector<OverlayMark>& marks) {
  impl_->open();
  fz_context* ctx = impl_->mu->ctx();
  fz_document* doc = impl_->mu->doc();
  if (page < 1 || page > impl_->mu->page_count) return {};
  const float scale = static_cast<float>(dpi) / 72.f;
  fz_page* volatile pg = nullptr;
  fz_pixmap* volatile pix = nullptr;
  fz_device* volatile dev = nullptr;
  fz_font* volatile font = nullptr;
  volatile int ok = 1;
  fz_try(ctx) {
    pg = fz_load_page(ctx, doc, page - 1);
    fz_matrix ctm = fz_scale(scale, scale);
    fz_rect drawn = fz_transform_rect(fz_bound_page(ctx, pg), ctm);
    pix = fz_new_pixmap_with_bbox(ctx, fz_device_rgb(ctx), fz_round_rect(drawn), nullptr, 0);
    fz_clear_pixmap_with_value(ctx, pix, 255);
    dev = fz_new_draw_device(ctx, fz_identity, pix);
    fz_run_page(ctx, pg, dev, ctm, nullptr);
    font = fz_new_base14_font(ctx, "Helvetica");
    draw_marks(ctx, dev, ctm, font, marks);
    fz_close_device(ctx, dev);
  }
  fz_always(ctx) {
    fz_drop_font(ctx, font);
    fz_drop_device(ctx, dev);
    fz_drop_page(ctx, pg);
  }
  fz_catch(ctx) ok = 0;
  const detail::HeldPixmap pixmap(ctx, pix);
  if (!ok) return {};
  // The copy is C++ (it allocates), so it runs once fz_try is left.
  detail::Pixels pixels;
  const int w = fz_pixmap_width(ctx, pixmap.get()), h = fz_pixmap_height(ctx, pixmap.get());
  const ptrdiff_t stride = fz_pixmap_stride(ctx, pixmap.get());
  const unsigned char* s = fz_pixmap_samples(ctx, pixmap.get());
  pixels.width = w;
  pixels.height = h;
  pixels.rgb.resize(static_cast<size_t>(w) * 3 * static_cast<size_t>(h));
  for (int y = 0; y < h; ++y)
    std::memcpy(pixels.rgb.data() + static_cast<size_t>(y) * w * 3, s + y * stride, static_cast<size_t>(w) * 3);
  return detail::encode_png(pixels, dpi);
}

std::string render_region_png(const std::string& pdf_path, const std::string& password, int page,
                              const Box& box, int dpi) {
  PdfRenderer r(pdf_path, password);
  return r.png(page, box, dpi);
}

}  // namespace quire
