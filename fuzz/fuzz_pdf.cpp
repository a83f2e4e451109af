// The whole pipeline on a PDF given as bytes: extract, clean, layout and the wording check
// must end in a Book or a quire::Error, never a crash, hang or leak.
#include <unistd.h>

#include <fstream>
#include <string>

#include "quire/pipeline.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/quire-fuzz-" + std::to_string(getpid()) + ".pdf";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  quire::BuildOptions options;
  options.extract.ocr = quire::OcrMode::Never;  // OCR is slow and has its own tests
  options.extract.page_timeout = 5;
  options.extract.page_memory_mb = 256;
  options.extract.last_page = 0;
  try {
    quire::Document doc = quire::extract_document(path, options.extract);
    std::vector<quire::SourcePage> source = quire::source_words(doc);
    quire::CleanResult cleaned = quire::clean_document(doc, options.clean);
    quire::LayoutResult laid = quire::layout_document(doc, options.layout);
    quire::Book book;
    book.chapters = std::move(laid.chapters);
    book.excluded = std::move(laid.excluded);
    book.joins = std::move(laid.joins);
    book.removed = std::move(cleaned.removed);
    (void)quire::verify_book(book, source);
  } catch (const quire::Error&) {
  }
  return 0;
}
