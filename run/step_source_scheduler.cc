// The step source's scheduler layer (run/step_source.h): informer
// events for pods and nodes, scheduling cycles, Permit decisions, binding
// cycles, flushes. NextStep is over 80 lines for a reason: one weighted
// choice over the layer's ops, each branch short; split, the weights a
// reader checks as one table would scatter over functions.
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/upstream_versions.h"
#include "run/step_source_layers.h"

namespace schedtrace::step_source {
namespace {

// The label TraceScore reads (docs/FORMAT.md).
constexpr char kScoreLabel[] = "schedtrace.io/score";

class SchedulerSource : public LayerSource {
 public:
  explicit SchedulerSource(const GenOptions& options)
      : LayerSource(Layer::kScheduler), options_(options) {}

  std::unique_ptr<StepSource> Clone() const override {
    return std::make_unique<SchedulerSource>(*this);
  }

  TraceHeader Header(ChoiceStream& c) override {
    Use(c);
    TraceHeader h = SchedulerHeader(
        absl::StrCat("generated/scheduler/seed-", options_.seed));
    h.upstream = options_.upstream;
    h.source = "generated";
    h.seed = static_cast<int64_t>(options_.seed);
    // One trace in four has "other-scheduler" as a second profile of ours,
    // so one in ten pods is scheduled under it (waiting pods, binding
    // cycles and deletes per profile).
    const bool two_profiles = variety_.Chance(options_.variety.two_profiles);
    if (two_profiles) h.config.profiles.push_back("other-scheduler");
    h.description = absl::StrCat("random valid scheduler-layer sequence, seed ",
                                 options_.seed, ", ", options_.nodes,
                                 " nodes, ", options_.pods, " pods",
                                 two_profiles ? ", two profiles" : "");
    DrawTraceCorners(options_, h.config);
    t_ = start_;
    return h;
  }

  void Observe(const Step& step, const StepOut& out) override {
    LayerSource::Observe(step, out);
    // What the cycles left each pod unschedulable on (for WakeUp).
    if (step.op == Op::kScheduleOne && out.result) {
      if (out.result->outcome == "unschedulable" && out.result->plugins) {
        rejected_[out.result->pod] = *out.result->plugins;
      } else {
        rejected_.erase(out.result->pod);
      }
    }
    if (step.op != Op::kBind) return;
    for (const Binding& b : out.bindings) {
      for (int i = 0; i < options_.pods; ++i) {
        if (pods_[i] && pods_[i]->Key() == b.pod)
          confirm_.push_back({i, b.node, pods_[i]->uid});
      }
    }
  }

 private:
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
      return GoScoreSpelling(
          go_, absl::StrCat(variety_.Chance(0.5) ? 101 + index * 10 + drawn
                                                 : -1 - index));
    }
    if (options_.nodes > 10) {
      const int width = std::max(1, 100 / options_.nodes);
      return GoScoreSpelling(go_, absl::StrCat(index * width + drawn % width));
    }
    return GoScoreSpelling(go_, absl::StrCat(index * 10 + drawn));
  }

  // The scores corner: a node update that changes node i's score: another score
  // in its range (Score), or, for node 0, whose range holds 0 (the score of a
  // node without the label, so that scores stay unique), the label taken
  // away or given back.
  void Rescore(int index, Node& n) {
    auto it = n.labels.find(kScoreLabel);
    if (index == 0 && (it == n.labels.end() || variety_.Chance(0.3))) {
      if (it != n.labels.end()) {
        n.labels.erase(it);
        return;
      }
    }
    n.labels[kScoreLabel] = Score(index, variety_.Uniform(0, 9));
  }

  // --- objects
  PodPtr NewPod(int index) {
    auto p = std::make_shared<Pod>();
    p->namespace_ = names_.Namespace(index);
    p->name = names_.Name(index);
    p->uid = names_.Uid(index, ++incarnation_[index]);
    p->resource_version = "1";
    p->labels = {{"app", Chance(0.5) ? "web" : "db"}};
    UnderscoreLabel(p->labels);
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
      Toleration& t = p->tolerations.emplace_back();
      t.key = "dedicated";
      t.op = "Exists";
      t.effect = variety_.Pick(
          {"NoSchedule", "NoSchedule", "", "NoExecute", "PreferNoSchedule"});
      if (variety_.Chance(0.3)) {  // Equal (or "", the same): the value counts
        t.op = variety_.Pick({"Equal", ""});
        t.value = variety_.Pick({"x", "y"});
      }
    }
    // (v1.25 pods have no gates: the draw is kept, the gate dropped.)
    if (Chance(0.1) && Gates()) p->scheduling_gates = {"example.com/wait"};
    if (variety_.Chance(0.15)) {  // tolerates cordoned nodes
      p->tolerations.push_back({"node.kubernetes.io/unschedulable",
                                "Exists",
                                "",
                                variety_.Pick({"NoSchedule", ""}),
                                {}});
    }
    PodResourceCorners(variety_, *p);
    GoRequestCorner(go_, *p);
    if (UpstreamSumsRequestQuantities(options_.upstream)) {
      FractionalRequestCorners(variety_, *p);
    }
    NodeAffinityCorners(variety_, *p, names_, options_.nodes);
    GiveEmpty(variety_, *p);
    return p;
  }

  NodePtr NewNode(int index) {
    auto n = std::make_shared<Node>();
    n->name = names_.Node(index);
    n->uid = absl::StrCat("uid-node-", n->name);
    n->labels = {{"zone", Chance(0.5) ? "a" : "b"},
                 {kScoreLabel, Score(index, Uniform(0, 9))}};
    UnderscoreLabel(n->labels);
    n->allocatable["cpu"] = Q(absl::StrCat(Uniform(1, 4)));
    n->allocatable["memory"] = Q("8Gi");
    n->allocatable["pods"] = Q(Chance(0.2) ? "2" : "110");
    if (Chance(0.2)) n->taints.push_back(DedicatedTaint());
    if (Chance(0.1)) n->unschedulable = true;
    NodeResourceCorners(variety_, *n);
    GoAllocatableCorner(go_, *n);
    if (variety_.Chance(0.05)) n->allocatable.clear();  // nothing fits
    GiveEmpty(variety_, *n);
    return n;
  }

  PodPtr Bump(const Pod& old) {
    auto p = std::make_shared<Pod>(old);
    p->resource_version = absl::StrCat(std::stoll(old.resource_version) + 1);
    return p;
  }

  // --- the step mix
  Step NextStep() override {
    Step step;
    const int64_t advance = ClockStep(*c_, options_.clock);
    const std::optional<InformerWorld::Boundary> landed = Land(t_);
    t_ = landed ? landed->at : t_ + advance + Leap(t_);
    step.t = t_;
    const std::vector<std::string>& waiting = world_.waiting();
    const std::vector<std::string>& parked = world_.parked();
    std::vector<int> present, absent;
    for (int i = 0; i < options_.pods; ++i) {
      (pods_[i] ? present : absent).push_back(i);
    }
    std::vector<int> nodes_present, nodes_absent;
    for (int i = 0; i < options_.nodes; ++i) {
      (nodes_[i] ? nodes_present : nodes_absent).push_back(i);
    }
    if (Step next; TakePending(pending_, t_, next)) return next;
    if (landed && variety_.Chance(0.5)) {  // the flush that boundary is for
      step.op = landed->leftover ? Op::kFlushUnschedulable : Op::kFlushBackoff;
      return step;
    }
    if (Perturb(options_.perturb, *c_, *this, step, pending_)) return step;
    if (options_.hostile && Chance(options_.variety.hostile_rate) &&
        Hostile(step, present)) {
      return step;
    }
    // (No draw at all without --wake-ups: the default traces stay as they
    // were.)
    if (options_.variety.wake_ups > 0 && Chance(options_.variety.wake_ups) &&
        WakeUp(step, present, nodes_present)) {
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
              // Seconds since the trace's start: a clock that starts high
              // (StartClock) stays within metav1.Time's years.
              next->deletion_timestamp = GoTimeSpelling(
                  go_, kTraceEpochSeconds + (t_ - start_) / 1000);
            }
            break;
          default:
            next->nominated_node_name =
                nodes_present.empty() ? "" : nodes_[Pick(nodes_present)]->name;
        }
        PodPtr sent = next;
        Subtle(old, sent);
        return Update(step, i, sent);
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
        if (variety_.Chance(0.25)) {
          Rescore(i, *next);
        } else if (variety_.Chance(0.1)) {
          // Only a field given empty against absent (a new resourceVersion).
          auto flipped =
              std::const_pointer_cast<Node>(NoOpNodeUpdate(*nodes_[i]));
          if (FlipGivenEmpty(variety_, *flipped)) next = flipped;
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

  // A step aimed at a pod a cycle left unschedulable (--wake-ups): it lifts
  // what one of its rejector plugins objects to, on some node, or clears a
  // nomination that may reserve room. False when the drawn lift does not
  // apply (no such node or pod): the ordinary mix goes on.
  bool WakeUp(Step& step, const std::vector<int>& present,
              const std::vector<int>& nodes_present) {
    std::vector<int> targets;
    for (int i : present) {
      auto it = rejected_.find(pods_[i]->Key());
      if (it != rejected_.end() && !it->second.empty() &&
          pods_[i]->node_name.empty()) {
        targets.push_back(i);
      }
    }
    if (targets.empty() || nodes_present.empty()) return false;
    const int i = Pick(targets);
    const std::string plugin = Pick(rejected_[pods_[i]->Key()]);
    // The lift alone, or (one time in two) with every other filter of the
    // pod's lifted on the same node too: one update that welcomes it.
    auto node_update = [&](const std::function<bool(Node&)>& lift) {
      const int j = Pick(nodes_present);
      auto next = std::make_shared<Node>(*nodes_[j]);
      const bool lifted = lift(*next);
      if (Chance(0.5)) {
        const bool more = next->unschedulable || !next->taints.empty() ||
                          next->labels["zone"] != "a" ||
                          next->allocatable["pods"] != Q("110");
        next->unschedulable = false;
        next->taints.clear();
        next->labels["zone"] = "a";
        next->allocatable["pods"] = Q("110");
        if (!lifted && !more) return false;
      } else if (!lifted) {
        return false;
      }
      step.op = Op::kNodeUpdate;
      step.old_node = nodes_[j];
      step.new_node = nodes_[j] = next;
      return true;
    };
    if (Chance(0.15)) {  // a nomination that reserves room leaves
      std::vector<int> nominated;
      for (int k : present) {
        if (!pods_[k]->nominated_node_name.empty() &&
            pods_[k]->node_name.empty()) {
          nominated.push_back(k);
        }
      }
      if (nominated.empty()) return false;
      const int k = Pick(nominated);
      auto next = std::const_pointer_cast<Pod>(Bump(*pods_[k]));
      next->nominated_node_name.clear();
      Update(step, k, next);
      return true;
    }
    if (plugin == "NodeResourcesFit") {
      switch (Uniform(0, 2)) {
        case 0:  // a node grows to the largest cpu the mix draws
          return node_update([](Node& n) {
            n.allocatable["cpu"] = Q("4");
            return true;
          });
        case 1: {  // an assigned pod leaves
          std::vector<int> bound;
          for (int k : present) {
            if (!pods_[k]->node_name.empty()) bound.push_back(k);
          }
          if (bound.empty()) return false;
          const int k = Pick(bound);
          step.op = Op::kPodDelete;
          step.pod = pods_[k];
          pods_[k] = nullptr;
          return true;
        }
        default: {  // the pod's own cpu request halves
          auto next = std::const_pointer_cast<Pod>(Bump(*pods_[i]));
          if (next->containers.empty()) return false;
          auto cpu = next->containers[0].requests.find("cpu");
          if (cpu == next->containers[0].requests.end()) return false;
          const int64_t milli = cpu->second.MilliValue();
          if (milli < 200) return false;
          cpu->second = Q(absl::StrCat(milli / 2, "m"));
          Update(step, i, next);
          return true;
        }
      }
    }
    if (plugin == "NodeUnschedulable") {
      return node_update([](Node& n) {
        if (!n.unschedulable) return false;
        n.unschedulable = false;
        return true;
      });
    }
    if (plugin == "TaintToleration") {
      return node_update([](Node& n) {
        if (n.taints.empty()) return false;
        n.taints.clear();
        return true;
      });
    }
    if (plugin == "NodeAffinity") {
      return node_update([](Node& n) {
        if (n.labels["zone"] == "a") return false;
        n.labels["zone"] = "a";
        return true;
      });
    }
    return false;
  }

  Step& Update(Step& step, int index, PodPtr next) {
    step.op = Op::kPodUpdate;
    step.old_pod = pods_[index];
    prev_[index] = pods_[index];
    step.new_pod = pods_[index] = std::move(next);
    return step;
  }

  // --- what the perturbations read and change (step_source_perturb.h)
  std::vector<int> Known() override {
    std::vector<int> known;
    for (int i = 0; i < options_.pods; ++i) {
      if (pods_[i]) known.push_back(i);
    }
    return known;
  }
  // Waiting on Permit or parked before PreBind.
  std::vector<int> Busy() override {
    std::vector<int> busy;
    for (int i : Known()) {
      const std::string key = pods_[i]->Key();
      for (const auto* list : {&world_.waiting(), &world_.parked()}) {
        if (std::binary_search(list->begin(), list->end(), key)) {
          busy.push_back(i);
        }
      }
    }
    return busy;
  }
  PodPtr Raced(int i) override {
    auto next = std::const_pointer_cast<Pod>(Bump(*pods_[i]));
    next->labels["race"] = absl::StrCat(t_);
    if (Chance(0.3)) next->priority = Uniform(0, 5);
    return next;
  }
  double RaceDeletes() const override { return 0.3; }
  PodPtr Recreated(int i, bool in_update) override {
    PodPtr again = Recreated(*pods_[i], ++incarnation_[i]);
    if (!in_update) return again;
    auto next = std::const_pointer_cast<Pod>(again);
    next->resource_version =
        absl::StrCat(std::stoll(pods_[i]->resource_version) + 1);
    return next;
  }
  std::vector<int> Nodes() override {
    std::vector<int> nodes;
    for (int i = 0; i < options_.nodes; ++i) {
      if (nodes_[i]) nodes.push_back(i);
    }
    return nodes;
  }
  // In the order of their names.
  std::vector<int> BusyNodes() override {
    std::vector<int> busy;
    for (int i : Nodes()) {
      if (world_.HoldsPods(nodes_[i]->name)) busy.push_back(i);
    }
    std::sort(busy.begin(), busy.end(),
              [&](int a, int b) { return nodes_[a]->name < nodes_[b]->name; });
    return busy;
  }
  NodePtr NodeAt(int j) override { return nodes_[j]; }
  NodePtr RecreatedNode(int j) override {
    return schedtrace::RecreatedNode(*nodes_[j], ++node_incarnation_[j]);
  }
  NodePtr NoOpUpdate(int j) override { return NoOpNodeUpdate(*nodes_[j]); }
  void SentNode(int j, NodePtr node) override { nodes_[j] = std::move(node); }

  // A step the apiserver would never send (step_source.h, hostile mode).
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
        if (!present.empty() && variety_.Chance(0.3)) {
          // Permit or bind for a pod that may be neither waiting nor parked
          // (upstream: GetWaitingPod finds none; the binding has no cycle).
          step = Step{.t = step.t};
          step.op = variety_.Chance(0.35) ? Op::kBind : Op::kPermitAllow;
          step.pod_key = pods_[Pick(present)]->Key();
        }
        return true;
      case 3: {  // a bound pod moved to another node
        std::vector<int> bound;
        for (int i : present) {
          if (!pods_[i]->node_name.empty()) bound.push_back(i);
        }
        if (bound.empty()) return false;
        int i = Pick(bound);
        auto next = std::const_pointer_cast<Pod>(Bump(*pods_[i]));
        next->node_name = names_.Node(Uniform(0, options_.nodes));
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

  // Whether the trace's version has scheduling gates (none before v1.26).
  bool Gates() const { return UpstreamHasSchedulingGates(options_.upstream); }
  GenOptions options_;
  int64_t t_ = 0;
  std::map<int, NodePtr> nodes_;
  std::map<int, int> incarnation_;
  std::map<int, int> node_incarnation_;
  std::vector<Step> pending_;  // steps a perturbation queued up
  struct Confirm {
    int index;
    std::string node;
    std::string uid;
  };
  std::vector<Confirm> confirm_;
  // Pod key -> the plugins the last cycle that tried it failed on.
  std::map<std::string, std::vector<std::string>> rejected_;
};

}  // namespace

std::unique_ptr<StepSource> NewSchedulerSource(const GenOptions& options) {
  return std::make_unique<SchedulerSource>(options);
}

}  // namespace schedtrace::step_source
