// impl::BackendQueue's unschedulablePods (a dense key -> record table with
// an index from plugin id to keys), the move requests that take pods out
// of it, and the in-flight list they and AddUnschedulablePodIfNotPresent
// read (impl/backend_queue.h).
#include <algorithm>
#include <utility>

#include "impl/backend_queue.h"

namespace schedtrace::impl {

// ---------------------------------------------------------------------------
// unschedulablePods.

// upstream: unschedulableEntities.addOrUpdate.
void BackendQueue::UnschedAddOrUpdate(uint32_t h) {
  const uint32_t key = slab_[h].key;
  const uint32_t old = unsched_[key];
  if (old == h) return;
  ++unsched_changes_;
  Ref(h);
  if (old != kNone) {
    IndexErase(key);
    Unref(old);
  } else {
    unsched_pos_[key] = static_cast<uint32_t>(unsched_keys_.size());
    unsched_keys_.push_back(key);
  }
  unsched_[key] = h;
  IndexInsert(key);
}

// upstream: unschedulableEntities.delete.
void BackendQueue::UnschedDelete(uint32_t key) {
  const uint32_t h = unsched_[key];
  if (h == kNone) return;
  ++unsched_changes_;
  IndexErase(key);
  unsched_[key] = kNone;
  const uint32_t pos = unsched_pos_[key];
  const uint32_t last = unsched_keys_.back();
  unsched_keys_[pos] = last;
  unsched_pos_[last] = pos;
  unsched_keys_.pop_back();
  unsched_pos_[key] = kNone;
  Unref(h);
}

// The index of the record unschedulablePods holds at `key`: by each of its
// plugins (none: no_plugins_), and without_hints_ when its scheduler name
// has no QueueingHint map.
void BackendQueue::IndexInsert(uint32_t key) {
  const Record& r = slab_[unsched_[key]];
  if (r.plugins.empty()) {
    no_plugins_.insert(key);
  } else {
    for (uint16_t p : r.plugins) plugin_index_[p].insert(key);
  }
  if (!HasHintMap(*r.pod)) without_hints_.insert(key);
}

void BackendQueue::IndexErase(uint32_t key) {
  const Record& r = slab_[unsched_[key]];
  if (r.plugins.empty()) {
    no_plugins_.erase(key);
  } else {
    for (uint16_t p : r.plugins) plugin_index_[p].erase(key);
  }
  without_hints_.erase(key);
}

// Replaces a record's UnschedulablePlugins, re-indexing it when it is the
// record unschedulablePods holds.
void BackendQueue::SetPlugins(uint32_t h, PluginSet plugins) {
  const uint32_t key = slab_[h].key;
  const bool indexed = unsched_[key] == h;
  if (indexed) {
    ++unsched_changes_;
    IndexErase(key);
  }
  slab_[h].plugins = std::move(plugins);
  if (indexed) IndexInsert(key);
}

// upstream: QueuedPodInfo.Update (from v1.37 of the same uid only: the
// caller checked).
void BackendQueue::SetPod(uint32_t h, const PodPtr& pod) {
  const uint32_t key = slab_[h].key;
  const bool indexed = unsched_[key] == h;
  if (indexed) {
    ++unsched_changes_;
    IndexErase(key);
  }
  slab_[h].pod = pod;
  if (indexed) IndexInsert(key);
}

// ---------------------------------------------------------------------------
// Moves.

// upstream: isPodWorthRequeuing, no plugin being Pending (none of impl's
// plugins answers Pending): after backoff when some matching registration
// of a rejector plugin answers Queue, else skip. A default hint answers
// Queue without being asked.
bool BackendQueue::IsPodWorthRequeuing(const Record& r, EventId event,
                                       const EventObjects& objects) const {
  if (r.plugins.empty()) return true;
  const EventInfo& e = events_[event];
  if (e.wildcard) {
    // A wildcard event carrying a pod is for that pod only.
    return objects.new_pod == nullptr || objects.new_pod->uid == r.pod->uid;
  }
  if (!HasHintMap(*r.pod)) return true;  // "No QueueingHintMap ..."
  if (ordered_hints_) return IsPodWorthRequeuingInMapOrder(r, e, objects);
  bool ask = false;
  for (uint16_t p : r.plugins) {
    if (p >= e.matched.size()) continue;
    if (e.matched[p] == 1) return true;
    ask = ask || e.matched[p] == 2;
  }
  if (!ask) return false;
  for (const auto& [p, fn] : e.hints) {
    if (!std::binary_search(r.plugins.begin(), r.plugins.end(), p)) continue;
    const Hint h = hint_eval_(fn, *r.pod, objects);
    if (h == Hint::kQueue) return true;
    if (h == Hint::kPanic) panicked_ = true;
  }
  return false;
}

// The same decision, each matching registration's function of a rejector
// plugin asked in the map's order until one answers Queue: which ones run
// decides whether one reading a nil object panics.
bool BackendQueue::IsPodWorthRequeuingInMapOrder(
    const Record& r, const EventInfo& e, const EventObjects& objects) const {
  for (const Registration& reg : registrations_) {
    if (reg.skips || !MatchClusterEvents(reg, e.resource, e.bits)) continue;
    for (size_t i = 0; i < reg.plugins.size(); ++i) {
      if (!std::binary_search(r.plugins.begin(), r.plugins.end(),
                              reg.plugins[i])) {
        continue;
      }
      const Hint h = reg.fns[i] == HintFn::kDefault
                         ? Hint::kQueue
                         : hint_eval_(reg.fns[i], *r.pod, objects);
      if (h == Hint::kQueue) return true;
      if (h == Hint::kPanic) {
        panicked_ = true;
        return false;
      }
    }
  }
  return false;
}

// upstream: MoveAllToActiveOrBackoffQueue / collectEntitiesToEvaluate: the
// pods of unschedulablePods that pass the precheck. Only the pods the index
// names can be worth requeuing by a non-wildcard event (a matched plugin, no
// plugin, or no hint map), and the precheck is pure: the others are left out
// before it.
void BackendQueue::MoveAllToActiveOrBackoffQueue(
    EventId event, const EventObjects& objects,
    const std::function<bool(const Pod&)>& precheck) {
  if (!events_[event].of_interest) return;
  candidates_.clear();
  if (events_[event].wildcard) {
    candidates_ = unsched_keys_;
  } else {
    ++epoch_;
    auto take = [&](uint32_t key) {
      if (stamp_[key] == epoch_) return;
      stamp_[key] = epoch_;
      candidates_.push_back(key);
    };
    const std::vector<char>& matched = events_[event].matched;
    for (uint16_t p = 0; p < matched.size(); ++p) {
      if (!matched[p]) continue;
      for (uint32_t key : plugin_index_[p]) take(key);
    }
    for (uint32_t key : no_plugins_) take(key);
    for (uint32_t key : without_hints_) take(key);
  }
  if (precheck) {
    std::erase_if(candidates_, [&](uint32_t key) {
      return !precheck(*slab_[unsched_[key]].pod);
    });
  }
  MovePodsToActiveOrBackoffQueue(event, objects);
}

// upstream: moveEntitiesToActiveOrBackoffQueue over candidates_ (keys), in
// key order: upstream ranges over a Go map, the model over its std::map by
// key, and pods moved with equal priorities and timestamps land in activeQ
// in that order. A gated pod moves only on an event its gating plugin
// registered, or (from v1.37) a wildcard one. Before v1.37 every move of
// interest sets moveRequestCycle.
void BackendQueue::MovePodsToActiveOrBackoffQueue(EventId event,
                                                  const EventObjects& objects) {
  const EventInfo& e = events_[event];
  if (!e.of_interest) return;
  const bool wildcard = e.wildcard && up_.wildcard_events_move_gated_pods;
  const bool gate_match = e.gate_match;
  std::sort(candidates_.begin(), candidates_.end(),
            [this](uint32_t a, uint32_t b) { return keys_[a] < keys_[b]; });
  for (uint32_t key : candidates_) {
    const uint32_t h = unsched_[key];
    if (h == kNone) continue;
    // Before v1.34 a gated pod (SchedulingGates, always among its
    // rejectors here) never moved.
    if (slab_[h].gated &&
        (!up_.gated_pods_move_on_gating_events || (!wildcard && !gate_match))) {
      continue;
    }
    if (!IsPodWorthRequeuing(slab_[h], event, objects)) continue;
    Ref(h);
    UnschedDelete(key);
    RequeuePodWithQueueingStrategy(h, Strategy::kAfterBackoff,
                                   events_[event].nominates);
    Unref(h);
  }
  if (!up_.move_request_cycle_removed) move_request_cycle_ = scheduling_cycle_;
  AddEventIfAnyInFlight(event, objects);
}

// upstream: flushUnschedulableEntitiesLeftover: strictly longer than the
// limit since the pod's last attempt, or (from v1.37) its last flush.
void BackendQueue::FlushUnschedulableEntitiesLeftover() {
  candidates_.clear();
  for (uint32_t key : unsched_keys_) {
    Record& r = slab_[unsched_[key]];
    const TimeNs last = up_.unschedulable_flush_waits_from_last_flush
                            ? std::max(r.timestamp, r.flush_timestamp)
                            : r.timestamp;
    if (SubSaturating(now_ns_, last) > max_in_unschedulable_ns_) {
      r.flush_timestamp = now_ns_;
      candidates_.push_back(key);
    }
  }
  if (!candidates_.empty()) {
    MovePodsToActiveOrBackoffQueue(wildcard_, {});  // UnschedulableTimeout
  }
}

// ---------------------------------------------------------------------------
// The in-flight list.

// upstream: activeQueue.addEventIfAnyInFlight. The objects are kept only
// where isPodWorthRequeuing may read them: a wildcard event's pod, and
// what a hint function of the event reads.
void BackendQueue::AddEventIfAnyInFlight(EventId event,
                                         const EventObjects& objects) {
  if (inflight_pods_.empty()) return;
  InFlight f{event, false, {}};
  if (events_[event].wildcard) {
    f.objects.new_pod = objects.new_pod;
  } else if (!events_[event].hints.empty()) {
    f.objects = objects;
  }
  inflight_.push_back(std::move(f));
}

// upstream: determineSchedulingHintForInFlightPod (clusterEventsForPod):
// after backoff when some event received since the pod's pop is worth
// requeuing it.
BackendQueue::Strategy BackendQueue::DetermineSchedulingHintForInFlightPod(
    uint32_t h) const {
  const Record& r = slab_[h];
  if (r.plugins.empty()) return Strategy::kAfterBackoff;
  auto it = inflight_pods_.find(r.pod->uid);
  if (it == inflight_pods_.end()) return Strategy::kAfterBackoff;
  for (size_t i = it->second - inflight_base_ + 1; i < inflight_.size(); ++i) {
    const InFlight& e = inflight_[i];
    if (e.event == kNone) continue;  // another in-flight pod
    if (IsPodWorthRequeuing(r, e.event, e.objects)) {
      return Strategy::kAfterBackoff;
    }
  }
  return Strategy::kSkip;
}

// upstream: activeQueue.unlockedDone: the pod leaves the list, and the
// events no earlier in-flight pod needs go with it.
void BackendQueue::Done(const std::string& uid) {
  auto it = inflight_pods_.find(uid);
  if (it == inflight_pods_.end()) return;
  inflight_[it->second - inflight_base_].done = true;
  inflight_pods_.erase(it);
  while (inflight_head_ < inflight_.size() &&
         (inflight_[inflight_head_].event != kNone ||
          inflight_[inflight_head_].done)) {
    inflight_[inflight_head_].objects = {};
    ++inflight_head_;
  }
  if (inflight_head_ == inflight_.size()) {
    inflight_base_ += inflight_.size();
    inflight_.clear();
    inflight_head_ = 0;
  } else if (inflight_head_ >= 64 && inflight_head_ * 2 >= inflight_.size()) {
    inflight_.erase(inflight_.begin(),
                    inflight_.begin() + static_cast<ptrdiff_t>(inflight_head_));
    inflight_base_ += inflight_head_;
    inflight_head_ = 0;
  }
}

}  // namespace schedtrace::impl
