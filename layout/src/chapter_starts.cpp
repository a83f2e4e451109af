// Chapter starts: from the outline (its chapter level, parts by their word or by what they
// hold), or without one from the headings that open chapters (a chapter opener stands first
// on its page, in the largest heading size or labelled "Chapter 3"). Titles split into their
// number and words.
#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <regex>
#include <thread>

#include "figures.h"
#include "internal.h"
#include "quire/spill.h"
#include "quire/text.h"
#include "quire/typography.h"
#include "chapters.h"

namespace quire::detail {

namespace {

bool is_prose(const Block& b) { return b.type == BlockType::Paragraph || b.type == BlockType::ListItem; }

// Titles of unnumbered chapters that books set like any other chapter opener: a heading of
// this wording standing first on its page opens a chapter whatever its size.
bool unnumbered_chapter_title(const std::string& title) {
  static const std::regex names(
      R"(^\s*(preface|foreword|introduction|acknowledge?ments?|glossary|bibliography|references|afterword|epilogue|prologue|colophon)\s*$)",
      std::regex::icase);
  return std::regex_match(title, names);
}

}  // namespace

std::string lower_ascii(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Letters and digits only, lowercase: titles compare across line breaks and punctuation.
std::string squash(const std::string& s) {
  std::string out;
  for (char32_t c : to_u32(s)) {
    if (c >= U'A' && c <= U'Z') c = c - U'A' + U'a';
    if ((c >= U'a' && c <= U'z') || (c >= U'0' && c <= U'9') || c > 0x7F) append_utf8(out, c);
  }
  return out;
}

std::string without_spaces(const std::string& s) {
  std::string out;
  for (const auto& w : whitespace_tokens(s)) out += w;
  return out;
}

namespace {

// A title's white space as single ASCII spaces, for the patterns titles are read by: DocBook
// ties the label to its number and title with no-break spaces ("Chapter\u00a01.\u00a0Getting
// Started", an outline's "1.\u00a0Introduction"), which \s does not match. Empty for a title
// of white space alone.
std::string single_spaced(const std::string& title) {
  std::string out;
  for (const auto& w : whitespace_tokens(title)) out += (out.empty() ? "" : " ") + w;
  return out;
}

}  // namespace

// "1 Introduction", "Chapter 3: Foo", "Appendix A References", "A.  Tables" -> parts.
TitleParts split_title(const std::string& given) {
  std::string raw = single_spaced(given);
  if (raw.empty()) raw = given;
  static const std::regex prefixed(R"(^\s*(Chapter|CHAPTER|Appendix|APPENDIX|Part|PART)\s+([0-9]+|[A-Z]|[IVXLC]+)\b[.:]?\s*(.*)$)");
  static const std::regex numbered(R"(^\s*([0-9]+)[.:]?\s+(.*)$)");
  static const std::regex lettered(R"(^\s*([A-Z])[.:]\s+(.*)$)");
  std::smatch m;
  TitleParts t;
  if (std::regex_match(raw, m, prefixed)) {
    t.number = m[2];
    t.title = m[3];
    t.appendix = lower_ascii(m[1]) == "appendix";
  } else if (std::regex_match(raw, m, numbered)) {
    t.number = m[1];
    t.title = m[2];
  } else if (std::regex_match(raw, m, lettered)) {
    t.number = m[1];
    t.title = m[2];
    t.appendix = true;
  } else {
    t.title = raw;
  }
  if (t.title.empty()) t.title = raw;
  // White space of outline titles as printed: single spaces.
  const std::string clean = single_spaced(t.title);
  t.title = clean.empty() ? raw : clean;
  return t;
}

// Kinds of matter kept out of the corpus, recognised from the title.
std::string matter_kind_from_title(const std::string& title, bool* exact) {
  std::string t = lower_ascii(title);
  if (exact) *exact = false;
  static const std::pair<const char*, const char*> kinds[] = {
      {"table of contents", "contents"}, {"contents", "contents"},      {"short table of contents", "contents"},
      {"short contents", "contents"},     {"list of figures", "list-of-figures"},
      {"list of tables", "list-of-tables"}, {"list of listings", "list-of-listings"}, {"copyright", "copyright"},
      {"title page", "title-page"}};
  for (const auto& [k, v] : kinds)
    if (t == k) {
      if (exact) *exact = true;
      return v;
    }
  for (const auto& [k, v] : kinds)
    if (t.rfind(k, 0) == 0) return v;
  // "Index", "Concept index", "Function and variable index", "Index of functions".
  if (t == "index" || (t.size() > 6 && t.compare(t.size() - 6, 6, " index") == 0) || t.rfind("index ", 0) == 0) {
    if (exact) *exact = t == "index";
    return "index";
  }
  return {};
}

// Chapter entries of the outline: the top level, or the level under part entries. Parts
// are recognised by the word ("Part II ..."), by holding the numbered chapters (when the
// entries numbered "1 ...", "2 ..." sit at level 2, their level-1 parents are parts, "I
// Foundations", and the other level-1 entries, preface and appendices, are chapters), or by
// where their entries open (see below).
std::vector<Start> outline_starts(const Document& doc, const LayoutOptions& o, int& chapter_level) {
  std::vector<Start> out;
  chapter_level = 1;
  // An outline whose top entries are all numbered sections ("1.1 ...", "2.3 ..."), with no
  // entry for their chapters, cannot say where chapters start: the headings must.
  {
    static const std::regex section_re(R"(^\s*[0-9]+\.[0-9]+(\.[0-9]+)*\.?\s+\S)");
    int top = 0, sections = 0;
    for (const auto& e : doc.outline)
      if (e.level == 1 && e.page > 0) {
        ++top;
        if (std::regex_search(single_spaced(e.title), section_re)) ++sections;
      }
    if (typography::several(top) && sections == top) return out;
  }
  static const std::regex part_re(R"(^\s*(Part|PART)\s+\S+)");
  static const std::regex numbered_re(R"(^\s*((Chapter|CHAPTER)\s+)?[0-9]+[.:]?\s+\S)");
  std::map<int, int> numbered;  // level -> entries numbered with a single integer
  std::vector<std::string> spaced;  // the entries' titles, single_spaced
  for (const auto& e : doc.outline) spaced.push_back(single_spaced(e.title));
  for (size_t i = 0; i < doc.outline.size(); ++i)
    if (doc.outline[i].page > 0 && std::regex_search(spaced[i], numbered_re)) numbered[doc.outline[i].level]++;
  bool nested = !typography::several(numbered[1]) && typography::several(numbered[2]);
  std::vector<bool> is_part(doc.outline.size(), false);
  for (size_t i = 0; i < doc.outline.size(); ++i) {
    const auto& e = doc.outline[i];
    if (e.level != 1) continue;
    bool has_numbered_child = false;
    for (size_t k = i + 1; k < doc.outline.size() && doc.outline[k].level > 1; ++k)
      if (doc.outline[k].level == 2 && std::regex_search(spaced[k], numbered_re)) has_numbered_child = true;
    is_part[i] = std::regex_search(spaced[i], part_re) || (nested && has_numbered_child);
  }
  // Parts whose titles do not say so: a level-1 entry whose level-2 entries open where
  // chapters open (the anchor height most level-1 entries share, on pages after its own),
  // while its own anchor stands elsewhere (a part page sets its title apart).
  std::map<long, int> heights;  // level-1 anchor heights, to 0.1 pt
  for (const auto& e : doc.outline)
    if (e.level == 1 && e.page > 0 && e.y > 0) heights[typography::tenths_key(e.y)]++;
  long opener = -1;
  int opener_count = 1;  // an opener height is shared by two entries at least
  for (const auto& [h, n] : heights)
    if (n > opener_count) {
      opener = h;
      opener_count = n;
    }
  auto at_opener = [&](const OutlineEntry& e) {
    // (Heights are counted in tenths of a point.)
    return opener >= 0 && e.y > 0 &&
           static_cast<double>(std::abs(typography::tenths_key(e.y) - opener)) <=
               typography::in_tenths(o.chapters.opener_anchor_tolerance);
  };
  for (size_t i = 0; i < doc.outline.size() && opener >= 0; ++i) {
    const auto& e = doc.outline[i];
    if (e.level != 1 || is_part[i] || e.page <= 0 || at_opener(e)) continue;
    int children = 0, chapter_like = 0;
    for (size_t k = i + 1; k < doc.outline.size() && doc.outline[k].level > 1; ++k) {
      const auto& c = doc.outline[k];
      if (c.level != 2 || c.page <= 0) continue;
      ++children;
      if (c.page > e.page && at_opener(c)) ++chapter_like;
    }
    is_part[i] = typography::several(children) && chapter_like >= o.chapters.part_chapter_share * children;
  }
  bool any_part = std::find(is_part.begin(), is_part.end(), true) != is_part.end();
  if (any_part) chapter_level = 2;
  for (size_t i = 0; i < doc.outline.size(); ++i) {
    const auto& e = doc.outline[i];
    if (e.page <= 0) continue;
    bool under_part = false;
    if (e.level == 2 && any_part)
      for (size_t k = i; k-- > 0;)
        if (doc.outline[k].level == 1) {
          under_part = is_part[k];
          break;
        }
    if (e.level == 1 || under_part) out.push_back({e.page, std::max(0.0, e.y), e.title, e.level, is_part[i], e.y >= 0});
  }
  std::stable_sort(out.begin(), out.end(), [](const Start& a, const Start& b) {
    return a.page != b.page ? a.page < b.page : a.y < b.y;
  });
  return out;
}

// Chapter openers without an outline: "Chapter 3" headings, headings set in the largest
// heading size standing first on their page (anywhere, in a document that runs on without
// page breaks between chapters), and first-on-page headings that name a kind of matter
// ("Contents", "Index") or an unnumbered chapter ("Preface"). A large title on the book's
// first page over less than a page of prose is the title page, not a chapter.
std::vector<Start> heading_starts(const std::vector<Block>& blocks, const std::vector<double>& sizes,
                                  const std::map<int, std::vector<NumberRow>>& rows, const LayoutOptions& o) {
  static const std::regex chapter_re(R"(^\s*(Chapter|CHAPTER|Appendix|APPENDIX)\s+[0-9A-Z]+\b)");
  static const std::regex part_re(R"(^\s*(Part|PART)\s+([0-9]+|[IVXLC]+)\b)");
  static const std::regex label_re(R"(^\s*(Chapter|CHAPTER|Appendix|APPENDIX)\s+([0-9]+|[A-Z]|[IVXLC]+)[.:]?\s*$)");
  double top = 0;
  std::map<long, int> count;
  // The words a page sets as text: its prose and its tables (a reference's first page of
  // tables is no title page).
  std::map<int, size_t> text_words = prose_words_by_page(blocks);
  for (const auto& b : blocks)
    if (b.type == BlockType::Table) text_words[b.page] += whitespace_token_count(b.text);
  for (size_t i = 0; i < blocks.size(); ++i)
    if (blocks[i].type == BlockType::Heading) count[typography::half_point_key(sizes[i])]++;
  // The chapter-title size: the largest heading size that occurs more than once.
  for (const auto& [k, n] : count)
    if (typography::several(n)) top = std::max(top, typography::from_half_point_key(k));
  int book_first_page = blocks.empty() ? 0 : blocks.front().page;
  // In a document that runs on, the same, unless all of that size stand on its first two
  // pages: a title set twice (over the title page and over the first section); then the
  // largest size that occurs three times or more.
  double run_top = top;
  {
    bool only_opening = true;
    for (size_t i = 0; i < blocks.size(); ++i)
      if (blocks[i].type == BlockType::Heading && top > 0 &&
          std::fabs(sizes[i] - top) <= o.chapters.chapter_title_size_tolerance &&
          blocks[i].page > book_first_page + 1)
        only_opening = false;
    if (only_opening) {
      run_top = 0;
      for (const auto& [k, n] : count)
        if (n >= o.chapters.run_title_min_count &&
            typography::from_half_point_key(k) < top - o.chapters.chapter_title_size_tolerance)
          run_top = std::max(run_top, typography::from_half_point_key(k));
    }
  }
  // Where sections are set in the chapter titles' size, their numbers tell them apart: of
  // the numbered headings in that size, only those with the fewest levels ("3." beside
  // "3.1.") are chapter titles.
  int chapter_depth = INT_MAX;
  for (size_t i = 0; i < blocks.size(); ++i)
    if (blocks[i].type == BlockType::Heading && top > 0 && sizes[i] >= top - o.chapters.chapter_title_size_tolerance)
      if (int d = detail::section_number_depth(blocks[i].text); d > 0) chapter_depth = std::min(chapter_depth, d);
  auto section_in_title_size = [&](size_t i) {
    const int d = detail::section_number_depth(blocks[i].text);
    return d > 0 && d > chapter_depth;
  };
  auto title_size = [&](size_t i) {
    return blocks[i].type == BlockType::Heading && run_top > 0 &&
           std::fabs(sizes[i] - run_top) <= o.chapters.chapter_title_size_tolerance &&
           !section_in_title_size(i);
  };
  // A document that runs on without page breaks between its chapters (a web page printed):
  // most of its headings of the chapter-title size stand inside their pages. Then they open
  // the chapters wherever they stand (a larger title stays before them).
  bool flowing = false, runs_on = false;
  {
    // A title heads its page when no text before it reaches that page (a paragraph that
    // runs on from the page before stands above it).
    size_t titles = 0, first = 0;
    int reached = INT_MIN;  // the last page that text so far reaches
    for (size_t i = 0; i < blocks.size(); ++i) {
      if (title_size(i)) {
        ++titles;
        if (reached < blocks[i].page) ++first;
      }
      // (An opener label above a title, "Chapter 2" set as a heading of its own, is no text
      // before it.)
      const bool label = blocks[i].type == BlockType::Heading && std::regex_match(single_spaced(blocks[i].text), label_re);
      if (blocks[i].type != BlockType::Figure && !label)
        reached = std::max(reached, std::max(blocks[i].page, blocks[i].last_page));
    }
    // (At least a page a chapter: a reference card's boxed headings are not chapters.)
    const size_t pages = blocks.empty() ? 0 : static_cast<size_t>(blocks.back().page - blocks.front().page + 1);
    runs_on = titles >= o.chapters.flowing_min_titles && typography::less_than_half(first, titles);
    flowing = runs_on && titles <= pages;
  }
  // A document that runs on with more titles than pages (a manual page: a dozen sections on
  // nine pages) is one whose titles are sections: one atop a page opens a chapter only after
  // a page break, where the page before ends short of the text block's foot (blank, or its
  // text a few lines short), not where a full page pushed it over.
  std::map<int, double> bottom;  // page -> the top of its last row
  double foot = 0, pitch = 0;
  if (runs_on && !flowing) {
    std::vector<double> body_sizes, lows;
    for (size_t i = 0; i < blocks.size(); ++i)
      if (blocks[i].type == BlockType::Paragraph) body_sizes.push_back(sizes[i]);
    for (const auto& [p, rs] : rows)
      for (const auto& r : rs) {
        auto [it, fresh] = bottom.try_emplace(p, r.top);
        it->second = std::max(it->second, r.top);
      }
    for (const auto& [p, y] : bottom) lows.push_back(y);
    if (!lows.empty() && !body_sizes.empty()) {
      const auto at = lows.begin() + static_cast<std::ptrdiff_t>(lows.size() * 3 / 4);
      std::nth_element(lows.begin(), at, lows.end());
      foot = *at;
      const auto mid = body_sizes.begin() + static_cast<std::ptrdiff_t>(body_sizes.size() / 2);
      std::nth_element(body_sizes.begin(), mid, body_sizes.end());
      pitch = typography::kNormalLeading * *mid;
    }
  }
  auto after_break = [&](int page) {
    if (!runs_on || flowing) return true;
    if (page <= book_first_page) return true;  // (nothing before it)
    if (pitch <= 0) return false;
    auto it = bottom.find(page - 1);
    return it == bottom.end() || it->second < foot - o.chapters.page_break_short_lines * pitch;
  };
  std::vector<Start> out;
  int page = -1;
  bool first_on_page = true;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const Block& b = blocks[i];
    if (b.page != page) {
      page = b.page;
      first_on_page = true;
    }
    // "Chapter 3" opens a chapter wherever it stands (a title page may share its page);
    // a large title without the word only at the top of a page.
    if (b.type == BlockType::Heading) {
      const std::string text = single_spaced(b.text);
      bool labelled = std::regex_search(text, chapter_re);
      bool named = first_on_page && (!matter_kind_from_title(b.text).empty() || unnumbered_chapter_title(b.text));
      bool large = (first_on_page && top > 0 && sizes[i] >= top - o.chapters.chapter_title_size_tolerance &&
                    !section_in_title_size(i) && after_break(b.page)) ||
                   (flowing && title_size(i));
      bool title_page = b.page == book_first_page && text_words[b.page] < o.chapters.min_prose_page_words;
      if (labelled || named || (large && !title_page)) {
        bool part = first_on_page && std::regex_search(text, part_re) && !labelled;
        out.push_back({b.page, b.bbox.y0, b.text, 1, part});
      } else if (first_on_page && std::regex_search(text, part_re)) {
        out.push_back({b.page, b.bbox.y0, b.text, 1, true});
      }
    }
    if (b.type != BlockType::Figure) first_on_page = false;
  }
  return out;
}

size_t word_count(const std::vector<const Block*>& bs) {
  size_t n = 0;
  for (const auto* b : bs)
    if (is_prose(*b)) n += whitespace_token_count(b->text);
  return n;
}

size_t text_word_count(const std::vector<const Block*>& bs) {
  size_t n = 0;
  for (const auto* b : bs)
    if (is_prose(*b) || b->type == BlockType::Code || b->type == BlockType::Table) n += whitespace_token_count(b->text);
  return n;
}

std::map<int, size_t> prose_words_by_page(const std::vector<Block>& blocks) {
  std::map<int, size_t> words;
  for (const auto& b : blocks)
    if (is_prose(b)) words[b.page] += whitespace_token_count(b.text);
  return words;
}

}  // namespace quire::detail
