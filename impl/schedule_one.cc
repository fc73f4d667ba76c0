// The scheduling and binding cycles of impl::Scheduler (upstream:
// schedule_one.go, and framework.go's RunFilterPluginsWithNominatedPods).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "impl/go_int.h"
#include "impl/scheduler.h"

namespace schedtrace::impl {
namespace {

constexpr char kUnschedulable[] = "Unschedulable";  // v1.PodReasonUnschedulable
constexpr char kSchedulerError[] =
    "SchedulerError";  // v1.PodReasonSchedulerError

}  // namespace

void Scheduler::CollectNominated() {
  ++epoch_;
  const Pod& pod = *pod_facts_.pod;
  auto count = [&](uint32_t id, const Pod& other) {
    if (other.Priority() < pod.Priority() || other.uid == pod.uid) return;
    if (nominated_epoch_.size() <= id) {
      nominated_epoch_.resize(id + 1, 0);
      nominated_.resize(id + 1);
    }
    NominatedExtra& e = nominated_[id];
    if (nominated_epoch_[id] != epoch_) {
      nominated_epoch_[id] = epoch_;
      e.pods = 0;
      e.requested = Requests{};
    }
    AddPodRequests(other, cache_, e.requested);
    ++e.pods;
  };
  // Each queue's nominator: node name -> its pods (handles up to v1.30).
  auto collect = [&](const auto& nominated, const auto& pod_of) {
    for (const auto& [node, pods] : nominated) {
      const uint32_t id = SnapshotGet(node);
      if (id == Cache::kNoNode) continue;
      for (const auto& p : pods) count(id, pod_of(p));
    }
  };
  if (backend_ != nullptr) {
    // From v1.35 the nominator holds podRefs, each resolved to the pod the
    // queue holds under its key, or to the ref alone (priority 0, no
    // requests) for a pod in no queue (upstream: nominatedPodToInfo).
    Pod bare;
    if (backend_->HasNominatedPods()) {
      collect(backend_->NominatedPods(), [&](const PodPtr& p) -> const Pod& {
        if (const PodPtr* queued = backend_->QueuedPodOf(*p)) {
          return **queued;
        }
        bare = Pod{};
        bare.namespace_ = p->namespace_;
        bare.name = p->name;
        bare.uid = p->uid;
        return bare;
      });
    }
  } else if (queue_->HasNominatedPods()) {
    collect(queue_->NominatedPods(),
            [this](uint32_t h) -> const Pod& { return *queue_->HandlePod(h); });
  }
}

// upstream: RunFilterPluginsWithNominatedPods: with the nominated pods of
// equal or higher priority added to the node, then without them when that
// passed.
int Scheduler::FilterNode(uint32_t id) {
  SnapNode& s = snap_[id];
  int8_t* memo = nullptr;
  if (cycle_memo_) {
    if (s.affinity_memo.size() <= cycle_sig_) {
      s.affinity_memo.resize(cycle_sig_ + 1, -1);
    }
    memo = &s.affinity_memo[cycle_sig_];
  }
  if (id < nominated_epoch_.size() && nominated_epoch_[id] == epoch_) {
    const NominatedExtra& e = nominated_[id];
    with_nominated_ = s.requested;
    with_nominated_.cpu = WrapAdd(with_nominated_.cpu, e.requested.cpu);
    with_nominated_.memory =
        WrapAdd(with_nominated_.memory, e.requested.memory);
    with_nominated_.ephemeral =
        WrapAdd(with_nominated_.ephemeral, e.requested.ephemeral);
    for (const auto& [sid, amount] : e.requested.scalars) {
      bool found = false;
      for (auto& [have_id, have] : with_nominated_.scalars) {
        if (have_id == sid) {
          have = WrapAdd(have, amount);
          found = true;
        }
      }
      if (!found) with_nominated_.scalars.push_back({sid, amount});
    }
    int r = RunFilters(pod_facts_, s.facts, WrapAdd(s.pods, e.pods),
                       with_nominated_, up_, memo);
    if (r == kPass)
      r = RunFilters(pod_facts_, s.facts, s.pods, s.requested, up_, memo);
    return r;
  }
  return RunFilters(pod_facts_, s.facts, s.pods, s.requested, up_, memo);
}

// upstream: scheduleOne
bool Scheduler::ScheduleOne(ReserveOutcome reserve, PermitOutcome permit) {
  std::optional<Handle> h = WithQueue([](auto& q) { return q.PopHandle(); });
  out_.popped_present = true;
  if (!h) return true;
  const PodPtr pod = QueuePod(*h);
  out_.popped = pod->Key();
  // frameworkForPod fails, or skipPodSchedule: from v1.35 the pod's time in
  // flight ends.
  auto drop = [&] {
    QueueDone(pod->uid);
    QueueRelease(*h);
    return true;
  };
  if (!Responsible(*pod)) return drop();
  // upstream: skipPodSchedule
  if (pod->deletion_timestamp) {
    out_.events.push_back({*out_.popped, "FailedScheduling"});
    out_.result = ScheduleResult{*out_.popped, "skipped"};
    return drop();
  }
  if (cache_.IsAssumedPod(pod->uid)) {
    out_.result = ScheduleResult{*out_.popped, "skipped"};
    return drop();
  }
  if (!SchedulingCycle(pod->scheduler_name, *h, reserve, permit)) return false;
  return RunContinuations();
}

// upstream: schedulingCycle: schedulePod, then assume, Reserve and Permit;
// the binding goroutine scheduleOne starts after it. Consumes `h`.
bool Scheduler::SchedulingCycle(const std::string& profile, Handle h,
                                ReserveOutcome reserve, PermitOutcome permit) {
  const PodPtr pod = QueuePod(h);
  ScheduleResult& result = out_.result.emplace();
  result.pod = pod->Key();
  uint32_t mask = 0;  // a FitError's Diagnosis.UnschedulablePlugins
  uint32_t host = 0;
  switch (SchedulePod(*pod, mask, host)) {
    case ScheduleError::kError:
      result.outcome = "error";
      return HandleSchedulingFailure(h, kSchedulerError, std::nullopt, true);
    case ScheduleError::kNoNodesAvailable:
      result.outcome = "unschedulable";
      return HandleSchedulingFailure(h, kUnschedulable, std::nullopt, true);
    case ScheduleError::kFitError:  // no PostFilter
      // A nil NominatingInfo, and clearNominatedNode from v1.35
      // (kubernetes#135007).
      result.outcome = "unschedulable";
      result.plugins = FilterPluginNames(mask);
      return HandleSchedulingFailure(h, kUnschedulable, mask,
                                     up_.fit_error_clears_nominated_node);
    case ScheduleError::kNone:
      break;
  }
  const std::string& node_name = snap_[host].facts.node->name;
  result.node = node_name;

  // --- assume
  auto assumed_pod = std::make_shared<Pod>(*pod);
  assumed_pod->node_name = node_name;
  Handle assumed;
  if (backend_ != nullptr) {
    assumed = backend_->CloneHandle(h, assumed_pod);
    backend_->Release(h);
  } else {
    assumed = queue_->CloneHandle(h, assumed_pod, false);
    queue_->Release(h);
    // v1.26 (with kubernetes#113275): QueuedPodInfo.DeepCopy copies
    // UnschedulablePlugins; v1.25's copy has none. (Gated is false for
    // every popped pod.)
    if (!up_.deep_copy_keeps_unschedulable_plugins) {
      queue_->SetHandlePlugins(assumed, {});
    }
  }
  if (cache_.AssumePod(assumed_pod) != CacheResult::kOk) {
    result.outcome = "error";
    return HandleSchedulingFailure(assumed, kSchedulerError, std::nullopt,
                                   true);
  }
  WithQueue([&](auto& q) { q.DeleteNominatedPodIfExists(*assumed_pod); });

  // --- Reserve, then Permit
  if (reserve == ReserveOutcome::kError || permit == PermitOutcome::kReject) {
    // upstream: RunReservePluginsUnreserve, then ForgetPod (errors logged).
    const CacheResult forget = cache_.ForgetPod(assumed_pod);
    if (forget == CacheResult::kFatal) return false;
    const bool reserve_failed = reserve == ReserveOutcome::kError;
    result.outcome = reserve_failed ? "error" : "unschedulable";
    return HandleSchedulingFailure(
        assumed, reserve_failed ? kSchedulerError : kUnschedulable,
        std::nullopt, true, reserve_failed ? nullptr : &permit_rejector_);
  }
  result.outcome = "scheduled";
  return StartBindingCycle(
      BindingCycle{profile, assumed, node_name, result.pod, assumed_pod->uid},
      permit);
}

// upstream: schedulePod: the chosen node's snapshot id into `host`, a
// FitError's Diagnosis into `mask`.
Scheduler::ScheduleError Scheduler::SchedulePod(const Pod& pod, uint32_t& mask,
                                                uint32_t& host) {
  if (!UpdateSnapshot()) return ScheduleError::kError;
  if (snap_list_.empty()) return ScheduleError::kNoNodesAvailable;
  if (!FindNodesThatFitPod(pod, mask)) return ScheduleError::kError;
  if (feasible_.empty()) return ScheduleError::kFitError;
  host = feasible_.front();  // only one feasible node: just use it
  if (feasible_.size() > 1 && !PrioritizeNodesAndSelectHost(host)) {
    return ScheduleError::kError;
  }
  return ScheduleError::kNone;
}

// upstream: findNodesThatFitPod into feasible_, its Diagnosis into `mask`;
// false is its error (a PreFilter node name missing from the snapshot).
bool Scheduler::FindNodesThatFitPod(const Pod& pod, uint32_t& mask) {
  ComputePodFacts(pod, cache_, pod_facts_);
  cycle_memo_ = !pod_facts_.affinity_trivial;
  if (cycle_memo_) {
    cycle_sig_ = affinity_sigs_
                     .try_emplace(pod_facts_.affinity_signature,
                                  static_cast<uint32_t>(affinity_sigs_.size()))
                     .first->second;
  }
  CollectNominated();
  feasible_.clear();
  PreFilterResult pre = NodeAffinityPreFilter(pod, up_);
  if (pre.unresolvable) {
    mask |= 1u << kNodeAffinity;
    return true;
  }
  // v1.31+ (kubernetes#122251): the PreFilter plugins that narrowed the
  // nodes start the Diagnosis' plugin set, which then exists from the start.
  const bool shared_from_start = up_.pre_filter_node_plugins_are_rejectors ||
                                 !up_.diagnosis_plugin_sets_allocated_lazily;
  if (up_.pre_filter_node_plugins_are_rejectors && !pre.all_nodes) {
    mask |= 1u << kNodeAffinity;
  }
  if (!pod.nominated_node_name.empty()) {
    // upstream: evaluateNominatedNode (a missing node is logged).
    if (uint32_t id = SnapshotGet(pod.nominated_node_name);
        id != Cache::kNoNode) {
      int r = FilterNode(id);
      if (r == kPass) {
        feasible_.push_back(id);
      } else if (shared_from_start) {
        // The Diagnosis goes by value; its plugin set is shared while it
        // exists from the start, and v1.29 and v1.30 (kubernetes#119517)
        // allocate it on the copy, which is dropped.
        mask |= 1u << r;
      }
    }
    if (!feasible_.empty()) return true;
  }
  if (score_order_dirty_) RebuildScoreOrder();
  if (pre.all_nodes) {
    FindNodesThatPassFilters(mask);
    return true;
  }
  std::vector<uint32_t> ids;
  for (const std::string& name : pre.names) {
    uint32_t id = SnapshotGet(name);
    if (id == Cache::kNoNode) {
      // v1.30 skips a name the snapshot lacks; before, NodeInfos().Get's
      // error failed the cycle.
      if (up_.pre_filter_ignores_unknown_node_names) continue;
      return false;
    }
    ids.push_back(id);
  }
  for (uint32_t id : ids) FilterInto(id, mask);
  return true;
}

// upstream: findNodesThatPassFilters over every node. When every score is
// valid the host is the first feasible node in descending score order (ties
// in list order), so the search stops there, and it skips without filtering
// the nodes short of the pod's cpu, memory, ephemeral storage or pod room;
// the FitError needs every node's rejection only when none is feasible.
void Scheduler::FindNodesThatPassFilters(uint32_t& mask) {
  bool early_stop = out_of_range_scores_ == 0;
  if (early_stop) {
    const FitNeed need = FitNeedOf(pod_facts_, up_);
    const size_t n = score_order_.size();
    for (size_t i = score_rooms_.Next(need, 0); i < n;
         i = score_rooms_.Next(need, i + 1)) {
      FilterInto(score_order_[i], mask);
      if (!feasible_.empty()) return;
    }
    // No node is feasible: the Diagnosis names each node's first rejection.
    for (uint32_t id : score_order_) FilterInto(id, mask);
    return;
  }
  for (uint32_t id : snap_list_) FilterInto(id, mask);
}

// One node of findNodesThatPassFilters: into feasible_ if it passes, else
// the plugin that rejected it into `mask`.
void Scheduler::FilterInto(uint32_t id, uint32_t& mask) {
  int r = FilterNode(id);
  if (r == kPass) {
    feasible_.push_back(id);
  } else {
    mask |= 1u << r;
  }
}

// upstream: prioritizeNodes (TraceScore; scores outside [0, 100] are an
// error: false) and selectHost (the first highest score) in one pass over
// feasible_, into `host`.
bool Scheduler::PrioritizeNodesAndSelectHost(uint32_t& host) const {
  int64_t best = -1;
  for (uint32_t id : feasible_) {
    const int64_t score = snap_[id].facts.score;
    if (score < 0 || score > 100) return false;
    if (score > best) {
      best = score;
      host = id;
    }
  }
  return true;
}

// upstream: the binding goroutine scheduleOne starts. One waiting on Permit
// (RunPermitPlugins put it in waitingPods) is kept until a permit step; any
// other runs until it parks once the step's handlers are done.
bool Scheduler::StartBindingCycle(BindingCycle cycle, PermitOutcome permit) {
  // upstream (v1.35+, kubernetes#133021): bindingCycle, before WaitOnPermit:
  // TracePreBind's PreBindPreFlight answers Success, so the assumed pod's
  // nominatedNodeName is patched to its node when it differs (no
  // condition: reason "").
  if (up_.binding_cycle_nominates_node &&
      QueuePod(cycle.assumed)->nominated_node_name != cycle.node) {
    out_.status_updates.push_back({cycle.key, "", cycle.node});
  }
  if (permit == PermitOutcome::kWait) {
    // upstream: waitingPodsMap.add keys by uid, so a second waiting pod with
    // the same uid (only hostile input gets there) replaces the first, whose
    // goroutine then waits on nothing anyone can reach.
    for (BindingCycle& w : waiting_) {
      if (w.profile == cycle.profile && w.uid == cycle.uid) {
        QueueRelease(w.assumed);
        w = std::move(cycle);
        return true;
      }
    }
    waiting_.push_back(std::move(cycle));
  } else {
    // upstream: WaitOnPermit passes at once; from v1.35 bindingCycle then
    // calls Done.
    QueueDone(cycle.uid);
    continuations_.push_back({false, std::move(cycle)});
  }
  return true;
}

// upstream: the rest of bindingCycle: RunPreBindPlugins, bind (finishBinding
// deferred), RunPostBindPlugins.
bool Scheduler::Bind(const std::string& key, bool prebind_ok, bool bind_ok) {
  auto it = std::find_if(parked_.begin(), parked_.end(),
                         [&](const BindingCycle& c) { return c.key == key; });
  if (it == parked_.end()) return true;
  BindingCycle cycle = std::move(*it);
  parked_.erase(it);
  if (!prebind_ok) return HandleBindingCycleError(cycle, false);
  const PodPtr assumed = QueuePod(cycle.assumed);
  if (cache_.FinishBinding(assumed, now_ms_) == CacheResult::kFatal) {
    return false;
  }
  if (!bind_ok) return HandleBindingCycleError(cycle, false);
  out_.events.push_back({cycle.key, "Scheduled"});
  out_.bindings.push_back({cycle.key, cycle.node});
  QueueRelease(cycle.assumed);
  return true;
}

// upstream: handleBindingCycleError. Consumes the cycle's handle.
bool Scheduler::HandleBindingCycleError(
    const BindingCycle& cycle, bool unschedulable,
    const std::vector<std::string>* rejected_by) {
  const PodPtr assumed = QueuePod(cycle.assumed);
  const CacheResult forget = cache_.ForgetPod(assumed);
  if (forget == CacheResult::kFatal) return false;
  bool deferred_move = false;
  if (forget == CacheResult::kOk) {
    if (unschedulable) {
      deferred_move = true;  // runs after the failure handler
    } else {
      MoveAssignedPodDelete(assumed, nullptr);
    }
  }
  const char* reason = unschedulable ? kUnschedulable : kSchedulerError;
  if (!HandleSchedulingFailure(cycle.assumed, reason, std::nullopt, true,
                               rejected_by)) {
    return false;
  }
  if (deferred_move) {
    const std::string& uid = cycle.uid;
    MoveAssignedPodDelete(assumed,
                          [&uid](const Pod& pod) { return pod.uid != uid; });
  }
  return true;
}

// upstream: handleSchedulingFailure. Consumes `h`.
bool Scheduler::HandleSchedulingFailure(
    Handle h, const char* reason, std::optional<uint32_t> fit_error_mask,
    bool clear_nominated_node, const std::vector<std::string>* rejected_by) {
  if (backend_ != nullptr) {
    return HandleSchedulingFailureWithHints(h, reason, fit_error_mask,
                                            clear_nominated_node, rejected_by);
  }
  if (fit_error_mask) {
    // kubernetes#119517 (v1.29): the Diagnosis' set is nil until a plugin
    // rejects, and the pod takes it as it is.
    queue_->SetHandlePlugins(h, FilterPluginNames(*fit_error_mask),
                             up_.diagnosis_plugin_sets_allocated_lazily);
  } else if (rejected_by != nullptr && up_.permit_rejection_is_fit_error) {
    // kubernetes#119046, #119785 (v1.30): a Permit rejection, in the cycle
    // or while waiting, is a FitError whose UnschedulablePlugins is the
    // rejecting plugin; before, the pod kept the plugins it had.
    queue_->SetHandlePlugins(h, *rejected_by);
  }
  const PodPtr pod = queue_->HandlePod(h);
  std::string key = pod->Key();
  Handle current = h;
  const PodPtr* cached = queue_->ListerGet(key);
  if (cached != nullptr && (*cached)->node_name.empty()) {
    // upstream: a new PodInfo of the informer's object.
    current = queue_->CloneHandle(h, *cached, true);
    queue_->Release(h);
    if (queue_->AddUnschedulableIfNotPresent(
            current, queue_->SchedulingCycle()) == QueueResult::kFatal) {
      queue_->Release(current);
      return false;
    }
  }
  static const std::optional<std::string> kClear = std::string();
  queue_->AddNominatedPod(
      current, clear_nominated_node ? kClear : std::optional<std::string>());
  // upstream: the FailedScheduling event and updatePod's status patch.
  out_.events.push_back({key, "FailedScheduling"});
  out_.status_updates.push_back(
      {std::move(key), reason,
       clear_nominated_node ? std::string() : pod->nominated_node_name});
  queue_->Release(current);
  return true;
}

}  // namespace schedtrace::impl

namespace schedtrace::impl {

// upstream: handleSchedulingFailure from v1.35, with backend/queue: Done
// whenever the pod is not handed back to AddUnschedulablePodIfNotPresent
// (which calls it). The handle's record is no queue's (popped, or the
// assumed copy), so it is changed in place of DeepCopy. Consumes `h`.
bool Scheduler::HandleSchedulingFailureWithHints(
    Handle h, const char* reason, std::optional<uint32_t> fit_error_mask,
    bool clear_nominated_node, const std::vector<std::string>* rejected_by) {
  BackendQueue& q = *backend_;
  // v1.37: ClearRejectorPlugins; a FitError's plugins (a Permit
  // rejection's, v1.30+) replace them.
  if (fit_error_mask) {
    q.SetHandlePlugins(h, FilterPluginNames(*fit_error_mask));
  } else if (rejected_by != nullptr && up_.permit_rejection_is_fit_error) {
    q.SetHandlePlugins(h, *rejected_by);
  } else if (up_.failure_handler_skips_recreated_pod) {
    q.SetHandlePlugins(h, {});
  }
  PodPtr pod = q.HandlePod(h);
  const std::string uid = pod->uid;
  bool called_done = false;
  const PodPtr* cached = q.ListerGet(pod->Key());
  if (cached != nullptr && (*cached)->node_name.empty()) {
    if (up_.failure_handler_skips_recreated_pod && (*cached)->uid != uid) {
      q.Done(uid);  // re-created: no requeue, no status update
      q.Release(h);
      return true;
    }
    pod = *cached;
    q.SetHandlePod(h, pod);  // upstream: a new PodInfo of the informer's pod
    q.AddUnschedulablePodIfNotPresent(h);
    called_done = true;
  }
  if (!called_done) q.Done(uid);
  static const std::optional<std::string> kClear = std::string();
  q.AddNominatedPod(
      pod, clear_nominated_node ? kClear : std::optional<std::string>());
  // upstream: the FailedScheduling event and updatePod's status patch.
  out_.events.push_back({pod->Key(), "FailedScheduling"});
  out_.status_updates.push_back(
      {pod->Key(), reason,
       clear_nominated_node ? std::string() : pod->nominated_node_name});
  q.Release(h);
  return true;
}

}  // namespace schedtrace::impl
