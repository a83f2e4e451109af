#include "quire/clean.h"
#include "quire/text.h"

namespace quire {

void normalize_document(Document& doc) {
  for (auto& p : doc.pages)
    for (auto& l : p.lines)
      for (auto& s : l.spans) s.text = normalize_text(s.text);
}

CleanResult clean_document(Document& doc, const CleanOptions&) {
  normalize_document(doc);
  return {};
}

}  // namespace quire
