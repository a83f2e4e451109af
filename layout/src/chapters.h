// Private to layout/: chapter starts, titles and notes (chapter_starts.cpp, footnotes.cpp),
// which layout_document puts together.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "internal.h"

namespace quire::detail {

std::string lower_ascii(std::string s);

// Letters and digits only, lowercase: titles compare across line breaks and punctuation.
std::string squash(const std::string& s);

// The characters of a title without its white space (of any kind).
std::string without_spaces(const std::string& s);

struct TitleParts {
  std::string number;  // "3", "A", "" when unnumbered
  std::string title;   // without the number and the "Chapter" word
  bool appendix = false;
};

// "1 Introduction", "Chapter 3: Foo", "Appendix A References", "A.  Tables" -> parts.
TitleParts split_title(const std::string& given);

// Kinds of matter kept out of the corpus, recognised from the title: the title itself
// ("Contents", "Index") or its start ("Contents at a Glance", "Index of functions"). With
// `exact`, says which of the two it was.
std::string matter_kind_from_title(const std::string& title, bool* exact = nullptr);

struct Start {
  int page = 0;
  double y = 0;
  std::string title;     // as in the outline or as printed
  int level = 1;         // outline level of the chapter entries
  bool part = false;     // a part opener: its pages go to the next chapter
  // Whether `y` is the outline's: an entry whose destination names its page only (a /Fit
  // view) opens at the top of its page until its heading is found there.
  bool placed = true;
};

// Chapter entries of the outline: the top level, or the level under part entries. Parts
// are recognised by the word ("Part II ..."), by holding the numbered chapters (when the
// entries numbered "1 ...", "2 ..." sit at level 2, their level-1 parents are parts, "I
// Foundations", and the other level-1 entries, preface and appendices, are chapters), or by
// where their entries open (see below).
std::vector<Start> outline_starts(const Document& doc, const LayoutOptions& o, int& chapter_level);

// Chapter openers without an outline: "Chapter 3" headings, headings set in the largest
// heading size standing first on their page (anywhere, in a document that runs on without
// page breaks between chapters), and first-on-page headings that name a kind of matter
// ("Contents", "Index") or an unnumbered chapter ("Preface"). A large title on the book's
// first page over less than a page of prose is the title page, not a chapter. `rows`: each
// page's rows (PageFlow::number_rows), where the page's text ends.
std::vector<Start> heading_starts(const std::vector<Block>& blocks, const std::vector<double>& sizes,
                                  const std::map<int, std::vector<NumberRow>>& rows, const LayoutOptions& o);

// Words of the prose blocks (paragraphs and list items).
size_t word_count(const std::vector<const Block*>& bs);
// Words of the text blocks: prose, listings and tables (what a title page never holds much
// of; headings, notes and figure labels aside).
size_t text_word_count(const std::vector<const Block*>& bs);
// The words of each page's prose (word_count's words), by the page its blocks start on; pages
// with no prose block are not in it.
std::map<int, size_t> prose_words_by_page(const std::vector<Block>& blocks);

// A footnote goes right after the block that cites it, where a reader meets its mark, when
// exactly one block of the note's page before it has the mark raised in its text
// (Block::raised); otherwise it stays at the end of its page. Notes cited by one block keep
// their order; a note cited in a list goes after the list. Where the citing block has that
// mark once, the mark is taken out of both texts into their Block::marks. Where no block
// has the mark raised, a mark printed on the baseline touching the word before it ("mode.1")
// cites the note when it is the whole text of a link that leads to the note: it is taken out
// as a glued mark (NoteMark::glued), as is the note's own mark touching its first word
// ("1Even").
void place_footnotes(std::vector<Chapter>& chapters, const LayoutOptions& o);

// Figures: the first block of the chapter that cites them ("see Figure 3-2").
void link_figure_references(std::vector<Chapter>& chapters);

}  // namespace quire::detail
