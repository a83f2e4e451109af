// parallel_for: every index exactly once, results independent of the thread count, and the
// lowest-index exception rethrown on the caller.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
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

TEST(ParallelForLargestFirst, LargestFirstEachOnceInItsSlot) {
  const std::vector<size_t> cost = {3, 9, 1, 9, 5};
  // Serially the order is visible: by cost, ties in index order.
  std::vector<size_t> order;
  parallel_for_largest_first(cost, 1, [&](size_t i) { order.push_back(i); });
  EXPECT_EQ(order, (std::vector<size_t>{1, 3, 4, 0, 2}));
  for (int jobs : {2, 4}) {
    std::vector<std::atomic<int>> hits(cost.size());
    std::vector<long> out(cost.size(), -1);
    parallel_for_largest_first(cost, jobs, [&](size_t i) {
      hits[i]++;
      out[i] = static_cast<long>(cost[i] * 10 + i);
    });
    for (size_t i = 0; i < cost.size(); ++i) {
      EXPECT_EQ(hits[i].load(), 1) << i;
      EXPECT_EQ(out[i], static_cast<long>(cost[i] * 10 + i));
    }
  }
}

TEST(ParallelForLargestFirst, LowestIndexExceptionReachesTheCaller) {
  // Index 4 is handed out before index 1 (larger cost), yet index 1's error is the one seen.
  const std::vector<size_t> cost = {1, 2, 1, 1, 50};
  for (int jobs : {1, 2}) {
    try {
      parallel_for_largest_first(cost, jobs, [&](size_t i) {
        if (i == 1 || i == 4) throw std::runtime_error("index " + std::to_string(i));
      });
      FAIL() << "no exception at jobs " << jobs;
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "index 1") << "jobs " << jobs;
    }
  }
}

// Under a lane limit with no spare lane, no helper is started and the caller does all the
// work.
TEST(Lanes, WithNoSpareLaneTheCallerDoesEverything) {
  Lanes::Limit limit(0);
  const auto caller = std::this_thread::get_id();
  std::vector<std::thread::id> by(200);
  parallel_for(by.size(), 4, [&](size_t i) { by[i] = std::this_thread::get_id(); });
  for (size_t i = 0; i < by.size(); ++i) ASSERT_EQ(by[i], caller) << i;
  EXPECT_FALSE(Lanes::shared().spare());
}

// A lane given back while the work runs (a book worker with no book left) goes to a
// helper the caller starts after its current item, which takes part of the rest.
TEST(Lanes, ALaneGivenBackGoesToAHelper) {
  Lanes::Limit limit(0);
  const auto caller = std::this_thread::get_id();
  std::atomic<bool> helped{false};
  std::vector<std::thread::id> by(100);
  parallel_for(by.size(), 2, [&](size_t i) {
    by[i] = std::this_thread::get_id();
    if (by[i] != caller) helped = true;
    if (i == 0) Lanes::shared().give();
    // The caller's next item waits until a helper has run one (or gives up after 20 s).
    if (i == 1 && by[i] == caller)
      for (int wait = 0; wait < 2000 && !helped; ++wait) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  });
  EXPECT_TRUE(helped.load());
  EXPECT_GT(std::count_if(by.begin(), by.end(), [&](auto id) { return id != caller; }), 0);
}

// Without a limit (every command but a batch build) helpers never wait for a lane.
TEST(Lanes, WithoutALimitHelpersRunFreely) {
  const auto caller = std::this_thread::get_id();
  std::atomic<bool> helped{false};
  parallel_for(100, 2, [&](size_t i) {
    if (std::this_thread::get_id() != caller) helped = true;
    if (i == 0)
      for (int wait = 0; wait < 2000 && !helped; ++wait) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  });
  EXPECT_TRUE(helped.load());
}

}  // namespace
}  // namespace quire
