// Private to pipeline/: the live progress line on a terminal.
//
//   books 1/5  pages 2731  1480 pages/s  ETA 3s  refman, octave
//
// The names are those of the books in flight, in the order they started; the line is cut to
// the terminal's width (a line that wraps cannot be redrawn in place), and the books that do
// not fit are counted ("refman +2").
//
// The ETA weighs each book by its file size (known before any book starts) and counts a book
// in progress by the share of its pages read, scaled by the share of a book's time that
// reading takes; so a single large book gets an ETA long before it is finished.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace quire {

// Share of the work done, 0..1. book_bytes: each book's file size; done: finished books;
// pages_read / pages_total: the books in progress (pages_total 0 = not open yet).
double progress_fraction(const std::vector<uintmax_t>& book_bytes, const std::vector<bool>& done,
                         const std::vector<long>& pages_read, const std::vector<long>& pages_total);

// The line itself: `in_flight` are the ids of the books being built, `columns` the terminal's
// width (0: unknown, taken as 80).
std::string progress_line(size_t books_done, size_t books_total, long pages, double pages_per_second,
                          const std::string& eta, const std::vector<std::string>& in_flight, size_t columns);

class Progress {
 public:
  // Draws only when enabled and standard error is a terminal.
  Progress(bool enabled, std::vector<uintmax_t> book_bytes);
  void book_started(size_t book, const std::string& id);
  void book_opened(size_t book, int pages);
  void page_done(size_t book);
  void book_done(size_t book);
  // Clears the line before other output is printed.
  void clear();
  // Clears the line and runs `write` (which prints to the terminal) with the line held, so no
  // other thread's redraw lands in the middle of what it prints; the next change redraws.
  void above(const std::function<void()>& write);

 private:
  void draw(bool force);
  bool enabled_;
  std::vector<uintmax_t> bytes_;
  std::vector<bool> done_;
  std::vector<long> pages_read_, pages_total_;
  size_t books_done_ = 0;
  long pages_done_ = 0;
  std::vector<std::string> ids_;     // by book, once started
  std::vector<size_t> in_flight_;    // books started and not done, in the order they started
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::mutex mutex_;
  bool drawn_ = false;
};

}  // namespace quire
