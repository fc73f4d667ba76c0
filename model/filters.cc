#include "model/filters.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <utility>

#include "model/go_int.h"
#include "model/name_validation.h"
#include "model/resource.h"

namespace schedtrace::model {
namespace {

FilterStatus Fail(Code code, std::string plugin, std::string reason) {
  return FilterStatus{code, std::move(plugin), {std::move(reason)}};
}

bool Contains(const std::vector<std::string>& values, const std::string& v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// upstream: labels.NewRequirement's validation of operator and values
// (nodeSelectorRequirementsAsSelector); an invalid requirement makes its
// whole term an error term, which matches nothing.
// labels.NewRequirement also validates the key (validateLabelKey) and
// every value (validateLabelValue): "-5" is no valid Gt value.
bool ValidLabelRequirement(const NodeSelectorRequirement& r) {
  if (!IsQualifiedName(r.key)) return false;
  if (!std::all_of(r.values.begin(), r.values.end(), IsValidLabelValue)) {
    return false;
  }
  if (r.op == "In" || r.op == "NotIn") return !r.values.empty();
  if (r.op == "Exists" || r.op == "DoesNotExist") return r.values.empty();
  if (r.op == "Gt" || r.op == "Lt") {
    int64_t unused;
    return r.values.size() == 1 && ParseGoInt64(r.values[0], unused);
  }
  return false;
}

// upstream: labels.Requirement.Matches.
bool LabelRequirementMatches(const NodeSelectorRequirement& r,
                             const Labels& labels) {
  auto it = labels.find(r.key);
  const bool has = it != labels.end();
  if (r.op == "In") return has && Contains(r.values, it->second);
  if (r.op == "NotIn") return !has || !Contains(r.values, it->second);
  if (r.op == "Exists") return has;
  if (r.op == "DoesNotExist") return !has;
  // Gt, Lt: the label must parse as an integer.
  int64_t have, want;
  if (!has || !ParseGoInt64(it->second, have) ||
      !ParseGoInt64(r.values[0], want)) {
    return false;
  }
  return r.op == "Gt" ? have > want : have < want;
}

// upstream: nodeSelectorTerm.match after newNodeSelectorTerm: an empty
// list of expressions or fields selects nothing (labels.Nothing /
// fields.Nothing) but is only built when the list is non-empty; field
// requirements are In/NotIn with exactly one value over metadata.name.
// Returns nullopt for a term with parse errors.
std::optional<bool> TermMatches(const NodeSelectorTerm& term,
                                const Node& node) {
  for (const auto& r : term.match_expressions) {
    if (!ValidLabelRequirement(r)) return std::nullopt;
  }
  for (const auto& r : term.match_fields) {
    if ((r.op != "In" && r.op != "NotIn") || r.values.size() != 1) {
      return std::nullopt;
    }
  }
  for (const auto& r : term.match_expressions) {
    if (!LabelRequirementMatches(r, node.labels)) return false;
  }
  // upstream: extractNodeFields: {metadata.name: name} when the name is set;
  // the field selector is skipped for a node without fields.
  if (!term.match_fields.empty() && !node.name.empty()) {
    for (const auto& r : term.match_fields) {
      std::string value = r.key == "metadata.name" ? node.name : "";
      bool equal = value == r.values[0];
      if (r.op == "In" ? !equal : equal) return false;
    }
  }
  return true;
}

}  // namespace

bool ToleratesTaint(const Toleration& t, const Taint& taint) {
  if (!t.effect.empty() && t.effect != taint.effect) return false;
  if (!t.key.empty() && t.key != taint.key) return false;
  if (t.op.empty() || t.op == "Equal") return t.value == taint.value;
  return t.op == "Exists";
}

bool TolerationsTolerateTaint(const std::vector<Toleration>& tolerations,
                              const Taint& taint) {
  return std::any_of(
      tolerations.begin(), tolerations.end(),
      [&](const Toleration& t) { return ToleratesTaint(t, taint); });
}

std::optional<Taint> FindUntoleratedNoScheduleTaint(
    const std::vector<Taint>& taints,
    const std::vector<Toleration>& tolerations) {
  for (const Taint& taint : taints) {
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
    if (!TolerationsTolerateTaint(tolerations, taint)) return taint;
  }
  return std::nullopt;
}

AffinityMatch RequiredNodeAffinityMatch(const Pod& pod, const Node& node) {
  for (const auto& [key, value] : pod.node_selector) {
    auto it = node.labels.find(key);
    if (it == node.labels.end() || it->second != value) return {};
  }
  if (!pod.required_node_affinity) return {.matched = true};
  bool error = false;
  for (const NodeSelectorTerm& term : *pod.required_node_affinity) {
    if (term.match_expressions.empty() && term.match_fields.empty()) continue;
    std::optional<bool> m = TermMatches(term, node);
    if (!m) {
      error = true;
      continue;
    }
    if (*m) return {.matched = true};
  }
  return {.error = error};
}

bool RequiredNodeAffinityMatches(const Pod& pod, const Node& node) {
  // upstream: labels.SelectorFromSet(pod.Spec.NodeSelector).
  for (const auto& [key, value] : pod.node_selector) {
    auto it = node.labels.find(key);
    if (it == node.labels.end() || it->second != value) return false;
  }
  if (!pod.required_node_affinity) return true;
  // upstream: LazyErrorNodeSelector.Match: terms are ORed; empty terms are
  // dropped; terms with parse errors never match.
  for (const NodeSelectorTerm& term : *pod.required_node_affinity) {
    if (term.match_expressions.empty() && term.match_fields.empty()) continue;
    std::optional<bool> m = TermMatches(term, node);
    if (m && *m) return true;
  }
  return false;
}

PreFilterResult NodeAffinityPreFilter(const Pod& pod, const Upstream& up) {
  PreFilterResult result;
  if (!pod.required_node_affinity || pod.required_node_affinity->empty()) {
    return result;
  }
  std::optional<std::set<std::string>> names;
  for (const NodeSelectorTerm& term : *pod.required_node_affinity) {
    std::optional<std::set<std::string>> term_names;
    for (const auto& r : term.match_fields) {
      if (r.key != "metadata.name" || r.op != "In") continue;
      std::set<std::string> s(r.values.begin(), r.values.end());
      if (!term_names) {
        term_names = s;
      } else {
        std::set<std::string> both;
        std::set_intersection(term_names->begin(), term_names->end(), s.begin(),
                              s.end(), std::inserter(both, both.begin()));
        term_names = both;
      }
    }
    if (!term_names) return result;  // a term without names: every node
    // v1.26 fails on the first term whose names conflict; v1.30 unions the
    // terms and fails only when the union is empty (below).
    if (term_names->empty() && !up.node_affinity_pre_filter_unions_terms) {
      result.status = Fail(Code::kUnschedulableAndUnresolvable, "NodeAffinity",
                           "pod affinity terms conflict");
      return result;
    }
    if (!names) names.emplace();
    names->insert(term_names->begin(), term_names->end());
  }
  if (names && names->empty()) {  // v1.30: every term conflicts
    result.status = Fail(Code::kUnschedulableAndUnresolvable, "NodeAffinity",
                         "pod affinity terms conflict");
    return result;
  }
  result.node_names = names;
  return result;
}

FilterStatus NodeUnschedulableFilter(const Pod& pod, const NodeInfo& info) {
  if (info.node() == nullptr) {
    return Fail(Code::kUnschedulableAndUnresolvable, "NodeUnschedulable",
                "node(s) had unknown conditions");
  }
  Taint unschedulable{"node.kubernetes.io/unschedulable", "", "NoSchedule"};
  if (info.node()->unschedulable &&
      !TolerationsTolerateTaint(pod.tolerations, unschedulable)) {
    return Fail(Code::kUnschedulableAndUnresolvable, "NodeUnschedulable",
                "node(s) were unschedulable");
  }
  return {};
}

FilterStatus NodeNameFilter(const Pod& pod, const NodeInfo& info) {
  if (info.node() == nullptr) {
    return Fail(Code::kError, "NodeName", "node not found");
  }
  if (!pod.node_name.empty() && pod.node_name != info.node()->name) {
    return Fail(Code::kUnschedulableAndUnresolvable, "NodeName",
                "node(s) didn't match the requested node name");
  }
  return {};
}

FilterStatus TaintTolerationFilter(const Pod& pod, const NodeInfo& info) {
  if (info.node() == nullptr) {
    return Fail(Code::kError, "TaintToleration", "invalid nodeInfo");
  }
  std::optional<Taint> taint =
      FindUntoleratedNoScheduleTaint(info.node()->taints, pod.tolerations);
  if (!taint) return {};
  return Fail(Code::kUnschedulableAndUnresolvable, "TaintToleration",
              "node(s) had untolerated taint {" + taint->key + ": " +
                  taint->value + "}");
}

FilterStatus NodeAffinityFilter(const Pod& pod, const NodeInfo& info) {
  if (info.node() == nullptr) {
    return Fail(Code::kError, "NodeAffinity", "node not found");
  }
  if (!RequiredNodeAffinityMatches(pod, *info.node())) {
    return Fail(Code::kUnschedulableAndUnresolvable, "NodeAffinity",
                "node(s) didn't match Pod's node affinity/selector");
  }
  return {};
}

namespace {

// upstream: the preFilterState of noderesources (a framework.Resource): the
// pod's request. A scalar resource requested with amount 0 is an entry of
// its own (Resource.SetScalar stores whatever it is given).
struct PodResourceRequest {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  std::map<std::string, int64_t> scalar_resources;

  // upstream: Resource.Add (framework/types.go); AllowedPodNumber is not
  // read by the fit check and is left out.
  void Add(const ResourceList& rl) {
    for (const auto& [name, quantity] : rl) {
      if (name == "cpu") {
        milli_cpu = WrapAdd(milli_cpu, quantity.MilliValue());
      } else if (name == "memory") {
        memory = WrapAdd(memory, quantity.Value());
      } else if (name == "ephemeral-storage") {
        ephemeral_storage = WrapAdd(ephemeral_storage, quantity.Value());
      } else if (name != "pods" && IsScalarResourceName(name)) {
        int64_t& v = scalar_resources[name];  // AddScalar -> SetScalar
        v = WrapAdd(v, quantity.Value());
      }
    }
  }
  // upstream: Resource.SetMaxResource (framework/types.go).
  void SetMaxResource(const ResourceList& rl) {
    for (const auto& [name, quantity] : rl) {
      if (name == "memory") {
        memory = std::max(memory, quantity.Value());
      } else if (name == "cpu") {
        milli_cpu = std::max(milli_cpu, quantity.MilliValue());
      } else if (name == "ephemeral-storage") {
        ephemeral_storage = std::max(ephemeral_storage, quantity.Value());
      } else if (name != "pods" && IsScalarResourceName(name)) {
        int64_t& v = scalar_resources[name];
        v = std::max(v, quantity.Value());
      }
    }
  }
};

// upstream: computePodResourceRequest (noderesources/fit.go)
PodResourceRequest computePodResourceRequest(const Pod& pod,
                                             const Upstream& up) {
  PodResourceRequest result;
  // v1.27+ (kubernetes#115367): SetMaxResource(resourcehelper.PodRequests)
  // on a zero Resource: the exact sums, each at least 0.
  if (up.pod_requests_summed_as_quantities && CheckRequestsSummable(pod).ok()) {
    result.SetMaxResource(PodRequestQuantities(pod));
    return result;
  }
  for (const Container& c : pod.containers) result.Add(c.requests);
  for (const Container& c : pod.init_containers) {
    result.SetMaxResource(c.requests);
  }
  result.Add(pod.overhead);
  return result;
}

}  // namespace

// upstream: fitsRequest (noderesources/fit.go), its reasons.
std::vector<std::string> InsufficientResources(const Pod& pod,
                                               const NodeInfo& info,
                                               const Upstream& up) {
  std::vector<std::string> reasons;
  auto get = [](const Resources& r, const std::string& name) -> int64_t {
    auto it = r.find(name);
    return it == r.end() ? 0 : it->second;
  };
  const Resources& allocatable = info.allocatable();
  const Resources& requested = info.requested();
  if (static_cast<int64_t>(info.pods().size()) + 1 > get(allocatable, "pods")) {
    reasons.push_back("Too many pods");
  }
  const PodResourceRequest request = computePodResourceRequest(pod, up);
  // Only a request of nothing at all returns early: a scalar entry of 0
  // goes on to the comparisons below.
  if (request.milli_cpu == 0 && request.memory == 0 &&
      request.ephemeral_storage == 0 && request.scalar_resources.empty()) {
    return reasons;
  }
  const std::pair<const char*, int64_t> native[] = {
      {"cpu", request.milli_cpu},
      {"memory", request.memory},
      {"ephemeral-storage", request.ephemeral_storage}};
  for (const auto& [name, amount] : native) {
    // v1.30 (kubernetes/kubernetes#116408): a resource requested at zero is not
    // checked.
    if (up.fit_skips_zero_requests && amount <= 0) continue;
    if (amount > WrapSub(get(allocatable, name), get(requested, name))) {
      reasons.push_back(std::string("Insufficient ") + name);
    }
  }
  for (const auto& [name, amount] : request.scalar_resources) {
    // v1.26 (kubernetes/kubernetes#111544): a scalar requested at zero is not
    // checked.
    if (up.fit_skips_zero_scalar_requests && amount == 0) continue;
    if (amount > WrapSub(get(allocatable, name), get(requested, name))) {
      reasons.push_back("Insufficient " + name);
    }
  }
  return reasons;
}

FilterStatus NodeResourcesFitFilter(const Pod& pod, const NodeInfo& info,
                                    const Upstream& up) {
  std::vector<std::string> reasons = InsufficientResources(pod, info, up);
  if (reasons.empty()) return {};
  return FilterStatus{Code::kUnschedulable, "NodeResourcesFit",
                      std::move(reasons)};
}

FilterStatus RunFilterPlugins(const Pod& pod, const NodeInfo& info,
                              const Upstream& up) {
  for (auto* filter : {&NodeUnschedulableFilter, &NodeNameFilter,
                       &TaintTolerationFilter, &NodeAffinityFilter}) {
    FilterStatus s = filter(pod, info);
    if (!s.ok()) return s;
  }
  return NodeResourcesFitFilter(pod, info, up);
}

}  // namespace schedtrace::model
