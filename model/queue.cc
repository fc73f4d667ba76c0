#include "model/queue.h"

#include <algorithm>
#include <utility>

#include "core/refill.h"
#include "model/fatal.h"
#include "model/go_equal.h"
#include "model/go_int.h"
#include "model/name_validation.h"

namespace schedtrace::model {
namespace {

// Overwrites every field of a reused snapshot entry: the key and attempts,
// and the fields only some lists have back to their defaults (the caller
// sets its own list's). Returns `e`.
QueuedPod& SetQueuedPod(QueuedPod& e, const std::string& key, int attempts) {
  e.pod = key;
  e.attempts = attempts;
  e.backoff_expires_at = 0;
  e.plugins.clear();
  e.gated = false;
  return e;
}

// upstream: metav1.LabelSelectorAsSelector validation: false when the
// selector cannot be converted (the affinity terms are then dropped).
// labels.NewRequirement checks each key and value, a matchLabels pair as an
// Equals requirement.
bool ValidSelector(const LabelSelector& s) {
  for (const auto& [key, value] : s.match_labels) {
    if (!IsQualifiedName(key) || !IsValidLabelValue(value)) return false;
  }
  for (const auto& r : s.match_expressions) {
    if (!IsQualifiedName(r.key)) return false;
    if (r.op == "In" || r.op == "NotIn") {
      if (r.values.empty()) return false;
    } else if (r.op == "Exists" || r.op == "DoesNotExist") {
      if (!r.values.empty()) return false;
    } else {
      return false;
    }
    for (const std::string& v : r.values) {
      if (!IsValidLabelValue(v)) return false;
    }
  }
  return true;
}

// upstream: labels.Selector.Matches for a converted LabelSelector; a nil
// selector selects nothing, an empty one everything.
bool SelectorMatches(const std::optional<LabelSelector>& s,
                     const Labels& labels) {
  if (!s) return false;
  for (const auto& [k, v] : s->match_labels) {
    auto it = labels.find(k);
    if (it == labels.end() || it->second != v) return false;
  }
  for (const auto& r : s->match_expressions) {
    auto it = labels.find(r.key);
    bool has = it != labels.end();
    bool in = has && std::find(r.values.begin(), r.values.end(), it->second) !=
                         r.values.end();
    if (r.op == "In" && !in) return false;
    if (r.op == "NotIn" && in) return false;
    if (r.op == "Exists" && !has) return false;
    if (r.op == "DoesNotExist" && has) return false;
  }
  return true;
}

// upstream: getAffinityTerms / newAffinityTerm /
// getNamespacesFromPodAffinityTerm (framework/types.go). An invalid term
// drops them all, as the error return does.
std::vector<AffinityTerm> GetAffinityTerms(const Pod& pod) {
  std::vector<AffinityTerm> terms;
  for (const PodAffinityTerm& t : pod.required_pod_affinity) {
    if ((t.label_selector && !ValidSelector(*t.label_selector)) ||
        (t.namespace_selector && !ValidSelector(*t.namespace_selector))) {
      return {};
    }
    AffinityTerm term;
    term.selector = t.label_selector;
    term.namespace_selector = t.namespace_selector;
    if (t.namespaces.empty() && !t.namespace_selector) {
      term.namespaces.insert(pod.namespace_);
    } else {
      term.namespaces.insert(t.namespaces.begin(), t.namespaces.end());
    }
    terms.push_back(std::move(term));
  }
  return terms;
}

// upstream: NominatedNodeName (panics on a nil pod).
const std::string& NominatedNodeName(const Pod& pod) {
  return pod.nominated_node_name;
}

}  // namespace

// upstream: AffinityTerm.Matches; namespaces have no labels here (the
// recorder's namespace lister is empty).
bool TermMatches(const AffinityTerm& term, const Pod& pod) {
  if (term.namespaces.contains(pod.namespace_) ||
      SelectorMatches(term.namespace_selector, Labels{})) {
    return SelectorMatches(term.selector, pod.labels);
  }
  return false;
}

// upstream: isPodUpdated (scheduling_queue.go): the pods without
// resourceVersion, generation and status (of which we keep only
// nominatedNodeName), compared with reflect.DeepEqual. Before v1.26 a
// PodSpec has no schedulingGates: the decoder dropped them, so they are not
// compared (`has_gates` false).
bool isPodUpdated(const Pod& oldPod, const Pod& newPod, bool has_gates) {
  auto strip = [has_gates](const Pod& pod) {
    Pod p = pod;
    p.resource_version.clear();
    p.nominated_node_name.clear();
    if (!has_gates) {
      p.scheduling_gates.clear();
      p.given_empty.Set(Nilable::kSchedulingGates, false);
    }
    return p;
  };
  return !DeepEqual(strip(oldPod), strip(newPod));
}

bool PrioritySortLess(const std::shared_ptr<QueuedPodInfo>& a,
                      const std::shared_ptr<QueuedPodInfo>& b) {
  const int32_t p1 = a->pod().Priority(), p2 = b->pod().Priority();
  return p1 > p2 || (p1 == p2 && a->timestamp.Before(b->timestamp));
}

std::string QueuedPodKey(const std::shared_ptr<QueuedPodInfo>& q) {
  return q->pod().Key();
}

PodInfo::PodInfo(PodPtr p) { Update(std::move(p)); }

void PodInfo::Update(PodPtr p) {
  if (p != nullptr && pod != nullptr && pod->uid == p->uid) {
    pod = std::move(p);
    return;
  }
  required_affinity_terms = GetAffinityTerms(*p);
  pod = std::move(p);
}

PriorityQueue::PriorityQueue(const Config& config, PodLister lister,
                             const Upstream& up)
    : config_(config),
      up_(up),
      pod_initial_backoff_(MsToDuration(config.pod_initial_backoff_ms)),
      pod_max_backoff_(MsToDuration(config.pod_max_backoff_ms)),
      pod_max_in_unschedulable_(
          MsToDuration(config.pod_max_in_unschedulable_ms)),
      activeQ_(PrioritySortLess, QueuedPodKey),
      // upstream: podsCompareBackoffCompleted
      podBackoffQ_(
          [this](const std::shared_ptr<QueuedPodInfo>& a,
                 const std::shared_ptr<QueuedPodInfo>& b) {
            return getBackoffTime(*a).Before(getBackoffTime(*b));
          },
          QueuedPodKey),
      nominator_(std::move(lister), up.nominator_ignores_empty_node_name) {}

// upstream: runPreEnqueuePlugins (the SchedulingGates plugin; plugins are
// looked up by the pod's schedulerName).
bool PriorityQueue::runPreEnqueuePlugins(QueuedPodInfo& pInfo) {
  // v1.25 has no PreEnqueue extension point at all.
  if (!up_.pre_enqueue_and_scheduling_gates) return true;
  auto it = config_.pre_enqueue_plugins.find(pInfo.pod().scheduler_name);
  if (it == config_.pre_enqueue_plugins.end()) return true;
  for (const std::string& plugin : it->second) {
    bool ok = true;
    if (plugin == "SchedulingGates") {
      // upstream: SchedulingGates.PreEnqueue
      // (v1.30: the feature is GA and the plugin no longer checks it.)
      const bool enabled = up_.pod_scheduling_readiness_locked_on ||
                           config_.Feature("PodSchedulingReadiness");
      ok = !enabled || pInfo.pod().scheduling_gates.empty();
    }
    if (ok) continue;
    if (pInfo.unschedulable_plugins_nil) {
      // upstream: UnschedulablePlugins.Insert on a nil set.
      panic_ = FatalError(
          "runPreEnqueuePlugins: assignment to entry in nil map "
          "(UnschedulablePlugins of a FitError no plugin caused)");
    }
    pInfo.unschedulable_plugins.insert(plugin);
    return false;
  }
  return true;
}

// upstream: addToActiveQ
bool PriorityQueue::addToActiveQ(const std::shared_ptr<QueuedPodInfo>& pInfo) {
  pInfo->gated = !runPreEnqueuePlugins(*pInfo);
  if (pInfo->gated) {
    unschedulablePods_[pInfo->pod().Key()] = pInfo;
    return false;
  }
  activeQ_.Add(pInfo);
  return true;
}

// upstream: Add
absl::Status PriorityQueue::Add(const PodPtr& pod) {
  std::shared_ptr<QueuedPodInfo> pInfo = newQueuedPodInfo(pod);
  if (!addToActiveQ(pInfo)) return absl::OkStatus();
  unschedulablePods_.erase(pod->Key());
  podBackoffQ_.Delete(pod->Key());
  nominator_.Add(pInfo->pod_info, std::nullopt);
  return absl::OkStatus();
}

// upstream: Activate
void PriorityQueue::Activate(const std::vector<PodPtr>& pods) {
  for (const PodPtr& pod : pods) activate(pod);
}

// upstream: activate
bool PriorityQueue::activate(const PodPtr& pod) {
  const std::string key = pod->Key();
  if (activeQ_.Get(key) != nullptr) return false;
  std::shared_ptr<QueuedPodInfo> pInfo;
  if (auto it = unschedulablePods_.find(key); it != unschedulablePods_.end()) {
    pInfo = it->second;
  } else if (const auto* b = podBackoffQ_.Get(key)) {
    pInfo = *b;
  } else {
    return false;
  }
  if (!addToActiveQ(pInfo)) return false;
  unschedulablePods_.erase(pInfo->pod().Key());
  podBackoffQ_.Delete(pInfo->pod().Key());
  nominator_.Add(pInfo->pod_info, std::nullopt);
  return true;
}

// upstream: isPodBackingoff
bool PriorityQueue::isPodBackingoff(const QueuedPodInfo& pInfo) const {
  if (pInfo.gated) return false;
  return getBackoffTime(pInfo).After(now_);
}

// upstream: AddUnschedulableIfNotPresent
absl::Status PriorityQueue::AddUnschedulableIfNotPresent(
    const std::shared_ptr<QueuedPodInfo>& pInfo, int64_t podSchedulingCycle) {
  const std::string key = pInfo->pod().Key();
  if (unschedulablePods_.contains(key)) {
    return absl::AlreadyExistsError(
        "Pod is already present in unschedulable queue");
  }
  if (activeQ_.Get(key) != nullptr) {
    return absl::AlreadyExistsError(
        "Pod is already present in the active queue");
  }
  if (podBackoffQ_.Get(key) != nullptr) {
    return absl::AlreadyExistsError(
        "Pod is already present in the backoff queue");
  }
  pInfo->timestamp = now_;
  // v1.30 (addUnschedulableWithoutQueueingHint): a pod no plugin rejected
  // (an error, no nodes) goes to backoffQ too. PendingPlugins, also part of
  // the rejectors there, are always empty: no plugin of ours is Pending.
  if (move_request_cycle_ >= podSchedulingCycle ||
      (up_.backoff_pods_without_rejector_plugins &&
       pInfo->unschedulable_plugins.empty())) {
    podBackoffQ_.Add(pInfo);
  } else {
    unschedulablePods_[key] = pInfo;
  }
  nominator_.Add(pInfo->pod_info, std::nullopt);
  return absl::OkStatus();
}

// upstream: flushBackoffQCompleted
void PriorityQueue::flushBackoffQCompleted() {
  while (!podBackoffQ_.Empty()) {
    std::shared_ptr<QueuedPodInfo> pInfo = podBackoffQ_.Peek();
    if (isPodBackingoff(*pInfo)) break;
    podBackoffQ_.Pop();
    addToActiveQ(pInfo);
  }
}

// upstream: flushUnschedulablePodsLeftover (strictly older than the limit;
// upstream walks a Go map: we walk by key)
void PriorityQueue::flushUnschedulablePodsLeftover() {
  std::vector<std::shared_ptr<QueuedPodInfo>> podsToMove;
  for (const auto& [key, pInfo] : unschedulablePods_) {
    if (now_.Sub(pInfo->timestamp) > pod_max_in_unschedulable_) {
      podsToMove.push_back(pInfo);
    }
  }
  if (!podsToMove.empty()) {
    movePodsToActiveOrBackoffQueue(
        podsToMove, ClusterEvent{"*", "All", "UnschedulableTimeout"});
  }
}

// upstream: Pop, but never blocking.
std::shared_ptr<QueuedPodInfo> PriorityQueue::Pop() {
  if (activeQ_.Empty()) return nullptr;
  std::shared_ptr<QueuedPodInfo> pInfo = activeQ_.Pop();
  pInfo->attempts++;
  scheduling_cycle_++;
  // v1.30: the set of unschedulable plugins is reset for the next attempt.
  if (up_.pop_clears_rejector_plugins) pInfo->unschedulable_plugins.clear();
  return pInfo;
}

// upstream: Update
absl::Status PriorityQueue::Update(const PodPtr& oldPod, const PodPtr& newPod) {
  if (oldPod != nullptr) {
    for (auto* q : {&activeQ_, &podBackoffQ_}) {
      const auto* found = q->Get(oldPod->Key());
      if (found == nullptr) continue;
      std::shared_ptr<QueuedPodInfo> pInfo = *found;
      pInfo->pod_info->Update(newPod);  // upstream: updatePod
      if (absl::Status s = nominator_.Update(oldPod, pInfo->pod_info);
          !s.ok()) {
        return s;
      }
      q->Add(pInfo);  // upstream: Heap.Update
      return absl::OkStatus();
    }
  }
  if (auto it = unschedulablePods_.find(newPod->Key());
      it != unschedulablePods_.end()) {
    std::shared_ptr<QueuedPodInfo> usPodInfo = it->second;
    usPodInfo->pod_info->Update(newPod);  // upstream: updatePod
    if (absl::Status s = nominator_.Update(oldPod, usPodInfo->pod_info);
        !s.ok()) {
      return s;
    }
    if (isPodUpdated(*oldPod, *newPod, up_.pre_enqueue_and_scheduling_gates)) {
      if (isPodBackingoff(*usPodInfo)) {
        podBackoffQ_.Add(usPodInfo);
        unschedulablePods_.erase(newPod->Key());
      } else {
        if (!addToActiveQ(usPodInfo)) return absl::OkStatus();
        unschedulablePods_.erase(newPod->Key());
      }
    } else {
      unschedulablePods_[newPod->Key()] = usPodInfo;
    }
    return absl::OkStatus();
  }
  std::shared_ptr<QueuedPodInfo> pInfo = newQueuedPodInfo(newPod);
  if (!addToActiveQ(pInfo)) return absl::OkStatus();
  nominator_.Add(pInfo->pod_info, std::nullopt);
  return absl::OkStatus();
}

// upstream: Delete
absl::Status PriorityQueue::Delete(const PodPtr& pod) {
  nominator_.Delete(*pod);  // upstream: deleteNominatedPodIfExistsUnlocked
  if (!activeQ_.Delete(pod->Key())) {
    podBackoffQ_.Delete(pod->Key());
    unschedulablePods_.erase(pod->Key());
  }
  return absl::OkStatus();
}

// upstream: AssignedPodAdded
void PriorityQueue::AssignedPodAdded(const PodPtr& pod) {
  movePodsToActiveOrBackoffQueue(
      getUnschedulablePodsWithMatchingAffinityTerm(*pod),
      ClusterEvent{"Pod", "Add", "AssignedPodAdd"});
}

// upstream: AssignedPodUpdated
void PriorityQueue::AssignedPodUpdated(const PodPtr& pod) {
  movePodsToActiveOrBackoffQueue(
      getUnschedulablePodsWithMatchingAffinityTerm(*pod),
      ClusterEvent{"Pod", "Update", "AssignedPodUpdate"});
}

// upstream: MoveAllToActiveOrBackoffQueue
void PriorityQueue::MoveAllToActiveOrBackoffQueue(
    const ClusterEvent& event, const PreEnqueueCheck& preCheck) {
  if (up_.queueing_hints_skip_uninteresting_events &&
      !isEventOfInterest(event)) {
    return;  // v1.30: before any preCheck
  }
  std::vector<std::shared_ptr<QueuedPodInfo>> unschedulable;
  for (const auto& [key, pInfo] : unschedulablePods_) {
    if (preCheck == nullptr || preCheck(pInfo->pod())) {
      unschedulable.push_back(pInfo);
    }
  }
  movePodsToActiveOrBackoffQueue(unschedulable, event);
}

// upstream: movePodsToActiveOrBackoffQueue
void PriorityQueue::movePodsToActiveOrBackoffQueue(
    const std::vector<std::shared_ptr<QueuedPodInfo>>& podInfoList,
    const ClusterEvent& event) {
  // v1.30: an event no plugin registered for returns here, and so leaves
  // moveRequestCycle alone.
  if (up_.queueing_hints_skip_uninteresting_events &&
      !isEventOfInterest(event)) {
    return;
  }
  for (const std::shared_ptr<QueuedPodInfo>& pInfo : podInfoList) {
    // v1.30: gated pods SchedulingGates rejected are skipped early.
    if (up_.move_skips_scheduling_gated_pods && pInfo->gated &&
        pInfo->unschedulable_plugins.contains("SchedulingGates")) {
      continue;
    }
    if (!pInfo->unschedulable_plugins.empty() &&
        !podMatchesEvent(*pInfo, event)) {
      continue;
    }
    const std::string key = pInfo->pod().Key();
    if (isPodBackingoff(*pInfo)) {
      podBackoffQ_.Add(pInfo);
      unschedulablePods_.erase(key);
    } else if (addToActiveQ(pInfo)) {
      unschedulablePods_.erase(key);
    }
  }
  move_request_cycle_ = scheduling_cycle_;
}

// upstream: getUnschedulablePodsWithMatchingAffinityTerm
std::vector<std::shared_ptr<QueuedPodInfo>>
PriorityQueue::getUnschedulablePodsWithMatchingAffinityTerm(
    const Pod& pod) const {
  std::vector<std::shared_ptr<QueuedPodInfo>> podsToMove;
  for (const auto& [key, pInfo] : unschedulablePods_) {
    for (const AffinityTerm& term : pInfo->pod_info->required_affinity_terms) {
      if (TermMatches(term, pod)) {
        podsToMove.push_back(pInfo);
        break;
      }
    }
  }
  return podsToMove;
}

// upstream: newQueuedPodInfo
std::shared_ptr<QueuedPodInfo> PriorityQueue::newQueuedPodInfo(
    const PodPtr& pod) const {
  auto q = std::make_shared<QueuedPodInfo>();
  q->pod_info = std::make_shared<PodInfo>(pod);
  q->timestamp = now_;
  q->initial_attempt_timestamp = now_;
  return q;
}

// upstream: getBackoffTime (Time.Add: exact, far past the int64
// nanosecond range)
Time PriorityQueue::getBackoffTime(const QueuedPodInfo& pInfo) const {
  return pInfo.timestamp.Add(calculateBackoffDuration(pInfo));
}

// upstream: calculateBackoffDuration (with Go's wrapping arithmetic)
Duration PriorityQueue::calculateBackoffDuration(
    const QueuedPodInfo& pInfo) const {
  Duration duration = pod_initial_backoff_;
  for (int i = 1; i < pInfo.attempts; i++) {
    if (duration > WrapSub(pod_max_backoff_, duration)) return pod_max_backoff_;
    duration = WrapAdd(duration, duration);
  }
  return duration;
}

// upstream: the registered event `e` matches `event`: podMatchesEvent's
// evtMatch (v1.26), ClusterEvent.Match (v1.30, where a registered "*"
// matches every resource).
bool PriorityQueue::entryMatches(const ClusterEventMapEntry& e,
                                 const ClusterEvent& event) const {
  int entry_bits = 0;
  for (const std::string& a : e.actions)
    entry_bits |= ActionTypeBits(a, up_.node_annotation_action);
  if (e.resource == "*" &&
      entry_bits == AllActionBits(up_.node_annotation_action))
    return true;
  const bool resource_matches =
      e.resource == event.resource ||
      (up_.cluster_event_match_wildcard_resource && e.resource == "*");
  return resource_matches &&
         (entry_bits &
          ActionTypeBits(event.action, up_.node_annotation_action)) != 0;
}

// upstream: isEventOfInterest (v1.30): the wildcard event, or one some
// registered event matches. (The recorded queue layer registers the
// header's map for every scheduler name; the scheduler layer registers its
// profiles', which are all the same.)
bool PriorityQueue::isEventOfInterest(const ClusterEvent& event) const {
  if (event.resource == "*" &&
      ActionTypeBits(event.action, up_.node_annotation_action) ==
          AllActionBits(up_.node_annotation_action)) {
    return true;
  }
  // No profile, no QueueingHint map: nothing is of interest.
  if (profiles_ && profiles_->empty()) return false;
  // (The hint map has a key only where some plugin registered it: an entry
  // without plugins interests no one.)
  for (const ClusterEventMapEntry& e : config_.cluster_event_map) {
    if (!e.plugins.empty() && entryMatches(e, event)) return true;
  }
  return false;
}

// upstream: podMatchesEvent (v1.26); isPodWorthRequeuing with the default
// hint of every plugin (v1.30, SchedulerQueueingHints off).
bool PriorityQueue::podMatchesEvent(const QueuedPodInfo& pInfo,
                                    const ClusterEvent& event) const {
  const int bits = ActionTypeBits(event.action, up_.node_annotation_action);
  if (event.resource == "*" &&
      bits == AllActionBits(up_.node_annotation_action))
    return true;  // IsWildCard
  // v1.30: "No QueueingHintMap is registered for this profile": after
  // backoff.
  if (up_.requeue_pods_without_profile_hints && profiles_ &&
      !profiles_->contains(pInfo.pod().scheduler_name)) {
    return true;
  }
  for (const ClusterEventMapEntry& e : config_.cluster_event_map) {
    if (!entryMatches(e, event)) continue;
    for (const std::string& plugin : e.plugins) {
      if (pInfo.unschedulable_plugins.contains(plugin)) return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------------------
// The nominator.

// upstream: nominator.DeleteNominatedPodIfExists
void PriorityQueue::DeleteNominatedPodIfExists(const PodPtr& pod) {
  nominator_.Delete(*pod);
}

// upstream: nominator.AddNominatedPod
void PriorityQueue::AddNominatedPod(
    const std::shared_ptr<PodInfo>& pi,
    const std::optional<NominatingInfo>& nominatingInfo) {
  nominator_.Add(pi, nominatingInfo);
}

std::vector<std::shared_ptr<PodInfo>> PriorityQueue::NominatedPodsForNode(
    const std::string& nodeName) const {
  return nominator_.PodsForNode(nodeName);
}

std::vector<std::shared_ptr<PodInfo>> Nominator::PodsForNode(
    const std::string& nodeName) const {
  std::vector<std::shared_ptr<PodInfo>> pods;
  auto it = nominatedPods_.find(nodeName);
  if (it == nominatedPods_.end()) return pods;
  for (const auto& pi : it->second) {
    pods.push_back(std::make_shared<PodInfo>(*pi));
  }
  return pods;
}

// upstream: nominator.addNominatedPodUnlocked
void Nominator::Add(const std::shared_ptr<PodInfo>& pi,
                    const std::optional<NominatingInfo>& nominatingInfo) {
  Delete(*pi->pod);
  std::string nodeName;
  if (nominatingInfo && nominatingInfo->mode == NominatingMode::kOverride) {
    nodeName = nominatingInfo->node;
  } else {
    if (pi->pod->nominated_node_name.empty()) return;
    nodeName = pi->pod->nominated_node_name;
  }
  // v1.37: an empty node name clears the nomination, never keys one.
  if (ignores_empty_node_name_ && nodeName.empty()) return;
  if (lister_ != nullptr) {
    PodPtr updated = lister_(pi->pod->Key());
    if (updated == nullptr) return;
    if (!updated->node_name.empty()) return;
  }
  nominatedPodToNode_[pi->pod->uid] = nodeName;
  auto& list = nominatedPods_[nodeName];
  for (const auto& npi : list) {
    if (npi->pod->uid == pi->pod->uid) return;
  }
  list.push_back(stores_refs_ ? std::make_shared<PodInfo>(*pi) : pi);
}

// upstream: nominator.delete
void Nominator::Delete(const Pod& p) {
  auto it = nominatedPodToNode_.find(p.uid);
  if (it == nominatedPodToNode_.end()) return;
  const std::string nnn = it->second;
  auto list_it = nominatedPods_.find(nnn);
  if (list_it != nominatedPods_.end()) {
    auto& list = list_it->second;
    for (auto np = list.begin(); np != list.end(); ++np) {
      if ((*np)->pod->uid == p.uid) {
        list.erase(np);
        if (list.empty()) nominatedPods_.erase(list_it);
        break;
      }
    }
  }
  nominatedPodToNode_.erase(p.uid);
}

// upstream: nominator.updateNominatedPodUnlocked (a nil old pod panics in
// NominatedNodeName)
absl::Status Nominator::Update(const PodPtr& oldPod,
                               const std::shared_ptr<PodInfo>& newPodInfo) {
  if (oldPod == nullptr) {
    return FatalError("nil pointer dereference in NominatedNodeName(oldPod)");
  }
  std::optional<NominatingInfo> nominatingInfo;
  if (NominatedNodeName(*oldPod).empty() &&
      NominatedNodeName(*newPodInfo->pod).empty()) {
    if (auto it = nominatedPodToNode_.find(oldPod->uid);
        it != nominatedPodToNode_.end()) {
      nominatingInfo = NominatingInfo{NominatingMode::kOverride, it->second};
    }
  }
  Delete(*oldPod);
  Add(newPodInfo, nominatingInfo);
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------

QueueState PriorityQueue::SnapshotQueue() const {
  QueueState q;
  SnapshotQueueInto(q);
  return q;
}

void PriorityQueue::SnapshotQueueInto(QueueState& q) const {
  Refill<QueuedPod> active(q.active);
  for (const auto& p : activeQ_.InPopOrder()) {
    SetQueuedPod(active.Next(), p->pod().Key(), p->attempts);
  }
  active.Finish();
  Refill<QueuedPod> backoff(q.backoff);
  for (const auto& p : podBackoffQ_.items()) {
    QueuedPod& b = SetQueuedPod(backoff.Next(), p->pod().Key(), p->attempts);
    b.backoff_expires_at = getBackoffTime(*p).Ms();
  }
  backoff.Finish();
  std::sort(
      q.backoff.begin(), q.backoff.end(),
      [](const QueuedPod& a, const QueuedPod& b) { return a.pod < b.pod; });
  Refill<QueuedPod> unschedulable(q.unschedulable);
  for (const auto& [key, p] : unschedulablePods_) {
    QueuedPod& u = SetQueuedPod(unschedulable.Next(), key, p->attempts);
    u.plugins.assign(p->unschedulable_plugins.begin(),
                     p->unschedulable_plugins.end());
    u.gated = p->gated;
  }
  unschedulable.Finish();
  q.scheduling_cycle = scheduling_cycle_;
  q.move_request_cycle = move_request_cycle_;
}

Nominated PriorityQueue::SnapshotNominated() const {
  Nominated n;
  SnapshotNominatedInto(n);
  return n;
}

void PriorityQueue::SnapshotNominatedInto(Nominated& n) const {
  nominator_.SnapshotInto(n);
}

void Nominator::SnapshotInto(Nominated& n) const {
  RefillMap<Nominated> nodes(n);
  for (const auto& [node, list] : nominatedPods_) {
    std::vector<std::string>& keys = nodes.Next(node);
    Refill<std::string> keys_fill(keys);
    for (const auto& pi : list) keys_fill.Next() = pi->pod->Key();
    keys_fill.Finish();
    std::sort(keys.begin(), keys.end());
  }
  nodes.Finish();
}

}  // namespace schedtrace::model
