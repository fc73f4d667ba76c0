// The scheduler layer's filter plugins over precomputed facts: what the five
// filters (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity,
// NodeResourcesFit, upstream framework/plugins/*) and preCheckForNode read of
// a node object (NodeFacts, computed once per object) and of the pod being
// scheduled (PodFacts, computed once per cycle), so that filtering one node
// is a few comparisons and label lookups, with no allocation.
//
//   PodFacts pod;
//   ComputePodFacts(*pod_ptr, cache, pod);
//   int failed = RunFilters(pod, node_facts, pod_count, requested, up);
//   if (failed != kPass) fit_error_mask |= 1u << failed;
#ifndef SCHEDTRACE_IMPL_FILTERS_H_
#define SCHEDTRACE_IMPL_FILTERS_H_

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "core/objects.h"
#include "impl/cache.h"
#include "impl/upstream.h"

namespace schedtrace::impl {

// The filter plugins in the order upstream's RunFilterPlugins runs them;
// FitError masks use bit `plugin`.
enum FilterPlugin : int {
  kNodeUnschedulable = 0,
  kNodeName = 1,
  kTaintToleration = 2,
  kNodeAffinity = 3,
  kNodeResourcesFit = 4,
};
inline constexpr int kPass = -1;

// The names of the plugins in `mask`, sorted (a FitError's plugin set).
std::vector<std::string> FilterPluginNames(uint32_t mask);

// What the filters read of one node object.
struct NodeFacts {
  NodePtr node;  // null: not computed
  int64_t alloc_cpu = 0, alloc_memory = 0, alloc_ephemeral = 0;
  int64_t alloc_pods = 0;
  absl::InlinedVector<std::pair<uint32_t, int64_t>, 2> alloc_scalars;
  bool unschedulable = false;      // spec.unschedulable
  bool has_filter_taints = false;  // any NoSchedule or NoExecute taint
  int64_t score = 0;               // the TraceScore plugin's score
};
void ComputeNodeFacts(const NodePtr& node, Cache& cache, NodeFacts& out);

// What the filters read of the pod being scheduled.
struct PodFacts {
  const Pod* pod = nullptr;
  Requests request;           // scalars without zeros
  bool request_empty = true;  // no non-zero request but pods
  bool tolerates_unschedulable = false;
  bool affinity_trivial = true;  // no nodeSelector, no required affinity
  // Per required node-affinity term: 0 empty (dropped), 1 invalid (never
  // matches), 2 to evaluate.
  absl::InlinedVector<uint8_t, 2> term_kind;
  // The nodeSelector and required terms as a string: pods with equal
  // signatures match the same nodes (for memoizing).
  std::string affinity_signature;
};
void ComputePodFacts(const Pod& pod, Cache& cache, PodFacts& out);

// Adds a pod's requests (upstream: calculateResource, NodeInfo.update) to
// `into`, wrapping as Go does.
void AddPodRequests(const Pod& pod, Cache& cache, Requests& into);

// What NodeResourcesFit compares of a NodeInfo with `pod_count` pods and
// `requested`: whether one more pod exceeds its allocatable pod count, and
// the allocatable cpu (milli), memory and ephemeral storage left, wrapping
// as Go does.
struct Headroom {
  bool full = false;
  int64_t cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral = 0;
};
Headroom HeadroomOf(const NodeFacts& node, int64_t pod_count,
                    const Requests& requested);

// What NodeResourcesFit compares of the pod against a Headroom: its cpu,
// memory and ephemeral-storage requests, or INT64_MIN (more than nothing is
// left) for an amount the version does not compare.
struct FitNeed {
  int64_t cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral = 0;
};
FitNeed FitNeedOf(const PodFacts& pod, const Upstream& up);

// Whether `need` exceeds `room` in the pod count, cpu, memory or ephemeral
// storage: a reason for NodeResourcesFit to fail, whatever the scalar
// resources.
bool ShortOf(const FitNeed& need, const Headroom& room);

// The nodes of a scan in order, with their Headroom and, apart, the cpu
// they have left (the least int64 for a full node): most nodes a scan
// passes over are short of cpu, found in a dense array.
class ScanRooms {
 public:
  void Clear() {
    rooms_.clear();
    cpu_.clear();
  }
  void Push(const Headroom& h) {
    rooms_.push_back(h);
    cpu_.push_back(CpuOf(h));
  }
  void Set(size_t pos, const Headroom& h) {
    rooms_[pos] = h;
    cpu_[pos] = CpuOf(h);
  }
  size_t size() const { return rooms_.size(); }
  // The first position from `from` on that is not ShortOf `need`, or
  // size(): a scan for a pod's first feasible node need not filter the
  // nodes before it.
  size_t Next(const FitNeed& need, size_t from) const;

 private:
  static int64_t CpuOf(const Headroom& h) {
    return h.full ? std::numeric_limits<int64_t>::min() : h.cpu;
  }

  std::vector<Headroom> rooms_;
  std::vector<int64_t> cpu_;
};

// upstream: RunFilterPlugins on a NodeInfo of `node` with `pod_count` pods
// and `requested`: the first failing plugin, or kPass. `up` is the
// version's profile. `affinity` memoizes NodeAffinity's verdict for this
// pod and node (-1 unknown, then 0 or 1; may be null).
int RunFilters(const PodFacts& pod, const NodeFacts& node, int64_t pod_count,
               const Requests& requested, const Upstream& up,
               int8_t* affinity = nullptr);

// upstream: noderesources.fitsRequest on a NodeInfo of `node` with
// `pod_count` pods and `requested`: whether there is any reason not to fit.
bool InsufficientResources(const PodFacts& pod, const NodeFacts& node,
                           int64_t pod_count, const Requests& requested,
                           const Upstream& up);

// upstream: v1helper.FindMatchingUntoleratedTaint with
// DoNotScheduleTaintsFilterFunc: whether some NoSchedule or NoExecute
// taint of `node` is not tolerated by `pod`.
bool HasUntoleratedFilterTaint(const Pod& pod, const Node& node);

// upstream: whether some toleration of `pod` tolerates `taint`.
bool PodToleratesTaint(const Pod& pod, const Taint& taint);

// upstream: GetRequiredNodeAffinity(pod).Match(node) with its error: the
// node matches, or no term matched and some term could not be parsed.
struct AffinityVerdict {
  bool matched = false;
  bool error = false;
};
AffinityVerdict RequiredAffinityVerdict(const Pod& pod, const Node& node);

// upstream: preCheckForNode (AdmissionCheck): fits, node affinity, node
// name, NoSchedule taints.
bool PreCheckForNode(const PodFacts& pod, const NodeFacts& node,
                     int64_t pod_count, const Requests& requested,
                     const Upstream& up);

// upstream: NodeAffinity.PreFilter.
struct PreFilterResult {
  bool unresolvable = false;       // the terms' node names conflict
  bool all_nodes = true;           // no node-name restriction
  std::vector<std::string> names;  // sorted, unique (when !all_nodes)
};
PreFilterResult NodeAffinityPreFilter(const Pod& pod, const Upstream& up);

// The TraceScore plugin: the label schedtrace.io/score as strconv.Atoi
// reads it (a sign allowed: "+5" is 5), else 0.
int64_t TraceScoreOf(const Node& node);

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_FILTERS_H_
