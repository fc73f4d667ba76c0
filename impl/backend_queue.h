// impl::BackendQueue: the optimized scheduling queue from v1.35 on
// (upstream pkg/scheduler/backend/queue: scheduling_queue.go,
// active_queue.go, backoff_queue.go, nominator.go) at its default gates:
// QueueingHints decide every move, events received while pods are in
// flight are recorded, Pop takes from backoffQ when activeQ is empty, and
// backoff expiries are aligned to one-second windows. Pod groups
// (GenericWorkload, off by default) are not implemented. impl::PriorityQueue
// (impl/queue.h) is the queue of v1.25 to v1.30.
//
// Built as impl::PriorityQueue is, for throughput:
//  - pod keys are interned into dense uint32 ids, plugins into uint16 ids;
//  - QueuedPodInfos live in a recycled slab of reference-counted records
//    (upstream's shared *QueuedPodInfo), each caching its backoff expiry;
//  - activeQ and the two backoff heaps are IndexedHeaps with Go
//    container/heap's order;
//  - events are interned once per (resource, action bits), with the
//    plugins their registrations name and whether they interest the queue,
//    so that a move or an in-flight check matches no strings;
//  - unschedulablePods is a dense id -> record table with an index from
//    plugin id to keys, so a move request visits only the pods it can move;
//  - the in-flight list is a vector with a moving head (no allocation once
//    its capacity is reached).
//
//   BackendQueue q(config, up);
//   q.SetNow(t_ms);
//   q.Add(pod);
//   if (std::optional<BackendQueue::Handle> h = q.PopHandle()) {
//     q.SetHandlePlugins(*h, {"NodeResourcesFit"});
//     q.AddUnschedulablePodIfNotPresent(*h);   // calls Done
//     q.Release(*h);
//   }
#ifndef SCHEDTRACE_IMPL_BACKEND_QUEUE_H_
#define SCHEDTRACE_IMPL_BACKEND_QUEUE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "core/objects.h"
#include "core/state.h"
#include "core/state_touch.h"
#include "core/trace.h"
#include "impl/indexed_heap.h"
#include "impl/queue.h"
#include "impl/queueing_hints.h"
#include "impl/time_ns.h"
#include "impl/upstream.h"

namespace schedtrace::impl {

class BackendQueue {
 public:
  // An interned ClusterEvent (resource and action bits).
  using EventId = uint32_t;
  // upstream: PodSchedulingPropertiesChange's events, at most one per
  // extractor.
  using PodEvents = absl::InlinedVector<EventId, 5>;

  // `up` must have queueing_hints on; pop_from_backoff_q may be off
  // (SchedulerPopFromBackoffQ: false). Without
  // `hints` the QueueingHint map is the header's clusterEventMap with its
  // scripted hints (the queue layer); with them it is those registrations,
  // whose other hints SetHintEvaluator answers, and the nominator's pod
  // lister is the informer's (the scheduler layer: ListerSet and
  // ListerDelete).
  BackendQueue(const Config& config, const Upstream& up,
               const std::vector<HintRegistration>* hints = nullptr);
  BackendQueue(const BackendQueue&) = delete;
  BackendQueue& operator=(const BackendQueue&) = delete;

  void SetNow(int64_t t_ms) { now_ns_ = TimeFromMs(t_ms); }

  // upstream: the SchedulingQueue interface.
  void Add(const PodPtr& pod);
  // kFatal for a nil old pod (PodSchedulingPropertiesChange reads it).
  QueueResult Update(const PodPtr& old_pod, const PodPtr& new_pod);
  void Delete(const Pod& pod);
  void Activate(const std::vector<PodPtr>& pods);
  // upstream: MoveAllToActiveOrBackoffQueue(event, oldObj, newObj,
  // preCheck); `precheck` null lets every pod through.
  void MoveAllToActiveOrBackoffQueue(
      EventId event, const EventObjects& objects,
      const std::function<bool(const Pod&)>& precheck);
  // upstream: Done: the pod of `uid` is no longer in flight.
  void Done(const std::string& uid);
  // What answers the hints other than the default one (EvaluateHint with
  // a cache); a hint answering kPanic makes the queue panic (Panicked).
  using HintEvaluator =
      std::function<Hint(HintFn, const Pod&, const EventObjects&)>;
  void SetHintEvaluator(HintEvaluator eval) { hint_eval_ = std::move(eval); }
  void FlushBackoffQCompleted();
  void FlushUnschedulableEntitiesLeftover();
  // upstream: AddNominatedPod with ModeOverride to `node`.
  void AddNominatedPodOverride(const PodPtr& pod, const std::string& node);

  // The event a trace's ClusterEvent names (its action by v1.37's bits).
  EventId TraceEvent(const ClusterEvent& event);
  // The event of a resource and action bits, with its label ("" for none).
  EventId EventOf(const std::string& resource, int32_t bits,
                  std::string_view label = "") {
    return Event(InternResource(resource), bits, label);
  }
  // upstream: Scheduler.addAssignedPodToCache's event, AssignedPod/Add.
  EventId AssignedPodAddEvent() const { return assigned_pod_add_; }
  // upstream: framework.PodSchedulingPropertiesChange.
  void PodSchedulingPropertiesChange(const Pod& new_pod, const Pod& old_pod,
                                     bool is_target_pod, PodEvents& out);

  // The nominator's pod lister (`nominatorPodLister: "queue-ops"`).
  void ListerSet(const PodPtr& pod);
  void ListerDelete(const Pod& pod);
  // The pod the lister holds with `key`, or null.
  const PodPtr* ListerGet(const std::string& key) const {
    auto it = lister_.find(key);
    return it == lister_.end() ? nullptr : &it->second;
  }
  // upstream: nominator.AddNominatedPod: `node` nullopt is a nil
  // NominatingInfo, a value ModeOverride to that node.
  void AddNominatedPod(const PodPtr& pod,
                       const std::optional<std::string>& node) {
    NominatorAdd(pod, node);
  }
  // upstream: nominator.DeleteNominatedPodIfExists.
  void DeleteNominatedPodIfExists(const Pod& pod) { NominatorDelete(pod); }
  bool HasNominatedPods() const { return !nominated_pods_.empty(); }
  // upstream: nominator.nominatedPods (node name -> the pods as nominated).
  const absl::flat_hash_map<std::string, std::vector<PodPtr>>& NominatedPods()
      const {
    return nominated_pods_;
  }
  // upstream: nominatedPodToInfo's lookup: the pod the queue holds under
  // `ref`'s key (activeQ, backoffQ, unschedulablePods), whatever its uid;
  // nullptr for a pod in no queue, which counts as the ref alone.
  const PodPtr* QueuedPodOf(const Pod& ref) const;

  // --- QueuedPodInfos held outside the queue, as impl::PriorityQueue's ---
  using Handle = uint32_t;
  // upstream: Pop, never blocking: nullopt when activeQ and backoffQ are
  // empty. The handle must be given back to Release.
  std::optional<Handle> PopHandle();
  void Release(Handle h) { Unref(h); }
  const PodPtr& HandlePod(Handle h) const { return slab_[h].pod; }
  int HandleAttempts(Handle h) const { return slab_[h].attempts; }
  // Replaces UnschedulablePlugins (names, any order).
  void SetHandlePlugins(Handle h, const std::vector<std::string>& plugins);
  // upstream: QueuedPodInfo.DeepCopy with `pod` as its PodInfo's pod: a
  // new handle with h's counts, timestamps, plugins and gate.
  Handle CloneHandle(Handle h, const PodPtr& pod);
  // A new PodInfo of `pod` (same key) for the record h, held by no queue.
  void SetHandlePod(Handle h, const PodPtr& pod) { SetPod(h, pod); }
  // upstream: AddUnschedulablePodIfNotPresent (the cycle is not read);
  // calls Done in every case.
  QueueResult AddUnschedulablePodIfNotPresent(Handle h);
  // upstream: Done(uid) for the pod the handle holds (q_done).
  void DoneHandle(Handle h) { Done(slab_[h].pod->uid); }
  int64_t SchedulingCycle() const { return scheduling_cycle_; }
  // Whether upstream's queue panicked in this step (a gated pod's
  // PreEnqueue under a profile without its gating plugin): the step is
  // fatal, whatever followed.
  bool Panicked() const { return panicked_; }

  // The spec's snapshot parts, into reused storage (impl/queue.h's
  // contract: no two snapshots of one queue at once).
  void SnapshotQueueInto(QueueState& out) const;
  void SnapshotNominatedInto(Nominated& out) const;
  using ChangeMarks = PriorityQueue::ChangeMarks;
  ChangeMarks Marks() const;
  void AddTouched(const ChangeMarks& since, StateTouch& t) const;
  void RefreshQueueInto(QueueState& out, const StateTouch& t) const;

 private:
  static constexpr uint32_t kNone = 0xffffffffu;
  using PluginSet = absl::InlinedVector<uint16_t, 4>;  // sorted plugin ids

  // upstream: framework.QueuedPodInfo (with its PodInfo).
  struct Record {
    PodPtr pod;
    uint32_t key = kNone;  // interned key, fixed when the record is made
    int attempts = 0;
    int unschedulable_count = 0;
    int consecutive_errors = 0;
    TimeNs timestamp = 0;
    TimeNs flush_timestamp = 0;  // kGoZero: never flushed
    TimeNs backoff_expiry = 0;   // getBackoffTime, kept current
    PluginSet plugins;           // UnschedulablePlugins
    bool gated = false;          // GatingPlugin "SchedulingGates"
    int refs = 0;
  };

  struct ActiveLess {
    const BackendQueue* q;
    bool operator()(uint32_t a, uint32_t b) const;
  };
  struct BackoffLess {
    const BackendQueue* q;
    bool operator()(uint32_t a, uint32_t b) const;
  };
  struct ErrorBackoffLess {
    const BackendQueue* q;
    bool operator()(uint32_t a, uint32_t b) const;
  };
  struct KeyOf {
    const BackendQueue* q;
    uint32_t operator()(uint32_t h) const { return q->slab_[h].key; }
  };

  // An interned event: its registrations' plugins and the queue's verdicts.
  struct EventInfo {
    // The (plugin, hint) of each matching registration whose hint is not
    // the default one; `matched` is 1 for a plugin with a default hint
    // among its matching registrations, 2 for one with only these.
    std::vector<std::pair<uint16_t, HintFn>> hints;
    uint16_t resource = 0;
    int32_t bits = 0;
    bool wildcard = false;     // ClusterEventIsWildCard
    bool of_interest = false;  // isEventOfInterest
    bool gate_match = false;   // matches SchedulingGates' registrations
    // Labelled UnschedulablePodAdd or UnschedulablePodUpdate: before v1.37
    // moveToActiveQ nominates a pod it moves for it.
    bool nominates = false;
    // plugin id -> a matching key names it with a hint answering Queue
    std::vector<char> matched;
  };
  // A clusterEventMap entry naming plugins: a key of the QueueingHint map.
  struct Registration {
    uint16_t resource = 0;
    int32_t bits = 0;
    std::vector<uint16_t> plugins;
    std::vector<HintFn> fns;  // parallel to plugins
    bool skips = false;       // its hint answers QueueSkip (E14)
  };
  // An element of the in-flight list: a popped pod, or an event.
  struct InFlight {
    EventId event = kNone;  // kNone: a pod
    bool done = false;      // a pod Done removed (skipped, then pruned)
    // What the event carried, kept when a hint may read it (a wildcard
    // event's pod, or an event some hint function matches).
    EventObjects objects;
  };
  enum class Strategy { kSkip, kAfterBackoff };
  enum class Queue { kActive, kBackoff, kUnschedulable };

  // Slab and interning (backend_queue.cc).
  uint32_t NewRecord(const PodPtr& pod);
  void Ref(uint32_t h) { ++slab_[h].refs; }
  void Unref(uint32_t h);
  uint32_t InternKey(const std::string& key);
  std::optional<uint32_t> FindKey(const Pod& pod) const;
  uint16_t InternPlugin(const std::string& name);
  uint16_t InternResource(const std::string& name);
  // `label`: the event's custom label, "" for none (ClusterEvent.Label).
  EventId Event(uint16_t resource, int32_t bits, std::string_view label = "");
  bool MatchClusterEvents(const Registration& ce, uint16_t resource,
                          int32_t bits) const;

  // Heaps with reference counting.
  void ActiveUpsert(uint32_t h);
  void BackoffQAdd(uint32_t h);
  // Takes the record of `key` out of backoffQ (its reference passes to the
  // caller), or kNone.
  uint32_t BackoffQDelete(uint32_t key);
  bool BackoffQHas(uint32_t key) const {
    return backoff_.Contains(key) || error_backoff_.Contains(key);
  }

  // unschedulablePods and its plugin index (backend_queue_moves.cc).
  void UnschedAddOrUpdate(uint32_t h);
  void UnschedDelete(uint32_t key);
  void IndexInsert(uint32_t key);
  void IndexErase(uint32_t key);
  void SetPlugins(uint32_t h, PluginSet plugins);
  void SetPod(uint32_t h, const PodPtr& pod);

  // Backoff.
  TimeNs AlignToWindow(TimeNs t) const;
  bool IsPodBackingOff(const Record& r) const;
  TimeNs GetBackoffTime(const Record& r) const;
  int64_t CalculateBackoffDuration(int count) const;

  // The queue's decisions.
  bool HasHintMap(const Pod& pod) const {
    return profiles_.contains(pod.scheduler_name);
  }
  bool IsPodWorthRequeuing(const Record& r, EventId event,
                           const EventObjects& objects) const;
  bool IsPodWorthRequeuingInMapOrder(const Record& r, const EventInfo& e,
                                     const EventObjects& objects) const;
  void RunPreEnqueuePlugins(uint32_t h);
  bool MoveToActiveQ(uint32_t h, bool moves_from_backoff_q,
                     bool nominate = false);
  bool MoveToBackoffQ(uint32_t h);
  void AddPod(const PodPtr& pod);
  bool ActivateKey(uint32_t key);
  Strategy DetermineSchedulingHintForInFlightPod(uint32_t h) const;
  Queue RequeuePodWithQueueingStrategy(uint32_t h, Strategy strategy,
                                       bool nominates = false);
  void MovePodsToActiveOrBackoffQueue(EventId event,
                                      const EventObjects& objects);
  void AddEventIfAnyInFlight(EventId event, const EventObjects& objects);

  // Nominator (podRefs: the pod as it was nominated).
  void NominatorDelete(const Pod& pod);
  void NominatorAdd(const PodPtr& pod, std::optional<std::string> node);
  void NominatorUpdate(const PodPtr& old_pod, const PodPtr& new_pod);

  QueuedPod& SetQueuedPod(QueuedPod& q, uint32_t h) const;
  void WriteActive(QueueState& s) const;
  void WriteBackoff(QueueState& s) const;
  void WriteUnschedulable(QueueState& s) const;

  const Upstream up_;
  TimeNs now_ns_ = 0;
  int64_t initial_backoff_ns_ = 0;
  int64_t max_backoff_ns_ = 0;
  int64_t max_in_unschedulable_ns_ = 0;
  int64_t scheduling_cycle_ = 0;
  int64_t move_request_cycle_ = -1;  // until v1.37 (move_request_cycle_removed)
  // Panicked(); a hint function may set it while the queue decides.
  mutable bool panicked_ = false;
  // The clusterEventMap names a plugin's own hint function (E14), which may
  // panic: hints are asked in the map's order, as upstream asks them.
  bool ordered_hints_ = false;
  bool use_lister_ = false;  // nominatorPodLister "queue-ops"

  std::vector<Record> slab_;
  std::vector<uint32_t> free_;
  absl::flat_hash_map<std::string, uint32_t> key_ids_;
  std::vector<std::string> keys_;
  mutable std::string key_buf_;  // reused to build "namespace/name" keys

  absl::flat_hash_map<std::string, uint16_t> plugin_ids_;
  std::vector<std::string> plugin_names_;
  uint16_t scheduling_gates_ = 0;  // the id of "SchedulingGates"
  // PreEnqueue: scheduler name -> whether SchedulingGates runs.
  absl::flat_hash_map<std::string, bool> runs_scheduling_gates_;
  absl::flat_hash_set<std::string> profiles_;  // names with a hint map
  HintEvaluator hint_eval_;                    // SetHintEvaluator

  absl::flat_hash_map<std::string, uint16_t> resource_ids_;
  std::vector<Registration> registrations_;
  size_t registered_plugins_ = 0;  // plugin ids below are registered ones
  std::vector<EventInfo> events_;
  absl::flat_hash_map<uint64_t, EventId> event_ids_;
  EventId assigned_pod_add_ = 0;
  EventId wildcard_ = 0;  // resource "*", action All

  IndexedHeap<uint32_t, ActiveLess, KeyOf> active_;
  IndexedHeap<uint32_t, BackoffLess, KeyOf> backoff_;
  IndexedHeap<uint32_t, ErrorBackoffLess, KeyOf> error_backoff_;

  // unschedulablePods: key -> record, its keys, and the index.
  std::vector<uint32_t> unsched_;
  std::vector<uint32_t> unsched_keys_;
  std::vector<uint32_t> unsched_pos_;
  std::vector<uint32_t> stamp_;  // key -> epoch (candidate dedup)
  uint32_t epoch_ = 0;
  std::vector<absl::flat_hash_set<uint32_t>> plugin_index_;  // plugin -> keys
  absl::flat_hash_set<uint32_t> no_plugins_;     // keys with no plugins
  absl::flat_hash_set<uint32_t> without_hints_;  // keys without a hint map
  std::vector<uint32_t> candidates_;             // keys, reused by moves

  // upstream: activeQueue.inFlightPods / inFlightEvents. Element i of
  // inflight_ (from inflight_head_) has sequence number inflight_base_ + i.
  std::vector<InFlight> inflight_;
  size_t inflight_head_ = 0;
  uint64_t inflight_base_ = 0;
  absl::flat_hash_map<std::string, uint64_t> inflight_pods_;  // uid -> seq

  // Nominator: node -> pods (insertion order), uid -> node; the lister.
  absl::flat_hash_map<std::string, std::vector<PodPtr>> nominated_pods_;
  absl::flat_hash_map<std::string, std::string> nominated_pod_to_node_;
  absl::flat_hash_map<std::string, PodPtr> lister_;

  // Change marks (Marks; the heaps count their own).
  uint64_t unsched_changes_ = 0;
  uint64_t nominated_changes_ = 0;
  uint64_t shared_changes_ = 0;

  // Snapshot scratch.
  mutable IndexedHeap<uint32_t, ActiveLess, KeyOf> snapshot_active_;
  mutable std::vector<uint32_t> snapshot_order_;
  mutable std::vector<uint16_t> snapshot_plugins_;
};

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_BACKEND_QUEUE_H_
