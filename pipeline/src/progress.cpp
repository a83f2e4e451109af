#include "progress.h"

#include <sys/ioctl.h>
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
// The width taken when the terminal does not say (a pty made without a size reports 0).
constexpr size_t kDefaultColumns = 80;

size_t terminal_columns() {
  winsize ws{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 0;
}
}  // namespace

std::string progress_line(size_t books_done, size_t books_total, long pages, double pages_per_second,
                          const std::string& eta, const std::vector<std::string>& in_flight, size_t columns) {
  // One column is left free: a line that fills the last column makes some terminals wrap.
  const size_t width = (columns > 0 ? columns : kDefaultColumns) - 1;
  char head[128];
  std::snprintf(head, sizeof head, "books %zu/%zu  pages %ld  %.0f pages/s  ETA %s", books_done, books_total, pages,
                pages_per_second, eta.c_str());
  std::string line = head;
  if (line.size() >= width) return line.substr(0, width);
  // As many names as fit, then the count of the others; a first name too long for the line
  // is cut. Book ids are slugs (ASCII), so a byte is a column.
  std::string names;
  for (size_t i = 0; i < in_flight.size(); ++i) {
    const std::string rest = i + 1 < in_flight.size() ? " +" + std::to_string(in_flight.size() - i - 1) : "";
    const std::string with = names + (names.empty() ? "" : ", ") + in_flight[i];
    // The others are counted only if the count fits too; the last name needs no count.
    if (line.size() + 2 + with.size() + rest.size() <= width) {
      names = with;
      continue;
    }
    names += names.empty() ? "" : " +" + std::to_string(in_flight.size() - i);
    break;
  }
  if (names.empty() && !in_flight.empty()) names = in_flight.front();
  if (!names.empty()) line += "  " + names;
  return line.substr(0, width);
}

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
      pages_read_(bytes_.size(), 0), pages_total_(bytes_.size(), 0), ids_(bytes_.size()), start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void Progress::book_started(size_t book, const std::string& id) {
  std::lock_guard lock(mutex_);
  if (book < ids_.size()) ids_[book] = id;
  in_flight_.push_back(book);
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
  in_flight_.erase(std::remove(in_flight_.begin(), in_flight_.end(), book), in_flight_.end());
  draw(true);
}

void Progress::clear() {
  above([] {});
}

void Progress::above(const std::function<void()>& write) {
  std::lock_guard lock(mutex_);
  if (enabled_ && drawn_) {
    std::fputs("\r\033[K", stderr);
    drawn_ = false;
  }
  write();
  std::fflush(stderr);
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
  std::vector<std::string> names;
  for (size_t b : in_flight_)
    if (b < ids_.size()) names.push_back(ids_[b]);
  const std::string line = progress_line(books_done_, bytes_.size(), pages_done_, rate, eta, names, terminal_columns());
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace quire
