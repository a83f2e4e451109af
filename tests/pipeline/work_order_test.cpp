// The order a batch's books start in (pipeline/src/work_order.h).
#include <gtest/gtest.h>

#include "work_order.h"

namespace quire {
namespace {

constexpr uintmax_t kKiB = 1024, kMiB = 1024 * 1024;

TEST(WorkOrder, LargeBooksThenSmallOnesThenTheRestEachLargestFirst) {
  // A file that could not be measured counts as 0 bytes: a small one.
  const std::vector<uintmax_t> sizes = {10 * kKiB, 5 * kMiB, 100 * kKiB, 2 * kKiB,
                                        kLargeBookBytes, kSmallBookBytes, 0, 5 * kMiB};
  // Equal sizes keep their given order.
  EXPECT_EQ(work_order(sizes), (std::vector<size_t>{1, 7, 4, 0, 3, 6, 2, 5}));
}

TEST(WorkOrder, AGroupWithoutBooksIsPassedOver) {
  EXPECT_EQ(work_order({kSmallBookBytes, 3 * kMiB, 200 * kKiB, 3 * kMiB}), (std::vector<size_t>{1, 3, 2, 0}));
  EXPECT_EQ(work_order({10 * kKiB, 500 * kKiB, 2 * kKiB}), (std::vector<size_t>{0, 2, 1}));
  EXPECT_EQ(work_order({500 * kKiB, 2 * kMiB}), (std::vector<size_t>{1, 0}));
  EXPECT_TRUE(work_order({}).empty());
}

}  // namespace
}  // namespace quire
