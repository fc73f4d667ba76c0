// The informer's event handlers of impl::Scheduler (upstream:
// eventhandlers.go): up to v1.30 the cache handler, then the queue handler;
// from v1.35 the one pod handler (impl/pod_handler.cc); then the binding
// cycles they released.
#include <map>
#include <optional>
#include <string>

#include "absl/container/inlined_vector.h"
#include "impl/go_equal.h"
#include "impl/scheduler.h"

namespace schedtrace::impl {
namespace {

// upstream: nodeSchedulingPropertiesChange (eventhandlers.go): the events of
// the properties the update changed, in upstream's order, into `events`.
// kubernetes#121755 line (v1.30): every changed property, compared with
// equality.Semantic (nil equals empty, quantities by value); before, only
// the first, compared with reflect.DeepEqual.
void NodePropertiesChange(const Node& new_node, const Node& old_node,
                          bool every_change,
                          absl::InlinedVector<const ClusterEvent*, 5>& events) {
  static const ClusterEvent kUnschedulable{"Node", "UpdateNodeTaint",
                                           "NodeSpecUnschedulableChange"};
  static const ClusterEvent kAllocatable{"Node", "UpdateNodeAllocatable",
                                         "NodeAllocatableChange"};
  static const ClusterEvent kLabel{"Node", "UpdateNodeLabel",
                                   "NodeLabelChange"};
  static const ClusterEvent kTaint{"Node", "UpdateNodeTaint",
                                   "NodeTaintChange"};
  static const ClusterEvent kCondition{"Node", "UpdateNodeCondition",
                                       "NodeConditionChange"};
  events.clear();
  auto add = [&](const ClusterEvent& e) {
    events.push_back(&e);
    return !every_change;  // v1.26: the first one only
  };
  if (new_node.unschedulable != old_node.unschedulable &&
      !new_node.unschedulable && add(kUnschedulable)) {
    return;
  }
  if ((every_change ? AllocatableChangedSemantic(old_node, new_node)
                    : AllocatableChanged(old_node, new_node)) &&
      add(kAllocatable)) {
    return;
  }
  if (every_change ? LabelsChangedSemantic(old_node, new_node)
                   : LabelsChanged(old_node, new_node)) {
    if (add(kLabel)) {
      return;
    }
  }
  if ((every_change ? TaintsChangedSemantic(old_node, new_node)
                    : TaintsChanged(old_node, new_node)) &&
      add(kTaint)) {
    return;
  }
  if (ConditionsChanged(old_node, new_node)) add(kCondition);
  // NodeAnnotationChange (v1.30) never fires: annotations are no format
  // field of a node.
}

// upstream: the handlers addAllEventHandlers registers for other kinds
// (buildEvtResHandler, onStorageClassAdd): the event a cluster_event step
// sends, or nullopt when no handler runs.
std::optional<ClusterEvent> OtherKindEvent(
    const std::vector<ClusterEventMapEntry>& map, const std::string& resource,
    const std::string& action, bool wait_for_first_consumer,
    bool node_annotation_action) {
  if (resource == "Node" || resource == "Pod") return std::nullopt;
  const int bits = ActionTypeBits(action, node_annotation_action);
  bool registered = false;
  for (const ClusterEventMapEntry& e : map) {
    if (e.resource != resource) continue;
    for (const std::string& a : e.actions) {
      if ((ActionTypeBits(a, node_annotation_action) & bits) != 0) {
        registered = true;
      }
    }
  }
  if (!registered) return std::nullopt;
  if (action != "Add" && action != "Update" && action != "Delete") {
    return std::nullopt;
  }
  if (resource == "StorageClass" &&
      ((action == "Add" && !wait_for_first_consumer) || action == "Delete")) {
    return std::nullopt;
  }
  std::string short_name = resource == "PersistentVolume"        ? "Pv"
                           : resource == "PersistentVolumeClaim" ? "Pvc"
                                                                 : resource;
  return ClusterEvent{resource, action, short_name + action};
}

}  // namespace

bool Scheduler::OnPodAdd(const PodPtr& pod) {
  if (up_.unified_pod_handler) return AddPod(pod) && RunContinuations();
  queue_->ListerSet(pod);
  if (ForCache(*pod) && !AddPodToCache(pod)) return false;
  if (pod->node_name.empty() && Responsible(*pod) &&
      !AddPodToSchedulingQueue(pod)) {
    return false;
  }
  return RunContinuations();
}

// upstream: FilteringResourceEventHandler.OnUpdate for both handlers.
bool Scheduler::OnPodUpdate(const PodPtr& old_pod, const PodPtr& new_pod) {
  if (up_.unified_pod_handler) {
    return UpdatePod(old_pod, new_pod) && RunContinuations();
  }
  queue_->ListerSet(new_pod);
  {
    const bool older = ForCache(*old_pod);
    const bool newer = ForCache(*new_pod);
    bool ok = true;
    if (older && newer) {
      ok = UpdatePodInCache(old_pod, new_pod);
    } else if (newer) {
      ok = AddPodToCache(new_pod);
    } else if (older) {
      ok = DeletePodFromCache(old_pod);
    }
    if (!ok) return false;
  }
  {
    const bool older = old_pod->node_name.empty() && Responsible(*old_pod);
    const bool newer = new_pod->node_name.empty() && Responsible(*new_pod);
    bool ok = true;
    if (older && newer) {
      ok = UpdatePodInSchedulingQueue(old_pod, new_pod);
    } else if (newer) {
      ok = AddPodToSchedulingQueue(new_pod);
    } else if (older) {
      ok = DeletePodFromSchedulingQueue(old_pod);
    }
    if (!ok) return false;
  }
  return RunContinuations();
}

bool Scheduler::OnPodDelete(const PodPtr& pod, bool tombstone) {
  if (up_.unified_pod_handler) {
    return DeletePod(pod, tombstone) && RunContinuations();
  }
  queue_->ListerDelete(*pod);
  // upstream: both filters accept a DeletedFinalStateUnknown holding a pod:
  // the cache's whatever the pod, the queue's by scheduler name.
  bool to_cache = tombstone || ForCache(*pod);
  bool to_queue = Responsible(*pod) && (tombstone || pod->node_name.empty());
  if (to_cache && !DeletePodFromCache(pod)) return false;
  if (to_queue && !DeletePodFromSchedulingQueue(pod)) return false;
  return RunContinuations();
}

// The PreEnqueueCheck preCheckForNode over the cache's NodeInfo of the node.
void Scheduler::MoveForNode(const ClusterEvent& event, uint32_t node_id) {
  NodeFacts node;
  ComputeNodeFacts(cache_.NodeObject(node_id), cache_, node);
  const int64_t pods = static_cast<int64_t>(cache_.NodePodCount(node_id));
  Requests requested;
  cache_.NodeRequested(node_id, requested);
  PodFacts pod_facts;
  queue_->MoveAllToActiveOrBackoffQueue(event, [&](const Pod& pod) {
    ComputePodFacts(pod, cache_, pod_facts);
    return PreCheckForNode(pod_facts, node, pods, requested, up_);
  });
}

// upstream: addNodeToCache
bool Scheduler::OnNodeAdd(const NodePtr& node) {
  if (cache_.AddNode(node) == CacheResult::kFatal) return false;
  if (backend_ != nullptr) {
    // upstream (v1.35+): no preCheck; the QueueingHints see the node.
    backend_->MoveAllToActiveOrBackoffQueue(node_add_, {.new_node = node},
                                            nullptr);
    return true;
  }
  static const ClusterEvent kNodeAdd{"Node", "Add", "NodeAdd"};
  MoveForNode(kNodeAdd, cache_.FindNodeId(node->name));
  return true;
}

// upstream: updateNodeInCache
bool Scheduler::OnNodeUpdate(const NodePtr& old_node, const NodePtr& new_node) {
  if (cache_.UpdateNode(old_node, new_node) == CacheResult::kFatal) {
    return false;
  }
  NodePropertiesChange(*new_node, *old_node, up_.node_update_emits_every_change,
                       node_events_);
  for (const ClusterEvent* event : node_events_) {
    if (backend_ != nullptr) {
      backend_->MoveAllToActiveOrBackoffQueue(
          backend_->TraceEvent(*event),
          {.old_node = old_node, .new_node = new_node}, nullptr);
    } else {
      MoveForNode(*event, cache_.FindNodeId(new_node->name));
    }
  }
  return true;
}

// upstream: deleteNodeFromCache (errors are logged)
bool Scheduler::OnNodeDelete(const NodePtr& node) {
  // v1.32+ (kubernetes#127464): the move comes first.
  if (up_.node_delete_moves_pods && backend_ != nullptr) {
    backend_->MoveAllToActiveOrBackoffQueue(node_delete_, {.old_node = node},
                                            nullptr);
  }
  const CacheResult r = cache_.RemoveNode(node);
  return r != CacheResult::kFatal;
}

bool Scheduler::OnClusterEvent(const std::string& resource,
                               const std::string& action,
                               bool wait_for_first_consumer) {
  if (backend_ != nullptr) {
    MoveForOtherKind(resource, action, wait_for_first_consumer);
    return true;
  }
  if (std::optional<ClusterEvent> event =
          OtherKindEvent(config_.cluster_event_map, resource, action,
                         wait_for_first_consumer, up_.node_annotation_action)) {
    queue_->MoveAllToActiveOrBackoffQueue(*event,
                                          std::function<bool(const Pod&)>());
  }
  return true;
}

// upstream (v1.35+): a buildEvtResHandler for every kind of the QueueingHint
// map (StorageClass included, storage_class_generic_handler), each with the
// actions registered for it.
void Scheduler::MoveForOtherKind(const std::string& resource,
                                 const std::string& action_name,
                                 bool wait_for_first_consumer) {
  if (resource == "Node" || resource == "Pod") return;
  const int32_t bits = ActionBits(action_name);
  if (bits != action::kAdd && bits != action::kUpdate &&
      bits != action::kDelete) {
    return;
  }
  auto it = registered_bits_.find(resource);
  if (it == registered_bits_.end() || (it->second & bits) == 0) return;
  // Before kubernetes#127798: onStorageClassAdd (WaitForFirstConsumer only)
  // and no Delete handler.
  if (resource == "StorageClass" && !up_.storage_class_generic_handler &&
      ((bits == action::kAdd && !wait_for_first_consumer) ||
       bits == action::kDelete)) {
    return;
  }
  backend_->MoveAllToActiveOrBackoffQueue(
      backend_->EventOf(resource, bits, resource + action_name), {}, nullptr);
}

// upstream: addPodToCache
bool Scheduler::AddPodToCache(const PodPtr& pod) {
  if (cache_.AddPod(pod) == CacheResult::kFatal) return false;
  if (backend_ != nullptr) {
    backend_->MoveAllToActiveOrBackoffQueue(backend_->AssignedPodAddEvent(),
                                            {.new_pod = pod}, nullptr);
  } else {
    queue_->AssignedPodAdded(pod);
  }
  return true;
}

// upstream: updatePodInCache
bool Scheduler::UpdatePodInCache(const PodPtr& old_pod, const PodPtr& new_pod) {
  if (cache_.UpdatePod(old_pod, new_pod) == CacheResult::kFatal) return false;
  if (backend_ == nullptr) {
    queue_->AssignedPodUpdated(new_pod);
    return true;
  }
  // upstream (v1.35+): one move per scheduling property the update changed.
  backend_->PodSchedulingPropertiesChange(*new_pod, *old_pod, false,
                                          pod_events_);
  for (BackendQueue::EventId e : pod_events_) {
    backend_->MoveAllToActiveOrBackoffQueue(
        e, {.old_pod = old_pod, .new_pod = new_pod}, nullptr);
  }
  return true;
}

// upstream: deletePodFromCache
bool Scheduler::DeletePodFromCache(const PodPtr& pod) {
  if (cache_.RemovePod(pod) == CacheResult::kFatal) return false;
  MoveAssignedPodDelete(pod, nullptr);
  return true;
}

// upstream: addPodToSchedulingQueue
bool Scheduler::AddPodToSchedulingQueue(const PodPtr& pod) {
  if (backend_ != nullptr) {
    backend_->Add(pod);
    return true;
  }
  return queue_->Add(pod) != QueueResult::kFatal;
}

// upstream: updatePodInSchedulingQueue
bool Scheduler::UpdatePodInSchedulingQueue(const PodPtr& old_pod,
                                           const PodPtr& new_pod) {
  if (old_pod->resource_version == new_pod->resource_version) {
    return true;
  }
  if (cache_.IsAssumedPod(new_pod->uid)) {
    // v1.35+: an assumed pod whose deletion started.
    if (up_.unified_pod_handler && new_pod->deletion_timestamp &&
        !old_pod->deletion_timestamp) {
      return HandleAssumedPodDeletion(new_pod);
    }
    return true;
  }
  if (backend_ == nullptr) {
    return queue_->Update(old_pod, new_pod) != QueueResult::kFatal;
  }
  if (backend_->Update(old_pod, new_pod) == QueueResult::kFatal) return false;
  // upstream: hasNominatedNodeNameChanged: the deletion of the old
  // nomination, for pods of lower or equal priority.
  if (up_.nominated_pod_delete_moves_pods &&
      !old_pod->nominated_node_name.empty() &&
      old_pod->nominated_node_name != new_pod->nominated_node_name) {
    MoveAssignedPodDelete(old_pod, AtMostPriority(old_pod->Priority()));
  }
  return true;
}

// upstream: deletePodFromSchedulingQueue
bool Scheduler::DeletePodFromSchedulingQueue(const PodPtr& pod) {
  if (backend_ != nullptr) {
    backend_->Delete(*pod);
  } else if (queue_->Delete(pod) == QueueResult::kFatal) {
    return false;
  }
  if (!Responsible(*pod)) return true;  // frameworkForPod
  // upstream: frameworkImpl.RejectWaitingPod: Reject("", "removed").
  if (RejectWaitingPod(pod->scheduler_name, pod->uid, removed_rejector_)) {
    MoveAssignedPodDelete(pod, nullptr);
  } else if (up_.nominated_pod_delete_moves_pods &&
             !pod->nominated_node_name.empty()) {
    // A binding reaches here too (the queue filter's delete of the old pod).
    MoveAssignedPodDelete(pod, AtMostPriority(pod->Priority()));
  }
  return true;
}

}  // namespace schedtrace::impl
