// JSON forms of the model: deterministic (fixed key order, boxes rounded to 0.01 pt,
// classic number formatting) and readable back to equal values.
#pragma once

#include <charconv>
#include <concepts>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "quire/error.h"
#include "quire/model.h"

namespace quire {

using Json = nlohmann::ordered_json;

// Rounds to 0.01 pt so that output compares byte for byte across engines' float noise.
double round_pt(double v);
Json box_to_json(const Box&);
Box box_from_json(const Json&);

Json to_json(const Span&);
Json to_json(const Line&);
Json to_json(const Page&);
Json to_json(const OutlineEntry&);
Json to_json(const Removal&);
Json to_json(const HyphenJoin&);
Json to_json(const Block&);
Json to_json(const WordLedger&);
Json to_json(const Diagnostic&);
Span span_from_json(const Json&);
Line line_from_json(const Json&);
Page page_from_json(const Json&);
Removal removal_from_json(const Json&);
HyphenJoin join_from_json(const Json&);
Block block_from_json(const Json&);
WordLedger ledger_from_json(const Json&);
// An object as to_json writes it, or a warning line as files before Diagnostic held them
// ("FILE: page N: MESSAGE"), read against `file`, the book's PDF; such a line's code and stage
// are unknown (empty).
Diagnostic diagnostic_from_json(const Json&, const std::string& file);

// pages.jsonl: a header line {"format":..., "file":..., metadata, outline...} then one line per page.
void write_pages_jsonl(std::ostream&, const Document&);
// Throws quire::Error (kind BadIntermediate) with the line number on malformed input.
Document read_pages_jsonl(std::istream&, const std::string& name_for_errors);

// blocks.jsonl (layout's output): a header line with the book, then one line per chapter.
void write_book_jsonl(std::ostream&, const Book&);
Book read_book_jsonl(std::istream&, const std::string& name_for_errors);

// Serialises with two-space indent (pretty) or compact, always ending in '\n'.
std::string dump(const Json&, bool pretty);

// JSON text written value by value, byte for byte as dump() writes the same values (pretty
// or compact), without building the document first: for the corpus's chapter files, where
// building the tree, writing it and walking it again cost more than the text. Each value
// goes where dump() puts it: after key() in an object, as the next element in an array.
class JsonWriter {
 public:
  JsonWriter(std::string& out, bool pretty) : out_(out), pretty_(pretty) {}

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
  // An object's next key (written as it is: keys are the program's own names).
  JsonWriter& key(std::string_view k);
  JsonWriter& string(std::string_view s);
  template <std::integral T>
  JsonWriter& integer(T v) {
    element();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
    return *this;
  }
  JsonWriter& number(double v);
  JsonWriter& boolean(bool v);

  // Whether parsing the text gives back every value written: no string that is not UTF-8
  // as RFC 3629 defines it (written with U+FFFD in its place, as dump() does) and no number
  // that is not finite (written as null).
  bool reads_back_the_same() const { return same_; }

 private:
  void element();
  JsonWriter& open(char c);
  JsonWriter& close(char c);
  void newline(size_t depth);

  std::string& out_;
  bool pretty_;
  bool same_ = true;
  bool after_key_ = false;
  std::vector<size_t> counts_;  // the values so far in each open object or array
};

// A block as to_json(b) gives it, through `w`; an internal link's href as `href` gives it
// (as it is without one).
void write_json(JsonWriter& w, const Block& b, std::string_view (*href)(std::string_view) = nullptr);

// The block that block_from_json() makes of the text write_json(w, b, href) wrote, made
// without the text, when w.reads_back_the_same(): the fields the JSON holds, as it holds
// them (a box rounded, a level where the type has one), and the rest as block_from_json()
// leaves them.
Block block_as_written(const Block& b, std::string_view (*href)(std::string_view) = nullptr);

// The compact form of JSON text that dump wrote: the whitespace between tokens removed, one
// '\n' at the end. For such text it equals dump(Json::parse(text), false), without building
// the document (both forms escape strings and print numbers alike).
std::string compact_json(std::string_view text);

}  // namespace quire
