// Site search: the index is the chapters' text, deflated. A term index (term -> elements)
// was the other way; on the R manuals its posting lists, delta-coded as JSON, came to 3.7 MB
// against 3.1 MB for the deflated text, and the page needs the text anyway to show a
// snippet around each match. Scanning ten MB of text in the browser takes a fraction of a
// second, so the page searches the text itself and needs nothing else. Written here rather
// than taken from npm (lunr, minisearch, pagefind): those build their index in JavaScript or
// with a binary of their own at build time, which would make node (or a second tool) a
// dependency of `quire build`.
#include "search.h"

#include <stdexcept>

#include <zlib.h>

#include "quire/json.h"

namespace quire::exporting {

namespace {

std::string deflate_bytes(const std::string& in) {
  uLongf size = compressBound(static_cast<uLong>(in.size()));
  std::string out(size, '\0');
  // Level 9: the index is written once and loaded by every reader.
  if (compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(in.data()),
                static_cast<uLong>(in.size()), 9) != Z_OK)
    throw std::runtime_error("search index: deflate failed");
  out.resize(size);
  return out;
}

std::string base64(const std::string& in) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i < in.size()) {
    unsigned v = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<unsigned char>(in[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

}  // namespace

std::string search_line(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

void append_search_line(std::string& text, std::string_view element) {
  text += search_line(element);
  text += '\n';
}

std::string search_index_js(const std::vector<SearchChapter>& chapters) {
  std::string text;
  {
    size_t size = 0;
    for (const auto& c : chapters) size += c.text.size();
    text.reserve(size);
  }
  Json list = Json::array();
  size_t line = 0;
  for (const auto& c : chapters) {
    list.push_back(Json::array({c.href, c.title, c.book, line, c.lines}));
    text += c.text;
    line += c.lines;
  }
  Json j;
  j["format"] = 1;
  j["chapters"] = std::move(list);
  j["bytes"] = text.size();
  j["text"] = base64(deflate_bytes(text));
  return "// quire search index (site/search-index.js): see spec/corpus.md.\nwindow.QUIRE_SEARCH = " +
         dump(j, false);
}

}  // namespace quire::exporting
