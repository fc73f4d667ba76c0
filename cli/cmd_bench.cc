// schedtrace bench: one system's throughput and peak memory on one trace.
//
// Parsing is outside the timing (run/bench_run.h): only System::Apply is
// timed. Prints, one per line:
//
//   bench: impl on FILE: 83636 steps (20193 schedule_one), layer scheduler
//   412345 events/s (CPU time in Apply; 401234 by the wall clock)
//   98765 scheduling cycles/s
//   peak memory 123.4 MB (getrusage ru_maxrss: ...; 5.3 MB at start)
//   apply time 0.203 s CPU, 0.209 s wall; wall time 3.104 s (decoding ...)
//
// The rates divide by the CPU time spent in Apply: the systems are
// single-threaded, and on a shared machine the wall clock also counts other
// processes' turns.
//
// An exec:CMD system computes in its own process, where this process's CPU
// clock does not see it: its rates divide by the wall time of the exchanges
// (each step written, computed by the child, its reply read), and the CPU
// time and peak memory reported are the child's, read with getrusage
// (RUSAGE_CHILDREN) once the child has been reaped:
//
//   bench: exec:./sched on FILE: 83636 steps (20193 schedule_one), layer ...
//   41234 events/s (wall clock of the exchanges with the child)
//   9876 scheduling cycles/s (wall clock)
//   child CPU time 1.234 s (user+system over its whole life, start-up ...)
//   peak memory: child 45.6 MB, schedtrace 12.3 MB (getrusage ru_maxrss)
//   exchange time 2.028 s wall; wall time 3.104 s (decoding, the child's ...)
#include <iostream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/suts.h"
#include "cli/upstream_flag.h"
#include "run/bench_run.h"
#include "run/bench_stream.h"

namespace schedtrace::cli {
namespace {

constexpr double kMB = 1e6;

int Bench(const CommandLine& cl) {
  std::vector<std::string> suts = cl.All("sut");
  if (suts.size() != 1) return UsageError("bench takes one --sut");
  if (cl.paths.size() != 1) return UsageError("bench takes one trace file");
  BenchOptions options;
  if (cl.Has("steps") &&
      (!absl::SimpleAtoi(cl.Last("steps", ""), &options.max_steps) ||
       options.max_steps < 0)) {
    return UsageError("bench: --steps takes a whole number");
  }
  if (absl::Status s = ApplySutFlags(cl); !s.ok()) {
    return UsageError(std::string(s.message()));
  }
  absl::StatusOr<std::optional<std::string>> upstream = UpstreamFlag(cl);
  if (!upstream.ok())
    return UsageError(std::string(upstream.status().message()));
  options.upstream = upstream->value_or("");
  absl::StatusOr<std::unique_ptr<System>> sut = MakeSystem(suts[0]);
  if (!sut.ok()) return UsageError(std::string(sut.status().message()));
  const bool child = suts[0].rfind("exec:", 0) == 0;

  const std::string& path = cl.paths[0];
  absl::StatusOr<std::unique_ptr<TraceStream>> stream = TraceStream::Open(path);
  if (!stream.ok()) {
    std::cerr << "schedtrace bench: " << stream.status().message() << "\n";
    return 2;
  }
  const ChildUsage before = ReapedChildrenUsage();
  BenchOutcome o = RunBench(**sut, **stream, options);
  if (child) {
    sut->reset();  // stops and reaps the child: its CPU time is known now
    o.result.child = MeasureChild(before);
  }
  const BenchResult& r = o.result;
  if (!o.status.ok()) {
    std::cerr << "schedtrace bench: " << o.status.message() << "\n";
    return o.bad_input ? 2 : 1;
  }
  std::cout << absl::StrFormat(
      "bench: %s on %s: %d steps (%d schedule_one)%s, layer %s%s\n", suts[0],
      path, r.steps, r.cycles,
      r.truncated ? ", a prefix (--steps)"
                  : (r.fatal ? ", ended by a fatal step" : ""),
      std::string(LayerName((*stream)->header().layer)),
      options.upstream.empty()
          ? ""
          : absl::StrCat(", as ", options.upstream, " (--upstream)"));
  if (r.child) {
    std::cout << absl::StrFormat(
        "%.0f events/s (wall clock of the exchanges with the child)\n",
        r.WallEventsPerSecond());
    std::cout << absl::StrFormat("%.0f scheduling cycles/s (wall clock)\n",
                                 r.WallCyclesPerSecond());
    std::cout << absl::StrFormat(
        "child CPU time %.3f s (user+system over its whole life, start-up "
        "included; getrusage RUSAGE_CHILDREN once reaped); schedtrace's CPU "
        "time in Apply %.3f s\n",
        r.child->cpu_seconds, r.apply_cpu_seconds);
    std::cout << absl::StrFormat(
        "peak memory: child %.1f MB, schedtrace %.1f MB (getrusage "
        "ru_maxrss)\n",
        r.child->peak_rss_bytes / kMB, r.peak_rss_bytes / kMB);
    std::cout << absl::StrFormat(
        "exchange time %.3f s wall; wall time %.3f s (decoding, the child's "
        "start and the header included)\n",
        r.apply_seconds, r.wall_seconds);
    return 0;
  }
  std::cout << absl::StrFormat(
      "%.0f events/s (CPU time in Apply; %.0f by the wall clock)\n",
      r.EventsPerSecond(), r.WallEventsPerSecond());
  std::cout << absl::StrFormat("%.0f scheduling cycles/s\n",
                               r.CyclesPerSecond());
  std::cout << absl::StrFormat(
      "peak memory %.1f MB (getrusage ru_maxrss: the whole process; %.1f MB "
      "resident at start)\n",
      r.peak_rss_bytes / kMB, r.start_rss_bytes / kMB);
  std::cout << absl::StrFormat(
      "apply time %.3f s CPU, %.3f s wall; wall time %.3f s (decoding "
      "included)\n",
      r.apply_cpu_seconds, r.apply_seconds, r.wall_seconds);
  return 0;
}

const CommandRegistrar kBench({
    .name = "bench",
    .order = 60,
    .synopsis = "--sut=S [--steps=K] [--upstream=V] PATH",
    .summary = "throughput and peak memory of S on one trace (only "
               "System::Apply is timed; for exec:CMD, the exchanges by the "
               "wall clock and the child's CPU time)",
    .flags = {{.name = "sut",
               .help = "the system under test: model, impl, exec:CMD or "
                       "upstream:VERSION",
               .required = true},
              {"steps", "apply only the first K steps (a prefix)"},
              kUpstreamFlag,
              kTimeoutFlag},
    .run = &Bench,
});

}  // namespace
}  // namespace schedtrace::cli
