// The book's title: its metadata's, or the title on its title page for PDFs whose metadata
// carries none (or only a file's name).
#include <algorithm>
#include <cmath>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

#include "quire/layout.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "quire/typography.h"

namespace quire {

namespace {

// The words set at `size` (within title_size_tolerance of it) on the page, in reading order of its lines, with any
// larger on their lines ("R" set larger than "FAQ" beside it).
std::vector<std::string> words_at(const Page& p, double size, const LayoutOptions& o) {
  std::vector<std::string> words;
  for (const auto& l : p.lines) {
    auto at_size = [&](const Span& s) { return typography::same_size(s.size, size, o.title.title_size_tolerance); };
    if (std::none_of(l.spans.begin(), l.spans.end(), at_size)) continue;
    std::string part;
    for (size_t i = 0; i < l.spans.size(); ++i) {
      const Span& s = l.spans[i];
      if (!at_size(s) && s.size <= size) continue;
      if (!part.empty() && l.space_before(i)) part += ' ';
      part += s.text;
    }
    for (auto& w : whitespace_tokens(part)) words.push_back(std::move(w));
  }
  return words;
}

bool has_word(const std::vector<std::string>& words, const LayoutOptions& o) {
  for (const auto& w : words) {
    size_t letters = 0;
    for (char32_t c : to_u32(w)) letters += is_letter_cp(c);
    if (letters >= o.title.title_word_min_letters) return true;
  }
  return false;
}

}  // namespace

std::string title_from_pages(const Document& doc, const LayoutOptions& o) {
  std::string title;
  for (size_t i = 0; i < doc.pages.size() && doc.pages[i].number <= o.title.title_pages && title.empty(); ++i)
    with_page(doc, i, [&](const Page& p) {
      // Characters per size (to a tenth of a point): the most common is the page's body.
      // A title page of a few words may hold more of the title's characters than of any
      // other size: there the smallest text is the measure.
      std::map<long, size_t> chars;
      size_t words = 0;
      for (const auto& l : p.lines)
        for (const auto& s : l.spans) {
          const size_t n = whitespace_tokens(s.text).size();
          if (n == 0) continue;
          chars[typography::tenths_key(s.size)] += utf8_length(s.text);
          words += n;
        }
      if (chars.empty()) return;
      auto body = std::max_element(chars.begin(), chars.end(), [](const auto& a, const auto& b) {
        return a.second < b.second;
      });
      if (words <= o.title.title_page_max_words) body = chars.begin();
      const double body_size = typography::from_tenths_key(body->first);
      // From the largest size down, the first text that reads as a title.
      for (auto it = chars.rbegin(); it != chars.rend(); ++it) {
        const double size = typography::from_tenths_key(it->first);
        if (size < o.title.title_size_ratio * body_size) break;
        const auto words = words_at(p, size, o);
        if (words.empty() || words.size() > o.title.title_max_words || !has_word(words, o)) continue;
        for (const auto& w : words) title += (title.empty() ? "" : " ") + w;
        return;
      }
    });
  return title;
}

std::string book_title(const Document& doc, const LayoutOptions& o) {
  // A title of one word ending in a document file's extension is the name of the file the
  // PDF was made from.
  static const std::set<std::string> kExtensions = {"doc", "docx", "dvi", "htm", "html", "indd", "md",  "odt",
                                                    "pdf", "ps",   "rtf", "sxw", "tex",  "txt",  "xml"};
  const auto words = whitespace_tokens(doc.metadata.title);
  bool file_name = false;
  if (words.size() == 1) {
    const std::string& w = words[0];
    const size_t dot = w.rfind('.');
    if (dot != std::string::npos && dot > 0) {
      std::string ext = w.substr(dot + 1);
      for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      file_name = kExtensions.count(ext) > 0;
    }
  }
  if (!words.empty() && !file_name) return doc.metadata.title;
  std::string title = title_from_pages(doc, o);
  if (title.empty()) title = std::filesystem::path(doc.file).stem().string();
  return title;
}

}  // namespace quire
