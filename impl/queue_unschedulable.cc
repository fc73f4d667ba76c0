// impl::PriorityQueue's unschedulablePods (impl/queue.h): a dense key ->
// record table, the list of its keys, and the index from plugin id to the
// pods whose UnschedulablePlugins hold it (and the pods without a
// QueueingHint map), so that a move request visits only the pods it can
// move (queue_moves.cc).
#include <utility>

#include "impl/queue.h"

namespace schedtrace::impl {

// upstream: UnschedulablePods.addOrUpdate, keeping the plugin index.
void PriorityQueue::UnschedAddOrUpdate(uint32_t h) {
  const uint32_t key = slab_[h].key;
  const uint32_t old = unsched_[key];
  if (old == h) return;
  ++unsched_changes_;
  Ref(h);
  if (old != kNone) {
    IndexErase(key, slab_[old].plugins);
    Unref(old);
  } else {
    unsched_pos_[key] = static_cast<uint32_t>(unsched_keys_.size());
    unsched_keys_.push_back(key);
  }
  unsched_[key] = h;
  IndexInsert(key, slab_[h].plugins);
  TrackHints(key);
}

// upstream: UnschedulablePods.delete.
void PriorityQueue::UnschedDelete(uint32_t key) {
  const uint32_t h = unsched_[key];
  if (h == kNone) return;
  ++unsched_changes_;
  IndexErase(key, slab_[h].plugins);
  unsched_[key] = kNone;
  if (hints_per_profile_) without_hints_.erase(key);
  // Swap-remove from the dense key list.
  const uint32_t pos = unsched_pos_[key];
  const uint32_t last = unsched_keys_.back();
  unsched_keys_[pos] = last;
  unsched_pos_[last] = pos;
  unsched_keys_.pop_back();
  unsched_pos_[key] = kNone;
  Unref(h);
}

void PriorityQueue::IndexInsert(uint32_t key, const PluginSet& plugins) {
  if (plugins.empty()) {
    no_plugins_.insert(key);
    return;
  }
  for (uint16_t p : plugins) plugin_index_[p].insert(key);
}

void PriorityQueue::IndexErase(uint32_t key, const PluginSet& plugins) {
  if (plugins.empty()) {
    no_plugins_.erase(key);
    return;
  }
  for (uint16_t p : plugins) plugin_index_[p].erase(key);
}

void PriorityQueue::SetHintProfiles(const std::vector<std::string>& profiles) {
  hints_per_profile_ = true;
  hint_profiles_.clear();
  hint_profiles_.insert(profiles.begin(), profiles.end());
}

// kubernetes#118551 (v1.30): isPodWorthRequeuing finds no QueueingHint map
// for a scheduler name no profile serves ("shouldn't reach here unless
// bug"), and requeues its pod after backoff on any event of interest.
bool PriorityQueue::WithoutHints(const Record& r) const {
  return up_.requeue_pods_without_profile_hints && hints_per_profile_ &&
         !hint_profiles_.contains(r.pod->scheduler_name);
}

void PriorityQueue::TrackHints(uint32_t key) {
  if (!hints_per_profile_) return;
  if (unsched_[key] != kNone && WithoutHints(slab_[unsched_[key]])) {
    without_hints_.insert(key);
  } else {
    without_hints_.erase(key);
  }
}

// Replaces a record's UnschedulablePlugins, re-indexing it when it is the
// record unschedulablePods holds.
void PriorityQueue::SetPlugins(uint32_t h, PluginSet plugins) {
  const uint32_t key = slab_[h].key;
  const bool indexed = unsched_[key] == h;
  if (indexed) ++unsched_changes_;
  if (indexed) IndexErase(key, slab_[h].plugins);
  slab_[h].plugins = std::move(plugins);
  if (indexed) IndexInsert(key, slab_[h].plugins);
}

}  // namespace schedtrace::impl
