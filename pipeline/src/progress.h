// Private to pipeline/: the live progress line on a terminal.
#pragma once

#include <chrono>
#include <mutex>
#include <string>

namespace quire {

class Progress {
 public:
  // Draws only when enabled and standard error is a terminal.
  Progress(bool enabled, size_t books_total);
  void book_started(const std::string& id);
  void page_done();
  void book_done();
  // Clears the line before other output is printed.
  void clear();

 private:
  void draw(bool force);
  bool enabled_;
  size_t books_total_, books_done_ = 0;
  long pages_done_ = 0;
  std::string current_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::mutex mutex_;
  bool drawn_ = false;
};

}  // namespace quire
