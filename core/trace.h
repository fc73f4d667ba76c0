// A decoded schedtrace: the header and the typed steps of docs/FORMAT.md.
// An absent config key reads as the default below, which FORMAT.md's table
// "Config keys and their defaults" documents: keep the two in step.
// Pure data, no JSON: systems include this, only the codec and the replayer
// know the wire format.
#ifndef SCHEDTRACE_CORE_TRACE_H_
#define SCHEDTRACE_CORE_TRACE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "core/objects.h"

namespace schedtrace {

enum class Layer { kQueue, kCache, kScheduler };

std::string_view LayerName(Layer layer);
// "queue", "cache", "scheduler" back to the layer; nullopt otherwise.
std::optional<Layer> LayerFromName(std::string_view name);

// One row of upstream's clusterEventMap: events of `resource` with one of
// `actions` may make a pod that failed in one of `plugins` schedulable.
struct ClusterEventMapEntry {
  std::string resource;              // "Node", "Pod", ..., or "*"
  std::vector<std::string> actions;  // "Add", "Delete", "Update", "All", ...
  std::vector<std::string> plugins;
  // What the hint function the entry registers for each of its plugins
  // answers, from v1.35 (docs/FORMAT.md, E14): "" (absent) and "Queue"
  // the default hint, "QueueSkip", "Error" (an error, which the queue
  // treats as Queue), or "plugin": the plugin's own QueueingHint function.
  std::string hint;
  bool operator==(const ClusterEventMapEntry&) const = default;
};

// Whether `plugin` may take hint "plugin": the plugins of the scheduler
// profile, whose own QueueingHint functions the format describes
// (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity,
// NodeResourcesFit, SchedulingGates).
bool HasOwnQueueingHint(std::string_view plugin);

struct Config {
  int64_t pod_initial_backoff_ms = 1000;
  int64_t pod_max_backoff_ms = 10000;
  int64_t pod_max_in_unschedulable_ms = 300000;
  int64_t assumed_pod_ttl_ms = 0;
  std::vector<std::string> profiles = {"default-scheduler"};
  std::map<std::string, bool> features;
  std::vector<ClusterEventMapEntry> cluster_event_map;
  // profile (scheduler name) -> PreEnqueue plugin names.
  std::map<std::string, std::vector<std::string>> pre_enqueue_plugins;
  // extension point ("queueSort", "filter", ...) -> plugin names.
  std::map<std::string, std::vector<std::string>> plugins;
  std::optional<int64_t> percentage_of_nodes_to_score;
  std::string nominator_pod_lister;  // "queue-ops" or ""
  bool operator==(const Config&) const = default;

  bool Feature(const std::string& name) const {
    auto it = features.find(name);
    return it != features.end() && it->second;
  }
};

// A recording that stopped before step `at_step` (1-based, header not
// counted) of its input, for `reason`: the header key `truncated`
// (docs/FORMAT.md, Header). Informational: readers need not act on it.
struct Truncated {
  int64_t at_step = 0;
  std::string reason;
  bool operator==(const Truncated&) const = default;
};

struct TraceHeader {
  int version = 1;
  std::string name;
  Layer layer = Layer::kQueue;
  std::string upstream;
  std::string source;  // upstream, handwritten, generated, regression
  std::string description;
  std::optional<int64_t> seed;
  std::optional<Truncated> truncated;
  Config config;
  bool operator==(const TraceHeader&) const = default;
};

enum class Op {
  // queue layer
  kQAdd,
  kQUpdate,
  kQDelete,
  kQPop,
  kQAddUnschedulable,
  kQActivate,
  kQMoveAll,
  kQAssignedPodAdded,
  kQAssignedPodUpdated,
  kQNominate,
  // queue and scheduler layers
  kFlushBackoff,
  kFlushUnschedulable,
  // cache layer
  kCAssume,
  kCFinishBinding,
  kCForget,
  kCAddPod,
  kCUpdatePod,
  kCRemovePod,
  kCAddNode,
  kCUpdateNode,
  kCRemoveNode,
  kCCleanup,
  // scheduler layer
  kPodAdd,
  kPodUpdate,
  kPodDelete,
  kNodeAdd,
  kNodeUpdate,
  kNodeDelete,
  kClusterEvent,
  kScheduleOne,
  kPermitAllow,
  kPermitReject,
  kBind,
  // queue layer, from v1.35 (docs/FORMAT.md, E14)
  kQDone,  // the last: kOpCount below counts up to it
};
// How many ops there are. core/op_table.h declares each: its name, its
// layers, its arguments (docs/ADDING-AN-OP.md).
inline constexpr int kOpCount = static_cast<int>(Op::kQDone) + 1;

// "q_add", "c_assume", ... and back; nullopt for an unknown name (the op
// table's names).
std::string_view OpName(Op op);
std::optional<Op> OpFromName(std::string_view name);
// Whether `op` belongs to `layer` (flush_* belong to queue and scheduler).
bool OpInLayer(Op op, Layer layer);

// upstream framework.ActionType: the bits of an action name ("Add" 1,
// "Delete" 2, "UpdateNodeAllocatable" 4, "UpdateNodeLabel" 8,
// "UpdateNodeTaint" 16, "UpdateNodeCondition" 32, "Update" the node
// updates, "All" every bit); 0 for an unknown name. A version with
// `node_annotation_action` (v1.30: kubernetes#118389) also has
// "UpdateNodeAnnotation" 64, which Update and All then include; before, that
// name is unknown. The versions' constants, decoded for both sides: each
// side matches events itself.
int ActionTypeBits(const std::string& action, bool node_annotation_action);
// upstream framework.All: every bit of the version.
constexpr int AllActionBits(bool node_annotation_action) {
  return node_annotation_action ? 127 : 63;
}

// A cluster event as MoveAllToActiveOrBackoffQueue receives it.
struct ClusterEvent {
  std::string resource;  // "Node", "Pod", "PersistentVolume", ...
  std::string action;    // "Add", "Delete", "UpdateNodeTaint", ... "All"
  std::string label;     // upstream's event label, e.g. "NodeAdd"
  bool operator==(const ClusterEvent&) const = default;
};

enum class ReserveOutcome { kOk, kError };
enum class PermitOutcome { kAllow, kWait, kReject };

struct Expect;  // core/json_codec.h: the raw `expect` object of a step.

// One step. Which fields are meaningful depends on `op`: the op table
// (core/op_table.h) lists each op's arguments and the members they fill.
// `pods` holds q_activate's keys resolved to the latest object the trace
// carried (or a stub holding only namespace and name); `$ref` arguments are
// resolved by the decoder.
// The largest `t` the format allows (docs/FORMAT.md): 2^62 ms, about 146
// million years. Up to it, every instant a system computes from `t` (a
// backoff expiry, a deadline) stays within an int64 of milliseconds, and
// Go's time.Time (seconds and nanoseconds) is exact throughout.
inline constexpr int64_t kMaxTraceMs = int64_t{1} << 62;

struct Step {
  int line = 0;  // 1-based line in the trace file (0 when built in code)
  int64_t t = 0;
  Op op = Op::kQPop;

  PodPtr pod;
  PodPtr old_pod;
  PodPtr new_pod;
  NodePtr node;
  NodePtr old_node;
  NodePtr new_node;

  std::string pod_key;
  std::vector<PodPtr> pods;           // q_activate
  std::vector<std::string> pod_keys;  // q_activate, as written
  std::vector<std::string> plugins;   // q_add_unschedulable
  std::optional<int64_t> cycle;  // q_add_unschedulable; nullopt = "current"
  ClusterEvent event;            // q_move_all; cluster_event uses
                                 // resource and action
  // q_move_all's `old` and `new` (E14) fill old_pod/new_pod for an event of
  // a pod resource (or "*"), old_node/new_node for a Node event.
  std::optional<std::vector<std::string>> precheck;  // q_move_all
  std::string nominated_node;                        // q_nominate `node`
  bool tombstone = false;                            // pod_delete, node_delete
  bool wait_for_first_consumer = false;  // cluster_event StorageClass Add
  ReserveOutcome reserve = ReserveOutcome::kOk;  // schedule_one
  PermitOutcome permit = PermitOutcome::kAllow;  // schedule_one
  bool prebind_ok = true;                        // bind
  bool bind_ok = true;                           // bind

  std::shared_ptr<const Expect> expect;  // null when the step has none
};

// What no system is asked to apply: an update whose `old` and `new` name
// different pods (namespace/name) or nodes (name). An informer keys its
// objects by name, so upstream's handlers never receive one; a new uid under
// the same name is a real update and passes. InvalidArgument naming the
// field (`new.metadata.name`), OK otherwise. The codec refuses such a line;
// model and impl refuse such a step built in code (fuzzers, RapidCheck).
absl::Status CheckUpdateNamesOneObject(const Step& step);

struct Trace {
  std::string path;  // where it was read from ("" when built in code)
  TraceHeader header;
  // 1-based line of the header in the file: 1 unless comments or blank
  // lines open it (0 when built in code).
  int header_line = 0;
  std::vector<Step> steps;
};

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_TRACE_H_
