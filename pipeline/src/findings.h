// The wording check's suspicious exits: words that left the prose by an allowed way (a
// figure's labels, the furniture log) in a way a person should look at.
#pragma once

#include <vector>

#include "quire/pipeline.h"

namespace quire {

std::vector<VerifyFinding> find_suspicious_exits(const Book& book, const std::vector<SourcePage>& source,
                                                 const FindingOptions& options);

}  // namespace quire
