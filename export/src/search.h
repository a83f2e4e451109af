// The site's search index (site/search-index.js): every chapter's text, element by element,
// for the search box of every page. A script that assigns a global rather than a JSON file
// that is fetched, because a page opened from disk (file://) may not fetch its neighbours.
#pragma once

#include <string>
#include <vector>

namespace quire::exporting {

struct SearchChapter {
  std::string href;   // from the site's root: "<book>/<chapter>.html"
  std::string title;  // the chapter's title
  std::string book;   // the book's short name, else its title
  size_t lines = 0;   // its elements that carry data-page: result N opens its page at "#search=N:<query>"
};

// An element's text as search_index_js takes it, appended to a chapter's text: the text of
// each element of the page that carries data-page, in document order, as search_line makes
// it, each followed by '\n'.
void append_search_line(std::string& text, std::string_view element);

// A book's part of the index's text (its chapters' texts, in order), deflated on its own:
// raw deflate in pieces that end on a sync flush and start from the 32 KiB of the book's
// text before them, so that the parts of a corpus's books, in book order, join into one
// stream. A part depends on the book's text alone: the same bytes at any `jobs`, whether it
// is made as the book is written or later from its chapter files.
struct SearchText {
  std::string deflated;
  unsigned long adler = 1;  // Adler-32 of the text
  size_t bytes = 0;         // the text's length
};
SearchText deflate_search_text(const std::string& text, int jobs = 1);
// The part of a book whose chapters' texts are `texts`, in order; they are let go.
SearchText deflate_search_texts(std::vector<std::string*> texts, int jobs = 1);

// The bytes of search-index.js:
//   window.QUIRE_SEARCH = {"format":1,"chapters":[[href,title,book,first,count],...],
//                          "bytes":N,"text":"<base64>"};
// `text` is the zlib stream (RFC 1950) of every element's text, whitespace made
// single spaces, one per line, chapters in the given order; `first` is the chapter's first
// line, `count` its number of lines, `bytes` the length of the inflated text. `books`: each
// book's part, in the order of the chapters (a book's chapters are next to each other).
std::string search_index_js(const std::vector<SearchChapter>& chapters, const std::vector<SearchText>& books);

// An element's text as the index stores it: runs of whitespace (line breaks included) made
// one space, trimmed.
std::string search_line(std::string_view text);

}  // namespace quire::exporting
