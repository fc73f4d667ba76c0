#include "model/queueing_hints.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/filters.h"
#include "model/node_info.h"
#include "model/resource.h"

namespace schedtrace::model {
namespace {

using H = QueueingHint;

// A function below that reads an object the event does not carry (nil:
// util.As gives nil without an error) dereferences nil: kPanic. Only the
// queue layer's moves can pass nil (docs/FORMAT.md, E14).

// upstream: fwk.ClusterEventWithHint.
struct Registration {
  QueueEvent event;
  QueueingHintFn fn;  // null: the default hint
};

QueueEvent Event(const std::string& resource, int64_t action) {
  return QueueEvent{resource, action, ""};
}

// upstream: nodeunschedulable.isSchedulableAfterNodeChange: the node came
// schedulable, or was added schedulable.
H NodeUnschedulableAfterNodeChange(const Pod&, const EventObjects& o) {
  if (o.new_node == nullptr) return H::kPanic;
  if (o.old_node != nullptr && o.old_node->unschedulable &&
      !o.new_node->unschedulable) {
    return H::kQueue;
  }
  if (o.old_node == nullptr && !o.new_node->unschedulable) return H::kQueue;
  return H::kQueueSkip;
}

// upstream: nodeunschedulable.isSchedulableAfterTargetPodTolerationChange:
// the pod now tolerates node.kubernetes.io/unschedulable:NoSchedule.
H NodeUnschedulableAfterTargetPodTolerationChange(const Pod&,
                                                  const EventObjects& o) {
  if (o.new_pod == nullptr) return H::kPanic;
  const Taint taint{"node.kubernetes.io/unschedulable", "", "NoSchedule"};
  return TolerationsTolerateTaint(o.new_pod->tolerations, taint)
             ? H::kQueue
             : H::kQueueSkip;
}

// upstream: tainttoleration.isSchedulableAfterNodeChange: a NoSchedule or
// NoExecute taint the pod did not tolerate is gone.
H TaintTolerationAfterNodeChange(const Pod& pod, const EventObjects& o) {
  if (o.new_node == nullptr) return H::kPanic;
  bool wasUntolerated = true;
  if (o.old_node != nullptr) {
    wasUntolerated =
        FindUntoleratedNoScheduleTaint(o.old_node->taints, pod.tolerations)
            .has_value();
  }
  const bool isUntolerated =
      FindUntoleratedNoScheduleTaint(o.new_node->taints, pod.tolerations)
          .has_value();
  return wasUntolerated && !isUntolerated ? H::kQueue : H::kQueueSkip;
}

// upstream: nodeaffinity.isSchedulableAfterNodeChange (no addedAffinity in
// the profile's args): the new node matches the pod's required affinity and
// the old one did not (or there was none).
// A Match error (a term that cannot be parsed) is Queue: upstream treats a
// hint's error as Queue.
H NodeAffinityAfterNodeChange(const Pod& pod, const EventObjects& o) {
  if (o.new_node == nullptr) return H::kPanic;
  const AffinityMatch now = RequiredNodeAffinityMatch(pod, *o.new_node);
  if (now.error) return H::kQueue;
  if (!now.matched) return H::kQueueSkip;
  if (o.old_node == nullptr) return H::kQueue;
  const AffinityMatch was = RequiredNodeAffinityMatch(pod, *o.old_node);
  if (was.error) return H::kQueue;
  return was.matched ? H::kQueueSkip : H::kQueue;
}

// upstream: noderesources.(*Fit).isSchedulableAfterAssignedPodDelete.
H FitAfterAssignedPodDelete(const Pod&, const EventObjects& o) {
  if (o.old_pod == nullptr) return H::kPanic;
  const Pod& deleted = *o.old_pod;
  if (deleted.node_name.empty() && deleted.nominated_node_name.empty()) {
    return H::kQueueSkip;
  }
  return H::kQueue;
}

// upstream: noderesources.(*Fit).haveEnoughRelevantResourcesDecreased: the
// scheduled pod's request of a resource the target pod requests went down.
bool haveEnoughRelevantResourcesDecreased(const Pod& target, const Pod& orig,
                                          const Pod& modified,
                                          const Upstream& up) {
  if (modified.node_name.empty()) return false;
  const Resources before = PodRequests(orig, up);
  const Resources after = PodRequests(modified, up);
  auto amount = [](const Resources& r, const std::string& name) -> int64_t {
    auto it = r.find(name);
    return it == r.end() ? 0 : std::max<int64_t>(it->second, 0);
  };
  for (const auto& [name, value] : PodRequests(target, up)) {
    if (value == 0) continue;
    if (name != "cpu" && name != "memory" && name != "ephemeral-storage" &&
        !IsScalarResourceName(name)) {
      continue;
    }
    if (amount(before, name) > amount(after, name)) return true;
  }
  return false;
}

// upstream: noderesources.isFit: the pod fits an empty NodeInfo of the node.
bool isFit(const Pod& pod, const NodePtr& node, const Upstream& up) {
  if (node == nullptr) return false;
  NodeInfo info;
  info.SetNode(node);
  return InsufficientResources(pod, info, up).empty();
}

// upstream: noderesources.haveAnyRequestedResourcesIncreased.
bool haveAnyRequestedResourcesIncreased(const Pod& pod, const NodePtr& orig,
                                        const NodePtr& modified,
                                        const Upstream& up) {
  const Resources request = PodRequests(pod, up);
  NodeInfo before, after;
  before.SetNode(orig);
  after.SetNode(modified);
  auto amount = [](const Resources& r, const std::string& name) -> int64_t {
    auto it = r.find(name);
    return it == r.end() ? 0 : it->second;
  };
  if (amount(after.allocatable(), "pods") >
      amount(before.allocatable(), "pods")) {
    return true;
  }
  bool any = false;
  for (const auto& [name, value] : request) {
    if (name != "pods" && value != 0) any = true;
  }
  if (!any) return false;
  for (const char* name : {"cpu", "memory", "ephemeral-storage"}) {
    if (amount(request, name) > 0 && amount(after.allocatable(), name) >
                                         amount(before.allocatable(), name)) {
      return true;
    }
  }
  for (const auto& [name, value] : request) {
    if (!IsScalarResourceName(name) || value == 0) continue;
    if (amount(after.allocatable(), name) >
        amount(before.allocatable(), name)) {
      return true;
    }
  }
  return false;
}

// The in-tree plugins' EventsToRegister at v1.37.2.
std::vector<Registration> EventsToRegister(const std::string& plugin,
                                           const Upstream& up) {
  namespace a = action;
  if (plugin == "NodeUnschedulable") {
    return {{Event("Node", a::kAdd | a::kUpdateNodeTaint),
             NodeUnschedulableAfterNodeChange},
            {Event("TargetPod", a::kUpdatePodToleration),
             NodeUnschedulableAfterTargetPodTolerationChange}};
  }
  if (plugin == "NodeName") return {{Event("Node", a::kAdd), nullptr}};
  if (plugin == "TaintToleration") {
    // upstream: isSchedulableAfterTargetPodTolerationChange: always Queue.
    return {
        {Event("Node", a::kAdd | a::kUpdateNodeTaint),
         TaintTolerationAfterNodeChange},
        {Event("TargetPod", a::kUpdatePodToleration), DefaultQueueingHintFn}};
  }
  if (plugin == "NodeAffinity") {
    return {{Event("Node", a::kAdd | a::kUpdateNodeLabel),
             NodeAffinityAfterNodeChange}};
  }
  if (plugin == "NodeResourcesFit") {
    // DeviceClass (DRAExtendedResource) registers too; no trace event
    // reaches it. InPlacePodVerticalScaling (GA) adds the scale-downs.
    return {
        {Event("AssignedPod", a::kDelete), FitAfterAssignedPodDelete},
        {Event("Node", a::kAdd | a::kUpdateNodeAllocatable),
         [up](const Pod& pod, const EventObjects& o) {
           // upstream: (*Fit).isSchedulableAfterNodeChange
           if (o.new_node == nullptr) return H::kPanic;
           if (!isFit(pod, o.new_node, up)) return H::kQueueSkip;
           if (o.old_node == nullptr) return H::kQueue;
           return haveAnyRequestedResourcesIncreased(pod, o.old_node,
                                                     o.new_node, up)
                      ? H::kQueue
                      : H::kQueueSkip;
         }},
        {Event("DeviceClass", a::kAdd | a::kUpdate), nullptr},
        {Event("AssignedPod", a::kUpdatePodScaleDown),
         [up](const Pod& pod, const EventObjects& o) {
           // upstream: (*Fit).isSchedulableAfterAssignedPodScaleDown
           if (o.old_pod == nullptr || o.new_pod == nullptr) return H::kPanic;
           return haveEnoughRelevantResourcesDecreased(pod, *o.old_pod,
                                                       *o.new_pod, up)
                      ? H::kQueue
                      : H::kQueueSkip;
         }},
        // upstream: isSchedulableAfterTargetPodScaleDown: always Queue.
        {Event("TargetPod", a::kUpdatePodScaleDown), DefaultQueueingHintFn},
    };
  }
  if (plugin == "SchedulingGates") {
    // upstream: isSchedulableAfterUpdateTargetPodSchedulingGatesEliminated.
    return {{Event("TargetPod", a::kUpdatePodSchedulingGatesEliminated),
             DefaultQueueingHintFn}};
  }
  // upstream: framework.UnrollWildCardResource (the Trace* plugins'
  // EventsToRegister, and the default of a plugin without one).
  std::vector<Registration> all;
  for (const char* resource :
       {"AssignedPod", "UnscheduledPod", "TargetPod", "Node",
        "PersistentVolume", "PersistentVolumeClaim", "CSINode", "CSIDriver",
        "CSIStorageCapacity", "StorageClass", "ResourceClaim", "DeviceClass"}) {
    all.push_back({Event(resource, a::kAll), nullptr});
  }
  return all;
}

}  // namespace

QueueingHintFn PluginQueueingHintFn(const std::string& plugin,
                                    const QueueEvent& registered,
                                    const Upstream& up) {
  for (const Registration& r : EventsToRegister(plugin, up)) {
    if (r.event.resource == registered.resource &&
        (r.event.action & registered.action) != 0) {
      return r.fn ? r.fn : DefaultQueueingHintFn;
    }
  }
  return DefaultQueueingHintFn;
}

QueueingHintMap BuildQueueingHintMap(const Config& config, const Upstream& up) {
  // upstream: fillEnqueueExtensions: each plugin of these extension points,
  // once.
  std::map<std::string, std::vector<std::string>> plugins = config.plugins;
  if (plugins.empty()) {
    plugins = {{"preEnqueue", {"SchedulingGates"}},
               {"preFilter", {"NodeAffinity", "NodeResourcesFit"}},
               {"filter",
                {"NodeUnschedulable", "NodeName", "TaintToleration",
                 "NodeAffinity", "NodeResourcesFit"}},
               {"reserve", {"TraceReserve"}},
               {"permit", {"TracePermit"}}};
  }
  std::vector<std::string> extensions;
  for (const char* point :
       {"preEnqueue", "preFilter", "filter", "reserve", "permit"}) {
    auto it = plugins.find(point);
    if (it == plugins.end()) continue;
    for (const std::string& p : it->second) {
      if (std::find(extensions.begin(), extensions.end(), p) ==
          extensions.end()) {
        extensions.push_back(p);
      }
    }
  }
  QueueingHintMap map;
  auto add = [&](const QueueEvent& event, const std::string& plugin,
                 const QueueingHintFn& fn) {
    auto it = std::find_if(map.begin(), map.end(),
                           [&](const auto& e) { return e.event == event; });
    if (it == map.end()) {
      map.push_back({event, {}});
      it = map.end() - 1;
    }
    it->fns.push_back({plugin, fn ? fn : DefaultQueueingHintFn});
  };
  for (const std::string& plugin : extensions) {
    const std::vector<Registration> events = EventsToRegister(plugin, up);
    bool nodeAdded = false, nodeTaintUpdated = false;
    for (const Registration& r : events) {
      add(r.event, plugin, r.fn);
      if (r.event.resource == "Node") {
        nodeAdded = nodeAdded || (r.event.action & action::kAdd) != 0;
        nodeTaintUpdated = nodeTaintUpdated ||
                           (r.event.action & action::kUpdateNodeTaint) != 0;
      }
    }
    // v1.30 to v1.36 (kubernetes#122292, removed by #138708): a plugin
    // registering Node Add without UpdateNodeTaint gets it with the default
    // hint.
    if (up.node_add_registers_taint_update &&
        !up.no_implicit_node_taint_update && nodeAdded && !nodeTaintUpdated) {
      add(Event("Node", action::kUpdateNodeTaint), plugin, nullptr);
    }
  }
  return map;
}

}  // namespace schedtrace::model
