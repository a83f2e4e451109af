// The Poppler module, quire-poppler.so: poppler-cpp behind PopplerFile (poppler_source.h).
// Loaded by poppler_engine.cpp when the Poppler engine is asked for (--engine poppler, the
// cross-check, or a file MuPDF cannot open), so that Poppler's libraries are mapped only in
// the processes that use them.
//
// Only header code of the model is used here (Box): the module links Poppler and nothing of
// quire's, and no exception leaves it.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-page.h>
#include <poppler/cpp/poppler-toc.h>

#include "poppler_source.h"

namespace quire::detail {

namespace {

// Poppler reports syntax errors and repairs on stderr through this hook; the MuPDF engine is
// the one whose warnings we relay, so Poppler's are dropped.
void silence(const std::string&, void*) {}

void silence_poppler_once() {
  static std::once_flag once;
  std::call_once(once, [] { poppler::set_debug_error_function(silence, nullptr); });
}

std::string utf8(const poppler::ustring& s) {
  poppler::byte_array bytes = s.to_utf8();
  return std::string(bytes.begin(), bytes.end());
}

Box to_box(const poppler::rectf& r) { return {r.left(), r.top(), r.right(), r.bottom()}; }

size_t code_points(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

PopplerWord word_of(const poppler::text_box& tb) {
  PopplerWord w;
  w.text = utf8(tb.text());
  w.box = to_box(tb.bbox());
  w.rotation = tb.rotation();
  w.has_font = tb.has_font_info();
  w.vertical = w.has_font && tb.get_wmode(0) == poppler::text_box::vertical_wmode;
  w.font_size = w.has_font ? tb.get_font_size() : 0;
  const size_t n = code_points(w.text);
  w.glyphs.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    w.glyphs.push_back(to_box(tb.char_bbox(i)));
    if (w.has_font) w.fonts.push_back(tb.get_font_name(static_cast<int>(i)));
  }
  w.space_after = tb.has_space_after();
  return w;
}

void walk_toc(const poppler::toc_item* item, int level, int max_depth, size_t max_entries,
              std::vector<PopplerOutlineEntry>& out) {
  for (const poppler::toc_item* child : item->children()) {
    if (out.size() >= max_entries) return;
    out.push_back({utf8(child->title()), level});
    if (level < max_depth) walk_toc(child, level + 1, max_depth, max_entries, out);
  }
}

class PopplerDocument final : public PopplerFile {
 public:
  explicit PopplerDocument(std::unique_ptr<poppler::document> doc) : doc_(std::move(doc)) {}

  int pages() const override { return doc_->pages(); }

  std::vector<std::string> info() const override {
    return {utf8(doc_->get_title()), utf8(doc_->get_author()), utf8(doc_->get_subject()),
            utf8(doc_->get_creator()), utf8(doc_->get_producer())};
  }

  std::vector<PopplerOutlineEntry> outline(int max_depth, size_t max_entries) const override {
    std::vector<PopplerOutlineEntry> out;
    std::unique_ptr<poppler::toc> toc(doc_->create_toc());
    if (toc && toc->root()) walk_toc(toc->root(), 1, max_depth, max_entries, out);
    return out;
  }

  std::string label(int index) const override {
    std::unique_ptr<poppler::page> pg(doc_->create_page(index));
    return pg ? utf8(pg->label()) : std::string();
  }

  bool page(int index, PopplerPage& out) const override {
    try {
      std::unique_ptr<poppler::page> pg(doc_->create_page(index));
      if (!pg) return false;
      switch (pg->orientation()) {
        case poppler::page::landscape: out.rotation = 90; break;
        case poppler::page::upside_down: out.rotation = 180; break;
        case poppler::page::seascape: out.rotation = 270; break;
        default: out.rotation = 0; break;
      }
      poppler::rectf crop = pg->page_rect(poppler::crop_box);
      out.width = crop.width();
      out.height = crop.height();
      std::vector<poppler::text_box> words = pg->text_list(poppler::page::text_list_include_font);
      out.words.clear();
      out.words.reserve(words.size());
      for (const auto& tb : words) out.words.push_back(word_of(tb));
      return true;
    } catch (...) {  // std::bad_alloc: the page goes unread
      out = PopplerPage();
      return false;
    }
  }

 private:
  std::unique_ptr<poppler::document> doc_;
};

}  // namespace

}  // namespace quire::detail

extern "C" __attribute__((visibility("default"))) quire::detail::PopplerFile* quire_open_poppler(
    const char* path, const char* password, quire::detail::PopplerOpen* status, std::string* error) {
  using quire::detail::PopplerOpen;
  try {
    quire::detail::silence_poppler_once();
    std::unique_ptr<poppler::document> doc(poppler::document::load_from_file(path, password, password));
    if (!doc) {
      *status = PopplerOpen::NotPdf;
      return nullptr;
    }
    if (doc->is_locked()) {
      *status = *password ? PopplerOpen::WrongPassword : PopplerOpen::NeedsPassword;
      return nullptr;
    }
    if (doc->pages() <= 0) {
      *status = PopplerOpen::NoPages;
      return nullptr;
    }
    *status = PopplerOpen::Ok;
    return new quire::detail::PopplerDocument(std::move(doc));
  } catch (const std::exception& e) {
    *status = PopplerOpen::Failed;
    *error = e.what();
    return nullptr;
  }
}
