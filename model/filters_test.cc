#include "model/filters.h"

#include <memory>

#include "gtest/gtest.h"
#include "model/go_equal.h"
#include "model/node_events.h"

namespace schedtrace::model {
namespace {

NodePtr MakeNode(const std::string& name, const std::string& cpu = "1",
                 Labels labels = {}) {
  auto n = std::make_shared<Node>();
  n->name = name;
  n->labels = std::move(labels);
  n->allocatable["cpu"] = *ParseQuantity(cpu);
  n->allocatable["memory"] = *ParseQuantity("1Gi");
  n->allocatable["pods"] = *ParseQuantity("2");
  return n;
}

Pod MakePod(const std::string& cpu = "") {
  Pod p;
  p.namespace_ = "default";
  p.name = "p";
  p.uid = "uid-p";
  Container c;
  if (!cpu.empty()) c.requests["cpu"] = *ParseQuantity(cpu);
  p.containers.push_back(c);
  return p;
}

NodeInfo InfoOf(NodePtr node) {
  NodeInfo info;
  info.SetNode(std::move(node));
  return info;
}

TEST(TolerationTest, MatchesUpstreamRules) {
  Taint t{"k", "v", "NoSchedule"};
  EXPECT_TRUE(ToleratesTaint({"k", "Equal", "v", "NoSchedule"}, t));
  EXPECT_TRUE(ToleratesTaint({"k", "", "v", ""}, t));  // "" op = Equal
  EXPECT_FALSE(ToleratesTaint({"k", "Equal", "w", ""}, t));
  EXPECT_TRUE(ToleratesTaint({"", "Exists", "", ""}, t));  // matches all
  EXPECT_FALSE(ToleratesTaint({"k", "Exists", "", "NoExecute"}, t));
  EXPECT_FALSE(ToleratesTaint({"k", "Bogus", "v", ""}, t));
}

TEST(TaintTolerationFilterTest, OnlyNoScheduleAndNoExecuteCount) {
  auto node = std::make_shared<Node>(*MakeNode("n1"));
  node->taints = {{"soft", "", "PreferNoSchedule"}};
  Pod pod = MakePod();
  EXPECT_TRUE(TaintTolerationFilter(pod, InfoOf(node)).ok());
  node->taints.push_back({"hard", "x", "NoExecute"});
  FilterStatus s = TaintTolerationFilter(pod, InfoOf(node));
  EXPECT_EQ(s.code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.plugin, "TaintToleration");
  pod.tolerations.push_back({"hard", "Exists", "", "", std::nullopt});
  EXPECT_TRUE(TaintTolerationFilter(pod, InfoOf(node)).ok());
}

TEST(NodeAffinityTest, SelectorAndRequiredTerms) {
  NodePtr node = MakeNode("n1", "1", {{"zone", "a"}, {"gen", "5"}});
  Pod pod = MakePod();
  pod.node_selector = {{"zone", "a"}};
  EXPECT_TRUE(RequiredNodeAffinityMatches(pod, *node));
  pod.node_selector = {{"zone", "b"}};
  EXPECT_FALSE(RequiredNodeAffinityMatches(pod, *node));
  pod.node_selector.clear();
  // Terms are ORed, requirements inside a term ANDed.
  pod.required_node_affinity = std::vector<NodeSelectorTerm>{
      {{{"zone", "In", {"b"}}}, {}},
      {{{"gen", "Gt", {"4"}}, {"zone", "NotIn", {"c"}}}, {}}};
  EXPECT_TRUE(RequiredNodeAffinityMatches(pod, *node));
  (*pod.required_node_affinity)[1].match_expressions[0] = {"gen", "Lt", {"4"}};
  EXPECT_FALSE(RequiredNodeAffinityMatches(pod, *node));
  // An invalid requirement (Gt with two values) makes its term match nothing.
  pod.required_node_affinity =
      std::vector<NodeSelectorTerm>{{{{"gen", "Gt", {"1", "2"}}}, {}}};
  EXPECT_FALSE(RequiredNodeAffinityMatches(pod, *node));
  // Only empty terms: nothing matches.
  pod.required_node_affinity = std::vector<NodeSelectorTerm>{{}};
  EXPECT_FALSE(RequiredNodeAffinityMatches(pod, *node));
  // matchFields on metadata.name.
  pod.required_node_affinity =
      std::vector<NodeSelectorTerm>{{{}, {{"metadata.name", "In", {"n1"}}}}};
  EXPECT_TRUE(RequiredNodeAffinityMatches(pod, *node));
  EXPECT_FALSE(RequiredNodeAffinityMatches(pod, *MakeNode("n2")));
}

TEST(NodeAffinityTest, RequirementsAreValidatedAsLabelSelectors) {
  NodePtr node = MakeNode("n1", "1", {{"gen", "5"}});
  Pod pod = MakePod();
  auto with = [&](NodeSelectorRequirement r) {
    pod.required_node_affinity =
        std::vector<NodeSelectorTerm>{{{std::move(r)}, {}}};
    return RequiredNodeAffinityMatches(pod, *node);
  };
  EXPECT_TRUE(with({"gen", "Gt", {"4"}}));
  EXPECT_FALSE(with({"gen", "Lt", {"-5"}}));  // "-5" is no label value
  EXPECT_FALSE(with({"gen", "Lt", {"+6"}}));  // nor is "+6"
  // The node's label is only parsed (strconv.ParseInt takes one sign).
  node = MakeNode("n1", "1", {{"gen", "+7"}});
  EXPECT_TRUE(with({"gen", "Gt", {"6"}}));
  node = MakeNode("n1", "1", {{"gen", "+-7"}});
  EXPECT_FALSE(with({"gen", "Lt", {"6"}}));
  node = MakeNode("n1", "1", {{"gen", "5"}});
  EXPECT_FALSE(with({"bad key", "Exists", {}}));  // invalid label key
  EXPECT_FALSE(with({"gen", "NotIn", {"a b"}}));  // invalid label value
  EXPECT_TRUE(with({"gen", "NotIn", {"a"}}));
  EXPECT_FALSE(with({"Example.com/gen", "Exists", {}}));  // prefix: lowercase
}

TEST(NodeAffinityPreFilterTest, PinsNodeNamesAndDetectsConflicts) {
  Pod pod = MakePod();
  EXPECT_FALSE(NodeAffinityPreFilter(pod).node_names.has_value());
  pod.required_node_affinity = std::vector<NodeSelectorTerm>{
      {{}, {{"metadata.name", "In", {"n1", "n2"}}}},
      {{}, {{"metadata.name", "In", {"n3"}}}}};
  PreFilterResult r = NodeAffinityPreFilter(pod);
  ASSERT_TRUE(r.node_names.has_value());
  EXPECT_EQ(*r.node_names, (std::set<std::string>{"n1", "n2", "n3"}));
  pod.required_node_affinity = std::vector<NodeSelectorTerm>{
      {{}, {{"metadata.name", "In", {"n1"}}, {"metadata.name", "In", {"n2"}}}}};
  EXPECT_EQ(NodeAffinityPreFilter(pod).status.code,
            Code::kUnschedulableAndUnresolvable);
}

TEST(NodeResourcesFitTest, CpuAndPodCount) {
  NodeInfo info = InfoOf(MakeNode("n1", "1"));
  EXPECT_TRUE(NodeResourcesFitFilter(MakePod("1"), info).ok());
  FilterStatus s = NodeResourcesFitFilter(MakePod("1001m"), info);
  EXPECT_EQ(s.code, Code::kUnschedulable);
  EXPECT_EQ(s.reasons, std::vector<std::string>{"Insufficient cpu"});
  info.AddPod(std::make_shared<Pod>(MakePod("500m")), Upstream{});
  EXPECT_FALSE(NodeResourcesFitFilter(MakePod("600m"), info).ok());
  info.AddPod(std::make_shared<Pod>(MakePod()), Upstream{});
  // allocatable pods is 2: a third pod does not fit, even with no requests.
  s = NodeResourcesFitFilter(MakePod(), info);
  EXPECT_EQ(s.reasons, std::vector<std::string>{"Too many pods"});
}

TEST(RunFilterPluginsTest, FirstFailureWinsInUpstreamOrder) {
  auto node = std::make_shared<Node>(*MakeNode("n1", "1"));
  node->unschedulable = true;
  node->taints = {{"k", "", "NoSchedule"}};
  FilterStatus s = RunFilterPlugins(MakePod("2"), InfoOf(node));
  EXPECT_EQ(s.plugin, "NodeUnschedulable");
  node->unschedulable = false;
  EXPECT_EQ(RunFilterPlugins(MakePod("2"), InfoOf(node)).plugin,
            "TaintToleration");
  node->taints.clear();
  EXPECT_EQ(RunFilterPlugins(MakePod("2"), InfoOf(node)).plugin,
            "NodeResourcesFit");
  Pod named = MakePod();
  named.node_name = "other";
  EXPECT_EQ(RunFilterPlugins(named, InfoOf(node)).plugin, "NodeName");
}

TEST(NodeEventsTest, PropertiesChangeInUpstreamOrder) {
  Node a = *MakeNode("n1");
  Node b = a;
  auto first = [](const Node& n, const Node& o) {
    std::vector<ClusterEvent> events = NodeSchedulingPropertiesChange(n, o);
    EXPECT_LE(events.size(), 1u);  // v1.26: the first change only
    return events.empty() ? ClusterEvent{} : events.front();
  };
  EXPECT_TRUE(NodeSchedulingPropertiesChange(b, a).empty());
  b.unschedulable = true;  // becoming unschedulable is no event
  EXPECT_TRUE(NodeSchedulingPropertiesChange(b, a).empty());
  EXPECT_EQ(first(a, b).label, "NodeSpecUnschedulableChange");
  b = a;
  b.labels["x"] = "y";
  b.taints = {{"t", "", "NoSchedule"}};
  EXPECT_EQ(first(b, a).label, "NodeLabelChange");
  b.labels = a.labels;
  EXPECT_EQ(first(b, a).action, "UpdateNodeTaint");
  b = a;
  b.conditions = {{"Ready", "True"}};
  EXPECT_EQ(first(b, a).label, "NodeConditionChange");
}

Upstream V130() { return *UpstreamProfile("v1.30.12"); }

std::vector<std::string> Labels(const std::vector<ClusterEvent>& events) {
  std::vector<std::string> labels;
  for (const ClusterEvent& e : events) labels.push_back(e.label);
  return labels;
}

TEST(NodeEventsTest, V130FiresEveryChangeComparedSemantically) {
  Node a = *MakeNode("n1", "4");
  Node b = a;
  b.unschedulable = false;
  a.unschedulable = true;
  b.labels["x"] = "y";
  b.taints = {{"t", "", "NoSchedule"}};
  b.conditions = {{"Ready", "True"}};
  EXPECT_EQ(Labels(NodeSchedulingPropertiesChange(b, a, V130())),
            (std::vector<std::string>{"NodeSpecUnschedulableChange",
                                      "NodeLabelChange", "NodeTaintChange",
                                      "NodeConditionChange"}));
  // Nil against empty, and "4" against "4000m": reflect sees a change,
  // Semantic does not.
  Node c = *MakeNode("n1", "4");
  Node d = c;
  d.allocatable["cpu"] = *ParseQuantity("4000m");
  d.taints.clear();
  d.given_empty.Set(Nilable::kTaints);
  EXPECT_EQ(Labels(NodeSchedulingPropertiesChange(d, c)),
            std::vector<std::string>{"NodeAllocatableChange"});
  EXPECT_TRUE(NodeSchedulingPropertiesChange(d, c, V130()).empty());
  d.allocatable["cpu"] = *ParseQuantity("4001m");
  EXPECT_EQ(Labels(NodeSchedulingPropertiesChange(d, c, V130())),
            std::vector<std::string>{"NodeAllocatableChange"});
}

TEST(NodeEventsTest, SemanticQuantityEqualityIsByValue) {
  auto eq = [](const char* a, const char* b) {
    return SemanticEqual(*ParseQuantity(a), *ParseQuantity(b));
  };
  EXPECT_TRUE(eq("1", "1000m"));
  EXPECT_TRUE(eq("1k", "1000"));
  EXPECT_TRUE(eq("1e3", "1k"));
  EXPECT_TRUE(eq("0", "0m"));
  EXPECT_TRUE(eq("1e30", "1000000000000000000000000000000"));
  EXPECT_TRUE(eq("1Ki", "1024"));
  EXPECT_FALSE(eq("1", "1001m"));
  EXPECT_FALSE(eq("-1", "1"));
  EXPECT_FALSE(eq("1000000000000000000000", "1000000000000000000001"));
}

TEST(PreFilterTest, V130UnionsNodeNameTermsAndFailsOnlyWhenAllConflict) {
  Pod pod = MakePod();
  NodeSelectorRequirement in_a{"metadata.name", "In", {"a"}};
  NodeSelectorRequirement in_b{"metadata.name", "In", {"b"}};
  NodeSelectorTerm conflicting;
  conflicting.match_fields = {in_a, in_b};
  NodeSelectorTerm only_b;
  only_b.match_fields = {in_b};
  pod.required_node_affinity =
      std::vector<NodeSelectorTerm>{conflicting, only_b};
  EXPECT_FALSE(NodeAffinityPreFilter(pod).status.ok());  // v1.26
  PreFilterResult v130 = NodeAffinityPreFilter(pod, V130());
  EXPECT_TRUE(v130.status.ok());
  EXPECT_EQ(v130.node_names, (std::set<std::string>{"b"}));
  pod.required_node_affinity = std::vector<NodeSelectorTerm>{conflicting};
  EXPECT_FALSE(NodeAffinityPreFilter(pod, V130()).status.ok());
}

TEST(FitTest, ZeroRequestsSkipByVersion) {
  // A node whose requested memory exceeds its allocatable (nominated pods
  // can do that): a pod asking for 0 memory fails in v1.26 only.
  auto node = std::make_shared<Node>(*MakeNode("n1", "4"));
  node->allocatable["pods"] = *ParseQuantity("10");
  NodeInfo info = InfoOf(node);
  Pod hog = MakePod("1");
  hog.name = hog.uid = "hog";
  hog.containers[0].requests["memory"] = *ParseQuantity("2Gi");
  info.AddPod(std::make_shared<Pod>(hog), Upstream{});
  Pod zero = MakePod("1");
  zero.containers[0].requests["memory"] = *ParseQuantity("0");
  EXPECT_EQ(InsufficientResources(zero, info),
            std::vector<std::string>{"Insufficient memory"});
  EXPECT_TRUE(InsufficientResources(zero, info, V130()).empty());
  // A scalar asked at zero on an overcommitted node fails in v1.25 only.
  Pod gpu = MakePod("1");
  gpu.name = gpu.uid = "gpu";
  gpu.containers[0].requests["example.com/gpu"] = *ParseQuantity("1");
  info = InfoOf(node);  // no allocatable gpu: requested 1 exceeds it
  info.AddPod(std::make_shared<Pod>(gpu), Upstream{});
  Pod zero_gpu = MakePod("1");
  zero_gpu.containers[0].requests["example.com/gpu"] = *ParseQuantity("0");
  EXPECT_TRUE(InsufficientResources(zero_gpu, info).empty());
  EXPECT_EQ(InsufficientResources(zero_gpu, info, *UpstreamProfile("v1.25.12")),
            std::vector<std::string>{"Insufficient example.com/gpu"});
}

TEST(NodeEventsTest, PreCheckForNodeRejectsWhatTheNodeCannotTake) {
  auto node = std::make_shared<Node>(*MakeNode("n1", "1"));
  EXPECT_TRUE(PreCheckForNode(InfoOf(node), MakePod("1")));
  EXPECT_FALSE(PreCheckForNode(InfoOf(node), MakePod("2")));
  node->taints = {{"k", "", "NoExecute"}};  // only NoSchedule is checked
  EXPECT_TRUE(PreCheckForNode(InfoOf(node), MakePod("1")));
  node->taints = {{"k", "", "NoSchedule"}};
  EXPECT_FALSE(PreCheckForNode(InfoOf(node), MakePod("1")));
}

TEST(NodeEventsTest, OtherKindsFollowTheClusterEventMap) {
  std::vector<ClusterEventMapEntry> map = {
      {"PersistentVolume", {"All"}, {"PrioritySort"}},
      {"StorageClass", {"All"}, {"PrioritySort"}}};
  EXPECT_EQ(
      OtherKindEvent(map, "PersistentVolume", "Add", false, Upstream{})->label,
      "PvAdd");
  EXPECT_FALSE(
      OtherKindEvent(map, "CSIDriver", "Add", false, Upstream{}).has_value());
  EXPECT_FALSE(OtherKindEvent(map, "StorageClass", "Add", false, Upstream{})
                   .has_value());
  EXPECT_EQ(OtherKindEvent(map, "StorageClass", "Add", true, Upstream{})->label,
            "StorageClassAdd");
  EXPECT_FALSE(OtherKindEvent(map, "StorageClass", "Delete", true, Upstream{})
                   .has_value());
}

TEST(NodeEventsTest, OtherKindsRegisterByActionBits) {
  // A plugin registering only UpdateNodeTaint for a kind still gets that
  // kind's Update handler (upstream tests `at&framework.Update != 0`), but
  // no Add or Delete handler.
  std::vector<ClusterEventMapEntry> map = {
      {"CSINode", {"UpdateNodeTaint"}, {"SomePlugin"}}};
  EXPECT_EQ(OtherKindEvent(map, "CSINode", "Update", false, Upstream{})->label,
            "CSINodeUpdate");
  EXPECT_FALSE(
      OtherKindEvent(map, "CSINode", "Add", false, Upstream{}).has_value());
  EXPECT_FALSE(
      OtherKindEvent(map, "CSINode", "Delete", false, Upstream{}).has_value());
}

}  // namespace
}  // namespace schedtrace::model
