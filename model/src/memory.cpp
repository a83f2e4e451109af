#include "quire/memory.h"

#include <atomic>

namespace quire {

namespace {
std::atomic<MemoryRelease> g_release{nullptr};
}  // namespace

void set_memory_release(MemoryRelease release) { g_release.store(release); }

void release_free_memory() {
  if (const MemoryRelease release = g_release.load()) release();
}

}  // namespace quire
