// impl::BackendQueue's core (impl/backend_queue.h): the slab of records,
// interning (keys, plugins, resources, events), backoff, PreEnqueue, and the
// queue's API calls. unschedulablePods, moves and the in-flight list are in
// backend_queue_moves.cc; the nominator and snapshots in
// backend_queue_snapshot.cc.
#include "impl/backend_queue.h"

#include <algorithm>
#include <utility>

#include "impl/go_int.h"
#include "impl/quantity_sum.h"

namespace schedtrace::impl {
namespace {

// The resources MatchClusterEvents names, interned first.
enum : uint16_t {
  kWildCardResource = 0,
  kPodResource,
  kAssignedPodResource,
  kUnscheduledPodResource,
  kTargetPodResource,
  kUnschedulablePodResource,  // v1.35 and v1.36's unassigned pods
};

// Go's zero time.Time{} (January 1, year 1), in ns from the trace's zero
// (2023-01-01T00:00:00Z, 62135596800 + 1672531200 s later).
constexpr TimeNs kGoZero =
    -static_cast<TimeNs>(62135596800LL + 1672531200LL) * 1000000000;
constexpr int64_t kNsPerSec = 1000000000;

using Millis = absl::InlinedVector<std::pair<const std::string*, int64_t>, 4>;

// upstream: resource.PodRequests (the containers' requests added, raised
// to the largest init container's, plus overhead), as milli-values.
void RequestMillis(const Pod& pod, Millis& out) {
  PodRequestSums reqs;
  SumPodRequests(pod, reqs);
  out.clear();
  for (const PodRequestSum& e : reqs) {
    out.push_back({e.name, e.sum.ToQuantity().MilliValue()});
  }
}

// Whether some entry of `a` is missing from `b` or above b's.
bool AnyAbove(const Millis& a, const Millis& b) {
  for (const auto& entry : a) {
    const std::string& name = *entry.first;
    auto it = std::find_if(b.begin(), b.end(),
                           [&](const auto& e) { return *e.first == name; });
    if (it == b.end() || entry.second > it->second) return true;
  }
  return false;
}

}  // namespace

// upstream: NewPriorityQueue (scheduling_queue.go) with buildQueueingHintMap
// and buildEventMap of the header's clusterEventMap (or of `hints`), for
// every profile.
BackendQueue::BackendQueue(const Config& config, const Upstream& up,
                           const std::vector<HintRegistration>* hints)
    : up_(up),
      active_(ActiveLess{this}, KeyOf{this}),
      backoff_(BackoffLess{this}, KeyOf{this}),
      error_backoff_(ErrorBackoffLess{this}, KeyOf{this}),
      snapshot_active_(ActiveLess{this}, KeyOf{this}) {
  initial_backoff_ns_ = WrapMul(config.pod_initial_backoff_ms, 1000000);
  max_backoff_ns_ = WrapMul(config.pod_max_backoff_ms, 1000000);
  max_in_unschedulable_ns_ =
      WrapMul(config.pod_max_in_unschedulable_ms, 1000000);
  use_lister_ = hints != nullptr || config.nominator_pod_lister == "queue-ops";
  profiles_.insert(config.profiles.begin(), config.profiles.end());
  for (const char* r : {"*", "Pod", "AssignedPod", "UnscheduledPod",
                        "TargetPod", "UnschedulablePod"}) {
    InternResource(r);
  }
  scheduling_gates_ = InternPlugin("SchedulingGates");
  for (const auto& [profile, plugins] : config.pre_enqueue_plugins) {
    runs_scheduling_gates_[profile] =
        std::find(plugins.begin(), plugins.end(), "SchedulingGates") !=
        plugins.end();
  }
  if (hints != nullptr) {
    for (const HintRegistration& h : *hints) {
      registrations_.push_back(Registration{InternResource(h.resource),
                                            h.bits,
                                            {InternPlugin(h.plugin)},
                                            {h.fn}});
    }
  }
  for (const ClusterEventMapEntry& e : config.cluster_event_map) {
    if (hints != nullptr) break;
    if (e.plugins.empty()) continue;  // no key of the QueueingHint map
    Registration reg;
    reg.resource = InternResource(e.resource);
    for (const std::string& a : e.actions) reg.bits |= ActionBits(a);
    for (const std::string& p : e.plugins) {
      reg.plugins.push_back(InternPlugin(p));
      reg.fns.push_back(e.hint == "plugin"
                            ? PluginHintFn(p, e.resource, reg.bits, up_)
                            : HintFn::kDefault);
      ordered_hints_ = ordered_hints_ || reg.fns.back() != HintFn::kDefault;
    }
    // A scripted "QueueSkip" hint never requeues; "Error" is treated as
    // Queue, as the default hint answers.
    reg.skips = e.hint == "QueueSkip";
    registrations_.push_back(std::move(reg));
  }
  registered_plugins_ = plugin_names_.size();
  assigned_pod_add_ = Event(kAssignedPodResource, action::kAdd);
  wildcard_ = Event(kWildCardResource, action::kAll);
}

// upstream: PrioritySort.Less.
bool BackendQueue::ActiveLess::operator()(uint32_t a, uint32_t b) const {
  const Record& ra = q->slab_[a];
  const Record& rb = q->slab_[b];
  const int32_t pa = ra.pod->Priority();
  const int32_t pb = rb.pod->Priority();
  return pa > pb || (pa == pb && ra.timestamp < rb.timestamp);
}

// upstream: backoffQueue.lessBackoffCompletedWithPriority (with
// SchedulerPopFromBackoffQ off, lessBackoffCompleted: by expiry alone).
bool BackendQueue::BackoffLess::operator()(uint32_t a, uint32_t b) const {
  const TimeNs ea = q->slab_[a].backoff_expiry;
  const TimeNs eb = q->slab_[b].backoff_expiry;
  if (ea != eb || !q->up_.pop_from_backoff_q) return ea < eb;
  return ActiveLess{q}(a, b);
}

// upstream: backoffQueue.lessBackoffCompleted.
bool BackendQueue::ErrorBackoffLess::operator()(uint32_t a, uint32_t b) const {
  return q->slab_[a].backoff_expiry < q->slab_[b].backoff_expiry;
}

// ---------------------------------------------------------------------------
// Slab and interning.

// upstream: newQueuedPodInfo.
uint32_t BackendQueue::NewRecord(const PodPtr& pod) {
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
  r.key = key;
  r.attempts = 0;
  r.unschedulable_count = 0;
  r.consecutive_errors = 0;
  r.timestamp = now_ns_;
  r.flush_timestamp = kGoZero;
  r.backoff_expiry = GetBackoffTime(r);
  r.plugins.clear();
  r.gated = false;
  r.refs = 0;
  return h;
}

void BackendQueue::Unref(uint32_t h) {
  Record& r = slab_[h];
  if (--r.refs == 0) {
    r.pod.reset();
    free_.push_back(h);
  }
}

uint32_t BackendQueue::InternKey(const std::string& key) {
  auto [it, inserted] =
      key_ids_.try_emplace(key, static_cast<uint32_t>(keys_.size()));
  if (inserted) {
    keys_.push_back(key);
    const uint32_t id = it->second;
    if (id >= unsched_.size()) {
      const size_t n = std::max<size_t>(id + 1, unsched_.size() * 2);
      unsched_.resize(n, kNone);
      unsched_pos_.resize(n, kNone);
      stamp_.resize(n, 0);
    }
  }
  return it->second;
}

// A pod's key id without allocating (a reused buffer), or nullopt.
std::optional<uint32_t> BackendQueue::FindKey(const Pod& pod) const {
  key_buf_.assign(pod.namespace_);
  key_buf_.push_back('/');
  key_buf_.append(pod.name);
  auto it = key_ids_.find(key_buf_);
  if (it == key_ids_.end()) return std::nullopt;
  return it->second;
}

const PodPtr* BackendQueue::QueuedPodOf(const Pod& ref) const {
  const std::optional<uint32_t> key = FindKey(ref);
  if (!key) return nullptr;
  const uint32_t k = *key;
  if (active_.Contains(k)) return &slab_[active_.Get(k)].pod;
  if (backoff_.Contains(k)) return &slab_[backoff_.Get(k)].pod;
  if (error_backoff_.Contains(k)) return &slab_[error_backoff_.Get(k)].pod;
  if (k < unsched_.size() && unsched_[k] != kNone) {
    return &slab_[unsched_[k]].pod;
  }
  return nullptr;
}

uint16_t BackendQueue::InternPlugin(const std::string& name) {
  auto [it, inserted] = plugin_ids_.try_emplace(
      name, static_cast<uint16_t>(plugin_names_.size()));
  if (inserted) {
    plugin_names_.push_back(name);
    plugin_index_.emplace_back();
  }
  return it->second;
}

uint16_t BackendQueue::InternResource(const std::string& name) {
  return resource_ids_
      .try_emplace(name, static_cast<uint16_t>(resource_ids_.size()))
      .first->second;
}

// upstream: framework.MatchClusterEvents(ce, incoming), with
// matchEventResources: the incoming event is the registered one or more
// specific. Pod matches the pod resources of the version: AssignedPod,
// UnscheduledPod and TargetPod from v1.37, AssignedPod and UnschedulablePod
// before.
bool BackendQueue::MatchClusterEvents(const Registration& ce, uint16_t resource,
                                      int32_t bits) const {
  if (ce.resource == kWildCardResource && ce.bits == action::kAll) {
    return true;
  }
  const bool pod_resource =
      resource == kAssignedPodResource ||
      (up_.target_pod_update_events ? resource == kUnscheduledPodResource ||
                                          resource == kTargetPodResource
                                    : resource == kUnschedulablePodResource);
  const bool resources = ce.resource == kWildCardResource ||
                         ce.resource == resource ||
                         (ce.resource == kPodResource && pod_resource);
  return resources && (ce.bits & bits) != 0 && bits <= ce.bits;
}

// An event interned with what the queue decides from it alone:
// ClusterEventIsWildCard, isEventOfInterest (no hint map without a
// profile), the plugins of the QueueingHint map's matching keys, and
// whether SchedulingGates' registrations (pluginToEventsMap) match it.
BackendQueue::EventId BackendQueue::Event(uint16_t resource, int32_t bits,
                                          std::string_view label) {
  // ClusterEvent.Label: the custom label, else resource and action.
  const bool nominates =
      label.empty()
          ? resource == kUnschedulablePodResource &&
                (bits == action::kAdd || bits == action::kUpdate)
          : label == "UnschedulablePodAdd" || label == "UnschedulablePodUpdate";
  const uint64_t tag = label.empty() ? 0 : nominates ? 1 : 2;
  const uint64_t id =
      (tag << 48) | (uint64_t{resource} << 32) | static_cast<uint32_t>(bits);
  if (auto it = event_ids_.find(id); it != event_ids_.end()) return it->second;
  EventInfo e;
  e.resource = resource;
  e.bits = bits;
  e.wildcard = resource == kWildCardResource && bits == action::kAll;
  e.matched.assign(registered_plugins_, 0);
  bool any = false;
  bool gates_registered = false;
  for (const Registration& reg : registrations_) {
    if (!MatchClusterEvents(reg, resource, bits)) continue;
    any = true;
    for (size_t i = 0; i < reg.plugins.size(); ++i) {
      const uint16_t p = reg.plugins[i];
      gates_registered = gates_registered || p == scheduling_gates_;
      if (reg.skips) continue;  // a scripted QueueSkip hint (E14)
      if (reg.fns[i] == HintFn::kDefault) {
        e.matched[p] = 1;
      } else {
        e.hints.push_back({p, reg.fns[i]});
        if (e.matched[p] == 0) e.matched[p] = 2;
      }
    }
  }
  const bool hint_maps = !profiles_.empty();
  e.of_interest = e.wildcard || (hint_maps && any);
  e.gate_match = hint_maps && gates_registered;
  e.nominates = nominates;
  const EventId eid = static_cast<EventId>(events_.size());
  events_.push_back(std::move(e));
  event_ids_.emplace(id, eid);
  return eid;
}

BackendQueue::EventId BackendQueue::TraceEvent(const ClusterEvent& event) {
  return Event(InternResource(event.resource), ActionBits(event.action),
               event.label);
}

// upstream: framework.PodSchedulingPropertiesChange and its extractors
// (extractPodLabelsChange, extractPodScaleDown, extractPodScaleUp,
// extractPodSchedulingGateEliminatedChange, extractPodTolerationChange).
void BackendQueue::PodSchedulingPropertiesChange(const Pod& new_pod,
                                                 const Pod& old_pod,
                                                 bool is_target_pod,
                                                 PodEvents& out) {
  // Before v1.37 an unassigned pod's events are UnschedulablePod, and a
  // raised request is no event of its own.
  const uint16_t r = !new_pod.node_name.empty()      ? kAssignedPodResource
                     : !up_.target_pod_update_events ? kUnschedulablePodResource
                     : is_target_pod                 ? kTargetPodResource
                                                     : kUnscheduledPodResource;
  out.clear();
  if (new_pod.labels != old_pod.labels) {
    out.push_back(Event(r, action::kUpdatePodLabel));
  }
  Millis news, olds;
  RequestMillis(new_pod, news);
  RequestMillis(old_pod, olds);
  if (AnyAbove(olds, news))
    out.push_back(Event(r, action::kUpdatePodScaleDown));
  if (up_.target_pod_update_events && AnyAbove(news, olds)) {
    out.push_back(Event(r, action::kUpdatePodScaleUp));
  }
  if (new_pod.scheduling_gates.empty() && !old_pod.scheduling_gates.empty()) {
    out.push_back(Event(r, action::kUpdatePodSchedulingGatesEliminated));
  }
  if (new_pod.tolerations.size() != old_pod.tolerations.size()) {
    out.push_back(Event(r, action::kUpdatePodToleration));
  }
  if (out.empty()) out.push_back(Event(r, action::kUpdate));
}

// ---------------------------------------------------------------------------
// Heaps.

// upstream: activeQueue.add (Heap.AddOrUpdate).
void BackendQueue::ActiveUpsert(uint32_t h) {
  Ref(h);
  if (std::optional<uint32_t> old = active_.Upsert(h)) Unref(*old);
}

// upstream: backoffQueue.add: a pod no plugin rejected waits in the error
// backoffQ, and leaves the other heap.
void BackendQueue::BackoffQAdd(uint32_t h) {
  const uint32_t key = slab_[h].key;
  Ref(h);
  if (up_.error_backoff_queue && slab_[h].plugins.empty()) {
    if (std::optional<uint32_t> old = error_backoff_.Upsert(h)) Unref(*old);
    if (backoff_.Contains(key)) Unref(backoff_.Delete(key));
    return;
  }
  if (std::optional<uint32_t> old = backoff_.Upsert(h)) Unref(*old);
  if (error_backoff_.Contains(key)) Unref(error_backoff_.Delete(key));
}

// upstream: backoffQueue.delete.
uint32_t BackendQueue::BackoffQDelete(uint32_t key) {
  if (backoff_.Contains(key)) return backoff_.Delete(key);
  if (error_backoff_.Contains(key)) return error_backoff_.Delete(key);
  return kNone;
}

// ---------------------------------------------------------------------------
// Backoff.

// upstream: backoffQueue.alignToWindow: one-second windows
// (backoffQOrderingWindowDuration), Go's Time.Truncate; with
// SchedulerPopFromBackoffQ off, no alignment.
TimeNs BackendQueue::AlignToWindow(TimeNs t) const {
  if (!up_.pop_from_backoff_q) return t;
  TimeNs q = t / kNsPerSec;
  if (t % kNsPerSec != 0 && t < 0) --q;
  return q * kNsPerSec;
}

// upstream: backoffQueue.isEntityBackingoff.
bool BackendQueue::IsPodBackingOff(const Record& r) const {
  if (!up_.gated_pods_back_off && r.gated) return false;
  if (!up_.backoff_includes_its_end) {
    return r.backoff_expiry > AlignToWindow(now_ns_);
  }
  return !(r.backoff_expiry < AlignToWindow(now_ns_));
}

// upstream: backoffQueue.getBackoffTime, from the failures in a row (the
// errors when the last attempt was one). Upstream caches it until the
// pod's next failure, which changes all it is computed from: records keep
// it, set when they are made and at each failure.
TimeNs BackendQueue::GetBackoffTime(const Record& r) const {
  if (max_backoff_ns_ == 0) return kGoZero;
  const int count = !up_.backoff_counts_failures ? r.attempts
                    : r.consecutive_errors > 0   ? r.consecutive_errors
                                                 : r.unschedulable_count;
  if (count == 0) return kGoZero;
  return AlignToWindow(r.timestamp + CalculateBackoffDuration(count));
}

// upstream: backoffQueue.calculateBackoffDuration, with Go's shifts (a
// shift of 64 or more leaves 0, or -1 for a negative value shifted right).
int64_t BackendQueue::CalculateBackoffDuration(int count) const {
  if (count == 0) return 0;
  const int shift = count - 1;
  const int64_t max_shifted =
      shift >= 63 ? (max_backoff_ns_ < 0 ? -1 : 0) : max_backoff_ns_ >> shift;
  if (initial_backoff_ns_ > max_shifted) return max_backoff_ns_;
  if (shift >= 64) return 0;
  return static_cast<int64_t>(static_cast<uint64_t>(initial_backoff_ns_)
                              << shift);
}

// ---------------------------------------------------------------------------
// PreEnqueue and the moves between queues.

// upstream: runPreEnqueuePlugins / runPreEnqueuePluginsForPod /
// runPreEnqueuePlugin: the gating plugin first, then the profile's; only
// SchedulingGates can gate (a pod with schedulingGates), and its rejection
// adds it to UnschedulablePlugins.
// The gating plugin is looked up in the profile of the pod's scheduler
// name: a name (changed by an update) whose profile lacks it leaves a nil
// PreEnqueuePlugin, which panics.
void BackendQueue::RunPreEnqueuePlugins(uint32_t h) {
  Record& r = slab_[h];
  auto it = runs_scheduling_gates_.find(r.pod->scheduler_name);
  const bool runs = it != runs_scheduling_gates_.end() && it->second;
  if (r.gated && !runs) {
    panicked_ = true;
    return;
  }
  const bool gated = !r.pod->scheduling_gates.empty() && (r.gated || runs);
  if (gated && !std::binary_search(r.plugins.begin(), r.plugins.end(),
                                   scheduling_gates_)) {
    PluginSet plugins = r.plugins;
    plugins.insert(
        std::lower_bound(plugins.begin(), plugins.end(), scheduling_gates_),
        scheduling_gates_);
    SetPlugins(h, std::move(plugins));
  }
  if (slab_[h].gated != gated) {
    slab_[h].gated = gated;
    ++unsched_changes_;  // shown when h is unschedulablePods' record
  }
}

// upstream: moveToActiveQ. From backoffQ PreEnqueue already ran when the
// pod entered it. Before v1.37 (move_to_active_leaves_other_queues off) a
// gated pod with a copy in activeQ or backoffQ stays where that copy is,
// and a pod moved to activeQ leaves backoffQ; `nominate` (before v1.37,
// from addPod) nominates a pod added to activeQ.
bool BackendQueue::MoveToActiveQ(uint32_t h, bool moves_from_backoff_q,
                                 bool nominate) {
  Ref(h);
  if (!(up_.pop_from_backoff_q && moves_from_backoff_q)) {
    RunPreEnqueuePlugins(h);
  }
  const bool gated = slab_[h].gated;
  const uint32_t key = slab_[h].key;
  const bool leaves = up_.move_to_active_leaves_other_queues;
  if (gated) {
    // v1.35 keeps a record already in unschedulablePods.
    if ((leaves || !(active_.Contains(key) || BackoffQHas(key))) &&
        (up_.gated_pod_replaces_unschedulable_record ||
         unsched_[key] == kNone)) {
      UnschedAddOrUpdate(h);
    }
  } else {
    UnschedDelete(key);
    if (!leaves) {
      if (const uint32_t old = BackoffQDelete(key); old != kNone) Unref(old);
    }
    ActiveUpsert(h);
    if (nominate) NominatorAdd(slab_[h].pod, std::nullopt);
  }
  Unref(h);
  return !gated;
}

// upstream: moveToBackoffQ.
// PreEnqueue runs here only with SchedulerPopFromBackoffQ on.
bool BackendQueue::MoveToBackoffQ(uint32_t h) {
  Ref(h);
  // Only SchedulerPopFromBackoffQ runs PreEnqueue here: without it a pod
  // that was gated enters backoffQ all the same.
  bool gated = false;
  if (up_.pop_from_backoff_q) {
    RunPreEnqueuePlugins(h);
    gated = slab_[h].gated;
  }
  if (gated) {
    if (up_.gated_pod_replaces_unschedulable_record ||
        unsched_[slab_[h].key] == kNone) {
      UnschedAddOrUpdate(h);
    }
  } else {
    UnschedDelete(slab_[h].key);
    BackoffQAdd(h);
  }
  Unref(h);
  return !gated;
}

// upstream: requeueEntityWithQueueingStrategy; the queue the pod went to.
BackendQueue::Queue BackendQueue::RequeuePodWithQueueingStrategy(
    uint32_t h, Strategy strategy, bool nominates) {
  if (strategy == Strategy::kSkip) {
    UnschedAddOrUpdate(h);
    return Queue::kUnschedulable;
  }
  if (IsPodBackingOff(slab_[h])) {
    return MoveToBackoffQ(h) ? Queue::kBackoff : Queue::kUnschedulable;
  }
  return MoveToActiveQ(h, false, nominates && !up_.add_nominates_gated_pods)
             ? Queue::kActive
             : Queue::kUnschedulable;
}

// ---------------------------------------------------------------------------
// The queue's API.

// upstream: Add / addPod: from v1.37 nominated first, even when gated;
// before, moveToActiveQ nominates the pod it adds to activeQ.
void BackendQueue::Add(const PodPtr& pod) { AddPod(pod); }

void BackendQueue::AddPod(const PodPtr& pod) {
  const uint32_t h = NewRecord(pod);
  Ref(h);
  if (up_.add_nominates_gated_pods) {
    NominatorAdd(pod, std::nullopt);
    MoveToActiveQ(h, false);
  } else {
    MoveToActiveQ(h, false, /*nominate=*/true);
  }
  Unref(h);
}

// upstream: Update. From v1.37 a record holds one uid: PodInfo.Update
// refuses a pod of another, and the queue then looks further (in the end,
// addPod); before, the record takes the other pod.
QueueResult BackendQueue::Update(const PodPtr& old_pod, const PodPtr& new_pod) {
  if (old_pod == nullptr) return QueueResult::kFatal;
  PodEvents events;
  PodSchedulingPropertiesChange(*new_pod, *old_pod, true, events);
  // upstream: unlockedActiveQueue.addEventsIfPodInFlight.
  if (inflight_pods_.contains(new_pod->uid)) {
    for (EventId e : events) {
      InFlight f{e, false, {}};
      if (!events_[e].hints.empty()) f.objects = {old_pod, new_pod, {}, {}};
      inflight_.push_back(std::move(f));
    }
    return QueueResult::kOk;
  }
  const std::optional<uint32_t> key = FindKey(*old_pod);
  if (!key) {
    AddPod(new_pod);
    return QueueResult::kOk;
  }
  auto same_uid = [&](uint32_t h) {
    return !up_.pod_info_update_refuses_other_uid ||
           slab_[h].pod->uid == new_pod->uid;
  };
  // upstream: unlockedActiveQueue.update, then backoffQueue.update.
  if (active_.Contains(*key) && same_uid(active_.Get(*key))) {
    const uint32_t h = active_.Get(*key);
    SetPod(h, new_pod);
    ActiveUpsert(h);
    NominatorUpdate(old_pod, new_pod);
    return QueueResult::kOk;
  }
  if (backoff_.Contains(*key) || error_backoff_.Contains(*key)) {
    const bool plugins = backoff_.Contains(*key);
    const uint32_t h = plugins ? backoff_.Get(*key) : error_backoff_.Get(*key);
    if (same_uid(h)) {
      SetPod(h, new_pod);
      Ref(h);
      if (plugins) {
        if (std::optional<uint32_t> old = backoff_.Upsert(h)) Unref(*old);
      } else {
        if (std::optional<uint32_t> old = error_backoff_.Upsert(h)) {
          Unref(*old);
        }
      }
      NominatorUpdate(old_pod, new_pod);
      return QueueResult::kOk;
    }
  }
  if (const uint32_t h = unsched_[*key]; h != kNone) {
    if (!same_uid(h)) {
      AddPod(new_pod);
      return QueueResult::kOk;
    }
    Ref(h);
    SetPod(h, new_pod);
    NominatorUpdate(old_pod, new_pod);
    const EventObjects objects{old_pod, new_pod, {}, {}};
    for (EventId e : events) {
      const Strategy s = IsPodWorthRequeuing(slab_[h], e, objects)
                             ? Strategy::kAfterBackoff
                             : Strategy::kSkip;
      const Queue went =
          RequeuePodWithQueueingStrategy(h, s, events_[e].nominates);
      if (went == Queue::kActive ||
          (up_.pop_from_backoff_q && went == Queue::kBackoff)) {
        break;
      }
    }
    Unref(h);
    return QueueResult::kOk;
  }
  AddPod(new_pod);
  return QueueResult::kOk;
}

// upstream: Delete / deletePod: a pod in flight stays in flight.
void BackendQueue::Delete(const Pod& pod) {
  NominatorDelete(pod);
  const std::optional<uint32_t> key = FindKey(pod);
  if (!key) return;
  if (active_.Contains(*key)) {
    Unref(active_.Delete(*key));
    return;
  }
  if (const uint32_t h = BackoffQDelete(*key); h != kNone) {
    Unref(h);
    return;
  }
  UnschedDelete(*key);
}

// upstream: Activate: a pod neither in unschedulablePods nor in backoffQ
// but in flight gets a ForceActivate event carrying it; before v1.37 every
// pod not activated sets moveRequestCycle.
void BackendQueue::Activate(const std::vector<PodPtr>& pods) {
  for (size_t i = 0; i < pods.size(); ++i) {
    const PodPtr& pod = pods[i];
    // upstream takes a map: a key listed twice counts once.
    if (std::any_of(pods.begin(), pods.begin() + i, [&](const PodPtr& p) {
          return p->namespace_ == pod->namespace_ && p->name == pod->name;
        })) {
      continue;
    }
    const std::optional<uint32_t> key = FindKey(*pod);
    if (key && ActivateKey(*key)) continue;
    // upstream: activeQueue.addEventsIfPodInFlight(nil, pod,
    // EventForceActivate).
    if (inflight_pods_.contains(pod->uid)) {
      inflight_.push_back(InFlight{wildcard_, false, {nullptr, pod, {}, {}}});
    }
    if (up_.activate_sets_move_request_cycle &&
        !up_.move_request_cycle_removed) {
      move_request_cycle_ = scheduling_cycle_;
    }
  }
}

// upstream: activate.
bool BackendQueue::ActivateKey(uint32_t key) {
  uint32_t h = unsched_[key];
  bool moves_from_backoff_q = false;
  if (h != kNone) {
    Ref(h);
  } else {
    h = BackoffQDelete(key);  // its reference passes to us
    if (h == kNone) return false;
    moves_from_backoff_q = true;
  }
  const bool moved = MoveToActiveQ(h, moves_from_backoff_q);
  if (moved && !up_.requeue_skips_nominator) {
    NominatorAdd(slab_[h].pod, std::nullopt);
  }
  Unref(h);
  return moved;
}

// upstream: flushBackoffQCompleted (popAllBackoffCompleted: backoffQ, then
// the error backoffQ).
void BackendQueue::FlushBackoffQCompleted() {
  candidates_.clear();  // records here, not keys
  while (!backoff_.empty() && !IsPodBackingOff(slab_[backoff_.Top()])) {
    candidates_.push_back(backoff_.Pop());
  }
  while (!error_backoff_.empty() &&
         !IsPodBackingOff(slab_[error_backoff_.Top()])) {
    candidates_.push_back(error_backoff_.Pop());
  }
  for (uint32_t h : candidates_) {
    MoveToActiveQ(h, true);
    Unref(h);  // the heap's reference
  }
}

// upstream: PopHandle (activeQueue.unlockedPop and
// unlockedMoveEntityToInFlight): activeQ's head, else backoffQ's (never
// the error backoffQ's); a pod whose uid is in flight already is dropped
// and the next one popped.
std::optional<BackendQueue::Handle> BackendQueue::PopHandle() {
  while (true) {
    uint32_t h;
    if (!active_.empty()) {
      h = active_.Pop();
    } else if (up_.pop_from_backoff_q && !backoff_.empty()) {
      h = backoff_.Pop();
    } else {
      return std::nullopt;
    }
    Record& r = slab_[h];
    ++r.attempts;
    ++shared_changes_;
    auto [it, inserted] = inflight_pods_.try_emplace(
        r.pod->uid, inflight_base_ + inflight_.size());
    if (!inserted) {
      Unref(h);
      continue;
    }
    inflight_.push_back(InFlight{});
    ++scheduling_cycle_;
    // kubernetes#120334: the pod's rejector plugins are reset for the next
    // attempt; v1.37 clears them in the failure handler instead
    // (failure_handler_skips_recreated_pod).
    if (up_.pop_clears_rejector_plugins &&
        !up_.failure_handler_skips_recreated_pod) {
      SetPlugins(h, {});
    }
    return h;
  }
}

BackendQueue::Handle BackendQueue::CloneHandle(Handle h, const PodPtr& pod) {
  Ref(h);
  const uint32_t c = NewRecord(pod);
  Record& r = slab_[c];
  const Record& from = slab_[h];
  r.attempts = from.attempts;
  r.unschedulable_count = from.unschedulable_count;
  r.consecutive_errors = from.consecutive_errors;
  r.timestamp = from.timestamp;
  r.flush_timestamp = from.flush_timestamp;
  r.backoff_expiry = from.backoff_expiry;
  r.plugins = from.plugins;
  r.gated = from.gated;
  Ref(c);
  Unref(h);
  return c;
}

void BackendQueue::SetHandlePlugins(Handle h,
                                    const std::vector<std::string>& plugins) {
  PluginSet set;
  for (const std::string& p : plugins) set.push_back(InternPlugin(p));
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  SetPlugins(h, std::move(set));
}

// upstream: AddUnschedulablePodIfNotPresent; Done in every case.
QueueResult BackendQueue::AddUnschedulablePodIfNotPresent(Handle h) {
  Ref(h);
  const PodPtr pod = slab_[h].pod;
  const uint32_t key = slab_[h].key;
  if (unsched_[key] != kNone || active_.Contains(key) || BackoffQHas(key)) {
    Done(pod->uid);
    Unref(h);
    return QueueResult::kError;
  }
  Record& r = slab_[h];
  if (r.plugins.empty()) {
    ++r.consecutive_errors;
  } else {
    ++r.unschedulable_count;
    r.consecutive_errors = 0;
  }
  r.timestamp = now_ns_;
  r.flush_timestamp = kGoZero;
  r.backoff_expiry = GetBackoffTime(r);
  RequeuePodWithQueueingStrategy(h, DetermineSchedulingHintForInFlightPod(h));
  if (!up_.requeue_skips_nominator) NominatorAdd(slab_[h].pod, std::nullopt);
  Done(pod->uid);
  Unref(h);
  return QueueResult::kOk;
}

void BackendQueue::AddNominatedPodOverride(const PodPtr& pod,
                                           const std::string& node) {
  NominatorAdd(pod, node);
}

}  // namespace schedtrace::impl
