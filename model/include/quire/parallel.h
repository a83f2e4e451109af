// Deterministic data parallelism for the stages: run fn(i) for i in [0, n) on up to `jobs`
// threads. Each index is handled exactly once and results go into slots indexed by i, so the
// output never depends on the thread count or timing. jobs <= 1 (or n <= 1) runs inline, in
// order, on the calling thread.
//
// fn must not throw across threads unchecked: the first exception (by lowest index) is
// rethrown on the calling thread after every worker has stopped.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

namespace quire {

// Indexes are handed out in chunks of `grain` so that cheap per-index work does not pay an
// atomic per item; pages take one each, words or lines a few hundred.
template <class Fn>
void parallel_for(size_t n, int jobs, Fn&& fn, size_t grain = 1) {
  if (grain == 0) grain = 1;
  const size_t chunks = (n + grain - 1) / grain;
  const size_t threads = std::min(static_cast<size_t>(std::max(jobs, 1)), chunks);
  if (threads <= 1) {
    for (size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::mutex error_mutex;
  std::exception_ptr error;
  size_t error_index = n;
  auto work = [&] {
    for (size_t c = next++; c < chunks; c = next++) {
      const size_t end = std::min(n, (c + 1) * grain);
      for (size_t i = c * grain; i < end; ++i) {
        try {
          fn(i);
        } catch (...) {
          std::lock_guard lock(error_mutex);
          if (i < error_index) {
            error_index = i;
            error = std::current_exception();
          }
        }
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

// The indices of `cost`, largest first, ties in index order.
inline std::vector<size_t> largest_first(const std::vector<size_t>& cost) {
  std::vector<size_t> order(cost.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cost[a] > cost[b]; });
  return order;
}

// As parallel_for over [0, cost.size()), with the largest pieces of work handed out first
// (ties in index order): pieces of very unequal size, a book's chapters, then end together
// instead of with one thread finishing the largest alone. fn(i) still fills slot i, and the
// exception rethrown is still that of the lowest index.
template <class Fn>
void parallel_for_largest_first(const std::vector<size_t>& cost, int jobs, Fn&& fn) {
  const std::vector<size_t> order = largest_first(cost);
  std::vector<std::exception_ptr> errors(cost.size());
  parallel_for(order.size(), jobs, [&](size_t k) {
    try {
      fn(order[k]);
    } catch (...) {
      errors[order[k]] = std::current_exception();
    }
  });
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace quire
