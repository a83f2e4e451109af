// Private to export/: the order in which one book's figures and chapter files are handed to
// the threads that write the book.
//
// A figure's rendering may belong to a group whose figures are drawn one at a time (the
// MuPDF context that holds their pages' display lists), and a chapter is written only once
// its own figures are done. Handing out figures, then chapters, in a fixed order made a
// thread wait whenever the next figure was of the group another thread was drawing (on
// octave.pdf the last seven plots were all of one group) or the next chapter's figures
// were still being drawn, while chapters without figures were left for later. Here a
// thread takes, in this order of preference:
//   1. the first figure (in the given order) whose group nobody is drawing;
//   2. the first chapter (in the given order) whose figures are all done;
//   3. else it waits until a figure is done, and looks again.
// A thread waits only while another draws a figure, which ends, so the work always ends.
// With one thread the order is the figures, then the chapters, and nothing waits.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <vector>

namespace quire::exporting {

class BookWork {
 public:
  struct Task {
    bool figure = false;
    size_t index = 0;  // into the figures or into the chapters
  };

  // figure_group[f] < 0: a figure that shares its rendering with no other.
  // chapter_figures[c]: the figures chapter c shows.
  BookWork(std::vector<size_t> figure_order, std::vector<int> figure_group, std::vector<size_t> chapter_order,
           std::vector<std::vector<size_t>> chapter_figures)
      : figure_order_(std::move(figure_order)),
        figure_group_(std::move(figure_group)),
        chapter_order_(std::move(chapter_order)),
        chapter_figures_(std::move(chapter_figures)),
        figure_taken_(figure_group_.size(), 0),
        figure_done_(figure_group_.size(), 0),
        chapter_taken_(chapter_figures_.size(), 0) {}

  // The next task, or none when every task has been handed out.
  std::optional<Task> take() {
    std::unique_lock lock(mutex_);
    for (;;) {
      bool left = false;
      for (size_t f : figure_order_) {
        if (figure_taken_[f]) continue;
        left = true;
        if (drawing(figure_group_[f])) continue;
        figure_taken_[f] = 1;
        if (figure_group_[f] >= 0) busy_.push_back(figure_group_[f]);
        return Task{true, f};
      }
      for (size_t c : chapter_order_) {
        if (chapter_taken_[c]) continue;
        left = true;
        bool ready = true;
        for (size_t f : chapter_figures_[c]) ready = ready && figure_done_[f];
        if (!ready) continue;
        chapter_taken_[c] = 1;
        return Task{false, c};
      }
      if (!left) return std::nullopt;
      changed_.wait(lock);
    }
  }

  // Called once for each figure handed out, when it is done (rendered, failed or thrown).
  void figure_done(size_t f) {
    {
      std::lock_guard lock(mutex_);
      figure_done_[f] = 1;
      if (figure_group_[f] >= 0)
        for (size_t i = 0; i < busy_.size(); ++i)
          if (busy_[i] == figure_group_[f]) {
            busy_.erase(busy_.begin() + static_cast<long>(i));
            break;
          }
    }
    changed_.notify_all();
  }

 private:
  bool drawing(int group) const {
    if (group < 0) return false;
    for (int g : busy_)
      if (g == group) return true;
    return false;
  }

  const std::vector<size_t> figure_order_;
  const std::vector<int> figure_group_;
  const std::vector<size_t> chapter_order_;
  const std::vector<std::vector<size_t>> chapter_figures_;
  std::vector<char> figure_taken_, figure_done_, chapter_taken_;
  std::vector<int> busy_;  // the groups being drawn, once for each figure
  std::mutex mutex_;
  std::condition_variable changed_;
};

}  // namespace quire::exporting
