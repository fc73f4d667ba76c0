// NodeInfo: what the scheduler cache knows about one node name — the node
// object (null for a placeholder whose node was deleted while pods remained),
// the pods counted on it, and their summed requests. A reference model of
// upstream's framework.NodeInfo (framework/types.go), reduced to the parts the
// cache layer and the scheduler layer's filters read: no ports, PVCs, images,
// affinity sublists or NonZeroRequested.
//
//   NodeInfo info;                  // upstream: framework.NewNodeInfo()
//   info.SetNode(node);
//   info.AddPod(pod);               // counts pod's requests
//   absl::Status s = info.RemovePod(*pod);  // error, or fatal for a
//                                           // placeholder (upstream panics)
//
// A NodeInfo is a plain value: copying it is upstream's Clone (the pod
// objects themselves are shared, as upstream shares the *v1.Pod).
#ifndef SCHEDTRACE_MODEL_NODE_INFO_H_
#define SCHEDTRACE_MODEL_NODE_INFO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/objects.h"
#include "model/resource.h"

namespace schedtrace::model {

// upstream: framework.GetPodKey (framework/types.go): the pod's uid; an error
// for an empty uid. A null pod is fatal (upstream dereferences it).
absl::StatusOr<std::string> GetPodKey(const Pod* pod);

// upstream: nextGeneration (framework/types.go): a process-wide counter,
// bumped whenever a NodeInfo changes.
int64_t nextGeneration();

// upstream: calculateResource (framework/types.go), the Requested part: the
// sum over containers, raised to the largest init container, plus overhead,
// without "pods" (NodeInfo.update never counts AllowedPodNumber).
Resources calculateResource(const Pod& pod, const Upstream& up);

class NodeInfo {
 public:
  // upstream: NewNodeInfo (no pods): an empty NodeInfo with a fresh
  // generation and no node.
  NodeInfo();

  // upstream: NodeInfo.Node(); null for a placeholder.
  const NodePtr& node() const { return node_; }
  // upstream: NodeInfo.Pods, in upstream's order (appended on add, the last
  // moved into the hole on remove). The same pod may appear twice (see
  // Cache::updatePod).
  const std::vector<PodPtr>& pods() const { return pods_; }
  // upstream: NodeInfo.Requested (zeros left out).
  const Resources& requested() const { return requested_; }
  // upstream: NodeInfo.Allocatable, set by SetNode (zeros left out).
  const Resources& allocatable() const { return allocatable_; }
  // upstream: NodeInfo.Generation.
  int64_t generation() const { return generation_; }

  // upstream: NodeInfo.AddPod / AddPodInfo.
  // `up` says how the pod's requests are counted (PodRequests).
  void AddPod(PodPtr pod, const Upstream& up);
  // upstream: NodeInfo.RemovePod: removes the first pod with `pod`'s uid and
  // subtracts `pod`'s requests (the argument's, not the stored object's);
  // with `up.remove_pod_subtracts_stored_requests` (v1.33+) the stored
  // object's.
  // Errors: empty uid; no such pod. With no node, upstream's error message
  // dereferences the nil node: fatal.
  absl::Status RemovePod(const Pod& pod, const Upstream& up);
  // upstream: NodeInfo.SetNode.
  void SetNode(NodePtr node);
  // upstream: NodeInfo.RemoveNode: keeps pods and requests.
  void RemoveNode();

 private:
  // upstream: NodeInfo.update: adds (sign +1) or subtracts (sign -1) the pod's
  // requests and bumps the generation.
  void update(const Pod& pod, int64_t sign, const Upstream& up);

  NodePtr node_;
  std::vector<PodPtr> pods_;
  Resources requested_;
  Resources allocatable_;
  int64_t generation_ = 0;
};

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_NODE_INFO_H_
