#include "quire/error.h"
#include "quire/export.h"

namespace quire {

namespace {
Error unavailable() { return Error(ExitCode::Internal, "", 0, "export is not available in this build"); }
}  // namespace

CorpusMap read_map(const std::string&, const std::string&) { throw unavailable(); }
size_t resolve_chapter(const MapChapterRef&, const Book&) { throw unavailable(); }
void export_book(Book&, const std::string&, const RenderFigure&, const ExportOptions&) { throw unavailable(); }
void export_index(const std::string&, const std::vector<std::string>&, const CorpusMap*, const ExportOptions&) {
  throw unavailable();
}
bool diff_corpora(const std::string&, const std::string&, std::ostream&) { throw unavailable(); }

}  // namespace quire
