// Cache: the scheduler cache — which pods count on which node, which of them
// are only assumed (the scheduler decided, the apiserver has not confirmed),
// and when an assumed pod whose binding finished expires. A reference model
// of upstream v1.26.7's cacheImpl (internal/cache/cache.go), written to be
// read side by side with it: one method per upstream function, upstream's
// names, upstream's order, bugs included.
//
//   Cache cache(/*ttl_ms=*/30000);           // upstream: newCache(ttl, ...)
//   cache.AddNode(node);
//   absl::Status s = cache.AssumePod(pod);   // pod->node_name set
//   s = cache.FinishBinding(*pod, now_ms);
//   s = cache.cleanupAssumedPods(now_ms);    // expires strictly after the
//                                            // deadline; ttl 0: never
//
// Results: OK; an error upstream returns (any code but kAborted); or a fatal
// status (model/fatal.h: IsFatal) where upstream panics or calls
// klog.FlushAndExit. After a fatal status the cache is in an unspecified
// state, like upstream's dead process: stop using it.
//
// Keys: pods are keyed by uid (framework.GetPodKey), as upstream does; a pod
// argument that is null is fatal (upstream dereferences it), one with an
// empty uid is an error. NodeInfos are keyed by node name; a NodeInfo whose
// node is null is a placeholder that lives while it holds pods.
//
// Time is the caller's: integer milliseconds (the trace's clock).
#ifndef SCHEDTRACE_MODEL_CACHE_H_
#define SCHEDTRACE_MODEL_CACHE_H_

#include <cstdint>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/objects.h"
#include "model/go_time.h"
#include "model/node_info.h"
#include "model/node_tree.h"
#include "model/snapshot.h"
#include "model/upstream.h"

namespace schedtrace::model {

class Cache {
 public:
  // upstream: podState (cache.go).
  struct PodState {
    PodPtr pod;
    // nullopt: never expires (not finished, or ttl 0).
    std::optional<Time> deadline;
    // Set by FinishBinding: only then may the pod expire.
    bool bindingFinished = false;
  };

  // upstream: newCache(ttl, period, stop); ttl 0 means assumed pods never
  // expire. No goroutine: the caller calls cleanupAssumedPods.
  explicit Cache(int64_t ttl_ms, const Upstream& up = Upstream{});

  // upstream: cacheImpl.UpdateSnapshot: refreshes `nodeSnapshot` with the
  // NodeInfos changed since its generation and lists its nodes in node tree
  // order. The error is upstream's "snapshot state is not consistent" (the
  // lists are rebuilt all the same).
  absl::Status UpdateSnapshot(Snapshot& nodeSnapshot);
  // upstream: cacheImpl.NodeCount: NodeInfos held, placeholders included.
  int NodeCount() const;
  // upstream: cacheImpl.PodCount: pods counted on all NodeInfos.
  int PodCount() const;

  // upstream: cacheImpl.AssumePod: an error when the uid is already cached.
  absl::Status AssumePod(const PodPtr& pod);
  // upstream: cacheImpl.FinishBinding, i.e. finishBinding(pod, time.Now())
  // with `now_ms` as the clock. Never fails for a pod with a uid. With
  // `assumed_pods_never_expire` (v1.36+, which has no FinishBinding) does
  // nothing and never fails.
  absl::Status FinishBinding(const PodPtr& pod, int64_t now_ms);
  // upstream: cacheImpl.ForgetPod: errors for another node than assumed and
  // for a pod that is not assumed (with `forget_of_unknown_pod_succeeds`,
  // v1.35+, not for a pod the cache does not hold).
  absl::Status ForgetPod(const PodPtr& pod);
  // upstream: cacheImpl.AddPod: confirms an assumed pod (also onto another
  // node), re-adds an expired one, errors for one already added.
  absl::Status AddPod(const PodPtr& pod);
  // upstream: cacheImpl.UpdatePod: only for added pods (keyed by the old
  // object's uid); fatal when the new object names another node than cached.
  // Trusts `oldPod`: it is removed from the NodeInfo that it names.
  absl::Status UpdatePod(const PodPtr& oldPod, const PodPtr& newPod);
  // upstream: cacheImpl.RemovePod: removes the cached object; fatal when
  // `pod` names another non-empty node than the cached one.
  absl::Status RemovePod(const PodPtr& pod);
  // upstream: cacheImpl.IsAssumedPod.
  absl::StatusOr<bool> IsAssumedPod(const PodPtr& pod) const;
  // upstream: cacheImpl.GetPod: the cached object for `pod`'s uid.
  absl::StatusOr<PodPtr> GetPod(const PodPtr& pod) const;
  // upstream: cacheImpl.AddNode: returns a copy of the node's NodeInfo (with
  // the pods it already holds). Fatal only for a null node.
  absl::StatusOr<NodeInfo> AddNode(const NodePtr& node);
  // upstream: cacheImpl.UpdateNode; `oldNode` may be null.
  absl::StatusOr<NodeInfo> UpdateNode(const NodePtr& oldNode,
                                      const NodePtr& newNode);
  // upstream: cacheImpl.RemoveNode: keeps a placeholder while pods remain;
  // an error for an unknown name or a node the tree does not hold (the
  // NodeInfo has lost its node all the same).
  absl::Status RemoveNode(const NodePtr& node);
  // upstream: cacheImpl.cleanupExpiredAssumedPods: the periodic run, at
  // `now_ms`.
  absl::Status cleanupExpiredAssumedPods(int64_t now_ms);
  // upstream: cacheImpl.cleanupAssumedPods: removes every assumed pod whose
  // binding finished and whose deadline is strictly before `now_ms`. Only
  // fatal statuses are returned (removal errors are logged upstream). With
  // `assumed_pods_never_expire` (v1.36+) does nothing.
  absl::Status cleanupAssumedPods(int64_t now_ms);

  // Read side (upstream's fields, for snapshots, tests and the scheduler
  // layer's filters).
  // NodeInfos by node name, placeholders included.
  const std::map<std::string, NodeInfo>& nodes() const { return nodes_; }
  // Pod states by uid.
  const std::map<std::string, PodState>& podStates() const {
    return pod_states_;
  }
  // Uids of assumed pods.
  const std::set<std::string>& assumedPods() const { return assumed_pods_; }
  // upstream: nodeTree.list(): names of the nodes the tree holds, in the
  // order the scheduler evaluates them.
  std::vector<std::string> NodeTreeList() const { return node_tree_.list(); }

 private:
  // upstream: moveNodeInfoToHead: `name` becomes the most recently updated.
  void moveNodeInfoToHead(const std::string& name);
  // upstream: removeNodeInfoFromList: forgets the NodeInfo of `name`.
  void removeNodeInfoFromList(const std::string& name);
  // upstream: updateNodeInfoSnapshotList.
  void updateNodeInfoSnapshotList(Snapshot& snapshot, bool updateAll);
  // upstream: removeDeletedNodesFromSnapshot.
  void removeDeletedNodesFromSnapshot(Snapshot& snapshot);
  // upstream: finishBinding (the deterministic variant taking now).
  absl::Status finishBinding(const PodPtr& pod, int64_t now_ms);
  // upstream: addPod: counts `pod` on the NodeInfo its node name names
  // (creating a placeholder if needed) and records a fresh state.
  absl::Status addPod(const PodPtr& pod, bool assumePod);
  // upstream: updatePod: removePod(oldPod) then addPod(newPod, false).
  absl::Status updatePod(const PodPtr& oldPod, const PodPtr& newPod);
  // upstream: removePod: uncounts `pod` from the NodeInfo it names (only
  // logged when there is none), drops an emptied placeholder, and forgets
  // the state and the assumption of its uid.
  absl::Status removePod(const PodPtr& pod);

  Upstream up_;
  Duration ttl_;  // time.Duration(assumedPodTtlMs) * time.Millisecond
  // upstream: assumedPods, a set of uids.
  std::set<std::string> assumed_pods_;
  // upstream: podStates, uid -> state.
  std::map<std::string, PodState> pod_states_;
  // upstream: nodes, name -> NodeInfo (the list item's payload).
  std::map<std::string, NodeInfo> nodes_;
  // upstream: the doubly linked list through `nodes` from headNode: names,
  // most recently updated first.
  std::list<std::string> node_list_;
  // upstream: nodeTree.
  NodeTree node_tree_;
};

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_CACHE_H_
