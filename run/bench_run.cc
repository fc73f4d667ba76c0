#include "run/bench_run.h"

#include <sys/resource.h>
#include <time.h>

#include <chrono>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "run/bench_memory.h"
#include "run/driven_system.h"

namespace schedtrace {

double BenchResult::EventsPerSecond() const {
  return apply_cpu_seconds > 0 ? steps / apply_cpu_seconds : 0;
}

double BenchResult::CyclesPerSecond() const {
  return apply_cpu_seconds > 0 ? cycles / apply_cpu_seconds : 0;
}

double BenchResult::WallEventsPerSecond() const {
  return apply_seconds > 0 ? steps / apply_seconds : 0;
}

double BenchResult::WallCyclesPerSecond() const {
  return apply_seconds > 0 ? cycles / apply_seconds : 0;
}

ChildUsage ReapedChildrenUsage() {
  ChildUsage u;
  rusage ru;
  if (getrusage(RUSAGE_CHILDREN, &ru) != 0) return u;
  u.cpu_seconds = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                  (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
  u.max_rss_bytes = static_cast<int64_t>(ru.ru_maxrss) * 1024;  // KiB
  return u;
}

BenchResult::Child MeasureChild(const ChildUsage& before) {
  const ChildUsage after = ReapedChildrenUsage();
  BenchResult::Child child;
  child.cpu_seconds = after.cpu_seconds - before.cpu_seconds;
  child.peak_rss_bytes = after.max_rss_bytes;
  return child;
}

namespace {

// This thread's CPU time, in seconds.
double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

}  // namespace

BenchOutcome RunBench(System& sut, TraceStream& stream,
                      const BenchOptions& options) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point wall_start = Clock::now();
  BenchOutcome o;
  BenchResult& r = o.result;
  auto finish = [&]() -> BenchOutcome& {
    r.wall_seconds =
        std::chrono::duration<double>(Clock::now() - wall_start).count();
    r.peak_rss_bytes = PeakRssBytes();
    return o;
  };
  r.start_rss_bytes = CurrentRssBytes();
  TraceHeader header = stream.header();
  if (!options.upstream.empty()) header.upstream = options.upstream;
  DrivenSystem run(sut);  // no snapshots: what is timed is Apply alone
  if (absl::Status s = run.Configure(header, /*snapshots=*/false); !s.ok()) {
    o.status = absl::Status(
        s.code(), absl::StrCat(stream.path(), ": Configure: ", s.message()));
    return finish();
  }
  const int chunk_size = options.chunk > 0 ? options.chunk : 1;
  std::vector<Step> chunk;
  chunk.reserve(chunk_size);
  Clock::duration applying{0};
  bool at_end = false;
  while (!at_end && !r.fatal) {
    chunk.clear();
    while (static_cast<int>(chunk.size()) < chunk_size) {
      if (options.max_steps >= 0 &&
          r.steps + static_cast<int64_t>(chunk.size()) >= options.max_steps) {
        // A prefix: stop, and say whether steps were left unread.
        absl::StatusOr<std::optional<Step>> more = stream.Next();
        r.truncated = more.ok() && more->has_value();
        at_end = true;
        break;
      }
      absl::StatusOr<std::optional<Step>> step = stream.Next();
      if (!step.ok()) {
        o.status = step.status();
        o.bad_input = true;
        r.apply_seconds = std::chrono::duration<double>(applying).count();
        return finish();
      }
      if (!step->has_value()) {
        at_end = true;
        break;
      }
      chunk.push_back(**std::move(step));
    }
    // The timed region: Apply and nothing else.
    size_t applied = 0;
    absl::Status failed;
    const double cpu_start = ThreadCpuSeconds();
    const Clock::time_point start = Clock::now();
    for (const Step& step : chunk) {
      run.Apply(step);
      if (run.refused()) {
        failed = run.out().status();
        break;
      }
      ++applied;
      if (run.ended()) {
        r.fatal = true;
        break;
      }
    }
    applying += Clock::now() - start;
    r.apply_cpu_seconds += ThreadCpuSeconds() - cpu_start;
    for (size_t i = 0; i < applied; ++i) {
      if (chunk[i].op == Op::kScheduleOne) ++r.cycles;
    }
    r.steps += static_cast<int64_t>(applied);
    if (!failed.ok()) {
      const Step& step = chunk[applied];
      o.status = absl::Status(
          failed.code(),
          absl::StrCat(stream.path(), ":", step.line, ": ",
                       std::string(OpName(step.op)), ": ", failed.message()));
      break;
    }
  }
  r.apply_seconds = std::chrono::duration<double>(applying).count();
  return finish();
}

}  // namespace schedtrace
