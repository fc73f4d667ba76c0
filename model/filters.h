// The filter plugins of the scheduler layer's profile, in the order the spec
// runs them: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity,
// NodeResourcesFit. Each is a pure function of the pod and a NodeInfo, as
// upstream's Filter methods are (framework/plugins/*), returning upstream's
// status code and reasons.
//
//   FilterStatus s = RunFilterPlugins(pod, node_info);
//   if (!s.ok()) fit_error.unschedulable_plugins.insert(s.plugin);
#ifndef SCHEDTRACE_MODEL_FILTERS_H_
#define SCHEDTRACE_MODEL_FILTERS_H_

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/objects.h"
#include "model/node_info.h"
#include "model/upstream.h"

namespace schedtrace::model {

// upstream: framework.Code (the subset filters return).
enum class Code {
  kSuccess,
  kError,
  kUnschedulable,
  kUnschedulableAndUnresolvable
};

struct FilterStatus {
  Code code = Code::kSuccess;
  std::string plugin;  // the failed plugin (upstream: Status.FailedPlugin)
  std::vector<std::string> reasons;
  bool ok() const { return code == Code::kSuccess; }
};

// upstream: Toleration.ToleratesTaint (k8s.io/api/core/v1).
bool ToleratesTaint(const Toleration& toleration, const Taint& taint);
// upstream: v1helper.TolerationsTolerateTaint.
bool TolerationsTolerateTaint(const std::vector<Toleration>& tolerations,
                              const Taint& taint);
// upstream: v1helper.FindMatchingUntoleratedTaint with
// DoNotScheduleTaintsFilterFunc (NoSchedule and NoExecute taints only).
std::optional<Taint> FindUntoleratedNoScheduleTaint(
    const std::vector<Taint>& taints,
    const std::vector<Toleration>& tolerations);

// upstream: nodeaffinity.GetRequiredNodeAffinity(pod).Match(node): the
// pod's nodeSelector and required node-affinity terms.
bool RequiredNodeAffinityMatches(const Pod& pod, const Node& node);
// upstream: RequiredNodeAffinity.Match's error too: whether the pod's
// required node affinity matches the node, and whether it failed with an
// error (no term matched and some term could not be parsed).
struct AffinityMatch {
  bool matched = false;
  bool error = false;
};
AffinityMatch RequiredNodeAffinityMatch(const Pod& pod, const Node& node);

// upstream: NodeAffinity.PreFilter: the node names a pod's required terms
// pin with `metadata.name In` match fields (nullopt: every node), or an
// UnschedulableAndUnresolvable status when the terms conflict.
struct PreFilterResult {
  FilterStatus status;
  std::optional<std::set<std::string>> node_names;
};
PreFilterResult NodeAffinityPreFilter(const Pod& pod,
                                      const Upstream& up = Upstream{});

// upstream: <Plugin>.Filter for each of the five plugins.
FilterStatus NodeUnschedulableFilter(const Pod& pod, const NodeInfo& info);
FilterStatus NodeNameFilter(const Pod& pod, const NodeInfo& info);
FilterStatus TaintTolerationFilter(const Pod& pod, const NodeInfo& info);
FilterStatus NodeAffinityFilter(const Pod& pod, const NodeInfo& info);
FilterStatus NodeResourcesFitFilter(const Pod& pod, const NodeInfo& info,
                                    const Upstream& up = Upstream{});

// upstream: frameworkImpl.RunFilterPlugins: the five filters in order, the
// first failure wins (its plugin recorded as the failed plugin).
FilterStatus RunFilterPlugins(const Pod& pod, const NodeInfo& info,
                              const Upstream& up = Upstream{});

// upstream: noderesources.fitsRequest: the reasons a pod does not fit
// (empty: it fits). Shared by the filter and preCheckForNode.
std::vector<std::string> InsufficientResources(const Pod& pod,
                                               const NodeInfo& info,
                                               const Upstream& up = Upstream{});

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_FILTERS_H_
