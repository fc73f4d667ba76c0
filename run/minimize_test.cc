#include "run/minimize.h"

#include <string>
#include <vector>

#include "core/codec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "run/differential.h"

namespace schedtrace {
namespace {

using ::testing::ElementsAre;

std::string Pod(const std::string& name) {
  return R"({"metadata":{"namespace":"d","name":")" + name + R"(","uid":"u-)" +
         name + R"("}})";
}

Trace QueueTrace(const std::vector<std::string>& steps) {
  std::string text =
      R"({"schedtrace":1,"name":"q","layer":"queue","config":{}})";
  int t = 0;
  for (const std::string& s : steps) {
    text += "\n{\"t\":" + std::to_string(++t) + "," + s + "}";
  }
  absl::StatusOr<Trace> trace = ParseTrace(text, "q.jsonl");
  EXPECT_TRUE(trace.ok()) << trace.status();
  return *trace;
}

std::string Add(const std::string& name) {
  return R"("op":"q_add","pod":)" + Pod(name);
}
std::string Del(const std::string& name) {
  return R"("op":"q_delete","pod":)" + Pod(name);
}
const char kPop[] = R"("op":"q_pop")";

std::vector<std::string> Ops(const Trace& t) {
  std::vector<std::string> ops;
  for (const Step& s : t.steps) {
    std::string op(OpName(s.op));
    if (s.pod) op += " " + s.pod->name;
    for (const std::string& k : s.pod_keys) op += " " + k;
    ops.push_back(op);
  }
  return ops;
}

TEST(MinimizeTest, ShrinksStepsToTheOnesTheFailureNeeds) {
  // Fails when pod c is added and later deleted.
  Trace trace = QueueTrace({Add("a"), Add("b"), kPop, Add("c"), Add("d"), kPop,
                            Del("a"), Add("e"), Del("c"), kPop});
  FailureOf failure = [](const Trace& t) -> std::optional<std::string> {
    bool added = false;
    for (const Step& s : t.steps) {
      if (s.op == Op::kQAdd && s.pod->name == "c") added = true;
      if (s.op == Op::kQDelete && s.pod->name == "c" && added) {
        return "c added then deleted";
      }
    }
    return std::nullopt;
  };
  absl::StatusOr<MinimizeResult> m = Minimize(trace, failure);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT(Ops(m->trace), ElementsAre("q_add c", "q_delete c"));
  EXPECT_EQ(m->signature, "c added then deleted");
  EXPECT_GT(m->runs, 1);
  for (const Step& s : m->trace.steps) EXPECT_EQ(s.expect, nullptr);
}

TEST(MinimizeTest, DropsPodsFromActivateLists) {
  Trace trace = QueueTrace(
      {Add("x"), Add("y"), R"("op":"q_activate","pods":["d/x","d/y"])", kPop});
  FailureOf failure = [](const Trace& t) -> std::optional<std::string> {
    for (const Step& s : t.steps) {
      for (const std::string& k : s.pod_keys) {
        if (k == "d/x") return "activates x";
      }
    }
    return std::nullopt;
  };
  absl::StatusOr<MinimizeResult> m = Minimize(trace, failure);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT(Ops(m->trace), ElementsAre("q_activate d/x"));
  ASSERT_EQ(m->trace.steps[0].pods.size(), 1u);
  EXPECT_EQ(m->trace.steps[0].pods[0]->name, "x");
}

TEST(MinimizeTest, KeepsOnlyFailuresOfTheSameKind) {
  // Two ways to fail; only the original's counts.
  Trace trace = QueueTrace({Add("a"), Del("a"), Add("b")});
  FailureOf failure = [](const Trace& t) -> std::optional<std::string> {
    bool has_b = false, has_del = false;
    for (const Step& s : t.steps) {
      has_b |= s.op == Op::kQAdd && s.pod->name == "b";
      has_del |= s.op == Op::kQDelete;
    }
    if (has_b && has_del) return "both";
    if (has_del) return "delete only";
    return std::nullopt;
  };
  absl::StatusOr<MinimizeResult> m = Minimize(trace, failure);
  ASSERT_TRUE(m.ok());
  EXPECT_THAT(Ops(m->trace), ElementsAre("q_delete a", "q_add b"));
}

TEST(MinimizeTest, APassingTraceIsAnError) {
  Trace trace = QueueTrace({Add("a")});
  absl::StatusOr<MinimizeResult> m =
      Minimize(trace, [](const Trace&) { return std::nullopt; });
  EXPECT_EQ(m.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(MinimizeTest, WithoutPodDropsEveryStepNamingIt) {
  Trace trace = QueueTrace(
      {Add("a"), Add("b"),
       R"("op":"q_update","old":)" + Pod("a") + R"(,"new":)" + Pod("a"),
       R"("op":"q_move_all","event":{"resource":"Node","action":"Add","label":"NodeAdd"},"precheck":["d/a","d/b"])",
       R"("op":"q_activate","pods":["d/a"])", Del("b")});
  Trace without = WithoutPod(trace, "d/a");
  EXPECT_THAT(Ops(without), ElementsAre("q_add b", "q_move_all", "q_delete b"));
  EXPECT_THAT(*without.steps[1].precheck, ElementsAre("d/b"));
  EXPECT_THAT(PodsNamed(trace.steps[3]), ElementsAre("d/a", "d/b"));
}

TEST(FailureSignatureTest, IsCoarseEnoughToSurviveShrinking) {
  TraceResult pass;
  EXPECT_EQ(FailureSignature(pass), std::nullopt);
  TraceResult diverged;
  diverged.verdict = Verdict::kFailed;
  diverged.divergence =
      Divergence{7, 9, "q_pop", "state.queue.active[3].attempts", "1", "2"};
  EXPECT_EQ(FailureSignature(diverged),
            "FAIL q_pop state.queue.active[].attempts");
  TraceResult property;
  property.verdict = Verdict::kFailed;
  property.message =
      "t.jsonl:4: step 3 (q_add): property 1 (no pod in two queues): d/a is "
      "in activeQ and backoffQ [pods: d/a]";
  EXPECT_EQ(FailureSignature(property),
            "FAIL property 1 (no pod in two queues)");
  TraceResult error;
  error.verdict = Verdict::kError;
  // A child's failure, by the phrase that names its kind: the same for
  // every timeout, whatever the child's name, line or stderr.
  error.message =
      "t.jsonl:4: step 3 (pod_add): exec:a:b: no reply to the step at line 4 "
      "(pod_add) within 100 ms (--timeout-ms)\nstderr: x";
  EXPECT_EQ(FailureSignature(error), "ERROR pod_add no reply to");
  error.message =
      "t.jsonl:9: step 8 (pod_add): exec:a:b: closed its stdout before "
      "answering the step at line 9 (pod_add)";
  EXPECT_EQ(FailureSignature(error), "ERROR pod_add closed its stdout");
  // Anything else: its first line, numbers written N.
  error.message = "t.jsonl:4: step 3 (pod_add): node 17 of 20 is gone\nmore";
  EXPECT_EQ(FailureSignature(error), "ERROR pod_add node N of N is gone");
  TraceResult skipped;
  skipped.verdict = Verdict::kSkipped;
  EXPECT_EQ(FailureSignature(skipped), std::nullopt);
}

// A queue-layer stand-in: pops report the last pod added. `bug_at` > 0
// makes the bug_at-th q_add report an error.
class FakeQueue : public System {
 public:
  explicit FakeQueue(int bug_at = 0) : bug_at_(bug_at) {}
  absl::Status Configure(const TraceHeader&) override {
    adds_ = 0;
    last_.clear();
    return absl::OkStatus();
  }
  absl::StatusOr<StepOut> Apply(const Step& step) override {
    StepOut out;
    if (step.op == Op::kQAdd) {
      last_ = step.pod->Key();
      out.error = ++adds_ == bug_at_;
    } else if (step.op == Op::kQPop) {
      out.popped_present = true;
      if (!last_.empty()) out.popped = last_;
    }
    return out;
  }
  State Snapshot() const override {
    State s;
    s.queue = QueueState{};
    return s;
  }

 private:
  int bug_at_;
  int adds_ = 0;
  std::string last_;
};

TEST(MinimizeTest, ShrinksADisagreementFoundByTheDifferentialRunner) {
  Trace trace = QueueTrace(
      {Add("a"), kPop, Add("b"), kPop, Add("c"), Add("d"), kPop, Add("e")});
  FakeQueue reference, same;
  EXPECT_EQ(RunDifferential(reference, same, trace).verdict, Verdict::kPassed);
  FailureOf failure = [](const Trace& t) {
    FakeQueue ref, buggy(/*bug_at=*/3);
    DiffResult r = RunDifferential(ref, buggy, t);
    return FailureSignature(r.verdict, r.divergence, r.message);
  };
  absl::StatusOr<MinimizeResult> m = Minimize(trace, failure);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->signature, "FAIL q_add out.error");
  ASSERT_EQ(m->trace.steps.size(), 3u);  // the third add is the bug
  for (const Step& s : m->trace.steps) EXPECT_EQ(s.op, Op::kQAdd);
}

TEST(WithExpectationsFromTest, RecordsOutAndState) {
  Trace trace = QueueTrace({Add("a"), kPop});
  FakeQueue q;
  Trace recorded = WithExpectationsFrom(q, trace);
  ASSERT_EQ(recorded.steps.size(), 2u);
  ASSERT_NE(recorded.steps[1].expect, nullptr);
  EXPECT_EQ(EncodeStep(recorded.steps[1]).find("\"popped\":\"d/a\"") !=
                std::string::npos,
            true);
  FakeQueue other;
  EXPECT_EQ(Replay(other, recorded).verdict, Verdict::kPassed);
}

}  // namespace
}  // namespace schedtrace
