#include "properties/history.h"

#include <algorithm>

#include "harness/resources.h"

namespace schedtrace::properties {
namespace {

bool Contains(const std::optional<std::vector<std::string>>& list,
              const std::string& key) {
  return list && std::find(list->begin(), list->end(), key) != list->end();
}

}  // namespace

History::History(const TraceHeader& header) : header_(header) {}

PodPtr History::Latest(const std::string& key) const {
  auto it = latest_.find(key);
  return it == latest_.end() ? nullptr : it->second;
}

PodPtr History::CacheObject(const std::string& key) const {
  auto it = cache_objects_.find(key);
  return it == cache_objects_.end() ? nullptr : it->second;
}

bool History::DifferentPodsUnderKey(const std::string& key) const {
  PodPtr cached = CacheObject(key);
  auto it = informer_.find(key);
  return cached != nullptr && it != informer_.end() &&
         cached->uid != it->second->uid;
}

bool History::ServedAndPending(const Pod& pod) const {
  const auto& profiles = header_.config.profiles;
  return pod.node_name.empty() && !pod.deletion_timestamp &&
         std::find(profiles.begin(), profiles.end(), pod.scheduler_name) !=
             profiles.end();
}

void History::Carry(const PodPtr& pod) {
  if (pod != nullptr) latest_[pod->Key()] = pod;
}

void History::GiveToCache(const PodPtr& pod) {
  if (pod == nullptr) return;
  auto it = cache_objects_.find(pod->Key());
  if (it != cache_objects_.end() && it->second->uid != pod->uid) {
    ambiguous_in_cache_.insert(pod->Key());
  }
  cache_objects_[pod->Key()] = pod;
}

void History::CheckCallerObject(const PodPtr& given) {
  if (given == nullptr) return;
  PodPtr cached = CacheObject(given->Key());
  if (cached == nullptr || cached->node_name != given->node_name ||
      PodRequests(*cached) != PodRequests(*given)) {
    drifted_.insert(given->Key());
    drifted_nodes_.insert(given->node_name);
    if (cached != nullptr) drifted_nodes_.insert(cached->node_name);
  }
}

void History::Observe(const State& before, const Step& step,
                      const StepOut& out) {
  now_ = step.t;
  Carry(step.pod);
  Carry(step.old_pod);
  Carry(step.new_pod);
  switch (step.op) {
    // The queue layer's nominator lister ("queue-ops").
    case Op::kQAdd:
    case Op::kQAssignedPodAdded:
    case Op::kQAssignedPodUpdated:
      informer_[step.pod->Key()] = step.pod;
      break;
    case Op::kQUpdate:
      informer_[step.new_pod->Key()] = step.new_pod;
      if (step.old_pod == nullptr) nil_old_updates_.insert(step.new_pod->Key());
      break;
    case Op::kQDelete:
      informer_.erase(step.pod->Key());
      in_flight_.erase(step.pod->Key());
      break;
    case Op::kQPop:
      if (out.popped) in_flight_.insert(*out.popped);
      break;
    case Op::kQAddUnschedulable:
      in_flight_.erase(step.pod_key);
      break;
    case Op::kQActivate:
      for (const PodPtr& pod : step.pods) {
        PodPtr latest = Latest(pod->Key());
        if (latest != nullptr && !latest->scheduling_gates.empty()) {
          activated_gated_.insert(pod->Key());
        }
      }
      break;

    // The cache layer.
    // The cache layer: only what the cache accepted counts.
    case Op::kCAssume:
    case Op::kCAddPod:
      if (!out.error) GiveToCache(step.pod);
      break;
    case Op::kCUpdatePod:
      if (!out.error) {
        CheckCallerObject(step.old_pod);
        GiveToCache(step.new_pod);
      }
      break;
    case Op::kCForget:
      if (!out.error) CheckCallerObject(step.pod);
      break;

    // The scheduler layer's informer.
    case Op::kPodAdd:
      informer_[step.pod->Key()] = step.pod;
      deleted_while_waiting_.erase(step.pod->Key());
      if (!step.pod->node_name.empty()) GiveToCache(step.pod);
      break;
    case Op::kPodUpdate:
      informer_[step.new_pod->Key()] = step.new_pod;
      deleted_while_waiting_.erase(step.new_pod->Key());
      if (!step.new_pod->node_name.empty()) GiveToCache(step.new_pod);
      break;
    case Op::kPodDelete:
      informer_.erase(step.pod->Key());
      if (before.waiting && Contains(before.waiting, step.pod->Key())) {
        deleted_while_waiting_.insert(step.pod->Key());
      }
      break;
    case Op::kScheduleOne:
      // The popped pod is assumed with the informer's object of the time.
      if (out.result && out.result->node) {
        auto it = informer_.find(out.result->pod);
        if (it != informer_.end()) GiveToCache(it->second);
      }
      break;
    default:
      break;
  }
}

}  // namespace schedtrace::properties
