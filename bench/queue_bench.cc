// Queue-layer micro-benchmarks, model against impl, through System::Apply:
// Add+Pop, Update, and MoveAllToActiveOrBackoffQueue with an event that
// moves nothing and one that moves every pod. N = pods already queued.
#include <vector>

#include "bench/bench_steps.h"
#include "benchmark/benchmark.h"

namespace schedtrace::bench {
namespace {

// Applies `step` at time `*t` (then advances it); a failure stops the run.
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

std::unique_ptr<System> QueueWith(const std::string& sut, int n, int64_t* t,
                                  benchmark::State& state) {
  std::unique_ptr<System> s = NewSut(sut);
  if (absl::Status st = s->Configure(BenchHeader(Layer::kQueue)); !st.ok()) {
    state.SkipWithError(std::string(st.message()).c_str());
    return nullptr;
  }
  for (int i = 0; i < n; ++i) {
    if (!Run(*s, PodStep(Op::kQAdd, BenchPod(i)), t, state)) return nullptr;
  }
  return s;
}

void BM_QueueAddPop(benchmark::State& state, const std::string& sut) {
  const int n = static_cast<int>(state.range(0));
  int64_t t = 0;
  std::unique_ptr<System> s = QueueWith(sut, n, &t, state);
  if (!s) return;
  int next = n;
  for (auto _ : state) {
    if (!Run(*s, PodStep(Op::kQAdd, BenchPod(next++)), &t, state)) return;
    if (!Run(*s, BareStep(Op::kQPop), &t, state)) return;
  }
  state.SetItemsProcessed(state.iterations() * 2);
}

void BM_QueueUpdate(benchmark::State& state, const std::string& sut) {
  const int n = static_cast<int>(state.range(0));
  int64_t t = 0;
  std::unique_ptr<System> s = QueueWith(sut, n, &t, state);
  if (!s) return;
  // Two versions of each pod that differ in a label, applied in turn.
  std::vector<PodPtr> a, b;
  for (int i = 0; i < n; ++i) {
    a.push_back(BenchPod(i));
    auto v = std::make_shared<Pod>(*BenchPod(i, 2));
    v->annotations.emplace("rev", std::string("2"));
    b.push_back(v);
  }
  int64_t k = 0;
  for (auto _ : state) {
    int i = static_cast<int>(k % n);
    bool forward = (k / n) % 2 == 0;
    ++k;
    Step step = forward ? PodUpdateStep(Op::kQUpdate, a[i], b[i])
                        : PodUpdateStep(Op::kQUpdate, b[i], a[i]);
    if (!Run(*s, step, &t, state)) return;
  }
  state.SetItemsProcessed(state.iterations());
}

// Pops every queued pod and parks it in unschedulablePods (NodeResourcesFit).
bool MakeAllUnschedulable(System& s, int n, int64_t* t,
                          benchmark::State& state) {
  for (int i = 0; i < n; ++i) {
    Step pop = BareStep(Op::kQPop);
    pop.t = ++*t;
    absl::StatusOr<StepOut> out = s.Apply(pop);
    if (!out.ok() || !out->popped) {
      state.SkipWithError("pop found nothing");
      return false;
    }
    Step back = KeyStep(Op::kQAddUnschedulable, *out->popped);
    back.plugins = {"NodeResourcesFit"};
    if (!Run(s, back, t, state)) return false;
  }
  return true;
}

void BM_QueueMoveAllNoMatch(benchmark::State& state, const std::string& sut) {
  const int n = static_cast<int>(state.range(0));
  int64_t t = 0;
  std::unique_ptr<System> s = QueueWith(sut, n, &t, state);
  if (!s || !MakeAllUnschedulable(*s, n, &t, state)) return;
  Step move = BareStep(Op::kQMoveAll);
  move.event = {"PersistentVolume", "Add", "PvAdd"};  // no plugin of theirs
  for (auto _ : state) {
    if (!Run(*s, move, &t, state)) return;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_QueueMoveAllMatch(benchmark::State& state, const std::string& sut) {
  const int n = static_cast<int>(state.range(0));
  int64_t t = 0;
  std::unique_ptr<System> s = QueueWith(sut, n, &t, state);
  if (!s) return;
  Step move = BareStep(Op::kQMoveAll);
  move.event = {"Node", "Add", "NodeAdd"};
  for (auto _ : state) {
    state.PauseTiming();
    // The last move sent them to backoffQ: past their backoff, flush it.
    t += 20000;
    if (!Run(*s, BareStep(Op::kFlushBackoff), &t, state) ||
        !MakeAllUnschedulable(*s, n, &t, state)) {
      return;  // skipped with the error
    }
    state.ResumeTiming();
    if (!Run(*s, move, &t, state)) return;
  }
  state.SetItemsProcessed(state.iterations() * n);  // pods moved
}

BENCHMARK_CAPTURE(BM_QueueAddPop, model, std::string("model"))
    ->Arg(1000)
    ->Arg(100000);
BENCHMARK_CAPTURE(BM_QueueAddPop, impl, std::string("impl"))
    ->Arg(1000)
    ->Arg(100000);
BENCHMARK_CAPTURE(BM_QueueUpdate, model, std::string("model"))
    ->Arg(1000)
    ->Arg(100000);
BENCHMARK_CAPTURE(BM_QueueUpdate, impl, std::string("impl"))
    ->Arg(1000)
    ->Arg(100000);
BENCHMARK_CAPTURE(BM_QueueMoveAllNoMatch, model, std::string("model"))
    ->Arg(1000)
    ->Arg(10000);
BENCHMARK_CAPTURE(BM_QueueMoveAllNoMatch, impl, std::string("impl"))
    ->Arg(1000)
    ->Arg(10000);
BENCHMARK_CAPTURE(BM_QueueMoveAllMatch, model, std::string("model"))->Arg(1000);
BENCHMARK_CAPTURE(BM_QueueMoveAllMatch, impl, std::string("impl"))->Arg(1000);

}  // namespace
}  // namespace schedtrace::bench
