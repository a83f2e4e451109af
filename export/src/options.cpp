#include "quire/export.h"

namespace quire {

namespace {

// The fields of ExportOptions that change the corpus: threads, the figure groups and the
// stage times change the order of work or the report only.
constexpr OptionField<ExportOptions> kTable[] = {
    {"site", &ExportOptions::site, "-", "Write the static reading site (site/) beside the corpus files."},
    {"epub", &ExportOptions::epub, "-",
     "Also write OUT/epub/<book-id>.epub per book and OUT/epub/map.epub for the learning map (--epub)."},
};

}  // namespace

std::span<const OptionField<ExportOptions>> export_option_table() { return kTable; }

}  // namespace quire
