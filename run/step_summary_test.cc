#include "run/step_summary.h"

#include <memory>
#include <string>
#include <vector>

#include "core/codec.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

// The steps of a trace of `layer` written as JSON lines.
std::vector<Step> Steps(const std::string& layer, const std::string& lines) {
  absl::StatusOr<Trace> t = ParseTrace(
      R"({"schedtrace":1,"name":"t","layer":")" + layer + "\"}\n" + lines,
      "t.jsonl");
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? t->steps : std::vector<Step>{};
}

TEST(StepSummaryTest, APodShowsOnlyTheFieldsThatAreSet) {
  std::vector<Step> s = Steps("cache", R"(
{"t":1,"op":"c_add_pod","pod":{"metadata":{"namespace":"d","name":"p"}}}
{"t":2,"op":"c_add_pod","pod":{"metadata":{"namespace":"d","name":"q","uid":"u1","resourceVersion":"7"},"spec":{"priority":10,"nodeName":"n1","schedulerName":"other","schedulingGates":[{"name":"g1"},{"name":"g2"}],"nodeSelector":{"zone":"a","disk":"ssd"},"tolerations":[{"key":"k","operator":"Exists"}],"containers":[{"name":"c","resources":{"requests":{"cpu":"250m","memory":"1Mi"}}}]},"status":{"nominatedNodeName":"n2"}}}
{"t":3,"op":"c_add_pod","pod":{"metadata":{"namespace":"d","name":"r","deletionTimestamp":"2023-01-01T00:00:07Z"},"spec":{"schedulerName":"default-scheduler","priority":0}}}
)");
  ASSERT_EQ(s.size(), 3);
  EXPECT_EQ(StepSummary(s[0]), "c_add_pod d/p");
  // resourceVersion only on updates; requests as the trace writes them.
  EXPECT_EQ(StepSummary(s[1]),
            "c_add_pod d/q(uid=u1 priority=10 scheduler=other nodeName=n1 "
            "nominated=n2 gates=g1,g2 requests=cpu:250m,memory:1Mi "
            "selector=disk=ssd,zone=a tolerations=1)");
  // A priority written as 0 is set; the default scheduler is not shown.
  EXPECT_EQ(StepSummary(s[2]), "c_add_pod d/r(priority=0 deleting)");
}

TEST(StepSummaryTest, AnUpdateShowsBothSides) {
  std::vector<Step> s = Steps("queue", R"(
{"t":1,"op":"q_update","old":{"metadata":{"namespace":"d","name":"p","resourceVersion":"1"}},"new":{"metadata":{"namespace":"d","name":"p","resourceVersion":"2"},"spec":{"schedulingGates":[{"name":"g"}]}}}
{"t":2,"op":"q_update","new":{"metadata":{"namespace":"d","name":"p"}}}
{"t":3,"op":"q_update","old":{"metadata":{"namespace":"d","name":"p","resourceVersion":"3"}},"new":{"metadata":{"namespace":"d","name":"p"}}}
{"t":4,"op":"q_update","old":{"metadata":{"namespace":"d","name":"p","uid":"u"},"spec":{"priority":2,"schedulingGates":[{"name":"g"}]}},"new":{"metadata":{"namespace":"d","name":"p","uid":"u","resourceVersion":"5"},"spec":{"priority":3}}}
{"t":5,"op":"q_update","old":{"metadata":{"namespace":"d","name":"p","uid":"u","resourceVersion":"5"}},"new":{"metadata":{"namespace":"d","name":"p","uid":"u","resourceVersion":"5"}}}
)");
  ASSERT_EQ(s.size(), 5);
  EXPECT_EQ(StepSummary(s[0]), "q_update d/p(rv=1) -> (rv=2 gates=g)");
  EXPECT_EQ(StepSummary(s[1]), "q_update nil -> d/p");
  EXPECT_EQ(StepSummary(s[2]), "q_update d/p(rv=3) -> (-rv)");
  EXPECT_EQ(
      StepSummary(s[3]),
      "q_update d/p(uid=u priority=2 gates=g) -> (rv=5 priority=3 -gates)");
  EXPECT_EQ(StepSummary(s[4]), "q_update d/p(uid=u rv=5) -> (same)");
}

TEST(StepSummaryTest, NodesAndTheOtherArguments) {
  std::vector<Step> s = Steps("scheduler", R"(
{"t":1,"op":"node_add","node":{"metadata":{"name":"n1","labels":{"schedtrace.io/score":"5","x":"y"}},"spec":{"unschedulable":true,"taints":[{"key":"k","value":"v","effect":"NoSchedule"},{"key":"e","effect":"NoExecute"}]},"status":{"allocatable":{"cpu":"2","pods":"110"}}}}
{"t":2,"op":"node_update","old":{"metadata":{"name":"n1","resourceVersion":"1"}},"new":{"metadata":{"name":"n1","resourceVersion":"2"},"spec":{"unschedulable":true}}}
{"t":3,"op":"schedule_one","reserve":"error","permit":"wait"}
{"t":4,"op":"bind","pod":"d/p","prebind":"error","bind":"error"}
{"t":5,"op":"pod_delete","pod":{"metadata":{"namespace":"d","name":"p"}},"tombstone":true}
{"t":6,"op":"cluster_event","resource":"StorageClass","action":"Add","waitForFirstConsumer":true}
)");
  ASSERT_EQ(s.size(), 6);
  EXPECT_EQ(StepSummary(s[0]),
            "node_add node n1(allocatable=cpu:2,pods:110 unschedulable "
            "taints=k=v:NoSchedule,e:NoExecute score=5)");
  EXPECT_EQ(StepSummary(s[1]),
            "node_update node n1(rv=1) -> (rv=2 unschedulable)");
  EXPECT_EQ(StepSummary(s[2]), "schedule_one reserve=error permit=wait");
  EXPECT_EQ(StepSummary(s[3]), "bind d/p prebind=fail bind=fail");
  EXPECT_EQ(StepSummary(s[4]), "pod_delete d/p tombstone");
  EXPECT_EQ(StepSummary(s[5]),
            "cluster_event StorageClass/Add waitForFirstConsumer");
}

TEST(StepSummaryTest, QueueArguments) {
  std::vector<Step> s = Steps("queue", R"(
{"t":1,"op":"q_add","pod":{"metadata":{"namespace":"d","name":"p"}}}
{"t":2,"op":"q_add_unschedulable","pod":"d/p","plugins":["B","A"],"cycle":3}
{"t":3,"op":"q_move_all","event":{"resource":"Node","action":"Add"},"precheck":["d/p","d/q"]}
{"t":4,"op":"q_activate","pods":["d/q","d/p"]}
{"t":5,"op":"q_nominate","pod":{"metadata":{"namespace":"d","name":"p"}},"node":""}
{"t":6,"op":"q_nominate","pod":{"metadata":{"namespace":"d","name":"p"}},"node":"n1"}
)");
  ASSERT_EQ(s.size(), 6);
  EXPECT_EQ(StepSummary(s[1]), "q_add_unschedulable d/p [B, A] cycle=3");
  EXPECT_EQ(StepSummary(s[2]), "q_move_all Node/Add precheck=[d/p,d/q]");
  // q_activate names keys; the objects they resolve to are not arguments.
  EXPECT_EQ(StepSummary(s[3]), "q_activate d/q d/p");
  EXPECT_EQ(StepSummary(s[4]), "q_nominate d/p on \"\"");
  EXPECT_EQ(StepSummary(s[5]), "q_nominate d/p on n1");
  EXPECT_EQ(StepLine(s[1], 2),
            "step 2 t=2: q_add_unschedulable d/p [B, A] "
            "cycle=3");
  EXPECT_EQ(StepPodKeys(s[3]), (std::vector<std::string>{"d/q", "d/p"}));
}

TEST(StepSummaryTest, AStepBuiltInCodeWithoutObjects) {
  Step step;
  step.op = Op::kQPop;
  step.t = 42;
  EXPECT_EQ(StepSummary(step), "q_pop");
  EXPECT_EQ(StepLine(step, 9), "step 9 t=42: q_pop");
}

}  // namespace
}  // namespace schedtrace
