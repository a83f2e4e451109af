// Layout's options: every threshold layout's passes use, with the typographic fact behind it,
// grouped by the pass that reads them. Each option is one row of its section's list,
// quire/layout_options/SECTION.def:
//   QUIRE_LAYOUT_OPTION(section, type, name, default, unit, why)
// with the whole argument in the comment over the row and its gist in `why`. The rows make
// the sections' members here and layout_option_table() (layout.h), from which come `--set
// layout.SECTION.NAME=VALUE`, the build cache key and docs/options.md.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "quire/model.h"

namespace quire {

struct LayoutOptions {
// A row is a member with its default.
#define QUIRE_LAYOUT_OPTION(section, type, name, value, unit, why) type name = value;

  // --- lines and columns ---
  struct Lines {
#include "quire/layout_options/lines.def"
  } lines;

  // --- block typing ---
  struct Blocks {
#include "quire/layout_options/blocks.def"
  } blocks;

  // --- hyphenation ---
  struct Hyphenation {
#include "quire/layout_options/hyphenation.def"
  } hyphenation;

  // --- chapters and excluded matter ---
  struct Chapters {
#include "quire/layout_options/chapters.def"
  } chapters;

  // --- the title page (layout/src/title.cpp) ---
  struct Title {
#include "quire/layout_options/title.def"
  } title;

  // --- tables (layout/src/blocks.cpp) ---
  struct Tables {
#include "quire/layout_options/tables.def"
  } tables;

  // --- notes (layout/src/blocks.cpp) ---
  struct Notes {
    // A note (admonition, sidebar) is led by a title printed on a line of its own, before its
    // text on the line, or as the line's first words with a colon: one of these (compared
    // without case), with the kind of note it makes. The title is drawn in a box with the
    // note: inside a shaded box or a frame, beside a bar (a rule at the note's left, or between
    // a side title and its text), or under a rule with another under the note.
    std::vector<std::pair<std::string, std::string>> note_titles = {
        {"note", "note"},           {"notes", "note"},         {"tip", "tip"},
        {"tips", "tip"},            {"hint", "tip"},           {"warning", "warning"},
        {"danger", "warning"},      {"caution", "caution"},    {"attention", "caution"},
        {"important", "important"}, {"sidebar", "sidebar"},    {"back to basics", "sidebar"},
        {"security", "sidebar"},    {"in practice", "sidebar"}, {"going further", "sidebar"},
        {"quick look", "sidebar"},  {"specific case", "sidebar"}, {"community", "sidebar"},
        {"cultural", "sidebar"},    {"alternative", "sidebar"}};
#include "quire/layout_options/notes.def"
  } notes;

  // --- figures (layout/src/figures.cpp) ---
  struct Figures {
#include "quire/layout_options/figures.def"
  } figures;

  // --- inline styles and links ---
  struct Styles {
#include "quire/layout_options/styles.def"
  } styles;

#undef QUIRE_LAYOUT_OPTION

  // Threads for the per-page work (rows and figures of each page, book statistics, word
  // evidence); the build sets the book's thread count. The result is the same for any value.
  int jobs = 1;
};

}  // namespace quire
