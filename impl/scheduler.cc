#include "impl/scheduler.h"

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <utility>

#include "absl/strings/numbers.h"
#include "harness/go_int.h"
#include "harness/refill.h"
#include "impl/mutants.h"

namespace schedtrace::impl {
namespace {

constexpr char kUnschedulable[] = "Unschedulable";  // v1.PodReasonUnschedulable
constexpr char kSchedulerError[] =
    "SchedulerError";  // v1.PodReasonSchedulerError

// upstream: each profile's framework registers the PreEnqueue plugins of its
// configuration (the header's plugins.preEnqueue; SchedulingGates when the
// feature is on and the header does not say).
Config WithPreEnqueuePlugins(Config config) {
  if (!config.pre_enqueue_plugins.empty()) return config;
  std::vector<std::string> plugins;
  if (auto it = config.plugins.find("preEnqueue"); it != config.plugins.end()) {
    plugins = it->second;
  } else if (config.Feature("PodSchedulingReadiness")) {
    plugins = {"SchedulingGates"};
  }
  for (const std::string& profile : config.profiles) {
    config.pre_enqueue_plugins[profile] = plugins;
  }
  return config;
}

const ClusterEvent& AssignedPodDeleteEvent() {
  static const ClusterEvent e{"Pod", "Delete", "AssignedPodDelete"};
  return e;
}

// upstream: nodeSchedulingPropertiesChange (eventhandlers.go).
std::optional<ClusterEvent> NodePropertiesChange(const Node& new_node,
                                                 const Node& old_node) {
  if (new_node.unschedulable != old_node.unschedulable &&
      !new_node.unschedulable) {
    return ClusterEvent{"Node", "UpdateNodeTaint",
                        "NodeSpecUnschedulableChange"};
  }
  if (old_node.allocatable != new_node.allocatable) {
    return ClusterEvent{"Node", "UpdateNodeAllocatable",
                        "NodeAllocatableChange"};
  }
  if (old_node.labels != new_node.labels) {
    if (MutantActive(Mutant::kLabelChangeAsTaintEvent)) {
      // Planted: copy-pasted from the taint case below.
      return ClusterEvent{"Node", "UpdateNodeTaint", "NodeLabelChange"};
    }
    return ClusterEvent{"Node", "UpdateNodeLabel", "NodeLabelChange"};
  }
  if (old_node.taints != new_node.taints) {
    return ClusterEvent{"Node", "UpdateNodeTaint", "NodeTaintChange"};
  }
  auto statuses = [](const Node& n) {
    std::map<std::string, std::string> m;
    for (const NodeCondition& c : n.conditions) m[c.type] = c.status;
    return m;
  };
  if (old_node.conditions != new_node.conditions &&
      statuses(old_node) != statuses(new_node)) {
    return ClusterEvent{"Node", "UpdateNodeCondition", "NodeConditionChange"};
  }
  return std::nullopt;
}

// upstream: the handlers addAllEventHandlers registers for other kinds
// (buildEvtResHandler, onStorageClassAdd): the event a cluster_event step
// sends, or nullopt when no handler runs.
std::optional<ClusterEvent> OtherKindEvent(
    const std::vector<ClusterEventMapEntry>& map, const std::string& resource,
    const std::string& action, bool wait_for_first_consumer) {
  if (resource == "Node" || resource == "Pod") return std::nullopt;
  const int bits = ActionTypeBits(action);
  bool registered = false;
  for (const ClusterEventMapEntry& e : map) {
    if (e.resource != resource) continue;
    for (const std::string& a : e.actions) {
      if ((ActionTypeBits(a) & bits) != 0) registered = true;
    }
  }
  if (!registered) return std::nullopt;
  if (action != "Add" && action != "Update" && action != "Delete") {
    return std::nullopt;
  }
  if (resource == "StorageClass" &&
      ((action == "Add" && !wait_for_first_consumer) || action == "Delete")) {
    return std::nullopt;
  }
  std::string short_name = resource == "PersistentVolume"        ? "Pv"
                           : resource == "PersistentVolumeClaim" ? "Pvc"
                                                                 : resource;
  return ClusterEvent{resource, action, short_name + action};
}

}  // namespace

Scheduler::Scheduler(const Config& config)
    : config_(WithPreEnqueuePlugins(config)),
      cache_(config.assumed_pod_ttl_ms),
      queue_(config_) {}

bool Scheduler::Responsible(const Pod& pod) const {
  for (const std::string& p : config_.profiles) {
    if (p == pod.scheduler_name) return true;
  }
  return false;
}

// upstream: the cache handler's filter, assignedPod(pod).
bool Scheduler::ForCache(const Pod& pod) const {
  if (MutantActive(Mutant::kCacheFilterSkipsOtherSchedulers)) {
    // Planted: only this scheduler's pods are tracked by the cache.
    return !pod.node_name.empty() && Responsible(pod);
  }
  return !pod.node_name.empty();
}

// ---------------------------------------------------------------------------
// Informer deliveries: cache handler, then queue handler, then the binding
// cycles they released.

bool Scheduler::OnPodAdd(const PodPtr& pod) {
  queue_.ListerSet(pod);
  if (ForCache(*pod) && !AddPodToCache(pod)) return false;
  if (pod->node_name.empty() && Responsible(*pod) &&
      !AddPodToSchedulingQueue(pod)) {
    return false;
  }
  return RunContinuations();
}

// upstream: FilteringResourceEventHandler.OnUpdate for both handlers.
bool Scheduler::OnPodUpdate(const PodPtr& old_pod, const PodPtr& new_pod) {
  queue_.ListerSet(new_pod);
  {
    const bool older = ForCache(*old_pod);
    const bool newer = ForCache(*new_pod);
    bool ok = true;
    if (older && newer) {
      ok = UpdatePodInCache(old_pod, new_pod);
    } else if (newer) {
      ok = AddPodToCache(new_pod);
    } else if (older) {
      ok = DeletePodFromCache(old_pod);
    }
    if (!ok) return false;
  }
  {
    const bool older =
        old_pod->node_name.empty() &&
        Responsible(MutantActive(Mutant::kQueueFilterNewSchedulerName)
                        ? *new_pod  // planted: the new object's name
                        : *old_pod);
    const bool newer = new_pod->node_name.empty() && Responsible(*new_pod);
    bool ok = true;
    if (older && newer) {
      ok = UpdatePodInSchedulingQueue(old_pod, new_pod);
    } else if (newer) {
      ok = AddPodToSchedulingQueue(new_pod);
    } else if (older) {
      ok = DeletePodFromSchedulingQueue(old_pod);
    }
    if (!ok) return false;
  }
  return RunContinuations();
}

bool Scheduler::OnPodDelete(const PodPtr& pod, bool tombstone) {
  queue_.ListerDelete(*pod);
  // upstream: both filters accept a DeletedFinalStateUnknown holding a pod:
  // the cache's whatever the pod, the queue's by scheduler name.
  bool to_cache = tombstone || ForCache(*pod);
  bool to_queue = Responsible(*pod) && (tombstone || pod->node_name.empty());
  if (MutantActive(Mutant::kTombstoneMishandled)) {
    // Planted: both filters judge a tombstone by the carried object.
    to_cache = !pod->node_name.empty();
    to_queue = Responsible(*pod) && pod->node_name.empty();
  }
  if (to_cache && !DeletePodFromCache(pod)) return false;
  if (to_queue && !DeletePodFromSchedulingQueue(pod)) return false;
  return RunContinuations();
}

// The PreEnqueueCheck preCheckForNode over the cache's NodeInfo of the node.
void Scheduler::MoveForNode(const ClusterEvent& event, uint32_t node_id,
                            const NodePtr& old_node) {
  NodeFacts node;
  if (MutantActive(Mutant::kNodeUpdatePrecheckOldNode) && old_node) {
    // Planted: the precheck reads the update's old object.
    ComputeNodeFacts(old_node, cache_, node);
  } else {
    ComputeNodeFacts(cache_.NodeObject(node_id), cache_, node);
  }
  const int64_t pods = static_cast<int64_t>(cache_.NodePodCount(node_id));
  Requests requested;
  cache_.NodeRequested(node_id, requested);
  PodFacts pod_facts;
  queue_.MoveAllToActiveOrBackoffQueue(event, [&](const Pod& pod) {
    ComputePodFacts(pod, cache_, pod_facts);
    return PreCheckForNode(pod_facts, node, pods, requested);
  });
}

// upstream: addNodeToCache
bool Scheduler::OnNodeAdd(const NodePtr& node) {
  if (cache_.AddNode(node) == CacheResult::kFatal) return false;
  static const ClusterEvent kNodeAdd{"Node", "Add", "NodeAdd"};
  MoveForNode(kNodeAdd, cache_.FindNodeId(node->name));
  return true;
}

// upstream: updateNodeInCache
bool Scheduler::OnNodeUpdate(const NodePtr& old_node, const NodePtr& new_node) {
  if (cache_.UpdateNode(old_node, new_node) == CacheResult::kFatal) {
    return false;
  }
  if (std::optional<ClusterEvent> event =
          NodePropertiesChange(*new_node, *old_node)) {
    MoveForNode(*event, cache_.FindNodeId(new_node->name), old_node);
  }
  return true;
}

// upstream: deleteNodeFromCache (errors are logged)
bool Scheduler::OnNodeDelete(const NodePtr& node) {
  const CacheResult r = cache_.RemoveNode(node);
  if (MutantActive(Mutant::kUnknownNodeDeleteFatal)) {
    return r == CacheResult::kOk;  // planted: an error exits
  }
  return r != CacheResult::kFatal;
}

bool Scheduler::OnClusterEvent(const std::string& resource,
                               const std::string& action,
                               bool wait_for_first_consumer) {
  if (std::optional<ClusterEvent> event =
          OtherKindEvent(config_.cluster_event_map, resource, action,
                         wait_for_first_consumer)) {
    queue_.MoveAllToActiveOrBackoffQueue(*event,
                                         std::function<bool(const Pod&)>());
  }
  return true;
}

bool Scheduler::FlushBackoff() {
  queue_.FlushBackoffQCompleted();
  return true;
}

bool Scheduler::FlushUnschedulable() {
  queue_.FlushUnschedulablePodsLeftover();
  return true;
}

// upstream: addPodToCache
bool Scheduler::AddPodToCache(const PodPtr& pod) {
  if (cache_.AddPod(pod) == CacheResult::kFatal) return false;
  queue_.AssignedPodAdded(pod);
  return true;
}

// upstream: updatePodInCache
bool Scheduler::UpdatePodInCache(const PodPtr& old_pod, const PodPtr& new_pod) {
  if (cache_.UpdatePod(old_pod, new_pod) == CacheResult::kFatal) return false;
  queue_.AssignedPodUpdated(new_pod);
  return true;
}

// upstream: deletePodFromCache
bool Scheduler::DeletePodFromCache(const PodPtr& pod) {
  if (cache_.RemovePod(pod) == CacheResult::kFatal) return false;
  queue_.MoveAllToActiveOrBackoffQueue(AssignedPodDeleteEvent(),
                                       std::function<bool(const Pod&)>());
  return true;
}

// upstream: addPodToSchedulingQueue
bool Scheduler::AddPodToSchedulingQueue(const PodPtr& pod) {
  return queue_.Add(pod) != QueueResult::kFatal;
}

// upstream: updatePodInSchedulingQueue
bool Scheduler::UpdatePodInSchedulingQueue(const PodPtr& old_pod,
                                           const PodPtr& new_pod) {
  if (old_pod->resource_version == new_pod->resource_version &&
      !MutantActive(Mutant::kResyncProcessed)) {
    return true;
  }
  if (MutantActive(Mutant::kStaleResourceVersionIgnored)) {
    // Planted: an update older than the one held is dropped as stale.
    int64_t old_rv = 0;
    int64_t new_rv = 0;
    if (absl::SimpleAtoi(old_pod->resource_version, &old_rv) &&
        absl::SimpleAtoi(new_pod->resource_version, &new_rv) &&
        new_rv < old_rv) {
      return true;
    }
  }
  if (cache_.IsAssumedPod(new_pod->uid) &&
      !MutantActive(Mutant::kAssumedPodRequeued)) {
    return true;
  }
  return queue_.Update(old_pod, new_pod) != QueueResult::kFatal;
}

// upstream: deletePodFromSchedulingQueue
bool Scheduler::DeletePodFromSchedulingQueue(const PodPtr& pod) {
  if (queue_.Delete(pod) == QueueResult::kFatal) return false;
  if (!Responsible(*pod)) return true;  // frameworkForPod
  if (MutantActive(Mutant::kWaitingPodNotRejected)) return true;
  const std::string* uid = &pod->uid;
  std::string by_key;
  if (MutantActive(Mutant::kWaitingPodRejectedByName)) {
    // Planted: the waiting pod is found by its key, as the queue finds pods.
    for (const BindingCycle& w : waiting_) {
      if (w.profile == pod->scheduler_name && w.key == pod->Key()) {
        by_key = w.uid;
        uid = &by_key;
        break;
      }
    }
  }
  if (RejectWaitingPod(pod->scheduler_name, *uid)) {
    queue_.MoveAllToActiveOrBackoffQueue(AssignedPodDeleteEvent(),
                                         std::function<bool(const Pod&)>());
  }
  return true;
}

// upstream: frameworkImpl.RejectWaitingPod: the waiting binding cycle wakes
// with an Unschedulable status and fails once the handler has returned.
bool Scheduler::RejectWaitingPod(const std::string& profile,
                                 const std::string& uid) {
  for (size_t i = 0; i < waiting_.size(); ++i) {
    if (waiting_[i].profile != profile || waiting_[i].uid != uid) continue;
    continuations_.push_back({true, std::move(waiting_[i])});
    waiting_.erase(waiting_.begin() + static_cast<ptrdiff_t>(i));
    return true;
  }
  return false;
}

bool Scheduler::RunContinuations() {
  for (size_t i = 0; i < continuations_.size(); ++i) {
    Continuation c = std::move(continuations_[i]);
    if (c.reject) {
      if (!HandleBindingCycleError(c.cycle, /*unschedulable=*/true)) {
        continuations_.clear();
        return false;
      }
    } else {
      if (MutantActive(Mutant::kFinishBindingAtPark)) {
        // Planted: the binding is finished as soon as the cycle parks.
        if (cache_.FinishBinding(queue_.HandlePod(c.cycle.assumed), now_ms_) ==
            CacheResult::kFatal) {
          continuations_.clear();
          return false;
        }
      }
      parked_.push_back(std::move(c.cycle));
    }
  }
  continuations_.clear();
  return true;
}

// ---------------------------------------------------------------------------
// The snapshot (upstream: cacheImpl.UpdateSnapshot).

bool Scheduler::UpdateSnapshot() {
  cache_.TakeDirtyNodes(dirty_);
  bool update_all = false;
  for (uint32_t id : dirty_) {
    if (id >= snap_.size()) snap_.resize(id + 1);
    if (!cache_.NodeLive(id)) continue;
    const NodePtr& node = cache_.NodeObject(id);
    if (node == nullptr) continue;
    SnapNode& s = snap_[id];
    if (!s.in_map) {
      s.in_map = true;
      ++snap_count_;
      update_all = true;
    }
    if (s.facts.node != node) {
      ComputeNodeFacts(node, cache_, s.facts);
      if (MutantActive(Mutant::kAffinityMemoStale)) {
        // Planted: the verdicts of the old object are kept.
      } else {
        s.affinity_memo.clear();
      }
      score_order_dirty_ = true;
    }
    s.pods = static_cast<int64_t>(cache_.NodePodCount(id));
    cache_.NodeRequested(id, s.requested);
  }
  // upstream: removeDeletedNodesFromSnapshot (Go map order; by name here,
  // as the model does).
  if (snap_count_ > cache_.TreeSize()) {
    std::vector<std::pair<std::string, uint32_t>> gone;
    for (uint32_t id = 0; id < snap_.size(); ++id) {
      const bool deleted =
          MutantActive(Mutant::kSnapshotKeepsDeletedNode)
              ? !cache_.NodeLive(id)  // planted: placeholders stay
              : !cache_.NodeLive(id) || cache_.NodeObject(id) == nullptr;
      if (snap_[id].in_map && deleted) {
        gone.emplace_back(cache_.NodeName(id), id);
      }
    }
    std::sort(gone.begin(), gone.end());
    int to_delete = snap_count_ - cache_.TreeSize();
    for (const auto& [name, id] : gone) {
      if (to_delete <= 0) break;
      snap_[id].in_map = false;
      snap_[id].facts.node = nullptr;
      snap_[id].affinity_memo.clear();
      --snap_count_;
      --to_delete;
    }
    update_all = true;
  }
  if (update_all) RebuildSnapshotList();
  if (static_cast<int>(snap_list_.size()) != cache_.TreeSize()) {
    RebuildSnapshotList();
    return false;
  }
  return true;
}

// upstream: updateNodeInfoSnapshotList: the tree's order, nodes in the map.
void Scheduler::RebuildSnapshotList() {
  score_order_dirty_ = true;
  cache_.TreeList(dirty_);
  snap_list_.clear();
  for (uint32_t id : dirty_) {
    if (id < snap_.size() && snap_[id].in_map) snap_list_.push_back(id);
  }
}

uint32_t Scheduler::SnapshotGet(const std::string& name) const {
  const uint32_t id = cache_.FindNodeId(name);
  if (id == Cache::kNoNode || id >= snap_.size() || !snap_[id].in_map) {
    return Cache::kNoNode;
  }
  return id;
}

void Scheduler::RebuildScoreOrder() {
  score_order_ = snap_list_;
  std::stable_sort(score_order_.begin(), score_order_.end(),
                   [this](uint32_t a, uint32_t b) {
                     return snap_[a].facts.score > snap_[b].facts.score;
                   });
  out_of_range_scores_ = 0;
  for (uint32_t id : snap_list_) {
    const int64_t score = snap_[id].facts.score;
    out_of_range_scores_ += score < 0 || score > 100;
  }
  score_order_dirty_ = false;
}

void Scheduler::CollectNominated() {
  ++epoch_;
  if (!queue_.HasNominatedPods()) return;
  const Pod& pod = *pod_facts_.pod;
  for (const auto& [node, handles] : queue_.NominatedPods()) {
    const uint32_t id = SnapshotGet(node);
    if (id == Cache::kNoNode) continue;
    for (uint32_t h : handles) {
      const Pod& other = *queue_.HandlePod(h);
      if (MutantActive(Mutant::kNominatedEqualPriorityIgnored)) {
        // Planted: only strictly higher priorities are counted.
        if (other.Priority() <= pod.Priority() || other.uid == pod.uid) {
          continue;
        }
      } else if (MutantActive(Mutant::kNominatedSelfCounted)) {
        // Planted: the pod's own nomination is counted too.
        if (other.Priority() < pod.Priority()) continue;
      } else {
        if (other.Priority() < pod.Priority() || other.uid == pod.uid) {
          continue;
        }
      }
      if (nominated_epoch_.size() <= id) {
        nominated_epoch_.resize(id + 1, 0);
        nominated_.resize(id + 1);
      }
      NominatedExtra& e = nominated_[id];
      if (nominated_epoch_[id] != epoch_) {
        nominated_epoch_[id] = epoch_;
        e.pods = 0;
        e.requested = Requests{};
      }
      AddPodRequests(other, cache_, e.requested);
      ++e.pods;
    }
  }
}

// upstream: RunFilterPluginsWithNominatedPods: with the nominated pods of
// equal or higher priority added to the node, then without them when that
// passed.
int Scheduler::FilterNode(uint32_t id) {
  SnapNode& s = snap_[id];
  int8_t* memo = nullptr;
  if (cycle_memo_) {
    if (s.affinity_memo.size() <= cycle_sig_) {
      s.affinity_memo.resize(cycle_sig_ + 1, -1);
    }
    memo = &s.affinity_memo[cycle_sig_];
  }
  if (id < nominated_epoch_.size() && nominated_epoch_[id] == epoch_) {
    const NominatedExtra& e = nominated_[id];
    with_nominated_ = s.requested;
    with_nominated_.cpu = WrapAdd(with_nominated_.cpu, e.requested.cpu);
    with_nominated_.memory =
        WrapAdd(with_nominated_.memory, e.requested.memory);
    with_nominated_.ephemeral =
        WrapAdd(with_nominated_.ephemeral, e.requested.ephemeral);
    for (const auto& [sid, amount] : e.requested.scalars) {
      bool found = false;
      for (auto& [have_id, have] : with_nominated_.scalars) {
        if (have_id == sid) {
          have = WrapAdd(have, amount);
          found = true;
        }
      }
      if (!found) with_nominated_.scalars.push_back({sid, amount});
    }
    int r = RunFilters(pod_facts_, s.facts, WrapAdd(s.pods, e.pods),
                       with_nominated_, memo);
    if (r == kPass)
      r = RunFilters(pod_facts_, s.facts, s.pods, s.requested, memo);
    return r;
  }
  return RunFilters(pod_facts_, s.facts, s.pods, s.requested, memo);
}

// ---------------------------------------------------------------------------
// The scheduling cycle.

// upstream: scheduleOne
bool Scheduler::ScheduleOne(ReserveOutcome reserve, PermitOutcome permit) {
  std::optional<Handle> h = queue_.PopHandle();
  out_.popped_present = true;
  if (!h) return true;
  const PodPtr pod = queue_.HandlePod(*h);
  out_.popped = pod->Key();
  if (!Responsible(*pod)) {  // frameworkForPod
    queue_.Release(*h);
    return true;
  }
  // upstream: skipPodSchedule
  if (pod->deletion_timestamp) {
    if (!MutantActive(Mutant::kSkipDeletingPodNoEvent)) {
      out_.events.push_back({*out_.popped, "FailedScheduling"});
    }  // planted (when skipped): the skip is not reported
    out_.result = ScheduleResult{*out_.popped, "skipped"};
    queue_.Release(*h);
    return true;
  }
  if (cache_.IsAssumedPod(pod->uid) &&
      !MutantActive(Mutant::kAssumedPodScheduledTwice)) {
    out_.result = ScheduleResult{*out_.popped, "skipped"};
    queue_.Release(*h);
    return true;
  }
  if (!SchedulingCycle(pod->scheduler_name, *h, reserve, permit)) return false;
  return RunContinuations();
}

// upstream: schedulingCycle with schedulePod, findNodesThatFitPod,
// evaluateNominatedNode, findNodesThatPassFilters, prioritizeNodes,
// selectHost, assume, Reserve and Permit. Consumes `h`.
bool Scheduler::SchedulingCycle(const std::string& profile, Handle h,
                                ReserveOutcome reserve, PermitOutcome permit) {
  const PodPtr pod = queue_.HandlePod(h);
  ScheduleResult& result = out_.result.emplace();
  result.pod = pod->Key();

  if (!UpdateSnapshot()) {
    result.outcome = "error";
    return HandleSchedulingFailure(h, kSchedulerError, std::nullopt, true);
  }
  if (snap_list_.empty()) {  // ErrNoNodesAvailable
    result.outcome = "unschedulable";
    return HandleSchedulingFailure(h, kUnschedulable, std::nullopt, true);
  }
  // --- findNodesThatFitPod
  ComputePodFacts(*pod, cache_, pod_facts_);
  cycle_memo_ = !pod_facts_.affinity_trivial;
  if (cycle_memo_) {
    cycle_sig_ = affinity_sigs_
                     .try_emplace(pod_facts_.affinity_signature,
                                  static_cast<uint32_t>(affinity_sigs_.size()))
                     .first->second;
  }
  CollectNominated();
  uint32_t mask = 0;  // Diagnosis.UnschedulablePlugins
  bool error = false;
  feasible_.clear();
  PreFilterResult pre = NodeAffinityPreFilter(*pod);
  if (pre.unresolvable) {
    mask |= 1u << kNodeAffinity;
  } else {
    if (!pod->nominated_node_name.empty()) {
      // upstream: evaluateNominatedNode (a missing node is logged).
      if (uint32_t id = SnapshotGet(pod->nominated_node_name);
          id != Cache::kNoNode) {
        int r = FilterNode(id);
        if (r == kPass) {
          feasible_.push_back(id);
        } else {
          mask |= 1u << r;
        }
      }
    }
    if (feasible_.empty()) {
      auto filter = [&](uint32_t id) {
        int r = FilterNode(id);
        if (r == kPass) {
          feasible_.push_back(id);
        } else if (MutantActive(Mutant::kFitErrorLastPluginOnly)) {
          mask = 1u << r;  // planted: the last rejection only
        } else {
          mask |= 1u << r;
        }
      };
      if (score_order_dirty_) RebuildScoreOrder();
      bool early_stop = pre.all_nodes && out_of_range_scores_ == 0;
      if (MutantActive(Mutant::kEarlyStopIgnoresOutOfRange)) {
        early_stop = pre.all_nodes;  // planted: scores never checked
      }
      if (early_stop) {
        // Every score is valid: the host is the first feasible node in
        // descending score order (ties in list order), and the FitError
        // needs every node only when none is feasible.
        for (uint32_t id : score_order_) {
          filter(id);
          if (!feasible_.empty()) break;
        }
      } else if (pre.all_nodes) {
        for (uint32_t id : snap_list_) filter(id);
      } else {
        std::vector<uint32_t> ids;
        for (const std::string& name : pre.names) {
          uint32_t id = SnapshotGet(name);
          if (id == Cache::kNoNode) {
            error = true;  // upstream: NodeInfos().Get fails
            break;
          }
          ids.push_back(id);
        }
        if (!error) {
          for (uint32_t id : ids) filter(id);
        }
      }
    }
  }
  if (error) {
    result.outcome = "error";
    return HandleSchedulingFailure(h, kSchedulerError, std::nullopt, true);
  }
  if (feasible_.empty()) {  // FitError; no PostFilter
    result.outcome = "unschedulable";
    result.plugins = FilterPluginNames(mask);
    return HandleSchedulingFailure(h, kUnschedulable, mask, false);
  }
  // upstream: prioritizeNodes (scores outside [0, 100] are an error) and
  // selectHost (the first highest score).
  uint32_t host = feasible_.front();
  if (feasible_.size() > 1) {
    int64_t best = -1;
    for (uint32_t id : feasible_) {
      const int64_t score = snap_[id].facts.score;
      if (score < 0 || score > 100) {
        result.outcome = "error";
        return HandleSchedulingFailure(h, kSchedulerError, std::nullopt, true);
      }
      if (score > best) {
        best = score;
        host = id;
      }
    }
  }
  const std::string& node_name = snap_[host].facts.node->name;
  result.node = node_name;

  // --- assume
  auto assumed_pod = std::make_shared<Pod>(*pod);
  assumed_pod->node_name = node_name;
  const Handle assumed = queue_.CloneHandle(h, assumed_pod, false);
  queue_.Release(h);
  if (cache_.AssumePod(assumed_pod) != CacheResult::kOk) {
    result.outcome = "error";
    return HandleSchedulingFailure(assumed, kSchedulerError, std::nullopt,
                                   true);
  }
  queue_.DeleteNominatedPodIfExists(*assumed_pod);

  // --- Reserve, then Permit
  if (reserve == ReserveOutcome::kError || permit == PermitOutcome::kReject) {
    // upstream: RunReservePluginsUnreserve, then ForgetPod (errors logged).
    const CacheResult forget = cache_.ForgetPod(assumed_pod);
    if (forget == CacheResult::kFatal) return false;
    if (MutantActive(Mutant::kSchedulingFailureRequestsMove) &&
        forget == CacheResult::kOk) {
      // Planted: as handleBindingCycleError does after forgetting.
      queue_.MoveAllToActiveOrBackoffQueue(AssignedPodDeleteEvent(),
                                           std::function<bool(const Pod&)>());
    }
    const bool reserve_failed = reserve == ReserveOutcome::kError;
    result.outcome = reserve_failed ? "error" : "unschedulable";
    return HandleSchedulingFailure(
        assumed, reserve_failed ? kSchedulerError : kUnschedulable,
        std::nullopt, true);
  }
  result.outcome = "scheduled";
  BindingCycle cycle{MutantActive(Mutant::kBindingCycleFirstProfile)
                         ? config_.profiles.front()  // planted
                         : profile,
                     assumed, node_name, result.pod, assumed_pod->uid};
  if (permit == PermitOutcome::kWait) {
    // upstream: waitingPodsMap.add keys by uid, so a second waiting pod with
    // the same uid (only hostile input gets there) replaces the first, whose
    // goroutine then waits on nothing anyone can reach.
    for (BindingCycle& w : waiting_) {
      if (w.profile == cycle.profile && w.uid == cycle.uid) {
        queue_.Release(w.assumed);
        w = std::move(cycle);
        return true;
      }
    }
    waiting_.push_back(std::move(cycle));
  } else {
    continuations_.push_back({false, std::move(cycle)});
  }
  return true;
}

// The waiting pod a permit step names, found as the model's map walk finds
// it: the first by (profile, uid) among those with the key; waiting_.size()
// when none waits.
size_t Scheduler::FindWaiting(const std::string& key) const {
  size_t found = waiting_.size();
  for (size_t i = 0; i < waiting_.size(); ++i) {
    if (waiting_[i].key != key) continue;
    if (found == waiting_.size() ||
        std::tie(waiting_[i].profile, waiting_[i].uid) <
            std::tie(waiting_[found].profile, waiting_[found].uid)) {
      found = i;
    }
  }
  return found;
}

bool Scheduler::PermitAllow(const std::string& key) {
  const size_t found = FindWaiting(key);
  if (found == waiting_.size()) return true;
  if (MutantActive(Mutant::kFinishBindingAtPark)) {
    // Planted: the binding is finished as soon as the cycle parks.
    if (cache_.FinishBinding(queue_.HandlePod(waiting_[found].assumed),
                             now_ms_) == CacheResult::kFatal) {
      return false;
    }
  }
  parked_.push_back(std::move(waiting_[found]));
  waiting_.erase(waiting_.begin() + static_cast<ptrdiff_t>(found));
  return true;
}

bool Scheduler::PermitReject(const std::string& key) {
  const size_t found = FindWaiting(key);
  if (found == waiting_.size()) return true;
  const std::string profile = waiting_[found].profile;
  const std::string uid = waiting_[found].uid;
  RejectWaitingPod(profile, uid);
  return RunContinuations();
}

// upstream: the rest of bindingCycle: RunPreBindPlugins, bind (finishBinding
// deferred), RunPostBindPlugins.
bool Scheduler::Bind(const std::string& key, bool prebind_ok, bool bind_ok) {
  auto it = std::find_if(parked_.begin(), parked_.end(),
                         [&](const BindingCycle& c) { return c.key == key; });
  if (it == parked_.end()) return true;
  BindingCycle cycle = std::move(*it);
  parked_.erase(it);
  if (!prebind_ok) return HandleBindingCycleError(cycle, false);
  const PodPtr assumed = queue_.HandlePod(cycle.assumed);
  if (cache_.FinishBinding(assumed, now_ms_) == CacheResult::kFatal) {
    return false;
  }
  if (!bind_ok) return HandleBindingCycleError(cycle, false);
  out_.events.push_back({cycle.key, "Scheduled"});
  out_.bindings.push_back({cycle.key, cycle.node});
  queue_.Release(cycle.assumed);
  return true;
}

// upstream: handleBindingCycleError. Consumes the cycle's handle.
bool Scheduler::HandleBindingCycleError(const BindingCycle& cycle,
                                        bool unschedulable) {
  const PodPtr assumed = queue_.HandlePod(cycle.assumed);
  const CacheResult forget =
      MutantActive(Mutant::kBindFailureNotForgotten) && !unschedulable
          ? CacheResult::kError  // planted: stays assumed, no move request
          : cache_.ForgetPod(assumed);
  if (forget == CacheResult::kFatal) return false;
  bool deferred_move = false;
  if (forget == CacheResult::kOk) {
    if (unschedulable && !MutantActive(Mutant::kRejectedPodMoveNotDeferred)) {
      deferred_move = true;  // runs after the failure handler
    } else {
      queue_.MoveAllToActiveOrBackoffQueue(AssignedPodDeleteEvent(),
                                           std::function<bool(const Pod&)>());
    }
  }
  const char* reason = unschedulable ? kUnschedulable : kSchedulerError;
  if (MutantActive(Mutant::kBindingFailureReasonUnschedulable)) {
    reason = kUnschedulable;  // planted: every binding failure
  }
  if (!HandleSchedulingFailure(cycle.assumed, reason, std::nullopt, true)) {
    return false;
  }
  if (deferred_move) {
    const std::string& uid = cycle.uid;
    queue_.MoveAllToActiveOrBackoffQueue(
        AssignedPodDeleteEvent(),
        [&uid](const Pod& pod) { return pod.uid != uid; });
  }
  return true;
}

// upstream: handleSchedulingFailure. Consumes `h`.
bool Scheduler::HandleSchedulingFailure(Handle h, const char* reason,
                                        std::optional<uint32_t> fit_error_mask,
                                        bool clear_nominated_node) {
  if (fit_error_mask) {
    queue_.SetHandlePlugins(h, FilterPluginNames(*fit_error_mask));
  }
  const PodPtr pod = queue_.HandlePod(h);
  std::string key = pod->Key();
  Handle current = h;
  const PodPtr* cached = queue_.ListerGet(key);
  if (MutantActive(Mutant::kFailureRequeuesDeletedPod) && cached == nullptr) {
    // Planted: the informer no longer has the pod; requeue it anyway.
    queue_.AddUnschedulableIfNotPresent(h, queue_.SchedulingCycle());
  }
  if (cached != nullptr && (*cached)->node_name.empty()) {
    // upstream: a new PodInfo of the informer's object.
    if (MutantActive(Mutant::kFailureRequeuesPoppedObject)) {
      // Planted: the informer is only asked whether the pod still exists;
      // the QueuedPodInfo that failed is requeued as it is.
    } else {
      current = queue_.CloneHandle(h, *cached, true);
      queue_.Release(h);
    }
    if (queue_.AddUnschedulableIfNotPresent(
            current, queue_.SchedulingCycle()) == QueueResult::kFatal) {
      queue_.Release(current);
      return false;
    }
  }
  static const std::optional<std::string> kClear = std::string();
  if (MutantActive(Mutant::kNominationKeptOnFailure)) {
    clear_nominated_node = false;  // planted: the old failure path
  }
  queue_.AddNominatedPod(
      current, clear_nominated_node ? kClear : std::optional<std::string>());
  // upstream: the FailedScheduling event and updatePod's status patch.
  out_.events.push_back({key, "FailedScheduling"});
  out_.status_updates.push_back(
      {std::move(key), reason,
       clear_nominated_node ? std::string() : pod->nominated_node_name});
  queue_.Release(current);
  return true;
}

// ---------------------------------------------------------------------------

StepOut Scheduler::TakeOut() {
  StepOut out = std::move(out_);
  out_ = StepOut{};
  return out;
}

State Scheduler::Snapshot() const {
  State state;
  SnapshotInto(state);
  return state;
}

void Scheduler::SnapshotInto(State& state) const {
  queue_.SnapshotQueueInto(Engage(state.queue));
  queue_.SnapshotNominatedInto(Engage(state.nominated));
  cache_.SnapshotInto(Engage(state.cache));
  std::vector<std::string>& waiting = Engage(state.waiting);
  Refill<std::string> waiting_fill(waiting);
  for (const BindingCycle& c : waiting_) waiting_fill.Next() = c.key;
  waiting_fill.Finish();
  std::sort(waiting.begin(), waiting.end());
  std::vector<std::string>& parked = Engage(state.parked);
  Refill<std::string> parked_fill(parked);
  for (const BindingCycle& c : parked_) parked_fill.Next() = c.key;
  parked_fill.Finish();
  std::sort(parked.begin(), parked.end());
}

}  // namespace schedtrace::impl
