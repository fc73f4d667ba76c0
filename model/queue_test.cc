// Unit tests of the queue model's tricky rules (model/queue.h), each checked
// against what upstream v1.26.7's scheduling_queue.go does.
#include "model/queue.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"

namespace schedtrace::model {
namespace {

PodPtr MakePod(const std::string& name, int32_t priority = 0,
               std::vector<std::string> gates = {}) {
  auto p = std::make_shared<Pod>();
  p->namespace_ = "ns";
  p->name = name;
  p->uid = "uid-" + name;
  p->priority = priority;
  p->scheduler_name = "default-scheduler";
  p->scheduling_gates = std::move(gates);
  return p;
}

Config TestConfig() {
  Config c;
  c.pod_initial_backoff_ms = 1000;
  c.pod_max_backoff_ms = 10000;
  c.pod_max_in_unschedulable_ms = 300000;
  return c;
}

TEST(QueueTest, PopsHigherPriorityFirstThenEarlierTimestamp) {
  PriorityQueue q(TestConfig(), nullptr);
  q.SetNow(1);
  ASSERT_TRUE(q.Add(MakePod("low", 1)).ok());
  q.SetNow(2);
  ASSERT_TRUE(q.Add(MakePod("high-late", 5)).ok());
  q.SetNow(3);
  ASSERT_TRUE(q.Add(MakePod("low-late", 1)).ok());
  EXPECT_EQ(q.Pop()->pod().name, "high-late");
  EXPECT_EQ(q.Pop()->pod().name, "low");
  EXPECT_EQ(q.Pop()->pod().name, "low-late");
  EXPECT_EQ(q.Pop(), nullptr);
}

TEST(QueueTest, PopCountsAttemptsAndCycles) {
  PriorityQueue q(TestConfig(), nullptr);
  ASSERT_TRUE(q.Add(MakePod("a")).ok());
  EXPECT_EQ(q.SchedulingCycle(), 0);
  std::shared_ptr<QueuedPodInfo> p = q.Pop();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->attempts, 1);
  EXPECT_EQ(q.SchedulingCycle(), 1);
  // An empty Pop changes nothing (the non-blocking variant).
  EXPECT_EQ(q.Pop(), nullptr);
  EXPECT_EQ(q.SchedulingCycle(), 1);
}

TEST(QueueTest, UnschedulableWithoutMoveRequestGoesToUnschedulablePods) {
  PriorityQueue q(TestConfig(), nullptr);
  ASSERT_TRUE(q.Add(MakePod("a")).ok());
  std::shared_ptr<QueuedPodInfo> p = q.Pop();
  p->unschedulable_plugins = {"NodeResourcesFit"};
  ASSERT_TRUE(q.AddUnschedulableIfNotPresent(p, q.SchedulingCycle()).ok());
  QueueState s = q.SnapshotQueue();
  EXPECT_TRUE(s.active.empty());
  EXPECT_TRUE(s.backoff.empty());
  ASSERT_EQ(s.unschedulable.size(), 1u);
  EXPECT_EQ(s.unschedulable[0].plugins,
            std::vector<std::string>{"NodeResourcesFit"});
  // moveRequestCycle starts at -1 as in NewPriorityQueue.
  EXPECT_EQ(s.move_request_cycle, -1);
}

TEST(QueueTest, MoveRequestSinceThePopSendsThePodToBackoff) {
  PriorityQueue q(TestConfig(), nullptr);
  q.SetNow(100);
  ASSERT_TRUE(q.Add(MakePod("a")).ok());
  std::shared_ptr<QueuedPodInfo> p = q.Pop();
  q.MoveAllToActiveOrBackoffQueue(ClusterEvent{"Node", "Add", "NodeAdd"},
                                  nullptr);
  q.SetNow(200);
  ASSERT_TRUE(q.AddUnschedulableIfNotPresent(p, 1).ok());
  QueueState s = q.SnapshotQueue();
  EXPECT_EQ(s.move_request_cycle, 1);
  ASSERT_EQ(s.backoff.size(), 1u);
  // One attempt: the initial backoff from the re-queue timestamp.
  EXPECT_EQ(s.backoff[0].backoff_expires_at, 1200);
}

TEST(QueueTest, BackoffDoublesAndIsCapped) {
  PriorityQueue q(TestConfig(), nullptr);
  ASSERT_TRUE(q.Add(MakePod("a")).ok());
  std::shared_ptr<QueuedPodInfo> p;
  for (int i = 0; i < 6; i++) {
    p = q.Pop();
    ASSERT_NE(p, nullptr);
    q.MoveAllToActiveOrBackoffQueue(ClusterEvent{"Node", "Add", "NodeAdd"},
                                    nullptr);
    q.SetNow(0);
    ASSERT_TRUE(q.AddUnschedulableIfNotPresent(p, q.SchedulingCycle()).ok());
    QueueState s = q.SnapshotQueue();
    ASSERT_EQ(s.backoff.size(), 1u);
    const int64_t want[] = {1000, 2000, 4000, 8000, 10000, 10000};
    EXPECT_EQ(s.backoff[0].backoff_expires_at, want[i]) << "attempt " << i;
    q.SetNow(20000 * (i + 1));
    q.flushBackoffQCompleted();
  }
}

TEST(QueueTest, AlreadyQueuedPodIsAnError) {
  PriorityQueue q(TestConfig(), nullptr);
  ASSERT_TRUE(q.Add(MakePod("a")).ok());
  std::shared_ptr<QueuedPodInfo> p = q.Pop();
  ASSERT_TRUE(q.Add(MakePod("a")).ok());  // the informer re-adds it
  EXPECT_FALSE(q.AddUnschedulableIfNotPresent(p, q.SchedulingCycle()).ok());
}

TEST(QueueTest, GatedPodWaitsInUnschedulablePods) {
  Config c = TestConfig();
  c.features["PodSchedulingReadiness"] = true;
  c.pre_enqueue_plugins["default-scheduler"] = {"SchedulingGates"};
  PriorityQueue q(c, nullptr);
  ASSERT_TRUE(q.Add(MakePod("g", 0, {"example.com/gate"})).ok());
  QueueState s = q.SnapshotQueue();
  EXPECT_TRUE(s.active.empty());
  ASSERT_EQ(s.unschedulable.size(), 1u);
  EXPECT_TRUE(s.unschedulable[0].gated);
  EXPECT_EQ(q.Pop(), nullptr);
  // Removing the gate lets the update move it to activeQ.
  ASSERT_TRUE(
      q.Update(MakePod("g", 0, {"example.com/gate"}), MakePod("g")).ok());
  std::shared_ptr<QueuedPodInfo> p = q.Pop();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->pod().name, "g");
}

TEST(QueueTest, NominatorRefusesPodsTheListerDoesNotHold) {
  PodPtr known = MakePod("known");
  PriorityQueue q(TestConfig(), [known](const std::string& key) -> PodPtr {
    return key == known->Key() ? known : nullptr;
  });
  q.AddNominatedPod(std::make_shared<PodInfo>(known),
                    NominatingInfo{NominatingMode::kOverride, "n1"});
  q.AddNominatedPod(std::make_shared<PodInfo>(MakePod("stranger")),
                    NominatingInfo{NominatingMode::kOverride, "n1"});
  ASSERT_EQ(q.NominatedPodsForNode("n1").size(), 1u);
  EXPECT_EQ(q.NominatedPodsForNode("n1")[0]->pod->name, "known");
  q.DeleteNominatedPodIfExists(known);
  EXPECT_TRUE(q.NominatedPodsForNode("n1").empty());
}

}  // namespace
}  // namespace schedtrace::model
