#include "core/op_table.h"

#include <cstddef>

namespace schedtrace {
namespace {

constexpr uint8_t kQ = kQueueLayer;
constexpr uint8_t kC = kCacheLayer;
constexpr uint8_t kS = kSchedulerLayer;
constexpr Need kOpt = Need::kOptional;

constexpr ArgSpec kPodArg = {Arg::kPod, "pod"};
constexpr ArgSpec kOldPodArg = {Arg::kOldPod, "old"};
constexpr ArgSpec kNewPodArg = {Arg::kNewPod, "new"};
constexpr ArgSpec kNodeArg = {Arg::kNode, "node"};
constexpr ArgSpec kOldNodeArg = {Arg::kOldNode, "old"};
constexpr ArgSpec kNewNodeArg = {Arg::kNewNode, "new"};
constexpr ArgSpec kPodKeyArg = {Arg::kPodKey, "pod"};
constexpr ArgSpec kTombstoneArg = {Arg::kTombstone, "tombstone", kOpt};

// docs/FORMAT.md's op tables ("Layer queue", "Layer cache", "Layer
// scheduler"), one entry per Op in Op's order (checked below).
constexpr OpSpec kOps[] = {
    // queue layer: one PriorityQueue call each
    {Op::kQAdd, "q_add", kQ, {kPodArg}, Effect::kPuts, Delivery::kAdd},
    {Op::kQUpdate,
     "q_update",
     kQ,
     {{Arg::kOldPod, "old", Need::kNullable}, kNewPodArg},
     Effect::kPuts,
     Delivery::kUpdate},
    {Op::kQDelete,
     "q_delete",
     kQ,
     {kPodArg},
     Effect::kRemoves,
     Delivery::kDelete},
    {Op::kQPop, "q_pop", kQ, {}},
    {Op::kQAddUnschedulable,
     "q_add_unschedulable",
     kQ,
     {kPodKeyArg, {Arg::kPlugins, "plugins", kOpt}, {Arg::kCycle, "cycle"}}},
    {Op::kQActivate, "q_activate", kQ, {{Arg::kPodKeys, "pods"}}},
    {Op::kQMoveAll,
     "q_move_all",
     kQ,
     {{Arg::kMoveEvent, "event"},
      {Arg::kPrecheck, "precheck", kOpt},
      {Arg::kMoveOld, "old", kOpt},
      {Arg::kMoveNew, "new", kOpt}}},
    {Op::kQAssignedPodAdded,
     "q_assigned_pod_added",
     kQ,
     {kPodArg},
     Effect::kPuts},
    {Op::kQAssignedPodUpdated,
     "q_assigned_pod_updated",
     kQ,
     {kPodArg},
     Effect::kPuts},
    {Op::kQNominate,
     "q_nominate",
     kQ,
     {kPodArg, {Arg::kNominatedNode, "node"}}},
    // queue and scheduler layers
    {Op::kFlushBackoff, "flush_backoff", kQ | kS, {}},
    {Op::kFlushUnschedulable, "flush_unschedulable", kQ | kS, {}},
    // cache layer: one scheduler cache call each
    {Op::kCAssume, "c_assume", kC, {kPodArg}, Effect::kPuts},
    {Op::kCFinishBinding, "c_finish_binding", kC, {kPodArg}},
    {Op::kCForget, "c_forget", kC, {kPodArg}},
    {Op::kCAddPod, "c_add_pod", kC, {kPodArg}, Effect::kPuts, Delivery::kAdd},
    {Op::kCUpdatePod,
     "c_update_pod",
     kC,
     {kOldPodArg, kNewPodArg},
     Effect::kPuts,
     Delivery::kUpdate},
    {Op::kCRemovePod,
     "c_remove_pod",
     kC,
     {kPodArg},
     Effect::kRemoves,
     Delivery::kDelete},
    {Op::kCAddNode,
     "c_add_node",
     kC,
     {kNodeArg},
     Effect::kPuts,
     Delivery::kAdd},
    {Op::kCUpdateNode,
     "c_update_node",
     kC,
     {kOldNodeArg, kNewNodeArg},
     Effect::kPuts,
     Delivery::kUpdate},
    {Op::kCRemoveNode,
     "c_remove_node",
     kC,
     {kNodeArg},
     Effect::kRemoves,
     Delivery::kDelete},
    {Op::kCCleanup, "c_cleanup", kC, {}},
    // scheduler layer: informer deliveries, cycles and scripted plugins
    {Op::kPodAdd, "pod_add", kS, {kPodArg}, Effect::kPuts, Delivery::kAdd},
    {Op::kPodUpdate,
     "pod_update",
     kS,
     {kOldPodArg, kNewPodArg},
     Effect::kPuts,
     Delivery::kUpdate},
    {Op::kPodDelete,
     "pod_delete",
     kS,
     {kPodArg, kTombstoneArg},
     Effect::kRemoves,
     Delivery::kDelete},
    {Op::kNodeAdd, "node_add", kS, {kNodeArg}, Effect::kPuts, Delivery::kAdd},
    {Op::kNodeUpdate,
     "node_update",
     kS,
     {kOldNodeArg, kNewNodeArg},
     Effect::kPuts,
     Delivery::kUpdate},
    {Op::kNodeDelete,
     "node_delete",
     kS,
     {kNodeArg, kTombstoneArg},
     Effect::kRemoves,
     Delivery::kDelete},
    {Op::kClusterEvent,
     "cluster_event",
     kS,
     {{Arg::kEventResource, "resource"},
      {Arg::kEventAction, "action"},
      {Arg::kWaitForFirstConsumer, "waitForFirstConsumer", kOpt}}},
    {Op::kScheduleOne,
     "schedule_one",
     kS,
     {{Arg::kReserve, "reserve", kOpt}, {Arg::kPermit, "permit", kOpt}}},
    {Op::kPermitAllow, "permit_allow", kS, {kPodKeyArg}},
    {Op::kPermitReject, "permit_reject", kS, {kPodKeyArg}},
    {Op::kBind,
     "bind",
     kS,
     {kPodKeyArg,
      {Arg::kPreBind, "prebind", kOpt},
      {Arg::kBindResult, "bind", kOpt}}},
    // queue layer from v1.35: the scheduler's Done for a pod in flight
    {Op::kQDone, "q_done", kQ, {kPodKeyArg}},
};

// Every Op has exactly one entry, at its own index: Op's enumerators are
// 0..kOpCount-1, so an entry per index in order is one per Op.
constexpr bool InEnumOrder() {
  for (size_t i = 0; i < std::size(kOps); ++i) {
    if (static_cast<size_t>(kOps[i].op) != i) return false;
  }
  return true;
}
static_assert(std::size(kOps) == kOpCount,
              "one op table entry per Op (core/trace.h's kOpCount)");
static_assert(InEnumOrder(), "op table entries in Op's order");

// Each entry's arguments have distinct wire keys, and only pod objects may
// be nullable.
constexpr bool ArgsWellFormed() {
  for (const OpSpec& spec : kOps) {
    auto args = spec.Args();
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].need == Need::kNullable &&
          KindOf(args[i].arg) != ArgKind::kPodObject) {
        return false;
      }
      for (size_t j = i + 1; j < args.size(); ++j) {
        if (args[i].key == args[j].key || args[i].arg == args[j].arg) {
          return false;
        }
      }
    }
  }
  return true;
}
static_assert(ArgsWellFormed(), "distinct argument keys; only pods nullable");

}  // namespace

const OpSpec& SpecOf(Op op) { return kOps[static_cast<size_t>(op)]; }

std::span<const OpSpec> AllOpSpecs() { return kOps; }

const std::vector<Op>& OpsOfLayer(Layer layer) {
  static const auto* const kByLayer = [] {
    auto* by = new std::array<std::vector<Op>, 3>;
    for (const OpSpec& spec : kOps) {
      for (Layer l : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
        if (spec.InLayer(l)) (*by)[static_cast<int>(l)].push_back(spec.op);
      }
    }
    return by;
  }();
  return (*kByLayer)[static_cast<int>(layer)];
}

std::optional<Op> OpNamed(std::string_view name) {
  for (const OpSpec& spec : kOps) {
    if (spec.name == name) return spec.op;
  }
  return std::nullopt;
}

std::optional<Op> DeliveryOp(Layer layer, bool node, Delivery event) {
  for (const OpSpec& spec : kOps) {
    if (spec.delivers == event && spec.InLayer(layer) &&
        spec.HasKind(node ? ArgKind::kNodeObject : ArgKind::kPodObject)) {
      return spec.op;
    }
  }
  return std::nullopt;
}

std::optional<EventObjectKind> EventObjectKindOf(std::string_view resource) {
  if (resource == "Node") return EventObjectKind::kNode;
  if (resource == "Pod" || resource == "AssignedPod" ||
      resource == "UnscheduledPod" || resource == "TargetPod" ||
      resource == "*") {
    return EventObjectKind::kPod;
  }
  return std::nullopt;
}

PodPtr CurrentPod(const Step& step) {
  const OpSpec& spec = SpecOf(step.op);
  if (spec.Has(Arg::kNewPod)) return step.new_pod;
  if (spec.Has(Arg::kPod)) return step.pod;
  return nullptr;
}

NodePtr CurrentNode(const Step& step) {
  const OpSpec& spec = SpecOf(step.op);
  if (spec.Has(Arg::kNewNode)) return step.new_node;
  if (spec.Has(Arg::kNode)) return step.node;
  return nullptr;
}

}  // namespace schedtrace
