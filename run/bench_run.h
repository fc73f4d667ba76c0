// RunBench: drives a System through a trace as fast as it can and measures
// it — the engine of `schedtrace bench`.
//
// Parsing is kept out of the timing: steps are decoded `chunk` at a time
// from a TraceStream (bench_stream.h), then only System::Apply is timed over
// the chunk (no Snapshot, no properties, no comparison), by two clocks: the
// thread's CPU time (the rates: on a shared, loaded machine the wall clock
// also counts the time other processes ran) and the wall clock. Streaming keeps
// the parsed trace out of the memory figure: at most one chunk of decoded steps
// is alive, plus the latest version of each pod the decoder keeps for
// `$ref`s (shared with the system, which holds the same objects).
//
//   absl::StatusOr<std::unique_ptr<TraceStream>> s = TraceStream::Open(path);
//   BenchOutcome o = RunBench(*sut, **s, {.max_steps = 5000});
//   if (o.status.ok()) std::cout << o.result.EventsPerSecond() << "\n";
//
// A system in another process (exec:CMD) does its work outside this thread:
// its Apply is a whole exchange (write the step, the child computes, read the
// reply), so only the wall clock measures it, and its CPU time is the
// child's. MeasureChild reads that after the child is reaped:
//
//   ChildUsage before = ReapedChildrenUsage();
//   BenchOutcome o = RunBench(*sut, **s, {});
//   sut.reset();  // stops and reaps the child
//   o.result.child = MeasureChild(before);
#ifndef SCHEDTRACE_RUN_BENCH_RUN_H_
#define SCHEDTRACE_RUN_BENCH_RUN_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "core/system.h"
#include "run/bench_stream.h"

namespace schedtrace {

struct BenchOptions {
  int64_t max_steps = -1;  // apply at most this many steps; -1 = all
  int chunk = 4096;        // steps decoded before each timed run of Apply
  // The upstream version the system is configured with instead of the
  // header's (`bench --upstream`); "" keeps the header's.
  std::string upstream;
};

struct BenchResult {
  int64_t steps = 0;             // steps applied
  int64_t cycles = 0;            // schedule_one steps among them
  bool truncated = false;        // stopped at max_steps before the end
  bool fatal = false;            // a step returned {"fatal": true}: trace ended
  double apply_cpu_seconds = 0;  // this thread's CPU time inside Apply
  double apply_seconds = 0;      // wall-clock time inside Apply
  double wall_seconds = 0;       // the whole run, decoding included
  int64_t start_rss_bytes = -1;  // resident set before Configure
  int64_t peak_rss_bytes = -1;   // ru_maxrss at the end (whole process)

  // For a system in a child process (exec:CMD), filled by the caller:
  // the child's CPU time, user and system, over its whole life (start-up and
  // header included), and its peak resident set. -1 when unknown.
  struct Child {
    double cpu_seconds = -1;
    int64_t peak_rss_bytes = -1;
  };
  std::optional<Child> child;

  // By CPU time in Apply (the systems are single-threaded). Meaningless for
  // a child process (the CPU time in Apply is the harness's, not the
  // child's): use the wall-clock rates.
  double EventsPerSecond() const;
  double CyclesPerSecond() const;
  // By wall-clock time in Apply.
  double WallEventsPerSecond() const;
  double WallCyclesPerSecond() const;
};

struct BenchOutcome {
  absl::Status status;     // ok, or why the run stopped
  bool bad_input = false;  // status is the trace's fault (exit 2), not the
                           // system's (exit 1)
  BenchResult result;      // what was measured up to the stop
};

// Configures `sut` with the stream's header and applies its steps.
BenchOutcome RunBench(System& sut, TraceStream& stream,
                      const BenchOptions& options);

// getrusage(RUSAGE_CHILDREN): the CPU time of every child process this
// process has reaped (and of what they reaped in turn), and the largest
// peak resident set among them.
struct ChildUsage {
  double cpu_seconds = 0;
  int64_t max_rss_bytes = -1;
};
ChildUsage ReapedChildrenUsage();
// What the children reaped since `before` used: the CPU time is the
// difference; the peak resident set is the largest of any child reaped so
// far, which is the bench's child when it is the only one (as in `schedtrace
// bench`).
BenchResult::Child MeasureChild(const ChildUsage& before);

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_BENCH_RUN_H_
