// Site search: the index is the chapters' text, deflated. A term index (term -> elements)
// was the other way; on the R manuals its posting lists, delta-coded as JSON, came to 3.7 MB
// against 3.1 MB for the deflated text, and the page needs the text anyway to show a
// snippet around each match. Scanning ten MB of text in the browser takes a fraction of a
// second, so the page searches the text itself and needs nothing else. Written here rather
// than taken from npm (lunr, minisearch, pagefind): those build their index in JavaScript or
// with a binary of their own at build time, which would make node (or a second tool) a
// dependency of `quire build`.
#include "search.h"

#include <algorithm>
#include <stdexcept>

#include <zlib.h>

#include "quire/json.h"
#include "quire/parallel.h"

namespace quire::exporting {

namespace {

// A book's text is deflated in pieces on the pool (refman.pdf's is 4 MB, and a book's pages
// are made while it is written). Each piece is raw deflate that starts from the 32 KiB
// before it as its dictionary and ends on a sync flush, so that the pieces join into one
// stream that reads as any other; the piece size is fixed, so the bytes do not depend on
// the number of workers. Level 4, the fastest of zlib's lazy-matching levels: on refman's
// 4.1 MB of text it takes 0.09 s for 1.37 MB, level 6 0.20 s for 1.31 MB (4.8% fewer
// bytes), level 9 0.25 s, and level 3 (greedy matching) no less time than 4 for 6% more
// bytes.
constexpr size_t kPiece = size_t{1} << 20;
constexpr size_t kWindow = size_t{1} << 15;
constexpr int kLevel = 4;

// The piece of `in` at `at` (up to kPiece bytes); `last`: the final block of a stream (no
// text then: the stream's end, after every book's pieces).
std::string deflate_piece(const std::string& in, size_t at, bool last) {
  z_stream z{};
  if (deflateInit2(&z, kLevel, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("search index: deflate failed");
  std::string out;
  try {
    if (at > 0) {
      const size_t from = at > kWindow ? at - kWindow : 0;
      if (deflateSetDictionary(&z, reinterpret_cast<const Bytef*>(in.data() + from), static_cast<uInt>(at - from)) !=
          Z_OK)
        throw std::runtime_error("search index: deflate failed");
    }
    const size_t size = std::min(kPiece, in.size() - at);
    out.resize(deflateBound(&z, static_cast<uLong>(size)) + 16);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + at));
    z.avail_in = static_cast<uInt>(size);
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
    if (rc != (last ? Z_STREAM_END : Z_OK) || z.avail_in != 0)
      throw std::runtime_error("search index: deflate failed");
    out.resize(out.size() - z.avail_out);
  } catch (...) {
    deflateEnd(&z);
    throw;
  }
  deflateEnd(&z);
  return out;
}

// The base64 of `in`, appended to `out`.
void append_base64(std::string& out, const std::string& in) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const size_t start = out.size();
  out.resize(start + (in.size() + 2) / 3 * 4);
  char* o = out.data() + start;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    *o++ = kAlphabet[(v >> 18) & 63];
    *o++ = kAlphabet[(v >> 12) & 63];
    *o++ = kAlphabet[(v >> 6) & 63];
    *o++ = kAlphabet[v & 63];
  }
  if (i < in.size()) {
    unsigned v = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<unsigned char>(in[i + 1]) << 8;
    *o++ = kAlphabet[(v >> 18) & 63];
    *o++ = kAlphabet[(v >> 12) & 63];
    *o++ = i + 1 < in.size() ? kAlphabet[(v >> 6) & 63] : '=';
    *o++ = '=';
  }
}

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// search_line(text), appended to `out`: each word copied whole, one space between words.
void append_words(std::string& out, std::string_view text) {
  bool first = true;
  for (size_t i = 0; i < text.size();) {
    while (i < text.size() && is_space(text[i])) ++i;
    if (i == text.size()) break;
    size_t end = i;
    while (end < text.size() && !is_space(text[end])) ++end;
    if (!first) out += ' ';
    first = false;
    out.append(text.data() + i, end - i);
    i = end;
  }
}

}  // namespace

std::string search_line(std::string_view text) {
  std::string out;
  append_words(out, text);
  return out;
}

void append_search_line(std::string& text, std::string_view element) {
  append_words(text, element);
  text += '\n';
}

SearchText deflate_search_text(const std::string& text, int jobs) {
  SearchText part;
  part.bytes = text.size();
  part.adler = adler32_z(adler32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(text.data()), text.size());
  const size_t pieces = (text.size() + kPiece - 1) / kPiece;
  std::vector<std::string> raw(pieces);
  parallel_for(pieces, jobs, [&](size_t i) { raw[i] = deflate_piece(text, i * kPiece, false); });
  for (const auto& r : raw) part.deflated += r;
  return part;
}

SearchText deflate_search_texts(std::vector<std::string*> texts, int jobs) {
  std::string text;
  for (std::string* t : texts) {
    text += *t;
    std::string().swap(*t);
  }
  return deflate_search_text(text, jobs);
}

std::string search_index_js(const std::vector<SearchChapter>& chapters, const std::vector<SearchText>& books) {
  // RFC 1950: the header (deflate, 32 KiB window, default level; 0x789C is a multiple of
  // 31), the books' parts, an empty final block, the Adler-32 of the whole text, most
  // significant byte first.
  std::string z = "\x78\x9C";
  size_t bytes = 0;
  uLong sum = adler32(0L, Z_NULL, 0);
  for (const auto& b : books) {
    z += b.deflated;
    sum = adler32_combine(sum, b.adler, static_cast<z_off_t>(b.bytes));
    bytes += b.bytes;
  }
  z += deflate_piece(std::string(), 0, true);
  for (int shift = 24; shift >= 0; shift -= 8) z += static_cast<char>((sum >> shift) & 0xFF);
  std::string packed;
  append_base64(packed, z);
  std::string out = "// quire search index (site/search-index.js): see spec/corpus.md.\nwindow.QUIRE_SEARCH = ";
  JsonWriter w(out, false);
  w.begin_object().key("format").integer(1).key("chapters").begin_array();
  size_t line = 0;
  for (const auto& c : chapters) {
    w.begin_array().string(c.href).string(c.title).string(c.book).integer(line).integer(c.lines).end_array();
    line += c.lines;
  }
  w.end_array().key("bytes").integer(bytes).key("text").string(packed).end_object();
  out += '\n';
  return out;
}

}  // namespace quire::exporting
