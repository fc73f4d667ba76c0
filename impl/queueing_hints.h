// The scheduler layer's QueueingHints from v1.35 on: v1.37's action bits
// (fwk.ActionType), the objects an event carries, the hint functions of
// the in-tree plugins impl's profile runs (upstream
// framework/plugins/*: NodeUnschedulable, TaintToleration, NodeAffinity,
// NodeResourcesFit; NodeName and SchedulingGates register only default
// hints), and the registrations buildQueueingHintMap makes of them.
//
// impl::BackendQueue matches events against the registrations by interned
// ids and asks a hint only for a pod some matching registration's plugin
// rejected; the scheduler evaluates it (EvaluateHint) with its cache, which
// interns the scalar resources the fit hints compare. The queue layer's
// clusterEventMap names a plugin's own function with hint "plugin"
// (PluginHintFn), evaluated with a cache of the queue's own.
//
//   std::vector<HintRegistration> regs = QueueingHintRegistrations(config, up);
//   Hint h = EvaluateHint(HintFn::kFitNodeChange, pod, objects, cache, up);
#ifndef SCHEDTRACE_IMPL_QUEUEING_HINTS_H_
#define SCHEDTRACE_IMPL_QUEUEING_HINTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/objects.h"
#include "core/trace.h"
#include "impl/cache.h"
#include "impl/upstream.h"

namespace schedtrace::impl {

// upstream: fwk.ActionType, v1.37's values: the pod update actions sit
// above the node ones, and Update and All hold every update bit (v1.35 and
// v1.36 number the pod actions lower, which no comparison the queue makes
// tells apart).
namespace action {
enum : int32_t {
  kAdd = 1,
  kDelete = 1 << 1,
  kUpdateNodeAllocatable = 1 << 2,
  kUpdateNodeLabel = 1 << 3,
  kUpdateNodeTaint = 1 << 4,
  kUpdateNodeCondition = 1 << 5,
  kUpdateNodeAnnotation = 1 << 6,
  kUpdatePodLabel = 1 << 9,
  kUpdatePodScaleDown = 1 << 10,
  kUpdatePodScaleUp = 1 << 11,
  kUpdatePodToleration = 1 << 12,
  kUpdatePodSchedulingGatesEliminated = 1 << 13,
  kAll = (1 << 15) - 1,
  kUpdate = kAll & ~(kAdd | kDelete),
};
}  // namespace action

// The bits of an action name a trace may write; 0 for another name.
int32_t ActionBits(const std::string& name);

// The objects an event carries (upstream: oldObj, newObj); null where
// upstream passes nil.
struct EventObjects {
  PodPtr old_pod;
  PodPtr new_pod;
  NodePtr old_node;
  NodePtr new_node;
};

// A plugin's QueueingHintFn for one registered event.
enum class HintFn : uint8_t {
  kDefault = 0,  // framework.defaultQueueingHintFn: always Queue
  kNodeUnschedulableNodeChange,
  kNodeUnschedulableTolerationChange,
  kTaintTolerationNodeChange,
  kNodeAffinityNodeChange,
  kFitAssignedPodDelete,
  kFitNodeChange,
  kFitAssignedPodScaleDown,
  // Before v1.37 (the plugins register resource Pod): the event is about
  // the unschedulable pod itself (TaintToleration, SchedulingGates); the
  // same, and the pod now tolerates the unschedulable taint
  // (NodeUnschedulable); NodeResourcesFit's isSchedulableAfterPodEvent.
  kTargetPodChange,
  kNodeUnschedulablePodTolerationChange,
  kFitPodEvent,
};

// What a hint function answers. kPanic: it read a field of an object the
// event does not carry (nil, which only a queue-layer move passes), and
// upstream's process dies.
enum class Hint : uint8_t { kQueue, kQueueSkip, kPanic };

// What `fn` answers for the unschedulable `pod` and the event's objects; a
// hint's error answers Queue, as isPodWorthRequeuing takes it.
Hint EvaluateHint(HintFn fn, const Pod& pod, const EventObjects& objects,
                  Cache& cache, const Upstream& up);

// The function a queue-layer clusterEventMap entry with hint "plugin"
// registers for `plugin` (docs/FORMAT.md, E14): of the plugin's
// EventsToRegister in `up`'s version, the first registration of `resource`
// whose action bits meet `bits`; with none, the default.
HintFn PluginHintFn(const std::string& plugin, const std::string& resource,
                    int32_t bits, const Upstream& up);

// One plugin's registration of one event with its hint (upstream:
// fwk.ClusterEventWithHint).
struct HintRegistration {
  std::string resource;
  int32_t bits = 0;
  std::string plugin;
  HintFn fn = HintFn::kDefault;
};

// upstream: buildQueueingHintMap over the EnqueueExtensions
// fillEnqueueExtensions collects: each plugin of `config.plugins`'
// preEnqueue, preFilter, filter, reserve and permit points once (the
// default profile's when the header names none), in-tree plugins with
// their own events and hints, any other plugin (the recorder's Trace*)
// with every event of UnrollWildCardResource and the default hint; and,
// from v1.30 to v1.36, Node UpdateNodeTaint for a plugin registering Node
// Add without it.
std::vector<HintRegistration> QueueingHintRegistrations(const Config& config,
                                                        const Upstream& up);

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_QUEUEING_HINTS_H_
