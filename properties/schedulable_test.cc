#include "properties/schedulable.h"

#include <map>
#include <memory>
#include <string>

#include "core/quantity.h"
#include "gtest/gtest.h"

namespace schedtrace::properties {
namespace {

Quantity Q(const char* s) { return *ParseQuantity(s); }

NodePtr MakeNode(const std::string& name, const char* cpu,
                 const std::function<void(Node&)>& change = nullptr) {
  auto n = std::make_shared<Node>();
  n->name = name;
  n->allocatable = {{"cpu", Q(cpu)}, {"memory", Q("8Gi")}, {"pods", Q("110")}};
  if (change) change(*n);
  return n;
}

Pod MakePod(const char* cpu, const std::function<void(Pod&)>& change = nullptr,
            const char* name = "p") {
  Pod p;
  p.namespace_ = "default";
  p.name = name;
  p.uid = std::string("uid-") + name;
  Container c;
  c.name = "c";
  if (cpu != nullptr) c.requests["cpu"] = Q(cpu);
  p.containers.push_back(c);
  if (change) change(p);
  return p;
}

// A cluster of `nodes`, each NodeInfo holding `requested` (cpu milli) and
// one pod per `pods`.
struct World {
  std::map<std::string, NodePtr> nodes;
  CacheState cache;
  Nominated nominated;
  std::map<std::string, PodPtr> objects;
  model::Upstream up = *model::UpstreamProfile("v1.37.2");

  void Add(const NodePtr& n, int64_t cpu_requested = 0, int pods = 0,
           const Resources& other = {}) {
    nodes[n->name] = n;
    NodeInfoState info;
    info.name = n->name;
    info.requested = other;
    if (cpu_requested != 0) info.requested["cpu"] = cpu_requested;
    for (int i = 0; i < pods; ++i) {
      info.pods.push_back("default/x" + std::to_string(i));
    }
    cache.nodes.push_back(info);
  }
  Cluster View() {
    return Cluster{&nodes, &cache, &nominated,
                   [this](const std::string& key) -> PodPtr {
                     auto it = objects.find(key);
                     return it == objects.end() ? nullptr : it->second;
                   },
                   &up};
  }
};

TEST(SchedulableTest, EachFilterRejectsAndTheFirstFailingOneIsNamed) {
  World w;
  w.Add(MakeNode("n1", "1", [](Node& n) { n.unschedulable = true; }));
  std::string failed;
  EXPECT_EQ(FitsNode(MakePod("100m"), *w.nodes["n1"], w.cache.nodes[0],
                     w.View(), &failed),
            Fit::kNo);
  EXPECT_EQ(failed, "NodeUnschedulable");
  // Tolerating the unschedulable taint lets it through.
  Pod tolerant = MakePod("100m", [](Pod& p) {
    p.tolerations.push_back(
        Toleration{"node.kubernetes.io/unschedulable", "Exists", "", "", {}});
  });
  EXPECT_EQ(FitsNode(tolerant, *w.nodes["n1"], w.cache.nodes[0], w.View()),
            Fit::kYes);

  World t;
  t.Add(MakeNode("n1", "1", [](Node& n) {
    n.taints.push_back(Taint{"dedicated", "gpu", "NoExecute"});
    n.taints.push_back(Taint{"soft", "", "PreferNoSchedule"});
  }));
  EXPECT_EQ(FitsNode(MakePod("100m"), *t.nodes["n1"], t.cache.nodes[0],
                     t.View(), &failed),
            Fit::kNo);
  EXPECT_EQ(failed, "TaintToleration");
  Pod gpu = MakePod("100m", [](Pod& p) {
    p.tolerations.push_back(Toleration{"dedicated", "Equal", "gpu", "", {}});
  });
  EXPECT_EQ(FitsNode(gpu, *t.nodes["n1"], t.cache.nodes[0], t.View()),
            Fit::kYes);

  Pod named = MakePod("100m", [](Pod& p) { p.node_name = "n2"; });
  EXPECT_EQ(
      FitsNode(named, *t.nodes["n1"], t.cache.nodes[0], t.View(), &failed),
      Fit::kNo);
  EXPECT_EQ(failed, "NodeName");
}

TEST(SchedulableTest, NodeAffinityReadsSelectorTermsAndFields) {
  World w;
  w.Add(MakeNode("n1", "1", [](Node& n) { n.labels = {{"zone", "a"}}; }));
  const Node& n1 = *w.nodes["n1"];
  const NodeInfoState& i1 = w.cache.nodes[0];
  auto with_terms = [](std::vector<NodeSelectorTerm> terms) {
    return MakePod("100m", [&](Pod& p) { p.required_node_affinity = terms; });
  };
  EXPECT_EQ(FitsNode(MakePod("100m",
                             [](Pod& p) {
                               p.node_selector = {{"zone", "b"}};
                             }),
                     n1, i1, w.View()),
            Fit::kNo);
  NodeSelectorTerm in_a;
  in_a.match_expressions.push_back({"zone", "In", {"a"}, {}});
  NodeSelectorTerm gt;
  gt.match_expressions.push_back({"zone", "Gt", {"3"}, {}});
  NodeSelectorTerm by_name;
  by_name.match_fields.push_back({"metadata.name", "In", {"n1"}, {}});
  EXPECT_EQ(FitsNode(with_terms({gt, in_a}), n1, i1, w.View()), Fit::kYes);
  EXPECT_EQ(FitsNode(with_terms({gt}), n1, i1, w.View()), Fit::kNo);
  EXPECT_EQ(FitsNode(with_terms({by_name}), n1, i1, w.View()), Fit::kYes);
  // An empty term matches nothing; no terms at all match nothing either.
  EXPECT_EQ(FitsNode(with_terms({NodeSelectorTerm{}}), n1, i1, w.View()),
            Fit::kNo);
  EXPECT_EQ(FitsNode(with_terms({}), n1, i1, w.View()), Fit::kNo);
  // A key outside the plain label syntax is the API's to judge: unknown.
  NodeSelectorTerm odd;
  odd.match_expressions.push_back({"bad key!", "Exists", {}, {}});
  EXPECT_EQ(FitsNode(with_terms({odd}), n1, i1, w.View()), Fit::kUnknown);
}

TEST(SchedulableTest, ResourcesCountZeroRequestsAsTheVersionDoes) {
  // n1 is overcommitted on memory: 8Gi allocatable, 9Gi requested.
  for (const char* version : {"v1.26.7", "v1.30.12"}) {
    World w;
    w.up = *model::UpstreamProfile(version);
    w.Add(MakeNode("n1", "2"), 0, 1, {{"memory", int64_t{9} << 30}});
    // A pod asking for cpu only: v1.26 compares its zero memory with the
    // negative free memory and fails; v1.30 skips the zero request.
    const Fit f =
        FitsNode(MakePod("100m"), *w.nodes["n1"], w.cache.nodes[0], w.View());
    EXPECT_EQ(f, std::string(version) == "v1.26.7" ? Fit::kNo : Fit::kYes)
        << version;
    // A pod asking for nothing at all checks the pod count only.
    EXPECT_EQ(
        FitsNode(MakePod(nullptr), *w.nodes["n1"], w.cache.nodes[0], w.View()),
        Fit::kYes)
        << version;
  }
  World full;
  full.Add(MakeNode("n1", "2", [](Node& n) { n.allocatable["pods"] = Q("1"); }),
           0, 1);
  EXPECT_EQ(FitsNode(MakePod(nullptr), *full.nodes["n1"], full.cache.nodes[0],
                     full.View()),
            Fit::kNo);
}

TEST(SchedulableTest, NominatedPodsAtThePodsPriorityOrAboveCount) {
  World w;
  w.Add(MakeNode("n1", "2"), 1000);
  w.nominated["n1"] = {"default/high", "default/low"};
  w.objects["default/high"] = std::make_shared<Pod>(MakePod(
      "1", [](Pod& p) { p.priority = 5; }, "high"));
  w.objects["default/low"] = std::make_shared<Pod>(MakePod(
      "1", [](Pod& p) { p.priority = 1; }, "low"));
  const Node& n1 = *w.nodes["n1"];
  // Priority 3: high's cpu 1 counts, low's does not; 1 + 1 leaves nothing.
  Pod mid = MakePod("500m", [](Pod& p) { p.priority = 3; });
  std::string failed;
  EXPECT_EQ(FitsNode(mid, n1, w.cache.nodes[0], w.View(), &failed), Fit::kNo);
  EXPECT_EQ(failed, "NodeResourcesFit");
  // Priority 6: neither counts.
  Pod top = MakePod("500m", [](Pod& p) { p.priority = 6; });
  EXPECT_EQ(FitsNode(top, n1, w.cache.nodes[0], w.View()), Fit::kYes);
  // A nominated pod whose object is unknown: no verdict.
  w.nominated["n1"].push_back("default/ghost");
  EXPECT_EQ(FitsNode(top, n1, w.cache.nodes[0], w.View()), Fit::kUnknown);
}

TEST(SchedulableTest, SomeNodeNeedsOneYesAndEveryNodeKnown) {
  World w;
  w.Add(MakeNode("n1", "1"), 1000);
  w.Add(MakeNode("n2", "2"));
  std::string node;
  EXPECT_EQ(FitsSomeNode(MakePod("500m"), w.View(), &node), Fit::kYes);
  EXPECT_EQ(node, "n2");
  EXPECT_EQ(FitsSomeNode(MakePod("3"), w.View()), Fit::kNo);
  // A node object the cache does not show: unknown unless another fits.
  w.nodes["n3"] = MakeNode("n3", "4");
  EXPECT_EQ(FitsSomeNode(MakePod("3"), w.View()), Fit::kUnknown);
  // A requested sum that wrapped below zero is not room.
  World wrapped;
  wrapped.Add(MakeNode("n1", "1"), -5);
  EXPECT_EQ(FitsSomeNode(MakePod("100m"), wrapped.View()), Fit::kUnknown);
}

}  // namespace
}  // namespace schedtrace::properties
