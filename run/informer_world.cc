#include "run/informer_world.h"

#include <algorithm>

namespace schedtrace {

InformerWorld::InformerWorld(Layer layer, const Config& config)
    : layer_(layer),
      ttl_ms_(config.assumed_pod_ttl_ms),
      initial_backoff_ms_(config.pod_initial_backoff_ms),
      max_backoff_ms_(config.pod_max_backoff_ms),
      max_unschedulable_ms_(config.pod_max_in_unschedulable_ms) {}

void InformerWorld::Observe(const Step& step, const StepOut& out) {
  switch (layer_) {
    case Layer::kQueue:
      ObserveQueue(step, out);
      break;
    case Layer::kCache:
      ObserveCache(step, out);
      break;
    case Layer::kScheduler:
      ObserveScheduler(step, out);
      break;
  }
}

void InformerWorld::ObserveQueue(const Step& step, const StepOut& out) {
  switch (step.op) {
    case Op::kQPop:
      // upstream: PriorityQueue.Pop counts a cycle for each pod it returns.
      if (out.popped) {
        popped_cycle_[*out.popped] = ++cycle_;
        if (out.attempts) attempts_[*out.popped] = *out.attempts;
      } else {
        may_have_active_ = false;
      }
      break;
    case Op::kQAddUnschedulable:
      // (Into activeQ only after a move request and past its backoff: the
      // source does not count on it.)
      popped_cycle_.erase(step.pod_key);
      if (!out.error && !out.fatal) {
        auto it = attempts_.find(step.pod_key);
        Requeued(step.t, it == attempts_.end() ? 1 : it->second);
      }
      break;
    case Op::kQDelete:
      if (step.pod) popped_cycle_.erase(step.pod->Key());
      break;
    case Op::kQNominate:
    case Op::kQDone:  // the pod leaves the in-flight list, no queue
      break;
    default:
      may_have_active_ = true;
      break;
  }
}

// upstream: the cache's AssumePod, FinishBinding, ForgetPod, AddPod,
// UpdatePod, RemovePod and cleanupAssumedPods, as their errors show them.
void InformerWorld::ObserveCache(const Step& step, const StepOut& out) {
  if (out.error || out.fatal) return;  // refused: nothing changed
  const PodPtr& pod = step.pod;
  // (Hostile input may leave out an object a call carries: nothing to note.)
  if (step.op == Op::kCUpdatePod ? !step.old_pod || !step.new_pod
                                 : !pod && step.op != Op::kCCleanup) {
    return;
  }
  switch (step.op) {
    case Op::kCAssume:
      cached_[pod->uid] = {pod->Key(), pod->node_name, true};
      deadline_.erase(pod->uid);
      break;
    case Op::kCFinishBinding:
      if (auto it = cached_.find(pod->uid);
          it != cached_.end() && it->second.assumed && ttl_ms_ > 0) {
        deadline_[pod->uid] = step.t + ttl_ms_;
      }
      break;
    case Op::kCAddPod:  // an assumed pod is confirmed
      cached_[pod->uid] = {pod->Key(), pod->node_name, false};
      deadline_.erase(pod->uid);
      break;
    case Op::kCUpdatePod:
      cached_.erase(step.old_pod->uid);
      cached_[step.new_pod->uid] = {step.new_pod->Key(),
                                    step.new_pod->node_name, false};
      break;
    case Op::kCForget:
    case Op::kCRemovePod:
      cached_.erase(pod->uid);
      deadline_.erase(pod->uid);
      break;
    case Op::kCCleanup:
      // upstream: cleanupAssumedPods expires a pod once now is after its
      // deadline.
      for (auto it = deadline_.begin(); it != deadline_.end();) {
        if (step.t > it->second) {
          cached_.erase(it->first);
          it = deadline_.erase(it);
        } else {
          ++it;
        }
      }
      break;
    default:
      break;
  }
}

bool InformerWorld::Assumed(const std::string& key) const {
  return std::any_of(cached_.begin(), cached_.end(), [&](const auto& kv) {
    return kv.second.assumed && kv.second.key == key;
  });
}

bool InformerWorld::Added(const std::string& key) const {
  return std::any_of(cached_.begin(), cached_.end(), [&](const auto& kv) {
    return !kv.second.assumed && kv.second.key == key;
  });
}

void InformerWorld::ObserveScheduler(const Step& step, const StepOut& out) {
  // upstream: Pop counts an attempt (a pod deleted leaves the queue with
  // its count); handleSchedulingFailure puts the pod back, stamped now
  // (AddUnschedulableIfNotPresent), and sends FailedScheduling.
  if (step.op == Op::kScheduleOne && out.result) ++attempts_[out.result->pod];
  if (step.op == Op::kPodDelete && step.pod) attempts_.erase(step.pod->Key());
  // A failure names its pod: a waiting pod rejected, or a cycle or binding
  // cycle that failed, leaves the node it was assumed on, and the pod is
  // back in the queue.
  // (A cycle's failure of the pod it popped is that cycle's own: another
  // incarnation of it may still be waiting.)
  for (const EmittedEvent& e : out.events) {
    if (e.reason != "FailedScheduling") continue;
    auto it = attempts_.find(e.pod);
    Requeued(step.t, it == attempts_.end() ? 1 : it->second);
    if (out.result && out.result->pod == e.pod) continue;
    Erase(waiting_, e.pod);
    node_of_.erase(e.pod);
  }
  switch (step.op) {
    case Op::kScheduleOne:
      if (out.result && out.result->outcome == "scheduled") {
        const std::string& key = out.result->pod;
        if (out.result->node) node_of_[key] = *out.result->node;
        if (step.permit == PermitOutcome::kWait) {
          Insert(waiting_, key);
        } else if (step.permit == PermitOutcome::kAllow) {
          Insert(parked_, key);
        }
      }
      break;
    case Op::kPermitAllow:
      if (Erase(waiting_, step.pod_key)) Insert(parked_, step.pod_key);
      break;
    case Op::kPermitReject:
      Erase(waiting_, step.pod_key);
      break;
    case Op::kBind:
      Erase(parked_, step.pod_key);
      break;
    default:
      break;
  }
  // What the informer's objects say: an assigned pod is on its node; one
  // updated to an unassigned object (a new incarnation) leaves it.
  if (step.op == Op::kPodUpdate && step.old_pod && step.new_pod &&
      !step.old_pod->node_name.empty() && step.new_pod->node_name.empty()) {
    node_of_.erase(step.new_pod->Key());
  }
  for (const PodPtr& pod : {step.pod, step.new_pod}) {
    if (!pod) continue;
    if (step.op == Op::kPodDelete) {
      // An assumed pod whose binding cycle is parked stays in the cache
      // until that cycle ends.
      if (!std::binary_search(parked_.begin(), parked_.end(), pod->Key())) {
        node_of_.erase(pod->Key());
      }
    } else if (!pod->node_name.empty()) {
      node_of_[pod->Key()] = pod->node_name;
    }
  }
}

bool InformerWorld::HoldsPods(const std::string& name) const {
  if (layer_ == Layer::kCache) {
    return std::any_of(cached_.begin(), cached_.end(),
                       [&](const auto& kv) { return kv.second.node == name; });
  }
  return std::any_of(node_of_.begin(), node_of_.end(),
                     [&](const auto& kv) { return kv.second == name; });
}

// upstream: calculateBackoffDuration (in milliseconds, where the source
// needs no more than an estimate: a huge podMaxBackoff wraps in Go's
// nanoseconds, not here) and flushUnschedulablePodsLeftover's limit.
void InformerWorld::Requeued(int64_t t, int attempts) {
  int64_t backoff = initial_backoff_ms_;
  for (int i = 1; i < attempts; ++i) {
    if (backoff > max_backoff_ms_ - backoff) {
      backoff = max_backoff_ms_;
      break;
    }
    backoff += backoff;
  }
  if (backoff >= 0 && t <= kMaxTraceMs - backoff) {
    boundaries_.insert({t + backoff, false});
  }
  if (max_unschedulable_ms_ >= 0 && t <= kMaxTraceMs - max_unschedulable_ms_) {
    boundaries_.insert({t + max_unschedulable_ms_, true});
  }
}

std::optional<InformerWorld::Boundary> InformerWorld::NextBoundary(
    int64_t t, int64_t reach) {
  while (!boundaries_.empty() && boundaries_.begin()->first + 1 <= t) {
    boundaries_.erase(boundaries_.begin());
  }
  if (boundaries_.empty() || boundaries_.begin()->first - 1 > t + reach) {
    return std::nullopt;
  }
  return Boundary{boundaries_.begin()->first, boundaries_.begin()->second};
}

void InformerWorld::Insert(std::vector<std::string>& keys,
                           const std::string& key) {
  keys.insert(std::upper_bound(keys.begin(), keys.end(), key), key);
}

bool InformerWorld::Erase(std::vector<std::string>& keys,
                          const std::string& key) {
  auto it = std::lower_bound(keys.begin(), keys.end(), key);
  if (it == keys.end() || *it != key) return false;
  keys.erase(it);
  return true;
}

}  // namespace schedtrace
