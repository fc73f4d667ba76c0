#include "bench/bench_gen.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/codec.h"
#include "core/quantity.h"
#include "run/driven_system.h"

namespace schedtrace::bench {
namespace {

constexpr int64_t kStepMs = 5;  // t advances 5 ms a step, as upstream-large
constexpr int64_t kFlushBackoffEveryMs = 1000;
constexpr int64_t kFlushUnschedulableEveryMs = 30000;

Quantity Q(const std::string& s) { return *ParseQuantity(s); }

// splitmix64: the same stream on every platform and standard library (the
// committed checksum depends on it; std:: distributions are not portable).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int Below(int n) {
    return static_cast<int>(Next() % static_cast<uint64_t>(n));
  }
  // Per mille, so probabilities are exact integers.
  bool PerMille(int p) { return Below(1000) < p; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[Below(static_cast<int>(v.size()))];
  }

 private:
  uint64_t state_;
};

enum class Phase : uint8_t {
  kNone,
  kPending,
  kWaiting,
  kParked,
  kBound,
  kGone
};

// A vector with O(1) erase of any member (swap with the last), for picking
// a random pod of one phase.
class IndexSet {
 public:
  void Insert(int i) {
    if (i >= static_cast<int>(pos_.size())) pos_.resize(i + 1, -1);
    if (pos_[i] >= 0) return;
    pos_[i] = static_cast<int>(items_.size());
    items_.push_back(i);
  }
  void Erase(int i) {
    if (i >= static_cast<int>(pos_.size()) || pos_[i] < 0) return;
    int last = items_.back();
    items_[pos_[i]] = last;
    pos_[last] = pos_[i];
    items_.pop_back();
    pos_[i] = -1;
  }
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  const std::vector<int>& items() const { return items_; }

 private:
  std::vector<int> items_;
  std::vector<int> pos_;
};

class Generator {
 public:
  Generator(System& sut, const BenchGenOptions& options, std::ostream& out)
      : run_(sut), o_(options), out_(out), rng_(options.seed) {}

  absl::StatusOr<BenchGenStats> Run() {
    TraceHeader h;
    h.name = absl::StrCat("bench/", Mode(), "-", o_.nodes, "n-", o_.pods, "p");
    h.layer = Layer::kScheduler;
    h.upstream = "v1.26.7";
    h.source = "generated";
    h.seed = static_cast<int64_t>(o_.seed);
    h.description = absl::StrCat(
        "throughput input (", Mode(), "): ", o_.nodes, " nodes, ", o_.pods,
        " pods; bench/schedtrace-benchgen seed ", o_.seed,
        "; steps chosen while driving a system (the model or impl: the same "
        "bytes); no expectations");
    Config& c = h.config;
    c.pod_initial_backoff_ms = 1000;
    c.pod_max_backoff_ms = 10000;
    c.pod_max_in_unschedulable_ms = 300000;
    c.assumed_pod_ttl_ms = 0;
    c.profiles = {"default-scheduler"};
    c.features = {{"PodSchedulingReadiness", true}};
    c.percentage_of_nodes_to_score = 100;
    if (absl::Status s = run_.Configure(h, /*snapshots=*/false); !s.ok()) {
      return s;
    }
    out_ << EncodeHeader(h) << "\n";

    for (int i = 0; i < o_.nodes; ++i) {
      if (absl::Status s = AddNode(i); !s.ok()) return s;
    }
    pods_.resize(o_.pods);
    phase_.resize(o_.pods, Phase::kNone);
    absl::Status s = o_.mode == BenchGenMode::kChurn ? Churn() : Pending();
    if (!s.ok()) return s;
    if (!out_) return absl::DataLossError("write error");
    stats_.bound = static_cast<int64_t>(bound_.size());
    return stats_;
  }

 private:
  std::string Mode() const {
    return o_.mode == BenchGenMode::kChurn ? "churn" : "pending";
  }

  // --- applying and writing one step
  absl::StatusOr<StepOut> Apply(Step& step) {
    t_ += kStepMs;
    step.t = t_;
    out_ << EncodeStep(step, /*with_expect=*/false) << "\n";
    ++stats_.steps;
    ++stats_.ops[std::string(OpName(step.op))];
    const absl::StatusOr<StepOut>& out = run_.Apply(step);
    if (run_.ended()) {
      return absl::InternalError(absl::StrCat("step ", stats_.steps, " (",
                                              std::string(OpName(step.op)),
                                              ") was fatal"));
    }
    return out;
  }

  // --- objects
  NodePtr NewNode(int i) {
    static const std::vector<std::string> kCpu = {"8",  "16", "16",
                                                  "32", "32", "64"};
    static const std::vector<std::string> kMem = {"32Gi", "64Gi", "64Gi",
                                                  "128Gi", "256Gi"};
    auto n = std::make_shared<Node>();
    n->name = absl::StrFormat("node-%05d", i);
    n->uid = "uid-" + n->name;
    n->resource_version = "1";
    // TraceScore: RunScorePlugins refuses scores outside [0, 100]; ties go
    // to the first node in the node tree's order (the model's selectHost).
    // Braced lists evaluate left to right: the draws are in a fixed order.
    n->labels = {
        {"schedtrace.io/score", absl::StrCat(rng_.Below(100))},
        {"tier", absl::StrCat(1 + rng_.Below(5))},
        {"zone", std::string(1, static_cast<char>('a' + rng_.Below(5)))}};
    n->allocatable = {{"cpu", Q(rng_.Pick(kCpu))},
                      {"memory", Q(rng_.Pick(kMem))},
                      {"pods", Q("110")}};
    n->conditions = {{"Ready", "True"}};
    if (rng_.PerMille(50)) n->taints = {{"dedicated", "gpu", "NoSchedule"}};
    if (rng_.PerMille(10)) n->unschedulable = true;
    return n;
  }

  PodPtr NewPod(int i) {
    static const std::vector<std::string> kCpu = {
        "100m", "200m", "250m", "300m", "400m", "500m",
        "500m", "1",    "1",    "2",    "4"};
    static const std::vector<std::string> kMem = {
        "128Mi", "256Mi", "512Mi", "512Mi", "1Gi", "1Gi", "2Gi", "3Gi", "4Gi"};
    auto p = std::make_shared<Pod>();
    p->namespace_ = absl::StrCat("ns", rng_.Below(20));
    p->name = absl::StrFormat("pod-%06d", i);
    p->uid = absl::StrCat("uid-", p->namespace_, "-", p->name);
    p->resource_version = "1";
    p->labels = {{"app", absl::StrCat("app-", rng_.Below(200))}};
    p->scheduler_name = "default-scheduler";
    int pr = rng_.Below(100);
    p->priority = pr < 60 ? 0 : pr < 85 ? 100 : 1000;
    Container c;
    c.name = "c";
    c.image = "img";
    c.requests = {{"cpu", Q(rng_.Pick(kCpu))}, {"memory", Q(rng_.Pick(kMem))}};
    p->containers.push_back(std::move(c));
    if (rng_.PerMille(100)) {
      p->tolerations.push_back({"dedicated", "Equal", "gpu", "NoSchedule", {}});
    }
    int placement = rng_.Below(1000);
    if (placement < 50) {
      p->node_selector = {
          {"zone", std::string(1, static_cast<char>('a' + rng_.Below(5)))}};
    } else if (placement < 100) {
      NodeSelectorTerm term;
      term.match_expressions.push_back({"tier", "In", {"3", "4", "5"}});
      p->required_node_affinity = std::vector<NodeSelectorTerm>{term};
    } else if (placement < 103) {
      p->node_selector = {{"zone", "nowhere"}};  // stays pending for good
    }
    if (rng_.PerMille(50)) p->scheduling_gates = {"example.com/gate"};
    return p;
  }

  // A new version of `old`: resourceVersion + 1.
  static std::shared_ptr<Pod> Bump(const Pod& old) {
    auto p = std::make_shared<Pod>(old);
    p->resource_version = absl::StrCat(std::stoll(old.resource_version) + 1);
    return p;
  }

  // --- the steps
  absl::Status AddNode(int i) {
    Step step;
    step.op = Op::kNodeAdd;
    step.node = NewNode(i);
    nodes_.push_back(step.node);
    return Apply(step).status();
  }

  absl::Status AddPod() {
    int i = created_++;
    Step step;
    step.op = Op::kPodAdd;
    step.pod = pods_[i] = NewPod(i);
    index_[step.pod->Key()] = i;
    SetPhase(i, Phase::kPending);
    if (!step.pod->scheduling_gates.empty()) gated_.Insert(i);
    return Apply(step).status();
  }

  // One cycle; `*popped` says whether it found a pod.
  absl::Status ScheduleOne(bool* popped) {
    Step step;
    step.op = Op::kScheduleOne;
    int r = rng_.Below(1000);
    if (r < 4) {
      step.reserve = ReserveOutcome::kError;
    } else if (r < 24) {
      step.permit = PermitOutcome::kWait;
    }
    absl::StatusOr<StepOut> out = Apply(step);
    if (!out.ok()) return out.status();
    *popped = out->popped.has_value();
    if (!out->result || out->result->outcome != "scheduled") {
      return absl::OkStatus();
    }
    auto it = index_.find(out->result->pod);
    if (it == index_.end()) return absl::OkStatus();
    if (step.permit == PermitOutcome::kWait) {
      SetPhase(it->second, Phase::kWaiting);
    } else {
      SetPhase(it->second, Phase::kParked);
    }
    return absl::OkStatus();
  }

  // Runs cycles until activeQ is empty or `max` cycles ran.
  absl::Status ScheduleUpTo(int max) {
    for (int c = 0; c < max; ++c) {
      bool popped = false;
      if (absl::Status s = ScheduleOne(&popped); !s.ok()) return s;
      if (!popped) break;
    }
    return absl::OkStatus();
  }

  absl::Status Bind(int i) {
    Step step;
    step.op = Op::kBind;
    step.pod_key = pods_[i]->Key();
    int r = rng_.Below(1000);
    if (r < 2) {
      step.prebind_ok = false;
    } else if (r < 4) {
      step.bind_ok = false;
    }
    absl::StatusOr<StepOut> out = Apply(step);
    if (!out.ok()) return out.status();
    std::string node;
    for (const Binding& b : out->bindings) {
      if (b.pod == step.pod_key) node = b.node;
    }
    if (node.empty()) {  // the binding cycle failed: the pod is requeued
      SetPhase(i, Phase::kPending);
      return absl::OkStatus();
    }
    // The apiserver's answer: the informer delivers spec.nodeName.
    Step update;
    update.op = Op::kPodUpdate;
    update.old_pod = pods_[i];
    std::shared_ptr<Pod> next = Bump(*pods_[i]);
    next->node_name = node;
    update.new_pod = pods_[i] = next;
    SetPhase(i, Phase::kBound);
    return Apply(update).status();
  }

  absl::Status BindAllParked() {
    std::vector<int> parked = parked_.items();
    for (int k = static_cast<int>(parked.size()) - 1; k > 0; --k) {
      std::swap(parked[k], parked[rng_.Below(k + 1)]);
    }
    for (int i : parked) {
      if (absl::Status s = Bind(i); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  // Each waiting pod is allowed (mostly) or rejected with chance 1/2.
  absl::Status ResolveSomeWaiting() {
    std::vector<int> waiting = waiting_.items();
    std::sort(waiting.begin(), waiting.end());
    for (int i : waiting) {
      if (!rng_.PerMille(500)) continue;
      Step step;
      step.pod_key = pods_[i]->Key();
      bool allow = rng_.PerMille(960);
      step.op = allow ? Op::kPermitAllow : Op::kPermitReject;
      if (absl::Status s = Apply(step).status(); !s.ok()) return s;
      SetPhase(i, allow ? Phase::kParked : Phase::kPending);
    }
    return absl::OkStatus();
  }

  absl::Status DeletePod(int i) {
    Step step;
    step.op = Op::kPodDelete;
    step.pod = pods_[i];
    step.tombstone = rng_.PerMille(20);
    SetPhase(i, Phase::kGone);
    gated_.Erase(i);
    return Apply(step).status();
  }

  // A pending pod changes: its gate is lifted, or a label or priority moves.
  absl::Status UpdatePending(int i, bool lift_gate) {
    Step step;
    step.op = Op::kPodUpdate;
    step.old_pod = pods_[i];
    std::shared_ptr<Pod> next = Bump(*pods_[i]);
    if (lift_gate) {
      next->scheduling_gates.clear();
      gated_.Erase(i);
    } else if (rng_.PerMille(500)) {
      next->labels["app"] = absl::StrCat("app-", rng_.Below(200));
    } else {
      next->annotations["touched"] = absl::StrCat(t_);
    }
    step.new_pod = pods_[i] = next;
    return Apply(step).status();
  }

  absl::Status UpdateNode() {
    int i = rng_.Below(o_.nodes);
    Step step;
    step.op = Op::kNodeUpdate;
    step.old_node = nodes_[i];
    auto next = std::make_shared<Node>(*nodes_[i]);
    next->resource_version =
        absl::StrCat(std::stoll(next->resource_version) + 1);
    switch (rng_.Below(4)) {
      case 0:  // a taint comes or goes
        if (next->taints.empty()) {
          next->taints = {{"dedicated", "gpu", "NoSchedule"}};
        } else {
          next->taints.clear();
        }
        break;
      case 1:  // cordon or uncordon
        next->unschedulable = !next->unschedulable;
        break;
      case 2:  // allocatable changes (a kubelet restart with reservations)
        next->allocatable["cpu"] = Q(absl::StrCat(8 * (1 + rng_.Below(8))));
        break;
      default:  // a label moves
        next->labels["tier"] = absl::StrCat(1 + rng_.Below(5));
        break;
    }
    step.new_node = nodes_[i] = next;
    return Apply(step).status();
  }

  absl::Status Simple(Op op) {
    Step step;
    step.op = op;
    if (op == Op::kClusterEvent) {
      step.event.resource = "PersistentVolume";
      step.event.action = "Add";
    }
    return Apply(step).status();
  }

  // The periodic flushes upstream's goroutines run, by the fake clock.
  absl::Status Flushes() {
    if (t_ - last_flush_backoff_ >= kFlushBackoffEveryMs) {
      last_flush_backoff_ = t_;
      if (absl::Status s = Simple(Op::kFlushBackoff); !s.ok()) return s;
    }
    if (t_ - last_flush_unschedulable_ >= kFlushUnschedulableEveryMs) {
      last_flush_unschedulable_ = t_;
      if (absl::Status s = Simple(Op::kFlushUnschedulable); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  // Everything else that happens between batches.
  absl::Status Churn1() {
    if (!bound_.empty() && rng_.PerMille(450)) {
      if (absl::Status s = DeletePod(rng_.Pick(bound_.items())); !s.ok()) {
        return s;
      }
    }
    if (!gated_.empty() && rng_.PerMille(350)) {
      int i = rng_.Pick(gated_.items());
      if (phase_[i] == Phase::kPending) {
        if (absl::Status s = UpdatePending(i, true); !s.ok()) return s;
      }
    }
    if (!pending_.empty() && rng_.PerMille(50)) {
      if (absl::Status s = UpdatePending(rng_.Pick(pending_.items()), false);
          !s.ok()) {
        return s;
      }
    }
    if (!pending_.empty() && rng_.PerMille(30)) {
      if (absl::Status s = DeletePod(rng_.Pick(pending_.items())); !s.ok()) {
        return s;
      }
    }
    if (!waiting_.empty() && rng_.PerMille(20)) {  // deleted while waiting
      if (absl::Status s = DeletePod(rng_.Pick(waiting_.items())); !s.ok()) {
        return s;
      }
    }
    if (rng_.PerMille(15)) {
      if (absl::Status s = UpdateNode(); !s.ok()) return s;
    }
    if (rng_.PerMille(2)) {
      if (absl::Status s = Simple(Op::kClusterEvent); !s.ok()) return s;
    }
    return Flushes();
  }

  // One round: cycles, permits, binds, churn.
  absl::Status Round(int max_cycles) {
    if (absl::Status s = ScheduleUpTo(max_cycles); !s.ok()) return s;
    if (absl::Status s = ResolveSomeWaiting(); !s.ok()) return s;
    if (absl::Status s = BindAllParked(); !s.ok()) return s;
    return Churn1();
  }

  absl::Status Churn() {
    while (created_ < o_.pods) {
      int batch = std::min(1 + rng_.Below(12), o_.pods - created_);
      for (int k = 0; k < batch; ++k) {
        if (absl::Status s = AddPod(); !s.ok()) return s;
      }
      if (absl::Status s = Round(batch + 8); !s.ok()) return s;
    }
    return Drain();
  }

  absl::Status Pending() {
    // Every pod arrives before any cycle runs: all of them pending at once.
    while (created_ < o_.pods) {
      if (absl::Status s = AddPod(); !s.ok()) return s;
      if (rng_.PerMille(10)) {
        bool lift = !gated_.empty() && rng_.PerMille(500);
        int i = lift ? rng_.Pick(gated_.items()) : rng_.Pick(pending_.items());
        if (absl::Status s = UpdatePending(i, lift); !s.ok()) return s;
      }
      if (rng_.PerMille(2)) {
        if (absl::Status s = DeletePod(rng_.Pick(pending_.items())); !s.ok()) {
          return s;
        }
      }
      if (rng_.PerMille(1)) {
        if (absl::Status s = UpdateNode(); !s.ok()) return s;
      }
      if (absl::Status s = Flushes(); !s.ok()) return s;
    }
    // Then a tail of scheduling against the full queue.
    for (int round = 0; round < o_.pods / 200; ++round) {
      if (absl::Status s = Round(10); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  // Lets the queue settle after the last pod arrived.
  absl::Status Drain() {
    for (int round = 0; round < 20; ++round) {
      t_ += kFlushBackoffEveryMs;  // past any backoff
      if (absl::Status s = Flushes(); !s.ok()) return s;
      if (absl::Status s = ScheduleUpTo(1000000); !s.ok()) return s;
      if (absl::Status s = ResolveSomeWaiting(); !s.ok()) return s;
      if (absl::Status s = BindAllParked(); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  void SetPhase(int i, Phase p) {
    Phase old = phase_[i];
    if (old == p) return;
    SetOf(old).Erase(i);
    SetOf(p).Insert(i);
    phase_[i] = p;
    stats_.max_pending =
        std::max(stats_.max_pending,
                 static_cast<int64_t>(pending_.size() + waiting_.size() +
                                      parked_.size()));
  }
  IndexSet& SetOf(Phase p) {
    switch (p) {
      case Phase::kPending:
        return pending_;
      case Phase::kWaiting:
        return waiting_;
      case Phase::kParked:
        return parked_;
      case Phase::kBound:
        return bound_;
      default:
        return gone_;
    }
  }

  DrivenSystem run_;
  const BenchGenOptions o_;
  std::ostream& out_;
  Rng rng_;
  int64_t t_ = 0;
  int64_t last_flush_backoff_ = 0;
  int64_t last_flush_unschedulable_ = 0;
  std::vector<NodePtr> nodes_;
  std::vector<PodPtr> pods_;  // latest version the informer delivered
  std::vector<Phase> phase_;
  absl::flat_hash_map<std::string, int> index_;  // key -> pod index
  int created_ = 0;
  IndexSet pending_, waiting_, parked_, bound_, gone_, gated_;
  BenchGenStats stats_;
};

}  // namespace

absl::StatusOr<BenchGenStats> GenerateBenchTrace(System& sut,
                                                 const BenchGenOptions& options,
                                                 std::ostream& out) {
  if (options.nodes < 1 || options.pods < 0) {
    return absl::InvalidArgumentError("nodes >= 1 and pods >= 0");
  }
  return Generator(sut, options, out).Run();
}

}  // namespace schedtrace::bench
