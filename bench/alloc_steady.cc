#include "bench/alloc_steady.h"

#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/alloc_count.h"
#include "bench/bench_steps.h"

namespace schedtrace::bench {
namespace {

constexpr int kRing = 1000;
constexpr int kNodes = 1000;

// Applies steps at increasing times, counting the allocations inside Apply
// while `counted` is set.
class Driver {
 public:
  explicit Driver(std::unique_ptr<System> sut) : sut_(std::move(sut)) {}

  System& sut() { return *sut_; }
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  void set_counted(bool counted) { counted_ = counted; }
  int64_t steps() const { return steps_; }
  int64_t allocations() const { return allocations_; }

  void Fail(std::string error) { error_ = std::move(error); }

  // The step's out, or nullopt after a failure (then error() says why).
  std::optional<StepOut> Apply(Step& step) {
    if (failed()) return std::nullopt;
    step.t = ++t_;
    if (counted_) StartCountingAllocations();
    absl::StatusOr<StepOut> out = sut_->Apply(step);
    if (counted_) {
      allocations_ += StopCountingAllocations();
      ++steps_;
    }
    if (!out.ok()) {
      error_ = absl::StrCat("step at t=", step.t, ": ", out.status().message());
      return std::nullopt;
    }
    if (out->fatal) {
      error_ = absl::StrCat("step at t=", step.t, ": fatal");
      return std::nullopt;
    }
    return std::move(*out);
  }

 private:
  std::unique_ptr<System> sut_;
  std::string error_;
  bool counted_ = false;
  int64_t t_ = 0;
  int64_t steps_ = 0;
  int64_t allocations_ = 0;
};

std::string NodeName(int i) { return BenchNode(i)->name; }

bool Configure(Driver& d, Layer layer) {
  if (absl::Status s = d.sut().Configure(BenchHeader(layer)); !s.ok()) {
    return false;
  }
  if (layer == Layer::kQueue) return true;
  const Op add = layer == Layer::kCache ? Op::kCAddNode : Op::kNodeAdd;
  for (int i = 0; i < kNodes && !d.failed(); ++i) {
    Step s = NodeStep(add, BenchNode(i));
    d.Apply(s);
  }
  return !d.failed();
}

// One round of the scenario on ring pod `i`.
void Round(Driver& d, Scenario scenario, int i,
           const std::vector<PodPtr>& pending,
           const std::vector<PodPtr>& assumed,
           const std::vector<PodPtr>& bound) {
  switch (scenario) {
    case Scenario::kQueueAddPopDelete: {
      Step add = PodStep(Op::kQAdd, pending[i]);
      Step pop = BareStep(Op::kQPop);
      Step del = PodStep(Op::kQDelete, pending[i]);
      d.Apply(add);
      d.Apply(pop);
      d.Apply(del);
      return;
    }
    case Scenario::kCacheAssumeForget: {
      Step assume = PodStep(Op::kCAssume, assumed[i]);
      Step forget = PodStep(Op::kCForget, assumed[i]);
      d.Apply(assume);
      d.Apply(forget);
      return;
    }
    case Scenario::kCachePodLife: {
      Step assume = PodStep(Op::kCAssume, assumed[i]);
      Step finish = PodStep(Op::kCFinishBinding, assumed[i]);
      Step add = PodStep(Op::kCAddPod, bound[i]);
      Step remove = PodStep(Op::kCRemovePod, bound[i]);
      d.Apply(assume);
      d.Apply(finish);
      d.Apply(add);
      d.Apply(remove);
      return;
    }
    case Scenario::kSchedulerReject: {
      Step add = PodStep(Op::kPodAdd, pending[i]);
      Step cycle = BareStep(Op::kScheduleOne);
      cycle.permit = PermitOutcome::kReject;
      Step del = PodStep(Op::kPodDelete, pending[i]);
      d.Apply(add);
      d.Apply(cycle);
      d.Apply(del);
      return;
    }
    case Scenario::kSchedulerBind: {
      Step add = PodStep(Op::kPodAdd, pending[i]);
      Step cycle = BareStep(Op::kScheduleOne);
      std::optional<StepOut> out;
      d.Apply(add);
      out = d.Apply(cycle);
      if (!out) return;
      if (!out->result || !out->result->node) {
        d.Fail(absl::StrCat(
            "round ", i, ": ", pending[i]->Key(), " was not scheduled (",
            out->result ? out->result->outcome : "no pod", ")"));
        return;
      }
      // The apiserver's answer, built outside the counted Apply.
      auto answer = std::make_shared<Pod>(*pending[i]);
      answer->node_name = *out->result->node;
      answer->resource_version = "2";
      Step bind = KeyStep(Op::kBind, pending[i]->Key());
      Step update = PodUpdateStep(Op::kPodUpdate, pending[i], answer);
      Step del = PodStep(Op::kPodDelete, answer);
      d.Apply(bind);
      d.Apply(update);
      d.Apply(del);
      return;
    }
  }
}

}  // namespace

std::string ScenarioName(Scenario s) {
  switch (s) {
    case Scenario::kQueueAddPopDelete:
      return "queue/add_pop_delete";
    case Scenario::kCacheAssumeForget:
      return "cache/assume_forget";
    case Scenario::kCachePodLife:
      return "cache/pod_life";
    case Scenario::kSchedulerReject:
      return "scheduler/cycle_reject";
    case Scenario::kSchedulerBind:
      return "scheduler/cycle_bind";
  }
  return "?";
}

AllocCount CountSteadyAllocations(Scenario scenario, const std::string& sut,
                                  int warmup, int rounds) {
  Driver d(NewSut(sut));
  const Layer layer = scenario == Scenario::kQueueAddPopDelete ? Layer::kQueue
                      : scenario == Scenario::kCacheAssumeForget ||
                              scenario == Scenario::kCachePodLife
                          ? Layer::kCache
                          : Layer::kScheduler;
  AllocCount result;
  if (!Configure(d, layer)) {
    result.error = d.failed() ? d.error() : "Configure failed";
    return result;
  }
  std::vector<PodPtr> pending, assumed, bound;
  for (int i = 0; i < kRing; ++i) {
    pending.push_back(BenchPod(i));
    assumed.push_back(BenchPod(i, 1, NodeName(i % kNodes)));
    bound.push_back(BenchPod(i, 2, NodeName(i % kNodes)));
  }
  for (int r = 0; r < warmup && !d.failed(); ++r) {
    Round(d, scenario, r % kRing, pending, assumed, bound);
  }
  d.set_counted(true);
  for (int r = 0; r < rounds && !d.failed(); ++r) {
    Round(d, scenario, (warmup + r) % kRing, pending, assumed, bound);
  }
  d.set_counted(false);
  result.steps = d.steps();
  result.allocations = d.allocations();
  result.error = d.error();
  return result;
}

}  // namespace schedtrace::bench
