// The order a batch's books start in (pipeline/src/work_order.h).
#include <gtest/gtest.h>

#include "work_order.h"

namespace quire {
namespace {

constexpr uintmax_t kKiB = 1024, kMiB = 1024 * 1024;

TEST(WorkOrder, SmallBooksStartFirstThenTheOthersLargestFirst) {
  // A file that could not be measured counts as 0 bytes: small, so it starts (and fails) first.
  const std::vector<uintmax_t> sizes = {10 * kKiB, 5 * kMiB, 100 * kKiB, 2 * kKiB, 1 * kMiB, kSmallBookBytes, 0, 5 * kMiB};
  // Small ones largest first among them; then the rest, equal sizes in their given order.
  EXPECT_EQ(work_order(sizes), (std::vector<size_t>{0, 3, 6, 1, 7, 4, 2, 5}));
}

TEST(WorkOrder, WithoutSmallBooksTheLargestStartFirst) {
  const std::vector<uintmax_t> sizes = {kSmallBookBytes, 3 * kMiB, 200 * kKiB, 3 * kMiB};
  EXPECT_EQ(work_order(sizes), (std::vector<size_t>{1, 3, 2, 0}));
  EXPECT_TRUE(work_order({}).empty());
}

}  // namespace
}  // namespace quire
