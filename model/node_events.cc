#include "model/node_events.h"

#include <algorithm>
#include <map>

#include "model/filters.h"
#include "model/go_equal.h"

namespace schedtrace::model {
namespace {

std::map<std::string, std::string> ConditionStatuses(
    const std::vector<NodeCondition>& conditions) {
  std::map<std::string, std::string> m;
  for (const NodeCondition& c : conditions) m[c.type] = c.status;
  return m;
}

// upstream: `at&framework.<Action> != 0` in addAllEventHandlers: the handler
// for `action` is registered when the registered bits intersect its bits.
bool ActionCovers(const std::string& registered, const std::string& action) {
  return (ActionTypeBits(registered) & ActionTypeBits(action)) != 0;
}

// The short names buildEvtResHandler labels events with.
std::string ShortName(const std::string& resource) {
  if (resource == "PersistentVolume") return "Pv";
  if (resource == "PersistentVolumeClaim") return "Pvc";
  return resource;
}

}  // namespace

ClusterEvent NodeAddEvent() { return {"Node", "Add", "NodeAdd"}; }
ClusterEvent AssignedPodDeleteEvent() {
  return {"Pod", "Delete", "AssignedPodDelete"};
}

std::optional<ClusterEvent> NodeSchedulingPropertiesChange(
    const Node& new_node, const Node& old_node) {
  // upstream: nodeSpecUnschedulableChanged
  if (new_node.unschedulable != old_node.unschedulable &&
      !new_node.unschedulable) {
    return ClusterEvent{"Node", "UpdateNodeTaint",
                        "NodeSpecUnschedulableChange"};
  }
  // upstream: nodeAllocatableChanged
  if (!DeepEqualAllocatable(old_node, new_node)) {
    return ClusterEvent{"Node", "UpdateNodeAllocatable",
                        "NodeAllocatableChange"};
  }
  // upstream: nodeLabelsChanged
  if (!DeepEqualLabels(old_node, new_node)) {
    return ClusterEvent{"Node", "UpdateNodeLabel", "NodeLabelChange"};
  }
  // upstream: nodeTaintsChanged
  if (!DeepEqualTaints(old_node, new_node)) {
    return ClusterEvent{"Node", "UpdateNodeTaint", "NodeTaintChange"};
  }
  // upstream: nodeConditionsChanged
  if (ConditionStatuses(old_node.conditions) !=
      ConditionStatuses(new_node.conditions)) {
    return ClusterEvent{"Node", "UpdateNodeCondition", "NodeConditionChange"};
  }
  return std::nullopt;
}

bool PreCheckForNode(const NodeInfo& info, const Pod& pod) {
  // upstream: AdmissionCheck(pod, nodeInfo, false)
  if (!InsufficientResources(pod, info).empty()) return false;
  if (!RequiredNodeAffinityMatches(pod, *info.node())) return false;
  if (!pod.node_name.empty() && pod.node_name != info.node()->name) {
    return false;  // upstream: nodename.Fits
  }
  // upstream: FindMatchingUntoleratedTaint with NoSchedule taints only.
  for (const Taint& taint : info.node()->taints) {
    if (taint.effect != "NoSchedule") continue;
    if (!TolerationsTolerateTaint(pod.tolerations, taint)) return false;
  }
  return true;
}

std::optional<ClusterEvent> OtherKindEvent(
    const std::vector<ClusterEventMapEntry>& cluster_event_map,
    const std::string& resource, const std::string& action,
    bool wait_for_first_consumer) {
  if (resource == "Node" || resource == "Pod") return std::nullopt;
  // upstream: gvkMap[resource] = the union of the actions registered for it.
  bool registered = false;
  for (const ClusterEventMapEntry& e : cluster_event_map) {
    if (e.resource != resource) continue;
    for (const std::string& a : e.actions) {
      if (ActionCovers(a, action)) registered = true;
    }
  }
  if (!registered) return std::nullopt;
  if (action != "Add" && action != "Update" && action != "Delete") {
    return std::nullopt;
  }
  if (resource == "StorageClass") {
    // upstream: onStorageClassAdd moves only for WaitForFirstConsumer; no
    // Delete handler is registered for StorageClass.
    if (action == "Add" && !wait_for_first_consumer) return std::nullopt;
    if (action == "Delete") return std::nullopt;
  }
  return ClusterEvent{resource, action, ShortName(resource) + action};
}

}  // namespace schedtrace::model
