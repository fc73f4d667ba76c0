// Scheduler-layer micro-benchmark, model against impl: one scheduling cycle
// over `range(0)` nodes (filters and scores every node, assumes, then Permit
// rejects so the cluster does not fill), with the pod's add before and its
// delete after: three steps an iteration.
#include "bench/bench_steps.h"
#include "benchmark/benchmark.h"

namespace schedtrace::bench {
namespace {

bool Run(System& s, Step step, int64_t* t, benchmark::State& state) {
  step.t = ++*t;
  absl::StatusOr<StepOut> out = s.Apply(step);
  if (!out.ok()) {
    state.SkipWithError(std::string(out.status().message()).c_str());
    return false;
  }
  benchmark::DoNotOptimize(out);
  return true;
}

void BM_ScheduleOne(benchmark::State& state, const std::string& sut) {
  const int nodes = static_cast<int>(state.range(0));
  std::unique_ptr<System> s = NewSut(sut);
  if (absl::Status st = s->Configure(BenchHeader(Layer::kScheduler));
      !st.ok()) {
    state.SkipWithError(std::string(st.message()).c_str());
    return;
  }
  int64_t t = 0;
  for (int i = 0; i < nodes; ++i) {
    if (!Run(*s, NodeStep(Op::kNodeAdd, BenchNode(i)), &t, state)) return;
  }
  int next = 0;
  for (auto _ : state) {
    state.PauseTiming();
    PodPtr p = BenchPod(next++);
    state.ResumeTiming();
    Step cycle = BareStep(Op::kScheduleOne);
    cycle.permit = PermitOutcome::kReject;
    if (!Run(*s, PodStep(Op::kPodAdd, p), &t, state) ||
        !Run(*s, cycle, &t, state) ||
        !Run(*s, PodStep(Op::kPodDelete, p), &t, state)) {
      return;
    }
  }
  state.SetItemsProcessed(state.iterations());  // cycles
}

BENCHMARK_CAPTURE(BM_ScheduleOne, model, std::string("model"))
    ->Arg(1000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ScheduleOne, impl, std::string("impl"))
    ->Arg(1000)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace schedtrace::bench
