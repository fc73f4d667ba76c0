#include "fuzz/decoder.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/generator.h"
#include "harness/json_codec.h"

namespace schedtrace::fuzz {
namespace {

// Record layout after [op][dt] (ArgBytes):
//   one pod         [slot][v0][v1]           q_add q_delete q_assigned_pod_*
//                                            c_* pod ops, pod_add pod_delete
//   two pods        [slot][v0][v1][old]      q_update c_update_pod pod_update
//   one node        [slot][v]                *_add_node / node_add, *_delete
//   two nodes       [slot][v][old]           c_update_node node_update
//   q_add_unschedulable [slot][plugin bits][cycle]
//   q_activate      [slot bits]     q_move_all [event][precheck bits]
//   q_nominate      [slot][node]    cluster_event [resource, action bit]
//   permit_*, bind  [slot]
// Op-byte flags (bits 4..7): pod_delete/node_delete bit 4 tombstone;
// schedule_one bit 4 reserve error, bits 5-6 permit (allow wait reject
// wait); bind bit 4 prebind error, bit 5 bind error; pod_update bit 4 resync
// (valid mode), bit 5 binds (sets nodeName when unset); pod_add bit 5 adds an
// assigned pod. Slot byte: bits 0-2 slot (mod kPodPool); hostile mode also bits
// 3-4 the uid generation and bits 5-7 the resourceVersion (1..8).

constexpr std::array<const char*, 4> kPriorities = {"", "0", "10", "100"};
constexpr std::array<const char*, 8> kCpus = {"",  "100m",  "250m", "500m",
                                              "1", "1500m", "2",    "4"};
constexpr std::array<const char*, 4> kNodeCpus = {"1", "2", "4", "500m"};

Quantity Q(const char* s) { return *ParseQuantity(s); }

int SlotOf(uint8_t b) { return (b & 7) % kPodPool; }
int NodeSlotOf(uint8_t b) { return (b & 3) % kNodePool; }

int PodSlotOfKey(const std::string& key) {
  for (int i = 0; i < kPodPool; ++i) {
    if (key == PodNamespace(i) + "/" + PodName(i)) return i;
  }
  return -1;
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

int ArgBytes(Op op) {
  switch (op) {
    case Op::kQAdd:
    case Op::kQDelete:
    case Op::kQAssignedPodAdded:
    case Op::kQAssignedPodUpdated:
    case Op::kCAssume:
    case Op::kCFinishBinding:
    case Op::kCForget:
    case Op::kCAddPod:
    case Op::kCRemovePod:
    case Op::kPodAdd:
    case Op::kPodDelete:
      return 3;
    case Op::kQUpdate:
    case Op::kCUpdatePod:
    case Op::kPodUpdate:
      return 4;
    case Op::kCAddNode:
    case Op::kCRemoveNode:
    case Op::kNodeAdd:
    case Op::kNodeDelete:
      return 2;
    case Op::kCUpdateNode:
    case Op::kNodeUpdate:
      return 3;
    case Op::kQAddUnschedulable:
      return 3;
    case Op::kQActivate:
      return 1;
    case Op::kQMoveAll:
    case Op::kQNominate:
      return 2;
    case Op::kClusterEvent:
    case Op::kPermitAllow:
    case Op::kPermitReject:
    case Op::kBind:
      return 1;
    case Op::kQPop:
    case Op::kFlushBackoff:
    case Op::kFlushUnschedulable:
    case Op::kCCleanup:
    case Op::kScheduleOne:
      return 0;
  }
  return 0;
}

TraceHeader HeaderFor(Layer layer, uint8_t b) {
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
         (zone_b ? 16 : 0) | (not_ready ? 32 : 0) | (few_pods ? 64 : 0);
}

NodeVariant NodeVariant::Unpack(uint8_t b) {
  NodeVariant v;
  v.cpu = b & 3;
  v.unschedulable = b & 4;
  v.tainted = b & 8;
  v.zone_b = b & 16;
  v.not_ready = b & 32;
  v.few_pods = b & 64;
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
  return v;
}

std::string PodName(int slot) { return absl::StrCat("p", slot); }
std::string PodNamespace(int slot) {
  return slot % 2 == 0 ? "default" : "team";
}
std::string NodeName(int slot) { return absl::StrCat("n", slot); }

Decoder::Decoder(Layer layer, Mode mode, std::string_view data)
    : layer_(layer), mode_(mode), data_(data) {
  header_ = HeaderFor(layer, Byte());
}

uint8_t Decoder::Byte() {
  return pos_ < data_.size() ? static_cast<uint8_t>(data_[pos_++]) : 0;
}

PodPtr Decoder::BuildPod(int slot, const PodVariant& v, const std::string& uid,
                         const std::string& rv) const {
  auto p = std::make_shared<Pod>();
  p->namespace_ = PodNamespace(slot);
  p->name = PodName(slot);
  p->uid = uid;
  p->resource_version = rv;
  p->labels = {{"app", slot < 3 ? "web" : "db"}};
  if (v.annotated) p->annotations = {{"fuzz", "1"}};
  if (v.deleting) p->deletion_timestamp = "2026-01-01T00:00:00Z";
  p->scheduler_name =
      v.other_scheduler ? "other-scheduler" : "default-scheduler";
  if (v.priority != 0) p->priority = std::stoi(kPriorities[v.priority]);
  Container c;
  c.name = "c";
  c.image = "img";
  if (v.cpu != 0) c.requests["cpu"] = Q(kCpus[v.cpu]);
  if (v.memory) c.requests["memory"] = Q("1Gi");
  p->containers.push_back(std::move(c));
  if (v.node != 0) {
    const std::string node = NodeName((v.node - 1) % kNodePool);
    if (v.nominated) p->nominated_node_name = node;
  } else if (v.nominated) {
    p->nominated_node_name = NodeName(0);
  }
  switch (v.selector) {
    case 1:
      p->node_selector = {{"zone", "a"}};
      break;
    case 2:
      p->node_selector = {{"zone", "b"}};
      break;
    case 3:
      p->required_node_affinity = std::vector<NodeSelectorTerm>{
          {.match_expressions = {{"zone", "In", {"a"}}}}};
      break;
    default:
      break;
  }
  if (v.tolerates) {
    p->tolerations.push_back({"dedicated", "Exists", "", "NoSchedule", {}});
  }
  if (v.gated) p->scheduling_gates = {"example.com/wait"};
  return p;
}

NodePtr Decoder::BuildNode(int slot, const NodeVariant& v, int rv) const {
  auto n = std::make_shared<Node>();
  n->name = NodeName(slot);
  n->uid = absl::StrCat("uid-node-", n->name);
  n->resource_version = absl::StrCat(rv);
  n->labels = {{"zone", v.zone_b ? "b" : "a"},
               {"schedtrace.io/score", absl::StrCat(slot + 1)}};
  n->allocatable["cpu"] = Q(kNodeCpus[v.cpu]);
  n->allocatable["memory"] = Q("8Gi");
  n->allocatable["pods"] = Q(v.few_pods ? "1" : "110");
  n->unschedulable = v.unschedulable;
  if (v.tainted) n->taints.push_back({"dedicated", "x", "NoSchedule"});
  n->conditions.push_back({"Ready", v.not_ready ? "False" : "True"});
  return n;
}

PodPtr Decoder::Fresh(int slot, const PodVariant& v, bool assigned) {
  Slot& s = slots_[slot];
  PodVariant w = v;
  w.deleting = false;
  PodPtr p = BuildPod(slot, w,
                      absl::StrCat("uid-", PodNamespace(slot), "-",
                                   PodName(slot), "-", ++s.incarnation),
                      Rv());
  if (assigned) {
    auto q = std::make_shared<Pod>(*p);
    q->node_name =
        NodeName(v.node != 0 ? (v.node - 1) % kNodePool : slot % kNodePool);
    p = q;
  }
  return p;
}

PodPtr Decoder::Mutate(const Pod& old, const PodVariant& v, bool keep_node) {
  // Only what the apiserver lets change: labels/annotations, tolerations
  // (added), gates (removed), nodeName (set once, by binding), status,
  // deletionTimestamp (set once).
  auto p = std::make_shared<Pod>(old);
  p->resource_version = Rv();
  p->annotations.clear();
  if (v.annotated) p->annotations = {{"fuzz", "1"}};
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
  PodPtr p = BuildPod(slot, v,
                      absl::StrCat("uid-", PodNamespace(slot), "-",
                                   PodName(slot), "-", (slot_byte >> 3) & 3),
                      absl::StrCat(((slot_byte >> 5) & 7) + 1));
  if (v.node != 0) {
    auto q = std::make_shared<Pod>(*p);
    q->node_name = NodeName((v.node - 1) % kNodePool);
    p = q;
  }
  return p;
}

PodPtr Decoder::LatestOrStub(int slot) const {
  if (slots_[slot].latest) return slots_[slot].latest;
  auto p = std::make_shared<Pod>();
  p->namespace_ = PodNamespace(slot);
  p->name = PodName(slot);
  return p;
}

std::optional<Step> Decoder::Next() {
  if (pos_ >= data_.size() || steps_ >= kMaxSteps) return std::nullopt;
  const uint8_t op_byte = Byte();
  const uint8_t dt_byte = Byte();
  Step step;
  step.op = OpTable(layer_)[op_byte & 15];
  t_ += DeltaTable()[dt_byte & 15];
  step.t = t_;
  // Arguments are read for the op as written, before validity may turn it
  // into another, so a record's length never depends on the state.
  std::array<uint8_t, 4> a = {0, 0, 0, 0};
  for (int i = 0; i < ArgBytes(step.op); ++i) a[i] = Byte();
  const uint8_t flags = op_byte >> 4;
  switch (layer_) {
    case Layer::kQueue:
      DecodeQueue(step, a.data());
      break;
    case Layer::kCache:
      DecodeCache(step, flags, a.data());
      break;
    case Layer::kScheduler:
      DecodeScheduler(step, flags, a.data());
      break;
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

void Decoder::DecodeQueue(Step& step, const uint8_t* a) {
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
    if (step.op == Op::kQAddUnschedulable && in_flight_.empty()) {
      step.op = Op::kQPop;
    }
  }
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
    case Op::kQAddUnschedulable: {
      if (valid) {
        auto it = in_flight_.begin();
        std::advance(it, a[0] % in_flight_.size());
        step.pod_key = *it;
      } else {
        step.pod_key = PodNamespace(slot) + "/" + PodName(slot);
      }
      for (size_t i = 0; i < UnschedulablePlugins().size(); ++i) {
        if (a[1] & (1u << i)) step.plugins.push_back(UnschedulablePlugins()[i]);
      }
      if (a[2] & 1) {
        step.cycle = valid ? std::max(0, successful_pops_ - ((a[2] >> 1) & 1))
                           : static_cast<int64_t>(a[2] >> 1);
      }
      break;
    }
    case Op::kQActivate:
      for (int i = 0; i < kPodPool; ++i) {
        if (a[0] & (1u << i)) {
          step.pod_keys.push_back(PodNamespace(i) + "/" + PodName(i));
          step.pods.push_back(LatestOrStub(i));
        }
      }
      break;
    case Op::kQMoveAll: {
      step.event = MoveEvents()[a[0] % MoveEvents().size()];
      if (a[1] & 128) {
        std::vector<std::string> keys;
        for (int i = 0; i < kPodPool; ++i) {
          if (a[1] & (1u << i))
            keys.push_back(PodNamespace(i) + "/" + PodName(i));
        }
        step.precheck = std::move(keys);
      }
      break;
    }
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
      step.nominated_node =
          (a[1] & 3) == 3 ? "" : NodeName((a[1] & 3) % kNodePool);
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
  NodePtr built = BuildNode(slot, v, static_cast<int>(++rv_));
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
      if (step.op == Op::kNodeDelete) step.tombstone = flags & 1;
      return;
    case Op::kClusterEvent: {
      const auto& rs = ClusterEventResources();
      step.event.resource = rs[(a[0] & 7) % rs.size()];
      step.event.action = (a[0] & 8) ? "Update" : "Add";
      if (step.event.resource == "StorageClass" && step.event.action == "Add") {
        step.wait_for_first_consumer = a[0] & 16;
      }
      return;
    }
    case Op::kScheduleOne: {
      step.reserve = (flags & 1) ? ReserveOutcome::kError : ReserveOutcome::kOk;
      static constexpr std::array<PermitOutcome, 4> kPermit = {
          PermitOutcome::kAllow, PermitOutcome::kWait, PermitOutcome::kReject,
          PermitOutcome::kWait};
      step.permit = kPermit[(flags >> 1) & 3];
      return;
    }
    case Op::kPermitAllow:
    case Op::kPermitReject:
    case Op::kBind: {
      const std::vector<std::string>& aim =
          step.op == Op::kBind ? parked_ : waiting_;
      if (valid && !aim.empty()) {
        step.pod_key = aim[a[0] % aim.size()];
      } else {
        const int slot = SlotOf(a[0]);
        step.pod_key = PodNamespace(slot) + "/" + PodName(slot);
      }
      if (step.op == Op::kBind) {
        step.prebind_ok = !(flags & 1);
        step.bind_ok = !(flags & 2);
      }
      return;
    }
    case Op::kFlushBackoff:
    case Op::kFlushUnschedulable:
      return;
    default:
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
      step.tombstone = step.op == Op::kPodDelete && (flags & 1);
    }
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
      step.tombstone = flags & 1;
      s.live = false;
      break;
    default:
      break;
  }
}

void Decoder::Observe(const Step& step, const StepOut& out,
                      const State* after) {
  switch (layer_) {
    case Layer::kQueue:
      if (step.op == Op::kQPop && out.popped) {
        in_flight_.insert(*out.popped);
        ++successful_pops_;
      }
      if (step.op == Op::kQAddUnschedulable) in_flight_.erase(step.pod_key);
      if (step.op == Op::kQDelete && step.pod)
        in_flight_.erase(step.pod->Key());
      break;
    case Layer::kCache:
      if (after != nullptr && after->cache && mode_ == Mode::kValid) {
        // The cache's own view wins (cleanup expiries, refused calls).
        for (int i = 0; i < kPodPool; ++i) {
          const std::string key = PodNamespace(i) + "/" + PodName(i);
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
        waiting_ = after->waiting.value_or(std::vector<std::string>{});
        parked_ = after->parked.value_or(std::vector<std::string>{});
      }
      break;
  }
}

absl::StatusOr<Trace> DecodeTrace(Layer layer, Mode mode, std::string_view data,
                                  System* reference, bool record) {
  Decoder dec(layer, mode, data);
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
