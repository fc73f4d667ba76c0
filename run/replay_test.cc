#include "run/replay.h"

#include <memory>
#include <vector>

#include "core/codec.h"
#include "core/json_codec.h"
#include "gtest/gtest.h"

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
  EXPECT_EQ(d->path, "state.queue.active[default/a].attempts");
  EXPECT_EQ(d->expected, "1");
  EXPECT_EQ(d->actual, "2");
  std::string text = d->Format("t.jsonl");
  EXPECT_NE(text.find("t.jsonl:7: step 3 (q_pop)"), std::string::npos) << text;
  // The whole divergence names the pod, not its position.
  EXPECT_EQ(d->differences,
            (std::vector<Difference>{{"state.queue.active[default/a].attempts",
                                      "changed", "1", "2"}}));
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
  // ... while the differences say which pod is missing.
  EXPECT_EQ(d->differences,
            (std::vector<Difference>{
                {"state.queue.active[default/b]", "missing",
                 R"({"attempts":0,"pod":"default/b"})", "(absent)"}}));
}

// Every difference of out and state, not only the first; the step's clock
// and arguments in one line.
TEST(CompareStepTest, ADivergenceHasEveryDifferenceOfOutAndState) {
  State expected_state = QueueState2(1);
  expected_state.queue->backoff = {{"default/c", 1, 3000}};
  Step step = StepExpecting(json{{"popped", "default/a"}, {"attempts", 1}},
                            StateToJson(expected_state));
  step.t = 2500;
  auto pod = std::make_shared<Pod>();
  pod->namespace_ = "default";
  pod->name = "x";
  pod->priority = 4;
  step.op = Op::kQAdd;
  step.pod = pod;
  StepOut out;
  out.popped_present = true;
  out.popped = "default/a";
  out.attempts = 2;
  State actual = QueueState2(1);
  std::swap(actual.queue->active[0], actual.queue->active[1]);
  actual.queue->backoff = {{"default/c", 1, 4000}};
  actual.queue->scheduling_cycle = 3;
  std::optional<Divergence> d = CompareStep(step, 5, out, actual);
  ASSERT_TRUE(d.has_value());
  // The first difference, as before.
  EXPECT_EQ(d->path, "out.attempts");
  EXPECT_EQ(d->expected, "1");
  EXPECT_EQ(d->actual, "2");
  EXPECT_EQ(d->differences,
            (std::vector<Difference>{
                {"out.attempts", "changed", "1", "2"},
                {"state.queue.active[default/b]", "moved", "#2", "#1"},
                {"state.queue.backoff[default/c].backoffExpiresAt", "changed",
                 "3000", "4000"},
                {"state.queue.schedulingCycle", "changed", "0", "3"},
            }));
  EXPECT_EQ(d->t, 2500);
  EXPECT_EQ(d->step_summary, "q_add default/x(priority=4)");
  // The trace's context is the replayer's to add.
  EXPECT_EQ(d->description, "");
  EXPECT_TRUE(d->before.empty());
}

// The first difference names a list's element as the list of differences
// does: a node by its name, a pod by its key. Where the two lists hold
// different elements at a position, the list is the first difference, whole.
TEST(CompareStepTest, TheFirstDifferenceNamesElementsByKey) {
  State want;
  want.cache = CacheState{};
  want.cache->nodes = {{"n1", true, {"d/a"}, {{"cpu", 100}}},
                       {"n2", true, {}, {}}};
  State got = want;
  got.cache->nodes[0].requested["cpu"] = 200;
  Step step = StepExpecting(json::object(), StateToJson(want));
  std::optional<Divergence> d = CompareStep(step, 2, StepOut{}, got);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "state.cache.nodes[n1].requested.cpu");
  ASSERT_FALSE(d->differences.empty());
  EXPECT_EQ(d->differences[0].path, d->path);  // one notation

  // activeQ in another order: the list whole, the move in the differences.
  State swapped = QueueState2(0);
  std::swap(swapped.queue->active[0], swapped.queue->active[1]);
  step = StepExpecting(json::object(), StateToJson(QueueState2(0)));
  d = CompareStep(step, 3, StepOut{}, swapped);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "state.queue.active");
  EXPECT_EQ(d->actual, R"([{"attempts":0,"pod":"default/b"},)"
                       R"({"attempts":0,"pod":"default/a"}])");

  // A key that repeats: the list is matched by position, here and there.
  State twice = QueueState2(0);
  twice.queue->active[1].pod = "default/a";
  State twice_more = twice;
  twice_more.queue->active[1].attempts = 4;
  step = StepExpecting(json::object(), StateToJson(twice));
  d = CompareStep(step, 3, StepOut{}, twice_more);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "state.queue.active[1].attempts");
  EXPECT_EQ(d->differences[0].path, d->path);
}

// `actual` is what the system sent (System::StateAsSent): a key it left out
// shows (absent), not the default its decoding reads.
TEST(CompareStepTest, ActualIsTheStateAsSent) {
  State expected = QueueState2(0);
  expected.queue->unschedulable = {{"default/u", 1, 0, {"X"}, true}};
  State decoded = expected;
  decoded.queue->unschedulable[0].gated = false;  // omitted, read as false
  Step step = StepExpecting(json::object(), StateToJson(expected));
  json sent = StateToJson(decoded);
  sent["queue"]["unschedulable"][0].erase("gated");
  sent["queue"]["unknown"] = 1;  // not compared, not shown
  const std::string sent_text = sent.dump();
  std::optional<Divergence> d = CompareStep(
      step, 1, StepOut{}, decoded, nullptr, nullptr, R"({})", sent_text);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "state.queue.unschedulable[default/u].gated");
  EXPECT_EQ(d->expected, "true");
  EXPECT_EQ(d->actual, "(absent)");
  EXPECT_EQ(d->differences,
            (std::vector<Difference>{{"state.queue.unschedulable[default/u]"
                                      ".gated",
                                      "changed", "true", "(absent)"}}));
  // The comparison itself reads the decoded state: sent without `gated`
  // where false is expected still matches.
  Step matching = StepExpecting(json::object(), StateToJson(decoded));
  EXPECT_FALSE(CompareStep(matching, 1, StepOut{}, decoded, nullptr, nullptr,
                           R"({})", sent_text)
                   .has_value());
  // Without what was sent, the decoded value.
  d = CompareStep(step, 1, StepOut{}, decoded);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->actual, "false");
}

TEST(CompareStepTest, ANonCanonicalOutIsEveryDifferenceFromTheCanonical) {
  Step step = StepExpecting(json{{"error", false}, {"x", 1}}, std::nullopt);
  std::optional<Divergence> d =
      CompareStep(step, 1, StepOut{}, State{}, nullptr, nullptr,
                  R"({"error":false,"x":1})");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "out.error");
  EXPECT_NE(d->expected.find("not canonical"), std::string::npos);
  EXPECT_EQ(d->differences, (std::vector<Difference>{
                                {"out.error", "extra", "(absent)", "false"},
                                {"out.x", "extra", "(absent)", "1"}}));
}

TEST(DivergenceTest, FormatShowsTheWholeDivergenceGroupedByKind) {
  Divergence d;
  d.step = 6;
  d.line = 8;
  d.op = "q_pop";
  d.path = "state.queue.active";
  d.expected = R"([{"attempts":0,"pod":"d/a"}])";
  d.actual = "[]";
  d.t = 3000;
  d.step_summary = "q_pop";
  d.description =
      "A pod popped while in flight is moved back by the next event, and "
      "this sentence goes on long enough to be wrapped over more than one "
      "line of the report, even over three of them if it keeps going, which "
      "it does here, past the third line.";
  d.before = {"step 4 t=1000: q_add d/a", "step 5 t=2000: q_add d/b"};
  d.differences = {
      {"state.queue.active[d/b]", "moved", "#2", "#1"},
      {"state.queue.backoff[d/a].backoffExpiresAt", "changed", "1", "2"},
      {"state.queue.active[d/a]", "missing", R"({"pod":"d/a"})", "(absent)"},
      {"state.queue.backoff[d/c]", "extra", "(absent)", R"({"pod":"d/c"})"},
  };
  EXPECT_EQ(
      d.Format("t.jsonl"),
      "t.jsonl:8: step 6 (q_pop) t=3000: state.queue.active\n"
      "    expected: [{\"attempts\":0,\"pod\":\"d/a\"}]\n"
      "    actual:   []\n"
      "    step:     q_pop\n"
      "    trace:    A pod popped while in flight is moved back by the next "
      "event, and this\n"
      "              sentence goes on long enough to be wrapped over more "
      "than one line of\n"
      "              the report, even over three of them if it keeps going, "
      "which it does \xE2\x80\xA6\n"
      "    before:   step 4 t=1000: q_add d/a\n"
      "              step 5 t=2000: q_add d/b\n"
      "    differences (4):\n"
      "      missing state.queue.active[d/a]: expected {\"pod\":\"d/a\"}, "
      "actual (absent)\n"
      "      extra   state.queue.backoff[d/c]: expected (absent), actual "
      "{\"pod\":\"d/c\"}\n"
      "      moved   state.queue.active[d/b]: expected #2, actual #1\n"
      "      changed state.queue.backoff[d/a].backoffExpiresAt: expected "
      "1, actual 2");
}

TEST(DivergenceTest, FormatCutsLongValuesAndListsAtMostAHundred) {
  Divergence d;
  d.path = "out";
  d.expected = std::string(1000, 'e');
  d.actual = "line one\nline two";
  for (int i = 0; i < 150; ++i) {
    d.differences.push_back({"state.waiting[d/p" + std::to_string(i) + "]",
                             "extra", "(absent)",
                             "\"d/p" + std::to_string(i) + "\""});
  }
  const std::string text = d.Format("t.jsonl");
  EXPECT_NE(text.find("    expected: " + std::string(300, 'e') +
                      "\xE2\x80\xA6 (1000 bytes)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    actual:   line one line two\n"), std::string::npos);
  EXPECT_NE(text.find("differences (150):"), std::string::npos);
  EXPECT_NE(text.find("state.waiting[d/p99]"), std::string::npos);
  EXPECT_EQ(text.find("state.waiting[d/p100]"), std::string::npos);
  EXPECT_NE(text.find("and 50 more (the JSON report lists every one)"),
            std::string::npos);
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

// Replay adds the trace's context: its description and the steps before.
TEST(ReplayTest, ADivergenceCarriesTheTracesContext) {
  Trace trace;
  trace.path = "x.jsonl";
  trace.header.description = "what the trace pins";
  for (int i = 0; i < 5; ++i) {
    Step step = StepExpecting(json::object(), std::nullopt);
    step.t = 100 * (i + 1);
    step.line = i + 2;
    trace.steps.push_back(step);
  }
  trace.steps[4].expect = StepExpecting(json{{"error", true}}, {}).expect;
  ScriptedSystem sut;
  TraceResult r = Replay(sut, trace);
  ASSERT_TRUE(r.divergence.has_value());
  EXPECT_EQ(r.divergence->step, 5);
  EXPECT_EQ(r.divergence->t, 500);
  EXPECT_EQ(r.divergence->step_summary, "q_pop");
  EXPECT_EQ(r.divergence->description, "what the trace pins");
  EXPECT_EQ(
      r.divergence->before,
      (std::vector<std::string>{"step 2 t=200: q_pop", "step 3 t=300: q_pop",
                                "step 4 t=400: q_pop"}));
  EXPECT_EQ(
      r.divergence->differences,
      (std::vector<Difference>{{"out.error", "missing", "true", "(absent)"}}));
  const std::string text = r.divergence->Format(trace.path);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "x.jsonl:6: step 5 (q_pop) t=500: out.error");
  EXPECT_NE(text.find("\n    trace:    what the trace pins\n"),
            std::string::npos)
      << text;
  // At the first step there is nothing before.
  Divergence first;
  AddTraceContext(first, trace, 0);
  EXPECT_TRUE(first.before.empty());
  AddTraceContext(first, trace, 2);
  EXPECT_EQ(first.before, (std::vector<std::string>{"step 1 t=100: q_pop",
                                                    "step 2 t=200: q_pop"}));
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

// A fatal step (upstream exited) ends the trace with no property checked
// on it: its empty state is no scheduler's.
TEST(ReplayTest, AFatalStepIsNotChecked) {
  Trace trace;
  for (int i = 0; i < 3; ++i) trace.steps.push_back(Step{});
  ScriptedSystem sut;
  sut.fatal_at = 2;
  ReplayOptions options;
  int checked = 0;
  options.check = [&checked](const State&, const Step&, const StepOut& out,
                             const State&, const StateTouch&) {
    ++checked;
    return out.fatal ? std::string("checked a fatal step") : std::string();
  };
  TraceResult r = Replay(sut, trace, options);
  EXPECT_EQ(r.verdict, Verdict::kPassed) << r.message;
  EXPECT_EQ(checked, 1);
  EXPECT_EQ(sut.applied, 2);
}

TEST(ReplayTest, CheckFailsTheTrace) {
  Trace trace;
  trace.steps.push_back(Step{});
  ScriptedSystem sut;
  ReplayOptions options;
  options.check = [](const State&, const Step&, const StepOut&, const State&,
                     const StateTouch&) {
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
                       const State&, const StateTouch&) {
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
  {  // a header refused after comments and a blank line: its own line
    absl::StatusOr<Trace> trace = ParseTrace(
        "# a comment\n\n# another\n"
        R"({"schedtrace": 1, "name": "c", "layer": "queue"})"
        "\n",
        "c.jsonl");
    ASSERT_TRUE(trace.ok()) << trace.status();
    EXPECT_EQ(trace->header_line, 4);
    RefusingSystem sut;
    sut.configure = absl::FailedPreconditionError("bad config");
    TraceResult r = Replay(sut, *trace);
    EXPECT_EQ(r.verdict, Verdict::kError);
    EXPECT_EQ(r.at_step, 0);
    EXPECT_EQ(r.at_line, 4);
  }
}

}  // namespace
}  // namespace schedtrace
