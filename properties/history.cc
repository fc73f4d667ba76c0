#include "properties/history.h"

#include <algorithm>

#include "core/op_table.h"
#include "core/upstream_versions.h"
#include "model/resource.h"
#include "model/upstream.h"

namespace schedtrace::properties {

using model::PodRequests;
namespace {

bool Contains(const std::optional<std::vector<std::string>>& list,
              const std::string& key) {
  return list && std::find(list->begin(), list->end(), key) != list->end();
}

// True when PodRequests(a) == PodRequests(b) for certain, without computing
// them: PodRequests (upstream's calculateResource) reads only these fields,
// which updates rarely change.
bool SameRequestFields(const Pod& a, const Pod& b) {
  return a.containers == b.containers &&
         a.init_containers == b.init_containers && a.overhead == b.overhead;
}

}  // namespace

bool InQueueList(const State* s, std::vector<QueuedPod> QueueState::*list,
                 const std::string& key) {
  if (s == nullptr || !s->queue) return false;
  for (const QueuedPod& q : (*s->queue).*list) {
    if (q.pod == key) return true;
  }
  return false;
}

bool InAnyQueueList(const State* s, const std::string& key) {
  return InQueueList(s, &QueueState::active, key) ||
         InQueueList(s, &QueueState::backoff, key) ||
         InQueueList(s, &QueueState::unschedulable, key);
}

const QueuedPod* FindQueued(const std::vector<QueuedPod>& list,
                            const std::string& key) {
  auto it = std::lower_bound(
      list.begin(), list.end(), key,
      [](const QueuedPod& q, const std::string& k) { return q.pod < k; });
  return it != list.end() && it->pod == key ? &*it : nullptr;
}

namespace {

model::Upstream ProfileOf(const TraceHeader& header) {
  return model::UpstreamProfile(EffectiveUpstream(header.upstream))
      .value_or(model::Upstream{});
}

}  // namespace

History::History(const TraceHeader& header)
    : own_header_(std::make_shared<const TraceHeader>(header)),
      header_(own_header_.get()),
      up_(ProfileOf(header)) {}

History::History(const TraceHeader* header)
    : header_(header), up_(ProfileOf(*header)) {}

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

bool History::ForOurQueue(const Pod& pod) const {
  // addAllEventHandlers: !assignedPod(t) && responsibleForPod(t, profiles).
  const auto& profiles = header_->config.profiles;
  return pod.node_name.empty() &&
         std::find(profiles.begin(), profiles.end(), pod.scheduler_name) !=
             profiles.end();
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
    e.requests = PodRequests(*pod, up_);
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

void History::NoteAddOverAssumed(const State& before, const Step& step,
                                 const StepOut& out) {
  PodPtr added;
  if (step.op == Op::kCAddPod) added = step.pod;
  if (step.op == Op::kPodAdd) added = step.pod;
  if (step.op == Op::kPodUpdate) added = step.new_pod;
  if (added == nullptr || added->node_name.empty() || out.error ||
      !before.cache) {
    return;
  }
  const std::vector<std::string>& assumed = before.cache->assumed;
  if (std::find(assumed.begin(), assumed.end(), added->Key()) ==
      assumed.end()) {
    return;
  }
  PodPtr cached = CacheObject(added->Key());
  if (cached != nullptr && cached->node_name == added->node_name &&
      !SameRequestFields(*cached, *added) &&
      PodRequests(*cached, up_) != PodRequests(*added, up_)) {
    added_over_assumed_.insert(added->node_name);
  }
}

void History::CheckCallerObject(const PodPtr& given) {
  if (given == nullptr) return;
  PodPtr cached = CacheObject(given->Key());
  if (cached == nullptr || cached->node_name != given->node_name ||
      (!SameRequestFields(*cached, *given) &&
       PodRequests(*cached, up_) != PodRequests(*given, up_))) {
    drifted_.insert(given->Key());
    drifted_nodes_.insert(given->node_name);
    if (cached != nullptr) drifted_nodes_.insert(cached->node_name);
  }
  if (cached != nullptr && cached->node_name != given->node_name) {
    caller_named_other_node_.insert(cached->node_name);
  }
}

void History::Observe(const State& before, const Step& step, const StepOut& out,
                      const State* after) {
  now_ = step.t;
  BeginWakeUps(step);
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
  // Scheduler layer: a pod delivered under a key the queue holds. An update
  // to another uid than the old object's, or than the key's latest object
  // (a hostile update's old object may carry the new uid already); or a
  // second add of the key.
  if (step.op == Op::kPodUpdate && step.old_pod != nullptr &&
      step.new_pod != nullptr) {
    const std::string key = step.new_pod->Key();
    auto latest = latest_.find(key);
    const bool new_uid =
        step.old_pod->uid != step.new_pod->uid ||
        (latest != latest_.end() && latest->second->uid != step.new_pod->uid);
    if (new_uid && InAnyQueueList(&before, key)) {
      uid_changed_queued_.insert(key);
    }
  }
  if (step.op == Op::kPodAdd && step.pod != nullptr &&
      InAnyQueueList(&before, step.pod->Key())) {
    added_while_queued_.insert(step.pod->Key());
  }
  // The pod objects its op carries (the op table), old before new.
  ForEachCarriedPod(step, [this](const PodPtr& pod) { Carry(pod); });
  ObserveQueueOp(before, step, out);
  NoteAddOverAssumed(before, step, out);
  ObserveCacheOp(step, out);
  ObserveSchedulerOp(before, step, out);
  EndWakeUps(before, step, after);
}

// The queue layer's nominator lister ("queue-ops").
void History::ObserveQueueOp(const State& before, const Step& step,
                             const StepOut& out) {
  switch (step.op) {
    case Op::kQAdd:
      if (!out.error && !step.pod->scheduling_gates.empty() &&
          (InQueueList(&before, &QueueState::active, step.pod->Key()) ||
           InQueueList(&before, &QueueState::backoff, step.pod->Key()))) {
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
      if (out.popped) {
        AddInFlight(*out.popped);
        popped_not_returned_.insert(*out.popped);
      }
      break;
    case Op::kQAddUnschedulable:
      EraseInFlight(step.pod_key);
      popped_not_returned_.erase(step.pod_key);
      break;
    case Op::kQActivate:
      for (const PodPtr& pod : step.pods) {
        PodPtr latest = Latest(pod->Key());
        if (latest != nullptr && !latest->scheduling_gates.empty()) {
          activated_gated_.insert(pod->Key());
        }
      }
      break;
    default:
      break;
  }
}

// The cache layer: only what the cache accepted counts.
void History::ObserveCacheOp(const Step& step, const StepOut& out) {
  switch (step.op) {
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
    default:
      break;
  }
}

// The scheduler layer's informer, and the cycle's assume.
void History::ObserveSchedulerOp(const State& before, const Step& step,
                                 const StepOut& out) {
  switch (step.op) {
    case Op::kPodAdd:
      SetInformer(step.pod);
      deleted_while_waiting_.erase(step.pod->Key());
      deleted_other_uid_while_waiting_.erase(step.pod->Key());
      deleted_waiting_not_assumed_.erase(step.pod->Key());
      handed_over_by_name_.erase(step.pod->Key());
      if (!step.pod->node_name.empty()) GiveToCache(step.pod);
      break;
    case Op::kPodUpdate:
      SetInformer(step.new_pod);
      deleted_while_waiting_.erase(step.new_pod->Key());
      deleted_other_uid_while_waiting_.erase(step.new_pod->Key());
      deleted_waiting_not_assumed_.erase(step.new_pod->Key());
      if (step.old_pod != nullptr && !ForOurQueue(*step.old_pod) &&
          step.old_pod->node_name.empty() && ForOurQueue(*step.new_pod)) {
        handed_over_by_name_.insert(step.new_pod->Key());
      } else if (!ForOurQueue(*step.new_pod)) {
        handed_over_by_name_.erase(step.new_pod->Key());
      }
      if (!step.new_pod->node_name.empty()) GiveToCache(step.new_pod);
      break;
    case Op::kPodDelete: {
      const std::string key = step.pod->Key();
      EraseInformer(key);
      handed_over_by_name_.erase(key);
      if (before.waiting && Contains(before.waiting, key)) {
        // Another incarnation of the key past Permit (parked before its
        // bind) binds under the same key: a later bind of the key is its.
        if (!(before.parked && Contains(before.parked, key))) {
          deleted_while_waiting_.insert(key);
        }
        // The object assumed when the waiting pod began to wait (a later
        // incarnation assumed under the key may be parked instead).
        auto w = waiting_objects_.find(key);
        PodPtr waiting =
            w != waiting_objects_.end() ? w->second : CacheObject(key);
        // Another incarnation under the key waits too (two waiting entries):
        // the delete rejects one uid at most.
        if ((waiting != nullptr && waiting->uid != step.pod->uid) ||
            std::count(before.waiting->begin(), before.waiting->end(), key) >
                1) {
          deleted_other_uid_while_waiting_.insert(key);
        }
        if (step.tombstone || !step.pod->node_name.empty() || !before.cache ||
            std::find(before.cache->assumed.begin(),
                      before.cache->assumed.end(),
                      key) == before.cache->assumed.end()) {
          deleted_waiting_not_assumed_.insert(key);
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
          if (step.permit == PermitOutcome::kWait) {
            waiting_objects_[out.result->pod] = it->second;
          }
        }
      }
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------------------
// Property 11.

bool History::WakeUpFollowed(const std::string& key) const {
  return !UidChanged(key) && !DifferentPodsUnderKey(key) &&
         !AmbiguousInCache(key) && !AccountingDrifted(key);
}

PodPtr History::NominatedObject(const std::string& key,
                                const State& state) const {
  const std::pair<std::vector<QueuedPod> QueueState::*, Slot> lists[] = {
      {&QueueState::active, Slot::kActive},
      {&QueueState::backoff, Slot::kBackoff},
      {&QueueState::unschedulable, Slot::kUnschedulable}};
  for (const auto& [list, slot] : lists) {
    if (InQueueList(&state, list, key)) return QueuedObject(key, slot);
  }
  if (!up_.backend_queue) return nullptr;  // the nominator's own PodInfo
  // v1.35+: nominatedPodToInfo of a pod the queue does not hold is its
  // podRef alone: priority 0, no requests.
  PodPtr latest = Latest(key);
  if (latest == nullptr) return nullptr;
  auto ref = std::make_shared<Pod>();
  ref->namespace_ = latest->namespace_;
  ref->name = latest->name;
  ref->uid = latest->uid;
  return ref;
}

Fit History::FitsSomeNode(const Pod& pod, const State& state,
                          const std::map<std::string, NodePtr>* nodes,
                          const std::set<std::string>* only,
                          std::string* node) const {
  if (!state.nominated) return Fit::kUnknown;
  return FitsSomeNode(pod, state, *state.nominated, nodes, only, node);
}

Fit History::FitsSomeNode(const Pod& pod, const State& state,
                          const Nominated& nominated,
                          const std::map<std::string, NodePtr>* nodes,
                          const std::set<std::string>* only,
                          std::string* node) const {
  if (!state.cache) return Fit::kUnknown;
  const std::map<std::string, NodePtr>& known = nodes ? *nodes : nodes_;
  std::map<std::string, NodePtr> some;
  if (only != nullptr) {
    for (const std::string& name : *only) {
      if (auto it = known.find(name); it != known.end()) some.insert(*it);
    }
  }
  for (const NodeInfoState& n : state.cache->nodes) {
    if (NodeAccountingDrifted(n.name) || CallerNamedOtherNode(n.name) ||
        AddedOverAssumed(n.name) || (n.present && !known.contains(n.name))) {
      return Fit::kUnknown;
    }
    // A pod counted with a negative request (which the API refuses) frees
    // room by being added: not room the oracle judges.
    for (const std::string& key : n.pods) {
      const Resources* r = CacheRequests(key);
      if (r != nullptr && std::any_of(r->begin(), r->end(), [](const auto& e) {
            return e.second < 0;
          })) {
        return Fit::kUnknown;
      }
    }
  }
  return properties::FitsSomeNode(
      pod, ClusterOf(only != nullptr ? some : known, state, nominated), node);
}

Cluster History::ClusterOf(const std::map<std::string, NodePtr>& nodes,
                           const State& state,
                           const Nominated& nominated) const {
  return Cluster{&nodes, &*state.cache, &nominated,
                 [this, &state](const std::string& key) {
                   return NominatedObject(key, state);
                 },
                 &up_};
}

namespace {

// The scheduler layer's filter plugins (docs/FORMAT.md, "Layer
// scheduler"): property 11 judges the pods they alone rejected.
bool IsFilterPlugin(const std::string& plugin) {
  return plugin == "NodeUnschedulable" || plugin == "NodeName" ||
         plugin == "TaintToleration" || plugin == "NodeAffinity" ||
         plugin == "NodeResourcesFit";
}

// The steps that change no node, NodeInfo, nomination or queued object:
// they cannot make a pod schedulable.
bool ChangesNoFit(Op op) {
  return op == Op::kFlushBackoff || op == Op::kFlushUnschedulable ||
         op == Op::kClusterEvent;
}

// The nodes whose NodeInfo a fit reads (its pod count, its requested, its
// presence) or whose nominations differ between `a` and `b`.
void ChangedNodes(const State& a, const State& b, std::set<std::string>* out) {
  auto na = a.cache->nodes.begin(), nb = b.cache->nodes.begin();
  while (na != a.cache->nodes.end() || nb != b.cache->nodes.end()) {
    if (nb == b.cache->nodes.end() ||
        (na != a.cache->nodes.end() && na->name < nb->name)) {
      out->insert((na++)->name);
    } else if (na == a.cache->nodes.end() || nb->name < na->name) {
      out->insert((nb++)->name);
    } else {
      if (na->present != nb->present || na->requested != nb->requested ||
          na->pods.size() != nb->pods.size()) {
        out->insert(na->name);
      }
      ++na;
      ++nb;
    }
  }
  for (const Nominated* n : {&*a.nominated, &*b.nominated}) {
    const Nominated& other = n == &*a.nominated ? *b.nominated : *a.nominated;
    for (const auto& [node, keys] : *n) {
      auto it = other.find(node);
      if (it == other.end() || it->second != keys) out->insert(node);
    }
  }
}

}  // namespace

void History::BeginWakeUps(const Step& step) {
  if (header_->layer != Layer::kScheduler) return;
  woken_but_stayed_.clear();
  wake_old_consistent_ = true;
  if (step.op == Op::kPodUpdate) {
    PodPtr latest = Latest(step.new_pod->Key());
    wake_old_consistent_ = step.old_pod != nullptr && latest != nullptr &&
                           *latest == *step.old_pod;
  }
  wake_objects_before_.clear();
  nodes_before_.reset();
  if (!ChangesNoFit(step.op)) {
    ForEachCarriedPod(step, [&](const PodPtr& pod) {
      wake_objects_before_.emplace(
          pod->Key(), QueuedObject(pod->Key(), Slot::kUnschedulable));
    });
  }
  switch (step.op) {
    case Op::kNodeAdd:
      nodes_before_ = nodes_;
      nodes_[step.node->name] = step.node;
      break;
    case Op::kNodeUpdate:
      // An update of a node no add delivered is no informer's sequence: the
      // node stays unknown (and the oracle does not judge while the cache
      // holds it).
      nodes_before_ = nodes_;
      if (nodes_.contains(step.new_node->name)) {
        nodes_[step.new_node->name] = step.new_node;
      }
      break;
    case Op::kNodeDelete:
      nodes_before_ = nodes_;
      nodes_.erase(step.node->name);
      break;
    default:
      break;
  }
}

void History::EndWakeUps(const State& before, const Step& step,
                         const State* after) {
  if (header_->layer != Layer::kScheduler || ChangesNoFit(step.op) ||
      after == nullptr || !before.queue || !after->queue || !before.cache ||
      !after->cache || !before.nominated || !after->nominated) {
    return;
  }
  // An update whose old object is not the one the informer delivered last
  // (or of a node it never added) is not a sequence an informer produces:
  // upstream derives the update's events from that old object. Not judged.
  if (step.op == Op::kNodeUpdate && nodes_before_) {
    auto it = nodes_before_->find(step.new_node->name);
    if (it == nodes_before_->end() || step.old_node == nullptr ||
        !(*it->second == *step.old_node)) {
      return;
    }
  }
  if (step.op == Op::kPodUpdate && !wake_old_consistent_) return;
  // Only pods in unschedulablePods before the step are judged: with none,
  // nothing to compare (most steps of a large run).
  const auto eligible = [this](const QueuedPod& e) {
    return !e.gated && !e.plugins.empty() &&
           std::all_of(e.plugins.begin(), e.plugins.end(), IsFilterPlugin) &&
           WakeUpFollowed(e.pod);
  };
  if (std::none_of(before.queue->unschedulable.begin(),
                   before.queue->unschedulable.end(), eligible)) {
    return;
  }
  std::set<std::string> changed;
  ChangedNodes(before, *after, &changed);
  const bool cycle_step = step.op == Op::kScheduleOne ||
                          step.op == Op::kPermitAllow ||
                          step.op == Op::kPermitReject || step.op == Op::kBind;
  if (step.node) changed.insert(step.node->name);
  if (step.new_node) changed.insert(step.new_node->name);
  for (const QueuedPod& e : before.queue->unschedulable) {
    if (!eligible(e)) continue;
    const QueuedPod* stayed = FindQueued(after->queue->unschedulable, e.pod);
    if (stayed != nullptr && (stayed->gated || stayed->plugins.empty())) {
      continue;
    }
    PodPtr now = QueuedObject(e.pod, Slot::kUnschedulable);
    PodPtr then = now;
    if (auto it = wake_objects_before_.find(e.pod);
        it != wake_objects_before_.end()) {
      then = it->second;
    }
    if (now == nullptr || then == nullptr || !now->scheduling_gates.empty() ||
        !then->scheduling_gates.empty()) {
      continue;
    }
    // Unfit on every node before, so fit now only where something changed
    // (anywhere, when the pod's own object did).
    const bool own = then != now && !(*then == *now);
    // An update the API server refuses for a pending pod (its priority,
    // scheduler name, node selector or affinity changed while not gated)
    // is not one upstream's events are made for.
    if (own && (then->Priority() != now->Priority() ||
                then->scheduler_name != now->scheduler_name ||
                then->node_selector != now->node_selector ||
                then->required_node_affinity != now->required_node_affinity)) {
      continue;
    }
    if (!own && changed.empty()) continue;
    std::string node;
    if (FitsSomeNode(*now, *after, &nodes_, own ? nullptr : &changed, &node) !=
        Fit::kYes) {
      continue;
    }
    if (FitsSomeNode(*then, before,
                     nodes_before_ ? &*nodes_before_ : &nodes_) != Fit::kNo) {
      continue;
    }
    // A cycle's own change to the nominations (its status patch) wakes
    // pods when the informer delivers that patch (updatePodInSchedulingQueue,
    // hasNominatedNodeNameChanged, from v1.35): not in this step.
    const bool by_nominations =
        FitsSomeNode(*now, *after, *before.nominated, &nodes_,
                     own ? nullptr : &changed, nullptr) != Fit::kYes;
    if (cycle_step && by_nominations) continue;
    ++wake_ups_.needed;
    if (stayed == nullptr) {
      ++wake_ups_.made;
      continue;
    }
    Woken woken{node, "", by_nominations, stayed->plugins};
    const std::map<std::string, NodePtr>& was =
        nodes_before_ ? *nodes_before_ : nodes_;
    auto n = was.find(node);
    auto info = std::find_if(
        before.cache->nodes.begin(), before.cache->nodes.end(),
        [&node](const NodeInfoState& i) { return i.name == node; });
    if (n != was.end() && info != before.cache->nodes.end() && info->present) {
      FitsNode(*then, *n->second, *info,
               ClusterOf(was, before, *before.nominated), &woken.blocked_by);
    }
    woken_but_stayed_.emplace(e.pod, std::move(woken));
  }
}

}  // namespace schedtrace::properties
