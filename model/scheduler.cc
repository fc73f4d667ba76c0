// model::Scheduler's construction, the steps that are no informer delivery
// and no scheduling cycle (flushes, Permit answers), and its snapshots. The
// handlers are in model/event_handlers.cc, the cycles in
// model/schedule_one.cc, the framework's functions in model/framework.cc.
#include "model/scheduler.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/refill.h"
#include "model/cache_snapshot.h"
#include "model/node_events.h"
#include "model/queueing_hints.h"

namespace schedtrace::model {

Scheduler::Scheduler(const Config& config, const Upstream& up)
    : config_(config), up_(up), cache_(config.assumed_pod_ttl_ms, up) {
  // upstream: each profile's framework registers the PreEnqueue plugins of
  // its configuration (the header's plugins.preEnqueue; SchedulingGates
  // when the feature is on and the header does not say).
  if (config_.pre_enqueue_plugins.empty()) {
    std::vector<std::string> plugins;
    if (auto it = config_.plugins.find("preEnqueue");
        it != config_.plugins.end()) {
      plugins = it->second;
    } else if (up_.pod_scheduling_readiness_locked_on ||
               config_.Feature("PodSchedulingReadiness")) {
      plugins = {"SchedulingGates"};
    }
    for (const std::string& profile : config_.profiles) {
      config_.pre_enqueue_plugins[profile] = plugins;
    }
  }
  // The registrations of this version, derived from the header's v1.26.7
  // ones (model/node_events.h).
  config_.cluster_event_map = EffectiveClusterEventMap(config_, up_);
  // upstream: the nominator's pod lister is the informer's.
  PodLister lister = [this](const std::string& key) -> PodPtr {
    auto it = informer_.find(key);
    return it == informer_.end() ? nullptr : it->second;
  };
  if (up_.backend_queue || up_.queueing_hints) {
    // upstream (v1.35+): backend/queue's PriorityQueue with the profiles'
    // QueueingHint maps (buildQueueingHintMap).
    backend_ = std::make_unique<BackendQueue>(config_, lister, up_);
    hint_map_ = BuildQueueingHintMap(config_, up_);
    backend_->SetQueueingHintMap(hint_map_);
    return;
  }
  queue_ = std::make_unique<PriorityQueue>(config_, lister, up_);
  queue_->SetProfiles(
      std::set<std::string>(config_.profiles.begin(), config_.profiles.end()));
}

void Scheduler::SetNow(int64_t now_ms) {
  now_ms_ = now_ms;
  if (backend_ != nullptr) {
    backend_->SetNow(now_ms);
  } else {
    queue_->SetNow(now_ms);
  }
}

// upstream: the queue's periodic flushBackoffQCompleted.
absl::Status Scheduler::FlushBackoff() {
  if (backend_ != nullptr) {
    backend_->flushBackoffQCompleted();
  } else {
    queue_->flushBackoffQCompleted();
  }
  return absl::OkStatus();
}

// upstream: the queue's periodic flushUnschedulablePodsLeftover
// (flushUnschedulableEntitiesLeftover from v1.35).
absl::Status Scheduler::FlushUnschedulable() {
  if (backend_ != nullptr) {
    backend_->flushUnschedulableEntitiesLeftover();
    return absl::OkStatus();
  }
  queue_->flushUnschedulablePodsLeftover();
  return absl::OkStatus();
}

// upstream: waitingPod.Allow by the Permit plugin: WaitOnPermit returns and
// the binding cycle runs until it parks.
absl::Status Scheduler::PermitAllow(const std::string& key) {
  for (auto& [profile, waiting] : waiting_) {
    for (auto it = waiting.begin(); it != waiting.end(); ++it) {
      if (it->second.assumed_pod_info->pod_info->pod->Key() != key) continue;
      BindingCycle cycle = std::move(it->second);
      waiting.erase(it);  // upstream: WaitOnPermit's deferred remove
      // upstream (v1.35+): bindingCycle calls Done once WaitOnPermit passed.
      queueDone(cycle.assumed_pod_info->pod_info->pod->uid);
      return runBindingCycleUntilParked(std::move(cycle));
    }
  }
  return absl::OkStatus();
}

// upstream: waitingPod.Reject by the Permit plugin, as RejectWaitingPod does.
absl::Status Scheduler::PermitReject(const std::string& key) {
  for (auto& [profile, waiting] : waiting_) {
    for (auto it = waiting.begin(); it != waiting.end(); ++it) {
      if (it->second.assumed_pod_info->pod_info->pod->Key() != key) continue;
      std::string uid = it->first;
      std::string p = profile;
      RejectWaitingPod(p, uid, PermitPluginName());
      return RunContinuations();
    }
  }
  return absl::OkStatus();
}

// Runs the continuations the step's handlers queued (binding cycles they
// released), in the order they were queued.
absl::Status Scheduler::RunContinuations() {
  while (!continuations_.empty()) {
    Continuation next = std::move(continuations_.front());
    continuations_.erase(continuations_.begin());
    if (absl::Status s = next(); !s.ok()) return s;
  }
  return absl::OkStatus();
}

std::shared_ptr<QueuedPodInfo> Scheduler::queuePop() {
  return backend_ != nullptr ? backend_->Pop() : queue_->Pop();
}

// upstream (v1.35+): SchedulingQueue.Done; the older queue has no in-flight
// pods.
void Scheduler::queueDone(const std::string& uid) {
  if (backend_ != nullptr) backend_->Done(uid);
}

void Scheduler::queueMoveAll(const ClusterEvent& event,
                             const QueueEvent& hinted,
                             const EventObjects& objects,
                             const PreEnqueueCheck& preCheck) {
  if (backend_ != nullptr) {
    backend_->MoveAllToActiveOrBackoffQueue(hinted, objects, preCheck);
  } else {
    queue_->MoveAllToActiveOrBackoffQueue(event, preCheck);
  }
}

void Scheduler::queueAddNominatedPod(
    const std::shared_ptr<PodInfo>& pi,
    const std::optional<NominatingInfo>& info) {
  if (backend_ != nullptr) {
    backend_->AddNominatedPod(pi, info);
  } else {
    queue_->AddNominatedPod(pi, info);
  }
}

void Scheduler::queueDeleteNominatedPodIfExists(const PodPtr& pod) {
  if (backend_ != nullptr) {
    backend_->DeleteNominatedPodIfExists(pod);
  } else {
    queue_->DeleteNominatedPodIfExists(pod);
  }
}

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
  if (backend_ != nullptr) {
    backend_->SnapshotQueueInto(Engage(state.queue));
    backend_->SnapshotNominatedInto(Engage(state.nominated));
  } else {
    queue_->SnapshotQueueInto(Engage(state.queue));
    queue_->SnapshotNominatedInto(Engage(state.nominated));
  }
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
