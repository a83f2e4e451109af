// The MuPDF engine: structured text with every glyph's box and font, plus a device of our
// own that records image and vector-path boxes (MuPDF 1.21's structured text keeps neither).
//
// Threads: one independent fz_context and fz_document per worker. Cloned contexts share an
// allocator lock that made two threads slower than one; independent ones scale.
//
// fz_try/fz_catch are setjmp/longjmp: an fz_try body calls MuPDF only (directly or through
// mu_call) and keeps what it makes in raw pointers, handed to holders (mupdf_holder.h) once
// the block is left; no C++ object with a destructor lives in it and no exception passes
// through it. MuPDF errors are turned into quire::Error here and never leave this file as
// anything else.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <type_traits>

extern "C" {
#include <mupdf/fitz.h>
#include <mupdf/pdf.h>
}

#include "engines.h"
#include "quire/error.h"
#include "quire/parallel.h"
#include "quire/text.h"
#include "mupdf_geometry.h"
#include "mupdf_holder.h"
#include "mupdf_util.h"
#include "ocr.h"
#include "tex_encodings.h"

namespace quire::detail {

namespace {

// ---- MuPDF calls from C++ code ----

// A MuPDF error, with MuPDF's message, met by mu_call.
struct MuError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The fz_try of mu_call: a frame of its own that holds nothing with a destructor.
template <class F, class R>
int mu_call_into(fz_context* ctx, F& f, R* out, char* err, size_t errsize) {
  volatile int ok = 1;
  fz_try(ctx) *out = f();
  fz_catch(ctx) {
    ok = 0;
    std::snprintf(err, errsize, "%s", fz_caught_message(ctx));
  }
  return ok;
}

// Runs `f`, a lambda of MuPDF calls only that captures by reference, and returns its result
// (a pointer, a number, a rectangle); a MuPDF error comes out as a MuError once fz_try is
// left. This is how C++ code that builds strings and vectors reads a document between MuPDF
// calls: nothing of it lives in the frame that fz_try's setjmp saves.
template <class F>
auto mu_call(fz_context* ctx, F&& f) {
  using R = decltype(f());
  static_assert(std::is_trivially_copyable_v<R> && std::is_trivially_destructible_v<std::remove_reference_t<F>>);
  R result{};
  char err[512];
  if (!mu_call_into(ctx, f, &result, err, sizeof err)) throw MuError(err);
  return result;
}

// ---- a device that records images and paths, and passes text on to the stext device ----
//
// It also passes every call on to a display-list device when the page is being recorded
// (figure pages are drawn later from that list rather than read again); fz_tee_device came
// after MuPDF 1.21.

struct CollectDevice {
  fz_device super;
  fz_device* text;    // the stext device
  fz_device* record;  // a list device, or nullptr
  fz_rect page;
  std::vector<Image>* images;
  std::vector<VectorPath>* paths;
  std::vector<fz_rect>* clips;  // clip stack; the back is the current visible area
  // What is painted so far in a colour other than the paper's (recorded paths and images):
  // paint of the paper's colour over none of it changes nothing that can be seen.
  std::vector<fz_rect>* inked;
  size_t inked_max;             // past this many, paper-coloured paint is taken to show
  int hidden;                   // > 0 while drawing mask or tile definitions
  int failed;                   // a C++ exception was swallowed in a callback
  fz_font* asked;               // the last font asked whether it is a picture font
  int picture;                  // ... and the answer
};

CollectDevice* as_collect(fz_device* d) { return reinterpret_cast<CollectDevice*>(d); }

fz_rect current_clip(CollectDevice* d) { return d->clips->empty() ? d->page : d->clips->back(); }

Box to_box(fz_rect r) { return {r.x0, r.y0, r.x1, r.y1}; }

uint32_t rgb_of(fz_context* ctx, fz_colorspace* cs, const float* color, fz_color_params params) {
  if (!cs || !color) return 0;
  float rgb[3] = {0, 0, 0};
  fz_convert_color(ctx, cs, color, fz_device_rgb(ctx), rgb, nullptr, params);
  auto c = [](float v) { return static_cast<uint32_t>(std::clamp(v, 0.f, 1.f) * 255.f + 0.5f); };
  return (c(rgb[0]) << 16) | (c(rgb[1]) << 8) | c(rgb[2]);
}

// The colour of paper: what a page shows where nothing is painted.
constexpr uint32_t kPaper = 0xFFFFFF;

void note_ink(CollectDevice* d, fz_rect r) {
  if (d->inked->size() >= d->inked_max) return;
  try {
    d->inked->push_back(r);
  } catch (...) {
    d->failed = 1;
  }
}

// Whether paint of the paper's colour over `r` shows: only over something painted before
// in another colour (a white box on a drawing's grey panel, a white halo under a label on
// a plot's lines). Over bare paper it shows nothing by itself (the white backgrounds
// browsers paint behind a whole page of text, a plot's blank canvas). Past inked_max
// paints it is taken to show.
bool shows_on_paper(const CollectDevice* d, fz_rect r) {
  if (d->inked->size() >= d->inked_max) return true;
  for (const fz_rect& o : *d->inked)
    if (std::min(r.x1, o.x1) > std::max(r.x0, o.x0) && std::min(r.y1, o.y1) > std::max(r.y0, o.y0)) return true;
  return false;
}

// Records a painted path's box, unless it is no ink at all: wholly clipped away (its visible
// part empty though its own box is not), or a filled shape larger than the page both ways
// (the page's own colour, behind all of its content; a drawing's shapes stay inside its
// page, though a band or a line may run off it on one side). Paint of the paper's colour
// on bare paper is recorded as such (VectorPath::paper). `shape`: the painted shape's
// geometry (null for a shading or a pattern, which fill whatever the clip lets through).
void record_path(CollectDevice* d, fz_rect r, bool fill, bool stroke, double width, uint32_t color,
                 const fz_rect* shape) {
  if (d->hidden) return;
  const fz_rect own = r;
  const bool larger = shape && fill && shape->x1 - shape->x0 > d->page.x1 - d->page.x0 &&
                     shape->y1 - shape->y0 > d->page.y1 - d->page.y0;
  r = fz_intersect_rect(r, current_clip(d));
  if (fz_is_empty_rect(r) && !(r.x0 <= r.x1 && r.y0 <= r.y1)) return;
  if (fz_is_empty_rect(r) && !fz_is_empty_rect(own)) return;  // clipped to nothing
  const bool paper = color == kPaper && !shows_on_paper(d, r);
  if (color != kPaper) note_ink(d, r);  // (a background larger than the page too: what is painted on it shows)
  if (larger) return;
  try {
    d->paths->push_back({to_box(r), fill, stroke, width, color, paper});
  } catch (...) {
    d->failed = 1;
  }
}

void dev_fill_path(fz_context* ctx, fz_device* dev, const fz_path* path, int even_odd, fz_matrix ctm,
                   fz_colorspace* cs, const float* color, float alpha, fz_color_params params) {
  auto* d = as_collect(dev);
  if (d->record) fz_fill_path(ctx, d->record, path, even_odd, ctm, cs, color, alpha, params);
  if (alpha <= 0) return;  // fully transparent: nothing is painted
  const fz_rect r = fz_bound_path(ctx, path, nullptr, ctm);
  record_path(d, r, true, false, 0, rgb_of(ctx, cs, color, params), &r);
}

void dev_stroke_path(fz_context* ctx, fz_device* dev, const fz_path* path, const fz_stroke_state* st,
                     fz_matrix ctm, fz_colorspace* cs, const float* color, float alpha, fz_color_params params) {
  auto* d = as_collect(dev);
  if (d->record) fz_stroke_path(ctx, d->record, path, st, ctm, cs, color, alpha, params);
  if (alpha <= 0) return;
  double width = st ? st->linewidth * fz_matrix_expansion(ctm) : 1;
  fz_rect r = fz_bound_path(ctx, path, st, ctm);
  // Padded to kStrokeBoxPad line widths where MuPDF bounds the stroke tighter.
  fz_rect g = fz_bound_path(ctx, path, nullptr, ctm);
  const float pad = static_cast<float>(kStrokeBoxPad * width);
  if (pad > 0 && g.x0 <= g.x1 && g.y0 <= g.y1 && r.x0 <= r.x1 && r.y0 <= r.y1) {
    r.x0 = std::min(r.x0, g.x0 - pad);
    r.y0 = std::min(r.y0, g.y0 - pad);
    r.x1 = std::max(r.x1, g.x1 + pad);
    r.y1 = std::max(r.y1, g.y1 + pad);
  }
  record_path(d, r, false, true, width, rgb_of(ctx, cs, color, params), &g);
}

void push_clip(CollectDevice* d, fz_rect r) {
  try {
    d->clips->push_back(fz_intersect_rect(r, current_clip(d)));
  } catch (...) {
    d->failed = 1;
  }
}

void dev_clip_path(fz_context* ctx, fz_device* dev, const fz_path* path, int even_odd, fz_matrix ctm,
                   fz_rect scissor) {
  auto* d = as_collect(dev);
  if (d->record) fz_clip_path(ctx, d->record, path, even_odd, ctm, scissor);
  push_clip(d, fz_intersect_rect(fz_bound_path(ctx, path, nullptr, ctm), scissor));
}

void dev_clip_stroke_path(fz_context* ctx, fz_device* dev, const fz_path* path, const fz_stroke_state* st,
                          fz_matrix ctm, fz_rect scissor) {
  auto* d = as_collect(dev);
  if (d->record) fz_clip_stroke_path(ctx, d->record, path, st, ctm, scissor);
  push_clip(d, fz_intersect_rect(fz_bound_path(ctx, path, st, ctm), scissor));
}

// Whether `name` names a font of drawing pieces. The name is copied into strings, so a
// bad_alloc is caught here: no exception may pass through fz_run_page's C frames.
int is_picture_font(CollectDevice* d, const char* name) {
  try {
    return picture_font(strip_subset_prefix(name)) ? 1 : 0;
  } catch (...) {
    d->failed = 1;
    return 0;
  }
}

void dev_fill_text(fz_context* ctx, fz_device* dev, const fz_text* text, fz_matrix ctm, fz_colorspace* cs,
                   const float* color, float alpha, fz_color_params params) {
  auto* d = as_collect(dev);
  if (d->record) fz_fill_text(ctx, d->record, text, ctm, cs, color, alpha, params);
  for (const fz_text_span* span = text->head; span; span = span->next) {
    if (span->font != d->asked) {  // (a page's text objects mostly use the font of the one before)
      d->asked = span->font;
      d->picture = span->font && is_picture_font(d, fz_font_name(ctx, span->font));
    }
    if (!d->picture) continue;
    for (int i = 0; i < span->len; ++i) {
      fz_matrix trm = span->trm;
      trm.e = span->items[i].x;
      trm.f = span->items[i].y;
      if (span->items[i].gid < 0) continue;
      const fz_rect g = fz_bound_glyph(ctx, span->font, span->items[i].gid, fz_concat(trm, ctm));
      record_path(d, g, true, false, 0, rgb_of(ctx, cs, color, params), &g);
    }
  }
  fz_fill_text(ctx, d->text, text, ctm, cs, color, alpha, params);
}

void dev_stroke_text(fz_context* ctx, fz_device* dev, const fz_text* text, const fz_stroke_state* st,
                     fz_matrix ctm, fz_colorspace* cs, const float* color, float alpha, fz_color_params params) {
  auto* d = as_collect(dev);
  if (d->record) fz_stroke_text(ctx, d->record, text, st, ctm, cs, color, alpha, params);
  fz_stroke_text(ctx, d->text, text, st, ctm, cs, color, alpha, params);
}

void dev_clip_text(fz_context* ctx, fz_device* dev, const fz_text* text, fz_matrix ctm, fz_rect scissor) {
  auto* d = as_collect(dev);
  if (d->record) fz_clip_text(ctx, d->record, text, ctm, scissor);
  fz_clip_text(ctx, d->text, text, ctm, scissor);
  fz_pop_clip(ctx, d->text);
  push_clip(d, fz_intersect_rect(fz_bound_text(ctx, text, nullptr, ctm), scissor));
}

void dev_clip_stroke_text(fz_context* ctx, fz_device* dev, const fz_text* text, const fz_stroke_state* st,
                          fz_matrix ctm, fz_rect scissor) {
  auto* d = as_collect(dev);
  if (d->record) fz_clip_stroke_text(ctx, d->record, text, st, ctm, scissor);
  fz_clip_stroke_text(ctx, d->text, text, st, ctm, scissor);
  fz_pop_clip(ctx, d->text);
  push_clip(d, fz_intersect_rect(fz_bound_text(ctx, text, st, ctm), scissor));
}

void dev_ignore_text(fz_context* ctx, fz_device* dev, const fz_text* text, fz_matrix ctm) {
  auto* d = as_collect(dev);
  if (d->record) fz_ignore_text(ctx, d->record, text, ctm);
  fz_ignore_text(ctx, d->text, text, ctm);
}

void record_image(CollectDevice* d, fz_image* img, fz_matrix ctm, bool mask) {
  if (d->hidden) return;
  fz_rect r = fz_intersect_rect(fz_transform_rect(fz_unit_rect, ctm), current_clip(d));
  if (fz_is_empty_rect(r)) return;
  note_ink(d, r);
  try {
    d->images->push_back({to_box(r), img->w, img->h, mask});
  } catch (...) {
    d->failed = 1;
  }
}

void dev_fill_image(fz_context* ctx, fz_device* dev, fz_image* img, fz_matrix ctm, float alpha,
                    fz_color_params params) {
  auto* d = as_collect(dev);
  if (d->record) fz_fill_image(ctx, d->record, img, ctm, alpha, params);
  record_image(d, img, ctm, false);
}

void dev_fill_image_mask(fz_context* ctx, fz_device* dev, fz_image* img, fz_matrix ctm, fz_colorspace* cs,
                         const float* color, float alpha, fz_color_params params) {
  auto* d = as_collect(dev);
  if (d->record) fz_fill_image_mask(ctx, d->record, img, ctm, cs, color, alpha, params);
  record_image(d, img, ctm, true);
}

void dev_clip_image_mask(fz_context* ctx, fz_device* dev, fz_image* img, fz_matrix ctm, fz_rect scissor) {
  auto* d = as_collect(dev);
  if (d->record) fz_clip_image_mask(ctx, d->record, img, ctm, scissor);
  push_clip(d, fz_intersect_rect(fz_transform_rect(fz_unit_rect, ctm), scissor));
}

void dev_fill_shade(fz_context* ctx, fz_device* dev, fz_shade* shade, fz_matrix ctm, float alpha,
                    fz_color_params params) {
  auto* d = as_collect(dev);
  if (d->record) fz_fill_shade(ctx, d->record, shade, ctm, alpha, params);
  // A shading paints like a filled path (gradients inside diagrams).
  record_path(d, fz_bound_shade(ctx, shade, ctm), true, false, 0, 0x808080, nullptr);
}

void dev_pop_clip(fz_context* ctx, fz_device* dev) {
  auto* d = as_collect(dev);
  if (d->record) fz_pop_clip(ctx, d->record);
  if (!d->clips->empty()) d->clips->pop_back();
}

void dev_begin_mask(fz_context* ctx, fz_device* dev, fz_rect area, int luminosity, fz_colorspace* cs,
                    const float* bc, fz_color_params params) {
  auto* d = as_collect(dev);
  if (d->record) fz_begin_mask(ctx, d->record, area, luminosity, cs, bc, params);
  d->hidden++;  // what is drawn now defines a mask; it is not seen as such
}

void dev_end_mask(fz_context* ctx, fz_device* dev) {
  auto* d = as_collect(dev);
  if (d->record) fz_end_mask(ctx, d->record);
  if (d->hidden > 0) d->hidden--;
  push_clip(d, current_clip(d));  // the mask acts as a clip until its pop_clip
}

void dev_begin_group(fz_context* ctx, fz_device* dev, fz_rect area, fz_colorspace* cs, int isolated,
                     int knockout, int blendmode, float alpha) {
  auto* d = as_collect(dev);
  if (d->record) fz_begin_group(ctx, d->record, area, cs, isolated, knockout, blendmode, alpha);
}

void dev_end_group(fz_context* ctx, fz_device* dev) {
  auto* d = as_collect(dev);
  if (d->record) fz_end_group(ctx, d->record);
}

int dev_begin_tile(fz_context* ctx, fz_device* dev, fz_rect area, fz_rect view, float xstep, float ystep,
                   fz_matrix ctm, int id) {
  auto* d = as_collect(dev);
  // The cell is always drawn (0: nothing cached), so that the list holds it too.
  if (d->record) fz_begin_tile_id(ctx, d->record, area, view, xstep, ystep, ctm, id);
  // A tiling pattern fills `area`: record it once as a filled region, then hide its cell.
  record_path(d, fz_transform_rect(area, ctm), true, false, 0, 0x808080, nullptr);
  d->hidden++;
  return 0;
}

void dev_end_tile(fz_context* ctx, fz_device* dev) {
  auto* d = as_collect(dev);
  if (d->record) fz_end_tile(ctx, d->record);
  if (d->hidden > 0) d->hidden--;
}

void dev_render_flags(fz_context* ctx, fz_device* dev, int set, int clear) {
  auto* d = as_collect(dev);
  if (d->record) fz_render_flags(ctx, d->record, set, clear);
}

void dev_set_default_colorspaces(fz_context* ctx, fz_device* dev, fz_default_colorspaces* cs) {
  auto* d = as_collect(dev);
  if (d->record) fz_set_default_colorspaces(ctx, d->record, cs);
}

void dev_begin_layer(fz_context* ctx, fz_device* dev, const char* name) {
  auto* d = as_collect(dev);
  if (d->record) fz_begin_layer(ctx, d->record, name);
}

void dev_end_layer(fz_context* ctx, fz_device* dev) {
  auto* d = as_collect(dev);
  if (d->record) fz_end_layer(ctx, d->record);
}

// The stext device is closed without its own close step: in MuPDF 1.21 that step only
// computes each line's and block's box from its characters' quads (2% of a build of
// refman.pdf), and convert_page reads neither but makes each line's box from the
// characters it keeps. (A device dropped unclosed warns; one closed does not.)
void dev_close(fz_context* ctx, fz_device* dev) {
  auto* d = as_collect(dev);
  if (d->record) fz_close_device(ctx, d->record);
  d->text->close_device = nullptr;
  fz_close_device(ctx, d->text);
}

fz_device* new_collect_device(fz_context* ctx, fz_device* text, fz_device* record, fz_rect page,
                              std::vector<Image>* images, std::vector<VectorPath>* paths,
                              std::vector<fz_rect>* clips, std::vector<fz_rect>* inked, size_t inked_max) {
  auto* d = fz_new_derived_device(ctx, CollectDevice);
  d->super.fill_path = dev_fill_path;
  d->super.stroke_path = dev_stroke_path;
  d->super.clip_path = dev_clip_path;
  d->super.clip_stroke_path = dev_clip_stroke_path;
  d->super.fill_text = dev_fill_text;
  d->super.stroke_text = dev_stroke_text;
  d->super.clip_text = dev_clip_text;
  d->super.clip_stroke_text = dev_clip_stroke_text;
  d->super.ignore_text = dev_ignore_text;
  d->super.fill_shade = dev_fill_shade;
  d->super.fill_image = dev_fill_image;
  d->super.fill_image_mask = dev_fill_image_mask;
  d->super.clip_image_mask = dev_clip_image_mask;
  d->super.pop_clip = dev_pop_clip;
  d->super.begin_mask = dev_begin_mask;
  d->super.end_mask = dev_end_mask;
  d->super.begin_tile = dev_begin_tile;
  d->super.end_tile = dev_end_tile;
  d->super.begin_group = dev_begin_group;
  d->super.end_group = dev_end_group;
  d->super.render_flags = dev_render_flags;
  d->super.set_default_colorspaces = dev_set_default_colorspaces;
  d->super.begin_layer = dev_begin_layer;
  d->super.end_layer = dev_end_layer;
  d->super.close_device = dev_close;
  d->text = text;
  d->record = record;
  d->page = page;
  d->images = images;
  d->paths = paths;
  d->clips = clips;
  d->inked = inked;
  d->inked_max = inked_max;
  d->hidden = 0;
  d->failed = 0;
  d->asked = nullptr;
  d->picture = 0;
  return &d->super;
}

// ---- one page ----

struct RawPage {
  HeldStextPage stext;
  fz_rect bounds{};
  int rotation = 0;
  std::vector<Image> images;
  std::vector<VectorPath> paths;
  std::vector<LinkArea> links;
  std::vector<fz_rect> clips;
  std::vector<fz_rect> inked;  // see CollectDevice::inked
  size_t inked_max = 0;
  HeldDisplayList list;             // with `record`: the page as drawn
  bool type3 = false;               // a Type 3 font draws text (its glyphs need the document)
  int failed = 0;
  std::vector<std::string> tex_bitmap_fonts;  // names of the page's TeX bitmap fonts
};

// Whether a page's resources name what figures are drawn with: an image or form XObject
// (an included graphic), a shading or a pattern. Only such pages are recorded for the
// renderer: recording every page of a 2,400-page manual of text costs more than it saves.
// A figure drawn without any is still rendered, from the file.
int may_hold_figure(fz_context* ctx, pdf_page* pp) {
  pdf_obj* res = pdf_page_resources(ctx, pp);
  return pdf_dict_len(ctx, pdf_dict_get(ctx, res, PDF_NAME(XObject))) > 0 ||
         pdf_dict_len(ctx, pdf_dict_get(ctx, res, PDF_NAME(Shading))) > 0 ||
         pdf_dict_len(ctx, pdf_dict_get(ctx, res, PDF_NAME(Pattern))) > 0;
}

// The name (as MuPDF gives it: /Name) of a TeX bitmap font, a Type 3 font with no ToUnicode
// map whose glyph names are /a followed by the code (see tex_encodings.h); null for another
// font. The name points into the font's dictionary, which the document keeps.
const char* tex_bitmap_font_name(fz_context* ctx, pdf_obj* font) {
  if (!pdf_name_eq(ctx, pdf_dict_get(ctx, font, PDF_NAME(Subtype)), PDF_NAME(Type3)) ||
      pdf_dict_get(ctx, font, PDF_NAME(ToUnicode)))
    return nullptr;
  pdf_obj* differences = pdf_dict_get(ctx, pdf_dict_get(ctx, font, PDF_NAME(Encoding)), PDF_NAME(Differences));
  bool coded = false, other = false;
  for (int k = 0, m = pdf_array_len(ctx, differences); k < m && !other; ++k) {
    pdf_obj* item = pdf_array_get(ctx, differences, k);
    if (!pdf_is_name(ctx, item)) continue;  // a code: where the names that follow start
    const char* name = pdf_to_name(ctx, item);
    if (std::strcmp(name, ".notdef") == 0) continue;
    bool digits = name[0] == 'a' && name[1] != 0;
    for (const char* c = name + 1; digits && *c; ++c) digits = *c >= '0' && *c <= '9';
    if (digits) coded = true;
    else other = true;
  }
  if (!coded || other) return nullptr;
  pdf_obj* name = pdf_dict_get(ctx, font, PDF_NAME(Name));
  return pdf_is_name(ctx, name) ? pdf_to_name(ctx, name) : "Unnamed-T3";
}

// The names of the page's TeX bitmap fonts. Throws MuError.
std::vector<std::string> tex_bitmap_fonts(fz_context* ctx, pdf_page* pp) {
  std::vector<std::string> names;
  pdf_obj* fonts = mu_call(ctx, [&] { return pdf_dict_get(ctx, pdf_page_resources(ctx, pp), PDF_NAME(Font)); });
  const int n = mu_call(ctx, [&] { return pdf_dict_len(ctx, fonts); });
  for (int i = 0; i < n; ++i) {
    const char* name = mu_call(ctx, [&] { return tex_bitmap_font_name(ctx, pdf_dict_get_val(ctx, fonts, i)); });
    if (name) names.emplace_back(name);
  }
  return names;
}

// Takes the link annotations out of a page's /Annots (in memory only) before the page is
// loaded, and returns the page's whole /Annots as it was (kept: the caller drops it), or null
// when it has no link. Loading a page resolves each link's destination, a name looked up in
// the document's name tree: a fifth of a page's loading, and 4% of extracting a
// cross-referenced manual (octave.pdf); the links are read afterwards, once, by
// read_link_annots, and only on pages that have them. Other annotations (form fields,
// stamps, notes) stay and are drawn as before.
pdf_obj* drop_link_annots(fz_context* ctx, fz_document* doc, int index) {
  pdf_document* pdf = pdf_specifics(ctx, doc);
  if (!pdf) return nullptr;
  pdf_obj* page = pdf_lookup_page_obj(ctx, pdf, index);
  pdf_obj* annots = pdf_dict_get(ctx, page, PDF_NAME(Annots));
  const int n = pdf_array_len(ctx, annots);
  int links = 0;
  for (int i = 0; i < n; ++i)
    if (pdf_name_eq(ctx, pdf_dict_get(ctx, pdf_array_get(ctx, annots, i), PDF_NAME(Subtype)), PDF_NAME(Link))) ++links;
  if (links == 0) return nullptr;
  pdf_obj* kept = pdf_new_array(ctx, pdf, n - links);
  pdf_obj* original = pdf_keep_obj(ctx, annots);
  fz_try(ctx) {
    for (int i = 0; i < n; ++i) {
      pdf_obj* a = pdf_array_get(ctx, annots, i);
      if (!pdf_name_eq(ctx, pdf_dict_get(ctx, a, PDF_NAME(Subtype)), PDF_NAME(Link))) pdf_array_push(ctx, kept, a);
    }
    pdf_dict_put(ctx, page, PDF_NAME(Annots), kept);
  }
  fz_always(ctx) pdf_drop_obj(ctx, kept);
  fz_catch(ctx) {
    pdf_drop_obj(ctx, original);
    fz_rethrow(ctx);
  }
  return original;
}

// Where an internal link leads: its 1-based page (0 when it cannot be resolved) and y.
void link_target(fz_context* ctx, fz_document* doc, const char* uri, int* page, float* y) {
  *page = 0;
  *y = -1;
  fz_try(ctx) {
    float x = 0, ty = 0;
    fz_location loc = fz_resolve_link(ctx, doc, uri, &x, &ty);
    const int pg = loc.page >= 0 ? fz_page_number_from_location(ctx, doc, loc) : -1;
    *page = pg >= 0 ? pg + 1 : 0;
    *y = ty;
  }
  fz_catch(ctx) *page = 0;
}

// Whether MuPDF warned while `f` ran: a repeat of the last warning only raises its count.
template <class F>
bool warns(fz_context* ctx, F&& f) {
  const int count = ctx->warn.count;
  char message[sizeof ctx->warn.message];
  std::memcpy(message, ctx->warn.message, sizeof message);
  f();
  return ctx->warn.count != count || std::strcmp(message, ctx->warn.message) != 0;
}

// pdf_parse_link_dest's resolve_dest: a name or string is looked up among the named
// destinations, a dictionary gives its /D; an array (or a reference to something else) is
// the destination. Nullptr when there is none.
pdf_obj* resolve_dest(fz_context* ctx, pdf_document* pdf, pdf_obj* dest, int depth = 0) {
  if (depth > 10) return nullptr;
  if (pdf_is_name(ctx, dest) || pdf_is_string(ctx, dest))
    return resolve_dest(ctx, pdf, pdf_lookup_dest(ctx, pdf, dest), depth + 1);
  if (pdf_is_array(ctx, dest)) return dest;
  if (pdf_is_dict(ctx, dest)) return resolve_dest(ctx, pdf, pdf_dict_get(ctx, dest, PDF_NAME(D)), depth + 1);
  if (pdf_is_indirect(ctx, dest)) return dest;
  return nullptr;
}

// Where a link destination leads, read as MuPDF 1.21 reads it (pdf_parse_link_dest makes a
// "#page=" URI of it, pdf_resolve_link_dest reads that back onto the target page, clamped to
// it), with the page-tree walks and transforms kept in `memo`. Throws MuError.
LinkMemo::Target dest_target(fz_context* ctx, pdf_document* pdf, LinkMemo& memo, pdf_obj* dest) {
  pdf_obj* const resolved = mu_call(ctx, [&] { return resolve_dest(ctx, pdf, dest); });
  if (!resolved) {
    fz_warn(ctx, "undefined link destination");
    return {};
  }
  // (A name or string never comes out of resolve_dest: it is looked up, again and again.)
  if (mu_call(ctx, [&] { return pdf_array_len(ctx, resolved); }) < 1) {
    fz_warn(ctx, "invalid link destination");
    return {};
  }
  auto object_number = [&](pdf_obj* o) { return mu_call(ctx, [&] { return pdf_to_num(ctx, o); }); };
  pdf_obj* page_obj = mu_call(ctx, [&] { return pdf_array_get(ctx, resolved, 0); });
  int page_number = 0;
  if (mu_call(ctx, [&] { return pdf_is_int(ctx, page_obj); })) {
    page_number = mu_call(ctx, [&] { return pdf_to_int(ctx, page_obj); });
    page_obj = mu_call(ctx, [&] { return pdf_lookup_page_obj(ctx, pdf, page_number); });
  } else {
    const int num = object_number(page_obj);
    auto it = num > 0 ? memo.page_of_object.find(num) : memo.page_of_object.end();
    if (it != memo.page_of_object.end()) {
      page_number = it->second;
    } else {
      page_number = mu_call(ctx, [&] { return pdf_lookup_page_number(ctx, pdf, page_obj); });
      if (num > 0) memo.page_of_object.emplace(num, page_number);
    }
  }
  fz_link_dest to = fz_make_link_dest_none();
  to.loc.chapter = 0;
  to.loc.page = fz_clampi(page_number, 0, mu_call(ctx, [&] { return pdf_count_pages(ctx, pdf); }) - 1);
  pdf_obj* const type = mu_call(ctx, [&] { return pdf_array_get(ctx, resolved, 1); });
  if (type == PDF_NAME(Fit)) to.type = FZ_LINK_DEST_FIT;
  else if (type == PDF_NAME(FitH)) to.type = FZ_LINK_DEST_FIT_H;
  else if (type == PDF_NAME(FitV)) to.type = FZ_LINK_DEST_FIT_V;
  else if (type == PDF_NAME(FitR)) to.type = FZ_LINK_DEST_FIT_R;
  else if (type == PDF_NAME(FitB)) to.type = FZ_LINK_DEST_FIT_B;
  else if (type == PDF_NAME(FitBH)) to.type = FZ_LINK_DEST_FIT_BH;
  else if (type == PDF_NAME(FitBV)) to.type = FZ_LINK_DEST_FIT_BV;
  else to.type = FZ_LINK_DEST_XYZ;
  pdf_obj* arg[4];
  float v[4];
  for (int i = 0; i < 4; ++i) {
    arg[i] = mu_call(ctx, [&] { return pdf_array_get(ctx, resolved, 2 + i); });
    v[i] = mu_call(ctx, [&] { return pdf_to_real(ctx, arg[i]); });
  }
  fz_matrix ctm;
  const int page_num = object_number(page_obj);
  if (auto it = page_num > 0 ? memo.ctm_of_object.find(page_num) : memo.ctm_of_object.end();
      it != memo.ctm_of_object.end()) {
    ctm = it->second;
  } else {
    ctm = mu_call(ctx, [&] {
      fz_matrix m;
      pdf_page_obj_transform(ctx, page_obj, nullptr, &m);
      return m;
    });
    if (page_num > 0) memo.ctm_of_object.emplace(page_num, ctm);
  }
  switch (to.type) {
    case FZ_LINK_DEST_FIT_H:
    case FZ_LINK_DEST_FIT_BH:
      to.y = arg[0] ? fz_transform_point_xy(0, v[0], ctm).y : NAN;
      break;
    case FZ_LINK_DEST_FIT_V:
    case FZ_LINK_DEST_FIT_BV:
      to.x = arg[0] ? fz_transform_point_xy(v[0], 0, ctm).x : NAN;
      break;
    case FZ_LINK_DEST_XYZ: {
      const fz_point p = fz_transform_point_xy(v[0], v[1], ctm);
      to.x = arg[0] ? p.x : NAN;
      to.y = arg[1] ? p.y : NAN;
      to.zoom = arg[2] ? (v[2] > 0 ? v[2] * 100 : 100) : NAN;
      break;
    }
    case FZ_LINK_DEST_FIT_R: {
      // (MuPDF transforms the rectangle and keeps the untransformed one.)
      to.x = v[0];
      to.y = v[1];
      to.w = v[2] - v[0];
      to.h = v[3] - v[1];
      break;
    }
    default:
      break;
  }
  // The URI and back: its numbers are written and read as MuPDF writes and reads them.
  char* uri = mu_call(ctx, [&] { return pdf_format_link_uri(ctx, to); });
  const fz_link_dest back = mu_call(ctx, [&] {
    fz_link_dest d = fz_make_link_dest_none();
    fz_try(ctx) d = pdf_parse_link_uri(ctx, uri);
    fz_always(ctx) fz_free(ctx, uri);
    fz_catch(ctx) fz_rethrow(ctx);
    return d;
  });
  if (back.loc.page < 0) return {};
  fz_rect box;
  if (auto it = memo.box_of_page.find(back.loc.page); it != memo.box_of_page.end()) {
    box = it->second;
  } else {
    box = mu_call(ctx, [&] {
      fz_rect media;
      fz_matrix m;
      pdf_page_obj_transform(ctx, pdf_lookup_page_obj(ctx, pdf, back.loc.page), &media, &m);
      return fz_transform_rect(media, m);
    });
    memo.box_of_page.emplace(back.loc.page, box);
  }
  return {back.loc.page + 1, fz_clamp(back.y, 0, box.y1 - box.y0)};
}

// A named destination through `memo`: the same name leads to the same place, unless looking
// it up warned (then it is looked up again, and warns again, each time, as MuPDF would).
LinkMemo::Target named_target(fz_context* ctx, pdf_document* pdf, LinkMemo& memo, pdf_obj* dest) {
  std::string key;
  if (mu_call(ctx, [&] { return pdf_is_name(ctx, dest); })) {
    key = "n";
    key += mu_call(ctx, [&] { return pdf_to_name(ctx, dest); });
  } else if (mu_call(ctx, [&] { return pdf_is_string(ctx, dest); })) {
    key = "s";
    const char* bytes = mu_call(ctx, [&] { return pdf_to_str_buf(ctx, dest); });
    key.append(bytes, mu_call(ctx, [&] { return pdf_to_str_len(ctx, dest); }));
  } else {
    return dest_target(ctx, pdf, memo, dest);
  }
  if (auto it = memo.named.find(key); it != memo.named.end()) return it->second;
  if (memo.shared) {
    std::lock_guard lock(memo.shared->mutex);
    if (auto it = memo.shared->named.find(key); it != memo.shared->named.end())
      return memo.named.emplace(std::move(key), it->second).first->second;
  }
  LinkMemo::Target t;
  if (!warns(ctx, [&] { t = dest_target(ctx, pdf, memo, dest); })) {
    if (memo.shared) {
      std::lock_guard lock(memo.shared->mutex);
      memo.shared->named.emplace(key, t);
    }
    memo.named.emplace(std::move(key), t);
  }
  return t;
}

// The link annotations of `annots` (a page's /Annots before drop_link_annots) in the page's
// space: a URI for an external link, a page and y for an internal one. A link whose target
// cannot be found, or whose URI is no web or mail address (a file, a script), is left out,
// as is one MuPDF cannot read. Read as pdf_load_link_annots reads them, with the targets
// through `memo`. Throws MuError.
void read_link_annots(fz_context* ctx, fz_document* doc, pdf_page* pp, pdf_obj* annots, int index, LinkMemo& memo,
                      std::vector<LinkArea>& out) {
  pdf_document* pdf = pdf_specifics(ctx, doc);
  if (!pdf || !pp || !annots) return;
  const fz_matrix page_ctm = mu_call(ctx, [&] {
    fz_matrix ctm;
    pdf_page_transform(ctx, pp, nullptr, &ctm);
    return ctm;
  });
  const int n = mu_call(ctx, [&] { return pdf_array_len(ctx, annots); });
  for (int i = 0; i < n; ++i) {
    try {
      pdf_obj* const dict = mu_call(ctx, [&] { return pdf_array_get(ctx, annots, i); });
      if (!mu_call(ctx, [&] { return pdf_name_eq(ctx, pdf_dict_get(ctx, dict, PDF_NAME(Subtype)), PDF_NAME(Link)); }))
        continue;
      pdf_obj* const rect = mu_call(ctx, [&] { return pdf_dict_get(ctx, dict, PDF_NAME(Rect)); });
      if (!rect) continue;
      const fz_rect bbox = mu_call(ctx, [&] { return fz_transform_rect(pdf_to_rect(ctx, rect), page_ctm); });
      LinkArea a;
      a.bbox = {bbox.x0, bbox.y0, bbox.x1, bbox.y1};
      pdf_obj* const dest = mu_call(ctx, [&] { return pdf_dict_get(ctx, dict, PDF_NAME(Dest)); });
      pdf_obj* action = nullptr;
      if (!dest) {
        action = mu_call(ctx, [&] {
          pdf_obj* act = pdf_dict_get(ctx, dict, PDF_NAME(A));
          // (as MuPDF: else the additional actions' button up or down)
          return act ? act : pdf_dict_geta(ctx, pdf_dict_get(ctx, dict, PDF_NAME(AA)), PDF_NAME(U), PDF_NAME(D));
        });
        if (!action) continue;
      }
      const bool go_to =
          !dest && mu_call(ctx, [&] { return pdf_name_eq(ctx, PDF_NAME(GoTo), pdf_dict_get(ctx, action, PDF_NAME(S))); });
      if (dest || go_to) {
        pdf_obj* const d = dest ? dest : mu_call(ctx, [&] { return pdf_dict_get(ctx, action, PDF_NAME(D)); });
        const LinkMemo::Target t = named_target(ctx, pdf, memo, d);
        if (fz_is_empty_rect(bbox) || t.page <= 0) continue;
        a.page = t.page;
        a.y = t.y;
        out.push_back(std::move(a));
        continue;
      }
      // Any other action (a web address, a file, a named page) as MuPDF makes a URI of it.
      char* const uri = mu_call(ctx, [&] { return pdf_parse_link_action(ctx, pdf, action, index); });
      if (!uri) continue;
      const std::string u = uri;
      fz_free(ctx, uri);
      if (u.empty() || fz_is_empty_rect(bbox)) continue;
      if (fz_is_external_link(ctx, u.c_str())) {
        constexpr std::string_view kSchemes[] = {"http://", "https://", "ftp://", "mailto:", "news:"};
        bool web = false;
        for (auto scheme : kSchemes)
          web = web || (u.size() > scheme.size() &&
                        std::equal(scheme.begin(), scheme.end(), u.begin(),
                                   [](char s, char c) { return s == std::tolower(static_cast<unsigned char>(c)); }));
        if (!web) continue;
        a.uri = u;
      } else {
        float y = -1;
        link_target(ctx, doc, u.c_str(), &a.page, &y);
        if (a.page <= 0) continue;
        a.y = y;
      }
      out.push_back(std::move(a));
    } catch (const MuError&) {
      // (MuPDF leaves out a link it cannot read, and reads the next.)
    }
  }
}

// Runs one page through the devices, and with `record` (and a page that may hold a figure)
// into a display list as well. Returns 0 on failure with the message in err.
int run_page(fz_context* ctx, fz_document* doc, LinkMemo* links, int index, int record, RawPage* raw, fz_cookie* cookie, char* err,
             size_t errsize) {
  fz_page* volatile loaded = nullptr;
  pdf_obj* volatile annots_kept = nullptr;
  volatile int ok = 1;
  fz_try(ctx) {
    annots_kept = drop_link_annots(ctx, doc, index);
    loaded = fz_load_page(ctx, doc, index);
  }
  fz_catch(ctx) {
    ok = 0;
    std::snprintf(err, errsize, "%s", fz_caught_message(ctx));
  }
  // (In this order: the page is dropped before the /Annots it was loaded without.)
  const HeldPdfObject annots(ctx, annots_kept);
  const HeldPage held_page(ctx, loaded);
  if (!ok) return 0;
  fz_page* const page = held_page.get();
  pdf_page* const pp = pdf_page_from_fz_page(ctx, page);
  try {
    raw->bounds = mu_call(ctx, [&] { return fz_bound_page(ctx, page); });
    if (pp)
      raw->rotation = mu_call(ctx, [&] { return pdf_to_int(ctx, pdf_dict_get_inheritable(ctx, pp->obj, PDF_NAME(Rotate))); });
    if (pp) raw->tex_bitmap_fonts = tex_bitmap_fonts(ctx, pp);
    if (annots) read_link_annots(ctx, doc, pp, annots.get(), index, *links, raw->links);
  } catch (const MuError& e) {
    std::snprintf(err, errsize, "%s", e.what());
    return 0;
  }

  const fz_rect b = raw->bounds;
  fz_stext_options opts;
  std::memset(&opts, 0, sizeof opts);
  opts.flags = 0;  // (characters off the page are left out by convert_page)
  std::vector<Image>* const images = &raw->images;
  std::vector<VectorPath>* const paths = &raw->paths;
  std::vector<fz_rect>* const clips = &raw->clips;
  std::vector<fz_rect>* const inked = &raw->inked;
  const size_t inked_max = raw->inked_max;
  fz_stext_page* volatile st = nullptr;
  fz_display_list* volatile list = nullptr;
  fz_device* volatile tdev = nullptr;
  fz_device* volatile ldev = nullptr;
  fz_device* volatile dev = nullptr;
  volatile int failed = 0;
  fz_try(ctx) {
    st = fz_new_stext_page(ctx, b);
    tdev = fz_new_stext_device(ctx, st, &opts);
    if (record && (!pp || may_hold_figure(ctx, pp))) {
      list = fz_new_display_list(ctx, b);
      ldev = fz_new_list_device(ctx, list);
    }
    dev = new_collect_device(ctx, tdev, ldev, b, images, paths, clips, inked, inked_max);
    fz_run_page(ctx, page, dev, fz_identity, cookie);
    fz_close_device(ctx, dev);
    failed = as_collect(dev)->failed;
  }
  fz_always(ctx) {
    fz_drop_device(ctx, dev);
    fz_drop_device(ctx, ldev);
    fz_drop_device(ctx, tdev);
  }
  fz_catch(ctx) {
    ok = 0;
    std::snprintf(err, errsize, "%s", fz_caught_message(ctx));
  }
  HeldStextPage text(ctx, st);
  HeldDisplayList drawn(ctx, list);
  if (!ok) return 0;
  raw->failed = failed;
  raw->stext = std::move(text);
  raw->list = std::move(drawn);
  return ok;
}

int direction_of(const fz_stext_line* line) {
  if (line->wmode) return 2;
  if (std::fabs(line->dir.y) > 0.1) return 2;
  return line->dir.x < 0 ? 1 : 0;
}

// What a span takes from its font. Looked up once per font and page rather than once per
// span: fz_font_name plus the subset-prefix strip is a string copy, and a page of a
// reference manual switches between three or four fonts hundreds of times.
struct FontFacts {
  fz_font* font = nullptr;
  std::string name;
  bool monospace = false, bold = false, italic = false, type3 = false;
  bool picture = false;  // a font of drawing pieces (picture_font)
};

const FontFacts& font_facts(fz_context* ctx, fz_font* font, std::vector<FontFacts>& cache) {
  for (const auto& f : cache)
    if (f.font == font) return f;
  FontFacts f;
  f.font = font;
  f.name = strip_subset_prefix(font ? fz_font_name(ctx, font) : "");
  f.monospace = font && fz_font_is_monospaced(ctx, font);
  f.bold = font && fz_font_is_bold(ctx, font);
  f.italic = font && fz_font_is_italic(ctx, font);
  f.type3 = font && fz_font_t3_procs(ctx, font) != nullptr;
  f.picture = picture_font(f.name);
  cache.push_back(std::move(f));
  return cache.back();
}

// Box::united, inline: the same special case (an all-zero box is "nothing yet") and the
// same min/max order, so the result is bit for bit the one Box::united gives.
void unite(Box& b, const Box& o) {
  if (b.empty() && b.x0 == 0 && b.y0 == 0 && b.x1 == 0 && b.y1 == 0) {
    b = o;
    return;
  }
  b = {std::min(b.x0, o.x0), std::min(b.y0, o.y0), std::max(b.x1, o.x1), std::max(b.y1, o.y1)};
}

// The TeX encoding of a Type 3 font, from all its glyphs on the page (found once per font).
TexEncoding tex_encoding(const fz_stext_page* page, fz_font* font, std::vector<std::pair<fz_font*, TexEncoding>>& known) {
  for (const auto& [f, e] : known)
    if (f == font) return e;
  TexGlyphUse use;
  for (const fz_stext_block* b = page->first_block; b; b = b->next) {
    if (b->type != FZ_STEXT_BLOCK_TEXT) continue;
    for (const fz_stext_line* l = b->u.t.first_line; l; l = l->next)
      for (const fz_stext_char* ch = l->first_char; ch; ch = ch->next)
        if (ch->font == font && ch->c >= 0) use.add(static_cast<char32_t>(ch->c));
  }
  known.emplace_back(font, guess_tex_encoding(use));
  return known.back().second;
}

Page convert_page(fz_context* ctx, int number, RawPage& raw) {
  Page p;
  p.number = number;
  p.width = raw.bounds.x1 - raw.bounds.x0;
  p.height = raw.bounds.y1 - raw.bounds.y0;
  p.rotation = ((raw.rotation % 360) + 360) % 360;
  p.images = std::move(raw.images);
  p.paths = std::move(raw.paths);
  p.links = std::move(raw.links);
  if (!raw.stext) return p;
  // Fonts live as long as the structured-text page that refers to them, so the cache is
  // per page: a pointer may be reused by another font once this page is dropped.
  std::vector<FontFacts> fonts;
  std::vector<std::pair<fz_font*, TexEncoding>> encodings;
  size_t line_count = 0;
  for (const fz_stext_block* b = raw.stext.get()->first_block; b; b = b->next)
    if (b->type == FZ_STEXT_BLOCK_TEXT)
      for (const fz_stext_line* l = b->u.t.first_line; l; l = l->next) ++line_count;
  p.lines.reserve(line_count);
  // The open span's box, text and positions gather here and go to the span, sized to fit,
  // when it closes: its vectors are not grown a character at a time, and its box is not
  // written back through the span after every character.
  Box span_box;
  std::string span_text;
  std::vector<float> span_xs;
  for (fz_stext_block* b = raw.stext.get()->first_block; b; b = b->next) {
    if (b->type != FZ_STEXT_BLOCK_TEXT) continue;
    for (fz_stext_line* l = b->u.t.first_line; l; l = l->next) {
      Line line;
      line.direction = direction_of(l);
      Span* cur = nullptr;
      fz_font* cur_font = nullptr;
      float cur_size = -1;
      int cur_color = -1;
      auto close_span = [&] {
        if (!cur) return;
        cur->bbox = span_box;
        cur->text.assign(span_text);
        cur->xs.assign(span_xs.begin(), span_xs.end());
        span_text.clear();
        span_xs.clear();
      };
      fz_rect kept = fz_empty_rect;  // the line's characters on the page
      fz_font* looked_at = nullptr;  // the last font asked whether it draws pictures
      bool picture = false;
      for (fz_stext_char* ch = l->first_char; ch; ch = ch->next) {
        const fz_rect r = rect_of_quad(ch->quad);
        // A character wholly off the page (its box, not its ink, as MuPDF's mediabox clip
        // would measure at a glyph outline's cost) is not read: text set outside the page
        // is not shown.
        if (r.x1 <= raw.bounds.x0 || r.y1 <= raw.bounds.y0 || r.x0 >= raw.bounds.x1 || r.y0 >= raw.bounds.y1) continue;
        if (ch->font != looked_at) {
          looked_at = ch->font;
          picture = ch->font && font_facts(ctx, ch->font, fonts).picture;
        }
        if (picture) continue;  // drawn: recorded as paths by the collecting device
        kept = union_of_rects(kept, r);
        Box box = to_box(r);
        if (!cur || ch->font != cur_font || std::fabs(ch->size - cur_size) > 0.01f || ch->color != cur_color) {
          close_span();
          line.spans.emplace_back();
          cur = &line.spans.back();
          cur_font = ch->font;
          cur_size = ch->size;
          cur_color = ch->color;
          const FontFacts& f = font_facts(ctx, ch->font, fonts);
          cur->font = f.name;
          cur->size = ch->size;
          cur->color = static_cast<uint32_t>(ch->color) & 0xFFFFFF;
          cur->monospace = f.monospace;
          cur->bold = f.bold;
          cur->italic = f.italic;
          cur->baseline = ch->origin.y;
          span_box = box;
        } else {
          unite(span_box, box);
        }
        const char32_t c = static_cast<char32_t>(ch->c < 0 ? 0xFFFD : ch->c);
        const double x = line.direction == 0 ? ch->origin.x : r.x0;
        // A TeX bitmap font's glyph read as its code: its text in the font's encoding, a
        // ligature's letters sharing its width.
        const TexEncoding encoding =
            is_control_character(c) && ch->font && !raw.tex_bitmap_fonts.empty() && fz_font_t3_procs(ctx, ch->font) &&
                    std::find(raw.tex_bitmap_fonts.begin(), raw.tex_bitmap_fonts.end(), fz_font_name(ctx, ch->font)) !=
                        raw.tex_bitmap_fonts.end()
                ? tex_encoding(raw.stext.get(), ch->font, encodings)
                : TexEncoding::Unknown;
        if (encoding != TexEncoding::Unknown) {
          const std::u32string_view text = tex_glyph_text(encoding, c);
          const double step = (r.x1 - r.x0) / static_cast<double>(std::max<size_t>(1, text.size()));
          for (size_t k = 0; k < text.size(); ++k) {
            append_utf8(span_text, text[k]);
            span_xs.push_back(static_cast<float>(x + step * static_cast<double>(k)));
            cur->last_advance = static_cast<float>(step);
          }
          continue;
        }
        append_utf8(span_text, c);
        span_xs.push_back(static_cast<float>(x));
        cur->last_advance = r.x1 - r.x0;
      }
      close_span();
      line.bbox = to_box(kept);
      if (!line.spans.empty()) p.lines.push_back(std::move(line));
    }
  }
  for (const auto& f : fonts) raw.type3 = raw.type3 || f.type3;
  return p;
}

// ---- document-level information ----

std::string lookup_meta(fz_context* ctx, fz_document* doc, const char* key) {
  char buf[1024];
  buf[0] = 0;
  volatile int n = -1;
  fz_try(ctx) n = fz_lookup_metadata(ctx, doc, key, buf, sizeof buf);
  fz_catch(ctx) n = -1;
  return n > 0 ? std::string(buf) : std::string();
}

// The 0-based page an outline entry points at, -1 when it cannot be resolved. Kept apart so
// that no C++ object lives in the frame that fz_try's setjmp saves.
int outline_target(fz_context* ctx, fz_document* doc, fz_location loc) {
  volatile int pg = -1;
  fz_try(ctx) pg = fz_page_number_from_location(ctx, doc, loc);
  fz_catch(ctx) pg = -1;
  return pg;
}

// The outline, walked with MuPDF's outline iterator. Entries deeper than kMaxOutlineDepth
// levels or past the first kMaxOutlineEntries met are left out: a hostile outline (cycles repaired
// into huge trees) stays finite. An entry that cannot be read is left out; an outline whose
// walk fails is none at all. (fz_load_outline of MuPDF 1.21 builds a tree with the same
// iterator, and when one entry fails it gives no outline and loses what it has built: a leak
// on every such book. This walk builds nothing of MuPDF's.)
constexpr int kMaxOutlineDepth = 32;
constexpr size_t kMaxOutlineEntries = 100000;

// One entry of the outline, where the iterator stands; false when it stands on none.
bool read_outline_entry(fz_context* ctx, fz_document* doc, fz_outline_iterator* it, int level,
                        std::vector<OutlineEntry>& out) {
  // An entry MuPDF cannot read (its destination a page that its parent does not list, say)
  // is left out, with a warning; the entries below it are still read, one level down.
  const fz_outline_item* item = nullptr;
  try {
    item = mu_call(ctx, [&] { return fz_outline_iterator_item(ctx, it); });
  } catch (const MuError& error) {
    fz_warn(ctx, "outline entry left out: %s", error.what());
    return true;
  }
  if (!item) return false;
  OutlineEntry e;
  e.title = item->title ? normalize_text(item->title) : "";
  e.level = level;
  // An entry without a destination points nowhere (MuPDF resolves it to the first page), as
  // does one whose destination cannot be resolved.
  int pg = -1;
  float x = 0, y = 0;
  if (item->uri) {
    try {
      const fz_location loc = mu_call(ctx, [&] { return fz_resolve_link(ctx, doc, item->uri, &x, &y); });
      pg = outline_target(ctx, doc, loc);
    } catch (const MuError&) {
      pg = -1;
    }
  }
  e.page = pg >= 0 ? pg + 1 : 0;
  e.y = e.page ? y : -1;
  out.push_back(std::move(e));
  return true;
}

// `visited`: the entries met so far, read or left out.
void walk_outline(fz_context* ctx, fz_document* doc, fz_outline_iterator* it, int level,
                  std::vector<OutlineEntry>& out, size_t& visited) {
  while (visited++ < kMaxOutlineEntries) {
    if (!read_outline_entry(ctx, doc, it, level, out)) return;
    if (level < kMaxOutlineDepth) {
      // (0: on the entry's first child; 1: below it, where a child would go; -1: not moved.)
      const int down = mu_call(ctx, [&] { return fz_outline_iterator_down(ctx, it); });
      if (down == 0) walk_outline(ctx, doc, it, level + 1, out, visited);
      if (down >= 0) mu_call(ctx, [&] { return fz_outline_iterator_up(ctx, it); });
    }
    if (mu_call(ctx, [&] { return fz_outline_iterator_next(ctx, it); }) != 0) return;
  }
}

std::vector<OutlineEntry> load_outline(fz_context* ctx, fz_document* doc) {
  std::vector<OutlineEntry> out;
  try {
    const HeldOutlineIterator it(ctx, mu_call(ctx, [&] { return fz_new_outline_iterator(ctx, doc); }));
    size_t visited = 0;
    if (it) walk_outline(ctx, doc, it.get(), 1, out, visited);
  } catch (const MuError&) {
    out.clear();
  }
  return out;
}

// ---- page labels (/PageLabels number tree; MuPDF 1.21 has no API for them) ----

struct LabelRange {
  int start = 0;
  char style = 0;  // D R r A a, or 0 for prefix only
  std::string prefix;
  int first = 1;
};

// One range of a /Nums array as MuPDF gives it. The strings point into the range's
// dictionary, which the document keeps.
struct RawLabelRange {
  int start = 0;
  const char* style = nullptr;
  const char* prefix = nullptr;
  int has_first = 0, first = 0;
};

RawLabelRange read_label_range(fz_context* ctx, pdf_obj* nums, int i) {
  RawLabelRange r;
  r.start = pdf_to_int(ctx, pdf_array_get(ctx, nums, i));
  pdf_obj* d = pdf_array_get(ctx, nums, i + 1);
  pdf_obj* s = pdf_dict_get(ctx, d, PDF_NAME(S));
  if (pdf_is_name(ctx, s)) r.style = pdf_to_name(ctx, s);
  pdf_obj* p = pdf_dict_get(ctx, d, PDF_NAME(P));
  if (pdf_is_string(ctx, p)) r.prefix = pdf_to_text_string(ctx, p);
  pdf_obj* st = pdf_dict_gets(ctx, d, "St");
  r.has_first = pdf_is_int(ctx, st);
  if (r.has_first) r.first = pdf_to_int(ctx, st);
  return r;
}

// Throws MuError.
void collect_label_ranges(fz_context* ctx, pdf_obj* node, std::vector<LabelRange>& out, int depth) {
  if (!node || depth > 16) return;
  pdf_obj* nums = mu_call(ctx, [&] { return pdf_dict_get(ctx, node, PDF_NAME(Nums)); });
  const int n = mu_call(ctx, [&] { return pdf_array_len(ctx, nums); });
  for (int i = 0; i + 1 < n; i += 2) {
    const RawLabelRange raw = mu_call(ctx, [&] { return read_label_range(ctx, nums, i); });
    LabelRange r;
    r.start = raw.start;
    if (raw.style) r.style = raw.style[0];
    if (raw.prefix) r.prefix = raw.prefix;
    if (raw.has_first) r.first = raw.first;
    out.push_back(r);
  }
  pdf_obj* kids = mu_call(ctx, [&] { return pdf_dict_get(ctx, node, PDF_NAME(Kids)); });
  const int k = mu_call(ctx, [&] { return pdf_array_len(ctx, kids); });
  for (int i = 0; i < k && i < 4096; ++i)
    collect_label_ranges(ctx, mu_call(ctx, [&] { return pdf_array_get(ctx, kids, i); }), out, depth + 1);
}

std::string roman(int v, bool upper) {
  if (v <= 0 || v >= 4000) return std::to_string(v);
  static const std::pair<int, const char*> table[] = {{1000, "m"}, {900, "cm"}, {500, "d"}, {400, "cd"},
                                                      {100, "c"},  {90, "xc"},  {50, "l"},  {40, "xl"},
                                                      {10, "x"},   {9, "ix"},   {5, "v"},   {4, "iv"},
                                                      {1, "i"}};
  std::string s;
  for (auto [n, t] : table)
    while (v >= n) { s += t; v -= n; }
  if (upper) for (auto& c : s) c = static_cast<char>(c - 'a' + 'A');
  return s;
}

std::string letters(int v, bool upper) {
  if (v <= 0) return std::to_string(v);
  char c = static_cast<char>((upper ? 'A' : 'a') + (v - 1) % 26);
  return std::string(static_cast<size_t>((v - 1) / 26 + 1), c);
}

std::vector<std::string> load_page_labels(fz_context* ctx, fz_document* doc, int page_count) {
  std::vector<std::string> labels;
  pdf_document* pdf = pdf_specifics(ctx, doc);
  if (!pdf) return labels;
  std::vector<LabelRange> ranges;
  try {
    pdf_obj* tree = mu_call(ctx, [&] {
      return pdf_dict_gets(ctx, pdf_dict_get(ctx, pdf_trailer(ctx, pdf), PDF_NAME(Root)), "PageLabels");
    });
    collect_label_ranges(ctx, tree, ranges, 0);
  } catch (const MuError&) {
    ranges.clear();
  }
  if (ranges.empty()) return labels;
  std::stable_sort(ranges.begin(), ranges.end(), [](auto& a, auto& b) { return a.start < b.start; });
  labels.resize(static_cast<size_t>(page_count));
  size_t r = 0;
  for (int i = 0; i < page_count; ++i) {
    while (r + 1 < ranges.size() && ranges[r + 1].start <= i) ++r;
    const LabelRange& lr = ranges[r];
    if (lr.start > i) continue;
    int v = lr.first + (i - lr.start);
    std::string s = lr.prefix;
    switch (lr.style) {
      case 'D': s += std::to_string(v); break;
      case 'R': s += roman(v, true); break;
      case 'r': s += roman(v, false); break;
      case 'A': s += letters(v, true); break;
      case 'a': s += letters(v, false); break;
      default: break;
    }
    labels[static_cast<size_t>(i)] = s;
  }
  return labels;
}

// ---- a worker: its own context and document ----

void warning_sink(void* user, const char* message) {
  // MuPDF counts a warning met again ("... repeated 3 times..."), and says the count when
  // another warning comes or the context goes: how the pages fell to the workers, not the
  // book. The warning itself is kept once.
  if (std::strncmp(message, "... repeated ", 13) == 0) return;
  auto* w = static_cast<MuContext*>(user);
  std::lock_guard lock(w->mutex);
  if (w->warnings.size() < 50 &&
      std::find(w->warnings.begin(), w->warnings.end(), message) == w->warnings.end())
    w->warnings.emplace_back(message);
}

void error_sink(void*, const char*) {}  // errors are reported through fz_catch

// Allocation with a size header (16 bytes keeps malloc's alignment) so that frees can be
// counted; over the budget an allocation fails, MuPDF evicts its store and retries, and
// finally throws, which fails the page alone.
constexpr size_t kHeader = 16;

void* budget_malloc(void* user, size_t size) {
  auto* b = static_cast<MemoryBudget*>(user);
  if (b->limit && b->live + size > b->limit) return nullptr;
  auto* base = static_cast<char*>(std::malloc(size + kHeader));
  if (!base) return nullptr;
  *reinterpret_cast<size_t*>(base) = size;
  b->live += size;
  return base + kHeader;
}

void* budget_realloc(void* user, void* old, size_t size) {
  if (!old) return budget_malloc(user, size);
  auto* b = static_cast<MemoryBudget*>(user);
  char* base = static_cast<char*>(old) - kHeader;
  size_t old_size = *reinterpret_cast<size_t*>(base);
  if (b->limit && size > old_size && b->live + (size - old_size) > b->limit) return nullptr;
  auto* grown = static_cast<char*>(std::realloc(base, size + kHeader));
  if (!grown) return nullptr;
  *reinterpret_cast<size_t*>(grown) = size;
  b->live = b->live - old_size + size;
  return grown + kHeader;
}

void budget_free(void* user, void* ptr) {
  if (!ptr) return;
  auto* b = static_cast<MemoryBudget*>(user);
  char* base = static_cast<char*>(ptr) - kHeader;
  b->live -= *reinterpret_cast<size_t*>(base);
  std::free(base);
}

// Watches the pages in progress and aborts (through MuPDF's cookie) those over the time limit.
class Watchdog {
 public:
  Watchdog(double seconds, size_t slots) : limit_(seconds), slots_(slots) {
    if (limit_ > 0) thread_ = std::thread([this] { run(); });
  }
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  void start(size_t slot, fz_cookie* cookie) {
    std::lock_guard lock(mutex_);
    slots_[slot] = {cookie, std::chrono::steady_clock::now()};
  }
  void stop(size_t slot) {
    std::lock_guard lock(mutex_);
    slots_[slot].cookie = nullptr;
  }

 private:
  struct Slot {
    fz_cookie* cookie = nullptr;
    std::chrono::steady_clock::time_point started;
  };
  void run() {
    std::unique_lock lock(mutex_);
    while (!done_) {
      cv_.wait_for(lock, std::chrono::milliseconds(20));
      auto now = std::chrono::steady_clock::now();
      for (auto& s : slots_)
        if (s.cookie && std::chrono::duration<double>(now - s.started).count() > limit_) s.cookie->abort = 1;
    }
  }
  double limit_;
  std::vector<Slot> slots_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace

MuContext::MuContext() {
  fz_alloc_context alloc = {&budget, budget_malloc, budget_realloc, budget_free};
  context = HeldContext(fz_new_context(&alloc, nullptr, FZ_STORE_DEFAULT));
  fz_context* c = ctx();
  if (!c) throw Error(ExitCode::Internal, "", 0, "cannot create a MuPDF context");
  fz_set_warning_callback(c, warning_sink, this);
  fz_set_error_callback(c, error_sink, this);
  fz_try(c) fz_register_document_handlers(c);
  fz_catch(c) {}
}

MuContext::~MuContext() { close(); }

void MuContext::close() {
  document.reset();
  context.reset();
}

void MuContext::open(const std::string& path, const std::string& password) {
  fz_context* c = ctx();
  char err[512] = "";
  fz_document* volatile d = nullptr;
  volatile int failed = 0;
  fz_try(c) d = fz_open_document(c, path.c_str());
  fz_catch(c) {
    failed = 1;
    std::snprintf(err, sizeof err, "%s", fz_caught_message(c));
  }
  document = HeldDocument(c, d);
  if (failed || !d) throw Error(ExitCode::NotPdf, path, 0, std::string("cannot open PDF: ") + err);
  if (fz_needs_password(c, d)) {
    if (password.empty())
      throw Error(ExitCode::Encrypted, path, 0, "encrypted: a password is needed (--password)");
    if (!fz_authenticate_password(c, d, password.c_str()))
      throw Error(ExitCode::Encrypted, path, 0, "encrypted: the password is wrong");
  }
  volatile int n = -1;
  fz_try(c) n = fz_count_pages(c, d);
  fz_catch(c) {
    n = -1;
    std::snprintf(err, sizeof err, "%s", fz_caught_message(c));
  }
  if (n < 0) throw Error(ExitCode::NotPdf, path, 0, std::string("cannot read the page tree: ") + err);
  if (n == 0) throw Error(ExitCode::NotPdf, path, 0, "the PDF has no pages");
  page_count = n;
}

// Title, author, outline and page labels: what the document says about itself.
void read_document_level(MuContext& mu, Document& doc, std::vector<std::string>& labels) {
  doc.metadata.title = normalize_text(lookup_meta(mu.ctx(), mu.doc(), FZ_META_INFO_TITLE));
  doc.metadata.author = normalize_text(lookup_meta(mu.ctx(), mu.doc(), FZ_META_INFO_AUTHOR));
  doc.metadata.subject = normalize_text(lookup_meta(mu.ctx(), mu.doc(), FZ_META_INFO_SUBJECT));
  doc.metadata.creator = normalize_text(lookup_meta(mu.ctx(), mu.doc(), FZ_META_INFO_CREATOR));
  doc.metadata.producer = normalize_text(lookup_meta(mu.ctx(), mu.doc(), FZ_META_INFO_PRODUCER));
  doc.outline = load_outline(mu.ctx(), mu.doc());
  labels = load_page_labels(mu.ctx(), mu.doc(), mu.page_count);
}

// Which pages are kept drawn for the figure renderer. A page that may hold a figure (an
// image, or more than a few vector paths: rules and boxes alone come to fewer) keeps its
// display list while the lists so far, in page order, fit the budget. The order makes the
// choice independent of thread timing; the figures are the same either way.
//
// A kept list outlives its document (closed as soon as its worker is done, which frees most
// of the context's memory): a list holds its own paths, images and fonts, but Type 3 glyphs
// are drawn by the document's content streams, so a page with Type 3 text is not kept.
namespace {

class Keeper {
 public:
  static constexpr size_t kBudget = size_t{64} << 20;  // bytes, by the estimate below
  static constexpr size_t kMinPaths = 8;

  Keeper(int count, int workers)
      : pages_(static_cast<size_t>(count)), done_(static_cast<size_t>(count), 0),
        to_drop_(static_cast<size_t>(workers)), live_(static_cast<size_t>(workers), 0) {}

  static bool wanted(const Page& p) { return !p.images.empty() || p.paths.size() >= kMinPaths; }

  // What a page's list takes, roughly: its paths, glyphs and images are what it holds.
  static size_t cost(const Page& p) {
    size_t glyphs = 0;
    for (const auto& l : p.lines)
      for (const auto& s : l.spans) glyphs += s.text.size();
    return 4096 + 128 * p.paths.size() + 48 * glyphs + 512 * p.images.size();
  }

  // Page k is done on `worker`; `list` (may be null) is its drawing. Lists of this worker
  // that the budget turned out not to fit come back in `drop`, for the worker to free with
  // its own context.
  void done(int k, int worker, fz_display_list* list, size_t cost, std::vector<fz_display_list*>& drop) {
    std::lock_guard lock(mutex_);
    pages_[static_cast<size_t>(k)] = {list, worker, cost};
    if (list) ++live_[static_cast<size_t>(worker)];
    done_[static_cast<size_t>(k)] = 1;
    while (cursor_ < pages_.size() && done_[cursor_]) {
      Kept& p = pages_[cursor_++];
      if (!p.list) continue;
      if (spent_ + p.cost <= kBudget) {
        spent_ += p.cost;
        continue;
      }
      to_drop_[static_cast<size_t>(p.worker)].push_back(p.list);
      --live_[static_cast<size_t>(p.worker)];
      p.list = nullptr;
    }
    drop.swap(to_drop_[static_cast<size_t>(worker)]);
  }

  // Lists of `worker` still to free, and whether it still owns kept ones.
  bool release(int worker, std::vector<fz_display_list*>& drop) {
    std::lock_guard lock(mutex_);
    drop.swap(to_drop_[static_cast<size_t>(worker)]);
    return live_[static_cast<size_t>(worker)] > 0;
  }

  // Every list of `worker`, kept or waiting to be freed, taken out of the keeper (a failure:
  // the worker frees them with its context).
  void take_all(int worker, std::vector<fz_display_list*>& out) {
    std::lock_guard lock(mutex_);
    for (auto& p : pages_)
      if (p.list && p.worker == worker) {
        out.push_back(p.list);
        p.list = nullptr;
      }
    auto& pending = to_drop_[static_cast<size_t>(worker)];
    out.insert(out.end(), pending.begin(), pending.end());
    pending.clear();
    live_[static_cast<size_t>(worker)] = 0;
  }

  // After every worker is done: the kept list of page slot k and its worker.
  fz_display_list* list(int k, int* worker) const {
    *worker = pages_[static_cast<size_t>(k)].worker;
    return pages_[static_cast<size_t>(k)].list;
  }

 private:
  struct Kept {
    fz_display_list* list = nullptr;
    int worker = 0;
    size_t cost = 0;
  };
  std::mutex mutex_;
  std::vector<Kept> pages_;
  std::vector<char> done_;
  size_t cursor_ = 0, spent_ = 0;
  std::vector<std::vector<fz_display_list*>> to_drop_;
  std::vector<int> live_;
};

void drop_lists(fz_context* ctx, std::vector<fz_display_list*>& lists) {
  for (auto* l : lists) fz_drop_display_list(ctx, l);
  lists.clear();
}

void free_all(Keeper& keeper, int worker, MuContext& mu) {
  std::vector<fz_display_list*> lists;
  keeper.take_all(worker, lists);
  drop_lists(mu.ctx(), lists);
}

// A context whose page loop is over but that owns kept lists: its document and what it
// cached while reading (objects, fonts and images no list holds) are freed.
void keep_lists_only(MuContext& mu) {
  mu.document.reset();
  fz_empty_store(mu.ctx());
}

}  // namespace

Document extract_mupdf(const std::string& path, const ExtractOptions& options, std::vector<char>* needs_ocr,
                       std::shared_ptr<PageDrawings>* drawings) {
  if (drawings) drawings->reset();
  auto main = std::make_unique<MuContext>();
  main->open(path, options.password);
  Document doc;
  doc.file = base_name(path);
  doc.engine = "mupdf";
  doc.page_count = main->page_count;
  const auto range = page_range(path, options, main->page_count);
  const int first = range.first, last = range.second;
  std::vector<std::string> labels;

  const int count = last - first + 1;
  if (options.on_open) options.on_open(count);
  doc.pages.resize(static_cast<size_t>(count));
  doc.spill = make_spill(path, static_cast<size_t>(count), options);
  if (needs_ocr) needs_ocr->assign(static_cast<size_t>(count), 0);
  const int jobs = std::max(1, std::min(options.jobs, count));
  std::atomic<int> next{0};
  LinkMemo::Shared shared_targets;
  if (jobs > 1) main->links.shared = &shared_targets;
  std::vector<Diagnostic> worker_warnings;
  std::mutex warn_mutex;
  Keeper keeper(count, jobs);
  // Worker contexts that still own kept drawings when their page loop ends.
  std::vector<std::unique_ptr<MuContext>> owners(static_cast<size_t>(jobs));

  Watchdog watchdog(options.page_timeout, static_cast<size_t>(jobs));
  const size_t budget_bytes = static_cast<size_t>(options.page_memory_mb * 1024 * 1024);
  auto read_page = [&](MuContext* w, size_t slot, int k) {
    std::vector<fz_display_list*> drop;
    {
      int index = first - 1 + k;
      RawPage raw;
      raw.inked_max = options.paper_paint_max_inked;
      char err[512] = "";
      fz_cookie cookie;
      std::memset(&cookie, 0, sizeof cookie);
      // The budget counts from what the document itself holds when the page starts.
      w->budget.limit = budget_bytes ? w->budget.live + budget_bytes : 0;
      watchdog.start(slot, &cookie);
      auto started = std::chrono::steady_clock::now();
      int ok = run_page(w->ctx(), w->doc(), &w->links, index, drawings != nullptr, &raw, &cookie, err, sizeof err);
      watchdog.stop(slot);
      w->budget.limit = 0;
      // The watchdog wakes every few milliseconds; a page that finished over the limit
      // between two looks is over it all the same.
      if (options.page_timeout > 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() > options.page_timeout)
        cookie.abort = 1;
      const char* code = "page-unreadable";
      if (cookie.abort) {
        ok = 0;
        code = "page-timeout";
        std::snprintf(err, sizeof err, "skipped: over the %g s page time limit", options.page_timeout);
        raw = RawPage{};
      } else if (!ok && budget_bytes && (std::strstr(err, "alloc") || std::strstr(err, "out of memory"))) {
        code = "page-over-memory";
        std::snprintf(err, sizeof err, "skipped: over the %g MiB page memory budget", options.page_memory_mb);
      }
      HeldDisplayList list = std::move(raw.list);
      Page p = convert_page(w->ctx(), index + 1, raw);
      raw.stext.reset();
      if (!ok) {
        p.lines.clear();
        p.images.clear();
        p.paths.clear();
        p.errors.push_back(std::string("cannot read page: ") + err);
        std::lock_guard lock(warn_mutex);
        worker_warnings.push_back(Diagnostic::at("extract", code, doc.file, index + 1, p.errors.back()));
      } else if (raw.failed) {
        p.errors.push_back("out of memory while recording images and paths");
      }
      if (list && (!ok || raw.failed || raw.type3 || !Keeper::wanted(p))) list.reset();
      const size_t cost = list ? Keeper::cost(p) : 0;
      keeper.done(k, static_cast<int>(slot), list.release(), cost, drop);
      drop_lists(w->ctx(), drop);
      // The OCR check reads every character: here it runs on the page workers while the
      // page is still in cache, not in one pass over the whole book afterwards.
      if (needs_ocr) (*needs_ocr)[static_cast<size_t>(k)] = page_needs_ocr(p, options) ? 1 : 0;
      doc.pages[static_cast<size_t>(k)] = std::move(p);
      if (doc.spill) doc.spill->settle(static_cast<size_t>(k), doc.pages[static_cast<size_t>(k)]);
      if (options.on_page) options.on_page(index + 1);
    }
  };
  // The calling thread reads pages until none is left; a helper reads one page at a time
  // while it holds a lane, and opens its document only once it has one.
  auto work = [&](MuContext* w, size_t slot) {
    for (int k = next++; k < count; k = next++) read_page(w, slot, k);
    Lanes::shared().wake();
  };
  auto help = [&](std::unique_ptr<MuContext>& w, size_t slot) {
    for (;;) {
      Lanes::Lane lane(Lanes::shared(), [&] { return next.load() >= count; });
      if (!lane) return;
      const int k = next++;
      if (k >= count) return;
      if (!w) {
        w = std::make_unique<MuContext>();
        w->open(path, options.password);
        w->links.shared = &shared_targets;
      }
      read_page(w.get(), slot, k);
    }
  };

  if (jobs == 1) {
    try {
      read_document_level(*main, doc, labels);
      work(main.get(), 0);
    } catch (...) {
      free_all(keeper, 0, *main);
      throw;
    }
  } else {
    // Each worker opens the document and is torn down on its own thread; the main thread
    // reads the outline and labels meanwhile and then joins the page loop, so little of
    // the document-level work stays serial.
    std::vector<std::vector<std::string>> mupdf_warnings(static_cast<size_t>(jobs));
    std::vector<std::exception_ptr> failures(static_cast<size_t>(jobs));
    std::vector<std::thread> threads;
    for (int i = 1; i < jobs; ++i)
      threads.emplace_back([&, i] {
        const auto slot = static_cast<size_t>(i);
        std::unique_ptr<MuContext> w;
        try {
          help(w, slot);
          if (!w) return;  // never had a lane: no page read, nothing kept
          {
            std::lock_guard lock(w->mutex);
            mupdf_warnings[slot] = std::move(w->warnings);
          }
          std::vector<fz_display_list*> drop;
          bool owns = keeper.release(i, drop);
          drop_lists(w->ctx(), drop);
          if (owns) {
            keep_lists_only(*w);
            owners[slot] = std::move(w);
          }
        } catch (...) {
          failures[slot] = std::current_exception();
          if (w && w->ctx()) free_all(keeper, i, *w);
        }
      });
    try {
      read_document_level(*main, doc, labels);
      work(main.get(), 0);
    } catch (...) {
      failures[0] = std::current_exception();  // rethrown once the workers are joined
      next = count;
      Lanes::shared().wake();
    }
    // Freeing a document's objects takes a while on a large book: the main thread frees
    // its own while the workers finish and free theirs, not after them.
    std::vector<fz_display_list*> drop;
    bool owns = keeper.release(0, drop);
    drop_lists(main->ctx(), drop);
    if (owns) keep_lists_only(*main);
    else main->close();
    for (auto& t : threads) t.join();
    for (auto& f : failures) {
      if (!f) continue;
      // The kept lists go with the error, each freed by the context that made it.
      if (main->ctx()) free_all(keeper, 0, *main);
      for (int worker = 1; worker < jobs; ++worker)
        if (owners[static_cast<size_t>(worker)]) free_all(keeper, worker, *owners[static_cast<size_t>(worker)]);
      std::rethrow_exception(f);
    }
    for (auto& ws : mupdf_warnings)
      for (auto& m : ws) main->warnings.push_back(m);
  }
  for (int k = 0; k < count; ++k) {
    const size_t index = static_cast<size_t>(first - 1 + k);
    if (index < labels.size()) doc.pages[static_cast<size_t>(k)].label = labels[index];
  }
  // Warnings in a fixed order whatever the thread timing: by their lines (page 10 before
  // page 2), the order book.json has always listed them in.
  std::ranges::sort(worker_warnings, {}, &Diagnostic::text);
  std::sort(main->warnings.begin(), main->warnings.end());
  main->warnings.erase(std::unique(main->warnings.begin(), main->warnings.end()), main->warnings.end());
  for (auto& m : main->warnings) doc.warnings.push_back(Diagnostic::at("extract", "engine-repair", doc.file, 0, m));
  for (auto& m : worker_warnings) doc.warnings.push_back(m);

  // The kept drawings move, with the contexts that own them, to the caller. All workers
  // are joined: what the budget dropped late is freed here, each with its own context.
  if (jobs == 1) {
    std::vector<fz_display_list*> drop;
    bool owns = keeper.release(0, drop);
    drop_lists(main->ctx(), drop);
    if (owns) keep_lists_only(*main);
  }
  if (main->ctx()) owners[0] = std::move(main);
  auto impl = std::make_unique<PageDrawings::Impl>();
  std::vector<PageDrawings::Impl::Owner*> by_worker(owners.size(), nullptr);
  for (size_t i = 0; i < owners.size(); ++i) {
    if (!owners[i]) continue;
    owners[i]->links.shared = nullptr;  // (the shared targets end here; a kept context reads no more links)
    std::vector<fz_display_list*> drop;
    bool owns = keeper.release(static_cast<int>(i), drop);
    drop_lists(owners[i]->ctx(), drop);
    if (!owns) continue;  // freed as `owners` goes out of scope
    auto owner = std::make_unique<PageDrawings::Impl::Owner>();
    owner->mu = std::move(owners[i]);
    by_worker[i] = owner.get();
    impl->owners.push_back(std::move(owner));
  }
  for (int k = 0; k < count; ++k) {
    int worker = 0;
    if (fz_display_list* list = keeper.list(k, &worker)) {
      PageDrawings::Impl::Owner* owner = by_worker[static_cast<size_t>(worker)];
      impl->pages[first + k] = {HeldDisplayList(owner->mu->ctx(), list), owner};
    }
  }
  if (drawings && !impl->pages.empty()) *drawings = std::make_shared<PageDrawings>(std::move(impl));
  return doc;
}

}  // namespace quire::detail
