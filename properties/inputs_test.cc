#include "properties/inputs.h"

#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "properties/checker.h"

namespace schedtrace::properties {
namespace {

TEST(InputsTest, WhatEachLayerReads) {
  EXPECT_EQ(PropertyInputs(8, Layer::kQueue),
            (std::vector<std::string>{"queue.moveRequestCycle",
                                      "queue.schedulingCycle"}));
  // On the queue layer there is no cache to read.
  EXPECT_EQ(PropertyInputs(7, Layer::kQueue),
            (std::vector<std::string>{"queue.active", "queue.backoff",
                                      "queue.unschedulable"}));
  EXPECT_EQ(PropertyInputs(4, Layer::kScheduler),
            (std::vector<std::string>{"cache.assumed", "waiting"}));
  EXPECT_TRUE(PropertyInputs(4, Layer::kQueue).empty());
  EXPECT_EQ(PropertyInputs(6, Layer::kCache),
            std::vector<std::string>{"cache.nodes"});
}

TEST(InputsTest, UncheckedAreThoseWithAnInputNotShown) {
  EXPECT_TRUE(UncheckedProperties(Layer::kScheduler, nullptr).empty());
  const Shown everything = [](std::string_view) { return true; };
  EXPECT_TRUE(UncheckedProperties(Layer::kScheduler, everything).empty());
  const Shown queue = [](std::string_view p) {
    return p.substr(0, 6) == "queue.";
  };
  EXPECT_TRUE(UncheckedProperties(Layer::kQueue, queue).empty());
  const std::vector<Unchecked> cache = UncheckedProperties(
      Layer::kCache, [](std::string_view p) { return p != "cache.nodes"; });
  EXPECT_EQ(cache, (std::vector<Unchecked>{{6, {"cache.nodes"}}}));
}

// Property 8 fires on a state whose moveRequestCycle is after its
// schedulingCycle: unless the cycles are not shown, in both modes.
TEST(InputsTest, TheCheckerLeavesOutWhatIsNotShown) {
  TraceHeader header;
  header.layer = Layer::kQueue;
  State before, after;
  before.queue = QueueState{};
  after.queue = QueueState{};
  after.queue->move_request_cycle = 5;
  Step step;
  step.op = Op::kQMoveAll;
  const StepOut out;
  const Shown no_cycles = [](std::string_view p) {
    return p.find("Cycle") == std::string_view::npos;
  };
  for (CheckMode mode : {CheckMode::kIncremental, CheckMode::kFull}) {
    Checker all(header, mode);
    ASSERT_EQ(all.Observe(before, step, out, after).size(), 1u);
    EXPECT_EQ(all.Observe(before, step, out, after)[0].violation.property, 8);
    EXPECT_TRUE(all.unchecked().empty());
    Checker part(header, mode, no_cycles);
    EXPECT_TRUE(part.Observe(before, step, out, after).empty());
    ASSERT_EQ(part.unchecked().size(), 1u);
    EXPECT_EQ(part.unchecked()[0].property, 8);
  }
}

}  // namespace
}  // namespace schedtrace::properties
