#include "harness/generator.h"

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/json_codec.h"

namespace schedtrace {
namespace {

Quantity Q(const std::string& s) { return *ParseQuantity(s); }

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

class Generator {
 public:
  Generator(System& sut, const GenOptions& options)
      : sut_(sut), options_(options), rng_(options.seed) {}

  absl::StatusOr<Trace> Run() {
    Trace trace;
    trace.header = SchedulerHeader(
        absl::StrCat("generated/scheduler/seed-", options_.seed));
    trace.header.source = "generated";
    trace.header.seed = static_cast<int64_t>(options_.seed);
    trace.header.description = absl::StrCat(
        "random valid scheduler-layer sequence, seed ", options_.seed, ", ",
        options_.nodes, " nodes, ", options_.pods, " pods");
    if (absl::Status s = sut_.Configure(trace.header); !s.ok()) return s;
    for (int i = 0; i < options_.steps; ++i) {
      Step step = Next();
      absl::StatusOr<StepOut> out = Record(sut_, step);
      if (!out.ok()) return out.status();
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
      p->tolerations.push_back({"dedicated", "Exists", "", "NoSchedule", {}});
    }
    if (Chance(0.1)) p->scheduling_gates = {"example.com/wait"};
    return p;
  }

  NodePtr NewNode(int index) {
    auto n = std::make_shared<Node>();
    n->name = absl::StrCat("n", index);
    n->uid = absl::StrCat("uid-node-", n->name);
    n->labels = {
        {"zone", Chance(0.5) ? "a" : "b"},
        {"schedtrace.io/score", absl::StrCat(index * 10 + Uniform(0, 9))}};
    n->allocatable["cpu"] = Q(absl::StrCat(Uniform(1, 4)));
    n->allocatable["memory"] = Q("8Gi");
    n->allocatable["pods"] = Q(Chance(0.2) ? "2" : "110");
    if (Chance(0.2)) n->taints.push_back({"dedicated", "x", "NoSchedule"});
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
    t_ += Chance(0.05)   ? 310000
          : Chance(0.15) ? Uniform(5000, 20000)
                         : Uniform(100, 3000);
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
    for (;;) {
      int r = Uniform(0, 99);
      if (!confirm_.empty() && Chance(0.6)) {
        // The apiserver's answer to a successful bind.
        auto [index, node] = confirm_.front();
        confirm_.erase(confirm_.begin());
        if (!pods_[index] || !pods_[index]->node_name.empty()) continue;
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
            if (!old.deletion_timestamp) next->deletion_timestamp = "2026";
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
              next->taints.push_back({"dedicated", "x", "NoSchedule"});
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
        if (Chance(0.1)) step.reserve = ReserveOutcome::kError;
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
        step.prebind_ok = !Chance(0.1);
        step.bind_ok = !Chance(0.1);
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
    step.new_pod = pods_[index] = std::move(next);
    return step;
  }

  void Observe(const Step& step, const StepOut& out) {
    if (step.op != Op::kBind) return;
    for (const Binding& b : out.bindings) {
      for (int i = 0; i < options_.pods; ++i) {
        if (pods_[i] && pods_[i]->Key() == b.pod)
          confirm_.push_back({i, b.node});
      }
    }
  }

  System& sut_;
  GenOptions options_;
  std::mt19937_64 rng_;
  int64_t t_ = 0;
  std::map<int, PodPtr> pods_;
  std::map<int, NodePtr> nodes_;
  std::map<int, int> incarnation_;
  std::vector<std::pair<int, std::string>> confirm_;
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
      if (!out.ok()) return out.status();
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
    t_ += Chance(0.1) ? Uniform(20000, 40000) : Uniform(100, 3000);
    step.t = t_;
    int i = Uniform(0, options_.pods - 1);
    PodPtr& known = pods_[i];
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
      step.old_pod = known;
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

  System& sut_;
  GenOptions options_;
  std::mt19937_64 rng_;
  int64_t t_ = 0;
  int64_t rv_ = 0;
  int64_t ttl_ = 0;
  std::set<int64_t> boundaries_;
  std::map<int, PodPtr> pods_;
  std::map<int, int> incarnation_;
  std::map<std::string, NodePtr> nodes_;
};

}  // namespace

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

}  // namespace schedtrace
