// impl::PriorityQueue's move requests (impl/queue.h): which pods of
// unschedulablePods an event can move (the plugin index's candidates,
// queue_unschedulable.cc), and moving them to activeQ or backoffQ --
// MoveAllToActiveOrBackoffQueue, AssignedPodAdded/Updated and the leftover
// flush.
#include <algorithm>

#include "impl/go_int.h"
#include "impl/names.h"
#include "impl/queue.h"

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

// upstream: metav1.LabelSelectorAsSelector's errors (labels.NewRequirement:
// a qualified key, valid label values, the operator's value count; a
// matchLabels pair is an Equals requirement).
bool LabelValue(const std::string& v) { return v.empty() || NamePart(v); }

bool SelectorConverts(const LabelSelector& sel) {
  for (const auto& [k, v] : sel.match_labels) {
    if (!QualifiedName(k) || !LabelValue(v)) return false;
  }
  for (const LabelSelectorRequirement& r : sel.match_expressions) {
    if (!QualifiedName(r.key)) return false;
    const bool listed = r.op == "In" || r.op == "NotIn";
    if (!listed && r.op != "Exists" && r.op != "DoesNotExist") return false;
    if (listed == r.values.empty()) return false;
    if (!std::all_of(r.values.begin(), r.values.end(), LabelValue)) {
      return false;
    }
  }
  return true;
}

// upstream: getAffinityTerms: one selector that does not convert leaves the
// PodInfo without any RequiredAffinityTerms.
bool AffinityTermsConvert(const Pod& owner) {
  for (const PodAffinityTerm& term : owner.required_pod_affinity) {
    if (term.label_selector && !SelectorConverts(*term.label_selector)) {
      return false;
    }
    if (term.namespace_selector &&
        !SelectorConverts(*term.namespace_selector)) {
      return false;
    }
  }
  return true;
}

}  // namespace

// upstream: PriorityQueue.podMatchesEvent, over the flags
// ComputeEventPlugins set for the event.
bool PriorityQueue::PodMatchesEvent(const Record& r,
                                    const ClusterEvent& event) {
  if (event.resource == "*" &&
      ActionTypeBits(event.action, up_.node_annotation_action) ==
          AllActionBits(up_.node_annotation_action)) {
    return true;
  }
  if (WithoutHints(r)) return true;
  for (uint16_t p : r.plugins) {
    if (event_plugins_[p]) return true;
  }
  return false;
}

// Marks every plugin that some clusterEventMap entry matching `event` names
// (upstream podMatchesEvent's evtMatch, hoisted out of the per-pod loop),
// and notes whether any plugin registered the event (isEventOfInterest).
void PriorityQueue::ComputeEventPlugins(const ClusterEvent& event) {
  std::fill(event_plugins_.begin(), event_plugins_.end(), 0);
  const uint32_t all =
      static_cast<uint32_t>(AllActionBits(up_.node_annotation_action));
  const uint32_t bits = static_cast<uint32_t>(
      ActionTypeBits(event.action, up_.node_annotation_action));
  event_of_interest_ = event.resource == "*" && bits == all;
  for (const EventEntry& e : event_map_) {
    const bool wild = e.any_resource && e.actions == all;
    // kubernetes#123117 (v1.30, ClusterEvent.Match): a registered resource
    // "*" matches an event of any resource; before, only an event of
    // resource "*".
    const bool resource =
        e.resource == event.resource ||
        (e.any_resource && up_.cluster_event_match_wildcard_resource);
    if (wild || (resource && (e.actions & bits) != 0)) {
      for (uint16_t p : e.plugins) event_plugins_[p] = 1;
      // An entry without plugins puts no event in upstream's hint map.
      if (!e.plugins.empty()) event_of_interest_ = true;
    }
  }
  // With QueueingHint maps per profile and no profile, there is no map.
  if (hints_per_profile_ && hint_profiles_.empty()) {
    event_of_interest_ = event.resource == "*" && bits == all;
  }
}

// kubernetes#122629 (v1.30): moveAllToActiveOrBackoffQueue and
// movePodsToActiveOrBackoffQueue return at once for an event no plugin
// registered, so moveRequestCycle is left as it is.
bool PriorityQueue::DropsEvent() const {
  return up_.queueing_hints_skip_uninteresting_events && !event_of_interest_;
}

// The pods of unschedulablePods that `event` can move: all of them for a
// wildcard event, else those holding a marked plugin, no plugin at all, or
// no QueueingHint map.
void PriorityQueue::CollectCandidates(const ClusterEvent& event) {
  candidates_.clear();
  if (event.resource == "*" &&
      ActionTypeBits(event.action, up_.node_annotation_action) ==
          AllActionBits(up_.node_annotation_action)) {
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
  for (uint32_t key : no_plugins_) take(key);
  for (uint32_t key : without_hints_) take(key);
}

// upstream: PriorityQueue.movePodsToActiveOrBackoffQueue over candidates_,
// in key order. Upstream walks a Go map (random order); the model walks its
// std::map by key, and pods moved with equal timestamps land in activeQ in
// that order, so impl sorts too: the plugin index's hash sets iterate in an
// order that changes from process to process.
void PriorityQueue::MovePodsToActiveOrBackoffQueue(const ClusterEvent& event) {
  if (DropsEvent()) return;
  std::sort(candidates_.begin(), candidates_.end(),
            [this](uint32_t a, uint32_t b) {
              return keys_[slab_[a].key] < keys_[slab_[b].key];
            });
  for (uint32_t h : candidates_) {
    Record& r = slab_[h];
    // kubernetes#124618, #125527 (v1.30): a pod SchedulingGates gated
    // stays; only its own update can release it.
    if (up_.move_skips_scheduling_gated_pods && r.gated &&
        std::binary_search(r.plugins.begin(), r.plugins.end(),
                           scheduling_gates_plugin_)) {
      continue;
    }
    if (!r.plugins.empty() && !PodMatchesEvent(r, event)) continue;
    const uint32_t key = r.key;
    if (IsPodBackingOff(r)) {
      BackoffUpsert(h);
      UnschedDelete(key);
    } else if (AddToActiveQ(h)) {
      UnschedDelete(key);
    }
  }
  move_request_cycle_ = scheduling_cycle_;
}

// upstream: PriorityQueue.MoveAllToActiveOrBackoffQueue with a
// PreEnqueueCheck over the pods of unschedulablePods (a pure check: applying
// it to the plugin index's candidates only is the same).
void PriorityQueue::MoveAllToActiveOrBackoffQueue(
    const ClusterEvent& event,
    const std::function<bool(const Pod&)>& precheck) {
  ComputeEventPlugins(event);
  if (DropsEvent()) return;  // before the precheck, as upstream
  CollectCandidates(event);
  if (precheck) {
    candidates_.erase(
        std::remove_if(candidates_.begin(), candidates_.end(),
                       [&](uint32_t h) { return !precheck(*slab_[h].pod); }),
        candidates_.end());
  }
  MovePodsToActiveOrBackoffQueue(event);
}

// upstream: AffinityTerm.Matches over PodInfo.RequiredAffinityTerms
// (framework/types.go); the queue layer has no namespaces, so the namespace
// labels are empty.
bool PriorityQueue::AffinityMatches(const Record& r,
                                    const Pod& assigned) const {
  static const Labels kNoLabels;
  const Pod& owner = *r.terms_pod;
  if (owner.required_pod_affinity.empty() || !AffinityTermsConvert(owner)) {
    return false;
  }
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
  static const ClusterEvent kEvent{"Pod", "Add", "AssignedPodAdd"};
  ComputeEventPlugins(kEvent);
  if (DropsEvent()) return;  // no need to look for affinity matches
  candidates_.clear();
  for (uint32_t key : unsched_keys_) {
    const uint32_t h = unsched_[key];
    if (h != kNone && AffinityMatches(slab_[h], *pod)) candidates_.push_back(h);
  }
  MovePodsToActiveOrBackoffQueue(kEvent);
}

// upstream: PriorityQueue.AssignedPodUpdated.
void PriorityQueue::AssignedPodUpdated(const PodPtr& pod) {
  static const ClusterEvent kEvent{"Pod", "Update", "AssignedPodUpdate"};
  ComputeEventPlugins(kEvent);
  if (DropsEvent()) return;  // no need to look for affinity matches
  candidates_.clear();
  for (uint32_t key : unsched_keys_) {
    const uint32_t h = unsched_[key];
    if (h != kNone && AffinityMatches(slab_[h], *pod)) candidates_.push_back(h);
  }
  MovePodsToActiveOrBackoffQueue(kEvent);
}

// upstream: PriorityQueue.flushUnschedulablePodsLeftover.
void PriorityQueue::FlushUnschedulablePodsLeftover() {
  candidates_.clear();
  for (uint32_t key : unsched_keys_) {
    const uint32_t h = unsched_[key];
    if (h == kNone) continue;
    const int64_t age = SubSaturating(now_ns_, slab_[h].timestamp_ns);
    if (age > max_in_unschedulable_ns_) {
      candidates_.push_back(h);
    }
  }
  if (candidates_.empty()) return;
  static const ClusterEvent kEvent{"*", "All", "UnschedulableTimeout"};
  ComputeEventPlugins(kEvent);
  MovePodsToActiveOrBackoffQueue(kEvent);
}

}  // namespace schedtrace::impl
