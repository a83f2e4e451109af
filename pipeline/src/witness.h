// The differences two PDF engines are known to make in the words of one page, each with its
// reason: the one place that lists what `quire verify --engine poppler` forgives.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace quire {

// Words one side has and the other lacks, counted.
using WordTally = std::map<std::string, long, std::less<>>;

struct KnownDifference {
  const char* kind;    // a name for the report
  const char* reason;  // why it is harmless
};

// Every kind of difference the witness forgives.
const std::vector<KnownDifference>& known_engine_differences();

// Takes out of `missing` (words of the witness's source the corpus lacks) and `added` (words
// of the corpus the witness lacks) the pairs that a known difference explains; returns the
// words explained per kind.
std::map<std::string, long> explain_engine_differences(WordTally& missing, WordTally& added);

}  // namespace quire
