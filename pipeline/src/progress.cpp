#include "progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace quire {

namespace {
// Redraw at most this often: a terminal cannot show more and each write costs a syscall.
constexpr auto kRedrawInterval = std::chrono::milliseconds(100);
// Reading the pages is about this share of a book's build (measured on the R and Octave
// manuals: extraction 55-65%, then clean, layout, the wording check and export).
constexpr double kReadShare = 0.6;
// No ETA before this share of the work is done: the first pages say little about the rest.
constexpr double kMinFractionForEta = 0.02;
}  // namespace

double progress_fraction(const std::vector<uintmax_t>& book_bytes, const std::vector<bool>& done,
                         const std::vector<long>& pages_read, const std::vector<long>& pages_total) {
  double total = 0, finished = 0;
  for (size_t i = 0; i < book_bytes.size(); ++i) {
    // An empty or unreadable file still costs something: count it as one byte.
    const double w = static_cast<double>(std::max<uintmax_t>(book_bytes[i], 1));
    total += w;
    if (done[i]) finished += w;
    else if (pages_total[i] > 0)
      finished += w * kReadShare * std::min(1.0, static_cast<double>(pages_read[i]) / static_cast<double>(pages_total[i]));
  }
  return total > 0 ? finished / total : 0;
}

Progress::Progress(bool enabled, std::vector<uintmax_t> book_bytes)
    : enabled_(enabled && isatty(STDERR_FILENO)), bytes_(std::move(book_bytes)), done_(bytes_.size(), false),
      pages_read_(bytes_.size(), 0), pages_total_(bytes_.size(), 0), start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void Progress::book_started(size_t book, const std::string& id) {
  std::lock_guard lock(mutex_);
  current_ = id;
  if (book < pages_total_.size()) pages_total_[book] = 0;  // not open yet
  draw(true);
}

void Progress::book_opened(size_t book, int pages) {
  std::lock_guard lock(mutex_);
  if (book < pages_total_.size()) {
    pages_total_[book] = pages;
    pages_read_[book] = 0;  // a second engine starts the book again
  }
}

void Progress::page_done(size_t book) {
  std::lock_guard lock(mutex_);
  ++pages_done_;
  if (book < pages_read_.size()) ++pages_read_[book];
  draw(false);
}

void Progress::book_done(size_t book) {
  std::lock_guard lock(mutex_);
  ++books_done_;
  if (book < done_.size()) done_[book] = true;
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
  const double f = progress_fraction(bytes_, done_, pages_read_, pages_total_);
  char eta[32] = "?";
  if (books_done_ == bytes_.size()) std::snprintf(eta, sizeof eta, "0s");
  else if (f >= kMinFractionForEta) std::snprintf(eta, sizeof eta, "%.0fs", secs * (1 - f) / f);
  std::fprintf(stderr, "\r\033[Kbooks %zu/%zu  pages %ld  %.0f pages/s  ETA %s  %s", books_done_, bytes_.size(),
               pages_done_, rate, eta, current_.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace quire
