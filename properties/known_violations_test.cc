#include "properties/known_violations.h"

#include <map>
#include <memory>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "harness/codec.h"
#include "model/system.h"
#include "properties/checker.h"

namespace schedtrace::properties {
namespace {

std::string SourcePath(std::string_view relative) {
  return std::string(SCHEDTRACE_SOURCE_DIR) + "/" + std::string(relative);
}

// Replays `path` against the model with the properties on; returns the ids
// of the registry entries that classified a violation, and fails the test on
// a violation no entry explains.
std::set<std::string> KnownIdsFiredBy(const std::string& path) {
  std::set<std::string> fired;
  absl::StatusOr<Trace> trace = ReadTraceFile(path);
  EXPECT_TRUE(trace.ok()) << trace.status();
  if (!trace.ok()) return fired;
  std::unique_ptr<System> sut = model::NewSystem();
  EXPECT_TRUE(sut->Configure(trace->header).ok()) << path;
  Checker checker(trace->header);
  State before = sut->Snapshot();
  for (const Step& step : trace->steps) {
    absl::StatusOr<StepOut> out = sut->Apply(step);
    EXPECT_TRUE(out.ok()) << path << ":" << step.line;
    if (!out.ok() || out->fatal) break;
    State after = sut->Snapshot();
    for (const Finding& f : checker.Observe(before, step, *out, after)) {
      EXPECT_NE(f.known, nullptr)
          << path << ":" << step.line << ": " << f.violation.Format();
      if (f.known != nullptr) fired.insert(std::string(f.known->id));
    }
    before = std::move(after);
  }
  return fired;
}

// Every entry names a trace in the repository that shows it: replaying that
// trace on the model fires the entry, and nothing unexplained.
TEST(KnownViolationsTest, EveryEntrysTraceFiresIt) {
  std::set<std::string> ids;
  for (const KnownViolation& k : KnownViolations()) {
    EXPECT_TRUE(ids.insert(std::string(k.id)).second) << "duplicate " << k.id;
    EXPECT_FALSE(k.upstream.empty()) << k.id;
    EXPECT_FALSE(k.summary.empty()) << k.id;
    ASSERT_NE(k.matches, nullptr) << k.id;
    EXPECT_TRUE(
        KnownIdsFiredBy(SourcePath(k.trace)).contains(std::string(k.id)))
        << k.id << " does not fire on " << k.trace;
  }
}

// The regression traces of still-present upstream bugs fire exactly the
// entries that name those bugs.
TEST(KnownViolationsTest, RegressionTracesFireTheirEntries) {
  EXPECT_EQ(KnownIdsFiredBy(SourcePath(
                "golden/regression/upstream/queue/"
                "issue118226-issue120662-in-flight-update-copy.jsonl")),
            std::set<std::string>{"in-flight-update-requeues"});
  EXPECT_EQ(KnownIdsFiredBy(
                SourcePath("golden/regression/upstream/scheduler/"
                           "pr141255-recreated-uid-while-nominated.jsonl")),
            std::set<std::string>{"recreated-uid-phantom-nomination"});
  EXPECT_EQ(
      KnownIdsFiredBy(SourcePath("golden/regression/upstream/scheduler/"
                                 "pr141255-recreated-uid-while-waiting.jsonl")),
      std::set<std::string>{"recreated-uid-waiting-pod-survives"});
  // Its uid changed too, but for another scheduler: only this entry (the
  // two above, whose keys also changed uid but stayed ours, must not match
  // it: their sets are exact).
  EXPECT_EQ(KnownIdsFiredBy(
                SourcePath("golden/regression/upstream/scheduler/"
                           "recreated-other-scheduler-stays-queued.jsonl")),
            std::set<std::string>{"recreated-other-scheduler-stays-queued"});
  EXPECT_TRUE(
      KnownIdsFiredBy(SourcePath("golden/regression/upstream/queue/"
                                 "issue86373-backoff-expiry-saturates.jsonl"))
          .empty());
}

// A checker counts the known violations it finds (known_counts), whether it
// keeps a copy of the header or refers to it, and its reused findings are
// each step's own.
TEST(CheckerTest, KnownCountsAgreeWithTheFindings) {
  for (const KnownViolation& k : KnownViolations()) {
    absl::StatusOr<Trace> trace = ReadTraceFile(SourcePath(k.trace));
    ASSERT_TRUE(trace.ok()) << trace.status();
    std::unique_ptr<System> sut = model::NewSystem();
    ASSERT_TRUE(sut->Configure(trace->header).ok()) << k.trace;
    Checker copying(trace->header);
    Checker referring(&trace->header);
    std::map<std::string, int> counted;
    State before = sut->Snapshot();
    for (const Step& step : trace->steps) {
      absl::StatusOr<StepOut> out = sut->Apply(step);
      if (!out.ok() || out->fatal) break;
      State after = sut->Snapshot();
      const std::vector<Finding>& a =
          copying.Observe(before, step, *out, after);
      const std::vector<Finding>& b =
          referring.Observe(before, step, *out, after);
      ASSERT_EQ(a.size(), b.size()) << k.trace << ":" << step.line;
      for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].violation.Format(), b[i].violation.Format());
        EXPECT_EQ(a[i].known, b[i].known);
        if (a[i].known != nullptr) ++counted[std::string(a[i].known->id)];
      }
      before = std::move(after);
    }
    EXPECT_TRUE(counted.contains(std::string(k.id))) << k.trace;
    EXPECT_EQ(copying.known_counts(), counted) << k.trace;
    EXPECT_EQ(referring.known_counts(), counted) << k.trace;
  }
}

// The phantom-nomination entry is about a key that changed uid: the same
// violation for a pod that kept its uid is a failure, not a known one.
TEST(KnownViolationsTest, PhantomNominationNeedsAUidChange) {
  TraceHeader header;
  header.layer = Layer::kScheduler;
  auto pod = [](const std::string& uid, const std::string& node) {
    auto p = std::make_shared<Pod>();
    p->namespace_ = "default";
    p->name = "r";
    p->uid = uid;
    p->scheduler_name = "default-scheduler";
    p->node_name = node;
    return p;
  };
  auto update = [](PodPtr old_pod, PodPtr new_pod) {
    Step s;
    s.op = Op::kPodUpdate;
    s.old_pod = std::move(old_pod);
    s.new_pod = std::move(new_pod);
    return s;
  };
  State s;
  s.nominated = Nominated{{"n1", {"default/r"}}};
  Step add;
  add.op = Op::kPodAdd;
  add.pod = pod("uid-1", "");
  Violation v{.property = 9, .detail = "nominated", .pods = {"default/r"}};

  History same(header);
  same.Observe(s, add, {});
  Step bound = update(add.pod, pod("uid-1", "n1"));
  same.Observe(s, bound, {});
  EXPECT_EQ(Classify(Observation{s, bound, {}, s, same}, v), nullptr);

  History changed(header);
  changed.Observe(s, add, {});
  Step recreated = update(add.pod, pod("uid-2", ""));
  changed.Observe(s, recreated, {});
  Step bound2 = update(recreated.new_pod, pod("uid-2", "n1"));
  changed.Observe(s, bound2, {});
  const KnownViolation* known =
      Classify(Observation{s, bound2, {}, s, changed}, v);
  ASSERT_NE(known, nullptr);
  EXPECT_EQ(known->id, "recreated-uid-phantom-nomination");

  // A uid change while the pod was not nominated leaves no phantom: a
  // later nomination that is not pending is a failure.
  State not_nominated;
  not_nominated.nominated = Nominated{};
  History unnominated(header);
  unnominated.Observe(not_nominated, add, {});
  unnominated.Observe(not_nominated, recreated, {});
  unnominated.Observe(s, bound2, {});
  EXPECT_EQ(Classify(Observation{s, bound2, {}, s, unnominated}, v), nullptr);
}

// Upstream's violations under hostile input: each regression trace fires
// its entry, and the same step a valid trace could take is not matched.
TEST(KnownViolationsTest, HostileInputTracesFireTheirEntries) {
  for (const char* id :
       {"gated-add-keeps-queued-copy", "duplicate-add-requeues-assumed",
        "delete-other-uid-keeps-nomination", "foreign-update-under-our-key"}) {
    const KnownViolation* entry = nullptr;
    for (const KnownViolation& k : KnownViolations()) {
      if (k.id == id) entry = &k;
    }
    ASSERT_NE(entry, nullptr) << id;
    EXPECT_TRUE(KnownIdsFiredBy(SourcePath(entry->trace)).contains(id)) << id;
  }
}

// A pod in two queues after an add that is not gated, or after an add of
// a pod that was in no queue before, is a failure.
TEST(KnownViolationsTest, GatedAddNeedsAGatedCopyBesideAQueuedOne) {
  TraceHeader header;
  header.layer = Layer::kQueue;
  History h(header);
  auto pod = std::make_shared<Pod>();
  pod->namespace_ = "default";
  pod->name = "p";
  pod->uid = "u";
  pod->scheduling_gates = {"example.com/wait"};
  Step add;
  add.op = Op::kQAdd;
  add.pod = pod;
  State before, after;
  before.queue = QueueState{};
  before.queue->active = {{"default/p", 0}};
  after.queue = QueueState{};
  after.queue->active = {{"default/p", 0}};
  QueuedPod gated{"default/p"};
  gated.gated = true;
  after.queue->unschedulable = {gated};
  Violation v{.property = 1, .detail = "two queues", .pods = {"default/p"}};
  const KnownViolation* known =
      Classify(Observation{before, add, {}, after, h}, v);
  ASSERT_NE(known, nullptr);
  EXPECT_EQ(known->id, "gated-add-keeps-queued-copy");
  // Not gated in unschedulablePods: a real failure.
  State ungated = after;
  ungated.queue->unschedulable[0].gated = false;
  EXPECT_EQ(Classify(Observation{before, add, {}, ungated, h}, v), nullptr);
  // In no queue before the add: a real failure.
  State empty;
  empty.queue = QueueState{};
  EXPECT_EQ(Classify(Observation{empty, add, {}, after, h}, v), nullptr);
}

// A requeued assumed pod is upstream's only when the step is an add of the
// very pod the cache holds; the same violation on a schedule_one is not.
TEST(KnownViolationsTest, DuplicateAddNeedsAnAddOfTheAssumedPod) {
  absl::StatusOr<Trace> trace =
      ReadTraceFile(SourcePath("golden/regression/upstream/scheduler/"
                               "duplicate-add-requeues-assumed.jsonl"));
  ASSERT_TRUE(trace.ok()) << trace.status();
  std::unique_ptr<System> sut = model::NewSystem();
  ASSERT_TRUE(sut->Configure(trace->header).ok());
  History h(trace->header);
  State before = sut->Snapshot();
  const Step* last = nullptr;
  State after;
  for (const Step& step : trace->steps) {
    absl::StatusOr<StepOut> out = sut->Apply(step);
    ASSERT_TRUE(out.ok());
    State now = sut->Snapshot();
    h.Observe(before, step, *out, &now);
    last = &step;
    if (&step != &trace->steps.back()) before = now;
    after = now;
  }
  ASSERT_NE(last, nullptr);
  ASSERT_EQ(last->op, Op::kPodAdd);
  const std::string key = last->pod->Key();
  Violation v{.property = 2, .detail = "requeued", .pods = {key}};
  const KnownViolation* known =
      Classify(Observation{before, *last, {}, after, h}, v);
  ASSERT_NE(known, nullptr);
  EXPECT_EQ(known->id, "duplicate-add-requeues-assumed");
  Step cycle;
  cycle.op = Op::kScheduleOne;
  EXPECT_EQ(Classify(Observation{before, cycle, {}, after, h}, v), nullptr);
  // An add carrying another uid than the assumed pod's: not this entry.
  Step other = *last;
  auto p = std::make_shared<Pod>(*last->pod);
  p->uid = "another-uid";
  other.pod = p;
  const KnownViolation* k2 =
      Classify(Observation{before, other, {}, after, h}, v);
  EXPECT_TRUE(k2 == nullptr || k2->id != "duplicate-add-requeues-assumed");
}
}  // namespace
}  // namespace schedtrace::properties
