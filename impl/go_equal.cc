#include "impl/go_equal.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include "core/go_rfc3339.h"

namespace schedtrace::impl {
namespace {

// Bit `f` when the field is nil: empty, and not given as {} or [].
template <typename C>
uint32_t NilBit(const C& c, const GivenEmpty& given, Nilable f) {
  return c.empty() && !given.Has(f) ? 1u << static_cast<int>(f) : 0u;
}

template <typename C, typename Eq>
bool Elements(const C& a, const C& b, Eq eq) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), eq);
}

bool Lists(const ResourceList& a, const ResourceList& b) {
  return Elements(a, b, [](const auto& x, const auto& y) {
    return x.first == y.first && GoEqual(x.second, y.second);
  });
}

template <typename Req>
bool Requirements(const std::vector<Req>& a, const std::vector<Req>& b) {
  return Elements(a, b, [](const Req& x, const Req& y) {
    return x.key == y.key && x.op == y.op && x.values == y.values &&
           NilBit(x.values, x.given_empty, Nilable::kValues) ==
               NilBit(y.values, y.given_empty, Nilable::kValues);
  });
}

uint32_t SelectorNils(const LabelSelector& s) {
  return NilBit(s.match_labels, s.given_empty, Nilable::kMatchLabels) |
         NilBit(s.match_expressions, s.given_empty, Nilable::kMatchExpressions);
}

bool Selectors(const std::optional<LabelSelector>& a,
               const std::optional<LabelSelector>& b) {
  if (!a || !b) return !a && !b;
  return SelectorNils(*a) == SelectorNils(*b) &&
         a->match_labels == b->match_labels &&
         Requirements(a->match_expressions, b->match_expressions);
}

bool Containers(const std::vector<Container>& a,
                const std::vector<Container>& b) {
  return Elements(a, b, [](const Container& x, const Container& y) {
    return x.name == y.name && x.image == y.image &&
           NilBit(x.requests, x.given_empty, Nilable::kRequests) ==
               NilBit(y.requests, y.given_empty, Nilable::kRequests) &&
           Lists(x.requests, y.requests);
  });
}

// The pod's nil maps, slices and pointers, one bit each. The affinity's
// pointers are non-nil when they hold something or were given.
uint32_t PodNils(const Pod& p) {
  const GivenEmpty& g = p.given_empty;
  uint32_t nils =
      NilBit(p.labels, g, Nilable::kLabels) |
      NilBit(p.annotations, g, Nilable::kAnnotations) |
      NilBit(p.node_selector, g, Nilable::kNodeSelector) |
      NilBit(p.tolerations, g, Nilable::kTolerations) |
      NilBit(p.scheduling_gates, g, Nilable::kSchedulingGates) |
      NilBit(p.containers, g, Nilable::kContainers) |
      NilBit(p.init_containers, g, Nilable::kInitContainers) |
      NilBit(p.overhead, g, Nilable::kOverhead) |
      NilBit(p.required_pod_affinity, g, Nilable::kPodAffinityTerms);
  const bool node_affinity =
      p.required_node_affinity || g.Has(Nilable::kNodeAffinity);
  const bool pod_affinity =
      (nils & (1u << static_cast<int>(Nilable::kPodAffinityTerms))) == 0 ||
      g.Has(Nilable::kPodAffinity);
  if (!node_affinity) nils |= 1u << static_cast<int>(Nilable::kNodeAffinity);
  if (!pod_affinity) nils |= 1u << static_cast<int>(Nilable::kPodAffinity);
  if (!node_affinity && !pod_affinity && !g.Has(Nilable::kAffinity)) {
    nils |= 1u << static_cast<int>(Nilable::kAffinity);
  }
  if (p.required_node_affinity) {
    nils |= NilBit(*p.required_node_affinity, g, Nilable::kNodeSelectorTerms);
  }
  return nils;
}

// A quantity's value as sign * mag * 10^exp with no factor of ten left in
// mag (0 for zero), so that equal values have equal parts. A magnitude of
// more than 64 bits (only the big-decimal form has one; it is already free
// of factors of ten) is kept as its 32-bit limbs.
struct Normal {
  bool negative = false;
  uint64_t mag = 0;  // when !big
  const std::vector<uint32_t>* big = nullptr;
  int64_t exp = 0;
};

Normal Normalize(const Quantity& q) {
  Normal n;
  if (!q.is_dec()) {
    const int64_t v = q.int_value();
    if (v == 0) return n;
    n.negative = v < 0;
    n.mag =
        n.negative ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    n.exp = q.int_scale();
  } else {
    const std::vector<uint32_t>& limbs = q.dec_mag();
    if (limbs.empty()) return n;
    n.negative = q.dec_negative();
    n.exp = q.dec_pow10() - q.dec_scale();
    if (limbs.size() > 2) {
      n.big = &limbs;  // already free of factors of ten
      return n;
    }
    n.mag = limbs[0] | (limbs.size() > 1 ? uint64_t{limbs[1]} << 32 : 0);
  }
  while (n.mag % 10 == 0) {
    n.mag /= 10;
    ++n.exp;
  }
  return n;
}

}  // namespace

bool SemanticEqual(const Quantity& a, const Quantity& b) {
  const Normal x = Normalize(a);
  const Normal y = Normalize(b);
  if (x.big != nullptr || y.big != nullptr) {
    return x.big != nullptr && y.big != nullptr && *x.big == *y.big &&
           x.exp == y.exp && x.negative == y.negative;
  }
  if (x.mag == 0 || y.mag == 0) return x.mag == y.mag;
  return x.mag == y.mag && x.exp == y.exp && x.negative == y.negative;
}

bool AllocatableChangedSemantic(const Node& a, const Node& b) {
  return !std::equal(
      a.allocatable.begin(), a.allocatable.end(), b.allocatable.begin(),
      b.allocatable.end(), [](const auto& x, const auto& y) {
        return x.first == y.first && SemanticEqual(x.second, y.second);
      });
}

bool LabelsChangedSemantic(const Node& a, const Node& b) {
  return a.labels != b.labels;
}

bool TaintsChangedSemantic(const Node& a, const Node& b) {
  return a.taints != b.taints;
}

bool ConditionsChanged(const Node& a, const Node& b) {
  if (a.conditions == b.conditions) return false;
  auto statuses = [](const Node& n) {
    std::map<std::string, std::string> m;
    for (const NodeCondition& c : n.conditions) m[c.type] = c.status;
    return m;
  };
  return statuses(a) != statuses(b);
}

bool GoEqual(const Quantity& a, const Quantity& b) {
  // The same text parses to the same fields.
  if (a.text() == b.text()) return true;
  if (a.format() != b.format() || a.is_dec() != b.is_dec() ||
      a.cached_text() != b.cached_text()) {
    return false;
  }
  if (a.is_dec()) {
    return a.dec_scale() == b.dec_scale() &&
           a.dec_negative() == b.dec_negative() &&
           a.dec_pow10() == b.dec_pow10() && a.dec_mag() == b.dec_mag();
  }
  return a.int_scale() == b.int_scale() && a.int_value() == b.int_value();
}

bool PodUpdated(const Pod& o, const Pod& n, bool scheduling_gates) {
  // resourceVersion and status (nominatedNodeName) are not compared, nor
  // the gates (nil or not) of a PodSpec without them.
  const uint32_t compared =
      scheduling_gates ? ~0u
                       : ~(1u << static_cast<int>(Nilable::kSchedulingGates));
  if ((PodNils(o) & compared) != (PodNils(n) & compared)) return true;
  if (o.name != n.name || o.namespace_ != n.namespace_ || o.uid != n.uid ||
      o.labels != n.labels || o.annotations != n.annotations ||
      o.deletion_timestamp.has_value() != n.deletion_timestamp.has_value() ||
      (o.deletion_timestamp &&
       !SameGoInstant(*o.deletion_timestamp, *n.deletion_timestamp)) ||
      o.scheduler_name != n.scheduler_name || o.priority != n.priority ||
      o.node_name != n.node_name || o.node_selector != n.node_selector ||
      o.tolerations != n.tolerations ||
      (scheduling_gates && o.scheduling_gates != n.scheduling_gates)) {
    return true;
  }
  if (!Containers(o.containers, n.containers) ||
      !Containers(o.init_containers, n.init_containers) ||
      !Lists(o.overhead, n.overhead)) {
    return true;
  }
  if (o.required_node_affinity.has_value() !=
      n.required_node_affinity.has_value()) {
    return true;
  }
  if (o.required_node_affinity &&
      !Elements(
          *o.required_node_affinity, *n.required_node_affinity,
          [](const NodeSelectorTerm& x, const NodeSelectorTerm& y) {
            const uint32_t xn =
                NilBit(x.match_expressions, x.given_empty,
                       Nilable::kMatchExpressions) |
                NilBit(x.match_fields, x.given_empty, Nilable::kMatchFields);
            const uint32_t yn =
                NilBit(y.match_expressions, y.given_empty,
                       Nilable::kMatchExpressions) |
                NilBit(y.match_fields, y.given_empty, Nilable::kMatchFields);
            return xn == yn &&
                   Requirements(x.match_expressions, y.match_expressions) &&
                   Requirements(x.match_fields, y.match_fields);
          })) {
    return true;
  }
  return !Elements(
      o.required_pod_affinity, n.required_pod_affinity,
      [](const PodAffinityTerm& x, const PodAffinityTerm& y) {
        return x.topology_key == y.topology_key &&
               x.namespaces == y.namespaces &&
               NilBit(x.namespaces, x.given_empty, Nilable::kNamespaces) ==
                   NilBit(y.namespaces, y.given_empty, Nilable::kNamespaces) &&
               Selectors(x.label_selector, y.label_selector) &&
               Selectors(x.namespace_selector, y.namespace_selector);
      });
}

bool AllocatableChanged(const Node& a, const Node& b) {
  return NilBit(a.allocatable, a.given_empty, Nilable::kAllocatable) !=
             NilBit(b.allocatable, b.given_empty, Nilable::kAllocatable) ||
         !Lists(a.allocatable, b.allocatable);
}

bool LabelsChanged(const Node& a, const Node& b) {
  return NilBit(a.labels, a.given_empty, Nilable::kLabels) !=
             NilBit(b.labels, b.given_empty, Nilable::kLabels) ||
         a.labels != b.labels;
}

bool TaintsChanged(const Node& a, const Node& b) {
  return NilBit(a.taints, a.given_empty, Nilable::kTaints) !=
             NilBit(b.taints, b.given_empty, Nilable::kTaints) ||
         a.taints != b.taints;
}

}  // namespace schedtrace::impl
