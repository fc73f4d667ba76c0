// impl::Scheduler's construction, the steps that are no informer delivery
// and no scheduling cycle (flushes, Permit answers, continuations) and its
// snapshots. The handlers are in impl/event_handlers.cc, the node snapshot
// in impl/scheduler_snapshot.cc, the cycles in impl/schedule_one.cc.
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
      cache_(config.assumed_pod_ttl_ms, up),
      queue_(config_, up) {
  queue_.SetHintProfiles(config_.profiles);  // one map per profile
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
  queue_.FlushBackoffQCompleted();
  return true;
}

bool Scheduler::FlushUnschedulable() {
  queue_.FlushUnschedulablePodsLeftover();
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
  queue_.AddTouched(queue_marks_, t);
  cache_.AddTouched(t);
}

void Scheduler::RefreshInto(State& state, const StateTouch& t) const {
  cache_.RefreshInto(Engage(state.cache), t);
  queue_.RefreshQueueInto(Engage(state.queue), t);
  if (t.Touches(StateTouch::kNominated)) {
    queue_.SnapshotNominatedInto(Engage(state.nominated));
  }
  WriteWaitingAndParked(state);
}

void Scheduler::SnapshotInto(State& state) const {
  cache_.SnapshotInto(Engage(state.cache));
  SnapshotAllButCacheInto(state);
}

void Scheduler::SnapshotAllButCacheInto(State& state) const {
  queue_.SnapshotQueueInto(Engage(state.queue));
  queue_.SnapshotNominatedInto(Engage(state.nominated));
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
