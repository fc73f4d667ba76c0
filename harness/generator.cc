// Over 600 lines, and the three Next functions over 80, for a reason: this
// file is the three layer generators (scheduler, cache, queue) that issue
// 17 point 2 replaces with one valid-step source keeping its own informer
// world (the generators here ask the system they record on what is valid).
// Each Next is one weighted choice over the layer's ops, each branch short;
// splitting them before that rewrite would only move the code twice.
#include "harness/generator.h"

#include <algorithm>
#include <deque>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/json_codec.h"

namespace schedtrace {
namespace {

Quantity Q(const std::string& s) { return *ParseQuantity(s); }

// Whether a perturbation with probability `p` fires; draws nothing when it
// is off, so traces generated without perturbations stay what they were.
bool Fire(std::mt19937_64& rng, double p) {
  return p > 0 && std::bernoulli_distribution(std::min(p, 1.0))(rng);
}

// Uniform in [lo, hi]; no draw when lo == hi.
int Span(std::mt19937_64& rng, int lo, int hi) {
  return lo == hi ? lo : std::uniform_int_distribution<int>(lo, hi)(rng);
}

// The clock's advance before a queue- or scheduler-layer step (ClockSteps):
// the flush jump, else the backoff jump, else an ordinary step.
int64_t ClockStep(std::mt19937_64& rng, const ClockSteps& c) {
  if (std::bernoulli_distribution(c.flush.p)(rng)) {
    return Span(rng, c.flush.min_ms, c.flush.max_ms);
  }
  if (std::bernoulli_distribution(c.backoff.p)(rng)) {
    return Span(rng, c.backoff.min_ms, c.backoff.max_ms);
  }
  return Span(rng, c.min_ms, c.max_ms);
}

// Applies `step` to `sut` and records what it emitted and showed as the
// step's expectations. Returns the out, so a generator can react to it.
absl::StatusOr<StepOut> Record(System& sut, Step& step) {
  absl::StatusOr<StepOut> out = sut.Apply(step);
  if (!out.ok()) return out.status();
  auto expect = std::make_shared<Expect>();
  expect->out = OutToJson(*out);
  if (!out->fatal) expect->state = StateToJson(sut.Snapshot());
  step.expect = expect;
  return out;
}

// Variety added after a generator's first version (taint and toleration
// effects, out-of-range scores, pod affinity in the queue layer) draws from
// this stream, not the generator's own: each seed's sequence of steps stays
// what it was, and only the objects in it change.
class Variety {
 public:
  explicit Variety(uint64_t seed) : rng_(seed ^ 0x9e3779b97f4a7c15ull) {}
  const char* Pick(std::initializer_list<const char*> choices) {
    const int i = std::uniform_int_distribution<int>(
        0, static_cast<int>(choices.size()) - 1)(rng_);
    return choices.begin()[i];
  }
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }

 private:
  std::mt19937_64 rng_;
};

class Generator {
 public:
  Generator(System& sut, const GenOptions& options)
      : sut_(sut),
        options_(options),
        rng_(options.seed),
        variety_(options.seed) {}

  absl::StatusOr<Trace> Run() {
    Trace trace;
    trace.header = SchedulerHeader(
        absl::StrCat("generated/scheduler/seed-", options_.seed));
    trace.header.source = "generated";
    trace.header.seed = static_cast<int64_t>(options_.seed);
    // One trace in four has "other-scheduler" as a second profile of ours,
    // so one in ten pods is scheduled under it (waiting pods, binding
    // cycles and deletes per profile).
    const bool two_profiles = variety_.Chance(options_.variety.two_profiles);
    if (two_profiles) {
      trace.header.config.profiles.push_back("other-scheduler");
    }
    trace.header.description = absl::StrCat(
        "random valid scheduler-layer sequence, seed ", options_.seed, ", ",
        options_.nodes, " nodes, ", options_.pods, " pods",
        two_profiles ? ", two profiles" : "");
    if (absl::Status s = sut_.Configure(trace.header); !s.ok()) return s;
    for (int i = 0; i < options_.steps; ++i) {
      Step step = Next();
      absl::StatusOr<StepOut> out = Record(sut_, step);
      if (!out.ok()) {
        if (options_.hostile) continue;  // refused outright: leave it out
        return out.status();
      }
      Observe(step, *out);
      trace.steps.push_back(std::move(step));
      if (out->fatal) break;
    }
    return trace;
  }

 private:
  int Uniform(int lo, int hi) {  // inclusive
    return std::uniform_int_distribution<int>(lo, hi)(rng_);
  }
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[Uniform(0, static_cast<int>(v.size()) - 1)];
  }

  // RecreatedPod, now and then for the other scheduler name: schedulerName
  // is immutable, so only a re-created pod hands a name between schedulers
  // (informer filters judge the old and the new object apart).
  PodPtr Recreated(const Pod& pod, int incarnation) {
    PodPtr again = RecreatedPod(pod, incarnation);
    if (!variety_.Chance(0.2)) return again;
    auto p = std::const_pointer_cast<Pod>(again);
    p->scheduler_name = pod.scheduler_name == "default-scheduler"
                            ? "other-scheduler"
                            : "default-scheduler";
    return p;
  }

  // The `dedicated=x` taint, usually NoSchedule; PreferNoSchedule must not
  // filter, NoExecute must.
  Taint DedicatedTaint() {
    return {"dedicated", "x",
            variety_.Pick(
                {"NoSchedule", "NoSchedule", "PreferNoSchedule", "NoExecute"})};
  }
  // Node i scores 10i+0..9 (the best feasible score stays unique; with more
  // than 10 nodes, w i + 0..w-1 for w = 100 / nodes, so every score stays in
  // [0, 100]), and now and then a unique score outside [0, 100], which fails
  // a cycle that scores it (upstream: RunScorePlugins).
  std::string Score(int index, int drawn) {
    if (variety_.Chance(options_.variety.bad_score)) {
      return absl::StrCat(variety_.Chance(0.5) ? 101 + index * 10 + drawn
                                               : -1 - index);
    }
    if (options_.nodes > 10) {
      const int width = std::max(1, 100 / options_.nodes);
      return absl::StrCat(index * width + drawn % width);
    }
    return absl::StrCat(index * 10 + drawn);
  }

  // --- objects
  PodPtr NewPod(int index) {
    auto p = std::make_shared<Pod>();
    p->namespace_ = index % 2 == 0 ? "default" : "team";
    p->name = absl::StrCat("p", index);
    p->uid = absl::StrCat("uid-", p->namespace_, "-", p->name, "-",
                          ++incarnation_[index]);
    p->resource_version = "1";
    p->labels = {{"app", Chance(0.5) ? "web" : "db"}};
    p->scheduler_name = Chance(0.9) ? "default-scheduler" : "other-scheduler";
    if (Chance(0.8)) p->priority = Uniform(0, 5);
    Container c;
    c.name = "c";
    c.image = "img";
    c.requests["cpu"] = Q(absl::StrCat(Uniform(1, 15) * 100, "m"));
    if (Chance(0.3))
      c.requests["memory"] = Q(absl::StrCat(Uniform(1, 4), "Gi"));
    p->containers.push_back(c);
    if (Chance(0.2)) p->node_selector = {{"zone", "a"}};
    if (Chance(0.25)) {
      p->tolerations.push_back(
          {"dedicated",
           "Exists",
           "",
           variety_.Pick({"NoSchedule", "NoSchedule", "", "NoExecute",
                          "PreferNoSchedule"}),
           {}});
    }
    if (Chance(0.1)) p->scheduling_gates = {"example.com/wait"};
    if (variety_.Chance(0.15)) {  // tolerates cordoned nodes
      p->tolerations.push_back({"node.kubernetes.io/unschedulable",
                                "Exists",
                                "",
                                variety_.Pick({"NoSchedule", ""}),
                                {}});
    }
    return p;
  }

  NodePtr NewNode(int index) {
    auto n = std::make_shared<Node>();
    n->name = absl::StrCat("n", index);
    n->uid = absl::StrCat("uid-node-", n->name);
    n->labels = {{"zone", Chance(0.5) ? "a" : "b"},
                 {"schedtrace.io/score", Score(index, Uniform(0, 9))}};
    n->allocatable["cpu"] = Q(absl::StrCat(Uniform(1, 4)));
    n->allocatable["memory"] = Q("8Gi");
    n->allocatable["pods"] = Q(Chance(0.2) ? "2" : "110");
    if (Chance(0.2)) n->taints.push_back(DedicatedTaint());
    if (Chance(0.1)) n->unschedulable = true;
    return n;
  }

  PodPtr Bump(const Pod& old) {
    auto p = std::make_shared<Pod>(old);
    p->resource_version = absl::StrCat(std::stoll(old.resource_version) + 1);
    return p;
  }

  // --- the step mix
  Step Next() {
    Step step;
    t_ += ClockStep(rng_, options_.clock);
    step.t = t_;
    State s = sut_.Snapshot();
    std::vector<std::string> waiting =
        s.waiting.value_or(std::vector<std::string>{});
    std::vector<std::string> parked =
        s.parked.value_or(std::vector<std::string>{});
    std::vector<int> present, absent;
    for (int i = 0; i < options_.pods; ++i) {
      (pods_[i] ? present : absent).push_back(i);
    }
    std::vector<int> nodes_present, nodes_absent;
    for (int i = 0; i < options_.nodes; ++i) {
      (nodes_[i] ? nodes_present : nodes_absent).push_back(i);
    }
    if (!pending_.empty()) {
      Step next = std::move(pending_.front());
      pending_.pop_front();
      next.t = t_;
      return next;
    }
    if (Perturbed(step, s, present, nodes_present)) return step;
    if (options_.hostile && Chance(options_.variety.hostile_rate) &&
        Hostile(step, present)) {
      return step;
    }
    for (;;) {
      int r = Uniform(0, 99);
      if (!confirm_.empty() && Chance(0.6)) {
        // The apiserver's answer to a successful bind.
        auto [index, node, uid] = confirm_.front();
        confirm_.erase(confirm_.begin());
        if (!pods_[index] || !pods_[index]->node_name.empty() ||
            pods_[index]->uid != uid) {
          continue;
        }
        PodPtr next = Bump(*pods_[index]);
        std::const_pointer_cast<Pod>(next)->node_name = node;
        return Update(step, index, next);
      }
      if (r < 14 && !absent.empty()) {
        int i = Pick(absent);
        step.op = Op::kPodAdd;
        step.pod = pods_[i] = NewPod(i);
        return step;
      }
      if (r < 30 && !present.empty()) {
        int i = Pick(present);
        const Pod& old = *pods_[i];
        auto next = std::const_pointer_cast<Pod>(Bump(old));
        switch (Uniform(0, 7)) {
          case 0:
            next->labels["app"] = next->labels["app"] == "web" ? "db" : "web";
            break;
          case 1:
            next->priority = Uniform(0, 5);
            break;
          case 2:
            next->annotations["touched"] = absl::StrCat(t_);
            break;
          case 3:
            next->resource_version = old.resource_version;  // a resync
            break;
          case 4:
            next->scheduling_gates.clear();
            break;
          case 5:
            if (old.node_name.empty() && !nodes_present.empty()) {
              next->node_name = nodes_[Pick(nodes_present)]->name;
            }
            break;
          case 6:
            if (!old.deletion_timestamp) {
              next->deletion_timestamp =
                  K8sTime(kTraceEpochSeconds + t_ / 1000);
            }
            break;
          default:
            next->nominated_node_name =
                nodes_present.empty() ? "" : nodes_[Pick(nodes_present)]->name;
        }
        return Update(step, i, next);
      }
      if (r < 36 && !present.empty()) {
        int i = Pick(present);
        step.op = Op::kPodDelete;
        step.pod = pods_[i];
        step.tombstone = Chance(0.2);
        pods_[i] = nullptr;
        return step;
      }
      if (r < 42 && !nodes_absent.empty()) {
        int i = Pick(nodes_absent);
        step.op = Op::kNodeAdd;
        step.node = nodes_[i] = NewNode(i);
        return step;
      }
      if (r < 50 && !nodes_present.empty()) {
        int i = Pick(nodes_present);
        auto next = std::make_shared<Node>(*nodes_[i]);
        switch (Uniform(0, 5)) {
          case 0:
            next->allocatable["cpu"] = Q(absl::StrCat(Uniform(1, 4)));
            break;
          case 1:
            next->labels["zone"] = next->labels["zone"] == "a" ? "b" : "a";
            break;
          case 2:
            if (next->taints.empty()) {
              next->taints.push_back(DedicatedTaint());
            } else {
              next->taints.clear();
            }
            break;
          case 3:
            next->unschedulable = !next->unschedulable;
            break;
          case 4:
            next->conditions = {{"Ready", Chance(0.5) ? "True" : "False"}};
            break;
          default:
            break;  // an update that changes nothing the scheduler reads
        }
        step.op = Op::kNodeUpdate;
        step.old_node = nodes_[i];
        step.new_node = nodes_[i] = next;
        return step;
      }
      if (r < 53 && !nodes_present.empty()) {
        int i = Pick(nodes_present);
        step.op = Op::kNodeDelete;
        step.node = nodes_[i];
        step.tombstone = Chance(0.2);
        nodes_[i] = nullptr;
        return step;
      }
      if (r < 56) {
        static const std::vector<std::string> kKinds = {
            "PersistentVolume", "PersistentVolumeClaim", "StorageClass",
            "CSINode", "CSIDriver"};
        static const std::vector<std::string> kActions = {"Add", "Update",
                                                          "Delete"};
        step.op = Op::kClusterEvent;
        step.event.resource = Pick(kKinds);
        step.event.action = Pick(kActions);
        step.wait_for_first_consumer = Chance(0.5);
        return step;
      }
      if (r < 78) {
        step.op = Op::kScheduleOne;
        if (Chance(options_.variety.failure_rate)) {
          step.reserve = ReserveOutcome::kError;
        }
        int p = Uniform(0, 9);
        step.permit = p < 2   ? PermitOutcome::kWait
                      : p < 3 ? PermitOutcome::kReject
                              : PermitOutcome::kAllow;
        return step;
      }
      if (r < 84 && !waiting.empty()) {
        step.op = Chance(0.6) ? Op::kPermitAllow : Op::kPermitReject;
        step.pod_key = Pick(waiting);
        return step;
      }
      if (r < 92 && !parked.empty()) {
        step.op = Op::kBind;
        step.pod_key = Pick(parked);
        step.prebind_ok = !Chance(options_.variety.failure_rate);
        step.bind_ok = !Chance(options_.variety.failure_rate);
        return step;
      }
      if (r < 97) {
        step.op = Op::kFlushBackoff;
        return step;
      }
      step.op = Op::kFlushUnschedulable;
      return step;
    }
  }

  Step& Update(Step& step, int index, PodPtr next) {
    step.op = Op::kPodUpdate;
    step.old_pod = pods_[index];
    prev_[index] = pods_[index];
    step.new_pod = pods_[index] = std::move(next);
    return step;
  }

  // Informer perturbations (generator.h); true when `step` was filled.
  bool Perturbed(Step& step, const State& s, const std::vector<int>& present,
                 const std::vector<int>& nodes_present) {
    const Perturbations& p = options_.perturb;
    if (!present.empty() && Fire(rng_, p.resync)) {
      int i = Pick(present);
      step.op = Op::kPodUpdate;
      step.old_pod = step.new_pod = pods_[i];
      return true;
    }
    if (Fire(rng_, p.race)) {
      // A pod waiting on Permit or parked before PreBind.
      std::vector<int> busy;
      for (int i : present) {
        const std::string key = pods_[i]->Key();
        for (const auto* list : {&s.waiting, &s.parked}) {
          if (*list && std::count((*list)->begin(), (*list)->end(), key)) {
            busy.push_back(i);
          }
        }
      }
      if (!busy.empty()) {
        int i = Pick(busy);
        if (Chance(0.3)) {
          step.op = Op::kPodDelete;
          step.pod = pods_[i];
          pods_[i] = nullptr;
          return true;
        }
        auto next = std::const_pointer_cast<Pod>(Bump(*pods_[i]));
        next->labels["race"] = absl::StrCat(t_);
        if (Chance(0.3)) next->priority = Uniform(0, 5);
        Update(step, i, next);
        return true;
      }
    }
    if (!present.empty() && Fire(rng_, p.tombstone)) {
      int i = Pick(present);
      step.op = Op::kPodDelete;
      step.pod =
          prev_[i] && prev_[i]->uid == pods_[i]->uid ? prev_[i] : pods_[i];
      step.tombstone = true;
      pods_[i] = nullptr;
      return true;
    }
    if (!present.empty() && Fire(rng_, p.recreate)) {
      int i = Pick(present);
      step.op = Op::kPodDelete;
      step.pod = pods_[i];
      Step add;
      add.op = Op::kPodAdd;
      add.pod = pods_[i] = Recreated(*pods_[i], ++incarnation_[i]);
      prev_[i] = nullptr;
      pending_.push_back(std::move(add));
      return true;
    }
    if (!present.empty() && Fire(rng_, p.recreate_update)) {
      int i = Pick(present);
      auto next =
          std::const_pointer_cast<Pod>(Recreated(*pods_[i], ++incarnation_[i]));
      next->resource_version =
          absl::StrCat(std::stoll(pods_[i]->resource_version) + 1);
      Update(step, i, next);
      return true;
    }
    if (!nodes_present.empty() && Fire(rng_, p.node_recreate)) {
      // Prefer a node that still holds pods.
      std::vector<int> busy;
      if (s.cache) {
        for (const NodeInfoState& n : s.cache->nodes) {
          for (int i : nodes_present) {
            if (nodes_[i]->name == n.name && !n.pods.empty()) busy.push_back(i);
          }
        }
      }
      int i = busy.empty() ? Pick(nodes_present) : Pick(busy);
      step.op = Op::kNodeDelete;
      step.node = nodes_[i];
      Step add;
      add.op = Op::kNodeAdd;
      add.node = nodes_[i] = RecreatedNode(*nodes_[i], ++node_incarnation_[i]);
      pending_.push_back(std::move(add));
      return true;
    }
    if (!nodes_present.empty() && Fire(rng_, p.node_burst)) {
      int i = Pick(nodes_present);
      int n = Uniform(2, 5);
      for (int k = 0; k < n; ++k) {
        NodePtr next = NoOpNodeUpdate(*nodes_[i]);
        Step u;
        u.op = Op::kNodeUpdate;
        u.old_node = nodes_[i];
        u.new_node = nodes_[i] = next;
        if (k == 0) {
          step = std::move(u);
          step.t = t_;
        } else {
          pending_.push_back(std::move(u));
        }
      }
      return true;
    }
    return false;
  }

  // A step the apiserver would never send (generator.h, hostile mode).
  bool Hostile(Step& step, const std::vector<int>& present) {
    switch (Uniform(0, 6)) {
      case 0:  // a duplicate add
        if (present.empty()) return false;
        step.op = Op::kPodAdd;
        step.pod = pods_[Pick(present)];
        return true;
      case 1: {  // an update of a pod never added
        PodPtr ghost = NewPod(options_.pods + Uniform(0, 2));
        step.op = Op::kPodUpdate;
        step.old_pod = ghost;
        step.new_pod = Bump(*ghost);
        return true;
      }
      case 2:  // a delete of a pod never added
        step.op = Op::kPodDelete;
        step.pod = NewPod(options_.pods + Uniform(0, 2));
        step.tombstone = Chance(0.5);
        return true;
      case 3: {  // a bound pod moved to another node
        std::vector<int> bound;
        for (int i : present) {
          if (!pods_[i]->node_name.empty()) bound.push_back(i);
        }
        if (bound.empty()) return false;
        int i = Pick(bound);
        auto next = std::const_pointer_cast<Pod>(Bump(*pods_[i]));
        next->node_name = absl::StrCat("n", Uniform(0, options_.nodes));
        Update(step, i, next);
        return true;
      }
      case 4: {  // a decreasing resourceVersion
        if (present.empty()) return false;
        int i = Pick(present);
        auto next = std::make_shared<Pod>(*pods_[i]);
        next->resource_version = "0";
        next->labels["app"] = "rolled-back";
        Update(step, i, next);
        return true;
      }
      case 5: {  // a duplicate node add, or one of an unknown name
        int i = Uniform(0, options_.nodes);
        step.op = Op::kNodeAdd;
        step.node = i < options_.nodes && nodes_[i] ? nodes_[i] : NewNode(i);
        return true;
      }
      default: {  // a node deleted that was never added
        step.op = Op::kNodeDelete;
        step.node = NewNode(options_.nodes + Uniform(0, 2));
        step.tombstone = Chance(0.5);
        return true;
      }
    }
  }

  void Observe(const Step& step, const StepOut& out) {
    if (step.op != Op::kBind) return;
    for (const Binding& b : out.bindings) {
      for (int i = 0; i < options_.pods; ++i) {
        if (pods_[i] && pods_[i]->Key() == b.pod)
          confirm_.push_back({i, b.node, pods_[i]->uid});
      }
    }
  }

  System& sut_;
  GenOptions options_;
  std::mt19937_64 rng_;
  Variety variety_;
  int64_t t_ = 0;
  std::map<int, PodPtr> pods_;
  std::map<int, NodePtr> nodes_;
  std::map<int, PodPtr> prev_;  // the version before pods_[i], same uid
  std::map<int, int> incarnation_;
  std::map<int, int> node_incarnation_;
  std::deque<Step> pending_;  // steps a perturbation queued up
  struct Confirm {
    int index;
    std::string node;
    std::string uid;
  };
  std::vector<Confirm> confirm_;
};

// Cache-layer sequences.
class CacheGenerator {
 public:
  CacheGenerator(System& sut, const GenOptions& options)
      : sut_(sut), options_(options), rng_(options.seed) {}

  absl::StatusOr<Trace> Run() {
    Trace trace;
    TraceHeader& h = trace.header;
    h.name = absl::StrCat("generated/cache/seed-", options_.seed);
    h.layer = Layer::kCache;
    h.upstream = "v1.26.7";
    h.source = "generated";
    h.seed = static_cast<int64_t>(options_.seed);
    h.config.assumed_pod_ttl_ms = ttl_ = Chance(0.5) ? 0 : 30000;
    h.description =
        absl::StrCat("random cache-layer sequence, seed ", options_.seed,
                     ", ttl ", h.config.assumed_pod_ttl_ms, " ms");
    if (absl::Status s = sut_.Configure(h); !s.ok()) return s;
    for (int i = 0; i < options_.steps; ++i) {
      Step step = Next();
      absl::StatusOr<StepOut> out = Record(sut_, step);
      if (!out.ok()) {
        if (options_.hostile) continue;  // refused outright: leave it out
        return out.status();
      }
      trace.steps.push_back(std::move(step));
      if (out->fatal) break;
    }
    return trace;
  }

 private:
  int Uniform(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng_);
  }
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }

  std::string NodeName() {
    return absl::StrCat("n", Uniform(0, options_.nodes - 1));
  }

  PodPtr MakePod(int index, const std::string& node) {
    auto p = std::make_shared<Pod>();
    p->namespace_ = "default";
    p->name = absl::StrCat("p", index);
    p->uid = absl::StrCat("uid-p", index, "-", incarnation_[index]);
    p->resource_version = absl::StrCat(++rv_);
    p->node_name = node;
    Container c;
    c.name = "c";
    c.requests["cpu"] = Q(absl::StrCat(Uniform(1, 20) * 50, "m"));
    if (Chance(0.4))
      c.requests["memory"] = Q(absl::StrCat(Uniform(1, 512), "Mi"));
    if (Chance(0.2))
      c.requests["example.com/gpu"] = Q(absl::StrCat(Uniform(1, 2)));
    p->containers.push_back(c);
    if (Chance(0.2)) {
      Container init;
      init.name = "init";
      init.requests["cpu"] = Q(absl::StrCat(Uniform(1, 30) * 50, "m"));
      p->init_containers.push_back(init);
    }
    return p;
  }

  NodePtr MakeNode(const std::string& name) {
    auto n = std::make_shared<Node>();
    n->name = name;
    n->labels = {{"topology.kubernetes.io/zone", Chance(0.5) ? "a" : "b"}};
    n->allocatable["cpu"] = Q(absl::StrCat(Uniform(1, 8)));
    return n;
  }

  Step Next() {
    Step step;
    // Cleanups exactly at and just after a deadline: expiry is strict.
    while (!boundaries_.empty() && *boundaries_.begin() <= t_) {
      boundaries_.erase(boundaries_.begin());
    }
    if (!boundaries_.empty() && Chance(0.3)) {
      t_ = *boundaries_.begin();
      boundaries_.erase(boundaries_.begin());
      step.t = t_;
      step.op = Op::kCCleanup;
      return step;
    }
    const ClockSteps& clock = options_.clock;
    t_ += Chance(clock.ttl.p) ? Span(rng_, clock.ttl.min_ms, clock.ttl.max_ms)
                              : Span(rng_, clock.min_ms, clock.max_ms);
    step.t = t_;
    if (!pending_.empty()) {
      Step next = std::move(pending_.front());
      pending_.pop_front();
      next.t = t_;
      return next;
    }
    int i = Uniform(0, options_.pods - 1);
    PodPtr& known = pods_[i];
    if (Perturbed(step, i)) return step;
    if (options_.hostile && Chance(options_.variety.hostile_rate) &&
        Hostile(step, i)) {
      return step;
    }
    int r = Uniform(0, 99);
    if (r < 20) {  // the scheduler assumes a pod (or retries one)
      if (known == nullptr || Chance(0.2)) {
        if (known == nullptr) ++incarnation_[i];
        known = MakePod(i, NodeName());
      }
      step.op = Op::kCAssume;
      step.pod = known;
    } else if (r < 32 && known) {
      step.op = Op::kCFinishBinding;
      step.pod = known;
      if (ttl_ > 0) {
        boundaries_.insert(t_ + ttl_);
        boundaries_.insert(t_ + ttl_ + 1);
      }
    } else if (r < 40 && known) {
      step.op = Op::kCForget;
      step.pod = known;
    } else if (r < 55) {  // the informer confirms (or adds) a pod
      if (known == nullptr) {
        ++incarnation_[i];
        known = MakePod(i, NodeName());
      } else if (Chance(0.2)) {
        auto moved = std::make_shared<Pod>(*known);
        moved->node_name = NodeName();
        known = moved;
      }
      step.op = Op::kCAddPod;
      step.pod = known;
    } else if (r < 65 && known) {
      auto next = std::make_shared<Pod>(*MakePod(i, known->node_name));
      next->uid = known->uid;
      step.op = Op::kCUpdatePod;
      step.old_pod = prev_[i] = known;
      step.new_pod = known = next;
    } else if (r < 73 && known) {
      step.op = Op::kCRemovePod;
      step.pod = known;
      if (Chance(0.2)) {  // the stale unassigned version
        auto stale = std::make_shared<Pod>(*known);
        stale->node_name.clear();
        step.pod = stale;
      }
      known = nullptr;
    } else if (r < 81) {
      std::string name = NodeName();
      step.op = Op::kCAddNode;
      step.node = nodes_[name] = MakeNode(name);
    } else if (r < 87) {
      std::string name = NodeName();
      NodePtr old = nodes_[name] ? nodes_[name] : MakeNode(name);
      step.op = Op::kCUpdateNode;
      step.old_node = old;
      step.new_node = nodes_[name] = MakeNode(name);
    } else if (r < 92) {
      std::string name = NodeName();
      step.op = Op::kCRemoveNode;
      step.node = nodes_[name] ? nodes_[name] : MakeNode(name);
      nodes_[name] = nullptr;
    } else {
      step.op = Op::kCCleanup;
    }
    return step;
  }

  // Informer perturbations (generator.h) aimed at pod `i`; true when
  // `step` was filled.
  bool Perturbed(Step& step, int i) {
    const Perturbations& p = options_.perturb;
    PodPtr& known = pods_[i];
    if (known && Fire(rng_, p.resync)) {
      step.op = Op::kCUpdatePod;
      step.old_pod = step.new_pod = known;
      return true;
    }
    if (Fire(rng_, p.race)) {  // an informer update of an assumed pod
      State s = sut_.Snapshot();
      if (known && s.cache &&
          std::count(s.cache->assumed.begin(), s.cache->assumed.end(),
                     known->Key())) {
        auto next = std::make_shared<Pod>(*known);
        next->resource_version = absl::StrCat(++rv_);
        next->labels["race"] = absl::StrCat(t_);
        step.op = Op::kCUpdatePod;
        step.old_pod = prev_[i] = known;
        step.new_pod = known = next;
        return true;
      }
    }
    if (known && Fire(rng_, p.tombstone)) {
      step.op = Op::kCRemovePod;
      step.pod = prev_[i] && prev_[i]->uid == known->uid ? prev_[i] : known;
      known = nullptr;
      return true;
    }
    if (known && Fire(rng_, p.recreate)) {
      step.op = Op::kCRemovePod;
      step.pod = known;
      ++incarnation_[i];
      Step add;
      add.op = Op::kCAddPod;
      add.pod = known = MakePod(i, NodeName());
      prev_[i] = nullptr;
      pending_.push_back(std::move(add));
      return true;
    }
    if (known && Fire(rng_, p.recreate_update)) {
      ++incarnation_[i];
      step.op = Op::kCUpdatePod;
      step.old_pod = known;
      step.new_pod = known = MakePod(i, known->node_name);
      prev_[i] = nullptr;
      return true;
    }
    if (Fire(rng_, p.node_recreate)) {
      std::string name = NodeName();
      NodePtr node = nodes_[name] ? nodes_[name] : MakeNode(name);
      step.op = Op::kCRemoveNode;
      step.node = node;
      Step add;
      add.op = Op::kCAddNode;
      add.node = nodes_[name] = node;
      pending_.push_back(std::move(add));
      return true;
    }
    if (Fire(rng_, p.node_burst)) {
      std::string name = NodeName();
      NodePtr node = nodes_[name] ? nodes_[name] : MakeNode(name);
      int n = Uniform(2, 5);
      for (int k = 0; k < n; ++k) {
        Step u;
        u.op = Op::kCUpdateNode;
        u.old_node = u.new_node = node;
        if (k == 0) {
          step = std::move(u);
          step.t = t_;
        } else {
          pending_.push_back(std::move(u));
        }
      }
      nodes_[name] = node;
      return true;
    }
    return false;
  }

  // A call the informer would never make (generator.h, hostile mode).
  bool Hostile(Step& step, int i) {
    PodPtr& known = pods_[i];
    switch (Uniform(0, 3)) {
      case 0: {  // an added pod moved to another node
        if (!known) return false;
        auto moved = std::make_shared<Pod>(*known);
        moved->node_name = NodeName();
        moved->resource_version = absl::StrCat(++rv_);
        step.op = Op::kCUpdatePod;
        step.old_pod = known;
        step.new_pod = known = moved;
        return true;
      }
      case 1:  // a pod the cache never saw, forgotten or removed
        ++incarnation_[options_.pods + i];
        step.op = Chance(0.5) ? Op::kCForget : Op::kCRemovePod;
        step.pod = MakePod(options_.pods + i, NodeName());
        return true;
      case 2: {  // a decreasing resourceVersion
        if (!known) return false;
        auto next = std::make_shared<Pod>(*known);
        next->resource_version = "0";
        step.op = Op::kCUpdatePod;
        step.old_pod = known;
        step.new_pod = known = next;
        return true;
      }
      default:  // a node never added, updated
        step.op = Op::kCUpdateNode;
        step.old_node = MakeNode(absl::StrCat("x", i));
        step.new_node = MakeNode(absl::StrCat("x", i));
        return true;
    }
  }

  System& sut_;
  GenOptions options_;
  std::mt19937_64 rng_;
  std::deque<Step> pending_;    // steps a perturbation queued up
  std::map<int, PodPtr> prev_;  // the version before pods_[i], same uid
  int64_t t_ = 0;
  int64_t rv_ = 0;
  int64_t ttl_ = 0;
  std::set<int64_t> boundaries_;
  std::map<int, PodPtr> pods_;
  std::map<int, int> incarnation_;
  std::map<std::string, NodePtr> nodes_;
};

// Queue-layer sequences.
class QueueGenerator {
 public:
  QueueGenerator(System& sut, const GenOptions& options)
      : sut_(sut),
        options_(options),
        rng_(options.seed),
        variety_(options.seed) {
    pool_ = std::max(1, std::min(options.pods, options.queue_pool));
  }

  absl::StatusOr<Trace> Run() {
    Trace trace;
    trace.header =
        QueueHeader(absl::StrCat("generated/queue/seed-", options_.seed));
    TraceHeader& h = trace.header;
    h.source = "generated";
    h.seed = static_cast<int64_t>(options_.seed);
    if (Chance(options_.variety.huge_backoff)) {
      // notes 29: 9223372036854 ms is handled (capped, positive) by Go;
      // 9223372037000 ms wraps in time.Duration(s) * time.Second.
      h.config.pod_max_backoff_ms =
          Chance(0.5) ? int64_t{9223372036854} : int64_t{9223372037000};
      focus_ = Uniform(0, pool_ - 1);
    }
    h.description = absl::StrCat(
        "random valid queue-layer sequence, seed ", options_.seed, ", ", pool_,
        " pods, ", "podMaxBackoffMs ", h.config.pod_max_backoff_ms);
    if (absl::Status s = sut_.Configure(h); !s.ok()) return s;
    for (int i = 0; i < options_.steps; ++i) {
      Step step = Next();
      absl::StatusOr<StepOut> out = Record(sut_, step);
      if (!out.ok()) {
        if (options_.hostile) continue;  // refused outright: leave it out
        return out.status();
      }
      Observe(step, *out);
      trace.steps.push_back(std::move(step));
      if (out->fatal) break;
    }
    return trace;
  }

 private:
  int Uniform(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng_);
  }
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[Uniform(0, static_cast<int>(v.size()) - 1)];
  }
  std::string Key(int i) const {
    return absl::StrCat(i % 2 == 0 ? "default" : "team", "/p", i);
  }

  PodPtr NewPod(int index) {
    auto p = std::make_shared<Pod>();
    p->namespace_ = index % 2 == 0 ? "default" : "team";
    p->name = absl::StrCat("p", index);
    p->uid = absl::StrCat("uid-", p->namespace_, "-", p->name, "-",
                          ++incarnation_[index]);
    p->resource_version = absl::StrCat(++rv_);
    p->scheduler_name = "default-scheduler";
    if (Chance(0.8)) p->priority = Uniform(0, 3);
    Container c;
    c.name = "c";
    c.image = "img";
    p->containers.push_back(c);
    if (Chance(0.15)) p->scheduling_gates = {"example.com/wait"};
    // A role, and now and then required affinity to a role on the same
    // host: assigned pods then move the unschedulable pods whose terms
    // they match (AssignedPodAdded/Updated), and a recreate_update draws
    // new terms.
    if (variety_.Chance(0.5)) p->labels["role"] = variety_.Pick({"web", "db"});
    if (variety_.Chance(0.25)) {
      PodAffinityTerm& term = p->required_pod_affinity.emplace_back();
      term.label_selector.emplace().match_labels["role"] =
          variety_.Pick({"web", "db"});
      term.topology_key = "kubernetes.io/hostname";
    }
    return p;
  }

  PodPtr Bump(const Pod& old) {
    auto p = std::make_shared<Pod>(old);
    p->resource_version = absl::StrCat(++rv_);
    return p;
  }

  std::string NodeName() { return absl::StrCat("n", Uniform(0, 2)); }

  int64_t CurrentCycle() const {
    State s = sut_.Snapshot();
    return s.queue ? s.queue->scheduling_cycle : 0;
  }

  // One of the upstream events MoveAllToActiveOrBackoffQueue receives.
  ClusterEvent Event() {
    static const std::vector<ClusterEvent> kEvents = {
        {"Node", "Add", "NodeAdd"},
        {"Node", "UpdateNodeAllocatable", "NodeAllocatableChange"},
        {"Node", "UpdateNodeLabel", "NodeLabelChange"},
        {"Node", "UpdateNodeTaint", "NodeTaintChange"},
        {"Node", "UpdateNodeTaint", "NodeSpecUnschedulableChange"},
        {"Node", "UpdateNodeCondition", "NodeConditionChange"},
        {"Pod", "Delete", "AssignedPodDelete"},
        {"Pod", "Update", "AssignedPodUpdate"},
        {"PersistentVolume", "Add", "PvAdd"},
        {"PersistentVolumeClaim", "Update", "PvcUpdate"},
        {"StorageClass", "Add", "StorageClassAdd"},
        {"CSINode", "Add", "CSINodeAdd"},
        {"*", "All", "UnschedulableTimeout"},
        {"*", "All", "WildCardEvent"},
    };
    return Pick(kEvents);
  }

  std::vector<std::string> Plugins() {
    static const std::vector<std::string> kPlugins = {
        "NodeResourcesFit", "NodeAffinity", "NodeUnschedulable",
        "TaintToleration", "VolumeBinding"};
    std::vector<std::string> out;
    int n = Uniform(0, 2);
    for (int k = 0; k < n; ++k) {
      const std::string& p = Pick(kPlugins);
      if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  Step Next() {
    Step step;
    t_ += ClockStep(rng_, options_.clock);
    step.t = t_;
    if (!pending_.empty()) {
      Step next = std::move(pending_.front());
      pending_.pop_front();
      next.t = t_;
      return next;
    }
    std::vector<int> pending, assigned, absent;
    for (int i = 0; i < pool_; ++i) {
      if (!pods_[i]) {
        absent.push_back(i);
      } else if (pods_[i]->node_name.empty()) {
        pending.push_back(i);
      } else {
        assigned.push_back(i);
      }
    }
    std::vector<int> flying;
    for (int i : pending) {
      if (in_flight_.contains(Key(i))) flying.push_back(i);
    }
    if (Perturbed(step, pending, flying)) return step;
    if (options_.hostile && Chance(options_.variety.hostile_rate) &&
        Hostile(step, pending)) {
      return step;
    }
    if (focus_ >= 0 && Chance(0.8) && Hammer(step)) return step;
    for (;;) {
      int r = Uniform(0, 99);
      if (r < 12 && !absent.empty()) {
        int i = Pick(absent);
        step.op = Op::kQAdd;
        step.pod = pods_[i] = NewPod(i);
        return step;
      }
      if (r < 24 && !pending.empty()) {
        int i = Pick(pending);
        auto next = std::const_pointer_cast<Pod>(Bump(*pods_[i]));
        switch (Uniform(0, 4)) {
          case 0:
            next->labels["app"] = absl::StrCat(t_);
            break;
          case 1:
            next->priority = Uniform(0, 3);
            break;
          case 2:
            next->scheduling_gates.clear();
            break;
          case 3:
            if (next->scheduling_gates.empty())
              next->scheduling_gates = {"example.com/wait"};
            break;
          default:
            next->nominated_node_name = NodeName();
        }
        step.op = Op::kQUpdate;
        step.old_pod = Chance(0.05) ? nullptr : pods_[i];
        prev_[i] = pods_[i];
        step.new_pod = pods_[i] = next;
        return step;
      }
      if (r < 30 && !pending.empty()) {
        int i = Pick(pending);
        step.op = Op::kQDelete;
        step.pod = pods_[i];
        Forget(i);
        return step;
      }
      if (r < 48) {
        step.op = Op::kQPop;
        return step;
      }
      if (r < 64 && !flying.empty()) {
        int i = Pick(flying);
        step.op = Op::kQAddUnschedulable;
        step.pod_key = Key(i);
        step.plugins = Plugins();
        int c = Uniform(0, 9);
        if (c < 2) {
          step.cycle = popped_cycle_[Key(i)];  // the cycle it was popped in
        } else if (c < 3) {
          step.cycle = Uniform(0, static_cast<int>(CurrentCycle()));
        }
        return step;
      }
      if (r < 70 && !flying.empty() && Chance(0.5)) {
        // Bound: the informer's delete from the queue, then the assigned
        // pod's add.
        int i = Pick(flying);
        step.op = Op::kQDelete;
        step.pod = pods_[i];
        in_flight_.erase(Key(i));
        auto bound = std::const_pointer_cast<Pod>(Bump(*pods_[i]));
        bound->node_name = NodeName();
        Step add;
        add.op = Op::kQAssignedPodAdded;
        add.pod = pods_[i] = bound;
        pending_.push_back(std::move(add));
        return step;
      }
      if (r < 74 && !assigned.empty()) {
        int i = Pick(assigned);
        if (Chance(0.7)) {
          auto next = std::const_pointer_cast<Pod>(Bump(*pods_[i]));
          next->labels["app"] = absl::StrCat(t_);
          step.op = Op::kQAssignedPodUpdated;
          step.pod = pods_[i] = next;
        } else {  // deleted: the queue hears only the move request
          step.op = Op::kQMoveAll;
          step.event = {"Pod", "Delete", "AssignedPodDelete"};
          pods_[i] = nullptr;
        }
        return step;
      }
      if (r < 80) {
        step.op = Op::kQActivate;
        int n = Uniform(1, 2);
        for (int k = 0; k < n; ++k) {
          int i = Uniform(0, pool_ - 1);
          step.pod_keys.push_back(Key(i));
          if (pods_[i]) {
            step.pods.push_back(pods_[i]);
          } else {
            auto stub = std::make_shared<Pod>();
            stub->namespace_ = i % 2 == 0 ? "default" : "team";
            stub->name = absl::StrCat("p", i);
            step.pods.push_back(stub);
          }
        }
        return step;
      }
      if (r < 88) {
        step.op = Op::kQMoveAll;
        step.event = Event();
        if (Chance(0.2)) {
          std::vector<std::string> allowed;
          for (int i : pending) {
            if (Chance(0.5)) allowed.push_back(Key(i));
          }
          step.precheck = allowed;
        }
        return step;
      }
      if (r < 92 && !pending.empty()) {
        int i = Pick(pending);
        step.op = Op::kQNominate;
        step.pod = pods_[i];
        step.nominated_node = Chance(0.1) ? "" : NodeName();
        return step;
      }
      if (r < 96) {
        step.op = Op::kFlushBackoff;
        return step;
      }
      step.op = Op::kFlushUnschedulable;
      return step;
    }
  }

  // With a huge podMaxBackoffMs: pop the focus pod, give it back, activate
  // it, again and again, so its attempts climb past the backoff cap.
  bool Hammer(Step& step) {
    const std::string key = Key(focus_);
    if (!pods_[focus_]) {
      step.op = Op::kQAdd;
      step.pod = pods_[focus_] = NewPod(focus_);
      std::const_pointer_cast<Pod>(pods_[focus_])->scheduling_gates.clear();
      return true;
    }
    if (!pods_[focus_]->node_name.empty()) return false;
    if (in_flight_.contains(key)) {
      if (!hammer_moved_ && Chance(0.5)) {
        // A move request while it is in flight: it goes to backoffQ, where
        // its backoff time shows.
        hammer_moved_ = true;
        step.op = Op::kQMoveAll;
        step.event = {"Node", "Add", "NodeAdd"};
        return true;
      }
      hammer_moved_ = false;
      step.op = Op::kQAddUnschedulable;
      step.pod_key = key;
      step.plugins = {"NodeResourcesFit"};
      return true;
    }
    State s = sut_.Snapshot();
    if (s.queue && !s.queue->active.empty()) {
      step.op = Op::kQPop;
      return true;
    }
    if (Chance(0.3)) {  // out of unschedulablePods unless backing off
      step.op = Op::kQMoveAll;
      step.event = {"Node", "Add", "NodeAdd"};
      return true;
    }
    step.op = Op::kQActivate;
    step.pod_keys = {key};
    step.pods = {pods_[focus_]};
    return true;
  }

  // Informer perturbations (generator.h); true when `step` was filled.
  bool Perturbed(Step& step, const std::vector<int>& pending,
                 const std::vector<int>& flying) {
    const Perturbations& p = options_.perturb;
    if (!pending.empty() && Fire(rng_, p.resync)) {
      int i = Pick(pending);
      step.op = Op::kQUpdate;
      step.old_pod = step.new_pod = pods_[i];
      return true;
    }
    if (!flying.empty() && Fire(rng_, p.race)) {
      // An update (or delete) between q_pop and q_add_unschedulable.
      int i = Pick(flying);
      if (Chance(0.2)) {
        step.op = Op::kQDelete;
        step.pod = pods_[i];
        Forget(i);
        return true;
      }
      auto next = std::const_pointer_cast<Pod>(Bump(*pods_[i]));
      next->labels["race"] = absl::StrCat(t_);
      step.op = Op::kQUpdate;
      step.old_pod = prev_[i] = pods_[i];
      step.new_pod = pods_[i] = next;
      return true;
    }
    if (!pending.empty() && Fire(rng_, p.tombstone)) {
      int i = Pick(pending);
      step.op = Op::kQDelete;
      step.pod =
          prev_[i] && prev_[i]->uid == pods_[i]->uid ? prev_[i] : pods_[i];
      Forget(i);
      return true;
    }
    if (!pending.empty() && Fire(rng_, p.recreate)) {
      int i = Pick(pending);
      step.op = Op::kQDelete;
      step.pod = pods_[i];
      Forget(i);
      Step add;
      add.op = Op::kQAdd;
      add.pod = pods_[i] = NewPod(i);
      pending_.push_back(std::move(add));
      return true;
    }
    if (!pending.empty() && Fire(rng_, p.recreate_update)) {
      int i = Pick(pending);
      step.op = Op::kQUpdate;
      step.old_pod = pods_[i];
      step.new_pod = pods_[i] = NewPod(i);
      prev_[i] = nullptr;
      return true;
    }
    return false;
  }

  // A call the scheduler would never make (generator.h, hostile mode).
  bool Hostile(Step& step, const std::vector<int>& pending) {
    switch (Uniform(0, 4)) {
      case 0:  // a duplicate add
        if (pending.empty()) return false;
        step.op = Op::kQAdd;
        step.pod = pods_[Pick(pending)];
        return true;
      case 1: {  // an update of a pod never added
        PodPtr ghost = NewPod(pool_ + Uniform(0, 1));
        step.op = Op::kQUpdate;
        step.old_pod = Chance(0.5) ? ghost : nullptr;
        step.new_pod = Bump(*ghost);
        return true;
      }
      case 2:  // a delete of a pod never added
        step.op = Op::kQDelete;
        step.pod = NewPod(pool_ + Uniform(0, 1));
        return true;
      case 3: {  // a decreasing resourceVersion
        if (pending.empty()) return false;
        int i = Pick(pending);
        auto next = std::make_shared<Pod>(*pods_[i]);
        next->resource_version = "0";
        next->priority = Uniform(0, 3);
        step.op = Op::kQUpdate;
        step.old_pod = pods_[i];
        step.new_pod = pods_[i] = next;
        return true;
      }
      default: {  // an assigned pod given to q_add, a node name changed
        if (pending.empty()) return false;
        int i = Pick(pending);
        auto next = std::const_pointer_cast<Pod>(Bump(*pods_[i]));
        next->node_name = NodeName();
        step.op = Chance(0.5) ? Op::kQAdd : Op::kQAssignedPodUpdated;
        step.pod = next;
        return true;
      }
    }
  }

  void Forget(int i) {
    in_flight_.erase(Key(i));
    pods_[i] = nullptr;
    prev_[i] = nullptr;
  }

  void Observe(const Step& step, const StepOut& out) {
    if (step.op == Op::kQPop && out.popped) {
      in_flight_.insert(*out.popped);
      popped_cycle_[*out.popped] = CurrentCycle();
    } else if (step.op == Op::kQAddUnschedulable) {
      in_flight_.erase(step.pod_key);
    }
  }

  System& sut_;
  GenOptions options_;
  std::mt19937_64 rng_;
  Variety variety_;
  int pool_ = 5;
  int focus_ = -1;  // the pod Hammer re-pops, or -1
  bool hammer_moved_ = false;
  int64_t t_ = 0;
  int64_t rv_ = 0;
  std::map<int, PodPtr> pods_;  // the informer's view; null = absent
  std::map<int, PodPtr> prev_;  // the version before pods_[i], same uid
  std::map<int, int> incarnation_;
  std::set<std::string> in_flight_;  // popped, not given back or deleted
  std::map<std::string, int64_t> popped_cycle_;
  std::deque<Step> pending_;
};

}  // namespace

PodPtr RecreatedPod(const Pod& pod, int incarnation) {
  auto p = std::make_shared<Pod>(pod);
  p->uid =
      absl::StrCat("uid-", pod.namespace_, "-", pod.name, "-", incarnation);
  p->resource_version = "1";
  p->node_name.clear();
  p->nominated_node_name.clear();
  p->deletion_timestamp.reset();
  return p;
}

NodePtr RecreatedNode(const Node& node, int incarnation) {
  auto again = std::make_shared<Node>(node);
  again->uid = absl::StrCat(again->uid, "-", incarnation);
  return again;
}

NodePtr NoOpNodeUpdate(const Node& node) {
  auto next = std::make_shared<Node>(node);
  int64_t rv = 0;
  (void)absl::SimpleAtoi(next->resource_version, &rv);
  next->resource_version = absl::StrCat(rv + 1);
  return next;
}

TraceHeader SchedulerHeader(const std::string& name) {
  TraceHeader h;
  h.name = name;
  h.layer = Layer::kScheduler;
  h.upstream = "v1.26.7";
  Config& c = h.config;
  c.profiles = {"default-scheduler"};
  c.features = {{"PodSchedulingReadiness", true}};
  c.percentage_of_nodes_to_score = 100;
  const std::vector<std::string> others = {"PrioritySort", "TraceBind",
                                           "TracePermit",  "TracePreBind",
                                           "TraceReserve", "TraceScore"};
  c.cluster_event_map = {
      {"CSINode", {"All"}, others},
      {"Node", {"Add", "UpdateNodeTaint"}, {"NodeUnschedulable"}},
      {"Node",
       {"Add", "Update"},
       {"NodeAffinity", "NodeName", "NodeResourcesFit", "TaintToleration"}},
      {"Node", {"All"}, others},
      {"PersistentVolume", {"All"}, others},
      {"PersistentVolumeClaim", {"All"}, others},
      {"Pod", {"Delete"}, {"NodeResourcesFit"}},
      {"Pod", {"Update"}, {"SchedulingGates"}},
      {"Pod", {"All"}, others},
      {"StorageClass", {"All"}, others},
  };
  c.plugins = {{"queueSort", {"PrioritySort"}},
               {"preEnqueue", {"SchedulingGates"}},
               {"preFilter", {"NodeAffinity", "NodeResourcesFit"}},
               {"filter",
                {"NodeUnschedulable", "NodeName", "TaintToleration",
                 "NodeAffinity", "NodeResourcesFit"}},
               {"score", {"TraceScore"}},
               {"reserve", {"TraceReserve"}},
               {"permit", {"TracePermit"}},
               {"preBind", {"TracePreBind"}},
               {"bind", {"TraceBind"}},
               {"postBind", {"TraceBind"}}};
  return h;
}

absl::StatusOr<Trace> GenerateSchedulerTrace(System& sut,
                                             const GenOptions& options) {
  return Generator(sut, options).Run();
}

absl::StatusOr<Trace> GenerateCacheTrace(System& sut,
                                         const GenOptions& options) {
  return CacheGenerator(sut, options).Run();
}

TraceHeader QueueHeader(const std::string& name) {
  TraceHeader h;
  h.name = name;
  h.layer = Layer::kQueue;
  h.upstream = "v1.26.7";
  Config& c = h.config;
  c.profiles = {"default-scheduler"};
  c.features = {{"PodSchedulingReadiness", true}};
  // The recordings' clusterEventMap, plus the volume plugin's rows.
  c.cluster_event_map = {
      {"Node", {"Add", "UpdateNodeTaint"}, {"NodeUnschedulable"}},
      {"Node",
       {"Add", "Update"},
       {"NodeAffinity", "NodeName", "NodeResourcesFit", "TaintToleration"}},
      {"Pod", {"Delete"}, {"NodeResourcesFit"}},
      {"Pod", {"Update"}, {"SchedulingGates"}},
      {"PersistentVolume", {"Add", "Update"}, {"VolumeBinding"}},
      {"PersistentVolumeClaim", {"Add", "Update"}, {"VolumeBinding"}},
      {"StorageClass", {"Add", "Update"}, {"VolumeBinding"}},
      {"CSINode", {"Add", "Update"}, {"VolumeBinding"}},
  };
  c.pre_enqueue_plugins = {{"default-scheduler", {"SchedulingGates"}}};
  c.nominator_pod_lister = "queue-ops";
  return h;
}

absl::StatusOr<Trace> GenerateQueueTrace(System& sut,
                                         const GenOptions& options) {
  return QueueGenerator(sut, options).Run();
}

absl::StatusOr<Trace> GenerateTrace(Layer layer, System& sut,
                                    const GenOptions& options) {
  switch (layer) {
    case Layer::kQueue:
      return GenerateQueueTrace(sut, options);
    case Layer::kCache:
      return GenerateCacheTrace(sut, options);
    case Layer::kScheduler:
      return GenerateSchedulerTrace(sut, options);
  }
  return absl::InvalidArgumentError("unknown layer");
}

GenOptions LargePoolOptions(uint64_t seed) {
  GenOptions options{
      .seed = seed, .steps = 700, .pods = 40, .nodes = 12, .queue_pool = 40};
  if (seed % 2 == 0) {
    options.perturb = Perturbations::All(0.05);
  }
  return options;
}

namespace {

constexpr int kMaxPods = 100000;
// Node scores stay unique and in [0, 100] up to 100 nodes (Score).
constexpr int kMaxNodes = 100;

absl::Status BadValue(const std::string& name, const std::string& takes,
                      const std::string& value) {
  return absl::InvalidArgumentError(
      absl::StrCat("--", name, " takes ", takes, ", not \"", value, "\""));
}

// A whole number in [lo, hi].
absl::Status SetInt(const std::string& name, const std::string& value, int lo,
                    int hi, int& out) {
  int v = 0;
  if (!absl::SimpleAtoi(value, &v) || v < lo || v > hi) {
    return BadValue(
        name,
        hi == std::numeric_limits<int>::max()
            ? absl::StrCat("a whole number >= ", lo)
            : absl::StrCat("a whole number in [", lo, ", ", hi, "]"),
        value);
  }
  out = v;
  return absl::OkStatus();
}

bool ParseProbability(const std::string& text, double& out) {
  double v = 0;
  if (!absl::SimpleAtod(text, &v) || !(v >= 0) || v > 1) return false;
  out = v;
  return true;
}

absl::Status SetProbability(const std::string& name, const std::string& value,
                            double& out) {
  if (!ParseProbability(value, out)) {
    return BadValue(name, "a probability in [0, 1]", value);
  }
  return absl::OkStatus();
}

// "MIN:MAX" or "MS" (both MIN and MAX), whole milliseconds, 1 <= MIN <= MAX.
bool ParseRange(const std::vector<std::string>& parts, int& lo, int& hi) {
  int a = 0, b = 0;
  if (parts.empty() || parts.size() > 2 || !absl::SimpleAtoi(parts[0], &a) ||
      !absl::SimpleAtoi(parts.back(), &b) || a < 1 || a > b) {
    return false;
  }
  lo = a;
  hi = b;
  return true;
}

absl::Status SetRange(const std::string& name, const std::string& value,
                      int& lo, int& hi) {
  std::vector<std::string> parts = absl::StrSplit(value, ':');
  if (!ParseRange(parts, lo, hi)) {
    return BadValue(
        name, "MIN:MAX (or MS), whole milliseconds, 1 <= MIN <= MAX", value);
  }
  return absl::OkStatus();
}

// "P:MIN:MAX" or "P:MS".
absl::Status SetJump(const std::string& name, const std::string& value,
                     ClockJump& out) {
  std::vector<std::string> parts = absl::StrSplit(value, ':');
  ClockJump j;
  if (parts.size() < 2 || !ParseProbability(parts[0], j.p) ||
      !ParseRange(std::vector<std::string>(parts.begin() + 1, parts.end()),
                  j.min_ms, j.max_ms)) {
    return BadValue(name,
                    "P:MIN:MAX (or P:MS), P in [0, 1], whole milliseconds, "
                    "1 <= MIN <= MAX",
                    value);
  }
  out = j;
  return absl::OkStatus();
}

absl::Status SetGenFlag(GenOptions& o, const std::string& name,
                        const std::string& value) {
  const auto it =
      std::find_if(GenFlags().begin(), GenFlags().end(),
                   [&](const GenFlag& f) { return f.name == name; });
  if (it == GenFlags().end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name, " is not a generator flag"));
  }
  if (it->boolean) {
    if (!value.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--", name, " is a switch and takes no value, not \"", value, "\""));
    }
    if (name == "hostile") {
      o.hostile = true;
      return absl::OkStatus();
    }
    return absl::InternalError(absl::StrCat("--", name, " has no setter"));
  }
  if (name == "seed") {
    if (!absl::SimpleAtoi(value, &o.seed)) {
      return BadValue(name, "a whole number >= 0", value);
    }
    return absl::OkStatus();
  }
  if (name == "steps") {
    return SetInt(name, value, 0, std::numeric_limits<int>::max(), o.steps);
  }
  if (name == "pods") return SetInt(name, value, 1, kMaxPods, o.pods);
  if (name == "nodes") return SetInt(name, value, 1, kMaxNodes, o.nodes);
  if (name == "queue-pool") {
    return SetInt(name, value, 1, kMaxPods, o.queue_pool);
  }
  if (name == "perturb") {
    absl::StatusOr<Perturbations> p = ParsePerturbations(value);
    if (!p.ok()) return p.status();
    o.perturb = *p;
    return absl::OkStatus();
  }
  if (name == "hostile-rate") {
    return SetProbability(name, value, o.variety.hostile_rate);
  }
  if (name == "step-ms") {
    return SetRange(name, value, o.clock.min_ms, o.clock.max_ms);
  }
  if (name == "flush-jump") return SetJump(name, value, o.clock.flush);
  if (name == "backoff-jump") return SetJump(name, value, o.clock.backoff);
  if (name == "ttl-jump") return SetJump(name, value, o.clock.ttl);
  if (name == "failure-rate") {
    return SetProbability(name, value, o.variety.failure_rate);
  }
  if (name == "two-profiles") {
    return SetProbability(name, value, o.variety.two_profiles);
  }
  if (name == "bad-score") {
    return SetProbability(name, value, o.variety.bad_score);
  }
  if (name == "huge-backoff") {
    return SetProbability(name, value, o.variety.huge_backoff);
  }
  return absl::InternalError(absl::StrCat("--", name, " has no setter"));
}

}  // namespace

const std::vector<GenFlag>& GenFlags() {
  static const std::vector<GenFlag> kFlags = {
      {"seed", "the random seed", "1"},
      {"steps", "steps per trace", "60"},
      {"pods",
       "pods p0..p(N-1), 1..100000; the queue layer draws from the first "
       "min(--pods, --queue-pool)",
       "7"},
      {"nodes",
       "nodes n0..n(N-1), 1..100 (scheduler and cache layers; the queue "
       "layer names n0..n2)",
       "4"},
      {"queue-pool",
       "queue layer: how many pods its steps draw from, capped at --pods (a "
       "small pool makes keys collide; --pods=40 --queue-pool=40 fills "
       "heaps deep enough to show sift-order bugs)",
       "5"},
      {"perturb",
       "informer perturbations with their probabilities, e.g. "
       "resync:0.1,race:0.2 (resync, race, tombstone, recreate, "
       "recreate_update, node_recreate, node_burst, all; "
       "harness/generator.h); default none",
       ""},
      {"hostile",
       "mix in sequences the apiserver never sends (duplicate adds, unknown "
       "pods, node name changes, decreasing resourceVersions)",
       "", true},
      {"hostile-rate", "with --hostile: the share of steps that are hostile",
       "0.15"},
      {"step-ms",
       "an ordinary step's clock advance: MIN:MAX milliseconds (or MS)",
       "100:3000"},
      {"flush-jump",
       "queue and scheduler layers: P:MIN:MAX (or P:MS), a clock jump past "
       "the 5-minute leftover flush with probability P, drawn first",
       "0.05:310000"},
      {"backoff-jump",
       "queue and scheduler layers: P:MIN:MAX (or P:MS), a clock jump across "
       "backoff with probability P, drawn next",
       "0.15:5000:20000"},
      {"ttl-jump",
       "cache layer: P:MIN:MAX (or P:MS), a clock jump across the 30 s "
       "assumed-pod TTL with probability P",
       "0.1:20000:40000"},
      {"failure-rate",
       "scheduler layer: the probability that Reserve fails (per "
       "schedule_one), PreBind fails and Bind fails (each, per bind)",
       "0.1"},
      {"two-profiles",
       "scheduler layer: the probability that a trace has a second profile "
       "of ours, other-scheduler",
       "0.25"},
      {"bad-score",
       "scheduler layer: the probability that a node's score is outside "
       "[0, 100] (a cycle that scores it fails)",
       "0.03"},
      {"huge-backoff",
       "queue layer: the probability that a trace has a huge "
       "podMaxBackoffMs and re-pops one pod past the backoff cap",
       "0.1"},
  };
  return kFlags;
}

absl::StatusOr<GenOptions> ApplyGenFlags(
    const std::vector<std::pair<std::string, std::string>>& flags,
    GenOptions options) {
  bool rate = false;
  for (const auto& [name, value] : flags) {
    if (absl::Status s = SetGenFlag(options, name, value); !s.ok()) return s;
    rate = rate || name == "hostile-rate";
  }
  if (rate && !options.hostile) {
    return absl::InvalidArgumentError(
        "--hostile-rate applies only with --hostile");
  }
  return options;
}

absl::StatusOr<GenOptions> ApplyGenFlags(std::string_view flags_view,
                                         GenOptions options) {
  const std::string flags(flags_view);
  std::vector<std::string> words =
      absl::StrSplit(flags, absl::ByAnyChar(" \t\n"), absl::SkipEmpty());
  std::vector<std::pair<std::string, std::string>> pairs;
  for (size_t k = 0; k < words.size(); ++k) {
    const std::string& word = words[k];
    if (word.rfind("--", 0) != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("\"", word, "\" is not a flag (--name=value)"));
    }
    const size_t eq = word.find('=');
    std::string name = word.substr(2, eq == std::string::npos ? eq : eq - 2);
    std::string value;
    if (eq != std::string::npos) {
      value = word.substr(eq + 1);
    } else {
      const auto it =
          std::find_if(GenFlags().begin(), GenFlags().end(),
                       [&](const GenFlag& f) { return f.name == name; });
      if (it != GenFlags().end() && !it->boolean) {
        if (k + 1 == words.size()) {
          return absl::InvalidArgumentError(
              absl::StrCat("--", name, " needs a value"));
        }
        value = words[++k];
      }
    }
    pairs.emplace_back(std::move(name), std::move(value));
  }
  return ApplyGenFlags(pairs, std::move(options));
}

absl::StatusOr<Perturbations> ParsePerturbations(std::string_view spec_view) {
  Perturbations p;
  const std::string spec(spec_view);
  if (spec.empty()) return p;
  for (const std::string& item :
       std::vector<std::string>(absl::StrSplit(spec, ','))) {
    std::vector<std::string> kv = absl::StrSplit(item, ':');
    double v = 0;
    if (kv.size() != 2 || !absl::SimpleAtod(kv[1], &v) || !(v >= 0) || v > 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--perturb: \"", item, "\" is not NAME:P with P in [0, 1]"));
    }
    const std::string& name = kv[0];
    double* fields[] = {
        &p.resync,          &p.race,          &p.tombstone, &p.recreate,
        &p.recreate_update, &p.node_recreate, &p.node_burst};
    static const char* const kNames[] = {
        "resync",          "race",          "tombstone", "recreate",
        "recreate_update", "node_recreate", "node_burst"};
    bool found = false;
    for (size_t k = 0; k < std::size(kNames); ++k) {
      if (name == kNames[k] || name == "all") {
        *fields[k] = v;
        found = true;
      }
    }
    if (!found) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--perturb: unknown perturbation \"", name,
          "\" (resync, race, tombstone, recreate, recreate_update, "
          "node_recreate, node_burst, all)"));
    }
  }
  return p;
}

}  // namespace schedtrace
