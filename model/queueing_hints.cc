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

// A function below that reads a field of an object the event does not
// carry (nil: util.As gives nil without an error) dereferences nil: kPanic,
// at exactly the point where upstream's Go would; where Go checks for nil
// first or never reads the object, nil is an answer. Only the queue layer's
// moves can pass nil (docs/FORMAT.md, E14).

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
// The new node is read only when the old one is nil or unschedulable.
H NodeUnschedulableAfterNodeChange(const Pod&, const EventObjects& o) {
  if (o.old_node != nullptr && !o.old_node->unschedulable) return H::kQueueSkip;
  if (o.new_node == nullptr) return H::kPanic;
  return o.new_node->unschedulable ? H::kQueueSkip : H::kQueue;
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

// upstream (v1.35, v1.36): nodeunschedulable.
// isSchedulableAfterPodTolerationChange, registered for every pod's
// toleration update: only the pod's own update that makes it tolerate
// node.kubernetes.io/unschedulable:NoSchedule queues it.
H NodeUnschedulableAfterPodTolerationChange(const Pod& pod,
                                            const EventObjects& o) {
  if (o.new_pod == nullptr) return H::kPanic;
  if (o.new_pod->uid != pod.uid) return H::kQueueSkip;
  return NodeUnschedulableAfterTargetPodTolerationChange(pod, o);
}

// upstream (v1.35, v1.36): tainttoleration.
// isSchedulableAfterPodTolerationChange: the pod's own update queues it.
H TaintTolerationAfterPodTolerationChange(const Pod& pod,
                                          const EventObjects& o) {
  if (o.new_pod == nullptr) return H::kPanic;
  return o.new_pod->uid == pod.uid ? H::kQueue : H::kQueueSkip;
}

// upstream (v1.35, v1.36): schedulinggates.
// isSchedulableAfterUpdatePodSchedulingGatesEliminated: the pod's own update
// queues it.
H SchedulingGatesAfterUpdatePodSchedulingGatesEliminated(
    const Pod& pod, const EventObjects& o) {
  if (o.new_pod == nullptr) return H::kPanic;
  return o.new_pod->uid == pod.uid ? H::kQueue : H::kQueueSkip;
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
// hint's error as Queue. RequiredNodeAffinity.Match reads a nil node's
// labels for a nodeSelector (panic); its required terms match no nil node
// (LazyErrorNodeSelector.Match); with neither, any node matches.
H NodeAffinityAfterNodeChange(const Pod& pod, const EventObjects& o) {
  if (o.new_node == nullptr) {
    if (!pod.node_selector.empty()) return H::kPanic;
    if (pod.required_node_affinity) return H::kQueueSkip;
  }
  const AffinityMatch now = o.new_node == nullptr
                                ? AffinityMatch{.matched = true}
                                : RequiredNodeAffinityMatch(pod, *o.new_node);
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

// upstream (v1.35, v1.36): noderesources.(*Fit).isSchedulableAfterPodEvent,
// registered for Pod Delete|UpdatePodScaleDown (InPlacePodVerticalScaling is
// GA): a deleted pod frees resources if it was scheduled or nominated; an
// update is isSchedulableAfterPodScaleDown: the pod's own update queues it,
// another pod's when it is scheduled and requests less of a resource the
// pod requests. (Go dereferences a nil deleted pod; every Pod move of the
// scheduler layer carries its pod.)
H FitAfterPodEvent(const Pod& pod, const EventObjects& o, const Upstream& up) {
  if (o.new_pod == nullptr) return FitAfterAssignedPodDelete(pod, o);
  if (o.new_pod->uid == pod.uid) return H::kQueue;
  if (o.new_pod->node_name.empty()) return H::kQueueSkip;
  if (o.old_pod == nullptr) return H::kPanic;  // PodRequests(originalPod)
  return haveEnoughRelevantResourcesDecreased(pod, *o.old_pod, *o.new_pod, up)
             ? H::kQueue
             : H::kQueueSkip;
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
  // (computePodResourceRequest's SetMaxResource takes each request as at
  // least 0)
  for (const auto& [name, value] : request) {
    if (!IsScalarResourceName(name) || value <= 0) continue;
    if (amount(after.allocatable(), name) >
        amount(before.allocatable(), name)) {
      return true;
    }
  }
  return false;
}

// The in-tree plugins' EventsToRegister with QueueingHints on. From v1.37
// (target_pod_update_events) a plugin registers its pod's own updates as
// TargetPod and scheduled pods' events as AssignedPod; before, both are Pod
// (which matches AssignedPod and UnschedulablePod events), so a hint on a
// pod update first asks whether the update is the pod's own.
std::vector<Registration> EventsToRegister(const std::string& plugin,
                                           const Upstream& up) {
  namespace a = action;
  const bool target = up.target_pod_update_events;
  if (!up.queueing_hints) {
    // upstream (v1.35, EnableSchedulingQueueHint false): every plugin
    // registering Node Add registers UpdateNodeTaint and UpdateNodeLabel
    // too, for the events preCheck may have hidden; no Pod updates (the
    // queue's Update moves an updated pod itself); SchedulingGates none.
    const int64_t node = a::kAdd | a::kUpdateNodeTaint | a::kUpdateNodeLabel;
    if (plugin == "NodeUnschedulable" || plugin == "NodeName" ||
        plugin == "TaintToleration" || plugin == "NodeAffinity") {
      return {{Event("Node", node), nullptr}};
    }
    if (plugin == "NodeResourcesFit") {
      return {{Event("Pod", a::kDelete | a::kUpdatePodScaleDown), nullptr},
              {Event("Node", node | a::kUpdateNodeAllocatable), nullptr},
              {Event("DeviceClass", a::kAdd | a::kUpdate), nullptr}};
    }
    if (plugin == "SchedulingGates") return {};
  }
  if (plugin == "NodeUnschedulable") {
    return {{Event("Node", a::kAdd | a::kUpdateNodeTaint),
             NodeUnschedulableAfterNodeChange},
            target
                ? Registration{Event("TargetPod", a::kUpdatePodToleration),
                               NodeUnschedulableAfterTargetPodTolerationChange}
                : Registration{Event("Pod", a::kUpdatePodToleration),
                               NodeUnschedulableAfterPodTolerationChange}};
  }
  if (plugin == "NodeName") return {{Event("Node", a::kAdd), nullptr}};
  if (plugin == "TaintToleration") {
    // upstream: isSchedulableAfterTargetPodTolerationChange: always Queue.
    return {{Event("Node", a::kAdd | a::kUpdateNodeTaint),
             TaintTolerationAfterNodeChange},
            target ? Registration{Event("TargetPod", a::kUpdatePodToleration),
                                  DefaultQueueingHintFn}
                   : Registration{Event("Pod", a::kUpdatePodToleration),
                                  TaintTolerationAfterPodTolerationChange}};
  }
  if (plugin == "NodeAffinity") {
    return {{Event("Node", a::kAdd | a::kUpdateNodeLabel),
             NodeAffinityAfterNodeChange}};
  }
  if (plugin == "NodeResourcesFit") {
    // upstream: (*Fit).isSchedulableAfterNodeChange
    QueueingHintFn afterNodeChange = [up](const Pod& pod,
                                          const EventObjects& o) {
      // upstream: (*Fit).isSchedulableAfterNodeChange (isFit answers false
      // for a nil node)
      if (!isFit(pod, o.new_node, up)) return H::kQueueSkip;
      if (o.old_node == nullptr) return H::kQueue;
      return haveAnyRequestedResourcesIncreased(pod, o.old_node, o.new_node, up)
                 ? H::kQueue
                 : H::kQueueSkip;
    };
    // DeviceClass registers with DRAExtendedResource (on by default from
    // v1.36; off in v1.35); no trace event reaches it, so it is here for
    // every version. InPlacePodVerticalScaling (GA) adds the scale-downs.
    if (!target) {
      return {
          {Event("Pod", a::kDelete | a::kUpdatePodScaleDown),
           [up](const Pod& pod, const EventObjects& o) {
             return FitAfterPodEvent(pod, o, up);
           }},
          {Event("Node", a::kAdd | a::kUpdateNodeAllocatable), afterNodeChange},
          {Event("DeviceClass", a::kAdd | a::kUpdate), nullptr}};
    }
    return {
        {Event("AssignedPod", a::kDelete), FitAfterAssignedPodDelete},
        {Event("Node", a::kAdd | a::kUpdateNodeAllocatable), afterNodeChange},
        {Event("DeviceClass", a::kAdd | a::kUpdate), nullptr},
        {Event("AssignedPod", a::kUpdatePodScaleDown),
         [up](const Pod& pod, const EventObjects& o) {
           // upstream: (*Fit).isSchedulableAfterAssignedPodScaleDown (the
           // old pod is read only for a scheduled new one)
           if (o.new_pod == nullptr) return H::kPanic;
           if (o.new_pod->node_name.empty()) return H::kQueueSkip;
           if (o.old_pod == nullptr) return H::kPanic;
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
    // upstream: isSchedulableAfterUpdateTargetPodSchedulingGatesEliminated
    // (always Queue); before v1.37 isSchedulableAfterUpdatePodSchedulingGates
    // Eliminated.
    return {target
                ? Registration{Event("TargetPod",
                                     a::kUpdatePodSchedulingGatesEliminated),
                               DefaultQueueingHintFn}
                : Registration{
                      Event("Pod", a::kUpdatePodSchedulingGatesEliminated),
                      SchedulingGatesAfterUpdatePodSchedulingGatesEliminated}};
  }
  // upstream: framework.UnrollWildCardResource (the Trace* plugins'
  // EventsToRegister, and the default of a plugin without one); before
  // v1.37 one Pod entry instead of the three pod resources.
  std::vector<Registration> all;
  if (target) {
    for (const char* resource :
         {"AssignedPod", "UnscheduledPod", "TargetPod"}) {
      all.push_back({Event(resource, a::kAll), nullptr});
    }
  } else {
    all.push_back({Event("Pod", a::kAll), nullptr});
  }
  for (const char* resource :
       {"Node", "PersistentVolume", "PersistentVolumeClaim", "CSINode",
        "CSIDriver", "CSIStorageCapacity", "StorageClass", "ResourceClaim",
        "DeviceClass"}) {
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
    // With SchedulerQueueingHints off every function is the default one.
    it->fns.push_back(
        {plugin, fn && up.queueing_hints ? fn : DefaultQueueingHintFn});
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
