// Tests of impl::Cache's read side for the scheduler layer: the node tree's
// zone round-robin order, and the changed-NodeInfo list the snapshot
// refreshes from.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "impl/cache.h"

namespace schedtrace::impl {
namespace {

NodePtr MakeNode(const std::string& name, const std::string& zone) {
  auto n = std::make_shared<Node>();
  n->name = name;
  if (!zone.empty()) n->labels["topology.kubernetes.io/zone"] = zone;
  return n;
}

PodPtr MakePod(const std::string& name, const std::string& node) {
  auto p = std::make_shared<Pod>();
  p->namespace_ = "ns";
  p->name = name;
  p->uid = "uid-" + name;
  p->node_name = node;
  return p;
}

std::vector<std::string> TreeNames(const Cache& c) {
  std::vector<uint32_t> ids;
  c.TreeList(ids);
  std::vector<std::string> names;
  for (uint32_t id : ids) names.push_back(c.NodeName(id));
  return names;
}

std::vector<std::string> Dirty(Cache& c) {
  std::vector<uint32_t> ids;
  c.TakeDirtyNodes(ids);
  std::vector<std::string> names;
  for (uint32_t id : ids) names.push_back(c.NodeName(id));
  std::sort(names.begin(), names.end());
  return names;
}

TEST(CacheViewTest, TreeListGoesRoundRobinOverZonesInTheirOrder) {
  Cache c(0);
  c.AddNode(MakeNode("a1", "a"));
  c.AddNode(MakeNode("a2", "a"));
  c.AddNode(MakeNode("b1", "b"));
  c.AddNode(MakeNode("a3", "a"));
  c.AddNode(MakeNode("c1", "c"));
  EXPECT_EQ(TreeNames(c),
            (std::vector<std::string>{"a1", "b1", "c1", "a2", "a3"}));
  EXPECT_EQ(c.TreeSize(), 5);
  // Emptying zone b drops it; a zone that comes back goes last.
  ASSERT_EQ(c.RemoveNode(MakeNode("b1", "b")), CacheResult::kOk);
  c.AddNode(MakeNode("b2", "b"));
  EXPECT_EQ(TreeNames(c),
            (std::vector<std::string>{"a1", "c1", "b2", "a2", "a3"}));
  // A removal under a stale zone misses the tree (an error) but the
  // NodeInfo loses its node all the same.
  EXPECT_EQ(c.RemoveNode(MakeNode("a2", "z")), CacheResult::kError);
  EXPECT_EQ(c.TreeSize(), 5);
  EXPECT_EQ(c.NodeObject(c.FindNodeId("a2")), nullptr);
}

TEST(CacheViewTest, DirtyNodesAreTheNodeInfosChangedSinceTheLastTake) {
  Cache c(0);
  c.AddNode(MakeNode("n1", ""));
  c.AddNode(MakeNode("n2", ""));
  EXPECT_EQ(Dirty(c), (std::vector<std::string>{"n1", "n2"}));
  EXPECT_TRUE(Dirty(c).empty());
  ASSERT_EQ(c.AssumePod(MakePod("p", "n2")), CacheResult::kOk);
  ASSERT_EQ(c.AssumePod(MakePod("q", "n2")), CacheResult::kOk);
  EXPECT_EQ(Dirty(c), std::vector<std::string>{"n2"});
  EXPECT_EQ(c.NodePodCount(c.FindNodeId("n2")), 2u);
  EXPECT_TRUE(c.IsAssumedPod("uid-p"));
  EXPECT_FALSE(c.IsAssumedPod(""));
  // A failed removal changes nothing.
  EXPECT_EQ(c.ForgetPod(MakePod("p", "n1")), CacheResult::kError);
  EXPECT_TRUE(Dirty(c).empty());
  ASSERT_EQ(c.ForgetPod(MakePod("p", "n2")), CacheResult::kOk);
  EXPECT_EQ(Dirty(c), std::vector<std::string>{"n2"});
  EXPECT_FALSE(c.IsAssumedPod("uid-p"));
}

}  // namespace
}  // namespace schedtrace::impl
