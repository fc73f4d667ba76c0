// What the steps of a trace have told so far, for the properties that need
// more than one snapshot: the informer's view of pods, the objects the cache
// was given, the pods in flight, the pods deleted while waiting on Permit.
//
// A History is fed every step after it was applied (`Observe`), so a property
// evaluated on a step sees the history including that step. Given the state
// after the step too, it follows (queue layer) which object each queue entry
// holds, as upstream's QueuedPodInfo does: `QueuedObject`.
//
//   History h(trace.header);
//   for (const Step& step : trace.steps) {
//     ...apply...;
//     h.Observe(before, step, out, &after);
//   }
#ifndef SCHEDTRACE_PROPERTIES_HISTORY_H_
#define SCHEDTRACE_PROPERTIES_HISTORY_H_

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "absl/container/node_hash_map.h"
#include "core/objects.h"
#include "core/state.h"
#include "core/trace.h"
#include "model/upstream.h"
#include "properties/schedulable.h"

namespace schedtrace::properties {

// Whether `s` shows `key` in its queue's `list` (false without a queue).
bool InQueueList(const State* s, std::vector<QueuedPod> QueueState::*list,
                 const std::string& key);
// Whether `s` shows `key` in activeQ, backoffQ or unschedulablePods.
bool InAnyQueueList(const State* s, const std::string& key);
// The entry of `key` in `list`, one of the queue's lists kept sorted by
// key (backoffQ, unschedulablePods); null when absent.
const QueuedPod* FindQueued(const std::vector<QueuedPod>& list,
                            const std::string& key);

class History {
 public:
  // Keeps a copy of `header`.
  explicit History(const TraceHeader& header);
  // Refers to `*header`, which must outlive the history.
  explicit History(const TraceHeader* header);

  // Records `step` (already applied, with its `out`; `before` is the state
  // the step started from, `after` the one it left, or null when unknown:
  // then moves between sub-queues are not followed).
  void Observe(const State& before, const Step& step, const StepOut& out,
               const State* after = nullptr);

  // Where a queue-layer entry of a key stands.
  enum class Slot { kActive, kBackoff, kUnschedulable, kInFlight };
  // Queue layer: the object the entry of `key` in `slot` holds — what its
  // QueuedPodInfo's Pod is upstream (the priority it is ordered by, the
  // gates PreEnqueue saw). q_nominate's pod and q_activate's stubs never
  // reach an entry; Update(nil, p) of a pod in backoffQ leaves the backoffQ
  // entry's object stale, and the backoff flush brings it back to activeQ;
  // an update of an in-flight pod leaves the popped entry's object stale.
  // Scheduler layer: the object the scheduling queue was last given for
  // `key` through the unscheduled-pod handler (its filter, the
  // resourceVersion and IsAssumedPod checks of updatePodInSchedulingQueue
  // drop updates the informer still stores) or by handleSchedulingFailure
  // (the informer's object, also when an informer step's delete path
  // rejected the pod waiting on Permit); kInFlight: the object the last
  // schedule_one popped. Falls back to `Latest(key)` where no entry was
  // followed.
  PodPtr QueuedObject(const std::string& key, Slot slot) const;

  const TraceHeader& header() const { return *header_; }
  Layer layer() const { return header_->layer; }
  int64_t now() const { return now_; }

  // Scheduler layer: the pods the informer holds. Queue layer: the pods the
  // nominator's lister holds (`nominatorPodLister: "queue-ops"`).
  const std::map<std::string, PodPtr>& informer() const { return informer_; }
  // The latest object any step carried, per key.
  PodPtr Latest(const std::string& key) const;
  // The object the cache was last given for `key` (what its requests count).
  PodPtr CacheObject(const std::string& key) const;
  // What a NodeInfo counts for that object: PodRequests without "pods"
  // (computed once per object given), or null.
  const Resources* CacheRequests(const std::string& key) const;
  // Keys under which the cache was given pods of more than one uid: their
  // accounting cannot be checked by key.
  bool AmbiguousInCache(const std::string& key) const {
    return ambiguous_in_cache_.contains(key);
  }
  // Scheduler layer: whether the cache's object for `key` and the
  // informer's are different pods (uids): a pod deleted while its old
  // incarnation stays assumed (docs/UPSTREAM.md item 20) and created again.
  // When the informer no longer holds the key, the queue's object counts.
  // State is keyed by name, so properties about "the same pod" skip such keys.
  bool DifferentPodsUnderKey(const std::string& key) const;
  // Queue layer: popped and not yet given back (q_add_unschedulable) or
  // deleted.
  const std::set<std::string>& in_flight() const { return in_flight_; }
  // Queue layer: keys popped and not yet given back by q_add_unschedulable,
  // a delete notwithstanding (from v1.35 the queue's in-flight list keeps a
  // deleted pod until its failure comes back).
  const std::set<std::string>& popped_not_returned() const {
    return popped_not_returned_;
  }
  // Scheduler layer: deleted while waiting on Permit, not created again
  // (and no other pod of the key parked before its bind then).
  const std::set<std::string>& deleted_while_waiting() const {
    return deleted_while_waiting_;
  }
  // Keys under which steps carried pods of more than one uid (a pod deleted
  // and created again, possibly seen as one update: the
  // kubernetes/kubernetes#141255 class).
  bool UidChanged(const std::string& key) const {
    return uid_changed_.contains(key);
  }
  // Keys updated to a new uid while nominated (docs/UPSTREAM.md item 27): the
  // nominator's entry is the PodInfo the update mutated, and stays.
  // Keys that, after a uid change, carried a pod of a scheduler the trace's
  // profiles do not serve (a name re-used by another scheduler's pod).
  bool RecreatedForOtherScheduler(const std::string& key) const {
    return recreated_other_scheduler_.contains(key);
  }
  bool UidChangedWhileNominated(const std::string& key) const {
    return uid_changed_nominated_.contains(key);
  }
  // Scheduler layer: keys updated (pod_update) to a new uid while queued.
  bool UidChangedWhileQueued(const std::string& key) const {
    return uid_changed_queued_.contains(key);
  }
  // Scheduler layer: keys added (pod_add) again while queued.
  bool AddedWhileQueued(const std::string& key) const {
    return added_while_queued_.contains(key);
  }
  // Scheduler layer, from v1.37: keys the queue held two records of (an
  // update to a new uid, or a second add, while queued): either may be
  // popped and assumed with the object it keeps, so what the cache counts
  // for the key is not known by key.
  bool SecondRecordMayPop(const std::string& key) const {
    return up_.move_to_active_leaves_other_queues &&
           (UidChangedWhileQueued(key) || AddedWhileQueued(key));
  }
  // Queue layer: keys ever updated with a null old object (docs/UPSTREAM.md
  // item 3).
  bool UpdatedWithNilOld(const std::string& key) const {
    return nil_old_updates_.contains(key);
  }
  // Scheduler layer: keys deleted while waiting on Permit under a uid other
  // than the one last assumed under that key: the waiting pod is an older
  // incarnation the informer saw replaced by one update (docs/UPSTREAM.md item
  // 28), so the delete's RejectWaitingPod(uid) misses it.
  bool DeletedOtherUidWhileWaiting(const std::string& key) const {
    return deleted_other_uid_while_waiting_.contains(key);
  }
  // Scheduler layer: keys deleted while waiting on Permit by a delivery
  // that, from v1.35, reaches no RejectWaitingPod: a tombstone (its cache
  // cleanup removes the assumed pod first), an assigned object (the cache's
  // handler only), or a pod the cache no longer held assumed
  // (handleAssumedPodDeletion is only for assumed pods).
  bool DeletedWaitingNotAssumed(const std::string& key) const {
    return deleted_waiting_not_assumed_.contains(key);
  }
  // Scheduler layer: keys an update moved, unassigned, from a scheduler name
  // no profile serves to one a profile serves (spec.schedulerName is
  // immutable in the API): from v1.35 updatePod asks responsibleForPod of
  // the old object only, and the pod reaches no queue.
  bool HandedOverByName(const std::string& key) const {
    return handed_over_by_name_.contains(key);
  }
  // Keys whose cached requests the cache computed from an object the caller
  // passed rather than the one it holds (UpdatePod's old object, ForgetPod's
  // object: docs/UPSTREAM.md item 13): its accounting may drift, as upstream's
  // does.
  bool AccountingDrifted(const std::string& key) const {
    return drifted_.contains(key);
  }
  // Nodes whose requested such a caller object changed.
  bool NodeAccountingDrifted(const std::string& node) const {
    return drifted_nodes_.contains(node);
  }
  // Nodes holding a pod that a caller object naming another node updated:
  // updatePod's removePod looks on that other node, so the cached entry
  // stays beside the new one (docs/UPSTREAM.md item 13), in every version.
  bool CallerNamedOtherNode(const std::string& node) const {
    return caller_named_other_node_.contains(node);
  }
  // Nodes where an add (c_add_pod, or the informer's add of a bound pod)
  // confirmed an assumed pod on the node it was assumed on with an object
  // whose requests differ from the assumed one's: v1.25's AddPod keeps the
  // assumed object in the NodeInfo (kubernetes/kubernetes#110279 changed
  // that), so its requested is the assumed object's.
  bool AddedOverAssumed(const std::string& node) const {
    return added_over_assumed_.contains(node);
  }
  // Hostile input, each recorded on the step that did it:
  // Queue layer (q_add) and scheduler layer (pod_add): keys added with
  // scheduling gates while in activeQ or backoffQ (docs/UPSTREAM.md item 49).
  bool AddedGatedWhileQueued(const std::string& key) const {
    return added_gated_while_queued_.contains(key);
  }
  // Scheduler layer: keys added (pod_add of the unscheduled pod) while the
  // cache held that very pod (uid) assumed (docs/UPSTREAM.md item 50).
  bool AddedWhileAssumed(const std::string& key) const {
    return added_while_assumed_.contains(key);
  }
  // Scheduler layer: keys deleted, while nominated, by an object of another
  // uid than the pod the queue held (docs/UPSTREAM.md item 51).
  bool DeletedOtherUidWhileNominated(const std::string& key) const {
    return deleted_other_uid_nominated_.contains(key);
  }
  // Queue layer: keys activated while their latest object carries
  // scheduling gates.
  bool ActivatedWhileGated(const std::string& key) const {
    return activated_gated_.contains(key);
  }
  // Whether `pod` is one the scheduler would consider pending: unassigned,
  // of a profile we serve, not being deleted.
  bool ServedAndPending(const Pod& pod) const;

  // Scheduler layer: the nodes present (the informer's latest object per
  // name) after the latest step.
  const std::map<std::string, NodePtr>& nodes() const { return nodes_; }
  // Scheduler layer, property 11: the pods the latest step made
  // schedulable and left in unschedulablePods, each with the first node
  // (by name) the filters pass it on now (properties/schedulable.h): in
  // unschedulablePods before and after the step (not gated, rejected by
  // some plugin, one pod under the key), passing the filters on some node
  // after it and on none before it.
  struct Woken {
    std::string node;  // the first node (by name) it fits now
    // The filter that rejected it on that node before the step ("" when
    // the node was not there).
    std::string blocked_by;
    // Whether the nominations the step changed made the difference: with
    // the nominations as they were before it, no node fits now.
    bool by_nominations = false;
    // The plugins its entry in unschedulablePods names after the step.
    std::vector<std::string> plugins;
  };
  const std::map<std::string, Woken>& woken_but_stayed() const {
    return woken_but_stayed_;
  }
  // Over the trace so far: how often a step made a pod in unschedulablePods
  // schedulable (as property 11 judges them), and how often that step moved
  // it out.
  struct WakeUps {
    int64_t needed = 0;
    int64_t made = 0;
  };
  const WakeUps& wake_ups() const { return wake_ups_; }
  // Property 11's oracle on `state` and `nodes` (the nodes now by default):
  // whether `pod` passes the filters on some node of `only` (every node
  // when null), the first such node in `*node`.
  Fit FitsSomeNode(const Pod& pod, const State& state,
                   const std::map<std::string, NodePtr>* nodes = nullptr,
                   const std::set<std::string>* only = nullptr,
                   std::string* node = nullptr) const;
  // The same on the NodeInfos of `state` with the nominations `nominated`
  // (their objects as `state` holds them).
  Fit FitsSomeNode(const Pod& pod, const State& state,
                   const Nominated& nominated,
                   const std::map<std::string, NodePtr>* nodes,
                   const std::set<std::string>* only, std::string* node) const;
  // Whether property 11 follows `key`: one pod under it all along, its
  // accounting exact.
  bool WakeUpFollowed(const std::string& key) const;

 private:
  void Carry(const PodPtr& pod);
  // Observe's part for each layer's ops (each ignores the others' ops).
  void ObserveQueueOp(const State& before, const Step& step,
                      const StepOut& out);
  void ObserveCacheOp(const Step& step, const StepOut& out);
  void ObserveSchedulerOp(const State& before, const Step& step,
                          const StepOut& out);
  // Follows the queue-layer entries' objects through `step`
  // (history_queues.cc).
  void FollowQueueObjects(const State& before, const Step& step,
                          const StepOut& out, const State* after);
  // Its steps: the entries an add or an update leaves, and the moves
  // between sub-queues `after` shows.
  void FollowQueueAdd(const Step& step, const State* after);
  void FollowQueueUpdate(const State& before, const Step& step,
                         const State* after);
  void FollowQueueMoves(const State& before, const State& after,
                        bool backoff_flush);
  // Follows the scheduler layer's queue objects through `step`
  // (history_queues.cc).
  void FollowSchedulerQueue(const State& before, const Step& step,
                            const StepOut& out, const State* after);
  // Its steps: what the informer's handlers give the queue, returning the
  // key a delete took out of every sub-queue ("" for none); and the keys
  // the step (re-)queued, from the informer's store.
  std::string FollowSchedulerHandlers(const State& before, const Step& step);
  void FollowSchedulerRequeues(const State& before, const Step& step,
                               const StepOut& out, const State& after,
                               const std::string& removed);
  // Whether `pod` is assumed in `before`'s cache, the cached object of the
  // same uid (Cache.IsAssumedPod).
  bool AssumedByUid(const State& before, const Pod& pod) const;
  // Records an add of a gated `pod` while activeQ or backoffQ holds it.
  void NoteGatedAddWhileQueued(const State& before, const Pod& pod);
  // Whether the unscheduled-pod handler's filter passes `pod`.
  bool ForOurQueue(const Pod& pod) const;
  void GiveToCache(const PodPtr& pod);
  // informer_ and in_flight_ change on most steps, as keys come and go
  // (adds and deletes, pops and give-backs): an erase keeps its node for the
  // next insert, which then allocates nothing.
  void SetInformer(const PodPtr& pod);
  void EraseInformer(const std::string& key);
  void AddInFlight(const std::string& key);
  void EraseInFlight(const std::string& key);
  // Marks `key` drifted when `given` does not count like the cached object.
  void NoteAddOverAssumed(const State& before, const Step& step,
                          const StepOut& out);
  void CheckCallerObject(const PodPtr& given);
  // Property 11, around the rest of Observe: before it, keeps what the
  // step may change (the queued objects of the keys it names, the nodes
  // before a node op) and takes the step's node in; after it, fills
  // woken_but_stayed_.
  void BeginWakeUps(const Step& step);
  void EndWakeUps(const State& before, const Step& step, const State* after);
  // The object the nominator counts for a pod nominated under `key` in
  // `state` (nominatedPodToInfo from v1.35), or null when not known.
  PodPtr NominatedObject(const std::string& key, const State& state) const;
  // The oracle's view of `state` with `nodes` and the nominations
  // `nominated`; it refers to all three.
  Cluster ClusterOf(const std::map<std::string, NodePtr>& nodes,
                    const State& state, const Nominated& nominated) const;

  std::shared_ptr<const TraceHeader> own_header_;  // null when borrowed
  const TraceHeader* header_;
  // The header's version, for how a pod's requests are counted: the
  // model's arithmetic, model::PodRequests, the one piece of the model the
  // properties use (README, "How traces are compared", says why).
  model::Upstream up_;
  int64_t now_ = 0;
  std::map<std::string, PodPtr> informer_;
  std::map<std::string, PodPtr>::node_type spare_informer_node_;
  std::map<std::string, PodPtr> latest_;
  struct CacheEntry {
    PodPtr pod;
    Resources requests;  // CacheRequests
  };
  // Looked up for every pod of every NodeInfo a step touches: hashed, and
  // nodes that stay put (CacheRequests hands out pointers).
  absl::node_hash_map<std::string, CacheEntry> cache_objects_;
  std::set<std::string> ambiguous_in_cache_;
  std::set<std::string> in_flight_;
  std::set<std::string> popped_not_returned_;
  std::set<std::string>::node_type spare_in_flight_node_;
  std::set<std::string> deleted_while_waiting_;
  std::set<std::string> nil_old_updates_;
  std::set<std::string> drifted_;
  std::set<std::string> drifted_nodes_;
  std::set<std::string> caller_named_other_node_;
  std::set<std::string> added_over_assumed_;
  std::set<std::string> activated_gated_;
  std::set<std::string> uid_changed_;
  std::set<std::string> recreated_other_scheduler_;
  std::set<std::string> deleted_other_uid_while_waiting_;
  // Scheduler layer: the object each key last began to wait on Permit with.
  std::map<std::string, PodPtr> waiting_objects_;
  std::set<std::string> deleted_waiting_not_assumed_;
  std::set<std::string> handed_over_by_name_;
  std::map<std::string, NodePtr> nodes_;
  std::optional<std::map<std::string, NodePtr>> nodes_before_;
  std::map<std::string, PodPtr> wake_objects_before_;
  std::map<std::string, Woken> woken_but_stayed_;
  WakeUps wake_ups_;
  bool wake_old_consistent_ = true;  // the pod_update's old is the latest
  std::set<std::string> uid_changed_nominated_;
  std::set<std::string> uid_changed_queued_;
  std::set<std::string> added_while_queued_;
  std::set<std::string> added_gated_while_queued_;
  std::set<std::string> added_while_assumed_;
  std::set<std::string> deleted_other_uid_nominated_;
  // Scheduler layer: QueuedObject's objects.
  std::map<std::string, PodPtr> scheduler_queued_;
  std::map<std::string, PodPtr> scheduler_popped_;
  // One QueuedPodInfo's object; entries that share a QueuedPodInfo share
  // the cell.
  using Cell = std::shared_ptr<PodPtr>;
  struct Entries {
    Cell active, backoff, unschedulable, in_flight;
  };
  std::map<std::string, Entries> queued_objects_;
};

}  // namespace schedtrace::properties

#endif  // SCHEDTRACE_PROPERTIES_HISTORY_H_
