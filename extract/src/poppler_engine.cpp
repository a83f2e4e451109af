// The Poppler-cpp engine.
#include "engines.h"
#include "quire/error.h"

namespace quire::detail {

Document extract_poppler(const std::string& path, const ExtractOptions&) {
  throw Error(ExitCode::Internal, path, 0, "the Poppler engine is not available in this build");
}

}  // namespace quire::detail

namespace quire {
CrossCheckReport cross_check(const std::string& path, const ExtractOptions&) {
  throw Error(ExitCode::Internal, path, 0, "cross-check is not available in this build");
}
}  // namespace quire
