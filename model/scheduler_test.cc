#include "model/scheduler.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace schedtrace::model {
namespace {

NodePtr MakeNode(const std::string& name, const std::string& cpu,
                 const std::string& score = "") {
  auto n = std::make_shared<Node>();
  n->name = name;
  n->uid = "uid-" + name;
  n->resource_version = "1";
  if (!score.empty()) n->labels["schedtrace.io/score"] = score;
  n->allocatable["cpu"] = *ParseQuantity(cpu);
  n->allocatable["memory"] = *ParseQuantity("1Gi");
  n->allocatable["pods"] = *ParseQuantity("10");
  return n;
}

std::shared_ptr<Pod> MakePod(const std::string& name, const std::string& cpu,
                             const std::string& rv = "1") {
  auto p = std::make_shared<Pod>();
  p->namespace_ = "ns";
  p->name = name;
  p->uid = "uid-" + name;
  p->resource_version = rv;
  p->scheduler_name = "default-scheduler";
  Container c;
  c.requests["cpu"] = *ParseQuantity(cpu);
  p->containers.push_back(c);
  return p;
}

std::vector<std::string> Keys(const std::vector<QueuedPod>& pods) {
  std::vector<std::string> keys;
  for (const QueuedPod& p : pods) keys.push_back(p.pod);
  return keys;
}

// A subset of the recorder's clusterEventMap: what the filters register.
Config TestConfig() {
  Config c;
  c.cluster_event_map = {
      {"Node", {"Add", "Update"}, {"NodeAffinity", "NodeResourcesFit"}},
      {"Pod", {"Delete"}, {"NodeResourcesFit"}},
  };
  return c;
}

class SchedulerTest : public testing::Test {
 protected:
  SchedulerTest() : s_(TestConfig()) { s_.SetNow(1000); }
  Scheduler s_;
};

TEST_F(SchedulerTest, ScoresParksBeforePreBindAndBinds) {
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n1", "2", "10")).ok());
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n2", "2", "50")).ok());
  ASSERT_TRUE(s_.OnPodAdd(MakePod("p", "1")).ok());
  s_.TakeOut();

  ASSERT_TRUE(s_.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kAllow).ok());
  StepOut out = s_.TakeOut();
  ASSERT_EQ(out.popped, "ns/p");
  ASSERT_TRUE(out.result.has_value());
  EXPECT_EQ(out.result->outcome, "scheduled");
  EXPECT_EQ(out.result->node, "n2");  // the higher TraceScore
  EXPECT_FALSE(out.result->plugins.has_value());
  EXPECT_TRUE(out.bindings.empty());  // parked before PreBind
  State st = s_.Snapshot();
  EXPECT_EQ(*st.parked, std::vector<std::string>{"ns/p"});
  EXPECT_EQ(st.cache->assumed, std::vector<std::string>{"ns/p"});

  ASSERT_TRUE(s_.Bind("ns/p", /*prebind_ok=*/true, /*bind_ok=*/true).ok());
  out = s_.TakeOut();
  ASSERT_EQ(out.bindings.size(), 1u);
  EXPECT_EQ(out.bindings[0].node, "n2");
  ASSERT_EQ(out.events.size(), 1u);
  EXPECT_EQ(out.events[0].reason, "Scheduled");
  st = s_.Snapshot();
  EXPECT_TRUE(st.parked->empty());
  EXPECT_EQ(st.cache->binding_finished, std::vector<std::string>{"ns/p"});
}

// TraceScore reads the label as strconv.Atoi: "+60" is 60, "070" is 70,
// " 90" and "+-90" are not integers (0).
TEST_F(SchedulerTest, ScoreLabelIsReadAsAtoiReadsIt) {
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n1", "2", "50")).ok());
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n2", "2", "+60")).ok());
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n3", "2", " 90")).ok());
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n4", "2", "+-90")).ok());
  ASSERT_TRUE(s_.OnPodAdd(MakePod("p", "1")).ok());
  s_.TakeOut();
  ASSERT_TRUE(s_.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kAllow).ok());
  StepOut out = s_.TakeOut();
  ASSERT_TRUE(out.result.has_value());
  EXPECT_EQ(out.result->node, "n2");

  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n5", "2", "070")).ok());
  ASSERT_TRUE(s_.OnPodAdd(MakePod("q", "1")).ok());
  s_.TakeOut();
  ASSERT_TRUE(s_.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kAllow).ok());
  out = s_.TakeOut();
  ASSERT_TRUE(out.result.has_value());
  EXPECT_EQ(out.result->node, "n5");
}

TEST_F(SchedulerTest, FitErrorRecordsPluginsAndNodeAddPrechecks) {
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n1", "1")).ok());
  ASSERT_TRUE(s_.OnPodAdd(MakePod("big", "2")).ok());
  s_.TakeOut();
  ASSERT_TRUE(s_.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kAllow).ok());
  StepOut out = s_.TakeOut();
  EXPECT_EQ(out.result->outcome, "unschedulable");
  EXPECT_FALSE(out.result->node.has_value());
  EXPECT_EQ(out.result->plugins, std::vector<std::string>{"NodeResourcesFit"});
  ASSERT_EQ(out.status_updates.size(), 1u);
  EXPECT_EQ(out.status_updates[0].reason, "Unschedulable");
  ASSERT_EQ(out.events.size(), 1u);
  EXPECT_EQ(out.events[0].reason, "FailedScheduling");
  State st = s_.Snapshot();
  ASSERT_EQ(st.queue->unschedulable.size(), 1u);
  EXPECT_EQ(st.queue->unschedulable[0].plugins,
            std::vector<std::string>{"NodeResourcesFit"});

  // preCheckForNode: a node the pod does not fit moves nothing ...
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n2", "1")).ok());
  EXPECT_EQ(Keys(s_.Snapshot().queue->unschedulable),
            std::vector<std::string>{"ns/big"});
  // ... one it fits moves it out of unschedulablePods.
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n3", "4")).ok());
  st = s_.Snapshot();
  EXPECT_TRUE(st.queue->unschedulable.empty());
  EXPECT_EQ(Keys(st.queue->backoff).size() + Keys(st.queue->active).size(), 1u);
}

TEST_F(SchedulerTest, NoNodesIsUnschedulableWithoutPlugins) {
  ASSERT_TRUE(s_.OnPodAdd(MakePod("p", "1")).ok());
  ASSERT_TRUE(s_.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kAllow).ok());
  StepOut out = s_.TakeOut();
  EXPECT_EQ(out.result->outcome, "unschedulable");
  EXPECT_FALSE(out.result->plugins.has_value());
}

TEST_F(SchedulerTest, NominatedNodeWinsOverScores) {
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n1", "2", "10")).ok());
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n2", "2", "90")).ok());
  auto pod = MakePod("p", "1");
  pod->nominated_node_name = "n1";
  ASSERT_TRUE(s_.OnPodAdd(pod).ok());
  ASSERT_TRUE(s_.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kAllow).ok());
  EXPECT_EQ(s_.TakeOut().result->node, "n1");
}

TEST_F(SchedulerTest, PermitRejectKeepsTheChosenNodeAndNoPlugins) {
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n1", "2")).ok());
  ASSERT_TRUE(s_.OnPodAdd(MakePod("p", "1")).ok());
  ASSERT_TRUE(s_.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kReject).ok());
  StepOut out = s_.TakeOut();
  EXPECT_EQ(out.result->outcome, "unschedulable");
  EXPECT_EQ(out.result->node, "n1");
  EXPECT_FALSE(out.result->plugins.has_value());
  State st = s_.Snapshot();
  EXPECT_TRUE(st.cache->assumed.empty());  // ForgetPod
  ASSERT_EQ(st.queue->unschedulable.size(), 1u);
  EXPECT_TRUE(st.queue->unschedulable[0].plugins.empty());
}

TEST_F(SchedulerTest, ReserveErrorIsASchedulerError) {
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n1", "2")).ok());
  ASSERT_TRUE(s_.OnPodAdd(MakePod("p", "1")).ok());
  ASSERT_TRUE(
      s_.ScheduleOne(ReserveOutcome::kError, PermitOutcome::kAllow).ok());
  StepOut out = s_.TakeOut();
  EXPECT_EQ(out.result->outcome, "error");
  ASSERT_EQ(out.status_updates.size(), 1u);
  EXPECT_EQ(out.status_updates[0].reason, "SchedulerError");
  EXPECT_TRUE(s_.Snapshot().cache->assumed.empty());
}

TEST_F(SchedulerTest, DeletingAWaitingPodRejectsItInTheSameStep) {
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n1", "2")).ok());
  auto pod = MakePod("p", "1");
  ASSERT_TRUE(s_.OnPodAdd(pod).ok());
  ASSERT_TRUE(s_.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kWait).ok());
  s_.TakeOut();
  EXPECT_EQ(*s_.Snapshot().waiting, std::vector<std::string>{"ns/p"});

  ASSERT_TRUE(s_.OnPodDelete(pod, /*tombstone=*/false).ok());
  StepOut out = s_.TakeOut();
  // The failure path ran: its status patch is sent though the pod is gone.
  ASSERT_EQ(out.status_updates.size(), 1u);
  EXPECT_EQ(out.status_updates[0].reason, "Unschedulable");
  State st = s_.Snapshot();
  EXPECT_TRUE(st.waiting->empty());
  EXPECT_TRUE(st.cache->assumed.empty());
  // Not in the informer any more: not put back into the queue.
  EXPECT_TRUE(st.queue->active.empty());
  EXPECT_TRUE(st.queue->backoff.empty());
  EXPECT_TRUE(st.queue->unschedulable.empty());
}

TEST_F(SchedulerTest, ParkedPodKeepsBindingAfterDeletion) {
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n1", "2")).ok());
  auto pod = MakePod("p", "1");
  ASSERT_TRUE(s_.OnPodAdd(pod).ok());
  ASSERT_TRUE(s_.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kAllow).ok());
  ASSERT_TRUE(s_.OnPodDelete(pod, /*tombstone=*/false).ok());
  s_.TakeOut();
  EXPECT_EQ(*s_.Snapshot().parked, std::vector<std::string>{"ns/p"});
  ASSERT_TRUE(s_.Bind("ns/p", true, true).ok());
  EXPECT_EQ(s_.TakeOut().bindings.size(), 1u);
}

TEST_F(SchedulerTest, WaitingPodBoundByOthersIsRejectedByTheOldObject) {
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n1", "2")).ok());
  auto pod = MakePod("p", "1");
  ASSERT_TRUE(s_.OnPodAdd(pod).ok());
  ASSERT_TRUE(s_.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kWait).ok());
  s_.TakeOut();
  auto bound = std::make_shared<Pod>(*pod);
  bound->resource_version = "2";
  bound->node_name = "n1";
  // The cache handler adds the pod (confirming the assumed one); the queue
  // handler sees old-passes/new-fails: a delete of the old object, which
  // rejects the waiting pod. ForgetPod then fails, so no move request.
  ASSERT_TRUE(s_.OnPodUpdate(pod, bound).ok());
  StepOut out = s_.TakeOut();
  ASSERT_EQ(out.events.size(), 1u);
  EXPECT_EQ(out.events[0].reason, "FailedScheduling");
  State st = s_.Snapshot();
  EXPECT_TRUE(st.waiting->empty());
  EXPECT_TRUE(st.cache->assumed.empty());
  ASSERT_EQ(st.cache->nodes.size(), 1u);
  EXPECT_EQ(st.cache->nodes[0].pods, std::vector<std::string>{"ns/p"});
  // The informer's object is assigned: not re-queued.
  EXPECT_TRUE(st.queue->unschedulable.empty());
}

TEST_F(SchedulerTest, DeletingPodIsSkippedWithAnEventOnly) {
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n1", "2")).ok());
  auto pod = MakePod("p", "1");
  pod->deletion_timestamp = "2024-01-01T00:00:00Z";
  ASSERT_TRUE(s_.OnPodAdd(pod).ok());
  ASSERT_TRUE(s_.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kAllow).ok());
  StepOut out = s_.TakeOut();
  EXPECT_EQ(out.result->outcome, "skipped");
  EXPECT_TRUE(out.status_updates.empty());
  ASSERT_EQ(out.events.size(), 1u);
  EXPECT_EQ(out.events[0].reason, "FailedScheduling");
}

TEST_F(SchedulerTest, InformerFiltersBySchedulerNameAndAssignment) {
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n1", "2")).ok());
  auto other = MakePod("other", "1");
  other->scheduler_name = "someone-else";
  ASSERT_TRUE(s_.OnPodAdd(other).ok());
  EXPECT_TRUE(s_.Snapshot().queue->active.empty());  // not ours to schedule
  auto other_bound = MakePod("other-bound", "1");
  other_bound->scheduler_name = "someone-else";
  other_bound->node_name = "n1";
  ASSERT_TRUE(s_.OnPodAdd(other_bound).ok());
  // Assigned pods of any scheduler reach the cache.
  EXPECT_EQ(s_.Snapshot().cache->nodes[0].pods,
            std::vector<std::string>{"ns/other-bound"});
}

TEST_F(SchedulerTest, ResyncUpdateIsIgnoredByTheQueue) {
  ASSERT_TRUE(s_.OnNodeAdd(MakeNode("n1", "1")).ok());
  auto pod = MakePod("p", "2");
  ASSERT_TRUE(s_.OnPodAdd(pod).ok());
  ASSERT_TRUE(s_.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kAllow).ok());
  s_.TakeOut();
  ASSERT_EQ(s_.Snapshot().queue->unschedulable.size(), 1u);
  // Same resourceVersion: a resync, the pod stays unschedulable.
  auto same = std::make_shared<Pod>(*pod);
  same->labels["x"] = "y";
  ASSERT_TRUE(s_.OnPodUpdate(pod, same).ok());
  EXPECT_EQ(s_.Snapshot().queue->unschedulable.size(), 1u);
  // A real update of the spec moves it.
  auto changed = std::make_shared<Pod>(*same);
  changed->resource_version = "2";
  changed->labels["x"] = "z";
  ASSERT_TRUE(s_.OnPodUpdate(same, changed).ok());
  EXPECT_TRUE(s_.Snapshot().queue->unschedulable.empty());
}

}  // namespace
}  // namespace schedtrace::model
