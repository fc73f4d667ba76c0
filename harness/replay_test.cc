#include "harness/replay.h"

#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "harness/json_codec.h"

namespace schedtrace {
namespace {

using nlohmann::json;

Step StepExpecting(json out, std::optional<json> state) {
  Step step;
  step.line = 7;
  step.op = Op::kQPop;
  auto expect = std::make_shared<Expect>();
  expect->out = std::move(out);
  expect->state = std::move(state);
  step.expect = expect;
  return step;
}

State QueueState2(int attempts) {
  State s;
  s.queue = QueueState{};
  s.queue->active = {{"default/a", attempts}, {"default/b", 0}};
  s.queue->move_request_cycle = -1;
  s.nominated = Nominated{};
  return s;
}

TEST(CompareStepTest, MatchingStepHasNoDivergence) {
  State state = QueueState2(1);
  Step step = StepExpecting(json::object(), StateToJson(state));
  EXPECT_FALSE(CompareStep(step, 3, StepOut{}, state).has_value());
}

TEST(CompareStepTest, ReportsDeepestDifferingField) {
  Step step = StepExpecting(json::object(), StateToJson(QueueState2(1)));
  std::optional<Divergence> d = CompareStep(step, 3, StepOut{}, QueueState2(2));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->step, 3);
  EXPECT_EQ(d->line, 7);
  EXPECT_EQ(d->op, "q_pop");
  EXPECT_EQ(d->path, "state.queue.active[0].attempts");
  EXPECT_EQ(d->expected, "1");
  EXPECT_EQ(d->actual, "2");
  std::string text = d->Format("t.jsonl");
  EXPECT_NE(text.find("t.jsonl:7: step 3 (q_pop)"), std::string::npos) << text;
}

TEST(CompareStepTest, OutIsComparedExactly) {
  Step step = StepExpecting(json::object(), std::nullopt);
  StepOut out;
  out.error = true;
  std::optional<Divergence> d = CompareStep(step, 1, out, State{});
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "out.error");
  EXPECT_EQ(d->expected, "(absent)");
  EXPECT_EQ(d->actual, "true");
}

TEST(CompareStepTest, AbsentStateKeysAreIgnored) {
  // Only queue.schedulingCycle is expected: the rest may be anything.
  json partial = {{"queue", {{"schedulingCycle", 0}}}};
  Step step = StepExpecting(json::object(), partial);
  EXPECT_FALSE(CompareStep(step, 1, StepOut{}, QueueState2(5)).has_value());
  partial["queue"]["schedulingCycle"] = 4;
  step = StepExpecting(json::object(), partial);
  std::optional<Divergence> d = CompareStep(step, 1, StepOut{}, QueueState2(5));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "state.queue.schedulingCycle");
}

TEST(CompareStepTest, NominatedIsComparedWhole) {
  State state = QueueState2(0);
  json expected = StateToJson(state);
  (*state.nominated)["n1"] = {"default/a"};
  Step step = StepExpecting(json::object(), expected);
  std::optional<Divergence> d = CompareStep(step, 1, StepOut{}, state);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "state.nominated.n1");
}

TEST(CompareStepTest, ListsOfDifferentLengthAreShownWhole) {
  State state = QueueState2(0);
  json expected = StateToJson(state);
  state.queue->active.pop_back();
  Step step = StepExpecting(json::object(), expected);
  std::optional<Divergence> d = CompareStep(step, 1, StepOut{}, state);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "state.queue.active");
  EXPECT_NE(d->expected.find("default/b"), std::string::npos);
  EXPECT_EQ(d->actual.find("default/b"), std::string::npos);
}

// A system that pops a fixed script and records what it was asked.
class ScriptedSystem : public System {
 public:
  absl::Status Configure(const TraceHeader&) override {
    configured = true;
    return absl::OkStatus();
  }
  absl::StatusOr<StepOut> Apply(const Step&) override {
    ++applied;
    StepOut out;
    if (applied == fatal_at) out.fatal = true;
    return out;
  }
  State Snapshot() const override { return State{}; }
  bool configured = false;
  int applied = 0;
  int fatal_at = -1;
};

TEST(ReplayTest, StopsAtTheFirstDivergence) {
  Trace trace;
  trace.path = "x.jsonl";
  trace.steps.push_back(StepExpecting(json::object(), std::nullopt));
  trace.steps.push_back(StepExpecting(json{{"error", true}}, std::nullopt));
  trace.steps.push_back(StepExpecting(json::object(), std::nullopt));
  ScriptedSystem sut;
  TraceResult r = Replay(sut, trace);
  EXPECT_TRUE(sut.configured);
  EXPECT_EQ(r.verdict, Verdict::kFailed);
  EXPECT_EQ(sut.applied, 2);
  ASSERT_TRUE(r.divergence.has_value());
  EXPECT_EQ(r.divergence->step, 2);
}

TEST(ReplayTest, FatalEndsTheTrace) {
  Trace trace;
  for (int i = 0; i < 3; ++i) trace.steps.push_back(Step{});
  ScriptedSystem sut;
  sut.fatal_at = 1;
  TraceResult r = Replay(sut, trace);
  EXPECT_EQ(r.verdict, Verdict::kPassed);
  EXPECT_EQ(sut.applied, 1);
}

TEST(ReplayTest, CheckFailsTheTrace) {
  Trace trace;
  trace.steps.push_back(Step{});
  ScriptedSystem sut;
  ReplayOptions options;
  options.check = [](const State&, const Step&, const StepOut&, const State&) {
    return std::string("property 1 fired");
  };
  TraceResult r = Replay(sut, trace, options);
  EXPECT_EQ(r.verdict, Verdict::kFailed);
  EXPECT_NE(r.message.find("property 1 fired"), std::string::npos);
}

// A system whose out crossed a wire (System::OutAsSent): expect.out is
// compared with what it wrote, which must be the canonical encoding.
TEST(CompareStepTest, OutAsSentIsComparedExactly) {
  Step step = StepExpecting(json::object(), std::nullopt);
  EXPECT_FALSE(
      CompareStep(step, 1, StepOut{}, State{}, nullptr, nullptr, R"({})")
          .has_value());
  std::optional<Divergence> d = CompareStep(
      step, 1, StepOut{}, State{}, nullptr, nullptr, R"({"error":false})");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "out.error");
  EXPECT_EQ(d->expected, "(absent)");
  EXPECT_EQ(d->actual, "false");
  d = CompareStep(step, 1, StepOut{}, State{}, nullptr, nullptr, "not json");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "out");
  EXPECT_EQ(d->actual, "not json");
  // Without expect.out nothing is compared.
  Step no_out = step;
  no_out.expect = std::make_shared<Expect>();  // an expect without out
  EXPECT_FALSE(CompareStep(no_out, 1, StepOut{}, State{}, nullptr, nullptr,
                           R"({"error":false})")
                   .has_value());
}

}  // namespace
}  // namespace schedtrace
