#include "progress.h"

#include <unistd.h>

#include <cstdio>

namespace quire {

namespace {
// Redraw at most this often: a terminal cannot show more and each write costs a syscall.
constexpr auto kRedrawInterval = std::chrono::milliseconds(100);
}  // namespace

Progress::Progress(bool enabled, size_t books_total)
    : enabled_(enabled && isatty(STDERR_FILENO)), books_total_(books_total),
      start_(std::chrono::steady_clock::now()), last_draw_(start_) {}

void Progress::book_started(const std::string& id) {
  std::lock_guard lock(mutex_);
  current_ = id;
  draw(true);
}

void Progress::page_done() {
  std::lock_guard lock(mutex_);
  ++pages_done_;
  draw(false);
}

void Progress::book_done() {
  std::lock_guard lock(mutex_);
  ++books_done_;
  draw(true);
}

void Progress::clear() {
  std::lock_guard lock(mutex_);
  if (enabled_ && drawn_) {
    std::fputs("\r\033[K", stderr);
    drawn_ = false;
  }
}

void Progress::draw(bool force) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (!force && now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  double secs = std::chrono::duration<double>(now - start_).count();
  double rate = secs > 0 ? static_cast<double>(pages_done_) / secs : 0;
  char eta[32] = "?";
  if (books_done_ > 0 && books_done_ < books_total_)
    std::snprintf(eta, sizeof eta, "%.0fs", secs / static_cast<double>(books_done_) *
                                                static_cast<double>(books_total_ - books_done_));
  else if (books_done_ == books_total_)
    std::snprintf(eta, sizeof eta, "0s");
  std::fprintf(stderr, "\r\033[Kbooks %zu/%zu  pages %ld  %.0f pages/s  ETA %s  %s", books_done_, books_total_,
               pages_done_, rate, eta, current_.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace quire
