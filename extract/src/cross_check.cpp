// Cross-check: MuPDF's and Poppler's words on the same pages, compared in order.
//
// A page's words are quire::whitespace_tokens of its lines (ligatures expanded, NFC), with
// punctuation at a word's start or end split off as words of their own. The two sequences are
// aligned by a longest common subsequence; each stretch between common words where the
// engines differ is a hunk. Three kinds of difference are not reading differences and are
// not reported:
//  - space placement: a hunk whose two sides are the same characters once white space is
//    removed ("files 34" / "files34": the engines judge a narrow gap differently);
//  - space before or after punctuation ("statistics. . ." / "statistics . . .", a footnote
//    mark "numeric1," / "numeric 1 ,"): hence the punctuation split above;
//  - reading order: a word both engines have, but at different places (a page number read
//    first by one and last by the other, table columns, figure labels) is cancelled from both
//    sides; boxes, not engine order, decide reading order later.
// What remains is reported, in page order.
#include <algorithm>
#include <cctype>
#include <cstdint>

#include "engines.h"
#include "quire/error.h"
#include "quire/extract.h"
#include "quire/text.h"

namespace quire {

namespace {

struct CrossCheckOptions {
  // Cells of the LCS table (words x words) above which a page is compared as bags of words
  // instead: bounds memory on pathological pages (an index page both engines misread).
  size_t max_lcs_cells = size_t{1} << 24;
};

constexpr CrossCheckOptions kOptions;

bool is_punct(char32_t c) {
  // ASCII punctuation and the general punctuation block (dashes, quotes, ellipsis).
  return (c < 0x80 && std::ispunct(static_cast<int>(c))) || (c >= 0x2010 && c <= 0x205E);
}

std::vector<std::string> page_words(const Page& p) {
  std::string text;
  for (const auto& l : p.lines) {
    text += l.text();
    text += '\n';
  }
  std::vector<std::string> out;
  for (const std::string& tok : whitespace_tokens(text)) {
    std::u32string w = to_u32(tok);
    size_t b = 0, e = w.size();
    while (b < e && is_punct(w[b])) out.push_back(from_u32(w.substr(b++, 1)));
    size_t tail = e;
    while (tail > b && is_punct(w[tail - 1])) --tail;
    if (tail > b) out.push_back(from_u32(w.substr(b, tail - b)));
    for (size_t i = tail; i < e; ++i) out.push_back(from_u32(w.substr(i, 1)));
  }
  return out;
}

// Removes from both lists the words they share (as multisets), keeping each list's order.
void cancel_moved(std::vector<std::string>& a, std::vector<std::string>& b) {
  std::vector<bool> keep_a(a.size(), true), keep_b(b.size(), true);
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = 0; j < b.size(); ++j)
      if (keep_b[j] && a[i] == b[j]) {
        keep_a[i] = keep_b[j] = false;
        break;
      }
  auto filter = [](std::vector<std::string>& v, const std::vector<bool>& keep) {
    size_t k = 0;
    for (size_t i = 0; i < v.size(); ++i)
      if (keep[i]) {
        if (k != i) v[k] = std::move(v[i]);
        ++k;
      }
    v.resize(k);
  };
  filter(a, keep_a);
  filter(b, keep_b);
}

std::string joined(const std::vector<std::string>& words, size_t from, size_t to) {
  std::string s;
  for (size_t i = from; i < to; ++i) s += words[i];
  return s;
}

// One differing stretch: a[a0, a1) against b[b0, b1).
struct Hunk {
  size_t a0, a1, b0, b1;
};

std::vector<Hunk> lcs_hunks(const std::vector<std::string>& a, const std::vector<std::string>& b, size_t lo,
                            size_t a_end, size_t b_end) {
  // Table over a[lo, a_end) x b[lo, b_end): len[i][j] = LCS of the suffixes from i and j.
  const size_t n = a_end - lo, m = b_end - lo;
  std::vector<uint32_t> len((n + 1) * (m + 1), 0);
  auto at = [&](size_t i, size_t j) -> uint32_t& { return len[i * (m + 1) + j]; };
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      at(i, j) = a[lo + i] == b[lo + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
  std::vector<Hunk> hunks;
  size_t i = 0, j = 0, hi = 0, hj = 0;
  auto flush = [&] {
    if (i > hi || j > hj) hunks.push_back({lo + hi, lo + i, lo + hj, lo + j});
  };
  while (i < n || j < m) {
    if (i < n && j < m && a[lo + i] == b[lo + j]) {
      flush();
      ++i, ++j;
      hi = i, hj = j;
    } else if (j == m || (i < n && at(i + 1, j) >= at(i, j + 1))) {
      ++i;
    } else {
      ++j;
    }
  }
  flush();
  return hunks;
}

// Words of a that b lacks and vice versa, as multisets (order of first appearance kept).
void bag_difference(const std::vector<std::string>& a, const std::vector<std::string>& b, size_t lo, size_t a_end,
                    size_t b_end, PageDisagreement& d) {
  std::vector<std::string> sa(a.begin() + static_cast<long>(lo), a.begin() + static_cast<long>(a_end));
  std::vector<std::string> sb(b.begin() + static_cast<long>(lo), b.begin() + static_cast<long>(b_end));
  std::vector<std::string> ca = sa, cb = sb;
  std::sort(ca.begin(), ca.end());
  std::sort(cb.begin(), cb.end());
  std::vector<std::string> only_a, only_b;
  std::set_difference(ca.begin(), ca.end(), cb.begin(), cb.end(), std::back_inserter(only_a));
  std::set_difference(cb.begin(), cb.end(), ca.begin(), ca.end(), std::back_inserter(only_b));
  auto in_order = [](const std::vector<std::string>& seq, std::vector<std::string> extra,
                     std::vector<std::string>& out) {
    for (const auto& w : seq) {
      auto it = std::find(extra.begin(), extra.end(), w);
      if (it != extra.end()) {
        out.push_back(w);
        extra.erase(it);
      }
    }
  };
  in_order(sa, only_a, d.only_mupdf);
  in_order(sb, only_b, d.only_poppler);
}

PageDisagreement compare_page_words(int page, const std::vector<std::string>& a, const std::vector<std::string>& b) {
  PageDisagreement d;
  d.page = page;
  // Common head and tail first: most pages agree almost everywhere.
  size_t lo = 0;
  while (lo < a.size() && lo < b.size() && a[lo] == b[lo]) ++lo;
  size_t a_end = a.size(), b_end = b.size();
  while (a_end > lo && b_end > lo && a[a_end - 1] == b[b_end - 1]) --a_end, --b_end;
  if (a_end == lo && b_end == lo) return d;
  if ((a_end - lo + 1) * (b_end - lo + 1) > kOptions.max_lcs_cells) {
    bag_difference(a, b, lo, a_end, b_end, d);  // moved words cancel by construction
    return d;
  }
  for (const Hunk& h : lcs_hunks(a, b, lo, a_end, b_end)) {
    if (joined(a, h.a0, h.a1) == joined(b, h.b0, h.b1)) continue;  // only the spacing differs
    d.only_mupdf.insert(d.only_mupdf.end(), a.begin() + static_cast<long>(h.a0), a.begin() + static_cast<long>(h.a1));
    d.only_poppler.insert(d.only_poppler.end(), b.begin() + static_cast<long>(h.b0),
                          b.begin() + static_cast<long>(h.b1));
  }
  cancel_moved(d.only_mupdf, d.only_poppler);
  return d;
}

}  // namespace

CrossCheckReport cross_check(const std::string& path, const ExtractOptions& options) {
  ExtractOptions o = options;
  o.ocr = OcrMode::Never;  // compare the two text layers, not OCR
  o.fallback_to_poppler = false;
  o.on_warning = nullptr;
  o.engine = Engine::MuPdf;
  Document mu = extract_document(path, o);
  o.engine = Engine::Poppler;
  Document pop = extract_document(path, o);
  if (options.on_warning) {
    for (const auto& w : mu.warnings) options.on_warning(w.text());
    for (const auto& w : pop.warnings) options.on_warning(w.text());
  }
  CrossCheckReport r;
  r.file = mu.file;
  const size_t n = std::min(mu.pages.size(), pop.pages.size());
  r.pages_compared = static_cast<int>(n);
  for (size_t i = 0; i < n; ++i) {
    PageDisagreement d = compare_page_words(mu.pages[i].number, page_words(mu.pages[i]), page_words(pop.pages[i]));
    if (!d.only_mupdf.empty() || !d.only_poppler.empty()) r.disagreements.push_back(std::move(d));
  }
  return r;
}

}  // namespace quire
