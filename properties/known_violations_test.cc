#include "properties/known_violations.h"

#include <map>
#include <memory>
#include <set>
#include <string>

#include "core/codec.h"
#include "core/upstream_versions.h"
#include "gtest/gtest.h"
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
// With `version`, the trace runs as that version's.
std::set<std::string> KnownIdsFiredBy(const std::string& path,
                                      const std::string& version = "") {
  std::set<std::string> fired;
  absl::StatusOr<Trace> trace = ReadTraceFile(path);
  EXPECT_TRUE(trace.ok()) << trace.status();
  if (!trace.ok()) return fired;
  if (!version.empty()) trace->header.upstream = version;
  std::unique_ptr<System> sut = model::NewSystem();
  const absl::Status configured = sut->Configure(trace->header);
  if (absl::IsUnimplemented(configured)) return {"(not modelled)"};
  EXPECT_TRUE(configured.ok()) << path << ": " << configured;
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

// Which versions commit each entry: its trace, replayed on each version
// (the header's `upstream` replaced), fires it on the versions the entry
// lists and on no other (where the same steps must not violate anything).
TEST(KnownViolationsTest, EachEntryFiresOnTheVersionsItNames) {
  for (const KnownViolation& k : KnownViolations()) {
    ASSERT_FALSE(k.versions.empty()) << k.id;
    for (const std::string& v : KnownUpstreams()) {
      const std::set<std::string> fired =
          KnownIdsFiredBy(SourcePath(k.trace), v);
      if (fired.contains("(not modelled)")) continue;  // a layer to come
      EXPECT_EQ(fired.contains(std::string(k.id)), k.CommittedBy(v))
          << k.id << " on " << v;
    }
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
  // The waiting incarnation (uid -1) is not the one assumed last (uid -2,
  // parked): the delete of uid -2 still misses the waiting one.
  EXPECT_EQ(KnownIdsFiredBy(
                SourcePath("golden/regression/upstream/scheduler/"
                           "recreated-uid-waiting-beside-parked-copy.jsonl")),
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
  // kubernetes/kubernetes#118226 is fixed from v1.35 (Update records the
  // change of a pod in flight as an event, addEventsIfPodInFlight): each
  // new version's recording of the entry's trace fires nothing.
  for (const std::string v : {"v1.35.4", "v1.36.3", "v1.37.2"}) {
    EXPECT_TRUE(KnownIdsFiredBy(SourcePath("golden/upstream-" + v +
                                           "/queue/"
                                           "add-unschedulable-if-not-present."
                                           "jsonl"))
                    .empty())
        << v;
  }
  // On v1.37.2 the update carrying another uid leaves the pod in two
  // sub-queues (the gated copy beside the backoffQ record); the copy the
  // backoff flush brings back holds its old object, and activeQ's order by
  // that object breaks no property.
  EXPECT_EQ(
      KnownIdsFiredBy(SourcePath("golden/regression/upstream/queue/"
                                 "backoff-flush-brings-old-uid-copy.jsonl")),
      std::set<std::string>{"second-copy-on-v137"});
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
  EXPECT_EQ(Classify(Observation{s, bound, {}, s, same}, v, "v1.26.7"),
            nullptr);

  History changed(header);
  changed.Observe(s, add, {});
  Step recreated = update(add.pod, pod("uid-2", ""));
  changed.Observe(s, recreated, {});
  Step bound2 = update(recreated.new_pod, pod("uid-2", "n1"));
  changed.Observe(s, bound2, {});
  const KnownViolation* known =
      Classify(Observation{s, bound2, {}, s, changed}, v, "v1.26.7");
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
  EXPECT_EQ(Classify(Observation{s, bound2, {}, s, unnominated}, v, "v1.26.7"),
            nullptr);
}

// Upstream's violations under hostile input: each regression trace fires
// its entry, and the same step a valid trace could take is not matched.
TEST(KnownViolationsTest, HostileInputTracesFireTheirEntries) {
  for (const char* id :
       {"gated-add-keeps-queued-copy", "duplicate-add-requeues-assumed",
        "delete-other-uid-keeps-nomination"}) {
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
      Classify(Observation{before, add, {}, after, h}, v, "v1.26.7");
  ASSERT_NE(known, nullptr);
  EXPECT_EQ(known->id, "gated-add-keeps-queued-copy");
  // Not gated in unschedulablePods: a real failure.
  State ungated = after;
  ungated.queue->unschedulable[0].gated = false;
  EXPECT_EQ(Classify(Observation{before, add, {}, ungated, h}, v, "v1.26.7"),
            nullptr);
  // In no queue before the add: a real failure.
  State empty;
  empty.queue = QueueState{};
  EXPECT_EQ(Classify(Observation{empty, add, {}, after, h}, v, "v1.26.7"),
            nullptr);
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
      Classify(Observation{before, *last, {}, after, h}, v, "v1.26.7");
  ASSERT_NE(known, nullptr);
  EXPECT_EQ(known->id, "duplicate-add-requeues-assumed");
  Step cycle;
  cycle.op = Op::kScheduleOne;
  EXPECT_EQ(Classify(Observation{before, cycle, {}, after, h}, v, "v1.26.7"),
            nullptr);
  // An add carrying another uid than the assumed pod's: not this entry.
  Step other = *last;
  auto p = std::make_shared<Pod>(*last->pod);
  p->uid = "another-uid";
  other.pod = p;
  const KnownViolation* k2 =
      Classify(Observation{before, other, {}, after, h}, v, "v1.26.7");
  EXPECT_TRUE(k2 == nullptr || k2->id != "duplicate-add-requeues-assumed");
}

// Upstream behaviours under hostile input that break no property once the
// history follows the objects upstream's queue and cache hold: each
// trace fires only what it names, and nothing unexplained.
TEST(KnownViolationsTest, CheckerFollowsTheObjectsUpstreamHolds) {
  const std::string dir = "golden/regression/upstream/";
  // The handler's filter drops the foreign update: our object is ordered.
  EXPECT_TRUE(
      KnownIdsFiredBy(
          SourcePath(dir + "scheduler/foreign-update-under-our-key.jsonl"))
          .empty());
  // Update(nil, p) leaves a backoffQ copy (registered), Delete removes the
  // activeQ one only, and the flush brings the copy back with its own
  // (higher priority) object.
  EXPECT_EQ(KnownIdsFiredBy(
                SourcePath(dir + "queue/delete-leaves-backoff-copy.jsonl")),
            std::set<std::string>{"nil-old-update-duplicates"});
  // IsAssumedPod drops the update of the assumed pod's queued copy.
  EXPECT_EQ(KnownIdsFiredBy(SourcePath(
                dir + "scheduler/update-of-assumed-duplicate-dropped.jsonl")),
            std::set<std::string>{"duplicate-add-requeues-assumed"});
  // The informer lost the key to a foreign delete; the queued copy is still
  // another uid than the parked pod.
  EXPECT_TRUE(
      KnownIdsFiredBy(
          SourcePath(dir +
                     "scheduler/foreign-delete-keeps-other-uid-copy.jsonl"))
          .empty());
  // The popped object is assumed though the informer no longer holds the
  // key: an update under a third uid is another pod.
  EXPECT_TRUE(
      KnownIdsFiredBy(
          SourcePath(dir +
                     "scheduler/update-other-uid-of-assumed-requeues.jsonl"))
          .empty());
}

PodPtr TestPod(const std::string& uid, int priority,
               std::vector<std::string> gates = {},
               const std::string& scheduler = "default-scheduler") {
  auto p = std::make_shared<Pod>();
  p->namespace_ = "default";
  p->name = "p";
  p->uid = uid;
  p->resource_version = uid + "-" + std::to_string(priority);
  p->priority = priority;
  p->scheduler_name = scheduler;
  p->scheduling_gates = std::move(gates);
  return p;
}

TraceHeader SchedulerHeader() {
  TraceHeader header;
  header.layer = Layer::kScheduler;
  header.config.profiles = {"default-scheduler"};
  return header;
}

// History::AddedGatedWhileQueued: only a gated add of a pod in activeQ or
// backoffQ; the later-step matcher needs it.
TEST(KnownViolationsTest, GatedAddIsRecordedOnlyWhenQueuedAndGated) {
  TraceHeader header;
  header.layer = Layer::kQueue;
  State queued, empty;
  queued.queue = QueueState{};
  queued.queue->active = {{"default/p", 0}};
  empty.queue = QueueState{};
  Step gated;
  gated.op = Op::kQAdd;
  gated.pod = TestPod("u", 0, {"example.com/wait"});
  Step plain = gated;
  plain.pod = TestPod("u", 0);

  History h(header);
  h.Observe(queued, gated, {});
  EXPECT_TRUE(h.AddedGatedWhileQueued("default/p"));
  History not_queued(header);
  not_queued.Observe(empty, gated, {});
  EXPECT_FALSE(not_queued.AddedGatedWhileQueued("default/p"));
  History not_gated(header);
  not_gated.Observe(queued, plain, {});
  EXPECT_FALSE(not_gated.AddedGatedWhileQueued("default/p"));

  // A later step that finds the shape such an add leaves: matched only
  // when the add was recorded.
  State shape = queued;
  QueuedPod copy{"default/p"};
  copy.gated = true;
  shape.queue->unschedulable = {copy};
  Step later;
  later.op = Op::kFlushBackoff;
  Violation v{.property = 1, .detail = "two queues", .pods = {"default/p"}};
  const KnownViolation* known =
      Classify(Observation{shape, later, {}, shape, h}, v, "v1.26.7");
  ASSERT_NE(known, nullptr);
  EXPECT_EQ(known->id, "gated-add-keeps-queued-copy");
  EXPECT_EQ(
      Classify(Observation{shape, later, {}, shape, not_gated}, v, "v1.26.7"),
      nullptr);
}

// History::AddedWhileAssumed: a pod_add of the very pod (uid) the cache
// holds assumed; the property-10 matcher on later steps needs it.
TEST(KnownViolationsTest, AddWhileAssumedNeedsTheAssumedUid) {
  const TraceHeader header = SchedulerHeader();
  State s;
  s.cache = CacheState{};
  s.cache->assumed = {"default/p"};
  s.queue = QueueState{};
  s.queue->active = {{"default/p", 0}};
  Step add;
  add.op = Op::kPodAdd;
  add.pod = TestPod("u1", 0);
  StepOut scheduled;
  scheduled.popped = "default/p";
  scheduled.result = ScheduleResult{.pod = "default/p", .node = "n1"};
  Step cycle;
  cycle.op = Op::kScheduleOne;
  State none;
  none.cache = CacheState{};
  none.queue = QueueState{};

  auto history = [&](const PodPtr& second) {
    auto h = std::make_unique<History>(header);
    h->Observe(none, add, {}, &s);           // queued
    h->Observe(s, cycle, scheduled, &none);  // popped, assumed
    Step again = add;
    again.pod = second;
    h->Observe(s, again, {}, &s);
    return h;
  };
  std::unique_ptr<History> same = history(TestPod("u1", 0));
  EXPECT_TRUE(same->AddedWhileAssumed("default/p"));
  ASSERT_NE(same->CacheObject("default/p"), nullptr);
  EXPECT_EQ(same->CacheObject("default/p")->uid, "u1");
  std::unique_ptr<History> other = history(TestPod("u2", 0));
  EXPECT_FALSE(other->AddedWhileAssumed("default/p"));

  Violation v{.property = 10, .detail = "busy", .pods = {"default/p"}};
  Step later;
  later.op = Op::kNodeAdd;
  const KnownViolation* known =
      Classify(Observation{s, later, {}, s, *same}, v, "v1.26.7");
  ASSERT_NE(known, nullptr);
  EXPECT_EQ(known->id, "duplicate-add-requeues-assumed");
  // The same shape without such an add (the pod never re-added): a failure.
  History never(header);
  never.Observe(none, add, {}, &s);
  never.Observe(s, cycle, scheduled, &s);
  EXPECT_EQ(Classify(Observation{s, later, {}, s, never}, v, "v1.26.7"),
            nullptr);
}

// History::DeletedOtherUidWhileNominated: a delete of a nominated key whose
// uid is not the queued pod's; the same delete under the pod's own uid, or
// of a key not nominated, is not recorded and its phantom is a failure.
TEST(KnownViolationsTest, DeleteKeepsNominationOnlyUnderAnotherUid) {
  const TraceHeader header = SchedulerHeader();
  State nominated, plain;
  nominated.nominated = Nominated{{"", {"default/p"}}};
  plain.nominated = Nominated{};
  Step add;
  add.op = Op::kPodAdd;
  add.pod = TestPod("u1", 0);
  auto del = [](const PodPtr& pod) {
    Step s;
    s.op = Op::kPodDelete;
    s.pod = pod;
    return s;
  };
  Violation v{.property = 9, .detail = "nominated", .pods = {"default/p"}};
  Step later;
  later.op = Op::kNodeAdd;

  History other(header);
  other.Observe(plain, add, {});
  other.Observe(nominated, del(TestPod("u2", 0)), {});
  EXPECT_TRUE(other.DeletedOtherUidWhileNominated("default/p"));
  const KnownViolation* known = Classify(
      Observation{nominated, later, {}, nominated, other}, v, "v1.26.7");
  ASSERT_NE(known, nullptr);
  EXPECT_EQ(known->id, "delete-other-uid-keeps-nomination");

  History own(header);
  own.Observe(plain, add, {});
  own.Observe(nominated, del(TestPod("u1", 0)), {});
  EXPECT_FALSE(own.DeletedOtherUidWhileNominated("default/p"));
  EXPECT_EQ(
      Classify(Observation{nominated, later, {}, nominated, own}, v, "v1.26.7"),
      nullptr);

  History unnominated(header);
  unnominated.Observe(plain, add, {});
  unnominated.Observe(plain, del(TestPod("u2", 0)), {});
  EXPECT_FALSE(unnominated.DeletedOtherUidWhileNominated("default/p"));
  EXPECT_EQ(Classify(Observation{nominated, later, {}, nominated, unnominated},
                     v, "v1.26.7"),
            nullptr);
}

// The scheduler layer's queued object: an update the handlers drop (another
// scheduler's objects, an assumed pod's, an unchanged resourceVersion) leaves
// the queue's object; one they pass replaces it.
TEST(HistoryTest, SchedulerQueueKeepsObjectsTheHandlersDrop) {
  const TraceHeader header = SchedulerHeader();
  State s;
  s.cache = CacheState{};
  s.queue = QueueState{};
  s.queue->active = {{"default/p", 0}};
  auto update = [](const PodPtr& o, const PodPtr& n) {
    Step st;
    st.op = Op::kPodUpdate;
    st.old_pod = o;
    st.new_pod = n;
    return st;
  };
  Step add;
  add.op = Op::kPodAdd;
  add.pod = TestPod("u1", 1);
  History h(header);
  h.Observe(s, add, {}, &s);
  auto active = [&] {
    return h.QueuedObject("default/p", History::Slot::kActive)->Priority();
  };
  EXPECT_EQ(active(), 1);
  h.Observe(s,
            update(TestPod("u9", 1, {}, "other-scheduler"),
                   TestPod("u9", 7, {}, "other-scheduler")),
            {}, &s);
  EXPECT_EQ(active(), 1);  // filtered out
  EXPECT_EQ(h.Latest("default/p")->Priority(), 7);
  auto same_rv = std::make_shared<Pod>(*TestPod("u1", 3));
  same_rv->resource_version = add.pod->resource_version;
  h.Observe(s, update(add.pod, same_rv), {}, &s);
  EXPECT_EQ(active(), 1);  // kubernetes/kubernetes#96071
  h.Observe(s, update(add.pod, TestPod("u1", 4)), {}, &s);
  EXPECT_EQ(active(), 4);  // PriorityQueue.Update
}
}  // namespace
}  // namespace schedtrace::properties
