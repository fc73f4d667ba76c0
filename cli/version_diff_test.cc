// The search of cli/version_diff.h on a system made for it (what each step
// emits depends on chosen switches, so every kind of cause is pinned
// whatever the model does), then on the model and golden traces whose
// cross-version behaviour is known.
#include "cli/version_diff.h"

#include <string>
#include <vector>

#include "core/codec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "model/upstream.h"

namespace schedtrace::cli {
namespace {

using model::Upstream;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Steps of the fake trace: c_cleanup steps at t = 1, 2, ...; the fake
// reads `t` as the step number.
Trace FakeTrace(const std::string& name, int steps) {
  Trace t;
  t.path = name + ".jsonl";
  t.header.name = name;
  t.header.layer = Layer::kQueue;
  t.header.config.features = {{"PodSchedulingReadiness", true}};
  t.header_line = 1;
  for (int i = 1; i <= steps; ++i) {
    Step s;
    s.t = i;
    s.line = i + 1;
    s.op = Op::kQPop;
    t.steps.push_back(s);
  }
  return t;
}

// Its out.attempts is the step number, plus what the header's name turns
// on at step 2 (see each test); in "plain" and "alone", its state's
// moveRequestCycle is 7 with queueing_hints_skip_uninteresting_events from
// step 2 on, else 0.
class FakeSystem : public System {
 public:
  explicit FakeSystem(Upstream up) : up_(std::move(up)) {}
  absl::Status Configure(const TraceHeader& h) override {
    name_ = h.name;
    if (name_ == "refused") return absl::InvalidArgumentError("no thanks");
    return absl::OkStatus();
  }
  absl::StatusOr<StepOut> Apply(const Step& step) override {
    const int64_t n = step.t;
    if (name_ == "errors" && n == 3) return absl::InternalError("boom");
    StepOut out;
    int attempts = static_cast<int>(n);
    const Upstream& u = up_;
    const int b = u.backoff_pods_without_rejector_plugins,
              p = u.permit_rejection_is_fit_error,
              f = u.fit_skips_zero_requests, c = u.pop_clears_rejector_plugins;
    if (n == 2) {
      if (name_ == "alone") attempts += 100 * b;
      if (name_ == "together") attempts += 100 * (p && c);
      if (name_ == "needed") attempts += 100 * (p && b + f + c >= 2);
      if (name_ == "combination") attempts += 100 * (p + b + f + c >= 3);
    }
    // v1.25.12 to v1.26.7: from step 1 when asked.
    if (name_ == "later" && u.pre_enqueue_and_scheduling_gates) attempts += 1;
    if (name_ == "later" && n >= 3) attempts += 100 * b;
    out.attempts = attempts;
    if (name_ == "plain" || name_ == "alone") {
      if (n >= 2 && u.queueing_hints_skip_uninteresting_events) cycle_ = 7;
    }
    return out;
  }
  State Snapshot() const override {
    State s;
    s.queue = QueueState{};
    s.queue->move_request_cycle = cycle_;
    return s;
  }

 private:
  Upstream up_;
  std::string name_;
  int64_t cycle_ = 0;
};

VersionDiffOptions Fake(std::vector<std::string> versions = {
                            "v1.25.12", "v1.26.7", "v1.30.12"}) {
  VersionDiffOptions o;
  o.versions = std::move(versions);
  o.make_system = [](const Upstream& up) {
    return std::make_unique<FakeSystem>(up);
  };
  return o;
}

std::vector<std::string> Names(const PairChange& c) {
  std::vector<std::string> out;
  for (const model::UpstreamSwitch* s : c.switches) {
    out.push_back(std::string(s->name));
  }
  return out;
}

TEST(ParseVersionListTest, KnownVersionsOldestFirst) {
  absl::StatusOr<std::vector<std::string>> v =
      ParseVersionList("v1.30.12,v1.26.7");
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_THAT(*v, ElementsAre("v1.26.7", "v1.30.12"));
  EXPECT_THAT(*ParseVersionList("v1.30.12,v1.25.12,v1.26.7"),
              ElementsAre("v1.25.12", "v1.26.7", "v1.30.12"));
  struct Bad {
    const char* list;
    const char* says;
  };
  for (const Bad& b :
       {Bad{"v1.26.7", "at least two"}, Bad{"v1.26.7,v1.26.7", "twice"},
        Bad{"v1.26.7,v1.31.0", "not \"v1.31.0\""}, Bad{"v1.26.7,", "not \"\""},
        Bad{"", "v1.25.12, v1.26.7, v1.30.12, v1.35.4, v1.36.3 or v1.37.2"}}) {
    absl::StatusOr<std::vector<std::string>> r = ParseVersionList(b.list);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << b.list;
    EXPECT_THAT(r.status().message(), HasSubstr(b.says)) << b.list;
  }
}

TEST(CompareVersionsTest, TheSameOnEveryVersion) {
  VersionDiff d = CompareVersions(FakeTrace("plain", 1), Fake());
  EXPECT_TRUE(d.same);
  EXPECT_FALSE(d.stopped);
  EXPECT_EQ(d.steps, 1);
  EXPECT_EQ(d.steps_run, 1);
  EXPECT_THAT(d.versions, ElementsAre("v1.25.12", "v1.26.7", "v1.30.12"));
  EXPECT_TRUE(d.changes.empty());
  EXPECT_TRUE(d.did.empty());
}

TEST(CompareVersionsTest, TheFirstDifferenceAndEveryDifferenceThere) {
  VersionDiff d = CompareVersions(FakeTrace("alone", 4), Fake());
  ASSERT_FALSE(d.same);
  EXPECT_EQ(d.step, 2);
  EXPECT_EQ(d.line, 3);
  EXPECT_EQ(d.op, "q_pop");
  EXPECT_EQ(d.summary, "q_pop");
  EXPECT_EQ(d.steps_run, 2);
  ASSERT_EQ(d.did.size(), 3u);
  EXPECT_EQ(d.did[0].version, "v1.25.12");
  EXPECT_EQ(d.did[0].out, R"({"attempts":2})");
  EXPECT_EQ(d.did[1].out, R"({"attempts":2})");
  EXPECT_EQ(d.did[2].out, R"({"attempts":102})");
  ASSERT_EQ(d.changes.size(), 1u);  // v1.25.12 -> v1.26.7 never differs
  const PairChange& c = d.changes[0];
  EXPECT_EQ(c.older, "v1.26.7");
  EXPECT_EQ(c.newer, "v1.30.12");
  EXPECT_EQ(c.step, 2);
  // Its out needs b, its state q: neither alone, the two together.
  EXPECT_EQ(c.cause, Cause::kTogether);
  EXPECT_THAT(Names(c), ElementsAre("queueing_hints_skip_uninteresting_events",
                                    "backoff_pods_without_rejector_plugins"));
  // Every difference of out and state there, the older's value first.
  ASSERT_EQ(c.differences.size(), 2u);
  EXPECT_EQ(c.differences[0].path, "out.attempts");
  EXPECT_EQ(c.differences[0].expected, "2");
  EXPECT_EQ(c.differences[0].actual, "102");
  EXPECT_EQ(c.differences[1].path, "state.queue.moveRequestCycle");
  EXPECT_EQ(c.differences[1].expected, "0");
  EXPECT_EQ(c.differences[1].actual, "7");
}

TEST(CompareVersionsTest, OutOnlyIgnoresTheStatesBookkeeping) {
  // In "plain", v1.30.12's moveRequestCycle differs from step 2 on, its out
  // never.
  VersionDiff d =
      CompareVersions(FakeTrace("plain", 3), Fake({"v1.26.7", "v1.30.12"}));
  ASSERT_FALSE(d.same);
  EXPECT_EQ(d.step, 2);
  EXPECT_THAT(Names(d.changes[0]),
              ElementsAre("queueing_hints_skip_uninteresting_events"));
  VersionDiffOptions o = Fake({"v1.26.7", "v1.30.12"});
  o.compare_state = false;
  EXPECT_TRUE(CompareVersions(FakeTrace("plain", 3), o).same);
  // "alone" differs in its out: the state's differences there are listed.
  d = CompareVersions(FakeTrace("alone", 3), o);
  ASSERT_FALSE(d.same);
  EXPECT_EQ(d.changes[0].cause, Cause::kAlone);
  EXPECT_THAT(Names(d.changes[0]),
              ElementsAre("backoff_pods_without_rejector_plugins"));
  EXPECT_EQ(d.changes[0].differences.size(), 2u);
}

TEST(CompareVersionsTest, TwoSwitchesTogether) {
  VersionDiffOptions o = Fake({"v1.26.7", "v1.30.12"});
  o.compare_state = false;
  VersionDiff d = CompareVersions(FakeTrace("together", 3), o);
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].cause, Cause::kTogether);
  EXPECT_THAT(Names(d.changes[0]), ElementsAre("permit_rejection_is_fit_error",
                                               "pop_clears_rejector_plugins"));
  EXPECT_EQ(d.changes[0].other_pairs, 0);
}

TEST(CompareVersionsTest, ASwitchNeededWithOthers) {
  // p && (two of b, f, c): no one or two alone; without p, none.
  VersionDiffOptions o = Fake({"v1.26.7", "v1.30.12"});
  o.compare_state = false;
  VersionDiff d = CompareVersions(FakeTrace("needed", 3), o);
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].cause, Cause::kNeeded);
  EXPECT_THAT(Names(d.changes[0]),
              ElementsAre("permit_rejection_is_fit_error"));
}

TEST(CompareVersionsTest, ACombinationOfEverySwitchThatDiffers) {
  // Three of p, b, f, c: no one or two do it, and any one reverted leaves
  // three.
  VersionDiffOptions o = Fake({"v1.26.7", "v1.30.12"});
  o.compare_state = false;
  VersionDiff d = CompareVersions(FakeTrace("combination", 3), o);
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].cause, Cause::kCombination);
  // Every switch that differs between v1.26.7 and v1.30.12.
  const Upstream a = *model::UpstreamProfile("v1.26.7");
  const Upstream b = *model::UpstreamProfile("v1.30.12");
  size_t differ = 0;
  for (const model::UpstreamSwitch& s : model::UpstreamSwitches()) {
    differ += a.*s.field != b.*s.field;
  }
  EXPECT_EQ(d.changes[0].switches.size(), differ);
}

TEST(CompareVersionsTest, EachUpgradeAtItsOwnFirstDifference) {
  // v1.25.12 -> v1.26.7 from step 1, v1.26.7 -> v1.30.12 only at step 3:
  // the older upgrade does not hide the newer one.
  VersionDiffOptions o = Fake();
  o.compare_state = false;
  VersionDiff d = CompareVersions(FakeTrace("later", 4), o);
  ASSERT_FALSE(d.same);
  EXPECT_EQ(d.step, 1);
  ASSERT_EQ(d.changes.size(), 2u);
  EXPECT_EQ(d.changes[0].older, "v1.25.12");
  EXPECT_EQ(d.changes[0].step, 1);
  EXPECT_THAT(Names(d.changes[0]),
              ElementsAre("pre_enqueue_and_scheduling_gates"));
  EXPECT_EQ(d.changes[1].older, "v1.26.7");
  EXPECT_EQ(d.changes[1].step, 3);
  EXPECT_EQ(d.changes[1].line, 4);
  EXPECT_EQ(d.changes[1].older_did.out, R"({"attempts":4})");
  EXPECT_EQ(d.changes[1].newer_did.out, R"({"attempts":104})");
  EXPECT_THAT(Names(d.changes[1]),
              ElementsAre("backoff_pods_without_rejector_plugins"));
}

TEST(CompareVersionsTest, EveryVersionStoppingAlikeIsNoDifference) {
  VersionDiff refused = CompareVersions(FakeTrace("refused", 2), Fake());
  EXPECT_TRUE(refused.same);
  EXPECT_TRUE(refused.stopped);
  EXPECT_EQ(refused.step, 0);
  EXPECT_EQ(refused.did.size(), 3u);
  EXPECT_EQ(refused.did[0].out, "refused: no thanks");
  VersionDiff errors = CompareVersions(FakeTrace("errors", 4), Fake());
  EXPECT_TRUE(errors.same);
  EXPECT_TRUE(errors.stopped);
  EXPECT_EQ(errors.step, 3);
  EXPECT_EQ(errors.did[2].out, "error: boom");
}

TEST(CompareVersionsTest, AVersionRefusingTheHeaderDiffersThere) {
  // v1.30.12 locks PodSchedulingReadiness on (model::UpstreamFor): a trace
  // turning it off is refused there, and run on the others.
  Trace t = FakeTrace("alone", 2);
  t.header.config.features["PodSchedulingReadiness"] = false;
  VersionDiff d = CompareVersions(t, Fake());
  ASSERT_FALSE(d.same);
  EXPECT_EQ(d.step, 0);
  EXPECT_EQ(d.line, 1);
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].cause, Cause::kHeader);
  EXPECT_EQ(d.changes[0].older_did.out, "");
  EXPECT_THAT(d.changes[0].newer_did.out,
              HasSubstr("refused: model: features.PodSchedulingReadiness"));
  EXPECT_EQ(d.changes[0].differences[0].path, "header");
  EXPECT_EQ(d.changes[0].differences[0].expected, "(accepted)");
}

TEST(CompareVersionsTest, AnInterruptStopsIt) {
  VersionDiffOptions o = Fake();
  o.keep_going = [] { return false; };
  EXPECT_TRUE(CompareVersions(FakeTrace("alone", 3), o).interrupted);
}

// On the model: golden traces whose behaviour on each version the
// recordings of that version pin (golden/upstream-v*/).
struct Known {
  const char* trace;  // under golden/upstream-v1.26.7/
  int step;           // the first difference; 0: the same on all
  const char* older;  // the upgrade that differs, and why
  const char* switch_name;
};

TEST(CompareVersionsTest, OnTheModelGoldenTracesNameTheirChange) {
  for (const Known& k : {
           Known{"queue/activate-from-backoff.jsonl", 0, "", ""},
           Known{"queue/gated-pod-lifecycle.jsonl", 1, "v1.25.12",
                 "pre_enqueue_and_scheduling_gates"},
           Known{"queue/move-all-empty-plugins.jsonl", 3, "v1.26.7",
                 "backoff_pods_without_rejector_plugins"},
           Known{"cache/assume-add-confirms.jsonl", 5, "v1.25.12",
                 "add_pod_of_assumed_pod_rebuilds_state"},
       }) {
    absl::StatusOr<Trace> t =
        ReadTraceFile(std::string(SCHEDTRACE_SOURCE_DIR) +
                      "/golden/upstream-v1.26.7/" + k.trace);
    ASSERT_TRUE(t.ok()) << t.status();
    VersionDiffOptions three;
    three.versions = {"v1.25.12", "v1.26.7", "v1.30.12"};
    VersionDiff d = CompareVersions(*t, three);
    EXPECT_EQ(d.same, k.step == 0) << k.trace;
    if (k.step == 0) continue;
    EXPECT_EQ(d.step, k.step) << k.trace;
    ASSERT_EQ(d.changes.size(), 1u) << k.trace;
    EXPECT_EQ(d.changes[0].older, k.older) << k.trace;
    EXPECT_EQ(d.changes[0].cause, Cause::kAlone) << k.trace;
    EXPECT_THAT(Names(d.changes[0]), ElementsAre(k.switch_name)) << k.trace;
  }
}

}  // namespace
}  // namespace schedtrace::cli
