#include "core/trace.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"

namespace schedtrace {
namespace {

// The spec's op names, in the order of the Op enum.
const std::vector<std::string> kSpecOps = {"q_add",
                                           "q_update",
                                           "q_delete",
                                           "q_pop",
                                           "q_add_unschedulable",
                                           "q_activate",
                                           "q_move_all",
                                           "q_assigned_pod_added",
                                           "q_assigned_pod_updated",
                                           "q_nominate",
                                           "flush_backoff",
                                           "flush_unschedulable",
                                           "c_assume",
                                           "c_finish_binding",
                                           "c_forget",
                                           "c_add_pod",
                                           "c_update_pod",
                                           "c_remove_pod",
                                           "c_add_node",
                                           "c_update_node",
                                           "c_remove_node",
                                           "c_cleanup",
                                           "pod_add",
                                           "pod_update",
                                           "pod_delete",
                                           "node_add",
                                           "node_update",
                                           "node_delete",
                                           "cluster_event",
                                           "schedule_one",
                                           "permit_allow",
                                           "permit_reject",
                                           "bind",
                                           "q_done"};

TEST(TraceTest, LayerNames) {
  EXPECT_EQ(LayerName(Layer::kQueue), "queue");
  EXPECT_EQ(LayerName(Layer::kCache), "cache");
  EXPECT_EQ(LayerName(Layer::kScheduler), "scheduler");
}

TEST(TraceTest, OpNamesRoundTrip) {
  std::set<std::string_view> seen;
  for (size_t i = 0; i < kSpecOps.size(); ++i) {
    const Op op = static_cast<Op>(i);
    EXPECT_EQ(OpName(op), kSpecOps[i]);
    std::optional<Op> back = OpFromName(kSpecOps[i]);
    ASSERT_TRUE(back.has_value()) << kSpecOps[i];
    EXPECT_EQ(*back, op) << kSpecOps[i];
    EXPECT_TRUE(seen.insert(OpName(op)).second) << "duplicate " << OpName(op);
  }
  EXPECT_EQ(OpName(Op::kBind), "bind");
  EXPECT_EQ(static_cast<size_t>(kOpCount), kSpecOps.size());
}

TEST(TraceTest, UnknownOpNames) {
  for (std::string_view name :
       {"", "Q_ADD", "q_add ", "add", "flush", "c_update", "bind_one"}) {
    EXPECT_FALSE(OpFromName(name).has_value()) << name;
  }
}

TEST(TraceTest, OpLayers) {
  for (size_t i = 0; i < kSpecOps.size(); ++i) {
    const Op op = static_cast<Op>(i);
    const std::string& name = kSpecOps[i];
    const bool flush = name.rfind("flush_", 0) == 0;
    const bool queue = flush || name.rfind("q_", 0) == 0;
    const bool cache = name.rfind("c_", 0) == 0;
    const bool scheduler = flush || (!queue && !cache);
    EXPECT_EQ(OpInLayer(op, Layer::kQueue), queue) << name;
    EXPECT_EQ(OpInLayer(op, Layer::kCache), cache) << name;
    EXPECT_EQ(OpInLayer(op, Layer::kScheduler), scheduler) << name;
  }
  EXPECT_TRUE(OpInLayer(Op::kFlushBackoff, Layer::kScheduler));
  EXPECT_TRUE(OpInLayer(Op::kFlushUnschedulable, Layer::kQueue));
  EXPECT_FALSE(OpInLayer(Op::kQPop, Layer::kScheduler));
  EXPECT_FALSE(OpInLayer(Op::kCCleanup, Layer::kScheduler));
  EXPECT_FALSE(OpInLayer(Op::kScheduleOne, Layer::kCache));
}

}  // namespace
}  // namespace schedtrace
