#include "quire/layout.h"

namespace quire {

LayoutResult layout_document(const Document& doc, const LayoutOptions&) {
  LayoutResult r;
  Chapter c;
  c.title = doc.metadata.title;
  for (const auto& p : doc.pages)
    for (const auto& l : p.lines) {
      Block b;
      b.text = l.text();
      b.page = b.last_page = p.number;
      b.bbox = l.bbox;
      c.blocks.push_back(b);
    }
  r.chapters.push_back(std::move(c));
  return r;
}

}  // namespace quire
