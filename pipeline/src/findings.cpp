// Suspicious exits from the text. Each rests on a fact of book typography:
// - the body font is the font (and size) that sets most of a book's words, and a body line
//   runs across most of the measure; a figure's labels are short words placed in a drawing;
// - a running head repeats on the pages of its chapter;
// - furniture stands at the head or the foot of the page, not in the middle of the text.
#include "findings.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string_view>

#include "quire/text.h"

namespace quire {

namespace {

constexpr double kPointsPerInch = 72.0;
// Sizes of one font that differ by less than this are one size (rounding in the PDF).
constexpr double kSameSize = 0.25;  // points

struct BodyFont {
  std::string name;
  double size = 0;
  double measure = 0;  // the width of a full body line, points
  bool known() const { return measure > 0; }
};

// The font that sets most of the book's words, and the width of its full lines (the 90th
// percentile of its lines' widths: a paragraph's last line is short, a full one is not).
BodyFont body_font(const std::vector<SourcePage>& source) {
  std::map<std::pair<std::string, long>, long> words;
  for (const auto& p : source)
    for (const auto& l : p.lines) {
      const auto& f = p.fonts[l.font];
      words[{f.name, std::lround(f.size / kSameSize)}] += l.end_token - l.first_token;
    }
  if (words.empty()) return {};
  auto best = std::max_element(words.begin(), words.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  BodyFont body{best->first.first, static_cast<double>(best->first.second) * kSameSize, 0};
  std::vector<double> widths;
  for (const auto& p : source)
    for (const auto& l : p.lines) {
      const auto& f = p.fonts[l.font];
      if (f.name == body.name && std::abs(f.size - body.size) <= kSameSize && l.end_token - l.first_token >= 3)
        widths.push_back(l.x1 - l.x0);
    }
  // Too few lines to know what a full line is.
  if (widths.size() < 20) return {};
  std::sort(widths.begin(), widths.end());
  body.measure = widths[widths.size() * 9 / 10];
  return body;
}

bool in_body_font(const SourcePage& p, const SourcePage::Line& l, const BodyFont& body) {
  const auto& f = p.fonts[l.font];
  return f.name == body.name && std::abs(f.size - body.size) <= kSameSize;
}

std::string line_text(const SourcePage& p, const SourcePage::Line& l, size_t n = 80) {
  std::string s(p.view(l.text));
  if (s.size() <= n) return s;
  size_t cut = n;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "...";
}

// A title's letters, lower case, words apart: "12 Chapter 2. Basics", "CHAPTER 2: BASICS 13"
// and "Basics" compare by what they say, not by their numbers, case or punctuation.
// (Bytes of UTF-8 beyond ASCII are kept as they are; ASCII letters are the C locale's, which
// the program never leaves, asked inline: this runs over every line near a running head.)
std::string letters(const std::string& text) {
  std::string key;
  key.reserve(text.size());
  bool gap = false;
  for (unsigned char c : text) {
    const auto folded = static_cast<unsigned char>(c | 0x20);
    if ((folded >= 'a' && folded <= 'z') || c >= 0x80) {
      if (gap && !key.empty()) key += ' ';
      key += static_cast<char>(c >= 'A' && c <= 'Z' ? folded : c);
      gap = false;
    } else {
      gap = true;
    }
  }
  return key;
}

}  // namespace

std::vector<VerifyFinding> find_suspicious_exits(const Book& book, const std::vector<SourcePage>& source,
                                                 const FindingOptions& options) {
  std::vector<VerifyFinding> out;
  std::map<int, const SourcePage*> pages;
  for (const auto& p : source) pages[p.number] = &p;
  const BodyFont body = body_font(source);
  auto chapter_of = [&](int page) -> std::string {
    for (const auto& c : book.chapters)
      if (page >= c.first_page && page <= c.last_page) return c.title;
    return "";
  };

  // Figures whose labels read like prose.
  for (const auto& c : book.chapters) {
    int number = 0;
    for (const auto& b : c.blocks) {
      if (b.type != BlockType::Figure) continue;
      ++number;
      if (b.labels.empty()) continue;
      long words = 0;
      std::multiset<std::string> labels;
      for (const auto& l : b.labels)
        for (auto& t : whitespace_tokens(l)) {
          labels.insert(std::move(t));
          ++words;
        }
      const std::string where = "figure " + std::to_string(number) + " on page " + std::to_string(b.page);
      const double square_inches = b.bbox.width() * b.bbox.height() / (kPointsPerInch * kPointsPerInch);
      const double plausible = std::max<double>(options.label_words_min, options.label_words_per_square_inch * square_inches);
      if (static_cast<double>(words) > plausible)
        out.push_back({book.id, c.title, b.page, number, "figure-holds-many-words",
                       where + " has " + std::to_string(words) + " words in its labels (more than " +
                           std::to_string(std::lround(plausible)) + " for its size): prose may have left the text"});
      auto it = pages.find(b.page);
      if (!body.known() || it == pages.end()) continue;
      const SourcePage& p = *it->second;
      for (const auto& l : p.lines) {
        const Box lb{l.x0, l.y0, l.x1, l.y1};
        if (!b.bbox.intersects(lb) || !in_body_font(p, l, body)) continue;
        if (l.x1 - l.x0 < options.body_line_measure_ratio * body.measure) continue;
        if (static_cast<int>(l.end_token - l.first_token) < options.body_line_words_min) continue;
        // Only a line whose words went into the labels.
        bool all = true;
        for (uint32_t k = l.first_token; k < l.end_token && all; ++k) all = labels.count(std::string(p.view(p.tokens[k]))) > 0;
        if (!all) continue;
        out.push_back({book.id, c.title, b.page, number, "figure-holds-body-text",
                       where + " holds a line of body text in its labels: \"" + line_text(p, l) + "\""});
        break;
      }
    }
  }

  // A running head printed once in the whole book that names none of its headings and
  // nothing printed near it. A head that repeats a section's title may stand once (a section
  // of two pages); one that names nothing of the book and stands once is more likely a line
  // of the text.
  std::map<std::string, std::vector<const Removal*>> heads;
  long head_count = 0;
  for (const auto& r : book.removed)
    if (r.reason == "running-head") {
      heads[letters(r.text)].push_back(&r);
      ++head_count;
    }
  // The titles' letters with a space at each end: word for word, "attr" names the title
  // "attr Object Attributes", not "Attributes".
  std::vector<std::string> titles;
  auto add_title = [&](const std::string& text) {
    std::string t = letters(text);
    if (!t.empty()) titles.push_back(" " + t + " ");
  };
  for (const auto& c : book.chapters) {
    add_title(c.title);
    for (const auto& b : c.blocks)
      if (b.type == BlockType::Heading) add_title(b.text);
  }
  for (const auto& e : book.excluded) add_title(e.title);
  add_title(book.title);
  auto names_a_title = [&](const std::string& spaced_key) {
    return std::any_of(titles.begin(), titles.end(), [&](const std::string& t) {
      return spaced_key.find(t) != std::string::npos || t.find(spaced_key) != std::string::npos;
    });
  };
  // A head that names the topic of its page (a reference manual's entry, a section begun a
  // page or two before, the book's title on its title page) is printed near it. (A page's
  // lines' letters are made once, for every head that looks at the page.)
  std::map<int, std::vector<std::string>> spaced_lines;
  auto lines_of = [&](const SourcePage& p) -> const std::vector<std::string>& {
    auto [it, added] = spaced_lines.try_emplace(p.number);
    if (added)
      for (const auto& l : p.lines) it->second.push_back(" " + letters(std::string(p.view(l.text))) + " ");
    return it->second;
  };
  auto printed_near = [&](const std::string& spaced_key, const Removal& head) {
    for (int page = head.page - 2; page <= head.page + 1; ++page) {
      auto it = pages.find(page);
      if (it == pages.end()) continue;
      const SourcePage& p = *it->second;
      const std::vector<std::string>& spaced = lines_of(p);
      for (size_t i = 0; i < p.lines.size(); ++i) {
        const auto& l = p.lines[i];
        const Box lb{l.x0, l.y0, l.x1, l.y1};
        if (page == head.page && lb.overlap_ratio(head.bbox) > 0.5) continue;  // the head itself
        if (spaced[i].find(spaced_key) != std::string::npos) return true;
      }
    }
    return false;
  };
  for (const auto& [key, rs] : heads)
    if (rs.size() == 1 && head_count > 2 && !key.empty() && !names_a_title(" " + key + " ") &&
        !printed_near(" " + key + " ", *rs[0]))
      out.push_back({book.id, chapter_of(rs[0]->page), rs[0]->page, 0, "running-head-once",
                     "page " + std::to_string(rs[0]->page) + ": \"" + rs[0]->text +
                         "\" was removed as a running head but stands on no other page"});

  // A whole body line removed as furniture from the middle of the page.
  if (body.known())
    for (const auto& r : book.removed) {
      if (r.reason == kRepeatedTableHeader) continue;  // no furniture: a table's own header, printed again
      auto it = pages.find(r.page);
      if (it == pages.end()) continue;
      const SourcePage& p = *it->second;
      const double mid = (r.bbox.y0 + r.bbox.y1) / 2;
      if (p.height <= 0 || mid < options.middle_of_page * p.height || mid > (1 - options.middle_of_page) * p.height) continue;
      if (static_cast<long>(whitespace_tokens(r.text).size()) < options.body_line_words_min) continue;
      for (const auto& l : p.lines) {
        const Box lb{l.x0, l.y0, l.x1, l.y1};
        if (lb.overlap_ratio(r.bbox) < 0.5 || !in_body_font(p, l, body)) continue;
        if (l.x1 - l.x0 < options.body_line_measure_ratio * body.measure) continue;
        out.push_back({book.id, chapter_of(r.page), r.page, 0, "body-line-removed",
                       "page " + std::to_string(r.page) + ": a line of body text in the middle of the page was removed as " +
                           r.reason + ": \"" + line_text(p, l) + "\""});
        break;
      }
    }
  std::stable_sort(out.begin(), out.end(), [](const VerifyFinding& a, const VerifyFinding& b) { return a.page < b.page; });
  return out;
}

}  // namespace quire
