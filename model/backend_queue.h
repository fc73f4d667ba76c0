// BackendQueue: a reference model of the scheduling queue from v1.35 on
// (pkg/scheduler/backend/queue: scheduling_queue.go, active_queue.go,
// backoff_queue.go), at its default gates: QueueingHints decide every move,
// the queue records what happens while pods are in flight, Pop takes from
// backoffQ when activeQ is empty, and backoff expiries are aligned to
// one-second windows. With up.queueing_hints off it takes v1.35's hint-off
// path (moveRequestCycle, no in-flight pods, default hints), which only a
// build with that gate's default reverted runs. Pod groups (GenericWorkload,
// off by default) are not modelled. One method per upstream function,
// upstream's names and order; plain containers. model/queue.h is the queue of
// v1.25 to v1.30.
//
//   BackendQueue q(config, lister, up);   // up.backend_queue
//   q.SetNow(t_ms);
//   q.Add(pod);
//   std::shared_ptr<QueuedPodInfo> p = q.Pop();   // null: nothing to pop
//   q.AddUnschedulablePodIfNotPresent(p, q.SchedulingCycle());  // calls Done
#ifndef SCHEDTRACE_MODEL_BACKEND_QUEUE_H_
#define SCHEDTRACE_MODEL_BACKEND_QUEUE_H_

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "core/objects.h"
#include "core/state.h"
#include "core/trace.h"
#include "model/go_heap.h"
#include "model/go_time.h"
#include "model/queue.h"
#include "model/upstream.h"

namespace schedtrace::model {

// upstream: fwk.ActionType (kube-scheduler/framework/types.go, v1.37's
// values). v1.35 and v1.36 number the pod update actions lower, which no
// comparison the queue makes can tell apart: only these bits' order
// matters (MatchClusterEvents's `incoming <= registered`), and Update and
// All stay above every single action.
namespace action {
inline constexpr int64_t kAdd = 1;
inline constexpr int64_t kDelete = 2;
inline constexpr int64_t kUpdateNodeAllocatable = 4;
inline constexpr int64_t kUpdateNodeLabel = 8;
inline constexpr int64_t kUpdateNodeTaint = 16;
inline constexpr int64_t kUpdateNodeCondition = 32;
inline constexpr int64_t kUpdateNodeAnnotation = 64;
inline constexpr int64_t kUpdatePodLabel = 512;
inline constexpr int64_t kUpdatePodScaleDown = 1024;
inline constexpr int64_t kUpdatePodScaleUp = 2048;
inline constexpr int64_t kUpdatePodToleration = 4096;
inline constexpr int64_t kUpdatePodSchedulingGatesEliminated = 8192;
inline constexpr int64_t kAll = 32767;
inline constexpr int64_t kUpdate = kAll & ~(kAdd | kDelete);
}  // namespace action

// The bits of a trace's action name (docs/FORMAT.md); 0 for a name the
// version does not have.
int64_t QueueActionBits(const std::string& name);
// A trace's ClusterEvent as the queue matches it.
QueueEvent ToQueueEvent(const ClusterEvent& event);

// upstream: framework.PodSchedulingPropertiesChange: the events of a pod
// update, resource AssignedPod (a bound new pod), TargetPod (the pod the
// update is about) or UnscheduledPod.
std::vector<QueueEvent> PodSchedulingPropertiesChange(const Pod& newPod,
                                                      const Pod& oldPod,
                                                      bool isTargetPod,
                                                      const Upstream& up);
// upstream: fwk.ClusterEvent.Label: the custom label, else resource and
// action ("UnschedulablePodUpdate").
std::string EventLabel(const QueueEvent& event);

// upstream: the events of framework/events.go the scheduler's handlers send
// (v1.35+).
inline QueueEvent EventAssignedPodAdd() {
  return QueueEvent{"AssignedPod", action::kAdd, "AssignedPodAdd"};
}
inline QueueEvent EventAssignedPodDelete() {
  return QueueEvent{"AssignedPod", action::kDelete, "AssignedPodDelete"};
}

// upstream: queueingStrategy.
enum class QueueingStrategy { kSkip, kAfterBackoff, kImmediately };
// upstream: fwk.QueueingHint; kPanic: the function dereferenced a nil
// object (upstream panics: the step is fatal).
enum class QueueingHint { kQueueSkip, kQueue, kPanic };

// The objects an event carries (oldObj, newObj); null where upstream passes
// nil. The queue layer's events carry pods at most; the scheduler layer's
// node events carry nodes.
struct EventObjects {
  PodPtr old_pod;
  PodPtr new_pod;
  NodePtr old_node;
  NodePtr new_node;
};

// upstream: fwk.QueueingHintFn of one plugin for one registered event: what
// the event (its objects) means for the unschedulable `pod`. A hint that
// returns an error answers Queue here (isPodWorthRequeuing treats it so).
using QueueingHintFn =
    std::function<QueueingHint(const Pod& pod, const EventObjects& objects)>;
// upstream: framework.defaultQueueingHintFn: always Queue.
QueueingHint DefaultQueueingHintFn(const Pod& pod, const EventObjects& objects);

// upstream: QueueingHintFunction (PreQueueingHintFn: none is registered).
struct QueueingHintFunction {
  std::string plugin;
  QueueingHintFn fn;
};
// upstream: QueueingHintMap of one profile (every profile has the same):
// registered event -> the hint functions of the plugins registering it, in
// registration order.
struct QueueingHintMapEntry {
  QueueEvent event;
  std::vector<QueueingHintFunction> fns;
};
using QueueingHintMap = std::vector<QueueingHintMapEntry>;

// The queue layer's map: one key per clusterEventMap entry that names
// plugins, each plugin with the default hint (docs/FORMAT.md).
// A hint "plugin" entry: the plugin's own function (PluginQueueingHintFn,
// model/queueing_hints.h); the others answer as FORMAT.md's E14 scripts.
QueueingHintMap QueueingHintMapOfClusterEventMap(
    const std::vector<ClusterEventMapEntry>& cluster_event_map,
    const Upstream& up);

class BackendQueue {
 public:
  BackendQueue(const Config& config, PodLister lister, const Upstream& up);

  void SetNow(int64_t now_ms) { now_ = Time::FromMs(now_ms); }
  // The QueueingHint map of every profile (default: the header's
  // clusterEventMap with default hints, QueueingHintMapOfClusterEventMap).
  void SetQueueingHintMap(QueueingHintMap map) { hint_map_ = std::move(map); }

  // upstream: the SchedulingQueue interface.
  void Add(const PodPtr& pod);
  void Activate(const std::vector<PodPtr>& pods);
  absl::Status AddUnschedulablePodIfNotPresent(
      const std::shared_ptr<QueuedPodInfo>& pInfo, int64_t podSchedulingCycle);
  int64_t SchedulingCycle() const { return sched_cycle_; }
  std::shared_ptr<QueuedPodInfo> Pop();  // never blocks: null when empty
  void Done(const std::string& uid);
  // A nil old pod is a FatalError (PodSchedulingPropertiesChange reads it).
  absl::Status Update(const PodPtr& oldPod, const PodPtr& newPod);
  void Delete(const PodPtr& pod);
  void MoveAllToActiveOrBackoffQueue(const QueueEvent& event,
                                     const EventObjects& objects,
                                     const PreEnqueueCheck& preCheck);
  // What the scheduler calls for an assigned pod with SchedulerQueueingHints
  // off (with it on, MoveAllToActiveOrBackoffQueue).
  void AssignedPodAdded(const PodPtr& pod);
  void AssignedPodUpdated(const PodPtr& oldPod, const PodPtr& newPod,
                          const QueueEvent& event);
  void flushBackoffQCompleted();
  void flushUnschedulableEntitiesLeftover();

  // A panic upstream's queue would have raised in this step (FatalError),
  // OK otherwise (as PriorityQueue::Panic).
  absl::Status Panic() const { return panic_; }

  // upstream: the nominator.
  void AddNominatedPod(const std::shared_ptr<PodInfo>& pi,
                       const std::optional<NominatingInfo>& nominatingInfo) {
    nominator_.Add(pi, nominatingInfo);
  }
  void DeleteNominatedPodIfExists(const PodPtr& pod) {
    nominator_.Delete(*pod);
  }
  // upstream: PriorityQueue.NominatedPodsForNode: each pod nominated to
  // the node, as nominatedPodToInfo resolves its podRef.
  std::vector<std::shared_ptr<PodInfo>> NominatedPodsForNode(
      const std::string& nodeName) const;

  void SnapshotQueueInto(QueueState& out) const;
  void SnapshotNominatedInto(Nominated& out) const {
    nominator_.SnapshotInto(out);
  }

 private:
  using Entry = std::shared_ptr<QueuedPodInfo>;
  // upstream: an element of activeQueue.inFlightEvents: a popped pod (by
  // uid) or a clusterEvent received while some pod was in flight.
  struct InFlight {
    std::string pod_uid;  // empty for an event
    QueueEvent event;
    EventObjects objects;
  };

  // upstream: PriorityQueue and its queues, in scheduling_queue.go's order.
  bool isEventOfInterest(const QueueEvent& event) const;
  QueueingStrategy isPodWorthRequeuing(const QueuedPodInfo& pInfo,
                                       const QueueEvent& event,
                                       const EventObjects& objects) const;
  void runPreEnqueuePlugins(QueuedPodInfo& pInfo);
  bool moveToActiveQ(const Entry& pInfo, bool movesFromBackoffQ,
                     bool nominate = false);
  bool moveToBackoffQ(const Entry& pInfo);
  void addPod(const PodPtr& pod);
  bool activate(const std::string& key);
  QueueingStrategy determineSchedulingHintForInFlightPod(
      const QueuedPodInfo& pInfo) const;
  void addUnschedulableWithoutQueueingHint(const Entry& pInfo,
                                           int64_t podSchedulingCycle);
  absl::Status updateUnschedulableWithoutQueueingHint(const Entry& pInfo,
                                                      const Pod& oldPod,
                                                      const Pod& newPod);
  std::vector<Entry> getUnschedulablePodsWithCrossTopologyTerm(
      const Pod& pod) const;
  std::string requeuePodWithQueueingStrategy(const Entry& pInfo,
                                             QueueingStrategy strategy,
                                             const std::string& event);
  void movePodsToActiveOrBackoffQueue(const std::vector<Entry>& podInfoList,
                                      const QueueEvent& event,
                                      const EventObjects& objects);
  void addEventIfAnyInFlight(const QueueEvent& event,
                             const EventObjects& objects);
  void addEventsIfPodInFlight(const PodPtr& oldPod, const PodPtr& newPod,
                              const std::vector<QueueEvent>& events);
  Entry newQueuedPodInfo(const PodPtr& pod) const;
  std::shared_ptr<PodInfo> nominatedPodToInfo(const Pod& ref) const;
  // upstream: backoffQueue.
  Time alignToWindow(Time t) const;
  bool isPodBackingoff(const QueuedPodInfo& pInfo) const;
  Time getBackoffTime(const QueuedPodInfo& pInfo) const;
  Duration calculateBackoffDuration(int count) const;
  void backoffQAdd(const Entry& pInfo);
  Entry backoffQDelete(const std::string& key);
  const Entry* backoffQGet(const std::string& key) const;

  Config config_;
  Upstream up_;
  QueueingHintMap hint_map_;
  Time now_;
  Duration pod_initial_backoff_ = 0;
  Duration pod_max_backoff_ = 0;
  Duration pod_max_in_unschedulable_ = 0;
  int64_t sched_cycle_ = 0;
  int64_t move_request_cycle_ = -1;  // until v1.37
  GoHeap<Entry> activeQ_;
  GoHeap<Entry> podBackoffQ_;       // failed on plugins
  GoHeap<Entry> podErrorBackoffQ_;  // failed on errors
  std::map<std::string, Entry> unschedulablePods_;
  // upstream: inFlightPods (uid -> its element) and inFlightEvents.
  std::list<InFlight> inFlightEvents_;
  std::map<std::string, std::list<InFlight>::iterator> inFlightPods_;
  Nominator nominator_;
  // Panic(); mutable: a hint function's panic is met in a const check.
  mutable absl::Status panic_;
};

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_BACKEND_QUEUE_H_
