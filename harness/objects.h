// The Kubernetes objects a schedtrace carries: the subset of v1.Pod and
// v1.Node that the format (docs/FORMAT.md, "Objects") names,
// as plain value types.
//
// Pods are immutable once decoded and shared through `PodPtr`, as upstream
// shares *v1.Pod: a queue entry, the informer store and the cache may all hold
// the same object. Every type has a defaulted operator== (deep equality).
#ifndef SCHEDTRACE_HARNESS_OBJECTS_H_
#define SCHEDTRACE_HARNESS_OBJECTS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/quantity.h"

namespace schedtrace {

// The maps below compare with std::less<> (transparent): a lookup by a
// literal or a string_view builds no std::string.
using Labels = std::map<std::string, std::string, std::less<>>;

// A v1.ResourceList: resource name -> quantity, sorted by name.
using ResourceList = std::map<std::string, Quantity, std::less<>>;

struct Toleration {
  std::string key;
  std::string op;  // "Equal", "Exists" or "" (= Equal)
  std::string value;
  std::string effect;  // "", "NoSchedule", "PreferNoSchedule", "NoExecute"
  std::optional<int64_t> toleration_seconds;
  bool operator==(const Toleration&) const = default;
};

struct Taint {
  std::string key;
  std::string value;
  std::string effect;
  bool operator==(const Taint&) const = default;
};

// v1.NodeSelectorRequirement; op is In, NotIn, Exists, DoesNotExist, Gt, Lt.
struct NodeSelectorRequirement {
  std::string key;
  std::string op;
  std::vector<std::string> values;
  bool operator==(const NodeSelectorRequirement&) const = default;
};

struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> match_expressions;
  std::vector<NodeSelectorRequirement> match_fields;
  bool operator==(const NodeSelectorTerm&) const = default;
};

// metav1.LabelSelectorRequirement; op is In, NotIn, Exists, DoesNotExist.
struct LabelSelectorRequirement {
  std::string key;
  std::string op;
  std::vector<std::string> values;
  bool operator==(const LabelSelectorRequirement&) const = default;
};

struct LabelSelector {
  Labels match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;
  bool operator==(const LabelSelector&) const = default;
};

struct PodAffinityTerm {
  std::optional<LabelSelector> label_selector;  // nil selects nothing
  std::vector<std::string> namespaces;
  std::string topology_key;
  std::optional<LabelSelector> namespace_selector;
  bool operator==(const PodAffinityTerm&) const = default;
};

struct Container {
  std::string name;
  std::string image;
  ResourceList requests;
  bool operator==(const Container&) const = default;
};

struct Pod {
  // metadata
  std::string namespace_;
  std::string name;
  std::string uid;
  std::string resource_version;
  Labels labels;
  // Not read by the scheduler's logic, but isPodUpdated compares every
  // non-status field, so an annotation change is an update (extension E1
  // of docs/FORMAT.md).
  Labels annotations;
  std::optional<std::string> deletion_timestamp;

  // spec
  std::string scheduler_name;
  std::optional<int32_t> priority;  // nil reads as 0 (corev1helpers)
  std::string node_name;
  Labels node_selector;
  std::vector<Toleration> tolerations;
  std::vector<std::string> scheduling_gates;
  std::vector<Container> containers;
  std::vector<Container> init_containers;
  ResourceList overhead;
  // affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
  // nullopt when absent (a present selector with no terms matches nothing).
  std::optional<std::vector<NodeSelectorTerm>> required_node_affinity;
  // affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution
  std::vector<PodAffinityTerm> required_pod_affinity;

  // status
  std::string nominated_node_name;

  // "namespace/name", the key the queue, the informer and traces use.
  std::string Key() const { return namespace_ + "/" + name; }
  int32_t Priority() const { return priority.value_or(0); }

  bool operator==(const Pod&) const = default;
};

using PodPtr = std::shared_ptr<const Pod>;

// A metav1.Time as it marshals to JSON (RFC 3339 in UTC, second precision):
// 2023-01-01T00:00:07Z for 1672531207. Writers of deletionTimestamp use it
// with kTraceEpochSeconds plus the trace clock, as upstream's recordings do.
std::string K8sTime(int64_t unix_seconds);
// 2023-01-01T00:00:00Z, the instant t = 0 of upstream's recordings.
inline constexpr int64_t kTraceEpochSeconds = 1672531200;

// upstream isPodUpdated (scheduling_queue.go): true when the pods differ in
// anything but resourceVersion and status.
bool PodSpecOrMetaChanged(const Pod& old_pod, const Pod& new_pod);

struct NodeCondition {
  std::string type;
  std::string status;
  bool operator==(const NodeCondition&) const = default;
};

struct Node {
  std::string name;
  std::string uid;
  std::string resource_version;
  Labels labels;
  bool unschedulable = false;
  std::vector<Taint> taints;
  ResourceList allocatable;
  std::vector<NodeCondition> conditions;
  bool operator==(const Node&) const = default;
};

using NodePtr = std::shared_ptr<const Node>;

}  // namespace schedtrace

#endif  // SCHEDTRACE_HARNESS_OBJECTS_H_
