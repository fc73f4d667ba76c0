#include "run/differential.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "run/record.h"
#include "run/replay.h"

namespace schedtrace {
namespace {

// A toy queue-layer system: q_add appends the pod to activeQ, q_pop pops
// the front. `skew` makes the popped attempts count off by that much from
// the given step on; `refuse_op` makes Apply refuse that op outright.
class ToySystem : public System {
 public:
  int skew = 0;
  int skew_from_step = 0;
  std::optional<Op> refuse_op;
  bool refusal_not_applicable = false;
  absl::StatusCode configure_code = absl::StatusCode::kOk;

  absl::Status Configure(const TraceHeader&) override {
    active_.clear();
    steps_ = 0;
    return absl::Status(configure_code, configure_code == absl::StatusCode::kOk
                                            ? ""
                                            : "toy: not this layer");
  }
  absl::StatusOr<StepOut> Apply(const Step& step) override {
    ++steps_;
    if (refuse_op && step.op == *refuse_op) {
      absl::Status refused = absl::InvalidArgumentError("toy: refused");
      if (refusal_not_applicable) {
        return MarkNotApplicable(refused, "q_pop: not in this version");
      }
      return refused;
    }
    StepOut out;
    if (step.op == Op::kQAdd) active_.push_back(step.pod->Key());
    if (step.op == Op::kQPop) {
      out.popped_present = true;
      if (!active_.empty()) {
        out.popped = active_.front();
        out.attempts = 1 + (steps_ >= skew_from_step ? skew : 0);
        active_.erase(active_.begin());
      }
    }
    return out;
  }
  State Snapshot() const override {
    State s;
    s.queue = QueueState{};
    for (const std::string& k : active_) s.queue->active.push_back({k, 0});
    s.nominated = Nominated{};
    return s;
  }

 private:
  std::vector<std::string> active_;
  int steps_ = 0;
};

Trace AddPopTrace() {
  Trace t;
  t.path = "toy.jsonl";
  t.header.name = "toy";
  t.header.layer = Layer::kQueue;
  int line = 2;
  for (const char* name : {"a", "b"}) {
    Step add;
    add.line = line++;
    add.op = Op::kQAdd;
    auto p = std::make_shared<Pod>();
    p->namespace_ = "default";
    p->name = name;
    add.pod = p;
    t.steps.push_back(add);
  }
  for (int i = 0; i < 3; ++i) {
    Step pop;
    pop.line = line++;
    pop.op = Op::kQPop;
    t.steps.push_back(pop);
  }
  return t;
}

TEST(DifferentialTest, EqualSystemsAgree) {
  ToySystem a, b;
  DiffResult r = RunDifferential(a, b, AddPopTrace());
  EXPECT_EQ(r.verdict, Verdict::kPassed) << r.Format("a", "b");
  EXPECT_EQ(r.steps_run, 5);
}

TEST(DifferentialTest, FirstDisagreementIsReportedWithBothSides) {
  ToySystem a, b;
  b.skew = 1;
  b.skew_from_step = 4;  // the second pop
  DiffResult r = RunDifferential(a, b, AddPopTrace());
  ASSERT_EQ(r.verdict, Verdict::kFailed);
  ASSERT_TRUE(r.divergence.has_value());
  EXPECT_EQ(r.divergence->step, 4);
  EXPECT_EQ(r.divergence->line, 5);
  EXPECT_EQ(r.divergence->path, "out.attempts");
  EXPECT_EQ(r.divergence->expected, "1");
  EXPECT_EQ(r.divergence->actual, "2");
  const std::string text = r.Format("model", "impl");
  EXPECT_NE(text.find("toy.jsonl:5: step 4 (q_pop) t=0: out.attempts"),
            std::string::npos)
      << text;
  // Values are labelled with the systems' names, aligned with the context.
  EXPECT_NE(text.find("\n    model:  1\n    impl:   2\n"), std::string::npos)
      << text;
  // The whole divergence: the step, the steps before it, every difference.
  EXPECT_NE(text.find("\n    step:   q_pop\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n    before: step 1 t=0: q_add default/a\n"
                      "            step 2 t=0: q_add default/b\n"
                      "            step 3 t=0: q_pop\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("changed out.attempts: model 1, impl 2"),
            std::string::npos)
      << text;
  EXPECT_EQ(r.divergence->before,
            (std::vector<std::string>{"step 1 t=0: q_add default/a",
                                      "step 2 t=0: q_add default/b",
                                      "step 3 t=0: q_pop"}));
  EXPECT_EQ(r.divergence->differences,
            (std::vector<Difference>{{"out.attempts", "changed", "1", "2"}}));
}

TEST(DifferentialTest, OneSystemRefusingAStepIsADisagreement) {
  ToySystem a, b;
  b.refuse_op = Op::kQPop;
  DiffResult r = RunDifferential(a, b, AddPopTrace());
  ASSERT_EQ(r.verdict, Verdict::kFailed);
  EXPECT_EQ(r.divergence->step, 3);
  EXPECT_NE(r.divergence->actual.find("refused"), std::string::npos);
}

TEST(DifferentialTest, PartsBDoesNotReportAreNotComparedNorChecked) {
  // b reports no queue (an exec child declaring only `nominated`): its
  // empty queue must not count as a disagreement, and the check, which
  // would read b's queue, must not run on b.
  class NoQueue : public ToySystem {
   public:
    State Snapshot() const override {
      State s = ToySystem::Snapshot();
      s.queue = QueueState{};
      return s;
    }
  };
  ToySystem a;
  NoQueue b;
  EXPECT_EQ(RunDifferential(a, b, AddPopTrace()).verdict, Verdict::kFailed);
  DiffOptions options;
  options.reports = [](std::string_view path) {
    return !path.starts_with("queue");
  };
  options.check_b = false;
  int checked = 0;
  options.make_check = [&checked](const TraceHeader&) -> StepCheck {
    ++checked;
    return [](const State&, const Step&, const StepOut&, const State&,
              const StateTouch&) { return std::string(); };
  };
  DiffResult r = RunDifferential(a, b, AddPopTrace(), options);
  EXPECT_EQ(r.verdict, Verdict::kPassed) << r.Format("a", "b");
  EXPECT_EQ(checked, 1);  // a's check only
}

TEST(DifferentialTest, BothRefusingAStepIsAnAgreement) {
  ToySystem a, b;
  a.refuse_op = b.refuse_op = Op::kQPop;
  DiffResult r = RunDifferential(a, b, AddPopTrace());
  EXPECT_EQ(r.verdict, Verdict::kPassed) << r.Format("a", "b");
}

TEST(DifferentialTest, UnimplementedLayerIsSkippedNotPassed) {
  ToySystem a, b;
  b.configure_code = absl::StatusCode::kUnimplemented;
  DiffResult r = RunDifferential(a, b, AddPopTrace());
  EXPECT_EQ(r.verdict, Verdict::kSkipped);
  EXPECT_EQ(r.side, "b");
}

TEST(DifferentialTest, CheckRunsOnBothSidesAndNamesTheSide) {
  ToySystem a, b;
  DiffOptions options;
  int made = 0;
  options.make_check = [&made](const TraceHeader&) -> StepCheck {
    const bool is_b = made++ == 1;
    return [is_b](const State&, const Step& step, const StepOut&, const State&,
                  const StateTouch&) -> std::string {
      return is_b && step.op == Op::kQPop ? "popped on b" : "";
    };
  };
  DiffResult r = RunDifferential(a, b, AddPopTrace(), options);
  EXPECT_EQ(made, 2);
  ASSERT_EQ(r.verdict, Verdict::kFailed);
  EXPECT_EQ(r.side, "b");
  EXPECT_EQ(r.steps_run, 3);
  EXPECT_NE(r.Format("model", "impl").find("impl: toy.jsonl:4: step 3"),
            std::string::npos)
      << r.Format("model", "impl");
}

// Both systems answer the second step {"fatal": true} with an empty state:
// the trace ends there, and no check runs on that step.
TEST(DifferentialTest, AFatalStepIsNotChecked) {
  class Fatal : public ToySystem {
   public:
    absl::StatusOr<StepOut> Apply(const Step& step) override {
      absl::StatusOr<StepOut> out = ToySystem::Apply(step);
      if (++n_ == 2) {
        out->fatal = true;
        exited_ = true;
      }
      return out;
    }
    State Snapshot() const override {
      return exited_ ? State{} : ToySystem::Snapshot();
    }
    absl::Status Configure(const TraceHeader& h) override {
      n_ = 0;
      exited_ = false;
      return ToySystem::Configure(h);
    }

   private:
    int n_ = 0;
    bool exited_ = false;
  };
  Fatal a, b;
  DiffOptions options;
  int checked = 0;
  options.make_check = [&checked](const TraceHeader&) -> StepCheck {
    return [&checked](const State&, const Step&, const StepOut&,
                      const State& after, const StateTouch&) -> std::string {
      ++checked;
      return after.queue ? "" : "the queue is gone";
    };
  };
  DiffResult r = RunDifferential(a, b, AddPopTrace(), options);
  EXPECT_EQ(r.verdict, Verdict::kPassed) << r.Format("a", "b");
  EXPECT_EQ(r.steps_run, 2);
  EXPECT_EQ(checked, 2);  // step 1 on a and on b
}

// What the generator makes: no file, no lines, a name and a seed.
Trace GeneratedAddPopTrace() {
  Trace t = AddPopTrace();
  t.path.clear();
  t.header.name = "generated/queue/seed-7";
  t.header.seed = 7;
  for (Step& s : t.steps) s.line = 0;
  return t;
}

TEST(DifferentialTest, AGeneratedTraceCitesStepAndSeedNeverLineZero) {
  ToySystem a, b;
  b.skew = 1;
  b.skew_from_step = 4;
  DiffResult r = RunDifferential(a, b, GeneratedAddPopTrace());
  ASSERT_EQ(r.verdict, Verdict::kFailed);
  const std::string text = r.Format("model", "impl");
  EXPECT_EQ(
      text.substr(0, text.find('\n')),
      "generated/queue/seed-7 (seed 7): step 4 (q_pop) t=0: out.attempts");
  EXPECT_EQ(text.find(":0:"), std::string::npos) << text;
}

TEST(DifferentialTest, AGeneratedTraceCheckFailureCitesStepAndSeed) {
  ToySystem a, b;
  DiffOptions options;
  options.make_check = [](const TraceHeader&) -> StepCheck {
    return [](const State&, const Step& step, const StepOut&, const State&,
              const StateTouch&) -> std::string {
      return step.op == Op::kQPop ? "popped" : "";
    };
  };
  DiffResult r = RunDifferential(a, b, GeneratedAddPopTrace(), options);
  ASSERT_EQ(r.verdict, Verdict::kFailed);
  EXPECT_EQ(r.Format("model", "impl"),
            "model: generated/queue/seed-7 (seed 7): step 3 (q_pop): popped");
}

TEST(DifferentialTest, ARefusalShowsTheMessageNotTheStatusCode) {
  ToySystem a, b;
  b.refuse_op = Op::kQPop;
  DiffResult r = RunDifferential(a, b, AddPopTrace());
  ASSERT_EQ(r.verdict, Verdict::kFailed);
  EXPECT_EQ(r.divergence->actual, "(refused: toy: refused)");
  EXPECT_EQ(r.Format("model", "impl").find("INVALID_ARGUMENT"),
            std::string::npos);
}

TEST(DifferentialTest, StepLocationNamesFileLineOrNameAndSeed) {
  EXPECT_EQ(StepLocation("t.jsonl", "t", std::nullopt, 7, 6, "q_pop"),
            "t.jsonl:7: step 6 (q_pop)");
  EXPECT_EQ(StepLocation("t.jsonl", "t", std::nullopt, 0, 6, "q_pop"),
            "t.jsonl: step 6 (q_pop)");
  EXPECT_EQ(StepLocation("", "g", 3, 0, 6, "q_pop"),
            "g (seed 3): step 6 (q_pop)");
  EXPECT_EQ(StepLocation("", "g", std::nullopt, 0, 6, "q_pop"),
            "g: step 6 (q_pop)");
}

TEST(RecordTraceTest, RecordedTraceReplaysOnTheSameSystem) {
  ToySystem recorder, sut;
  absl::StatusOr<Trace> recorded = RecordTrace(recorder, AddPopTrace());
  ASSERT_TRUE(recorded.ok()) << recorded.status();
  ASSERT_EQ(recorded->steps.size(), 5u);
  for (const Step& s : recorded->steps) ASSERT_NE(s.expect, nullptr);
  EXPECT_EQ(Replay(sut, *recorded).verdict, Verdict::kPassed);
  sut.skew = 3;
  EXPECT_EQ(Replay(sut, *recorded).verdict, Verdict::kFailed);
}

TEST(RecordTraceTest, ARefusedStepIsAnErrorNamingTheStep) {
  ToySystem recorder;
  recorder.refuse_op = Op::kQPop;
  absl::StatusOr<Trace> recorded = RecordTrace(recorder, AddPopTrace());
  ASSERT_FALSE(recorded.ok());
  EXPECT_NE(recorded.status().message().find("toy.jsonl:4: step 3 (q_pop)"),
            std::string::npos)
      << recorded.status();
}

TEST(RecordTraceTest, AStepTheVersionCannotApplyTruncatesTheRecording) {
  ToySystem recorder;
  recorder.refuse_op = Op::kQPop;
  recorder.refusal_not_applicable = true;
  Trace in = AddPopTrace();
  in.header.upstream = "v1.30.12";
  absl::StatusOr<Trace> recorded = RecordTrace(recorder, in);
  ASSERT_TRUE(recorded.ok()) << recorded.status();
  EXPECT_EQ(recorded->steps.size(), 2u);
  ASSERT_TRUE(recorded->header.truncated.has_value());
  EXPECT_EQ(recorded->header.truncated->at_step, 3);
  EXPECT_EQ(recorded->header.truncated->reason,
            "q_pop: not in this version (not applicable in v1.30.12: this "
            "step and the later ones dropped)");
}

// The steps before a divergence are the last three both systems agreed on,
// however many there were; the description is the header's.
TEST(DifferentialTest, ADivergenceCarriesTheLastStepsAndTheDescription) {
  Trace t;
  t.path = "long.jsonl";
  t.header.layer = Layer::kQueue;
  t.header.description = "three adds, three pops";
  for (int i = 0; i < 6; ++i) {
    Step step;
    step.line = i + 2;
    step.t = 10 * (i + 1);
    step.op = i < 3 ? Op::kQAdd : Op::kQPop;
    if (i < 3) {
      auto p = std::make_shared<Pod>();
      p->namespace_ = "d";
      p->name = std::string(1, static_cast<char>('a' + i));
      p->priority = i;
      step.pod = p;
    }
    t.steps.push_back(step);
  }
  ToySystem a, b;
  b.skew = 1;
  b.skew_from_step = 6;
  DiffResult r = RunDifferential(a, b, t);
  ASSERT_EQ(r.verdict, Verdict::kFailed);
  ASSERT_TRUE(r.divergence.has_value());
  EXPECT_EQ(r.divergence->step, 6);
  EXPECT_EQ(r.divergence->t, 60);
  EXPECT_EQ(r.divergence->step_summary, "q_pop");
  EXPECT_EQ(r.divergence->description, "three adds, three pops");
  EXPECT_EQ(
      r.divergence->before,
      (std::vector<std::string>{"step 3 t=30: q_add d/c(priority=2)",
                                "step 4 t=40: q_pop", "step 5 t=50: q_pop"}));
  // Run again on the same Differential's systems: nothing carried over.
  Differential d(a, b);
  ASSERT_FALSE(d.Configure(t.header, t.path).has_value());
  std::optional<DiffResult> first;
  for (int i = 0; i < 6 && !first; ++i) first = d.Apply(t.steps[i]);
  ASSERT_TRUE(first.has_value());
  ASSERT_FALSE(d.Configure(t.header, t.path).has_value());
  b.skew_from_step = 4;  // ToySystem counts steps since Configure
  std::optional<DiffResult> again;
  for (int i = 0; i < 6 && !again; ++i) again = d.Apply(t.steps[i]);
  ASSERT_TRUE(again.has_value());
  ASSERT_TRUE(again->divergence.has_value());
  EXPECT_EQ(again->divergence->step, 4);
  EXPECT_EQ(again->divergence->before,
            (std::vector<std::string>{"step 1 t=10: q_add d/a(priority=0)",
                                      "step 2 t=20: q_add d/b(priority=1)",
                                      "step 3 t=30: q_add d/c(priority=2)"}));
}

TEST(DifferentialTest, ARefusalIsADifferenceToo) {
  ToySystem a, b;
  b.refuse_op = Op::kQPop;
  DiffResult r = RunDifferential(a, b, AddPopTrace());
  ASSERT_TRUE(r.divergence.has_value());
  ASSERT_EQ(r.divergence->differences.size(), 1u);
  EXPECT_EQ(r.divergence->differences[0].path, "out (refused)");
  EXPECT_EQ(r.divergence->differences[0].actual, r.divergence->actual);
  EXPECT_EQ(r.divergence->before.size(), 2u);
  EXPECT_EQ(r.divergence->step_summary, "q_pop");
}

}  // namespace
}  // namespace schedtrace
