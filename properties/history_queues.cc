// History's view of the queue's objects (history.h): which object each
// queue entry holds, in the queue layer (scheduling_queue.go's
// QueuedPodInfos) and in the scheduler layer (what eventhandlers.go gives
// the queue).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/upstream_versions.h"
#include "properties/history.h"

namespace schedtrace::properties {
namespace {

// One QueuedPodInfo's object, shared by the entries that share it.
std::shared_ptr<PodPtr> Fresh(const PodPtr& pod) {
  return std::make_shared<PodPtr>(pod);
}

// The entry's object becomes `pod` (a new entry when there is none).
void Set(std::shared_ptr<PodPtr>& cell, const PodPtr& pod) {
  if (cell != nullptr) {
    *cell = pod;
  } else {
    cell = Fresh(pod);
  }
}

constexpr auto kActive = &QueueState::active;
constexpr auto kBackoff = &QueueState::backoff;
constexpr auto kUnsched = &QueueState::unschedulable;

bool Nominated(const State& s, const std::string& key) {
  if (!s.nominated) return false;
  for (const auto& [node, keys] : *s.nominated) {
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) return true;
  }
  return false;
}

// Delete stops once activeQ.Delete succeeds (docs/UPSTREAM.md item 53): a
// backoffQ or unschedulablePods copy stays.
bool DeleteLeavesCopy(const State& before, const std::string& key) {
  return InQueueList(&before, kActive, key) &&
         (InQueueList(&before, kBackoff, key) ||
          InQueueList(&before, kUnsched, key));
}

}  // namespace

// Mirrors which *QueuedPodInfo each PriorityQueue call leaves where
// (scheduling_queue.go): Add and Update's "not queued" branch make a fresh
// one, Update's lookups mutate the one they find (updatePod ->
// PodInfo.Update), Pop hands the activeQ one out, AddUnschedulableIfNotPresent
// puts the popped one back, and activate, flushBackoffQCompleted,
// movePodsToActiveOrBackoffQueue and flushUnschedulablePodsLeftover move
// them. Entries are shared cells because upstream's are pointers: activate
// of a gated pod in backoffQ puts the same QueuedPodInfo in
// unschedulablePods too, and an update of either changes both.
void History::FollowQueueObjects(const State& before, const Step& step,
                                 const StepOut& out, const State* after) {
  if (header_->layer != Layer::kQueue || out.fatal) return;
  switch (step.op) {
    case Op::kQAdd:
      if (!out.error) FollowQueueAdd(step, after);
      return;
    case Op::kQUpdate:
      FollowQueueUpdate(before, step, after);
      return;
    case Op::kQDelete: {
      // Delete removes the activeQ entry when there is one and stops: a
      // backoffQ or unschedulablePods copy (Update(nil, p), a gated add)
      // stays with its own object, and a flush or activate brings it back.
      const std::string key = step.pod->Key();
      Entries& e = queued_objects_[key];
      if (InQueueList(&before, kActive, key)) {
        e.active = nullptr;
      } else {
        e.active = e.backoff = e.unschedulable = nullptr;
      }
      return;
    }
    case Op::kQPop:
      if (out.popped) {
        Entries& e = queued_objects_[*out.popped];
        if (!InQueueList(&before, kActive, *out.popped) &&
            InQueueList(&before, kBackoff, *out.popped) &&
            e.backoff != nullptr) {
          // From v1.35 a pop with activeQ empty takes backoffQ's head.
          e.in_flight = e.backoff;
          e.backoff = nullptr;
        } else {
          e.in_flight =
              e.active != nullptr ? e.active : Fresh(Latest(*out.popped));
          e.active = nullptr;
        }
      }
      return;
    case Op::kQAddUnschedulable: {
      if (out.error) return;
      // It failed unless the key was in no sub-queue: the popped entry
      // lands in backoffQ or unschedulablePods.
      Entries& e = queued_objects_[step.pod_key];
      e.backoff = e.unschedulable = e.in_flight;
      // From v1.35 the in-flight events may send it straight to activeQ.
      if (UpstreamTracksPodsInFlight(header_->upstream) &&
          InQueueList(after, kActive, step.pod_key) &&
          !InQueueList(&before, kActive, step.pod_key)) {
        e.active = e.in_flight;
      }
      return;
    }
    default:
      break;
  }
  if (after == nullptr) return;
  FollowQueueMoves(before, *after, step.op == Op::kFlushBackoff);
}

// Add: one fresh entry in activeQ (activeQ.Add replaces an activeQ entry's
// object; the unschedulablePods and backoffQ copies are deleted). Gated,
// PreEnqueue parks it in unschedulablePods and Add returns there: an activeQ
// or backoffQ copy keeps its own object (docs/UPSTREAM.md item 49).
void History::FollowQueueAdd(const Step& step, const State* after) {
  const std::string key = step.pod->Key();
  Entries& e = queued_objects_[key];
  Cell cell = Fresh(step.pod);
  const bool parked =
      after != nullptr && after->queue &&
      std::any_of(after->queue->unschedulable.begin(),
                  after->queue->unschedulable.end(),
                  [&](const QueuedPod& q) { return q.pod == key && q.gated; });
  if (parked) {
    e.unschedulable = cell;
  } else if (up_.move_to_active_leaves_other_queues) {
    e.active = e.unschedulable = cell;  // v1.37: a backoffQ copy stays
  } else {
    e.active = e.backoff = e.unschedulable = cell;
  }
}

void History::FollowQueueUpdate(const State& before, const Step& step,
                                const State* after) {
  const State* was = &before;
  const std::string key = step.new_pod->Key();
  Entries& e = queued_objects_[key];
  const PodPtr& pod = step.new_pod;
  // From v1.35 an update of a pod in flight (by uid) is only recorded as
  // events: no entry takes the new object, and the popped one comes back
  // with the object it had (Update, addEventsIfPodInFlight).
  if (UpstreamTracksPodsInFlight(header_->upstream) &&
      popped_not_returned_.contains(key) && e.in_flight != nullptr &&
      *e.in_flight != nullptr && (*e.in_flight)->uid == pod->uid) {
    return;
  }
  // v1.37: PodInfo.Update refuses a pod of another uid; the record keeps its
  // object and the search goes on (at last: a fresh entry).
  auto takes = [&](const Cell& c) {
    return !up_.pod_info_update_refuses_other_uid || c == nullptr ||
           *c == nullptr || (*c)->uid == pod->uid;
  };
  if (step.old_pod != nullptr && InQueueList(was, kActive, key) &&
      takes(e.active)) {
    Set(e.active, pod);  // activeQ.Update; a backoffQ copy stays
  } else if (step.old_pod != nullptr && InQueueList(was, kBackoff, key) &&
             takes(e.backoff)) {
    Set(e.backoff, pod);  // podBackoffQ.Update
  } else if (InQueueList(was, kUnsched, key) && takes(e.unschedulable)) {
    Set(e.unschedulable, pod);  // and it may move
    const bool other_copy =
        InQueueList(was, kActive, key) || InQueueList(was, kBackoff, key);
    if (!other_copy) {
      e.active = e.backoff = e.unschedulable;
    } else if (after != nullptr && !InQueueList(after, kUnsched, key)) {
      // v1.37 keeps a copy of another uid where it is: only the queue the
      // pod moved to takes the updated record.
      if (InQueueList(after, kActive, key)) e.active = e.unschedulable;
      if (InQueueList(after, kBackoff, key) &&
          !InQueueList(was, kBackoff, key)) {
        e.backoff = e.unschedulable;
      }
    }
  } else {
    // A fresh entry (docs/UPSTREAM.md items 3 and 4): a backoffQ copy and
    // the popped entry keep their objects. PreEnqueue parks a gated one in
    // unschedulablePods and leaves an activeQ copy as it is.
    Cell cell = Fresh(pod);
    bool gated = after != nullptr && InQueueList(after, kUnsched, key) &&
                 !InQueueList(was, kUnsched, key);
    if (!gated) e.active = cell;
    if (gated || after == nullptr) e.unschedulable = cell;
  }
}

// Moves: an entry that left unschedulablePods (or else backoffQ) goes
// wherever the key newly is; the backoff flush overwrites an activeQ copy of
// the same key. The backoff flush moves backoffQ's entry: when a copy of
// another uid left unschedulablePods in the same flush (v1.37's
// moveToActiveQ deletes it there), the entry that reached activeQ is
// backoffQ's.
void History::FollowQueueMoves(const State& before, const State& after,
                               bool backoff_flush) {
  const State* was = &before;
  const State* now = &after;
  for (auto& [key, e] : queued_objects_) {
    Cell moved;
    if (backoff_flush && InQueueList(was, kBackoff, key) &&
        !InQueueList(now, kBackoff, key)) {
      moved = e.backoff;
    } else if (InQueueList(was, kUnsched, key) &&
               !InQueueList(now, kUnsched, key)) {
      moved = e.unschedulable;
    } else if (InQueueList(was, kBackoff, key) &&
               !InQueueList(now, kBackoff, key)) {
      moved = e.backoff;
    } else if (InQueueList(now, kUnsched, key) &&
               !InQueueList(was, kUnsched, key) &&
               InQueueList(was, kBackoff, key)) {
      moved = e.backoff;  // activate of a gated pod in backoffQ: shared
    }
    if (moved == nullptr) continue;
    if (InQueueList(now, kActive, key)) e.active = moved;
    if (InQueueList(now, kBackoff, key) && !InQueueList(was, kBackoff, key)) {
      e.backoff = moved;
    }
    if (InQueueList(now, kUnsched, key) && !InQueueList(was, kUnsched, key)) {
      e.unschedulable = moved;
    }
  }
}

// Mirrors what the scheduler layer's queue is given (eventhandlers.go):
// FilteringResourceEventHandler routes an update to
// updatePodInSchedulingQueue when both objects pass the filter, to
// addPodToSchedulingQueue when only the new one does, to
// deletePodFromSchedulingQueue when only the old one does, and drops it when
// neither does; updatePodInSchedulingQueue ignores an update with an unchanged
// resourceVersion (kubernetes/kubernetes#96071) and one of a pod
// Cache.IsAssumedPod finds (by uid). handleSchedulingFailure re-queues the
// informer's object (podLister Get by name), and schedulingCycle assumes the
// popped one.
void History::FollowSchedulerQueue(const State& before, const Step& step,
                                   const StepOut& out, const State* after) {
  if (header_->layer != Layer::kScheduler || out.fatal) return;
  const std::string removed = FollowSchedulerHandlers(before, step);
  // schedule_one, bind, and the like: the popped object is the queue's;
  // a key (re-)queued by the step is the failure handler's informer object.
  // Informer steps too: a delete (or an update whose new object the filter
  // drops) rejects the pod waiting on Permit, and its binding cycle's
  // failure handler re-queues the object the informer's store holds after
  // the step (processDeltas updates the store before the handlers run),
  // whichever scheduler that object names.
  if (out.popped) {
    auto it = scheduler_queued_.find(*out.popped);
    PodPtr popped = it != scheduler_queued_.end() ? it->second : nullptr;
    if (popped == nullptr) {
      auto in = informer_.find(*out.popped);
      if (in != informer_.end()) popped = in->second;
    }
    scheduler_popped_[*out.popped] = popped;
  }
  if (after == nullptr || !after->queue) return;
  FollowSchedulerRequeues(before, step, out, *after, removed);
}

std::string History::FollowSchedulerHandlers(const State& before,
                                             const Step& step) {
  // A key the step's delete path took out of every sub-queue: the failure
  // handler of a waiting pod that delete rejected may queue it again.
  std::string removed;
  switch (step.op) {
    case Op::kPodAdd:
      if (step.pod == nullptr || !ForOurQueue(*step.pod)) break;
      if (AssumedByUid(before, *step.pod)) {
        added_while_assumed_.insert(step.pod->Key());
      }
      NoteGatedAddWhileQueued(before, *step.pod);
      scheduler_queued_[step.pod->Key()] = step.pod;
      break;
    case Op::kPodUpdate: {
      if (step.new_pod == nullptr) break;
      const bool older = step.old_pod != nullptr && ForOurQueue(*step.old_pod);
      const bool newer = ForOurQueue(*step.new_pod);
      const std::string key = step.new_pod->Key();
      if (newer && !older) {
        NoteGatedAddWhileQueued(before, *step.new_pod);
        scheduler_queued_[key] = step.new_pod;
      } else if (older && !newer) {
        // deletePodFromSchedulingQueue: a copy Delete leaves keeps its
        // object.
        const std::string old_key = step.old_pod->Key();
        if (!DeleteLeavesCopy(before, old_key)) {
          scheduler_queued_.erase(old_key);
          removed = old_key;
        }
      } else if (older && newer &&
                 step.old_pod->resource_version !=
                     step.new_pod->resource_version &&
                 !AssumedByUid(before, *step.new_pod)) {
        scheduler_queued_[key] = step.new_pod;
      }
      break;
    }
    case Op::kPodDelete: {
      if (step.pod == nullptr || !ForOurQueue(*step.pod)) break;
      const std::string key = step.pod->Key();
      auto it = scheduler_queued_.find(key);
      if (it != scheduler_queued_.end()) {
        if (Nominated(before, key) && it->second->uid != step.pod->uid) {
          deleted_other_uid_nominated_.insert(key);
        }
        scheduler_queued_.erase(it);
      }
      break;
    }
    default:
      break;
  }
  return removed;
}

void History::FollowSchedulerRequeues(const State& before, const Step& step,
                                      const StepOut& out, const State& after,
                                      const std::string& removed) {
  // The informer's object after the step (informer_ is updated after this).
  auto stored = [&](const std::string& key) -> PodPtr {
    if (step.op == Op::kPodAdd && step.pod != nullptr &&
        step.pod->Key() == key) {
      return step.pod;
    }
    if (step.op == Op::kPodUpdate && step.new_pod != nullptr &&
        step.new_pod->Key() == key) {
      return step.new_pod;
    }
    if (step.op == Op::kPodDelete && step.pod != nullptr &&
        step.pod->Key() == key) {
      return nullptr;
    }
    auto in = informer_.find(key);
    return in != informer_.end() ? in->second : nullptr;
  };
  auto requeue = [&](const std::vector<QueuedPod>& list) {
    for (const QueuedPod& q : list) {
      if (InAnyQueueList(&before, q.pod) && q.pod != out.popped &&
          q.pod != removed) {
        continue;
      }
      PodPtr pod = stored(q.pod);
      if (pod != nullptr && pod->node_name.empty()) {
        scheduler_queued_[q.pod] = pod;
      }
    }
  };
  requeue(after.queue->backoff);
  requeue(after.queue->unschedulable);
  requeue(after.queue->active);
}

bool History::AssumedByUid(const State& before, const Pod& pod) const {
  if (!before.cache) return false;
  const std::vector<std::string>& assumed = before.cache->assumed;
  PodPtr cached = CacheObject(pod.Key());
  return std::find(assumed.begin(), assumed.end(), pod.Key()) !=
             assumed.end() &&
         cached != nullptr && cached->uid == pod.uid;
}

void History::NoteGatedAddWhileQueued(const State& before, const Pod& pod) {
  const std::string key = pod.Key();
  if (!pod.scheduling_gates.empty() && (InQueueList(&before, kActive, key) ||
                                        InQueueList(&before, kBackoff, key))) {
    added_gated_while_queued_.insert(key);
  }
}

}  // namespace schedtrace::properties
