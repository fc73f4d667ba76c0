#include "model/cache.h"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "model/fatal.h"
#include "model/go_int.h"

namespace schedtrace::model {
namespace {

// What upstream's klog.KObj prints: "namespace/name".
std::string KObj(const Pod& pod) { return pod.Key(); }

}  // namespace

// upstream: newCache (cache.go)
// The config's ttl becomes a Go time.Duration, wrapping as Go's
// multiplication does; ttl 0 is checked on the Duration.
Cache::Cache(int64_t ttl_ms, const Upstream& up)
    : up_(up), ttl_(WrapMul(ttl_ms, 1000000)) {}

// upstream: cacheImpl.moveNodeInfoToHead (cache.go)
void Cache::moveNodeInfoToHead(const std::string& name) {
  if (!nodes_.contains(name)) {
    return;  // "No node info with given name found in the cache" (logged)
  }
  auto it = std::find(node_list_.begin(), node_list_.end(), name);
  if (it != node_list_.end()) node_list_.erase(it);
  node_list_.push_front(name);
}

// upstream: cacheImpl.removeNodeInfoFromList (cache.go)
void Cache::removeNodeInfoFromList(const std::string& name) {
  if (!nodes_.contains(name)) {
    return;  // "No node info with given name found in the cache" (logged)
  }
  auto it = std::find(node_list_.begin(), node_list_.end(), name);
  if (it != node_list_.end()) node_list_.erase(it);
  nodes_.erase(name);
}

// upstream: cacheImpl.UpdateSnapshot (cache.go). The affinity, anti-affinity
// and PVC bookkeeping is not modelled (no plugin of the spec reads it).
absl::Status Cache::UpdateSnapshot(Snapshot& nodeSnapshot) {
  int64_t snapshotGeneration = nodeSnapshot.generation;
  bool updateAllLists = false;

  // From the head: the NodeInfos updated after the last snapshot.
  for (const std::string& name : node_list_) {
    const NodeInfo& info = nodes_.at(name);
    if (info.generation() <= snapshotGeneration) break;
    if (const NodePtr& np = info.node(); np != nullptr) {
      std::shared_ptr<NodeInfo>& existing = nodeSnapshot.nodeInfoMap[np->name];
      if (existing == nullptr) {
        updateAllLists = true;
        existing = std::make_shared<NodeInfo>();
      }
      *existing = info;  // keeps the pointer nodeInfoList may hold
    }
  }
  if (!node_list_.empty()) {
    nodeSnapshot.generation = nodes_.at(node_list_.front()).generation();
  }

  // Deleted nodes leave the tree but may stay in `nodes` as placeholders.
  if (static_cast<int>(nodeSnapshot.nodeInfoMap.size()) >
      node_tree_.numNodes()) {
    removeDeletedNodesFromSnapshot(nodeSnapshot);
    updateAllLists = true;
  }

  if (updateAllLists) {
    updateNodeInfoSnapshotList(nodeSnapshot, updateAllLists);
  }

  if (static_cast<int>(nodeSnapshot.nodeInfoList.size()) !=
      node_tree_.numNodes()) {
    std::string errMsg = absl::StrCat(
        "snapshot state is not consistent, length of NodeInfoList=",
        nodeSnapshot.nodeInfoList.size(),
        " not equal to length of nodes in tree=", node_tree_.numNodes(),
        " , length of NodeInfoMap=", nodeSnapshot.nodeInfoMap.size(),
        ", length of nodes in cache=", nodes_.size(), ", trying to recover");
    updateNodeInfoSnapshotList(nodeSnapshot, true);
    return absl::InternalError(errMsg);
  }
  return absl::OkStatus();
}

// upstream: cacheImpl.updateNodeInfoSnapshotList (cache.go); with updateAll
// false upstream only rebuilds the affinity and PVC lists (not modelled).
void Cache::updateNodeInfoSnapshotList(Snapshot& snapshot, bool updateAll) {
  if (!updateAll) return;
  snapshot.nodeInfoList.clear();
  for (const std::string& nodeName : node_tree_.list()) {
    auto it = snapshot.nodeInfoMap.find(nodeName);
    if (it != snapshot.nodeInfoMap.end() && it->second != nullptr) {
      snapshot.nodeInfoList.push_back(it->second);
    }
    // else: "Node exists in nodeTree but not in NodeInfoMap" (logged)
  }
}

// upstream: cacheImpl.removeDeletedNodesFromSnapshot (cache.go). Upstream
// walks a Go map (random order); when more entries qualify than it deletes,
// which ones go is up to chance there and by name here.
void Cache::removeDeletedNodesFromSnapshot(Snapshot& snapshot) {
  int toDelete =
      static_cast<int>(snapshot.nodeInfoMap.size()) - node_tree_.numNodes();
  for (auto it = snapshot.nodeInfoMap.begin();
       it != snapshot.nodeInfoMap.end();) {
    if (toDelete <= 0) break;
    auto n = nodes_.find(it->first);
    if (n == nodes_.end() || n->second.node() == nullptr) {
      it = snapshot.nodeInfoMap.erase(it);
      --toDelete;
    } else {
      ++it;
    }
  }
}

// upstream: cacheImpl.NodeCount (cache.go)
int Cache::NodeCount() const { return static_cast<int>(nodes_.size()); }

// upstream: cacheImpl.PodCount (cache.go)
int Cache::PodCount() const {
  int count = 0;
  for (const auto& [name, info] : nodes_) {
    count += static_cast<int>(info.pods().size());
  }
  return count;
}

// upstream: cacheImpl.AssumePod (cache.go)
absl::Status Cache::AssumePod(const PodPtr& pod) {
  absl::StatusOr<std::string> key = GetPodKey(pod.get());
  if (!key.ok()) return key.status();
  if (pod_states_.contains(*key)) {
    return absl::AlreadyExistsError(
        absl::StrCat("pod ", *key, "(", KObj(*pod),
                     ") is in the cache, so can't be assumed"));
  }
  return addPod(pod, true);
}

// upstream: cacheImpl.FinishBinding (cache.go). From v1.36
// (kubernetes#136204) the cache has no FinishBinding: nothing is called.
absl::Status Cache::FinishBinding(const PodPtr& pod, int64_t now_ms) {
  if (up_.assumed_pods_never_expire) return absl::OkStatus();
  return finishBinding(pod, now_ms);
}

// upstream: cacheImpl.finishBinding (cache.go)
absl::Status Cache::finishBinding(const PodPtr& pod, int64_t now_ms) {
  absl::StatusOr<std::string> key = GetPodKey(pod.get());
  if (!key.ok()) return key.status();
  auto currState = pod_states_.find(*key);
  if (currState != pod_states_.end() && assumed_pods_.contains(*key)) {
    if (ttl_ == 0) {
      currState->second.deadline = std::nullopt;
    } else {
      currState->second.deadline = Time::FromMs(now_ms).Add(ttl_);
    }
    currState->second.bindingFinished = true;
  }
  return absl::OkStatus();
}

// upstream: cacheImpl.ForgetPod (cache.go)
absl::Status Cache::ForgetPod(const PodPtr& pod) {
  absl::StatusOr<std::string> key = GetPodKey(pod.get());
  if (!key.ok()) return key.status();
  auto currState = pod_states_.find(*key);
  bool ok = currState != pod_states_.end();
  if (!ok && up_.forget_of_unknown_pod_succeeds) {
    // Pod does not exist in the cache anymore (v1.35, kubernetes#134157).
    return absl::OkStatus();
  }
  if (ok && currState->second.pod->node_name != pod->node_name) {
    return absl::FailedPreconditionError(absl::StrCat(
        "pod ", *key, "(", KObj(*pod), ") was assumed on ", pod->node_name,
        " but assigned to ", currState->second.pod->node_name));
  }
  // Only assumed pod can be forgotten.
  if (ok && assumed_pods_.contains(*key)) {
    return removePod(pod);
  }
  return absl::FailedPreconditionError(
      absl::StrCat("pod ", *key, "(", KObj(*pod),
                   ") wasn't assumed so cannot be forgotten"));
}

// upstream: cacheImpl.addPod (cache.go)
absl::Status Cache::addPod(const PodPtr& pod, bool assumePod) {
  absl::StatusOr<std::string> key = GetPodKey(pod.get());
  if (!key.ok()) return key.status();
  // A missing name gets a new NodeInfo without node (a placeholder).
  NodeInfo& n = nodes_[pod->node_name];
  n.AddPod(pod, up_);
  moveNodeInfoToHead(pod->node_name);
  pod_states_[*key] = PodState{.pod = pod, .deadline = std::nullopt};
  if (assumePod) assumed_pods_.insert(*key);
  return absl::OkStatus();
}

// upstream: cacheImpl.updatePod (cache.go)
absl::Status Cache::updatePod(const PodPtr& oldPod, const PodPtr& newPod) {
  if (absl::Status s = removePod(oldPod); !s.ok()) return s;
  return addPod(newPod, false);
}

// upstream: cacheImpl.removePod (cache.go)
absl::Status Cache::removePod(const PodPtr& pod) {
  absl::StatusOr<std::string> key = GetPodKey(pod.get());
  if (!key.ok()) return key.status();
  auto n = nodes_.find(pod->node_name);
  if (n == nodes_.end()) {
    // "Node not found when trying to remove pod" (logged, not an error)
  } else {
    if (absl::Status s = n->second.RemovePod(*pod, up_); !s.ok()) return s;
    if (n->second.pods().empty() && n->second.node() == nullptr) {
      removeNodeInfoFromList(pod->node_name);
    } else {
      moveNodeInfoToHead(pod->node_name);
    }
  }
  pod_states_.erase(*key);
  assumed_pods_.erase(*key);
  return absl::OkStatus();
}

// upstream: cacheImpl.AddPod (cache.go)
absl::Status Cache::AddPod(const PodPtr& pod) {
  absl::StatusOr<std::string> key = GetPodKey(pod.get());
  if (!key.ok()) return key.status();
  auto currState = pod_states_.find(*key);
  bool ok = currState != pod_states_.end();
  if (ok && assumed_pods_.contains(*key) &&
      !up_.add_pod_of_assumed_pod_rebuilds_state) {
    // v1.25: on the assumed node the podState is kept (bindingFinished
    // too) and only its object replaced; the NodeInfo keeps the assumed
    // object. On another node, updatePod as v1.26 does.
    PodPtr assumed = currState->second.pod;
    if (assumed->node_name != pod->node_name) {
      // "Pod was added to a different node than it was assumed" (logged)
      if (absl::Status s = updatePod(assumed, pod); !s.ok()) {
        if (IsFatal(s)) return s;
        // "Error occurred while updating pod" (logged)
      }
    } else {
      assumed_pods_.erase(*key);
      currState->second.deadline.reset();
      currState->second.pod = pod;
    }
  } else if (ok && assumed_pods_.contains(*key)) {
    // Confirms the assumed pod. updatePod replaces the state: keep the
    // assumed object, as upstream's currState pointer does.
    PodPtr assumed = currState->second.pod;
    if (absl::Status s = updatePod(assumed, pod); !s.ok()) {
      if (IsFatal(s)) return s;
      // "Error occurred while updating pod" (logged)
    }
    if (assumed->node_name != pod->node_name) {
      // "Pod was added to a different node than it was assumed" (logged)
      return absl::OkStatus();
    }
  } else if (!ok) {
    // Pod was expired (or never assumed): add it back.
    if (absl::Status s = addPod(pod, false); !s.ok()) {
      if (IsFatal(s)) return s;
      // "Error occurred while adding pod" (logged)
    }
  } else {
    return absl::AlreadyExistsError(absl::StrCat(
        "pod ", *key, "(", KObj(*pod), ") was already in added state"));
  }
  return absl::OkStatus();
}

// upstream: cacheImpl.UpdatePod (cache.go)
absl::Status Cache::UpdatePod(const PodPtr& oldPod, const PodPtr& newPod) {
  absl::StatusOr<std::string> key = GetPodKey(oldPod.get());
  if (!key.ok()) return key.status();
  auto currState = pod_states_.find(*key);
  // An assumed pod gets no Update before its Add turned it into an added one.
  if (currState != pod_states_.end() && !assumed_pods_.contains(*key)) {
    if (newPod == nullptr) {
      return FatalError("UpdatePod: nil pointer dereference (nil new pod)");
    }
    if (currState->second.pod->node_name != newPod->node_name) {
      // "Pod updated on a different node than previously added to"
      return FatalError(absl::StrCat(
          "UpdatePod: pod ", KObj(*oldPod), " updated on node ",
          newPod->node_name, " but added to ", currState->second.pod->node_name,
          ": scheduler cache is corrupted (klog.FlushAndExit)"));
    }
    return updatePod(oldPod, newPod);
  }
  return absl::NotFoundError(
      absl::StrCat("pod ", *key, "(", KObj(*oldPod),
                   ") is not added to scheduler cache, so cannot be updated"));
}

// upstream: cacheImpl.RemovePod (cache.go)
absl::Status Cache::RemovePod(const PodPtr& pod) {
  absl::StatusOr<std::string> key = GetPodKey(pod.get());
  if (!key.ok()) return key.status();
  auto currState = pod_states_.find(*key);
  if (currState == pod_states_.end()) {
    return absl::NotFoundError(absl::StrCat(
        "pod ", *key, "(", KObj(*pod),
        ") is not found in scheduler cache, so cannot be removed from it"));
  }
  PodPtr cached = currState->second.pod;
  if (cached->node_name != pod->node_name) {
    // "Pod was added to a different node than it was assumed" (logged)
    if (!pod->node_name.empty()) {
      // An empty node name is a missed Delete's last known state: tolerated.
      return FatalError(
          absl::StrCat("RemovePod: pod ", KObj(*pod), " names node ",
                       pod->node_name, " but is cached on ", cached->node_name,
                       ": scheduler cache is corrupted (klog.FlushAndExit)"));
    }
  }
  return removePod(cached);
}

// upstream: cacheImpl.IsAssumedPod (cache.go)
absl::StatusOr<bool> Cache::IsAssumedPod(const PodPtr& pod) const {
  absl::StatusOr<std::string> key = GetPodKey(pod.get());
  if (!key.ok()) return key.status();
  return assumed_pods_.contains(*key);
}

// upstream: cacheImpl.GetPod (cache.go)
absl::StatusOr<PodPtr> Cache::GetPod(const PodPtr& pod) const {
  absl::StatusOr<std::string> key = GetPodKey(pod.get());
  if (!key.ok()) return key.status();
  auto podState = pod_states_.find(*key);
  if (podState == pod_states_.end()) {
    return absl::NotFoundError(absl::StrCat(
        "pod ", *key, "(", KObj(*pod), ") does not exist in scheduler cache"));
  }
  return podState->second.pod;
}

// upstream: cacheImpl.AddNode (cache.go); image states are not modelled.
absl::StatusOr<NodeInfo> Cache::AddNode(const NodePtr& node) {
  if (node == nullptr) {
    return FatalError("AddNode: nil pointer dereference (nil node)");
  }
  NodeInfo& n = nodes_[node->name];  // created without node when missing
  moveNodeInfoToHead(node->name);
  node_tree_.addNode(*node);
  n.SetNode(node);
  return n;
}

// upstream: cacheImpl.UpdateNode (cache.go); image states are not modelled.
absl::StatusOr<NodeInfo> Cache::UpdateNode(const NodePtr& oldNode,
                                           const NodePtr& newNode) {
  if (newNode == nullptr) {
    return FatalError("UpdateNode: nil pointer dereference (nil new node)");
  }
  auto n = nodes_.find(newNode->name);
  if (n == nodes_.end()) {
    n = nodes_.try_emplace(newNode->name).first;
    node_tree_.addNode(*newNode);
  }
  moveNodeInfoToHead(newNode->name);
  if (absl::Status s = node_tree_.updateNode(oldNode.get(), *newNode);
      !s.ok()) {
    return s;
  }
  n->second.SetNode(newNode);
  return n->second;
}

// upstream: cacheImpl.RemoveNode (cache.go)
absl::Status Cache::RemoveNode(const NodePtr& node) {
  if (node == nullptr) {
    return FatalError("RemoveNode: nil pointer dereference (nil node)");
  }
  auto n = nodes_.find(node->name);
  if (n == nodes_.end()) {
    return absl::NotFoundError(
        absl::StrCat("node ", node->name, " is not found"));
  }
  n->second.RemoveNode();
  // Pods' deletions come through another watch and may arrive later: keep a
  // placeholder while pods remain.
  if (n->second.pods().empty()) {
    removeNodeInfoFromList(node->name);
  } else {
    moveNodeInfoToHead(node->name);
  }
  return node_tree_.removeNode(*node);
}

// upstream: cacheImpl.cleanupExpiredAssumedPods (cache.go)
absl::Status Cache::cleanupExpiredAssumedPods(int64_t now_ms) {
  return cleanupAssumedPods(now_ms);
}

// upstream: cacheImpl.cleanupAssumedPods (cache.go). Upstream walks a Go map
// (random order); the model walks uids in sorted order. The order does not
// matter: an assumed pod's state object is always counted on the NodeInfo it
// names (only removePod of its uid takes it off, and that drops the state), so
// each removal succeeds and touches only its own uid and an emptied
// placeholder.
//
// From v1.36 (kubernetes#136204) there is no cleanupAssumedPods (its
// goroutine only updates metrics): nothing expires.
absl::Status Cache::cleanupAssumedPods(int64_t now_ms) {
  if (up_.assumed_pods_never_expire) return absl::OkStatus();
  std::vector<std::string> keys(assumed_pods_.begin(), assumed_pods_.end());
  for (const std::string& key : keys) {
    auto ps = pod_states_.find(key);
    if (ps == pod_states_.end()) {
      return FatalError(absl::StrCat(
          "cleanupAssumedPods: key ", key,
          " found in assumed set but not in podStates (klog.FlushAndExit)"));
    }
    if (!ps->second.bindingFinished) {
      continue;  // binding still in progress
    }
    if (ttl_ != 0 && Time::FromMs(now_ms).After(*ps->second.deadline)) {
      PodPtr pod = ps->second.pod;
      if (absl::Status s = removePod(pod); !s.ok()) {
        if (IsFatal(s)) return s;
        // "ExpirePod failed" (logged)
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace schedtrace::model
