// The switches of impl/upstream.h that the recordings in golden/ do not
// reach (or reach in a trace or two: v1.25's gate-blind isPodUpdated shows
// in upstream-v1.25.12/scheduler/random-31 and random-89 only), each turned
// on alone over v1.26.7's profile, or off alone for a change v1.26 made,
// against the profile without it: the one place impl reads the switch
// decides what each test sees.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/quantity.h"
#include "gtest/gtest.h"
#include "impl/cache.h"
#include "impl/filters.h"
#include "impl/queue.h"
#include "impl/scheduler.h"
#include "impl/scheduler_test_util.h"
#include "impl/upstream.h"

namespace schedtrace::impl {
namespace {

// `pod` with its resourceVersion bumped and `change` applied.
PodPtr Updated(const PodPtr& pod, const std::function<void(Pod&)>& change) {
  auto p = std::make_shared<Pod>(*pod);
  p->resource_version = std::to_string(std::stoi(pod->resource_version) + 1);
  change(*p);
  return p;
}

NodePtr MakeNode(const std::string& name, const char* cpu = "1") {
  auto n = std::make_shared<Node>();
  n->name = name;
  n->labels["schedtrace.io/score"] = "50";
  n->allocatable = {{"cpu", Q(cpu)}, {"pods", Q("10")}};
  return n;
}

// v1.26.7's profile with `field` turned to `on`.
Upstream With(bool Upstream::*field, bool on = true) {
  Upstream up;
  up.*field = on;
  return up;
}

std::vector<std::string> Keys(const std::vector<QueuedPod>& pods) {
  std::vector<std::string> keys;
  for (const QueuedPod& p : pods) keys.push_back(p.pod);
  return keys;
}

// ---------------------------------------------------------------------------
// Queue.

// Pops `name` and fails it with `plugins`, after a move request in its
// cycle when `moved` (so that it goes to backoffQ).
void PopAndFail(PriorityQueue& q, const std::string& name,
                const std::vector<std::string>& plugins, bool moved) {
  std::optional<PriorityQueue::Handle> h = q.PopHandle();
  ASSERT_TRUE(h.has_value());
  ASSERT_EQ(q.HandlePod(*h)->name, name);
  if (moved) {
    q.MoveAllToActiveOrBackoffQueue({"Node", "Add", "NodeAdd"}, nullptr);
  }
  q.SetHandlePlugins(*h, plugins);
  ASSERT_EQ(q.AddUnschedulableIfNotPresent(*h, q.SchedulingCycle()),
            QueueResult::kOk);
  q.Release(*h);
}

// kubernetes#124618, #125527: a move skips a pod SchedulingGates gated,
// even where the entry is stale (the pod's gates were removed on the
// backoffQ path, which runs no PreEnqueue).
TEST(UnrecordedSwitchesTest, MoveSkipsSchedulingGatedPods) {
  Config config;
  config.features["PodSchedulingReadiness"] = true;
  config.pre_enqueue_plugins["default-scheduler"] = {"SchedulingGates"};
  config.cluster_event_map = {
      {"Node", {"Add", "Update"}, {"NodeResourcesFit"}},
      {"Pod", {"Update"}, {"SchedulingGates"}},
  };
  for (bool skips : {false, true}) {
    PriorityQueue q(config,
                    With(&Upstream::move_skips_scheduling_gated_pods, skips));
    PodPtr p = MakePod("p");
    q.SetNow(0);
    q.Add(p);
    PopAndFail(q, "p", {"NodeResourcesFit"}, /*moved=*/true);
    ASSERT_EQ(Keys(q.SnapshotQueue().backoff),
              std::vector<std::string>{"ns/p"});
    // Gains gates in backoffQ; Activate gates it: in backoffQ and, gated,
    // in unschedulablePods.
    PodPtr gated =
        Updated(p, [](Pod& x) { x.scheduling_gates = {"example.com/g"}; });
    q.Update(p, gated);
    q.Activate({gated});
    QueueState s = q.SnapshotQueue();
    ASSERT_EQ(s.unschedulable.size(), 1u);
    ASSERT_TRUE(s.unschedulable[0].gated);
    // The gates go on the backoffQ path: the entry stays gated.
    PodPtr ungated = Updated(gated, [](Pod& x) { x.scheduling_gates.clear(); });
    q.Update(gated, ungated);
    q.SetNow(100000);
    q.MoveAllToActiveOrBackoffQueue({"Pod", "Update", "PodUpdate"}, nullptr);
    s = q.SnapshotQueue();
    if (skips) {
      EXPECT_TRUE(s.active.empty());
      EXPECT_EQ(Keys(s.unschedulable), std::vector<std::string>{"ns/p"});
    } else {  // v1.26: PreEnqueue runs again, and lets the pod through
      EXPECT_EQ(Keys(s.active), std::vector<std::string>{"ns/p"});
      EXPECT_TRUE(s.unschedulable.empty());
    }
  }
}

// kubernetes#123117: a registered event of resource "*" matches an event
// of any resource with a common action.
TEST(UnrecordedSwitchesTest, ClusterEventMatchWildcardResource) {
  Config config;
  config.cluster_event_map = {{"*", {"Add"}, {"WildAdd"}}};
  for (bool wildcard : {false, true}) {
    PriorityQueue q(
        config,
        With(&Upstream::cluster_event_match_wildcard_resource, wildcard));
    q.SetNow(0);
    q.Add(MakePod("p"));
    PopAndFail(q, "p", {"WildAdd"}, /*moved=*/false);
    q.SetNow(100000);  // past backoff
    q.MoveAllToActiveOrBackoffQueue({"Node", "Add", "NodeAdd"}, nullptr);
    QueueState s = q.SnapshotQueue();
    if (wildcard) {
      EXPECT_EQ(Keys(s.active), std::vector<std::string>{"ns/p"});
    } else {
      EXPECT_EQ(Keys(s.unschedulable), std::vector<std::string>{"ns/p"});
    }
    // A Delete shares no action with the entry: no match either way.
    q.SetNow(100001);
    if (!wildcard) {
      q.MoveAllToActiveOrBackoffQueue({"Node", "Delete", "NodeDelete"},
                                      nullptr);
      EXPECT_EQ(Keys(q.SnapshotQueue().unschedulable),
                std::vector<std::string>{"ns/p"});
    }
  }
}

// kubernetes#113275 (v1.26) added spec.schedulingGates: v1.25 cannot see a
// change of gates alone, so it does not requeue the pod.
TEST(UnrecordedSwitchesTest, V125IsPodUpdatedIsGateBlind) {
  Config config;  // no PreEnqueue plugin: gates never gate
  config.cluster_event_map = {{"Node", {"Add"}, {"NodeResourcesFit"}}};
  const std::vector<std::function<void(Pod&)>> gates_only = {
      [](Pod& x) { x.scheduling_gates = {"example.com/g"}; },
      [](Pod& x) { x.given_empty.Set(Nilable::kSchedulingGates); },  // []
  };
  for (const auto& change : gates_only) {
    for (bool gates : {true, false}) {
      PriorityQueue q(config,
                      With(&Upstream::pre_enqueue_and_scheduling_gates, gates));
      PodPtr p = MakePod("p");
      q.SetNow(0);
      q.Add(p);
      PopAndFail(q, "p", {"NodeResourcesFit"}, /*moved=*/false);
      q.SetNow(100000);
      q.Update(p, Updated(p, change));
      QueueState s = q.SnapshotQueue();
      if (gates) {
        EXPECT_EQ(Keys(s.active), std::vector<std::string>{"ns/p"});
      } else {
        EXPECT_EQ(Keys(s.unschedulable), std::vector<std::string>{"ns/p"});
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Filters.

TEST(UnrecordedSwitchesTest, FitSkipsZeroScalarRequests) {
  Cache cache(0);
  auto node = std::make_shared<Node>(*MakeNode("n1"));
  node->allocatable["example.com/gpu"] = Q("1");
  NodeFacts nf;
  ComputeNodeFacts(node, cache, nf);
  auto pod = std::make_shared<Pod>(*MakePod("p", "100m"));
  pod->containers[0].requests["example.com/gpu"] = Q("0");
  PodFacts pf;
  ComputePodFacts(*pod, cache, pf);
  Requests requested;  // the node's gpu is overcommitted
  requested.scalars.push_back({cache.InternScalar("example.com/gpu"), 2});
  EXPECT_EQ(RunFilters(pf, nf, 0, requested, Upstream()), kPass);
  const Upstream v125 = With(&Upstream::fit_skips_zero_scalar_requests, false);
  EXPECT_EQ(RunFilters(pf, nf, 0, requested, v125), kNodeResourcesFit);
  EXPECT_FALSE(PreCheckForNode(pf, nf, 0, requested, v125));
  EXPECT_TRUE(PreCheckForNode(pf, nf, 0, requested, Upstream()));
}

TEST(UnrecordedSwitchesTest, FitSkipsZeroRequests) {
  Cache cache(0);
  NodeFacts nf;
  ComputeNodeFacts(MakeNode("n1", "1"), cache, nf);
  auto pod = std::make_shared<Pod>(*MakePod("p", "0"));
  pod->containers[0].requests["memory"] = Q("1");
  PodFacts pf;
  ComputePodFacts(*pod, cache, pf);
  Requests requested;
  requested.cpu = 2000;  // overcommitted; the pod asks for 0 cpu
  requested.memory = -5;
  EXPECT_EQ(RunFilters(pf, nf, 0, requested, Upstream()), kNodeResourcesFit);
  const Upstream v130 = With(&Upstream::fit_skips_zero_requests);
  EXPECT_EQ(RunFilters(pf, nf, 0, requested, v130), kPass);
  EXPECT_TRUE(PreCheckForNode(pf, nf, 0, requested, v130));
}

// One matchFields term: metadata.name In `names` (each requirement one
// value, several requirements ANDed).
NodeSelectorTerm NameTerm(const std::vector<std::string>& names) {
  NodeSelectorTerm t;
  for (const std::string& n : names) {
    t.match_fields.push_back(
        {.key = "metadata.name", .op = "In", .values = {n}});
  }
  return t;
}

TEST(UnrecordedSwitchesTest, NodeAffinityPreFilterUnionsTerms) {
  Pod pod = *MakePod("p");
  // The second term's names conflict (a and b); the first allows a.
  pod.required_node_affinity =
      std::vector<NodeSelectorTerm>{NameTerm({"a"}), NameTerm({"a", "b"})};
  PreFilterResult old_rule = NodeAffinityPreFilter(pod, Upstream());
  EXPECT_TRUE(old_rule.unresolvable);
  PreFilterResult union_rule = NodeAffinityPreFilter(
      pod, With(&Upstream::node_affinity_pre_filter_unions_terms));
  EXPECT_FALSE(union_rule.unresolvable);
  EXPECT_FALSE(union_rule.all_nodes);
  EXPECT_EQ(union_rule.names, std::vector<std::string>{"a"});
  // Every term conflicting: unresolvable under both rules.
  pod.required_node_affinity =
      std::vector<NodeSelectorTerm>{NameTerm({"a", "b"}), NameTerm({"c", "d"})};
  EXPECT_TRUE(NodeAffinityPreFilter(pod, Upstream()).unresolvable);
  EXPECT_TRUE(NodeAffinityPreFilter(
                  pod, With(&Upstream::node_affinity_pre_filter_unions_terms))
                  .unresolvable);
}

// ---------------------------------------------------------------------------
// Scheduler.

Config SchedulerConfig() {
  Config c;
  c.cluster_event_map = {
      {"Node", {"Add", "Update"}, {"NodeResourcesFit", "NodeAffinity"}},
      {"Node", {"UpdateNodeTaint"}, {"TaintToleration"}}};
  return c;
}

TEST(UnrecordedSwitchesTest, PreFilterIgnoresUnknownNodeNames) {
  auto pod = std::make_shared<Pod>(*MakePod("p", "100m"));
  pod->required_node_affinity =
      std::vector<NodeSelectorTerm>{NameTerm({"ghost"}), NameTerm({"n1"})};
  auto only_ghost = std::make_shared<Pod>(*MakePod("q", "100m"));
  only_ghost->required_node_affinity =
      std::vector<NodeSelectorTerm>{NameTerm({"ghost"})};
  const Upstream skips = With(&Upstream::pre_filter_ignores_unknown_node_names);
  {
    Scheduler s(SchedulerConfig());
    StepOut out = ScheduleOn(s, {MakeNode("n1")}, pod);
    EXPECT_EQ(out.result->outcome, "error");  // NodeInfos().Get failed
  }
  {
    Scheduler s(SchedulerConfig(), skips);
    StepOut out = ScheduleOn(s, {MakeNode("n1")}, pod);
    EXPECT_EQ(out.result->outcome, "scheduled");
    EXPECT_EQ(out.result->node, "n1");
  }
  {
    Scheduler s(SchedulerConfig(), skips);
    StepOut out = ScheduleOn(s, {MakeNode("n1")}, only_ghost);
    EXPECT_EQ(out.result->outcome, "unschedulable");  // a FitError of none
    EXPECT_EQ(out.result->plugins, std::vector<std::string>{});
  }
}

// The queue's moveRequestCycle after a node update, on a scheduler that
// ran one cycle since the node was added (so that a move shows).
int64_t MoveRequestCycleAfter(const Upstream& up, const NodePtr& old_node,
                              const NodePtr& new_node) {
  Scheduler s(SchedulerConfig(), up);
  ScheduleOn(s, {old_node}, MakePod("p", "100m"));
  EXPECT_EQ(s.Snapshot().queue->scheduling_cycle, 1);
  EXPECT_EQ(s.Snapshot().queue->move_request_cycle, 0);
  s.SetNow(100);
  EXPECT_TRUE(s.OnNodeUpdate(old_node, new_node));
  return s.Snapshot().queue->move_request_cycle;
}

// v1.30 compares the node's fields with equality.Semantic: nil taints
// against [] and "1" against "1000m" change nothing, so no event fires.
TEST(UnrecordedSwitchesTest, NodeUpdateComparesSemantically) {
  const Upstream every = With(&Upstream::node_update_emits_every_change);
  NodePtr n1 = MakeNode("n1", "1");
  auto empty_taints = std::make_shared<Node>(*n1);
  empty_taints->resource_version = "2";
  empty_taints->given_empty.Set(Nilable::kTaints);
  EXPECT_EQ(MoveRequestCycleAfter(Upstream(), n1, empty_taints), 1);
  EXPECT_EQ(MoveRequestCycleAfter(every, n1, empty_taints), 0);
  auto milli = std::make_shared<Node>(*n1);
  milli->resource_version = "2";
  milli->allocatable["cpu"] = Q("1000m");
  EXPECT_EQ(MoveRequestCycleAfter(Upstream(), n1, milli), 1);
  EXPECT_EQ(MoveRequestCycleAfter(every, n1, milli), 0);
  auto bigger = std::make_shared<Node>(*n1);
  bigger->resource_version = "2";
  bigger->allocatable["cpu"] = Q("2");
  EXPECT_EQ(MoveRequestCycleAfter(every, n1, bigger), 1);
}

// v1.30 fires an event per changed property: a pod TaintToleration
// rejected moves on an update that changes the labels and removes the
// taint; v1.26 fires only the first (NodeLabelChange), which does not
// match it.
TEST(UnrecordedSwitchesTest, NodeUpdateEmitsEveryChange) {
  for (bool every : {false, true}) {
    Scheduler s(SchedulerConfig(),
                With(&Upstream::node_update_emits_every_change, every));
    auto tainted = std::make_shared<Node>(*MakeNode("n1"));
    tainted->taints.push_back({"dedicated", "x", "NoSchedule"});
    StepOut out = ScheduleOn(s, {tainted}, MakePod("p", "100m"));
    ASSERT_EQ(out.result->plugins, std::vector<std::string>{"TaintToleration"});
    auto freed = std::make_shared<Node>(*tainted);
    freed->resource_version = "2";
    freed->taints.clear();
    freed->labels["another"] = "label";
    s.SetNow(100000);  // past backoff
    ASSERT_TRUE(s.OnNodeUpdate(tainted, freed));
    QueueState q = *s.Snapshot().queue;
    if (every) {
      EXPECT_EQ(Keys(q.active), std::vector<std::string>{"ns/p"});
    } else {
      EXPECT_EQ(Keys(q.unschedulable), std::vector<std::string>{"ns/p"});
    }
  }
}

// kubernetes#119046, #119785: a Permit rejection makes its plugin the pod's
// UnschedulablePlugins; RejectWaitingPod rejects in the name of no plugin
// (Reject("", "removed")). The recordings show only TracePermit: here a
// waiting pod moves to a scheduler name no profile serves, so the informer
// still holds it unassigned and the failure requeues it, with [""]. (Its
// handler's AssignedPodDelete move would send it to backoffQ, where its
// plugins do not show: no plugin of this map registers Pod events, so
// v1.30's isEventOfInterest drops that move.)
TEST(UnrecordedSwitchesTest, PermitRejectionOfARemovedPodNamesNoPlugin) {
  for (bool fit_error : {false, true}) {
    Upstream up = With(&Upstream::permit_rejection_is_fit_error, fit_error);
    up.queueing_hints_skip_uninteresting_events = true;
    Scheduler s(SchedulerConfig(), up);
    PodPtr p = MakePod("p", "100m");
    StepOut out = ScheduleOn(s, {MakeNode("n1")}, p);
    ASSERT_EQ(out.result->outcome, "scheduled");
    ASSERT_EQ(s.Snapshot().waiting, std::vector<std::string>{"ns/p"});
    s.SetNow(100);
    ASSERT_TRUE(s.OnPodUpdate(
        p, Updated(p, [](Pod& x) { x.scheduler_name = "other-scheduler"; })));
    QueueState q = *s.Snapshot().queue;
    ASSERT_EQ(Keys(q.unschedulable), std::vector<std::string>{"ns/p"});
    EXPECT_EQ(q.unschedulable[0].plugins, fit_error
                                              ? std::vector<std::string>{""}
                                              : std::vector<std::string>{});
  }
}

}  // namespace
}  // namespace schedtrace::impl
