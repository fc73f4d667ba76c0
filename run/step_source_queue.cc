// The step source's queue layer (run/step_source.h): the
// PriorityQueue calls the scheduler makes. DrawStep is over 80 lines for a
// reason: one weighted choice over the layer's ops, each branch short;
// split, the weights a reader checks as one table would scatter.
#include <algorithm>
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

// Queue-layer sequences.
class QueueSource : public LayerSource {
 public:
  explicit QueueSource(const GenOptions& options)
      : LayerSource(Layer::kQueue),
        options_(options),
        pool_(std::max(1, std::min(options.pods, options.queue_pool))),
        gates_(UpstreamHasSchedulingGates(options.upstream)),
        hints_era_(UpstreamAtLeast(options.upstream, "v1.35.4")) {}

  std::unique_ptr<StepSource> Clone() const override {
    return std::make_unique<QueueSource>(*this);
  }

  TraceHeader Header(ChoiceStream& c) override {
    Use(c);
    TraceHeader h =
        QueueHeader(absl::StrCat("generated/queue/seed-", options_.seed));
    h.upstream = options_.upstream;
    h.source = "generated";
    h.seed = static_cast<int64_t>(options_.seed);
    if (Chance(options_.variety.huge_backoff)) {
      // 9223372036854 ms is handled (capped, positive) by Go; 9223372037000
      // ms wraps in time.Duration(s) * time.Second (docs/UPSTREAM.md
      // item 29).
      h.config.pod_max_backoff_ms =
          Chance(0.5) ? int64_t{9223372036854} : int64_t{9223372037000};
      focus_ = Uniform(0, pool_ - 1);
    }
    h.description = absl::StrCat(
        "random valid queue-layer sequence, seed ", options_.seed, ", ", pool_,
        " pods, ", "podMaxBackoffMs ", h.config.pod_max_backoff_ms);
    DrawTraceCorners(options_, h.config);
    if (HintsEra()) DrawHints(h.config);
    t_ = start_;
    return h;
  }

 private:
  std::string Key(int i) const { return names_.Key(i); }

  // A role label value ("a_b" too in traces with corner names).
  const char* Role() {
    return names_.corners ? variety_.Pick({"web", "db", "a_b"})
                          : variety_.Pick({"web", "db"});
  }

  PodPtr NewPod(int index) {
    auto p = std::make_shared<Pod>();
    p->namespace_ = names_.Namespace(index);
    p->name = names_.Name(index);
    p->uid = names_.Uid(index, ++incarnation_[index]);
    p->resource_version = absl::StrCat(++rv_);
    p->scheduler_name = "default-scheduler";
    if (Chance(0.8)) p->priority = Uniform(0, 3);
    Container c;
    c.name = "c";
    c.image = "img";
    // Requests (the queue reads none, but isPodUpdated compares them).
    if (variety_.Chance(0.5)) {
      c.requests["cpu"] = Q(variety_.Pick({"100m", "500m", "1", "1000m", "2"}));
    }
    p->containers.push_back(c);
    // (v1.25 pods have no gates: the draw is kept, the gate dropped.)
    if (Chance(0.15) && Gates()) p->scheduling_gates = {"example.com/wait"};
    // A role, and now and then required affinity to a role on the same
    // host: assigned pods then move the unschedulable pods whose terms
    // they match (AssignedPodAdded/Updated), and a recreate_update draws
    // new terms.
    if (variety_.Chance(0.5)) p->labels["role"] = Role();
    if (variety_.Chance(0.25)) {
      PodAffinityTerm& term = p->required_pod_affinity.emplace_back();
      term.label_selector.emplace().match_labels["role"] = Role();
      term.topology_key = "kubernetes.io/hostname";
      PodAffinityTermCorners(variety_, term, p->namespace_,
                             names_.Namespace(index + 1));
    }
    if (HintsEra()) {  // what the plugins' own hints compare
      if (Chance(0.25)) p->node_selector["zone"] = PickOf({"a", "b"});
      if (Chance(0.2)) p->tolerations.push_back({"k", "Exists", "", "", {}});
    }
    PodResourceCorners(variety_, *p);
    GiveEmpty(variety_, *p);
    return p;
  }

  PodPtr Bump(const Pod& old) {
    auto p = std::make_shared<Pod>(old);
    p->resource_version = absl::StrCat(++rv_);
    return p;
  }

  std::string NodeName() { return names_.Node(Uniform(0, 2)); }

  const char* PickOf(std::initializer_list<const char*> choices) {
    return *(choices.begin() +
             Uniform(0, static_cast<int>(choices.size()) - 1));
  }

  // From v1.35 (docs/FORMAT.md, E14) the queue reads scripted hints, the
  // objects a move carries, and q_done: the source draws them only there,
  // so earlier versions' traces of a seed stay as they were.
  bool HintsEra() const { return hints_era_; }

  // Each entry's hint; an entry of the profile's plugins often runs their
  // own functions, and a few entries register the v1.37 pod resources
  // (which v1.35 and v1.36 plugins do not: their default hint).
  void DrawHints(Config& config) {
    if (Chance(0.5)) {
      config.cluster_event_map.push_back(
          {"AssignedPod", {"Delete", "Update"}, {"NodeResourcesFit"}});
    }
    if (Chance(0.5)) {
      config.cluster_event_map.push_back(
          {"TargetPod",
           {"Update"},
           {"NodeUnschedulable", "SchedulingGates", "TaintToleration"}});
    }
    if (Chance(0.3)) {
      config.cluster_event_map.push_back(
          {"Pod", {"Update"}, {"NodeUnschedulable", "TaintToleration"}});
    }
    for (ClusterEventMapEntry& e : config.cluster_event_map) {
      const bool own = std::all_of(
          e.plugins.begin(), e.plugins.end(),
          [](const std::string& p) { return HasOwnQueueingHint(p); });
      e.hint = own ? Pick(std::vector<std::string>{"", "Queue", "QueueSkip",
                                                   "Error", "plugin", "plugin",
                                                   "plugin", "plugin"})
                   : Pick(std::vector<std::string>{"", "QueueSkip", "Error"});
      own_hints_ = own_hints_ || e.hint == "plugin";
    }
  }

  // A node as a move carries it: what the plugins' hints read.
  NodePtr HintNode(const std::string& name) {
    auto n = std::make_shared<Node>();
    n->name = name;
    n->uid = "uid-" + name;
    n->resource_version = absl::StrCat(++rv_);
    if (Chance(0.6)) n->labels["zone"] = PickOf({"a", "b"});
    n->unschedulable = Chance(0.2);
    if (Chance(0.3)) {
      n->taints.push_back({"k", "v", PickOf({"NoSchedule", "NoExecute"})});
    }
    n->allocatable["cpu"] = Q(PickOf({"500m", "1", "4"}));
    n->allocatable["memory"] = Q("8Gi");
    n->allocatable["pods"] = Q(PickOf({"0", "110"}));
    return n;
  }

  // The objects of a move (q_move_all's old and new). Nil only where no
  // plugin's own hint reads them: one that would panic on nil may or may
  // not be asked before another answers Queue, in an order upstream's Go
  // map draws (docs/FORMAT.md, "Layer queue from v1.35"), and a generated
  // trace keeps to what upstream decides alone.
  void MoveObjects(Step& step, PodPtr pod) {
    if (!HintsEra() || (!own_hints_ && Chance(0.05))) return;
    const ClusterEvent& e = step.event;
    if (e.resource == "Node") {  // a node of the pool
      const std::string name =
          names_.Node(Uniform(0, std::max(1, options_.nodes) - 1));
      step.new_node = HintNode(name);
      if (e.action != "Add") step.old_node = HintNode(name);
      return;
    }
    if (e.resource == "*") {
      if (pod != nullptr && Chance(0.3)) step.new_pod = pod;
      return;
    }
    if (e.resource != "Pod" && e.resource != "AssignedPod" &&
        e.resource != "TargetPod") {
      return;
    }
    if (pod == nullptr) pod = Ghost();
    if (e.action == "Delete") {
      step.old_pod = pod;
      return;
    }
    // An update: the pod scaled down, or tolerating more.
    auto next = std::const_pointer_cast<Pod>(Bump(*pod));
    if (Chance(0.5) && !next->containers.empty()) {
      next->containers.front().requests.erase("cpu");
    } else {
      next->tolerations.push_back(
          {PickOf({"k", "node.kubernetes.io/unschedulable"}), "Exists", "",
           "NoSchedule", std::nullopt});
    }
    if (own_hints_ || !Chance(0.05)) step.old_pod = pod;
    step.new_pod = next;
  }

  // A pod of the pool for a move's objects when no pod is known: its key's
  // latest uid, an empty spec.
  PodPtr Ghost() {
    const int i = Uniform(0, pool_ - 1);
    auto p = std::make_shared<Pod>();
    p->namespace_ = names_.Namespace(i);
    p->name = names_.Name(i);
    p->uid = names_.Uid(i, incarnation_[i]);
    p->resource_version = absl::StrCat(++rv_);
    p->scheduler_name = "default-scheduler";
    Container c;
    c.name = "c";
    c.image = "img";
    p->containers.push_back(c);
    return p;
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
    static const std::vector<ClusterEvent> kPodEvents = {
        {"AssignedPod", "Delete", "AssignedPodDelete"},
        {"AssignedPod", "Update", "AssignedPodUpdate"},
        {"TargetPod", "Update", "TargetPodUpdate"},
    };
    if (HintsEra()) {  // more of the events the plugins' own hints read
      if (Chance(0.2)) return Pick(kPodEvents);
      if (Chance(0.4)) return kEvents[Uniform(0, 5)];  // the Node events
    }
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

  Step NextStep() override {
    Step step = DrawStep();
    // A move drawn without objects (a hammer's, a perturbation's) where a
    // plugin's own hint reads them (MoveObjects).
    if (step.op == Op::kQMoveAll && own_hints_ && !step.old_node &&
        !step.new_node && !step.old_pod && !step.new_pod) {
      MoveObjects(step, nullptr);
    }
    return step;
  }

  Step DrawStep() {
    Step step;
    const int64_t advance = ClockStep(*c_, options_.clock);
    const std::optional<InformerWorld::Boundary> landed = Land(t_);
    t_ = landed ? landed->at : t_ + advance + Leap(t_);
    step.t = t_;
    if (Step next; TakePending(pending_, t_, next)) return next;
    if (landed && variety_.Chance(0.5)) {  // the flush that boundary is for
      step.op = landed->leftover ? Op::kFlushUnschedulable : Op::kFlushBackoff;
      return step;
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
    if (Perturb(options_.perturb, *c_, *this, step, pending_)) return step;
    const std::vector<int> flying = Busy();
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
            if (next->scheduling_gates.empty() && Gates())
              next->scheduling_gates = {"example.com/wait"};
            break;
          default:
            next->nominated_node_name = NodeName();
        }
        PodPtr sent = next;
        Subtle(*pods_[i], sent);
        step.op = Op::kQUpdate;
        step.old_pod = Chance(0.05) ? nullptr : pods_[i];
        prev_[i] = pods_[i];
        step.new_pod = pods_[i] = sent;
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
        if (HintsEra() && Chance(0.2)) {  // its cycle succeeded: Done
          step.op = Op::kQDone;
          step.pod_key = Key(i);
          return step;
        }
        step.op = Op::kQAddUnschedulable;
        step.pod_key = Key(i);
        step.plugins = Plugins();
        int c = Uniform(0, 9);
        if (c < 2) {
          step.cycle =
              world_.PoppedCycle(Key(i));  // the cycle it was popped in
        } else if (c < 3) {
          step.cycle = Uniform(0, static_cast<int>(world_.cycle()));
        }
        return step;
      }
      if (r < 70 && !flying.empty() && Chance(0.5)) {
        // Bound: the informer's delete from the queue, then the assigned
        // pod's add.
        int i = Pick(flying);
        step.op = Op::kQDelete;
        step.pod = pods_[i];
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
          MoveObjects(step, pods_[i]);
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
            stub->namespace_ = names_.Namespace(i);
            stub->name = names_.Name(i);
            step.pods.push_back(stub);
          }
        }
        return step;
      }
      if (r < 88) {
        step.op = Op::kQMoveAll;
        step.event = Event();
        if (HintsEra()) {
          std::vector<int> known = pending;
          known.insert(known.end(), assigned.begin(), assigned.end());
          MoveObjects(step, known.empty() ? nullptr : pods_[Pick(known)]);
        }
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
        // A pod deleted during its cycle, nominated afterwards: the
        // queue-ops lister no longer has it, so the nomination is refused.
        // Only while its key has no pod: the object a step carries is its
        // key's latest, which a later q_activate's key names.
        if (deleted_ && !pods_[deleted_index_] && variety_.Chance(0.1)) {
          step.pod = deleted_;
        }
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
      focus_activated_ = true;
      return true;
    }
    if (!pods_[focus_]->node_name.empty()) return false;
    if (world_.InFlight(key)) {
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
    // Activated (or added) since it was last popped: pop it. The world
    // knows no more of activeQ than that a pop found it empty.
    if (focus_activated_ && world_.MayHaveActive()) {
      focus_activated_ = false;
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
    focus_activated_ = true;
    return true;
  }

  // --- what the perturbations read and change (step_source_perturb.h)
  // Pending pods (known, unassigned).
  std::vector<int> Known() override {
    std::vector<int> pending;
    for (int i = 0; i < pool_; ++i) {
      if (pods_[i] && pods_[i]->node_name.empty()) pending.push_back(i);
    }
    return pending;
  }
  // Between q_pop and q_add_unschedulable.
  std::vector<int> Busy() override {
    std::vector<int> flying;
    for (int i : Known()) {
      if (world_.InFlight(Key(i))) flying.push_back(i);
    }
    return flying;
  }
  PodPtr Raced(int i) override {
    auto next = std::const_pointer_cast<Pod>(Bump(*pods_[i]));
    next->labels["race"] = absl::StrCat(t_);
    return next;
  }
  double RaceDeletes() const override { return 0.2; }
  PodPtr Recreated(int i, bool) override { return NewPod(i); }
  NodePtr NodeAt(int) override { return nullptr; }
  NodePtr RecreatedNode(int) override { return nullptr; }
  NodePtr NoOpUpdate(int) override { return nullptr; }
  void SentNode(int, NodePtr) override {}

  // A call the scheduler would never make (step_source.h, hostile mode).
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
        if (variety_.Chance(0.25)) {
          // The wildcard resource with an action other than All: no
          // registered event (and no plugin set) is matched by it alone.
          step.op = Op::kQMoveAll;
          step.pod = nullptr;
          step.event = {"*", variety_.Pick({"Add", "Update", "Delete"}),
                        "WildCardNotAll"};
        }
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
    if (pods_[i]) {
      deleted_ = pods_[i];
      deleted_index_ = i;
    }
    pods_[i] = nullptr;
    prev_[i] = nullptr;
  }

  // Whether the trace's version has scheduling gates (none before v1.26).
  bool Gates() const { return gates_; }
  GenOptions options_;
  int pool_ = 5;
  bool gates_ = false;
  bool hints_era_ = false;  // HintsEra(): the version reads E14's draws
  int focus_ = -1;          // the pod Hammer re-pops, or -1
  bool hammer_moved_ = false;
  bool focus_activated_ = false;  // Hammer: activated, not popped since
  int64_t t_ = 0;
  int64_t rv_ = 0;
  std::map<int, int> incarnation_;
  PodPtr deleted_;         // the pod Forget last dropped, for a late nomination
  int deleted_index_ = 0;  // its index
  bool own_hints_ = false;  // an entry has "hint": "plugin"
  std::vector<Step> pending_;
};

}  // namespace

std::unique_ptr<StepSource> NewQueueSource(const GenOptions& options) {
  return std::make_unique<QueueSource>(options);
}

}  // namespace schedtrace::step_source
