// The op table: one declaration per op of docs/FORMAT.md ("Steps" and the
// three layer tables) — its wire name, the layers it belongs to, its
// arguments in order with their kinds and wire keys, which are required,
// and what it does to the objects it carries. Everything that handles ops
// generically reads it: the codec (which members a step line must or may
// hold, core/codec.cc), its writer (core/json_codec.cc), the fuzz
// encoder and decoder (the argument bytes of a record), the generators and
// RapidCheck's model (which op delivers an object), the timeline and the
// step summary (which pods a step names), the history (which objects it
// carries). What an op *means* is not here: each system's *_system.cc
// handles it in its own switch.
//
//   const OpSpec& spec = SpecOf(step.op);
//   for (const ArgSpec& a : spec.Args()) { ... a.arg, a.key, a.need ... }
//   for (Op op : OpsOfLayer(Layer::kCache)) { ... }
//   std::optional<Op> op = OpNamed("c_assume");
//
// Adding an op: docs/ADDING-AN-OP.md.
#ifndef SCHEDTRACE_CORE_OP_TABLE_H_
#define SCHEDTRACE_CORE_OP_TABLE_H_

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/objects.h"
#include "core/trace.h"

namespace schedtrace {

// What an argument is, on the wire and in Step.
enum class ArgKind {
  kPodObject,    // a pod (docs/FORMAT.md "Objects"), or {"$ref": key}
  kNodeObject,   // a node
  kPodKey,       // "ns/name" of a pod
  kKeyList,      // a list of pod keys
  kPluginList,   // a list of plugin names
  kCycle,        // a scheduling cycle: an integer or "current"
  kEvent,        // a cluster event, or one of its members
  kNodeName,     // a node's name (may be "")
  kFlag,         // a boolean
  kOutcome,      // what a scripted plugin answers ("ok"/"error", ...)
  kEventObject,  // a pod or a node, as the step's event's resource says
};

// Every argument an op can take: which Step member(s) it fills.
enum class Arg {
  kPod,            // pod object -> Step::pod
  kOldPod,         // pod object -> Step::old_pod
  kNewPod,         // pod object -> Step::new_pod
  kNode,           // node object -> Step::node
  kOldNode,        // node object -> Step::old_node
  kNewNode,        // node object -> Step::new_node
  kPodKey,         // pod key -> Step::pod_key
  kPodKeys,        // key list -> Step::pod_keys, resolved into Step::pods
  kPrecheck,       // key list -> Step::precheck (absent: nil)
  kPlugins,        // plugin list -> Step::plugins
  kCycle,          // cycle -> Step::cycle (nullopt: "current")
  kMoveEvent,      // event {resource, action, label} -> Step::event
  kEventResource,  // event member -> Step::event.resource
  kEventAction,    // event member -> Step::event.action
  kWaitForFirstConsumer,  // flag -> Step::wait_for_first_consumer
  kNominatedNode,         // node name -> Step::nominated_node
  kTombstone,             // flag -> Step::tombstone
  kReserve,               // outcome ok/error -> Step::reserve
  kPermit,                // outcome allow/wait/reject -> Step::permit
  kPreBind,               // outcome ok/error -> Step::prebind_ok
  kBindResult,            // outcome ok/error -> Step::bind_ok
  kMoveOld,  // event object -> Step::old_pod (pod event) or old_node (Node)
  kMoveNew,  // event object -> Step::new_pod or Step::new_node
};

constexpr ArgKind KindOf(Arg arg) {
  switch (arg) {
    case Arg::kPod:
    case Arg::kOldPod:
    case Arg::kNewPod:
      return ArgKind::kPodObject;
    case Arg::kNode:
    case Arg::kOldNode:
    case Arg::kNewNode:
      return ArgKind::kNodeObject;
    case Arg::kPodKey:
      return ArgKind::kPodKey;
    case Arg::kPodKeys:
    case Arg::kPrecheck:
      return ArgKind::kKeyList;
    case Arg::kPlugins:
      return ArgKind::kPluginList;
    case Arg::kCycle:
      return ArgKind::kCycle;
    case Arg::kMoveEvent:
    case Arg::kEventResource:
    case Arg::kEventAction:
      return ArgKind::kEvent;
    case Arg::kNominatedNode:
      return ArgKind::kNodeName;
    case Arg::kWaitForFirstConsumer:
    case Arg::kTombstone:
      return ArgKind::kFlag;
    case Arg::kReserve:
    case Arg::kPermit:
    case Arg::kPreBind:
    case Arg::kBindResult:
      return ArgKind::kOutcome;
    case Arg::kMoveOld:
    case Arg::kMoveNew:
      return ArgKind::kEventObject;
  }
  return ArgKind::kFlag;
}

// Whether a step line must hold the argument.
enum class Need {
  kRequired,
  kOptional,  // absent: the default Step holds (FORMAT.md gives it)
  kNullable,  // absent or null: a nil object (q_update's `old`)
};

struct ArgSpec {
  Arg arg;
  std::string_view key;  // the step line's member
  Need need = Need::kRequired;
};

// What the op does to the object it carries, for whoever follows the latest
// object of each key or name (RapidCheck's model, the timeline).
enum class Effect {
  kNone,     // names it (or nothing) only
  kPuts,     // the object it carries (the new one of an update) is current
  kRemoves,  // the object it carries is gone
};

// The informer event an op is the layer's delivery of: the op the informer
// perturbations (run/step_source.h) send for that event. At most one op
// of a layer delivers each event of each kind of object.
enum class Delivery { kNone, kAdd, kUpdate, kDelete };

inline constexpr int kMaxArgs = 4;

// Up to kMaxArgs arguments, in the order a step line writes them.
class ArgList {
 public:
  constexpr ArgList() = default;
  constexpr ArgList(std::initializer_list<ArgSpec> args) {
    for (const ArgSpec& a : args) args_[size_++] = a;
  }
  constexpr std::span<const ArgSpec> span() const {
    return {args_.data(), static_cast<size_t>(size_)};
  }

 private:
  std::array<ArgSpec, kMaxArgs> args_ = {};
  int size_ = 0;
};

constexpr uint8_t LayerBit(Layer layer) {
  return static_cast<uint8_t>(1u << static_cast<int>(layer));
}
inline constexpr uint8_t kQueueLayer = LayerBit(Layer::kQueue);
inline constexpr uint8_t kCacheLayer = LayerBit(Layer::kCache);
inline constexpr uint8_t kSchedulerLayer = LayerBit(Layer::kScheduler);

struct OpSpec {
  Op op;
  std::string_view name;  // the step line's "op"
  uint8_t layers;         // LayerBit()s
  ArgList args;
  Effect effect = Effect::kNone;
  Delivery delivers = Delivery::kNone;

  constexpr std::span<const ArgSpec> Args() const { return args.span(); }
  constexpr bool InLayer(Layer layer) const {
    return (layers & LayerBit(layer)) != 0;
  }
  // Whether `arg` is one of the op's arguments.
  constexpr bool Has(Arg arg) const {
    for (const ArgSpec& a : Args()) {
      if (a.arg == arg) return true;
    }
    return false;
  }
  // Whether one of its arguments is of `kind`.
  constexpr bool HasKind(ArgKind kind) const {
    for (const ArgSpec& a : Args()) {
      if (KindOf(a.arg) == kind) return true;
    }
    return false;
  }
};

// The entry of `op`.
const OpSpec& SpecOf(Op op);
// Every entry, in Op's order.
std::span<const OpSpec> AllOpSpecs();
// The ops of `layer`, in Op's order (flush_* belong to queue and scheduler).
const std::vector<Op>& OpsOfLayer(Layer layer);
// The op named `name` ("q_add", ...), or nullopt.
std::optional<Op> OpNamed(std::string_view name);
// The op of `layer` delivering `event` of a pod (`node` false) or a node,
// or nullopt (the queue layer has no node ops).
std::optional<Op> DeliveryOp(Layer layer, bool node, Delivery event);

// Whether q_move_all's objects are pods (an event of Pod, AssignedPod,
// UnscheduledPod, TargetPod or the wildcard resource "*") or nodes
// ("Node"); nullopt: the event's resource carries no object a trace can
// write.
enum class EventObjectKind { kPod, kNode };
std::optional<EventObjectKind> EventObjectKindOf(std::string_view resource);

// The Step member an object argument fills (nullptr for other kinds).
constexpr PodPtr Step::*PodMember(Arg arg) {
  switch (arg) {
    case Arg::kPod:
      return &Step::pod;
    case Arg::kOldPod:
      return &Step::old_pod;
    case Arg::kNewPod:
      return &Step::new_pod;
    default:
      return nullptr;
  }
}
constexpr NodePtr Step::*NodeMember(Arg arg) {
  switch (arg) {
    case Arg::kNode:
      return &Step::node;
    case Arg::kOldNode:
      return &Step::old_node;
    case Arg::kNewNode:
      return &Step::new_node;
    default:
      return nullptr;
  }
}

// Calls `f(pod)` for each pod object `step` carries as its op's arguments,
// in argument order (old before new); a nil `old` is skipped. The codec
// records them as the latest object of their keys.
template <typename F>
void ForEachCarriedPod(const Step& step, F&& f);
// The object a step leaves current (the new one of an update, else the one
// it carries): a pod, or nullptr when its op carries none.
PodPtr CurrentPod(const Step& step);
NodePtr CurrentNode(const Step& step);

template <typename F>
void ForEachCarriedPod(const Step& step, F&& f) {
  for (const ArgSpec& a : SpecOf(step.op).Args()) {
    if (PodPtr Step::*member = PodMember(a.arg); member != nullptr) {
      if (step.*member != nullptr) f(step.*member);
    }
  }
}

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_OP_TABLE_H_
