// JSON forms of the model: deterministic (fixed key order, boxes rounded to 0.01 pt,
// classic number formatting) and readable back to equal values.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

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

// The compact form of JSON text that dump wrote: the whitespace between tokens removed, one
// '\n' at the end. For such text it equals dump(Json::parse(text), false), without building
// the document (both forms escape strings and print numbers alike).
std::string compact_json(std::string_view text);

}  // namespace quire
