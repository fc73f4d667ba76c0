// Inside the step source (run/step_source.h): the three layers' sources
// (step_source_scheduler.cc, step_source_cache.cc, step_source_queue.cc)
// and the small draws they share.
#ifndef SCHEDTRACE_RUN_STEP_SOURCE_LAYERS_H_
#define SCHEDTRACE_RUN_STEP_SOURCE_LAYERS_H_

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "core/quantity.h"
#include "run/choice_stream.h"
#include "run/informer_world.h"
#include "run/step_source.h"
#include "run/step_source_go_corners.h"
#include "run/step_source_perturb.h"

namespace schedtrace::step_source {

std::unique_ptr<StepSource> NewSchedulerSource(const GenOptions& options);
std::unique_ptr<StepSource> NewCacheSource(const GenOptions& options);
std::unique_ptr<StepSource> NewQueueSource(const GenOptions& options);

inline Quantity Q(const std::string& s) { return *ParseQuantity(s); }

// Whether a perturbation with probability `p` fires; draws nothing when it
// is off, so traces made without perturbations stay what they were.
inline bool Fire(ChoiceStream& c, double p) {
  return p > 0 && c.Chance(std::min(p, 1.0));
}

// Uniform in [lo, hi]; no draw when lo == hi.
inline int Span(ChoiceStream& c, int lo, int hi) {
  return lo == hi ? lo : c.Uniform(lo, hi);
}

// The clock's advance before a queue- or scheduler-layer step (ClockSteps):
// the flush jump, else the backoff jump, else an ordinary step.
inline int64_t ClockStep(ChoiceStream& c, const ClockSteps& clock) {
  if (c.Chance(clock.flush.p)) {
    return Span(c, clock.flush.min_ms, clock.flush.max_ms);
  }
  if (c.Chance(clock.backoff.p)) {
    return Span(c, clock.backoff.min_ms, clock.backoff.max_ms);
  }
  return Span(c, clock.min_ms, clock.max_ms);
}

// The next of the later steps a perturbation queued (a re-create's add, a
// burst's updates) into `step`, at the clock's `t`; false when none.
inline bool TakePending(std::vector<Step>& pending, int64_t t, Step& step) {
  if (pending.empty()) return false;
  step = std::move(pending.front());
  pending.erase(pending.begin());  // a few steps at most
  step.t = t;
  return true;
}

// Draws on ChoiceStream::Variety(): the variety a source gained after its
// first version (taint and toleration effects, out-of-range scores, pod
// affinity in the queue layer), so that a seed's steps stay what they were
// and only the objects in them change.
class Variety {
 public:
  void Use(ChoiceStream& c) { c_ = &c.Variety(); }
  const char* Pick(std::initializer_list<const char*> choices) {
    return choices
        .begin()[c_->Uniform(0, static_cast<int>(choices.size()) - 1)];
  }
  bool Chance(double p) { return c_->Chance(p); }
  int Uniform(int lo, int hi) { return c_->Uniform(lo, hi); }

 private:
  ChoiceStream* c_ = nullptr;
};

// Resource corners, one pod in five, on the variety stream:
// a zero-valued extended resource as the only request (fitsRequest does not
// return early for it), quantities in other spellings ("1000m" for "1",
// "0.5", "01", "0"), several extended resources and hugepages, an init
// container above the containers' sum, and overhead. `p` has one container.
inline void PodResourceCorners(Variety& v, Pod& p) {
  if (!v.Chance(0.2)) return;
  ResourceList& r = p.containers.front().requests;
  switch (v.Uniform(0, 3)) {
    case 0:
      r.clear();
      r["example.com/gpu"] = Q("0");
      break;
    case 1:
      r["cpu"] = Q(v.Pick({"1000m", "1", "0.5", "01", "0", "2000m"}));
      break;
    case 2:
      r["example.com/gpu"] = Q(v.Pick({"0", "1", "2"}));
      r["example.com/fpga"] = Q("1");
      if (v.Chance(0.5)) r["hugepages-2Mi"] = Q("2Mi");
      break;
    default: {
      Container& init = p.init_containers.emplace_back();
      init.name = "init";
      init.image = "img";
      init.requests["cpu"] = Q(v.Pick({"2", "500m"}));
      init.requests["example.com/gpu"] = Q("1");
      p.overhead["cpu"] = Q("100m");
      break;
    }
  }
  // Memory in an init container and ephemeral storage (SetMaxResource's and
  // Resource.Add's other branches; docs/COVERAGE.md).
  if (v.Chance(0.3)) {
    if (p.init_containers.empty()) {
      Container& init = p.init_containers.emplace_back();
      init.name = "init";
      init.image = "img";
    }
    p.init_containers.front().requests["memory"] = Q(v.Pick({"1Gi", "64Mi"}));
  }
  if (v.Chance(0.3)) r["ephemeral-storage"] = Q(v.Pick({"1Gi", "0"}));
}

// Fractional requests, one pod in eight, where the version sums a pod's
// requests as quantities before rounding (UpstreamSumsRequestQuantities):
// a second container and overhead of half a millicore and half a byte, so
// that rounding the sum (v1.30.12) and rounding each part (v1.26.7) differ
// in the node's requested. Only drawn for such a version: the others keep
// their draws.
inline void FractionalRequestCorners(Variety& v, Pod& p) {
  if (!v.Chance(0.125)) return;
  Container& c = p.containers.emplace_back();
  c.name = "c2";
  c.image = "img";
  c.requests["cpu"] = Q(v.Pick({"0.5m", "0.4m", "1.5m"}));
  p.overhead["cpu"] = Q("0.5m");
  if (v.Chance(0.5)) {
    c.requests["memory"] = Q("0.5");
    p.overhead["memory"] = Q("0.5");
  }
}

// Required node affinity, one pod in five (docs/COVERAGE.md: golden reached
// it, the generators did not): one or two terms of label requirements with
// every operator over the zone and score labels and an absent key, now and
// then one that fails validation (its term matches nothing), matchFields on
// metadata.name naming a node of the pool or one that is not there (which
// NodeAffinity's PreFilter turns into a node-name set, "pod affinity terms
// conflict" when two of a term's names differ, and an error when a named
// node is not in the snapshot), and an empty term. `names` names the pool's
// `nodes` nodes.
inline void NodeAffinityCorners(Variety& v, Pod& p, const PoolNames& names,
                                int nodes) {
  if (!v.Chance(0.2)) return;
  std::vector<NodeSelectorTerm>& terms = p.required_node_affinity.emplace();
  const int count = v.Uniform(1, 2);
  for (int t = 0; t < count; ++t) {
    NodeSelectorTerm& term = terms.emplace_back();
    if (v.Chance(0.1)) continue;  // an empty term: dropped by Match
    for (int k = v.Uniform(0, 2); k > 0; --k) {
      NodeSelectorRequirement& r = term.match_expressions.emplace_back();
      r.key = v.Pick({"zone", "schedtrace.io/score", "disk"});
      r.op = v.Pick({"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"});
      if (r.op == "In" || r.op == "NotIn") {
        r.values = {v.Pick({"a", "b"})};
        if (v.Chance(0.3)) r.values.push_back("c");
      } else if (r.op == "Gt" || r.op == "Lt") {
        r.values = {v.Pick({"5", "15", "35", "x"})};  // "x": invalid
      }
      if (v.Chance(0.05)) r.values.push_back("-bad-");  // invalid value
    }
    if (term.match_expressions.empty() || v.Chance(0.3)) {
      const int named = v.Chance(0.2) ? 2 : 1;
      for (int k = 0; k < named; ++k) {
        NodeSelectorRequirement& r = term.match_fields.emplace_back();
        r.key = "metadata.name";
        r.op = v.Chance(0.8) ? "In" : "NotIn";
        // One past the pool now and then: a node that is not there.
        r.values = {names.Node(v.Uniform(0, nodes))};
      }
    }
  }
}

// Pod-affinity terms beyond one matchLabels (the queue's
// getUnschedulablePodsWithMatchingAffinityTerm): matchExpressions, an
// explicit namespaces list, a namespaceSelector ({} selects every
// namespace), a nil selector (selects nothing). `term` has its
// matchLabels selector; `other_ns` is a namespace of the pool.
inline void PodAffinityTermCorners(Variety& v, PodAffinityTerm& term,
                                   const std::string& own_ns,
                                   const std::string& other_ns) {
  if (v.Chance(0.3)) {  // usually in place of the matchLabels
    LabelSelectorRequirement& r =
        term.label_selector->match_expressions.emplace_back();
    r.key = "role";
    r.op = v.Pick({"In", "In", "NotIn", "Exists", "DoesNotExist"});
    if (r.op == "In" || r.op == "NotIn") r.values = {v.Pick({"web", "db"})};
    if (v.Chance(0.8)) term.label_selector->match_labels.clear();
  }
  if (!v.Chance(0.3)) return;
  switch (v.Uniform(1, 4)) {
    case 1:
      term.namespaces = {v.Chance(0.5) ? own_ns : other_ns};
      break;
    case 2:
      term.namespace_selector.emplace();
      if (v.Chance(0.5)) term.namespace_selector->match_labels["team"] = "x";
      break;
    case 3:
      term.label_selector.reset();
      break;
    default:
      term.namespaces = {own_ns, other_ns};
      term.namespace_selector.emplace();
      break;
  }
}

// A node's side of them, one node in three: extended resources and
// hugepages in its allocatable, some of them zero.
inline void NodeResourceCorners(Variety& v, Node& n) {
  if (!v.Chance(0.3)) return;
  n.allocatable["example.com/gpu"] = Q(v.Pick({"0", "1", "4"}));
  if (v.Chance(0.5)) n.allocatable["example.com/fpga"] = Q("2");
  if (v.Chance(0.3)) n.allocatable["hugepages-2Mi"] = Q("8Mi");
  // Names IsScalarResourceName sorts apart: prefixed native (scalar),
  // attachable volumes (scalar), an unprefixed unknown name and a
  // "requests."-prefixed one (both ignored).
  if (v.Chance(0.2)) {
    n.allocatable[v.Pick({"kubernetes.io/batteries",
                          "attachable-volumes-aws-ebs", "foo",
                          "requests.example.com/x"})] = Q("2");
  }
}

// --- The corners of the README's "What generated traces reach", all on
// the variety stream: a seeded trace keeps its main stream's draws.

// 9223372036854 ms: the largest int64 of nanoseconds, in milliseconds (Go's
// time.Duration and UnixNano end there; time.Time goes on).
inline constexpr int64_t kInt64NanosecondsMs = 9223372036854;
// How far ahead the clock may jump to land on a boundary (LayerSource::Land):
// past the 5-minute leftover flush and the 10-second backoff cap.
inline constexpr int64_t kBoundaryReachMs = 400000;

// The high-clock corner: where a trace's clock starts. One trace in ten
// (drawn in the header; ClockSteps::high_start) starts high, half of those
// within 30 s below 9223372036854 ms, so that the trace crosses the
// int64-nanosecond limit, half at kMaxTraceMs less a margin no run of `steps`
// steps can use up: (steps + 1) times the largest advance one step makes (an
// ordinary step, a jump, a landing on a boundary). The rest start at 0.
inline int64_t StartClock(Variety& v, const GenOptions& o) {
  if (!(o.clock.high_start > 0) ||
      !v.Chance(std::min(o.clock.high_start, 1.0))) {
    return 0;
  }
  const bool top = v.Chance(0.5);
  const int64_t advance = std::max<int64_t>(
      {o.clock.max_ms, o.clock.flush.max_ms, o.clock.backoff.max_ms,
       o.clock.ttl.max_ms, kBoundaryReachMs});
  const int64_t steps = int64_t{std::max(o.steps, 0)} + 1;
  if (!top || steps > kMaxTraceMs / 2 / advance) {
    return kInt64NanosecondsMs - v.Uniform(0, 30000);
  }
  return kMaxTraceMs - steps * advance - v.Uniform(0, 1000);
}

// The absent-against-empty corner: whether pod field `f` (of Nilable's pod
// part; kRequests: the first container's requests) is empty, so that giving it
// empty or absent is all that tells it apart.
inline bool FieldEmpty(const Pod& p, Nilable f) {
  switch (f) {
    case Nilable::kLabels:
      return p.labels.empty();
    case Nilable::kAnnotations:
      return p.annotations.empty();
    case Nilable::kNodeSelector:
      return p.node_selector.empty();
    case Nilable::kTolerations:
      return p.tolerations.empty();
    case Nilable::kSchedulingGates:
      return p.scheduling_gates.empty();
    case Nilable::kInitContainers:
      return p.init_containers.empty();
    case Nilable::kOverhead:
      return p.overhead.empty();
    case Nilable::kAffinity:
      return !p.required_node_affinity && p.required_pod_affinity.empty() &&
             !p.given_empty.Has(Nilable::kNodeAffinity) &&
             !p.given_empty.Has(Nilable::kPodAffinity) &&
             !p.given_empty.Has(Nilable::kPodAffinityTerms);
    case Nilable::kRequests:
      return !p.containers.empty() && p.containers.front().requests.empty();
    default:
      return false;
  }
}

inline constexpr Nilable kPodNilables[] = {
    Nilable::kLabels,      Nilable::kAnnotations,     Nilable::kNodeSelector,
    Nilable::kTolerations, Nilable::kSchedulingGates, Nilable::kInitContainers,
    Nilable::kOverhead,    Nilable::kAffinity,        Nilable::kRequests};
inline constexpr Nilable kNodeNilables[] = {Nilable::kLabels, Nilable::kTaints,
                                            Nilable::kAllocatable,
                                            Nilable::kConditions};

inline std::span<const Nilable> NilablesOf(const Pod&) { return kPodNilables; }
inline std::span<const Nilable> NilablesOf(const Node&) {
  return kNodeNilables;
}

inline GivenEmpty& BitsOf(Pod& p, Nilable f) {
  return f == Nilable::kRequests ? p.containers.front().given_empty
                                 : p.given_empty;
}
inline GivenEmpty& BitsOf(Node& n, Nilable) { return n.given_empty; }

inline bool FieldEmpty(const Node& n, Nilable f) {
  switch (f) {
    case Nilable::kLabels:
      return n.labels.empty();
    case Nilable::kTaints:
      return n.taints.empty();
    case Nilable::kAllocatable:
      return n.allocatable.empty();
    case Nilable::kConditions:
      return n.conditions.empty();
    default:
      return false;
  }
}

// The absent-against-empty corner, one pod or node in five: each of its empty
// nil-able fields (a pod's labels, annotations, nodeSelector, tolerations,
// schedulingGates, initContainers, overhead, affinity, the container's
// requests; a node's labels, taints, allocatable, conditions) given empty
// ({} or []) with probability one half.
template <typename Object>
void GiveEmpty(Variety& v, Object& o) {
  if (!v.Chance(0.2)) return;
  for (Nilable f : NilablesOf(o)) {
    if (FieldEmpty(o, f) && v.Chance(0.5)) BitsOf(o, f).Set(f);
  }
}

// One of `o`'s empty nil-able fields flipped, absent to empty or back;
// false when none is empty.
template <typename Object>
bool FlipGivenEmpty(Variety& v, Object& o) {
  std::vector<Nilable> empty;
  for (Nilable f : NilablesOf(o)) {
    if (FieldEmpty(o, f)) empty.push_back(f);
  }
  if (empty.empty()) return false;
  const Nilable f = empty[v.Uniform(0, static_cast<int>(empty.size()) - 1)];
  BitsOf(o, f).Set(f, !BitsOf(o, f).Has(f));
  return true;
}

// Whether two quantity texts have the same value (to the nano).
inline bool SameValue(const std::string& a, const std::string& b) {
  absl::StatusOr<Quantity> x = ParseQuantity(a), y = ParseQuantity(b);
  return x.ok() && y.ok() && x->ScaledValue(9) == y->ScaledValue(9) &&
         x->ScaledValue(0) == y->ScaledValue(0);
}

// The spellings corner: one of `p`'s request or overhead quantities written
// another way with the same value: a leading zero ("1000m" -> "01000m", "1" ->
// "01"), in millis ("1" -> "1000m") or whole ("1000m" -> "1"). Whether the pod
// then changed is reflect.DeepEqual's call on the parsed fields (docs/FORMAT.md
// E10): "1000m" and "01000m" are the same, "1" and "01" are not. False
// when `p` has no quantity.
inline bool Respell(Variety& v, Pod& p) {
  std::vector<std::pair<ResourceList*, std::string>> quantities;
  for (auto* containers : {&p.containers, &p.init_containers}) {
    for (Container& c : *containers) {
      for (const auto& [name, q] : c.requests) {
        quantities.emplace_back(&c.requests, name);
      }
    }
  }
  for (const auto& [name, q] : p.overhead) {
    quantities.emplace_back(&p.overhead, name);
  }
  if (quantities.empty()) return false;
  auto& [list, name] =
      quantities[v.Uniform(0, static_cast<int>(quantities.size()) - 1)];
  const Quantity& q = list->find(name)->second;
  const std::string& text = q.text();
  std::vector<std::string> spellings;
  if (!text.empty() &&
      absl::ascii_isdigit(static_cast<unsigned char>(text[0]))) {
    spellings.push_back("0" + text);
  }
  if (const int64_t m = q.MilliValue(); m >= 0) {
    spellings.push_back(absl::StrCat(m, "m"));
    if (m % 1000 == 0) spellings.push_back(absl::StrCat(m / 1000));
  }
  std::erase_if(spellings, [&](const std::string& s) {
    return s == text || !SameValue(s, text);
  });
  if (spellings.empty()) return false;
  (*list)[name] =
      Q(spellings[v.Uniform(0, static_cast<int>(spellings.size()) - 1)]);
  return true;
}

// What the three layer sources share: the stream of the current call and
// the draws on it, the informer world their outs build, and the pods the
// perturbations read (KeptPods).
class LayerSource : public StepSource, protected KeptPods {
 public:
  explicit LayerSource(Layer layer) : layer_(layer), world_(layer) {}
  Step Next(ChoiceStream& c) final {
    Use(c);
    return NextStep();
  }
  void Observe(const Step& step, const StepOut& out) override {
    world_.Observe(step, out);
  }
  Layer layer() const final { return layer_; }

 protected:
  // The layer's next step, drawn on c_.
  virtual Step NextStep() = 0;
  // Draws on `c` from now on (Header calls it first).
  void Use(ChoiceStream& c) {
    c_ = &c;
    variety_.Use(c);
  }
  int Uniform(int lo, int hi) { return c_->Uniform(lo, hi); }
  bool Chance(double p) { return c_->Chance(p); }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[Uniform(0, static_cast<int>(v.size()) - 1)];
  }

  // The header's corners (Header calls it last): the trace's names
  // (the names corner: PoolNames, corner names in one trace in three), its
  // clock's start (the high-clock corner: StartClock) and the world's view of
  // the config.
  void DrawTraceCorners(const GenOptions& options, const Config& config) {
    names_ = {.layer = layer_,
              .corners = variety_.Chance(1.0 / 3),
              .hostile = options.hostile};
    start_ = StartClock(variety_, options);
    land_ = options.clock.land;
    leap_ = options.clock.leap;
    world_ = InformerWorld(layer_, config);
    go_ = GoDice(options.seed, static_cast<uint64_t>(layer_));
  }

  // The boundaries corner (queue and scheduler layers): now and then
  // (ClockSteps::land), when the world knows of a boundary within
  // kBoundaryReachMs, the clock lands on it instead of advancing: 1 ms before
  // it, on it or 1 ms after (whichever are still ahead of `t`).
  std::optional<InformerWorld::Boundary> Land(int64_t t) {
    std::optional<InformerWorld::Boundary> b =
        world_.NextBoundary(t, kBoundaryReachMs);
    if (!b || !(land_ > 0) || !variety_.Chance(std::min(land_, 1.0))) {
      return std::nullopt;
    }
    const int64_t lo = std::max(b->at - 1, t + 1);
    b->at = lo + variety_.Uniform(0, static_cast<int>(b->at + 1 - lo));
    return b;
  }

  // Once in a while (ClockSteps::leap, one step in 250, once per trace, while
  // the clock is below the int64-nanosecond limit) the clock leaps 10^13 ms
  // ahead, so that the queue's Time.Sub between an earlier timestamp and now
  // saturates (the leftover flush's age) and later instants pass the
  // int64-nanosecond range. Returns the leap, or 0.
  int64_t Leap(int64_t t) {
    if (leapt_ || !(leap_ > 0) || t >= kInt64NanosecondsMs ||
        !variety_.Chance(std::min(leap_, 1.0))) {
      return 0;
    }
    leapt_ = true;
    return kLeapMs;
  }
  static constexpr int64_t kLeapMs = 10'000'000'000'000;

  // Corners 6 and 7: now and then (one update in eight) an update's new
  // object differs from `old` only in how a quantity is written or in one
  // field given empty against absent: `next` becomes such a copy of `old`,
  // with next's resourceVersion. Not for a resync (the same
  // resourceVersion carries the same object).
  void Subtle(const Pod& old, PodPtr& next) {
    if (next->resource_version == old.resource_version ||
        !variety_.Chance(0.125)) {
      return;
    }
    auto alt = std::make_shared<Pod>(old);
    alt->resource_version = next->resource_version;
    if (GoRespellDeletion(go_, *alt)) {  // the Go corners' own respelling
      next = std::move(alt);
      return;
    }
    const bool respell = variety_.Chance(0.5);
    if (respell ? Respell(variety_, *alt) || FlipGivenEmpty(variety_, *alt)
                : FlipGivenEmpty(variety_, *alt) || Respell(variety_, *alt)) {
      next = std::move(alt);
    }
  }

  // The names corner: `_` in a label, where Kubernetes allows it (traces
  // with corner names).
  void UnderscoreLabel(Labels& labels) const {
    if (names_.corners) labels["schedtrace.io/x_y"] = "a_b";
  }

  const Layer layer_;
  ChoiceStream* c_ = nullptr;  // the stream of the current call
  Variety variety_;
  InformerWorld world_;
  PoolNames names_{.layer = layer_};
  int64_t start_ = 0;   // the clock's start (DrawTraceCorners)
  double land_ = 0;     // ClockSteps::land
  double leap_ = 0;     // ClockSteps::leap
  bool leapt_ = false;  // Leap
  GoDice go_;           // the Go corners (step_source_go_corners.h)
};

}  // namespace schedtrace::step_source

#endif  // SCHEDTRACE_RUN_STEP_SOURCE_LAYERS_H_
