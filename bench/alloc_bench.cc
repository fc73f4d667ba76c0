// Heap allocations per step (schedtrace_alloc_benchmarks): this binary
// replaces the global operator new with a counting one (bench/alloc_count.h)
// and reports, as the counter allocs/step, the operator new calls inside
// System::Apply
//  - BM_SteadyAllocations: per layer, in the steady states of
//    bench/alloc_steady.h (a ring of 1,000 pods played round after round,
//    counted after 3,000 rounds of warm-up);
//  - BM_LargeAllocations: impl on bench/upstream-large.jsonl (unpacked; the
//    path in SCHEDTRACE_LARGE), the whole input, with a counter per op kind.
// The time is the whole run's, not a measure of anything: the figures are
// the counters (docs/BENCHMARKS.md, "Allocations per step").
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "bench/alloc_count.h"
#include "bench/alloc_steady.h"
#include "bench/bench_steps.h"
#include "benchmark/benchmark.h"
#include "run/bench_stream.h"

namespace schedtrace::bench {
namespace {

constexpr int kWarmup = 3000;
constexpr int kRounds = 2000;

void BM_SteadyAllocations(benchmark::State& state, Scenario scenario,
                          const std::string& sut) {
  AllocCount c;
  for (auto _ : state) {
    c = CountSteadyAllocations(scenario, sut, kWarmup, kRounds);
    if (!c.error.empty()) {
      state.SkipWithError(c.error.c_str());
      return;
    }
  }
  state.counters["steps"] = static_cast<double>(c.steps);
  state.counters["allocs/step"] =
      static_cast<double>(c.allocations) / static_cast<double>(c.steps);
}

void BM_LargeAllocations(benchmark::State& state) {
  const char* env = std::getenv("SCHEDTRACE_LARGE");
  const std::string path = env != nullptr ? env : "bench/upstream-large.jsonl";
  std::map<std::string, std::pair<int64_t, int64_t>> by_op;  // steps, allocs
  int64_t steps = 0, allocations = 0;
  for (auto _ : state) {
    absl::StatusOr<std::unique_ptr<TraceStream>> in = TraceStream::Open(path);
    if (!in.ok()) {
      state.SkipWithError(std::string(in.status().message()).c_str());
      return;
    }
    std::unique_ptr<System> sut = NewSut("impl");
    if (absl::Status s = sut->Configure((*in)->header()); !s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      return;
    }
    while (true) {
      absl::StatusOr<std::optional<Step>> step = (*in)->Next();
      if (!step.ok()) {
        state.SkipWithError(std::string(step.status().message()).c_str());
        return;
      }
      if (!step->has_value()) break;
      StartCountingAllocations();
      absl::StatusOr<StepOut> out = sut->Apply(**step);
      const int64_t n = StopCountingAllocations();
      if (!out.ok()) {
        state.SkipWithError(std::string(out.status().message()).c_str());
        return;
      }
      auto& [op_steps, op_allocs] = by_op[std::string(OpName((*step)->op))];
      ++op_steps;
      op_allocs += n;
      ++steps;
      allocations += n;
    }
  }
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["allocs/step"] =
      static_cast<double>(allocations) / static_cast<double>(steps);
  for (const auto& [op, counts] : by_op) {
    state.counters[op] =
        static_cast<double>(counts.second) / static_cast<double>(counts.first);
  }
}

#define SCHEDTRACE_STEADY(scenario, name)                         \
  BENCHMARK_CAPTURE(BM_SteadyAllocations, name##_impl, scenario,  \
                    std::string("impl"))                          \
      ->Iterations(1)                                             \
      ->Unit(benchmark::kMillisecond);                            \
  BENCHMARK_CAPTURE(BM_SteadyAllocations, name##_model, scenario, \
                    std::string("model"))                         \
      ->Iterations(1)                                             \
      ->Unit(benchmark::kMillisecond)

SCHEDTRACE_STEADY(Scenario::kQueueAddPopDelete, queue_add_pop_delete);
SCHEDTRACE_STEADY(Scenario::kCacheAssumeForget, cache_assume_forget);
SCHEDTRACE_STEADY(Scenario::kCachePodLife, cache_pod_life);
SCHEDTRACE_STEADY(Scenario::kSchedulerReject, scheduler_cycle_reject);
SCHEDTRACE_STEADY(Scenario::kSchedulerBind, scheduler_cycle_bind);

BENCHMARK(BM_LargeAllocations)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace
}  // namespace schedtrace::bench
