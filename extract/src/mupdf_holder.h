// Private to extract/: ownership of MuPDF objects on the C++ side of fz_try.
//
// MuPDF reports errors with setjmp/longjmp (fz_try/fz_catch), which skips C++ destructors, and
// C++ code after a MuPDF call may throw (std::bad_alloc from a vector). So the two are kept
// apart: an fz_try body only calls MuPDF and stores raw pointers in volatile locals, which the
// code after the block hands to a Held; from then on a Held frees the object, whatever is
// thrown later.
#pragma once

#include <utility>

extern "C" {
#include <mupdf/fitz.h>
#include <mupdf/pdf.h>
}

namespace quire::detail {

// One reference to a MuPDF object, dropped with `Drop` and the context it was made in. Move
// only. The context must outlive the holder: a holder is declared after what owns its context.
template <class T, void (*Drop)(fz_context*, T*)>
class Held {
 public:
  Held() = default;
  Held(fz_context* ctx, T* object) noexcept : ctx_(ctx), object_(object) {}
  Held(Held&& o) noexcept : ctx_(o.ctx_), object_(std::exchange(o.object_, nullptr)) {}
  Held& operator=(Held&& o) noexcept {
    if (this != &o) {
      reset();
      ctx_ = o.ctx_;
      object_ = std::exchange(o.object_, nullptr);
    }
    return *this;
  }
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;
  ~Held() { reset(); }

  T* get() const noexcept { return object_; }
  explicit operator bool() const noexcept { return object_ != nullptr; }
  // Gives the reference up to a caller that frees it another way (the display-list keeper,
  // which frees each list on the thread of its context).
  T* release() noexcept { return std::exchange(object_, nullptr); }
  // MuPDF's drop functions throw nothing (they are what fz_always blocks call).
  void reset() noexcept {
    if (object_) Drop(ctx_, std::exchange(object_, nullptr));
  }

 private:
  fz_context* ctx_ = nullptr;
  T* object_ = nullptr;
};

using HeldDocument = Held<fz_document, fz_drop_document>;
using HeldPage = Held<fz_page, fz_drop_page>;
using HeldStextPage = Held<fz_stext_page, fz_drop_stext_page>;
using HeldDisplayList = Held<fz_display_list, fz_drop_display_list>;
using HeldPixmap = Held<fz_pixmap, fz_drop_pixmap>;
using HeldOutlineIterator = Held<fz_outline_iterator, fz_drop_outline_iterator>;
using HeldPdfObject = Held<pdf_obj, pdf_drop_obj>;

// The context itself, the one object dropped without another context.
class HeldContext {
 public:
  HeldContext() = default;
  explicit HeldContext(fz_context* ctx) noexcept : ctx_(ctx) {}
  HeldContext(HeldContext&& o) noexcept : ctx_(std::exchange(o.ctx_, nullptr)) {}
  HeldContext& operator=(HeldContext&& o) noexcept {
    if (this != &o) {
      reset();
      ctx_ = std::exchange(o.ctx_, nullptr);
    }
    return *this;
  }
  HeldContext(const HeldContext&) = delete;
  HeldContext& operator=(const HeldContext&) = delete;
  ~HeldContext() { reset(); }

  fz_context* get() const noexcept { return ctx_; }
  explicit operator bool() const noexcept { return ctx_ != nullptr; }
  void reset() noexcept {
    if (ctx_) fz_drop_context(std::exchange(ctx_, nullptr));
  }

 private:
  fz_context* ctx_ = nullptr;
};

}  // namespace quire::detail
