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
  const Pod& pod() const { return *pod_info->pod; }
};

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

  // upstream: nominator internals.
  void addNominatedPodUnlocked(const std::shared_ptr<PodInfo>& pi,
                               const std::optional<NominatingInfo>& info);
  void deleteNominated(const Pod& p);
  absl::Status updateNominatedPodUnlocked(
      const PodPtr& oldPod, const std::shared_ptr<PodInfo>& newPodInfo);

  Config config_;
  Upstream up_;
  std::optional<std::set<std::string>> profiles_;
  PodLister lister_;
  Time now_;
  Duration pod_initial_backoff_ = 0;
  Duration pod_max_backoff_ = 0;
  Duration pod_max_in_unschedulable_ = 0;
  int64_t scheduling_cycle_ = 0;
  int64_t move_request_cycle_ = -1;
  GoHeap<std::shared_ptr<QueuedPodInfo>> activeQ_;
  GoHeap<std::shared_ptr<QueuedPodInfo>> podBackoffQ_;
  std::map<std::string, std::shared_ptr<QueuedPodInfo>> unschedulablePods_;
  // upstream: nominator.nominatedPods / nominatedPodToNode.
  std::map<std::string, std::vector<std::shared_ptr<PodInfo>>> nominatedPods_;
  std::map<std::string, std::string> nominatedPodToNode_;  // uid -> node
  absl::Status panic_;                                     // Panic()
};

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_QUEUE_H_
