// PriorityQueue: a reference model of upstream v1.26.7's scheduling queue
// (internal/queue/scheduling_queue.go) with its nominator: activeQ (ordered
// by PrioritySort), podBackoffQ (ordered by backoff expiry) and
// unschedulablePods, the SchedulingGates PreEnqueue plugin, and the
// bookkeeping of cycles. One method per upstream function, upstream's names
// and order, bugs included; plain containers.
//
//   PriorityQueue q(config, lister);   // lister: key -> the informer's pod
//   q.SetNow(t_ms);
//   q.Add(pod);
//   std::shared_ptr<QueuedPodInfo> p = q.Pop();       // null: activeQ empty
//   q.AddUnschedulableIfNotPresent(p, q.SchedulingCycle());
//
// Time: the trace clock in ms, as Go's time.Time (model/go_time.h);
// durations are Go time.Durations (int64 ns, wrapping as Go's do:
// docs/UPSTREAM.md item 29). Panics are returned as
// FatalError (model/fatal.h).
#ifndef SCHEDTRACE_MODEL_QUEUE_H_
#define SCHEDTRACE_MODEL_QUEUE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "core/objects.h"
#include "core/state.h"
#include "core/trace.h"
#include "model/go_heap.h"
#include "model/go_time.h"
#include "model/upstream.h"

namespace schedtrace::model {

// upstream: framework.AffinityTerm (the parts AssignedPodAdded reads).
struct AffinityTerm {
  std::set<std::string> namespaces;
  std::optional<LabelSelector> selector;            // nil: selects nothing
  std::optional<LabelSelector> namespace_selector;  // nil: selects nothing
};

// upstream: framework.PodInfo.
struct PodInfo {
  explicit PodInfo(PodPtr p);
  // upstream: PodInfo.Update: the same uid keeps the parsed terms.
  void Update(PodPtr p);
  PodPtr pod;
  std::vector<AffinityTerm> required_affinity_terms;
};

// upstream (v1.35+): fwk.ClusterEvent as the queue matches it, its
// ActionType as bits (model/backend_queue.h has their values).
struct QueueEvent {
  std::string resource;  // "Node", "Pod", "AssignedPod", "TargetPod", "*"
  int64_t action = 0;
  std::string label;
  bool operator==(const QueueEvent&) const = default;
};

// upstream: framework.QueuedPodInfo.
struct QueuedPodInfo {
  std::shared_ptr<PodInfo> pod_info;
  Time timestamp;
  int attempts = 0;
  Time initial_attempt_timestamp;
  std::set<std::string> unschedulable_plugins;
  // Whether UnschedulablePlugins is Go's nil set rather than an empty one:
  // only a FitError no plugin caused makes it so (switch
  // diagnosis_plugin_sets_allocated_lazily); inserting into it panics.
  bool unschedulable_plugins_nil = false;
  bool gated = false;
  // From v1.35 (BackendQueue): the plugins that answered Pending (none of
  // ours does), the attempts that failed by rejection and by error in a row,
  // the cached backoff expiry (GoZero: not computed), the PreEnqueue plugin
  // gating the pod and the events it registered (Gated() is a non-empty
  // gating plugin), and when the leftover flush last moved it (v1.37).
  std::set<std::string> pending_plugins;
  int unschedulable_count = 0;
  int consecutive_errors_count = 0;
  Time backoff_expiration = Time::GoZero();
  std::string gating_plugin;
  std::vector<QueueEvent> gating_plugin_events;
  Time flush_timestamp = Time::GoZero();
  const Pod& pod() const { return *pod_info->pod; }
};

// upstream: PrioritySort.Less, activeQ's order in every version: higher
// priority first, then the earlier timestamp.
bool PrioritySortLess(const std::shared_ptr<QueuedPodInfo>& a,
                      const std::shared_ptr<QueuedPodInfo>& b);
// The key a queue's heaps index an entry by: its pod's namespace/name.
std::string QueuedPodKey(const std::shared_ptr<QueuedPodInfo>& q);

// upstream: AffinityTerm.Matches, with namespaces that have no labels (the
// recorder's namespace lister is empty).
bool TermMatches(const AffinityTerm& term, const Pod& pod);
// upstream: isPodUpdated: whether the pods differ in more than their
// resourceVersion and status (v1.35 also strips generation, managedFields
// and finalizers, which a trace's pod has none of). `has_gates` false
// (v1.25): schedulingGates are not compared.
bool isPodUpdated(const Pod& oldPod, const Pod& newPod, bool has_gates);

// upstream: framework.NominatingMode / NominatingInfo. A nil NominatingInfo
// (ModeNoop) is std::nullopt.
enum class NominatingMode { kNoop, kOverride };
struct NominatingInfo {
  NominatingMode mode = NominatingMode::kNoop;
  std::string node;
};

// Answers the nominator's pod lister: the informer's pod with that key, or
// null. A null lister function means "no lister" (no check).
using PodLister = std::function<PodPtr(const std::string& key)>;
// upstream: PreEnqueueCheck.
using PreEnqueueCheck = std::function<bool(const Pod&)>;

// upstream: the nominator (nominator.go from v1.33; part of
// scheduling_queue.go before): which pods are nominated to which node, by
// uid, each node's pods in the order they were nominated. Both queue models
// (PriorityQueue here, BackendQueue) hold one.
class Nominator {
 public:
  // `stores_refs`: from v1.35 the nominator keeps a copy of the pod's name,
  // namespace and uid (podRef), not the PodInfo the queue updates in place.
  Nominator(PodLister lister, bool ignores_empty_node_name,
            bool stores_refs = false)
      : lister_(std::move(lister)),
        ignores_empty_node_name_(ignores_empty_node_name),
        stores_refs_(stores_refs) {}

  // upstream: nominator.addNominatedPodUnlocked
  void Add(const std::shared_ptr<PodInfo>& pi,
           const std::optional<NominatingInfo>& nominatingInfo);
  // upstream: nominator.delete (deleteUnlocked)
  void Delete(const Pod& p);
  // upstream: nominator.updateNominatedPodUnlocked (a nil old pod panics in
  // NominatedNodeName)
  absl::Status Update(const PodPtr& oldPod,
                      const std::shared_ptr<PodInfo>& newPodInfo);
  // upstream: NominatedPodsForNode (copies)
  std::vector<std::shared_ptr<PodInfo>> PodsForNode(
      const std::string& nodeName) const;
  void SnapshotInto(Nominated& out) const;

 private:
  PodLister lister_;
  bool ignores_empty_node_name_;  // Upstream::nominator_ignores_empty_node_name
  bool stores_refs_;
  // upstream: nominator.nominatedPods / nominatedPodToNode.
  std::map<std::string, std::vector<std::shared_ptr<PodInfo>>> nominatedPods_;
  std::map<std::string, std::string> nominatedPodToNode_;  // uid -> node
};

class PriorityQueue {
 public:
  // `up`: the version profile (model/upstream.h); v1.26.7 by default.
  PriorityQueue(const Config& config, PodLister lister,
                const Upstream& up = Upstream{});

  void SetNow(int64_t now_ms) { now_ = Time::FromMs(now_ms); }
  // The scheduler names that have a QueueingHint map (v1.30: one per
  // profile). Unset, every name has one (the queue layer's recordings
  // registered the header's map for every name).
  void SetProfiles(std::set<std::string> profiles) {
    profiles_ = std::move(profiles);
  }

  // upstream: the SchedulingQueue interface.
  absl::Status Add(const PodPtr& pod);
  void Activate(const std::vector<PodPtr>& pods);
  absl::Status AddUnschedulableIfNotPresent(
      const std::shared_ptr<QueuedPodInfo>& pInfo, int64_t podSchedulingCycle);
  int64_t SchedulingCycle() const { return scheduling_cycle_; }
  std::shared_ptr<QueuedPodInfo> Pop();  // never blocks: null when empty
  absl::Status Update(const PodPtr& oldPod, const PodPtr& newPod);
  absl::Status Delete(const PodPtr& pod);
  void MoveAllToActiveOrBackoffQueue(const ClusterEvent& event,
                                     const PreEnqueueCheck& preCheck);
  void AssignedPodAdded(const PodPtr& pod);
  void AssignedPodUpdated(const PodPtr& pod);
  void flushBackoffQCompleted();
  void flushUnschedulablePodsLeftover();

  // A panic upstream's queue would have raised in this step (FatalError,
  // model/fatal.h), OK otherwise. Upstream's process is gone at that point:
  // the System turns it into a fatal step, whatever the model did after it.
  absl::Status Panic() const { return panic_; }

  // upstream: the nominator (PodNominator).
  void AddNominatedPod(const std::shared_ptr<PodInfo>& pi,
                       const std::optional<NominatingInfo>& nominatingInfo);
  void DeleteNominatedPodIfExists(const PodPtr& pod);
  std::vector<std::shared_ptr<PodInfo>> NominatedPodsForNode(
      const std::string& nodeName) const;

  // The spec's snapshot parts. The *Into forms write the same value into
  // `out`, reusing the storage it holds (core/refill.h).
  QueueState SnapshotQueue() const;
  void SnapshotQueueInto(QueueState& out) const;
  Nominated SnapshotNominated() const;
  void SnapshotNominatedInto(Nominated& out) const;

 private:
  // upstream: PriorityQueue internals, in scheduling_queue.go's order.
  bool runPreEnqueuePlugins(QueuedPodInfo& pInfo);
  bool addToActiveQ(const std::shared_ptr<QueuedPodInfo>& pInfo);
  bool activate(const PodPtr& pod);
  bool isPodBackingoff(const QueuedPodInfo& pInfo) const;
  void movePodsToActiveOrBackoffQueue(
      const std::vector<std::shared_ptr<QueuedPodInfo>>& podInfoList,
      const ClusterEvent& event);
  std::vector<std::shared_ptr<QueuedPodInfo>>
  getUnschedulablePodsWithMatchingAffinityTerm(const Pod& pod) const;
  std::shared_ptr<QueuedPodInfo> newQueuedPodInfo(const PodPtr& pod) const;
  Time getBackoffTime(const QueuedPodInfo& pInfo) const;
  Duration calculateBackoffDuration(const QueuedPodInfo& pInfo) const;
  bool entryMatches(const ClusterEventMapEntry& e,
                    const ClusterEvent& event) const;
  bool isEventOfInterest(const ClusterEvent& event) const;
  bool podMatchesEvent(const QueuedPodInfo& pInfo,
                       const ClusterEvent& event) const;

  Config config_;
  Upstream up_;
  std::optional<std::set<std::string>> profiles_;
  Time now_;
  Duration pod_initial_backoff_ = 0;
  Duration pod_max_backoff_ = 0;
  Duration pod_max_in_unschedulable_ = 0;
  int64_t scheduling_cycle_ = 0;
  int64_t move_request_cycle_ = -1;
  GoHeap<std::shared_ptr<QueuedPodInfo>> activeQ_;
  GoHeap<std::shared_ptr<QueuedPodInfo>> podBackoffQ_;
  std::map<std::string, std::shared_ptr<QueuedPodInfo>> unschedulablePods_;
  Nominator nominator_;
  absl::Status panic_;  // Panic()
};

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_QUEUE_H_
