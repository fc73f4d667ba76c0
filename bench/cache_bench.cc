// Cache-layer micro-benchmarks, model against impl, through System::Apply,
// on 1,000 nodes already holding `range(0)` pods: assume+forget, and a pod's
// whole life (assume, finish binding, confirm by add, remove).
#include "bench/bench_steps.h"
#include "benchmark/benchmark.h"

namespace schedtrace::bench {
namespace {

constexpr int kNodes = 1000;

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

std::string NodeName(int i) { return BenchNode(i)->name; }

std::unique_ptr<System> CacheWith(const std::string& sut, int pods, int64_t* t,
                                  benchmark::State& state) {
  std::unique_ptr<System> s = NewSut(sut);
  if (absl::Status st = s->Configure(BenchHeader(Layer::kCache)); !st.ok()) {
    state.SkipWithError(std::string(st.message()).c_str());
    return nullptr;
  }
  for (int i = 0; i < kNodes; ++i) {
    if (!Run(*s, NodeStep(Op::kCAddNode, BenchNode(i)), t, state)) {
      return nullptr;
    }
  }
  for (int i = 0; i < pods; ++i) {
    PodPtr p = BenchPod(i, 2, NodeName(i % kNodes));
    if (!Run(*s, PodStep(Op::kCAddPod, p), t, state)) return nullptr;
  }
  return s;
}

void BM_CacheAssumeForget(benchmark::State& state, const std::string& sut) {
  const int pods = static_cast<int>(state.range(0));
  int64_t t = 0;
  std::unique_ptr<System> s = CacheWith(sut, pods, &t, state);
  if (!s) return;
  int next = pods;
  for (auto _ : state) {
    state.PauseTiming();
    int i = next++;
    PodPtr p = BenchPod(i, 1, NodeName(i % kNodes));
    state.ResumeTiming();
    if (!Run(*s, PodStep(Op::kCAssume, p), &t, state)) return;
    if (!Run(*s, PodStep(Op::kCForget, p), &t, state)) return;
  }
  state.SetItemsProcessed(state.iterations() * 2);
}

void BM_CachePodLife(benchmark::State& state, const std::string& sut) {
  const int pods = static_cast<int>(state.range(0));
  int64_t t = 0;
  std::unique_ptr<System> s = CacheWith(sut, pods, &t, state);
  if (!s) return;
  int next = pods;
  for (auto _ : state) {
    state.PauseTiming();
    int i = next++;
    PodPtr assumed = BenchPod(i, 1, NodeName(i % kNodes));
    PodPtr bound = BenchPod(i, 2, NodeName(i % kNodes));
    state.ResumeTiming();
    if (!Run(*s, PodStep(Op::kCAssume, assumed), &t, state) ||
        !Run(*s, PodStep(Op::kCFinishBinding, assumed), &t, state) ||
        !Run(*s, PodStep(Op::kCAddPod, bound), &t, state) ||
        !Run(*s, PodStep(Op::kCRemovePod, bound), &t, state)) {
      return;
    }
  }
  state.SetItemsProcessed(state.iterations() * 4);
}

BENCHMARK_CAPTURE(BM_CacheAssumeForget, model, std::string("model"))
    ->Arg(0)
    ->Arg(50000);
BENCHMARK_CAPTURE(BM_CacheAssumeForget, impl, std::string("impl"))
    ->Arg(0)
    ->Arg(50000);
BENCHMARK_CAPTURE(BM_CachePodLife, model, std::string("model"))
    ->Arg(0)
    ->Arg(50000);
BENCHMARK_CAPTURE(BM_CachePodLife, impl, std::string("impl"))
    ->Arg(0)
    ->Arg(50000);

}  // namespace
}  // namespace schedtrace::bench
