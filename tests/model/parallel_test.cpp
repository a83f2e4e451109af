// parallel_for: every index exactly once, results independent of the thread count, and the
// lowest-index exception rethrown on the caller.
#include <gtest/gtest.h>

#include <atomic>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "quire/parallel.h"

namespace quire {
namespace {

std::vector<long> squares(size_t n, int jobs, size_t grain) {
  std::vector<long> out(n, -1);
  parallel_for(n, jobs, [&](size_t i) { out[i] = static_cast<long>(i * i); }, grain);
  return out;
}

TEST(ParallelFor, SameSlotsAtAnyJobsAndGrain) {
  const auto serial = squares(1001, 1, 1);
  for (long i = 0; i < 1001; ++i) ASSERT_EQ(serial[static_cast<size_t>(i)], i * i);
  for (int jobs : {2, 3, 8})
    for (size_t grain : {size_t{1}, size_t{7}, size_t{64}, size_t{5000}})
      EXPECT_EQ(squares(1001, jobs, grain), serial) << "jobs " << jobs << " grain " << grain;
}

TEST(ParallelFor, EachIndexOnce) {
  std::vector<std::atomic<int>> hits(500);
  parallel_for(hits.size(), 4, [&](size_t i) { hits[i]++; }, 3);
  for (size_t i = 0; i < hits.size(); ++i) EXPECT_EQ(hits[i].load(), 1) << i;
}

TEST(ParallelFor, NothingToDo) {
  int calls = 0;
  parallel_for(0, 4, [&](size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(ParallelFor, LowestIndexExceptionReachesTheCaller) {
  for (int jobs : {1, 2, 4}) {
    std::atomic<int> done{0};
    try {
      parallel_for(100, jobs, [&](size_t i) {
        if (i == 30 || i == 70) throw std::runtime_error("index " + std::to_string(i));
        done++;
      });
      FAIL() << "no exception at jobs " << jobs;
    } catch (const std::runtime_error& e) {
      // Serially the loop stops at 30; in parallel every other index still runs.
      EXPECT_STREQ(e.what(), "index 30") << "jobs " << jobs;
    }
    if (jobs > 1) {
      EXPECT_EQ(done.load(), 98);
    }
  }
}

}  // namespace
}  // namespace quire
