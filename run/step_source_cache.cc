// The step source's cache layer (run/step_source.h): the calls the
// scheduler and its informer make on the cache. NextStep is over 80 lines
// for a reason: one weighted choice over the layer's ops, each branch
// short; split, the weights a reader checks as one table would scatter.
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/upstream_versions.h"
#include "run/step_source_layers.h"

namespace schedtrace::step_source {
namespace {

// Cache-layer sequences.
class CacheSource : public LayerSource {
 public:
  explicit CacheSource(const GenOptions& options)
      : LayerSource(Layer::kCache), options_(options) {}

  std::unique_ptr<StepSource> Clone() const override {
    return std::make_unique<CacheSource>(*this);
  }

  TraceHeader Header(ChoiceStream& c) override {
    Use(c);
    TraceHeader h;
    h.name = absl::StrCat("generated/cache/seed-", options_.seed);
    h.layer = Layer::kCache;
    h.upstream = options_.upstream;
    h.source = "generated";
    h.seed = static_cast<int64_t>(options_.seed);
    h.config.assumed_pod_ttl_ms = ttl_ = Chance(0.5) ? 0 : 30000;
    // Now and then a ttl whose time.Duration wraps (to about -292 years):
    // a finished pod's deadline is already past (UPSTREAM.md item 55).
    if (ttl_ != 0 && variety_.Chance(0.1)) {
      h.config.assumed_pod_ttl_ms = ttl_ = 9223372036855;
    }
    h.description =
        absl::StrCat("random cache-layer sequence, seed ", options_.seed,
                     ", ttl ", h.config.assumed_pod_ttl_ms, " ms");
    DrawTraceCorners(options_, h.config);
    t_ = start_;
    return h;
  }

 private:
  std::string NodeName() { return names_.Node(Uniform(0, options_.nodes - 1)); }

  PodPtr MakePod(int index, const std::string& node) {
    auto p = std::make_shared<Pod>();
    p->namespace_ = names_.Namespace(index);
    p->name = names_.Name(index);
    p->uid = names_.Uid(index, incarnation_[index]);
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
    UnderscoreLabel(p->labels);
    PodResourceCorners(variety_, *p);
    GoRequestCorner(go_, *p);
    if (UpstreamSumsRequestQuantities(options_.upstream)) {
      FractionalRequestCorners(variety_, *p);
    }
    GiveEmpty(variety_, *p);
    return p;
  }

  NodePtr MakeNode(const std::string& name) {
    auto n = std::make_shared<Node>();
    n->name = name;
    n->labels = {{"topology.kubernetes.io/zone", Chance(0.5) ? "a" : "b"}};
    n->allocatable["cpu"] = Q(absl::StrCat(Uniform(1, 8)));
    NodeResourceCorners(variety_, *n);
    GoAllocatableCorner(go_, *n);
    // Now and then no labels (no zone) or no allocatable at all.
    if (variety_.Chance(0.1)) n->labels.clear();
    if (variety_.Chance(0.1)) n->allocatable.clear();
    UnderscoreLabel(n->labels);
    GiveEmpty(variety_, *n);
    return n;
  }

  Step NextStep() override {
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
    t_ += Chance(clock.ttl.p) ? Span(*c_, clock.ttl.min_ms, clock.ttl.max_ms)
                              : Span(*c_, clock.min_ms, clock.max_ms);
    step.t = t_;
    if (Step next; TakePending(pending_, t_, next)) return next;
    int i = Uniform(0, options_.pods - 1);
    PodPtr& known = pods_[i];
    if (Perturb(options_.perturb, *c_, *this, step, pending_)) return step;
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
      if (ttl_ > 0 && ttl_ <= 300000) {
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
      PodPtr sent = next;
      Subtle(*known, sent);
      step.op = Op::kCUpdatePod;
      step.old_pod = prev_[i] = known;
      step.new_pod = known = sent;
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
      NodePtr next = MakeNode(name);
      if (variety_.Chance(0.1)) {
        // Only a field given empty against absent (a new resourceVersion).
        auto flipped = std::const_pointer_cast<Node>(NoOpNodeUpdate(*old));
        if (FlipGivenEmpty(variety_, *flipped)) next = flipped;
      }
      step.op = Op::kCUpdateNode;
      step.old_node = old;
      step.new_node = nodes_[name] = next;
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

  // --- what the perturbations read and change (step_source_perturb.h)
  // Assumed or added.
  std::vector<int> Known() override {
    std::vector<int> known;
    for (int i = 0; i < options_.pods; ++i) {
      if (auto it = pods_.find(i); it != pods_.end() && it->second) {
        known.push_back(i);
      }
    }
    return known;
  }
  std::vector<int> Busy() override {  // assumed
    std::vector<int> busy;
    for (int i : Known()) {
      if (world_.Assumed(pods_[i]->Key())) busy.push_back(i);
    }
    return busy;
  }
  // An informer update of an assumed pod (upstream refuses it).
  PodPtr Raced(int i) override {
    auto next = std::make_shared<Pod>(*pods_[i]);
    next->resource_version = absl::StrCat(++rv_);
    next->labels["race"] = absl::StrCat(t_);
    return next;
  }
  double RaceDeletes() const override { return 0; }
  PodPtr Recreated(int i, bool in_update) override {
    ++incarnation_[i];
    return MakePod(i, in_update ? pods_[i]->node_name : NodeName());
  }
  std::vector<int> Nodes() override {
    std::vector<int> nodes;
    for (int j = 0; j < options_.nodes; ++j) {
      if (NodeAt(j)) nodes.push_back(j);
    }
    return nodes;
  }
  std::vector<int> BusyNodes() override {
    std::vector<int> busy;
    for (int j : Nodes()) {
      if (world_.HoldsPods(NodeAt(j)->name)) busy.push_back(j);
    }
    return busy;
  }
  NodePtr NodeAt(int j) override {
    auto it = nodes_.find(names_.Node(j));
    return it == nodes_.end() ? nullptr : it->second;
  }
  // The cache's nodes carry no uid: a re-created one gets its incarnation's.
  NodePtr RecreatedNode(int j) override {
    NodePtr node = NodeAt(j);
    auto again = std::make_shared<Node>(*node);
    again->uid =
        absl::StrCat("uid-node-", node->name, "-", ++node_incarnation_[j]);
    return again;
  }
  NodePtr NoOpUpdate(int j) override { return NoOpNodeUpdate(*NodeAt(j)); }
  void SentNode(int j, NodePtr node) override {
    nodes_[names_.Node(j)] = std::move(node);
  }

  // A call the informer would never make (step_source.h, hostile mode).
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
      case 1: {  // a pod the cache never saw, forgotten or removed
        ++incarnation_[options_.pods + i];
        step.op = Chance(0.5) ? Op::kCForget : Op::kCRemovePod;
        PodPtr pod = MakePod(options_.pods + i, NodeName());
        if (variety_.Chance(0.25)) {
          // Without a uid: GetPodKey fails every call of the cache.
          auto blank = std::make_shared<Pod>(*pod);
          blank->uid.clear();
          constexpr Op kOps[] = {Op::kCAssume,        Op::kCAddPod,
                                 Op::kCFinishBinding, Op::kCForget,
                                 Op::kCRemovePod,     Op::kCUpdatePod};
          step.op = kOps[variety_.Uniform(0, 5)];
          pod = blank;
          if (step.op == Op::kCUpdatePod) {
            step.old_pod = blank;
            auto next = std::make_shared<Pod>(*blank);
            next->resource_version = absl::StrCat(++rv_);
            step.new_pod = next;
            return true;
          }
        }
        step.pod = pod;
        return true;
      }
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

  GenOptions options_;
  std::vector<Step> pending_;  // steps a perturbation queued up
  int64_t t_ = 0;
  int64_t rv_ = 0;
  int64_t ttl_ = 0;
  std::set<int64_t> boundaries_;
  std::map<int, int> incarnation_;
  std::map<std::string, NodePtr> nodes_;
  std::map<int, int> node_incarnation_;
};

}  // namespace

std::unique_ptr<StepSource> NewCacheSource(const GenOptions& options) {
  return std::make_unique<CacheSource>(options);
}

}  // namespace schedtrace::step_source
