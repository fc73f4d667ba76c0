#include "model/go_equal.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/go_rfc3339.h"

namespace schedtrace::model {
namespace {

// A Go map or slice field: its elements and whether it is nil.
template <typename C>
struct GoField {
  const C& value;
  bool nil;
};

template <typename C>
GoField<C> Field(const C& value, const GivenEmpty& given, Nilable f) {
  return GoField<C>{value, value.empty() && !given.Has(f)};
}

// reflect.DeepEqual's rule for maps and slices: both nil, or both non-nil
// with the same length and deeply equal elements.
template <typename C, typename Eq>
bool DeepEqualField(const GoField<C>& a, const GoField<C>& b, Eq eq) {
  if (a.nil != b.nil) return false;
  if (a.value.size() != b.value.size()) return false;
  auto ia = a.value.begin();
  auto ib = b.value.begin();
  for (; ia != a.value.end(); ++ia, ++ib) {
    if (!eq(*ia, *ib)) return false;
  }
  return true;
}

bool Same(const std::string& a, const std::string& b) { return a == b; }

// A map entry: equal keys and deeply equal values.
bool SameLabel(const std::pair<const std::string, std::string>& a,
               const std::pair<const std::string, std::string>& b) {
  return a.first == b.first && a.second == b.second;
}
bool SameQuantityEntry(const std::pair<const std::string, Quantity>& a,
                       const std::pair<const std::string, Quantity>& b) {
  return a.first == b.first && DeepEqual(a.second, b.second);
}

bool DeepEqual(const Toleration& a, const Toleration& b) {
  return a.key == b.key && a.op == b.op && a.value == b.value &&
         a.effect == b.effect && a.toleration_seconds == b.toleration_seconds;
}

bool DeepEqual(const Taint& a, const Taint& b) {
  return a.key == b.key && a.value == b.value && a.effect == b.effect;
}

template <typename Req>
bool DeepEqualRequirement(const Req& a, const Req& b) {
  return a.key == b.key && a.op == b.op &&
         DeepEqualField(Field(a.values, a.given_empty, Nilable::kValues),
                        Field(b.values, b.given_empty, Nilable::kValues), Same);
}

bool DeepEqual(const NodeSelectorTerm& a, const NodeSelectorTerm& b) {
  auto req = DeepEqualRequirement<NodeSelectorRequirement>;
  return DeepEqualField(Field(a.match_expressions, a.given_empty,
                              Nilable::kMatchExpressions),
                        Field(b.match_expressions, b.given_empty,
                              Nilable::kMatchExpressions),
                        req) &&
         DeepEqualField(
             Field(a.match_fields, a.given_empty, Nilable::kMatchFields),
             Field(b.match_fields, b.given_empty, Nilable::kMatchFields), req);
}

bool DeepEqual(const LabelSelector& a, const LabelSelector& b) {
  return DeepEqualField(
             Field(a.match_labels, a.given_empty, Nilable::kMatchLabels),
             Field(b.match_labels, b.given_empty, Nilable::kMatchLabels),
             SameLabel) &&
         DeepEqualField(Field(a.match_expressions, a.given_empty,
                              Nilable::kMatchExpressions),
                        Field(b.match_expressions, b.given_empty,
                              Nilable::kMatchExpressions),
                        DeepEqualRequirement<LabelSelectorRequirement>);
}

// A pointer: both nil, or both non-nil and deeply equal targets.
template <typename T>
bool DeepEqualPointer(const std::optional<T>& a, const std::optional<T>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a.has_value() || DeepEqual(*a, *b);
}

bool DeepEqual(const PodAffinityTerm& a, const PodAffinityTerm& b) {
  return DeepEqualPointer(a.label_selector, b.label_selector) &&
         DeepEqualField(
             Field(a.namespaces, a.given_empty, Nilable::kNamespaces),
             Field(b.namespaces, b.given_empty, Nilable::kNamespaces), Same) &&
         a.topology_key == b.topology_key &&
         DeepEqualPointer(a.namespace_selector, b.namespace_selector);
}

bool DeepEqual(const Container& a, const Container& b) {
  return a.name == b.name && a.image == b.image &&
         DeepEqualField(Field(a.requests, a.given_empty, Nilable::kRequests),
                        Field(b.requests, b.given_empty, Nilable::kRequests),
                        SameQuantityEntry);
}

// Elements of a slice: deeply equal one by one.
template <typename T>
bool DeepEqualElements(const T& x, const T& y) {
  return DeepEqual(x, y);
}

// spec.affinity, a *v1.Affinity: {NodeAffinity *, PodAffinity *} as far as
// we keep them, each pointer non-nil when it holds something or was given.
struct AffinityView {
  bool present;
  bool node_affinity;  // spec.affinity.nodeAffinity non-nil
  bool pod_affinity;   // spec.affinity.podAffinity non-nil
};

AffinityView Affinity(const Pod& p) {
  const GivenEmpty& g = p.given_empty;
  AffinityView v;
  v.node_affinity =
      p.required_node_affinity.has_value() || g.Has(Nilable::kNodeAffinity);
  v.pod_affinity = !p.required_pod_affinity.empty() ||
                   g.Has(Nilable::kPodAffinityTerms) ||
                   g.Has(Nilable::kPodAffinity);
  v.present = v.node_affinity || v.pod_affinity || g.Has(Nilable::kAffinity);
  return v;
}

bool DeepEqualAffinity(const Pod& a, const Pod& b) {
  const AffinityView va = Affinity(a);
  const AffinityView vb = Affinity(b);
  if (va.present != vb.present || va.node_affinity != vb.node_affinity ||
      va.pod_affinity != vb.pod_affinity) {
    return false;
  }
  // nodeAffinity.requiredDuringScheduling...: a *NodeSelector whose
  // nodeSelectorTerms may be nil or empty.
  if (a.required_node_affinity.has_value() !=
      b.required_node_affinity.has_value()) {
    return false;
  }
  if (a.required_node_affinity.has_value() &&
      !DeepEqualField(Field(*a.required_node_affinity, a.given_empty,
                            Nilable::kNodeSelectorTerms),
                      Field(*b.required_node_affinity, b.given_empty,
                            Nilable::kNodeSelectorTerms),
                      DeepEqualElements<NodeSelectorTerm>)) {
    return false;
  }
  // podAffinity.requiredDuringScheduling...: a slice, nil or not.
  return DeepEqualField(
      Field(a.required_pod_affinity, a.given_empty, Nilable::kPodAffinityTerms),
      Field(b.required_pod_affinity, b.given_empty, Nilable::kPodAffinityTerms),
      DeepEqualElements<PodAffinityTerm>);
}

}  // namespace

// resource.Quantity is {i int64Amount, d infDecAmount, s string, Format}:
// DeepEqual compares all four, following d's pointer to the inf.Dec.
bool DeepEqual(const Quantity& a, const Quantity& b) {
  if (a.format() != b.format() || a.cached_text() != b.cached_text()) {
    return false;
  }
  if (a.is_dec() != b.is_dec()) return false;  // d nil on one side only
  if (!a.is_dec()) {
    return a.int_value() == b.int_value() && a.int_scale() == b.int_scale();
  }
  // inf.Dec{unscaled big.Int, scale}; i is the zero int64Amount on both.
  return a.dec_negative() == b.dec_negative() && a.dec_mag() == b.dec_mag() &&
         a.dec_pow10() == b.dec_pow10() && a.dec_scale() == b.dec_scale();
}

namespace {

// A *metav1.Time: both nil, or both set to the same instant (the
// metav1.Times UnmarshalJSON leaves, t.Local() of what time.Parse read, are
// deep-equal exactly then: "2023-01-01T00:00:07Z" and
// "2023-01-01T01:00:07+01:00" are the same).
bool SameDeletionTimestamp(const std::optional<std::string>& a,
                           const std::optional<std::string>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || SameGoInstant(*a, *b);
}

}  // namespace

bool DeepEqual(const Pod& a, const Pod& b) {
  const GivenEmpty& ga = a.given_empty;
  const GivenEmpty& gb = b.given_empty;
  // metadata
  if (a.namespace_ != b.namespace_ || a.name != b.name || a.uid != b.uid ||
      a.resource_version != b.resource_version ||
      !SameDeletionTimestamp(a.deletion_timestamp, b.deletion_timestamp)) {
    return false;
  }
  if (!DeepEqualField(Field(a.labels, ga, Nilable::kLabels),
                      Field(b.labels, gb, Nilable::kLabels), SameLabel) ||
      !DeepEqualField(Field(a.annotations, ga, Nilable::kAnnotations),
                      Field(b.annotations, gb, Nilable::kAnnotations),
                      SameLabel)) {
    return false;
  }
  // spec
  if (a.scheduler_name != b.scheduler_name || a.priority != b.priority ||
      a.node_name != b.node_name) {
    return false;
  }
  if (!DeepEqualField(Field(a.node_selector, ga, Nilable::kNodeSelector),
                      Field(b.node_selector, gb, Nilable::kNodeSelector),
                      SameLabel) ||
      !DeepEqualField(Field(a.tolerations, ga, Nilable::kTolerations),
                      Field(b.tolerations, gb, Nilable::kTolerations),
                      DeepEqualElements<Toleration>) ||
      !DeepEqualField(Field(a.scheduling_gates, ga, Nilable::kSchedulingGates),
                      Field(b.scheduling_gates, gb, Nilable::kSchedulingGates),
                      Same) ||
      !DeepEqualField(Field(a.containers, ga, Nilable::kContainers),
                      Field(b.containers, gb, Nilable::kContainers),
                      DeepEqualElements<Container>) ||
      !DeepEqualField(Field(a.init_containers, ga, Nilable::kInitContainers),
                      Field(b.init_containers, gb, Nilable::kInitContainers),
                      DeepEqualElements<Container>) ||
      !DeepEqualField(Field(a.overhead, ga, Nilable::kOverhead),
                      Field(b.overhead, gb, Nilable::kOverhead),
                      SameQuantityEntry) ||
      !DeepEqualAffinity(a, b)) {
    return false;
  }
  // status
  return a.nominated_node_name == b.nominated_node_name;
}

bool DeepEqualAllocatable(const Node& a, const Node& b) {
  return DeepEqualField(
      Field(a.allocatable, a.given_empty, Nilable::kAllocatable),
      Field(b.allocatable, b.given_empty, Nilable::kAllocatable),
      SameQuantityEntry);
}

bool DeepEqualLabels(const Node& a, const Node& b) {
  return DeepEqualField(Field(a.labels, a.given_empty, Nilable::kLabels),
                        Field(b.labels, b.given_empty, Nilable::kLabels),
                        SameLabel);
}

bool DeepEqualTaints(const Node& a, const Node& b) {
  return DeepEqualField(Field(a.taints, a.given_empty, Nilable::kTaints),
                        Field(b.taints, b.given_empty, Nilable::kTaints),
                        DeepEqualElements<Taint>);
}

namespace {

// A quantity's value as sign * mag * 10^exp, with no factor of ten left in
// mag (little-endian base-2^32 limbs, empty for zero): equal values give
// equal parts, whichever form (int64Amount or inf.Dec) holds them.
struct NormalValue {
  bool negative = false;
  std::vector<uint32_t> mag;
  int64_t exp = 0;
  bool operator==(const NormalValue&) const = default;
};

NormalValue Normalize(const Quantity& q) {
  NormalValue v;
  if (q.is_dec()) {
    if (q.dec_mag().empty()) return v;
    v.negative = q.dec_negative();
    v.mag = q.dec_mag();
    v.exp = q.dec_pow10() - q.dec_scale();
    return v;
  }
  if (q.int_value() == 0) return v;
  v.negative = q.int_value() < 0;
  uint64_t mag = v.negative ? 0 - static_cast<uint64_t>(q.int_value())
                            : static_cast<uint64_t>(q.int_value());
  v.exp = q.int_scale();
  while (mag % 10 == 0) {
    mag /= 10;
    ++v.exp;
  }
  v.mag.push_back(static_cast<uint32_t>(mag));
  if (mag >> 32) v.mag.push_back(static_cast<uint32_t>(mag >> 32));
  return v;
}

}  // namespace

// equality.Semantic's func for resource.Quantity: a.Cmp(b) == 0.
bool SemanticEqual(const Quantity& a, const Quantity& b) {
  return Normalize(a) == Normalize(b);
}

// Semantic.DeepEqual of two maps or slices: nil and empty are equal, so only
// the contents count.
bool SemanticEqualAllocatable(const Node& a, const Node& b) {
  if (a.allocatable.size() != b.allocatable.size()) return false;
  for (const auto& [name, q] : a.allocatable) {
    auto it = b.allocatable.find(name);
    if (it == b.allocatable.end() || !SemanticEqual(q, it->second)) {
      return false;
    }
  }
  return true;
}

bool SemanticEqualLabels(const Node& a, const Node& b) {
  return a.labels == b.labels;
}

bool SemanticEqualTaints(const Node& a, const Node& b) {
  return a.taints == b.taints;
}

}  // namespace schedtrace::model
