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
  // The plain text of each element of the page that carries data-page, in document order,
  // as search_line makes it, each followed by '\n' (append_search_line): result N of a
  // chapter opens its page at "#search=N:<query>".
  std::string text;
  size_t lines = 0;
};

// An element's text as search_index_js takes it, appended to a chapter's `text`.
void append_search_line(std::string& text, std::string_view element);

// The bytes of search-index.js:
//   window.QUIRE_SEARCH = {"format":1,"chapters":[[href,title,book,first,count],...],
//                          "bytes":N,"text":"<base64>"};
// `text` is the zlib stream (RFC 1950) of every element's text, whitespace made
// single spaces, one per line, chapters in the given order; `first` is the chapter's first
// line, `count` its number of lines, `bytes` the length of the inflated text. The same
// chapters give the same bytes, at any `jobs`.
std::string search_index_js(const std::vector<SearchChapter>& chapters, int jobs = 1);

// An element's text as the index stores it: runs of whitespace (line breaks included) made
// one space, trimmed.
std::string search_line(std::string_view text);

}  // namespace quire::exporting
