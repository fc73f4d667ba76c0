// What a system shows: the `out` of a step and the state snapshot
// (docs/FORMAT.md, "The state snapshot"). Plain data; the codec
// turns it into the spec's JSON, properties read it directly.
#ifndef SCHEDTRACE_CORE_STATE_H_
#define SCHEDTRACE_CORE_STATE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace schedtrace {

// Resource amounts as a snapshot shows them, resource name -> integer
// ("cpu" in millicores, the rest in units), zeros left out. Each system
// computes them its own way (model/resource.h, impl/cache.h).
using Resources = std::map<std::string, int64_t, std::less<>>;

struct ScheduleResult {
  std::string pod;
  std::string outcome;              // scheduled, unschedulable, error, skipped
  std::optional<std::string> node;  // whenever a node was chosen
  std::optional<std::vector<std::string>> plugins;  // FitError only
  bool operator==(const ScheduleResult&) const = default;
};

struct Binding {
  std::string pod;
  std::string node;
  bool operator==(const Binding&) const = default;
};

struct StatusUpdate {
  std::string pod;
  std::string reason;
  std::string nominated_node_name;
  bool operator==(const StatusUpdate&) const = default;
};

struct EmittedEvent {
  std::string pod;
  std::string reason;
  bool operator==(const EmittedEvent&) const = default;
};

// A step's `out`. Encoded with only the keys that apply: `popped` (null when
// a pop found activeQ empty), `attempts` (queue-layer pops), `error`,
// `fatal`, `result`, and the three lists when non-empty.
struct StepOut {
  bool popped_present = false;        // the step popped (or tried to)
  std::optional<std::string> popped;  // nullopt with popped_present = null
  std::optional<int> attempts;
  bool error = false;
  bool fatal = false;
  std::optional<ScheduleResult> result;
  std::vector<Binding> bindings;
  std::vector<StatusUpdate> status_updates;
  std::vector<EmittedEvent> events;
  bool operator==(const StepOut&) const = default;
};

struct QueuedPod {
  std::string pod;  // key
  int attempts = 0;
  int64_t backoff_expires_at = 0;    // backoff list only (ms)
  std::vector<std::string> plugins;  // unschedulable list only, sorted
  bool gated = false;                // unschedulable list only
  bool operator==(const QueuedPod&) const = default;
};

struct QueueState {
  std::vector<QueuedPod> active;         // pop order
  std::vector<QueuedPod> backoff;        // sorted by key
  std::vector<QueuedPod> unschedulable;  // sorted by key
  int64_t scheduling_cycle = 0;
  int64_t move_request_cycle = 0;
  bool operator==(const QueueState&) const = default;
};

struct NodeInfoState {
  std::string name;
  bool present = true;
  std::vector<std::string> pods;  // keys, sorted
  Resources requested;            // zeros left out
  bool operator==(const NodeInfoState&) const = default;
};

struct CacheState {
  std::vector<NodeInfoState> nodes;           // sorted by name
  std::vector<std::string> assumed;           // keys, sorted
  std::vector<std::string> binding_finished;  // keys, sorted
  bool operator==(const CacheState&) const = default;
};

// node name -> nominated pod keys (sorted). Node "" is a real entry
// (upstream records an override to "" as a nomination to "").
using Nominated = std::map<std::string, std::vector<std::string>>;

// A layer's snapshot holds only its parts.
struct State {
  std::optional<QueueState> queue;
  std::optional<Nominated> nominated;
  std::optional<CacheState> cache;
  std::optional<std::vector<std::string>> waiting;  // sorted keys
  std::optional<std::vector<std::string>> parked;   // sorted keys
  bool operator==(const State&) const = default;
};

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_STATE_H_
