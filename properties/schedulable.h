// The oracle of property 11 (no lost wake-up): whether the scheduling
// cycle's filters would pass an unschedulable pod on some node, computed
// from what a trace shows and never from a system's internals: the nodes'
// objects the steps carried, and the cache and the nominations a system's
// state shows.
//
// The filters are the scheduler layer's (docs/FORMAT.md, "Layer
// scheduler"), written here again, on their own: NodeUnschedulable,
// NodeName, TaintToleration (NoSchedule and NoExecute), NodeAffinity
// (nodeSelector and the required terms) and NodeResourcesFit against the
// node's `requested` and pod count as the state shows them, with the pods
// nominated to the node at the pod's priority or above added, as
// RunFilterPluginsWithNominatedPods adds them (upstream:
// findNodesThatPassFilters, addNominatedPods). What a pod and a node count
// for are the model's amounts (model::PodRequests, model::NodeAllocatable),
// as property 6 takes them (README, "How traces are compared").
//
//   Cluster c{&nodes, &*state.cache, &*state.nominated, object_of, &up};
//   if (FitsSomeNode(pod, c) == Fit::kYes) ...
#ifndef SCHEDTRACE_PROPERTIES_SCHEDULABLE_H_
#define SCHEDTRACE_PROPERTIES_SCHEDULABLE_H_

#include <functional>
#include <map>
#include <string>

#include "core/objects.h"
#include "core/state.h"
#include "model/upstream.h"

namespace schedtrace::properties {

// kUnknown: what the trace shows does not settle it (a NodeInfo without a
// node object, a filter the oracle does not know, a nominated pod whose
// object is not known).
enum class Fit { kNo, kYes, kUnknown };

struct Cluster {
  // The nodes present, by name, as their latest object.
  const std::map<std::string, NodePtr>* nodes = nullptr;
  const CacheState* cache = nullptr;
  const Nominated* nominated = nullptr;
  // The object a nominated pod counts as on its node (null: unknown).
  std::function<PodPtr(const std::string& key)> nominated_object;
  const model::Upstream* up = nullptr;
};

// Whether the five filters pass `pod` on `node`, whose NodeInfo the state
// shows as `info`; on kNo, the first filter that failed in `*failed`.
Fit FitsNode(const Pod& pod, const Node& node, const NodeInfoState& info,
             const Cluster& cluster, std::string* failed = nullptr);

// kYes when some node passes (the first such node by name in `*node`), kNo
// when every node present fails (or none is present), kUnknown otherwise.
Fit FitsSomeNode(const Pod& pod, const Cluster& cluster,
                 std::string* node = nullptr);

}  // namespace schedtrace::properties

#endif  // SCHEDTRACE_PROPERTIES_SCHEDULABLE_H_
