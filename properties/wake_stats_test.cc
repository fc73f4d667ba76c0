#include "properties/wake_stats.h"

#include <memory>
#include <string>

#include "core/codec.h"
#include "core/quantity.h"
#include "gtest/gtest.h"
#include "impl/scheduler_test_util.h"
#include "model/system.h"
#include "run/generator.h"
#include "run/replay.h"
#include "testkit/golden_test_util.h"

namespace schedtrace::properties {
namespace {

Trace Read(const std::string& rel, const std::string& version = "") {
  absl::StatusOr<Trace> t = ReadTraceFile(GoldenDir() + "/" + rel);
  EXPECT_TRUE(t.ok()) << t.status();
  if (!t.ok()) return Trace{};
  if (!version.empty()) t->header.upstream = version;
  return *t;
}

WakeStats Measure(const Trace& trace) {
  WakeStats w;
  std::unique_ptr<System> model = model::NewSystem();
  EXPECT_TRUE(MeasureWakeUps(trace, *model, &w).ok());
  return w;
}

// The stale tombstone: v1.37.2 owes b a wake-up and loses it (upstream's
// known violation); v1.30.12 makes it.
TEST(WakeStatsTest, AWakeUpOwedIsMadeOrLostByVersion) {
  const std::string rel =
      "regression/upstream/scheduler/stale-tombstone-wakes-no-one.jsonl";
  const WakeStats v137 = Measure(Read(rel));
  EXPECT_EQ(v137.traces, 1);
  EXPECT_EQ(v137.traces_with_wake_ups, 1);
  EXPECT_EQ(v137.wake_ups, 1);
  EXPECT_EQ(v137.made, 0);
  ASSERT_EQ(v137.lost.size(), 1u);
  EXPECT_EQ(v137.lost.begin()->first, "stale-tombstone-wakes-no-one");
  EXPECT_TRUE(v137.unexplained.empty());

  const WakeStats v130 = Measure(Read(rel, "v1.30.12"));
  EXPECT_EQ(v130.wake_ups, 1);
  EXPECT_EQ(v130.made, 1);
  EXPECT_TRUE(v130.lost.empty());
}

// A move that the next attempt proves vain: p fails NodeResourcesFit on n1;
// v1.26.7 moves it on any assigned pod's delete (its map registers Pod
// Delete for NodeResourcesFit, with no pre-check), so a's delete, which
// frees too little, moves it, and its next attempt fails on NodeResourcesFit
// again with no event between. b's delete moves it again, but a node added
// before the attempt makes that move one the measure does not judge.
TEST(WakeStatsTest, AMoveTheNextAttemptFailsAgainIsWasted) {
  Trace t;
  t.header = Read("upstream-v1.26.7/scheduler/random-1.jsonl").header;
  t.header.upstream = "v1.26.7";
  auto node = [](const std::string& name, const char* cpu) {
    auto n = std::make_shared<Node>();
    n->name = name;
    n->uid = "uid-" + name;
    n->resource_version = "1";
    n->allocatable = {{"cpu", *ParseQuantity(cpu)},
                      {"memory", *ParseQuantity("8Gi")},
                      {"pods", *ParseQuantity("110")}};
    return n;
  };
  auto pod = [](const std::string& name, const char* cpu,
                const std::string& node_name) {
    auto p = std::make_shared<Pod>(*impl::MakePod(name, cpu));
    p->node_name = node_name;
    return PodPtr(p);
  };
  int64_t now = 100;
  auto add = [&](Step s) {
    s.t = now;
    now += 100;
    t.steps.push_back(std::move(s));
  };
  add(Step{.op = Op::kNodeAdd, .node = node("n1", "2")});
  PodPtr a = pod("a", "100m", "n1"), b = pod("b", "100m", "n1");
  add(Step{.op = Op::kPodAdd, .pod = a});
  add(Step{.op = Op::kPodAdd, .pod = b});
  add(Step{.op = Op::kPodAdd, .pod = pod("p", "2", "")});
  add(Step{.op = Op::kScheduleOne});
  add(Step{.op = Op::kPodDelete, .pod = a});
  now += 20000;  // past the backoff
  add(Step{.op = Op::kFlushBackoff});
  add(Step{.op = Op::kScheduleOne});
  add(Step{.op = Op::kPodDelete, .pod = b});
  add(Step{.op = Op::kNodeAdd, .node = node("n2", "4")});
  now += 20000;
  add(Step{.op = Op::kFlushBackoff});
  add(Step{.op = Op::kScheduleOne});
  const WakeStats w = Measure(t);
  EXPECT_EQ(w.moves, 2);
  EXPECT_EQ(w.judged_moves, 1);
  EXPECT_EQ(w.wasted_moves, 1);
  // b's delete made p schedulable (n1 empty) and moved it.
  EXPECT_EQ(w.wake_ups, 1);
  EXPECT_EQ(w.made, 1);
}

// --wake-ups: without it, a generated trace is what it was; with it, and
// contention (many pods on few nodes), most traces owe a wake-up.
TEST(WakeStatsTest, WakeUpStepsReachMostTraces) {
  auto generate = [](GenOptions o) {
    std::unique_ptr<System> recorder = model::NewSystem();
    absl::StatusOr<Trace> t = GenerateTrace(Layer::kScheduler, *recorder, o);
    EXPECT_TRUE(t.ok()) << t.status();
    return t.ok() ? *t : Trace{};
  };
  GenOptions plain{.seed = 11, .steps = 200, .pods = 20, .nodes = 2};
  GenOptions zero = plain;
  zero.variety.wake_ups = 0;
  EXPECT_EQ(EncodeTrace(generate(plain)), EncodeTrace(generate(zero)));

  WakeStats with, without;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    GenOptions o = plain;
    o.seed = seed;
    o.upstream = "v1.37.2";
    std::unique_ptr<System> model = model::NewSystem();
    ASSERT_TRUE(MeasureWakeUps(generate(o), *model, &without).ok());
    o.variety.wake_ups = 0.1;
    model = model::NewSystem();
    ASSERT_TRUE(MeasureWakeUps(generate(o), *model, &with).ok());
  }
  EXPECT_GT(with.traces_with_wake_ups * 2, with.traces);
  EXPECT_GT(with.wake_ups, without.wake_ups);
}

}  // namespace
}  // namespace schedtrace::properties
