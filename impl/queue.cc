// impl::PriorityQueue's core (impl/queue.h): the slab of QueuedPodInfo
// records, interned keys and plugins, the two heaps, backoff and PreEnqueue,
// and the informer's Add/Update/Delete, Activate and the backoffQ flush. The
// other concepts have their own files: unschedulablePods and its plugin
// index (queue_unschedulable.cc), move requests (queue_moves.cc), the
// nominator (queue_nominator.cc), snapshots (queue_snapshot.cc) and the
// handles callers hold (queue_handles.cc).
#include "impl/queue.h"

#include <algorithm>
#include <utility>

#include "impl/go_equal.h"
#include "impl/go_int.h"

namespace schedtrace::impl {

// upstream: NewPriorityQueue (scheduling_queue.go).
PriorityQueue::PriorityQueue(const Config& config, const Upstream& up)
    : up_(up),
      active_(ActiveLess{this}, KeyOf{this}),
      backoff_(BackoffLess{this}, KeyOf{this}),
      snapshot_active_(ActiveLess{this}, KeyOf{this}) {
  // The queue layer's durations are milliseconds; Go's Duration
  // multiplication wraps (docs/UPSTREAM.md item 29).
  initial_backoff_ns_ = WrapMul(config.pod_initial_backoff_ms, 1000000);
  max_backoff_ns_ = WrapMul(config.pod_max_backoff_ms, 1000000);
  max_in_unschedulable_ns_ =
      WrapMul(config.pod_max_in_unschedulable_ms, 1000000);
  // KEP-3521 GA (v1.30): SchedulingGates.PreEnqueue checks no feature gate
  // any more (PodSchedulingReadiness is locked on).
  scheduling_readiness_ = up_.pod_scheduling_readiness_locked_on ||
                          config.Feature("PodSchedulingReadiness");
  scheduling_gates_plugin_ = InternPlugin("SchedulingGates");
  // KEP-3521, kubernetes#113275 (v1.26): v1.25's queue has no
  // preEnqueuePluginMap; every pod goes straight to activeQ.
  if (up_.pre_enqueue_and_scheduling_gates) {
    for (const auto& [profile, plugins] : config.pre_enqueue_plugins) {
      pre_enqueue_[profile] = plugins;
      for (const std::string& p : plugins) InternPlugin(p);
    }
  }
  for (const ClusterEventMapEntry& e : config.cluster_event_map) {
    EventEntry entry;
    entry.resource = e.resource;
    entry.any_resource = e.resource == "*";
    for (const std::string& a : e.actions) {
      entry.actions |= ActionTypeBits(a, up_.node_annotation_action);
    }
    for (const std::string& p : e.plugins) {
      entry.plugins.push_back(InternPlugin(p));
    }
    event_map_.push_back(std::move(entry));
  }
}

// upstream: PrioritySort.Less (queuesort/priority_sort.go).
bool PriorityQueue::ActiveLess::operator()(uint32_t a, uint32_t b) const {
  const Record& ra = q->slab_[a];
  const Record& rb = q->slab_[b];
  const int32_t pa = ra.pod->Priority();
  const int32_t pb = rb.pod->Priority();
  return pa > pb || (pa == pb && ra.timestamp_ns < rb.timestamp_ns);
}

// upstream: PriorityQueue.podsCompareBackoffCompleted.
bool PriorityQueue::BackoffLess::operator()(uint32_t a, uint32_t b) const {
  return q->BackoffTimeNs(q->slab_[a]) < q->BackoffTimeNs(q->slab_[b]);
}

// ---------------------------------------------------------------------------
// Slab, interning, bookkeeping.

// upstream: PriorityQueue.newQueuedPodInfo (a fresh QueuedPodInfo).
uint32_t PriorityQueue::NewRecord(const PodPtr& pod) {
  const uint32_t key = InternKey(pod->Key());
  uint32_t h;
  if (!free_.empty()) {
    h = free_.back();
    free_.pop_back();
  } else {
    h = static_cast<uint32_t>(slab_.size());
    slab_.emplace_back();
  }
  Record& r = slab_[h];
  r.pod = pod;
  r.terms_pod = pod;
  r.key = key;
  r.attempts = 0;
  r.timestamp_ns = now_ns_;
  r.plugins.clear();
  r.plugins_nil = false;
  r.gated = false;
  r.refs = 0;
  return h;
}

void PriorityQueue::Unref(uint32_t h) {
  Record& r = slab_[h];
  if (--r.refs == 0) {
    r.pod.reset();
    r.terms_pod.reset();
    free_.push_back(h);
  }
}

uint32_t PriorityQueue::InternKey(const std::string& key) {
  auto [it, inserted] =
      key_ids_.try_emplace(key, static_cast<uint32_t>(keys_.size()));
  if (inserted) {
    keys_.push_back(key);
    EnsureKeyTables(it->second);
  }
  return it->second;
}

std::optional<uint32_t> PriorityQueue::FindKey(const std::string& key) const {
  auto it = key_ids_.find(key);
  if (it == key_ids_.end()) return std::nullopt;
  return it->second;
}

// A pod's key without allocating: builds it in a reused buffer.
std::optional<uint32_t> PriorityQueue::FindKey(const Pod& pod) {
  key_buf_.assign(pod.namespace_);
  key_buf_.push_back('/');
  key_buf_.append(pod.name);
  return FindKey(key_buf_);
}

void PriorityQueue::EnsureKeyTables(uint32_t id) {
  if (id < unsched_.size()) return;
  const size_t n = std::max<size_t>(id + 1, unsched_.size() * 2);
  unsched_.resize(n, kNone);
  unsched_pos_.resize(n, kNone);
  stamp_.resize(n, 0);
}

uint16_t PriorityQueue::InternPlugin(const std::string& name) {
  auto [it, inserted] = plugin_ids_.try_emplace(
      name, static_cast<uint16_t>(plugin_names_.size()));
  if (inserted) {
    plugin_names_.push_back(name);
    plugin_index_.emplace_back();
    event_plugins_.push_back(0);
  }
  return it->second;
}

// upstream: PodInfo.Update (framework/types.go): the same uid keeps the
// affinity terms computed earlier; another uid recomputes them.
void PriorityQueue::SetPod(uint32_t h, const PodPtr& pod) {
  Record& r = slab_[h];
  if (r.pod == nullptr || r.pod->uid != pod->uid) {
    r.terms_pod = pod;
  }
  r.pod = pod;
  if (unsched_[r.key] == h) TrackHints(r.key);  // the name may change
}

void PriorityQueue::ActiveUpsert(uint32_t h) {
  Ref(h);
  if (std::optional<uint32_t> old = active_.Upsert(h)) Unref(*old);
}

void PriorityQueue::BackoffUpsert(uint32_t h) {
  Ref(h);
  if (std::optional<uint32_t> old = backoff_.Upsert(h)) Unref(*old);
}

void PriorityQueue::ActiveDelete(uint32_t key) {
  if (active_.Contains(key)) Unref(active_.Delete(key));
}

void PriorityQueue::BackoffDelete(uint32_t key) {
  if (backoff_.Contains(key)) Unref(backoff_.Delete(key));
}

// ---------------------------------------------------------------------------
// Backoff and PreEnqueue.

// upstream: PriorityQueue.calculateBackoffDuration, with Go's wrapping
// int64 arithmetic (docs/UPSTREAM.md item 29).
int64_t PriorityQueue::BackoffDurationNs(const Record& r) const {
  int64_t d = initial_backoff_ns_;
  for (int i = 1; i < r.attempts; ++i) {
    if (d > WrapSub(max_backoff_ns_, d)) return max_backoff_ns_;
    d = WrapAdd(d, d);
  }
  return d;
}

// upstream: PriorityQueue.getBackoffTime (Go's Time.Add: exact, far past
// the int64 nanosecond range).
TimeNs PriorityQueue::BackoffTimeNs(const Record& r) const {
  return r.timestamp_ns + BackoffDurationNs(r);
}

// upstream: PriorityQueue.isPodBackingoff.
bool PriorityQueue::IsPodBackingOff(const Record& r) const {
  if (r.gated) return false;
  return BackoffTimeNs(r) > now_ns_;
}

// upstream: PriorityQueue.runPreEnqueuePlugins; the only PreEnqueue plugin
// is SchedulingGates (schedulinggates.go), a no-op without the
// PodSchedulingReadiness feature. Other names always succeed.
bool PriorityQueue::RunPreEnqueuePlugins(uint32_t h) {
  auto it = pre_enqueue_.find(slab_[h].pod->scheduler_name);
  if (it == pre_enqueue_.end()) return true;
  for (const std::string& name : it->second) {
    if (name != "SchedulingGates") continue;
    if (!scheduling_readiness_ || slab_[h].pod->scheduling_gates.empty()) {
      continue;
    }
    // upstream: UnschedulablePlugins.Insert, a panic on a nil set.
    if (slab_[h].plugins_nil) panicked_ = true;
    const uint16_t id = scheduling_gates_plugin_;
    PluginSet plugins = slab_[h].plugins;
    auto pos = std::lower_bound(plugins.begin(), plugins.end(), id);
    if (pos == plugins.end() || *pos != id) {
      plugins.insert(pos, id);
      SetPlugins(h, std::move(plugins));
    }
    return false;
  }
  return true;
}

// upstream: isPodUpdated. KEP-3521, kubernetes#113275 (v1.26) added
// spec.schedulingGates: v1.25 decodes pods without them, so a change of
// gates alone is no update there.
bool PriorityQueue::IsPodUpdated(const Pod& old_pod, const Pod& new_pod) const {
  return PodUpdated(old_pod, new_pod, up_.pre_enqueue_and_scheduling_gates);
}

// upstream: PriorityQueue.addToActiveQ.
bool PriorityQueue::AddToActiveQ(uint32_t h) {
  const bool gated = !RunPreEnqueuePlugins(h);
  slab_[h].gated = gated;
  ++unsched_changes_;  // shown when h is the record unschedulablePods holds
  if (gated) {
    UnschedAddOrUpdate(h);
    return false;
  }
  ActiveUpsert(h);
  return true;
}

// ---------------------------------------------------------------------------
// The queue's API.

// upstream: PriorityQueue.Add.
QueueResult PriorityQueue::Add(const PodPtr& pod) {
  const uint32_t h = NewRecord(pod);
  Ref(h);  // held for the duration of the call
  if (AddToActiveQ(h)) {
    const uint32_t key = slab_[h].key;
    UnschedDelete(key);
    BackoffDelete(key);
    AddNominatedPodUnlocked(h, std::nullopt);
  }
  Unref(h);
  return QueueResult::kOk;
}

// upstream: PriorityQueue.Update.
QueueResult PriorityQueue::Update(const PodPtr& old_pod,
                                  const PodPtr& new_pod) {
  if (old_pod != nullptr) {
    if (std::optional<uint32_t> key = FindKey(*old_pod)) {
      if (active_.Contains(*key)) {
        const uint32_t h = active_.Get(*key);
        SetPod(h, new_pod);
        if (!UpdateNominatedPodUnlocked(old_pod, h)) return QueueResult::kFatal;
        ActiveUpsert(h);
        return QueueResult::kOk;
      }
      if (backoff_.Contains(*key)) {
        const uint32_t h = backoff_.Get(*key);
        SetPod(h, new_pod);
        if (!UpdateNominatedPodUnlocked(old_pod, h)) return QueueResult::kFatal;
        BackoffUpsert(h);
        return QueueResult::kOk;
      }
    }
  }
  if (std::optional<uint32_t> key = FindKey(*new_pod);
      key && unsched_[*key] != kNone) {
    const uint32_t h = unsched_[*key];
    Ref(h);
    SetPod(h, new_pod);
    if (!UpdateNominatedPodUnlocked(old_pod, h)) {
      Unref(h);
      return QueueResult::kFatal;  // NominatedNodeName(nil) panics
    }
    if (IsPodUpdated(*old_pod, *new_pod)) {
      if (IsPodBackingOff(slab_[h])) {
        BackoffUpsert(h);
        UnschedDelete(*key);
      } else if (AddToActiveQ(h)) {
        UnschedDelete(*key);
      }
    }
    Unref(h);
    return QueueResult::kOk;
  }
  const uint32_t h = NewRecord(new_pod);
  Ref(h);
  if (AddToActiveQ(h)) AddNominatedPodUnlocked(h, std::nullopt);
  Unref(h);
  return QueueResult::kOk;
}

// upstream: PriorityQueue.Delete.
QueueResult PriorityQueue::Delete(const PodPtr& pod) {
  NominatorDelete(*pod);
  std::optional<uint32_t> key = FindKey(*pod);
  if (!key) return QueueResult::kOk;
  if (active_.Contains(*key)) {
    ActiveDelete(*key);
  } else {
    BackoffDelete(*key);
    UnschedDelete(*key);
  }
  return QueueResult::kOk;
}

// upstream: PriorityQueue.Activate / activate.
void PriorityQueue::Activate(const std::vector<PodPtr>& pods) {
  for (const PodPtr& pod : pods) {
    std::optional<uint32_t> key = FindKey(*pod);
    if (!key || active_.Contains(*key)) continue;
    uint32_t h = unsched_[*key];
    if (h == kNone) {
      if (!backoff_.Contains(*key)) continue;
      h = backoff_.Get(*key);
    }
    Ref(h);
    if (AddToActiveQ(h)) {
      UnschedDelete(*key);
      BackoffDelete(*key);
      AddNominatedPodUnlocked(h, std::nullopt);
    }
    Unref(h);
  }
}

// upstream: PriorityQueue.flushBackoffQCompleted.
void PriorityQueue::FlushBackoffQCompleted() {
  while (!backoff_.empty()) {
    const uint32_t h = backoff_.Top();
    if (IsPodBackingOff(slab_[h])) break;
    backoff_.Pop();  // the heap's reference is held until AddToActiveQ
    AddToActiveQ(h);
    Unref(h);
  }
}

}  // namespace schedtrace::impl
