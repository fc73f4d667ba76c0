// impl::Cache's nodes: upstream's nodeTree (internal/cache/node_tree.go)
// and cacheImpl's AddNode, UpdateNode and RemoveNode (internal/cache/cache.go).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "impl/cache.h"

namespace schedtrace::impl {

// upstream: utilnode.GetZoneKey (region + ":\x00:" + zone, "" when neither).
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

// upstream: nodeTree.addNode (a name already in its zone is skipped).
void Cache::TreeAdd(const Node& node, uint32_t node_id) {
  std::string zone = ZoneKey(node);
  auto [it, inserted] = tree_.try_emplace(zone);
  if (inserted) zone_order_.push_back(std::move(zone));
  std::vector<uint32_t>& ids = it->second;
  if (std::find(ids.begin(), ids.end(), node_id) == ids.end()) {
    ids.push_back(node_id);
    ++tree_size_;
  }
}

// upstream: nodeTree.removeNode (false: the error "node not in tree").
bool Cache::TreeRemove(const Node& node, uint32_t node_id) {
  auto it = tree_.find(ZoneKey(node));
  if (it == tree_.end()) return false;
  auto pos = std::find(it->second.begin(), it->second.end(), node_id);
  if (pos == it->second.end()) return false;
  it->second.erase(pos);
  --tree_size_;
  if (it->second.empty()) {
    zone_order_.erase(
        std::find(zone_order_.begin(), zone_order_.end(), it->first));
    tree_.erase(it);
  }
  return true;
}

// upstream: nodeTree.list: the first node of each zone (zones in the order
// they appeared), then the second, ...
void Cache::TreeList(std::vector<uint32_t>& out) const {
  out.clear();
  for (size_t index = 0; static_cast<int>(out.size()) < tree_size_; ++index) {
    for (const std::string& zone : zone_order_) {
      const std::vector<uint32_t>& ids = tree_.find(zone)->second;
      if (index < ids.size()) out.push_back(ids[index]);
    }
  }
}

// upstream: cacheImpl.AddNode
CacheResult Cache::AddNode(const NodePtr& node) {
  uint32_t id = NodeId(node->name);
  MarkDirty(id);
  NodeSlot& n = nodes_[id];
  n.live = true;
  TreeAdd(*node, id);
  n.node = node;
  return CacheResult::kOk;
}

// upstream: cacheImpl.UpdateNode (+ nodeTree.updateNode, which moves the node
// between zones and dereferences a nil old node when the zone changes).
CacheResult Cache::UpdateNode(const NodePtr& old_node,
                              const NodePtr& new_node) {
  uint32_t id = NodeId(new_node->name);
  NodeSlot& n = nodes_[id];
  std::string old_zone = old_node ? ZoneKey(*old_node) : "";
  MarkDirty(id);
  if (!n.live) {
    n.live = true;
    TreeAdd(*new_node, id);
  }
  if (old_zone != ZoneKey(*new_node)) {
    if (old_node == nullptr) return CacheResult::kFatal;
    // nodeTree.removeNode keys by the old object's name.
    auto old_id = node_ids_.find(old_node->name);
    if (old_id != node_ids_.end()) {
      TreeRemove(*old_node, old_id->second);
    }
    TreeAdd(*new_node, id);
  }
  n.node = new_node;
  return CacheResult::kOk;
}

// upstream: cacheImpl.RemoveNode (the NodeInfo stays as a placeholder while
// it holds pods; the tree's error is returned after that).
CacheResult Cache::RemoveNode(const NodePtr& node) {
  NodeSlot* n = FindLiveNode(node->name);
  if (n == nullptr) {
    return CacheResult::kError;
  }
  MarkDirty(static_cast<uint32_t>(n - nodes_.data()));
  n->node = nullptr;
  if (n->pods.empty()) {
    n->live = false;
    n->cpu = n->memory = n->ephemeral = 0;
    n->scalars.clear();
  }
  uint32_t id = static_cast<uint32_t>(n - nodes_.data());
  return TreeRemove(*node, id) ? CacheResult::kOk : CacheResult::kError;
}

}  // namespace schedtrace::impl
