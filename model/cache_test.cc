#include "model/cache.h"

#include <memory>
#include <string>
#include <vector>

#include "core/quantity.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "model/fatal.h"
#include "model/node_info.h"
#include "model/node_tree.h"
#include "model/snapshot.h"

namespace schedtrace::model {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

Quantity Q(const std::string& s) { return ParseQuantity(s).value(); }

// A pod "default/<name>" with uid "uid-<name>" unless given, on `node`,
// requesting `cpu` in one container.
PodPtr MakePod(const std::string& name, const std::string& node,
               const std::string& cpu = "100m", std::string uid = "") {
  auto pod = std::make_shared<Pod>();
  pod->namespace_ = "default";
  pod->name = name;
  pod->uid = uid.empty() ? "uid-" + name : uid;
  pod->node_name = node;
  Container c;
  c.name = "c";
  c.requests["cpu"] = Q(cpu);
  pod->containers.push_back(c);
  return pod;
}

NodePtr MakeNode(const std::string& name, const std::string& zone = "") {
  auto node = std::make_shared<Node>();
  node->name = name;
  if (!zone.empty()) node->labels["topology.kubernetes.io/zone"] = zone;
  node->allocatable["cpu"] = Q("4");
  node->allocatable["pods"] = Q("110");
  return node;
}

std::vector<std::string> PodNames(const NodeInfo& info) {
  std::vector<std::string> names;
  for (const PodPtr& p : info.pods()) names.push_back(p->name);
  return names;
}

int64_t Cpu(const Cache& cache, const std::string& node) {
  const Resources& r = cache.nodes().at(node).requested();
  auto it = r.find("cpu");
  return it == r.end() ? 0 : it->second;
}

TEST(CacheTest, AssumeThenAddConfirmsWithAFreshState) {
  Cache cache(30000);
  ASSERT_TRUE(cache.AddNode(MakeNode("n1")).ok());
  PodPtr a = MakePod("a", "n1");
  ASSERT_TRUE(cache.AssumePod(a).ok());
  ASSERT_TRUE(cache.FinishBinding(a, 100).ok());
  EXPECT_TRUE(cache.IsAssumedPod(a).value());
  EXPECT_TRUE(cache.podStates().at("uid-a").bindingFinished);

  ASSERT_TRUE(cache.AddPod(a).ok());
  EXPECT_FALSE(cache.IsAssumedPod(a).value());
  EXPECT_FALSE(cache.podStates().at("uid-a").bindingFinished);
  EXPECT_FALSE(cache.podStates().at("uid-a").deadline.has_value());
  EXPECT_EQ(Cpu(cache, "n1"), 100);
  // Already added: a second AddPod, and AssumePod, are errors.
  absl::Status again = cache.AddPod(a);
  EXPECT_FALSE(again.ok());
  EXPECT_FALSE(IsFatal(again));
  EXPECT_FALSE(cache.AssumePod(a).ok());
  EXPECT_EQ(Cpu(cache, "n1"), 100);
}

TEST(CacheTest, AddOfAssumedPodOnAnotherNodeMovesItAndForgetFails) {
  Cache cache(0);
  ASSERT_TRUE(cache.AddNode(MakeNode("n1")).ok());
  ASSERT_TRUE(cache.AddNode(MakeNode("n2")).ok());
  ASSERT_TRUE(cache.AssumePod(MakePod("a", "n1")).ok());
  ASSERT_TRUE(cache.AddPod(MakePod("a", "n2")).ok());
  EXPECT_THAT(PodNames(cache.nodes().at("n1")), IsEmpty());
  EXPECT_THAT(PodNames(cache.nodes().at("n2")), ElementsAre("a"));
  EXPECT_FALSE(cache.IsAssumedPod(MakePod("a", "n2")).value());
  absl::Status forget = cache.ForgetPod(MakePod("a", "n1"));
  EXPECT_FALSE(forget.ok());
  EXPECT_FALSE(IsFatal(forget));
}

TEST(CacheTest, ForgetRemovesOnlyAssumedPodsOnTheirNode) {
  Cache cache(0);
  ASSERT_TRUE(cache.AssumePod(MakePod("a", "n1")).ok());
  EXPECT_FALSE(cache.ForgetPod(MakePod("a", "n2")).ok());
  EXPECT_EQ(cache.PodCount(), 1);
  ASSERT_TRUE(cache.ForgetPod(MakePod("a", "n1")).ok());
  // n1 was only a placeholder (no node): it goes with its last pod.
  EXPECT_THAT(cache.nodes(), IsEmpty());
  EXPECT_FALSE(cache.ForgetPod(MakePod("a", "n1")).ok());

  ASSERT_TRUE(cache.AddPod(MakePod("b", "n1")).ok());
  EXPECT_FALSE(cache.ForgetPod(MakePod("b", "n1")).ok());
  EXPECT_EQ(cache.PodCount(), 1);
}

TEST(CacheTest, ForgetSubtractsTheCallersRequests) {
  // upstream removePod(pod) passes the caller's object to
  // NodeInfo.RemovePod, which subtracts that object's requests.
  Cache cache(0);
  ASSERT_TRUE(cache.AddNode(MakeNode("n1")).ok());
  ASSERT_TRUE(cache.AssumePod(MakePod("a", "n1", "300m")).ok());
  ASSERT_TRUE(cache.ForgetPod(MakePod("a", "n1", "100m")).ok());
  EXPECT_THAT(PodNames(cache.nodes().at("n1")), IsEmpty());
  EXPECT_EQ(Cpu(cache, "n1"), 200);
}

TEST(CacheTest, UpdatePodOfAnAssumedOrUnknownPodIsAnError) {
  Cache cache(0);
  PodPtr a = MakePod("a", "n1");
  absl::Status unknown = cache.UpdatePod(a, a);
  EXPECT_FALSE(unknown.ok());
  EXPECT_FALSE(IsFatal(unknown));
  ASSERT_TRUE(cache.AssumePod(a).ok());
  absl::Status assumed = cache.UpdatePod(a, MakePod("a", "n1", "200m"));
  EXPECT_FALSE(assumed.ok());
  EXPECT_FALSE(IsFatal(assumed));
  EXPECT_EQ(Cpu(cache, "n1"), 100);
}

TEST(CacheTest, UpdatePodOnTheSameNodeReplacesRequests) {
  Cache cache(0);
  ASSERT_TRUE(cache.AddNode(MakeNode("n1")).ok());
  ASSERT_TRUE(cache.AddPod(MakePod("a", "n1", "100m")).ok());
  ASSERT_TRUE(
      cache.UpdatePod(MakePod("a", "n1", "100m"), MakePod("a", "n1", "250m"))
          .ok());
  EXPECT_EQ(Cpu(cache, "n1"), 250);
  EXPECT_EQ(cache.GetPod(MakePod("a", ""))
                .value()
                ->containers[0]
                .requests.at("cpu")
                .MilliValue(),
            250);
}

TEST(CacheTest, UpdatePodOntoAnotherNodeIsFatal) {
  Cache cache(0);
  ASSERT_TRUE(cache.AddPod(MakePod("a", "n1")).ok());
  EXPECT_TRUE(IsFatal(cache.UpdatePod(MakePod("a", "n1"), MakePod("a", "n2"))));
}

TEST(CacheTest, UpdatePodWithStaleOldNodeCountsThePodTwice) {
  Cache cache(0);
  ASSERT_TRUE(cache.AddNode(MakeNode("n1")).ok());
  ASSERT_TRUE(cache.AddPod(MakePod("a", "n1")).ok());
  // The old object names n7, which has no NodeInfo: removePod only logs.
  ASSERT_TRUE(cache.UpdatePod(MakePod("a", "n7"), MakePod("a", "n1")).ok());
  EXPECT_THAT(PodNames(cache.nodes().at("n1")), ElementsAre("a", "a"));
  EXPECT_EQ(Cpu(cache, "n1"), 200);
  EXPECT_EQ(cache.podStates().size(), 1u);
  ASSERT_TRUE(cache.RemovePod(MakePod("a", "n1")).ok());
  EXPECT_THAT(PodNames(cache.nodes().at("n1")), ElementsAre("a"));
  EXPECT_EQ(Cpu(cache, "n1"), 100);
  EXPECT_FALSE(cache.RemovePod(MakePod("a", "n1")).ok());
}

TEST(CacheTest, UpdatePodWithStaleOldPlaceholderIsFatal) {
  Cache cache(0);
  ASSERT_TRUE(cache.AddNode(MakeNode("n1")).ok());
  ASSERT_TRUE(cache.AddNode(MakeNode("n9")).ok());
  ASSERT_TRUE(cache.AddPod(MakePod("b", "n9")).ok());
  ASSERT_TRUE(cache.RemoveNode(MakeNode("n9")).ok());
  ASSERT_TRUE(cache.AddPod(MakePod("a", "n1")).ok());
  // n9 is a placeholder that does not hold a: upstream's error message
  // dereferences its nil node.
  EXPECT_TRUE(IsFatal(cache.UpdatePod(MakePod("a", "n9"), MakePod("a", "n1"))));
}

TEST(CacheTest, StaleOldPresentNodeIsAnErrorNotFatal) {
  Cache cache(0);
  ASSERT_TRUE(cache.AddNode(MakeNode("n1")).ok());
  ASSERT_TRUE(cache.AddNode(MakeNode("n2")).ok());
  ASSERT_TRUE(cache.AddPod(MakePod("a", "n1")).ok());
  absl::Status s = cache.UpdatePod(MakePod("a", "n2"), MakePod("a", "n1"));
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(IsFatal(s));
  EXPECT_EQ(Cpu(cache, "n1"), 100);
}

TEST(CacheTest, RemovePodNamingAnotherNodeIsFatal) {
  Cache cache(0);
  ASSERT_TRUE(cache.AddPod(MakePod("a", "n1")).ok());
  EXPECT_TRUE(IsFatal(cache.RemovePod(MakePod("a", "n2"))));
}

TEST(CacheTest, RemovePodWithEmptyNodeNameRemovesTheCachedPod) {
  Cache cache(0);
  ASSERT_TRUE(cache.AddNode(MakeNode("n1")).ok());
  ASSERT_TRUE(cache.AssumePod(MakePod("a", "n1")).ok());
  ASSERT_TRUE(cache.RemovePod(MakePod("a", "")).ok());
  EXPECT_THAT(PodNames(cache.nodes().at("n1")), IsEmpty());
  EXPECT_EQ(Cpu(cache, "n1"), 0);
  EXPECT_THAT(cache.assumedPods(), IsEmpty());
  EXPECT_THAT(cache.podStates(), IsEmpty());
}

TEST(CacheTest, PodsAreKeyedByUid) {
  Cache cache(0);
  ASSERT_TRUE(cache.AddPod(MakePod("a", "n1", "100m", "uid-1")).ok());
  ASSERT_TRUE(cache.AddPod(MakePod("a", "n1", "100m", "uid-2")).ok());
  EXPECT_EQ(Cpu(cache, "n1"), 200);
  ASSERT_TRUE(cache.RemovePod(MakePod("a", "n1", "100m", "uid-1")).ok());
  EXPECT_FALSE(cache.RemovePod(MakePod("a", "n1", "100m", "uid-1")).ok());
  EXPECT_EQ(Cpu(cache, "n1"), 100);
  // An empty uid is an error, a null pod is fatal (upstream dereferences it).
  auto empty = std::make_shared<Pod>(*MakePod("x", "n1"));
  empty->uid.clear();
  EXPECT_FALSE(cache.AssumePod(empty).ok());
  EXPECT_FALSE(IsFatal(cache.AssumePod(empty)));
  EXPECT_TRUE(IsFatal(cache.AssumePod(nullptr)));
}

TEST(CacheTest, RemoveNodeKeepsAPlaceholderUntilTheLastPodGoes) {
  Cache cache(0);
  ASSERT_TRUE(cache.AddNode(MakeNode("n1")).ok());
  ASSERT_TRUE(cache.AddPod(MakePod("a", "n1")).ok());
  ASSERT_TRUE(cache.AddPod(MakePod("b", "n1")).ok());
  ASSERT_TRUE(cache.RemoveNode(MakeNode("n1")).ok());
  ASSERT_TRUE(cache.nodes().contains("n1"));
  EXPECT_EQ(cache.nodes().at("n1").node(), nullptr);
  EXPECT_EQ(Cpu(cache, "n1"), 200);
  // The tree no longer holds it: removing it again is an error.
  EXPECT_FALSE(cache.RemoveNode(MakeNode("n1")).ok());
  ASSERT_TRUE(cache.RemovePod(MakePod("a", "n1")).ok());
  EXPECT_TRUE(cache.nodes().contains("n1"));
  ASSERT_TRUE(cache.RemovePod(MakePod("b", "n1")).ok());
  EXPECT_FALSE(cache.nodes().contains("n1"));
  EXPECT_FALSE(cache.RemoveNode(MakeNode("n1")).ok());
}

TEST(CacheTest, NodeAddedBackHoldsItsPods) {
  Cache cache(0);
  ASSERT_TRUE(cache.AddNode(MakeNode("n1")).ok());
  ASSERT_TRUE(cache.AddPod(MakePod("a", "n1")).ok());
  ASSERT_TRUE(cache.RemoveNode(MakeNode("n1")).ok());
  absl::StatusOr<NodeInfo> info = cache.AddNode(MakeNode("n1"));
  ASSERT_TRUE(info.ok());
  EXPECT_NE(info->node(), nullptr);
  EXPECT_THAT(PodNames(*info), ElementsAre("a"));
  EXPECT_THAT(info->allocatable(),
              UnorderedElementsAre(Pair("cpu", 4000), Pair("pods", 110)));
}

TEST(CacheTest, ExpiryIsStrictlyAfterTheDeadline) {
  Cache cache(30000);
  PodPtr a = MakePod("a", "n1");
  ASSERT_TRUE(cache.AssumePod(a).ok());
  // Not finished: never expires.
  ASSERT_TRUE(cache.cleanupAssumedPods(1000000).ok());
  EXPECT_TRUE(cache.IsAssumedPod(a).value());
  ASSERT_TRUE(cache.FinishBinding(a, 1000).ok());
  ASSERT_TRUE(cache.podStates().at("uid-a").deadline.has_value());
  EXPECT_EQ(cache.podStates().at("uid-a").deadline->Ms(), 31000);
  ASSERT_TRUE(cache.cleanupAssumedPods(31000).ok());
  EXPECT_TRUE(cache.IsAssumedPod(a).value());
  ASSERT_TRUE(cache.cleanupAssumedPods(31001).ok());
  EXPECT_FALSE(cache.IsAssumedPod(a).value());
  EXPECT_THAT(cache.nodes(), IsEmpty());
}

TEST(CacheTest, FinishBindingAgainMovesTheDeadline) {
  Cache cache(30000);
  PodPtr a = MakePod("a", "n1");
  ASSERT_TRUE(cache.AssumePod(a).ok());
  ASSERT_TRUE(cache.FinishBinding(a, 1000).ok());
  ASSERT_TRUE(cache.FinishBinding(a, 20000).ok());
  ASSERT_TRUE(cache.cleanupAssumedPods(40000).ok());
  EXPECT_TRUE(cache.IsAssumedPod(a).value());
  ASSERT_TRUE(cache.cleanupAssumedPods(50001).ok());
  EXPECT_FALSE(cache.IsAssumedPod(a).value());
}

TEST(CacheTest, TtlZeroNeverExpires) {
  Cache cache(0);
  PodPtr a = MakePod("a", "n1");
  ASSERT_TRUE(cache.AssumePod(a).ok());
  ASSERT_TRUE(cache.FinishBinding(a, 1000).ok());
  EXPECT_TRUE(cache.podStates().at("uid-a").bindingFinished);
  EXPECT_FALSE(cache.podStates().at("uid-a").deadline.has_value());
  ASSERT_TRUE(cache.cleanupAssumedPods(INT64_MAX).ok());
  EXPECT_TRUE(cache.IsAssumedPod(a).value());
}

TEST(CacheTest, FinishBindingOfAPodNotAssumedDoesNothing) {
  Cache cache(30000);
  PodPtr a = MakePod("a", "n1");
  ASSERT_TRUE(cache.FinishBinding(a, 1000).ok());
  ASSERT_TRUE(cache.AddPod(a).ok());
  ASSERT_TRUE(cache.FinishBinding(a, 1000).ok());
  EXPECT_FALSE(cache.podStates().at("uid-a").bindingFinished);
  ASSERT_TRUE(cache.cleanupAssumedPods(100000).ok());
  EXPECT_EQ(cache.PodCount(), 1);
}

TEST(CacheTest, RequestsFollowCalculateResource) {
  auto pod = std::make_shared<Pod>(*MakePod("a", "n1", "100m"));
  Container c2;
  c2.requests["cpu"] = Q("200m");
  c2.requests["memory"] = Q("1Mi");
  c2.requests["pods"] = Q("3");  // never counted in Requested
  pod->containers.push_back(c2);
  Container init;
  init.requests["cpu"] = Q("500m");
  init.requests["example.com/gpu"] = Q("2");
  pod->init_containers.push_back(init);
  pod->overhead["cpu"] = Q("10m");
  Cache cache(0);
  ASSERT_TRUE(cache.AddPod(pod).ok());
  EXPECT_THAT(cache.nodes().at("n1").requested(),
              UnorderedElementsAre(Pair("cpu", 510), Pair("example.com/gpu", 2),
                                   Pair("memory", 1048576)));
}

TEST(NodeTreeTest, ListsZonesRoundRobinAndRemovesByTheGivenZone) {
  NodeTree tree;
  tree.addNode(*MakeNode("a1", "a"));
  tree.addNode(*MakeNode("a2", "a"));
  tree.addNode(*MakeNode("b1", "b"));
  tree.addNode(*MakeNode("b1", "b"));  // already there
  EXPECT_EQ(tree.numNodes(), 3);
  EXPECT_THAT(tree.list(), ElementsAre("a1", "b1", "a2"));
  // The zone comes from the object given: another zone misses it.
  EXPECT_FALSE(tree.removeNode(*MakeNode("a1", "b")).ok());
  EXPECT_TRUE(tree.removeNode(*MakeNode("a1", "a")).ok());
  EXPECT_TRUE(
      tree.updateNode(MakeNode("a2", "a").get(), *MakeNode("a2", "c")).ok());
  EXPECT_THAT(tree.list(), ElementsAre("b1", "a2"));
  EXPECT_TRUE(IsFatal(tree.updateNode(nullptr, *MakeNode("x", "c"))));
  EXPECT_TRUE(tree.updateNode(nullptr, *MakeNode("x")).ok());
}

TEST(CacheTest, UpdateSnapshotListsPresentNodesInTreeOrder) {
  Cache cache(0);
  ASSERT_TRUE(cache.AddNode(MakeNode("a1", "a")).ok());
  ASSERT_TRUE(cache.AddNode(MakeNode("a2", "a")).ok());
  ASSERT_TRUE(cache.AddNode(MakeNode("b1", "b")).ok());
  ASSERT_TRUE(cache.AddPod(MakePod("p", "a2")).ok());
  ASSERT_TRUE(cache.AddPod(MakePod("q", "ghost")).ok());  // placeholder
  Snapshot snapshot;
  ASSERT_TRUE(cache.UpdateSnapshot(snapshot).ok());
  std::vector<std::string> names;
  for (const auto& info : snapshot.nodeInfoList) {
    names.push_back(info->node()->name);
  }
  EXPECT_THAT(names, ElementsAre("a1", "b1", "a2"));
  EXPECT_THAT(PodNames(*snapshot.Get("a2")), ElementsAre("p"));
  EXPECT_EQ(snapshot.Get("ghost"), nullptr);

  // A later change is copied in place; a removed node leaves the snapshot.
  ASSERT_TRUE(cache.AddPod(MakePod("r", "b1")).ok());
  ASSERT_TRUE(cache.RemoveNode(MakeNode("a2", "a")).ok());
  ASSERT_TRUE(cache.UpdateSnapshot(snapshot).ok());
  names.clear();
  for (const auto& info : snapshot.nodeInfoList) {
    names.push_back(info->node()->name);
  }
  EXPECT_THAT(names, ElementsAre("a1", "b1"));
  EXPECT_THAT(PodNames(*snapshot.Get("b1")), ElementsAre("r"));
  EXPECT_EQ(snapshot.Get("a2"), nullptr);
}

TEST(CacheTest, RemoveNodeWithAChangedZoneLeavesTheTreeInconsistent) {
  Cache cache(0);
  ASSERT_TRUE(cache.AddNode(MakeNode("n1", "a")).ok());
  Snapshot snapshot;
  ASSERT_TRUE(cache.UpdateSnapshot(snapshot).ok());
  // The delete carries labels of another zone: the tree keeps n1, the
  // NodeInfo goes (no pods) and the error is returned.
  EXPECT_FALSE(cache.RemoveNode(MakeNode("n1", "b")).ok());
  EXPECT_FALSE(cache.nodes().contains("n1"));
  EXPECT_THAT(cache.NodeTreeList(), ElementsAre("n1"));
  // The snapshot keeps its stale copy of n1 (counts agree with the tree).
  ASSERT_TRUE(cache.UpdateSnapshot(snapshot).ok());
  ASSERT_EQ(snapshot.nodeInfoList.size(), 1u);
  EXPECT_EQ(snapshot.nodeInfoList[0]->node()->name, "n1");
}

}  // namespace
}  // namespace schedtrace::model
