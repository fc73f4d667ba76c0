// RapidCheck state-machine testing of model against impl (issue 4.3):
// the pieces the rc_*_test.cc files share. Header-only: only tests include
// it (the properties library does not link RapidCheck or the systems).
//
// A command is one step of the spec (a `Step`), generated from what the
// reference model shows at that point, so only valid steps are generated
// (q_add_unschedulable of a pod really popped, permit_allow of a pod really
// waiting, ...), and re-checked as a precondition when RapidCheck shrinks a
// sequence. Running a command applies it to both systems through the
// differential runner (harness/differential.h): out and State compared, every
// property checked on both. A failure is shrunk to a minimal sequence and
// reported with that sequence as a replayable .jsonl trace:
//
//   rc::detail::TestResult r = rc_stateful::Check(
//       header, &QueueStep, &model::NewSystem, &impl::NewSystem, params);
//
// `RcParams` reads RC_CASES / RC_SEED from the environment so CI stays small
// (default 150 cases) and a nightly run can ask for more.
#ifndef SCHEDTRACE_PROPERTIES_RC_STATEFUL_H_
#define SCHEDTRACE_PROPERTIES_RC_STATEFUL_H_

#include <cstdlib>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "harness/codec.h"
#include "harness/differential.h"
#include "harness/system.h"
#include "harness/trace.h"
#include "model/system.h"
#include "properties/checker.h"
#include "rapidcheck.h"
#include "rapidcheck/state.h"

namespace schedtrace::properties::rc_stateful {

// What the commands are generated from: the steps accepted so far and what
// the reference model shows after them.
struct Model {
  TraceHeader header;
  std::vector<Step> steps;
  State state;
  std::set<std::string> in_flight;     // queue: popped, not given back
  std::map<std::string, PodPtr> pods;  // key -> latest object delivered
  std::map<std::string, NodePtr> nodes;
  int64_t t = 0;
  bool ended = false;  // a fatal step: nothing more can be applied
};

// Appends `step` and re-derives the state by replaying every step on a
// fresh reference model (sequences are short; this keeps Model copyable).
inline void Advance(Model& m, const Step& step) {
  m.steps.push_back(step);
  m.t = step.t;
  std::unique_ptr<System> ref = model::NewSystem();
  (void)ref->Configure(m.header);
  m.in_flight.clear();
  for (const Step& s : m.steps) {
    absl::StatusOr<StepOut> out = ref->Apply(s);
    if (!out.ok()) continue;
    if (out->fatal) m.ended = true;
    if (s.op == Op::kQPop && out->popped) m.in_flight.insert(*out->popped);
    if (s.op == Op::kQAddUnschedulable) m.in_flight.erase(s.pod_key);
    // A pod deleted in flight is not given back (the scheduler checks the
    // informer first: handleSchedulingFailure).
    if (s.op == Op::kQDelete) m.in_flight.erase(s.pod->Key());
  }
  m.state = ref->Snapshot();
  switch (step.op) {
    case Op::kQAdd:
    case Op::kQAssignedPodAdded:
    case Op::kQAssignedPodUpdated:
    case Op::kPodAdd:
    case Op::kCAssume:
    case Op::kCAddPod:
      m.pods[step.pod->Key()] = step.pod;
      break;
    case Op::kQUpdate:
    case Op::kPodUpdate:
    case Op::kCUpdatePod:
      m.pods[step.new_pod->Key()] = step.new_pod;
      break;
    case Op::kQDelete:
    case Op::kPodDelete:
    case Op::kCRemovePod:
      m.pods.erase(step.pod->Key());
      break;
    case Op::kNodeAdd:
    case Op::kCAddNode:
      m.nodes[step.node->name] = step.node;
      break;
    case Op::kNodeUpdate:
    case Op::kCUpdateNode:
      m.nodes[step.new_node->name] = step.new_node;
      break;
    case Op::kNodeDelete:
    case Op::kCRemoveNode:
      m.nodes.erase(step.node->name);
      break;
    default:
      break;
  }
}

// The pod (or node) a step expects to find is the one the model holds:
// after shrinking removed an earlier step, a later one may no longer fit.
inline bool Holds(const Model& m, const PodPtr& pod) {
  auto it = m.pods.find(pod->Key());
  return it != m.pods.end() && it->second == pod;
}
inline bool Absent(const Model& m, const PodPtr& pod) {
  return !m.pods.contains(pod->Key());
}
inline bool HoldsNode(const Model& m, const NodePtr& node) {
  auto it = m.nodes.find(node->name);
  return it != m.nodes.end() && it->second == node;
}
inline bool Lists(const std::optional<std::vector<std::string>>& list,
                  const std::string& key) {
  return list && std::find(list->begin(), list->end(), key) != list->end();
}

// A step generator (inside RapidCheck's generation: may use `*gen`) and
// its validity check.
struct Layer {
  Step (*generate)(const Model& m);
  bool (*valid)(const Model& m, const Step& step);
};

struct Sut {
  Sut(std::unique_ptr<System> a_in, std::unique_ptr<System> b_in,
      const TraceHeader& header)
      : a(std::move(a_in)), b(std::move(b_in)), diff(*a, *b, MakeOptions()) {
    trace.header = header;
    configured = diff.Configure(header, "rc");
  }
  DiffOptions MakeOptions() {
    DiffOptions o;
    o.make_check = [](const TraceHeader& h) { return AsStepCheck(h, nullptr); };
    return o;
  }
  std::unique_ptr<System> a, b;
  Differential diff;
  std::optional<DiffResult> configured;
  Trace trace;  // what was run, printed on failure
};

template <const Layer* kLayer>
struct StepCommand : rc::state::Command<Model, Sut> {
  Step step;
  explicit StepCommand(const Model& m) : step(kLayer->generate(m)) {}
  void checkPreconditions(const Model& m) const override {
    RC_PRE(!m.ended && step.t > m.t && kLayer->valid(m, step));
  }
  void apply(Model& m) const override { Advance(m, step); }
  void run(const Model&, Sut& sut) const override {
    sut.trace.steps.push_back(step);
    sut.trace.steps.back().line = static_cast<int>(sut.trace.steps.size()) + 1;
    const int n = static_cast<int>(sut.trace.steps.size());
    if (std::optional<DiffResult> r =
            sut.diff.Apply(sut.trace.steps.back(), n)) {
      RC_FAIL(r->Format("a", "b") + "\nreplayable trace (" + std::to_string(n) +
              " steps):\n" + EncodeTrace(sut.trace));
    }
  }
  void show(std::ostream& os) const override { os << EncodeStep(step, false); }
};

using SystemMaker = std::unique_ptr<System> (*)();

// Runs the state machine: sequences of kLayer's steps on `a` and `b`.
template <const Layer* kLayer>
rc::detail::TestResult Check(const TraceHeader& header, SystemMaker a,
                             SystemMaker b,
                             const rc::detail::TestParams& params) {
  auto property = [header, a, b] {
    Model m;
    m.header = header;
    Sut sut(a(), b(), header);
    if (sut.configured) RC_FAIL(sut.configured->Format("a", "b"));
    rc::state::check(m, sut,
                     rc::state::gen::execOneOfWithArgs<StepCommand<kLayer>>());
  };
  rc::detail::TestMetadata metadata;
  metadata.id = header.name;
  return rc::detail::checkTestable(property, metadata, params);
}

// RC_CASES (default `cases`) and RC_SEED (default a fixed seed, so CI is
// reproducible) from the environment.
inline rc::detail::TestParams RcParams(int cases = 150) {
  rc::detail::TestParams p;
  p.maxSuccess = cases;
  p.maxSize = 60;  // commands per sequence at most
  p.seed = 20261122;
  if (const char* c = std::getenv("RC_CASES")) p.maxSuccess = std::atoi(c);
  if (const char* s = std::getenv("RC_SEED")) p.seed = std::strtoull(s, 0, 10);
  return p;
}

// The failure's text ("" when it passed).
inline std::string Describe(const rc::detail::TestResult& r) {
  std::ostringstream os;
  rc::detail::printResultMessage(r, os);
  return os.str();
}

}  // namespace schedtrace::properties::rc_stateful

#endif  // SCHEDTRACE_PROPERTIES_RC_STATEFUL_H_
