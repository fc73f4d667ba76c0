#include "properties/known_violations.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace schedtrace::properties {
namespace {

bool AnyPod(const Violation& v, auto pred) {
  for (const std::string& key : v.pods) {
    if (pred(key)) return true;
  }
  return false;
}

// kubernetes/kubernetes#118226: in the queue layer a pod popped and not yet
// given back is in no sub-queue, so Update (or Add) puts a second copy in
// activeQ.
bool InFlightCopy(const Observation& o, const Violation& v) {
  return v.property == 10 && o.history.layer() == Layer::kQueue &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.in_flight().contains(k);
         });
}

// From v1.35 (where an update of a pod in flight is only recorded): an add
// of a pod in flight, or an update carrying another uid, still queues a
// copy while the popped one is being scheduled; the queue's in-flight list
// outlives a delete.
bool InFlightAddCopy(const Observation& o, const Violation& v) {
  return v.property == 10 && o.history.layer() == Layer::kQueue &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.popped_not_returned().contains(k);
         });
}

// docs/UPSTREAM.md item 3: Update(nil, p) of a pod in backoffQ adds a fresh
// activeQ entry and leaves the backoffQ one: the pod is in two queues until the
// backoff flush.
bool NilOldUpdateCopy(const Observation& o, const Violation& v) {
  return v.property == 1 && o.history.layer() == Layer::kQueue &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.UpdatedWithNilOld(k);
         });
}

// docs/UPSTREAM.md items 27 and 28, kubernetes/kubernetes#141255 class: a pod
// deleted and created again under the same name, seen as one update with a new
// uid, is a second pod to the cache (keyed by uid) and the queue (keyed by
// name) at once.
bool RecreatedUid(const Observation& o, const Violation& v) {
  return o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.AmbiguousInCache(k);
         });
}

// docs/UPSTREAM.md item 27, kubernetes/kubernetes#141255 class: an update that
// changes a queued pod's uid makes PodInfo.Update mutate the PodInfo the
// nominator holds before nominator.delete(oldPod) looks for the old uid, so the
// entry stays in nominatedPods for good, after the pod is bound or deleted.
bool RecreatedUidPhantomNomination(const Observation& o, const Violation& v) {
  return v.property == 9 && AnyPod(v, [&](const std::string& k) {
           return o.history.UidChangedWhileNominated(k);
         });
}

// docs/UPSTREAM.md item 28, kubernetes/kubernetes#141255 class: a pod waiting
// on Permit whose deletion and re-creation arrived as one update with a new uid
// is never rejected: the later delete carries the new uid and
// RejectWaitingPod(uid) misses the old one, which keeps waiting (and may bind).
// Only the incarnation last assumed under the key counts: a waiting pod deleted
// under its own uid is a failure.
bool RecreatedUidWaitingPod(const Observation& o, const Violation& v) {
  return v.property == 4 && o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.DeletedOtherUidWhileWaiting(k);
         });
}

// From v1.35 (kubernetes/kubernetes#134157) only handleAssumedPodDeletion
// rejects a waiting pod, and only when the queue's handler finds it assumed:
// a tombstone delete removes the assumed pod from the cache first
// (deleteAssignedPodFromCache), a delete of an assigned object goes to the
// cache's handler only, and a pod the cache confirmed or dropped is not
// assumed. The pod keeps waiting (and may bind) until Permit times out.
bool DeletedWaitingNotAssumed(const Observation& o, const Violation& v) {
  return v.property == 4 && o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.DeletedWaitingNotAssumed(k);
         });
}

// From v1.35 (kubernetes/kubernetes#134157) handleAssumedPodDeletion
// forgets an assumed pod whose deletion starts (or that is deleted) while
// it waits on Permit or is parked before binding, and its binding cycle
// goes on: the cache no longer holds it assumed, so a later update passes
// Cache.IsAssumedPod and PriorityQueue.Update queues the pod beside its
// binding. Only a key waiting or parked that the cache does not hold
// assumed.
bool QueuedBesideUnassumedBinding(const Observation& o, const Violation& v) {
  if (v.property != 10 || o.history.layer() != Layer::kScheduler ||
      !o.after.cache) {
    return false;
  }
  auto holds = [](const std::optional<std::vector<std::string>>& keys,
                  const std::string& k) {
    return keys && std::binary_search(keys->begin(), keys->end(), k);
  };
  const std::vector<std::string>& assumed = o.after.cache->assumed;
  return AnyPod(v, [&](const std::string& k) {
    return (holds(o.after.waiting, k) || holds(o.after.parked, k)) &&
           !std::binary_search(assumed.begin(), assumed.end(), k);
  });
}

// From v1.35 updatePod routes an unassigned pod's update by
// responsibleForPod(oldPod): a pod whose schedulerName changes to one of
// ours (immutable in the API: hostile input) is neither added nor updated,
// and stays out of every queue until it is added again.
bool HandedOverByName(const Observation& o, const Violation& v) {
  return v.property == 5 && o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.HandedOverByName(k);
         });
}

// From v1.35 updatePod routes an unassigned pod's update by
// responsibleForPod(oldPod): a queued pod of ours re-created for another
// scheduler, seen as one update with a new uid, is updated in our queue
// (updatePodInSchedulingQueue), and its later updates, the binding by the
// other scheduler among them, never pass responsibleForPod(oldPod): it stays
// queued once bound. Only a key that, after a uid change, holds another
// scheduler's pod in the informer.
bool RecreatedForOtherSchedulerStaysQueued(const Observation& o,
                                           const Violation& v) {
  const std::vector<std::string>& profiles = o.history.header().config.profiles;
  return v.property == 3 && o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           auto it = o.history.informer().find(k);
           return o.history.RecreatedForOtherScheduler(k) &&
                  it != o.history.informer().end() &&
                  std::find(profiles.begin(), profiles.end(),
                            it->second->scheduler_name) == profiles.end();
         });
}

// v1.37: an update giving a queued pod (in backoffQ) a new uid adds the new
// pod to activeQ beside the old record (second-copy-on-v137). Through the
// scheduler's handlers that second copy shows as:
// - the flush merges the two into the old QueuedPodInfo, and when that
//   fails handleSchedulingFailure finds the informer's pod under another
//   uid and skips it as re-created: the new pod is in no queue
//   (new-uid-merged-into-old-is-lost, property 5);
// - the same merge orders activeQ by the old object: the new uid's later
//   updates went to its own copy (new-uid-merged-into-old-keeps-old-order,
//   property 7);
// - the pod's binding: deletePodFromSchedulingQueue removes the new uid's
//   entry and leaves the old record, so the bound pod stays queued
//   (new-uid-old-record-outlives-binding, property 3), with its nomination
//   (new-uid-old-record-keeps-nomination, property 9);
// - the new uid popped from activeQ: the old record stays queued beside
//   its scheduling or binding cycle (new-uid-old-record-beside-cycle,
//   property 10).
// Each entry names its property (Classify compares it); all need a key
// updated to a new uid while queued.
bool KeyGotNewUidWhileQueued(const Observation& o, const Violation& v) {
  return o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.UidChangedWhileQueued(k);
         });
}

// v1.37: a second add of a queued pod (pod_add of the same object, hostile
// input) puts it in activeQ beside its record (second-copy-on-v137), and
// through the handlers that record outlives what the new uid's does in
// KeyGotNewUidWhileQueued: the binding's queue delete removes one and the
// bound pod stays queued (duplicate-add-copy-outlives-binding, property 3);
// a flush merges them into the older object, whose priority orders activeQ
// (duplicate-add-merged-keeps-old-order, property 7); the activeQ record is
// popped and waits or binds while the other stays
// (duplicate-add-copy-beside-cycle, property 10).
bool KeyAddedAgainWhileQueued(const Observation& o, const Violation& v) {
  return o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.AddedWhileQueued(k);
         });
}

// Before kubernetes/kubernetes#138324 (v1.36) handleSchedulingFailure
// re-reads the pod from the informer by name: when a pod of ours is
// re-created under the failed one's name (a new uid) and is itself assumed,
// the old incarnation's failure queues the new, assumed one beside its
// binding cycle (properties 2 and 10). Only a key the cache held under two
// uids.
bool FailureRequeuesAssumedRecreated(const Observation& o, const Violation& v) {
  return (v.property == 2 || v.property == 10) &&
         o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.AmbiguousInCache(k);
         });
}

// From v1.36 (kubernetes/kubernetes#138324 skips a re-created pod only
// when the failed one's uid differs): an update giving a pod waiting on
// Permit a new uid is no assumed pod's to IsAssumedPod and is queued; when
// the new uid fails, the informer holds that very uid, so it is queued again
// while the old uid still waits (property 10); when the new uid waits too
// and its deletion starts, it is queued while assumed (property 2). Only a
// key the cache held under two uids.
bool RecreatedUidFailedBesideWaiting(const Observation& o, const Violation& v) {
  return (v.property == 2 || v.property == 10) &&
         o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.AmbiguousInCache(k);
         });
}

// v1.36: an update giving a pod waiting on Permit a new uid, for another
// scheduler, rejects the waiting pod after PodInfo.Update gave its PodInfo
// the new object: handleSchedulingFailure finds the same uid in the
// informer, queues the other scheduler's pod and nominates it to "", and
// its delete never passes our queue filter. Only a key that, after a uid
// change, carried another scheduler's pod.
bool RecreatedForOtherSchedulerWhileWaiting(const Observation& o,
                                            const Violation& v) {
  return v.property == 9 && o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.RecreatedForOtherScheduler(k);
         });
}

// v1.37: an update giving a queued, nominated pod a new uid leaves the
// nominator's entry for the old uid (PodInfo.Update refuses another uid,
// and the queue keeps the old record's nomination); the delete of the new
// uid takes the pod out of the queue by name and looks the nominator up by
// the new uid (nominator.deleteUnlocked), so the old entry stays. Only a
// key updated to a new uid while nominated and no longer in the informer.
bool RecreatedUidNominationOutlivesDelete(const Observation& o,
                                          const Violation& v) {
  return v.property == 9 && o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.UidChangedWhileNominated(k) &&
                  !o.history.informer().contains(k);
         });
}

// v1.37: the same merge into the old record (an update giving a pod in
// backoffQ a new uid, then a flush) when the merged pod is scheduled: the
// cache assumes the old uid, so a later update of the informer's (new) uid
// passes Cache.IsAssumedPod and is queued while the key is assumed. Only a
// key updated to a new uid while queued.
bool NewUidMergedIntoOldRequeued(const Observation& o, const Violation& v) {
  return v.property == 2 && o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.UidChangedWhileQueued(k);
         });
}

// handleSchedulingFailure re-reads the pod from the informer by name only:
// when a failed incarnation's name now belongs to a pod of another
// scheduler (re-created with a new uid), that pod is queued and nominated
// by us, and its later update and delete never pass our queue filter
// (responsibleForPod), so it stays. Only a key that, after a uid change,
// carried another scheduler's pod matches.
bool RecreatedForOtherScheduler(const Observation& o, const Violation& v) {
  return v.property == 9 && o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.RecreatedForOtherScheduler(k);
         });
}

// docs/UPSTREAM.md item 13: UpdatePod subtracts the caller's old object and
// ForgetPod the caller's object, not the cached one: a stale argument makes a
// NodeInfo's requested drift from the sum over its pods.
bool CallerObjectAccounting(const Observation& o, const Violation& v) {
  return v.property == 6 && (o.history.NodeAccountingDrifted(v.node) ||
                             AnyPod(v, [&](const std::string& k) {
                               return o.history.AccountingDrifted(k);
                             }));
}

// docs/UPSTREAM.md item 13, what kubernetes/kubernetes#129635 left: an
// UpdatePod whose old object names another node than the cached pod's
// removes nothing there (no NodeInfo: only logged), and addPod counts the
// new object beside the cached entry, which stays for good.
bool CallerOtherNodeCountsTwice(const Observation& o, const Violation& v) {
  return v.property == 6 && o.history.CallerNamedOtherNode(v.node);
}

// v1.25's AddPod of an assumed pod on its assumed node keeps the assumed
// object in the NodeInfo: an added object with other requests leaves
// requested at the assumed one's.
bool AssumedObjectKeptByAdd(const Observation& o, const Violation& v) {
  return v.property == 6 && o.history.AddedOverAssumed(v.node);
}

// PreEnqueue runs only when a pod enters activeQ: activate() of a pod in
// backoffQ whose object gained scheduling gates puts the QueuedPodInfo in
// unschedulablePods and returns before deleting it from backoffQ.
bool ActivateGatedInBackoff(const Observation& o, const Violation& v) {
  return v.property == 1 && AnyPod(v, [&](const std::string& k) {
           return o.history.ActivatedWhileGated(k);
         });
}

// PreEnqueue runs only when a pod enters activeQ: an update that adds
// scheduling gates to a pod already in activeQ leaves it there, and it pops.
bool GatesAddedInActiveQ(const Observation&, const Violation& v) {
  return v.property == 7 &&
         v.detail.find("is gated but was popped") != std::string::npos;
}

bool Holds(const std::vector<QueuedPod>& list, const std::string& key) {
  return std::any_of(list.begin(), list.end(),
                     [&](const QueuedPod& q) { return q.pod == key; });
}

// v1.37: moveToActiveQ neither deletes a backoffQ copy nor keeps a gated
// pod out of unschedulablePods beside a queued copy, and Update adds a pod
// of another uid beside the record it leaves (PodInfo.Update refuses it):
// a duplicate add, or an update carrying another uid, leaves the key in
// two sub-queues until a flush, a move or a pop merges them. In the
// scheduler layer the same comes through the handlers: a pod_add of a
// queued pod (hostile input) or a pod_update carrying another uid.
bool SecondCopyOnV137(const Observation& o, const Violation& v) {
  if (v.property != 1) return false;
  auto copies = [](const State& s, const std::string& k) {
    if (!s.queue) return 0;
    return static_cast<int>(Holds(s.queue->active, k)) +
           static_cast<int>(Holds(s.queue->backoff, k)) +
           static_cast<int>(Holds(s.queue->unschedulable, k));
  };
  return AnyPod(v, [&](const std::string& k) {
    const Pod* added =
        o.step.op == Op::kQAdd || o.step.op == Op::kPodAdd ? o.step.pod.get()
        : o.step.op == Op::kQUpdate || o.step.op == Op::kPodUpdate
            ? o.step.new_pod.get()
            : nullptr;
    return (added != nullptr && added->Key() == k) || copies(o.before, k) > 1;
  });
}

// v1.37: while a key is in two sub-queues (SecondCopyOnV137), activeQ's
// copy keeps an older object than the key's latest, and orders by that
// object's priority: against the latest, activeQ looks out of order.
// In the scheduler layer the same comes through the handlers (entered
// after new-uid-merged-into-old-keeps-old-order, the case of a flush's
// merge).
bool SecondCopyOrderedByOlderObject(const Observation& o, const Violation& v) {
  if (v.property != 7) return false;
  return AnyPod(v, [&](const std::string& k) {
    if (!o.before.queue) return false;
    const QueueState& q = *o.before.queue;
    return Holds(q.active, k) &&
           (Holds(q.backoff, k) || Holds(q.unschedulable, k));
  });
}

// The pod the step delivers to the queue as a new pod: q_add (queue layer)
// or pod_add (scheduler layer, addPodToSchedulingQueue), else null.
const Pod* AddedPod(const Observation& o) {
  if (o.step.op == Op::kQAdd && o.history.layer() == Layer::kQueue) {
    return o.step.pod.get();
  }
  if (o.step.op == Op::kPodAdd && o.history.layer() == Layer::kScheduler) {
    return o.step.pod.get();
  }
  return nullptr;
}

// docs/UPSTREAM.md item 49: PriorityQueue.Add of a pod already in activeQ or
// backoffQ whose new object PreEnqueue rejects (scheduling gates):
// addToActiveQ puts the new QueuedPodInfo in unschedulablePods and Add
// returns before it deletes the pod from the other sub-queues. Only that
// step: the added pod is gated in unschedulablePods after it and was, and
// still is, in activeQ or backoffQ.
// The shape that leaves, on every later step until a pop, delete or flush
// resolves it: `key` gated in unschedulablePods and in activeQ or backoffQ.
bool GatedCopyBesideQueued(const State& s, const std::string& key) {
  if (!s.queue) return false;
  const QueueState& q = *s.queue;
  return std::any_of(
             q.unschedulable.begin(), q.unschedulable.end(),
             [&](const QueuedPod& e) { return e.pod == key && e.gated; }) &&
         (Holds(q.active, key) || Holds(q.backoff, key));
}

bool GatedAddKeepsQueuedCopy(const Observation& o, const Violation& v) {
  // Later steps: the pod was added so (History::AddedGatedWhileQueued) and
  // still stands so before the step.
  if ((v.property == 1 || v.property == 10) &&
      AnyPod(v, [&](const std::string& k) {
        return o.history.AddedGatedWhileQueued(k) &&
               GatedCopyBesideQueued(o.before, k) &&
               (GatedCopyBesideQueued(o.after, k) ||
                o.history.in_flight().contains(k));
      })) {
    return true;
  }
  const Pod* pod = AddedPod(o);
  if (v.property != 1 || pod == nullptr || !o.before.queue || !o.after.queue) {
    return false;
  }
  const std::string key = pod->Key();
  if (std::find(v.pods.begin(), v.pods.end(), key) == v.pods.end()) {
    return false;
  }
  const QueueState& before = *o.before.queue;
  const QueueState& after = *o.after.queue;
  const bool gated_after =
      std::any_of(after.unschedulable.begin(), after.unschedulable.end(),
                  [&](const QueuedPod& q) { return q.pod == key && q.gated; });
  return gated_after && !pod->scheduling_gates.empty() &&
         (Holds(before.active, key) || Holds(before.backoff, key)) &&
         (Holds(after.active, key) || Holds(after.backoff, key));
}

// docs/UPSTREAM.md item 50: the unscheduled-pod handler's filter
// (!assignedPod && responsibleForPod) does not ask the cache whether the
// pod is assumed, so a second add of an assumed pod (same uid) goes
// through addPodToSchedulingQueue to PriorityQueue.Add: activeQ. Only that
// step: a pod_add of the very pod the cache holds assumed.
// An assumed pod (waiting or parked) that is also queued, the informer
// holding it unassigned: what such a requeue leaves on the steps after it.
// `same_uid`: the cache's object is the informer's pod (a duplicate add);
// else another uid (an update IsAssumedPod missed).
bool AssumedAndQueued(const Observation& o, const std::string& k,
                      bool same_uid) {
  if (!o.before.cache || !o.after.cache || !o.after.queue) return false;
  const std::vector<std::string>& before = o.before.cache->assumed;
  const std::vector<std::string>& after = o.after.cache->assumed;
  const QueueState& q = *o.after.queue;
  auto it = o.history.informer().find(k);
  const PodPtr cached = o.history.CacheObject(k);
  return std::binary_search(before.begin(), before.end(), k) &&
         std::binary_search(after.begin(), after.end(), k) &&
         (Holds(q.active, k) || Holds(q.backoff, k) ||
          Holds(q.unschedulable, k)) &&
         it != o.history.informer().end() && it->second->node_name.empty() &&
         cached != nullptr && (cached->uid == it->second->uid) == same_uid;
}

bool DuplicateAddOfAssumed(const Observation& o, const Violation& v) {
  if (v.property == 10 && o.history.layer() == Layer::kScheduler &&
      AnyPod(v, [&](const std::string& k) {
        return o.history.AddedWhileAssumed(k) &&
               AssumedAndQueued(o, k, /*same_uid=*/true);
      })) {
    return true;
  }
  if (v.property != 2 || o.step.op != Op::kPodAdd || o.step.pod == nullptr ||
      o.history.layer() != Layer::kScheduler || !o.before.cache) {
    return false;
  }
  const std::string key = o.step.pod->Key();
  const std::vector<std::string>& assumed = o.before.cache->assumed;
  const PodPtr cached = o.history.CacheObject(key);
  return std::find(v.pods.begin(), v.pods.end(), key) != v.pods.end() &&
         std::binary_search(assumed.begin(), assumed.end(), key) &&
         cached != nullptr && cached->uid == o.step.pod->uid;
}

// From v1.35 Pop discards a pod whose uid is in flight: the copy a
// duplicate add queued of an assumed pod (item 50) is dropped at the head
// of activeQ, and the pop returns the next pod, or none. From v1.37 a
// duplicate add of a queued pod leaves a second record too
// (duplicate-add-copy-beside-cycle), which a flush brings to activeQ while
// the other waits. Only a schedule_one whose activeQ held such a copy of a
// pod still assumed.
bool InFlightCopyDiscardedByPop(const Observation& o, const Violation& v) {
  if (v.property != 7 || o.step.op != Op::kScheduleOne ||
      o.history.layer() != Layer::kScheduler || !o.before.queue ||
      !o.before.cache) {
    return false;
  }
  const std::vector<std::string>& assumed = o.before.cache->assumed;
  return std::any_of(o.before.queue->active.begin(),
                     o.before.queue->active.end(), [&](const QueuedPod& q) {
                       return (o.history.AddedWhileAssumed(q.pod) ||
                               o.history.AddedWhileQueued(q.pod)) &&
                              std::binary_search(assumed.begin(), assumed.end(),
                                                 q.pod);
                     });
}

// docs/UPSTREAM.md item 51: the nominator is keyed by uid
// (nominator.delete looks up nominatedPodToNode[pod.UID]) and the queue by
// name: a delete carrying another uid than the pod the nominator holds takes
// the pod out of the queue and leaves its nomination for good. Only a key no
// longer in the informer that such a delete hit while it was nominated
// (History::DeletedOtherUidWhileNominated).
bool DeleteOfOtherUidKeepsNomination(const Observation& o, const Violation& v) {
  return v.property == 9 && o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.DeletedOtherUidWhileNominated(k) &&
                  !o.history.informer().contains(k);
         });
}

// Before v1.31 AssignedPodUpdated moves only the pods with a required
// affinity term the updated assigned pod matches (getUnschedulablePods
// WithMatchingAffinityTerm): an assigned pod's update that frees room (a
// scale-down) wakes no pod NodeResourcesFit rejected.
bool AssignedPodUpdateWakesNoOne(const Observation& o, const Violation& v) {
  return v.property == 11 && o.step.op == Op::kPodUpdate &&
         o.step.old_pod != nullptr && o.step.new_pod != nullptr &&
         !o.step.old_pod->node_name.empty() &&
         !o.step.new_pod->node_name.empty();
}

// Property 11's facts about the violation's pod (null when it has none).
const History::Woken* WokenOf(const Observation& o, const Violation& v) {
  if (v.property != 11 || v.pods.empty()) return nullptr;
  auto it = o.history.woken_but_stayed().find(v.pods[0]);
  return it == o.history.woken_but_stayed().end() ? nullptr : &it->second;
}

// Before QueueingHints, preCheckForNode skips a pod a node event helps
// when the pod does not fit that node for another reason, and the pod's
// rejector plugins stay those of its last attempt: once another filter
// blocks it there, an event that helps with that filter is not one its
// rejectors registered.
bool PrecheckHidesAChangedRejector(const Observation& o, const Violation& v) {
  const History::Woken* w = WokenOf(o, v);
  if (w == nullptr || w->blocked_by.empty() || w->by_nominations) return false;
  return std::find(w->plugins.begin(), w->plugins.end(), w->blocked_by) ==
         w->plugins.end();
}

// Before v1.35 a nominated pod's nomination that an update moves or clears,
// or its deletion, wakes no pod its reservation kept out
// (updatePodInSchedulingQueue and deletePodFromSchedulingQueue move pods
// for it from v1.35, KEP-5278).
bool NominationChangeWakesNoOne(const Observation& o, const Violation& v) {
  const History::Woken* w = WokenOf(o, v);
  return w != nullptr && w->by_nominations &&
         (o.step.op == Op::kPodUpdate || o.step.op == Op::kPodDelete);
}

// The informer delivers a pod bound to another node than the one the
// cache assumed it on (an external binding): the room the assumed pod held
// is freed and no event says so (deletePodFromSchedulingQueue's inBinding
// case, kubernetes/kubernetes#134859).
bool AssumedPodBoundElsewhere(const Observation& o, const Violation& v) {
  if (WokenOf(o, v) == nullptr || !o.before.cache) return false;
  PodPtr pod = o.step.op == Op::kPodAdd      ? o.step.pod
               : o.step.op == Op::kPodUpdate ? o.step.new_pod
                                             : nullptr;
  if (pod == nullptr || pod->node_name.empty()) return false;
  const CacheState& c = *o.before.cache;
  if (std::find(c.assumed.begin(), c.assumed.end(), pod->Key()) ==
      c.assumed.end()) {
    return false;
  }
  return std::any_of(c.nodes.begin(), c.nodes.end(), [&](const auto& n) {
    return n.name != pod->node_name &&
           std::find(n.pods.begin(), n.pods.end(), pod->Key()) != n.pods.end();
  });
}

// From v1.35 deletePod's DeletedFinalStateUnknown branch hands
// deleteAssignedPodFromCache the tombstone's object: when that object is a
// stale unassigned one (the informer missed the binding, or the pod was
// still assumed), RemovePod frees the room the cache held for the pod, and
// the AssignedPodDelete event carries the stale object, for which
// NodeResourcesFit's isSchedulableAfterPodEvent answers QueueSkip (no
// nodeName, no nominatedNodeName).
bool StaleTombstoneWakesNoOne(const Observation& o, const Violation& v) {
  if (WokenOf(o, v) == nullptr || o.step.op != Op::kPodDelete ||
      !o.step.tombstone || !o.step.pod->node_name.empty() || !o.before.cache) {
    return false;
  }
  const std::string key = o.step.pod->Key();
  return std::any_of(o.before.cache->nodes.begin(), o.before.cache->nodes.end(),
                     [&key](const auto& n) {
                       return std::find(n.pods.begin(), n.pods.end(), key) !=
                              n.pods.end();
                     });
}

}  // namespace

// Versions, for the table below.
const std::vector<std::string_view> kEveryVersion = {"v1.25.12", "v1.26.7",
                                                     "v1.30.12"};
// Scheduling gates exist from v1.26 (v1.25.12 gates nothing).
const std::vector<std::string_view> kWithGates = {"v1.26.7", "v1.30.12"};
// Every known version.
const std::vector<std::string_view> kAllVersions = {
    "v1.25.12", "v1.26.7", "v1.30.12", "v1.35.4", "v1.36.3", "v1.37.2"};
// Before v1.37 (whose nominator no longer keeps the entry).
const std::vector<std::string_view> kBeforeV137 = {
    "v1.25.12", "v1.26.7", "v1.30.12", "v1.35.4", "v1.36.3"};
// Before kubernetes/kubernetes#138324 (v1.36): the failure handler requeues
// the informer's pod of the same name whatever its uid.
const std::vector<std::string_view> kBeforeV136 = {"v1.25.12", "v1.26.7",
                                                   "v1.30.12", "v1.35.4"};
const std::vector<std::string_view> kV135 = {"v1.35.4"};
const std::vector<std::string_view> kV136 = {"v1.36.3"};
const std::vector<std::string_view> kFromV136 = {"v1.36.3", "v1.37.2"};
const std::vector<std::string_view> kV137 = {"v1.37.2"};
// The backend/queue versions (in-flight pods tracked by uid).
const std::vector<std::string_view> kFromV135 = {"v1.35.4", "v1.36.3",
                                                 "v1.37.2"};
// Every version with scheduling gates (from v1.26).
const std::vector<std::string_view> kEveryGatedVersion = {
    "v1.26.7", "v1.30.12", "v1.35.4", "v1.36.3", "v1.37.2"};
// Gates, but not v1.35 and v1.36, whose moveToActiveQ leaves a gated pod
// where its copy in activeQ or backoffQ is.
const std::vector<std::string_view> kWithGatesButV135V136 = {
    "v1.26.7", "v1.30.12", "v1.37.2"};
// Before kubernetes/kubernetes#110279.
const std::vector<std::string_view> kV125 = {"v1.25.12"};
// Before kubernetes/kubernetes#129635 (v1.33): NodeInfo.RemovePod subtracts
// the object it is given. From then on, only an old object naming another
// node still leaves a stale entry (kStoredRequestsRemoval).
const std::vector<std::string_view> kCallerObjectRemoval = {
    "v1.25.12", "v1.26.7", "v1.30.12"};
const std::vector<std::string_view> kStoredRequestsRemoval = {
    "v1.35.4", "v1.36.3", "v1.37.2"};
// The one pod handler of kubernetes/kubernetes#134157 (v1.35 on).
const std::vector<std::string_view> kUnifiedPodHandler = {"v1.35.4", "v1.36.3",
                                                          "v1.37.2"};

// Over 80 lines: one table with an entry of a few lines per known
// violation, kept whole so the registry reads in one place.
const std::vector<KnownViolation>& KnownViolations() {
  static const std::vector<KnownViolation> kAll = {
      {"in-flight-update-requeues", 10, "kubernetes/kubernetes#118226",
       "golden/upstream-v1.26.7/queue/add-unschedulable-if-not-present.jsonl",
       "an update of a pod between Pop and AddUnschedulableIfNotPresent adds "
       "a second copy to activeQ (fixed in 1.31 behind QueueingHints)",
       &InFlightCopy, kEveryVersion},
      {"assigned-pod-update-wakes-no-one", 11,
       "kubernetes/kubernetes#110175 (fixed in v1.31 by "
       "kubernetes/kubernetes#122628)",
       "golden/handwritten/scheduler/assigned-pod-update-no-move.jsonl",
       "an assigned pod's update that frees room on its node (a "
       "scale-down) moves only the pods with an affinity term it matches "
       "(AssignedPodUpdated), so a pod NodeResourcesFit rejected stays in "
       "unschedulablePods until another event or the leftover flush",
       &AssignedPodUpdateWakesNoOne, kEveryVersion},
      {"precheck-hides-a-changed-rejector", 11,
       "kubernetes/kubernetes#109437 (gone with QueueingHints, which drop "
       "preCheckForNode)",
       "golden/regression/upstream/scheduler/"
       "precheck-hides-a-changed-rejector.jsonl",
       "a node event skips a pod that fits the node by its rejector plugins "
       "but not by another filter (preCheckForNode); the pod keeps the "
       "rejectors of its last attempt, so a later event that lifts the "
       "other filter is not one they registered, and it waits for the "
       "leftover flush",
       &PrecheckHidesAChangedRejector, kEveryVersion},
      {"nomination-change-wakes-no-one", 11,
       "KEP-5278 (fixed in v1.35: hasNominatedNodeNameChanged)",
       "golden/regression/upstream/scheduler/"
       "nomination-change-wakes-no-one.jsonl",
       "an update that moves or clears a pod's nominated node, or the "
       "nominated pod's deletion, frees the room it reserved and moves no "
       "pod",
       &NominationChangeWakesNoOne, kEveryVersion},
      {"assumed-pod-bound-elsewhere", 11, "kubernetes/kubernetes#134859",
       "golden/regression/upstream/scheduler/"
       "assumed-pod-bound-elsewhere.jsonl",
       "the informer delivers an assumed pod bound to another node than it "
       "was assumed on: the cache frees the room on the assumed node, and "
       "no event wakes the pods it kept out",
       &AssumedPodBoundElsewhere, kAllVersions},
      {"stale-tombstone-wakes-no-one", 11,
       "deletePod's DeletedFinalStateUnknown branch (eventhandlers.go, "
       "v1.35+; docs/UPSTREAM.md)",
       "golden/regression/upstream/scheduler/"
       "stale-tombstone-wakes-no-one.jsonl",
       "a delete delivered as a tombstone carrying a stale unassigned object "
       "of a pod the cache held (assumed or bound) frees the room the pod "
       "held, but the AssignedPodDelete event carries that object and "
       "NodeResourcesFit's hint answers QueueSkip for it",
       &StaleTombstoneWakesNoOne, kFromV135},
      {"in-flight-add-queues-copy", 10,
       "PriorityQueue.Add / addPod (backend/queue, v1.35+)",
       "golden/regression/upstream/queue/"
       "add-of-in-flight-pod-queues-copy.jsonl",
       "an add of a pod in flight (a duplicate add), or an update carrying "
       "another uid, queues a copy while the popped pod is being scheduled; "
       "Pop discards that copy while the uid is in flight",
       &InFlightAddCopy, kFromV135},
      {"nil-old-update-duplicates", 1, "docs/UPSTREAM.md item 3",
       "golden/upstream-v1.26.7/queue/update-nil-old-in-activeq.jsonl",
       "Update(nil, p) of a pod in backoffQ adds it to activeQ as well",
       &NilOldUpdateCopy, kEveryVersion},
      {"recreated-uid-second-pod", 0, "kubernetes/kubernetes#141255 class",
       "golden/upstream-v1.26.7/scheduler/random-47.jsonl",
       "an update carrying a new uid is a new pod to the cache but the same "
       "key to the queue: it is queued while the old uid waits or binds",
       &RecreatedUid, kEveryVersion},
      {"recreated-uid-phantom-nomination", 9,
       "kubernetes/kubernetes#141255 class (docs/UPSTREAM.md item 27)",
       "golden/regression/upstream/scheduler/"
       "pr141255-recreated-uid-while-nominated.jsonl",
       "an update giving a nominated pod in unschedulablePods a new uid "
       "leaves its nominator entry behind for good: it outlives the pod's "
       "binding and deletion and keeps reserving the node",
       &RecreatedUidPhantomNomination, kEveryVersion},
      {"recreated-uid-waiting-pod-survives", 4,
       "kubernetes/kubernetes#141255 class (docs/UPSTREAM.md item 28)",
       "golden/regression/upstream/scheduler/"
       "pr141255-recreated-uid-while-waiting.jsonl",
       "a pod waiting on Permit whose re-creation arrives as one update "
       "with a new uid is not rejected when the new uid is deleted: "
       "RejectWaitingPod looks for the new uid, the old one keeps waiting "
       "and binds",
       &RecreatedUidWaitingPod, kAllVersions},
      {"recreated-other-scheduler-stays-queued", 9,
       "handleSchedulingFailure's informer lookup by name (schedule_one.go)",
       "golden/regression/upstream/scheduler/"
       "recreated-other-scheduler-stays-queued.jsonl",
       "a failed binding cycle re-queues and nominates the informer's pod of "
       "the same name even when it was re-created for another scheduler; "
       "its delete never passes our queue filter, so it stays queued and "
       "nominated after it is gone",
       &RecreatedForOtherScheduler, kBeforeV136},
      {"caller-object-accounting", 6, "docs/UPSTREAM.md item 13",
       "golden/handwritten/cache/caller-object-accounting.jsonl",
       "UpdatePod and ForgetPod subtract the caller's object, not the cached "
       "one: a stale argument makes requested drift (fixed in v1.33 by "
       "kubernetes/kubernetes#129635)",
       &CallerObjectAccounting, kCallerObjectRemoval},
      {"update-old-on-other-node-counts-twice", 6,
       "docs/UPSTREAM.md item 13 (after kubernetes/kubernetes#129635)",
       "golden/regression/upstream/cache/"
       "update-old-on-other-node-counts-twice.jsonl",
       "UpdatePod with an old object naming a node with no NodeInfo removes "
       "nothing and adds the new object beside the cached one: the pod is "
       "counted twice on its node, the stale entry with its old requests "
       "(hostile input; earlier versions: caller-object-accounting)",
       &CallerOtherNodeCountsTwice, kStoredRequestsRemoval},
      {"add-keeps-assumed-object", 6, "kubernetes/kubernetes#110279",
       "golden/handwritten/v1.25.12/cache/add-keeps-assumed-object.jsonl",
       "AddPod of an assumed pod on the node it was assumed on only forgets "
       "the assumption: the NodeInfo keeps the assumed object, so an added "
       "object with other requests leaves requested at the assumed one's "
       "(fixed in v1.26)",
       &AssumedObjectKeptByAdd, kV125},
      {"activate-gated-pod-in-backoffq", 1,
       "PreEnqueue only on entry to activeQ (PriorityQueue.activate)",
       "golden/handwritten/queue/activate-gated-pod-in-backoffq.jsonl",
       "Activate of a pod in backoffQ whose object gained scheduling gates "
       "leaves it in backoffQ and unschedulablePods at once",
       &ActivateGatedInBackoff, kWithGates},
      {"gates-added-in-activeq", 7,
       "PreEnqueue only on entry to activeQ (PriorityQueue.Update)",
       "golden/handwritten/queue/gates-added-in-activeq-and-backoffq.jsonl",
       "an update adding scheduling gates to a pod in activeQ leaves it "
       "there, and it is popped with its gates",
       &GatesAddedInActiveQ, kEveryGatedVersion},
      {"gated-add-keeps-queued-copy", 0,
       "PriorityQueue.Add / addToActiveQ (scheduling_queue.go), "
       "docs/UPSTREAM.md "
       "item 49",
       "golden/regression/upstream/queue/gated-add-keeps-queued-copy.jsonl",
       "an add of a pod already in activeQ or backoffQ whose new object is "
       "gated puts it in unschedulablePods and returns before removing the "
       "other copy: the pod is in two queues (hostile input)",
       &GatedAddKeepsQueuedCopy, kWithGatesButV135V136},
      {"second-copy-on-v137", 1,
       "PriorityQueue.addPod / moveToActiveQ / Update (backend/queue, v1.37)",
       "golden/regression/upstream/queue/add-beside-backoff-copy.jsonl",
       "an add of a pod already queued (a duplicate add: q_add, or pod_add "
       "in the scheduler layer), or an update carrying another uid, leaves "
       "the key in two sub-queues (a backoffQ "
       "copy beside activeQ's, a gated copy beside a queued one) until a "
       "flush, a move or a pop merges them",
       &SecondCopyOnV137, kV137},
      {"duplicate-add-requeues-assumed", 0,
       "addPodToSchedulingQueue (eventhandlers.go), docs/UPSTREAM.md item 50",
       "golden/regression/upstream/scheduler/"
       "duplicate-add-requeues-assumed.jsonl",
       "a second add of an assumed pod passes the unscheduled-pod filter, "
       "which does not ask the cache, and PriorityQueue.Add queues it while "
       "it is assumed (hostile input)",
       &DuplicateAddOfAssumed, kAllVersions},
      {"in-flight-copy-discarded-by-pop", 7,
       "PriorityQueue.Pop's in-flight check (backend/queue, v1.35+), "
       "docs/UPSTREAM.md item 50",
       "golden/regression/upstream/scheduler/"
       "in-flight-copy-discarded-by-pop.jsonl",
       "the copy a duplicate add queued of a pod waiting on Permit is at the "
       "head of activeQ, but Pop discards a pod whose uid is in flight: it "
       "returns the next pod, or none (hostile input)",
       &InFlightCopyDiscardedByPop, kFromV135},
      {"delete-other-uid-keeps-nomination", 9,
       "nominator.delete by uid (scheduling_queue.go), docs/UPSTREAM.md item "
       "51",
       "golden/regression/upstream/scheduler/"
       "delete-other-uid-keeps-nomination.jsonl",
       "a delete carrying another uid than the nominated pod's removes the "
       "pod from the queue (by name) but not its nomination (by uid), which "
       "stays after the pod is gone (hostile input)",
       &DeleteOfOtherUidKeepsNomination, kBeforeV137},
      {"delete-of-unassumed-waiting-pod-keeps-it-waiting", 4,
       "handleAssumedPodDeletion (eventhandlers.go, "
       "kubernetes/kubernetes#134157)",
       "golden/upstream-v1.37.2/scheduler/tombstone-deletes.jsonl",
       "a waiting pod's delete rejects it only when the queue's handler finds "
       "it assumed: a tombstone (the cache cleanup runs first), an assigned "
       "object or a pod the cache no longer holds assumed leaves it waiting",
       &DeletedWaitingNotAssumed, kUnifiedPodHandler},
      {"binding-pod-forgotten-then-queued", 10,
       "handleAssumedPodDeletion, updatePodInSchedulingQueue "
       "(eventhandlers.go, kubernetes/kubernetes#134157)",
       "golden/regression/upstream/scheduler/"
       "deleting-parked-pod-requeued-by-update.jsonl",
       "a pod whose deletion starts (or that is deleted) while waiting on "
       "Permit or parked before binding is forgotten by the cache while its "
       "binding cycle goes on; a later update (or a pod re-created under its "
       "name) is no longer an assumed pod's and is queued beside the binding",
       &QueuedBesideUnassumedBinding, kUnifiedPodHandler},
      {"scheduler-name-handover-not-queued", 5,
       "updatePod's responsibleForPod(oldPod) (eventhandlers.go, "
       "kubernetes/kubernetes#134157)",
       "golden/upstream-v1.37.2/handwritten/scheduler/"
       "scheduler-name-handover.jsonl",
       "an update moving an unassigned pod from another scheduler to ours "
       "(schedulerName is immutable in the API: hostile input) neither adds "
       "nor updates it: it reaches no queue",
       &HandedOverByName, kUnifiedPodHandler},
      {"recreated-other-scheduler-stays-queued-when-bound", 3,
       "updatePod's responsibleForPod(oldPod) (eventhandlers.go, "
       "kubernetes/kubernetes#134157)",
       "golden/regression/upstream/scheduler/"
       "recreated-other-scheduler-stays-queued-when-bound.jsonl",
       "a queued pod re-created for another scheduler, seen as one update "
       "with a new uid, is updated in our queue; the binding by the other "
       "scheduler is routed by the old object's schedulerName and never "
       "removes it: the bound pod stays queued",
       &RecreatedForOtherSchedulerStaysQueued, kUnifiedPodHandler},
      {"failure-requeues-assumed-recreated-pod", 0,
       "handleSchedulingFailure's informer lookup by name (schedule_one.go)",
       "golden/regression/upstream/scheduler/"
       "failure-requeues-assumed-recreated-pod.jsonl",
       "a pod re-created under a parked pod's name (a new uid) is scheduled "
       "and assumed; the old incarnation's PreBind failure re-reads the "
       "informer by name and queues the new, assumed pod beside its binding "
       "cycle (fixed in v1.36 by "
       "kubernetes/kubernetes#138324; earlier versions count it as "
       "recreated-uid-second-pod)",
       &FailureRequeuesAssumedRecreated, kV135},
      {"recreated-uid-failed-beside-waiting", 0,
       "updatePodInSchedulingQueue's IsAssumedPod, handleSchedulingFailure "
       "(v1.36+)",
       "golden/regression/upstream/scheduler/"
       "recreated-uid-failed-beside-waiting.jsonl",
       "an update giving a pod waiting on Permit a new uid queues the new "
       "uid; its failed cycle queues it again (the informer holds that uid) "
       "while the old uid still waits on Permit (or, when the new uid waits "
       "too and its deletion starts, while it is assumed itself)",
       &RecreatedUidFailedBesideWaiting, kFromV136},
      {"recreated-other-scheduler-waiting-stays-nominated", 9,
       "PodInfo.Update, handleSchedulingFailure (v1.36)",
       "golden/regression/upstream/scheduler/"
       "recreated-other-scheduler-waiting-stays-nominated.jsonl",
       "an update giving a pod waiting on Permit a new uid for another "
       "scheduler rejects it with the new object in its PodInfo: the failure "
       "handler finds that uid in the informer, queues the other scheduler's "
       "pod and nominates it to \"\"; its delete never passes our queue "
       "filter, so it stays nominated after it is gone",
       &RecreatedForOtherSchedulerWhileWaiting, kV136},
      {"recreated-uid-nomination-outlives-delete", 9,
       "nominator.deleteUnlocked by uid (backend/queue/nominator.go, v1.37)",
       "golden/regression/upstream/scheduler/"
       "recreated-uid-nominated-in-activeq-v1.37.2.jsonl",
       "an update giving a queued, nominated pod a new uid leaves the old "
       "uid's nomination; the delete of the new uid removes the pod from the "
       "queue but looks the nominator up by the new uid: the old entry stays "
       "after the pod is gone",
       &RecreatedUidNominationOutlivesDelete, kV137},
      {"new-uid-merged-into-old-is-lost", 5,
       "moveToActiveQ merge, handleSchedulingFailure (v1.37)",
       "golden/regression/upstream/scheduler/"
       "new-uid-in-backoff-lost.jsonl",
       "an update giving a pod in backoffQ a new uid queues the new pod in "
       "activeQ beside the old one; the flush merges them into the old "
       "object, whose failure is skipped as re-created: the new pod reaches "
       "no queue again",
       &KeyGotNewUidWhileQueued, kV137},
      {"new-uid-merged-into-old-requeued-while-assumed", 2,
       "moveToActiveQ merge, updatePodInSchedulingQueue's IsAssumedPod "
       "(v1.37)",
       "golden/regression/upstream/scheduler/"
       "new-uid-merged-into-old-requeued-while-assumed.jsonl",
       "an update giving a pod in backoffQ a new uid queues the new pod "
       "beside the old record; the flush merges them into the old object, "
       "which is scheduled and assumed under the old uid; a later update of "
       "the new uid is no assumed pod's and is queued while the key is "
       "assumed",
       &NewUidMergedIntoOldRequeued, kV137},
      {"new-uid-merged-into-old-keeps-old-order", 7,
       "moveToActiveQ merge (backend/queue, v1.37)",
       "golden/regression/upstream/scheduler/"
       "new-uid-merged-into-old-keeps-old-order.jsonl",
       "an update giving a pod in backoffQ a new uid queues the new pod "
       "beside the old record; later updates (a lower priority) go to the "
       "new copy, and the flush merges them into the old object: activeQ "
       "orders the pod by its old priority",
       &KeyGotNewUidWhileQueued, kV137},
      {"second-copy-ordered-by-older-object", 7,
       "PriorityQueue.Update / PodInfo.Update (backend/queue, v1.37)",
       "golden/regression/upstream/queue/"
       "second-copy-ordered-by-older-object.jsonl",
       "while a key is in two sub-queues (second-copy-on-v137), activeQ's "
       "copy keeps an older object and is ordered by its priority, not the "
       "latest object's",
       &SecondCopyOrderedByOlderObject, kV137},
      {"new-uid-old-record-outlives-binding", 3,
       "PriorityQueue.Update / Delete (backend/queue, v1.37)",
       "golden/regression/upstream/scheduler/"
       "new-uid-in-backoff-outlives-binding.jsonl",
       "an update giving a pod in backoffQ a new uid queues the new pod in "
       "activeQ beside the old record; the binding's queue delete removes "
       "the new one and leaves the old record: the bound pod stays in "
       "backoffQ",
       &KeyGotNewUidWhileQueued, kV137},
      {"new-uid-old-record-keeps-nomination", 9,
       "PriorityQueue.Update / Delete, nominator (backend/queue, v1.37)",
       "golden/regression/upstream/scheduler/"
       "new-uid-old-record-keeps-nomination.jsonl",
       "an update giving a queued, nominated pod a new uid leaves the old "
       "record beside the new pod; the binding's queue delete removes the "
       "new one, and the old record keeps its nomination for a bound key",
       &KeyGotNewUidWhileQueued, kV137},
      {"new-uid-old-record-beside-cycle", 10,
       "PriorityQueue.Update / Pop (backend/queue, v1.37)",
       "golden/regression/upstream/scheduler/"
       "new-uid-in-backoff-queued-beside-cycle.jsonl",
       "an update giving a pod in backoffQ a new uid queues the new pod in "
       "activeQ beside the old record; the new pod is popped and waits or "
       "binds while the old record stays in backoffQ",
       &KeyGotNewUidWhileQueued, kV137},
      {"duplicate-add-copy-outlives-binding", 3,
       "PriorityQueue.addPod / Delete (backend/queue, v1.37)",
       "golden/regression/upstream/scheduler/"
       "duplicate-add-copy-outlives-binding.jsonl",
       "a second add of a pod in backoffQ queues it in activeQ beside the "
       "backoffQ record; the binding's queue delete removes one record and "
       "the bound pod stays queued (hostile input)",
       &KeyAddedAgainWhileQueued, kV137},
      {"duplicate-add-merged-keeps-old-order", 7,
       "moveToActiveQ merge (backend/queue, v1.37)",
       "golden/regression/upstream/scheduler/"
       "duplicate-add-merged-keeps-old-order.jsonl",
       "a second add of a pod in backoffQ queues it in activeQ beside the "
       "backoffQ record; a later update (a lower priority) goes to the "
       "activeQ record, and the flush merges the two into the older object: "
       "activeQ orders the pod by its old priority (hostile input)",
       &KeyAddedAgainWhileQueued, kV137},
      {"duplicate-add-copy-beside-cycle", 10,
       "PriorityQueue.addPod / Pop (backend/queue, v1.37)",
       "golden/regression/upstream/scheduler/"
       "duplicate-add-copy-beside-cycle.jsonl",
       "a second add of a pod in backoffQ queues it in activeQ beside the "
       "backoffQ record; the activeQ record is popped and waits on Permit "
       "while the other stays in backoffQ (hostile input)",
       &KeyAddedAgainWhileQueued, kV137},
  };
  return kAll;
}

bool KnownViolation::CommittedBy(std::string_view version) const {
  return std::find(versions.begin(), versions.end(), version) != versions.end();
}

const KnownViolation* Classify(const Observation& o, const Violation& v,
                               std::string_view version) {
  for (const KnownViolation& k : KnownViolations()) {
    if ((k.property == 0 || k.property == v.property) &&
        k.CommittedBy(version) && k.matches(o, v)) {
      return &k;
    }
  }
  return nullptr;
}

}  // namespace schedtrace::properties
