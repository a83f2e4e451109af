// layout: a cleaned Document -> a Book of chapters of typed blocks in reading order.
// Reading order (one and two columns), paragraphs joined across lines, columns and pages,
// typesetting hyphens removed (and logged), code listings rebuilt from glyph positions,
// figures found (raster images and clusters of vector paths with their labels) and paired
// with captions, chapters from the outline or from headings.
//
// Input: a Document whose furniture (running heads, page numbers) clean already removed.
// Output: chapters whose blocks hold every remaining source word exactly once, in reading
// order; the only token changes are the logged hyphen joins (LayoutResult::joins). Pages
// that are not chapters (title page, contents, index...) are listed in `excluded`.
// Never throws on odd input: pages without text, books without outline or headings (one
// chapter and a warning) are all defined.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "quire/layout_options.h"
#include "quire/model.h"
#include "quire/options_table.h"

namespace quire {

// The fields of LayoutOptions that change the output, as a table (quire/options_table.h):
// `--set layout.SECTION.NAME=VALUE`, the build cache key and docs/options.md are made from it.
std::span<const OptionField<LayoutOptions>> layout_option_table();

struct LayoutResult {
  std::vector<Chapter> chapters;
  std::vector<ExcludedMatter> excluded;
  std::vector<HyphenJoin> joins;
  // Words printed in the chapters that their text leaves out, by page (Block::dropped).
  std::vector<Removal> removed;
  std::vector<Diagnostic> warnings;
};

LayoutResult layout_document(const Document& doc, const LayoutOptions& options = {});

// The title on the book's title page, for a PDF whose metadata has none: on the first of
// its first title_pages pages that holds text set larger than the page's own body text, the
// largest such text that reads as a title (a word of two letters at least, at most
// title_max_words words: a large initial or a display quotation is not one). Empty when no
// page has any: a letter or a page of one size has no title to find.
std::string title_from_pages(const Document& doc, const LayoutOptions& options = {});

// The book's title: its metadata's, unless that names a file ("report.dvi", "draft.pdf",
// as some converters fill it in); else the title on its title page (title_from_pages); else
// the file's name without its extension.
std::string book_title(const Document& doc, const LayoutOptions& options = {});

// Loads the spelling dictionary and the hyphenation patterns that `options` name, once per
// process. Layout loads them on first use (a dictionary takes ~50 ms, on one thread); a caller
// with a thread to spare can have them ready before layout asks.
void preload_language_resources(const LayoutOptions& options);

}  // namespace quire
