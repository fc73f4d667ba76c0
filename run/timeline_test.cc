#include "run/timeline.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/codec.h"
#include "core/json_codec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "run/timeline_format.h"

namespace schedtrace {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

std::string Golden(const std::string& rel) {
  const char* env = std::getenv("SCHEDTRACE_SOURCE_DIR");
  return std::string(env != nullptr ? env : SCHEDTRACE_SOURCE_DIR) +
         "/golden/" + rel;
}

Trace ReadGolden(const std::string& rel) {
  absl::StatusOr<Trace> t = ReadTraceFile(Golden(rel));
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *std::move(t) : Trace{};
}

Trace Parse(const std::string& text) {
  absl::StatusOr<Trace> t = ParseTrace(text, "t.jsonl");
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *std::move(t) : Trace{};
}

// A system that answers each step with the out and the state its script
// (a trace) expected there: a perfect system for that trace. Explaining an
// edited copy of the script on it plants a divergence wherever the copy was
// edited. It can also fail to apply a step (`fail_at`, 1-based).
class EchoSystem : public System {
 public:
  explicit EchoSystem(Trace script) : script_(std::move(script)) {}
  absl::Status Configure(const TraceHeader&) override {
    ++configured;
    next_ = 0;
    state_ = State{};
    return refuse_header ? absl::InvalidArgumentError("no such layer here")
                         : absl::OkStatus();
  }
  absl::StatusOr<StepOut> Apply(const Step&) override {
    const size_t i = next_++;
    if (static_cast<int>(i) + 1 == fail_at) {
      return absl::UnavailableError("the child hung up");
    }
    StepOut out;
    if (i >= script_.steps.size()) return out;
    const Step& s = script_.steps[i];
    if (s.expect != nullptr && s.expect->out)
      out = *OutFromJson(*s.expect->out);
    if (s.expect != nullptr && s.expect->state) {
      state_ = *StateFromJson(*s.expect->state);
    }
    return out;
  }
  State Snapshot() const override { return state_; }
  int fail_at = 0;
  bool refuse_header = false;
  int configured = 0;

 private:
  Trace script_;
  size_t next_ = 0;
  State state_;
};

// The expectations of step `step_no` (1-based), editable.
json& ExpectedState(Trace& trace, int step_no) {
  Step& step = trace.steps[step_no - 1];
  auto expect = std::make_shared<Expect>(*step.expect);
  step.expect = expect;
  return *expect->state;
}
json& ExpectedOut(Trace& trace, int step_no) {
  Step& step = trace.steps[step_no - 1];
  auto expect = std::make_shared<Expect>(*step.expect);
  step.expect = expect;
  return *expect->out;
}

const TimelineRow& Row(const Timeline& tl, int step_no) {
  for (const TimelineRow& row : tl.rows) {
    if (row.step == step_no) return row;
  }
  static const TimelineRow kNone;
  ADD_FAILURE() << "no row for step " << step_no;
  return kNone;
}

std::string Where(const std::map<std::string, PodPlace>& places,
                  const std::string& pod) {
  auto it = places.find(pod);
  return it == places.end() ? "(none)" : it->second.where;
}

TEST(ExplanationPathForTest, BesideTheTrace) {
  EXPECT_EQ(ExplanationPathFor("d/x.min.jsonl"), "d/x.min.explain.txt");
  EXPECT_EQ(ExplanationPathFor("x.trace"), "x.trace.explain.txt");
}

// ---- ExplainTrace on a passing golden trace ----

constexpr char kPermit[] =
    "upstream-v1.26.7/scheduler/permit-wait-allow-and-reject.jsonl";

TEST(ExplainTraceTest, APassingGoldenTraceStepByStep) {
  Trace trace = ReadGolden(kPermit);
  EchoSystem sut(trace);
  absl::StatusOr<Timeline> tl = ExplainTrace(sut, trace, {.sut = "echo"});
  ASSERT_TRUE(tl.ok()) << tl.status();
  EXPECT_FALSE(tl->divergence.has_value());
  EXPECT_TRUE(tl->error.empty());
  EXPECT_EQ(tl->violation_step, 0);
  EXPECT_EQ(tl->steps, 13);
  EXPECT_EQ(tl->steps_run, 13);
  EXPECT_EQ(tl->rows.size(), 13u);
  EXPECT_EQ(tl->layer, Layer::kScheduler);
  EXPECT_THAT(tl->pods, ElementsAre("default/a", "default/b", "default/c"));
  EXPECT_EQ(tl->pods_chosen, "every pod the trace mentions");
  EXPECT_EQ(sut.configured, 1);  // one run, recorded as it goes
  for (const TimelineRow& row : tl->rows) {
    EXPECT_THAT(row.differing, IsEmpty()) << row.step;
    EXPECT_FALSE(row.out_differs) << row.step;
    EXPECT_TRUE(row.has_expected) << row.step;
  }
  // The journey of a: added, waiting on Permit, allowed (parked), bound.
  EXPECT_EQ(Where(Row(*tl, 1).actual, "default/a"), "not added yet");
  EXPECT_EQ(Where(Row(*tl, 2).actual, "default/a"), "activeQ #1");
  EXPECT_EQ(Where(Row(*tl, 5).expected, "default/a"), "waiting on Permit (n1)");
  EXPECT_EQ(Row(*tl, 5).actual.at("default/a").out, "cycle: scheduled on n1");
  EXPECT_EQ(Where(Row(*tl, 8).actual, "default/a"), "parked before bind (n1)");
  EXPECT_EQ(Where(Row(*tl, 12).actual, "default/a"),
            "assumed on n1 (binding finished)");
  EXPECT_EQ(Row(*tl, 12).actual.at("default/a").out,
            "bound to n1, event Scheduled");
  // c fails, b is rejected and nominated to "", c is moved.
  EXPECT_EQ(Row(*tl, 7).actual.at("default/c").out,
            "cycle: unschedulable [NodeResourcesFit], status Unschedulable, "
            "event FailedScheduling");
  const PodPlace& b = Row(*tl, 9).actual.at("default/b");
  EXPECT_EQ(b.where, "unschedulable");
  EXPECT_EQ(b.nominated, "\"\"");
  EXPECT_EQ(b.attempts, 1);
  EXPECT_EQ(Where(Row(*tl, 9).actual, "default/c"), "backoffQ until 1700");

  const std::string text = FormatTimeline(*tl);
  EXPECT_THAT(text, HasSubstr("PASS on echo: "));
  EXPECT_THAT(text, HasSubstr("(13 steps)"));
  EXPECT_THAT(text, Not(HasSubstr("≠ actual")));
  EXPECT_THAT(text, Not(HasSubstr("  expected: ")));
  EXPECT_THAT(text, Not(HasSubstr(">>>")));
  EXPECT_THAT(text, Not(HasSubstr("not added yet")));  // pods yet to come
  EXPECT_THAT(text, HasSubstr("\n  default/a  waiting on Permit (n1); out: "
                              "cycle: scheduled on n1\n"));
  EXPECT_THAT(text, HasSubstr("step 1: no change for these pods\n"));
}

TEST(ExplainTraceTest, DeletedAndInFlight) {
  Trace trace =
      ReadGolden("upstream-v1.26.7/scheduler/delete-waiting-pod-rejects.jsonl");
  EchoSystem sut(trace);
  absl::StatusOr<Timeline> tl = ExplainTrace(sut, trace, {});
  ASSERT_TRUE(tl.ok()) << tl.status();
  const TimelineRow& del = Row(*tl, 6);  // pod_delete default/w, waiting
  EXPECT_EQ(del.op, "pod_delete");
  EXPECT_EQ(Where(del.actual, "default/w"), "deleted at step 6");
  EXPECT_EQ(del.actual.at("default/w").out,
            "status Unschedulable, event FailedScheduling");

  Trace queue = ReadGolden(
      "regression/upstream/queue/issue86373-backoff-expiry-saturates.jsonl");
  EchoSystem q(queue);
  tl = ExplainTrace(q, queue, {.to = 4});
  ASSERT_TRUE(tl.ok()) << tl.status();
  const PodPlace& popped = Row(*tl, 2).actual.at("default/p");
  EXPECT_EQ(popped.where, "in flight");
  EXPECT_EQ(popped.attempts, 1);  // from the pop's out
  EXPECT_EQ(popped.note, "popped at step 2");
  EXPECT_EQ(popped.out, "popped");
  EXPECT_EQ(Where(Row(*tl, 3).actual, "default/p"),
            "unschedulable [NodeResourcesFit]");
}

// ---- planted divergences ----

TEST(ExplainTraceTest, APlantedDivergenceIsMarkedWithBothSides) {
  Trace script = ReadGolden(kPermit);
  Trace trace = script;
  // Expect b in backoffQ after its rejection (step 9), not unschedulable.
  json& want = ExpectedState(trace, 9);
  json b = want["queue"]["unschedulable"][0];
  ASSERT_EQ(b["pod"], "default/b");
  want["queue"]["unschedulable"] = json::array();
  want["queue"]["backoff"].push_back(
      {{"pod", "default/b"}, {"attempts", 1}, {"backoffExpiresAt", 1900}});
  EchoSystem sut(script);
  absl::StatusOr<Timeline> tl = ExplainTrace(sut, trace, {.sut = "impl"});
  ASSERT_TRUE(tl.ok()) << tl.status();
  ASSERT_TRUE(tl->divergence.has_value());
  EXPECT_EQ(tl->divergence->step, 9);
  EXPECT_THAT(tl->pods, ElementsAre("default/b"));
  EXPECT_EQ(tl->pods_chosen, "named by the first divergence");
  const TimelineRow& row = Row(*tl, 9);
  EXPECT_TRUE(row.divergent);
  EXPECT_THAT(row.differing, ElementsAre("default/b"));
  EXPECT_EQ(Where(row.expected, "default/b"), "backoffQ until 1900");
  EXPECT_EQ(Where(row.actual, "default/b"), "unschedulable");
  // The replay goes on past the divergence (the steps after it show).
  EXPECT_EQ(tl->steps_run, 13);
  EXPECT_EQ(tl->rows.size(), 13u);

  const std::string text = FormatTimeline(*tl);
  EXPECT_THAT(text, HasSubstr("FAIL on impl at step 9 (line 10, "
                              "permit_reject): "));
  EXPECT_THAT(text, HasSubstr("first divergence:\n  "));
  EXPECT_THAT(text, HasSubstr(">>> step 9  t=900  permit_reject"));
  EXPECT_THAT(text, HasSubstr("<<< first divergence"));
  EXPECT_THAT(text,
              HasSubstr("\n  default/b  expected: backoffQ until 1900 "
                        "(attempts 1, nominated \"\"); out: status "
                        "Unschedulable, event FailedScheduling\n"
                        "           ≠ actual:   unschedulable (attempts 1, "
                        "nominated \"\"); out: status Unschedulable, event "
                        "FailedScheduling\n"));
  // Where b had been since: the step that put it there.
  EXPECT_THAT(text, HasSubstr("default/b  waiting on Permit (n1); out: cycle: "
                              "scheduled on n1\n"));
  // Three steps after the divergence, then how to see the rest.
  EXPECT_THAT(text, HasSubstr("steps 11-12: no change for these pods\n"));
  EXPECT_THAT(text, Not(HasSubstr("step 13  t=")));
  EXPECT_THAT(text, HasSubstr("... step 13 not shown: --from=13 shows them, "
                              "--all every step\n"));
  EXPECT_THAT(FormatTimeline(*tl, {.all = true}), Not(HasSubstr("not shown")));
}

TEST(ExplainTraceTest, AnOutOnlyDivergenceFollowsThePodItNames) {
  Trace script = ReadGolden(kPermit);
  Trace trace = script;
  // Step 7's cycle: upstream said NodeResourcesFit; expect another plugin.
  json& out = ExpectedOut(trace, 7);
  out["result"]["plugins"] = json::array({"NodeAffinity"});
  EchoSystem sut(script);
  absl::StatusOr<Timeline> tl = ExplainTrace(sut, trace, {});
  ASSERT_TRUE(tl.ok()) << tl.status();
  ASSERT_TRUE(tl->divergence.has_value());
  EXPECT_THAT(tl->divergence->path, HasSubstr("out.result.plugins"));
  // schedule_one names no pod: the outs do.
  EXPECT_THAT(tl->pods, ElementsAre("default/c"));
  const TimelineRow& row = Row(*tl, 7);
  EXPECT_TRUE(row.out_differs);
  EXPECT_THAT(row.differing, ElementsAre("default/c"));
  EXPECT_EQ(row.expected.at("default/c").out,
            "cycle: unschedulable [NodeAffinity], status Unschedulable, event "
            "FailedScheduling");
  EXPECT_EQ(row.expected.at("default/c").where,
            row.actual.at("default/c").where);
  const std::string text = FormatTimeline(*tl);
  EXPECT_THAT(text, HasSubstr("≠ actual:   unschedulable [NodeResourcesFit] "
                              "(attempts 1); out: cycle: unschedulable "
                              "[NodeResourcesFit]"));
}

TEST(ExplainTraceTest, TheSameStateReadsTheSameOnBothSides) {
  // A difference the pods' places do not show (a counter) still marks the
  // step, and the places agree.
  Trace script = ReadGolden(kPermit);
  Trace trace = script;
  ExpectedState(trace, 4)["queue"]["schedulingCycle"] = 42;
  EchoSystem sut(script);
  absl::StatusOr<Timeline> tl =
      ExplainTrace(sut, trace, {.pods = {"default/a", "default/zz"}});
  ASSERT_TRUE(tl.ok()) << tl.status();
  ASSERT_TRUE(tl->divergence.has_value());
  EXPECT_EQ(tl->divergence->step, 4);
  EXPECT_EQ(tl->pods_chosen, "given; no step of the trace names default/zz");
  EXPECT_THAT(Row(*tl, 4).differing, IsEmpty());
  const std::string text = FormatTimeline(*tl);
  EXPECT_THAT(text, HasSubstr(">>> step 4 "));
  // (Keys padded to the longest followed, default/zz.)
  EXPECT_THAT(text, HasSubstr("\n  default/a   activeQ #1 (attempts 0)  "
                              "[since step 2]\n"));
  EXPECT_THAT(text, Not(HasSubstr("default/zz  ")));  // never anywhere
}

TEST(ExplainTraceTest, KeysAnExpectationLeavesOutAreNotADifference) {
  Trace script = ReadGolden(kPermit);
  Trace trace = script;
  // Step 9 expects only activeQ: b (unschedulable) and c (backoffQ) are
  // nowhere in it, yet nothing differs.
  json& want = ExpectedState(trace, 9);
  want = json{{"queue", {{"active", want["queue"]["active"]}}}};
  EchoSystem sut(script);
  absl::StatusOr<Timeline> tl = ExplainTrace(sut, trace, {});
  ASSERT_TRUE(tl.ok()) << tl.status();
  EXPECT_FALSE(tl->divergence.has_value());
  const TimelineRow& row = Row(*tl, 9);
  EXPECT_THAT(row.differing, IsEmpty());
  EXPECT_THAT(Where(row.expected, "default/c"), HasSubstr("not in activeQ ("));
  EXPECT_THAT(Where(row.expected, "default/c"), HasSubstr("backoffQ"));
  EXPECT_EQ(Where(row.actual, "default/c"), "backoffQ until 1700");
  // And what a system does not report is not compared either.
  Trace again = script;
  ExpectedState(again, 5)["waiting"] = json::array();  // a is waiting
  EchoSystem sut2(script);
  ExplainOptions o;
  o.reports = [](std::string_view path) { return path != "waiting"; };
  tl = ExplainTrace(sut2, again, o);
  ASSERT_TRUE(tl.ok()) << tl.status();
  EXPECT_FALSE(tl->divergence.has_value());
  EXPECT_THAT(Row(*tl, 5).differing, IsEmpty());
}

// ---- choosing pods, ranges, failures ----

TEST(ExplainTraceTest, FromToKeepsTheRangeAndShowsEveryPodAtItsStart) {
  Trace trace = ReadGolden(kPermit);
  EchoSystem sut(trace);
  absl::StatusOr<Timeline> tl =
      ExplainTrace(sut, trace, {.pods = {"default/c"}, .from = 9, .to = 11});
  ASSERT_TRUE(tl.ok()) << tl.status();
  EXPECT_EQ(sut.configured, 1);  // pods given: one pass
  ASSERT_EQ(tl->rows.size(), 3u);
  EXPECT_EQ(tl->rows.front().step, 9);
  EXPECT_EQ(tl->rows.back().step, 11);
  EXPECT_EQ(tl->steps_run, 13);
  EXPECT_THAT(tl->pods, ElementsAre("default/c"));
  // Since when, counted over the steps before the range too.
  EXPECT_EQ(Row(*tl, 9).actual_since.at("default/c"), 9);
  EXPECT_EQ(Row(*tl, 10).expected_since.at("default/c"), 10);
  tl = ExplainTrace(sut, trace, {.pods = {"default/a"}, .from = 10, .to = 11});
  ASSERT_TRUE(tl.ok()) << tl.status();
  EXPECT_EQ(Row(*tl, 10).actual_since.at("default/a"), 8);  // parked
  EXPECT_THAT(FormatTimeline(*tl),
              HasSubstr("step 10  t=2400  flush_backoff\n"
                        "  default/a  parked before bind (n1)  [since step "
                        "8]\n"));
  tl = ExplainTrace(sut, trace, {.pods = {"default/c"}, .from = 9, .to = 11});
  ASSERT_TRUE(tl.ok()) << tl.status();
  const std::string text = FormatTimeline(*tl);
  EXPECT_THAT(text, HasSubstr("step 9  t=900"));
  EXPECT_THAT(text, HasSubstr("step 11  t=2500"));
  EXPECT_THAT(text, Not(HasSubstr("step 8 ")));
  EXPECT_THAT(text, Not(HasSubstr("step 12")));
  EXPECT_THAT(text, Not(HasSubstr("not shown")));
  EXPECT_THAT(text, Not(HasSubstr("default/a")));
}

TEST(ExplainTraceTest, ALongRunBeforeTheFailureIsCut) {
  Trace script = ReadGolden(
      "regression/upstream/queue/issue86373-backoff-expiry-saturates.jsonl");
  ASSERT_EQ(script.steps.size(), 107u);
  EchoSystem sut(script);
  absl::StatusOr<Timeline> tl = ExplainTrace(sut, script, {});
  ASSERT_TRUE(tl.ok()) << tl.status();
  EXPECT_EQ(tl->rows.size(), 107u);  // the whole journey is kept
  const std::string text = FormatTimeline(*tl);
  EXPECT_THAT(text, HasSubstr("step 6  t=600"));
  EXPECT_THAT(text, HasSubstr("... steps 7-"));
  EXPECT_THAT(text, HasSubstr("shows them, --all every step\n"));
  EXPECT_THAT(text, Not(HasSubstr("step 50  t=5000")));
  EXPECT_THAT(text, HasSubstr("step 106  t=10600"));
  EXPECT_THAT(text, HasSubstr("backoffQ until 9223372047454"));
  const std::string all = FormatTimeline(*tl, {.all = true});
  EXPECT_THAT(all, HasSubstr("step 50  t=5000"));
  EXPECT_THAT(all, Not(HasSubstr("not shown")));
  EXPECT_GT(std::count(all.begin(), all.end(), '\n'),
            std::count(text.begin(), text.end(), '\n') + 60);
}

TEST(ExplainTraceTest, TheSystemFailingMidTrace) {
  Trace trace = ReadGolden(kPermit);
  EchoSystem sut(trace);
  sut.fail_at = 6;
  absl::StatusOr<Timeline> tl = ExplainTrace(sut, trace, {.sut = "exec:x"});
  ASSERT_TRUE(tl.ok()) << tl.status();
  EXPECT_FALSE(tl->divergence.has_value());
  EXPECT_EQ(tl->error_step, 6);
  EXPECT_THAT(tl->error, HasSubstr("step 6 (line 7, schedule_one): the child "
                                   "hung up"));
  EXPECT_EQ(tl->steps_run, 5);
  // Pods: what upstream's out at that step names.
  EXPECT_THAT(tl->pods, ElementsAre("default/b"));
  ASSERT_EQ(tl->rows.size(), 6u);
  const TimelineRow& last = tl->rows.back();
  EXPECT_FALSE(last.has_actual);
  EXPECT_EQ(last.error, "the child hung up");
  EXPECT_EQ(Where(last.expected, "default/b"), "waiting on Permit (n1)");
  const std::string text = FormatTimeline(*tl);
  EXPECT_THAT(text, HasSubstr("ERROR on exec:x at step 6 (line 7, "
                              "schedule_one): "));
  EXPECT_THAT(text, HasSubstr("system error: step 6"));
  EXPECT_THAT(text, HasSubstr("<<< the system failed"));
  EXPECT_THAT(text, HasSubstr("  default/b  expected: waiting on Permit (n1)"));
  EXPECT_THAT(text, HasSubstr("(the trace ended after step 5 of 13: the "
                              "system failed)"));
}

TEST(ExplainTraceTest, AHeaderTheSystemRefusesIsAnError) {
  Trace trace = ReadGolden(kPermit);
  EchoSystem sut(trace);
  sut.refuse_header = true;
  absl::StatusOr<Timeline> tl = ExplainTrace(sut, trace, {});
  ASSERT_FALSE(tl.ok());
  EXPECT_THAT(std::string(tl.status().message()),
              HasSubstr("permit-wait-allow-and-reject.jsonl: the header: no "
                        "such layer here"));
}

TEST(ExplainTraceTest, AFatalStepEndsTheTrace) {
  Trace trace = ReadGolden(
      "upstream-v1.26.7/cache/update-pod-stale-old-placeholder-panics.jsonl");
  // One step more after the fatal one: the replay never applies it.
  Step extra = trace.steps.back();
  extra.expect = nullptr;
  trace.steps.push_back(extra);
  EchoSystem sut(trace);
  absl::StatusOr<Timeline> tl = ExplainTrace(sut, trace, {});
  ASSERT_TRUE(tl.ok()) << tl.status();
  EXPECT_FALSE(tl->divergence.has_value());
  EXPECT_EQ(tl->steps, 7);
  EXPECT_EQ(tl->steps_run, 6);
  const TimelineRow& fatal = tl->rows.back();
  EXPECT_EQ(fatal.step, 6);
  EXPECT_FALSE(fatal.has_expected);  // upstream showed no state
  EXPECT_EQ(fatal.actual.at("default/a").out, "fatal");
  const std::string text = FormatTimeline(*tl);
  EXPECT_THAT(text, HasSubstr("upstream exits here"));
  EXPECT_THAT(text, HasSubstr("(the trace ended after step 6 of 7)"));
  // A system that does not exit there diverges at that step.
  Trace script = trace;
  ExpectedOut(script, 6) = json::object();
  EchoSystem lives(script);
  tl = ExplainTrace(lives, trace, {});
  ASSERT_TRUE(tl.ok()) << tl.status();
  ASSERT_TRUE(tl->divergence.has_value());
  EXPECT_EQ(tl->divergence->step, 6);
  EXPECT_THAT(tl->pods, ElementsAre("default/a"));
  EXPECT_EQ(tl->steps_run, 7);
  // No expected state there: the pod differs by its out alone.
  EXPECT_THAT(Row(*tl, 6).differing, ElementsAre("default/a"));
  EXPECT_TRUE(Row(*tl, 6).out_differs);
  EXPECT_THAT(FormatTimeline(*tl), HasSubstr("≠ actual:   {}"));
}

TEST(ExplainTraceTest, APropertyViolationIsTheFailureWhenNothingDiverges) {
  Trace trace = ReadGolden(kPermit);
  EchoSystem sut(trace);
  ExplainOptions o;
  int checks = 0;
  o.make_check = [&checks](const TraceHeader&) -> StepCheck {
    return [&checks](const State&, const Step& step, const StepOut&,
                     const State&, const StateTouch&) -> std::string {
      ++checks;
      return step.op == Op::kPermitReject
                 ? "property 1 (no pod in two queues): default/b stands 2 "
                   "times in the queues"
                 : "";
    };
  };
  absl::StatusOr<Timeline> tl = ExplainTrace(sut, trace, o);
  ASSERT_TRUE(tl.ok()) << tl.status();
  EXPECT_FALSE(tl->divergence.has_value());
  EXPECT_EQ(tl->violation_step, 9);
  EXPECT_THAT(tl->violation, HasSubstr("property 1"));
  EXPECT_THAT(tl->pods, ElementsAre("default/b"));
  EXPECT_EQ(tl->pods_chosen, "named by the property violation");
  EXPECT_EQ(checks, 9);  // one run, checked up to the violation only
  EXPECT_THAT(Row(*tl, 9).violation, HasSubstr("default/b stands 2 times"));
  const std::string text = FormatTimeline(*tl);
  EXPECT_THAT(text, HasSubstr("FAIL at step 9 (line 10, permit_reject): "));
  EXPECT_THAT(text, HasSubstr("property violated at step 9: property 1"));
  EXPECT_THAT(text, HasSubstr(">>> step 9 "));
  EXPECT_THAT(text, HasSubstr("<<< property violated"));
}

TEST(ExplainTraceTest, ManyPodsAreCapped) {
  std::string text = R"({"schedtrace":1,"name":"t","layer":"queue"})"
                     "\n";
  for (int i = 0; i < 10; ++i) {
    text += R"({"t":)" + std::to_string(i + 1) +
            R"(,"op":"q_add","pod":{"metadata":{"namespace":"d","name":"p)" +
            std::to_string(i) + R"("}}})" + "\n";
  }
  Trace trace = Parse(text);
  EchoSystem sut(trace);
  absl::StatusOr<Timeline> tl = ExplainTrace(sut, trace, {});
  ASSERT_TRUE(tl.ok()) << tl.status();
  EXPECT_EQ(tl->pods.size(), static_cast<size_t>(kMaxPodsFollowed));
  EXPECT_EQ(tl->pods_chosen, "the first 8 of the 10 pods the trace mentions");
  // No expectation anywhere: the actual side alone, said once.
  const std::string out = FormatTimeline(*tl);
  EXPECT_THAT(out, HasSubstr("no expected state"));
}

}  // namespace
}  // namespace schedtrace
