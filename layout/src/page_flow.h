// Private to layout/: pages -> blocks in page order (page_flow.cpp).
#pragma once

#include <map>
#include <vector>

#include "internal.h"

namespace quire::detail {

// What the pages make for chapter building.
struct PageFlow {
  std::vector<Block> blocks;
  std::vector<double> sizes;           // largest font size of each block (BlockStream::finish)
  std::vector<size_t> join_ends;       // joins logged up to and with each block (BlockStream::finish)
  std::map<int, std::vector<NumberRow>> number_rows;  // page -> its rows, entries or not (number_rows)
};

// Measures the book, finds each page's reading order (in parallel, options.jobs) and builds
// the blocks; hyphen joins are logged into `joins`. The same for any number of jobs.
PageFlow flow_pages(const Document&, const LayoutOptions&, std::vector<HyphenJoin>& joins);

}  // namespace quire::detail
