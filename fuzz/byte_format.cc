#include "fuzz/byte_format.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"

namespace schedtrace::fuzz {

// Record layout after [op][dt] (ArgBytes): the op table's arguments
// (harness/op_table.h) in order, each ArgWidth bytes, except that an
// update's old version comes after the new object; so for today's ops:
//   one pod         [slot][v0][v1]           q_add q_delete q_assigned_pod_*
//                                            c_* pod ops, pod_add pod_delete
//   two pods        [slot][v0][v1][old]      q_update c_update_pod pod_update
//   one node        [slot][v]                *_add_node / node_add, *_delete
//   two nodes       [slot][v][old]           c_update_node node_update
//   q_add_unschedulable [slot][plugin bits][cycle]
//   q_activate      [slot bits]     q_move_all [event][precheck bits]
//   q_nominate      [slot][node]    cluster_event [resource, action bit]
//   permit_*, bind  [slot]
// Op-byte flags (bits 4..7): the flag and outcome arguments in order
// (FlagShift): pod_delete/node_delete bit 4 tombstone;
// schedule_one bit 4 reserve error, bits 5-6 permit (allow wait reject
// wait); bind bit 4 prebind error, bit 5 bind error; pod_update bit 4 resync
// (valid mode), bit 5 binds (sets nodeName when unset); pod_add bit 5 adds an
// assigned pod. Slot byte: bits 0-2 slot (mod kPodPool); hostile mode also bits
// 3-4 the uid generation and bits 5-7 the resourceVersion (1..8).
//
// The perturbation header and each record's draw nibble: decoder_perturb.cc.

const std::array<Op, 16>& OpTable(Layer layer) {
  static const std::array<Op, 16> kQueue = {
      Op::kQAdd,
      Op::kQUpdate,
      Op::kQDelete,
      Op::kQPop,
      Op::kQAddUnschedulable,
      Op::kQActivate,
      Op::kQMoveAll,
      Op::kQAssignedPodAdded,
      Op::kQAssignedPodUpdated,
      Op::kQNominate,
      Op::kFlushBackoff,
      Op::kFlushUnschedulable,
      Op::kQPop,
      Op::kQAdd,
      Op::kQAddUnschedulable,
      Op::kQUpdate,
  };
  static const std::array<Op, 16> kCache = {
      Op::kCAssume,        Op::kCFinishBinding, Op::kCForget,
      Op::kCAddPod,        Op::kCUpdatePod,     Op::kCRemovePod,
      Op::kCAddNode,       Op::kCUpdateNode,    Op::kCRemoveNode,
      Op::kCCleanup,       Op::kCAssume,        Op::kCAddPod,
      Op::kCFinishBinding, Op::kCCleanup,       Op::kCUpdatePod,
      Op::kCRemovePod,
  };
  static const std::array<Op, 16> kScheduler = {
      Op::kPodAdd,       Op::kPodUpdate,    Op::kPodDelete,
      Op::kNodeAdd,      Op::kNodeUpdate,   Op::kNodeDelete,
      Op::kClusterEvent, Op::kFlushBackoff, Op::kFlushUnschedulable,
      Op::kScheduleOne,  Op::kPermitAllow,  Op::kPermitReject,
      Op::kBind,         Op::kScheduleOne,  Op::kPodAdd,
      Op::kPodUpdate,
  };
  switch (layer) {
    case Layer::kQueue:
      return kQueue;
    case Layer::kCache:
      return kCache;
    case Layer::kScheduler:
      break;
  }
  return kScheduler;
}

const std::array<int64_t, 16>& DeltaTable() {
  // Around 1 s (initial backoff), 2 s, 10 s (max backoff), 30 s (the TTL
  // preset) and 5 minutes (podMaxInUnschedulablePodsDuration).
  static const std::array<int64_t, 16> kDeltas = {
      1,    50,   100,  500,   999,   1000,  1001,   1999,
      2000, 4000, 9999, 10001, 30001, 60000, 299999, 300001};
  return kDeltas;
}

const std::vector<ClusterEvent>& MoveEvents() {
  static const std::vector<ClusterEvent> kEvents = {
      {"Node", "Add", "NodeAdd"},
      {"Node", "UpdateNodeLabel", "NodeLabelChange"},
      {"Node", "UpdateNodeTaint", "NodeTaintChange"},
      {"Node", "UpdateNodeAllocatable", "NodeAllocatableChange"},
      {"Node", "UpdateNodeCondition", "NodeConditionChange"},
      {"Node", "UpdateNodeTaint", "NodeSpecUnschedulableChange"},
      {"Pod", "Update", "AssignedPodUpdate"},
      {"Pod", "Delete", "AssignedPodDelete"},
      {"CSINode", "Add", "CSINodeAdd"},
      {"StorageClass", "Add", "StorageClassAdd"},
      {"PersistentVolume", "Add", "PvAdd"},
      {"PersistentVolumeClaim", "Update", "PvcUpdate"},
      {"*", "All", "UnschedulableTimeout"},
      {"*", "All", "WildCardEvent"},
      {"Pod", "Add", "AssignedPodAdd"},
      {"Node", "Delete", "NodeDelete"},
  };
  return kEvents;
}

const std::vector<std::string>& ClusterEventResources() {
  static const std::vector<std::string> kResources = {
      "PersistentVolume", "PersistentVolumeClaim", "StorageClass", "CSINode",
      "CSIDriver",        "CSIStorageCapacity"};
  return kResources;
}

const std::vector<std::string>& UnschedulablePlugins() {
  static const std::vector<std::string> kPlugins = {
      "NodeResourcesFit",  "NodeAffinity", "TaintToleration",
      "NodeUnschedulable", "NodeName",     "SchedulingGates",
      "TracePermit",       "VolumeBinding"};
  return kPlugins;
}

int ArgWidth(Op op, Arg arg) {
  switch (arg) {
    case Arg::kPod:
      // [slot][v0][v1]; q_nominate's pod is its slot byte alone (the
      // committed corpus's layout).
      return op == Op::kQNominate ? 1 : 3;
    case Arg::kNewPod:
      return 3;
    case Arg::kNode:
    case Arg::kNewNode:
      return 2;          // [slot][v]
    case Arg::kOldPod:   // [old slot] (bit 7: null), after the new pod
    case Arg::kOldNode:  // [old slot], after the new node
    case Arg::kPodKey:
    case Arg::kPodKeys:
    case Arg::kPrecheck:
    case Arg::kPlugins:
    case Arg::kCycle:
    case Arg::kMoveEvent:
    case Arg::kEventResource:
    case Arg::kNominatedNode:
      return 1;
    case Arg::kEventAction:           // bit 3 of the resource byte
    case Arg::kWaitForFirstConsumer:  // bit 4 of the resource byte
    case Arg::kTombstone:             // op-byte flags
    case Arg::kReserve:
    case Arg::kPermit:
    case Arg::kPreBind:
    case Arg::kBindResult:
      return 0;
  }
  return 0;
}

int ArgBytes(Op op) {
  static const std::array<int, kOpCount> kBytes = [] {
    std::array<int, kOpCount> bytes = {};
    for (const OpSpec& spec : AllOpSpecs()) {
      for (const ArgSpec& a : spec.Args()) {
        bytes[static_cast<int>(spec.op)] += ArgWidth(spec.op, a.arg);
      }
    }
    return bytes;
  }();
  return kBytes[static_cast<int>(op)];
}

int FlagShift(Op op, Arg arg) {
  int shift = 0;
  for (const ArgSpec& a : SpecOf(op).Args()) {
    const bool flag =
        a.arg == Arg::kTombstone || KindOf(a.arg) == ArgKind::kOutcome;
    if (!flag) continue;
    if (a.arg == arg) return shift;
    shift += a.arg == Arg::kPermit ? 2 : 1;
  }
  return -1;
}

namespace {

// What HeaderFor returns, built afresh.
TraceHeader BuildHeader(Layer layer, uint8_t b) {
  TraceHeader h;
  h.name = absl::StrCat("fuzz/", std::string(LayerName(layer)));
  h.layer = layer;
  h.upstream = "v1.26.7";
  h.source = "generated";
  h.description = "decoded from libFuzzer input (fuzz/decoder.h)";
  Config& c = h.config;
  // Scheduler-layer backoffs are whole seconds (the spec).
  static constexpr std::array<std::pair<int64_t, int64_t>, 4> kBackoff = {
      {{1000, 10000}, {1000, 2000}, {2000, 4000}, {1000, 1000}}};
  c.pod_initial_backoff_ms = kBackoff[b & 3].first;
  c.pod_max_backoff_ms = kBackoff[b & 3].second;
  c.pod_max_in_unschedulable_ms = 300000;
  c.assumed_pod_ttl_ms = (b & 4) ? 30000 : 0;
  const bool gates = (b & 8) == 0;
  c.features = {{"PodSchedulingReadiness", gates}};
  c.profiles = {"default-scheduler"};
  if (b & 16) c.profiles.push_back("other-scheduler");
  if (layer == Layer::kScheduler) {
    // The scheduler upstream's recorder runs: its clusterEventMap and
    // plugins (harness/step_source.h), without PreEnqueue when gates are off.
    const Config recorded = SchedulerHeader(h.name).config;
    c.cluster_event_map = recorded.cluster_event_map;
    c.plugins = recorded.plugins;
    c.percentage_of_nodes_to_score = recorded.percentage_of_nodes_to_score;
    if (!gates) c.plugins.erase("preEnqueue");
  } else if (layer == Layer::kQueue) {
    c.cluster_event_map = RecordedQueueEventMap();
    c.cluster_event_map.push_back(
        {"PersistentVolume", {"Add"}, {"VolumeBinding"}});
    if (gates) {
      for (const std::string& p : c.profiles) {
        c.pre_enqueue_plugins[p] = {"SchedulingGates"};
      }
    }
    c.nominator_pod_lister = "queue-ops";
  }
  return h;
}

}  // namespace

const TraceHeader& CachedHeaderFor(Layer layer, uint8_t b) {
  // BuildHeader reads bits 0-4 of the config byte only.
  constexpr int kConfigs = 32;
  struct Entry {
    std::once_flag once;
    std::optional<TraceHeader> header;
  };
  // Never destroyed: decoders of other threads may still refer to it at
  // exit.
  static auto* const table = new std::array<Entry, 3 * kConfigs>;
  Entry& e =
      (*table)[HostileLayerByte(layer) * kConfigs + (b & (kConfigs - 1))];
  std::call_once(e.once, [&] { e.header = BuildHeader(layer, b); });
  return *e.header;
}

TraceHeader HeaderFor(Layer layer, uint8_t b) {
  return CachedHeaderFor(layer, b);
}

Layer HostileLayer(uint8_t byte) {
  switch (byte % 3) {
    case 0:
      return Layer::kQueue;
    case 1:
      return Layer::kCache;
    default:
      return Layer::kScheduler;
  }
}

uint8_t HostileLayerByte(Layer layer) {
  switch (layer) {
    case Layer::kQueue:
      return 0;
    case Layer::kCache:
      return 1;
    case Layer::kScheduler:
      break;
  }
  return 2;
}

// Looked up on every step.
const std::array<std::string, kPodPool>& PodKeys() {
  static const auto* keys = [] {
    auto* k = new std::array<std::string, kPodPool>;
    for (int i = 0; i < kPodPool; ++i) {
      (*k)[i] = PodNamespace(i) + "/" + PodName(i);
    }
    return k;
  }();
  return *keys;
}

// q_add_unschedulable picks among the pods in flight in this order.
const std::array<int, kPodPool>& SlotsByKey() {
  static const std::array<int, kPodPool> kOrder = [] {
    std::array<int, kPodPool> o;
    for (int i = 0; i < kPodPool; ++i) o[i] = i;
    std::sort(o.begin(), o.end(),
              [](int a, int b) { return PodKeys()[a] < PodKeys()[b]; });
    return o;
  }();
  return kOrder;
}

int PodSlotOfKey(std::string_view key) {
  for (int i = 0; i < kPodPool; ++i) {
    if (key == PodKeys()[i]) return i;
  }
  return -1;
}

int NodeSlotOfName(const std::string& name) {
  for (int i = 0; i < kNodePool; ++i) {
    if (name.size() == 2 && name[0] == 'n' && name[1] == '0' + i) return i;
  }
  return -1;
}

std::string PodName(int slot) { return absl::StrCat("p", slot); }
std::string PodNamespace(int slot) {
  return slot % 2 == 0 ? "default" : "team";
}
std::string NodeName(int slot) { return absl::StrCat("n", slot); }

Perturbations PerturbationsOf(const PerturbLevels& levels) {
  Perturbations p;
  for (int k = 0; k < kPerturbKinds; ++k) {
    p.*kPerturbFields[k] = std::min<int>(levels[k], 15) / 16.0;
  }
  return p;
}

}  // namespace schedtrace::fuzz
