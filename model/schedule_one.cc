// The scheduling and binding cycles of model::Scheduler, one function per
// function of upstream's pkg/scheduler/schedule_one.go, in that file's order.
// Upstream steps the model does not have are named where they would run.
#include <algorithm>
#include <charconv>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/fatal.h"
#include "model/filters.h"
#include "model/go_int.h"
#include "model/node_events.h"
#include "model/scheduler.h"

namespace schedtrace::model {
namespace {

constexpr char kUnschedulable[] = "Unschedulable";  // v1.PodReasonUnschedulable
constexpr char kSchedulerError[] =
    "SchedulerError";  // v1.PodReasonSchedulerError

// schedule_one.go: clearNominatedNode
NominatingInfo ClearNominatedNode() {
  return NominatingInfo{NominatingMode::kOverride, ""};
}

// The TraceScore plugin (upstream/cmd/schedtrace-upstream's
// tracePlugin.Score): the integer in the node's `schedtrace.io/score` label
// as strconv.ParseInt reads it ("+5" is 5, "007" is 7, "-0" is 0), 0 when
// absent or not an integer (" 5", "5.0", "+-5", out of int64).
int64_t TraceScore(const Node& node) {
  auto it = node.labels.find("schedtrace.io/score");
  if (it == node.labels.end()) return 0;
  int64_t v = 0;
  return ParseGoInt64(it->second, v) ? v : 0;
}

// upstream: QueuedPodInfo.DeepCopy. Before v1.26 it copied neither
// UnschedulablePlugins (left nil) nor Gated; from v1.26 Clone makes a set
// even of a nil one.
std::shared_ptr<QueuedPodInfo> DeepCopy(const QueuedPodInfo& qpi,
                                        const Upstream& up) {
  auto copy = std::make_shared<QueuedPodInfo>(qpi);
  copy->pod_info = std::make_shared<PodInfo>(*qpi.pod_info);
  copy->unschedulable_plugins_nil = false;
  if (!up.deep_copy_keeps_unschedulable_plugins) {
    copy->unschedulable_plugins.clear();
    copy->unschedulable_plugins_nil = true;
    copy->gated = false;
  }
  return copy;
}

// upstream: one entry of framework.NodeScoreList.
struct NodeScore {
  const NodeInfo* node;
  int64_t score;
};

// Defined below in schedule_one.go's order.
absl::StatusOr<std::vector<NodeScore>> prioritizeNodes(
    const std::vector<const NodeInfo*>& nodes);
std::string selectHost(const std::vector<NodeScore>& node_scores);

}  // namespace

// schedule_one.go: (*Scheduler).scheduleOne. The binding goroutine it starts
// is the BindingCycle kept in waiting_ (blocked in WaitOnPermit) or run by a
// continuation once this step's handler work is done.
absl::Status Scheduler::ScheduleOne(ReserveOutcome reserve,
                                    PermitOutcome permit) {
  std::shared_ptr<QueuedPodInfo> pod_info = queuePop();  // NextPod
  out_.popped_present = true;
  if (pod_info == nullptr) return absl::OkStatus();
  const PodPtr pod = pod_info->pod_info->pod;
  out_.popped = pod->Key();
  if (!responsibleForPod(*pod)) {  // frameworkForPod
    queueDone(pod->uid);
    return absl::OkStatus();
  }
  if (skipPodSchedule(*pod)) {
    queueDone(pod->uid);
    out_.result = ScheduleResult{pod->Key(), "skipped"};
    return absl::OkStatus();
  }
  absl::StatusOr<SchedulingCycleResult> cycle =
      schedulingCycle(pod_info, reserve, permit);
  if (!cycle.ok()) return cycle.status();
  ScheduleResult& result = out_.result.emplace();
  result.pod = pod->Key();
  result.node = cycle->suggested_host;
  if (cycle->failed) {
    result.outcome =
        cycle->reason == kUnschedulable ? "unschedulable" : "error";
    if (cycle->fit_error_plugins) {
      result.plugins = std::vector<std::string>(
          cycle->fit_error_plugins->begin(), cycle->fit_error_plugins->end());
    }
    // upstream: sched.FailureHandler
    const std::optional<std::set<std::string>>& plugins =
        cycle->fit_error_plugins ? cycle->fit_error_plugins
                                 : cycle->rejector_plugins;
    if (absl::Status s = handleSchedulingFailure(
            cycle->pod_info, cycle->reason, plugins, cycle->nominating_info);
        !s.ok()) {
      return s;
    }
    return RunContinuations();
  }
  result.outcome = "scheduled";
  BindingCycle binding{pod->scheduler_name, cycle->pod_info,
                       *cycle->suggested_host};
  // upstream (v1.35+): bindingCycle, before WaitOnPermit: TracePreBind's
  // PreBindPreFlight answers Success, so updatePod patches the assumed pod's
  // nominatedNodeName to its node when it differs (no condition: reason "").
  if (up_.binding_cycle_nominates_node) {
    const Pod& assumed = *binding.assumed_pod_info->pod_info->pod;
    if (assumed.nominated_node_name != binding.node) {
      out_.status_updates.push_back({assumed.Key(), "", binding.node});
    }
  }
  if (permit == PermitOutcome::kWait) {
    // upstream: RunPermitPlugins put the pod in the waiting-pods map; its
    // goroutine blocks in WaitOnPermit until a permit step.
    const std::string uid = binding.assumed_pod_info->pod_info->pod->uid;
    waiting_[binding.profile][uid] = std::move(binding);
  } else {
    // upstream: WaitOnPermit passes at once; from v1.35 bindingCycle then
    // calls Done.
    queueDone(binding.assumed_pod_info->pod_info->pod->uid);
    continuations_.push_back(
        [this, binding]() { return runBindingCycleUntilParked(binding); });
  }
  return RunContinuations();
}

// schedule_one.go: (*Scheduler).schedulingCycle. Reserve and Permit answer
// as the step scripts them; podsToActivate is not modelled (no plugin fills
// it).
absl::StatusOr<Scheduler::SchedulingCycleResult> Scheduler::schedulingCycle(
    const std::shared_ptr<QueuedPodInfo>& pod_info, ReserveOutcome reserve,
    PermitOutcome permit) {
  auto failed = [](std::shared_ptr<QueuedPodInfo> info, std::string reason,
                   std::optional<NominatingInfo> nominating_info) {
    SchedulingCycleResult r;
    r.pod_info = std::move(info);
    r.failed = true;
    r.reason = std::move(reason);
    r.nominating_info = std::move(nominating_info);
    return r;
  };
  const PodPtr pod = pod_info->pod_info->pod;
  absl::StatusOr<SchedulePodResult> scheduled = schedulePod(*pod);
  if (!scheduled.ok()) return scheduled.status();
  switch (scheduled->err) {
    case ScheduleError::kFitError: {
      // No PostFilter plugins (no preemption): a nil NominatingInfo, and
      // clearNominatedNode from v1.35.
      SchedulingCycleResult r =
          failed(pod_info, kUnschedulable,
                 up_.fit_error_clears_nominated_node
                     ? std::optional<NominatingInfo>(ClearNominatedNode())
                     : std::nullopt);
      r.fit_error_plugins =
          std::move(scheduled->diagnosis.unschedulable_plugins);
      return r;
    }
    case ScheduleError::kNoNodesAvailable:
      return failed(pod_info, kUnschedulable, ClearNominatedNode());
    case ScheduleError::kError:
      return failed(pod_info, kSchedulerError, ClearNominatedNode());
    case ScheduleError::kNone:
      break;
  }
  const std::string host = std::move(scheduled->suggested_host);
  std::shared_ptr<QueuedPodInfo> assumed_info = DeepCopy(*pod_info, up_);
  absl::Status assumed = assume(*assumed_info->pod_info, host);
  if (IsFatal(assumed)) return assumed;
  SchedulingCycleResult result;
  if (!assumed.ok()) {
    result = failed(assumed_info, kSchedulerError, ClearNominatedNode());
  } else if (reserve == ReserveOutcome::kError) {
    // upstream: RunReservePluginsUnreserve, then ForgetPod (errors logged).
    const PodPtr& assumed_pod = assumed_info->pod_info->pod;
    if (absl::Status s = cache_.ForgetPod(assumed_pod); IsFatal(s)) return s;
    result = failed(assumed_info, kSchedulerError, ClearNominatedNode());
  } else if (permit == PermitOutcome::kReject) {
    // upstream: the same, with the Unschedulable reason of the rejection.
    const PodPtr& assumed_pod = assumed_info->pod_info->pod;
    if (absl::Status s = cache_.ForgetPod(assumed_pod); IsFatal(s)) return s;
    result = failed(assumed_info, kUnschedulable, ClearNominatedNode());
    // v1.30: the rejection is a FitError whose diagnosis names the plugin.
    if (up_.permit_rejection_is_fit_error) {
      result.rejector_plugins = std::set<std::string>{PermitPluginName()};
    }
  } else {
    result.pod_info = assumed_info;
  }
  result.suggested_host = host;
  return result;
}

// schedule_one.go: (*Scheduler).bindingCycle up to RunPreBindPlugins, where
// the trace parks it until a `bind` step (Scheduler::Bind runs the rest).
absl::Status Scheduler::runBindingCycleUntilParked(BindingCycle cycle) {
  parked_.push_back(std::move(cycle));
  return absl::OkStatus();
}

// The rest of schedule_one.go: (*Scheduler).bindingCycle: RunPreBindPlugins,
// bind, RunPostBindPlugins (which the model does not have).
absl::Status Scheduler::Bind(const std::string& key, bool prebind_ok,
                             bool bind_ok) {
  auto it = std::find_if(parked_.begin(), parked_.end(), [&](const auto& c) {
    return c.assumed_pod_info->pod_info->pod->Key() == key;
  });
  if (it == parked_.end()) return absl::OkStatus();
  BindingCycle cycle = std::move(*it);
  parked_.erase(it);
  if (!prebind_ok) {
    return handleBindingCycleError(cycle, CycleStatus{false, "prebind"});
  }
  absl::StatusOr<bool> bound = bind(cycle, bind_ok);
  if (!bound.ok()) return bound.status();
  if (!*bound) {
    return handleBindingCycleError(cycle, CycleStatus{false, "bind"});
  }
  return absl::OkStatus();
}

// schedule_one.go: (*Scheduler).handleBindingCycleError
absl::Status Scheduler::handleBindingCycleError(const BindingCycle& cycle,
                                                const CycleStatus& status) {
  const PodPtr assumed = cycle.assumed_pod_info->pod_info->pod;
  // upstream: RunReservePluginsUnreserve, then ForgetPod.
  absl::Status forget = cache_.ForgetPod(assumed);
  if (IsFatal(forget)) return forget;
  bool deferred_move = false;
  if (forget.ok()) {
    if (status.unschedulable) {
      deferred_move = true;  // runs after the failure handler
    } else {
      queueMoveAll(AssignedPodDeleteEvent(), EventAssignedPodDelete(),
                   EventObjects{.old_pod = assumed}, nullptr);
    }
  }
  // v1.30: a rejection while waiting on Permit is a FitError naming the
  // rejecting plugin ("" for RejectWaitingPod).
  std::optional<std::set<std::string>> fit_error_plugins;
  if (up_.permit_rejection_is_fit_error && status.rejected_by) {
    fit_error_plugins = std::set<std::string>{*status.rejected_by};
  }
  absl::Status s = handleSchedulingFailure(
      cycle.assumed_pod_info,
      status.unschedulable ? kUnschedulable : kSchedulerError,
      fit_error_plugins, ClearNominatedNode());
  if (!s.ok()) return s;
  if (deferred_move) {
    const std::string uid = assumed->uid;
    queueMoveAll(AssignedPodDeleteEvent(), EventAssignedPodDelete(),
                 EventObjects{.old_pod = assumed},
                 [uid](const Pod& pod) { return pod.uid != uid; });
  }
  return absl::OkStatus();
}

// schedule_one.go: (*Scheduler).skipPodSchedule
bool Scheduler::skipPodSchedule(const Pod& pod) {
  if (pod.deletion_timestamp) {
    out_.events.push_back({pod.Key(), "FailedScheduling"});
    return true;
  }
  absl::StatusOr<bool> assumed =
      cache_.IsAssumedPod(std::make_shared<const Pod>(pod));
  return assumed.ok() && *assumed;
}

// schedule_one.go: (*Scheduler).schedulePod
absl::StatusOr<Scheduler::SchedulePodResult> Scheduler::schedulePod(
    const Pod& pod) {
  SchedulePodResult result;
  if (absl::Status s = cache_.UpdateSnapshot(snapshot_); !s.ok()) {
    if (IsFatal(s)) return s;
    result.err = ScheduleError::kError;
    return result;
  }
  if (snapshot_.nodeInfoList.empty()) {
    result.err = ScheduleError::kNoNodesAvailable;
    return result;
  }
  absl::StatusOr<std::vector<const NodeInfo*>> feasible =
      findNodesThatFitPod(pod, result.diagnosis);
  if (!feasible.ok()) {
    result.err = ScheduleError::kError;
    return result;
  }
  if (feasible->empty()) {
    result.err = ScheduleError::kFitError;
    return result;
  }
  if (feasible->size() == 1) {  // only one node: just use it
    result.suggested_host = feasible->front()->node()->name;
    return result;
  }
  absl::StatusOr<std::vector<NodeScore>> priority_list =
      prioritizeNodes(*feasible);
  if (!priority_list.ok()) {
    result.err = ScheduleError::kError;
    return result;
  }
  result.suggested_host = selectHost(*priority_list);
  return result;
}

// schedule_one.go: (*Scheduler).findNodesThatFitPod. There are no extenders
// (findNodesThatPassExtenders passes every node) and no nextStartNodeIndex:
// every node is evaluated, from the first (docs/FORMAT.md).
absl::StatusOr<std::vector<const NodeInfo*>> Scheduler::findNodesThatFitPod(
    const Pod& pod, Diagnosis& diagnosis) const {
  // upstream: RunPreFilterPlugins (NodeAffinity's is the only one modelled).
  PreFilterResult pre = NodeAffinityPreFilter(pod, up_);
  if (!pre.status.ok()) {
    diagnosis.unschedulable_plugins.insert(pre.status.plugin);
    return std::vector<const NodeInfo*>{};
  }
  // v1.31+ (kubernetes#122251): the PreFilter plugins that narrowed the
  // nodes start the Diagnosis' plugin set, which then exists from the start.
  const bool shared_from_start = up_.pre_filter_node_plugins_are_rejectors ||
                                 !up_.diagnosis_plugin_sets_allocated_lazily;
  if (up_.pre_filter_node_plugins_are_rejectors && pre.node_names) {
    diagnosis.unschedulable_plugins.insert("NodeAffinity");
  }
  if (!pod.nominated_node_name.empty()) {
    // upstream: an error of evaluateNominatedNode is logged. It takes the
    // Diagnosis by value: its plugin set is shared with ours while it
    // exists from the start, and v1.29 and v1.30 allocate it on the copy.
    Diagnosis copy;
    absl::StatusOr<std::vector<const NodeInfo*>> feasible =
        evaluateNominatedNode(pod, shared_from_start ? diagnosis : copy);
    if (feasible.ok() && !feasible->empty()) return feasible;
  }
  std::vector<const NodeInfo*> nodes;
  if (!pre.node_names) {
    for (const auto& info : snapshot_.nodeInfoList) nodes.push_back(info.get());
  } else {
    for (const std::string& name : *pre.node_names) {
      const NodeInfo* info = snapshot_.Get(name);
      if (info == nullptr) {
        // v1.30 skips a name the snapshot lacks; v1.26's NodeInfos().Get
        // fails the cycle.
        if (up_.pre_filter_ignores_unknown_node_names) continue;
        return absl::NotFoundError("nodeinfo not found for node name " + name);
      }
      nodes.push_back(info);
    }
  }
  return findNodesThatPassFilters(pod, diagnosis, nodes);
}

// schedule_one.go: (*Scheduler).evaluateNominatedNode
absl::StatusOr<std::vector<const NodeInfo*>> Scheduler::evaluateNominatedNode(
    const Pod& pod, Diagnosis& diagnosis) const {
  const NodeInfo* info = snapshot_.Get(pod.nominated_node_name);
  if (info == nullptr) {
    return absl::NotFoundError("nodeinfo not found for node name " +
                               pod.nominated_node_name);
  }
  return findNodesThatPassFilters(pod, diagnosis, {info});
}

// schedule_one.go: (*Scheduler).findNodesThatPassFilters, in order over
// every node: numFeasibleNodesToFind is not modelled (traces of 100 nodes or
// more set percentageOfNodesToScore 100, so upstream evaluates every node).
// An error stops the search; the nodes found so far are not used.
absl::StatusOr<std::vector<const NodeInfo*>>
Scheduler::findNodesThatPassFilters(
    const Pod& pod, Diagnosis& diagnosis,
    const std::vector<const NodeInfo*>& nodes) const {
  std::vector<const NodeInfo*> feasible;
  for (const NodeInfo* info : nodes) {
    FilterStatus status = RunFilterPluginsWithNominatedPods(pod, *info);
    if (status.code == Code::kError) {
      return absl::InternalError("running filter plugin " + status.plugin);
    }
    if (status.ok()) {
      feasible.push_back(info);
    } else {
      diagnosis.unschedulable_plugins.insert(status.plugin);
    }
  }
  return feasible;
}

namespace {

// schedule_one.go: prioritizeNodes: RunScorePlugins with TraceScore, the only
// Score plugin, which refuses a score outside [0, 100]; no PreScore plugins,
// no extenders.
absl::StatusOr<std::vector<NodeScore>> prioritizeNodes(
    const std::vector<const NodeInfo*>& nodes) {
  std::vector<NodeScore> result;
  result.reserve(nodes.size());
  for (const NodeInfo* info : nodes) {
    int64_t score = TraceScore(*info->node());
    if (score < 0 || score > 100) {
      return absl::InvalidArgumentError(
          "plugin TraceScore returns an invalid score " +
          std::to_string(score));
    }
    result.push_back({info, score});
  }
  return result;
}

// schedule_one.go: selectHost: the first node of the highest score (upstream
// picks at random among tied nodes; traces keep the best score unique).
std::string selectHost(const std::vector<NodeScore>& node_scores) {
  const NodeScore* selected = &node_scores.front();
  for (const NodeScore& ns : node_scores) {
    if (ns.score > selected->score) selected = &ns;
  }
  return selected->node->node()->name;
}

}  // namespace

// schedule_one.go: (*Scheduler).assume: `assumed` gets a copy of its pod
// with `host` as its node name, which the cache assumes.
absl::Status Scheduler::assume(PodInfo& assumed, const std::string& host) {
  auto assumed_pod = std::make_shared<Pod>(*assumed.pod);
  assumed_pod->node_name = host;
  assumed.pod = assumed_pod;
  if (absl::Status s = cache_.AssumePod(assumed_pod); !s.ok()) return s;
  // upstream: if "assumed" is a nominated pod, drop its nomination.
  queueDeleteNominatedPodIfExists(assumed_pod);
  return absl::OkStatus();
}

// schedule_one.go: (*Scheduler).bind: RunBindPlugins (the step's answer;
// the model has no binding extenders), with finishBinding deferred.
absl::StatusOr<bool> Scheduler::bind(const BindingCycle& cycle, bool bind_ok) {
  const PodPtr& assumed = cycle.assumed_pod_info->pod_info->pod;
  if (bind_ok) out_.bindings.push_back({assumed->Key(), cycle.node});
  if (absl::Status s = finishBinding(assumed, bind_ok); !s.ok()) return s;
  return bind_ok;
}

// schedule_one.go: (*Scheduler).finishBinding: FinishBinding whatever the
// outcome, the Scheduled event only on success.
absl::Status Scheduler::finishBinding(const PodPtr& assumed, bool bound) {
  if (absl::Status s = cache_.FinishBinding(assumed, now_ms_); IsFatal(s)) {
    return s;
  }
  if (bound) out_.events.push_back({assumed->Key(), "Scheduled"});
  return absl::OkStatus();
}

// schedule_one.go: (*Scheduler).handleSchedulingFailure
absl::Status Scheduler::handleSchedulingFailure(
    const std::shared_ptr<QueuedPodInfo>& failed_pod_info,
    const std::string& reason,
    const std::optional<std::set<std::string>>& fit_error_plugins,
    const std::optional<NominatingInfo>& nominating_info) {
  if (backend_ != nullptr) {
    return handleSchedulingFailureWithHints(failed_pod_info, reason,
                                            fit_error_plugins, nominating_info);
  }
  const std::shared_ptr<QueuedPodInfo>& pod_info = failed_pod_info;
  if (fit_error_plugins) {
    pod_info->unschedulable_plugins = *fit_error_plugins;
    // v1.29+: the Diagnosis' set is nil until a plugin rejects.
    pod_info->unschedulable_plugins_nil =
        up_.diagnosis_plugin_sets_allocated_lazily &&
        fit_error_plugins->empty();
  }
  const PodPtr pod = pod_info->pod_info->pod;
  auto cached = informer_.find(pod->Key());
  if (cached != informer_.end() && cached->second->node_name.empty()) {
    pod_info->pod_info = std::make_shared<PodInfo>(cached->second);
    if (absl::Status s = queue_->AddUnschedulableIfNotPresent(
            pod_info, queue_->SchedulingCycle());
        IsFatal(s)) {
      return s;
    }
  }
  queue_->AddNominatedPod(pod_info->pod_info, nominating_info);
  // upstream: the FailedScheduling event and updatePod's status patch (the
  // PodScheduled condition's message always changes, so it is always sent).
  out_.events.push_back({pod->Key(), "FailedScheduling"});
  std::string nominated = pod->nominated_node_name;
  if (nominating_info && nominating_info->mode == NominatingMode::kOverride) {
    nominated = nominating_info->node;
  }
  out_.status_updates.push_back({pod->Key(), reason, nominated});
  return absl::OkStatus();
}

// schedule_one.go: (*Scheduler).handleSchedulingFailure from v1.35, with
// the scheduling queue of backend/queue: Done whenever the pod is not
// handed back to AddUnschedulablePodIfNotPresent (which calls it).
absl::Status Scheduler::handleSchedulingFailureWithHints(
    const std::shared_ptr<QueuedPodInfo>& failed_pod_info,
    const std::string& reason,
    const std::optional<std::set<std::string>>& fit_error_plugins,
    const std::optional<NominatingInfo>& nominating_info) {
  // upstream (v1.37): podInfo.DeepCopy() (the PodInfo is replaced, never
  // changed); before, the popped or assumed QueuedPodInfo itself, which
  // nothing else holds by then.
  auto pod_info = std::make_shared<QueuedPodInfo>(*failed_pod_info);
  PodPtr pod = pod_info->pod_info->pod;
  const std::string uid = pod->uid;
  // upstream (v1.36+, kubernetes#135126): ClearRejectorPlugins; the
  // FitError's plugins replace them. v1.35 clears them in Pop instead
  // (activeQueue.unlockedPop), which no step tells apart: between the pop
  // and this handler nothing reads them.
  pod_info->unschedulable_plugins.clear();
  pod_info->pending_plugins.clear();
  pod_info->unschedulable_plugins_nil = false;
  if (fit_error_plugins) {
    pod_info->unschedulable_plugins = *fit_error_plugins;
    pod_info->pending_plugins.clear();
    pod_info->unschedulable_plugins_nil = false;
  }
  bool calledDone = false;
  auto cached = informer_.find(pod->Key());
  if (cached != informer_.end() && cached->second->node_name.empty()) {
    if (up_.failure_handler_skips_recreated_pod && cached->second->uid != uid) {
      queueDone(uid);  // re-created: no requeue, no status update
      return absl::OkStatus();
    }
    pod_info->pod_info = std::make_shared<PodInfo>(cached->second);
    pod = cached->second;
    if (absl::Status s = backend_->AddUnschedulablePodIfNotPresent(
            pod_info, backend_->SchedulingCycle());
        IsFatal(s)) {
      return s;
    }
    calledDone = true;
  }
  if (!calledDone) queueDone(uid);
  backend_->AddNominatedPod(pod_info->pod_info, nominating_info);
  // upstream: the FailedScheduling event and updatePod's status patch (the
  // PodScheduled condition's message always changes, so it is always sent).
  out_.events.push_back({pod->Key(), "FailedScheduling"});
  std::string nominated = pod->nominated_node_name;
  if (nominating_info && nominating_info->mode == NominatingMode::kOverride) {
    nominated = nominating_info->node;
  }
  out_.status_updates.push_back({pod->Key(), reason, nominated});
  return absl::OkStatus();
}

}  // namespace schedtrace::model
