// A one-line progress meter for long runs: `[ 120/425] model  2 failed
// ETA 0:07`, redrawn in place on stderr. It draws only when enabled (the
// runner enables it when stderr is a terminal), at most ten times a second,
// and Clear() erases it before anything else is printed, so the per-trace
// lines on stdout never mix with it.
//
//   Progress progress(isatty(STDERR_FILENO), "model", files.size());
//   ... progress.Clear(); std::cout << line; progress.Done(failed);
#ifndef SCHEDTRACE_CLI_PROGRESS_H_
#define SCHEDTRACE_CLI_PROGRESS_H_

#include <chrono>
#include <cstddef>
#include <string>

namespace schedtrace::cli {

class Progress {
 public:
  Progress(bool enabled, std::string label, size_t total);
  ~Progress() { Clear(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // One more trace finished; redraws (throttled).
  void Done(bool failed);
  // Erases the line, if drawn.
  void Clear();

  // The line as drawn after `done` of `total` in `elapsed_s` seconds.
  static std::string Line(const std::string& label, size_t done, size_t total,
                          int failed, double elapsed_s);

 private:
  void Draw();

  bool enabled_;
  std::string label_;
  size_t total_;
  size_t done_ = 0;
  int failed_ = 0;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_PROGRESS_H_
