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
    if (id >= snap_.size()) {
      snap_.resize(id + 1);
      headroom_.resize(id + 1);
      score_pos_.resize(id + 1, kNoPos);
    }
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
      const bool scored = s.facts.node != nullptr;
      const int64_t score = s.facts.score;
      ComputeNodeFacts(node, cache_, s.facts);
      s.affinity_memo.clear();
      if (!scored || s.facts.score != score) score_order_dirty_ = true;
    }
    s.pods = static_cast<int64_t>(cache_.NodePodCount(id));
    cache_.NodeRequested(id, s.requested);
    headroom_[id] = HeadroomOf(s.facts, s.pods, s.requested);
    if (!score_order_dirty_ && score_pos_[id] != kNoPos) {
      score_rooms_.Set(score_pos_[id], headroom_[id]);
    }
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

// Sorted by (score descending, position in snap_list_): the keys are
// unique, so the order is the stable one.
void Scheduler::RebuildScoreOrder() {
  score_keys_.clear();
  out_of_range_scores_ = 0;
  for (uint32_t i = 0; i < snap_list_.size(); ++i) {
    const int64_t score = snap_[snap_list_[i]].facts.score;
    score_keys_.push_back({score, i});
    out_of_range_scores_ += score < 0 || score > 100;
  }
  std::sort(score_keys_.begin(), score_keys_.end(),
            [](const ScoreKey& a, const ScoreKey& b) {
              return a.score != b.score ? a.score > b.score : a.pos < b.pos;
            });
  score_order_.clear();
  score_rooms_.Clear();
  std::fill(score_pos_.begin(), score_pos_.end(), kNoPos);
  for (const ScoreKey& k : score_keys_) {
    const uint32_t id = snap_list_[k.pos];
    score_pos_[id] = static_cast<uint32_t>(score_order_.size());
    score_order_.push_back(id);
    score_rooms_.Push(headroom_[id]);
  }
  score_order_dirty_ = false;
}

}  // namespace schedtrace::impl
