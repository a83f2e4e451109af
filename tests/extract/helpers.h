// Shared by the extract tests: the books they read and small queries on a Document.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "quire/extract.h"
#include "quire/model.h"

namespace quire::test {

inline const std::string kBooks = std::string(QUIRE_SOURCE_DIR) + "/fixtures/books/";
inline const std::string kRIntro = "/usr/share/R/doc/manual/R-intro.pdf";

inline bool have_r_intro() { return std::filesystem::exists(kRIntro); }

// A PDF of the given objects (numbered from 1, the first is the catalog) with a correct
// cross-reference table.
inline std::string pdf_of(const std::vector<std::string>& objects) {
  std::string out = "%PDF-1.7\n";
  std::vector<size_t> offsets;
  for (size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(out.size());
    out += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const size_t xref = out.size();
  out += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (size_t off : offsets) {
    char line[32];
    std::snprintf(line, sizeof line, "%010zu 00000 n \n", off);
    out += line;
  }
  out += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R >>\nstartxref\n" +
         std::to_string(xref) + "\n%%EOF\n";
  return out;
}

// A content stream object of the given page operators, for pdf_of.
inline std::string stream_object(const std::string& ops) {
  return "<< /Length " + std::to_string(ops.size()) + " >>\nstream\n" + ops + "\nendstream";
}

// A content stream of one line of Helvetica (/F1) 12 at (72, 720).
inline std::string text_stream(const std::string& text) {
  return stream_object("BT /F1 12 Tf 72 720 Td (" + text + ") Tj ET");
}

inline Document extract(const std::string& pdf, Engine engine, int first = 0, int last = 0, int jobs = 1) {
  ExtractOptions o;
  o.engine = engine;
  o.first_page = first;
  o.last_page = last;
  o.jobs = jobs;
  o.ocr = OcrMode::Never;  // these books have a text layer; OCR is tested in tests/ocr
  return extract_document(pdf, o);
}

// The document MuPDF reads from the PDF of `objects` (pdf_of), written to a temporary file
// named after `name` and the process, which is removed again.
inline Document extract_objects(const std::vector<std::string>& objects, const std::string& name) {
  const std::filesystem::path pdf =
      std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".pdf");
  std::ofstream(pdf, std::ios::binary) << pdf_of(objects);
  Document doc = extract(pdf.string(), Engine::MuPdf);
  std::filesystem::remove(pdf);
  return doc;
}

// White space runs collapsed to one space, ends trimmed.
inline std::string squeeze(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

inline const Page* find_page(const Document& d, int number) {
  for (const auto& p : d.pages)
    if (p.number == number) return &p;
  return nullptr;
}

// The first line on `page` whose squeezed text contains `text` (squeezed), or nullptr.
inline const Line* find_line(const Document& d, int page, const std::string& text) {
  const Page* p = find_page(d, page);
  if (!p) return nullptr;
  const std::string want = squeeze(text);
  for (const auto& l : p->lines)
    if (squeeze(l.text()).find(want) != std::string::npos) return &l;
  return nullptr;
}

inline std::string engine_name(Engine e) { return e == Engine::MuPdf ? "mupdf" : "poppler"; }

}  // namespace quire::test
