#include "model/node_tree.h"

#include <algorithm>
#include <cstddef>

#include "absl/strings/str_cat.h"
#include "model/fatal.h"

namespace schedtrace::model {

// upstream: GetZoneKey (component-helpers/node/topology/helpers.go)
std::string GetZoneKey(const Node& node) {
  auto label = [&node](const char* key) -> const std::string* {
    auto it = node.labels.find(key);
    return it == node.labels.end() ? nullptr : &it->second;
  };
  const std::string* zone = label("failure-domain.beta.kubernetes.io/zone");
  if (zone == nullptr) zone = label("topology.kubernetes.io/zone");
  const std::string* region = label("failure-domain.beta.kubernetes.io/region");
  if (region == nullptr) region = label("topology.kubernetes.io/region");
  std::string z = zone == nullptr ? "" : *zone;
  std::string r = region == nullptr ? "" : *region;
  if (r.empty() && z.empty()) return "";
  return r + std::string(":\0:", 3) + z;
}

// upstream: nodeTree.addNode (node_tree.go)
void NodeTree::addNode(const Node& n) {
  std::string zone = GetZoneKey(n);
  auto it = tree_.find(zone);
  if (it != tree_.end()) {
    std::vector<std::string>& na = it->second;
    if (std::find(na.begin(), na.end(), n.name) != na.end()) {
      return;  // "Node already exists in the NodeTree"
    }
    na.push_back(n.name);
  } else {
    zones_.push_back(zone);
    tree_[zone] = {n.name};
  }
  ++num_nodes_;
}

// upstream: nodeTree.removeNode (node_tree.go)
absl::Status NodeTree::removeNode(const Node& n) {
  std::string zone = GetZoneKey(n);
  auto it = tree_.find(zone);
  if (it != tree_.end()) {
    std::vector<std::string>& na = it->second;
    auto pos = std::find(na.begin(), na.end(), n.name);
    if (pos != na.end()) {
      na.erase(pos);
      if (na.empty()) removeZone(zone);
      --num_nodes_;
      return absl::OkStatus();
    }
  }
  return absl::NotFoundError(absl::StrCat("node \"", n.name, "\" in group \"",
                                          zone, "\" was not found"));
}

// upstream: nodeTree.removeZone (node_tree.go)
void NodeTree::removeZone(const std::string& zone) {
  tree_.erase(zone);
  auto it = std::find(zones_.begin(), zones_.end(), zone);
  if (it != zones_.end()) zones_.erase(it);
}

// upstream: nodeTree.updateNode (node_tree.go)
absl::Status NodeTree::updateNode(const Node* old_node, const Node& new_node) {
  std::string old_zone;
  if (old_node != nullptr) old_zone = GetZoneKey(*old_node);
  std::string new_zone = GetZoneKey(new_node);
  if (old_zone == new_zone) return absl::OkStatus();
  if (old_node == nullptr) {
    return FatalError(
        "nodeTree.updateNode: nil pointer dereference (removeNode(nil old "
        "node))");
  }
  removeNode(*old_node).IgnoreError();  // upstream ignores whether it existed
  addNode(new_node);
  return absl::OkStatus();
}

// upstream: nodeTree.list (node_tree.go)
std::vector<std::string> NodeTree::list() const {
  std::vector<std::string> nodes_list;
  if (zones_.empty()) return nodes_list;
  size_t node_index = 0;
  while (nodes_list.size() < static_cast<size_t>(num_nodes_)) {
    for (const std::string& zone : zones_) {
      const std::vector<std::string>& na = tree_.at(zone);
      if (node_index < na.size()) nodes_list.push_back(na[node_index]);
    }
    ++node_index;
  }
  return nodes_list;
}

}  // namespace schedtrace::model
