#pragma once
// A text progress bar on stderr, redrawn at most ten times a second.
#include <chrono>
#include <cstdio>

namespace ws::cli {

class ProgressBar {
 public:
  ProgressBar(long long total, bool enabled) : total_(total), enabled_(enabled) {}
  void update(long long done) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (done < total_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const int width = 40;
    const double f = total_ > 0 ? (double)done / total_ : 1.0;
    const int fill = (int)(f * width);
    std::fprintf(stderr, "\r[%.*s%*s] %5.1f%% %lld/%lld", fill, "########################################",
                 width - fill, "", 100.0 * f, done, total_);
    std::fflush(stderr);
    drawn_ = true;
  }
  void finish() {
    if (enabled_ && drawn_) std::fprintf(stderr, "\n");
    drawn_ = false;
  }

 private:
  long long total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace ws::cli
