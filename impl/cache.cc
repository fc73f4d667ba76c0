#include "impl/cache.h"

#include <algorithm>

#include "harness/resources.h"

namespace schedtrace::impl {

// upstream: calculateResource (framework/types.go): containers summed,
// raised to each init container, plus overhead; `pods` never counts.
Requests Cache::ComputeRequests(const Pod& pod) {
  Requests r;
  auto scalar = [&](const std::string& name) -> int64_t& {
    uint32_t id = ScalarId(name);
    for (auto& [sid, v] : r.scalars) {
      if (sid == id) return v;
    }
    r.scalars.push_back({id, 0});
    return r.scalars.back().second;
  };
  auto add = [&](const ResourceList& list) {
    for (const auto& [name, q] : list) {
      if (name == "cpu") {
        r.cpu += q.MilliValue();
      } else if (name == "memory") {
        r.memory += q.Value();
      } else if (name == "ephemeral-storage") {
        r.ephemeral += q.Value();
      } else if (name != "pods" && IsScalarResourceName(name)) {
        scalar(name) += q.Value();
      }
    }
  };
  for (const Container& c : pod.containers) add(c.requests);
  for (const Container& c : pod.init_containers) {
    for (const auto& [name, q] : c.requests) {
      if (name == "cpu") {
        r.cpu = std::max(r.cpu, q.MilliValue());
      } else if (name == "memory") {
        r.memory = std::max(r.memory, q.Value());
      } else if (name == "ephemeral-storage") {
        r.ephemeral = std::max(r.ephemeral, q.Value());
      } else if (name != "pods" && IsScalarResourceName(name)) {
        int64_t& v = scalar(name);
        v = std::max(v, q.Value());
      }
    }
  }
  add(pod.overhead);
  return r;
}

uint32_t Cache::ScalarId(const std::string& name) {
  auto [it, inserted] = scalar_ids_.try_emplace(
      name, static_cast<uint32_t>(scalar_names_.size()));
  if (inserted) scalar_names_.push_back(name);
  return it->second;
}

// upstream: NodeInfo.update
void Cache::Account(NodeEntry& n, const Pod& pod, int64_t sign) {
  Requests r = ComputeRequests(pod);
  n.cpu += sign * r.cpu;
  n.memory += sign * r.memory;
  n.ephemeral += sign * r.ephemeral;
  for (const auto& [id, v] : r.scalars) n.scalars[id] += sign * v;
}

// upstream: cacheImpl.addPod's NodeInfo part (a placeholder when missing)
void Cache::AddToNode(const PodPtr& pod) {
  NodeEntry& n = nodes_[pod->node_name];
  n.pods.push_back(pod);
  Account(n, *pod, +1);
}

// upstream: NodeInfo.RemovePod: by uid; subtracts the object given.
CacheResult Cache::RemoveFromNode(const Pod& pod) {
  auto it = nodes_.find(pod.node_name);
  if (it == nodes_.end()) return CacheResult::kOk;  // logged upstream
  NodeEntry& n = it->second;
  for (size_t i = 0; i < n.pods.size(); ++i) {
    if (n.pods[i]->uid != pod.uid) continue;
    n.pods[i] = n.pods.back();
    n.pods.pop_back();
    Account(n, pod, -1);
    if (n.pods.empty() && n.node == nullptr) nodes_.erase(it);
    return CacheResult::kOk;
  }
  // The error message dereferences the placeholder's nil node.
  return n.node == nullptr ? CacheResult::kFatal : CacheResult::kError;
}

// upstream: cacheImpl.removePod
CacheResult Cache::RemoveCached(const Pod& pod) {
  if (CacheResult r = RemoveFromNode(pod); r != CacheResult::kOk) return r;
  pods_.erase(pod.uid);
  assumed_.erase(pod.uid);
  return CacheResult::kOk;
}

CacheResult Cache::AssumePod(const PodPtr& pod) {
  if (pod->uid.empty() || pods_.contains(pod->uid)) return CacheResult::kError;
  AddToNode(pod);
  pods_[pod->uid] = PodState{pod, /*assumed=*/true};
  assumed_.insert(pod->uid);
  return CacheResult::kOk;
}

CacheResult Cache::FinishBinding(const PodPtr& pod, int64_t now_ms) {
  if (pod->uid.empty()) return CacheResult::kError;
  auto it = pods_.find(pod->uid);
  if (it != pods_.end() && it->second.assumed) {
    it->second.has_deadline = ttl_ms_ != 0;
    it->second.deadline = now_ms + ttl_ms_;
    it->second.binding_finished = true;
  }
  return CacheResult::kOk;
}

CacheResult Cache::ForgetPod(const PodPtr& pod) {
  if (pod->uid.empty()) return CacheResult::kError;
  auto it = pods_.find(pod->uid);
  if (it == pods_.end() || !it->second.assumed ||
      it->second.pod->node_name != pod->node_name) {
    return CacheResult::kError;
  }
  return RemoveCached(*pod);  // the caller's object, as upstream
}

CacheResult Cache::AddPod(const PodPtr& pod) {
  if (pod->uid.empty()) return CacheResult::kError;
  auto it = pods_.find(pod->uid);
  if (it != pods_.end() && !it->second.assumed) return CacheResult::kError;
  if (it != pods_.end()) {
    // Confirms the assumed pod (on whatever node the object names).
    PodPtr assumed = it->second.pod;
    CacheResult r = RemoveCached(*assumed);
    if (r == CacheResult::kFatal) return r;
    if (r == CacheResult::kError) return CacheResult::kOk;  // logged
  }
  AddToNode(pod);
  pods_[pod->uid] = PodState{pod};
  return CacheResult::kOk;
}

CacheResult Cache::UpdatePod(const PodPtr& old_pod, const PodPtr& new_pod) {
  if (old_pod->uid.empty()) return CacheResult::kError;
  auto it = pods_.find(old_pod->uid);
  if (it == pods_.end() || it->second.assumed) return CacheResult::kError;
  if (it->second.pod->node_name != new_pod->node_name) {
    return CacheResult::kFatal;  // klog.FlushAndExit
  }
  if (CacheResult r = RemoveCached(*old_pod); r != CacheResult::kOk) return r;
  AddToNode(new_pod);
  pods_[new_pod->uid] = PodState{new_pod};
  return CacheResult::kOk;
}

CacheResult Cache::RemovePod(const PodPtr& pod) {
  if (pod->uid.empty()) return CacheResult::kError;
  auto it = pods_.find(pod->uid);
  if (it == pods_.end()) return CacheResult::kError;
  PodPtr cached = it->second.pod;
  if (cached->node_name != pod->node_name && !pod->node_name.empty()) {
    return CacheResult::kFatal;  // klog.FlushAndExit
  }
  return RemoveCached(*cached);
}

std::string Cache::ZoneKey(const Node& node) {
  auto get = [&](const char* a, const char* b) -> std::string {
    auto it = node.labels.find(a);
    if (it == node.labels.end()) it = node.labels.find(b);
    return it == node.labels.end() ? "" : it->second;
  };
  std::string zone = get("failure-domain.beta.kubernetes.io/zone",
                         "topology.kubernetes.io/zone");
  std::string region = get("failure-domain.beta.kubernetes.io/region",
                           "topology.kubernetes.io/region");
  if (region.empty() && zone.empty()) return "";
  return region + std::string(":\0:", 3) + zone;
}

void Cache::TreeAdd(const Node& node) {
  std::vector<std::string>& names = tree_[ZoneKey(node)];
  if (std::find(names.begin(), names.end(), node.name) == names.end()) {
    names.push_back(node.name);
  }
}

bool Cache::TreeRemove(const Node& node) {
  auto it = tree_.find(ZoneKey(node));
  if (it == tree_.end()) return false;
  auto pos = std::find(it->second.begin(), it->second.end(), node.name);
  if (pos == it->second.end()) return false;
  it->second.erase(pos);
  if (it->second.empty()) tree_.erase(it);
  return true;
}

CacheResult Cache::AddNode(const NodePtr& node) {
  NodeEntry& n = nodes_[node->name];
  TreeAdd(*node);
  n.node = node;
  return CacheResult::kOk;
}

CacheResult Cache::UpdateNode(const NodePtr& old_node,
                              const NodePtr& new_node) {
  auto it = nodes_.find(new_node->name);
  if (it == nodes_.end()) {
    it = nodes_.try_emplace(new_node->name).first;
    TreeAdd(*new_node);
  }
  // upstream: nodeTree.updateNode moves the node between zones.
  std::string old_zone = old_node ? ZoneKey(*old_node) : "";
  if (old_zone != ZoneKey(*new_node)) {
    if (old_node == nullptr) return CacheResult::kFatal;
    TreeRemove(*old_node);
    TreeAdd(*new_node);
  }
  it->second.node = new_node;
  return CacheResult::kOk;
}

CacheResult Cache::RemoveNode(const NodePtr& node) {
  auto it = nodes_.find(node->name);
  if (it == nodes_.end()) return CacheResult::kError;
  it->second.node = nullptr;
  if (it->second.pods.empty()) nodes_.erase(it);
  return TreeRemove(*node) ? CacheResult::kOk : CacheResult::kError;
}

CacheResult Cache::CleanupAssumedPods(int64_t now_ms) {
  if (ttl_ms_ == 0) return CacheResult::kOk;
  std::vector<PodPtr> expired;
  for (const std::string& uid : assumed_) {
    const PodState& s = pods_.at(uid);
    if (s.binding_finished && s.has_deadline && now_ms > s.deadline) {
      expired.push_back(s.pod);
    }
  }
  for (const PodPtr& pod : expired) {
    if (RemoveCached(*pod) == CacheResult::kFatal) return CacheResult::kFatal;
  }
  return CacheResult::kOk;
}

CacheState Cache::Snapshot() const {
  CacheState cs;
  for (const auto& [name, n] : nodes_) {
    NodeInfoState& ns = cs.nodes.emplace_back();
    ns.name = name;
    ns.present = n.node != nullptr;
    for (const PodPtr& p : n.pods) ns.pods.push_back(p->Key());
    std::sort(ns.pods.begin(), ns.pods.end());
    if (n.cpu != 0) ns.requested["cpu"] = n.cpu;
    if (n.memory != 0) ns.requested["memory"] = n.memory;
    if (n.ephemeral != 0) ns.requested["ephemeral-storage"] = n.ephemeral;
    for (const auto& [id, v] : n.scalars) {
      if (v != 0) ns.requested[scalar_names_[id]] = v;
    }
  }
  std::sort(cs.nodes.begin(), cs.nodes.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  for (const auto& [uid, s] : pods_) {
    if (s.assumed) cs.assumed.push_back(s.pod->Key());
    if (s.binding_finished) cs.binding_finished.push_back(s.pod->Key());
  }
  std::sort(cs.assumed.begin(), cs.assumed.end());
  std::sort(cs.binding_finished.begin(), cs.binding_finished.end());
  return cs;
}

}  // namespace schedtrace::impl
