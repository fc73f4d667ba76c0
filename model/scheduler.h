// Scheduler: the scheduler layer's reference model — the informer's pod
// store and the event handlers of eventhandlers.go, one scheduling cycle of
// schedule_one.go per `schedule_one` step, and binding cycles that run until
// they park (waiting on Permit, or before PreBind until a `bind` step).
//
// It owns one Cache (model/cache.h) and one PriorityQueue (model/queue.h)
// shared by every profile, as upstream's Scheduler does; each profile has its
// own waiting-pods map. Within a step, as the spec fixes it: for a pod event
// the cache handler runs before the queue handler, and a binding cycle the
// step releases runs after the handler that released it returns.
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
#include "harness/state.h"
#include "harness/trace.h"
#include "model/cache.h"
#include "model/queue.h"
#include "model/snapshot.h"

namespace schedtrace::model {

class Scheduler {
 public:
  explicit Scheduler(const Config& config);

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
  // The spec's full scheduler-layer snapshot; SnapshotInto writes the same
  // value into `out`, reusing the storage it holds (harness/refill.h).
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
  };
  // A continuation queued by a handler, run after it returns.
  using Continuation = std::function<absl::Status()>;

  // upstream: eventhandlers.go
  absl::Status addPodToCache(const PodPtr& pod);
  absl::Status updatePodInCache(const PodPtr& old_pod, const PodPtr& new_pod);
  absl::Status deletePodFromCache(const PodPtr& pod);
  absl::Status addPodToSchedulingQueue(const PodPtr& pod);
  absl::Status updatePodInSchedulingQueue(const PodPtr& old_pod,
                                          const PodPtr& new_pod);
  absl::Status deletePodFromSchedulingQueue(const PodPtr& pod);
  bool assignedPod(const Pod& pod) const { return !pod.node_name.empty(); }
  bool responsibleForPod(const Pod& pod) const;
  bool cacheFilter(const Pod& pod) const { return assignedPod(pod); }
  bool queueFilter(const Pod& pod) const {
    return !assignedPod(pod) && responsibleForPod(pod);
  }

  // upstream: schedule_one.go
  absl::Status schedulingCycle(const std::string& profile,
                               const std::shared_ptr<QueuedPodInfo>& pod_info,
                               ReserveOutcome reserve, PermitOutcome permit);
  absl::Status runBindingCycleUntilParked(BindingCycle cycle);
  absl::Status handleBindingCycleError(const BindingCycle& cycle,
                                       const CycleStatus& status);
  absl::Status handleSchedulingFailure(
      const std::shared_ptr<QueuedPodInfo>& pod_info, const std::string& reason,
      const std::optional<std::set<std::string>>& fit_error_plugins,
      const std::optional<NominatingInfo>& nominating_info);
  bool skipPodSchedule(const Pod& pod);

  // upstream: framework.RejectWaitingPod for the pod's profile.
  bool RejectWaitingPod(const std::string& profile, const std::string& uid);
  absl::Status RunContinuations();

  Config config_;
  int64_t now_ms_ = 0;
  std::map<std::string, PodPtr> informer_;  // key -> the informer's object
  Cache cache_;
  std::unique_ptr<PriorityQueue> queue_;
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
