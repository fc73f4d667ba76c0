#include "impl/queue.h"

#include <algorithm>
#include <utility>

#include "harness/go_int.h"
#include "harness/refill.h"
#include "impl/mutants.h"

namespace schedtrace::impl {
namespace {

// upstream: labels.Selector.Matches for metav1.LabelSelectorAsSelector
// (apimachinery): every matchLabels pair and every expression must hold.
bool SelectorMatches(const LabelSelector& sel, const Labels& labels) {
  for (const auto& [k, v] : sel.match_labels) {
    auto it = labels.find(k);
    if (it == labels.end() || it->second != v) return false;
  }
  for (const LabelSelectorRequirement& r : sel.match_expressions) {
    auto it = labels.find(r.key);
    const bool has = it != labels.end();
    const bool in = has && std::find(r.values.begin(), r.values.end(),
                                     it->second) != r.values.end();
    if (r.op == "In") {
      if (!in) return false;
    } else if (r.op == "NotIn") {
      if (in) return false;
    } else if (r.op == "Exists") {
      if (!has) return false;
    } else if (r.op == "DoesNotExist") {
      if (has) return false;
    } else {
      return false;
    }
  }
  return true;
}

// out = pod.Key(), built in out's storage.
void AssignKey(std::string& out, const Pod& pod) {
  out.assign(pod.namespace_);
  out.push_back('/');
  out.append(pod.name);
}

}  // namespace

// upstream: NewPriorityQueue (scheduling_queue.go).
PriorityQueue::PriorityQueue(const Config& config)
    : active_(ActiveLess{this}, KeyOf{this}),
      backoff_(BackoffLess{this}, KeyOf{this}),
      snapshot_active_(ActiveLess{this}, KeyOf{this}) {
  // The queue layer's durations are milliseconds; Go's Duration
  // multiplication wraps (notes 29).
  initial_backoff_ns_ = WrapMul(config.pod_initial_backoff_ms, 1000000);
  max_backoff_ns_ = WrapMul(config.pod_max_backoff_ms, 1000000);
  max_in_unschedulable_ns_ =
      WrapMul(config.pod_max_in_unschedulable_ms, 1000000);
  scheduling_readiness_ = config.Feature("PodSchedulingReadiness");
  for (const auto& [profile, plugins] : config.pre_enqueue_plugins) {
    pre_enqueue_[profile] = plugins;
    for (const std::string& p : plugins) InternPlugin(p);
  }
  for (const ClusterEventMapEntry& e : config.cluster_event_map) {
    EventEntry entry;
    entry.resource = e.resource;
    for (const std::string& a : e.actions) entry.actions |= ActionTypeBits(a);
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
  if (MutantActive(Mutant::kBackoffHeapByTimestamp)) {
    // Planted: ordered by the time the pod entered, not by its expiry.
    return q->slab_[a].timestamp_ns < q->slab_[b].timestamp_ns;
  }
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

bool PriorityQueue::WasPopped(const std::string& key) const {
  std::optional<uint32_t> id = FindKey(key);
  return id && last_popped_[*id] != kNone;
}

void PriorityQueue::EnsureKeyTables(uint32_t id) {
  if (id < unsched_.size()) return;
  const size_t n = std::max<size_t>(id + 1, unsched_.size() * 2);
  unsched_.resize(n, kNone);
  unsched_pos_.resize(n, kNone);
  last_popped_.resize(n, kNone);
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
  if (r.pod == nullptr || (r.pod->uid != pod->uid &&
                           !MutantActive(Mutant::kRecreatedPodKeepsTerms))) {
    r.terms_pod = pod;  // planted (when skipped): terms kept by name
  }
  r.pod = pod;
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

// upstream: UnschedulablePods.addOrUpdate, keeping the plugin index.
void PriorityQueue::UnschedAddOrUpdate(uint32_t h) {
  const uint32_t key = slab_[h].key;
  const uint32_t old = unsched_[key];
  if (old == h) return;
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
}

// upstream: UnschedulablePods.delete.
void PriorityQueue::UnschedDelete(uint32_t key) {
  const uint32_t h = unsched_[key];
  if (h == kNone) return;
  IndexErase(key, slab_[h].plugins);
  unsched_[key] = kNone;
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

// Replaces a record's UnschedulablePlugins, re-indexing it when it is the
// record unschedulablePods holds.
void PriorityQueue::SetPlugins(uint32_t h, PluginSet plugins) {
  const uint32_t key = slab_[h].key;
  const bool indexed = unsched_[key] == h;
  if (indexed) IndexErase(key, slab_[h].plugins);
  slab_[h].plugins = std::move(plugins);
  if (indexed) IndexInsert(key, slab_[h].plugins);
}

// ---------------------------------------------------------------------------
// Backoff and PreEnqueue.

// upstream: PriorityQueue.calculateBackoffDuration, with Go's wrapping
// int64 arithmetic (notes 29).
int64_t PriorityQueue::BackoffDurationNs(const Record& r) const {
  int64_t d = initial_backoff_ns_;
  const int first = MutantActive(Mutant::kBackoffOffByOne) ? 0 : 1;
  for (int i = first; i < r.attempts; ++i) {
    if (MutantActive(Mutant::kBackoffOverflow)) {
      // The old order: double, then compare (overflows with a huge max).
      d = WrapAdd(d, d);
      if (d > max_backoff_ns_) return max_backoff_ns_;
      continue;
    }
    if (d > WrapSub(max_backoff_ns_, d)) return max_backoff_ns_;
    d = WrapAdd(d, d);
  }
  return d;
}

// upstream: PriorityQueue.getBackoffTime (Go's Time.Add does not wrap).
int64_t PriorityQueue::BackoffTimeNs(const Record& r) const {
  if (MutantActive(Mutant::kBackoffExpiryWraps)) {
    return WrapAdd(r.timestamp_ns, BackoffDurationNs(r));
  }
  return SaturatingAdd(r.timestamp_ns, BackoffDurationNs(r));
}

// upstream: PriorityQueue.isPodBackingoff.
bool PriorityQueue::IsPodBackingOff(const Record& r) const {
  if (r.gated && !MutantActive(Mutant::kGatedUpdateBackoff)) return false;
  if (MutantActive(Mutant::kBackoffExpiryInclusive)) {
    return BackoffTimeNs(r) >= now_ns_;
  }
  return BackoffTimeNs(r) > now_ns_;
}

// upstream: PriorityQueue.runPreEnqueuePlugins; the only PreEnqueue plugin
// is SchedulingGates (schedulinggates.go), a no-op without the
// PodSchedulingReadiness feature. Other names always succeed.
bool PriorityQueue::RunPreEnqueuePlugins(uint32_t h) {
  if (MutantActive(Mutant::kGatesIgnored)) return true;
  auto it = pre_enqueue_.find(slab_[h].pod->scheduler_name);
  if (it == pre_enqueue_.end()) return true;
  for (const std::string& name : it->second) {
    if (name != "SchedulingGates") continue;
    if (!scheduling_readiness_ || slab_[h].pod->scheduling_gates.empty()) {
      continue;
    }
    const uint16_t id = InternPlugin(name);
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

// upstream: PriorityQueue.addToActiveQ.
bool PriorityQueue::AddToActiveQ(uint32_t h) {
  const bool gated = !RunPreEnqueuePlugins(h);
  if (MutantActive(Mutant::kGatedFlagKeptAfterUngate)) {
    slab_[h].gated = slab_[h].gated || gated;  // planted: never cleared
  } else {
    slab_[h].gated = gated;
  }
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
    if (!MutantActive(Mutant::kAddLeavesBackoff)) BackoffDelete(key);
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
        // Planted (when skipped): the record is shared and already in the
        // heap, so the heap is not fixed after a priority change.
        if (!MutantActive(Mutant::kActiveUpdateNotFixed)) ActiveUpsert(h);
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
    if (MutantActive(Mutant::kStatusUpdateSkipsNominator) &&
        old_pod != nullptr && !PodSpecOrMetaChanged(*old_pod, *new_pod)) {
      // Planted: a status-only update is a no-op, nominator included.
      Unref(h);
      return QueueResult::kOk;
    }
    if (!UpdateNominatedPodUnlocked(old_pod, h)) {
      Unref(h);
      return QueueResult::kFatal;  // NominatedNodeName(nil) panics
    }
    if (PodSpecOrMetaChanged(*old_pod, *new_pod)) {
      if (IsPodBackingOff(slab_[h])) {
        BackoffUpsert(h);
        if (!MutantActive(Mutant::kTwoQueuesOnUpdate)) UnschedDelete(*key);
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
  if (!MutantActive(Mutant::kNominationKeptOnDelete)) NominatorDelete(*pod);
  std::optional<uint32_t> key = FindKey(*pod);
  if (!key) return QueueResult::kOk;
  if (active_.Contains(*key)) {
    ActiveDelete(*key);
  } else {
    if (!MutantActive(Mutant::kDeleteMissesBackoff)) BackoffDelete(*key);
    UnschedDelete(*key);
  }
  return QueueResult::kOk;
}

// upstream: PriorityQueue.Pop, never blocking.
std::optional<PriorityQueue::Popped> PriorityQueue::Pop() {
  if (active_.empty()) return std::nullopt;
  const uint32_t h = active_.Pop();  // the heap's reference moves to h
  Record& r = slab_[h];
  if (MutantActive(Mutant::kBackoffResetAfterIdle) &&
      WrapSub(now_ns_, r.timestamp_ns) > max_backoff_ns_) {
    r.attempts = 0;  // planted: the old backoff map forgot idle pods
  }
  if (!MutantActive(Mutant::kAttemptsNotCounted)) ++r.attempts;
  ++scheduling_cycle_;
  const uint32_t old = last_popped_[r.key];
  last_popped_[r.key] = h;  // keeps the heap's reference
  if (old != kNone) Unref(old);
  return Popped{keys_[slab_[h].key], slab_[h].attempts};
}

// upstream: PriorityQueue.AddUnschedulableIfNotPresent, given the
// QueuedPodInfo the last Pop of `key` returned with its plugins replaced.
QueueResult PriorityQueue::AddUnschedulableIfNotPresent(
    const std::string& key_name, const std::vector<std::string>& plugins,
    std::optional<int64_t> cycle) {
  std::optional<uint32_t> key = FindKey(key_name);
  if (!key || last_popped_[*key] == kNone) return QueueResult::kError;
  const uint32_t h = last_popped_[*key];
  PluginSet set;
  for (const std::string& p : plugins) set.push_back(InternPlugin(p));
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  SetPlugins(h, std::move(set));

  if (unsched_[*key] != kNone || active_.Contains(*key) ||
      (backoff_.Contains(*key) &&
       !MutantActive(Mutant::kAddUnschedulableSkipsBackoffCheck))) {
    return QueueResult::kError;  // planted (when skipped): backoffQ missed
  }
  if (!MutantActive(Mutant::kBackoffTimestampNotReset)) {
    slab_[h].timestamp_ns = now_ns_;  // planted (when skipped)
  }
  if (move_request_cycle_ >= cycle.value_or(scheduling_cycle_) &&
      !MutantActive(Mutant::kMoveRequestLost)) {
    BackoffUpsert(h);
  } else {
    UnschedAddOrUpdate(h);
  }
  AddNominatedPodUnlocked(h, std::nullopt);
  return QueueResult::kOk;
}

// upstream: PriorityQueue.Activate / activate.
void PriorityQueue::Activate(const std::vector<PodPtr>& pods) {
  for (const PodPtr& pod : pods) {
    std::optional<uint32_t> key = FindKey(*pod);
    if (!key || active_.Contains(*key)) continue;
    uint32_t h = unsched_[*key];
    if (h == kNone) {
      if (MutantActive(Mutant::kActivateSkipsBackoff)) continue;  // planted
      if (!backoff_.Contains(*key)) continue;
      h = backoff_.Get(*key);
    }
    Ref(h);
    if (AddToActiveQ(h)) {
      if (!MutantActive(Mutant::kActivateLeavesUnschedulable)) {
        UnschedDelete(*key);
      }
      BackoffDelete(*key);
      AddNominatedPodUnlocked(h, std::nullopt);
    }
    Unref(h);
  }
}

// upstream: PriorityQueue.podMatchesEvent, over the flags
// ComputeEventPlugins set for the event.
bool PriorityQueue::PodMatchesEvent(const Record& r,
                                    const ClusterEvent& event) {
  if (event.resource == "*" && ActionTypeBits(event.action) == kAllActionBits) {
    return true;
  }
  for (uint16_t p : r.plugins) {
    if (event_plugins_[p]) return true;
  }
  return false;
}

// Marks every plugin that some clusterEventMap entry matching `event` names
// (upstream podMatchesEvent's evtMatch, hoisted out of the per-pod loop).
void PriorityQueue::ComputeEventPlugins(const ClusterEvent& event) {
  std::fill(event_plugins_.begin(), event_plugins_.end(), 0);
  const uint32_t bits = static_cast<uint32_t>(ActionTypeBits(event.action));
  for (const EventEntry& e : event_map_) {
    const bool wild = e.resource == "*" && e.actions == kAllActionBits;
    if (wild || (e.resource == event.resource && (e.actions & bits) != 0)) {
      for (uint16_t p : e.plugins) event_plugins_[p] = 1;
    }
  }
}

// The pods of unschedulablePods that `event` can move: all of them for a
// wildcard event, else those holding a marked plugin or no plugin at all.
void PriorityQueue::CollectCandidates(const ClusterEvent& event) {
  candidates_.clear();
  if (event.resource == "*" && ActionTypeBits(event.action) == kAllActionBits) {
    for (uint32_t key : unsched_keys_) candidates_.push_back(unsched_[key]);
    return;
  }
  ++epoch_;
  auto take = [&](uint32_t key) {
    if (stamp_[key] == epoch_) return;
    stamp_[key] = epoch_;
    candidates_.push_back(unsched_[key]);
  };
  for (uint16_t p = 0; p < event_plugins_.size(); ++p) {
    if (!event_plugins_[p]) continue;
    for (uint32_t key : plugin_index_[p]) take(key);
  }
  if (MutantActive(Mutant::kMoveSkipsPodsWithoutPlugins)) return;
  for (uint32_t key : no_plugins_) take(key);
}

// upstream: PriorityQueue.movePodsToActiveOrBackoffQueue over candidates_.
void PriorityQueue::MovePodsToActiveOrBackoffQueue(const ClusterEvent& event) {
  for (uint32_t h : candidates_) {
    Record& r = slab_[h];
    if (!r.plugins.empty() && !PodMatchesEvent(r, event)) continue;
    const uint32_t key = r.key;
    if (IsPodBackingOff(r) && !MutantActive(Mutant::kMoveIgnoresBackoff)) {
      BackoffUpsert(h);
      UnschedDelete(key);
    } else if (AddToActiveQ(h)) {
      UnschedDelete(key);
    }
  }
  if (MutantActive(Mutant::kMoveRequestCycleNotRecorded) &&
      candidates_.empty()) {
    return;
  }
  move_request_cycle_ = scheduling_cycle_;
}

// upstream: PriorityQueue.MoveAllToActiveOrBackoffQueue.
void PriorityQueue::MoveAllToActiveOrBackoffQueue(
    const ClusterEvent& event,
    const std::optional<std::vector<std::string>>& precheck) {
  ComputeEventPlugins(event);
  CollectCandidates(event);
  if (precheck && !MutantActive(Mutant::kMoveIgnoresPrecheck)) {
    // Marks the keys the check lets through with a fresh epoch.
    ++epoch_;
    for (const std::string& k : *precheck) {
      if (std::optional<uint32_t> id = FindKey(k)) stamp_[*id] = epoch_;
    }
    candidates_.erase(std::remove_if(candidates_.begin(), candidates_.end(),
                                     [&](uint32_t h) {
                                       return stamp_[slab_[h].key] != epoch_;
                                     }),
                      candidates_.end());
  }
  MovePodsToActiveOrBackoffQueue(event);
}

std::vector<std::string> PriorityQueue::MoveCandidatesForTest(
    const ClusterEvent& event) {
  ComputeEventPlugins(event);
  CollectCandidates(event);
  std::vector<std::string> out;
  for (uint32_t h : candidates_) out.push_back(keys_[slab_[h].key]);
  std::sort(out.begin(), out.end());
  return out;
}

// upstream: AffinityTerm.Matches over PodInfo.RequiredAffinityTerms
// (framework/types.go); the queue layer has no namespaces, so the namespace
// labels are empty.
bool PriorityQueue::AffinityMatches(const Record& r,
                                    const Pod& assigned) const {
  static const Labels kNoLabels;
  const Pod& owner = *r.terms_pod;
  for (const PodAffinityTerm& term : owner.required_pod_affinity) {
    bool ns_match;
    if (term.namespaces.empty() && !term.namespace_selector) {
      ns_match = assigned.namespace_ == owner.namespace_;
    } else {
      ns_match = std::find(term.namespaces.begin(), term.namespaces.end(),
                           assigned.namespace_) != term.namespaces.end() ||
                 (term.namespace_selector &&
                  SelectorMatches(*term.namespace_selector, kNoLabels));
    }
    if (!ns_match || !term.label_selector) continue;
    if (SelectorMatches(*term.label_selector, assigned.labels)) return true;
  }
  return false;
}

// upstream: PriorityQueue.AssignedPodAdded.
void PriorityQueue::AssignedPodAdded(const PodPtr& pod) {
  candidates_.clear();
  for (uint32_t key : unsched_keys_) {
    const uint32_t h = unsched_[key];
    if (h != kNone && AffinityMatches(slab_[h], *pod)) candidates_.push_back(h);
  }
  const ClusterEvent event{"Pod", "Add", "AssignedPodAdd"};
  ComputeEventPlugins(event);
  MovePodsToActiveOrBackoffQueue(event);
}

// upstream: PriorityQueue.AssignedPodUpdated.
void PriorityQueue::AssignedPodUpdated(const PodPtr& pod) {
  candidates_.clear();
  for (uint32_t key : unsched_keys_) {
    const uint32_t h = unsched_[key];
    if (h != kNone && AffinityMatches(slab_[h], *pod)) candidates_.push_back(h);
  }
  const ClusterEvent event{"Pod", "Update", "AssignedPodUpdate"};
  ComputeEventPlugins(event);
  MovePodsToActiveOrBackoffQueue(event);
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

// upstream: PriorityQueue.flushUnschedulablePodsLeftover.
void PriorityQueue::FlushUnschedulablePodsLeftover() {
  candidates_.clear();
  for (uint32_t key : unsched_keys_) {
    const uint32_t h = unsched_[key];
    if (h == kNone) continue;
    if (MutantActive(Mutant::kLeftoverFlushSkipsGated) && slab_[h].gated) {
      continue;  // planted: a gated pod would stay gated anyway
    }
    const int64_t age = WrapSub(now_ns_, slab_[h].timestamp_ns);
    if (age > max_in_unschedulable_ns_ ||
        (MutantActive(Mutant::kLeftoverFlushInclusive) &&
         age == max_in_unschedulable_ns_)) {
      candidates_.push_back(h);
    }
  }
  if (candidates_.empty()) return;
  const ClusterEvent event{"*", "All", "UnschedulableTimeout"};
  ComputeEventPlugins(event);
  MovePodsToActiveOrBackoffQueue(event);
}

// ---------------------------------------------------------------------------
// Nominator.

void PriorityQueue::ListerSet(const PodPtr& pod) { lister_[pod->Key()] = pod; }
void PriorityQueue::ListerDelete(const Pod& pod) { lister_.erase(pod.Key()); }

// upstream: nominator.delete.
void PriorityQueue::NominatorDelete(const Pod& pod) {
  auto it = nominated_pod_to_node_.find(pod.uid);
  if (it == nominated_pod_to_node_.end()) return;
  auto node_it = nominated_pods_.find(it->second);
  if (node_it != nominated_pods_.end()) {
    std::vector<uint32_t>& list = node_it->second;
    for (size_t i = 0; i < list.size(); ++i) {
      if (slab_[list[i]].pod->uid == pod.uid) {
        const uint32_t h = list[i];
        list.erase(list.begin() + static_cast<ptrdiff_t>(i));
        if (list.empty()) nominated_pods_.erase(node_it);
        Unref(h);
        break;
      }
    }
  }
  nominated_pod_to_node_.erase(pod.uid);
}

// upstream: nominator.addNominatedPodUnlocked. `node` nullopt is a nil
// NominatingInfo (ModeNoop); a value is ModeOverride.
void PriorityQueue::AddNominatedPodUnlocked(uint32_t h,
                                            std::optional<std::string> node) {
  const PodPtr pod = slab_[h].pod;  // keep alive across NominatorDelete
  if (MutantActive(Mutant::kNominationMoveKeepsOldNode)) {
    nominated_pod_to_node_.erase(pod->uid);  // planted: the list keeps it
  } else {
    NominatorDelete(*pod);
  }
  std::string node_name;
  if (node) {
    node_name = *node;
  } else {
    if (pod->nominated_node_name.empty()) return;
    node_name = pod->nominated_node_name;
  }
  auto lister_it = lister_.find(pod->Key());
  if (lister_it == lister_.end()) return;
  if (!lister_it->second->node_name.empty() &&
      !MutantActive(Mutant::kNominateBoundPod)) {
    return;
  }
  nominated_pod_to_node_[pod->uid] = node_name;
  auto it = nominated_pods_.find(node_name);
  if (it != nominated_pods_.end()) {
    for (uint32_t other : it->second) {
      if (slab_[other].pod->uid == pod->uid) return;
    }
  }
  Ref(h);
  nominated_pods_[node_name].push_back(h);
}

// upstream: nominator.updateNominatedPodUnlocked. False where upstream
// panics (a nil old pod).
bool PriorityQueue::UpdateNominatedPodUnlocked(const PodPtr& old_pod,
                                               uint32_t h) {
  if (old_pod == nullptr) return false;
  std::optional<std::string> node;
  if (old_pod->nominated_node_name.empty() &&
      slab_[h].pod->nominated_node_name.empty()) {
    auto it = nominated_pod_to_node_.find(old_pod->uid);
    if (it != nominated_pod_to_node_.end()) node = it->second;
  }
  NominatorDelete(*old_pod);
  AddNominatedPodUnlocked(h, std::move(node));
  return true;
}

// upstream: nominator.AddNominatedPod with ModeOverride, for a PodInfo made
// from `pod`.
void PriorityQueue::AddNominatedPodOverride(const PodPtr& pod,
                                            const std::string& node) {
  const uint32_t h = NewRecord(pod);
  Ref(h);
  AddNominatedPodUnlocked(h, node);
  Unref(h);
}

// ---------------------------------------------------------------------------
// Snapshots.

QueueState PriorityQueue::SnapshotQueue() const {
  QueueState s;
  SnapshotQueueInto(s);
  return s;
}

// Every entry is written in its final order, so that an entry's strings and
// plugin list are reused by the same pod from one snapshot to the next.
void PriorityQueue::SnapshotQueueInto(QueueState& s) const {
  // activeQ in pop order: Go's Pops replayed on a copy (storage reused).
  snapshot_active_ = active_;
  Refill<QueuedPod> active(s.active);
  while (!snapshot_active_.empty()) {
    const uint32_t h = snapshot_active_.Pop();
    SetQueuedPod(active.Next(), h);
  }
  active.Finish();

  auto by_key = [this](uint32_t a, uint32_t b) {
    return keys_[slab_[a].key] < keys_[slab_[b].key];
  };
  std::vector<uint32_t>& order = snapshot_order_;
  order.assign(backoff_.items().begin(), backoff_.items().end());
  std::sort(order.begin(), order.end(), by_key);
  Refill<QueuedPod> backoff(s.backoff);
  for (uint32_t h : order) {
    QueuedPod& q = SetQueuedPod(backoff.Next(), h);
    q.backoff_expires_at = FloorDiv(BackoffTimeNs(slab_[h]), 1000000);
  }
  backoff.Finish();

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
  s.scheduling_cycle = scheduling_cycle_;
  s.move_request_cycle = move_request_cycle_;
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
