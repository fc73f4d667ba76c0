#include "model/node_events.h"

#include <algorithm>
#include <map>
#include <set>

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
bool ActionCovers(const std::string& registered, const std::string& action,
                  const Upstream& up) {
  return (ActionTypeBits(registered, up.node_annotation_action) &
          ActionTypeBits(action, up.node_annotation_action)) != 0;
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

std::vector<ClusterEvent> NodeSchedulingPropertiesChange(const Node& new_node,
                                                         const Node& old_node,
                                                         const Upstream& up) {
  const bool every = up.node_update_emits_every_change;
  std::vector<ClusterEvent> events;
  auto changed = [&](bool yes, ClusterEvent event) {
    if (yes && (every || events.empty())) events.push_back(std::move(event));
  };
  // upstream: nodeSpecUnschedulableChanged
  changed(new_node.unschedulable != old_node.unschedulable &&
              !new_node.unschedulable,
          {"Node", "UpdateNodeTaint", "NodeSpecUnschedulableChange"});
  // upstream: nodeAllocatableChanged, nodeLabelsChanged, nodeTaintsChanged
  changed(every ? !SemanticEqualAllocatable(old_node, new_node)
                : !DeepEqualAllocatable(old_node, new_node),
          {"Node", "UpdateNodeAllocatable", "NodeAllocatableChange"});
  changed(every ? !SemanticEqualLabels(old_node, new_node)
                : !DeepEqualLabels(old_node, new_node),
          {"Node", "UpdateNodeLabel", "NodeLabelChange"});
  changed(every ? !SemanticEqualTaints(old_node, new_node)
                : !DeepEqualTaints(old_node, new_node),
          {"Node", "UpdateNodeTaint", "NodeTaintChange"});
  // upstream: nodeConditionsChanged (type -> status maps: nil and empty
  // strip to the same map in both versions)
  changed(ConditionStatuses(old_node.conditions) !=
              ConditionStatuses(new_node.conditions),
          {"Node", "UpdateNodeCondition", "NodeConditionChange"});
  // (v1.30's nodeAnnotationsChanged: node annotations are not a format
  // field, so it never fires.)
  return events;
}

std::vector<ClusterEventMapEntry> EffectiveClusterEventMap(const Config& config,
                                                           const Upstream& up) {
  // One (resource, actions, plugin) row per registration, in map order.
  struct Row {
    std::string resource;
    std::vector<std::string> actions;
    std::string plugin;
  };
  std::vector<Row> rows;
  for (const ClusterEventMapEntry& e : config.cluster_event_map) {
    for (const std::string& p : e.plugins)
      rows.push_back({e.resource, e.actions, p});
  }
  auto all_on = [&](const std::string& plugin, const std::string& resource) {
    for (const Row& r : rows) {
      if (r.plugin != plugin || r.resource != resource) continue;
      for (const std::string& a : r.actions) {
        if (ActionTypeBits(a, up.node_annotation_action) ==
            AllActionBits(up.node_annotation_action))
          return true;
      }
    }
    return false;
  };
  // upstream (v1.26): allClusterEvents, what a plugin without
  // EnqueueExtensions registers.
  const char* const kAllClusterEvents[] = {"Pod",
                                           "Node",
                                           "CSINode",
                                           "PersistentVolume",
                                           "PersistentVolumeClaim",
                                           "StorageClass"};
  std::set<std::string> defaulted;  // plugins without EnqueueExtensions
  for (const Row& r : rows) {
    bool every = true;
    for (const char* resource : kAllClusterEvents) {
      every = every && all_on(r.plugin, resource);
    }
    if (every) defaulted.insert(r.plugin);
  }
  std::vector<Row> out;
  for (Row r : rows) {
    if (up.scheduling_gates_registers_no_events &&
        r.plugin == "SchedulingGates") {
      continue;
    }
    if (up.node_unschedulable_watches_node_update &&
        r.plugin == "NodeUnschedulable" && r.resource == "Node" &&
        std::any_of(r.actions.begin(), r.actions.end(), [&up](const auto& a) {
          return (ActionTypeBits(a, up.node_annotation_action) &
                  ActionTypeBits("Add", up.node_annotation_action)) != 0;
        })) {
      r.actions = {"Add", "Update"};
    }
    out.push_back(std::move(r));
  }
  if (up.unroll_wildcard_events) {
    // upstream (v1.30): shouldHaveEnqueueExtensions: only plugins of these
    // extension points get the defaults (when the header lists them).
    std::set<std::string> extended;
    for (const char* point :
         {"preEnqueue", "preFilter", "filter", "reserve", "permit"}) {
      if (auto it = config.plugins.find(point); it != config.plugins.end()) {
        extended.insert(it->second.begin(), it->second.end());
      }
    }
    if (!config.plugins.empty()) {
      std::erase_if(out, [&](const Row& r) {
        return defaulted.contains(r.plugin) && !extended.contains(r.plugin);
      });
    }
    // UnrollWildCardResource's kinds with an informer handler (the DRA kinds
    // get none while DynamicResourceAllocation is off).
    for (const std::string& plugin : defaulted) {
      if (!config.plugins.empty() && !extended.contains(plugin)) continue;
      for (const char* resource : {"CSIDriver", "CSIStorageCapacity"}) {
        if (!all_on(plugin, resource))
          out.push_back({resource, {"All"}, plugin});
      }
    }
  }
  if (up.node_add_registers_taint_update) {
    // upstream (v1.30): buildQueueingHintMap, for a plugin registering Node
    // Add without UpdateNodeTaint.
    std::set<std::string> add, taint;
    for (const Row& r : out) {
      if (r.resource != "Node") continue;
      int bits = 0;
      for (const std::string& a : r.actions)
        bits |= ActionTypeBits(a, up.node_annotation_action);
      if (bits & ActionTypeBits("Add", up.node_annotation_action))
        add.insert(r.plugin);
      if (bits & ActionTypeBits("UpdateNodeTaint", up.node_annotation_action))
        taint.insert(r.plugin);
    }
    for (const std::string& plugin : add) {
      if (!taint.contains(plugin)) {
        out.push_back({"Node", {"UpdateNodeTaint"}, plugin});
      }
    }
  }
  // Regroup: rows with the same resource and actions share an entry, in the
  // order of first appearance.
  std::vector<ClusterEventMapEntry> map;
  for (const Row& r : out) {
    auto it = std::find_if(map.begin(), map.end(), [&](const auto& e) {
      return e.resource == r.resource && e.actions == r.actions;
    });
    if (it == map.end()) {
      map.push_back({r.resource, r.actions, {}});
      it = map.end() - 1;
    }
    if (std::find(it->plugins.begin(), it->plugins.end(), r.plugin) ==
        it->plugins.end()) {
      it->plugins.push_back(r.plugin);
    }
  }
  return map;
}

bool PreCheckForNode(const NodeInfo& info, const Pod& pod, const Upstream& up) {
  // upstream: AdmissionCheck(pod, nodeInfo, false)
  if (!InsufficientResources(pod, info, up).empty()) return false;
  if (!RequiredNodeAffinityMatches(pod, *info.node())) return false;
  if (!pod.node_name.empty() && pod.node_name != info.node()->name) {
    return false;  // upstream: nodename.Fits
  }
  // upstream: FindMatchingUntoleratedTaint with NoSchedule taints only;
  // from v1.35 (backend_queue) DoNotScheduleTaintsFilterFunc, NoExecute
  // too.
  for (const Taint& taint : info.node()->taints) {
    if (taint.effect != "NoSchedule" &&
        !(up.backend_queue && taint.effect == "NoExecute")) {
      continue;
    }
    if (!TolerationsTolerateTaint(pod.tolerations, taint)) return false;
  }
  return true;
}

std::optional<ClusterEvent> OtherKindEvent(
    const std::vector<ClusterEventMapEntry>& cluster_event_map,
    const std::string& resource, const std::string& action,
    bool wait_for_first_consumer, const Upstream& up) {
  if (resource == "Node" || resource == "Pod") return std::nullopt;
  // upstream: gvkMap[resource] = the union of the actions registered for it.
  bool registered = false;
  for (const ClusterEventMapEntry& e : cluster_event_map) {
    if (e.resource != resource) continue;
    for (const std::string& a : e.actions) {
      if (ActionCovers(a, action, up)) registered = true;
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
