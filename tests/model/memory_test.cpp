// Freed memory handed back (quire/memory.h): the release the binary installs is what the
// stages' calls run, and without one a call does nothing.
#include <gtest/gtest.h>

#include <atomic>

#include "quire/memory.h"

namespace quire {
namespace {

std::atomic<int> g_released{0};
void count_release() { ++g_released; }

TEST(Memory, TheInstalledReleaseRunsOnEachCall) {
  g_released = 0;
  set_memory_release(count_release);
  release_free_memory();
  release_free_memory();
  EXPECT_EQ(g_released.load(), 2);
  set_memory_release(nullptr);
  release_free_memory();
  EXPECT_EQ(g_released.load(), 2);
}

}  // namespace
}  // namespace quire
