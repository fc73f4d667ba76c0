#include "properties/schedulable.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>

#include "model/resource.h"

namespace schedtrace::properties {
namespace {

// A label key or value the oracle reads as it is written: characters of
// qualified names only, alphanumeric at both ends, at most 63 after a
// prefix. Anything else (which the API's validation decides) is unknown.
bool PlainLabelText(const std::string& s, bool key) {
  if (s.empty()) return !key;
  std::string_view name = s;
  if (key) {
    const size_t slash = s.find('/');
    if (slash != std::string::npos) {
      if (slash == 0 || s.size() - slash - 1 == 0) return false;
      name = std::string_view(s).substr(slash + 1);
    }
  }
  if (name.size() > 63) return false;
  auto alnum = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c));
  };
  if (!alnum(name.front()) || !alnum(name.back())) return false;
  return std::all_of(s.begin(), s.end(), [&](char c) {
    return alnum(c) || c == '-' || c == '_' || c == '.' || (key && c == '/');
  });
}

bool ParseInt64(const std::string& s, int64_t* out) {
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, *out);
  return ec == std::errc() && ptr == end && !s.empty();
}

// upstream: labels.Requirement.Matches of a NodeSelectorRequirement
// (nodeSelectorRequirementsAsSelector); `value` null: no such label.
Fit RequirementMatches(const NodeSelectorRequirement& r,
                       const std::string* value) {
  if (!PlainLabelText(r.key, true)) return Fit::kUnknown;
  for (const std::string& v : r.values) {
    if (!PlainLabelText(v, false)) return Fit::kUnknown;
  }
  const auto& vs = r.values;
  auto yes = [](bool b) { return b ? Fit::kYes : Fit::kNo; };
  if (r.op == "In" || r.op == "NotIn") {
    if (vs.empty()) return Fit::kUnknown;
    const bool in =
        value != nullptr && std::find(vs.begin(), vs.end(), *value) != vs.end();
    return yes(r.op == "In" ? in : !in);
  }
  if (r.op == "Exists" || r.op == "DoesNotExist") {
    if (!vs.empty()) return Fit::kUnknown;
    return yes((value != nullptr) == (r.op == "Exists"));
  }
  if (r.op == "Gt" || r.op == "Lt") {
    int64_t bound = 0, have = 0;
    if (vs.size() != 1 || !ParseInt64(vs[0], &bound)) return Fit::kUnknown;
    if (value == nullptr || !ParseInt64(*value, &have)) return Fit::kNo;
    return yes(r.op == "Gt" ? have > bound : have < bound);
  }
  return Fit::kUnknown;
}

// upstream: nodeaffinity.RequiredNodeAffinity.Match: the nodeSelector's
// labels all equal, and one of the required terms matches (a term with
// neither expressions nor fields matches nothing; matchFields knows
// metadata.name only).
Fit NodeAffinityFits(const Pod& pod, const Node& node) {
  for (const auto& [k, v] : pod.node_selector) {
    auto it = node.labels.find(k);
    if (it == node.labels.end() || it->second != v) return Fit::kNo;
  }
  if (!pod.required_node_affinity.has_value()) return Fit::kYes;
  bool unknown = false;
  for (const NodeSelectorTerm& term : *pod.required_node_affinity) {
    if (term.match_expressions.empty() && term.match_fields.empty()) continue;
    Fit all = Fit::kYes;
    for (const NodeSelectorRequirement& r : term.match_expressions) {
      auto it = node.labels.find(r.key);
      const Fit f = RequirementMatches(
          r, it == node.labels.end() ? nullptr : &it->second);
      if (f == Fit::kNo) all = Fit::kNo;
      if (f == Fit::kUnknown && all == Fit::kYes) all = Fit::kUnknown;
    }
    for (const NodeSelectorRequirement& r : term.match_fields) {
      if (r.key != "metadata.name" || (r.op != "In" && r.op != "NotIn") ||
          r.values.size() != 1) {
        if (all == Fit::kYes) all = Fit::kUnknown;
        continue;
      }
      const bool in = r.values[0] == node.name;
      if ((r.op == "In") != in) all = Fit::kNo;
    }
    if (all == Fit::kYes) return Fit::kYes;
    if (all == Fit::kUnknown) unknown = true;
  }
  return unknown ? Fit::kUnknown : Fit::kNo;
}

// upstream: v1helper.TolerationsTolerateTaint / Toleration.ToleratesTaint.
bool Tolerates(const std::vector<Toleration>& tolerations, const Taint& taint) {
  return std::any_of(tolerations.begin(), tolerations.end(),
                     [&](const Toleration& t) {
                       if (!t.effect.empty() && t.effect != taint.effect)
                         return false;
                       if (!t.key.empty() && t.key != taint.key) return false;
                       if (t.op == "Exists") return true;
                       if (t.op.empty() || t.op == "Equal")
                         return t.value == taint.value;
                       return false;
                     });
}

int64_t Get(const Resources& r, const std::string& name) {
  auto it = r.find(name);
  return it == r.end() ? 0 : it->second;
}

// upstream: NodeResourcesFit's fitsRequest against `requested` and `pods`
// (the NodeInfo with the nominated pods added). cpu, memory and
// ephemeral-storage are compared whatever the pod requests (a zero request
// fails on an overcommitted node) until v1.30 skips zero requests; a
// request of nothing at all checks the pod count only.
Fit ResourcesFit(const Pod& pod, const Resources& allocatable,
                 const Resources& requested, int64_t pods,
                 const model::Upstream& up) {
  if (pods + 1 > Get(allocatable, "pods")) return Fit::kNo;
  Resources request = model::PodRequests(pod, up);
  request.erase("pods");
  // A scalar resource the pod names counts, even at 0 (Resource.Add keeps
  // the entry).
  auto names_scalar = [](const ResourceList& list) {
    return std::any_of(list.begin(), list.end(), [](const auto& e) {
      return model::IsScalarResourceName(e.first);
    });
  };
  bool scalar = names_scalar(pod.overhead);
  for (const auto* containers : {&pod.containers, &pod.init_containers}) {
    for (const Container& c : *containers) {
      scalar = scalar || names_scalar(c.requests);
      // A scalar named at 0 is compared too before v1.26 (its entry is
      // kept at 0; PodRequests leaves zeros out).
      for (const auto& [name, q] : c.requests) {
        if (model::IsScalarResourceName(name)) request.try_emplace(name, 0);
      }
    }
  }
  for (const auto& [name, q] : pod.overhead) {
    if (model::IsScalarResourceName(name)) request.try_emplace(name, 0);
  }
  if (!scalar && Get(request, "cpu") == 0 && Get(request, "memory") == 0 &&
      Get(request, "ephemeral-storage") == 0) {
    return Fit::kYes;
  }
  auto fits = [&](const std::string& name, int64_t amount) {
    int64_t free = 0;
    if (__builtin_sub_overflow(Get(allocatable, name), Get(requested, name),
                               &free)) {
      return Fit::kUnknown;
    }
    return amount > free ? Fit::kNo : Fit::kYes;
  };
  Fit verdict = Fit::kYes;
  for (const char* native : {"cpu", "memory", "ephemeral-storage"}) {
    const int64_t amount = Get(request, native);
    if (up.fit_skips_zero_requests && amount <= 0) continue;
    const Fit f = fits(native, amount);
    if (f == Fit::kNo) return Fit::kNo;
    if (f == Fit::kUnknown) verdict = Fit::kUnknown;
  }
  for (const auto& [name, amount] : request) {
    if (name == "cpu" || name == "memory" || name == "ephemeral-storage") {
      continue;
    }
    if (up.fit_skips_zero_scalar_requests && amount == 0) continue;
    const Fit f = fits(name, amount);
    if (f == Fit::kNo) return Fit::kNo;
    if (f == Fit::kUnknown) verdict = Fit::kUnknown;
  }
  return verdict;
}

}  // namespace

Fit FitsNode(const Pod& pod, const Node& node, const NodeInfoState& info,
             const Cluster& cluster, std::string* failed) {
  auto no = [failed](const char* plugin) {
    if (failed != nullptr) *failed = plugin;
    return Fit::kNo;
  };
  // NodeUnschedulable
  if (node.unschedulable &&
      !Tolerates(pod.tolerations,
                 Taint{"node.kubernetes.io/unschedulable", "", "NoSchedule"})) {
    return no("NodeUnschedulable");
  }
  // NodeName
  if (!pod.node_name.empty() && pod.node_name != node.name) {
    return no("NodeName");
  }
  // TaintToleration
  for (const Taint& taint : node.taints) {
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
    if (!Tolerates(pod.tolerations, taint)) return no("TaintToleration");
  }
  // NodeAffinity
  if (const Fit f = NodeAffinityFits(pod, node); f != Fit::kYes) {
    return f == Fit::kNo ? no("NodeAffinity") : f;
  }
  // NodeResourcesFit, with the pods nominated to the node at the pod's
  // priority or above (not the pod itself).
  Resources requested = info.requested;
  int64_t pods = static_cast<int64_t>(info.pods.size());
  if (cluster.nominated != nullptr) {
    if (auto it = cluster.nominated->find(node.name);
        it != cluster.nominated->end()) {
      for (const std::string& key : it->second) {
        if (key == pod.Key()) continue;
        PodPtr np =
            cluster.nominated_object ? cluster.nominated_object(key) : nullptr;
        if (np == nullptr) return Fit::kUnknown;
        if (np->uid == pod.uid || np->Priority() < pod.Priority()) continue;
        Resources r = model::PodRequests(*np, *cluster.up);
        r.erase("pods");
        for (const auto& [name, amount] : r) {
          if (__builtin_add_overflow(requested[name], amount,
                                     &requested[name])) {
            return Fit::kUnknown;
          }
        }
        ++pods;
      }
    }
  }
  // A negative sum is int64 wrapping (a request beyond the arithmetic's
  // range), not room: the oracle does not judge it.
  if (std::any_of(requested.begin(), requested.end(),
                  [](const auto& e) { return e.second < 0; })) {
    return Fit::kUnknown;
  }
  const Fit f = ResourcesFit(pod, model::NodeAllocatable(node), requested, pods,
                             *cluster.up);
  return f == Fit::kNo ? no("NodeResourcesFit") : f;
}

Fit FitsSomeNode(const Pod& pod, const Cluster& cluster, std::string* node) {
  bool unknown = false;
  for (const auto& entry : *cluster.nodes) {
    const std::string& name = entry.first;
    const Node& object = *entry.second;
    auto info =
        std::find_if(cluster.cache->nodes.begin(), cluster.cache->nodes.end(),
                     [&](const NodeInfoState& n) { return n.name == name; });
    if (info == cluster.cache->nodes.end() || !info->present) {
      unknown = true;  // a node the cache does not show as present
      continue;
    }
    const Fit f = FitsNode(pod, object, *info, cluster, nullptr);
    if (f == Fit::kYes) {
      if (node != nullptr) *node = name;
      return Fit::kYes;
    }
    if (f == Fit::kUnknown) unknown = true;
  }
  return unknown ? Fit::kUnknown : Fit::kNo;
}

}  // namespace schedtrace::properties
