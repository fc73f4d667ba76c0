#include "model/scheduler.h"

#include <algorithm>
#include <charconv>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/refill.h"
#include "model/cache_snapshot.h"
#include "model/fatal.h"
#include "model/filters.h"
#include "model/node_events.h"

namespace schedtrace::model {
namespace {

// upstream: clearNominatedNode (schedule_one.go).
NominatingInfo ClearNominatedNode() {
  return NominatingInfo{NominatingMode::kOverride, ""};
}

constexpr char kUnschedulable[] = "Unschedulable";  // v1.PodReasonUnschedulable
constexpr char kSchedulerError[] =
    "SchedulerError";  // v1.PodReasonSchedulerError

// Logged-and-ignored errors stay errors of upstream's own; only a fatal
// status (upstream exits) stops the step.
absl::Status OnlyFatal(const absl::Status& s) {
  return IsFatal(s) ? s : absl::OkStatus();
}

// The TraceScore plugin: the integer in the node's `schedtrace.io/score`
// label, 0 when absent (or not an integer).
int64_t TraceScore(const Node& node) {
  auto it = node.labels.find("schedtrace.io/score");
  if (it == node.labels.end()) return 0;
  int64_t v = 0;
  const std::string& s = it->second;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && ptr == s.data() + s.size() ? v : 0;
}

std::shared_ptr<QueuedPodInfo> DeepCopy(const QueuedPodInfo& qpi) {
  auto copy = std::make_shared<QueuedPodInfo>(qpi);
  copy->pod_info = std::make_shared<PodInfo>(*qpi.pod_info);
  return copy;
}

}  // namespace

Scheduler::Scheduler(const Config& config)
    : config_(config), cache_(config.assumed_pod_ttl_ms) {
  // upstream: each profile's framework registers the PreEnqueue plugins of
  // its configuration (the header's plugins.preEnqueue; SchedulingGates
  // when the feature is on and the header does not say).
  if (config_.pre_enqueue_plugins.empty()) {
    std::vector<std::string> plugins;
    if (auto it = config_.plugins.find("preEnqueue");
        it != config_.plugins.end()) {
      plugins = it->second;
    } else if (config_.Feature("PodSchedulingReadiness")) {
      plugins = {"SchedulingGates"};
    }
    for (const std::string& profile : config_.profiles) {
      config_.pre_enqueue_plugins[profile] = plugins;
    }
  }
  // upstream: the nominator's pod lister is the informer's.
  queue_ = std::make_unique<PriorityQueue>(
      config_, [this](const std::string& key) -> PodPtr {
        auto it = informer_.find(key);
        return it == informer_.end() ? nullptr : it->second;
      });
}

void Scheduler::SetNow(int64_t now_ms) {
  now_ms_ = now_ms;
  queue_->SetNow(now_ms);
}

bool Scheduler::responsibleForPod(const Pod& pod) const {
  return std::find(config_.profiles.begin(), config_.profiles.end(),
                   pod.scheduler_name) != config_.profiles.end();
}

// ---------------------------------------------------------------------------
// Informer deliveries: the two FilteringResourceEventHandlers of
// addAllEventHandlers, cache handler first, then queue handler, then any
// binding cycle they released.

absl::Status Scheduler::OnPodAdd(const PodPtr& pod) {
  informer_[pod->Key()] = pod;
  // upstream: FilteringResourceEventHandler.OnAdd
  if (cacheFilter(*pod)) {
    if (absl::Status s = addPodToCache(pod); !s.ok()) return s;
  }
  if (queueFilter(*pod)) {
    if (absl::Status s = addPodToSchedulingQueue(pod); !s.ok()) return s;
  }
  return RunContinuations();
}

absl::Status Scheduler::OnPodUpdate(const PodPtr& old_pod,
                                    const PodPtr& new_pod) {
  informer_[new_pod->Key()] = new_pod;
  // upstream: FilteringResourceEventHandler.OnUpdate: both pass -> update;
  // only the new one -> add; only the old one -> delete (of the old object).
  auto deliver = [&](bool (Scheduler::*filter)(const Pod&) const, auto add,
                     auto update, auto del) -> absl::Status {
    bool older = (this->*filter)(*old_pod);
    bool newer = (this->*filter)(*new_pod);
    if (newer && older) return (this->*update)(old_pod, new_pod);
    if (newer) return (this->*add)(new_pod);
    if (older) return (this->*del)(old_pod);
    return absl::OkStatus();
  };
  if (absl::Status s =
          deliver(&Scheduler::cacheFilter, &Scheduler::addPodToCache,
                  &Scheduler::updatePodInCache, &Scheduler::deletePodFromCache);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          deliver(&Scheduler::queueFilter, &Scheduler::addPodToSchedulingQueue,
                  &Scheduler::updatePodInSchedulingQueue,
                  &Scheduler::deletePodFromSchedulingQueue);
      !s.ok()) {
    return s;
  }
  return RunContinuations();
}

absl::Status Scheduler::OnPodDelete(const PodPtr& pod, bool tombstone) {
  informer_.erase(pod->Key());
  // upstream: the filters accept a DeletedFinalStateUnknown holding a pod:
  // the cache filter whatever the pod, the queue filter by scheduler name.
  bool to_cache = tombstone || cacheFilter(*pod);
  bool to_queue = tombstone ? responsibleForPod(*pod) : queueFilter(*pod);
  if (to_cache) {
    if (absl::Status s = deletePodFromCache(pod); !s.ok()) return s;
  }
  if (to_queue) {
    if (absl::Status s = deletePodFromSchedulingQueue(pod); !s.ok()) return s;
  }
  return RunContinuations();
}

// upstream: addNodeToCache
absl::Status Scheduler::OnNodeAdd(const NodePtr& node) {
  absl::StatusOr<NodeInfo> info = cache_.AddNode(node);
  if (!info.ok()) return OnlyFatal(info.status());
  queue_->MoveAllToActiveOrBackoffQueue(
      NodeAddEvent(),
      [info = *info](const Pod& pod) { return PreCheckForNode(info, pod); });
  return absl::OkStatus();
}

// upstream: updateNodeInCache
absl::Status Scheduler::OnNodeUpdate(const NodePtr& old_node,
                                     const NodePtr& new_node) {
  absl::StatusOr<NodeInfo> info = cache_.UpdateNode(old_node, new_node);
  if (!info.ok()) return OnlyFatal(info.status());
  if (std::optional<ClusterEvent> event =
          NodeSchedulingPropertiesChange(*new_node, *old_node)) {
    queue_->MoveAllToActiveOrBackoffQueue(
        *event,
        [info = *info](const Pod& pod) { return PreCheckForNode(info, pod); });
  }
  return absl::OkStatus();
}

// upstream: deleteNodeFromCache (a tombstone carries the node the same way)
absl::Status Scheduler::OnNodeDelete(const NodePtr& node, bool /*tombstone*/) {
  return OnlyFatal(cache_.RemoveNode(node));
}

// upstream: the handlers buildEvtResHandler and onStorageClassAdd register.
absl::Status Scheduler::OnClusterEvent(const std::string& resource,
                                       const std::string& action,
                                       bool wait_for_first_consumer) {
  if (std::optional<ClusterEvent> event =
          OtherKindEvent(config_.cluster_event_map, resource, action,
                         wait_for_first_consumer)) {
    queue_->MoveAllToActiveOrBackoffQueue(*event, nullptr);
  }
  return absl::OkStatus();
}

absl::Status Scheduler::FlushBackoff() {
  queue_->flushBackoffQCompleted();
  return absl::OkStatus();
}

absl::Status Scheduler::FlushUnschedulable() {
  queue_->flushUnschedulablePodsLeftover();
  return absl::OkStatus();
}

// upstream: addPodToCache
absl::Status Scheduler::addPodToCache(const PodPtr& pod) {
  if (absl::Status s = cache_.AddPod(pod); IsFatal(s)) return s;
  queue_->AssignedPodAdded(pod);
  return absl::OkStatus();
}

// upstream: updatePodInCache
absl::Status Scheduler::updatePodInCache(const PodPtr& old_pod,
                                         const PodPtr& new_pod) {
  if (absl::Status s = cache_.UpdatePod(old_pod, new_pod); IsFatal(s)) {
    return s;
  }
  queue_->AssignedPodUpdated(new_pod);
  return absl::OkStatus();
}

// upstream: deletePodFromCache
absl::Status Scheduler::deletePodFromCache(const PodPtr& pod) {
  if (absl::Status s = cache_.RemovePod(pod); IsFatal(s)) return s;
  queue_->MoveAllToActiveOrBackoffQueue(AssignedPodDeleteEvent(), nullptr);
  return absl::OkStatus();
}

// upstream: addPodToSchedulingQueue
absl::Status Scheduler::addPodToSchedulingQueue(const PodPtr& pod) {
  return OnlyFatal(queue_->Add(pod));
}

// upstream: updatePodInSchedulingQueue
absl::Status Scheduler::updatePodInSchedulingQueue(const PodPtr& old_pod,
                                                   const PodPtr& new_pod) {
  if (old_pod->resource_version == new_pod->resource_version) {
    return absl::OkStatus();  // a resync
  }
  absl::StatusOr<bool> assumed = cache_.IsAssumedPod(new_pod);
  if (assumed.ok() && *assumed) return absl::OkStatus();
  return OnlyFatal(queue_->Update(old_pod, new_pod));
}

// upstream: deletePodFromSchedulingQueue
absl::Status Scheduler::deletePodFromSchedulingQueue(const PodPtr& pod) {
  if (absl::Status s = queue_->Delete(pod); IsFatal(s)) return s;
  if (!responsibleForPod(*pod)) return absl::OkStatus();  // frameworkForPod
  if (RejectWaitingPod(pod->scheduler_name, pod->uid)) {
    queue_->MoveAllToActiveOrBackoffQueue(AssignedPodDeleteEvent(), nullptr);
  }
  return absl::OkStatus();
}

// upstream: frameworkImpl.RejectWaitingPod: the waiting pod's binding cycle
// wakes with an Unschedulable status and runs its failure path once the
// handler has returned.
bool Scheduler::RejectWaitingPod(const std::string& profile,
                                 const std::string& uid) {
  auto& waiting = waiting_[profile];
  auto it = waiting.find(uid);
  if (it == waiting.end()) return false;
  BindingCycle cycle = std::move(it->second);
  waiting.erase(it);  // upstream: WaitOnPermit's deferred remove
  continuations_.push_back([this, cycle]() {
    return handleBindingCycleError(
        cycle, CycleStatus{/*unschedulable=*/true, "rejected"});
  });
  return true;
}

absl::Status Scheduler::RunContinuations() {
  while (!continuations_.empty()) {
    Continuation next = std::move(continuations_.front());
    continuations_.erase(continuations_.begin());
    if (absl::Status s = next(); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// The scheduling cycle.

// upstream: scheduleOne
absl::Status Scheduler::ScheduleOne(ReserveOutcome reserve,
                                    PermitOutcome permit) {
  std::shared_ptr<QueuedPodInfo> pod_info = queue_->Pop();
  out_.popped_present = true;
  if (pod_info == nullptr) return absl::OkStatus();
  const PodPtr pod = pod_info->pod_info->pod;
  out_.popped = pod->Key();
  if (!responsibleForPod(*pod)) return absl::OkStatus();  // frameworkForPod
  if (skipPodSchedule(*pod)) {
    out_.result = ScheduleResult{pod->Key(), "skipped"};
    return absl::OkStatus();
  }
  if (absl::Status s =
          schedulingCycle(pod->scheduler_name, pod_info, reserve, permit);
      !s.ok()) {
    return s;
  }
  return RunContinuations();
}

// upstream: skipPodSchedule
bool Scheduler::skipPodSchedule(const Pod& pod) {
  if (pod.deletion_timestamp) {
    out_.events.push_back({pod.Key(), "FailedScheduling"});
    return true;
  }
  absl::StatusOr<bool> assumed =
      cache_.IsAssumedPod(std::make_shared<const Pod>(pod));
  return assumed.ok() && *assumed;
}

// upstream: schedulingCycle with schedulePod, findNodesThatFitPod,
// evaluateNominatedNode, findNodesThatPassFilters, prioritizeNodes,
// selectHost, assume, Reserve and Permit.
absl::Status Scheduler::schedulingCycle(
    const std::string& profile, const std::shared_ptr<QueuedPodInfo>& pod_info,
    ReserveOutcome reserve, PermitOutcome permit) {
  const PodPtr pod = pod_info->pod_info->pod;
  ScheduleResult& result = out_.result.emplace();
  result.pod = pod->Key();

  // --- schedulePod
  if (absl::Status s = cache_.UpdateSnapshot(snapshot_); !s.ok()) {
    if (IsFatal(s)) return s;
    result.outcome = "error";
    return handleSchedulingFailure(pod_info, kSchedulerError, std::nullopt,
                                   ClearNominatedNode());
  }
  if (snapshot_.nodeInfoList.empty()) {  // ErrNoNodesAvailable
    result.outcome = "unschedulable";
    return handleSchedulingFailure(pod_info, kUnschedulable, std::nullopt,
                                   ClearNominatedNode());
  }
  // --- findNodesThatFitPod
  std::set<std::string> unschedulable_plugins;  // Diagnosis
  bool scheduler_error = false;
  std::vector<const NodeInfo*> feasible;
  // upstream: RunFilterPluginsWithNominatedPods: filters run with the
  // nominated pods of equal or higher priority added to the node, and again
  // without them when that passed.
  auto filter_with_nominated = [&](const NodeInfo& info) -> FilterStatus {
    NodeInfo with = info;
    bool added = false;
    for (const auto& pi : queue_->NominatedPodsForNode(info.node()->name)) {
      if (pi->pod->Priority() >= pod->Priority() && pi->pod->uid != pod->uid) {
        with.AddPod(pi->pod);
        added = true;
      }
    }
    FilterStatus status = RunFilterPlugins(*pod, with);
    if (added && status.ok()) status = RunFilterPlugins(*pod, info);
    return status;
  };
  // upstream: findNodesThatPassFilters (every node is evaluated).
  auto pass_filters = [&](const std::vector<const NodeInfo*>& nodes) {
    std::vector<const NodeInfo*> passed;
    for (const NodeInfo* info : nodes) {
      FilterStatus status = filter_with_nominated(*info);
      if (status.code == Code::kError) {
        scheduler_error = true;
        return passed;
      }
      if (status.ok()) {
        passed.push_back(info);
      } else {
        unschedulable_plugins.insert(status.plugin);
      }
    }
    return passed;
  };
  PreFilterResult pre = NodeAffinityPreFilter(*pod);
  if (!pre.status.ok()) {
    unschedulable_plugins.insert(pre.status.plugin);
  } else {
    if (!pod->nominated_node_name.empty()) {
      // upstream: evaluateNominatedNode (a missing node is logged).
      if (const NodeInfo* info = snapshot_.Get(pod->nominated_node_name)) {
        feasible = pass_filters({info});
        if (scheduler_error) feasible.clear();
        scheduler_error = false;
      }
    }
    if (feasible.empty()) {
      std::vector<const NodeInfo*> nodes;
      if (!pre.node_names) {
        for (const auto& info : snapshot_.nodeInfoList) {
          nodes.push_back(info.get());
        }
      } else {
        for (const std::string& name : *pre.node_names) {
          const NodeInfo* info = snapshot_.Get(name);
          if (info == nullptr) {
            scheduler_error = true;  // upstream: NodeInfos().Get fails
            break;
          }
          nodes.push_back(info);
        }
      }
      if (!scheduler_error) feasible = pass_filters(nodes);
    }
  }
  if (scheduler_error) {
    result.outcome = "error";
    return handleSchedulingFailure(pod_info, kSchedulerError, std::nullopt,
                                   ClearNominatedNode());
  }
  if (feasible.empty()) {  // FitError; no PostFilter: nil NominatingInfo
    result.outcome = "unschedulable";
    result.plugins = std::vector<std::string>(unschedulable_plugins.begin(),
                                              unschedulable_plugins.end());
    return handleSchedulingFailure(pod_info, kUnschedulable,
                                   unschedulable_plugins, std::nullopt);
  }
  // upstream: prioritizeNodes (TraceScore; RunScorePlugins refuses scores
  // outside [0, 100]) and selectHost (the first highest score).
  const NodeInfo* host = feasible.front();
  if (feasible.size() > 1) {
    int64_t best = -1;
    for (const NodeInfo* info : feasible) {
      int64_t score = TraceScore(*info->node());
      if (score < 0 || score > 100) {
        result.outcome = "error";
        return handleSchedulingFailure(pod_info, kSchedulerError, std::nullopt,
                                       ClearNominatedNode());
      }
      if (score > best) {
        best = score;
        host = info;
      }
    }
  }
  const std::string node_name = host->node()->name;
  result.node = node_name;

  // --- assume
  std::shared_ptr<QueuedPodInfo> assumed_info = DeepCopy(*pod_info);
  auto assumed_pod = std::make_shared<Pod>(*pod);
  assumed_pod->node_name = node_name;
  assumed_info->pod_info->pod = assumed_pod;
  if (absl::Status s = cache_.AssumePod(assumed_pod); !s.ok()) {
    if (IsFatal(s)) return s;
    result.outcome = "error";
    return handleSchedulingFailure(assumed_info, kSchedulerError, std::nullopt,
                                   ClearNominatedNode());
  }
  queue_->DeleteNominatedPodIfExists(assumed_pod);

  // --- Reserve, then Permit
  if (reserve == ReserveOutcome::kError) {
    // upstream: RunReservePluginsUnreserve, then ForgetPod (errors logged).
    if (absl::Status s = cache_.ForgetPod(assumed_pod); IsFatal(s)) return s;
    result.outcome = "error";
    return handleSchedulingFailure(assumed_info, kSchedulerError, std::nullopt,
                                   ClearNominatedNode());
  }
  if (permit == PermitOutcome::kReject) {
    if (absl::Status s = cache_.ForgetPod(assumed_pod); IsFatal(s)) return s;
    result.outcome = "unschedulable";
    return handleSchedulingFailure(assumed_info, kUnschedulable, std::nullopt,
                                   ClearNominatedNode());
  }
  result.outcome = "scheduled";
  BindingCycle cycle{profile, assumed_info, node_name};
  if (permit == PermitOutcome::kWait) {
    // upstream: RunPermitPlugins adds the pod to the waiting-pods map.
    waiting_[profile][assumed_pod->uid] = cycle;
    return absl::OkStatus();
  }
  // upstream: the binding goroutine: WaitOnPermit passes at once.
  continuations_.push_back(
      [this, cycle]() { return runBindingCycleUntilParked(cycle); });
  return absl::OkStatus();
}

// upstream: bindingCycle up to RunPreBindPlugins, where the trace parks it.
absl::Status Scheduler::runBindingCycleUntilParked(BindingCycle cycle) {
  parked_.push_back(std::move(cycle));
  return absl::OkStatus();
}

absl::Status Scheduler::PermitAllow(const std::string& key) {
  for (auto& [profile, waiting] : waiting_) {
    for (auto it = waiting.begin(); it != waiting.end(); ++it) {
      if (it->second.assumed_pod_info->pod_info->pod->Key() != key) continue;
      BindingCycle cycle = std::move(it->second);
      waiting.erase(it);  // upstream: WaitOnPermit's deferred remove
      return runBindingCycleUntilParked(std::move(cycle));
    }
  }
  return absl::OkStatus();
}

absl::Status Scheduler::PermitReject(const std::string& key) {
  for (auto& [profile, waiting] : waiting_) {
    for (auto it = waiting.begin(); it != waiting.end(); ++it) {
      if (it->second.assumed_pod_info->pod_info->pod->Key() != key) continue;
      std::string uid = it->first;
      std::string p = profile;
      RejectWaitingPod(p, uid);
      return RunContinuations();
    }
  }
  return absl::OkStatus();
}

// upstream: the rest of bindingCycle: RunPreBindPlugins, bind (RunBindPlugins
// with finishBinding deferred), RunPostBindPlugins.
absl::Status Scheduler::Bind(const std::string& key, bool prebind_ok,
                             bool bind_ok) {
  auto it = std::find_if(parked_.begin(), parked_.end(), [&](const auto& c) {
    return c.assumed_pod_info->pod_info->pod->Key() == key;
  });
  if (it == parked_.end()) return absl::OkStatus();
  BindingCycle cycle = std::move(*it);
  parked_.erase(it);
  const PodPtr assumed = cycle.assumed_pod_info->pod_info->pod;
  if (!prebind_ok) {
    return handleBindingCycleError(cycle, CycleStatus{false, "prebind"});
  }
  // upstream: finishBinding, deferred in bind: FinishBinding whatever the
  // outcome, the Scheduled event only on success.
  if (absl::Status s = cache_.FinishBinding(assumed, now_ms_); IsFatal(s)) {
    return s;
  }
  if (!bind_ok) {
    return handleBindingCycleError(cycle, CycleStatus{false, "bind"});
  }
  out_.events.push_back({assumed->Key(), "Scheduled"});
  out_.bindings.push_back({assumed->Key(), cycle.node});
  return absl::OkStatus();
}

// upstream: handleBindingCycleError
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
      queue_->MoveAllToActiveOrBackoffQueue(AssignedPodDeleteEvent(), nullptr);
    }
  }
  absl::Status s = handleSchedulingFailure(
      cycle.assumed_pod_info,
      status.unschedulable ? kUnschedulable : kSchedulerError, std::nullopt,
      ClearNominatedNode());
  if (!s.ok()) return s;
  if (deferred_move) {
    const std::string uid = assumed->uid;
    queue_->MoveAllToActiveOrBackoffQueue(
        AssignedPodDeleteEvent(),
        [uid](const Pod& pod) { return pod.uid != uid; });
  }
  return absl::OkStatus();
}

// upstream: handleSchedulingFailure
absl::Status Scheduler::handleSchedulingFailure(
    const std::shared_ptr<QueuedPodInfo>& pod_info, const std::string& reason,
    const std::optional<std::set<std::string>>& fit_error_plugins,
    const std::optional<NominatingInfo>& nominating_info) {
  if (fit_error_plugins) pod_info->unschedulable_plugins = *fit_error_plugins;
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

// ---------------------------------------------------------------------------

StepOut Scheduler::TakeOut() {
  StepOut out = std::move(out_);
  out_ = StepOut{};
  return out;
}

State Scheduler::Snapshot() const {
  State state;
  SnapshotInto(state);
  return state;
}

void Scheduler::SnapshotInto(State& state) const {
  queue_->SnapshotQueueInto(Engage(state.queue));
  queue_->SnapshotNominatedInto(Engage(state.nominated));
  SnapshotCacheInto(cache_, Engage(state.cache));
  std::vector<std::string>& waiting = Engage(state.waiting);
  Refill<std::string> waiting_fill(waiting);
  for (const auto& [profile, pods] : waiting_) {
    for (const auto& [uid, cycle] : pods) {
      waiting_fill.Next() = cycle.assumed_pod_info->pod_info->pod->Key();
    }
  }
  waiting_fill.Finish();
  std::sort(waiting.begin(), waiting.end());
  std::vector<std::string>& parked = Engage(state.parked);
  Refill<std::string> parked_fill(parked);
  for (const BindingCycle& c : parked_) {
    parked_fill.Next() = c.assumed_pod_info->pod_info->pod->Key();
  }
  parked_fill.Finish();
  std::sort(parked.begin(), parked.end());
}

}  // namespace schedtrace::model
