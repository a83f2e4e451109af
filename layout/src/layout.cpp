// layout_document: pages -> rows in reading order -> blocks -> chapters.
#include "quire/layout.h"

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

namespace quire {

namespace {

using detail::BookStats;

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

struct TitleParts {
  std::string number;  // "3", "A", "" when unnumbered
  std::string title;   // without the number and the "Chapter" word
  bool appendix = false;
};

// "1 Introduction", "Chapter 3: Foo", "Appendix A References", "A.  Tables" -> parts.
TitleParts split_title(const std::string& given) {
  // White space as single spaces: DocBook's titles tie the label to its number and title
  // with no-break spaces ("Chapter\u00a01.\u00a0Getting Started"), which \s does not match.
  std::string raw;
  for (const auto& w : whitespace_tokens(given)) raw += (raw.empty() ? "" : " ") + w;
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
  std::string clean;
  for (const auto& w : whitespace_tokens(t.title)) clean += (clean.empty() ? "" : " ") + w;
  t.title = clean.empty() ? raw : clean;
  return t;
}

// Kinds of matter kept out of the corpus, recognised from the title.
std::string matter_kind_from_title(const std::string& title) {
  std::string t = lower_ascii(title);
  static const std::pair<const char*, const char*> kinds[] = {
      {"table of contents", "contents"}, {"contents", "contents"},      {"short table of contents", "contents"},
      {"short contents", "contents"},     {"list of figures", "list-of-figures"},
      {"list of tables", "list-of-tables"}, {"list of listings", "list-of-listings"}, {"copyright", "copyright"},
      {"title page", "title-page"}};
  for (const auto& [k, v] : kinds)
    if (t == k || t.rfind(k, 0) == 0) return v;
  // "Index", "Concept index", "Function and variable index", "Index of functions".
  if (t == "index" || (t.size() > 6 && t.compare(t.size() - 6, 6, " index") == 0) || t.rfind("index ", 0) == 0)
    return "index";
  return {};
}

struct Start {
  int page = 0;
  double y = 0;
  std::string title;     // as in the outline or as printed
  int level = 1;         // outline level of the chapter entries
  bool part = false;     // a part opener: its pages go to the next chapter
};

// Outline anchors this close (tenths of a point) are at the same height.
constexpr long kOpenerTolerance = 15;

// Chapter entries of the outline: the top level, or the level under part entries. Parts
// are recognised by the word ("Part II ..."), by holding the numbered chapters (when the
// entries numbered "1 ...", "2 ..." sit at level 2, their level-1 parents are parts, "I
// Foundations", and the other level-1 entries, preface and appendices, are chapters), or by
// where their entries open (see below).
std::vector<Start> outline_starts(const Document& doc, int& chapter_level) {
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
        if (std::regex_search(e.title, section_re)) ++sections;
      }
    if (top >= 2 && sections == top) return out;
  }
  static const std::regex part_re(R"(^\s*(Part|PART)\s+\S+)");
  static const std::regex numbered_re(R"(^\s*((Chapter|CHAPTER)\s+)?[0-9]+[.:]?\s+\S)");
  std::map<int, int> numbered;  // level -> entries numbered with a single integer
  for (const auto& e : doc.outline)
    if (e.page > 0 && std::regex_search(e.title, numbered_re)) numbered[e.level]++;
  bool nested = numbered[1] < 2 && numbered[2] >= 2;
  std::vector<bool> is_part(doc.outline.size(), false);
  for (size_t i = 0; i < doc.outline.size(); ++i) {
    const auto& e = doc.outline[i];
    if (e.level != 1) continue;
    bool has_numbered_child = false;
    for (size_t k = i + 1; k < doc.outline.size() && doc.outline[k].level > 1; ++k)
      if (doc.outline[k].level == 2 && std::regex_search(doc.outline[k].title, numbered_re)) has_numbered_child = true;
    is_part[i] = std::regex_search(e.title, part_re) || (nested && has_numbered_child);
  }
  // Parts whose titles do not say so: a level-1 entry whose level-2 entries open where
  // chapters open (the anchor height most level-1 entries share, on pages after its own),
  // while its own anchor stands elsewhere (a part page sets its title apart).
  std::map<long, int> heights;  // level-1 anchor heights, to 0.1 pt
  for (const auto& e : doc.outline)
    if (e.level == 1 && e.page > 0 && e.y > 0) heights[std::lround(e.y * 10)]++;
  long opener = -1;
  int opener_count = 1;  // an opener height is shared by two entries at least
  for (const auto& [h, n] : heights)
    if (n > opener_count) {
      opener = h;
      opener_count = n;
    }
  auto at_opener = [&](const OutlineEntry& e) {
    return opener >= 0 && e.y > 0 && std::abs(std::lround(e.y * 10) - opener) <= kOpenerTolerance;
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
    is_part[i] = children >= 2 && 3 * chapter_like >= 2 * children;
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
    if (e.level == 1 || under_part) out.push_back({e.page, std::max(0.0, e.y), e.title, e.level, is_part[i]});
  }
  std::stable_sort(out.begin(), out.end(), [](const Start& a, const Start& b) {
    return a.page != b.page ? a.page < b.page : a.y < b.y;
  });
  return out;
}

bool is_prose(const Block& b) { return b.type == BlockType::Paragraph || b.type == BlockType::ListItem; }

// Titles of unnumbered chapters that books set like any other chapter opener: a heading of
// this wording standing first on its page opens a chapter whatever its size.
bool unnumbered_chapter_title(const std::string& title) {
  static const std::regex names(
      R"(^\s*(preface|foreword|introduction|acknowledge?ments?|glossary|bibliography|references|afterword|epilogue|prologue|colophon)\s*$)",
      std::regex::icase);
  return std::regex_match(title, names);
}

// Chapter openers without an outline: "Chapter 3" headings, headings set in the largest
// heading size standing first on their page (anywhere, in a document that runs on without
// page breaks between chapters), and first-on-page headings that name a kind of matter
// ("Contents", "Index") or an unnumbered chapter ("Preface"). A large title on the book's
// first page over less than a page of prose is the title page, not a chapter.
std::vector<Start> heading_starts(const std::vector<Block>& blocks, const std::vector<double>& sizes,
                                  const LayoutOptions& o) {
  static const std::regex chapter_re(R"(^\s*(Chapter|CHAPTER|Appendix|APPENDIX)\s+[0-9A-Z]+\b)");
  static const std::regex part_re(R"(^\s*(Part|PART)\s+([0-9]+|[IVXLC]+)\b)");
  static const std::regex label_re(R"(^\s*(Chapter|CHAPTER|Appendix|APPENDIX)\s+([0-9]+|[A-Z]|[IVXLC]+)[.:]?\s*$)");
  double top = 0;
  std::map<long, int> count;
  std::map<int, size_t> prose_words;  // page -> words of its paragraphs and list items
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].type == BlockType::Heading) count[std::lround(sizes[i] * 2)]++;
    if (is_prose(blocks[i])) prose_words[blocks[i].page] += whitespace_tokens(blocks[i].text).size();
  }
  // The chapter-title size: the largest heading size that occurs more than once.
  for (const auto& [k, n] : count)
    if (n >= 2) top = std::max(top, k / 2.0);
  int book_first_page = blocks.empty() ? 0 : blocks.front().page;
  // In a document that runs on, the same, unless all of that size stand on its first two
  // pages: a title set twice (over the title page and over the first section); then the
  // largest size that occurs three times or more.
  double run_top = top;
  {
    bool only_opening = true;
    for (size_t i = 0; i < blocks.size(); ++i)
      if (blocks[i].type == BlockType::Heading && top > 0 && std::fabs(sizes[i] - top) <= 0.25 &&
          blocks[i].page > book_first_page + 1)
        only_opening = false;
    if (only_opening) {
      run_top = 0;
      for (const auto& [k, n] : count)
        if (n >= 3 && k / 2.0 < top - 0.25) run_top = std::max(run_top, k / 2.0);
    }
  }
  // Where sections are set in the chapter titles' size, their numbers tell them apart: of
  // the numbered headings in that size, only those with the fewest levels ("3." beside
  // "3.1.") are chapter titles.
  int chapter_depth = INT_MAX;
  for (size_t i = 0; i < blocks.size(); ++i)
    if (blocks[i].type == BlockType::Heading && top > 0 && sizes[i] >= top - 0.25)
      if (int d = detail::section_number_depth(blocks[i].text); d > 0) chapter_depth = std::min(chapter_depth, d);
  auto section_in_title_size = [&](size_t i) {
    const int d = detail::section_number_depth(blocks[i].text);
    return d > 0 && d > chapter_depth;
  };
  auto title_size = [&](size_t i) {
    return blocks[i].type == BlockType::Heading && run_top > 0 && std::fabs(sizes[i] - run_top) <= 0.25 &&
           !section_in_title_size(i);
  };
  // A document that runs on without page breaks between its chapters (a web page printed):
  // most of its headings of the chapter-title size stand inside their pages. Then they open
  // the chapters wherever they stand (a larger title stays before them).
  bool flowing = false;
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
      const bool label = blocks[i].type == BlockType::Heading && std::regex_match(blocks[i].text, label_re);
      if (blocks[i].type != BlockType::Figure && !label)
        reached = std::max(reached, std::max(blocks[i].page, blocks[i].last_page));
    }
    // (At least a page a chapter: a reference card's boxed headings are not chapters.)
    const size_t pages = blocks.empty() ? 0 : static_cast<size_t>(blocks.back().page - blocks.front().page + 1);
    flowing = titles >= 3 && 2 * first < titles && titles <= pages;
  }
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
      bool labelled = std::regex_search(b.text, chapter_re);
      bool named = first_on_page && (!matter_kind_from_title(b.text).empty() || unnumbered_chapter_title(b.text));
      bool large = (first_on_page && top > 0 && sizes[i] >= top - 0.25 && !section_in_title_size(i)) ||
                   (flowing && title_size(i));
      bool title_page = b.page == book_first_page && prose_words[b.page] < o.min_prose_page_words;
      if (labelled || named || (large && !title_page)) {
        bool part = first_on_page && std::regex_search(b.text, part_re) && !labelled;
        out.push_back({b.page, b.bbox.y0, b.text, 1, part});
      } else if (first_on_page && std::regex_search(b.text, part_re)) {
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
    if (is_prose(*b)) n += whitespace_tokens(b->text).size();
  return n;
}

// The code points of a note mark, superscript digits as ASCII ones.
std::u32string mark_points(std::string_view text) {
  static const std::u32string kSuperscripts = U"\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079";
  std::u32string cps = to_u32(text);
  for (auto& c : cps)
    if (auto k = kSuperscripts.find(c); k != std::u32string::npos) c = U'0' + static_cast<char32_t>(k);
  return cps;
}

bool is_mark_symbol(char32_t c) { return c == U'*' || c == U'\u2020' || c == U'\u2021' || c == U'\u00a7'; }

// The mark a footnote opens with: its first token's leading digits (at most three) or note
// symbol, alone, before "." or ")", or glued to the note's first word ("1Functions"). Empty
// when there is none.
std::u32string footnote_mark(const std::string& text) {
  auto toks = whitespace_tokens(text);
  if (toks.empty()) return {};
  const std::u32string t = mark_points(toks[0]);
  size_t n = 0;
  if (!t.empty() && is_mark_symbol(t[0])) n = 1;
  else
    while (n < t.size() && n < 4 && t[n] >= U'0' && t[n] <= U'9') ++n;
  if (n == 0 || n > 3) return {};
  const std::u32string rest = t.substr(n);
  if (rest.empty() || rest == U"." || rest == U")" || is_letter_cp(rest[0])) return t.substr(0, n);
  return {};
}

// Whether a character closes what comes before it: no space goes before it in running text.
bool closes(char c) { return c == ',' || c == '.' || c == ';' || c == ':' || c == ')' || c == ']' || c == '!' || c == '?'; }

// Takes the marks `take` (ascending, each at the code point where it starts) out of a text
// that sets each apart, as a word of its own (Line::text does): with the space before it,
// and with the space after it too where punctuation follows ("systems 1 ." -> "systems.").
// Nothing when the text left is not tidy or text_with_marks would not give the text back.
std::optional<std::pair<std::string, std::vector<NoteMark>>> take_marks(const std::string& text,
                                                                        const std::vector<const RaisedMark*>& take) {
  std::string left;
  std::vector<NoteMark> marks;
  size_t byte = 0, cp = 0;
  auto is_lead = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
  auto code_points = [&](const std::string& s) {
    return static_cast<size_t>(std::count_if(s.begin(), s.end(), is_lead));
  };
  for (const RaisedMark* m : take) {
    if (m->at < cp || m->mark.empty()) return std::nullopt;
    while (byte < text.size() && cp < m->at) {
      left += text[byte++];
      while (byte < text.size() && !is_lead(text[byte])) left += text[byte++];
      ++cp;
    }
    if (text.compare(byte, m->mark.size(), m->mark) != 0) return std::nullopt;
    byte += m->mark.size();
    cp += code_points(m->mark);
    if (!left.empty() && left.back() == ' ') left.pop_back();
    const bool space_after = byte < text.size() && text[byte] == ' ';
    if (space_after && (left.empty() || (byte + 1 < text.size() && closes(text[byte + 1])))) {
      ++byte;
      ++cp;
    }
    marks.push_back({code_points(left), m->mark});
  }
  left.append(text, byte);
  const bool tidy = !left.empty() && left.front() != ' ' && left.back() != ' ' && left.find("  ") == std::string::npos;
  if (!tidy || text_with_marks(left, marks) != text) return std::nullopt;
  return std::make_pair(std::move(left), std::move(marks));
}

// A footnote goes right after the block that cites it, where a reader meets its mark, when
// exactly one block of the note's page before it has the mark raised in its text
// (Block::raised); otherwise it stays at the end of its page. Notes cited by one block keep
// their order; a note cited in a list goes after the list. Where the citing block has that
// mark once, the mark is taken out of both texts into their Block::marks.
void place_footnotes(std::vector<Chapter>& chapters) {
  for (auto& c : chapters) {
    auto& bs = c.blocks;
    for (size_t i = 0; i < bs.size(); ++i) {
      if (bs[i].type != BlockType::Footnote) continue;
      const std::u32string mark = footnote_mark(bs[i].text);
      if (mark.empty()) continue;
      const int page = bs[i].page;
      size_t citing = i;
      int citing_blocks = 0;
      for (size_t k = 0; k < i; ++k) {
        const Block& b = bs[k];
        if (b.type != BlockType::Paragraph && b.type != BlockType::ListItem && b.type != BlockType::Note &&
            b.type != BlockType::Table && b.type != BlockType::Caption)
          continue;
        if (b.page > page || std::max(b.page, b.last_page) < page) continue;
        if (std::any_of(b.raised.begin(), b.raised.end(), [&](const RaisedMark& m) { return mark_points(m.mark) == mark; })) {
          citing = k;
          ++citing_blocks;
        }
      }
      if (citing_blocks != 1) continue;
      // The mark, once in the citing text and opening the note as a word of its own
      // ("1 The ..."), comes out of both.
      RaisedMark* cited = nullptr;
      int same = 0;
      for (auto& m : bs[citing].raised)
        if (mark_points(m.mark) == mark) {
          cited = &m;
          ++same;
        }
      // (The note may print its mark with a full stop or parenthesis: "1." "1)".)
      const auto toks = whitespace_tokens(bs[i].text);
      const RaisedMark own{0, toks.empty() ? std::string() : toks[0], true};
      const std::u32string own_points = mark_points(own.mark);
      const bool opens = own_points == mark || own_points == mark + U"." || own_points == mark + U")";
      if (same == 1 && !cited->cited && cited->at != std::string::npos && opens &&
          take_marks(bs[citing].text, {cited}) && take_marks(bs[i].text, {&own})) {
        cited->cited = true;
        bs[i].raised = {own};
      }
      size_t at = citing + 1;
      if (bs[citing].type == BlockType::ListItem)
        while (at < i && bs[at].type == BlockType::ListItem) ++at;
      while (at < i && bs[at].type == BlockType::Footnote) ++at;
      if (at >= i) continue;
      Block note = std::move(bs[i]);
      bs.erase(bs.begin() + static_cast<std::ptrdiff_t>(i));
      bs.insert(bs.begin() + static_cast<std::ptrdiff_t>(at), std::move(note));
    }
    for (auto& b : bs) {
      std::vector<const RaisedMark*> take;
      for (const auto& m : b.raised)
        if (m.cited) take.push_back(&m);
      if (!take.empty())
        if (auto taken = take_marks(b.text, take)) {
          const std::string before = std::move(b.text);
          b.text = std::move(taken->first);
          b.marks = std::move(taken->second);
          detail::remap_inline(b, before);
        }
      std::vector<RaisedMark>().swap(b.raised);
    }
  }
}

// Figures: the first block of the chapter that cites them ("see Figure 3-2").
void link_figure_references(std::vector<Chapter>& chapters) {
  for (auto& c : chapters)
    for (auto& fig : c.blocks) {
      if (fig.type != BlockType::Figure || fig.figure_ref.empty()) continue;
      for (size_t i = 0; i < c.blocks.size(); ++i) {
        const Block& b = c.blocks[i];
        if (b.type == BlockType::Caption || b.type == BlockType::Figure) continue;
        size_t at = b.text.find(fig.figure_ref);
        while (at != std::string::npos) {
          size_t end = at + fig.figure_ref.size();
          bool bounded = end >= b.text.size() || !(std::isalnum(static_cast<unsigned char>(b.text[end])) ||
                                                   (b.text[end] == '.' && end + 1 < b.text.size() &&
                                                    std::isdigit(static_cast<unsigned char>(b.text[end + 1]))));
          if (bounded) break;
          at = b.text.find(fig.figure_ref, end);
        }
        if (at != std::string::npos) {
          fig.referenced_by = static_cast<int>(i);
          break;
        }
      }
    }
}

}  // namespace

namespace {

// A chapter opener printed as a label and a title ("Chapter 1" over "External services",
// "CHAPTER 3. Tables", "Appendix A Glossary"): the label is not part of the title, so it
// moves to the heading's labels, whole tokens only (the wording check counts labels too).
// When the label stands as a heading of its own, the title heading below it on the same page
// takes it.
void split_opener_label(std::vector<Block>& blocks) {
  if (blocks.empty() || blocks[0].type != BlockType::Heading || blocks[0].level != 1 || !blocks[0].labels.empty()) return;
  auto tokens = whitespace_tokens(blocks[0].text);
  // (A part's label stays: "Part II" titles the part.)
  if (tokens.size() < 2 || !detail::opener_word(tokens[0]) || tokens[0] == "Part" || tokens[0] == "PART" ||
      !detail::opener_number(tokens[1]))
    return;
  std::string label = tokens[0] + " " + tokens[1];
  if (tokens.size() > 2) {
    std::string title;
    for (size_t i = 2; i < tokens.size(); ++i) title += (title.empty() ? "" : " ") + tokens[i];
    const std::string before = std::move(blocks[0].text);
    blocks[0].text = title;
    blocks[0].labels = {label};
    detail::remap_inline(blocks[0], before);
    return;
  }
  if (blocks.size() > 1 && blocks[1].type == BlockType::Heading && blocks[1].page == blocks[0].page &&
      blocks[1].labels.empty() && !whitespace_tokens(blocks[1].text).empty()) {
    Block& title = blocks[1];
    title.labels = {label};
    title.level = 1;
    title.bbox = title.bbox.united(blocks[0].bbox);
    blocks.erase(blocks.begin());
  }
}

// Keeps the joins of blocks that are in a chapter (block i made joins
// [join_ends[i-1], join_ends[i])).
void keep_joins(LayoutResult& res, const std::vector<bool>& kept, const std::vector<size_t>& join_ends) {
  std::vector<HyphenJoin> joins;
  size_t from = 0;
  for (size_t i = 0; i < join_ends.size(); ++i) {
    if (kept[i])
      for (size_t k = from; k < join_ends[i] && k < res.joins.size(); ++k) joins.push_back(res.joins[k]);
    from = join_ends[i];
  }
  res.joins = std::move(joins);
}

}  // namespace

LayoutResult layout_document(const Document& doc, const LayoutOptions& o) {
  LayoutResult res;
  std::vector<detail::PageLines> lines;
  detail::WordEvidence ev;
  BookStats st = detail::measure_book(doc, lines, o, ev);
  // Pages go through block building in page order, a window at a time: each page's reading
  // order on its own (pages are independent until blocks join them), then the window's items
  // in page order. Blocks point at their rows until their texts are made, and the block open
  // at a page break at the rows before it; the items and line facts of pages behind both are
  // let go. (The pages themselves are the caller's: freeing them here, on the threads that
  // lay out, made layout ~20% slower at two jobs and left the peak RSS of a build where it
  // was.)
  const size_t n = doc.pages.size();
  const size_t window = 32 * static_cast<size_t>(std::max(1, o.jobs));
  std::vector<std::vector<detail::Item>> page_items(n);
  std::vector<detail::PageDecor> page_decor(n);
  std::map<int, double> number_share;  // page -> share of lines ending with a page number
  std::vector<double> page_share(n);
  // Blocks are made on one thread: with more jobs, the others read the pages ahead.
  LayoutOptions stream_options = o;
  stream_options.jobs = 1;
  detail::BlockStream stream(st, ev, stream_options, res.joins);
  size_t kept_from = 0;  // pages before it are let go
  // Pages brought back from the spill file, held while their items are (rows point at
  // their lines).
  std::vector<std::unique_ptr<Page>> brought_back(n);
  auto let_go = [&](size_t i) {
    std::vector<detail::Item>().swap(page_items[i]);
    page_decor[i] = detail::PageDecor();
    lines[i] = detail::PageLines();
    brought_back[i].reset();
  };
  auto read_page = [&](size_t i) {
    const Page* page = &doc.pages[i];
    if (doc.spill && doc.spill->spilled(i)) {
      brought_back[i] = std::make_unique<Page>(doc.pages[i]);
      doc.spill->load(i, *brought_back[i]);
      page = brought_back[i].get();
      lines[i] = detail::PageLines(*page, o);  // (let go by collect_words)
    }
    page_items[i] = detail::page_items(*page, lines[i], st, o);
    page_decor[i] = detail::page_decor(*page, o);
    page_share[i] = detail::page_number_line_share(*page, lines[i], o);
  };
  // Feeds page i (its items ready) to the blocks; at the end of a window, makes the texts of
  // the blocks done and lets go the pages no block points at any more.
  auto feed = [&](size_t i) {
    stream.add_page(page_items[i], page_decor[i]);
    number_share[doc.pages[i].number] = page_share[i];
    if ((i + 1) % window != 0 && i + 1 != n) return;
    stream.make_texts();
    const int in_use = stream.first_page_in_use();
    while (kept_from <= i && doc.pages[kept_from].number < in_use) let_go(kept_from++);
  };
  if (o.jobs <= 1 || n <= 1) {
    for (size_t i = 0; i < n; ++i) {
      read_page(i);
      feed(i);
    }
  } else {
    // The other threads read pages ahead (at most two windows) while this one feeds them in
    // order, reading pages itself while the next is not ready. Which thread reads a page
    // changes nothing in it.
    const size_t ahead = 2 * window;
    std::atomic<size_t> claimed{0};
    size_t fed = 0;  // guarded by m
    std::vector<char> ready(n, 0);  // guarded by m
    std::mutex m;
    std::condition_variable changed;
    std::exception_ptr failure;  // guarded by m
    auto read_claimed = [&](size_t i) {
      std::exception_ptr e;
      try {
        read_page(i);
      } catch (...) {
        e = std::current_exception();
      }
      std::lock_guard lock(m);
      ready[i] = 1;
      if (e && !failure) failure = e;
      changed.notify_all();
    };
    auto helper = [&] {
      for (;;) {
        const size_t i = claimed.fetch_add(1);
        if (i >= n) return;
        {
          std::unique_lock lock(m);
          changed.wait(lock, [&] { return i < fed + ahead || failure; });
          if (failure) return;
        }
        read_claimed(i);
      }
    };
    std::vector<std::thread> helpers;
    for (int t = 1; t < o.jobs; ++t) helpers.emplace_back(helper);
    std::exception_ptr stopped;
    try {
      for (size_t i = 0; i < n; ++i) {
        for (;;) {
          {
            std::unique_lock lock(m);
            if (failure) std::rethrow_exception(failure);
            if (ready[i]) break;
          }
          // Not ready: read the next unclaimed page within reach, or wait for page i.
          size_t j = claimed.load();
          if (j < n && j < i + ahead && claimed.compare_exchange_strong(j, j + 1)) {
            read_claimed(j);
            continue;
          }
          std::unique_lock lock(m);
          changed.wait(lock, [&] { return ready[i] || failure; });
        }
        feed(i);
        std::lock_guard lock(m);
        fed = i + 1;
        changed.notify_all();
      }
    } catch (...) {
      stopped = std::current_exception();
      std::lock_guard lock(m);
      if (!failure) failure = stopped;
      claimed = n;
      changed.notify_all();
    }
    for (auto& t : helpers) t.join();
    if (stopped) std::rethrow_exception(stopped);
  }
  std::vector<double> sizes;
  std::vector<size_t> join_ends;
  std::vector<Block> blocks = stream.finish(sizes, join_ends);
  for (size_t i = kept_from; i < n; ++i) let_go(i);
  // Blocks that end up in a chapter. Joins made inside excluded matter (a copyright page's
  // prose) are dropped: those words are not in the corpus, and the wording check accounts
  // for excluded pages by their printed tokens, unjoined.
  std::vector<bool> kept(blocks.size(), false);
  auto keep = [&](const Block* b) { kept[static_cast<size_t>(b - blocks.data())] = true; };
  if (doc.pages.empty()) {
    res.warnings.push_back("no pages");
    return res;
  }
  const int first_page = doc.pages.front().number, last_page = doc.pages.back().number;

  int chapter_level = 1;
  std::vector<Start> starts = outline_starts(doc, chapter_level);
  bool from_outline = !starts.empty();
  if (!from_outline) starts = heading_starts(blocks, sizes, o);

  // Blocks -> the start they belong to (-1: before the first chapter).
  std::vector<std::vector<const Block*>> parts(starts.size());
  std::vector<const Block*> before;
  {
    size_t k = 0;
    long cur = -1;
    for (size_t i = 0; i < blocks.size(); ++i) {
      const Block& b = blocks[i];
      // (A destination may point inside a heading's first line: a large title's top stands
      // well above the point an outline entry names.)
      const double tolerance =
          b.type == BlockType::Heading ? std::max(o.outline_y_tolerance, 0.75 * sizes[i]) : o.outline_y_tolerance;
      while (k < starts.size() &&
             (starts[k].page < b.page || (starts[k].page == b.page && starts[k].y <= b.bbox.y0 + tolerance))) {
        cur = static_cast<long>(k);
        ++k;
      }
      // Part openers give their pages to the chapter that follows.
      long owner = cur;
      while (owner >= 0 && static_cast<size_t>(owner) + 1 < starts.size() && starts[owner].part) ++owner;
      if (owner < 0) before.push_back(&b);
      else parts[owner].push_back(&b);
    }
  }

  auto page_range = [](const std::vector<const Block*>& bs, int& f, int& l) {
    f = INT32_MAX;
    l = 0;
    for (const auto* b : bs) {
      f = std::min(f, b->page);
      l = std::max(l, std::max(b->page, b->last_page));
    }
  };

  // Matter before the first chapter: contents pages by their page-number column, the
  // title and copyright pages by position and wording; prose pages make a front chapter.
  {
    std::map<int, std::vector<const Block*>> by_page;
    for (const auto* b : before) by_page[b->page].push_back(b);
    int front_end = starts.empty() ? first_page - 1 : starts.front().page - 1;
    for (int p = first_page; p <= front_end; ++p) by_page[p];
    std::vector<std::pair<std::string, int>> kinds;  // kind per page, in order
    for (const auto& [p, bs] : by_page) {
      std::string kind;
      std::string text;
      for (const auto* b : bs) text += " " + lower_ascii(b->text);
      if (number_share[p] >= o.page_number_line_share) kind = "contents";
      else if (text.find("copyright") != std::string::npos || text.find("\u00a9") != std::string::npos ||
               text.find("isbn") != std::string::npos)
        kind = "copyright";
      else if (word_count(bs) >= o.min_prose_page_words) kind = "";  // prose: a preface without a bookmark
      else if (!kinds.empty() && kinds.back().first.empty()) kind = "";  // its listing or figure page
      else if (p == first_page || (!kinds.empty() && kinds.back().first == "title-page")) kind = "title-page";
      else kind = "front-matter";
      kinds.push_back({kind, p});
    }
    std::vector<const Block*> front_blocks;
    for (size_t i = 0; i < kinds.size();) {
      size_t j = i;
      while (j < kinds.size() && kinds[j].first == kinds[i].first) ++j;
      int f = kinds[i].second, l = kinds[j - 1].second;
      if (kinds[i].first.empty() || o.keep_matter) {
        for (size_t k = i; k < j; ++k)
          for (const auto* b : by_page[kinds[k].second]) front_blocks.push_back(b);
      } else {
        static const std::map<std::string, std::string> titles = {{"contents", "Contents"},
                                                                  {"copyright", "Copyright"},
                                                                  {"title-page", "Title page"},
                                                                  {"front-matter", "Front matter"}};
        res.excluded.push_back({titles.at(kinds[i].first), kinds[i].first, f, l});
      }
      i = j;
    }
    if (!front_blocks.empty()) {
      Chapter c;
      c.kind = ChapterKind::Front;
      for (const auto* b : front_blocks)
        if (b->type == BlockType::Heading && c.title.empty()) c.title = b->text;
      if (c.title.empty()) c.title = "Front matter";
      for (const auto* b : front_blocks) {
        c.blocks.push_back(*b);
        keep(b);
      }
      page_range(front_blocks, c.first_page, c.last_page);
      res.chapters.push_back(std::move(c));
    }
  }

  if (starts.empty()) {
    // No outline and no chapter headings: one chapter.
    res.warnings.push_back("no outline and no chapter headings: the book is one chapter");
    Chapter c;
    c.title = !doc.metadata.title.empty() ? doc.metadata.title : doc.file;
    c.blocks = std::move(blocks);
    c.first_page = first_page;
    c.last_page = last_page;
    res.chapters.clear();
    res.excluded.clear();
    res.chapters.push_back(std::move(c));
    std::fill(kept.begin(), kept.end(), true);
    keep_joins(res, kept, join_ends);
    place_footnotes(res.chapters);
    link_figure_references(res.chapters);
    detail::anchor_links(res.chapters, o);
    return res;
  }

  // Outline entries below the chapter level, for heading levels.
  struct Sub {
    int page;
    std::string key;
    int level;
  };
  std::vector<Sub> subs;
  for (const auto& e : doc.outline)
    if (e.page > 0) subs.push_back({e.page, squash(split_title(e.title).title), e.level - chapter_level + 1});
  // Heading sizes -> levels, learned from the headings the outline names.
  std::map<long, std::map<int, int>> size_levels;
  auto outline_level = [&](const Block& b) {
    std::string key = squash(b.text);
    for (const auto& s : subs)
      if (std::abs(s.page - b.page) <= 1 && !s.key.empty() && key.size() >= s.key.size() &&
          key.compare(key.size() - s.key.size(), s.key.size(), s.key) == 0)
        return s.level;
    return 0;
  };
  for (size_t i = 0; i < blocks.size(); ++i)
    if (blocks[i].type == BlockType::Heading)
      if (int lv = outline_level(blocks[i]); lv > 0) size_levels[std::lround(sizes[i] * 2)][lv]++;
  std::vector<double> heading_sizes;
  for (size_t i = 0; i < blocks.size(); ++i)
    if (blocks[i].type == BlockType::Heading) heading_sizes.push_back(std::round(sizes[i] * 2) / 2);
  std::sort(heading_sizes.begin(), heading_sizes.end(), std::greater<>());
  heading_sizes.erase(std::unique(heading_sizes.begin(), heading_sizes.end()), heading_sizes.end());
  auto level_of = [&](const Block& b, double size) {
    if (int lv = outline_level(b); lv > 0) return std::max(1, lv);
    auto it = size_levels.find(std::lround(size * 2));
    if (it != size_levels.end()) {
      int best = 0, n = -1;
      for (const auto& [lv, c] : it->second)
        if (c > n) { best = lv; n = c; }
      return std::max(1, best);
    }
    auto pos = std::find(heading_sizes.begin(), heading_sizes.end(), std::round(size * 2) / 2);
    return std::min(6, static_cast<int>(pos - heading_sizes.begin()) + 1);
  };
  std::map<const Block*, double> size_of;
  for (size_t i = 0; i < blocks.size(); ++i) size_of[&blocks[i]] = sizes[i];

  int numbered_seen = 0;
  int last_numbered_chapter = -1;
  std::vector<TitleParts> tps;
  for (const auto& s : starts) tps.push_back(split_title(s.title));
  // "A References" after numbered chapters: a lettered appendix (before them, a leading
  // capital is more likely an article: "A Tour of ...").
  static const std::regex letter_first(R"(^\s*([A-Z])\s+(\S.*)$)");
  bool digits_seen = false;
  for (size_t i = 0; i < tps.size(); ++i) {
    std::smatch m;
    if (!tps[i].number.empty() && std::isdigit(static_cast<unsigned char>(tps[i].number[0]))) digits_seen = true;
    else if (digits_seen && tps[i].number.empty() && std::regex_match(starts[i].title, m, letter_first)) {
      tps[i].number = m[1];
      tps[i].title = m[2];
      tps[i].appendix = true;
    }
  }
  // A title without its number in the outline ("Getting Started") takes the number of the
  // opener label printed over it ("CHAPTER ONE", "Appendix A").
  for (size_t i = 0; i < tps.size(); ++i) {
    if (!tps[i].number.empty() || starts[i].part || parts[i].empty() || parts[i].front()->type != BlockType::Heading)
      continue;
    const auto tokens = whitespace_tokens(parts[i].front()->text);
    if (tokens.size() < 2 || !detail::opener_word(tokens[0]) || lower_ascii(tokens[0]) == "part" ||
        !detail::opener_number(tokens[1]))
      continue;
    tps[i].number = detail::opener_number_value(tokens[1]);
    tps[i].appendix = lower_ascii(tokens[0]) == "appendix";
  }
  for (size_t i = 0; i < tps.size(); ++i)
    if (!tps[i].number.empty()) last_numbered_chapter = static_cast<int>(i);
  for (size_t i = 0; i < starts.size(); ++i) {
    if (starts[i].part && i + 1 < starts.size()) continue;
    const auto& bs = parts[i];
    const TitleParts& tp = tps[i];
    Chapter c;
    c.title = tp.title;
    c.number = tp.number;
    if (tp.appendix) c.kind = ChapterKind::Appendix;
    else if (!tp.number.empty()) c.kind = ChapterKind::Body;
    else if (numbered_seen == 0) c.kind = ChapterKind::Front;
    else if (static_cast<int>(i) > last_numbered_chapter) c.kind = ChapterKind::Back;
    if (!tp.number.empty()) ++numbered_seen;
    int f = starts[i].page, l = starts[i].page;
    if (!bs.empty()) {
      page_range(bs, f, l);
      f = std::min(f, starts[i].page);
    }
    // Pages up to the next chapter (blank versos and pages of furniture only) are this
    // chapter's, so every page belongs somewhere.
    int next = i + 1 < starts.size() ? starts[i + 1].page : last_page + 1;
    l = std::max(l, next - 1);
    l = std::min(l, last_page);
    c.first_page = f;
    c.last_page = std::max(f, l);
    bool first_heading = true;
    for (const auto* b : bs) {
      // Each block is in one chapter: it moves there (a copy would hold the book's blocks
      // twice, the largest thing in memory at this point).
      Block nb = std::move(blocks[static_cast<size_t>(b - blocks.data())]);
      if (nb.type == BlockType::Heading) {
        nb.level = first_heading && b == bs.front() ? 1 : level_of(nb, size_of[b]);
        if (nb.level == 1 && b != bs.front()) nb.level = 2;
        first_heading = false;
      }
      c.blocks.push_back(std::move(nb));
    }
    split_opener_label(c.blocks);
    // An opener label set as a heading of its own ("Chapter 2" over the title) opened the
    // chapter, and the title below took the label: the chapter is named by the title.
    if (!from_outline && !c.blocks.empty() && c.blocks[0].type == BlockType::Heading &&
        c.blocks[0].labels.size() == 1 && c.title == c.blocks[0].labels[0])
      c.title = split_title(c.blocks[0].text).title;
    // Matter kept out of the corpus: by title, or by layout (lines ending with page numbers).
    std::string kind = matter_kind_from_title(c.title);
    if (kind.empty()) {
      int pages = 0, numbered = 0;
      for (int p = c.first_page; p <= c.last_page; ++p) {
        ++pages;
        if (number_share[p] >= o.page_number_line_share) ++numbered;
      }
      if (pages > 0 && numbered * 2 > pages) kind = numbered_seen == 0 ? "contents" : "index";
    }
    // The title page as the outline's first entry, named by the book's title (Asciidoctor
    // PDF and DocBook bookmark it): the book's first page, or the first two (a title page
    // and its verso), with little prose on them.
    if (kind.empty() && i == 0 && c.first_page == first_page && c.last_page <= first_page + 1 &&
        !doc.metadata.title.empty() && squash(c.title) == squash(doc.metadata.title) &&
        word_count(bs) < o.min_prose_page_words)
      kind = "title-page";
    if (!kind.empty() && !o.keep_matter) {
      res.excluded.push_back({c.title, kind, c.first_page, c.last_page});
      continue;
    }
    if (!kind.empty()) c.kind = numbered_seen == 0 ? ChapterKind::Front : ChapterKind::Back;
    for (const auto* b : bs) keep(b);
    res.chapters.push_back(std::move(c));
  }

  keep_joins(res, kept, join_ends);
  place_footnotes(res.chapters);
  link_figure_references(res.chapters);
  detail::anchor_links(res.chapters, o);
  std::stable_sort(res.excluded.begin(), res.excluded.end(),
                   [](const ExcludedMatter& a, const ExcludedMatter& b) { return a.first_page < b.first_page; });
  if (!from_outline && res.chapters.empty()) res.warnings.push_back("no chapters found");
  return res;
}

}  // namespace quire
