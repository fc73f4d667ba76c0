#include "cli/progress.h"

#include <iostream>

#include "absl/strings/str_format.h"

namespace schedtrace::cli {

Progress::Progress(bool enabled, std::string label, size_t total)
    : enabled_(enabled),
      label_(std::move(label)),
      total_(total),
      start_(std::chrono::steady_clock::now()) {
  if (enabled_) Draw();
}

std::string Progress::Line(const std::string& label, size_t done, size_t total,
                           int failed, double elapsed_s) {
  const int width = static_cast<int>(std::to_string(total).size());
  std::string line = absl::StrFormat("[%*d/%d] %s", width, done, total, label);
  if (failed > 0) absl::StrAppendFormat(&line, "  %d failed", failed);
  if (done > 0 && done < total) {
    const int eta = static_cast<int>(elapsed_s / static_cast<double>(done) *
                                         static_cast<double>(total - done) +
                                     0.5);
    absl::StrAppendFormat(&line, "  ETA %d:%02d", eta / 60, eta % 60);
  }
  return line;
}

void Progress::Done(bool failed) {
  ++done_;
  failed_ += failed;
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (done_ == total_ || !drawn_ ||
      now - last_draw_ >= std::chrono::milliseconds(100)) {
    Draw();
  }
}

void Progress::Clear() {
  if (!drawn_) return;
  std::cerr << "\r\033[K" << std::flush;
  drawn_ = false;
}

void Progress::Draw() {
  last_draw_ = std::chrono::steady_clock::now();
  const double elapsed =
      std::chrono::duration<double>(last_draw_ - start_).count();
  std::cerr << "\r\033[K" << Line(label_, done_, total_, failed_, elapsed)
            << std::flush;
  drawn_ = true;
}

}  // namespace schedtrace::cli
