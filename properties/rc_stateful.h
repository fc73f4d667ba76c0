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
//
// Pool sizes and clock steps are the generator's options (GenOptions,
// harness/generator.h): each layer has its own small pools as defaults
// (`Layer::defaults`), the clock is the generator's (ClockSteps), and
// SCHEDTRACE_GEN sets them with the flags of `schedtrace gen`
// (RcGenOptions), e.g. SCHEDTRACE_GEN="--pods=40 --queue-pool=40".
//
// Informer perturbations (issue 7.3; harness/generator.h) are commands too:
// each kind of `Perturbations` fires with its own probability when a command
// is generated and then makes the command a short valid sequence (a resync,
// an update racing a scheduling cycle, a stale delete, a delete + re-create,
// a re-create collapsed into one update, a node re-created, a burst of no-op
// node updates), built with the generator's helpers. RC_PERTURB (parsed by
// ParsePerturbations, default "all:0.05"), or SCHEDTRACE_GEN's --perturb,
// sets the probabilities; a layer's `PerturbOps` says which ops carry them.
// Known upstream violations (properties/known_violations.h) are counted in
// `KnownCounts()`, never failures, exactly as in the differential runner.
#ifndef SCHEDTRACE_PROPERTIES_RC_STATEFUL_H_
#define SCHEDTRACE_PROPERTIES_RC_STATEFUL_H_

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "harness/codec.h"
#include "harness/differential.h"
#include "harness/generator.h"
#include "harness/op_table.h"
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
  // The pools, clock steps and perturbations commands are drawn with
  // (RcGenOptions).
  GenOptions gen;
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
  // What the step leaves current or removes (the op table's effect on the
  // objects it carries).
  switch (SpecOf(step.op).effect) {
    case Effect::kPuts:
      if (PodPtr pod = CurrentPod(step)) m.pods[pod->Key()] = pod;
      if (NodePtr node = CurrentNode(step)) m.nodes[node->name] = node;
      break;
    case Effect::kRemoves:
      if (PodPtr pod = CurrentPod(step)) m.pods.erase(pod->Key());
      if (NodePtr node = CurrentNode(step)) m.nodes.erase(node->name);
      break;
    case Effect::kNone:
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

// The ops a layer's perturbations use: its informer deliveries (the op
// table's DeliveryOp). `tombstone`: a stale delete is flagged as a tombstone
// (its delete takes one: scheduler layer). `bound_recreate`: a re-created
// pod keeps its node (cache layer: the cache only holds pods with a node).
// `nodes`: node perturbations exist (the layer delivers nodes: not the
// queue layer).
struct PerturbOps {
  schedtrace::Layer layer = schedtrace::Layer::kScheduler;
  Op add = Op::kPodAdd;
  Op update = Op::kPodUpdate;
  Op remove = Op::kPodDelete;
  Op node_add = Op::kNodeAdd;
  Op node_update = Op::kNodeUpdate;
  Op node_remove = Op::kNodeDelete;
  bool tombstone = false;
  bool bound_recreate = false;
  bool nodes = false;
};

inline PerturbOps PerturbOpsOf(schedtrace::Layer layer, bool bound_recreate) {
  PerturbOps ops;
  ops.layer = layer;
  ops.add = *DeliveryOp(layer, false, Delivery::kAdd);
  ops.update = *DeliveryOp(layer, false, Delivery::kUpdate);
  ops.remove = *DeliveryOp(layer, false, Delivery::kDelete);
  ops.tombstone = SpecOf(ops.remove).Has(Arg::kTombstone);
  ops.bound_recreate = bound_recreate;
  if (std::optional<Op> add = DeliveryOp(layer, true, Delivery::kAdd)) {
    ops.nodes = true;
    ops.node_add = *add;
    ops.node_update = *DeliveryOp(layer, true, Delivery::kUpdate);
    ops.node_remove = *DeliveryOp(layer, true, Delivery::kDelete);
  }
  return ops;
}

// A step generator (inside RapidCheck's generation: may use `*gen`), its
// validity check, the layer (whose informer deliveries its perturbations
// send, PerturbOpsOf), whether a re-created pod keeps its node, and the
// layer's own pool sizes (RcGenOptions starts from them).
struct Layer {
  Step (*generate)(const Model& m);
  bool (*valid)(const Model& m, const Step& step);
  schedtrace::Layer layer;
  bool bound_recreate = false;
  GenOptions defaults;
};

// The perturbation kinds, in the order they are drawn.
inline constexpr const char* kPerturbKinds[] = {
    "resync",          "race",          "tombstone", "recreate",
    "recreate_update", "node_recreate", "node_burst"};

// How many perturbation commands of each kind ran (kind -> count), and how
// often each known upstream violation fired (id -> count, both systems).
inline std::map<std::string, int>& PerturbCounts() {
  static std::map<std::string, int> counts;
  return counts;
}
inline std::map<std::string, int>& KnownCounts() {
  static std::map<std::string, int> counts;
  return counts;
}

// The options a layer's commands are drawn with: `defaults` (the layer's
// own small pools: every command replays the sequence so far from scratch)
// with informer perturbations at "all:0.05", then SCHEDTRACE_GEN (flags as
// `schedtrace gen` takes them, parsed by ApplyGenFlags), then RC_PERTURB
// (--perturb's syntax). Of the generator's flags the RapidCheck tests read
// the pools (--pods, --nodes, --queue-pool), the clock (--step-ms,
// --flush-jump, --backoff-jump, --ttl-jump) and --perturb; the seed and the
// length are RC_SEED's and RapidCheck's, and any other flag is an error
// rather than silently ignored. An error names the variable.
inline absl::StatusOr<GenOptions> RcGenOptions(GenOptions defaults) {
  defaults.perturb = Perturbations::All(0.05);
  GenOptions options = defaults;
  if (const char* flags = std::getenv("SCHEDTRACE_GEN")) {
    absl::StatusOr<GenOptions> g = ApplyGenFlags(flags, defaults);
    if (!g.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("SCHEDTRACE_GEN: ", g.status().message()));
    }
    if (g->seed != defaults.seed || g->steps != defaults.steps || g->hostile ||
        g->variety != defaults.variety) {
      return absl::InvalidArgumentError(
          "SCHEDTRACE_GEN: the RapidCheck tests take only --pods, --nodes, "
          "--queue-pool, --step-ms, --flush-jump, --backoff-jump, "
          "--ttl-jump and --perturb");
    }
    options = *g;
  }
  if (const char* spec = std::getenv("RC_PERTURB")) {
    absl::StatusOr<Perturbations> p = ParsePerturbations(spec);
    if (!p.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("RC_PERTURB: ", p.status().message()));
    }
    options.perturb = *p;
  }
  return options;
}

// A uniform draw from [lo, hi) inside RapidCheck's generation, not scaled
// by the test case's size (rc::gen::inRange is: at size 60 it draws only
// from the lower 60% of the range).
inline int Uniform(int lo, int hi) {
  return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(lo, hi));
}

// From [lo, hi], both included (as ClockSteps means its ranges); no draw
// when lo == hi.
inline int64_t Between(int lo, int hi) {
  if (lo == hi) return lo;
  return *rc::gen::resize(rc::kNominalSize,
                          rc::gen::inRange<int64_t>(lo, int64_t{hi} + 1));
}

// Whether something of probability `p` happens (in steps of 1/10000).
inline bool Fires(double p) {
  return p > 0 && Uniform(0, 10000) < static_cast<int>(p * 10000);
}

// The clock's advance before a step, as the generator draws it
// (harness/generator.h ClockSteps): in the cache layer the TTL jump, else an
// ordinary step; in the others the flush jump, else the backoff jump, else
// an ordinary step.
inline int64_t ClockStep(const ClockSteps& c, schedtrace::Layer layer) {
  if (layer == schedtrace::Layer::kCache) {
    if (Fires(c.ttl.p)) return Between(c.ttl.min_ms, c.ttl.max_ms);
  } else {
    if (Fires(c.flush.p)) return Between(c.flush.min_ms, c.flush.max_ms);
    if (Fires(c.backoff.p)) return Between(c.backoff.min_ms, c.backoff.max_ms);
  }
  return Between(c.min_ms, c.max_ms);
}

// The queue layer's pool: the first min(pods, queue_pool) pods, as the
// generator draws them.
inline int QueuePool(const GenOptions& g) {
  return std::max(1, std::min(g.pods, g.queue_pool));
}

// A perturbation: the steps it delivers (in order), its kind, and whether
// its delete carries a stale object (valid when the uid matches).
struct Perturbation {
  std::vector<Step> steps;
  std::string kind;
  bool stale = false;
};

// A perturbation being built: its steps get times from `t` on, 1 ms apart.
struct PerturbBuilder {
  int64_t t = 0;
  Perturbation out;
  void Add(Step s) {
    s.t = t++;
    out.steps.push_back(std::move(s));
  }
};

// race: a pod in the middle of its scheduling cycle updated (or deleted).
inline bool PerturbRace(const Model& m, const PerturbOps& ops,
                        PerturbBuilder& b) {
  std::vector<std::string> busy;
  if (ops.layer == schedtrace::Layer::kQueue) {
    busy.assign(m.in_flight.begin(), m.in_flight.end());
  } else if (ops.layer == schedtrace::Layer::kCache) {
    if (m.state.cache) busy = m.state.cache->assumed;
  } else {
    for (const auto* list : {&m.state.waiting, &m.state.parked}) {
      if (*list) busy.insert(busy.end(), (*list)->begin(), (*list)->end());
    }
  }
  std::erase_if(busy,
                [&](const std::string& key) { return !m.pods.contains(key); });
  if (busy.empty()) return false;
  const PodPtr held = m.pods.at(*rc::gen::elementOf(busy));
  Step s;
  if (Uniform(0, 10) < 3) {
    s.op = ops.remove;
    s.pod = held;
  } else {
    auto next = std::make_shared<Pod>(*held);
    next->resource_version = absl::StrCat(b.t);
    next->labels["race"] = absl::StrCat(b.t);
    s.op = ops.update;
    s.old_pod = held;
    s.new_pod = next;
  }
  b.Add(s);
  return true;
}

// tombstone: a delete carrying an older version (same uid) when there is.
inline void PerturbTombstone(const Model& m, const PerturbOps& ops,
                             const std::vector<PodPtr>& pods,
                             PerturbBuilder& b) {
  const PodPtr held = *rc::gen::elementOf(pods);
  PodPtr stale = held;
  for (auto it = m.steps.rbegin(); it != m.steps.rend(); ++it) {
    if (it->new_pod == held && it->old_pod && it->old_pod != held &&
        it->old_pod->uid == held->uid) {
      stale = it->old_pod;
      break;
    }
  }
  Step s;
  s.op = ops.remove;
  s.pod = stale;
  s.tombstone = ops.tombstone;
  b.out.stale = true;
  b.Add(s);
}

// recreate: delete, then add under a new uid; recreate_update: as one update.
inline void PerturbRecreate(bool as_update, const PerturbOps& ops,
                            const std::vector<PodPtr>& pods,
                            PerturbBuilder& b) {
  const PodPtr held = *rc::gen::elementOf(pods);
  auto again = std::const_pointer_cast<Pod>(RecreatedPod(*held, b.t));
  if (ops.bound_recreate) again->node_name = held->node_name;
  Step s;
  if (!as_update) {
    s.op = ops.remove;
    s.pod = held;
    b.Add(s);
    Step a;
    a.op = ops.add;
    a.pod = again;
    b.Add(a);
    return;
  }
  int64_t rv = 0;
  (void)absl::SimpleAtoi(held->resource_version, &rv);
  again->resource_version = absl::StrCat(rv + 1);
  s.op = ops.update;
  s.old_pod = held;
  s.new_pod = again;
  b.Add(s);
}

// node_recreate: preferably a node that holds pods, under a new uid.
inline void PerturbNodeRecreate(const Model& m, const PerturbOps& ops,
                                const std::vector<NodePtr>& nodes,
                                PerturbBuilder& b) {
  std::vector<NodePtr> busy;
  if (m.state.cache) {
    for (const NodeInfoState& n : m.state.cache->nodes) {
      if (!n.pods.empty() && m.nodes.contains(n.name)) {
        busy.push_back(m.nodes.at(n.name));
      }
    }
  }
  const NodePtr node = *rc::gen::elementOf(busy.empty() ? nodes : busy);
  Step s;
  s.op = ops.node_remove;
  s.node = node;
  b.Add(s);
  Step a;
  a.op = ops.node_add;
  a.node = RecreatedNode(*node, static_cast<int>(b.t));
  b.Add(a);
}

// node_burst: 2-5 updates of a node changing only its resourceVersion.
inline void PerturbNodeBurst(const PerturbOps& ops,
                             const std::vector<NodePtr>& nodes,
                             PerturbBuilder& b) {
  NodePtr node = *rc::gen::elementOf(nodes);
  for (int n = Uniform(2, 6); n > 0; --n) {
    Step u;
    u.op = ops.node_update;
    u.old_node = node;
    u.new_node = node = NoOpNodeUpdate(*node);
    b.Add(u);
  }
}

// Builds a perturbation of a kind whose probability fires, or nullopt.
// Times are m.t plus an ordinary clock step (m.gen.clock), then 1 ms apart.
inline std::optional<Perturbation> Perturb(const Model& m,
                                           const Perturbations& p,
                                           const PerturbOps& ops) {
  const double probs[] = {
      p.resync,          p.race,          p.tombstone, p.recreate,
      p.recreate_update, p.node_recreate, p.node_burst};
  std::vector<PodPtr> pods;
  for (const auto& [key, pod] : m.pods) pods.push_back(pod);
  std::vector<NodePtr> nodes;
  for (const auto& [name, node] : m.nodes) nodes.push_back(node);
  PerturbBuilder b;
  b.t = m.t + Between(m.gen.clock.min_ms, m.gen.clock.max_ms);
  for (int k = 0; k < 7; ++k) {
    if (probs[k] <= 0 ||
        Uniform(0, 10000) >= static_cast<int>(probs[k] * 10000)) {
      continue;
    }
    b.out.kind = kPerturbKinds[k];
    const bool node_kind = k >= 5;
    if (node_kind ? (!ops.nodes || nodes.empty()) : pods.empty()) continue;
    switch (k) {
      case 0: {  // resync: the object unchanged, same resourceVersion
        Step s;
        s.op = ops.update;
        s.old_pod = s.new_pod = *rc::gen::elementOf(pods);
        b.Add(s);
        return b.out;
      }
      case 1:
        if (!PerturbRace(m, ops, b)) continue;
        return b.out;
      case 2:
        PerturbTombstone(m, ops, pods, b);
        return b.out;
      case 3:
      case 4:
        PerturbRecreate(/*as_update=*/k == 4, ops, pods, b);
        return b.out;
      case 5:
        PerturbNodeRecreate(m, ops, nodes, b);
        return b.out;
      default:
        PerturbNodeBurst(ops, nodes, b);
        return b.out;
    }
  }
  return std::nullopt;
}

struct Sut {
  Sut(std::unique_ptr<System> a_in, std::unique_ptr<System> b_in,
      const TraceHeader& header)
      : a(std::move(a_in)), b(std::move(b_in)), diff(*a, *b, MakeOptions()) {
    trace.header = header;
    configured = diff.Configure(header, "rc");
  }
  DiffOptions MakeOptions() {
    DiffOptions o;
    o.make_check = [](const TraceHeader& h) {
      return AsStepCheck(h, &KnownCounts());
    };
    return o;
  }
  std::unique_ptr<System> a, b;
  Differential diff;
  std::optional<DiffResult> configured;
  Trace trace;  // what was run, printed on failure
};

// One command: a step of the layer, or a perturbation's steps.
template <const Layer* kLayer>
struct StepCommand : rc::state::Command<Model, Sut> {
  std::vector<Step> steps;
  std::string kind;    // the perturbation's, "" for a plain step
  bool stale = false;  // Perturbation::stale
  explicit StepCommand(const Model& m) {
    static const PerturbOps kOps =
        PerturbOpsOf(kLayer->layer, kLayer->bound_recreate);
    if (std::optional<Perturbation> q = Perturb(m, m.gen.perturb, kOps)) {
      steps = std::move(q->steps);
      kind = std::move(q->kind);
      stale = q->stale;
    } else {
      steps.push_back(kLayer->generate(m));
    }
  }
  bool Valid(const Model& m, const Step& step) const {
    if (m.ended || step.t <= m.t) return false;
    if (!stale) return kLayer->valid(m, step);
    auto it = m.pods.find(step.pod->Key());
    return it != m.pods.end() && it->second->uid == step.pod->uid;
  }
  void checkPreconditions(const Model& m) const override {
    if (steps.size() == 1) {
      RC_PRE(Valid(m, steps[0]));
      return;
    }
    Model next = m;
    for (const Step& step : steps) {
      RC_PRE(Valid(next, step));
      Advance(next, step);
    }
  }
  void apply(Model& m) const override {
    for (const Step& step : steps) Advance(m, step);
  }
  void run(const Model&, Sut& sut) const override {
    if (!kind.empty()) ++PerturbCounts()[kind];
    for (const Step& step : steps) {
      sut.trace.steps.push_back(step);
      sut.trace.steps.back().line =
          static_cast<int>(sut.trace.steps.size()) + 1;
      const int n = static_cast<int>(sut.trace.steps.size());
      if (std::optional<DiffResult> r =
              sut.diff.Apply(sut.trace.steps.back(), n)) {
        RC_FAIL(r->Format("a", "b") + "\nreplayable trace (" +
                std::to_string(n) + " steps):\n" + EncodeTrace(sut.trace));
      }
    }
  }
  void show(std::ostream& os) const override {
    if (!kind.empty()) os << "[" << kind << "] ";
    for (const Step& step : steps) os << EncodeStep(step, false);
  }
};

using SystemMaker = std::unique_ptr<System> (*)();

// Runs the state machine: sequences of kLayer's steps on `a` and `b`,
// drawn with RcGenOptions(kLayer->defaults) (a bad SCHEDTRACE_GEN or
// RC_PERTURB fails the test); `perturb`, when given, replaces its
// perturbations.
template <const Layer* kLayer>
rc::detail::TestResult Check(
    const TraceHeader& header, SystemMaker a, SystemMaker b,
    const rc::detail::TestParams& params,
    std::optional<Perturbations> perturb = std::nullopt) {
  absl::StatusOr<GenOptions> gen = RcGenOptions(kLayer->defaults);
  if (gen.ok() && perturb) gen->perturb = *perturb;
  auto property = [header, a, b, gen] {
    if (!gen.ok()) RC_FAIL(std::string(gen.status().message()));
    Model m;
    m.header = header;
    m.gen = *gen;
    Sut sut(a(), b(), header);
    if (sut.configured) RC_FAIL(sut.configured->Format("a", "b"));
    using CommandPtr = std::shared_ptr<const rc::state::Command<Model, Sut>>;
    rc::state::check(m, sut, [](const Model& model) {
      return rc::gen::exec([model]() -> CommandPtr {
        return std::make_shared<StepCommand<kLayer>>(model);
      });
    });
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

// "kind=n kind=n ..." for a test's message.
inline std::string FormatCounts(const std::map<std::string, int>& counts) {
  std::string out;
  for (const auto& [k, n] : counts) absl::StrAppend(&out, k, "=", n, " ");
  return out;
}

// The failure's text ("" when it passed).
inline std::string Describe(const rc::detail::TestResult& r) {
  std::ostringstream os;
  rc::detail::printResultMessage(r, os);
  return os.str();
}

}  // namespace schedtrace::properties::rc_stateful

#endif  // SCHEDTRACE_PROPERTIES_RC_STATEFUL_H_
