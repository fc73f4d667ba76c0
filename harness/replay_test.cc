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

// A system that refuses: at Configure, or at the `refuse_at`th Apply.
class RefusingSystem : public System {
 public:
  absl::Status Configure(const TraceHeader&) override { return configure; }
  absl::StatusOr<StepOut> Apply(const Step&) override {
    if (++applied == refuse_at) return refusal;
    return StepOut{};
  }
  State Snapshot() const override { return State{}; }
  absl::Status configure = absl::OkStatus();
  absl::Status refusal = absl::UnavailableError("child exited");
  int refuse_at = -1;
  int applied = 0;
};

// Three steps at lines 2, 4 and 6: q_add, q_pop, q_delete.
Trace ThreeOps() {
  Trace trace;
  trace.path = "t.jsonl";
  const Op ops[] = {Op::kQAdd, Op::kQPop, Op::kQDelete};
  for (int i = 0; i < 3; ++i) {
    Step step;
    step.line = 2 * (i + 1);
    step.op = ops[i];
    trace.steps.push_back(step);
  }
  return trace;
}

TEST(ReplayTest, SaysWhereEachVerdictWasDecided) {
  {  // a pass: nowhere
    RefusingSystem sut;
    TraceResult r = Replay(sut, ThreeOps());
    EXPECT_EQ(r.verdict, Verdict::kPassed);
    EXPECT_EQ(r.at_step, 0);
    EXPECT_EQ(r.at_line, 0);
    EXPECT_EQ(r.at_op, "");
  }
  {  // a divergence at step 2
    Trace trace = ThreeOps();
    trace.steps[1].expect = StepExpecting(json{{"error", true}}, {}).expect;
    RefusingSystem sut;
    TraceResult r = Replay(sut, trace);
    EXPECT_EQ(r.verdict, Verdict::kFailed);
    EXPECT_EQ(r.at_step, 2);
    EXPECT_EQ(r.at_line, 4);
    EXPECT_EQ(r.at_op, "q_pop");
  }
  {  // an Apply error at step 3
    RefusingSystem sut;
    sut.refuse_at = 3;
    TraceResult r = Replay(sut, ThreeOps());
    EXPECT_EQ(r.verdict, Verdict::kError);
    EXPECT_EQ(r.at_step, 3);
    EXPECT_EQ(r.at_line, 6);
    EXPECT_EQ(r.at_op, "q_delete");
  }
  {  // an op the system does not support: a skip, at step 1
    RefusingSystem sut;
    sut.refuse_at = 1;
    sut.refusal = absl::UnimplementedError("no q_add");
    TraceResult r = Replay(sut, ThreeOps());
    EXPECT_EQ(r.verdict, Verdict::kSkipped);
    EXPECT_EQ(r.at_step, 1);
    EXPECT_EQ(r.at_line, 2);
    EXPECT_EQ(r.at_op, "q_add");
  }
  {  // a property violated after step 2
    ReplayOptions options;
    options.check = [](const State&, const Step& step, const StepOut&,
                       const State&) {
      return step.op == Op::kQPop ? std::string("popped") : std::string();
    };
    RefusingSystem sut;
    TraceResult r = Replay(sut, ThreeOps(), options);
    EXPECT_EQ(r.verdict, Verdict::kFailed);
    EXPECT_EQ(r.at_step, 2);
    EXPECT_EQ(r.at_line, 4);
    EXPECT_EQ(r.at_op, "q_pop");
  }
  for (absl::Status refusal : {absl::FailedPreconditionError("bad config"),
                               absl::UnimplementedError("no queue layer")}) {
    // Configure refused: the header, step 0, without an op.
    RefusingSystem sut;
    sut.configure = refusal;
    TraceResult r = Replay(sut, ThreeOps());
    EXPECT_EQ(r.verdict, refusal.code() == absl::StatusCode::kUnimplemented
                             ? Verdict::kSkipped
                             : Verdict::kError);
    EXPECT_EQ(r.at_step, 0);
    EXPECT_EQ(r.at_line, 1);
    EXPECT_EQ(r.at_op, "");
    EXPECT_EQ(r.steps_run, 0);
  }
}

}  // namespace
}  // namespace schedtrace
