// The informer's event handlers of model::Scheduler, one function per
// function of upstream's pkg/scheduler/eventhandlers.go: up to v1.30 the two
// FilteringResourceEventHandlers of addAllEventHandlers, cache handler first,
// then queue handler; from v1.35 (unified_pod_handler) the one pod handler
// (addPod, updatePod, deletePod); then any binding cycle they released.
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
  if (up_.unified_pod_handler) {
    if (absl::Status s = addPod(pod); !s.ok()) return s;
    return RunContinuations();
  }
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
  if (up_.unified_pod_handler) {
    if (absl::Status s = updatePod(old_pod, new_pod); !s.ok()) return s;
    return RunContinuations();
  }
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
                  static_cast<absl::Status (Scheduler::*)(const PodPtr&)>(
                      &Scheduler::deletePodFromSchedulingQueue));
      !s.ok()) {
    return s;
  }
  return RunContinuations();
}

absl::Status Scheduler::OnPodDelete(const PodPtr& pod, bool tombstone) {
  informer_.erase(pod->Key());
  if (up_.unified_pod_handler) {
    if (absl::Status s = deletePod(pod, tombstone); !s.ok()) return s;
    return RunContinuations();
  }
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
  if (backend_ != nullptr) {
    // upstream (v1.35+): no preCheck with QueueingHints, which see the node.
    if (IsFatal(info.status())) return info.status();
    backend_->MoveAllToActiveOrBackoffQueue(
        QueueEvent{"Node", action::kAdd, "NodeAdd"},
        EventObjects{.new_node = node}, preCheckForNode(info));
    return absl::OkStatus();
  }
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
  if (backend_ != nullptr) {
    if (IsFatal(info.status())) return info.status();
    for (const ClusterEvent& event :
         NodeSchedulingPropertiesChange(*new_node, *old_node, up_)) {
      backend_->MoveAllToActiveOrBackoffQueue(
          ToQueueEvent(event),
          EventObjects{.old_node = old_node, .new_node = new_node},
          preCheckForNode(info));
    }
    return absl::OkStatus();
  }
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

// upstream (v1.35+): preCheckForNode: none with SchedulerQueueingHints on;
// off, the node's admission check (PreCheckForNode).
PreEnqueueCheck Scheduler::preCheckForNode(
    const absl::StatusOr<NodeInfo>& info) const {
  if (up_.queueing_hints || !info.ok()) return nullptr;
  return [info = *info, this](const Pod& pod) {
    return PreCheckForNode(info, pod, up_);
  };
}

// upstream: deleteNodeFromCache (a tombstone carries the node the same way)
absl::Status Scheduler::OnNodeDelete(const NodePtr& node, bool /*tombstone*/) {
  // v1.32+ (kubernetes#127464): the move comes first.
  if (up_.node_delete_moves_pods) {
    queueMoveAll(ClusterEvent{"Node", "Delete", "NodeDelete"},
                 QueueEvent{"Node", action::kDelete, "NodeDelete"},
                 EventObjects{.old_node = node}, nullptr);
  }
  return OnlyFatal(cache_.RemoveNode(node));
}

// upstream: the handlers buildEvtResHandler and onStorageClassAdd register.
absl::Status Scheduler::OnClusterEvent(const std::string& resource,
                                       const std::string& action,
                                       bool wait_for_first_consumer) {
  if (backend_ != nullptr) {
    // upstream (v1.35+): a buildEvtResHandler for every kind of the
    // QueueingHint map (unionedGVKs; StorageClass included,
    // storage_class_generic_handler), with the actions registered for it.
    if (resource == "Node" || resource == "Pod") return absl::OkStatus();
    const int64_t bits = QueueActionBits(action);
    if (bits != action::kAdd && bits != action::kUpdate &&
        bits != action::kDelete) {
      return absl::OkStatus();
    }
    int64_t registered = 0;
    for (const QueueingHintMapEntry& e : hint_map_) {
      if (e.event.resource == resource) registered |= e.event.action;
    }
    if ((registered & bits) == 0) return absl::OkStatus();
    // Before kubernetes#127798: onStorageClassAdd (WaitForFirstConsumer
    // only) and no Delete handler. After it, with SchedulerQueueingHints
    // off, buildEvtResHandler's Add keeps the WaitForFirstConsumer check.
    if (resource == "StorageClass" &&
        ((bits == action::kAdd && !wait_for_first_consumer &&
          (!up_.storage_class_generic_handler || !up_.queueing_hints)) ||
         (bits == action::kDelete && !up_.storage_class_generic_handler))) {
      return absl::OkStatus();
    }
    backend_->MoveAllToActiveOrBackoffQueue(
        QueueEvent{resource, bits, resource + action}, EventObjects{}, nullptr);
    return absl::OkStatus();
  }
  if (std::optional<ClusterEvent> event =
          OtherKindEvent(config_.cluster_event_map, resource, action,
                         wait_for_first_consumer, up_)) {
    queue_->MoveAllToActiveOrBackoffQueue(*event, nullptr);
  }
  return absl::OkStatus();
}

// upstream: addPodToCache (addAssignedPodToCache from v1.35)
absl::Status Scheduler::addPodToCache(const PodPtr& pod) {
  if (absl::Status s = cache_.AddPod(pod); IsFatal(s)) return s;
  if (backend_ != nullptr) {
    // With SchedulerQueueingHints off, AssignedPodAdded pre-filters.
    if (!up_.queueing_hints) {
      backend_->AssignedPodAdded(pod);
      return absl::OkStatus();
    }
    backend_->MoveAllToActiveOrBackoffQueue(
        EventAssignedPodAdd(), EventObjects{.new_pod = pod}, nullptr);
    return absl::OkStatus();
  }
  queue_->AssignedPodAdded(pod);
  return absl::OkStatus();
}

// upstream: updatePodInCache (updateAssignedPodInCache from v1.35: one move
// per scheduling property the update changed)
absl::Status Scheduler::updatePodInCache(const PodPtr& old_pod,
                                         const PodPtr& new_pod) {
  if (absl::Status s = cache_.UpdatePod(old_pod, new_pod); IsFatal(s)) {
    return s;
  }
  if (backend_ != nullptr) {
    for (const QueueEvent& event :
         PodSchedulingPropertiesChange(*new_pod, *old_pod, false, up_)) {
      if (!up_.queueing_hints) {
        backend_->AssignedPodUpdated(old_pod, new_pod, event);
        continue;
      }
      backend_->MoveAllToActiveOrBackoffQueue(
          event, EventObjects{.old_pod = old_pod, .new_pod = new_pod}, nullptr);
    }
    return absl::OkStatus();
  }
  queue_->AssignedPodUpdated(new_pod);
  return absl::OkStatus();
}

// upstream: deletePodFromCache (deleteAssignedPodFromCache from v1.35)
absl::Status Scheduler::deletePodFromCache(const PodPtr& pod) {
  if (absl::Status s = cache_.RemovePod(pod); IsFatal(s)) return s;
  queueMoveAll(AssignedPodDeleteEvent(), EventAssignedPodDelete(),
               EventObjects{.old_pod = pod}, nullptr);
  return absl::OkStatus();
}

// upstream: addPodToSchedulingQueue
absl::Status Scheduler::addPodToSchedulingQueue(const PodPtr& pod) {
  if (backend_ != nullptr) {
    backend_->Add(pod);
    return absl::OkStatus();
  }
  return OnlyFatal(queue_->Add(pod));
}

// upstream: updatePodInSchedulingQueue
absl::Status Scheduler::updatePodInSchedulingQueue(const PodPtr& old_pod,
                                                   const PodPtr& new_pod) {
  if (old_pod->resource_version == new_pod->resource_version) {
    return absl::OkStatus();  // a resync
  }
  absl::StatusOr<bool> assumed = cache_.IsAssumedPod(new_pod);
  if (assumed.ok() && *assumed) {
    // v1.35+: an assumed pod whose deletion started.
    if (up_.unified_pod_handler && new_pod->deletion_timestamp &&
        !old_pod->deletion_timestamp) {
      return handleAssumedPodDeletion(new_pod);
    }
    return absl::OkStatus();
  }
  if (backend_ == nullptr) return OnlyFatal(queue_->Update(old_pod, new_pod));
  if (absl::Status s = backend_->Update(old_pod, new_pod); IsFatal(s)) {
    return s;
  }
  // upstream: hasNominatedNodeNameChanged: treated as the deletion of the
  // old nomination, for pods of lower or equal priority.
  if (up_.nominated_pod_delete_moves_pods &&
      !old_pod->nominated_node_name.empty() &&
      old_pod->nominated_node_name != new_pod->nominated_node_name) {
    const int32_t priority = old_pod->Priority();
    queueMoveAll(AssignedPodDeleteEvent(), EventAssignedPodDelete(),
                 EventObjects{.old_pod = old_pod},
                 [priority](const Pod& p) { return p.Priority() <= priority; });
  }
  return absl::OkStatus();
}

// upstream: deletePodFromSchedulingQueue
absl::Status Scheduler::deletePodFromSchedulingQueue(const PodPtr& pod) {
  if (backend_ != nullptr) {
    backend_->Delete(pod);
  } else if (absl::Status s = queue_->Delete(pod); IsFatal(s)) {
    return s;
  }
  if (!responsibleForPod(*pod)) return absl::OkStatus();  // frameworkForPod
  if (RejectWaitingPod(pod->scheduler_name, pod->uid)) {
    queueMoveAll(AssignedPodDeleteEvent(), EventAssignedPodDelete(),
                 EventObjects{.old_pod = pod}, nullptr);
  } else if (up_.nominated_pod_delete_moves_pods &&
             !pod->nominated_node_name.empty()) {
    // The deleted pod's nomination held back the pods of lower or equal
    // priority (getLEPriorityPreCheck). The queue filter delivers a binding
    // as this deletion too, so a bound pod's nomination moves them as well.
    const int32_t priority = pod->Priority();
    queueMoveAll(AssignedPodDeleteEvent(), EventAssignedPodDelete(),
                 EventObjects{.old_pod = pod},
                 [priority](const Pod& p) { return p.Priority() <= priority; });
  }
  return absl::OkStatus();
}

// upstream (v1.35+): addPod
absl::Status Scheduler::addPod(const PodPtr& pod) {
  if (responsibleForPod(*pod) && !assignedPod(*pod)) {
    if (absl::Status s = addPodToSchedulingQueue(pod); !s.ok()) return s;
  }
  if (assignedPod(*pod)) return addPodToCache(pod);
  return absl::OkStatus();
}

// upstream (v1.35+): updatePod
absl::Status Scheduler::updatePod(const PodPtr& old_pod,
                                  const PodPtr& new_pod) {
  if (assignedPod(*old_pod)) return updatePodInCache(old_pod, new_pod);
  if (assignedPod(*new_pod)) {
    // A binding: the pod joins the cache and leaves the queue.
    if (absl::Status s = addPodToCache(new_pod); !s.ok()) return s;
    if (responsibleForPod(*old_pod)) {
      return deletePodFromSchedulingQueue(old_pod, /*inBinding=*/true);
    }
    return absl::OkStatus();
  }
  if (responsibleForPod(*old_pod)) {
    return updatePodInSchedulingQueue(old_pod, new_pod);
  }
  return absl::OkStatus();
}

// upstream (v1.35+): deletePod. A tombstone's pod may be stale: it is
// removed from the cache whatever its node name.
absl::Status Scheduler::deletePod(const PodPtr& pod, bool tombstone) {
  if (tombstone) {
    if (absl::Status s = deletePodFromCache(pod); !s.ok()) return s;
    if (responsibleForPod(*pod)) {
      return deletePodFromSchedulingQueue(pod, /*inBinding=*/false);
    }
    return absl::OkStatus();
  }
  if (assignedPod(*pod)) return deletePodFromCache(pod);
  if (responsibleForPod(*pod)) {
    return deletePodFromSchedulingQueue(pod, /*inBinding=*/false);
  }
  return absl::OkStatus();
}

// upstream (v1.35+): handleAssumedPodDeletion: the cached (assumed) pod is
// rejected if it waits on Permit, else removed from the cache at once
// (RemoveAssumedPod: ForgetPod for a pod in no pod group); then the pods its
// resources held back may move.
absl::Status Scheduler::handleAssumedPodDeletion(const PodPtr& deleted) {
  absl::StatusOr<PodPtr> cached = cache_.GetPod(deleted);
  if (!cached.ok()) return OnlyFatal(cached.status());
  const PodPtr pod = *cached;
  if (!responsibleForPod(*pod)) return absl::OkStatus();  // frameworkForPod
  if (!RejectWaitingPod(pod->scheduler_name, pod->uid)) {
    if (absl::Status s = cache_.ForgetPod(pod); IsFatal(s)) return s;
  }
  queueMoveAll(AssignedPodDeleteEvent(), EventAssignedPodDelete(),
               EventObjects{.old_pod = pod}, nullptr);
  return absl::OkStatus();
}

// upstream (v1.35+): deletePodFromSchedulingQueue(pod, inBinding)
absl::Status Scheduler::deletePodFromSchedulingQueue(const PodPtr& pod,
                                                     bool inBinding) {
  if (backend_ != nullptr) {
    backend_->Delete(pod);
  } else if (absl::Status s = queue_->Delete(pod); IsFatal(s)) {
    return s;
  }
  if (inBinding) return absl::OkStatus();
  absl::StatusOr<bool> assumed = cache_.IsAssumedPod(pod);
  if (assumed.ok() && *assumed) return handleAssumedPodDeletion(pod);
  if (up_.nominated_pod_delete_moves_pods &&
      !pod->nominated_node_name.empty()) {
    const int32_t priority = pod->Priority();
    queueMoveAll(AssignedPodDeleteEvent(), EventAssignedPodDelete(),
                 EventObjects{.old_pod = pod},
                 [priority](const Pod& p) { return p.Priority() <= priority; });
  }
  return absl::OkStatus();
}

// upstream: responsibleForPod
bool Scheduler::responsibleForPod(const Pod& pod) const {
  return std::find(config_.profiles.begin(), config_.profiles.end(),
                   pod.scheduler_name) != config_.profiles.end();
}

}  // namespace schedtrace::model
