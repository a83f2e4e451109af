// Deterministic data parallelism for the stages: run fn(i) for i in [0, n) on up to `jobs`
// threads, the caller and jobs - 1 helpers that run as the lanes below allow. Each index is
// handled exactly once and results go into slots indexed by i, so the output never depends
// on the thread count or timing. jobs <= 1 (or n <= 1) runs inline, in order, on the
// calling thread.
//
// fn must not throw across threads unchecked: the first exception (by lowest index) is
// rethrown on the calling thread after every worker has stopped.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <locale>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

namespace quire {

// The cores a batch may use, shared by every book in flight. A thread that starts a piece
// of parallel work (a build's book worker, or the caller of parallel_for) holds a lane of
// its own; it starts helper threads only while a lane is spare, and they run an item only
// while they hold one. Each book is then given every job: while other books keep the lanes
// busy it starts no helper, and once the last books are in flight the lanes of the book
// workers that have nothing left to take go to the helpers their books start. Without a
// limit (any command but a batch build) a helper never waits.
class Lanes {
 public:
  static Lanes& shared() {
    static Lanes lanes;
    return lanes;
  }

  // While a Limit lives, `spare` lanes are free for helpers; give() adds one.
  class Limit {
   public:
    explicit Limit(int spare) {
      Lanes& l = shared();
      std::lock_guard lock(l.mutex_);
      l.free_ = spare;
      l.limited_ = true;
    }
    ~Limit() {
      Lanes& l = shared();
      {
        std::lock_guard lock(l.mutex_);
        l.limited_ = false;
      }
      l.changed_.notify_all();
    }
    Limit(const Limit&) = delete;
    Limit& operator=(const Limit&) = delete;
  };

  // A spare lane, held by a helper for one item of work.
  class Lane {
   public:
    // Waits until a lane is free (then holds it) or until over() says no work is left.
    template <class Over>
    Lane(Lanes& lanes, Over&& over) : lanes_(lanes) {
      std::unique_lock lock(lanes.mutex_);
      lanes.changed_.wait(lock, [&] { return !lanes.limited_ || lanes.free_ > 0 || over(); });
      if (over()) return;
      held_ = true;
      counted_ = lanes.limited_;
      if (counted_) --lanes.free_;
    }
    ~Lane() {
      if (counted_) lanes_.give();
    }
    explicit operator bool() const { return held_; }
    Lane(const Lane&) = delete;
    Lane& operator=(const Lane&) = delete;

   private:
    Lanes& lanes_;
    bool held_ = false, counted_ = false;
  };

  // A lane given back: by a helper after its item, or by a book worker with no book left.
  void give() {
    {
      std::lock_guard lock(mutex_);
      if (limited_) ++free_;
    }
    changed_.notify_all();
  }

  // Whether a helper started now would find a lane free (or no limit). Read without the
  // lock: a lane freed just after this says no is found by the next call.
  bool spare() const { return !limited() || free_.load(std::memory_order_relaxed) > 0; }
  bool limited() const { return limited_.load(std::memory_order_relaxed); }
  // Wakes the helpers that wait, for one of them whose work has run out.
  void wake() {
    { std::lock_guard lock(mutex_); }
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  // Changed under mutex_ (the waits read them there); atomic for spare().
  std::atomic<int> free_{0};
  std::atomic<bool> limited_{false};
};

// std::regex reads its pattern through the global locale's ctype facet, which fills its table
// of narrowed characters lazily, a character at a time: two threads compiling regular
// expressions at once (two books' layouts) write it together. Filled whole, once, before
// threads start, it is only read.
inline void fill_locale_tables() {
  static const bool filled = [] {
    char in[256], out[256];
    for (int i = 0; i < 256; ++i) in[i] = static_cast<char>(i);
    std::use_facet<std::ctype<char>>(std::locale()).narrow(in, in + 256, '\0', out);
    return true;
  }();
  (void)filled;
}

// Indexes are handed out in chunks of `grain` so that cheap per-index work does not pay an
// atomic per item; pages take one each, words or lines a few hundred.
template <class Fn>
void parallel_for(size_t n, int jobs, Fn&& fn, size_t grain = 1) {
  if (grain == 0) grain = 1;
  const size_t chunks = (n + grain - 1) / grain;
  const size_t threads = std::min(static_cast<size_t>(std::max(jobs, 1)), chunks);
  if (threads > 1) fill_locale_tables();
  if (threads <= 1) {
    for (size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::mutex error_mutex;
  std::exception_ptr error;
  size_t error_index = n;
  auto run = [&](size_t c) {
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
  };
  Lanes& lanes = Lanes::shared();
  auto help = [&] {
    for (;;) {
      Lanes::Lane lane(lanes, [&] { return next.load() >= chunks; });
      if (!lane) return;
      const size_t c = next++;
      if (c >= chunks) return;
      run(c);
    }
  };
  // Helpers are started only while a lane is free, before the first chunk and after each
  // one the caller runs (under a limit, one at a time: the lane one finds may be the only
  // one). While every lane of a batch is busy, a helper would only wait for the work to run
  // out, and the caller would then wait for it to be scheduled to end: milliseconds when
  // both cores are busy, at every stage of every small book.
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  auto add_helpers = [&] {
    while (pool.size() + 1 < threads && next.load() < chunks && lanes.spare()) {
      pool.emplace_back(help);
      if (lanes.limited()) break;
    }
  };
  add_helpers();
  for (size_t c = next++; c < chunks; c = next++) {
    run(c);
    add_helpers();
  }
  lanes.wake();
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
