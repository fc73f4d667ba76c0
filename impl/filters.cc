#include "impl/filters.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <set>

#include "impl/go_int.h"
#include "impl/names.h"

namespace schedtrace::impl {
namespace {

// upstream: strconv.ParseInt(s, 10, 64): one optional sign, digits only.
bool ParseGoInt(const std::string& s, int64_t& out) {
  const char* b = s.data();
  const char* e = b + s.size();
  if (b == e) return false;
  if (*b == '+' && e - b > 1 && b[1] != '-') ++b;
  auto [p, ec] = std::from_chars(b, e, out);
  return ec == std::errc() && p == e;
}

// upstream: labels.NewRequirement's checks
// (nodeSelectorRequirementsAsSelector).
bool RequirementValid(const NodeSelectorRequirement& r) {
  if (!QualifiedName(r.key)) return false;
  for (const std::string& v : r.values) {
    if (!v.empty() && !NamePart(v)) return false;
  }
  if (r.op == "In" || r.op == "NotIn") return !r.values.empty();
  if (r.op == "Exists" || r.op == "DoesNotExist") return r.values.empty();
  if (r.op == "Gt" || r.op == "Lt") {
    int64_t v;
    return r.values.size() == 1 && ParseGoInt(r.values[0], v);
  }
  return false;
}

bool TermValid(const NodeSelectorTerm& t) {
  for (const auto& r : t.match_expressions) {
    if (!RequirementValid(r)) return false;
  }
  for (const auto& r : t.match_fields) {
    if ((r.op != "In" && r.op != "NotIn") || r.values.size() != 1) {
      return false;
    }
  }
  return true;
}

// upstream: labels.Requirement.Matches.
bool RequirementMatches(const NodeSelectorRequirement& r, const Labels& l) {
  auto it = l.find(r.key);
  const bool has = it != l.end();
  auto in = [&] {
    return std::find(r.values.begin(), r.values.end(), it->second) !=
           r.values.end();
  };
  if (r.op == "In") return has && in();
  if (r.op == "NotIn") return !has || !in();
  if (r.op == "Exists") return has;
  if (r.op == "DoesNotExist") return !has;
  int64_t have, want;
  if (!has || !ParseGoInt(it->second, have) || !ParseGoInt(r.values[0], want)) {
    return false;
  }
  return r.op == "Gt" ? have > want : have < want;
}

// A valid term against a node: expressions, then metadata.name fields.
bool TermMatches(const NodeSelectorTerm& t, const Node& node) {
  for (const auto& r : t.match_expressions) {
    if (!RequirementMatches(r, node.labels)) return false;
  }
  if (!t.match_fields.empty() && !node.name.empty()) {
    for (const auto& r : t.match_fields) {
      const bool equal =
          (r.key == "metadata.name" ? node.name : std::string()) == r.values[0];
      if (r.op == "In" ? !equal : equal) return false;
    }
  }
  return true;
}

// upstream: GetRequiredNodeAffinity(pod).Match(node).
bool AffinityMatches(const PodFacts& pf, const Node& node) {
  if (pf.affinity_trivial) return true;
  const Pod& pod = *pf.pod;
  for (const auto& [k, v] : pod.node_selector) {
    auto it = node.labels.find(k);
    if (it == node.labels.end() || it->second != v) return false;
  }
  if (!pod.required_node_affinity) return true;
  const auto& terms = *pod.required_node_affinity;
  for (size_t i = 0; i < terms.size(); ++i) {
    if (pf.term_kind[i] == 2 && TermMatches(terms[i], node)) return true;
  }
  return false;
}

// upstream: Toleration.ToleratesTaint.
bool Tolerates(const Toleration& t, const std::string& key,
               const std::string& value, const std::string& effect) {
  if (!t.effect.empty() && t.effect != effect) return false;
  if (!t.key.empty() && t.key != key) return false;
  if (t.op.empty() || t.op == "Equal") return t.value == value;
  return t.op == "Exists";
}

// upstream: TaintToleration.Filter looks at NoSchedule and NoExecute taints.
bool FilterTaintEffect(const std::string& effect) {
  return effect == "NoSchedule" || effect == "NoExecute";
}

bool AnyTolerates(const Pod& pod, const Taint& taint) {
  for (const Toleration& t : pod.tolerations) {
    if (Tolerates(t, taint.key, taint.value, taint.effect)) return true;
  }
  return false;
}

int64_t ScalarOf(const absl::InlinedVector<std::pair<uint32_t, int64_t>, 2>& v,
                 uint32_t id) {
  for (const auto& [sid, amount] : v) {
    if (sid == id) return amount;
  }
  return 0;
}

template <typename V>
int64_t ScalarIn(const V& v, uint32_t id) {
  for (const auto& [sid, amount] : v) {
    if (sid == id) return amount;
  }
  return 0;
}

}  // namespace

bool InsufficientResources(const PodFacts& pf, const NodeFacts& nf,
                           int64_t pod_count, const Requests& requested,
                           const Upstream& up) {
  if (ShortOf(FitNeedOf(pf, up), HeadroomOf(nf, pod_count, requested))) {
    return true;
  }
  if (pf.request_empty) return false;
  for (const auto& [id, amount] : pf.request.scalars) {
    // kubernetes#111544 (v1.26): a scalar resource requested at 0 is
    // skipped.
    if (up.fit_skips_zero_scalar_requests && amount == 0) continue;
    if (amount > WrapSub(ScalarOf(nf.alloc_scalars, id),
                         ScalarIn(requested.scalars, id))) {
      return true;
    }
  }
  return false;
}

namespace {

// upstream: framework.NewResource(node.Status.Allocatable) (Resource.Add):
// cpu in millicores, memory, ephemeral-storage and pods as Value, scalar
// resources by interned id; other names are ignored. A list has each name
// once, so nothing is summed.
void AllocatableRequests(const ResourceList& list, Cache& cache, Requests& out,
                         int64_t& pods) {
  out.cpu = out.memory = out.ephemeral = 0;
  out.scalars.clear();
  pods = 0;
  for (const auto& [name, q] : list) {
    if (name == "cpu") {
      out.cpu = q.MilliValue();
    } else if (name == "memory") {
      out.memory = q.Value();
    } else if (name == "ephemeral-storage") {
      out.ephemeral = q.Value();
    } else if (name == "pods") {
      pods = q.Value();
    } else if (uint32_t id = cache.InternScalar(name);
               id != Cache::kNotScalarResource) {
      out.scalars.push_back({id, q.Value()});
    }
  }
}

}  // namespace

Headroom HeadroomOf(const NodeFacts& nf, int64_t pod_count,
                    const Requests& requested) {
  Headroom h;
  h.full = pod_count + 1 > nf.alloc_pods;
  h.cpu = WrapSub(nf.alloc_cpu, requested.cpu);
  h.memory = WrapSub(nf.alloc_memory, requested.memory);
  h.ephemeral = WrapSub(nf.alloc_ephemeral, requested.ephemeral);
  return h;
}

FitNeed FitNeedOf(const PodFacts& pf, const Upstream& up) {
  // fitsRequest returns before comparing anything for an empty request.
  constexpr int64_t kNotCompared = std::numeric_limits<int64_t>::min();
  FitNeed need{kNotCompared, kNotCompared, kNotCompared};
  if (pf.request_empty) return need;
  const Requests& r = pf.request;
  // kubernetes#116408 (v1.30): cpu, memory and ephemeral-storage are
  // compared only when requested (> 0); before, a pod requesting 0 of an
  // overcommitted resource did not fit.
  const bool all = !up.fit_skips_zero_requests;
  if (all || r.cpu > 0) need.cpu = r.cpu;
  if (all || r.memory > 0) need.memory = r.memory;
  if (all || r.ephemeral > 0) need.ephemeral = r.ephemeral;
  return need;
}

bool ShortOf(const FitNeed& need, const Headroom& room) {
  // Bitwise, without branches: scans compare many nodes.
  return room.full | (need.cpu > room.cpu) | (need.memory > room.memory) |
         (need.ephemeral > room.ephemeral);
}

size_t ScanRooms::Next(const FitNeed& need, size_t from) const {
  const size_t n = rooms_.size();
  while (from < n) {
    // need.cpu > cpu_[i] implies ShortOf (a full node's entry is the least
    // int64, below any cpu compared).
    while (from < n && need.cpu > cpu_[from]) ++from;
    if (from == n || !ShortOf(need, rooms_[from])) return from;
    ++from;
  }
  return n;
}

std::vector<std::string> FilterPluginNames(uint32_t mask) {
  static const char* const kNames[] = {"NodeUnschedulable", "NodeName",
                                       "TaintToleration", "NodeAffinity",
                                       "NodeResourcesFit"};
  std::vector<std::string> out;
  for (int p = 0; p < 5; ++p) {
    if (mask & (1u << p)) out.push_back(kNames[p]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

int64_t TraceScoreOf(const Node& node) {
  auto it = node.labels.find("schedtrace.io/score");
  if (it == node.labels.end()) return 0;
  // strconv.ParseInt's reading, sign included ("+5" is 5).
  int64_t v = 0;
  return ParseGoInt(it->second, v) ? v : 0;
}

void ComputeNodeFacts(const NodePtr& node, Cache& cache, NodeFacts& out) {
  out.node = node;
  Requests alloc;
  int64_t pods = 0;
  AllocatableRequests(node->allocatable, cache, alloc, pods);
  out.alloc_cpu = alloc.cpu;
  out.alloc_memory = alloc.memory;
  out.alloc_ephemeral = alloc.ephemeral;
  out.alloc_pods = pods;
  out.alloc_scalars.assign(alloc.scalars.begin(), alloc.scalars.end());
  out.unschedulable = node->unschedulable;
  out.has_filter_taints = false;
  for (const Taint& t : node->taints) {
    if (FilterTaintEffect(t.effect)) out.has_filter_taints = true;
  }
  out.score = TraceScoreOf(*node);
}

void ComputePodFacts(const Pod& pod, Cache& cache, PodFacts& out) {
  out.pod = &pod;
  cache.ComputeFitRequest(pod, out.request);
  // fitsRequest returns early only for a request of nothing at all: a
  // scalar entry of 0 counts.
  out.request_empty = out.request.cpu == 0 && out.request.memory == 0 &&
                      out.request.ephemeral == 0 && out.request.scalars.empty();
  out.tolerates_unschedulable = false;
  for (const Toleration& t : pod.tolerations) {
    if (Tolerates(t, "node.kubernetes.io/unschedulable", "", "NoSchedule")) {
      out.tolerates_unschedulable = true;
    }
  }
  out.affinity_trivial =
      pod.node_selector.empty() && !pod.required_node_affinity;
  out.term_kind.clear();
  out.affinity_signature.clear();
  if (!out.affinity_trivial) {
    // A prefix-free encoding: every list and string carries its length.
    std::string& sig = out.affinity_signature;
    auto count = [&sig](size_t n) {
      const uint32_t v = static_cast<uint32_t>(n);
      sig.append(reinterpret_cast<const char*>(&v), sizeof v);
    };
    auto add = [&](const std::string& s) {
      count(s.size());
      sig.append(s);
    };
    count(pod.node_selector.size());
    for (const auto& [k, v] : pod.node_selector) {
      add(k);
      add(v);
    }
    count(pod.required_node_affinity ? 1 : 0);
    if (pod.required_node_affinity) {
      count(pod.required_node_affinity->size());
      for (const NodeSelectorTerm& t : *pod.required_node_affinity) {
        for (const auto* list : {&t.match_expressions, &t.match_fields}) {
          count(list->size());
          for (const NodeSelectorRequirement& r : *list) {
            add(r.key);
            add(r.op);
            count(r.values.size());
            for (const std::string& v : r.values) add(v);
          }
        }
      }
    }
  }
  if (pod.required_node_affinity) {
    for (const NodeSelectorTerm& t : *pod.required_node_affinity) {
      if (t.match_expressions.empty() && t.match_fields.empty()) {
        out.term_kind.push_back(0);
      } else {
        out.term_kind.push_back(TermValid(t) ? 2 : 1);
      }
    }
  }
}

void AddPodRequests(const Pod& pod, Cache& cache, Requests& into) {
  Requests r;
  cache.ComputeRequests(pod, r);
  into.cpu = WrapAdd(into.cpu, r.cpu);
  into.memory = WrapAdd(into.memory, r.memory);
  into.ephemeral = WrapAdd(into.ephemeral, r.ephemeral);
  for (const auto& [id, amount] : r.scalars) {
    bool found = false;
    for (auto& [sid, have] : into.scalars) {
      if (sid == id) {
        have = WrapAdd(have, amount);
        found = true;
      }
    }
    if (!found) into.scalars.push_back({id, amount});
  }
}

int RunFilters(const PodFacts& pf, const NodeFacts& nf, int64_t pod_count,
               const Requests& requested, const Upstream& up,
               int8_t* affinity) {
  const Pod& pod = *pf.pod;
  // upstream: NodeUnschedulable.Filter
  if (nf.unschedulable && !pf.tolerates_unschedulable) {
    return kNodeUnschedulable;
  }
  // upstream: NodeName.Filter
  if (!pod.node_name.empty() && pod.node_name != nf.node->name) {
    return kNodeName;
  }
  // upstream: TaintToleration.Filter (NoSchedule and NoExecute taints)
  if (nf.has_filter_taints) {
    for (const Taint& t : nf.node->taints) {
      if (!FilterTaintEffect(t.effect)) continue;
      if (!AnyTolerates(pod, t)) return kTaintToleration;
    }
  }
  // upstream: NodeAffinity.Filter
  if (!pf.affinity_trivial) {
    if (affinity == nullptr) {
      if (!AffinityMatches(pf, *nf.node)) return kNodeAffinity;
    } else {
      if (*affinity < 0) *affinity = AffinityMatches(pf, *nf.node) ? 1 : 0;
      if (*affinity == 0) return kNodeAffinity;
    }
  }
  // upstream: NodeResourcesFit.Filter
  if (InsufficientResources(pf, nf, pod_count, requested, up)) {
    return kNodeResourcesFit;
  }
  return kPass;
}

bool PreCheckForNode(const PodFacts& pf, const NodeFacts& nf, int64_t pod_count,
                     const Requests& requested, const Upstream& up) {
  if (InsufficientResources(pf, nf, pod_count, requested, up)) return false;
  const Node& node = *nf.node;
  if (!AffinityMatches(pf, node)) return false;
  const Pod& pod = *pf.pod;
  if (!pod.node_name.empty() && pod.node_name != node.name) return false;
  for (const Taint& t : node.taints) {
    if (t.effect == "NoSchedule" && !AnyTolerates(pod, t)) return false;
  }
  return true;
}

bool HasUntoleratedFilterTaint(const Pod& pod, const Node& node) {
  for (const Taint& t : node.taints) {
    if (FilterTaintEffect(t.effect) && !AnyTolerates(pod, t)) return true;
  }
  return false;
}

bool PodToleratesTaint(const Pod& pod, const Taint& taint) {
  return AnyTolerates(pod, taint);
}

AffinityVerdict RequiredAffinityVerdict(const Pod& pod, const Node& node) {
  for (const auto& [k, v] : pod.node_selector) {
    auto it = node.labels.find(k);
    if (it == node.labels.end() || it->second != v) return {};
  }
  if (!pod.required_node_affinity) return {.matched = true};
  AffinityVerdict verdict;
  for (const NodeSelectorTerm& t : *pod.required_node_affinity) {
    if (t.match_expressions.empty() && t.match_fields.empty()) continue;
    if (!TermValid(t)) {
      verdict.error = true;
    } else if (TermMatches(t, node)) {
      return {.matched = true};
    }
  }
  return verdict;
}

PreFilterResult NodeAffinityPreFilter(const Pod& pod, const Upstream& up) {
  PreFilterResult result;
  if (!pod.required_node_affinity || pod.required_node_affinity->empty()) {
    return result;
  }
  std::set<std::string> names;
  for (const NodeSelectorTerm& term : *pod.required_node_affinity) {
    bool restricted = false;
    std::set<std::string> term_names;
    for (const auto& r : term.match_fields) {
      if (r.key != "metadata.name" || r.op != "In") continue;
      std::set<std::string> s(r.values.begin(), r.values.end());
      if (!restricted) {
        term_names = std::move(s);
        restricted = true;
      } else {
        std::set<std::string> both;
        for (const std::string& n : term_names) {
          if (s.contains(n)) both.insert(n);
        }
        term_names = std::move(both);
      }
    }
    if (!restricted) return result;  // this term allows every node
    // Before v1.30 a term whose names conflict fails the pod at once; v1.30
    // fails it only when every term's names conflict (below).
    if (term_names.empty() && !up.node_affinity_pre_filter_unions_terms) {
      result.unresolvable = true;
      return result;
    }
    names.insert(term_names.begin(), term_names.end());
  }
  if (names.empty()) {
    result.unresolvable = true;
    return result;
  }
  result.all_nodes = false;
  result.names.assign(names.begin(), names.end());
  return result;
}

}  // namespace schedtrace::impl
