// The informer's event handlers of model::Scheduler, one function per
// function of upstream's pkg/scheduler/eventhandlers.go: the two
// FilteringResourceEventHandlers of addAllEventHandlers, cache handler first,
// then queue handler, then any binding cycle they released.
#include <algorithm>
#include <optional>
#include <string>

#include "model/fatal.h"
#include "model/node_events.h"
#include "model/scheduler.h"

namespace schedtrace::model {
namespace {

// Logged-and-ignored errors stay errors of upstream's own; only a fatal
// status (upstream exits) stops the step.
absl::Status OnlyFatal(const absl::Status& s) {
  return IsFatal(s) ? s : absl::OkStatus();
}

}  // namespace

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
      NodeAddEvent(), [info = *info, this](const Pod& pod) {
        return PreCheckForNode(info, pod, up_);
      });
  return absl::OkStatus();
}

// upstream: updateNodeInCache
absl::Status Scheduler::OnNodeUpdate(const NodePtr& old_node,
                                     const NodePtr& new_node) {
  absl::StatusOr<NodeInfo> info = cache_.UpdateNode(old_node, new_node);
  if (!info.ok()) return OnlyFatal(info.status());
  for (const ClusterEvent& event :
       NodeSchedulingPropertiesChange(*new_node, *old_node, up_)) {
    queue_->MoveAllToActiveOrBackoffQueue(
        event, [info = *info, this](const Pod& pod) {
          return PreCheckForNode(info, pod, up_);
        });
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
                         wait_for_first_consumer, up_)) {
    queue_->MoveAllToActiveOrBackoffQueue(*event, nullptr);
  }
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

// upstream: responsibleForPod
bool Scheduler::responsibleForPod(const Pod& pod) const {
  return std::find(config_.profiles.begin(), config_.profiles.end(),
                   pod.scheduler_name) != config_.profiles.end();
}

}  // namespace schedtrace::model
