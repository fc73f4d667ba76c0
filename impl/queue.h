// impl::PriorityQueue: the optimized scheduling queue (upstream
// internal/queue/scheduling_queue.go PriorityQueue, nominator included), as
// the version profile it is built with says (impl/upstream.h).
//
// Same observable behaviour as upstream, built for throughput:
//  - pod keys are interned into dense uint32 ids;
//  - QueuedPodInfos live in a slab of reference-counted records (upstream's
//    *QueuedPodInfo pointers: the same record can be held by a sub-queue, by
//    the nominator and by a caller's handle, and mutations are shared
//    exactly as in Go) that is recycled, so the steady state allocates
//    nothing for them;
//  - activeQ and backoffQ are IndexedHeaps with Go container/heap's order;
//  - unschedulablePods is a dense id -> record table plus an index from
//    plugin id to the pods whose UnschedulablePlugins hold it, so a move
//    request visits only the pods it can move.
//
//   PriorityQueue q(config, up);
//   q.SetNow(t_ms);
//   q.Add(pod);
//   if (std::optional<PriorityQueue::Handle> h = q.PopHandle()) {
//     ... q.HandlePod(*h) ...
//     q.Release(*h);
//   }
//
// The queue keeps no caller's bookkeeping: the QueuedPodInfos a caller holds
// (upstream's *QueuedPodInfo returned by Pop) are its handles, kept by the
// scheduler's cycles (impl/scheduler.h) or by the queue layer's System per
// pod key (impl/queue_system.cc).
#ifndef SCHEDTRACE_IMPL_QUEUE_H_
#define SCHEDTRACE_IMPL_QUEUE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "core/objects.h"
#include "core/state.h"
#include "core/state_touch.h"
#include "core/trace.h"
#include "impl/indexed_heap.h"
#include "impl/time_ns.h"
#include "impl/upstream.h"

namespace schedtrace::impl {

// What a call did, as the queue layer's `out` shows it.
enum class QueueResult { kOk, kError, kFatal };

class PriorityQueue {
 public:
  // `config.cluster_event_map` is the map moves match events against (the
  // scheduler layer passes its version's registrations, the queue layer the
  // header's). The default profile is v1.26.7's.
  explicit PriorityQueue(const Config& config, const Upstream& up = Upstream());
  // The heaps' comparators point back at this queue: not copyable/movable.
  PriorityQueue(const PriorityQueue&) = delete;
  PriorityQueue& operator=(const PriorityQueue&) = delete;

  // The scheduler names that have a QueueingHint map: the scheduler layer's
  // profiles (upstream v1.30 registers one map per profile). Without this
  // call every name has one, as in the queue layer's recordings (the
  // header's map registered for every name).
  void SetHintProfiles(const std::vector<std::string>& profiles);

  // The fake clock, in milliseconds.
  void SetNow(int64_t t_ms) { now_ns_ = TimeFromMs(t_ms); }

  QueueResult Add(const PodPtr& pod);
  QueueResult Update(const PodPtr& old_pod, const PodPtr& new_pod);
  QueueResult Delete(const PodPtr& pod);
  void Activate(const std::vector<PodPtr>& pods);
  // upstream: MoveAllToActiveOrBackoffQueue with a PreEnqueueCheck (null:
  // none), asked of each pod the event can move.
  void MoveAllToActiveOrBackoffQueue(
      const ClusterEvent& event,
      const std::function<bool(const Pod&)>& precheck);
  void AssignedPodAdded(const PodPtr& pod);
  void AssignedPodUpdated(const PodPtr& pod);
  void AddNominatedPodOverride(const PodPtr& pod, const std::string& node);
  void FlushBackoffQCompleted();
  void FlushUnschedulablePodsLeftover();

  // The nominator's pod lister (upstream nominator.podLister): the
  // informer's view of pods, kept by whoever plays the informer (the
  // scheduler's event handlers; the queue layer's ops, the spec's
  // `nominatorPodLister: "queue-ops"`).
  void ListerSet(const PodPtr& pod);
  void ListerDelete(const Pod& pod);
  // The pod with `key`, or null.
  const PodPtr* ListerGet(const std::string& key) const {
    auto it = lister_.find(key);
    return it == lister_.end() ? nullptr : &it->second;
  }

  // The spec's snapshot parts (impl/queue_snapshot.cc). The *Into forms
  // write the same value into `out`, reusing the storage it holds
  // (core/refill.h) and this queue's snapshot scratch: no two snapshots
  // of one queue may run concurrently.
  QueueState SnapshotQueue() const;
  void SnapshotQueueInto(QueueState& out) const;
  Nominated SnapshotNominated() const;
  void SnapshotNominatedInto(Nominated& out) const;

  // What may have changed in those parts (System::Touched): a reading taken
  // when a step starts, compared with the queue after it.
  struct ChangeMarks {
    uint64_t active = 0, backoff = 0, unschedulable = 0, nominated = 0,
             shared = 0;
    int64_t scheduling_cycle = 0, move_request_cycle = 0;
  };
  ChangeMarks Marks() const;
  // Adds to `t` the parts that may have changed since `since` was read.
  void AddTouched(const ChangeMarks& since, StateTouch& t) const;
  // `out`, an earlier queue snapshot, refreshed in the lists `t` names.
  void RefreshQueueInto(QueueState& out, const StateTouch& t) const;

  // --- QueuedPodInfos held outside the queue (impl/queue_handles.cc) ---
  // A Handle names one QueuedPodInfo (with its PodInfo) the caller holds a
  // reference to; every handle returned must be given back to Release.
  using Handle = uint32_t;
  // upstream: Pop (never blocking); nullopt when activeQ is empty.
  std::optional<Handle> PopHandle();
  void Release(Handle h) { Unref(h); }
  const PodPtr& HandlePod(Handle h) const { return slab_[h].pod; }
  // upstream: QueuedPodInfo.Attempts.
  int HandleAttempts(Handle h) const { return slab_[h].attempts; }
  // A new QueuedPodInfo with h's attempts, timestamps, plugins and gate
  // holding `pod`: with `new_pod_info` a fresh PodInfo (affinity terms from
  // `pod`), else a copy of h's PodInfo whose pod is replaced (terms kept).
  Handle CloneHandle(Handle h, const PodPtr& pod, bool new_pod_info);
  // Replaces UnschedulablePlugins (names, any order). `nil_set`: with no
  // plugins, Go's nil set rather than an empty one (a FitError without
  // rejectors under diagnosis_plugin_sets_allocated_lazily).
  void SetHandlePlugins(Handle h, const std::vector<std::string>& plugins,
                        bool nil_set = false);
  // upstream: AddUnschedulableIfNotPresent(pInfo, cycle).
  QueueResult AddUnschedulableIfNotPresent(Handle h, int64_t cycle);
  // upstream: nominator.AddNominatedPod; nullopt is a nil NominatingInfo,
  // a value ModeOverride to that node.
  void AddNominatedPod(Handle h, const std::optional<std::string>& node);
  // upstream: nominator.DeleteNominatedPodIfExists.
  void DeleteNominatedPodIfExists(const Pod& pod) { NominatorDelete(pod); }
  bool HasNominatedPods() const { return !nominated_pods_.empty(); }
  // upstream: nominator.nominatedPods (node name -> handles).
  const absl::flat_hash_map<std::string, std::vector<uint32_t>>& NominatedPods()
      const {
    return nominated_pods_;
  }
  int64_t SchedulingCycle() const { return scheduling_cycle_; }
  // Whether upstream's queue panicked in this step (a PreEnqueue rejection
  // inserting into a nil plugin set): the step is fatal, whatever followed.
  bool Panicked() const { return panicked_; }

 private:
  static constexpr uint32_t kNone = 0xffffffffu;
  using PluginSet = absl::InlinedVector<uint16_t, 4>;  // sorted plugin ids

  // upstream: framework.QueuedPodInfo (with its PodInfo).
  struct Record {
    PodPtr pod;
    PodPtr terms_pod;      // the pod RequiredAffinityTerms were computed from
    uint32_t key = kNone;  // interned pod key
    int attempts = 0;
    TimeNs timestamp_ns = 0;
    PluginSet plugins;
    bool plugins_nil = false;  // Go's nil UnschedulablePlugins: Insert panics
    bool gated = false;
    int refs = 0;
  };

  struct ActiveLess {
    const PriorityQueue* q;
    bool operator()(uint32_t a, uint32_t b) const;
  };
  struct BackoffLess {
    const PriorityQueue* q;
    bool operator()(uint32_t a, uint32_t b) const;
  };
  struct KeyOf {
    const PriorityQueue* q;
    uint32_t operator()(uint32_t h) const { return q->slab_[h].key; }
  };
  using Heap = IndexedHeap<uint32_t, ActiveLess, KeyOf>;
  using BHeap = IndexedHeap<uint32_t, BackoffLess, KeyOf>;

  // Slab of records.
  uint32_t NewRecord(const PodPtr& pod);
  void Ref(uint32_t h) { ++slab_[h].refs; }
  void Unref(uint32_t h);

  uint32_t InternKey(const std::string& key);
  std::optional<uint32_t> FindKey(const std::string& key) const;
  std::optional<uint32_t> FindKey(const Pod& pod);  // no allocation
  uint16_t InternPlugin(const std::string& name);
  void EnsureKeyTables(uint32_t id);

  // Heaps with reference counting.
  void ActiveUpsert(uint32_t h);
  void BackoffUpsert(uint32_t h);
  void ActiveDelete(uint32_t key);
  void BackoffDelete(uint32_t key);

  // unschedulablePods with the plugin index.
  void UnschedAddOrUpdate(uint32_t h);
  void UnschedDelete(uint32_t key);
  void IndexInsert(uint32_t key, const PluginSet& plugins);
  void IndexErase(uint32_t key, const PluginSet& plugins);
  void SetPlugins(uint32_t h, PluginSet plugins);
  void SetPod(uint32_t h, const PodPtr& pod);

  int64_t BackoffDurationNs(const Record& r) const;
  TimeNs BackoffTimeNs(const Record& r) const;
  bool IsPodBackingOff(const Record& r) const;
  bool RunPreEnqueuePlugins(uint32_t h);
  bool IsPodUpdated(const Pod& old_pod, const Pod& new_pod) const;
  // Whether the record's pod has no QueueingHint map (v1.30), and keeping
  // without_hints_ for unschedulablePods' record of `key`.
  bool WithoutHints(const Record& r) const;
  void TrackHints(uint32_t key);
  bool AddToActiveQ(uint32_t h);
  bool PodMatchesEvent(const Record& r, const ClusterEvent& event);
  void ComputeEventPlugins(const ClusterEvent& event);
  // Whether a move for the event ComputeEventPlugins saw last returns at
  // once (upstream v1.30: isEventOfInterest).
  bool DropsEvent() const;
  void MovePodsToActiveOrBackoffQueue(const ClusterEvent& event);
  void CollectCandidates(const ClusterEvent& event);
  bool AffinityMatches(const Record& r, const Pod& assigned) const;

  QueuedPod& SetQueuedPod(QueuedPod& q, uint32_t h) const;

  // Nominator.
  void NominatorDelete(const Pod& pod);
  void AddNominatedPodUnlocked(uint32_t h, std::optional<std::string> node);
  bool UpdateNominatedPodUnlocked(const PodPtr& old_pod, uint32_t h);

  const Upstream up_;
  TimeNs now_ns_ = 0;
  int64_t initial_backoff_ns_ = 0;
  int64_t max_backoff_ns_ = 0;
  int64_t max_in_unschedulable_ns_ = 0;
  int64_t scheduling_cycle_ = 0;
  bool panicked_ = false;  // Panicked()
  int64_t move_request_cycle_ = -1;
  // How often unschedulablePods and the nominations changed (Marks; activeQ
  // and backoffQ count in their heaps).
  uint64_t unsched_changes_ = 0;
  uint64_t nominated_changes_ = 0;
  // A record changed that backoffQ or unschedulablePods may show as well
  // as the queue it left (a pop's attempts).
  uint64_t shared_changes_ = 0;
  void WriteActive(QueueState& s) const;
  void WriteBackoff(QueueState& s) const;
  void WriteUnschedulable(QueueState& s) const;

  std::vector<Record> slab_;
  std::vector<uint32_t> free_;

  absl::flat_hash_map<std::string, uint32_t> key_ids_;
  std::vector<std::string> keys_;
  std::vector<uint32_t> unsched_;       // key -> record, or kNone
  std::vector<uint32_t> stamp_;         // key -> epoch (candidate dedup)
  std::vector<uint32_t> unsched_keys_;  // keys in unschedulablePods
  std::vector<uint32_t> unsched_pos_;   // key -> position in unsched_keys_
  uint32_t epoch_ = 0;

  absl::flat_hash_map<std::string, uint16_t> plugin_ids_;
  std::vector<std::string> plugin_names_;
  std::vector<absl::flat_hash_set<uint32_t>> plugin_index_;  // plugin -> keys
  absl::flat_hash_set<uint32_t> no_plugins_;  // keys with empty plugin sets
  // SetHintProfiles: the names with a QueueingHint map, and the keys of
  // unschedulablePods whose pod's name has none.
  bool hints_per_profile_ = false;
  absl::flat_hash_set<std::string> hint_profiles_;
  absl::flat_hash_set<uint32_t> without_hints_;

  // clusterEventMap, interned: resource, action bits, plugin ids.
  struct EventEntry {
    std::string resource;
    bool any_resource = false;  // resource "*"
    uint32_t actions = 0;
    std::vector<uint16_t> plugins;
  };
  std::vector<EventEntry> event_map_;
  std::vector<char> event_plugins_;   // plugin -> matched by this event
  bool event_of_interest_ = false;    // some plugin registered this event
  std::vector<uint32_t> candidates_;  // records, reused by move requests

  // PreEnqueue: scheduler name -> whether SchedulingGates runs.
  absl::flat_hash_map<std::string, std::vector<std::string>> pre_enqueue_;
  bool scheduling_readiness_ = false;
  uint16_t scheduling_gates_plugin_ = 0;  // the id of "SchedulingGates"

  Heap active_;
  BHeap backoff_;

  // Snapshot scratch, kept so that snapshots reuse its storage.
  mutable Heap snapshot_active_;                    // a copy of active_ to pop
  mutable std::vector<uint32_t> snapshot_order_;    // records in key order
  mutable std::vector<uint16_t> snapshot_plugins_;  // plugins in name order

  // nominator: node -> records (insertion order), uid -> node.
  absl::flat_hash_map<std::string, std::vector<uint32_t>> nominated_pods_;
  absl::flat_hash_map<std::string, std::string> nominated_pod_to_node_;
  absl::flat_hash_map<std::string, PodPtr> lister_;  // key -> pod
  std::string key_buf_;  // reused to build "namespace/name" keys
};

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_QUEUE_H_
