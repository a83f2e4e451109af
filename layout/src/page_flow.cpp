// Page flow: pages -> blocks. Each page's reading order is found on its own (pages are
// independent until blocks join them); blocks are built from the pages in page order, since a
// paragraph, a listing or a table goes on across a page break.
#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "figures.h"
#include "page_flow.h"
#include "quire/parallel.h"
#include "quire/spill.h"

namespace quire::detail {

namespace {

// Runs read(i) for pages i in [0, n) and feed(i) on this thread in page order, each page
// after its read. With jobs > 1 and a lane free (quire/parallel.h), helper threads read
// pages ahead (at most `ahead` past the last page fed) while this one feeds them in order,
// reading pages itself while the next is not ready. (While every lane of a batch is busy,
// a helper would only take turns with this thread for a core, and this thread would wait
// for it.) Which thread reads a page changes nothing in it. The first failure stops every
// thread and is rethrown here.
template <class Read, class Feed>
void read_ahead_in_order(size_t n, int jobs, size_t ahead, Read&& read_page, Feed&& feed) {
  if (jobs <= 1 || n <= 1 || !Lanes::shared().spare()) {
    for (size_t i = 0; i < n; ++i) {
      read_page(i);
      feed(i);
    }
    return;
  }
  std::atomic<size_t> claimed{0};
  size_t fed = 0;  // guarded by m
  std::vector<char> ready(n, 0);  // guarded by m
  std::mutex m;
  std::condition_variable changed;
  std::exception_ptr failure;  // guarded by m
  auto read_claimed = [&](size_t i) {
    std::exception_ptr e;
    try {
      read_page(i);
    } catch (...) {
      e = std::current_exception();
    }
    std::lock_guard lock(m);
    ready[i] = 1;
    if (e && !failure) failure = e;
    changed.notify_all();
  };
  auto helper = [&] {
    for (;;) {
      const size_t i = claimed.fetch_add(1);
      if (i >= n) return;
      {
        std::unique_lock lock(m);
        changed.wait(lock, [&] { return i < fed + ahead || failure; });
        if (failure) return;
      }
      read_claimed(i);
    }
  };
  std::vector<std::thread> helpers;
  fill_locale_tables();
  for (int t = 1; t < jobs; ++t) helpers.emplace_back(helper);
  std::exception_ptr stopped;
  try {
    for (size_t i = 0; i < n; ++i) {
      for (;;) {
        {
          std::unique_lock lock(m);
          if (failure) std::rethrow_exception(failure);
          if (ready[i]) break;
        }
        // Not ready: read the next unclaimed page within reach, or wait for page i.
        size_t j = claimed.load();
        if (j < n && j < i + ahead && claimed.compare_exchange_strong(j, j + 1)) {
          read_claimed(j);
          continue;
        }
        std::unique_lock lock(m);
        changed.wait(lock, [&] { return ready[i] || failure; });
      }
      feed(i);
      std::lock_guard lock(m);
      fed = i + 1;
      changed.notify_all();
    }
  } catch (...) {
    stopped = std::current_exception();
    std::lock_guard lock(m);
    if (!failure) failure = stopped;
    claimed = n;
    changed.notify_all();
  }
  for (auto& t : helpers) t.join();
  if (stopped) std::rethrow_exception(stopped);
}

}  // namespace

PageFlow flow_pages(const Document& doc, const LayoutOptions& o, std::vector<HyphenJoin>& joins) {
  PageFlow res;
  std::vector<PageLines> lines;
  WordEvidence ev;
  BookStats st = measure_book(doc, lines, o, ev);
  // Pages go through block building in page order, a window at a time: each page's reading
  // order on its own (pages are independent until blocks join them), then the window's items
  // in page order. Blocks point at their rows until their texts are made, and the block open
  // at a page break at the rows before it; the items and line facts of pages behind both are
  // let go. (The pages themselves are the caller's: freeing them here, on the threads that
  // lay out, made layout ~20% slower at two jobs and left the peak RSS of a build where it
  // was.)
  const size_t n = doc.pages.size();
  // (How many pages a window holds per job and how far reading runs ahead: the memory held
  // and the threads' work, never the output.)
  constexpr size_t kWindowPagesPerJob = 32, kWindowsAhead = 2;
  const size_t window = kWindowPagesPerJob * static_cast<size_t>(std::max(1, o.jobs));
  std::vector<std::vector<Item>> page_items(n);
  std::vector<PageDecor> page_decor(n);
  std::vector<std::vector<NumberRow>> page_rows(n);
  // Blocks are made on this thread, while with more jobs the others read the pages ahead. The
  // texts of a window's blocks are made by parallel_for, which adds a helper while a lane is
  // free (quire/parallel.h): it takes the core that the reading helper leaves idle while it
  // waits for the blocks to catch up (refman.pdf at two jobs: clean and layout 0.553 s to
  // 0.534 s, medians of five).
  BlockStream stream(st, ev, o, joins);
  size_t kept_from = 0;  // pages before it are let go
  // Pages brought back from the spill file, held while their items are (rows point at
  // their lines).
  std::vector<std::unique_ptr<Page>> brought_back(n);
  auto let_go = [&](size_t i) {
    std::vector<Item>().swap(page_items[i]);
    page_decor[i] = PageDecor();
    lines[i] = PageLines();
    brought_back[i].reset();
  };
  auto read_page = [&](size_t i) {
    const Page* page = &doc.pages[i];
    if (doc.spill && doc.spill->spilled(i)) {
      brought_back[i] = std::make_unique<Page>(doc.pages[i]);
      doc.spill->load(i, *brought_back[i]);
      page = brought_back[i].get();
      lines[i] = PageLines(*page, o);  // (let go by collect_words)
    }
    page_items[i] = detail::page_items(*page, lines[i], st, o);
    page_decor[i] = detail::page_decor(*page, o);
    page_rows[i] = number_rows(*page, lines[i], o);
  };
  // Feeds page i (its items ready) to the blocks; at the end of a window, makes the texts of
  // the blocks done and lets go the pages no block points at any more.
  auto feed = [&](size_t i) {
    stream.add_page(page_items[i], page_decor[i]);
    res.number_rows[doc.pages[i].number] = std::move(page_rows[i]);
    if ((i + 1) % window != 0 && i + 1 != n) return;
    stream.make_texts();
    const int in_use = stream.first_page_in_use();
    while (kept_from <= i && doc.pages[kept_from].number < in_use) let_go(kept_from++);
  };
  read_ahead_in_order(n, o.jobs, kWindowsAhead * window, read_page, feed);
  res.blocks = stream.finish(res.sizes, res.join_ends);
  for (size_t i = kept_from; i < n; ++i) let_go(i);
  return res;
}

}  // namespace quire::detail
