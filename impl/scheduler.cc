// impl::Scheduler's construction, the steps that are no informer delivery
// and no scheduling cycle (flushes, Permit answers, continuations) and its
// snapshots, and the calls to whichever scheduling queue the version has.
// The handlers are in impl/event_handlers.cc and impl/pod_handler.cc, the
// node snapshot in impl/scheduler_snapshot.cc, the cycles in
// impl/schedule_one.cc.
#include "impl/scheduler.h"

#include <algorithm>
#include <memory>
#include <tuple>
#include <utility>

#include "core/refill.h"
#include "impl/event_registrations.h"

namespace schedtrace::impl {
namespace {

// upstream: each profile's framework registers the PreEnqueue plugins of its
// configuration (the header's plugins.preEnqueue; SchedulingGates when the
// feature is on and the header does not say) and the events of its version's
// plugins (impl/event_registrations.h).
Config ForVersion(Config config, const Upstream& up) {
  config.cluster_event_map = EffectiveClusterEventMap(config, up);
  if (!config.pre_enqueue_plugins.empty()) return config;
  std::vector<std::string> plugins;
  if (auto it = config.plugins.find("preEnqueue"); it != config.plugins.end()) {
    plugins = it->second;
  } else if (up.pod_scheduling_readiness_locked_on ||
             config.Feature("PodSchedulingReadiness")) {
    plugins = {"SchedulingGates"};  // KEP-3521 GA (v1.30): a default plugin
  }
  for (const std::string& profile : config.profiles) {
    config.pre_enqueue_plugins[profile] = plugins;
  }
  return config;
}

// The Permit plugin's name (the scripted one, "TracePermit", unless the
// header names another).
std::string PermitPluginName(const Config& config) {
  if (auto it = config.plugins.find("permit");
      it != config.plugins.end() && !it->second.empty()) {
    return it->second.front();
  }
  return "TracePermit";
}

}  // namespace

const ClusterEvent& Scheduler::AssignedPodDeleteEvent() {
  static const ClusterEvent e{"Pod", "Delete", "AssignedPodDelete"};
  return e;
}

Scheduler::Scheduler(const Config& config, const Upstream& up)
    : up_(up),
      config_(ForVersion(config, up)),
      permit_rejector_{PermitPluginName(config)},
      cache_(config.assumed_pod_ttl_ms, up) {
  if (!up_.queueing_hints) {
    queue_ = std::make_unique<PriorityQueue>(config_, up_);
    queue_->SetHintProfiles(config_.profiles);  // one map per profile
    return;
  }
  // upstream (v1.35+): backend/queue's PriorityQueue with the profiles'
  // QueueingHint maps (buildQueueingHintMap).
  const std::vector<HintRegistration> hints =
      QueueingHintRegistrations(config_, up_);
  backend_ = std::make_unique<BackendQueue>(config_, up_, &hints);
  backend_->SetHintEvaluator(
      [this](HintFn fn, const Pod& pod, const EventObjects& objects) {
        return EvaluateHint(fn, pod, objects, cache_, up_);
      });
  for (const HintRegistration& h : hints)
    registered_bits_[h.resource] |= h.bits;
  node_add_ = backend_->EventOf("Node", action::kAdd, "NodeAdd");
  node_delete_ = backend_->EventOf("Node", action::kDelete, "NodeDelete");
  assigned_pod_delete_ =
      backend_->EventOf("AssignedPod", action::kDelete, "AssignedPodDelete");
}

void Scheduler::QueueDone(const std::string& uid) {
  if (backend_ != nullptr) backend_->Done(uid);
}

void Scheduler::MoveAssignedPodDelete(
    const PodPtr& pod, const std::function<bool(const Pod&)>& precheck) {
  if (backend_ != nullptr) {
    backend_->MoveAllToActiveOrBackoffQueue(assigned_pod_delete_,
                                            {.old_pod = pod}, precheck);
  } else {
    queue_->MoveAllToActiveOrBackoffQueue(AssignedPodDeleteEvent(), precheck);
  }
}

std::function<bool(const Pod&)> Scheduler::AtMostPriority(int32_t priority) {
  return [priority](const Pod& p) { return p.Priority() <= priority; };
}

bool Scheduler::Responsible(const Pod& pod) const {
  for (const std::string& p : config_.profiles) {
    if (p == pod.scheduler_name) return true;
  }
  return false;
}

// upstream: the cache handler's filter, assignedPod(pod).
bool Scheduler::ForCache(const Pod& pod) const {
  return !pod.node_name.empty();
}

bool Scheduler::FlushBackoff() {
  WithQueue([](auto& q) { q.FlushBackoffQCompleted(); });
  return true;
}

// upstream: flushUnschedulablePodsLeftover (flushUnschedulableEntitiesLeftover
// from v1.35).
bool Scheduler::FlushUnschedulable() {
  if (backend_ != nullptr) {
    backend_->FlushUnschedulableEntitiesLeftover();
  } else {
    queue_->FlushUnschedulablePodsLeftover();
  }
  return true;
}

// upstream: waitingPod.Reject(plugin, ...): the waiting binding cycle wakes
// with an Unschedulable status of `plugin` and fails once the handler has
// returned.
bool Scheduler::RejectWaitingPod(const std::string& profile,
                                 const std::string& uid,
                                 const std::vector<std::string>& plugin) {
  for (size_t i = 0; i < waiting_.size(); ++i) {
    if (waiting_[i].profile != profile || waiting_[i].uid != uid) continue;
    continuations_.push_back({true, std::move(waiting_[i]), &plugin});
    waiting_.erase(waiting_.begin() + static_cast<ptrdiff_t>(i));
    return true;
  }
  return false;
}

bool Scheduler::RunContinuations() {
  for (size_t i = 0; i < continuations_.size(); ++i) {
    Continuation c = std::move(continuations_[i]);
    if (c.reject) {
      if (!HandleBindingCycleError(c.cycle, /*unschedulable=*/true,
                                   c.rejected_by)) {
        continuations_.clear();
        return false;
      }
    } else {
      parked_.push_back(std::move(c.cycle));
    }
  }
  continuations_.clear();
  return true;
}

// The waiting pod a permit step names, found as the model's map walk finds
// it: the first by (profile, uid) among those with the key; waiting_.size()
// when none waits.
size_t Scheduler::FindWaiting(const std::string& key) const {
  size_t found = waiting_.size();
  for (size_t i = 0; i < waiting_.size(); ++i) {
    if (waiting_[i].key != key) continue;
    if (found == waiting_.size() ||
        std::tie(waiting_[i].profile, waiting_[i].uid) <
            std::tie(waiting_[found].profile, waiting_[found].uid)) {
      found = i;
    }
  }
  return found;
}

bool Scheduler::PermitAllow(const std::string& key) {
  const size_t found = FindWaiting(key);
  if (found == waiting_.size()) return true;
  // upstream (v1.35+): bindingCycle calls Done once WaitOnPermit passed.
  QueueDone(waiting_[found].uid);
  parked_.push_back(std::move(waiting_[found]));
  waiting_.erase(waiting_.begin() + static_cast<ptrdiff_t>(found));
  return true;
}

bool Scheduler::PermitReject(const std::string& key) {
  const size_t found = FindWaiting(key);
  if (found == waiting_.size()) return true;
  const std::string profile = waiting_[found].profile;
  const std::string uid = waiting_[found].uid;
  RejectWaitingPod(profile, uid, permit_rejector_);  // the Permit plugin's
  return RunContinuations();
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

void Scheduler::Touched(StateTouch& t) const {
  t.Clear();
  t.Add(StateTouch::kWaiting);  // small lists, rewritten whole
  t.Add(StateTouch::kParked);
  WithQueue([&](const auto& q) { q.AddTouched(queue_marks_, t); });
  cache_.AddTouched(t);
}

void Scheduler::RefreshInto(State& state, const StateTouch& t) const {
  cache_.RefreshInto(Engage(state.cache), t);
  WithQueue([&](const auto& q) {
    q.RefreshQueueInto(Engage(state.queue), t);
    if (t.Touches(StateTouch::kNominated)) {
      q.SnapshotNominatedInto(Engage(state.nominated));
    }
  });
  WriteWaitingAndParked(state);
}

void Scheduler::SnapshotInto(State& state) const {
  cache_.SnapshotInto(Engage(state.cache));
  SnapshotAllButCacheInto(state);
}

void Scheduler::SnapshotAllButCacheInto(State& state) const {
  WithQueue([&](const auto& q) {
    q.SnapshotQueueInto(Engage(state.queue));
    q.SnapshotNominatedInto(Engage(state.nominated));
  });
  WriteWaitingAndParked(state);
}

void Scheduler::WriteWaitingAndParked(State& state) const {
  std::vector<std::string>& waiting = Engage(state.waiting);
  Refill<std::string> waiting_fill(waiting);
  for (const BindingCycle& c : waiting_) waiting_fill.Next() = c.key;
  waiting_fill.Finish();
  std::sort(waiting.begin(), waiting.end());
  std::vector<std::string>& parked = Engage(state.parked);
  Refill<std::string> parked_fill(parked);
  for (const BindingCycle& c : parked_) parked_fill.Next() = c.key;
  parked_fill.Finish();
  std::sort(parked.begin(), parked.end());
}

}  // namespace schedtrace::impl
