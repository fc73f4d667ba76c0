// What the node and "other kind" informer handlers of eventhandlers.go turn
// an event into: the ClusterEvent MoveAllToActiveOrBackoffQueue receives, and
// the PreEnqueueCheck (preCheckForNode) that filters it.
#ifndef SCHEDTRACE_MODEL_NODE_EVENTS_H_
#define SCHEDTRACE_MODEL_NODE_EVENTS_H_

#include <optional>
#include <string>
#include <vector>

#include "core/objects.h"
#include "core/trace.h"
#include "model/node_info.h"
#include "model/upstream.h"

namespace schedtrace::model {

// upstream: the ClusterEvent values of internal/queue/events.go that the
// handlers send.
ClusterEvent NodeAddEvent();
ClusterEvent AssignedPodDeleteEvent();

// upstream: nodeSchedulingPropertiesChange (eventhandlers.go): the first of
// unschedulable (only when it becomes false), allocatable, labels, taints,
// conditions (type -> status) that changed, compared with reflect.DeepEqual
// (v1.26); every one that changed, in that order, compared with
// equality.Semantic.DeepEqual (v1.30, node_update_emits_every_change).
// Empty when nothing changed.
std::vector<ClusterEvent> NodeSchedulingPropertiesChange(
    const Node& new_node, const Node& old_node,
    const Upstream& up = Upstream{});

// upstream: preCheckForNode / AdmissionCheck: the pod fits the node's free
// resources, matches its required node affinity and node name (no ports in
// our pods), and tolerates its NoSchedule taints (from v1.35 its NoExecute
// ones too).
bool PreCheckForNode(const NodeInfo& info, const Pod& pod,
                     const Upstream& up = Upstream{});

// The scheduler layer's registrations for `up`'s version. Headers carry
// v1.26.7's clusterEventMap (the recordings of every version do); v1.30
// registers differently: plugins without EnqueueExtensions register every
// resource, so also CSIDriver and CSIStorageCapacity, and only those with a
// PreEnqueue, PreFilter, Filter, Reserve or Permit extension
// (fillEnqueueExtensions, kubernetes/kubernetes#118551); NodeUnschedulable
// registers Node Add|Update (kubernetes/kubernetes#122334); SchedulingGates
// registers nothing (kubernetes/kubernetes#121677). Idempotent: a map already
// in v1.30's shape comes back unchanged.
std::vector<ClusterEventMapEntry> EffectiveClusterEventMap(const Config& config,
                                                           const Upstream& up);

// upstream: addAllEventHandlers' buildEvtResHandler / onStorageClassAdd: the
// event a `cluster_event` step sends for a kind other than Node and Pod, or
// nullopt when no handler is registered for it. `cluster_event_map` is the
// header's (its resources and actions make upstream's gvkMap).
std::optional<ClusterEvent> OtherKindEvent(
    const std::vector<ClusterEventMapEntry>& cluster_event_map,
    const std::string& resource, const std::string& action,
    bool wait_for_first_consumer, const Upstream& up);

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_NODE_EVENTS_H_
