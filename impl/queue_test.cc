#include "impl/queue.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace schedtrace::impl {
namespace {

Config TestConfig() {
  Config c;
  c.features["PodSchedulingReadiness"] = true;
  c.pre_enqueue_plugins["default-scheduler"] = {"SchedulingGates"};
  c.cluster_event_map = {
      {"Node", {"Add", "UpdateNodeTaint"}, {"NodeUnschedulable"}},
      {"Node", {"Add", "Update"}, {"NodeAffinity", "NodeResourcesFit"}},
      {"Pod", {"Delete"}, {"NodeResourcesFit"}},
      {"Pod", {"Update"}, {"SchedulingGates"}},
  };
  return c;
}

PodPtr MakePod(const std::string& name, int32_t prio = 0) {
  auto p = std::make_shared<Pod>();
  p->namespace_ = "ns";
  p->name = name;
  p->uid = "uid-" + name;
  p->scheduler_name = "default-scheduler";
  p->priority = prio;
  return p;
}

// Pops the next pod and fails it with `plugins` in the current scheduling
// cycle, as the scheduler's failure handler does; `name` must be the pod
// popped.
void PopAndFail(PriorityQueue& q, const std::string& name,
                const std::vector<std::string>& plugins = {}) {
  std::optional<PriorityQueue::Handle> h = q.PopHandle();
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(q.HandlePod(*h)->name, name);
  q.SetHandlePlugins(*h, plugins);
  EXPECT_EQ(q.AddUnschedulableIfNotPresent(*h, q.SchedulingCycle()),
            QueueResult::kOk);
  q.Release(*h);
}

// Adds, pops and fails `name` with `plugins` at time t (ms).
void MakeUnschedulable(PriorityQueue& q, const std::string& name,
                       const std::vector<std::string>& plugins, int64_t t) {
  q.SetNow(t);
  PodPtr p = MakePod(name);
  q.ListerSet(p);
  q.Add(p);
  PopAndFail(q, name, plugins);
}

// The pods a move request for `event` visits (the plugin index's
// candidates), sorted: its PreEnqueueCheck is asked of each and lets none
// through, so none moves.
std::vector<std::string> MoveCandidates(PriorityQueue& q,
                                        const ClusterEvent& event) {
  std::vector<std::string> seen;
  q.MoveAllToActiveOrBackoffQueue(event, [&](const Pod& pod) {
    seen.push_back(pod.Key());
    return false;
  });
  std::sort(seen.begin(), seen.end());
  return seen;
}

TEST(PluginIndexTest, EventVisitsOnlyMatchingAndPluginlessPods) {
  PriorityQueue q(TestConfig());
  MakeUnschedulable(q, "taint", {"NodeUnschedulable"}, 10);
  MakeUnschedulable(q, "fit", {"NodeResourcesFit"}, 20);
  MakeUnschedulable(q, "none", {}, 30);
  MakeUnschedulable(q, "other", {"VolumeBinding"}, 40);

  EXPECT_EQ(MoveCandidates(q, {"Node", "UpdateNodeTaint", ""}),
            (std::vector<std::string>{"ns/fit", "ns/none", "ns/taint"}));
  EXPECT_EQ(MoveCandidates(q, {"Node", "UpdateNodeLabel", ""}),
            (std::vector<std::string>{"ns/fit", "ns/none"}));
  EXPECT_EQ(MoveCandidates(q, {"Pod", "Delete", ""}),
            (std::vector<std::string>{"ns/fit", "ns/none"}));
  EXPECT_EQ(MoveCandidates(q, {"PersistentVolume", "Add", ""}),
            (std::vector<std::string>{"ns/none"}));
  // Only "*"/All is the wildcard event: every pod.
  EXPECT_EQ(
      MoveCandidates(q, {"*", "All", ""}),
      (std::vector<std::string>{"ns/fit", "ns/none", "ns/other", "ns/taint"}));
  EXPECT_EQ(MoveCandidates(q, {"*", "Add", ""}),
            (std::vector<std::string>{"ns/none"}));
}

TEST(PluginIndexTest, IndexFollowsMovesAndDeletes) {
  PriorityQueue q(TestConfig());
  MakeUnschedulable(q, "a", {"NodeUnschedulable"}, 10);
  MakeUnschedulable(q, "b", {"NodeUnschedulable"}, 20);
  q.SetNow(100000);
  q.MoveAllToActiveOrBackoffQueue({"Node", "Add", "NodeAdd"}, nullptr);
  EXPECT_TRUE(q.SnapshotQueue().unschedulable.empty());
  EXPECT_TRUE(MoveCandidates(q, {"Node", "Add", ""}).empty());
  EXPECT_EQ(q.SnapshotQueue().active.size(), 2u);
  q.Delete(MakePod("a"));
  q.Delete(MakePod("b"));

  MakeUnschedulable(q, "c", {"NodeResourcesFit"}, 100100);
  q.Delete(MakePod("c"));
  EXPECT_TRUE(MoveCandidates(q, {"Pod", "Delete", ""}).empty());
}

TEST(PluginIndexTest, WildcardEntryInMapMatchesEveryEvent) {
  Config c = TestConfig();
  c.cluster_event_map.push_back({"*", {"All"}, {"Custom"}});
  PriorityQueue q(c);
  MakeUnschedulable(q, "x", {"Custom"}, 10);
  EXPECT_EQ(MoveCandidates(q, {"CSINode", "Add", ""}),
            (std::vector<std::string>{"ns/x"}));
}

TEST(PriorityQueueTest, GatedPodIndexedUnderSchedulingGates) {
  PriorityQueue q(TestConfig());
  auto p = std::make_shared<Pod>(*MakePod("g"));
  p->scheduling_gates = {"wait"};
  q.ListerSet(p);
  q.Add(p);
  QueueState s = q.SnapshotQueue();
  ASSERT_EQ(s.unschedulable.size(), 1u);
  EXPECT_TRUE(s.unschedulable[0].gated);
  EXPECT_EQ(s.unschedulable[0].plugins,
            (std::vector<std::string>{"SchedulingGates"}));
  EXPECT_EQ(MoveCandidates(q, {"Pod", "Update", ""}),
            (std::vector<std::string>{"ns/g"}));
}

// docs/UPSTREAM.md item 29: a max backoff past Go's Duration range wraps; the
// doubling check wraps too, so the backoff keeps doubling instead of being
// capped.
TEST(PriorityQueueTest, BackoffOverflowWrapsLikeGo) {
  Config c = TestConfig();
  c.pod_initial_backoff_ms = 1000;
  c.pod_max_backoff_ms = 9223372037000;  // * 1e6 ns wraps negative
  PriorityQueue q(c);
  PodPtr p = MakePod("p");
  q.ListerSet(p);
  q.SetNow(0);
  q.Add(p);
  for (int i = 0; i < 3; ++i) {
    std::optional<PriorityQueue::Handle> h = q.PopHandle();
    ASSERT_TRUE(h.has_value());
    q.MoveAllToActiveOrBackoffQueue({"Node", "Add", ""}, nullptr);
    ASSERT_EQ(q.AddUnschedulableIfNotPresent(*h, q.SchedulingCycle()),
              QueueResult::kOk);
    q.Release(*h);
    q.Activate({p});
  }
  std::optional<PriorityQueue::Handle> h = q.PopHandle();  // attempts 4
  ASSERT_TRUE(h.has_value());
  q.MoveAllToActiveOrBackoffQueue({"Node", "Add", ""}, nullptr);
  ASSERT_EQ(q.AddUnschedulableIfNotPresent(*h, q.SchedulingCycle()),
            QueueResult::kOk);
  q.Release(*h);
  QueueState s = q.SnapshotQueue();
  ASSERT_EQ(s.backoff.size(), 1u);
  EXPECT_EQ(s.backoff[0].attempts, 4);
  EXPECT_EQ(s.backoff[0].backoff_expires_at, 8000);  // 1s doubled 3 times
}

TEST(PriorityQueueTest, MaxBackoffCapsWithoutOverflow) {
  Config c = TestConfig();
  c.pod_initial_backoff_ms = 1000;
  c.pod_max_backoff_ms = 3000;
  PriorityQueue q(c);
  PodPtr p = MakePod("p");
  q.ListerSet(p);
  q.SetNow(0);
  q.Add(p);
  for (int i = 0; i < 3; ++i) {
    std::optional<PriorityQueue::Handle> h = q.PopHandle();
    ASSERT_TRUE(h.has_value());
    q.MoveAllToActiveOrBackoffQueue({"Node", "Add", ""}, nullptr);
    ASSERT_EQ(q.AddUnschedulableIfNotPresent(*h, q.SchedulingCycle()),
              QueueResult::kOk);
    q.Release(*h);
    q.Activate({p});
  }
  std::optional<PriorityQueue::Handle> h = q.PopHandle();
  ASSERT_TRUE(h.has_value());
  q.MoveAllToActiveOrBackoffQueue({"Node", "Add", ""}, nullptr);
  q.AddUnschedulableIfNotPresent(*h, q.SchedulingCycle());
  q.Release(*h);
  EXPECT_EQ(q.SnapshotQueue().backoff.at(0).backoff_expires_at, 3000);
}

TEST(PriorityQueueTest, UpdateNilOldOfUnschedulablePodIsFatal) {
  PriorityQueue q(TestConfig());
  MakeUnschedulable(q, "u", {"NodeResourcesFit"}, 10);
  EXPECT_EQ(q.Update(nullptr, MakePod("u")), QueueResult::kFatal);
}

TEST(PriorityQueueTest, NominateEmptyNodeIsStored) {
  PriorityQueue q(TestConfig());
  PodPtr p = MakePod("n");
  q.ListerSet(p);
  q.Add(p);
  q.AddNominatedPodOverride(p, "");
  Nominated n = q.SnapshotNominated();
  ASSERT_EQ(n.count(""), 1u);
  EXPECT_EQ(n[""], (std::vector<std::string>{"ns/n"}));
  q.ListerDelete(*p);
  q.Delete(p);
  EXPECT_TRUE(q.SnapshotNominated().empty());
}

}  // namespace
}  // namespace schedtrace::impl

namespace schedtrace::impl {
namespace {

// With a max backoff just under Go's Duration limit, timestamp + backoff
// passes the int64 nanosecond range. Go's Time.Add does not wrap, so the pod
// is still backing off and a move sends it to backoffQ (a wrapping sum went
// negative and sent it to activeQ: found by the pr105125 regression work),
// and its expiry is exact: the failure's timestamp plus the max, past the
// int64 nanosecond range (a saturating sum printed INT64_MAX ns).
TEST(BackoffTest, ExpiryPastTheInt64RangeIsExact) {
  Config c = TestConfig();
  c.pod_max_backoff_ms = 9223372036854;  // 9223372036854000000 ns
  PriorityQueue q(c);
  PodPtr p = MakePod("p");
  q.ListerSet(p);
  int64_t t = 1000;
  q.SetNow(t);
  q.Add(p);
  // 34 failures reach the cap (2^33 s doubles past it), then one more.
  for (int i = 0; i < 36; ++i) {
    q.SetNow(++t);
    SCOPED_TRACE(testing::Message() << "attempt " << i);
    PopAndFail(q, "p");
    q.Activate({p});
  }
  q.SetNow(++t);
  PopAndFail(q, "p");
  q.MoveAllToActiveOrBackoffQueue({"Node", "Add", "NodeAdd"}, nullptr);
  QueueState s = q.SnapshotQueue();
  EXPECT_TRUE(s.active.empty());
  ASSERT_EQ(s.backoff.size(), 1u);
  EXPECT_EQ(s.backoff[0].backoff_expires_at, t + 9223372036854);
}

}  // namespace
}  // namespace schedtrace::impl
