#include "model/node_info.h"

#include <atomic>
#include <utility>

#include "absl/strings/str_cat.h"
#include "model/fatal.h"
#include "model/go_int.h"

namespace schedtrace::model {

// upstream: GetPodKey (framework/types.go)
absl::StatusOr<std::string> GetPodKey(const Pod* pod) {
  if (pod == nullptr) {
    return FatalError("GetPodKey: nil pointer dereference (nil pod)");
  }
  if (pod->uid.empty()) {
    return absl::InvalidArgumentError(
        "cannot get cache key for pod with empty UID");
  }
  return pod->uid;
}

// upstream: nextGeneration (framework/types.go)
int64_t nextGeneration() {
  static std::atomic<int64_t> generation{0};
  return ++generation;
}

// upstream: calculateResource (framework/types.go)
Resources calculateResource(const Pod& pod, const Upstream& up) {
  Resources res = PodRequests(pod, up);
  res.erase("pods");
  return res;
}

// upstream: NewNodeInfo (framework/types.go)
NodeInfo::NodeInfo() : generation_(nextGeneration()) {}

// upstream: NodeInfo.AddPod -> AddPodInfo (framework/types.go)
void NodeInfo::AddPod(PodPtr pod, const Upstream& up) {
  const Pod& p = *pod;
  pods_.push_back(std::move(pod));
  update(p, 1, up);
}

// upstream: NodeInfo.RemovePod (framework/types.go)
absl::Status NodeInfo::RemovePod(const Pod& pod, const Upstream& up) {
  absl::StatusOr<std::string> k = GetPodKey(&pod);
  if (!k.ok()) return k.status();
  for (size_t i = 0; i < pods_.size(); ++i) {
    if (pods_[i]->uid == *k) {
      PodPtr removedPod = std::move(pods_[i]);
      pods_[i] = pods_.back();
      pods_.pop_back();
      // v1.33+ (kubernetes#129635): update(removedPod, -1) subtracts the
      // stored PodInfo's CalculateResource, cached when it was added: the
      // requests of the stored object, computed under the same profile.
      update(up.remove_pod_subtracts_stored_requests ? *removedPod : pod, -1,
             up);
      return absl::OkStatus();
    }
  }
  if (node_ == nullptr) {
    // fmt.Errorf("... of node %s", pod.Name, n.node.Name) with n.node nil.
    return FatalError(absl::StrCat("NodeInfo.RemovePod: no pod ", pod.name,
                                   " on a NodeInfo without node: nil pointer "
                                   "dereference building the error"));
  }
  return absl::NotFoundError(absl::StrCat("no corresponding pod ", pod.name,
                                          " in pods of node ", node_->name));
}

// upstream: NodeInfo.update (framework/types.go); ports, PVC counts and
// NonZeroRequested are not modelled.
void NodeInfo::update(const Pod& pod, int64_t sign, const Upstream& up) {
  for (const auto& [name, amount] : calculateResource(pod, up)) {
    AddAmount(requested_, name, WrapMul(sign, amount));
  }
  generation_ = nextGeneration();
}

// upstream: NodeInfo.SetNode (framework/types.go)
void NodeInfo::SetNode(NodePtr node) {
  allocatable_ = NodeAllocatable(*node);
  node_ = std::move(node);
  generation_ = nextGeneration();
}

// upstream: NodeInfo.RemoveNode (framework/types.go)
void NodeInfo::RemoveNode() {
  node_ = nullptr;
  generation_ = nextGeneration();
}

}  // namespace schedtrace::model
