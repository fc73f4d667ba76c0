// Unit tests of impl::Scheduler's tricky rules: the host among ties (node
// tree order), scores outside [0, 100], nominated pods counted against a
// node, the FitError's plugin union, the nominated-node-first path, and the
// snapshot keeping a node whose deletion the node tree missed.
#include "impl/scheduler.h"

#include <memory>
#include <string>
#include <vector>

#include "core/quantity.h"
#include "gtest/gtest.h"
#include "impl/scheduler_test_util.h"
#include "impl/system.h"
#include "model/system.h"

namespace schedtrace::impl {
namespace {

NodePtr MakeNode(const std::string& name, const std::string& zone,
                 const std::string& score, const char* cpu = "1") {
  auto n = std::make_shared<Node>();
  n->name = name;
  n->labels["topology.kubernetes.io/zone"] = zone;
  n->labels["schedtrace.io/score"] = score;
  n->allocatable = {{"cpu", Q(cpu)}, {"pods", Q("10")}};
  return n;
}

Config TestConfig() {
  Config c;
  c.cluster_event_map = {{"Node", {"Add", "Update"}, {"NodeResourcesFit"}}};
  return c;
}

TEST(SchedulerTest, TiesGoToTheFirstNodeInZoneRoundRobinOrder) {
  // Tree order: a1, b1, a2. a1 is too small, so b1 (added after a2) wins
  // the tie at score 50.
  Scheduler s(TestConfig());
  StepOut out =
      ScheduleOn(s,
                 {MakeNode("a1", "a", "50", "100m"), MakeNode("a2", "a", "50"),
                  MakeNode("b1", "b", "50")},
                 MakePod("p", "500m"));
  ASSERT_TRUE(out.result.has_value());
  EXPECT_EQ(out.result->outcome, "scheduled");
  EXPECT_EQ(out.result->node, "b1");
}

TEST(SchedulerTest, TheHighestScoreWinsWhateverTheOrder) {
  Scheduler s(TestConfig());
  StepOut out =
      ScheduleOn(s,
                 {MakeNode("a1", "a", "10"), MakeNode("b1", "b", "90"),
                  MakeNode("a2", "a", "95", "100m"), MakeNode("c1", "c", "30")},
                 MakePod("p", "500m"));
  EXPECT_EQ(out.result->node, "b1");
}

// TraceScore reads the label as strconv.Atoi: a sign and leading zeros are
// taken, blanks and a second sign are not (0).
TEST(SchedulerTest, TheScoreLabelIsReadAsAtoiReadsIt) {
  Scheduler s(TestConfig());
  StepOut out =
      ScheduleOn(s,
                 {MakeNode("a1", "a", "50"), MakeNode("b1", "b", "+60"),
                  MakeNode("c1", "c", " 90"), MakeNode("d1", "d", "+-90")},
                 MakePod("p", "100m"));
  EXPECT_EQ(out.result->node, "b1");
  Scheduler t(TestConfig());
  out = ScheduleOn(t, {MakeNode("a1", "a", "50"), MakeNode("b1", "b", "070")},
                   MakePod("p", "100m"));
  EXPECT_EQ(out.result->node, "b1");
  Scheduler u(TestConfig());
  out = ScheduleOn(u, {MakeNode("a1", "a", "5"), MakeNode("b1", "b", "+101")},
                   MakePod("p", "100m"));
  EXPECT_EQ(out.result->outcome, "error");
}

TEST(SchedulerTest, AScoreOutsideZeroToHundredIsAnErrorWithTwoFeasibleNodes) {
  Scheduler s(TestConfig());
  StepOut out =
      ScheduleOn(s, {MakeNode("a1", "a", "101"), MakeNode("b1", "b", "5")},
                 MakePod("p", "100m"));
  EXPECT_EQ(out.result->outcome, "error");
  EXPECT_FALSE(out.result->node.has_value());
  ASSERT_EQ(out.status_updates.size(), 1u);
  EXPECT_EQ(out.status_updates[0].reason, "SchedulerError");
}

TEST(SchedulerTest, AScoreOutsideZeroToHundredIsNotScoredForOneFeasibleNode) {
  // upstream: prioritizeNodes is skipped when one node is feasible.
  Scheduler s(TestConfig());
  StepOut out = ScheduleOn(
      s, {MakeNode("a1", "a", "-7"), MakeNode("b1", "b", "5", "100m")},
      MakePod("p", "500m"));
  EXPECT_EQ(out.result->outcome, "scheduled");
  EXPECT_EQ(out.result->node, "a1");
}

TEST(SchedulerTest, NominatedPodsOfEqualOrHigherPriorityCountAgainstANode) {
  for (int32_t priority : {5, 10, 20}) {
    Scheduler s(TestConfig());
    s.SetNow(1);
    ASSERT_TRUE(s.OnNodeAdd(MakeNode("n1", "a", "50")));
    // q (priority 10) is nominated to n1 and waits gated in
    // unschedulablePods... here simply held by the nominator after its add.
    PodPtr q = MakePod("q", "600m", 10, "n1");
    s.SetNow(2);
    ASSERT_TRUE(s.OnPodAdd(q));
    // p is added after q, but with a higher priority it pops first.
    PodPtr p = MakePod("p", "600m", priority);
    s.SetNow(3);
    ASSERT_TRUE(s.OnPodAdd(p));
    s.TakeOut();
    s.SetNow(4);
    ASSERT_TRUE(s.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kWait));
    StepOut out = s.TakeOut();
    ASSERT_TRUE(out.result.has_value());
    if (priority == 20) {
      EXPECT_EQ(out.result->pod, "ns/p");
      EXPECT_EQ(out.result->outcome, "scheduled") << priority;
    } else {
      // q pops first (priority 10 >= p's); it is not counted against itself.
      EXPECT_EQ(out.result->pod, "ns/q");
      EXPECT_EQ(out.result->outcome, "scheduled");
      s.SetNow(5);
      ASSERT_TRUE(s.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kWait));
      out = s.TakeOut();
      EXPECT_EQ(out.result->pod, "ns/p");
      EXPECT_EQ(out.result->outcome, "unschedulable");
      EXPECT_EQ(out.result->plugins,
                std::vector<std::string>{"NodeResourcesFit"});
    }
  }
}

TEST(SchedulerTest, ALowerPriorityNominatedPodDoesNotCount) {
  Scheduler s(TestConfig());
  s.SetNow(1);
  ASSERT_TRUE(s.OnNodeAdd(MakeNode("n1", "a", "50")));
  s.SetNow(2);
  ASSERT_TRUE(s.OnPodAdd(MakePod("p", "600m", 10)));
  s.SetNow(3);
  ASSERT_TRUE(s.OnPodAdd(MakePod("q", "600m", 1, "n1")));  // nominated
  s.TakeOut();
  s.SetNow(4);
  ASSERT_TRUE(s.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kWait));
  StepOut out = s.TakeOut();
  EXPECT_EQ(out.result->pod, "ns/p");
  EXPECT_EQ(out.result->outcome, "scheduled");
  EXPECT_EQ(s.Snapshot().nominated->at("n1"), std::vector<std::string>{"ns/q"});
}

TEST(SchedulerTest, AFitErrorListsTheFirstFailingPluginOfEveryNode) {
  Scheduler s(TestConfig());
  auto tainted = std::make_shared<Node>(*MakeNode("t1", "a", "50"));
  tainted->taints.push_back({"dedicated", "x", "NoSchedule"});
  auto cordoned = std::make_shared<Node>(*MakeNode("u1", "b", "50", "100m"));
  cordoned->unschedulable = true;  // too small as well: the first plugin wins
  StepOut out =
      ScheduleOn(s, {tainted, cordoned, MakeNode("s1", "c", "50", "100m")},
                 MakePod("p", "500m"));
  EXPECT_EQ(out.result->outcome, "unschedulable");
  EXPECT_EQ(out.result->plugins,
            (std::vector<std::string>{"NodeResourcesFit", "NodeUnschedulable",
                                      "TaintToleration"}));
  State st = s.Snapshot();
  ASSERT_EQ(st.queue->unschedulable.size(), 1u);
  EXPECT_EQ(st.queue->unschedulable[0].plugins, out.result->plugins);
  // upstream: the failure nominates the pod to "" (a nil NominatingInfo
  // keeps its empty nominatedNodeName: no entry).
  EXPECT_TRUE(st.nominated->empty());
}

TEST(SchedulerTest, TheNominatedNodeIsTriedFirstEvenWithALowerScore) {
  Scheduler s(TestConfig());
  StepOut out =
      ScheduleOn(s, {MakeNode("a1", "a", "90"), MakeNode("b1", "b", "10")},
                 MakePod("p", "100m", 0, "b1"));
  EXPECT_EQ(out.result->node, "b1");
}

// Runs the same steps on the model and on impl, comparing every out and
// state.
void ExpectSameAsModel(const Config& config, const std::vector<Step>& steps) {
  TraceHeader header;
  header.layer = Layer::kScheduler;
  header.config = config;
  std::unique_ptr<System> model = model::NewSystem();
  std::unique_ptr<System> impl = NewSystem();
  ASSERT_TRUE(model->Configure(header).ok());
  ASSERT_TRUE(impl->Configure(header).ok());
  for (size_t i = 0; i < steps.size(); ++i) {
    absl::StatusOr<StepOut> want = model->Apply(steps[i]);
    absl::StatusOr<StepOut> got = impl->Apply(steps[i]);
    ASSERT_TRUE(want.ok() && got.ok()) << i;
    EXPECT_EQ(*got, *want) << "step " << i;
    EXPECT_EQ(impl->Snapshot(), model->Snapshot()) << "step " << i;
  }
}

TEST(SchedulerTest, ANodeDeletionTheTreeMissesLeavesTheNodeInTheSnapshot) {
  // upstream: RemoveNode with a stale zone fails in the node tree; the
  // snapshot's map and list keep the node, so pods are still placed there.
  NodePtr n1 = MakeNode("n1", "a", "90");
  NodePtr n1_elsewhere = MakeNode("n1", "z", "90");
  NodePtr n2 = MakeNode("n2", "b", "10");
  std::vector<Step> steps;
  int64_t t = 0;
  auto add = [&](Op op, auto fill) {
    Step s;
    s.t = ++t;
    s.op = op;
    fill(s);
    steps.push_back(std::move(s));
  };
  add(Op::kNodeAdd, [&](Step& s) { s.node = n1; });
  add(Op::kNodeAdd, [&](Step& s) { s.node = n2; });
  add(Op::kPodAdd, [&](Step& s) { s.pod = MakePod("a", "100m"); });
  add(Op::kScheduleOne, [](Step&) {});
  add(Op::kNodeDelete, [&](Step& s) { s.node = n1_elsewhere; });
  add(Op::kPodAdd, [&](Step& s) { s.pod = MakePod("b", "100m"); });
  add(Op::kScheduleOne, [](Step&) {});
  add(Op::kNodeDelete, [&](Step& s) { s.node = n2; });
  add(Op::kPodAdd, [&](Step& s) { s.pod = MakePod("c", "100m"); });
  add(Op::kScheduleOne, [](Step&) {});
  ExpectSameAsModel(TestConfig(), steps);

  Scheduler s(TestConfig());
  std::vector<std::string> outcomes;
  for (const Step& step : steps) {
    s.SetNow(step.t);
    if (step.op == Op::kNodeAdd) s.OnNodeAdd(step.node);
    if (step.op == Op::kNodeDelete) s.OnNodeDelete(step.node);
    if (step.op == Op::kPodAdd) s.OnPodAdd(step.pod);
    if (step.op == Op::kScheduleOne) {
      s.TakeOut();
      s.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kAllow);
      StepOut out = s.TakeOut();
      outcomes.push_back(out.result->outcome + ":" +
                         out.result->node.value_or("-"));
    }
  }
  // The deleted n1 still takes b. Once n2 is deleted as well, the snapshot
  // drops one of the two nodes without a node object (upstream: a random
  // one of the Go map; the model: by name, n1) while the tree still holds
  // n1: "snapshot state is not consistent", a SchedulerError.
  EXPECT_EQ(outcomes, (std::vector<std::string>{"scheduled:n1", "scheduled:n1",
                                                "error:-"}));
}

TEST(SchedulerTest, ARejectedWaitingPodRunsTheFailurePathInTheStep) {
  Scheduler s(TestConfig());
  StepOut out =
      ScheduleOn(s, {MakeNode("n1", "a", "50")}, MakePod("p", "100m"));
  EXPECT_EQ(out.result->outcome, "scheduled");
  EXPECT_EQ(s.Snapshot().waiting, std::vector<std::string>{"ns/p"});
  EXPECT_EQ(s.Snapshot().cache->assumed, std::vector<std::string>{"ns/p"});
  s.SetNow(100);
  ASSERT_TRUE(s.PermitReject("ns/p"));
  out = s.TakeOut();
  ASSERT_EQ(out.status_updates.size(), 1u);
  EXPECT_EQ(out.status_updates[0].reason, "Unschedulable");
  State st = s.Snapshot();
  EXPECT_TRUE(st.waiting->empty());
  EXPECT_TRUE(st.cache->assumed.empty());
  ASSERT_EQ(st.queue->unschedulable.size(), 1u);
  EXPECT_EQ(st.queue->unschedulable[0].pod, "ns/p");
  // upstream: clearNominatedNode nominates the pod to "".
  EXPECT_EQ(st.nominated->at(""), std::vector<std::string>{"ns/p"});
}

}  // namespace
}  // namespace schedtrace::impl
