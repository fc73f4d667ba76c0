// impl::Scheduler's node snapshot (upstream: cacheImpl.UpdateSnapshot into
// Scheduler.nodeInfoSnapshot): a dense table by the cache's node ids,
// refreshed from the NodeInfos the cache marks changed.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "impl/scheduler.h"

namespace schedtrace::impl {

bool Scheduler::UpdateSnapshot() {
  cache_.TakeDirtyNodes(dirty_);
  bool update_all = false;
  for (uint32_t id : dirty_) {
    if (id >= snap_.size()) snap_.resize(id + 1);
    if (!cache_.NodeLive(id)) continue;
    const NodePtr& node = cache_.NodeObject(id);
    if (node == nullptr) continue;
    SnapNode& s = snap_[id];
    if (!s.in_map) {
      s.in_map = true;
      ++snap_count_;
      update_all = true;
    }
    if (s.facts.node != node) {
      ComputeNodeFacts(node, cache_, s.facts);
      s.affinity_memo.clear();
      score_order_dirty_ = true;
    }
    s.pods = static_cast<int64_t>(cache_.NodePodCount(id));
    cache_.NodeRequested(id, s.requested);
  }
  // upstream: removeDeletedNodesFromSnapshot (Go map order; by name here,
  // as the model does).
  if (snap_count_ > cache_.TreeSize()) {
    std::vector<std::pair<std::string, uint32_t>> gone;
    for (uint32_t id = 0; id < snap_.size(); ++id) {
      const bool deleted =
          !cache_.NodeLive(id) || cache_.NodeObject(id) == nullptr;
      if (snap_[id].in_map && deleted) {
        gone.emplace_back(cache_.NodeName(id), id);
      }
    }
    std::sort(gone.begin(), gone.end());
    int to_delete = snap_count_ - cache_.TreeSize();
    for (const auto& [name, id] : gone) {
      if (to_delete <= 0) break;
      snap_[id].in_map = false;
      snap_[id].facts.node = nullptr;
      snap_[id].affinity_memo.clear();
      --snap_count_;
      --to_delete;
    }
    update_all = true;
  }
  if (update_all) RebuildSnapshotList();
  if (static_cast<int>(snap_list_.size()) != cache_.TreeSize()) {
    RebuildSnapshotList();
    return false;
  }
  return true;
}

// upstream: updateNodeInfoSnapshotList: the tree's order, nodes in the map.
void Scheduler::RebuildSnapshotList() {
  score_order_dirty_ = true;
  cache_.TreeList(dirty_);
  snap_list_.clear();
  for (uint32_t id : dirty_) {
    if (id < snap_.size() && snap_[id].in_map) snap_list_.push_back(id);
  }
}

uint32_t Scheduler::SnapshotGet(const std::string& name) const {
  const uint32_t id = cache_.FindNodeId(name);
  if (id == Cache::kNoNode || id >= snap_.size() || !snap_[id].in_map) {
    return Cache::kNoNode;
  }
  return id;
}

void Scheduler::RebuildScoreOrder() {
  score_order_ = snap_list_;
  std::stable_sort(score_order_.begin(), score_order_.end(),
                   [this](uint32_t a, uint32_t b) {
                     return snap_[a].facts.score > snap_[b].facts.score;
                   });
  out_of_range_scores_ = 0;
  for (uint32_t id : snap_list_) {
    const int64_t score = snap_[id].facts.score;
    out_of_range_scores_ += score < 0 || score > 100;
  }
  score_order_dirty_ = false;
}

}  // namespace schedtrace::impl
