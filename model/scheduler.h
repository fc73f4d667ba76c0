// Scheduler: the scheduler layer's reference model — the informer's pod
// store and the event handlers of eventhandlers.go, one scheduling cycle of
// schedule_one.go per `schedule_one` step, and binding cycles that run until
// they park (waiting on Permit, or before PreBind until a `bind` step).
//
// It owns one Cache (model/cache.h) and one scheduling queue shared by every
// profile, as upstream's Scheduler does: a PriorityQueue (model/queue.h) up
// to v1.30, a BackendQueue (model/backend_queue.h) with the plugins'
// QueueingHints (model/queueing_hints.h) when up.queueing_hints is on; each
// profile has its own waiting-pods map. Within a step, as the spec fixes it:
// for a pod event the cache handler runs before the queue handler, and a
// binding cycle the step releases runs after the handler that released it
// returns.
//
// Its definitions follow upstream's files: model/event_handlers.cc
// (eventhandlers.go), model/schedule_one.cc (schedule_one.go),
// model/framework.cc (framework/runtime/framework.go) and model/scheduler.cc
// (construction, the Permit and flush steps, snapshots).
//
//   Scheduler s(header.config);
//   s.SetNow(step.t);
//   s.OnPodAdd(pod);            // informer Add
//   s.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kWait);
//   StepOut out = s.TakeOut();  // what the step emitted
#ifndef SCHEDTRACE_MODEL_SCHEDULER_H_
#define SCHEDTRACE_MODEL_SCHEDULER_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/state.h"
#include "core/trace.h"
#include "model/backend_queue.h"
#include "model/cache.h"
#include "model/filters.h"
#include "model/node_info.h"
#include "model/queue.h"
#include "model/snapshot.h"
#include "model/upstream.h"

namespace schedtrace::model {

class Scheduler {
 public:
  explicit Scheduler(const Config& config, const Upstream& up = Upstream{});

  void SetNow(int64_t now_ms);

  // Informer deliveries (addAllEventHandlers). A fatal status means upstream
  // exited (model/fatal.h).
  absl::Status OnPodAdd(const PodPtr& pod);
  absl::Status OnPodUpdate(const PodPtr& old_pod, const PodPtr& new_pod);
  absl::Status OnPodDelete(const PodPtr& pod, bool tombstone);
  absl::Status OnNodeAdd(const NodePtr& node);
  absl::Status OnNodeUpdate(const NodePtr& old_node, const NodePtr& new_node);
  absl::Status OnNodeDelete(const NodePtr& node, bool tombstone);
  absl::Status OnClusterEvent(const std::string& resource,
                              const std::string& action,
                              bool wait_for_first_consumer);
  absl::Status FlushBackoff();
  absl::Status FlushUnschedulable();

  // upstream: scheduleOne with the scripted Reserve and Permit outcomes.
  absl::Status ScheduleOne(ReserveOutcome reserve, PermitOutcome permit);
  // A Permit plugin allows / rejects the waiting pod `key` (no-op if none).
  absl::Status PermitAllow(const std::string& key);
  absl::Status PermitReject(const std::string& key);
  // Releases the binding cycle of `key` parked before PreBind (no-op if none).
  absl::Status Bind(const std::string& key, bool prebind_ok, bool bind_ok);

  // What the steps since the last call emitted.
  StepOut TakeOut();
  // A panic of the queue in this step (PriorityQueue::Panic,
  // BackendQueue::Panic), OK otherwise.
  absl::Status QueuePanic() const {
    if (backend_ != nullptr) return backend_->Panic();
    return queue_ != nullptr ? queue_->Panic() : absl::OkStatus();
  }
  // The spec's full scheduler-layer snapshot; SnapshotInto writes the same
  // value into `out`, reusing the storage it holds (core/refill.h).
  State Snapshot() const;
  void SnapshotInto(State& out) const;

 private:
  // A binding cycle between its steps: waiting on Permit, or parked before
  // PreBind. upstream: the goroutine started by scheduleOne.
  struct BindingCycle {
    std::string profile;
    std::shared_ptr<QueuedPodInfo> assumed_pod_info;
    std::string node;
  };
  // upstream: framework.Status of a failed binding cycle.
  struct CycleStatus {
    bool unschedulable = false;
    std::string message;
    // upstream: Status.Plugin() of a Permit rejection (waitingPod.Reject's
    // plugin name: "" when RejectWaitingPod rejected it).
    std::optional<std::string> rejected_by;
  };
  // A continuation queued by a handler, run after it returns.
  using Continuation = std::function<absl::Status()>;

  // upstream: eventhandlers.go (model/event_handlers.cc)
  absl::Status addPodToCache(const PodPtr& pod);
  absl::Status updatePodInCache(const PodPtr& old_pod, const PodPtr& new_pod);
  absl::Status deletePodFromCache(const PodPtr& pod);
  absl::Status addPodToSchedulingQueue(const PodPtr& pod);
  absl::Status updatePodInSchedulingQueue(const PodPtr& old_pod,
                                          const PodPtr& new_pod);
  absl::Status deletePodFromSchedulingQueue(const PodPtr& pod);
  // From v1.35 (unified_pod_handler): the one pod handler and what it calls.
  absl::Status addPod(const PodPtr& pod);
  absl::Status updatePod(const PodPtr& old_pod, const PodPtr& new_pod);
  absl::Status deletePod(const PodPtr& pod, bool tombstone);
  // (addAssignedPodToCache, updateAssignedPodInCache and
  // deleteAssignedPodFromCache are addPodToCache, updatePodInCache and
  // deletePodFromCache above, renamed.)
  absl::Status deletePodFromSchedulingQueue(const PodPtr& pod, bool inBinding);
  absl::Status handleAssumedPodDeletion(const PodPtr& pod);
  bool assignedPod(const Pod& pod) const { return !pod.node_name.empty(); }
  bool responsibleForPod(const Pod& pod) const;
  bool cacheFilter(const Pod& pod) const { return assignedPod(pod); }
  bool queueFilter(const Pod& pod) const {
    return !assignedPod(pod) && responsibleForPod(pod);
  }

  // upstream: schedule_one.go (model/schedule_one.cc), in its order.
  //
  // upstream: framework.Diagnosis; the model keeps UnschedulablePlugins
  // (NodeToStatusMap only feeds messages and preemption, which it lacks).
  struct Diagnosis {
    std::set<std::string> unschedulable_plugins;
  };
  // upstream: the error schedulePod returns, by what schedulingCycle tells
  // apart: nil, ErrNoNodesAvailable, a *FitError, any other error.
  enum class ScheduleError { kNone, kNoNodesAvailable, kFitError, kError };
  // upstream: schedulePod's (ScheduleResult, error).
  struct SchedulePodResult {
    std::string suggested_host;  // upstream: ScheduleResult.SuggestedHost
    ScheduleError err = ScheduleError::kNone;
    Diagnosis diagnosis;  // upstream: FitError.Diagnosis (kFitError)
  };
  // upstream: schedulingCycle's (ScheduleResult, *QueuedPodInfo, error).
  struct SchedulingCycleResult {
    // upstream: SuggestedHost; set once selectHost chose a node.
    std::optional<std::string> suggested_host;
    // upstream: podInfo, or assumedPodInfo once the cycle assumed the pod.
    std::shared_ptr<QueuedPodInfo> pod_info;
    bool failed = false;  // upstream: err != nil
    // upstream: ScheduleResult.reason and .nominatingInfo (when failed).
    std::string reason;
    std::optional<NominatingInfo> nominating_info;
    // upstream: a FitError's Diagnosis.UnschedulablePlugins.
    std::optional<std::set<std::string>> fit_error_plugins;
    // upstream (v1.30): the FitError of a Permit rejection, which the
    // failure handler takes as the pod's plugins; never in `result.plugins`.
    std::optional<std::set<std::string>> rejector_plugins;
  };
  bool skipPodSchedule(const Pod& pod);
  // A non-OK status is fatal only; upstream's errors are in the result.
  absl::StatusOr<SchedulingCycleResult> schedulingCycle(
      const std::shared_ptr<QueuedPodInfo>& pod_info, ReserveOutcome reserve,
      PermitOutcome permit);
  absl::StatusOr<SchedulePodResult> schedulePod(const Pod& pod);
  // A non-OK status is upstream's error (never fatal), as in the two below.
  absl::StatusOr<std::vector<const NodeInfo*>> findNodesThatFitPod(
      const Pod& pod, Diagnosis& diagnosis) const;
  absl::StatusOr<std::vector<const NodeInfo*>> evaluateNominatedNode(
      const Pod& pod, Diagnosis& diagnosis) const;
  absl::StatusOr<std::vector<const NodeInfo*>> findNodesThatPassFilters(
      const Pod& pod, Diagnosis& diagnosis,
      const std::vector<const NodeInfo*>& nodes) const;
  absl::Status assume(PodInfo& assumed, const std::string& host);
  absl::Status runBindingCycleUntilParked(BindingCycle cycle);
  // Whether the binding succeeded; a non-OK status is fatal only.
  absl::StatusOr<bool> bind(const BindingCycle& cycle, bool bind_ok);
  absl::Status finishBinding(const PodPtr& assumed, bool bound);
  absl::Status handleBindingCycleError(const BindingCycle& cycle,
                                       const CycleStatus& status);
  absl::Status handleSchedulingFailure(
      const std::shared_ptr<QueuedPodInfo>& failed_pod_info,
      const std::string& reason,
      const std::optional<std::set<std::string>>& fit_error_plugins,
      const std::optional<NominatingInfo>& nominating_info);
  // The same from v1.35 (backend/queue, in-flight pods).
  absl::Status handleSchedulingFailureWithHints(
      const std::shared_ptr<QueuedPodInfo>& failed_pod_info,
      const std::string& reason,
      const std::optional<std::set<std::string>>& fit_error_plugins,
      const std::optional<NominatingInfo>& nominating_info);

  // upstream: framework/runtime/framework.go for the pod's profile
  // (model/framework.cc).
  FilterStatus RunFilterPluginsWithNominatedPods(const Pod& pod,
                                                 const NodeInfo& info) const;
  std::optional<NodeInfo> addNominatedPods(const Pod& pod,
                                           const NodeInfo& info) const;
  bool RejectWaitingPod(const std::string& profile, const std::string& uid,
                        const std::string& plugin = "");
  // The scripted Permit plugin's name: the header's plugins.permit, else
  // TracePermit.
  std::string PermitPluginName() const;

  absl::Status RunContinuations();
  PreEnqueueCheck preCheckForNode(const absl::StatusOr<NodeInfo>& info) const;

  // The scheduling queue's calls, to whichever queue the version has. A
  // move's event objects reach only BackendQueue's QueueingHints.
  std::shared_ptr<QueuedPodInfo> queuePop();
  void queueDone(const std::string& uid);
  void queueMoveAll(const ClusterEvent& event, const QueueEvent& hinted,
                    const EventObjects& objects,
                    const PreEnqueueCheck& preCheck);
  void queueAddNominatedPod(const std::shared_ptr<PodInfo>& pi,
                            const std::optional<NominatingInfo>& info);
  void queueDeleteNominatedPodIfExists(const PodPtr& pod);

  Config config_;
  Upstream up_;
  int64_t now_ms_ = 0;
  std::map<std::string, PodPtr> informer_;  // key -> the informer's object
  Cache cache_;
  std::unique_ptr<PriorityQueue> queue_;   // up to v1.30
  std::unique_ptr<BackendQueue> backend_;  // with queueing_hints
  QueueingHintMap hint_map_;               // backend_'s (every profile's)
  model::Snapshot snapshot_;  // upstream: Scheduler.nodeInfoSnapshot
  // profile -> uid -> a binding cycle waiting on Permit
  // (upstream: frameworkImpl.waitingPods).
  std::map<std::string, std::map<std::string, BindingCycle>> waiting_;
  std::vector<BindingCycle> parked_;  // in the order they parked
  std::vector<Continuation> continuations_;
  StepOut out_;
};

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_SCHEDULER_H_
