#include "run/informer_world.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace schedtrace {
namespace {

PodPtr MakePod(const std::string& name, const std::string& uid,
               const std::string& node = "") {
  auto p = std::make_shared<Pod>();
  p->namespace_ = "d";
  p->name = name;
  p->uid = uid;
  p->node_name = node;
  return p;
}

Step PodStep(Op op, PodPtr pod, int64_t t = 0) {
  Step s;
  s.op = op;
  s.t = t;
  s.pod = std::move(pod);
  return s;
}

Step KeyStep(Op op, const std::string& key) {
  Step s;
  s.op = op;
  s.pod_key = key;
  return s;
}

StepOut Popped(const std::string& key) {
  StepOut o;
  o.popped_present = true;
  o.popped = key;
  return o;
}

TEST(InformerWorldTest, QueuePodsInFlightWithTheCycleTheyWerePoppedIn) {
  InformerWorld w(Layer::kQueue);
  Step pop;
  pop.op = Op::kQPop;
  w.Observe(pop, Popped("d/a"));
  w.Observe(pop, Popped("d/b"));
  EXPECT_TRUE(w.InFlight("d/a"));
  EXPECT_EQ(w.PoppedCycle("d/b"), 2);
  w.Observe(KeyStep(Op::kQAddUnschedulable, "d/a"), {});
  w.Observe(PodStep(Op::kQDelete, MakePod("b", "u")), {});
  EXPECT_FALSE(w.InFlight("d/a"));
  EXPECT_FALSE(w.InFlight("d/b"));
  EXPECT_EQ(w.cycle(), 2);
  // A pop that found activeQ empty: nothing to pop until a step fills it.
  EXPECT_TRUE(w.MayHaveActive());
  StepOut none;
  none.popped_present = true;
  w.Observe(pop, none);
  EXPECT_FALSE(w.MayHaveActive());
  EXPECT_EQ(w.cycle(), 2);
  w.Observe(PodStep(Op::kQNominate, MakePod("a", "u")), {});
  EXPECT_FALSE(w.MayHaveActive());
  w.Observe(PodStep(Op::kQAdd, MakePod("a", "u")), {});
  EXPECT_TRUE(w.MayHaveActive());
}

TEST(InformerWorldTest, CacheKeysAssumedPodsByUid) {
  InformerWorld w(Layer::kCache, /*ttl_ms=*/30000);
  w.Observe(PodStep(Op::kCAssume, MakePod("a", "u1", "n")), {});
  EXPECT_TRUE(w.Assumed("d/a"));
  // Another incarnation under the same name neither confirms nor removes.
  w.Observe(PodStep(Op::kCAddPod, MakePod("a", "u2", "n")), {});
  w.Observe(PodStep(Op::kCRemovePod, MakePod("a", "u2", "n")), {});
  EXPECT_TRUE(w.Assumed("d/a"));
  // A refused call changes nothing.
  StepOut error;
  error.error = true;
  w.Observe(PodStep(Op::kCForget, MakePod("a", "u1", "n")), error);
  EXPECT_TRUE(w.Assumed("d/a"));
  // Expiry: a cleanup after FinishBinding + TTL, not at it.
  w.Observe(PodStep(Op::kCFinishBinding, MakePod("a", "u1", "n"), 1000), {});
  Step cleanup;
  cleanup.op = Op::kCCleanup;
  cleanup.t = 31000;
  w.Observe(cleanup, {});
  EXPECT_TRUE(w.Assumed("d/a"));
  cleanup.t = 31001;
  w.Observe(cleanup, {});
  EXPECT_FALSE(w.Assumed("d/a"));
  // Hostile input: an update without its old object is noted as nothing.
  Step update;
  update.op = Op::kCUpdatePod;
  update.new_pod = MakePod("b", "u3", "n");
  w.Observe(update, {});
  EXPECT_FALSE(w.Added("d/b"));
}

TEST(InformerWorldTest, SchedulerWaitingParkedAndTheNodesThatHoldPods) {
  InformerWorld w(Layer::kScheduler);
  auto cycle = [&](const std::string& key, PermitOutcome permit) {
    Step s;
    s.op = Op::kScheduleOne;
    s.permit = permit;
    StepOut o = Popped(key);
    o.result = ScheduleResult{key, "scheduled", "n1", std::nullopt};
    w.Observe(s, o);
  };
  cycle("d/w", PermitOutcome::kWait);
  cycle("d/p", PermitOutcome::kAllow);
  EXPECT_EQ(w.waiting(), std::vector<std::string>{"d/w"});
  EXPECT_EQ(w.parked(), std::vector<std::string>{"d/p"});
  EXPECT_TRUE(w.HoldsPods("n1"));
  EXPECT_FALSE(w.HoldsPods("n2"));
  // Two incarnations of one pod parked at once: a bind releases one.
  w.Observe(PodStep(Op::kPodDelete, MakePod("p", "u1")), {});
  cycle("d/p", PermitOutcome::kAllow);
  EXPECT_EQ(w.parked(), (std::vector<std::string>{"d/p", "d/p"}));
  w.Observe(KeyStep(Op::kBind, "d/p"), {});
  EXPECT_EQ(w.parked(), std::vector<std::string>{"d/p"});
  // A cycle that fails its own pod leaves another incarnation waiting.
  Step s;
  s.op = Op::kScheduleOne;
  StepOut failed = Popped("d/w");
  failed.result = ScheduleResult{"d/w", "unschedulable", "n1", std::nullopt};
  failed.events = {{"d/w", "FailedScheduling"}};
  w.Observe(s, failed);
  EXPECT_EQ(w.waiting(), std::vector<std::string>{"d/w"});
  // A rejection by another step (its delete) does not.
  StepOut rejected;
  rejected.events = {{"d/w", "FailedScheduling"}};
  w.Observe(PodStep(Op::kPodDelete, MakePod("w", "u1")), rejected);
  EXPECT_TRUE(w.waiting().empty());
  // Allowed: waiting to parked; an assigned object puts its pod on a node.
  cycle("d/x", PermitOutcome::kWait);
  w.Observe(KeyStep(Op::kPermitAllow, "d/x"), {});
  EXPECT_EQ(w.parked(), (std::vector<std::string>{"d/p", "d/x"}));
  w.Observe(PodStep(Op::kPodAdd, MakePod("y", "u1", "n2")), {});
  EXPECT_TRUE(w.HoldsPods("n2"));
}

// The boundaries a pod put back in the queue reaches: its backoff expiry
// (initial backoff doubled per attempt after the first, up to the cap) and
// the end of its time in unschedulablePods, from the header's config.
TEST(InformerWorldTest, BoundariesOfAPodPutBack) {
  Config config;
  config.pod_initial_backoff_ms = 1000;
  config.pod_max_backoff_ms = 5000;
  config.pod_max_in_unschedulable_ms = 60000;
  InformerWorld w(Layer::kQueue, config);
  EXPECT_FALSE(w.NextBoundary(0, 1000000));
  Step pop;
  pop.op = Op::kQPop;
  StepOut third = Popped("d/a");
  third.attempts = 3;
  w.Observe(pop, third);
  Step back = KeyStep(Op::kQAddUnschedulable, "d/a");
  back.t = 100;
  w.Observe(back, {});
  // 1000 ms doubled twice: 4000 ms.
  std::optional<InformerWorld::Boundary> b = w.NextBoundary(100, 10000);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->at, 4100);
  EXPECT_FALSE(b->leftover);
  // Still ahead 1 ms after it; forgotten once all three instants passed.
  EXPECT_EQ(w.NextBoundary(4100, 10000)->at, 4100);
  EXPECT_FALSE(w.NextBoundary(4101, 10000));  // the next is out of reach
  b = w.NextBoundary(4101, 100000);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->at, 60100);
  EXPECT_TRUE(b->leftover);
  // A fifth attempt is capped at 5000 ms.
  third.attempts = 5;
  w.Observe(pop, third);
  back.t = 70000;
  w.Observe(back, {});
  EXPECT_EQ(w.NextBoundary(60101, 100000)->at, 75000);
  // A refused call puts nothing back.
  StepOut refused;
  refused.error = true;
  back.t = 80000;
  w.Observe(back, refused);
  EXPECT_EQ(w.NextBoundary(75001, 100000)->at, 130000);
}

// In the scheduler layer attempts are counted from the cycles, and a
// failure (FailedScheduling) puts the pod back.
TEST(InformerWorldTest, SchedulerFailuresPutPodsBack) {
  InformerWorld w(Layer::kScheduler, Config{});
  Step cycle;
  cycle.op = Op::kScheduleOne;
  StepOut failed;
  failed.result = ScheduleResult{.pod = "d/a", .outcome = "unschedulable"};
  failed.events = {{"d/a", "FailedScheduling"}};
  cycle.t = 10;
  w.Observe(cycle, failed);
  EXPECT_EQ(w.NextBoundary(10, 400000)->at, 1010);
  cycle.t = 2000;
  w.Observe(cycle, failed);  // the second attempt: 2 s
  EXPECT_EQ(w.NextBoundary(1011, 400000)->at, 4000);
  EXPECT_EQ(w.NextBoundary(4001, 400000)->at, 300010);
}

}  // namespace
}  // namespace schedtrace
