// The Kubernetes objects a schedtrace carries: the subset of v1.Pod and
// v1.Node that the format (docs/FORMAT.md, "Objects") names,
// as plain value types.
//
// Pods are immutable once decoded and shared through `PodPtr`, as upstream
// shares *v1.Pod: a queue entry, the informer store and the cache may all hold
// the same object. Every type has a defaulted operator== (deep equality).
#ifndef SCHEDTRACE_CORE_OBJECTS_H_
#define SCHEDTRACE_CORE_OBJECTS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "core/quantity.h"

namespace schedtrace {

// Go tells a nil map, slice or pointer from an empty one, and
// reflect.DeepEqual sees the difference: to isPodUpdated a pod whose labels
// go from absent to `{}` has changed, and so has a node's taints to
// nodeTaintsChanged. A trace tells them apart as Go's JSON decoder does: an
// absent or null field is nil, `{}` or `[]` is empty but not nil. A plain
// container cannot, so each struct below that has nil-able fields records the
// ones a trace gave empty in a `GivenEmpty` set. A field is nil when it is
// empty and not in the set; a non-empty field is never nil (writers that
// fill a field need not touch the set). For a pointer to a struct that holds
// nothing we keep (`affinity: {}`), the bit means "present".
enum class Nilable : uint8_t {
  // Pod
  kLabels,
  kAnnotations,
  kNodeSelector,
  kTolerations,
  kSchedulingGates,
  kContainers,
  kInitContainers,
  kOverhead,
  kAffinity,           // spec.affinity: {} (neither kind below given)
  kNodeAffinity,       // spec.affinity.nodeAffinity: {} (no required)
  kNodeSelectorTerms,  // ...required...: {nodeSelectorTerms: []}
  kPodAffinity,        // spec.affinity.podAffinity: {} (no required)
  kPodAffinityTerms,   // ...podAffinity: {required...: []}
  // Container
  kRequests,
  // NodeSelectorTerm, LabelSelector
  kMatchExpressions,
  kMatchFields,
  kMatchLabels,
  // requirements
  kValues,
  // PodAffinityTerm
  kNamespaces,
  // Node (kLabels too)
  kTaints,
  kAllocatable,
  kConditions,
};

class GivenEmpty {
 public:
  bool Has(Nilable f) const { return (bits_ >> static_cast<int>(f)) & 1u; }
  void Set(Nilable f, bool on = true) {
    const uint32_t bit = 1u << static_cast<int>(f);
    bits_ = on ? (bits_ | bit) : (bits_ & ~bit);
  }
  bool empty() const { return bits_ == 0; }
  bool operator==(const GivenEmpty&) const = default;

 private:
  uint32_t bits_ = 0;
};

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
  GivenEmpty given_empty;  // kValues
  bool operator==(const NodeSelectorRequirement&) const = default;
};

struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> match_expressions;
  std::vector<NodeSelectorRequirement> match_fields;
  GivenEmpty given_empty;  // kMatchExpressions, kMatchFields
  bool operator==(const NodeSelectorTerm&) const = default;
};

// metav1.LabelSelectorRequirement; op is In, NotIn, Exists, DoesNotExist.
struct LabelSelectorRequirement {
  std::string key;
  std::string op;
  std::vector<std::string> values;
  GivenEmpty given_empty;  // kValues
  bool operator==(const LabelSelectorRequirement&) const = default;
};

struct LabelSelector {
  Labels match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;
  GivenEmpty given_empty;  // kMatchLabels, kMatchExpressions
  bool operator==(const LabelSelector&) const = default;
};

struct PodAffinityTerm {
  std::optional<LabelSelector> label_selector;  // nil selects nothing
  std::vector<std::string> namespaces;
  std::string topology_key;
  std::optional<LabelSelector> namespace_selector;
  GivenEmpty given_empty;  // kNamespaces
  bool operator==(const PodAffinityTerm&) const = default;
};

struct Container {
  std::string name;
  std::string image;
  ResourceList requests;
  GivenEmpty given_empty;  // kRequests
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

  // The pod's fields above given empty (Nilable's Pod part).
  GivenEmpty given_empty;

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
  GivenEmpty given_empty;  // kLabels, kTaints, kAllocatable, kConditions
  bool operator==(const Node&) const = default;
};

using NodePtr = std::shared_ptr<const Node>;

// Whether `pod`'s requests stay within what schedtrace sums exactly in a
// version that sums them as quantities (v1.30.12, kubernetes#115367;
// core/quantity.h WithinExactSumRange): InvalidArgument naming the first
// field that does not ("pod ns/p: field
// spec.containers[0].resources.requests.cpu: ..."). Each system refuses such
// a pod in such a version.
absl::Status CheckRequestsSummable(const Pod& pod);

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_OBJECTS_H_
