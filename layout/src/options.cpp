#include "quire/layout.h"

namespace quire {

namespace {

// Every option of LayoutOptions but jobs (threads: the result is the same at any count) and
// notes.note_titles (a list of words): the rows of quire/layout_options/*.def, each named
// "section.name" and reached through its section.
#define QUIRE_LAYOUT_OPTION(section, type, name, value, unit, why) \
  {#section "." #name, +[](LayoutOptions& o) -> type& { return o.section.name; }, unit, why},

constexpr OptionField<LayoutOptions> kTable[] = {
#include "quire/layout_options/lines.def"
#include "quire/layout_options/blocks.def"
#include "quire/layout_options/hyphenation.def"
#include "quire/layout_options/chapters.def"
#include "quire/layout_options/title.def"
#include "quire/layout_options/tables.def"
#include "quire/layout_options/notes.def"
#include "quire/layout_options/figures.def"
#include "quire/layout_options/styles.def"
};

#undef QUIRE_LAYOUT_OPTION

}  // namespace

std::span<const OptionField<LayoutOptions>> layout_option_table() { return kTable; }

}  // namespace quire
