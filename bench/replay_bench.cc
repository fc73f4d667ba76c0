// The cost of the properties on the large replay: impl replays
// bench/upstream-large.jsonl (unpacked; the path in SCHEDTRACE_LARGE, else
// bench/upstream-large.jsonl under the working directory) through Replay()
// with
//   none         no check: no snapshot is taken (the trace has no
//                expectations), what `replay --no-properties` does;
//   snapshots    a check that reads nothing: the snapshots alone;
//   incremental  the properties as `replay` checks them (properties/
//                incremental.h);
//   full         every property over the whole state every step (the
//                reference), on a prefix: the whole input takes minutes.
// The argument is the number of steps replayed (0: all). Decoding is outside
// the timing. One iteration each; the figures are in docs/BENCHMARKS.md.
#include <cstdlib>
#include <map>

#include "bench/bench_steps.h"
#include "benchmark/benchmark.h"
#include "core/codec.h"
#include "properties/checker.h"
#include "run/replay.h"

namespace schedtrace::bench {
namespace {

const absl::StatusOr<Trace>& LargeTrace() {
  static const absl::StatusOr<Trace>* trace = [] {
    const char* path = std::getenv("SCHEDTRACE_LARGE");
    return new absl::StatusOr<Trace>(
        ReadTraceFile(path != nullptr ? path : "bench/upstream-large.jsonl"));
  }();
  return *trace;
}

enum class Check { kNone, kSnapshots, kIncremental, kFull };

void BM_LargeReplay(benchmark::State& state, Check check) {
  const absl::StatusOr<Trace>& large = LargeTrace();
  if (!large.ok()) {
    state.SkipWithError(std::string(large.status().message()).c_str());
    return;
  }
  Trace trace = *large;
  if (state.range(0) > 0 &&
      static_cast<size_t>(state.range(0)) < trace.steps.size()) {
    trace.steps.resize(state.range(0));
  }
  for (auto _ : state) {
    std::unique_ptr<System> sut = NewSut("impl");
    std::map<std::string, int> known;
    ReplayOptions options;
    switch (check) {
      case Check::kNone:
        break;
      case Check::kSnapshots:
        options.check = [](const State&, const Step&, const StepOut&,
                           const State&,
                           const StateTouch&) { return std::string(); };
        break;
      case Check::kIncremental:
        options.check = properties::AsStepCheck(
            trace.header, &known, properties::CheckMode::kIncremental);
        break;
      case Check::kFull:
        options.check = properties::AsStepCheck(trace.header, &known,
                                                properties::CheckMode::kFull);
        break;
    }
    TraceResult r = Replay(*sut, trace, options);
    if (r.verdict != Verdict::kPassed) {
      state.SkipWithError(r.message.c_str());
      return;
    }
  }
  state.counters["steps"] = static_cast<double>(trace.steps.size());
}

BENCHMARK_CAPTURE(BM_LargeReplay, none, Check::kNone)
    ->Arg(0)
    ->Arg(20000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(BM_LargeReplay, snapshots, Check::kSnapshots)
    ->Arg(0)
    ->Arg(20000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(BM_LargeReplay, incremental, Check::kIncremental)
    ->Arg(0)
    ->Arg(20000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(BM_LargeReplay, full, Check::kFull)
    ->Arg(20000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

}  // namespace
}  // namespace schedtrace::bench
