#pragma once
#include <fmt/core.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "drivers/library/frame_pipeline.hpp"

namespace kmol::cli {

// A one-line progress bar with frames/s and the time left, redrawn at most 5 times a second.
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO)) {}
  void update(const PipelineProgress& p) {
    if (!enabled_) return;
    if (p.done < p.total && p.seconds - last_ < 0.2) return;
    last_ = p.seconds;
    const int width = 30, filled = p.total > 0 ? int(width * p.done / p.total) : width;
    const double rate = p.seconds > 0 ? double(p.done - first_done(p)) / p.seconds : 0;
    const double left = rate > 0 ? double(p.total - p.done) / rate : 0;
    fmt::print(stderr, "\r[{}{}] {}/{} frames  {:.1f} frames/s  ETA {:.0f} s ",
               std::string(filled, '#'), std::string(width - filled, '.'), p.done, p.total, rate,
               left);
    if (p.done == p.total) fmt::print(stderr, "\n");
  }

 private:
  std::int64_t first_done(const PipelineProgress& p) {
    if (start_done_ < 0) start_done_ = p.done - 1;
    return start_done_;
  }
  bool enabled_;
  double last_ = -1;
  std::int64_t start_done_ = -1;
};

}  // namespace kmol::cli
