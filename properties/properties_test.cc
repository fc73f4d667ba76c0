#include "properties/properties.h"

#include <memory>

#include "gtest/gtest.h"
#include "properties/checker.h"
#include "properties/known_violations.h"

namespace schedtrace::properties {
namespace {

TraceHeader Header(Layer layer) {
  TraceHeader h;
  h.layer = layer;
  h.config.pre_enqueue_plugins["default-scheduler"] = {"SchedulingGates"};
  return h;
}

PodPtr MakePod(const std::string& name, int32_t priority = 0,
               const std::string& node = "") {
  auto p = std::make_shared<Pod>();
  p->namespace_ = "default";
  p->name = name;
  p->uid = "uid-" + name;
  p->scheduler_name = "default-scheduler";
  p->priority = priority;
  p->node_name = node;
  return p;
}

State Queues(std::vector<std::string> active, std::vector<std::string> backoff,
             std::vector<std::string> unschedulable) {
  State s;
  s.queue = QueueState{};
  for (auto& k : active) s.queue->active.push_back({k, 0});
  for (auto& k : backoff) s.queue->backoff.push_back({k, 1, 1000});
  for (auto& k : unschedulable) s.queue->unschedulable.push_back({k, 1});
  s.queue->move_request_cycle = -1;
  s.nominated = Nominated{};
  return s;
}

State SchedulerState(std::vector<std::string> active) {
  State s = Queues(std::move(active), {}, {});
  s.cache = CacheState{};
  s.waiting = std::vector<std::string>{};
  s.parked = std::vector<std::string>{};
  return s;
}

// Runs one property on one step, with a history fed `prior` steps first.
struct Harness {
  explicit Harness(Layer layer) : history(Header(layer)) {}
  void Feed(const Step& step, const StepOut& out = {},
            const State& before = {}) {
    history.Observe(before, step, out);
  }
  // Feeds `step` with both states, so that History follows the queue.
  void Apply(const State& before, const Step& step, const StepOut& out,
             const State& after) {
    history.Observe(before, step, out, &after);
  }
  std::vector<Violation> Run(PropertyCheck check, const State& before,
                             const Step& step, const StepOut& out,
                             const State& after) {
    history.Observe(before, step, out, &after);
    return check(Observation{before, step, out, after, history});
  }
  History history;
};

PodPtr WithUid(PodPtr pod, const std::string& uid) {
  auto p = std::make_shared<Pod>(*pod);
  p->uid = uid;
  return p;
}

Step OpStep(Op op) {
  Step s;
  s.op = op;
  return s;
}

StepOut Popped(const std::string& key) {
  StepOut out;
  out.popped_present = true;
  out.popped = key;
  return out;
}

Step PodStep(Op op, PodPtr pod, int64_t t = 100) {
  Step s;
  s.op = op;
  s.t = t;
  if (op == Op::kPodUpdate || op == Op::kQUpdate) {
    s.new_pod = pod;
  } else {
    s.pod = pod;
  }
  return s;
}

TEST(NoPodInTwoQueuesTest, HoldsForDisjointQueuesAndFiresOnOverlap) {
  Harness h(Layer::kQueue);
  Step step = PodStep(Op::kFlushBackoff, nullptr);
  State ok = Queues({"default/a"}, {"default/b"}, {"default/c"});
  EXPECT_TRUE(h.Run(&NoPodInTwoQueues, ok, step, {}, ok).empty());
  State bad = Queues({"default/a"}, {"default/a"}, {});
  auto v = h.Run(&NoPodInTwoQueues, ok, step, {}, bad);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].property, 1);
  EXPECT_EQ(v[0].pods, std::vector<std::string>{"default/a"});
  EXPECT_NE(v[0].Format().find("no pod in two queues"), std::string::npos);
}

TEST(AssumedPodsNeverRequeuedTest, FiresWhenAnAssumedPodIsQueued) {
  Harness h(Layer::kScheduler);
  State before = SchedulerState({});
  before.cache->assumed = {"default/a"};
  State after = SchedulerState({"default/a"});
  after.cache->assumed = {"default/a"};
  Step step = PodStep(Op::kPodUpdate, MakePod("a"));
  EXPECT_EQ(h.Run(&AssumedPodsNeverRequeued, before, step, {}, after).size(),
            1u);
  // Forgotten in the same step: requeueing is fine.
  after.cache->assumed.clear();
  EXPECT_TRUE(
      h.Run(&AssumedPodsNeverRequeued, before, step, {}, after).empty());
}

TEST(BoundPodsLeaveTheQueueTest, FiresWhenABoundPodStaysQueued) {
  Harness h(Layer::kScheduler);
  Step step = PodStep(Op::kPodUpdate, MakePod("a", 0, "n1"));
  State after = SchedulerState({"default/a"});
  EXPECT_EQ(h.Run(&BoundPodsLeaveTheQueue, after, step, {}, after).size(), 1u);
  State gone = SchedulerState({});
  EXPECT_TRUE(h.Run(&BoundPodsLeaveTheQueue, after, step, {}, gone).empty());
  // An unassigned delivery says nothing.
  Step pending = PodStep(Op::kPodUpdate, MakePod("a"));
  EXPECT_TRUE(
      h.Run(&BoundPodsLeaveTheQueue, after, pending, {}, after).empty());
}

TEST(DeletedWaitingPodsAreRejectedTest, FiresWhileStillWaitingAndOnLaterBind) {
  Harness h(Layer::kScheduler);
  State before = SchedulerState({});
  before.waiting = std::vector<std::string>{"default/w"};
  before.cache->assumed = {"default/w"};
  Step del = PodStep(Op::kPodDelete, MakePod("w"));
  auto v = h.Run(&DeletedWaitingPodsAreRejected, before, del, {}, before);
  EXPECT_EQ(v.size(), 2u);  // still waiting and still assumed
  State clean = SchedulerState({});
  EXPECT_TRUE(
      h.Run(&DeletedWaitingPodsAreRejected, before, del, {}, clean).empty());
  StepOut bound;
  bound.bindings.push_back({"default/w", "n1"});
  Step bind;
  bind.op = Op::kBind;
  bind.pod_key = "default/w";
  EXPECT_EQ(
      h.Run(&DeletedWaitingPodsAreRejected, clean, bind, bound, clean).size(),
      1u);
}

// docs/UPSTREAM.md item 28: the delete of a new uid misses the old uid waiting
// on Permit. The registry names it; a waiting pod deleted under its own uid is
// a failure.
TEST(DeletedWaitingPodsAreRejectedTest, RecreatedUidIsKnownOwnUidIsNot) {
  for (bool recreated : {true, false}) {
    SCOPED_TRACE(recreated ? "recreated" : "same uid");
    Harness h(Layer::kScheduler);
    State empty = SchedulerState({});
    h.Apply(empty, PodStep(Op::kPodAdd, MakePod("w")), {},
            SchedulerState({"default/w"}));
    StepOut scheduled = Popped("default/w");
    scheduled.result = ScheduleResult{};
    scheduled.result->pod = "default/w";
    scheduled.result->node = "n1";
    State waiting = SchedulerState({});
    waiting.waiting = std::vector<std::string>{"default/w"};
    waiting.cache->assumed = {"default/w"};
    h.Apply(SchedulerState({"default/w"}), OpStep(Op::kScheduleOne), scheduled,
            waiting);
    PodPtr deleted = MakePod("w");
    if (recreated) {
      deleted = WithUid(MakePod("w"), "uid-w-2");
      Step update = PodStep(Op::kPodUpdate, deleted);
      update.old_pod = MakePod("w");
      h.Apply(waiting, update, {}, waiting);
    }
    Step del = PodStep(Op::kPodDelete, deleted);
    auto v = h.Run(&DeletedWaitingPodsAreRejected, waiting, del, {}, waiting);
    ASSERT_EQ(v.size(), 2u);  // still waiting and still assumed
    Observation o{waiting, del, StepOut{}, waiting, h.history};
    for (const Violation& x : v) {
      const KnownViolation* known = Classify(o, x, "v1.26.7");
      if (recreated) {
        ASSERT_NE(known, nullptr) << x.Format();
        EXPECT_EQ(known->id, "recreated-uid-waiting-pod-survives");
      } else {
        EXPECT_EQ(known, nullptr) << known->id;
      }
    }
    // The old uid binds later: known only when it was another uid.
    StepOut bound;
    bound.bindings.push_back({"default/w", "n1"});
    Step bind = OpStep(Op::kBind);
    bind.pod_key = "default/w";
    auto b = h.Run(&DeletedWaitingPodsAreRejected, empty, bind, bound, empty);
    ASSERT_EQ(b.size(), 1u);
    Observation ob{empty, bind, bound, empty, h.history};
    EXPECT_EQ(Classify(ob, b[0], "v1.26.7") != nullptr, recreated);
  }
}

TEST(NoPendingPodIsLostTest, FiresForAPendingPodNowhere) {
  Harness h(Layer::kScheduler);
  State empty = SchedulerState({});
  Step add = PodStep(Op::kPodAdd, MakePod("a"));
  EXPECT_EQ(h.Run(&NoPendingPodIsLost, empty, add, {}, empty).size(), 1u);
  State queued = SchedulerState({"default/a"});
  EXPECT_TRUE(h.Run(&NoPendingPodIsLost, empty, add, {}, queued).empty());
  // A pod of another scheduler is not ours to lose.
  auto other = std::make_shared<Pod>(*MakePod("b"));
  other->scheduler_name = "other";
  EXPECT_TRUE(h.Run(&NoPendingPodIsLost, queued, PodStep(Op::kPodAdd, other),
                    {}, queued)
                  .empty());
}

TEST(CacheAccountingTest, FiresOnWrongSumAndEmptyPlaceholder) {
  Harness h(Layer::kCache);
  auto pod = std::make_shared<Pod>(*MakePod("a", 0, "n1"));
  Container c;
  c.requests["cpu"] = *ParseQuantity("250m");
  pod->containers.push_back(c);
  Step assume = PodStep(Op::kCAssume, pod);
  State s;
  s.cache = CacheState{};
  s.cache->nodes.push_back({"n1", true, {"default/a"}, {{"cpu", 250}}});
  EXPECT_TRUE(h.Run(&CacheAccounting, s, assume, {}, s).empty());
  s.cache->nodes[0].requested["cpu"] = 500;
  EXPECT_EQ(h.Run(&CacheAccounting, s, assume, {}, s).size(), 1u);
  State placeholder;
  placeholder.cache = CacheState{};
  placeholder.cache->nodes.push_back({"n2", false, {}, {}});
  EXPECT_EQ(h.Run(&CacheAccounting, s, assume, {}, placeholder).size(), 1u);
}

// The sum is checked entry by entry without being built: every resource of
// the pods, none more, no zero entries, "pods" left out; and an update that
// changes a pod's requests changes what it counts.
TEST(CacheAccountingTest, SumsEveryResourceOfEveryPod) {
  Harness h(Layer::kCache);
  auto with = [](const std::string& name, const std::string& cpu,
                 const std::string& memory) {
    auto pod = std::make_shared<Pod>(*MakePod(name, 0, "n1"));
    Container c;
    if (!cpu.empty()) c.requests["cpu"] = *ParseQuantity(cpu);
    if (!memory.empty()) c.requests["memory"] = *ParseQuantity(memory);
    c.requests["pods"] = *ParseQuantity("1");
    pod->containers.push_back(c);
    return pod;
  };
  PodPtr a = with("a", "250m", "1Ki");
  PodPtr b = with("b", "500m", "");
  h.Feed(PodStep(Op::kCAddPod, a));
  const Step add_b = PodStep(Op::kCAddPod, b);
  auto node = [](Resources requested) {
    State s;
    s.cache = CacheState{};
    s.cache->nodes.push_back(
        {"n1", true, {"default/a", "default/b"}, std::move(requested)});
    return s;
  };
  auto fires = [&](const Step& step, Resources requested) {
    State s = node(std::move(requested));
    return !h.Run(&CacheAccounting, s, step, {}, s).empty();
  };
  EXPECT_FALSE(fires(add_b, {{"cpu", 750}, {"memory", 1024}}));
  EXPECT_TRUE(fires(add_b, {{"cpu", 750}}));                    // memory lost
  EXPECT_TRUE(fires(add_b, {{"cpu", 750}, {"memory", 1000}}));  // wrong
  EXPECT_TRUE(fires(add_b, {{"cpu", 750}, {"memory", 1024}, {"pods", 2}}));
  EXPECT_TRUE(fires(add_b, {{"cpu", 750}, {"memory", 1024}, {"gpu", 0}}));
  // b's update to 1 cpu: what it counts follows.
  Step update = OpStep(Op::kCUpdatePod);
  update.old_pod = b;
  update.new_pod = with("b", "1", "");
  EXPECT_FALSE(fires(update, {{"cpu", 1250}, {"memory", 1024}}));
  EXPECT_TRUE(fires(update, {{"cpu", 750}, {"memory", 1024}}));
}

TEST(OrderAndBackoffTest, PopMustTakeTheHead) {
  Harness h(Layer::kQueue);
  h.Feed(PodStep(Op::kQAdd, MakePod("a", 5)));
  h.Feed(PodStep(Op::kQAdd, MakePod("b", 1)));
  State before = Queues({"default/a", "default/b"}, {}, {});
  Step pop;
  pop.op = Op::kQPop;
  StepOut out;
  out.popped_present = true;
  out.popped = "default/b";
  EXPECT_EQ(
      h.Run(&OrderAndBackoff, before, pop, out, Queues({"default/a"}, {}, {}))
          .size(),
      1u);
  out.popped = "default/a";
  EXPECT_TRUE(
      h.Run(&OrderAndBackoff, before, pop, out, Queues({"default/b"}, {}, {}))
          .empty());
}

TEST(OrderAndBackoffTest, ActiveQInPriorityOrderAndGatedNeverPopped) {
  Harness h(Layer::kQueue);
  h.Feed(PodStep(Op::kQAdd, MakePod("lo", 1)));
  h.Feed(PodStep(Op::kQAdd, MakePod("hi", 9)));
  Step flush;
  flush.op = Op::kFlushBackoff;
  State bad = Queues({"default/lo", "default/hi"}, {}, {});
  EXPECT_EQ(h.Run(&OrderAndBackoff, bad, flush, {}, bad).size(), 1u);
  auto gated = std::make_shared<Pod>(*MakePod("g"));
  gated->scheduling_gates = {"wait"};
  h.Feed(PodStep(Op::kQAdd, gated));
  Step pop;
  pop.op = Op::kQPop;
  StepOut out;
  out.popped_present = true;
  out.popped = "default/g";
  State before = Queues({"default/g"}, {}, {});
  auto v = h.Run(&OrderAndBackoff, before, pop, out, Queues({}, {}, {}));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].detail.find("gated"), std::string::npos);
}

// The order is checked on the objects the entries hold: q_nominate's pod
// and q_activate's objects never reach an entry (seed-30's false positive).
TEST(OrderAndBackoffTest, OrderReadsTheObjectTheQueueHolds) {
  Harness h(Layer::kQueue);
  State empty = Queues({}, {}, {});
  h.Apply(empty, PodStep(Op::kQAdd, MakePod("p1", 1)), {},
          Queues({"default/p1"}, {}, {}));
  h.Apply(Queues({"default/p1"}, {}, {}), OpStep(Op::kQPop),
          Popped("default/p1"), empty);
  State p0 = Queues({"default/p0"}, {}, {});
  h.Apply(empty, PodStep(Op::kQAdd, MakePod("p0", 1)), {}, p0);
  Step nominate = PodStep(Op::kQNominate, MakePod("p1", 3));
  nominate.nominated_node = "n2";
  h.Apply(p0, nominate, {}, p0);
  ASSERT_EQ(h.history.Latest("default/p1")->Priority(), 3);
  Step give_back = OpStep(Op::kQAddUnschedulable);
  give_back.pod_key = "default/p1";
  State parked = Queues({"default/p0"}, {}, {"default/p1"});
  h.Apply(p0, give_back, {}, parked);
  State both = Queues({"default/p0", "default/p1"}, {}, {});
  EXPECT_TRUE(
      h.Run(&OrderAndBackoff, parked, OpStep(Op::kQMoveAll), {}, both).empty());
  EXPECT_EQ(
      h.history.QueuedObject("default/p1", History::Slot::kActive)->Priority(),
      1);

  // q_activate carries an object too; the entry keeps its own (priority 1).
  Step activate = OpStep(Op::kQActivate);
  activate.pods = {MakePod("p1", 7)};
  EXPECT_TRUE(h.Run(&OrderAndBackoff, both, activate, {}, both).empty());

  // An update does change the entry: p1 at priority 5 behind p0 is wrong.
  Step update = PodStep(Op::kQUpdate, MakePod("p1", 5));
  update.old_pod = MakePod("p1", 1);
  auto v = h.Run(&OrderAndBackoff, both, update, {}, both);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].detail.find("default/p1 (priority 5)"), std::string::npos);
  EXPECT_TRUE(h.Run(&OrderAndBackoff, both, update, {},
                    Queues({"default/p1", "default/p0"}, {}, {}))
                  .empty());
}

// docs/UPSTREAM.md item 3: Update(nil, p) of a pod in backoffQ adds a fresh
// activeQ entry; the backoff flush overwrites it with the backoffQ entry, whose
// object is the old one.
TEST(OrderAndBackoffTest, BackoffFlushBringsBackTheStaleObject) {
  Harness h(Layer::kQueue);
  State empty = Queues({}, {}, {});
  h.Apply(empty, PodStep(Op::kQAdd, MakePod("a", 1)), {},
          Queues({"default/a"}, {}, {}));
  h.Apply(Queues({"default/a"}, {}, {}), OpStep(Op::kQPop), Popped("default/a"),
          empty);
  Step give_back = OpStep(Op::kQAddUnschedulable);
  give_back.pod_key = "default/a";
  State backing_off = Queues({}, {"default/a"}, {});
  h.Apply(empty, give_back, {}, backing_off);
  Step nil_old = PodStep(Op::kQUpdate, MakePod("a", 7));  // old: null
  State two = Queues({"default/a"}, {"default/a"}, {});
  h.Apply(backing_off, nil_old, {}, two);
  State with_b = Queues({"default/a", "default/b"}, {"default/a"}, {});
  EXPECT_TRUE(h.Run(&OrderAndBackoff, two, PodStep(Op::kQAdd, MakePod("b", 5)),
                    {}, with_b)
                  .empty());
  Step flush = OpStep(Op::kFlushBackoff);
  // After the flush a holds priority 1 again: behind b is right...
  EXPECT_TRUE(h.Run(&OrderAndBackoff, with_b, flush, {},
                    Queues({"default/b", "default/a"}, {}, {}))
                  .empty());
  // ... ahead of b is not.
  auto v = h.Run(&OrderAndBackoff, with_b, flush, {},
                 Queues({"default/a", "default/b"}, {}, {}));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].detail.find("default/a (priority 1)"), std::string::npos);
}

// kubernetes/kubernetes#118226: an update of an in-flight pod adds a fresh copy
// holding the new object; the popped entry keeps the old one, and a pop reads
// the entry.
TEST(OrderAndBackoffTest, GatesAreReadOnThePoppedEntry) {
  Harness h(Layer::kQueue);
  State empty = Queues({}, {}, {});
  State g = Queues({"default/g"}, {}, {});
  h.Apply(empty, PodStep(Op::kQAdd, MakePod("g")), {}, g);
  auto gated = std::make_shared<Pod>(*MakePod("g"));
  gated->scheduling_gates = {"wait"};
  // q_nominate's object (gated) does not reach the entry: the pop is fine.
  Step nominate = PodStep(Op::kQNominate, gated);
  nominate.nominated_node = "n1";
  h.Apply(g, nominate, {}, g);
  EXPECT_TRUE(
      h.Run(&OrderAndBackoff, g, OpStep(Op::kQPop), Popped("default/g"), empty)
          .empty());
  // An update while in flight: the fresh copy holds the gated object (a
  // real upstream bug the registry names: gates-added-in-activeq).
  Step update = PodStep(Op::kQUpdate, gated);
  update.old_pod = MakePod("g");
  h.Apply(empty, update, {}, g);
  EXPECT_EQ(h.history.QueuedObject("default/g", History::Slot::kInFlight)->uid,
            "uid-g");
  EXPECT_TRUE(h.history.QueuedObject("default/g", History::Slot::kInFlight)
                  ->scheduling_gates.empty());
  auto v =
      h.Run(&OrderAndBackoff, g, OpStep(Op::kQPop), Popped("default/g"), empty);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].detail.find("gated but was popped"), std::string::npos);
}

// activate of a gated pod in backoffQ puts the same QueuedPodInfo in
// unschedulablePods as well: an update found in backoffQ changes both, and
// a later activate takes the updated object from unschedulablePods.
TEST(OrderAndBackoffTest, SharedEntriesSeeTheSameUpdate) {
  Harness h(Layer::kQueue);
  State empty = Queues({}, {}, {});
  h.Apply(empty, PodStep(Op::kQAdd, MakePod("a", 0)), {},
          Queues({"default/a"}, {}, {}));
  h.Apply(Queues({"default/a"}, {}, {}), OpStep(Op::kQPop), Popped("default/a"),
          empty);
  Step give_back = OpStep(Op::kQAddUnschedulable);
  give_back.pod_key = "default/a";
  State backing_off = Queues({}, {"default/a"}, {});
  h.Apply(empty, give_back, {}, backing_off);
  auto gated = std::make_shared<Pod>(*MakePod("a", 0));
  gated->scheduling_gates = {"wait"};
  Step gate = PodStep(Op::kQUpdate, gated);
  gate.old_pod = MakePod("a", 0);
  h.Apply(backing_off, gate, {}, backing_off);
  State with_b = Queues({"default/b"}, {"default/a"}, {});
  h.Apply(backing_off, PodStep(Op::kQAdd, MakePod("b", 3)), {}, with_b);
  Step activate = OpStep(Op::kQActivate);
  activate.pods = {gated};
  State both = Queues({"default/b"}, {"default/a"}, {"default/a"});
  h.Apply(with_b, activate, {}, both);
  Step ungate = PodStep(Op::kQUpdate, MakePod("a", 5));
  ungate.old_pod = gated;
  h.Apply(both, ungate, {}, both);
  EXPECT_EQ(h.history.QueuedObject("default/a", History::Slot::kUnschedulable)
                ->Priority(),
            5);
  EXPECT_TRUE(h.Run(&OrderAndBackoff, both, activate, {},
                    Queues({"default/a", "default/b"}, {}, {}))
                  .empty());
  EXPECT_EQ(h.Run(&OrderAndBackoff, both, activate, {},
                  Queues({"default/b", "default/a"}, {}, {}))
                .size(),
            1u);
}

TEST(OrderAndBackoffTest, BackoffLongerThanTheCapFires) {
  Harness h(Layer::kQueue);  // initial 1000 ms, max 10000 ms
  Step flush;
  flush.op = Op::kFlushBackoff;
  flush.t = 5000;
  State s = Queues({}, {}, {});
  s.queue->backoff.push_back({"default/a", 2, 7000});  // 2 s allowed: ok
  EXPECT_TRUE(h.Run(&OrderAndBackoff, s, flush, {}, s).empty());
  s.queue->backoff[0].backoff_expires_at = 7001;
  EXPECT_EQ(h.Run(&OrderAndBackoff, s, flush, {}, s).size(), 1u);
  s.queue->backoff[0] = {"default/a", 60, 15000};  // capped at 10 s: ok
  EXPECT_TRUE(h.Run(&OrderAndBackoff, s, flush, {}, s).empty());
}

TEST(CyclesTest, FiresOnDecreaseAndOnMoveAfterCycle) {
  Harness h(Layer::kQueue);
  Step step;
  State before = Queues({}, {}, {});
  before.queue->scheduling_cycle = 3;
  State after = before;
  after.queue->scheduling_cycle = 2;
  EXPECT_EQ(h.Run(&Cycles, before, step, {}, after).size(), 1u);
  after.queue->scheduling_cycle = 3;
  after.queue->move_request_cycle = 4;
  EXPECT_EQ(h.Run(&Cycles, before, step, {}, after).size(), 1u);
  after.queue->move_request_cycle = 3;
  EXPECT_TRUE(h.Run(&Cycles, before, step, {}, after).empty());
}

TEST(NominationsArePendingTest, FiresForADeletedOrBoundPod) {
  Harness h(Layer::kScheduler);
  h.Feed(PodStep(Op::kPodAdd, MakePod("a")));
  State s = SchedulerState({"default/a"});
  (*s.nominated)["n1"] = {"default/a"};
  Step noop;
  noop.op = Op::kFlushBackoff;
  EXPECT_TRUE(h.Run(&NominationsArePending, s, noop, {}, s).empty());
  Step bound = PodStep(Op::kPodUpdate, MakePod("a", 0, "n1"));
  EXPECT_EQ(h.Run(&NominationsArePending, s, bound, {}, s).size(), 1u);
}

TEST(OneCopyTest, FiresForAQueuedWaitingPodAndForInFlightCopies) {
  Harness h(Layer::kScheduler);
  State s = SchedulerState({"default/w"});
  s.waiting = std::vector<std::string>{"default/w"};
  Step noop;
  noop.op = Op::kFlushBackoff;
  EXPECT_EQ(h.Run(&OneCopy, s, noop, {}, s).size(), 1u);

  Harness q(Layer::kQueue);
  Step pop;
  pop.op = Op::kQPop;
  StepOut popped;
  popped.popped_present = true;
  popped.popped = "default/a";
  State empty = Queues({}, {}, {});
  EXPECT_TRUE(q.Run(&OneCopy, Queues({"default/a"}, {}, {}), pop, popped, empty)
                  .empty());
  Step update = PodStep(Op::kQUpdate, MakePod("a"));
  update.old_pod = MakePod("a");
  State copy = Queues({"default/a"}, {}, {});
  auto v = q.Run(&OneCopy, empty, update, {}, copy);
  ASSERT_EQ(v.size(), 1u);
  // ... and the registry knows it as upstream's kubernetes/kubernetes#118226.
  Observation o{empty, update, StepOut{}, copy, q.history};
  const KnownViolation* known = Classify(o, v[0], "v1.26.7");
  ASSERT_NE(known, nullptr);
  EXPECT_EQ(known->upstream, "kubernetes/kubernetes#118226");
}

TEST(CheckerTest, UnknownViolationFailsTheStepCheck) {
  std::map<std::string, int> counts;
  StepCheck check = AsStepCheck(Header(Layer::kQueue), &counts);
  Step step;
  step.op = Op::kFlushBackoff;
  State ok = Queues({"default/a"}, {}, {});
  EXPECT_EQ(check(ok, step, {}, ok, StateTouch()), "");
  State bad = Queues({"default/a"}, {"default/a"}, {});
  EXPECT_NE(check(ok, step, {}, bad, StateTouch()).find("property 1"),
            std::string::npos);
  EXPECT_TRUE(counts.empty());
}

}  // namespace
}  // namespace schedtrace::properties
