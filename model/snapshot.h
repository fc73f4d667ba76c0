// Snapshot: the scheduler's per-cycle copy of the cache's NodeInfos, in the
// node tree's order. A reference model of upstream's cache.Snapshot
// (internal/cache/snapshot.go), filled by Cache::UpdateSnapshot; the
// scheduling cycle filters the nodes of `nodeInfoList`.
//
//   Snapshot snapshot;                        // upstream: NewEmptySnapshot()
//   absl::Status s = cache.UpdateSnapshot(snapshot);
//   for (const auto& info : snapshot.nodeInfoList) { ... info->node() ... }
//
// Entries are shared pointers because upstream keeps pointers: an entry that
// UpdateSnapshot refreshes is overwritten in place, so nodeInfoList sees it
// without being rebuilt. Only nodes with a node object appear (no
// placeholders). Affinity sublists and the used-PVC set are not modelled.
#ifndef SCHEDTRACE_MODEL_SNAPSHOT_H_
#define SCHEDTRACE_MODEL_SNAPSHOT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/node_info.h"

namespace schedtrace::model {

struct Snapshot {
  // upstream: Snapshot.nodeInfoMap: node name -> a copy of its NodeInfo.
  std::map<std::string, std::shared_ptr<NodeInfo>> nodeInfoMap;
  // upstream: Snapshot.nodeInfoList: the same copies in nodeTree.list order.
  std::vector<std::shared_ptr<NodeInfo>> nodeInfoList;
  // upstream: Snapshot.generation: the newest NodeInfo generation copied.
  int64_t generation = 0;

  // upstream: Snapshot.Get (NodeInfos().Get): null when absent.
  const NodeInfo* Get(const std::string& name) const {
    auto it = nodeInfoMap.find(name);
    return it == nodeInfoMap.end() ? nullptr : it->second.get();
  }
};

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_SNAPSHOT_H_
