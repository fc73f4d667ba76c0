// impl::Scheduler: the scheduler layer built for throughput — the informer's
// filters and the handlers of eventhandlers.go, one scheduling cycle of
// schedule_one.go per `schedule_one` step, and binding cycles that run until
// they park (waiting on Permit, or before PreBind until a `bind` step), over
// impl::Cache and impl::PriorityQueue up to v1.30, impl::BackendQueue with
// the plugins' QueueingHints (impl/queueing_hints.h) from v1.35. Observable
// behaviour (each step's out and the state after it) is upstream's, bugs
// included, in the version its profile names (impl/upstream.h; the event
// registrations of that version, impl/event_registrations.h).
//
// Speed: the scheduler keeps upstream's node snapshot (cache.Snapshot) as a
// dense table indexed by the cache's node ids, refreshed incrementally from
// the NodeInfos the cache marks changed — a NodeInfo is copied as a pod
// count and a Requested vector, never with its pods; what the filters read
// of a node object (allocatable, taints, score) is computed once per object
// (impl/filters.h). A cycle filters each node with a few comparisons and
// picks the host in the same pass.
//
// Its definitions follow upstream's files: impl/event_handlers.cc
// (eventhandlers.go), impl/schedule_one.cc (schedule_one.go),
// impl/pod_handler.cc (v1.35's one pod handler), impl/scheduler_snapshot.cc
// (cache.go's UpdateSnapshot) and impl/scheduler.cc (construction, the
// Permit and flush steps, the calls to whichever queue, snapshots).
//
//   Scheduler s(header.config, up);
//   s.SetNow(step.t);
//   bool alive = s.OnPodAdd(pod);  // false: upstream exited (fatal)
//   alive = s.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kWait);
//   StepOut out = s.TakeOut();  // what the steps since the last call emitted
//   State state = s.Snapshot();  // the spec's scheduler-layer snapshot
#ifndef SCHEDTRACE_IMPL_SCHEDULER_H_
#define SCHEDTRACE_IMPL_SCHEDULER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "core/objects.h"
#include "core/state.h"
#include "core/trace.h"
#include "impl/backend_queue.h"
#include "impl/cache.h"
#include "impl/filters.h"
#include "impl/queue.h"
#include "impl/queueing_hints.h"
#include "impl/upstream.h"

namespace schedtrace::impl {

class Scheduler {
  // (Defined first: the inline calls below deduce their return types.)
  // `f` called with whichever scheduling queue the version has: the two
  // queues share the names of the calls they both answer. A move's objects
  // reach only BackendQueue's hints.
  template <typename F>
  decltype(auto) WithQueue(F&& f) {
    if (backend_ != nullptr) return f(*backend_);
    return f(*queue_);
  }
  template <typename F>
  decltype(auto) WithQueue(F&& f) const {
    if (backend_ != nullptr) return f(std::as_const(*backend_));
    return f(std::as_const(*queue_));
  }

 public:
  // The default profile is v1.26.7's.
  explicit Scheduler(const Config& config, const Upstream& up = Upstream());
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  void SetNow(int64_t now_ms) {
    now_ms_ = now_ms;
    WithQueue([&](auto& q) { q.SetNow(now_ms); });
  }

  // Informer deliveries (addAllEventHandlers) and the other steps. Each
  // returns false where upstream exits (klog.FlushAndExit or a panic).
  bool OnPodAdd(const PodPtr& pod);
  bool OnPodUpdate(const PodPtr& old_pod, const PodPtr& new_pod);
  bool OnPodDelete(const PodPtr& pod, bool tombstone);
  bool OnNodeAdd(const NodePtr& node);
  bool OnNodeUpdate(const NodePtr& old_node, const NodePtr& new_node);
  bool OnNodeDelete(const NodePtr& node);
  bool OnClusterEvent(const std::string& resource, const std::string& action,
                      bool wait_for_first_consumer);
  bool FlushBackoff();
  bool FlushUnschedulable();
  // upstream: scheduleOne with the scripted Reserve and Permit outcomes.
  bool ScheduleOne(ReserveOutcome reserve, PermitOutcome permit);
  // A Permit plugin allows / rejects the waiting pod `key` (no-op if none).
  bool PermitAllow(const std::string& key);
  bool PermitReject(const std::string& key);
  // Releases the binding cycle of `key` parked before PreBind.
  bool Bind(const std::string& key, bool prebind_ok, bool bind_ok);

  StepOut TakeOut();
  // Whether the queue panicked in this step (PriorityQueue::Panicked).
  bool QueuePanicked() const {
    return WithQueue([](const auto& q) { return q.Panicked(); });
  }
  State Snapshot() const;
  // The same value written into `out`, reusing the storage it holds.
  void SnapshotInto(State& out) const;
  // What the last step may have changed in the snapshot (System::Touched):
  // every part but the cache's, which says which NodeInfos and lists.
  void Touched(StateTouch& t) const;
  // `out`, an earlier snapshot, refreshed in what `t` names.
  void RefreshInto(State& out, const StateTouch& t) const;
  // The queue, nominations, waiting and parked parts of SnapshotInto.
  void SnapshotAllButCacheInto(State& out) const;
  void WriteWaitingAndParked(State& out) const;
  // A step starts: what changed before it is forgotten.
  void ForgetTouched() {
    cache_.ForgetTouched();
    queue_marks_ = WithQueue([](const auto& q) { return q.Marks(); });
  }

 private:
  using Handle = PriorityQueue::Handle;

  // A binding cycle between steps (upstream: the goroutine scheduleOne
  // starts), holding the assumed QueuedPodInfo.
  struct BindingCycle {
    std::string profile;
    Handle assumed = 0;
    std::string node;
    std::string key;  // the pod's key
    std::string uid;
  };
  // Work a handler leaves for after it returns.
  struct Continuation {
    bool reject = false;  // true: the failure path; false: park
    BindingCycle cycle;
    // For a rejection: the plugin that rejected, as a plugin set.
    const std::vector<std::string>* rejected_by = nullptr;
  };
  // One entry of upstream's node snapshot, by cache node id.
  struct SnapNode {
    bool in_map = false;  // upstream: in Snapshot.nodeInfoMap
    NodeFacts facts;      // of the copied NodeInfo's node
    int64_t pods = 0;     // len(NodeInfo.Pods)
    Requests requested;
    // NodeAffinity's verdict by affinity signature id (-1 unknown), valid
    // for `facts.node`.
    std::vector<int8_t> affinity_memo;
  };
  // The nominated pods a cycle counts on one node (RunFilterPluginsWith-
  // NominatedPods): how many, and their summed requests.
  struct NominatedExtra {
    int64_t pods = 0;
    Requests requested;
  };

  // upstream: internalqueue.AssignedPodDelete
  static const ClusterEvent& AssignedPodDeleteEvent();

  bool Responsible(const Pod& pod) const;
  // The cache handler's informer filter (an assigned pod).
  bool ForCache(const Pod& pod) const;

  // upstream: eventhandlers.go
  bool AddPodToCache(const PodPtr& pod);
  bool UpdatePodInCache(const PodPtr& old_pod, const PodPtr& new_pod);
  bool DeletePodFromCache(const PodPtr& pod);
  bool AddPodToSchedulingQueue(const PodPtr& pod);
  bool UpdatePodInSchedulingQueue(const PodPtr& old_pod, const PodPtr& new_pod);
  bool DeletePodFromSchedulingQueue(const PodPtr& pod);
  void MoveForNode(const ClusterEvent& event, uint32_t node_id);
  // From v1.35 (unified_pod_handler, impl/pod_handler.cc): the one pod
  // handler and what it calls.
  bool AddPod(const PodPtr& pod);
  bool UpdatePod(const PodPtr& old_pod, const PodPtr& new_pod);
  bool DeletePod(const PodPtr& pod, bool tombstone);
  // (addAssignedPodToCache, updateAssignedPodInCache and
  // deleteAssignedPodFromCache are AddPodToCache, UpdatePodInCache and
  // DeletePodFromCache, renamed.)
  bool DeletePodFromSchedulingQueue(const PodPtr& pod, bool in_binding);
  bool HandleAssumedPodDeletion(const PodPtr& deleted);
  // The v1.35 cluster_event handler (a buildEvtResHandler per kind of the
  // QueueingHint map).
  void MoveForOtherKind(const std::string& resource, const std::string& action,
                        bool wait_for_first_consumer);

  void QueueRelease(Handle h) {
    WithQueue([h](auto& q) { q.Release(h); });
  }
  const PodPtr& QueuePod(Handle h) const {
    return WithQueue(
        [h](const auto& q) -> const PodPtr& { return q.HandlePod(h); });
  }
  // upstream (v1.35+): SchedulingQueue.Done; the older queue has no
  // in-flight pods.
  void QueueDone(const std::string& uid);
  // AssignedPodDelete with the deleted pod; `precheck` null: none.
  void MoveAssignedPodDelete(const PodPtr& pod,
                             const std::function<bool(const Pod&)>& precheck);
  // The PreEnqueueCheck of a priority: pods of at most `priority`
  // (getLEPriorityPreCheck).
  static std::function<bool(const Pod&)> AtMostPriority(int32_t priority);

  // upstream: schedule_one.go (impl/schedule_one.cc)
  bool SchedulingCycle(const std::string& profile, Handle h,
                       ReserveOutcome reserve, PermitOutcome permit);
  // upstream: the error schedulePod returns, by what schedulingCycle tells
  // apart: nil, ErrNoNodesAvailable, a *FitError, any other error.
  enum class ScheduleError { kNone, kNoNodesAvailable, kFitError, kError };
  ScheduleError SchedulePod(const Pod& pod, uint32_t& mask, uint32_t& host);
  bool FindNodesThatFitPod(const Pod& pod, uint32_t& mask);
  void FindNodesThatPassFilters(uint32_t& mask);
  void FilterInto(uint32_t id, uint32_t& mask);
  bool PrioritizeNodesAndSelectHost(uint32_t& host) const;
  bool StartBindingCycle(BindingCycle cycle, PermitOutcome permit);
  // `rejected_by`: the plugin of a Permit rejection (as a set), else null.
  bool HandleSchedulingFailure(
      Handle h, const char* reason, std::optional<uint32_t> fit_error_mask,
      bool clear_nominated_node,
      const std::vector<std::string>* rejected_by = nullptr);
  // The same from v1.35 (BackendQueue, in-flight pods).
  bool HandleSchedulingFailureWithHints(
      Handle h, const char* reason, std::optional<uint32_t> fit_error_mask,
      bool clear_nominated_node, const std::vector<std::string>* rejected_by);
  bool HandleBindingCycleError(
      const BindingCycle& cycle, bool unschedulable,
      const std::vector<std::string>* rejected_by = nullptr);
  // `plugin`: the rejecting plugin (Reject(pluginName, ...)), as a set.
  bool RejectWaitingPod(const std::string& profile, const std::string& uid,
                        const std::vector<std::string>& plugin);
  size_t FindWaiting(const std::string& key) const;
  bool RunContinuations();

  // upstream: cacheImpl.UpdateSnapshot into snap_ / snap_list_; false is
  // its "snapshot state is not consistent" error.
  bool UpdateSnapshot();
  void RebuildSnapshotList();
  uint32_t SnapshotGet(const std::string& name) const;  // kNoNode if absent
  // upstream: RunFilterPluginsWithNominatedPods for the cycle's pod.
  int FilterNode(uint32_t id);
  // Per cycle: which nodes have nominated pods the cycle's pod must count.
  void CollectNominated();
  // snap_list_ sorted by score (descending), ties in list order.
  void RebuildScoreOrder();

  const Upstream up_;
  Config config_;  // with the version's PreEnqueue plugins and event map
  // The rejecting plugin of a Permit rejection, as a plugin set: the Permit
  // plugin's name, or "" when RejectWaitingPod rejected a deleted pod.
  const std::vector<std::string> permit_rejector_;
  const std::vector<std::string> removed_rejector_ = {""};
  int64_t now_ms_ = 0;
  Cache cache_;
  PriorityQueue::ChangeMarks queue_marks_;  // at the step's start
  // The queue: up to v1.30 queue_, from v1.35 backend_ (queueing_hints);
  // its lister is the informer's pod store.
  std::unique_ptr<PriorityQueue> queue_;
  std::unique_ptr<BackendQueue> backend_;
  // With backend_: the action bits each resource's registrations hold
  // (the kinds buildEvtResHandler watches), and the events the handlers
  // send.
  absl::flat_hash_map<std::string, int32_t> registered_bits_;
  BackendQueue::EventId node_add_ = 0;
  BackendQueue::EventId node_delete_ = 0;
  BackendQueue::EventId assigned_pod_delete_ = 0;
  BackendQueue::PodEvents pod_events_;  // scratch

  std::vector<SnapNode> snap_;
  // By snapshot id, what NodeResourcesFit compares of each SnapNode (its
  // facts, pods and requested), for scans that skip full nodes.
  std::vector<Headroom> headroom_;
  std::vector<uint32_t> snap_list_;  // upstream: Snapshot.nodeInfoList
  int snap_count_ = 0;               // len(Snapshot.nodeInfoMap)
  std::vector<uint32_t> dirty_;      // scratch
  std::vector<uint32_t> feasible_;   // scratch
  PodFacts pod_facts_;               // the cycle's pod
  Requests with_nominated_;          // scratch
  // Affinity signature -> id (SnapNode::affinity_memo); the cycle's id.
  absl::flat_hash_map<std::string, uint32_t> affinity_sigs_;
  uint32_t cycle_sig_ = 0;
  bool cycle_memo_ = false;
  // By snapshot id: nominated_epoch_[id] == epoch_ when this cycle counts
  // nominated_[id] on the node.
  std::vector<uint32_t> nominated_epoch_;
  std::vector<NominatedExtra> nominated_;
  uint32_t epoch_ = 0;
  // snap_list_ by descending score; valid unless score_order_dirty_.
  std::vector<uint32_t> score_order_;
  bool score_order_dirty_ = true;
  // With score_order_: each node's position in it by snapshot id (kNoPos
  // for none), and the nodes' headroom in that order.
  static constexpr uint32_t kNoPos = ~uint32_t{0};
  std::vector<uint32_t> score_pos_;
  ScanRooms score_rooms_;
  struct ScoreKey {
    int64_t score;
    uint32_t pos;  // in snap_list_
  };
  std::vector<ScoreKey> score_keys_;  // scratch
  int out_of_range_scores_ = 0;  // nodes of snap_list_ scored outside [0,100]

  absl::InlinedVector<const ClusterEvent*, 5> node_events_;  // scratch
  std::vector<BindingCycle> waiting_;  // upstream: waitingPods, any order
  std::vector<BindingCycle> parked_;   // in the order they parked
  std::vector<Continuation> continuations_;
  StepOut out_;
};

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_SCHEDULER_H_
