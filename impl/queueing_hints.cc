#include "impl/queueing_hints.h"

#include <algorithm>
#include <iterator>
#include <string_view>
#include <utility>

#include "impl/filters.h"

namespace schedtrace::impl {
namespace {

template <typename V>
int64_t ScalarAmount(const V& scalars, uint32_t id) {
  for (const auto& [sid, amount] : scalars) {
    if (sid == id) return amount;
  }
  return 0;
}

Hint Answer(bool queue) { return queue ? Hint::kQueue : Hint::kQueueSkip; }

// upstream: nodeunschedulable.isSchedulableAfterNodeChange: the new node
// is read only when the old one is nil or unschedulable.
Hint NodeUnschedulableAfterNodeChange(const EventObjects& o) {
  if (o.old_node != nullptr && !o.old_node->unschedulable) {
    return Hint::kQueueSkip;
  }
  if (o.new_node == nullptr) return Hint::kPanic;
  return Answer(!o.new_node->unschedulable);
}

// upstream: tainttoleration.isSchedulableAfterNodeChange: an untolerated
// NoSchedule or NoExecute taint is gone.
Hint TaintTolerationAfterNodeChange(const Pod& pod, const EventObjects& o) {
  if (o.new_node == nullptr) return Hint::kPanic;
  const bool was =
      o.old_node == nullptr || HasUntoleratedFilterTaint(pod, *o.old_node);
  return Answer(was && !HasUntoleratedFilterTaint(pod, *o.new_node));
}

// upstream: nodeaffinity.isSchedulableAfterNodeChange (no addedAffinity).
// For a nil new node, RequiredNodeAffinity.Match reads its labels for a
// nodeSelector, matches no required term (LazyErrorNodeSelector), and
// otherwise matches.
Hint NodeAffinityAfterNodeChange(const Pod& pod, const EventObjects& o) {
  if (o.new_node == nullptr) {
    if (!pod.node_selector.empty()) return Hint::kPanic;
    if (pod.required_node_affinity) return Hint::kQueueSkip;
  } else {
    const AffinityVerdict now = RequiredAffinityVerdict(pod, *o.new_node);
    if (now.error) return Hint::kQueue;
    if (!now.matched) return Hint::kQueueSkip;
  }
  if (o.old_node == nullptr) return Hint::kQueue;
  const AffinityVerdict was = RequiredAffinityVerdict(pod, *o.old_node);
  return Answer(was.error || !was.matched);
}

// upstream: noderesources.(*Fit).isSchedulableAfterNodeChange: the pod fits
// an empty NodeInfo of the new node, and (for an update) the node's pod
// count or an allocatable the pod requests grew
// (haveAnyRequestedResourcesIncreased).
// isFit answers false for a nil node.
bool FitAfterNodeChange(const Pod& pod, const EventObjects& o, Cache& cache,
                        const Upstream& up) {
  if (o.new_node == nullptr) return false;
  PodFacts pf;
  ComputePodFacts(pod, cache, pf);
  NodeFacts after;
  ComputeNodeFacts(o.new_node, cache, after);
  if (InsufficientResources(pf, after, 0, Requests{}, up)) return false;
  if (o.old_node == nullptr) return true;
  NodeFacts before;
  ComputeNodeFacts(o.old_node, cache, before);
  if (after.alloc_pods > before.alloc_pods) return true;
  const Requests& r = pf.request;
  const bool any = r.cpu != 0 || r.memory != 0 || r.ephemeral != 0 ||
                   std::any_of(r.scalars.begin(), r.scalars.end(),
                               [](const auto& e) { return e.second != 0; });
  if (!any) return false;
  if ((r.cpu > 0 && after.alloc_cpu > before.alloc_cpu) ||
      (r.memory > 0 && after.alloc_memory > before.alloc_memory) ||
      (r.ephemeral > 0 && after.alloc_ephemeral > before.alloc_ephemeral)) {
    return true;
  }
  for (const auto& [id, amount] : r.scalars) {
    if (amount == 0) continue;
    if (ScalarAmount(after.alloc_scalars, id) >
        ScalarAmount(before.alloc_scalars, id)) {
      return true;
    }
  }
  return false;
}

// upstream: noderesources.(*Fit).isSchedulableAfterAssignedPodScaleDown
// (haveEnoughRelevantResourcesDecreased): the bound pod's request of a
// resource the target requests went down (each taken as at least 0). The
// old pod is read only for a scheduled new one.
Hint FitAfterAssignedPodScaleDown(const Pod& target, const EventObjects& o,
                                  Cache& cache) {
  if (o.new_pod == nullptr) return Hint::kPanic;
  if (o.new_pod->node_name.empty()) return Hint::kQueueSkip;
  if (o.old_pod == nullptr) return Hint::kPanic;
  Requests want, before, after;
  cache.ComputeRequests(target, want);
  cache.ComputeRequests(*o.old_pod, before);
  cache.ComputeRequests(*o.new_pod, after);
  auto down = [](int64_t b, int64_t a) {
    return std::max<int64_t>(b, 0) > std::max<int64_t>(a, 0);
  };
  if ((want.cpu != 0 && down(before.cpu, after.cpu)) ||
      (want.memory != 0 && down(before.memory, after.memory)) ||
      (want.ephemeral != 0 && down(before.ephemeral, after.ephemeral))) {
    return Hint::kQueue;
  }
  for (const auto& [id, amount] : want.scalars) {
    if (amount == 0) continue;
    if (down(ScalarAmount(before.scalars, id),
             ScalarAmount(after.scalars, id))) {
      return Hint::kQueue;
    }
  }
  return Hint::kQueueSkip;
}

// The in-tree plugins' EventsToRegister of v1.35 and v1.36, which register
// resource Pod where v1.37 names AssignedPod or TargetPod (the change that
// brought target_pod_update_events), with the default gates
// (SchedulerQueueingHints, InPlacePodVerticalScaling on; DRAExtendedResource
// off in v1.35).
std::vector<HintRegistration> EventsToRegisterBeforeTargetPod(
    const std::string& plugin) {
  namespace a = action;
  using F = HintFn;
  if (plugin == "NodeUnschedulable") {
    return {{"Node", a::kAdd | a::kUpdateNodeTaint, plugin,
             F::kNodeUnschedulableNodeChange},
            {"Pod", a::kUpdatePodToleration, plugin,
             F::kNodeUnschedulablePodTolerationChange}};
  }
  if (plugin == "TaintToleration") {
    return {{"Node", a::kAdd | a::kUpdateNodeTaint, plugin,
             F::kTaintTolerationNodeChange},
            {"Pod", a::kUpdatePodToleration, plugin, F::kTargetPodChange}};
  }
  if (plugin == "NodeResourcesFit") {
    return {
        {"Pod", a::kDelete | a::kUpdatePodScaleDown, plugin, F::kFitPodEvent},
        {"Node", a::kAdd | a::kUpdateNodeAllocatable, plugin,
         F::kFitNodeChange}};
  }
  if (plugin == "SchedulingGates") {
    return {{"Pod", a::kUpdatePodSchedulingGatesEliminated, plugin,
             F::kTargetPodChange}};
  }
  return {};
}

// The in-tree plugins' EventsToRegister at v1.37.2.
std::vector<HintRegistration> EventsToRegister(const std::string& plugin,
                                               const Upstream& up) {
  namespace a = action;
  using F = HintFn;
  if (!up.target_pod_update_events) {
    std::vector<HintRegistration> before =
        EventsToRegisterBeforeTargetPod(plugin);
    if (!before.empty()) return before;
  }
  if (plugin == "NodeUnschedulable") {
    return {{"Node", a::kAdd | a::kUpdateNodeTaint, plugin,
             F::kNodeUnschedulableNodeChange},
            {"TargetPod", a::kUpdatePodToleration, plugin,
             F::kNodeUnschedulableTolerationChange}};
  }
  if (plugin == "NodeName") return {{"Node", a::kAdd, plugin, F::kDefault}};
  if (plugin == "TaintToleration") {
    return {{"Node", a::kAdd | a::kUpdateNodeTaint, plugin,
             F::kTaintTolerationNodeChange},
            {"TargetPod", a::kUpdatePodToleration, plugin, F::kDefault}};
  }
  if (plugin == "NodeAffinity") {
    return {{"Node", a::kAdd | a::kUpdateNodeLabel, plugin,
             F::kNodeAffinityNodeChange}};
  }
  if (plugin == "NodeResourcesFit") {
    return {{"AssignedPod", a::kDelete, plugin, F::kFitAssignedPodDelete},
            {"Node", a::kAdd | a::kUpdateNodeAllocatable, plugin,
             F::kFitNodeChange},
            {"DeviceClass", a::kAdd | a::kUpdate, plugin, F::kDefault},
            {"AssignedPod", a::kUpdatePodScaleDown, plugin,
             F::kFitAssignedPodScaleDown},
            {"TargetPod", a::kUpdatePodScaleDown, plugin, F::kDefault}};
  }
  if (plugin == "SchedulingGates") {
    return {{"TargetPod", a::kUpdatePodSchedulingGatesEliminated, plugin,
             F::kDefault}};
  }
  // upstream: framework.UnrollWildCardResource (a plugin without
  // EnqueueExtensions, the Trace* plugins): before v1.37 its pod resource
  // is Pod.
  std::vector<HintRegistration> all;
  if (up.target_pod_update_events) {
    for (const char* resource :
         {"AssignedPod", "UnscheduledPod", "TargetPod"}) {
      all.push_back({resource, a::kAll, plugin, F::kDefault});
    }
  } else {
    all.push_back({"Pod", a::kAll, plugin, F::kDefault});
  }
  for (const char* resource :
       {"Node", "PersistentVolume", "PersistentVolumeClaim", "CSINode",
        "CSIDriver", "CSIStorageCapacity", "StorageClass", "ResourceClaim",
        "DeviceClass"}) {
    all.push_back({resource, a::kAll, plugin, F::kDefault});
  }
  return all;
}

}  // namespace

int32_t ActionBits(const std::string& name) {
  if (name == "Add") return action::kAdd;
  if (name == "Delete") return action::kDelete;
  if (name == "UpdateNodeAllocatable") return action::kUpdateNodeAllocatable;
  if (name == "UpdateNodeLabel") return action::kUpdateNodeLabel;
  if (name == "UpdateNodeTaint") return action::kUpdateNodeTaint;
  if (name == "UpdateNodeCondition") return action::kUpdateNodeCondition;
  if (name == "UpdateNodeAnnotation") return action::kUpdateNodeAnnotation;
  if (name == "Update") return action::kUpdate;
  if (name == "All") return action::kAll;
  return 0;
}

Hint EvaluateHint(HintFn fn, const Pod& pod, const EventObjects& o,
                  Cache& cache, const Upstream& up) {
  static const Taint kUnschedulableTaint{"node.kubernetes.io/unschedulable", "",
                                         "NoSchedule"};
  switch (fn) {
    case HintFn::kDefault:
      return Hint::kQueue;
    case HintFn::kNodeUnschedulableNodeChange:
      return NodeUnschedulableAfterNodeChange(o);
    case HintFn::kNodeUnschedulableTolerationChange:
      // upstream: the pod now tolerates the unschedulable taint.
      if (o.new_pod == nullptr) return Hint::kPanic;
      return Answer(PodToleratesTaint(*o.new_pod, kUnschedulableTaint));
    case HintFn::kTaintTolerationNodeChange:
      return TaintTolerationAfterNodeChange(pod, o);
    case HintFn::kNodeAffinityNodeChange:
      return NodeAffinityAfterNodeChange(pod, o);
    case HintFn::kFitAssignedPodDelete:
      // upstream: (*Fit).isSchedulableAfterAssignedPodDelete: a pod neither
      // bound nor nominated freed nothing.
      if (o.old_pod == nullptr) return Hint::kPanic;
      return Answer(!o.old_pod->node_name.empty() ||
                    !o.old_pod->nominated_node_name.empty());
    case HintFn::kFitNodeChange:
      return Answer(FitAfterNodeChange(pod, o, cache, up));
    case HintFn::kFitAssignedPodScaleDown:
      return FitAfterAssignedPodScaleDown(pod, o, cache);
    case HintFn::kTargetPodChange:
      if (o.new_pod == nullptr) return Hint::kPanic;
      return Answer(o.new_pod->uid == pod.uid);
    case HintFn::kNodeUnschedulablePodTolerationChange:
      if (o.new_pod == nullptr) return Hint::kPanic;
      return Answer(o.new_pod->uid == pod.uid &&
                    PodToleratesTaint(*o.new_pod, kUnschedulableTaint));
    case HintFn::kFitPodEvent:
      // upstream: (*Fit).isSchedulableAfterPodEvent: a delete as
      // isSchedulableAfterAssignedPodDelete; an update of the pod itself
      // queues it, of another as isSchedulableAfterAssignedPodScaleDown.
      if (o.new_pod == nullptr) {
        return EvaluateHint(HintFn::kFitAssignedPodDelete, pod, o, cache, up);
      }
      if (o.new_pod->uid == pod.uid) return Hint::kQueue;
      return FitAfterAssignedPodScaleDown(pod, o, cache);
  }
  return Hint::kQueue;
}

HintFn PluginHintFn(const std::string& plugin, const std::string& resource,
                    int32_t bits, const Upstream& up) {
  for (const HintRegistration& r : EventsToRegister(plugin, up)) {
    if (r.resource == resource && (r.bits & bits) != 0) return r.fn;
  }
  return HintFn::kDefault;
}

std::vector<HintRegistration> QueueingHintRegistrations(const Config& config,
                                                        const Upstream& up) {
  // The default profile's plugins of those points, each once.
  static const std::vector<std::string> kDefaultProfile = {
      "SchedulingGates",   "NodeAffinity", "NodeResourcesFit",
      "NodeUnschedulable", "NodeName",     "TaintToleration",
      "TraceReserve",      "TracePermit"};
  std::vector<std::string> named;
  for (std::string_view point :
       {"preEnqueue", "preFilter", "filter", "reserve", "permit"}) {
    auto it = config.plugins.find(std::string(point));
    if (it == config.plugins.end()) continue;
    for (const std::string& p : it->second) {
      if (std::count(named.begin(), named.end(), p) == 0) named.push_back(p);
    }
  }
  std::vector<HintRegistration> out;
  for (const std::string& plugin :
       config.plugins.empty() ? kDefaultProfile : named) {
    const size_t first = out.size();
    std::vector<HintRegistration> own = EventsToRegister(plugin, up);
    out.insert(out.end(), std::make_move_iterator(own.begin()),
               std::make_move_iterator(own.end()));
    // v1.30 to v1.36 (kubernetes#122292, undone by #138708): Node
    // UpdateNodeTaint for a plugin registering Node Add without it.
    if (!up.node_add_registers_taint_update ||
        up.no_implicit_node_taint_update) {
      continue;
    }
    int32_t node_bits = 0;
    for (size_t i = first; i < out.size(); ++i) {
      if (out[i].resource == "Node") node_bits |= out[i].bits;
    }
    if ((node_bits & action::kAdd) != 0 &&
        (node_bits & action::kUpdateNodeTaint) == 0) {
      out.push_back(
          {"Node", action::kUpdateNodeTaint, plugin, HintFn::kDefault});
    }
  }
  return out;
}

}  // namespace schedtrace::impl
