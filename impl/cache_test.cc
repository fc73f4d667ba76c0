#include "impl/cache.h"

#include <memory>
#include <string>

#include "core/quantity.h"
#include "gtest/gtest.h"

namespace schedtrace::impl {
namespace {

Quantity Q(const char* s) { return *ParseQuantity(s); }

PodPtr MakePod(const std::string& name, const std::string& node,
               const char* cpu = "100m", const char* mem = "1Ki") {
  auto p = std::make_shared<Pod>();
  p->namespace_ = "ns";
  p->name = name;
  p->uid = "uid-" + name;
  p->node_name = node;
  p->containers.push_back(
      {.name = "c", .requests = {{"cpu", Q(cpu)}, {"memory", Q(mem)}}});
  return p;
}

NodePtr MakeNode(const std::string& name, const std::string& zone = "") {
  auto n = std::make_shared<Node>();
  n->name = name;
  if (!zone.empty()) n->labels["topology.kubernetes.io/zone"] = zone;
  return n;
}

// The snapshot's NodeInfo `name`, or a NodeInfoState named "" when absent.
NodeInfoState Find(const CacheState& s, const std::string& name) {
  for (const NodeInfoState& n : s.nodes) {
    if (n.name == name) return n;
  }
  return NodeInfoState{.name = ""};
}

TEST(ImplCacheTest, RequestsSumContainersMaxInitAddOverheadIgnorePods) {
  Cache c(0);
  auto p = std::make_shared<Pod>(*MakePod("a", "n1", "100m", "1Ki"));
  p->containers.push_back(
      {.name = "d",
       .requests = {{"cpu", Q("200m")}, {"pods", Q("3")}, {"foo", Q("9")}}});
  p->init_containers.push_back(
      {.name = "i", .requests = {{"cpu", Q("250m")}, {"memory", Q("512")}}});
  p->overhead = {{"cpu", Q("10m")}, {"example.com/gpu", Q("2")}};
  ASSERT_EQ(c.AddNode(MakeNode("n1")), CacheResult::kOk);
  ASSERT_EQ(c.AddPod(p), CacheResult::kOk);
  NodeInfoState n = Find(c.Snapshot(), "n1");
  ASSERT_EQ(n.name, "n1");
  EXPECT_EQ(
      n.requested,
      (Resources{{"cpu", 310}, {"memory", 1024}, {"example.com/gpu", 2}}));
  EXPECT_EQ(n.pods, (std::vector<std::string>{"ns/a"}));
}

TEST(ImplCacheTest, ExpiryIsStrictAndFinishBindingMovesTheDeadline) {
  Cache c(1000);
  PodPtr p = MakePod("a", "n1");
  ASSERT_EQ(c.AssumePod(p), CacheResult::kOk);
  // Not finished: never expires.
  ASSERT_EQ(c.CleanupAssumedPods(1'000'000), CacheResult::kOk);
  EXPECT_EQ(c.Snapshot().assumed, (std::vector<std::string>{"ns/a"}));
  ASSERT_EQ(c.FinishBinding(p, 100), CacheResult::kOk);
  ASSERT_EQ(c.FinishBinding(p, 500), CacheResult::kOk);  // deadline 1500
  ASSERT_EQ(c.CleanupAssumedPods(1101), CacheResult::kOk);
  EXPECT_EQ(c.Snapshot().assumed.size(), 1u);
  ASSERT_EQ(c.CleanupAssumedPods(1500), CacheResult::kOk);  // not After
  EXPECT_EQ(c.Snapshot().binding_finished, (std::vector<std::string>{"ns/a"}));
  ASSERT_EQ(c.CleanupAssumedPods(1501), CacheResult::kOk);
  CacheState s = c.Snapshot();
  EXPECT_TRUE(s.assumed.empty());
  EXPECT_TRUE(s.binding_finished.empty());
  EXPECT_TRUE(s.nodes.empty());  // the placeholder went with its last pod
}

TEST(ImplCacheTest, TtlZeroNeverExpires) {
  Cache c(0);
  PodPtr p = MakePod("a", "n1");
  ASSERT_EQ(c.AssumePod(p), CacheResult::kOk);
  ASSERT_EQ(c.FinishBinding(p, 0), CacheResult::kOk);
  ASSERT_EQ(c.CleanupAssumedPods(int64_t{1} << 50), CacheResult::kOk);
  EXPECT_EQ(c.Snapshot().assumed, (std::vector<std::string>{"ns/a"}));
}

TEST(ImplCacheTest, ConfirmedOrForgottenPodsDoNotExpireThroughStaleEntries) {
  Cache c(10);
  PodPtr a = MakePod("a", "n1"), b = MakePod("b", "n1");
  ASSERT_EQ(c.AssumePod(a), CacheResult::kOk);
  ASSERT_EQ(c.AssumePod(b), CacheResult::kOk);
  ASSERT_EQ(c.FinishBinding(a, 0), CacheResult::kOk);
  ASSERT_EQ(c.FinishBinding(b, 0), CacheResult::kOk);
  ASSERT_EQ(c.AddPod(MakePod("a", "n1")), CacheResult::kOk);  // confirmed
  ASSERT_EQ(c.ForgetPod(b), CacheResult::kOk);
  ASSERT_EQ(c.AssumePod(b), CacheResult::kOk);  // again, not finished
  ASSERT_EQ(c.CleanupAssumedPods(100), CacheResult::kOk);
  CacheState s = c.Snapshot();
  EXPECT_EQ(s.assumed, (std::vector<std::string>{"ns/b"}));
  EXPECT_EQ(Find(s, "n1").pods, (std::vector<std::string>{"ns/a", "ns/b"}));
}

TEST(ImplCacheTest, ManyFinishBindingsKeepTheLatestDeadline) {
  Cache c(5);
  PodPtr p = MakePod("a", "n1");
  ASSERT_EQ(c.AssumePod(p), CacheResult::kOk);
  for (int64_t t = 0; t < 1000; ++t)
    ASSERT_EQ(c.FinishBinding(p, t), CacheResult::kOk);
  ASSERT_EQ(c.CleanupAssumedPods(1004), CacheResult::kOk);
  EXPECT_EQ(c.Snapshot().assumed.size(), 1u);
  ASSERT_EQ(c.CleanupAssumedPods(1005), CacheResult::kOk);
  EXPECT_TRUE(c.Snapshot().assumed.empty());
}

TEST(ImplCacheTest, RecycledPodIdsIgnoreTheirPreviousDeadlines) {
  Cache c(10);
  PodPtr a = MakePod("a", "n1");
  ASSERT_EQ(c.AssumePod(a), CacheResult::kOk);
  ASSERT_EQ(c.FinishBinding(a, 0), CacheResult::kOk);  // deadline 10
  ASSERT_EQ(c.ForgetPod(a), CacheResult::kOk);         // a's id is free
  PodPtr b = MakePod("b", "n1");
  ASSERT_EQ(c.AssumePod(b), CacheResult::kOk);           // may reuse a's id
  ASSERT_EQ(c.FinishBinding(b, 100), CacheResult::kOk);  // deadline 110
  ASSERT_EQ(c.CleanupAssumedPods(50), CacheResult::kOk);
  EXPECT_EQ(c.Snapshot().assumed, (std::vector<std::string>{"ns/b"}));
  // a is unknown again: it can be assumed afresh and forgotten.
  EXPECT_EQ(c.ForgetPod(a), CacheResult::kError);
  ASSERT_EQ(c.AssumePod(a), CacheResult::kOk);
  ASSERT_EQ(c.CleanupAssumedPods(111), CacheResult::kOk);
  EXPECT_EQ(c.Snapshot().assumed, (std::vector<std::string>{"ns/a"}));
  EXPECT_EQ(Find(c.Snapshot(), "n1").pods, (std::vector<std::string>{"ns/a"}));
}

TEST(ImplCacheTest, StaleNodeEntryKeepsItsUidKnown) {
  Cache c(0);
  ASSERT_EQ(c.AddNode(MakeNode("n1")), CacheResult::kOk);
  ASSERT_EQ(c.AddPod(MakePod("a", "n1")), CacheResult::kOk);
  // The stale old object names an unknown node: podStates loses nothing
  // and n1 holds the pod twice.
  ASSERT_EQ(c.UpdatePod(MakePod("a", "x"), MakePod("a", "n1")),
            CacheResult::kOk);
  ASSERT_EQ(c.RemovePod(MakePod("a", "n1")), CacheResult::kOk);
  EXPECT_EQ(Find(c.Snapshot(), "n1").pods, (std::vector<std::string>{"ns/a"}));
  // podStates no longer has it, but its NodeInfo entry is still removable.
  ASSERT_EQ(c.AddPod(MakePod("a", "n1")), CacheResult::kOk);
  ASSERT_EQ(c.RemovePod(MakePod("a", "n1")), CacheResult::kOk);
  EXPECT_EQ(Find(c.Snapshot(), "n1").pods, (std::vector<std::string>{"ns/a"}));
  EXPECT_EQ(Find(c.Snapshot(), "n1").requested,
            (Resources{{"cpu", 100}, {"memory", 1024}}));
}

TEST(ImplCacheTest, DeletedNodeStaysAsPlaceholderWhileItHoldsPods) {
  Cache c(0);
  NodePtr n = MakeNode("n1", "z");
  ASSERT_EQ(c.AddNode(n), CacheResult::kOk);
  PodPtr p = MakePod("a", "n1", "1", "1Mi");
  ASSERT_EQ(c.AddPod(p), CacheResult::kOk);
  ASSERT_EQ(c.RemoveNode(n), CacheResult::kOk);
  NodeInfoState ni = Find(c.Snapshot(), "n1");
  ASSERT_EQ(ni.name, "n1");
  EXPECT_FALSE(ni.present);
  EXPECT_EQ(ni.requested.at("cpu"), 1000);
  EXPECT_EQ(c.RemoveNode(n), CacheResult::kError);  // gone from the tree
  ASSERT_EQ(c.RemovePod(p), CacheResult::kOk);
  EXPECT_TRUE(c.Snapshot().nodes.empty());
  // A node added again starts from zero.
  ASSERT_EQ(c.AddNode(n), CacheResult::kOk);
  ni = Find(c.Snapshot(), "n1");
  ASSERT_EQ(ni.name, "n1");
  EXPECT_TRUE(ni.present);
  EXPECT_TRUE(ni.requested.empty());
}

TEST(ImplCacheTest, RemovalSubtractsTheObjectGiven) {
  Cache c(0);
  ASSERT_EQ(c.AddNode(MakeNode("n1")), CacheResult::kOk);
  ASSERT_EQ(c.AssumePod(MakePod("a", "n1", "100m", "1Ki")), CacheResult::kOk);
  // ForgetPod removes with the caller's object (300m), not the cached one.
  ASSERT_EQ(c.ForgetPod(MakePod("a", "n1", "300m", "1Ki")), CacheResult::kOk);
  EXPECT_EQ(Find(c.Snapshot(), "n1").requested, (Resources{{"cpu", -200}}));
}

TEST(ImplCacheTest, ErrorAndFatalPaths) {
  Cache c(0);
  ASSERT_EQ(c.AddNode(MakeNode("n1")), CacheResult::kOk);
  PodPtr p = MakePod("a", "n1");
  ASSERT_EQ(c.AddPod(p), CacheResult::kOk);
  EXPECT_EQ(c.AddPod(p), CacheResult::kError);     // already added
  EXPECT_EQ(c.AssumePod(p), CacheResult::kError);  // in the cache
  EXPECT_EQ(c.ForgetPod(p), CacheResult::kError);  // not assumed
  EXPECT_EQ(c.RemovePod(MakePod("zz", "n1")), CacheResult::kError);
  auto no_uid = std::make_shared<Pod>(*p);
  no_uid->uid.clear();
  EXPECT_EQ(c.AddPod(no_uid), CacheResult::kError);
  EXPECT_EQ(c.UpdatePod(p, MakePod("a", "n2")), CacheResult::kFatal);
  EXPECT_EQ(c.RemovePod(MakePod("a", "n2")), CacheResult::kFatal);
  // An empty node name only logs: the cached pod is removed.
  EXPECT_EQ(c.RemovePod(MakePod("a", "")), CacheResult::kOk);
  EXPECT_TRUE(Find(c.Snapshot(), "n1").pods.empty());
}

TEST(ImplCacheTest, UpdateWithStaleOldObjectOnPlaceholderPanics) {
  Cache c(0);
  ASSERT_EQ(c.AddPod(MakePod("b", "gone")), CacheResult::kOk);  // placeholder
  ASSERT_EQ(c.AddPod(MakePod("a", "n1")), CacheResult::kOk);
  EXPECT_EQ(c.UpdatePod(MakePod("a", "gone"), MakePod("a", "n1")),
            CacheResult::kFatal);
}

TEST(ImplCacheTest, UpdateWithOldObjectOnUnknownNodeCountsThePodTwice) {
  Cache c(0);
  ASSERT_EQ(c.AddPod(MakePod("a", "n1", "100m", "1Ki")), CacheResult::kOk);
  ASSERT_EQ(c.UpdatePod(MakePod("a", "elsewhere"), MakePod("a", "n1")),
            CacheResult::kOk);
  NodeInfoState n = Find(c.Snapshot(), "n1");
  EXPECT_EQ(n.pods, (std::vector<std::string>{"ns/a", "ns/a"}));
  EXPECT_EQ(n.requested.at("cpu"), 200);
}

TEST(ImplCacheTest, UpdateNodeWithoutOldObjectAcrossZonesPanics) {
  Cache c(0);
  EXPECT_EQ(c.UpdateNode(nullptr, MakeNode("n1")), CacheResult::kOk);
  EXPECT_EQ(c.UpdateNode(nullptr, MakeNode("n1", "z")), CacheResult::kFatal);
}

}  // namespace
}  // namespace schedtrace::impl
