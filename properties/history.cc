#include "properties/history.h"

#include <algorithm>

#include "harness/op_table.h"
#include "harness/resources.h"

namespace schedtrace::properties {
namespace {

bool Contains(const std::optional<std::vector<std::string>>& list,
              const std::string& key) {
  return list && std::find(list->begin(), list->end(), key) != list->end();
}

bool InList(const State* s, std::vector<QueuedPod> QueueState::*list,
            const std::string& key) {
  if (s == nullptr || !s->queue) return false;
  for (const QueuedPod& q : (*s->queue).*list) {
    if (q.pod == key) return true;
  }
  return false;
}

// True when PodRequests(a) == PodRequests(b) for certain, without computing
// them: PodRequests (upstream's calculateResource) reads only these fields,
// which updates rarely change.
bool SameRequestFields(const Pod& a, const Pod& b) {
  return a.containers == b.containers &&
         a.init_containers == b.init_containers && a.overhead == b.overhead;
}

}  // namespace

History::History(const TraceHeader& header)
    : own_header_(std::make_shared<const TraceHeader>(header)),
      header_(own_header_.get()) {}

History::History(const TraceHeader* header) : header_(header) {}

PodPtr History::Latest(const std::string& key) const {
  auto it = latest_.find(key);
  return it == latest_.end() ? nullptr : it->second;
}

PodPtr History::CacheObject(const std::string& key) const {
  auto it = cache_objects_.find(key);
  return it == cache_objects_.end() ? nullptr : it->second.pod;
}

const Resources* History::CacheRequests(const std::string& key) const {
  auto it = cache_objects_.find(key);
  return it == cache_objects_.end() ? nullptr : &it->second.requests;
}

PodPtr History::QueuedObject(const std::string& key, Slot slot) const {
  auto it = queued_objects_.find(key);
  Cell cell;
  if (it != queued_objects_.end()) {
    switch (slot) {
      case Slot::kActive:
        cell = it->second.active;
        break;
      case Slot::kBackoff:
        cell = it->second.backoff;
        break;
      case Slot::kUnschedulable:
        cell = it->second.unschedulable;
        break;
      case Slot::kInFlight:
        cell = it->second.in_flight;
        break;
    }
  }
  PodPtr pod = cell != nullptr ? *cell : nullptr;
  if (pod == nullptr && header_->layer == Layer::kScheduler) {
    const auto& objects =
        slot == Slot::kInFlight ? scheduler_popped_ : scheduler_queued_;
    if (auto o = objects.find(key); o != objects.end()) pod = o->second;
  }
  return pod != nullptr ? pod : Latest(key);
}

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
  const State* was = &before;
  auto in = [](const State* s, std::vector<QueuedPod> QueueState::*list,
               const std::string& key) { return InList(s, list, key); };
  auto fresh = [](const PodPtr& pod) { return std::make_shared<PodPtr>(pod); };
  auto set = [&](Cell& cell, const PodPtr& pod) {
    if (cell != nullptr) {
      *cell = pod;
    } else {
      cell = fresh(pod);
    }
  };
  constexpr auto kActive = &QueueState::active;
  constexpr auto kBackoff = &QueueState::backoff;
  constexpr auto kUnsched = &QueueState::unschedulable;
  switch (step.op) {
    case Op::kQAdd: {
      // Add: one fresh entry in activeQ (activeQ.Add replaces an activeQ
      // entry's object; the unschedulablePods and backoffQ copies are
      // deleted). Gated, PreEnqueue parks it in unschedulablePods and Add
      // returns there: an activeQ or backoffQ copy keeps its own object
      // (docs/UPSTREAM.md item 49).
      if (out.error) return;
      const std::string key = step.pod->Key();
      Entries& e = queued_objects_[key];
      Cell cell = fresh(step.pod);
      const bool parked = after != nullptr && after->queue &&
                          std::any_of(after->queue->unschedulable.begin(),
                                      after->queue->unschedulable.end(),
                                      [&](const QueuedPod& q) {
                                        return q.pod == key && q.gated;
                                      });
      if (parked) {
        e.unschedulable = cell;
      } else {
        e.active = e.backoff = e.unschedulable = cell;
      }
      return;
    }
    case Op::kQUpdate: {
      const std::string key = step.new_pod->Key();
      Entries& e = queued_objects_[key];
      const PodPtr& pod = step.new_pod;
      if (step.old_pod != nullptr && in(was, kActive, key)) {
        set(e.active, pod);  // activeQ.Update; a backoffQ copy stays
      } else if (step.old_pod != nullptr && in(was, kBackoff, key)) {
        set(e.backoff, pod);  // podBackoffQ.Update
      } else if (in(was, kUnsched, key)) {
        set(e.unschedulable, pod);  // and it may move
        e.active = e.backoff = e.unschedulable;
      } else {
        // A fresh entry (docs/UPSTREAM.md items 3 and 4): a backoffQ copy and
        // the popped entry keep their objects. PreEnqueue parks a gated one in
        // unschedulablePods and leaves an activeQ copy as it is.
        Cell cell = fresh(pod);
        bool gated = after != nullptr && in(after, kUnsched, key) &&
                     !in(was, kUnsched, key);
        if (!gated) e.active = cell;
        if (gated || after == nullptr) e.unschedulable = cell;
      }
      return;
    }
    case Op::kQDelete: {
      // Delete removes the activeQ entry when there is one and stops: a
      // backoffQ or unschedulablePods copy (Update(nil, p), a gated add)
      // stays with its own object, and a flush or activate brings it back.
      const std::string key = step.pod->Key();
      Entries& e = queued_objects_[key];
      if (in(was, kActive, key)) {
        e.active = nullptr;
      } else {
        e.active = e.backoff = e.unschedulable = nullptr;
      }
      return;
    }
    case Op::kQPop:
      if (out.popped) {
        Entries& e = queued_objects_[*out.popped];
        e.in_flight =
            e.active != nullptr ? e.active : fresh(Latest(*out.popped));
        e.active = nullptr;
      }
      return;
    case Op::kQAddUnschedulable: {
      if (out.error) return;
      // It failed unless the key was in no sub-queue: the popped entry
      // lands in backoffQ or unschedulablePods.
      Entries& e = queued_objects_[step.pod_key];
      e.backoff = e.unschedulable = e.in_flight;
      return;
    }
    default:
      break;
  }
  if (after == nullptr) return;
  // Moves: an entry that left unschedulablePods (or else backoffQ) goes
  // wherever the key newly is; the backoff flush overwrites an activeQ copy
  // of the same key.
  for (auto& [key, e] : queued_objects_) {
    Cell moved;
    if (in(was, kUnsched, key) && !in(after, kUnsched, key)) {
      moved = e.unschedulable;
    } else if (in(was, kBackoff, key) && !in(after, kBackoff, key)) {
      moved = e.backoff;
    } else if (in(after, kUnsched, key) && !in(was, kUnsched, key) &&
               in(was, kBackoff, key)) {
      moved = e.backoff;  // activate of a gated pod in backoffQ: shared
    }
    if (moved == nullptr) continue;
    if (in(after, kActive, key)) e.active = moved;
    if (in(after, kBackoff, key) && !in(was, kBackoff, key)) e.backoff = moved;
    if (in(after, kUnsched, key) && !in(was, kUnsched, key)) {
      e.unschedulable = moved;
    }
  }
}

bool History::ForOurQueue(const Pod& pod) const {
  // addAllEventHandlers: !assignedPod(t) && responsibleForPod(t, profiles).
  const auto& profiles = header_->config.profiles;
  return pod.node_name.empty() &&
         std::find(profiles.begin(), profiles.end(), pod.scheduler_name) !=
             profiles.end();
}

// Mirrors what the scheduler layer's queue is given (eventhandlers.go):
// FilteringResourceEventHandler routes an update to
// updatePodInSchedulingQueue when both objects pass the filter, to
// addPodToSchedulingQueue when only the new one does, to
// deletePodFromSchedulingQueue when only the old one does, and drops it when
// neither does; updatePodInSchedulingQueue ignores an update with an unchanged
// resourceVersion (#96071) and one of a pod Cache.IsAssumedPod finds (by
// uid). handleSchedulingFailure re-queues the informer's object (podLister
// Get by name), and schedulingCycle assumes the popped one.
void History::FollowSchedulerQueue(const State& before, const Step& step,
                                   const StepOut& out, const State* after) {
  if (header_->layer != Layer::kScheduler || out.fatal) return;
  auto assumed_uid = [&](const Pod& pod) {
    if (!before.cache) return false;
    const std::vector<std::string>& assumed = before.cache->assumed;
    PodPtr cached = CacheObject(pod.Key());
    return std::find(assumed.begin(), assumed.end(), pod.Key()) !=
               assumed.end() &&
           cached != nullptr && cached->uid == pod.uid;
  };
  auto queued = [](const State* s, const std::string& key) {
    return InList(s, &QueueState::active, key) ||
           InList(s, &QueueState::backoff, key) ||
           InList(s, &QueueState::unschedulable, key);
  };
  auto nominated = [&](const std::string& key) {
    if (!before.nominated) return false;
    for (const auto& [node, keys] : *before.nominated) {
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) return true;
    }
    return false;
  };
  auto gated_add_while_queued = [&](const Pod& pod) {
    const std::string key = pod.Key();
    if (!pod.scheduling_gates.empty() &&
        (InList(&before, &QueueState::active, key) ||
         InList(&before, &QueueState::backoff, key))) {
      added_gated_while_queued_.insert(key);
    }
  };
  // A key the step's delete path took out of every sub-queue: the failure
  // handler of a waiting pod that delete rejected may queue it again.
  std::string removed;
  auto copy_stays = [&](const std::string& key) {
    // Delete stops once activeQ.Delete succeeds (docs/UPSTREAM.md item 53).
    return InList(&before, &QueueState::active, key) &&
           (InList(&before, &QueueState::backoff, key) ||
            InList(&before, &QueueState::unschedulable, key));
  };
  switch (step.op) {
    case Op::kPodAdd:
      if (step.pod == nullptr || !ForOurQueue(*step.pod)) break;
      if (assumed_uid(*step.pod)) added_while_assumed_.insert(step.pod->Key());
      gated_add_while_queued(*step.pod);
      scheduler_queued_[step.pod->Key()] = step.pod;
      break;
    case Op::kPodUpdate: {
      if (step.new_pod == nullptr) break;
      const bool older = step.old_pod != nullptr && ForOurQueue(*step.old_pod);
      const bool newer = ForOurQueue(*step.new_pod);
      const std::string key = step.new_pod->Key();
      if (newer && !older) {
        gated_add_while_queued(*step.new_pod);
        scheduler_queued_[key] = step.new_pod;
      } else if (older && !newer) {
        // deletePodFromSchedulingQueue: a copy Delete leaves keeps its
        // object.
        const std::string old_key = step.old_pod->Key();
        if (!copy_stays(old_key)) {
          scheduler_queued_.erase(old_key);
          removed = old_key;
        }
      } else if (older && newer &&
                 step.old_pod->resource_version !=
                     step.new_pod->resource_version &&
                 !assumed_uid(*step.new_pod)) {
        scheduler_queued_[key] = step.new_pod;
      }
      break;
    }
    case Op::kPodDelete: {
      if (step.pod == nullptr || !ForOurQueue(*step.pod)) break;
      const std::string key = step.pod->Key();
      auto it = scheduler_queued_.find(key);
      if (it != scheduler_queued_.end()) {
        if (nominated(key) && it->second->uid != step.pod->uid) {
          deleted_other_uid_nominated_.insert(key);
        }
        scheduler_queued_.erase(it);
      }
      break;
    }
    default:
      break;
  }
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
      if (queued(&before, q.pod) && q.pod != out.popped && q.pod != removed) {
        continue;
      }
      PodPtr pod = stored(q.pod);
      if (pod != nullptr && pod->node_name.empty()) {
        scheduler_queued_[q.pod] = pod;
      }
    }
  };
  requeue(after->queue->backoff);
  requeue(after->queue->unschedulable);
  requeue(after->queue->active);
}

bool History::DifferentPodsUnderKey(const std::string& key) const {
  PodPtr cached = CacheObject(key);
  if (cached == nullptr) return false;
  auto it = informer_.find(key);
  if (it != informer_.end() && cached->uid != it->second->uid) return true;
  // The queue's copy (scheduler layer) when the informer lost the key to a
  // delete the queue's filter dropped.
  auto q = scheduler_queued_.find(key);
  return it == informer_.end() && q != scheduler_queued_.end() &&
         q->second->uid != cached->uid;
}

bool History::ServedAndPending(const Pod& pod) const {
  const auto& profiles = header_->config.profiles;
  return pod.node_name.empty() && !pod.deletion_timestamp &&
         std::find(profiles.begin(), profiles.end(), pod.scheduler_name) !=
             profiles.end();
}

void History::Carry(const PodPtr& pod) {
  if (pod == nullptr) return;
  auto [it, fresh] = latest_.try_emplace(pod->Key(), pod);
  if (!fresh && it->second->uid != pod->uid) uid_changed_.insert(pod->Key());
  const std::vector<std::string>& profiles = header_->config.profiles;
  if (uid_changed_.contains(pod->Key()) &&
      std::find(profiles.begin(), profiles.end(), pod->scheduler_name) ==
          profiles.end()) {
    recreated_other_scheduler_.insert(pod->Key());
  }
  it->second = pod;
}

void History::GiveToCache(const PodPtr& pod) {
  if (pod == nullptr) return;
  auto [it, fresh] = cache_objects_.try_emplace(pod->Key());
  CacheEntry& e = it->second;
  if (!fresh && e.pod->uid != pod->uid) {
    ambiguous_in_cache_.insert(pod->Key());
  }
  if (fresh || !SameRequestFields(*e.pod, *pod)) {
    e.requests = PodRequests(*pod);
    e.requests.erase("pods");  // NodeInfo.update never adds AllowedPodNumber
  }
  e.pod = pod;
}

void History::SetInformer(const PodPtr& pod) {
  std::string key = pod->Key();
  if (auto it = informer_.find(key); it != informer_.end()) {
    it->second = pod;
  } else if (spare_informer_node_.empty()) {
    informer_.emplace(std::move(key), pod);
  } else {
    spare_informer_node_.key() = std::move(key);
    spare_informer_node_.mapped() = pod;
    informer_.insert(std::move(spare_informer_node_));
  }
}

void History::EraseInformer(const std::string& key) {
  auto node = informer_.extract(key);
  if (node.empty()) return;
  node.mapped() = nullptr;  // keeps no pod alive
  spare_informer_node_ = std::move(node);
}

void History::AddInFlight(const std::string& key) {
  if (in_flight_.contains(key)) return;
  if (spare_in_flight_node_.empty()) {
    in_flight_.insert(key);
  } else {
    spare_in_flight_node_.value() = key;
    in_flight_.insert(std::move(spare_in_flight_node_));
  }
}

void History::EraseInFlight(const std::string& key) {
  auto node = in_flight_.extract(key);
  if (!node.empty()) spare_in_flight_node_ = std::move(node);
}

void History::CheckCallerObject(const PodPtr& given) {
  if (given == nullptr) return;
  PodPtr cached = CacheObject(given->Key());
  if (cached == nullptr || cached->node_name != given->node_name ||
      (!SameRequestFields(*cached, *given) &&
       PodRequests(*cached) != PodRequests(*given))) {
    drifted_.insert(given->Key());
    drifted_nodes_.insert(given->node_name);
    if (cached != nullptr) drifted_nodes_.insert(cached->node_name);
  }
}

void History::Observe(const State& before, const Step& step, const StepOut& out,
                      const State* after) {
  now_ = step.t;
  FollowQueueObjects(before, step, out, after);
  FollowSchedulerQueue(before, step, out, after);
  if ((step.op == Op::kPodUpdate || step.op == Op::kQUpdate) &&
      step.old_pod != nullptr && step.new_pod != nullptr &&
      step.old_pod->uid != step.new_pod->uid && before.nominated) {
    for (const auto& [node, keys] : *before.nominated) {
      if (std::find(keys.begin(), keys.end(), step.new_pod->Key()) !=
          keys.end()) {
        uid_changed_nominated_.insert(step.new_pod->Key());
      }
    }
  }
  // The pod objects its op carries (the op table), old before new.
  ForEachCarriedPod(step, [this](const PodPtr& pod) { Carry(pod); });
  switch (step.op) {
    // The queue layer's nominator lister ("queue-ops").
    case Op::kQAdd:
      if (!out.error && !step.pod->scheduling_gates.empty() &&
          (InList(&before, &QueueState::active, step.pod->Key()) ||
           InList(&before, &QueueState::backoff, step.pod->Key()))) {
        added_gated_while_queued_.insert(step.pod->Key());
      }
      SetInformer(step.pod);
      break;
    case Op::kQAssignedPodAdded:
    case Op::kQAssignedPodUpdated:
      SetInformer(step.pod);
      break;
    case Op::kQUpdate:
      SetInformer(step.new_pod);
      if (step.old_pod == nullptr) nil_old_updates_.insert(step.new_pod->Key());
      break;
    case Op::kQDelete:
      EraseInformer(step.pod->Key());
      EraseInFlight(step.pod->Key());
      break;
    case Op::kQPop:
      if (out.popped) AddInFlight(*out.popped);
      break;
    case Op::kQAddUnschedulable:
      EraseInFlight(step.pod_key);
      break;
    case Op::kQActivate:
      for (const PodPtr& pod : step.pods) {
        PodPtr latest = Latest(pod->Key());
        if (latest != nullptr && !latest->scheduling_gates.empty()) {
          activated_gated_.insert(pod->Key());
        }
      }
      break;

    // The cache layer.
    // The cache layer: only what the cache accepted counts.
    case Op::kCAssume:
    case Op::kCAddPod:
      if (!out.error) GiveToCache(step.pod);
      break;
    case Op::kCUpdatePod:
      if (!out.error) {
        CheckCallerObject(step.old_pod);
        GiveToCache(step.new_pod);
      }
      break;
    case Op::kCForget:
      if (!out.error) CheckCallerObject(step.pod);
      break;

    // The scheduler layer's informer.
    case Op::kPodAdd:
      SetInformer(step.pod);
      deleted_while_waiting_.erase(step.pod->Key());
      deleted_other_uid_while_waiting_.erase(step.pod->Key());
      if (!step.pod->node_name.empty()) GiveToCache(step.pod);
      break;
    case Op::kPodUpdate:
      SetInformer(step.new_pod);
      deleted_while_waiting_.erase(step.new_pod->Key());
      deleted_other_uid_while_waiting_.erase(step.new_pod->Key());
      if (!step.new_pod->node_name.empty()) GiveToCache(step.new_pod);
      break;
    case Op::kPodDelete: {
      const std::string key = step.pod->Key();
      EraseInformer(key);
      if (before.waiting && Contains(before.waiting, key)) {
        deleted_while_waiting_.insert(key);
        PodPtr waiting = CacheObject(key);  // assumed when it began to wait
        if (waiting != nullptr && waiting->uid != step.pod->uid) {
          deleted_other_uid_while_waiting_.insert(key);
        }
      }
      break;
    }
    case Op::kScheduleOne:
      // The popped pod is assumed with the object the queue held.
      if (out.result && out.result->node) {
        auto it = scheduler_popped_.find(out.result->pod);
        if (it != scheduler_popped_.end() && it->second != nullptr) {
          GiveToCache(it->second);
        }
      }
      break;
    default:
      break;
  }
}

}  // namespace schedtrace::properties
