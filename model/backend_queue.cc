#include "model/backend_queue.h"

#include <algorithm>
#include <utility>

#include "core/refill.h"
#include "model/fatal.h"
#include "model/go_int.h"
#include "model/queueing_hints.h"
#include "model/resource.h"

namespace schedtrace::model {
namespace {

// upstream: framework.ClusterEventIsWildCard.
bool IsWildCard(const QueueEvent& e) {
  return e.resource == "*" && e.action == action::kAll;
}

// upstream: matchEventResources: "*" matches every resource, and "Pod"
// matches AssignedPod, UnscheduledPod and TargetPod; before v1.37
// (target_pod_update_events) the pod resources are AssignedPod and
// UnschedulablePod, and "Pod" matches those two.
bool MatchEventResources(const std::string& r, const std::string& resource,
                         const Upstream& up) {
  if (r == "*" || r == resource) return true;
  if (r != "Pod") return false;
  if (up.target_pod_update_events) {
    return resource == "AssignedPod" || resource == "UnscheduledPod" ||
           resource == "TargetPod";
  }
  return resource == "AssignedPod" || resource == "UnschedulablePod";
}

// upstream: framework.MatchClusterEvents: the incoming event is the
// registered one or more specific.
bool MatchClusterEvents(const QueueEvent& ce, const QueueEvent& incoming,
                        const Upstream& up) {
  return IsWildCard(ce) ||
         (MatchEventResources(ce.resource, incoming.resource, up) &&
          (ce.action & incoming.action) != 0 && incoming.action <= ce.action);
}

// upstream: framework.MatchAnyClusterEvent.
bool MatchAnyClusterEvent(const QueueEvent& ce,
                          const std::vector<QueueEvent>& incoming,
                          const Upstream& up) {
  for (const QueueEvent& e : incoming) {
    if (MatchClusterEvents(e, ce, up)) return true;
  }
  return false;
}

// A clusterEventMap entry as an event of the QueueingHint map.
QueueEvent Registered(const ClusterEventMapEntry& e) {
  QueueEvent r{e.resource, 0, ""};
  for (const std::string& a : e.actions) r.action |= QueueActionBits(a);
  return r;
}

// The milli-values of resource.PodRequests.
std::map<std::string, int64_t> RequestMillis(const Pod& pod) {
  std::map<std::string, int64_t> out;
  for (const auto& [name, q] : PodRequestQuantities(pod)) {
    out[name] = q.MilliValue();
  }
  return out;
}

}  // namespace

QueueingHint DefaultQueueingHintFn(const Pod&, const EventObjects&) {
  return QueueingHint::kQueue;
}

// A scripted hint function (docs/FORMAT.md, E14): a constant answer.
// "Error" answers Queue: isPodWorthRequeuing treats a hint function's error
// as Queue.
QueueingHintFn ScriptedQueueingHintFn(const std::string& hint) {
  if (hint == "QueueSkip") {
    return [](const Pod&, const EventObjects&) {
      return QueueingHint::kQueueSkip;
    };
  }
  return DefaultQueueingHintFn;  // "", "Queue", "Error"
}

QueueingHintMap QueueingHintMapOfClusterEventMap(
    const std::vector<ClusterEventMapEntry>& cluster_event_map,
    const Upstream& up) {
  QueueingHintMap map;
  for (const ClusterEventMapEntry& e : cluster_event_map) {
    if (e.plugins.empty()) continue;
    QueueingHintMapEntry& entry = map.emplace_back();
    entry.event = Registered(e);
    for (const std::string& plugin : e.plugins) {
      // With SchedulerQueueingHints off every registration gets the default
      // hint (buildQueueingHintMap), whatever the entry scripts.
      entry.fns.push_back(
          {plugin, !up.queueing_hints ? DefaultQueueingHintFn
                   : e.hint == "plugin"
                       ? PluginQueueingHintFn(plugin, entry.event, up)
                       : ScriptedQueueingHintFn(e.hint)});
    }
  }
  return map;
}

int64_t QueueActionBits(const std::string& name) {
  static const auto* bits = new std::map<std::string, int64_t>{
      {"Add", action::kAdd},
      {"Delete", action::kDelete},
      {"UpdateNodeAllocatable", action::kUpdateNodeAllocatable},
      {"UpdateNodeLabel", action::kUpdateNodeLabel},
      {"UpdateNodeTaint", action::kUpdateNodeTaint},
      {"UpdateNodeCondition", action::kUpdateNodeCondition},
      {"UpdateNodeAnnotation", action::kUpdateNodeAnnotation},
      {"Update", action::kUpdate},
      {"All", action::kAll},
  };
  auto it = bits->find(name);
  return it == bits->end() ? 0 : it->second;
}

std::string EventLabel(const QueueEvent& event) {
  if (!event.label.empty()) return event.label;
  // fwk.ActionType.String of the actions a label is compared for.
  const std::string action = event.action == action::kAdd      ? "Add"
                             : event.action == action::kUpdate ? "Update"
                             : event.action == action::kDelete ? "Delete"
                                                               : "";
  return event.resource + action;
}

QueueEvent ToQueueEvent(const ClusterEvent& event) {
  return QueueEvent{event.resource, QueueActionBits(event.action), event.label};
}

// upstream: framework.PodSchedulingPropertiesChange and its extractors.
// Before v1.37 every unassigned pod's events are UnschedulablePod, and
// there is no scale-up extractor.
std::vector<QueueEvent> PodSchedulingPropertiesChange(const Pod& newPod,
                                                      const Pod& oldPod,
                                                      bool isTargetPod,
                                                      const Upstream& up) {
  const std::string r = !newPod.node_name.empty()      ? "AssignedPod"
                        : !up.target_pod_update_events ? "UnschedulablePod"
                        : isTargetPod                  ? "TargetPod"
                                                       : "UnscheduledPod";
  std::vector<QueueEvent> events;
  auto emit = [&](int64_t a) { events.push_back(QueueEvent{r, a, ""}); };
  // extractPodLabelsChange (Semantic.DeepEqual: nil and empty are equal)
  if (newPod.labels != oldPod.labels) emit(action::kUpdatePodLabel);
  const std::map<std::string, int64_t> news = RequestMillis(newPod);
  const std::map<std::string, int64_t> olds = RequestMillis(oldPod);
  // extractPodScaleDown: a request removed or lowered.
  for (const auto& [name, old_milli] : olds) {
    auto it = news.find(name);
    if (it == news.end() || old_milli > it->second) {
      emit(action::kUpdatePodScaleDown);
      break;
    }
  }
  // extractPodScaleUp (v1.37): a request added or raised.
  for (const auto& [name, new_milli] : news) {
    if (!up.target_pod_update_events) break;
    auto it = olds.find(name);
    if (it == olds.end() || new_milli > it->second) {
      emit(action::kUpdatePodScaleUp);
      break;
    }
  }
  // extractPodSchedulingGateEliminatedChange
  if (newPod.scheduling_gates.empty() && !oldPod.scheduling_gates.empty()) {
    emit(action::kUpdatePodSchedulingGatesEliminated);
  }
  // extractPodTolerationChange
  if (newPod.tolerations.size() != oldPod.tolerations.size()) {
    emit(action::kUpdatePodToleration);
  }
  if (events.empty()) emit(action::kUpdate);
  return events;
}

BackendQueue::BackendQueue(const Config& config, PodLister lister,
                           const Upstream& up)
    : config_(config),
      up_(up),
      hint_map_(QueueingHintMapOfClusterEventMap(config.cluster_event_map, up)),
      pod_initial_backoff_(MsToDuration(config.pod_initial_backoff_ms)),
      pod_max_backoff_(MsToDuration(config.pod_max_backoff_ms)),
      pod_max_in_unschedulable_(
          MsToDuration(config.pod_max_in_unschedulable_ms)),
      activeQ_(PrioritySortLess, QueuedPodKey),
      // upstream: lessBackoffCompletedWithPriority (pop from backoffQ on):
      // by expiry window, then as activeQ orders.
      podBackoffQ_(
          [this](const Entry& a, const Entry& b) {
            const Time bo1 = getBackoffTime(*a), bo2 = getBackoffTime(*b);
            if (!bo1.Equal(bo2) || !up_.pop_from_backoff_q) {
              return bo1.Before(bo2);
            }
            return PrioritySortLess(a, b);
          },
          QueuedPodKey),
      // upstream: lessBackoffCompleted.
      podErrorBackoffQ_(
          [this](const Entry& a, const Entry& b) {
            return getBackoffTime(*a).Before(getBackoffTime(*b));
          },
          QueuedPodKey),
      nominator_(std::move(lister), up.nominator_ignores_empty_node_name,
                 /*stores_refs=*/true) {}

// upstream: isEventOfInterest: the wildcard event, or one that some
// plugin's registration in some profile's QueueingHint map matches (every
// profile has hint_map_).
bool BackendQueue::isEventOfInterest(const QueueEvent& event) const {
  if (IsWildCard(event)) return true;
  if (config_.profiles.empty()) return false;
  for (const QueueingHintMapEntry& e : hint_map_) {
    if (MatchClusterEvents(e.event, event, up_)) return true;
  }
  return false;
}

// upstream: isPodWorthRequeuing (PreQueueingHints: none registered).
QueueingStrategy BackendQueue::isPodWorthRequeuing(
    const QueuedPodInfo& pInfo, const QueueEvent& event,
    const EventObjects& objects) const {
  std::set<std::string> rejectors = pInfo.unschedulable_plugins;
  rejectors.insert(pInfo.pending_plugins.begin(), pInfo.pending_plugins.end());
  if (rejectors.empty()) return QueueingStrategy::kAfterBackoff;
  if (IsWildCard(event)) {
    // A wildcard event carrying a pod is for that pod only.
    if (objects.new_pod != nullptr && objects.new_pod->uid != pInfo.pod().uid) {
      return QueueingStrategy::kSkip;
    }
    return QueueingStrategy::kAfterBackoff;
  }
  const std::vector<std::string>& profiles = config_.profiles;
  if (std::find(profiles.begin(), profiles.end(), pInfo.pod().scheduler_name) ==
      profiles.end()) {
    return QueueingStrategy::kAfterBackoff;  // "No QueueingHintMap ..."
  }
  QueueingStrategy strategy = QueueingStrategy::kSkip;
  for (const QueueingHintMapEntry& e : hint_map_) {
    if (!MatchClusterEvents(e.event, event, up_)) continue;
    for (const QueueingHintFunction& hint : e.fns) {
      const std::string& plugin = hint.plugin;
      if (!rejectors.contains(plugin)) continue;
      const QueueingHint answer = hint.fn(pInfo.pod(), objects);
      if (answer == QueueingHint::kPanic) {
        // The hint function dereferenced a nil object: upstream panics.
        if (panic_.ok()) {
          panic_ = FatalError(absl::StrCat("QueueingHint of ", plugin,
                                           " read a nil object of ",
                                           EventLabel(event)));
        }
        return QueueingStrategy::kSkip;
      }
      if (answer == QueueingHint::kQueueSkip) continue;
      if (pInfo.pending_plugins.contains(plugin)) {
        return QueueingStrategy::kImmediately;
      }
      if (pInfo.pending_plugins.empty()) {
        return QueueingStrategy::kAfterBackoff;
      }
      strategy = QueueingStrategy::kAfterBackoff;
    }
  }
  return strategy;
}

// upstream: runPreEnqueuePlugins / runPreEnqueuePluginsForPod /
// runPreEnqueuePlugin: the gating plugin first, then the profile's others;
// only SchedulingGates can gate (a pod with schedulingGates).
void BackendQueue::runPreEnqueuePlugins(QueuedPodInfo& pInfo) {
  std::vector<std::string> plugins;
  if (auto it = config_.pre_enqueue_plugins.find(pInfo.pod().scheduler_name);
      it != config_.pre_enqueue_plugins.end()) {
    plugins = it->second;
  }
  auto rejects = [&](const std::string& plugin) {
    if (plugin != "SchedulingGates" || pInfo.pod().scheduling_gates.empty()) {
      return false;
    }
    pInfo.unschedulable_plugins.insert(plugin);
    pInfo.gating_plugin = plugin;
    // upstream: pluginToEventsMap (buildEventMap), once per profile.
    pInfo.gating_plugin_events.clear();
    for (size_t i = 0; i < config_.profiles.size(); ++i) {
      for (const QueueingHintMapEntry& e : hint_map_) {
        if (std::any_of(e.fns.begin(), e.fns.end(),
                        [&](const auto& f) { return f.plugin == plugin; })) {
          pInfo.gating_plugin_events.push_back(e.event);
        }
      }
    }
    return true;
  };
  const std::string gating = pInfo.gating_plugin;
  if (!gating.empty() &&
      std::find(plugins.begin(), plugins.end(), gating) == plugins.end()) {
    // upstream: preEnqueuePluginMap[schedulerName][GatingPlugin] is nil for
    // a profile without that plugin (a pod moved to another scheduler name
    // while gated), and calling it panics.
    panic_ = FatalError(
        "runPreEnqueuePluginsForPod: nil pointer dereference (the gating "
        "plugin is not a PreEnqueue plugin of the pod's profile)");
    return;
  }
  if (!gating.empty() && rejects(gating)) return;
  for (const std::string& plugin : plugins) {
    if (plugin == gating) continue;
    if (rejects(plugin)) return;
  }
  pInfo.gating_plugin.clear();
}

// upstream: moveToActiveQ. From backoffQ, PreEnqueue already ran when the
// pod entered it. `nominate`: before v1.37, a pod added to activeQ for a
// pod add (or an update of a pod in no queue) is nominated here.
bool BackendQueue::moveToActiveQ(const Entry& pInfo, bool movesFromBackoffQ,
                                 bool nominate) {
  const std::string key = pInfo->pod().Key();
  if (!(up_.pop_from_backoff_q && movesFromBackoffQ)) {
    runPreEnqueuePlugins(*pInfo);
  }
  if (!pInfo->gating_plugin.empty()) {
    // Before v1.37 a gated pod with a copy in activeQ or backoffQ stays
    // where that copy is.
    if (!up_.move_to_active_leaves_other_queues &&
        (activeQ_.Get(key) != nullptr || backoffQGet(key) != nullptr)) {
      return false;
    }
    // v1.35: a record already in unschedulablePods stays.
    if (up_.gated_pod_replaces_unschedulable_record ||
        !unschedulablePods_.contains(key)) {
      unschedulablePods_[key] = pInfo;
    }
    return false;
  }
  unschedulablePods_.erase(key);
  if (!up_.move_to_active_leaves_other_queues) backoffQDelete(key);
  activeQ_.Add(pInfo);
  if (nominate) nominator_.Add(pInfo->pod_info, std::nullopt);
  return true;
}

// upstream: moveToBackoffQ.
bool BackendQueue::moveToBackoffQ(const Entry& pInfo) {
  if (up_.pop_from_backoff_q) {
    runPreEnqueuePlugins(*pInfo);
    if (!pInfo->gating_plugin.empty()) {
      if (up_.gated_pod_replaces_unschedulable_record ||
          !unschedulablePods_.contains(pInfo->pod().Key())) {
        unschedulablePods_[pInfo->pod().Key()] = pInfo;
      }
      return false;
    }
  }
  unschedulablePods_.erase(pInfo->pod().Key());
  backoffQAdd(pInfo);
  return true;
}

// upstream: Add / addPod: nominated even when gated.
void BackendQueue::Add(const PodPtr& pod) { addPod(pod); }

void BackendQueue::addPod(const PodPtr& pod) {
  Entry pInfo = newQueuedPodInfo(pod);
  if (up_.add_nominates_gated_pods) {
    nominator_.Add(pInfo->pod_info, std::nullopt);
    moveToActiveQ(pInfo, false);
  } else {
    moveToActiveQ(pInfo, false, /*nominate=*/true);
  }
}

// upstream: Activate: a pod in flight is activated when it comes back.
// (upstream ranges over a Go map; the order changes nothing here)
void BackendQueue::Activate(const std::vector<PodPtr>& pods) {
  static const QueueEvent kForceActivate{"*", action::kAll, "ForceActivate"};
  std::set<std::string> seen;  // upstream takes a map: each key once
  for (const PodPtr& pod : pods) {
    if (!seen.insert(pod->Key()).second) continue;
    if (activate(pod->Key())) continue;
    addEventsIfPodInFlight(nullptr, pod, {kForceActivate});
    if (up_.activate_sets_move_request_cycle &&
        !up_.move_request_cycle_removed) {
      move_request_cycle_ = sched_cycle_;
    }
  }
}

// upstream: activate.
bool BackendQueue::activate(const std::string& key) {
  Entry pInfo;
  bool movesFromBackoffQ = false;
  if (auto it = unschedulablePods_.find(key); it != unschedulablePods_.end()) {
    pInfo = it->second;
  } else {
    pInfo = backoffQDelete(key);
    if (pInfo == nullptr) return false;
    movesFromBackoffQ = true;
  }
  const bool added = moveToActiveQ(pInfo, movesFromBackoffQ);
  if (added && !up_.requeue_skips_nominator) {
    nominator_.Add(pInfo->pod_info, std::nullopt);
  }
  return added;
}

// upstream: determineSchedulingHintForInFlightPod: the strongest strategy
// of the events received since the pod was popped.
QueueingStrategy BackendQueue::determineSchedulingHintForInFlightPod(
    const QueuedPodInfo& pInfo) const {
  if (pInfo.unschedulable_plugins.empty() && pInfo.pending_plugins.empty()) {
    return QueueingStrategy::kAfterBackoff;
  }
  auto at = inFlightPods_.find(pInfo.pod().uid);
  if (at == inFlightPods_.end()) return QueueingStrategy::kAfterBackoff;
  QueueingStrategy strategy = QueueingStrategy::kSkip;
  for (auto e = std::next(at->second); e != inFlightEvents_.end(); ++e) {
    if (!e->pod_uid.empty()) continue;  // another in-flight pod
    switch (isPodWorthRequeuing(pInfo, e->event, e->objects)) {
      case QueueingStrategy::kSkip:
        continue;
      case QueueingStrategy::kImmediately:
        return QueueingStrategy::kImmediately;
      case QueueingStrategy::kAfterBackoff:
        strategy = QueueingStrategy::kAfterBackoff;
        if (pInfo.pending_plugins.empty()) return strategy;
    }
  }
  return strategy;
}

// upstream: addUnschedulableWithoutQueueingHint (SchedulerQueueingHints
// off): to backoffQ when a move request came after the pod's cycle began or
// no plugin rejected it, else to unschedulablePods.
void BackendQueue::addUnschedulableWithoutQueueingHint(
    const Entry& pInfo, int64_t podSchedulingCycle) {
  if (move_request_cycle_ >= podSchedulingCycle ||
      (pInfo->unschedulable_plugins.empty() &&
       pInfo->pending_plugins.empty())) {
    moveToBackoffQ(pInfo);
  } else {
    unschedulablePods_[pInfo->pod().Key()] = pInfo;
  }
}

// upstream: AddUnschedulablePodIfNotPresent; Done is called in every case.
absl::Status BackendQueue::AddUnschedulablePodIfNotPresent(
    const std::shared_ptr<QueuedPodInfo>& pInfo, int64_t podSchedulingCycle) {
  const std::string key = pInfo->pod().Key();
  const std::string uid = pInfo->pod().uid;
  absl::Status refused;
  if (unschedulablePods_.contains(key)) {
    refused = absl::AlreadyExistsError(
        "Pod is already present in unschedulable queue");
  } else if (activeQ_.Get(key) != nullptr) {
    refused =
        absl::AlreadyExistsError("Pod is already present in the active queue");
  } else if (backoffQGet(key) != nullptr) {
    refused =
        absl::AlreadyExistsError("Pod is already present in the backoff queue");
  }
  if (!refused.ok()) {
    Done(uid);
    return refused;
  }
  if (pInfo->unschedulable_plugins.empty() && pInfo->pending_plugins.empty()) {
    pInfo->consecutive_errors_count++;
  } else {
    pInfo->unschedulable_count++;
    pInfo->consecutive_errors_count = 0;
  }
  pInfo->timestamp = now_;
  pInfo->backoff_expiration = Time::GoZero();
  pInfo->flush_timestamp = Time::GoZero();
  if (!up_.queueing_hints) {
    addUnschedulableWithoutQueueingHint(pInfo, podSchedulingCycle);
  } else {
    requeuePodWithQueueingStrategy(
        pInfo, determineSchedulingHintForInFlightPod(*pInfo),
        "ScheduleAttemptFailure");
  }
  if (!up_.requeue_skips_nominator)
    nominator_.Add(pInfo->pod_info, std::nullopt);
  Done(uid);
  return absl::OkStatus();
}

// upstream: requeueEntityWithQueueingStrategy; the queue the pod went to.
// `event`: the label of the event that moves it (ClusterEvent.Label).
std::string BackendQueue::requeuePodWithQueueingStrategy(
    const Entry& pInfo, QueueingStrategy strategy, const std::string& event) {
  if (strategy == QueueingStrategy::kSkip) {
    unschedulablePods_[pInfo->pod().Key()] = pInfo;
    return "unschedulable";
  }
  if (strategy == QueueingStrategy::kAfterBackoff && isPodBackingoff(*pInfo)) {
    return moveToBackoffQ(pInfo) ? "backoff" : "unschedulable";
  }
  // Before v1.37 moveToActiveQ nominates a pod the pod's own add or update
  // moves (event UnschedulablePodAdd or UnschedulablePodUpdate).
  const bool nominate =
      !up_.add_nominates_gated_pods &&
      (event == "UnschedulablePodAdd" || event == "UnschedulablePodUpdate");
  return moveToActiveQ(pInfo, false, nominate) ? "active" : "unschedulable";
}

// upstream: flushBackoffQCompleted (popAllBackoffCompleted: backoffQ, then
// the error backoffQ).
void BackendQueue::flushBackoffQCompleted() {
  std::vector<Entry> completed;
  for (GoHeap<Entry>* q : {&podBackoffQ_, &podErrorBackoffQ_}) {
    while (!q->Empty() && !isPodBackingoff(*q->Peek())) {
      completed.push_back(q->Pop());
    }
  }
  for (const Entry& pInfo : completed) moveToActiveQ(pInfo, true);
}

// upstream: flushUnschedulableEntitiesLeftover: strictly longer than the
// limit since the pod's last attempt or its last flush (upstream walks a
// Go map: we walk by key).
void BackendQueue::flushUnschedulableEntitiesLeftover() {
  std::vector<Entry> toMove;
  for (const auto& [key, pInfo] : unschedulablePods_) {
    Time last = pInfo->timestamp;
    if (up_.unschedulable_flush_waits_from_last_flush &&
        pInfo->flush_timestamp.After(last)) {
      last = pInfo->flush_timestamp;
    }
    if (now_.Sub(last) > pod_max_in_unschedulable_) {
      pInfo->flush_timestamp = now_;
      toMove.push_back(pInfo);
    }
  }
  if (!toMove.empty()) {
    movePodsToActiveOrBackoffQueue(
        toMove, QueueEvent{"*", action::kAll, "UnschedulableTimeout"}, {});
  }
}

// upstream: Pop (activeQueue.unlockedPop), never blocking: activeQ's head,
// else backoffQ's (not the error backoffQ's); a pod already in flight is
// discarded and the next one popped.
std::shared_ptr<QueuedPodInfo> BackendQueue::Pop() {
  Entry pInfo;
  if (!activeQ_.Empty()) {
    pInfo = activeQ_.Pop();
  } else if (up_.pop_from_backoff_q && !podBackoffQ_.Empty()) {
    pInfo = podBackoffQ_.Pop();
  } else {
    return nullptr;
  }
  // upstream: unlockedMoveEntityToInFlight.
  pInfo->attempts++;
  if (up_.queueing_hints) {  // no in-flight pods with the gate off
    const std::string& uid = pInfo->pod().uid;
    if (inFlightPods_.contains(uid)) return Pop();
    inFlightPods_[uid] =
        inFlightEvents_.insert(inFlightEvents_.end(), InFlight{uid, {}, {}});
  }
  sched_cycle_++;
  return pInfo;
}

// upstream: activeQueue.unlockedDone: the pod leaves the in-flight list,
// and the events no earlier in-flight pod needs go with it.
void BackendQueue::Done(const std::string& uid) {
  auto it = inFlightPods_.find(uid);
  if (it == inFlightPods_.end()) return;
  inFlightEvents_.erase(it->second);
  inFlightPods_.erase(it);
  while (!inFlightEvents_.empty() && inFlightEvents_.front().pod_uid.empty()) {
    inFlightEvents_.pop_front();
  }
}

// upstream: Update.
absl::Status BackendQueue::Update(const PodPtr& oldPod, const PodPtr& newPod) {
  std::vector<QueueEvent> events;
  if (up_.queueing_hints) {
    if (oldPod == nullptr) {
      return FatalError(
          "nil pointer dereference in PodSchedulingPropertiesChange(oldPod)");
    }
    events = PodSchedulingPropertiesChange(*newPod, *oldPod, true, up_);
    if (inFlightPods_.contains(newPod->uid)) {
      addEventsIfPodInFlight(oldPod, newPod, events);
      return absl::OkStatus();
    }
  }
  // v1.37: QueuedPodInfo.Update refuses a pod of another uid, and the
  // record it found is left as it was.
  auto refuses = [&](const Entry& pInfo) {
    return up_.pod_info_update_refuses_other_uid &&
           pInfo->pod().uid != newPod->uid;
  };
  const std::string key = newPod->Key();
  for (GoHeap<Entry>* q : {&activeQ_, &podBackoffQ_, &podErrorBackoffQ_}) {
    if (oldPod == nullptr) break;
    const Entry* found = q->Get(key);
    if (found == nullptr || refuses(*found)) continue;
    Entry pInfo = *found;
    pInfo->pod_info->Update(newPod);  // QueuedPodInfo.Update
    q->Add(pInfo);                    // Heap.AddOrUpdate
    return nominator_.Update(oldPod, pInfo->pod_info);
  }
  // (v1.35 and v1.36 look unschedulablePods up by the new pod's key, v1.37
  // by the old one's: the same key, as a trace's update names one pod.)
  if (auto it = unschedulablePods_.find(key); it != unschedulablePods_.end()) {
    Entry pInfo = it->second;
    if (refuses(pInfo)) {
      addPod(newPod);  // upstream: "Failed to update pod in an entity"
      return absl::OkStatus();
    }
    pInfo->pod_info->Update(newPod);
    if (absl::Status s = nominator_.Update(oldPod, pInfo->pod_info); !s.ok()) {
      return s;
    }
    if (!up_.queueing_hints)
      return updateUnschedulableWithoutQueueingHint(pInfo, *oldPod, *newPod);
    const EventObjects objects{oldPod, newPod};
    for (const QueueEvent& evt : events) {
      const std::string queue = requeuePodWithQueueingStrategy(
          pInfo, isPodWorthRequeuing(*pInfo, evt, objects), EventLabel(evt));
      if (queue == "active" || (up_.pop_from_backoff_q && queue == "backoff")) {
        break;
      }
    }
    return absl::OkStatus();
  }
  addPod(newPod);
  return absl::OkStatus();
}

// upstream: Update's hint-off path for a pod in unschedulablePods: any
// change but its status moves it (isPodUpdated), to backoffQ while it
// backs off, else to activeQ, which nominates it before v1.37 (event
// UnschedulablePodUpdate).
absl::Status BackendQueue::updateUnschedulableWithoutQueueingHint(
    const Entry& pInfo, const Pod& oldPod, const Pod& newPod) {
  if (!isPodUpdated(oldPod, newPod, /*has_gates=*/true)) {
    unschedulablePods_[newPod.Key()] = pInfo;  // addOrUpdate
    return absl::OkStatus();
  }
  if (isPodBackingoff(*pInfo)) {
    moveToBackoffQ(pInfo);
  } else {
    moveToActiveQ(pInfo, false, /*nominate=*/!up_.add_nominates_gated_pods);
  }
  return absl::OkStatus();
}

// upstream: Delete / deletePod: in-flight pods stay in flight.
void BackendQueue::Delete(const PodPtr& pod) {
  nominator_.Delete(*pod);
  const std::string key = pod->Key();
  if (activeQ_.Delete(key)) return;
  if (backoffQDelete(key) != nullptr) return;
  unschedulablePods_.erase(key);
}

// upstream: MoveAllToActiveOrBackoffQueue / collectEntitiesToEvaluate.
void BackendQueue::MoveAllToActiveOrBackoffQueue(
    const QueueEvent& event, const EventObjects& objects,
    const PreEnqueueCheck& preCheck) {
  if (!isEventOfInterest(event)) return;
  std::vector<Entry> candidates;
  for (const auto& [key, pInfo] : unschedulablePods_) {
    if (preCheck == nullptr || preCheck(pInfo->pod())) {
      candidates.push_back(pInfo);
    }
  }
  movePodsToActiveOrBackoffQueue(candidates, event, objects);
}

// upstream: AssignedPodAdded (what the scheduler calls with
// SchedulerQueueingHints off): only the pods an assigned pod may help.
void BackendQueue::AssignedPodAdded(const PodPtr& pod) {
  movePodsToActiveOrBackoffQueue(
      getUnschedulablePodsWithCrossTopologyTerm(*pod), EventAssignedPodAdd(),
      EventObjects{.new_pod = pod});
}

// upstream: AssignedPodUpdated: a scale-down may help any pod NodeResourcesFit
// rejected, so every pod is considered; else as AssignedPodAdded.
void BackendQueue::AssignedPodUpdated(const PodPtr& oldPod,
                                      const PodPtr& newPod,
                                      const QueueEvent& event) {
  const EventObjects objects{.old_pod = oldPod, .new_pod = newPod};
  if (MatchClusterEvents(QueueEvent{"Pod", action::kUpdatePodScaleDown, ""},
                         event, up_)) {
    MoveAllToActiveOrBackoffQueue(event, objects, nullptr);
    return;
  }
  movePodsToActiveOrBackoffQueue(
      getUnschedulablePodsWithCrossTopologyTerm(*newPod), event, objects);
}

// upstream: getUnschedulablePodsWithCrossTopologyTerm: the pods in
// unschedulablePods that PodTopologySpread rejected in the pod's namespace,
// or with a required affinity term the pod matches (upstream walks a Go
// map: we walk by key).
std::vector<BackendQueue::Entry>
BackendQueue::getUnschedulablePodsWithCrossTopologyTerm(const Pod& pod) const {
  std::vector<Entry> podsToMove;
  for (const auto& [key, pInfo] : unschedulablePods_) {
    if (pInfo->unschedulable_plugins.contains("PodTopologySpread") &&
        pod.namespace_ == pInfo->pod().namespace_) {
      podsToMove.push_back(pInfo);
      continue;
    }
    for (const AffinityTerm& term : pInfo->pod_info->required_affinity_terms) {
      if (TermMatches(term, pod)) {
        podsToMove.push_back(pInfo);
        break;
      }
    }
  }
  return podsToMove;
}

// upstream: moveEntitiesToActiveOrBackoffQueue. A gated pod moves only on
// an event its gating plugin registered, or a wildcard one.
void BackendQueue::movePodsToActiveOrBackoffQueue(
    const std::vector<Entry>& podInfoList, const QueueEvent& event,
    const EventObjects& objects) {
  if (!isEventOfInterest(event)) return;
  for (const Entry& pInfo : podInfoList) {
    if (!up_.gated_pods_move_on_gating_events) {
      // Before v1.34: a pod gated by SchedulingGates is never moved.
      if (!pInfo->gating_plugin.empty() &&
          pInfo->unschedulable_plugins.contains("SchedulingGates")) {
        continue;
      }
    } else if (!pInfo->gating_plugin.empty() &&
               !(up_.wildcard_events_move_gated_pods && IsWildCard(event)) &&
               !MatchAnyClusterEvent(event, pInfo->gating_plugin_events, up_)) {
      continue;
    }
    const QueueingStrategy hint = isPodWorthRequeuing(*pInfo, event, objects);
    if (hint == QueueingStrategy::kSkip) continue;
    unschedulablePods_.erase(pInfo->pod().Key());
    requeuePodWithQueueingStrategy(pInfo, hint, EventLabel(event));
  }
  if (!up_.move_request_cycle_removed) move_request_cycle_ = sched_cycle_;
  if (up_.queueing_hints) addEventIfAnyInFlight(event, objects);
}

// upstream: activeQueue.addEventIfAnyInFlight.
void BackendQueue::addEventIfAnyInFlight(const QueueEvent& event,
                                         const EventObjects& objects) {
  if (inFlightPods_.empty()) return;
  inFlightEvents_.push_back(InFlight{"", event, objects});
}

// upstream: activeQueue.addEventsIfPodInFlight (by the new pod's uid).
void BackendQueue::addEventsIfPodInFlight(
    const PodPtr& oldPod, const PodPtr& newPod,
    const std::vector<QueueEvent>& events) {
  if (!inFlightPods_.contains(newPod->uid)) return;
  for (const QueueEvent& e : events) {
    inFlightEvents_.push_back(InFlight{"", e, EventObjects{oldPod, newPod}});
  }
}

// upstream: newQueuedPodInfo.
BackendQueue::Entry BackendQueue::newQueuedPodInfo(const PodPtr& pod) const {
  auto q = std::make_shared<QueuedPodInfo>();
  q->pod_info = std::make_shared<PodInfo>(pod);
  q->timestamp = now_;
  q->initial_attempt_timestamp = now_;
  return q;
}

// ---------------------------------------------------------------------------
// upstream: backoffQueue.

// upstream: alignToWindow: one-second windows (backoffQOrderingWindowDuration)
// while pops from backoffQ are on.
Time BackendQueue::alignToWindow(Time t) const {
  return up_.pop_from_backoff_q ? t.TruncateToSecond() : t;
}

// upstream: isEntityBackingoff: the expiry's window has not passed.
bool BackendQueue::isPodBackingoff(const QueuedPodInfo& pInfo) const {
  if (!up_.gated_pods_back_off && !pInfo.gating_plugin.empty()) return false;
  const Time boTime = getBackoffTime(pInfo);
  if (!up_.backoff_includes_its_end) return boTime.After(alignToWindow(now_));
  return !boTime.Before(alignToWindow(now_));
}

// upstream: getBackoffTime: from the count of failures (by error when the
// last attempt was an error), aligned. Upstream caches the value in the
// QueuedPodInfo until the pod's next failure, which changes everything it
// is computed from: computing it afresh gives the same instant.
Time BackendQueue::getBackoffTime(const QueuedPodInfo& pInfo) const {
  if (pod_max_backoff_ == 0) return Time::GoZero();
  int count = pInfo.unschedulable_count;
  if (pInfo.consecutive_errors_count > 0) {
    count = pInfo.consecutive_errors_count;
  }
  if (!up_.backoff_counts_failures) count = pInfo.attempts;
  if (count == 0) return Time::GoZero();
  return alignToWindow(pInfo.timestamp.Add(calculateBackoffDuration(count)));
}

// upstream: calculateBackoffDuration, with Go's shifts (a shift of 64 or
// more leaves 0, or -1 for a negative value shifted right).
Duration BackendQueue::calculateBackoffDuration(int count) const {
  if (count == 0) return 0;
  const int shift = count - 1;
  const Duration max_shifted =
      shift >= 63 ? (pod_max_backoff_ < 0 ? -1 : 0) : pod_max_backoff_ >> shift;
  if (pod_initial_backoff_ > max_shifted) return pod_max_backoff_;
  if (shift >= 64) return 0;
  return static_cast<Duration>(static_cast<uint64_t>(pod_initial_backoff_)
                               << shift);
}

// upstream: backoffQueue.add: a pod no plugin rejected waits in the error
// backoffQ.
void BackendQueue::backoffQAdd(const Entry& pInfo) {
  if (up_.error_backoff_queue && pInfo->unschedulable_plugins.empty() &&
      pInfo->pending_plugins.empty()) {
    podErrorBackoffQ_.Add(pInfo);
    podBackoffQ_.Delete(pInfo->pod().Key());
    return;
  }
  podBackoffQ_.Add(pInfo);
  podErrorBackoffQ_.Delete(pInfo->pod().Key());
}

// upstream: backoffQueue.delete.
BackendQueue::Entry BackendQueue::backoffQDelete(const std::string& key) {
  for (GoHeap<Entry>* q : {&podBackoffQ_, &podErrorBackoffQ_}) {
    if (const Entry* found = q->Get(key)) {
      Entry pInfo = *found;
      q->Delete(key);
      return pInfo;
    }
  }
  return nullptr;
}

const BackendQueue::Entry* BackendQueue::backoffQGet(
    const std::string& key) const {
  if (const Entry* e = podBackoffQ_.Get(key)) return e;
  return podErrorBackoffQ_.Get(key);
}

// upstream: nominatedPodToInfo: the nominator keeps a podRef (name,
// namespace, uid); the PodInfo is whatever the queue holds under that key
// (getPod: activeQ, backoffQ, unschedulablePods; v1.35 and v1.36 look in
// unschedulablePods before backoffQ, which no trace tells apart: there a
// key is in one of them at most), whatever its uid; a pod the queue does
// not hold (in flight, or gone) is the ref alone: priority 0, no requests.
std::shared_ptr<PodInfo> BackendQueue::nominatedPodToInfo(
    const Pod& ref) const {
  const std::string key = ref.Key();
  const Entry* found = activeQ_.Get(key);
  if (found == nullptr) found = backoffQGet(key);
  if (found == nullptr) {
    auto it = unschedulablePods_.find(key);
    if (it != unschedulablePods_.end()) found = &it->second;
  }
  if (found != nullptr) return std::make_shared<PodInfo>(*(*found)->pod_info);
  auto pod = std::make_shared<Pod>();  // podRef.toPod
  pod->namespace_ = ref.namespace_;
  pod->name = ref.name;
  pod->uid = ref.uid;
  return std::make_shared<PodInfo>(pod);
}

// upstream: PriorityQueue.NominatedPodsForNode (DeepCopy of each).
std::vector<std::shared_ptr<PodInfo>> BackendQueue::NominatedPodsForNode(
    const std::string& nodeName) const {
  std::vector<std::shared_ptr<PodInfo>> pods;
  for (const std::shared_ptr<PodInfo>& np : nominator_.PodsForNode(nodeName)) {
    pods.push_back(nominatedPodToInfo(*np->pod));
  }
  return pods;
}

// ---------------------------------------------------------------------------

void BackendQueue::SnapshotQueueInto(QueueState& q) const {
  auto set = [](QueuedPod& e, const Entry& p) -> QueuedPod& {
    e.pod = p->pod().Key();
    e.attempts = p->attempts;
    e.backoff_expires_at = 0;
    e.plugins.clear();
    e.gated = false;
    return e;
  };
  Refill<QueuedPod> active(q.active);
  for (const Entry& p : activeQ_.InPopOrder()) set(active.Next(), p);
  active.Finish();
  Refill<QueuedPod> backoff(q.backoff);
  for (const GoHeap<Entry>* h : {&podBackoffQ_, &podErrorBackoffQ_}) {
    for (const Entry& p : h->items()) {
      set(backoff.Next(), p).backoff_expires_at = getBackoffTime(*p).Ms();
    }
  }
  backoff.Finish();
  std::sort(
      q.backoff.begin(), q.backoff.end(),
      [](const QueuedPod& a, const QueuedPod& b) { return a.pod < b.pod; });
  Refill<QueuedPod> unschedulable(q.unschedulable);
  for (const auto& [key, p] : unschedulablePods_) {
    QueuedPod& u = set(unschedulable.Next(), p);
    u.plugins.assign(p->unschedulable_plugins.begin(),
                     p->unschedulable_plugins.end());
    u.gated = !p->gating_plugin.empty();
  }
  unschedulable.Finish();
  q.scheduling_cycle = sched_cycle_;
  q.move_request_cycle = move_request_cycle_;  // -1 from v1.37: gone
}

}  // namespace schedtrace::model
