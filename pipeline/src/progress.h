// Private to pipeline/: the live progress line on a terminal.
//
//   books 1/5  pages 2731  1480 pages/s  ETA 3s  refman
//
// The ETA weighs each book by its file size (known before any book starts) and counts a book
// in progress by the share of its pages read, scaled by the share of a book's time that
// reading takes; so a single large book gets an ETA long before it is finished.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace quire {

// Share of the work done, 0..1. book_bytes: each book's file size; done: finished books;
// pages_read / pages_total: the books in progress (pages_total 0 = not open yet).
double progress_fraction(const std::vector<uintmax_t>& book_bytes, const std::vector<bool>& done,
                         const std::vector<long>& pages_read, const std::vector<long>& pages_total);

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

 private:
  void draw(bool force);
  bool enabled_;
  std::vector<uintmax_t> bytes_;
  std::vector<bool> done_;
  std::vector<long> pages_read_, pages_total_;
  size_t books_done_ = 0;
  long pages_done_ = 0;
  std::string current_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::mutex mutex_;
  bool drawn_ = false;
};

}  // namespace quire
