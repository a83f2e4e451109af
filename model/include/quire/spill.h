// Pages out of memory. While a book is built, its extracted pages' text lines and vector
// paths (nearly all of a Document's size: ~75 MB for a 2,400-page manual) are kept in
// memory only up to a budget; the pages beyond it wait in a temporary file, and each pass
// of a stage over the pages brings a page back for its step and puts it out again. The
// memory a book's pages hold is then bounded by the budget and the pages in flight, not by
// the book's length, and every pass sees exactly the values it would see in memory (the
// file keeps every bit).
//
// A spilled page keeps its number, label, size, rotation, images, OCR facts and errors in
// the Document; its `lines` and `paths` are empty there until brought back. Code that reads
// or changes page content goes through with_page / read_pages / change_page(s) below, which
// are plain loops over doc.pages when nothing is spilled.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quire/model.h"
#include "quire/parallel.h"

namespace quire {

// How much page content stays in memory, shared by the books that draw on it: a batch gives
// one budget to every book it builds, so that two large books in flight at once keep no more
// pages in memory than one would (their peaks would otherwise add up).
class SpillBudget {
 public:
  explicit SpillBudget(size_t bytes) : limit_(bytes) {}
  SpillBudget(const SpillBudget&) = delete;
  SpillBudget& operator=(const SpillBudget&) = delete;
  // Counts `bytes` against the budget when they fit, and says whether they did.
  bool take(size_t bytes) {
    size_t kept = kept_.load();
    while (kept + bytes <= limit_)
      if (kept_.compare_exchange_weak(kept, kept + bytes)) return true;
    return false;
  }
  void give_back(size_t bytes) { kept_ -= bytes; }
  size_t kept() const { return kept_.load(); }

 private:
  const size_t limit_;
  std::atomic<size_t> kept_{0};
};

class PageSpill {
 public:
  // `pages`: the Document's page count. `budget`: how much page content stays in memory,
  // over this book and any other drawing on it. `source`: the PDF, named in errors. The file
  // is made in `dir` ($TMPDIR, else /tmp, when empty) and unlinked at once, so nothing is left
  // behind however the process ends. Throws Error(Io) when it cannot be made, and when a page
  // cannot be written or read back.
  PageSpill(size_t pages, std::shared_ptr<SpillBudget> budget, const std::string& source,
            const std::string& dir = {});
  // The same with a budget of its own of `budget_bytes` (0: none kept).
  PageSpill(size_t pages, size_t budget_bytes, const std::string& source, const std::string& dir = {})
      : PageSpill(pages, std::make_shared<SpillBudget>(budget_bytes), source, dir) {}
  ~PageSpill();
  PageSpill(const PageSpill&) = delete;
  PageSpill& operator=(const PageSpill&) = delete;

  // Called for each page, from any thread, when its content is complete: keeps the page in
  // memory while the pages kept fit the budget, else writes its content out and empties it.
  // A page kept in memory and changed since is settled again (its new size counted); a
  // spilled page is left as it is.
  void settle(size_t index, Page& page);
  bool spilled(size_t index) const { return slots_[index].spilled; }
  size_t spilled_pages() const { return spilled_count_.load(); }

  // A spilled page's content, read into `page` (whose other fields are left as they are).
  void load(size_t index, Page& page) const;
  // Writes a spilled page's content anew, after a change (the page keeps it in memory).
  void write(size_t index, const Page& page);

  // Bytes a page's content takes in memory (estimated from its containers' capacities).
  static size_t content_bytes(const Page& page);

 private:
  struct Slot {
    uint64_t offset = 0;
    uint64_t size = 0;
    uint64_t capacity = 0;
    size_t kept = 0;  // bytes counted against the budget while in memory
    bool spilled = false;
  };
  int fd_ = -1;
  std::string source_, path_;  // for error messages
  std::shared_ptr<SpillBudget> budget_;
  std::atomic<size_t> kept_{0};  // this book's share of the budget
  std::atomic<uint64_t> end_{0};
  std::atomic<size_t> spilled_count_{0};
  std::vector<Slot> slots_;  // one per page; a page is worked on by one thread at a time
};

namespace spill_detail {

// Each thread's lines and paths of the last page it brought back, lent to the next: decoding
// into them reuses their strings and vectors instead of allocating a page's worth anew.
struct Spare {
  std::vector<Line> lines;
  std::vector<VectorPath> paths;
  bool lent = false;
};
Spare& thread_spare();

// Lends the thread's spare to `page` (whose content is empty) for its lifetime, and leaves
// the page empty again; a page brought back while the spare is lent gets fresh containers.
class Lend {
 public:
  explicit Lend(Page& page) : page_(page), spare_(thread_spare()), lent_(!spare_.lent) {
    if (!lent_) return;
    page_.lines.swap(spare_.lines);
    page_.paths.swap(spare_.paths);
    spare_.lent = true;
  }
  ~Lend() {
    if (!lent_) {
      std::vector<Line>().swap(page_.lines);
      std::vector<VectorPath>().swap(page_.paths);
      return;
    }
    page_.lines.swap(spare_.lines);
    page_.paths.swap(spare_.paths);
    spare_.lent = false;
  }
  Lend(const Lend&) = delete;
  Lend& operator=(const Lend&) = delete;

 private:
  Page& page_;
  Spare& spare_;
  bool lent_;
};

}  // namespace spill_detail

// Calls fn(page) with page `index` whole: the Document's own page, or a copy brought back
// from the spill file for the call.
template <class Fn>
decltype(auto) with_page(const Document& doc, size_t index, Fn&& fn) {
  if (!doc.spill || !doc.spill->spilled(index)) return fn(doc.pages[index]);
  Page page = doc.pages[index];
  spill_detail::Lend lend(page);
  doc.spill->load(index, page);
  return fn(static_cast<const Page&>(page));
}

// parallel_for over the pages, fn(i, page) with page i whole (as with_page).
template <class Fn>
void read_pages(const Document& doc, int jobs, Fn&& fn, size_t grain = 1) {
  parallel_for(doc.pages.size(), jobs, [&](size_t i) { with_page(doc, i, [&](const Page& p) { fn(i, p); }); }, grain);
}

// Calls fn(page) with doc.pages[index] itself whole for the call: a spilled page is brought
// back into the Document, and written out again after the call.
template <class Fn>
void change_page(Document& doc, size_t index, Fn&& fn) {
  Page& page = doc.pages[index];
  if (!doc.spill || !doc.spill->spilled(index)) return fn(page);
  spill_detail::Lend lend(page);
  doc.spill->load(index, page);
  fn(page);
  doc.spill->write(index, page);
}

// parallel_for over the pages, fn(i, page) as change_page gives it.
template <class Fn>
void change_pages(Document& doc, int jobs, Fn&& fn, size_t grain = 1) {
  parallel_for(doc.pages.size(), jobs, [&](size_t i) { change_page(doc, i, [&](Page& page) { fn(i, page); }); }, grain);
}

}  // namespace quire
