// impl::PriorityQueue's snapshots (impl/queue.h): the spec's `queue` and
// `nominated` state parts, written into reused storage (core/refill.h).
#include <algorithm>

#include "core/refill.h"
#include "impl/go_int.h"
#include "impl/queue.h"

namespace schedtrace::impl {
namespace {

// out = pod.Key(), built in out's storage.
void AssignKey(std::string& out, const Pod& pod) {
  out.assign(pod.namespace_);
  out.push_back('/');
  out.append(pod.name);
}

}  // namespace

QueueState PriorityQueue::SnapshotQueue() const {
  QueueState s;
  SnapshotQueueInto(s);
  return s;
}

// Every entry is written in its final order, so that an entry's strings and
// plugin list are reused by the same pod from one snapshot to the next.
void PriorityQueue::SnapshotQueueInto(QueueState& s) const {
  WriteActive(s);
  WriteBackoff(s);
  WriteUnschedulable(s);
  s.scheduling_cycle = scheduling_cycle_;
  s.move_request_cycle = move_request_cycle_;
}

void PriorityQueue::RefreshQueueInto(QueueState& s, const StateTouch& t) const {
  if (t.Touches(StateTouch::kActive)) WriteActive(s);
  if (t.Touches(StateTouch::kBackoff)) WriteBackoff(s);
  if (t.Touches(StateTouch::kUnschedulable)) WriteUnschedulable(s);
  s.scheduling_cycle = scheduling_cycle_;
  s.move_request_cycle = move_request_cycle_;
}

PriorityQueue::ChangeMarks PriorityQueue::Marks() const {
  return {.active = active_.changes(),
          .backoff = backoff_.changes(),
          .unschedulable = unsched_changes_,
          .nominated = nominated_changes_,
          .shared = shared_changes_,
          .scheduling_cycle = scheduling_cycle_,
          .move_request_cycle = move_request_cycle_};
}

void PriorityQueue::AddTouched(const ChangeMarks& since, StateTouch& t) const {
  const ChangeMarks now = Marks();
  if (now.active != since.active) t.Add(StateTouch::kActive);
  if (now.backoff != since.backoff) t.Add(StateTouch::kBackoff);
  if (now.unschedulable != since.unschedulable) {
    t.Add(StateTouch::kUnschedulable);
  }
  if (now.nominated != since.nominated) t.Add(StateTouch::kNominated);
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
void PriorityQueue::WriteActive(QueueState& s) const {
  snapshot_active_ = active_;
  Refill<QueuedPod> active(s.active);
  while (!snapshot_active_.empty()) {
    const uint32_t h = snapshot_active_.Pop();
    SetQueuedPod(active.Next(), h);
  }
  active.Finish();
}

void PriorityQueue::WriteBackoff(QueueState& s) const {
  auto by_key = [this](uint32_t a, uint32_t b) {
    return keys_[slab_[a].key] < keys_[slab_[b].key];
  };
  std::vector<uint32_t>& order = snapshot_order_;
  order.assign(backoff_.items().begin(), backoff_.items().end());
  std::sort(order.begin(), order.end(), by_key);
  Refill<QueuedPod> backoff(s.backoff);
  for (uint32_t h : order) {
    QueuedPod& q = SetQueuedPod(backoff.Next(), h);
    q.backoff_expires_at = FloorMs(BackoffTimeNs(slab_[h]));
  }
  backoff.Finish();
}

void PriorityQueue::WriteUnschedulable(QueueState& s) const {
  auto by_key = [this](uint32_t a, uint32_t b) {
    return keys_[slab_[a].key] < keys_[slab_[b].key];
  };
  std::vector<uint32_t>& order = snapshot_order_;
  order.clear();
  for (uint32_t key : unsched_keys_) {
    if (unsched_[key] != kNone) order.push_back(unsched_[key]);
  }
  std::sort(order.begin(), order.end(), by_key);
  Refill<QueuedPod> unschedulable(s.unschedulable);
  std::vector<uint16_t>& plugins = snapshot_plugins_;
  for (uint32_t h : order) {
    const Record& r = slab_[h];
    QueuedPod& q = SetQueuedPod(unschedulable.Next(), h);
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

// Overwrites every field of a reused entry with record h's key and attempts,
// and the fields only some lists have with their defaults.
QueuedPod& PriorityQueue::SetQueuedPod(QueuedPod& q, uint32_t h) const {
  q.pod = keys_[slab_[h].key];
  q.attempts = slab_[h].attempts;
  q.backoff_expires_at = 0;
  q.plugins.clear();
  q.gated = false;
  return q;
}

Nominated PriorityQueue::SnapshotNominated() const {
  Nominated n;
  SnapshotNominatedInto(n);
  return n;
}

// nominated_pods_ is unordered: each of its nodes is looked up in `n` (a
// node already there keeps its entry), then the nodes it no longer has are
// erased.
void PriorityQueue::SnapshotNominatedInto(Nominated& n) const {
  for (const auto& [node, list] : nominated_pods_) {
    std::vector<std::string>& keys = n[node];
    Refill<std::string> fill(keys);
    for (uint32_t h : list) {
      AssignKey(fill.Next(), *slab_[h].pod);
    }
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
