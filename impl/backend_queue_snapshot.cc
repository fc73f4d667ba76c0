// impl::BackendQueue's nominator (upstream nominator.go: podRefs, the pod as
// it was nominated) and its snapshots: the spec's `queue` and `nominated`
// parts written into reused storage (core/refill.h), with the change marks
// that say which of them a step may have touched (impl/backend_queue.h).
#include <algorithm>

#include "core/refill.h"
#include "impl/backend_queue.h"

namespace schedtrace::impl {
namespace {

// out = pod.Key(), built in out's storage.
void AssignKey(std::string& out, const Pod& pod) {
  out.assign(pod.namespace_);
  out.push_back('/');
  out.append(pod.name);
}

}  // namespace

// ---------------------------------------------------------------------------
// Nominator.

void BackendQueue::ListerSet(const PodPtr& pod) { lister_[pod->Key()] = pod; }
void BackendQueue::ListerDelete(const Pod& pod) {
  AssignKey(key_buf_, pod);
  lister_.erase(key_buf_);
}

// upstream: nominator.deleteUnlocked.
void BackendQueue::NominatorDelete(const Pod& pod) {
  auto it = nominated_pod_to_node_.find(pod.uid);
  if (it == nominated_pod_to_node_.end()) return;
  if (auto node_it = nominated_pods_.find(it->second);
      node_it != nominated_pods_.end()) {
    std::vector<PodPtr>& list = node_it->second;
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i]->uid == pod.uid) {
        list.erase(list.begin() + static_cast<ptrdiff_t>(i));
        if (list.empty()) nominated_pods_.erase(node_it);
        ++nominated_changes_;
        break;
      }
    }
  }
  nominated_pod_to_node_.erase(it);
}

// upstream: nominator.addNominatedPodUnlocked. `node` nullopt is a nil
// NominatingInfo (ModeNoop: the pod's own nominatedNodeName), a value is
// ModeOverride.
void BackendQueue::NominatorAdd(const PodPtr& pod,
                                std::optional<std::string> node) {
  NominatorDelete(*pod);
  std::string node_name = node ? std::move(*node) : pod->nominated_node_name;
  // v1.37: an empty node name clears the nomination, never keys one.
  if (node_name.empty() && (!node || up_.nominator_ignores_empty_node_name)) {
    return;
  }
  if (use_lister_) {
    AssignKey(key_buf_, *pod);
    auto it = lister_.find(key_buf_);
    if (it == lister_.end() || !it->second->node_name.empty()) return;
  }
  auto [to_node, inserted] =
      nominated_pod_to_node_.try_emplace(pod->uid, node_name);
  if (!inserted) to_node->second = node_name;
  auto it = nominated_pods_.find(node_name);
  if (it != nominated_pods_.end()) {
    for (const PodPtr& p : it->second) {
      if (p->uid == pod->uid) return;
    }
  } else {
    it = nominated_pods_.try_emplace(std::move(node_name)).first;
  }
  it->second.push_back(pod);
  ++nominated_changes_;
}

// upstream: nominator.UpdateNominatedPod: a nomination made in memory is
// kept when neither object names one.
void BackendQueue::NominatorUpdate(const PodPtr& old_pod,
                                   const PodPtr& new_pod) {
  std::optional<std::string> node;
  if (old_pod->nominated_node_name.empty() &&
      new_pod->nominated_node_name.empty()) {
    if (auto it = nominated_pod_to_node_.find(old_pod->uid);
        it != nominated_pod_to_node_.end()) {
      node = it->second;
    }
  }
  NominatorDelete(*old_pod);
  NominatorAdd(new_pod, std::move(node));
}

// ---------------------------------------------------------------------------
// Snapshots.

void BackendQueue::SnapshotQueueInto(QueueState& s) const {
  WriteActive(s);
  WriteBackoff(s);
  WriteUnschedulable(s);
  s.scheduling_cycle = scheduling_cycle_;
  s.move_request_cycle = move_request_cycle_;  // -1 from v1.37: gone
}

void BackendQueue::RefreshQueueInto(QueueState& s, const StateTouch& t) const {
  if (t.Touches(StateTouch::kActive)) WriteActive(s);
  if (t.Touches(StateTouch::kBackoff)) WriteBackoff(s);
  if (t.Touches(StateTouch::kUnschedulable)) WriteUnschedulable(s);
  s.scheduling_cycle = scheduling_cycle_;
  s.move_request_cycle = move_request_cycle_;
}

BackendQueue::ChangeMarks BackendQueue::Marks() const {
  return {.active = active_.changes(),
          .backoff = backoff_.changes() + error_backoff_.changes(),
          .unschedulable = unsched_changes_,
          .nominated = nominated_changes_,
          .shared = shared_changes_,
          .scheduling_cycle = scheduling_cycle_,
          .move_request_cycle = move_request_cycle_};
}

void BackendQueue::AddTouched(const ChangeMarks& since, StateTouch& t) const {
  const ChangeMarks now = Marks();
  if (now.active != since.active) t.Add(StateTouch::kActive);
  if (now.backoff != since.backoff) t.Add(StateTouch::kBackoff);
  if (now.unschedulable != since.unschedulable) {
    t.Add(StateTouch::kUnschedulable);
  }
  if (now.nominated != since.nominated) t.Add(StateTouch::kNominated);
  // A popped record may stand in another list too (a pod dropped as in
  // flight already is shown nowhere; a record is in one list at a time).
  if (now.shared != since.shared) {
    t.Add(StateTouch::kBackoff);
    t.Add(StateTouch::kUnschedulable);
  }
  if (now.scheduling_cycle != since.scheduling_cycle ||
      now.move_request_cycle != since.move_request_cycle) {
    t.Add(StateTouch::kCycles);
  }
}

// activeQ in pop order: Go's Pops replayed on a copy (storage reused).
void BackendQueue::WriteActive(QueueState& s) const {
  snapshot_active_ = active_;
  Refill<QueuedPod> active(s.active);
  while (!snapshot_active_.empty()) {
    SetQueuedPod(active.Next(), snapshot_active_.Pop());
  }
  active.Finish();
}

// Both backoff heaps, by key.
void BackendQueue::WriteBackoff(QueueState& s) const {
  std::vector<uint32_t>& order = snapshot_order_;
  order.assign(backoff_.items().begin(), backoff_.items().end());
  order.insert(order.end(), error_backoff_.items().begin(),
               error_backoff_.items().end());
  std::sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
    return keys_[slab_[a].key] < keys_[slab_[b].key];
  });
  Refill<QueuedPod> backoff(s.backoff);
  for (uint32_t h : order) {
    SetQueuedPod(backoff.Next(), h).backoff_expires_at =
        FloorMs(slab_[h].backoff_expiry);
  }
  backoff.Finish();
}

void BackendQueue::WriteUnschedulable(QueueState& s) const {
  std::vector<uint32_t>& order = snapshot_order_;
  order.assign(unsched_keys_.begin(), unsched_keys_.end());
  std::sort(order.begin(), order.end(),
            [this](uint32_t a, uint32_t b) { return keys_[a] < keys_[b]; });
  Refill<QueuedPod> unschedulable(s.unschedulable);
  std::vector<uint16_t>& plugins = snapshot_plugins_;
  for (uint32_t key : order) {
    const Record& r = slab_[unsched_[key]];
    QueuedPod& q = SetQueuedPod(unschedulable.Next(), unsched_[key]);
    plugins.assign(r.plugins.begin(), r.plugins.end());
    std::sort(plugins.begin(), plugins.end(), [this](uint16_t a, uint16_t b) {
      return plugin_names_[a] < plugin_names_[b];
    });
    Refill<std::string> names(q.plugins);
    for (uint16_t p : plugins) names.Next() = plugin_names_[p];
    names.Finish();
    q.gated = r.gated;
  }
  unschedulable.Finish();
}

// Every field of a reused entry: the pod's key and attempts, the fields
// only some lists have at their defaults.
QueuedPod& BackendQueue::SetQueuedPod(QueuedPod& q, uint32_t h) const {
  AssignKey(q.pod, *slab_[h].pod);
  q.attempts = slab_[h].attempts;
  q.backoff_expires_at = 0;
  q.plugins.clear();
  q.gated = false;
  return q;
}

// nominated_pods_ is unordered: each of its nodes is looked up in `n`, then
// the nodes it no longer has are erased.
void BackendQueue::SnapshotNominatedInto(Nominated& n) const {
  for (const auto& [node, list] : nominated_pods_) {
    std::vector<std::string>& keys = n[node];
    Refill<std::string> fill(keys);
    for (const PodPtr& p : list) AssignKey(fill.Next(), *p);
    fill.Finish();
    std::sort(keys.begin(), keys.end());
  }
  if (n.size() != nominated_pods_.size()) {
    std::erase_if(n, [this](const auto& entry) {
      return !nominated_pods_.contains(entry.first);
    });
  }
}

}  // namespace schedtrace::impl
