#include "fuzz/decoder.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "harness/generator.h"
#include "harness/json_codec.h"

namespace schedtrace::fuzz {
namespace {

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
// Perturbations (decoder.h; valid mode, config bit 5). Bytes 1-4 hold a level
// nibble per kind (PerturbLevels). Each record's dt byte: bits 0-3 the clock
// delta, bits 4-7 the draw n; kind k fires when 15 - n < level[k] (so with
// probability level/16 over random draws, never at n = 0). Kinds are tried
// in turn starting at k = (record index mod 7), so that kinds at equal levels
// share the records evenly; the first that fires *and applies* (race needs a
// pod in its scheduling cycle) replaces the record, as the generators let the
// first applicable perturbation replace their step. Its argument bytes,
// whatever the op, choose: pick = arg0 + op flags (the target, modulo the
// candidates in slot order), choice = arg0 >> 3 (race deletes when choice & 3
// == 3, else updates; node_burst sends 2 + (choice & 3) updates), and arg1-arg2
// a PodVariant (race's update). With DecoderOptions::perturb the draw of kind k
// is a hash of (record index, k, op byte, dt byte) instead, one per kind.
//
// What each kind sends, per layer (queue / cache / scheduler):
//   resync          q_update / c_update_pod (added pods) / pod_update of a
//                   known pod: the latest object unchanged, same version.
//   race            an update (Mutate) of a pod in its scheduling cycle:
//                   popped and not given back / assumed / waiting on Permit
//                   or parked before PreBind; queue and scheduler delete it
//                   instead when choice says so.
//   tombstone       a delete carrying the version an update replaced (same
//                   uid, older resourceVersion; in the cache only one on the
//                   same node, as upstream exits otherwise), else the latest;
//                   pod_delete sets `tombstone`.
//   recreate        delete, then (next step) add of RecreatedPod: a new uid,
//                   unbound (the cache keeps the node: it only holds placed
//                   pods).
//   recreate_update one update from the latest to RecreatedPod.
//   node_recreate   cache and scheduler: a node (one holding pods if any)
//                   deleted, then added again with a new uid (RecreatedNode).
//   node_burst      cache and scheduler: 2-5 updates of one node changing
//                   only its resourceVersion (NoOpNodeUpdate).
// resourceVersions stay increasing (one counter for the whole input), so a
// recreated or no-op object gets the counter's next value rather than the
// helpers' "1" / "+1".

constexpr std::array<const char*, 4> kPriorities = {"", "0", "10", "100"};
constexpr std::array<const char*, 8> kCpus = {"",  "100m",  "250m", "500m",
                                              "1", "1500m", "2",    "4"};
constexpr std::array<const char*, 4> kNodeCpus = {"1", "2", "4", "500m"};

Quantity Q(const char* s) { return *ParseQuantity(s); }

int SlotOf(uint8_t b) { return (b & 7) % kPodPool; }
int NodeSlotOf(uint8_t b) { return (b & 3) % kNodePool; }

// The pool's pod keys, built once: looked up on every step.
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

// The pool's slots in the order of their keys ("default/p0",
// "default/p2", ... "team/p5"): q_add_unschedulable picks among the pods in
// flight in this order.
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

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Perturbations' fields in PerturbKind order.
constexpr std::array<double Perturbations::*, kPerturbKinds> kPerturbFields = {
    &Perturbations::resync,          &Perturbations::race,
    &Perturbations::tombstone,       &Perturbations::recreate,
    &Perturbations::recreate_update, &Perturbations::node_recreate,
    &Perturbations::node_burst};

// splitmix64's finalizer: a well-mixed 64-bit hash of `x`.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The index of the (pick mod n)-th slot below `count` satisfying `pred`, or
// -1: no container per step, the pools are tiny.
template <int kCount, typename Pred>
int Choose(uint8_t pick, Pred pred) {
  std::array<int, kCount> c;
  int n = 0;
  for (int i = 0; i < kCount; ++i) {
    if (pred(i)) c[n++] = i;
  }
  return n == 0 ? -1 : c[pick % n];
}

}  // namespace

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
    // plugins (harness/generator.h), without PreEnqueue when gates are off.
    const Config recorded = SchedulerHeader(h.name).config;
    c.cluster_event_map = recorded.cluster_event_map;
    c.plugins = recorded.plugins;
    c.percentage_of_nodes_to_score = recorded.percentage_of_nodes_to_score;
    if (!gates) c.plugins.erase("preEnqueue");
  } else if (layer == Layer::kQueue) {
    c.cluster_event_map = {
        {"Node", {"Add", "UpdateNodeTaint"}, {"NodeUnschedulable"}},
        {"Node",
         {"Add", "Update"},
         {"NodeAffinity", "NodeName", "NodeResourcesFit", "TaintToleration"}},
        {"Pod", {"Delete"}, {"NodeResourcesFit"}},
        {"Pod", {"Update"}, {"SchedulingGates"}},
        {"PersistentVolume", {"Add"}, {"VolumeBinding"}},
    };
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

std::array<uint8_t, 2> PodVariant::Pack() const {
  uint8_t b0 = (priority & 3) | (cpu & 7) << 2 | (gated ? 32 : 0) |
               (other_scheduler ? 64 : 0) | (annotated ? 128 : 0);
  uint8_t b1 = (node & 3) | (selector & 3) << 2 | (tolerates ? 16 : 0) |
               (memory ? 32 : 0) | (nominated ? 64 : 0) | (deleting ? 128 : 0);
  return {b0, b1};
}

PodVariant PodVariant::Unpack(uint8_t b0, uint8_t b1) {
  PodVariant v;
  v.priority = b0 & 3;
  v.cpu = (b0 >> 2) & 7;
  v.gated = b0 & 32;
  v.other_scheduler = b0 & 64;
  v.annotated = b0 & 128;
  v.node = b1 & 3;
  v.selector = (b1 >> 2) & 3;
  v.tolerates = b1 & 16;
  v.memory = b1 & 32;
  v.nominated = b1 & 64;
  v.deleting = b1 & 128;
  return v;
}

PodVariant PodVariant::Of(
    const Pod& pod, const std::function<int(const std::string&)>& node_slot) {
  PodVariant v;
  if (pod.priority) {
    const int32_t p = *pod.priority;
    v.priority = p <= 0 ? 1 : p <= 10 ? 2 : 3;
  }
  int64_t milli = 0;
  bool mem = false;
  for (const Container& c : pod.containers) {
    if (auto it = c.requests.find("cpu"); it != c.requests.end()) {
      milli += it->second.MilliValue();
    }
    mem = mem || c.requests.contains("memory");
  }
  static constexpr std::array<int64_t, 8> kMilli = {0,    100,  250,  500,
                                                    1000, 1500, 2000, 4000};
  for (int i = 7; i >= 0; --i) {
    if (milli >= kMilli[i]) {
      v.cpu = i;
      break;
    }
  }
  v.gated = !pod.scheduling_gates.empty();
  v.other_scheduler =
      !pod.scheduler_name.empty() && pod.scheduler_name != "default-scheduler";
  v.annotated = !pod.annotations.empty();
  auto node_index = [&](const std::string& name) {
    return name.empty() ? 0 : 1 + node_slot(name) % kNodePool;
  };
  v.node = node_index(pod.node_name);
  if (pod.required_node_affinity) {
    v.selector = 3;
  } else if (!pod.node_selector.empty()) {
    auto it = pod.node_selector.find("zone");
    v.selector = it != pod.node_selector.end() && it->second == "b" ? 2 : 1;
  }
  v.tolerates = !pod.tolerations.empty();
  v.memory = mem;
  v.nominated = !pod.nominated_node_name.empty();
  v.deleting = pod.deletion_timestamp.has_value();
  return v;
}

uint8_t NodeVariant::Pack() const {
  return (cpu & 3) | (unschedulable ? 4 : 0) | (tainted ? 8 : 0) |
         (zone_b ? 16 : 0) | (not_ready ? 32 : 0) | (few_pods ? 64 : 0) |
         (odd ? 128 : 0);
}

NodeVariant NodeVariant::Unpack(uint8_t b) {
  NodeVariant v;
  v.cpu = b & 3;
  v.unschedulable = b & 4;
  v.tainted = b & 8;
  v.zone_b = b & 16;
  v.not_ready = b & 32;
  v.few_pods = b & 64;
  v.odd = b & 128;
  return v;
}

NodeVariant NodeVariant::Of(const Node& node) {
  NodeVariant v;
  if (auto it = node.allocatable.find("cpu"); it != node.allocatable.end()) {
    const int64_t m = it->second.MilliValue();
    v.cpu = m < 1000 ? 3 : m < 2000 ? 0 : m < 4000 ? 1 : 2;
  }
  v.unschedulable = node.unschedulable;
  v.tainted = !node.taints.empty();
  auto zone = node.labels.find("zone");
  v.zone_b = zone != node.labels.end() && zone->second == "b";
  for (const NodeCondition& c : node.conditions) {
    if (c.type == "Ready" && c.status != "True") v.not_ready = true;
  }
  if (auto it = node.allocatable.find("pods"); it != node.allocatable.end()) {
    v.few_pods = it->second.Value() <= 2;
  }
  if (v.tainted) {
    v.odd = node.taints.front().effect == "PreferNoSchedule";
  } else if (auto it = node.labels.find("schedtrace.io/score");
             it != node.labels.end()) {
    int64_t score = 0;
    v.odd = absl::SimpleAtoi(it->second, &score) && (score < 0 || score > 100);
  }
  return v;
}

std::string PodName(int slot) { return absl::StrCat("p", slot); }
std::string PodNamespace(int slot) {
  return slot % 2 == 0 ? "default" : "team";
}
std::string NodeName(int slot) { return absl::StrCat("n", slot); }

std::string_view PerturbKindName(PerturbKind kind) {
  static constexpr std::array<std::string_view, kPerturbKinds> kNames = {
      "resync",          "race",          "tombstone", "recreate",
      "recreate_update", "node_recreate", "node_burst"};
  return kNames[static_cast<int>(kind)];
}

Perturbations PerturbationsOf(const PerturbLevels& levels) {
  Perturbations p;
  for (int k = 0; k < kPerturbKinds; ++k) {
    p.*kPerturbFields[k] = std::min<int>(levels[k], 15) / 16.0;
  }
  return p;
}

Decoder::Decoder(Layer layer, Mode mode, std::string_view data,
                 const DecoderOptions& options)
    : layer_(layer), mode_(mode), data_(data) {
  const uint8_t config = Byte();
  header_ = &CachedHeaderFor(layer, config);
  PerturbLevels levels = {};
  if (config & kPerturbHeaderBit) {
    // Read in every mode, so that a record starts at the same byte whatever
    // the mode and the options.
    for (int i = 0; i < kPerturbHeaderBytes; ++i) {
      const uint8_t b = Byte();
      if (2 * i < kPerturbKinds) levels[2 * i] = b & 15;
      if (2 * i + 1 < kPerturbKinds) levels[2 * i + 1] = b >> 4;
    }
  }
  if (mode_ != Mode::kValid) return;  // hostile input needs no help
  forced_ = options.perturb.has_value();
  perturb_ = forced_ ? *options.perturb : PerturbationsOf(levels);
  std::string spec;
  for (int k = 0; k < kPerturbKinds; ++k) {
    const double p = std::clamp(perturb_.*kPerturbFields[k], 0.0, 1.0);
    // A forced probability too small for 1/65536 still fires sometimes: it
    // was asked for.
    threshold_[k] = forced_
                        ? (p > 0 ? std::max<uint32_t>(1, p * 65536 + 0.5) : 0)
                        : uint32_t{levels[k]} * 4096;
    // The queue layer sees no nodes: a node kind never applies there, so it
    // is off (and the trace does not claim it).
    if (layer_ == Layer::kQueue &&
        k >= static_cast<int>(PerturbKind::kNodeRecreate)) {
      threshold_[k] = 0;
      perturb_.*kPerturbFields[k] = 0;
    }
    if (threshold_[k] == 0) continue;
    perturbing_ = true;
    absl::StrAppend(&spec, spec.empty() ? "" : ",",
                    std::string(PerturbKindName(static_cast<PerturbKind>(k))),
                    ":", p);
  }
  // The decoded trace says how it was perturbed (the --perturb spelling):
  // its own header, the cached one stays as it is.
  if (perturbing_) {
    auto own = std::make_shared<TraceHeader>(*header_);
    absl::StrAppend(&own->description, "; perturb ", spec);
    header_ = own.get();
    own_header_ = std::move(own);
  }
}

uint8_t Decoder::Byte() {
  return pos_ < data_.size() ? static_cast<uint8_t>(data_[pos_++]) : 0;
}

std::shared_ptr<Pod> Decoder::BuildPod(int slot, const PodVariant& v,
                                       std::string uid, std::string rv,
                                       std::string node_name) const {
  // Built in place (emplace rather than initializer lists, which copy):
  // this runs on most steps.
  auto p = std::make_shared<Pod>();
  p->namespace_ = PodNamespace(slot);
  p->name = PodName(slot);
  p->uid = std::move(uid);
  p->resource_version = std::move(rv);
  p->labels.emplace("app", slot < 3 ? "web" : "db");
  if (v.annotated) p->annotations.emplace("fuzz", "1");
  if (v.deleting) p->deletion_timestamp = "2026-01-01T00:00:00Z";
  p->scheduler_name =
      v.other_scheduler ? "other-scheduler" : "default-scheduler";
  if (v.priority != 0) p->priority = std::stoi(kPriorities[v.priority]);
  p->node_name = std::move(node_name);
  Container& c = p->containers.emplace_back();
  c.name = "c";
  c.image = "img";
  if (v.cpu != 0) c.requests.emplace("cpu", Q(kCpus[v.cpu]));
  if (v.memory) c.requests.emplace("memory", Q("1Gi"));
  if (v.node != 0) {
    const std::string node = NodeName((v.node - 1) % kNodePool);
    if (v.nominated) p->nominated_node_name = node;
  } else if (v.nominated) {
    p->nominated_node_name = NodeName(0);
  }
  switch (v.selector) {
    case 1:
      p->node_selector.emplace("zone", "a");
      break;
    case 2:
      p->node_selector.emplace("zone", "b");
      break;
    case 3: {
      NodeSelectorRequirement& r = p->required_node_affinity.emplace()
                                       .emplace_back()
                                       .match_expressions.emplace_back();
      r.key = "zone";
      r.op = "In";
      r.values.emplace_back("a");
      break;
    }
    default:
      break;
  }
  if (v.tolerates) {
    p->tolerations.push_back({"dedicated", "Exists", "", "NoSchedule", {}});
  }
  if (v.gated) p->scheduling_gates.emplace_back("example.com/wait");
  return p;
}

NodePtr Decoder::BuildNode(int slot, const NodeVariant& v, int rv) const {
  auto n = std::make_shared<Node>();
  n->name = NodeName(slot);
  // A node_recreate gave the node a new uid; its updates keep it.
  n->uid = node_uid_[slot].empty() ? absl::StrCat("uid-node-", n->name)
                                   : node_uid_[slot];
  n->resource_version = absl::StrCat(rv);
  n->labels.emplace("zone", v.zone_b ? "b" : "a");
  n->labels.emplace("schedtrace.io/score",
                    absl::StrCat(v.odd && !v.tainted ? 101 + slot : slot + 1));
  n->allocatable.emplace("cpu", Q(kNodeCpus[v.cpu]));
  n->allocatable.emplace("memory", Q("8Gi"));
  n->allocatable.emplace("pods", Q(v.few_pods ? "1" : "110"));
  n->unschedulable = v.unschedulable;
  if (v.tainted) {
    n->taints.push_back(
        {"dedicated", "x", v.odd ? "PreferNoSchedule" : "NoSchedule"});
  }
  n->conditions.push_back({"Ready", v.not_ready ? "False" : "True"});
  return n;
}

PodPtr Decoder::Fresh(int slot, const PodVariant& v, bool assigned) {
  Slot& s = slots_[slot];
  PodVariant w = v;
  w.deleting = false;
  return BuildPod(slot, w,
                  absl::StrCat("uid-", PodNamespace(slot), "-", PodName(slot),
                               "-", ++s.incarnation),
                  Rv(),
                  assigned ? NodeName(v.node != 0 ? (v.node - 1) % kNodePool
                                                  : slot % kNodePool)
                           : "");
}

PodPtr Decoder::Mutate(const Pod& old, const PodVariant& v, bool keep_node) {
  // Only what the apiserver lets change: labels/annotations, tolerations
  // (added), gates (removed), nodeName (set once, by binding), status,
  // deletionTimestamp (set once).
  auto p = std::make_shared<Pod>(old);
  p->resource_version = Rv();
  // Exactly {fuzz: 1} when annotated, else none (kept when it already is).
  const bool fuzz_only = p->annotations.size() == 1 &&
                         p->annotations.begin()->first == "fuzz" &&
                         p->annotations.begin()->second == "1";
  if (!v.annotated) {
    p->annotations.clear();
  } else if (!fuzz_only) {
    p->annotations.clear();
    p->annotations.emplace("fuzz", "1");
  }
  if (v.tolerates && p->tolerations.empty()) {
    p->tolerations.push_back({"dedicated", "Exists", "", "NoSchedule", {}});
  }
  if (!v.gated) p->scheduling_gates.clear();
  if (!keep_node && p->node_name.empty() && v.node != 0) {
    p->node_name = NodeName((v.node - 1) % kNodePool);
  }
  p->nominated_node_name.clear();
  if (v.nominated) {
    p->nominated_node_name =
        NodeName(v.node != 0 ? (v.node - 1) % kNodePool : 0);
  }
  if (v.deleting && !p->deletion_timestamp) {
    p->deletion_timestamp = "2026-01-01T00:00:00Z";
  }
  return p;
}

PodPtr Decoder::HostilePod(uint8_t slot_byte, const PodVariant& v) {
  const int slot = SlotOf(slot_byte);
  return BuildPod(slot, v,
                  absl::StrCat("uid-", PodNamespace(slot), "-", PodName(slot),
                               "-", (slot_byte >> 3) & 3),
                  absl::StrCat(((slot_byte >> 5) & 7) + 1),
                  v.node != 0 ? NodeName((v.node - 1) % kNodePool) : "");
}

PodPtr Decoder::LatestOrStub(int slot) const {
  if (slots_[slot].latest) return slots_[slot].latest;
  auto p = std::make_shared<Pod>();
  p->namespace_ = PodNamespace(slot);
  p->name = PodName(slot);
  return p;
}

std::optional<Step> Decoder::Next() {
  if (steps_ >= kMaxSteps) return std::nullopt;
  Step step;
  if (pending_head_ < pending_.size()) {
    // A perturbation's later step: no bytes, 1 ms after the one before (t
    // stays strictly increasing, as exact traces want).
    step = std::move(pending_[pending_head_++]);
    if (pending_head_ == pending_.size()) {
      pending_.clear();  // keeps its capacity: no allocation next time
      pending_head_ = 0;
    }
    step.t = ++t_;
  } else {
    if (pos_ >= data_.size()) return std::nullopt;
    const uint8_t op_byte = Byte();
    const uint8_t dt_byte = Byte();
    step.op = OpTable(layer_)[op_byte & 15];
    t_ += DeltaTable()[dt_byte & 15];
    step.t = t_;
    // Arguments are read for the op as written, before validity may turn it
    // into another, so a record's length never depends on the state.
    std::array<uint8_t, 4> a = {0, 0, 0, 0};
    for (int i = 0; i < ArgBytes(step.op); ++i) a[i] = Byte();
    const uint8_t flags = op_byte >> 4;
    last_perturbation_.reset();
    if (!perturbing_ || !Perturb(step, op_byte, dt_byte, a.data())) {
      switch (layer_) {
        case Layer::kQueue:
          DecodeQueue(step, flags, a.data());
          break;
        case Layer::kCache:
          DecodeCache(step, flags, a.data());
          break;
        case Layer::kScheduler:
          DecodeScheduler(step, flags, a.data());
          break;
      }
    }
    ++records_;
  }
  // The version an update replaced, while the same incarnation lives: what a
  // tombstone may carry stale. Not a resync (the same object).
  if (perturbing_ && step.old_pod && step.new_pod &&
      step.old_pod != step.new_pod && step.old_pod->uid == step.new_pod->uid) {
    const int slot = PodSlotOfKey(step.new_pod->Key());
    if (slot >= 0) slots_[slot].prev = step.old_pod;
  }
  // What the codec would remember as "the latest carried" (old, then new).
  for (const PodPtr* p : {&step.pod, &step.old_pod, &step.new_pod}) {
    if (*p == nullptr) continue;
    const int slot = PodSlotOfKey((*p)->Key());
    if (slot >= 0) slots_[slot].latest = *p;
  }
  ++steps_;
  return step;
}

void Decoder::DecodePlainArgs(Step& step, uint8_t flags,
                              const uint8_t* a) const {
  // Objects first, old versions last (the record layout above).
  int at = 0;
  int event_byte = 0;
  for (const ArgSpec& spec : SpecOf(step.op).Args()) {
    const bool old = spec.arg == Arg::kOldPod || spec.arg == Arg::kOldNode;
    const uint8_t b = old || at >= 4 ? 0 : a[at];
    if (!old) at += ArgWidth(step.op, spec.arg);
    if (const int shift = FlagShift(step.op, spec.arg); shift >= 0) {
      const int bits = (flags >> shift) & (spec.arg == Arg::kPermit ? 3 : 1);
      switch (spec.arg) {
        case Arg::kTombstone:
          step.tombstone = bits;
          break;
        case Arg::kReserve:
          step.reserve = bits ? ReserveOutcome::kError : ReserveOutcome::kOk;
          break;
        case Arg::kPermit: {
          static constexpr std::array<PermitOutcome, 4> kPermit = {
              PermitOutcome::kAllow, PermitOutcome::kWait,
              PermitOutcome::kReject, PermitOutcome::kWait};
          step.permit = kPermit[bits];
          break;
        }
        case Arg::kPreBind:
          step.prebind_ok = !bits;
          break;
        case Arg::kBindResult:
          step.bind_ok = !bits;
          break;
        default:
          break;
      }
      continue;
    }
    switch (spec.arg) {
      case Arg::kPodKey:
        step.pod_key = PodKeys()[SlotOf(b)];
        break;
      case Arg::kPlugins:
        step.plugins.reserve(std::popcount(b));
        for (size_t i = 0; i < UnschedulablePlugins().size(); ++i) {
          if (b & (1u << i)) step.plugins.push_back(UnschedulablePlugins()[i]);
        }
        break;
      case Arg::kCycle:
        if (b & 1) step.cycle = static_cast<int64_t>(b >> 1);
        break;
      case Arg::kPodKeys: {
        const uint8_t slots = b & ((1u << kPodPool) - 1);
        step.pod_keys.reserve(std::popcount(slots));
        step.pods.reserve(std::popcount(slots));
        for (int i = 0; i < kPodPool; ++i) {
          if (slots & (1u << i)) {
            step.pod_keys.push_back(PodKeys()[i]);
            step.pods.push_back(LatestOrStub(i));
          }
        }
        break;
      }
      case Arg::kMoveEvent:
        step.event = MoveEvents()[b % MoveEvents().size()];
        break;
      case Arg::kPrecheck:
        if (b & 128) {
          const uint8_t slots = b & ((1u << kPodPool) - 1);
          std::vector<std::string>& keys = step.precheck.emplace();
          keys.reserve(std::popcount(slots));
          for (int i = 0; i < kPodPool; ++i) {
            if (slots & (1u << i)) keys.push_back(PodKeys()[i]);
          }
        }
        break;
      case Arg::kNominatedNode:
        step.nominated_node = (b & 3) == 3 ? "" : NodeName((b & 3) % kNodePool);
        break;
      case Arg::kEventResource: {
        const auto& rs = ClusterEventResources();
        step.event.resource = rs[(b & 7) % rs.size()];
        event_byte = b;
        break;
      }
      case Arg::kEventAction:
        step.event.action = (event_byte & 8) ? "Update" : "Add";
        break;
      case Arg::kWaitForFirstConsumer:
        // Upstream moves pods on it only for a StorageClass Add.
        if (step.event.resource == "StorageClass" &&
            step.event.action == "Add") {
          step.wait_for_first_consumer = event_byte & 16;
        }
        break;
      default:  // objects: the layer's own decoding
        break;
    }
  }
}

void Decoder::DecodeQueue(Step& step, uint8_t flags, const uint8_t* a) {
  const bool valid = mode_ == Mode::kValid;
  const int slot = SlotOf(a[0]);
  const PodVariant v = PodVariant::Unpack(a[1], a[2]);
  Slot& s = slots_[slot];
  if (valid) {
    // The nearest valid op.
    if (step.op == Op::kQAdd && s.live) step.op = Op::kQUpdate;
    if (step.op == Op::kQUpdate && !s.live) step.op = Op::kQAdd;
    if (step.op == Op::kQDelete && !s.live) step.op = Op::kQPop;
    // An assigned pod is another incarnation, never the pending one.
    if ((step.op == Op::kQAssignedPodAdded ||
         step.op == Op::kQAssignedPodUpdated) &&
        s.live) {
      step.op = Op::kQUpdate;
    }
    if (step.op == Op::kQAddUnschedulable && in_flight_ == 0) {
      step.op = Op::kQPop;
    }
  }
  DecodePlainArgs(step, flags, a);
  switch (step.op) {
    case Op::kQAdd:
      if (valid) {
        step.pod = Fresh(slot, v, /*assigned=*/false);
        s.live = true;
      } else {
        step.pod = HostilePod(a[0], v);
      }
      break;
    case Op::kQUpdate:
      if (valid) {
        // Never a null old: the scheduler never calls Update(nil, pod), and
        // upstream panics on it for a queued pod (hostile mode sends it).
        step.old_pod = s.latest;
        step.new_pod = Mutate(*s.latest, v, /*keep_node=*/true);
      } else {
        // Any version of the same pod (a stale uid or resourceVersion), or
        // null: an update never names two pods (CheckUpdateNamesOneObject).
        step.old_pod = (a[3] & 128) ? nullptr : LatestOrStub(SlotOf(a[0]));
        step.new_pod = HostilePod(a[0], v);
      }
      break;
    case Op::kQDelete:
      step.pod = valid ? s.latest : HostilePod(a[0], v);
      if (valid) s.live = false;
      break;
    case Op::kQAddUnschedulable:
      if (valid) {
        // The (a[0] mod n)-th of the n pods in flight, in key order.
        int k = a[0] % std::popcount(in_flight_);
        for (int i : SlotsByKey()) {
          if ((in_flight_ >> i & 1) && k-- == 0) {
            step.pod_key = PodKeys()[i];
            break;
          }
        }
        // A cycle given: the current one or the one before.
        if (a[2] & 1) {
          step.cycle = std::max(0, successful_pops_ - ((a[2] >> 1) & 1));
        }
      }
      break;
    case Op::kQAssignedPodAdded:
    case Op::kQAssignedPodUpdated: {
      // An assigned pod: in valid mode a slot not pending in the queue; an
      // update keeps the assigned incarnation, an add makes a new one.
      if (valid) {
        const bool same = step.op == Op::kQAssignedPodUpdated && s.latest &&
                          !s.latest->node_name.empty();
        step.pod = same ? Mutate(*s.latest, v, /*keep_node=*/true)
                        : Fresh(slot, v, /*assigned=*/true);
      } else {
        step.pod = HostilePod(a[0], v);
      }
      break;
    }
    case Op::kQNominate:
      step.pod = valid ? LatestOrStub(slot) : HostilePod(a[0], v);
      break;
    default:
      break;
  }
}

void Decoder::DecodeNodeOp(Step& step, const uint8_t* a) {
  const bool valid = mode_ == Mode::kValid;
  const int slot = NodeSlotOf(a[0]);
  const NodeVariant v = NodeVariant::Unpack(a[1]);
  const bool is_add = step.op == Op::kNodeAdd || step.op == Op::kCAddNode;
  const bool is_update =
      step.op == Op::kNodeUpdate || step.op == Op::kCUpdateNode;
  const bool sched = layer_ == Layer::kScheduler;
  if (valid) {
    if (is_add && nodes_[slot]) {
      step.op = sched ? Op::kNodeUpdate : Op::kCUpdateNode;
    } else if (!is_add && !nodes_[slot]) {
      step.op = sched ? Op::kNodeAdd : Op::kCAddNode;
    }
  }
  // Every record takes a resourceVersion, but a valid delete carries the
  // live node: no new version is built for it.
  const int rv = static_cast<int>(++rv_);
  const bool is_delete =
      step.op == Op::kNodeDelete || step.op == Op::kCRemoveNode;
  NodePtr built = valid && is_delete ? nullptr : BuildNode(slot, v, rv);
  switch (step.op) {
    case Op::kNodeAdd:
    case Op::kCAddNode:
      step.node = built;
      nodes_[slot] = built;
      break;
    case Op::kNodeUpdate:
    case Op::kCUpdateNode: {
      if (valid) {
        step.old_node = nodes_[slot];
      } else {
        // A stale version of the same node: an update never names two.
        step.old_node = last_nodes_[slot]
                            ? last_nodes_[slot]
                            : BuildNode(slot, NodeVariant::Unpack(a[2]), 0);
      }
      step.new_node = built;
      nodes_[slot] = built;
      break;
    }
    default:  // deletes
      step.node = valid ? nodes_[slot] : built;
      nodes_[slot] = nullptr;
      break;
  }
  (void)is_update;
  if (step.node) last_nodes_[NodeSlotOf(a[0])] = step.node;
  if (step.new_node) last_nodes_[slot] = step.new_node;
}

void Decoder::DecodeCache(Step& step, uint8_t flags, const uint8_t* a) {
  (void)flags;
  switch (step.op) {
    case Op::kCAddNode:
    case Op::kCUpdateNode:
    case Op::kCRemoveNode:
      DecodeNodeOp(step, a);
      return;
    case Op::kCCleanup:
      return;
    default:
      break;
  }
  const int slot = SlotOf(a[0]);
  PodVariant v = PodVariant::Unpack(a[1], a[2]);
  if (v.node == 0) v.node = 1 + slot % kNodePool;  // cache pods are placed
  Slot& s = slots_[slot];
  if (mode_ == Mode::kHostile) {
    if (step.op == Op::kCUpdatePod) {
      step.old_pod = LatestOrStub(slot);
      step.new_pod = HostilePod(a[0], v);
    } else {
      step.pod = HostilePod(a[0], v);
    }
    return;
  }
  // Valid: the calls a scheduler and its informer make, in the order they
  // can make them: assume -> finish binding -> (add | forget), add ->
  // update* -> remove.
  using CS = CacheStatus;
  const CS st = s.cache;
  Op op = step.op;
  switch (op) {
    case Op::kCAssume:
      if (st == CS::kAssumed) op = Op::kCFinishBinding;
      if (st == CS::kAdded) op = Op::kCUpdatePod;
      break;
    case Op::kCFinishBinding:
    case Op::kCForget:
      if (st == CS::kNone) op = Op::kCAssume;
      if (st == CS::kAdded) op = Op::kCRemovePod;
      break;
    case Op::kCAddPod:
      if (st == CS::kAdded) op = Op::kCUpdatePod;
      break;
    case Op::kCUpdatePod:
      if (st != CS::kAdded) op = Op::kCAddPod;
      break;
    case Op::kCRemovePod:
      if (st == CS::kNone) op = Op::kCAddPod;
      if (st == CS::kAssumed) op = Op::kCForget;
      break;
    default:
      break;
  }
  step.op = op;
  switch (op) {
    case Op::kCAssume:
      step.pod = Fresh(slot, v, /*assigned=*/true);
      s.cache = CS::kAssumed;
      break;
    case Op::kCFinishBinding:
      step.pod = s.latest;
      break;
    case Op::kCForget:
      step.pod = s.latest;
      s.cache = CS::kNone;
      break;
    case Op::kCAddPod:
      if (st == CS::kAssumed) {
        // The informer confirms the assumed pod, maybe on another node.
        auto p = std::make_shared<Pod>(*s.latest);
        p->resource_version = Rv();
        p->node_name = NodeName((v.node - 1) % kNodePool);
        step.pod = p;
      } else {
        step.pod = Fresh(slot, v, /*assigned=*/true);
      }
      s.cache = CS::kAdded;
      break;
    case Op::kCUpdatePod:
      step.old_pod = s.latest;
      step.new_pod = Mutate(*s.latest, v, /*keep_node=*/true);
      break;
    case Op::kCRemovePod:
      step.pod = s.latest;
      s.cache = CS::kNone;
      break;
    default:
      break;
  }
}

void Decoder::DecodeScheduler(Step& step, uint8_t flags, const uint8_t* a) {
  const bool valid = mode_ == Mode::kValid;
  switch (step.op) {
    case Op::kNodeAdd:
    case Op::kNodeUpdate:
    case Op::kNodeDelete:
      DecodeNodeOp(step, a);
      DecodePlainArgs(step, flags, a);  // as the valid op reads them
      return;
    case Op::kPermitAllow:
    case Op::kPermitReject:
    case Op::kBind: {
      DecodePlainArgs(step, flags, a);
      // Valid mode aims at a pod waiting on Permit (or parked) when any is.
      const std::vector<std::string>& aim =
          step.op == Op::kBind ? parked_ : waiting_;
      if (valid && !aim.empty()) step.pod_key = aim[a[0] % aim.size()];
      return;
    }
    default:
      if (!SpecOf(step.op).HasKind(ArgKind::kPodObject)) {
        // cluster_event, schedule_one, flush_*: arguments only.
        DecodePlainArgs(step, flags, a);
        return;
      }
      break;
  }
  const int slot = SlotOf(a[0]);
  const PodVariant v = PodVariant::Unpack(a[1], a[2]);
  Slot& s = slots_[slot];
  if (!valid) {
    if (step.op == Op::kPodUpdate) {
      step.old_pod = LatestOrStub(slot);
      step.new_pod = HostilePod(a[0], v);
    } else {
      step.pod = HostilePod(a[0], v);
    }
    DecodePlainArgs(step, flags, a);
    return;
  }
  if (step.op == Op::kPodAdd && s.live) step.op = Op::kPodUpdate;
  if (step.op != Op::kPodAdd && !s.live) step.op = Op::kPodAdd;
  switch (step.op) {
    case Op::kPodAdd:
      step.pod = Fresh(slot, v, /*assigned=*/flags & 2);
      s.live = true;
      break;
    case Op::kPodUpdate:
      step.old_pod = s.latest;
      if (flags & 1) {
        step.new_pod = s.latest;  // a resync: same object, same version
      } else {
        step.new_pod = Mutate(*s.latest, v, /*keep_node=*/!(flags & 2));
      }
      break;
    case Op::kPodDelete:
      step.pod = s.latest;
      s.live = false;
      break;
    default:
      break;
  }
  DecodePlainArgs(step, flags, a);
}

bool Decoder::Fires(int k, uint8_t op_byte, uint8_t dt_byte) const {
  uint32_t draw;
  if (forced_) {
    draw = static_cast<uint32_t>(Mix(static_cast<uint64_t>(records_) << 24 |
                                     static_cast<uint64_t>(k) << 16 |
                                     uint64_t{op_byte} << 8 | dt_byte) &
                                 0xffff);
  } else {
    draw = (15u - (dt_byte >> 4)) * 4096u;
  }
  return draw < threshold_[k];
}

bool Decoder::Perturb(Step& step, uint8_t op_byte, uint8_t dt_byte,
                      const uint8_t* a) {
  const uint8_t pick = static_cast<uint8_t>(a[0] + (op_byte >> 4));
  const uint8_t choice = a[0] >> 3;
  const PodVariant v = PodVariant::Unpack(a[1], a[2]);
  for (int j = 0; j < kPerturbKinds; ++j) {
    const int k = (records_ + j) % kPerturbKinds;
    if (threshold_[k] == 0 || !Fires(k, op_byte, dt_byte)) continue;
    const auto kind = static_cast<PerturbKind>(k);
    const bool applied =
        kind == PerturbKind::kNodeRecreate || kind == PerturbKind::kNodeBurst
            ? PerturbNode(kind, step, pick, choice)
            : PerturbPod(kind, step, pick, choice, v);
    if (applied) {
      last_perturbation_ = kind;
      return true;
    }
  }
  return false;
}

PodPtr Decoder::Stale(int slot) const {
  const Slot& s = slots_[slot];
  if (!s.prev || !s.latest || s.prev == s.latest ||
      s.prev->uid != s.latest->uid) {
    return nullptr;
  }
  // Upstream's RemovePod exits when the object names another node than the
  // cached pod: an informer never delivers that (nodeName is set once), and
  // the cache's "previous" may be the assumed copy of another node.
  if (layer_ == Layer::kCache && s.prev->node_name != s.latest->node_name) {
    return nullptr;
  }
  return s.prev;
}

PodPtr Decoder::Recreated(int slot) {
  Slot& s = slots_[slot];
  auto p =
      std::const_pointer_cast<Pod>(RecreatedPod(*s.latest, ++s.incarnation));
  p->resource_version = Rv();
  // Cache-layer pods are placed ones (the informer adds bound pods only).
  if (layer_ == Layer::kCache) p->node_name = s.latest->node_name;
  return p;
}

bool Decoder::PerturbPod(PerturbKind kind, Step& step, uint8_t pick,
                         uint8_t choice, const PodVariant& v) {
  const bool cache = layer_ == Layer::kCache;
  Op add = Op::kPodAdd, update = Op::kPodUpdate, remove = Op::kPodDelete;
  if (layer_ == Layer::kQueue) {
    add = Op::kQAdd;
    update = Op::kQUpdate;
    remove = Op::kQDelete;
  } else if (cache) {
    add = Op::kCAddPod;
    update = Op::kCUpdatePod;
    remove = Op::kCRemovePod;
  }
  // Known to the informer: the pods it can resync, delete or re-create.
  auto known = [&](int i) {
    return cache ? slots_[i].cache == CacheStatus::kAdded : slots_[i].live;
  };
  // In the middle of a scheduling cycle (feedback from the reference).
  auto busy = [&](int i) {
    switch (layer_) {
      case Layer::kQueue:
        return slots_[i].live && (in_flight_ >> i & 1);
      case Layer::kCache:
        return slots_[i].cache == CacheStatus::kAssumed;
      case Layer::kScheduler:
        break;
    }
    return slots_[i].live && (Contains(waiting_, PodKeys()[i]) ||
                              Contains(parked_, PodKeys()[i]));
  };
  auto gone = [&](Slot& s) {
    if (cache) {
      s.cache = CacheStatus::kNone;
    } else {
      s.live = false;
    }
  };
  int i = -1;
  switch (kind) {
    case PerturbKind::kRace:
      i = Choose<kPodPool>(pick, busy);
      break;
    case PerturbKind::kTombstone:
      // Rather a pod that has a stale version to carry.
      i = Choose<kPodPool>(pick, [&](int j) { return known(j) && Stale(j); });
      if (i < 0) i = Choose<kPodPool>(pick, known);
      break;
    default:
      i = Choose<kPodPool>(pick, known);
      break;
  }
  if (i < 0) return false;
  Slot& s = slots_[i];
  switch (kind) {
    case PerturbKind::kResync:
      step.op = update;
      step.old_pod = step.new_pod = s.latest;
      return true;
    case PerturbKind::kRace:
      // The cache has no delete here: the generator's cache race is an
      // informer update of an assumed pod (upstream refuses it).
      if (!cache && (choice & 3) == 3) {
        step.op = remove;
        step.pod = s.latest;
        gone(s);
        return true;
      }
      step.op = update;
      step.old_pod = s.latest;
      step.new_pod = Mutate(*s.latest, v, /*keep_node=*/true);
      return true;
    case PerturbKind::kTombstone: {
      PodPtr stale = Stale(i);
      step.op = remove;
      step.pod = stale ? stale : s.latest;
      step.tombstone = layer_ == Layer::kScheduler;
      gone(s);
      return true;
    }
    case PerturbKind::kRecreate: {
      step.op = remove;
      step.pod = s.latest;
      Step again;
      again.op = add;
      again.pod = Recreated(i);
      Push(std::move(again));
      // The slot as both steps leave it (live, or added in the cache).
      return true;
    }
    case PerturbKind::kRecreateUpdate:
      step.op = update;
      step.old_pod = s.latest;
      step.new_pod = Recreated(i);
      return true;
    default:
      return false;
  }
}

bool Decoder::PerturbNode(PerturbKind kind, Step& step, uint8_t pick,
                          uint8_t choice) {
  if (layer_ == Layer::kQueue) return false;  // the queue sees no nodes
  const bool sched = layer_ == Layer::kScheduler;
  auto live = [&](int j) { return nodes_[j] != nullptr; };
  if (kind == PerturbKind::kNodeRecreate) {
    // Rather a node that still holds pods: the case worth testing.
    int j = Choose<kNodePool>(
        pick, [&](int n) { return live(n) && (busy_nodes_ >> n & 1); });
    if (j < 0) j = Choose<kNodePool>(pick, live);
    if (j < 0) return false;
    step.op = sched ? Op::kNodeDelete : Op::kCRemoveNode;
    step.node = nodes_[j];
    auto again = std::const_pointer_cast<Node>(
        RecreatedNode(*nodes_[j], ++node_incarnation_[j]));
    again->resource_version = absl::StrCat(++rv_);
    node_uid_[j] = again->uid;
    Step add;
    add.op = sched ? Op::kNodeAdd : Op::kCAddNode;
    add.node = again;
    Push(std::move(add));
    nodes_[j] = last_nodes_[j] = again;
    return true;
  }
  const int j = Choose<kNodePool>(pick, live);
  if (j < 0) return false;
  const int n = 2 + (choice & 3);
  for (int k = 0; k < n; ++k) {
    auto next = std::const_pointer_cast<Node>(NoOpNodeUpdate(*nodes_[j]));
    next->resource_version = absl::StrCat(++rv_);
    Step u;
    u.op = sched ? Op::kNodeUpdate : Op::kCUpdateNode;
    u.old_node = nodes_[j];
    u.new_node = next;
    nodes_[j] = last_nodes_[j] = next;
    if (k == 0) {
      step.op = u.op;
      step.old_node = std::move(u.old_node);
      step.new_node = std::move(u.new_node);
    } else {
      Push(std::move(u));
    }
  }
  return true;
}

void Decoder::SetInFlight(std::string_view key, bool in_flight) {
  // Every pod a valid queue sequence carries is of the pool (and hostile
  // mode never reads the bits).
  const int slot = PodSlotOfKey(key);
  if (slot < 0) return;
  if (in_flight) {
    in_flight_ |= 1u << slot;
  } else {
    in_flight_ &= ~(1u << slot);
  }
}

void Decoder::Observe(const Step& step, const StepOut& out,
                      const State* after) {
  // Which nodes hold pods (node_recreate aims at them).
  if (perturbing_ && after != nullptr && after->cache) {
    busy_nodes_ = 0;
    for (const NodeInfoState& n : after->cache->nodes) {
      const int j = NodeSlotOfName(n.name);
      if (j >= 0 && !n.pods.empty()) busy_nodes_ |= 1u << j;
    }
  }
  switch (layer_) {
    case Layer::kQueue:
      if (step.op == Op::kQPop && out.popped) {
        SetInFlight(*out.popped, true);
        ++successful_pops_;
      }
      if (step.op == Op::kQAddUnschedulable) SetInFlight(step.pod_key, false);
      if (step.op == Op::kQDelete && step.pod) {
        SetInFlight(step.pod->Key(), false);
      }
      break;
    case Layer::kCache:
      if (after != nullptr && after->cache && mode_ == Mode::kValid) {
        // The cache's own view wins (cleanup expiries, refused calls).
        for (int i = 0; i < kPodPool; ++i) {
          const std::string& key = PodKeys()[i];
          const auto& assumed = after->cache->assumed;
          CacheStatus st = CacheStatus::kNone;
          if (std::binary_search(assumed.begin(), assumed.end(), key)) {
            st = CacheStatus::kAssumed;
          } else {
            for (const NodeInfoState& n : after->cache->nodes) {
              if (std::binary_search(n.pods.begin(), n.pods.end(), key)) {
                st = CacheStatus::kAdded;
              }
            }
          }
          slots_[i].cache = st;
        }
      }
      break;
    case Layer::kScheduler:
      if (after != nullptr) {
        // Assigned, not rebuilt: the vectors and their strings keep their
        // storage from step to step.
        auto take = [](const std::optional<std::vector<std::string>>& from,
                       std::vector<std::string>& to) {
          if (from) {
            to = *from;
          } else {
            to.clear();
          }
        };
        take(after->waiting, waiting_);
        take(after->parked, parked_);
      }
      break;
  }
}

absl::StatusOr<Trace> DecodeTrace(Layer layer, Mode mode, std::string_view data,
                                  System* reference, bool record,
                                  const DecoderOptions& options) {
  Decoder dec(layer, mode, data, options);
  Trace trace;
  trace.header = dec.header();
  if (reference != nullptr) {
    if (absl::Status s = reference->Configure(trace.header); !s.ok()) return s;
  }
  while (std::optional<Step> step = dec.Next()) {
    if (reference == nullptr) {
      dec.Observe(*step, StepOut{}, nullptr);
      trace.steps.push_back(*std::move(step));
      continue;
    }
    absl::StatusOr<StepOut> out = reference->Apply(*step);
    if (!out.ok()) {
      // The reference refused the step: the trace ends before it (hostile
      // input the model rejects, e.g. q_add_unschedulable of a pod never
      // popped); keep the step so the trace shows it.
      trace.steps.push_back(*std::move(step));
      break;
    }
    State after;
    if (!out->fatal) after = reference->Snapshot();
    if (record) {
      auto expect = std::make_shared<Expect>();
      expect->out = OutToJson(*out);
      if (!out->fatal) expect->state = StateToJson(after);
      step->expect = expect;
    }
    dec.Observe(*step, *out, out->fatal ? nullptr : &after);
    trace.steps.push_back(*std::move(step));
    if (out->fatal) break;
  }
  return trace;
}

}  // namespace schedtrace::fuzz
