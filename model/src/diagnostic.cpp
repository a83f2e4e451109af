#include "quire/diagnostic.h"

#include <utility>

namespace quire {

Diagnostic Diagnostic::at(std::string stage, std::string code, std::string file, int page, std::string message) {
  Diagnostic d;
  d.code = std::move(code);
  d.file = std::move(file);
  d.page = page;
  d.stage = std::move(stage);
  d.message = std::move(message);
  return d;
}

std::string Diagnostic::text() const {
  std::string line;
  if (!file.empty()) line = file + ": ";
  if (page > 0) line += "page " + std::to_string(page) + ": ";
  return line + message;
}

}  // namespace quire
