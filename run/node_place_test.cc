#include "run/node_place.h"

#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "run/side_nodes.h"

namespace schedtrace {
namespace {

using ::testing::ElementsAre;

State CacheOf(std::vector<NodeInfoState> nodes,
              std::vector<std::string> assumed,
              std::vector<std::string> finished) {
  State s;
  s.cache =
      CacheState{std::move(nodes), std::move(assumed), std::move(finished)};
  return s;
}

TEST(NodePlaceInTest, PresentOrPlaceholderWithItsPods) {
  State s = CacheOf({{"n1", true, {"d/a", "d/b", "d/c"}, {{"cpu", 300}}},
                     {"n2", false, {"d/x"}, {}}},
                    {"d/a", "d/b"}, {"d/a"});
  NodePlace n1 = NodePlaceIn(s, "n1", {}, {{"d/a", 30400}});
  EXPECT_EQ(n1.where, "present");
  EXPECT_TRUE(n1.held);
  EXPECT_THAT(n1.pods,
              ElementsAre("d/a (assumed, binding finished, deadline t=30400)",
                          "d/b (assumed, binding not finished)", "d/c"));
  EXPECT_EQ(FormatNodePlace(n1),
            "present; requested cpu:300; pods d/a (assumed, binding "
            "finished, deadline t=30400), d/b (assumed, binding not "
            "finished), d/c");
  NodePlace n2 = NodePlaceIn(s, "n2", {}, {});
  EXPECT_EQ(FormatNodePlace(n2), "placeholder; requested nothing; pods d/x");
  EXPECT_EQ(NodePlaceIn(s, "n3", {}, {}).where, "not in the cache");
  // A ttl of 0: the pod never expires.
  EXPECT_EQ(NodePlaceIn(s, "n1", {}, {{"d/a", std::nullopt}}).pods[0],
            "d/a (assumed, binding finished, never expires (ttl 0))");
  // What a side does not show is not said.
  NodePlace unshown = NodePlaceIn(s, "n1", {"cache.assumed"}, {});
  EXPECT_THAT(unshown.pods,
              ElementsAre("d/a (binding finished)", "d/b", "d/c"));
  EXPECT_EQ(NodePlaceIn(s, "n1", {"cache.nodes"}, {}).where,
            "cache.nodes not shown");
  EXPECT_EQ(NodePlaceIn(State{}, "n1", {}, {}).where, "?");
}

Step NodeStep(Op op, int64_t t, const std::string& node) {
  Step step;
  step.op = op;
  step.t = t;
  auto n = std::make_shared<Node>();
  n->name = node;
  step.node = n;
  return step;
}

Step PodStep(Op op, int64_t t, const std::string& name,
             const std::string& node) {
  Step step;
  step.op = op;
  step.t = t;
  auto p = std::make_shared<Pod>();
  p->namespace_ = "d";
  p->name = name;
  p->node_name = node;
  step.pod = p;
  return step;
}

TEST(SideNodesTest, PlaceholdersRemovalsAndDeadlines) {
  const std::vector<std::string> nodes = {"n1", "n2"};
  SideNodes side(nodes, /*ttl_ms=*/30000);
  State s = CacheOf({{"n1", false, {"d/a"}, {{"cpu", 100}}}}, {"d/a"}, {});
  auto p = side.After(1, PodStep(Op::kCAssume, 100, "a", "n1"), false, &s, {});
  EXPECT_EQ(FormatNodePlace(p["n1"]),
            "placeholder; requested cpu:100; pods d/a (assumed, binding not "
            "finished); never added: only its pods point at it");
  EXPECT_EQ(p["n2"].where, "not added yet");

  s = CacheOf({{"n1", true, {"d/a"}, {{"cpu", 100}}}}, {"d/a"}, {"d/a"});
  side.After(2, NodeStep(Op::kCAddNode, 200, "n1"), false, &s, {});
  p = side.After(3, PodStep(Op::kCFinishBinding, 400, "a", "n1"), false, &s,
                 {});
  EXPECT_EQ(p["n1"].pods[0],
            "d/a (assumed, binding finished, deadline t=30400)");
  // A later step does not move the deadline; a second FinishBinding does.
  p = side.After(4, NodeStep(Op::kCUpdateNode, 500, "n1"), false, &s, {});
  EXPECT_EQ(p["n1"].pods[0],
            "d/a (assumed, binding finished, deadline t=30400)");
  p = side.After(5, PodStep(Op::kCFinishBinding, 900, "a", "n1"), false, &s,
                 {});
  EXPECT_EQ(p["n1"].pods[0],
            "d/a (assumed, binding finished, deadline t=30900)");

  // A removal refused: the node stays, and says so.
  p = side.After(6, NodeStep(Op::kCRemoveNode, 1000, "n1"), true, &s, {});
  EXPECT_EQ(p["n1"].where, "present");
  EXPECT_EQ(p["n1"].note,
            "its removal at step 6 was refused (error): the node stays");
  // Removed while pods remain: a placeholder; then gone.
  s = CacheOf({{"n1", false, {"d/a"}, {{"cpu", 100}}}}, {"d/a"}, {"d/a"});
  p = side.After(7, NodeStep(Op::kCRemoveNode, 1100, "n1"), false, &s, {});
  EXPECT_EQ(p["n1"].where, "placeholder");
  EXPECT_EQ(p["n1"].note, "removed at step 7 while pods remained");
  s = CacheOf({}, {}, {});
  p = side.After(8, PodStep(Op::kCForget, 1200, "a", "n1"), false, &s, {});
  EXPECT_EQ(p["n1"].where, "removed at step 7");
}

TEST(SideNodesTest, ATtlThatWrapsToZeroNeverExpires) {
  const std::vector<std::string> nodes = {"n1"};
  // 2^58 ms is 2^58 * 10^6 ns, a multiple of 2^64: as Go's Duration, 0.
  SideNodes zero(nodes, int64_t{1} << 58);
  State s = CacheOf({{"n1", true, {"d/a"}, {}}}, {"d/a"}, {"d/a"});
  auto p = zero.After(1, PodStep(Op::kCFinishBinding, 100, "a", "n1"), false,
                      &s, {});
  EXPECT_EQ(p["n1"].pods[0],
            "d/a (assumed, binding finished, never expires (ttl 0))");
  // A side kept for comparing says no deadline.
  SideNodes compared(nodes, 30000, /*deadlines=*/false);
  p = compared.After(1, PodStep(Op::kCFinishBinding, 100, "a", "n1"), false, &s,
                     {});
  EXPECT_EQ(p["n1"].pods[0], "d/a (assumed, binding finished)");
}

}  // namespace
}  // namespace schedtrace
