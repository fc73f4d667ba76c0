// nodeTree: the node names the scheduler cache knows, grouped by zone, in the
// order the scheduler walks them. A reference model of upstream's nodeTree
// (internal/cache/node_tree.go), used only by Cache.
//
//   NodeTree tree;
//   tree.addNode(node);
//   absl::Status s = tree.removeNode(node);  // error when not in its zone
//   std::vector<std::string> order = tree.list();
//
// The zone comes from the node object passed in (GetZoneKey), so removing a
// node whose labels changed since it was added can miss it, as upstream does.
#ifndef SCHEDTRACE_MODEL_NODE_TREE_H_
#define SCHEDTRACE_MODEL_NODE_TREE_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "core/objects.h"

namespace schedtrace::model {

// upstream: utilnode.GetZoneKey (component-helpers/node/topology): "" without
// zone and region labels, else region + ":\x00:" + zone.
std::string GetZoneKey(const Node& node);

class NodeTree {
 public:
  // upstream: nodeTree.addNode: appends to the node's zone unless already
  // there.
  void addNode(const Node& n);
  // upstream: nodeTree.removeNode: an error when the name is not in the zone
  // of `n`.
  absl::Status removeNode(const Node& n);
  // upstream: nodeTree.updateNode: moves the node when its zone changed;
  // `old_node` may be null. A null old node with a zone change is fatal
  // (upstream's removeNode(nil) dereferences it).
  absl::Status updateNode(const Node* old_node, const Node& new_node);
  // upstream: nodeTree.list: round robin over zones (the first node of each
  // zone, then the second, ...). Upstream's error (zones exhausted before
  // numNodes names) cannot happen: numNodes always counts the names held.
  std::vector<std::string> list() const;
  // upstream: nodeTree.numNodes.
  int numNodes() const { return num_nodes_; }

 private:
  // upstream: nodeTree.removeZone.
  void removeZone(const std::string& zone);

  std::map<std::string, std::vector<std::string>> tree_;  // zone -> names
  std::vector<std::string> zones_;  // zones in insertion order
  int num_nodes_ = 0;
};

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_NODE_TREE_H_
