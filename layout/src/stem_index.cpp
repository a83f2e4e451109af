#include "stem_index.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <set>

#include <unicode/uchar.h>
#include <unicode/utf8.h>

namespace quire::detail {

namespace {

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return false;
  out.resize(static_cast<size_t>(in.tellg()));
  in.seekg(0);
  in.read(out.data(), static_cast<std::streamsize>(out.size()));
  return static_cast<size_t>(in.gcount()) == out.size();
}

std::vector<std::string> tokens_of(std::string_view line) {
  std::vector<std::string> t;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) t.emplace_back(line.substr(i, j - i));
    i = j;
  }
  return t;
}

// Directives of the affix file that change nothing about which entries a word can come
// from: suggestions, output, warnings, and flags that entries carry and Hunspell reads.
const std::set<std::string, std::less<>>& neutral_directives() {
  static const std::set<std::string, std::less<>> names = {
      "TRY",          "KEY",         "REP",          "MAP",          "PHONE",      "NOSUGGEST",
      "NOSPLITSUGS",  "MAXNGRAMSUGS", "MAXCPDSUGS",  "ONLYMAXDIFF",  "MAXDIFF",    "SUGSWITHDOTS",
      "FORBIDWARN",   "WARN",        "WORDCHARS",    "NAME",         "VERSION",    "HOME",
      "OCONV",        "COMPOUNDMIN", "FORBIDDENWORD", "KEEPCASE",    "NEEDAFFIX",  "PSEUDOROOT",
      "CIRCUMFIX",    "SUBSTANDARD", "LEMMA_PRESENT", "FULLSTRIP",   "ONLYINCOMPOUND",
      "COMPOUNDRULE", "ICONV",       "SET",          "PFX",          "SFX"};
  return names;
}

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::string fold_case(std::string_view word) {
  std::string out;
  out.reserve(word.size());
  const auto* s = reinterpret_cast<const uint8_t*>(word.data());
  const int32_t n = static_cast<int32_t>(word.size());
  int32_t i = 0;
  while (i < n) {
    if (s[i] < 0x80) {
      char c = static_cast<char>(s[i++]);
      out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
      continue;
    }
    const int32_t start = i;
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (c < 0) {  // not UTF-8: the bytes as they are
      out.append(word.substr(static_cast<size_t>(start), static_cast<size_t>(i - start)));
      continue;
    }
    uint8_t buf[U8_MAX_LENGTH];
    int32_t len = 0;
    UBool error = false;
    U8_APPEND(buf, len, U8_MAX_LENGTH, u_tolower(c), error);
    if (error) out.append(word.substr(static_cast<size_t>(start), static_cast<size_t>(i - start)));
    else out.append(reinterpret_cast<const char*>(buf), static_cast<size_t>(len));
  }
  return out;
}

std::unique_ptr<StemIndex> StemIndex::open(const std::string& aff_path, const std::string& dic_path) {
  std::unique_ptr<StemIndex> index(new StemIndex());
  if (!index->read_affixes(aff_path) || !read_file(dic_path, index->dic_)) return nullptr;
  index->index_entries();
  return index;
}

bool StemIndex::read_affixes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bool utf8 = false;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // A byte-order mark may open the file.
    if (line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
    const std::vector<std::string> t = tokens_of(line);
    if (t.empty() || t[0][0] == '#') continue;
    const std::string& d = t[0];
    if (!neutral_directives().count(d)) return false;
    if (d == "SET") utf8 = t.size() > 1 && t[1] == "UTF-8";
    if (d == "ICONV" && t.size() >= 3) input_conversions_.emplace_back(t[1], t[2]);
    if (d == "ONLYINCOMPOUND" && t.size() >= 2) compound_flags_ += t[1];
    if (d == "COMPOUNDRULE" && t.size() >= 2 && !all_digits(t[1]))
      for (char c : t[1])
        if (c != '*' && c != '?' && c != '(' && c != ')') compound_flags_ += c;
    const bool header = t.size() >= 4 && (t[2] == "Y" || t[2] == "N") && all_digits(t[3]);
    if ((d == "PFX" || d == "SFX") && t.size() >= 4 && !header) {
      // "SFX flag strip add condition": "0" for no letters; the added letters may carry
      // flags of their own after a slash.
      std::string strip = t[2] == "0" ? "" : t[2];
      std::string add = t[3].substr(0, t[3].find('/'));
      if (add == "0") add.clear();
      affixes_.push_back({d == "PFX", fold_case(strip), fold_case(add)});
    }
  }
  return utf8;
}

namespace {

// FNV-1a: the index's keys are short and the whole list is hashed at each start.
uint32_t hash_of(std::string_view folded) {
  uint32_t h = 2166136261u;
  for (char c : folded) h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
  return h;
}

bool ends_stem(char c) { return c == '/' || c == '\t' || c == ' ' || c == '\r' || c == '\n'; }

}  // namespace

// An entry's stem, folded: the line up to its flags or description, "\/" read as a slash.
std::string StemIndex::stem_of(const Entry& e) const {
  std::string stem;
  for (size_t i = e.line, end = e.line + e.line_size; i < end && !ends_stem(dic_[i]); ++i) {
    if (dic_[i] == '\\' && i + 1 < end && dic_[i + 1] == '/') ++i;
    stem += dic_[i];
  }
  return fold_case(stem);
}

void StemIndex::index_entries() {
  // The first line counts the entries; each other line is "stem/flags", and a description
  // may follow after a tab or a space.
  size_t pos = dic_.find('\n');
  pos = pos == std::string::npos ? dic_.size() : pos + 1;
  const size_t expected = std::min<size_t>(std::strtoul(dic_.c_str(), nullptr, 10), dic_.size() / 2);
  entries_.reserve(expected);
  std::vector<uint32_t> hashes;
  hashes.reserve(expected);
  while (pos < dic_.size()) {
    size_t end = dic_.find('\n', pos);
    if (end == std::string::npos) end = dic_.size();
    // Most stems are ASCII without escapes: hashed as they are read. Others are folded first.
    uint32_t h = 2166136261u;
    size_t i = pos;
    bool plain = true;
    for (; i < end && !ends_stem(dic_[i]); ++i) {
      char c = dic_[i];
      if (c == '\\' || static_cast<uint8_t>(c) >= 0x80) plain = false;
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
    }
    if (i > pos) {
      const Entry e{static_cast<uint32_t>(pos), static_cast<uint32_t>(end - pos)};
      if (!plain) h = hash_of(stem_of(e));
      entries_.push_back(e);
      hashes.push_back(h);
      if (i < end && dic_[i] == '/' && !compound_flags_.empty()) {
        size_t f = i + 1;
        while (f < end && !ends_stem(dic_[f])) ++f;
        if (std::string_view(dic_).substr(i + 1, f - i - 1).find_first_of(compound_flags_) != std::string_view::npos)
          always_.push_back(static_cast<uint32_t>(entries_.size() - 1));
      }
    }
    pos = end + 1;
  }
  // At most three slots in four taken: a probe rarely goes past two.
  size_t size = 16;
  while (3 * size < 4 * entries_.size()) size *= 2;
  slots_.assign(size, Slot{0, 0});
  for (size_t e = 0; e < entries_.size(); ++e) {
    size_t s = hashes[e] & (size - 1);
    while (slots_[s].entry != 0) s = (s + 1) & (size - 1);
    slots_[s] = {hashes[e], static_cast<uint32_t>(e + 1)};
  }
}

void StemIndex::strip_suffixes(const std::string& word, int depth, std::vector<std::string>& out) const {
  // Hunspell takes off up to two suffixes ("-ion" then "-s"); conditions are not checked,
  // as a stem too many is harmless.
  for (const Affix& a : affixes_) {
    if (a.prefix || (a.add.empty() && a.strip.empty()) || word.size() < a.add.size() ||
        word.compare(word.size() - a.add.size(), a.add.size(), a.add) != 0)
      continue;
    std::string stem = word.substr(0, word.size() - a.add.size()) + a.strip;
    if (stem.empty()) continue;
    if (depth == 0) strip_suffixes(stem, 1, out);
    out.push_back(std::move(stem));
  }
}

std::vector<std::string> StemIndex::candidate_stems(std::string_view word) const {
  // The forms Hunspell looks the word up as: itself, without the periods after it, with the
  // affix file's input conversions, and each piece between hyphens.
  std::vector<std::string> forms = {std::string(word)};
  std::string trimmed(word);
  while (!trimmed.empty() && trimmed.back() == '.') trimmed.pop_back();
  forms.push_back(trimmed);
  for (const auto& [from, to] : input_conversions_) {
    std::string converted(word);
    for (size_t p = 0; !from.empty() && (p = converted.find(from, p)) != std::string::npos; p += to.size())
      converted.replace(p, from.size(), to);
    forms.push_back(converted);
  }
  const size_t whole_forms = forms.size();
  for (size_t i = 0; i < whole_forms; ++i) {
    const std::string f = forms[i];
    for (size_t start = 0, dash; (dash = f.find('-', start)) != std::string::npos; start = dash + 1) {
      forms.push_back(f.substr(start, dash - start));
      forms.push_back(f.substr(dash + 1));
    }
  }
  std::vector<std::string> out;
  for (const std::string& form : forms) {
    if (form.empty()) continue;
    const std::string f = fold_case(form);
    out.push_back(f);
    strip_suffixes(f, 0, out);
    for (const Affix& a : affixes_) {
      if (!a.prefix || f.compare(0, a.add.size(), a.add) != 0 || (a.add.empty() && a.strip.empty())) continue;
      std::string stem = a.strip + f.substr(a.add.size());
      if (stem.empty()) continue;
      strip_suffixes(stem, 0, out);
      out.push_back(std::move(stem));
    }
  }
  return out;
}

size_t StemIndex::give(const std::string& stem, std::string& lines) {
  if (!given_.insert(stem).second) return 0;
  size_t n = 0;
  const size_t mask = slots_.size() - 1;
  const uint32_t h = hash_of(stem);
  for (size_t s = h & mask; slots_[s].entry != 0; s = (s + 1) & mask) {
    if (slots_[s].hash != h) continue;
    const Entry& e = entries_[slots_[s].entry - 1];
    if (stem_of(e) != stem) continue;
    lines.append(dic_, e.line, e.line_size);
    lines += '\n';
    ++n;
  }
  return n;
}

size_t StemIndex::select(std::string_view word, std::string& lines) {
  size_t n = 0;
  if (!started_) {
    started_ = true;
    for (uint32_t e : always_) n += give(stem_of(entries_[e]), lines);
  }
  for (const std::string& stem : candidate_stems(word)) n += give(stem, lines);
  return n;
}

}  // namespace quire::detail
