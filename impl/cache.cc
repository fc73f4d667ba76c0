// impl::Cache's pods (assume, finish, forget, add, update, remove), their
// NodeInfo accounting, cleanup, snapshots and what impl::Scheduler reads;
// nodes and the node tree are in impl/cache_nodes.cc.
#include "impl/cache.h"

#include <algorithm>

#include "core/refill.h"
#include "impl/go_int.h"
#include "impl/names.h"
#include "impl/quantity_sum.h"

namespace schedtrace::impl {
namespace {

constexpr uint32_t kNotScalar = ~uint32_t{0};

// out = pod.Key(), built in out's storage.
void AssignKey(std::string& out, const Pod& pod) {
  out.assign(pod.namespace_);
  out.push_back('/');
  out.append(pod.name);
}

}  // namespace

// upstream: calculateResource (framework/types.go).
void Cache::ComputeRequests(const Pod& pod, Requests& r) {
  if (SumsAsQuantities(pod)) {
    SumRequests(pod, r);
  } else {
    ConvertEachRequest(pod, r);
  }
}

// Before kubernetes#115367: containers summed (Resource.Add), raised to
// each init container (Resource.SetMaxResource), plus overhead; `pods` is
// never counted in a NodeInfo's Requested.
void Cache::ConvertEachRequest(const Pod& pod, Requests& r) {
  r.cpu = r.memory = r.ephemeral = 0;
  r.scalars.clear();
  auto scalar = [&](uint32_t id) -> int64_t& {
    for (auto& [sid, v] : r.scalars) {
      if (sid == id) return v;
    }
    r.scalars.push_back({id, 0});
    return r.scalars.back().second;
  };
  // upstream: Resource.Add
  auto add = [&](const ResourceList& list) {
    for (const auto& [name, q] : list) {
      if (name == "cpu") {
        r.cpu = WrapAdd(r.cpu, q.MilliValue());
      } else if (name == "memory") {
        r.memory = WrapAdd(r.memory, q.Value());
      } else if (name == "ephemeral-storage") {
        r.ephemeral = WrapAdd(r.ephemeral, q.Value());
      } else if (uint32_t id = ScalarId(name); id != kNotScalar) {
        int64_t& v = scalar(id);
        v = WrapAdd(v, q.Value());
      }
    }
  };
  for (const Container& c : pod.containers) add(c.requests);
  // upstream: Resource.SetMaxResource
  for (const Container& c : pod.init_containers) {
    for (const auto& [name, q] : c.requests) {
      if (name == "cpu") {
        r.cpu = std::max(r.cpu, q.MilliValue());
      } else if (name == "memory") {
        r.memory = std::max(r.memory, q.Value());
      } else if (name == "ephemeral-storage") {
        r.ephemeral = std::max(r.ephemeral, q.Value());
      } else if (uint32_t id = ScalarId(name); id != kNotScalar) {
        int64_t& v = scalar(id);
        v = std::max(v, q.Value());
      }
    }
  }
  add(pod.overhead);
}

bool Cache::SumsAsQuantities(const Pod& pod) const {
  return up_.pod_requests_summed_as_quantities &&
         CheckRequestsSummable(pod).ok();
}

// kubernetes#115367 (v1.27): Resource.Add(resourcehelper.PodRequests(pod)):
// per name, the containers' quantities added exactly, raised to the largest
// init container's (an entry the sum lacks taken as it is, negative or
// not), plus overhead; each converted once.
void Cache::SumRequests(const Pod& pod, Requests& r) {
  PodRequestSums reqs;
  SumPodRequests(pod, reqs);
  r.cpu = r.memory = r.ephemeral = 0;
  r.scalars.clear();
  for (const PodRequestSum& e : reqs) {
    const Quantity q = e.sum.ToQuantity();
    if (*e.name == "cpu") {
      r.cpu = q.MilliValue();
    } else if (*e.name == "memory") {
      r.memory = q.Value();
    } else if (*e.name == "ephemeral-storage") {
      r.ephemeral = q.Value();
    } else if (uint32_t id = ScalarId(*e.name); id != kNotScalar) {
      r.scalars.push_back({id, q.Value()});
    }
  }
}

void Cache::ComputeFitRequest(const Pod& pod, Requests& r) {
  if (!SumsAsQuantities(pod)) {
    ConvertEachRequest(pod, r);
    return;
  }
  SumRequests(pod, r);
  r.cpu = std::max<int64_t>(r.cpu, 0);
  r.memory = std::max<int64_t>(r.memory, 0);
  r.ephemeral = std::max<int64_t>(r.ephemeral, 0);
  for (auto& [id, v] : r.scalars) v = std::max<int64_t>(v, 0);
}

// Interns a scalar resource name (schedutil.IsScalarResourceName, decided
// once per name); kNotScalar for a name upstream's Resource ignores ("pods"
// included: NodeInfo never counts it).
uint32_t Cache::ScalarId(const std::string& name) {
  auto it = scalar_ids_.find(name);
  if (it != scalar_ids_.end()) return it->second;
  uint32_t id = kNotScalar;
  if (name != "pods" && IsScalarResourceName(name)) {
    id = static_cast<uint32_t>(scalar_names_.size());
    scalar_names_.push_back(name);
  }
  scalar_ids_.emplace(name, id);
  return id;
}

// Interns a pod uid (framework.GetPodKey).
uint32_t Cache::PodId(const std::string& uid) {
  auto it = pod_ids_.find(uid);
  if (it != pod_ids_.end()) return it->second;
  uint32_t id;
  if (free_pod_ids_.empty()) {
    id = static_cast<uint32_t>(pods_.size());
    pods_.emplace_back();
  } else {
    id = free_pod_ids_.back();
    free_pod_ids_.pop_back();
  }
  std::string& interned = pods_[id].uid;
  interned.assign(uid);  // within the storage a recycled id kept
  pod_ids_.emplace(std::string_view(interned), id);
  return id;
}

// upstream: cacheImpl.podStates[key] lookup (null when absent).
Cache::PodSlot* Cache::FindPod(const std::string& uid) {
  auto it = pod_ids_.find(uid);
  if (it == pod_ids_.end() || pods_[it->second].pod == nullptr) return nullptr;
  return &pods_[it->second];
}

// Interns a node name.
uint32_t Cache::NodeId(const std::string& name) {
  auto it = node_ids_.find(name);
  if (it != node_ids_.end()) return it->second;
  uint32_t id = static_cast<uint32_t>(nodes_.size());
  node_ids_.emplace(name, id);
  nodes_.emplace_back().name = name;
  return id;
}

// upstream: cacheImpl.nodes[name] lookup (null when absent).
Cache::NodeSlot* Cache::FindLiveNode(const std::string& name) {
  auto it = node_ids_.find(name);
  if (it == node_ids_.end() || !nodes_[it->second].live) return nullptr;
  return &nodes_[it->second];
}

// upstream: NodeInfo.update (the Requested part).
void Cache::Account(NodeSlot& n, const Requests& r, int64_t sign) {
  n.cpu = WrapAdd(n.cpu, WrapMul(sign, r.cpu));
  n.memory = WrapAdd(n.memory, WrapMul(sign, r.memory));
  n.ephemeral = WrapAdd(n.ephemeral, WrapMul(sign, r.ephemeral));
  for (const auto& [id, v] : r.scalars) {
    auto it = std::find_if(n.scalars.begin(), n.scalars.end(),
                           [id = id](const auto& e) { return e.first == id; });
    if (it == n.scalars.end()) {
      n.scalars.push_back({id, WrapMul(sign, v)});
    } else {
      it->second = WrapAdd(it->second, WrapMul(sign, v));
    }
  }
}

// upstream: cacheImpl.addPod's NodeInfo part: NodeInfo.AddPod on the pod's
// node, creating a placeholder NodeInfo when the node is unknown.
void Cache::AddToNode(uint32_t pod_id, const PodPtr& pod) {
  const uint32_t node_id = NodeId(pod->node_name);
  MarkDirty(node_id);
  NodeSlot& n = nodes_[node_id];
  n.live = true;
  n.pod_ids.push_back(pod_id);
  NodePod& e = n.pods.emplace_back();
  ++pods_[pod_id].refs;
  e.obj = pod;
  ComputeRequests(*pod, e.req);
  Account(n, e.req, +1);
}

// upstream: cacheImpl.removePod's NodeInfo part and NodeInfo.RemovePod:
// finds the entry by uid (first match, swap-remove) and subtracts the
// requests of the object given, not of the object stored; from v1.33
// (kubernetes#129635) those of the entry, computed when it was added.
CacheResult Cache::RemoveFromNode(uint32_t pod_id, const Pod& pod) {
  NodeSlot* n = FindLiveNode(pod.node_name);
  if (n == nullptr) return CacheResult::kOk;  // logged upstream
  for (size_t i = 0; i < n->pod_ids.size(); ++i) {
    if (n->pod_ids[i] != pod_id) continue;
    if (up_.remove_pod_subtracts_stored_requests ||
        n->pods[i].obj.get() == &pod) {
      Account(*n, n->pods[i].req, -1);
    } else {
      ComputeRequests(pod, scratch_);
      Account(*n, scratch_, -1);
    }
    --pods_[pod_id].refs;
    if (i + 1 != n->pods.size()) {
      n->pods[i] = std::move(n->pods.back());
      n->pod_ids[i] = n->pod_ids.back();
    }
    n->pods.pop_back();
    n->pod_ids.pop_back();
    MarkDirty(static_cast<uint32_t>(n - nodes_.data()));
    if (n->pods.empty() && n->node == nullptr) {
      // upstream: removeNodeInfoFromList
      n->live = false;
      n->cpu = n->memory = n->ephemeral = 0;
      n->scalars.clear();
    }
    return CacheResult::kOk;
  }
  // The error message dereferences a placeholder's nil node: a panic.
  return n->node == nullptr ? CacheResult::kFatal : CacheResult::kError;
}

// upstream: cacheImpl.podStates[key] = &podState{pod: pod}
void Cache::SetState(PodSlot& s, const PodPtr& pod) {
  if (s.pod == nullptr) ++s.refs;
  s.pod = pod;
  pod_lists_touched_ = true;
}

// Returns `pod_id` (interned from `uid`) to the free list when neither
// podStates nor any NodeInfo refers to it. Called at the end of an
// operation only: within one, a slot may drop to zero and be refilled.
void Cache::MaybeRelease(uint32_t pod_id, const std::string& uid) {
  if (pods_[pod_id].refs != 0) return;
  pod_ids_.erase(uid);
  free_pod_ids_.push_back(pod_id);
}

// Drops a pod from cacheImpl.assumedPods (its heap entries go stale).
void Cache::Unassume(PodSlot& s, bool keep_binding_finished) {
  if (s.assumed) --assumed_count_;
  s.assumed = false;
  if (!keep_binding_finished) s.binding_finished = false;
  pod_lists_touched_ = true;
  ++s.stamp;
}

// upstream: cacheImpl.removePod
CacheResult Cache::RemoveCached(uint32_t pod_id, const Pod& pod) {
  if (CacheResult r = RemoveFromNode(pod_id, pod); r != CacheResult::kOk) {
    return r;
  }
  PodSlot& s = pods_[pod_id];
  Unassume(s);
  if (s.pod != nullptr) --s.refs;
  s.pod = nullptr;
  pod_lists_touched_ = true;
  return CacheResult::kOk;
}

// upstream: cacheImpl.AssumePod (+ addPod(pod, true))
CacheResult Cache::AssumePod(const PodPtr& pod) {
  if (pod->uid.empty()) return CacheResult::kError;
  uint32_t id = PodId(pod->uid);
  PodSlot& s = pods_[id];
  if (s.pod != nullptr) {
    return CacheResult::kError;
  }
  AddToNode(id, pod);
  SetState(s, pod);
  s.assumed = true;
  s.binding_finished = false;
  pod_lists_touched_ = true;
  if (!s.listed) {
    s.listed = true;
    list_candidates_.push_back(id);
  }
  ++assumed_count_;
  return CacheResult::kOk;
}

// upstream: cacheImpl.finishBinding: deadline = now + ttl (none for ttl 0).
// v1.36 (kubernetes#136204) has no FinishBinding: nothing happens.
CacheResult Cache::FinishBinding(const PodPtr& pod, int64_t now_ms) {
  if (up_.assumed_pods_never_expire) return CacheResult::kOk;
  if (pod->uid.empty()) return CacheResult::kError;
  PodSlot* s = FindPod(pod->uid);
  if (s == nullptr || !s->assumed) return CacheResult::kOk;
  s->binding_finished = true;
  pod_lists_touched_ = true;
  ++s->stamp;
  if (ttl_ns_ != 0) {  // now.Add(ttl), exact
    deadlines_.Push(TimeFromMs(now_ms) + ttl_ns_,
                    pod_ids_.find(pod->uid)->second, s->stamp);
    if (deadlines_.size() > 2 * static_cast<size_t>(assumed_count_) + 64) {
      deadlines_.Compact([&](const DeadlineHeap::Entry& e) {
        return pods_[e.id].stamp == e.stamp;
      });
    }
  }
  return CacheResult::kOk;
}

// upstream: cacheImpl.ForgetPod; from v1.35 (kubernetes#134157) a pod not
// in podStates is forgotten without error.
CacheResult Cache::ForgetPod(const PodPtr& pod) {
  if (pod->uid.empty()) return CacheResult::kError;
  PodSlot* s = FindPod(pod->uid);
  if (s == nullptr && up_.forget_of_unknown_pod_succeeds) {
    return CacheResult::kOk;
  }
  const bool node_mismatch =
      s != nullptr && s->pod->node_name != pod->node_name;
  if (s == nullptr || !s->assumed || node_mismatch) {
    return CacheResult::kError;
  }
  uint32_t id = pod_ids_.find(pod->uid)->second;
  CacheResult r = RemoveCached(id, *pod);  // the caller's object
  MaybeRelease(id, pod->uid);
  return r;
}

// upstream: cacheImpl.AddPod
CacheResult Cache::AddPod(const PodPtr& pod) {
  if (pod->uid.empty()) return CacheResult::kError;
  uint32_t id = PodId(pod->uid);
  PodSlot& s = pods_[id];
  if (s.pod != nullptr && !s.assumed) return CacheResult::kError;
  if (s.pod != nullptr && !up_.add_pod_of_assumed_pod_rebuilds_state &&
      s.pod->node_name == pod->node_name) {
    // Before kubernetes#110279 (v1.25): on the node it was assumed on, the
    // pod leaves assumedPods and loses its deadline; its podState keeps
    // bindingFinished and takes the new object, and its NodeInfo keeps the
    // assumed one. On another node it goes through updatePod as below.
    Unassume(s, /*keep_binding_finished=*/true);
    SetState(s, pod);
    return CacheResult::kOk;
  }
  if (s.pod != nullptr) {
    // upstream: updatePod(currState.pod, pod); an error is only logged.
    PodPtr assumed = s.pod;
    CacheResult r = RemoveCached(id, *assumed);
    if (r != CacheResult::kOk) {
      return r == CacheResult::kFatal ? r : CacheResult::kOk;
    }
  }
  AddToNode(id, pod);
  SetState(s, pod);
  return CacheResult::kOk;
}

// upstream: cacheImpl.UpdatePod (+ updatePod: remove the caller's old
// object, add the new one).
CacheResult Cache::UpdatePod(const PodPtr& old_pod, const PodPtr& new_pod) {
  if (old_pod->uid.empty()) return CacheResult::kError;
  PodSlot* s = FindPod(old_pod->uid);
  if (s == nullptr || s->assumed) {
    return CacheResult::kError;
  }
  if (s->pod->node_name != new_pod->node_name) {
    return CacheResult::kFatal;  // klog.FlushAndExit
  }
  uint32_t id = pod_ids_.find(old_pod->uid)->second;
  if (CacheResult r = RemoveCached(id, *old_pod); r != CacheResult::kOk) {
    return r;
  }
  // addPod keys by the new object's uid.
  if (new_pod->uid.empty()) {
    MaybeRelease(id, old_pod->uid);
    return CacheResult::kError;
  }
  uint32_t new_id = PodId(new_pod->uid);
  AddToNode(new_id, new_pod);
  // addPod(newPod, false) writes a fresh podState (no deadline, binding
  // not finished) but leaves assumedPods as it is.
  PodSlot& ns = pods_[new_id];
  ns.binding_finished = false;
  pod_lists_touched_ = true;
  ++ns.stamp;
  SetState(ns, new_pod);
  if (new_id != id) MaybeRelease(id, old_pod->uid);
  return CacheResult::kOk;
}

// upstream: cacheImpl.RemovePod
CacheResult Cache::RemovePod(const PodPtr& pod) {
  if (pod->uid.empty()) return CacheResult::kError;
  PodSlot* s = FindPod(pod->uid);
  if (s == nullptr) return CacheResult::kError;
  if (s->pod->node_name != pod->node_name && !pod->node_name.empty()) {
    return CacheResult::kFatal;  // klog.FlushAndExit
  }
  PodPtr cached = s->pod;
  uint32_t id = pod_ids_.find(pod->uid)->second;
  CacheResult r = RemoveCached(id, *cached);
  MaybeRelease(id, pod->uid);
  return r;
}

// upstream: cacheImpl.cleanupAssumedPods (+ expirePod): every assumed pod
// whose binding finished and whose deadline has passed (now.After(deadline))
// is removed; ttl 0 sets no deadline, so nothing expires. Go's map order
// does not matter: removals are independent of each other. v1.36
// (kubernetes#136204) has no cleanup: nothing expires.
CacheResult Cache::CleanupAssumedPods(int64_t now_ms) {
  if (up_.assumed_pods_never_expire) return CacheResult::kOk;
  const TimeNs now = TimeFromMs(now_ms);
  while (const DeadlineHeap::Entry* top = deadlines_.Top()) {
    const bool expired = now > top->deadline;
    if (!expired) break;
    DeadlineHeap::Entry e = *top;
    deadlines_.Pop();
    PodSlot& s = pods_[e.id];
    const bool stale = s.stamp != e.stamp;
    if (stale || !s.assumed || !s.binding_finished) continue;
    PodPtr pod = s.pod;
    CacheResult r = RemoveCached(e.id, *pod);
    MaybeRelease(e.id, pod->uid);
    // A panic ends the run; an error is only logged: the pod stays assumed
    // and the next cleanup tries again.
    if (r == CacheResult::kFatal) return r;
    if (r == CacheResult::kError) retry_.push_back(e);
  }
  for (const DeadlineHeap::Entry& e : retry_) {
    deadlines_.Push(e.deadline, e.id, e.stamp);
  }
  retry_.clear();
  return CacheResult::kOk;
}

CacheState Cache::Snapshot() const {
  CacheState cs;
  SnapshotInto(cs);
  return cs;
}

// The spec's cache snapshot: NodeInfos by name with their pod keys and
// non-zero Requested, assumed and binding-finished pod keys, all sorted.
void Cache::SnapshotInto(CacheState& cs) const {
  WriteNodes(cs);
  WritePodLists(cs);
}

// NodeInfos are written in name order, so that a node's pod list and
// Requested map are reused by the same node from one snapshot to the next.
void Cache::WriteNodes(CacheState& cs) const {
  std::vector<uint32_t>& order = snapshot_order_;
  order.clear();
  for (uint32_t id = 0; id < nodes_.size(); ++id) {
    if (nodes_[id].live) order.push_back(id);
  }
  std::sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
    return nodes_[a].name < nodes_[b].name;
  });
  Refill<NodeInfoState> nodes(cs.nodes);
  for (uint32_t id : order) WriteNodeInfo(nodes_[id], nodes.Next());
  nodes.Finish();
}

void Cache::WriteNodeInfo(const NodeSlot& n, NodeInfoState& ns) const {
  static const std::string kCpu = "cpu";
  static const std::string kMemory = "memory";
  static const std::string kEphemeral = "ephemeral-storage";
  ns.name = n.name;
  ns.present = n.node != nullptr;
  Refill<std::string> pods(ns.pods);
  for (const NodePod& p : n.pods) AssignKey(pods.Next(), *p.obj);
  pods.Finish();
  std::sort(ns.pods.begin(), ns.pods.end());
  absl::InlinedVector<std::pair<const std::string*, int64_t>, 8> amounts;
  if (n.cpu != 0) amounts.emplace_back(&kCpu, n.cpu);
  if (n.memory != 0) amounts.emplace_back(&kMemory, n.memory);
  if (n.ephemeral != 0) amounts.emplace_back(&kEphemeral, n.ephemeral);
  for (const auto& [scalar, v] : n.scalars) {
    if (v != 0) amounts.emplace_back(&scalar_names_[scalar], v);
  }
  std::sort(amounts.begin(), amounts.end(),
            [](const auto& a, const auto& b) { return *a.first < *b.first; });
  RefillMap<Resources> requested(ns.requested);
  for (const auto& [name, v] : amounts) requested.Next(*name) = v;
  requested.Finish();
}

void Cache::WritePodLists(CacheState& cs) const {
  Refill<std::string> assumed(cs.assumed);
  Refill<std::string> binding_finished(cs.binding_finished);
  size_t kept = 0;
  for (uint32_t id : list_candidates_) {
    const PodSlot& s = pods_[id];
    if (!s.assumed && !s.binding_finished) {
      s.listed = false;  // neither any more: no longer a candidate
      continue;
    }
    list_candidates_[kept++] = id;
    if (s.pod == nullptr) continue;  // not in podStates: in no list
    if (s.assumed) AssignKey(assumed.Next(), *s.pod);
    if (s.binding_finished) AssignKey(binding_finished.Next(), *s.pod);
  }
  list_candidates_.resize(kept);
  assumed.Finish();
  binding_finished.Finish();
  std::sort(cs.assumed.begin(), cs.assumed.end());
  std::sort(cs.binding_finished.begin(), cs.binding_finished.end());
}

void Cache::AddTouched(StateTouch& t) const {
  for (uint32_t id : touched_.ids) {
    const bool was_live = id < reported_live_.size() && reported_live_[id];
    if (nodes_[id].live != was_live) {
      t.Add(StateTouch::kNodeSet);  // a NodeInfo came or went
    }
    t.AddNode(nodes_[id].name);
  }
  if (pod_lists_touched_) {
    t.Add(StateTouch::kAssumed);
    t.Add(StateTouch::kBindingFinished);
  }
}

void Cache::ForgetTouched() {
  if (reported_live_.size() < nodes_.size()) {
    reported_live_.resize(nodes_.size(), 0);
  }
  for (uint32_t id : touched_.ids) reported_live_[id] = nodes_[id].live;
  touched_.Clear();
  pod_lists_touched_ = false;
}

void Cache::RefreshInto(CacheState& cs, const StateTouch& t) const {
  if (t.Touches(StateTouch::kNodeSet)) {
    WriteNodes(cs);
  } else {
    for (const std::string& name : t.nodes()) {
      auto id = node_ids_.find(name);
      if (id == node_ids_.end() || !nodes_[id->second].live) continue;
      NodeInfoState* at = FindNodeInfo(cs.nodes, name);
      if (at == nullptr) {
        WriteNodes(cs);  // not the snapshot `t` describes: all of it
        break;
      }
      WriteNodeInfo(nodes_[id->second], *at);
    }
  }
  if (t.Touches(StateTouch::kAssumed) ||
      t.Touches(StateTouch::kBindingFinished)) {
    WritePodLists(cs);
  }
}

// ---------------------------------------------------------------------------
// The scheduler layer's read side.

PodPtr Cache::GetPod(const std::string& uid) const {
  if (uid.empty()) return nullptr;
  auto it = pod_ids_.find(uid);
  return it == pod_ids_.end() ? nullptr : pods_[it->second].pod;
}

bool Cache::IsAssumedPod(const std::string& uid) const {
  if (uid.empty()) return false;
  auto it = pod_ids_.find(uid);
  if (it == pod_ids_.end()) return false;
  const PodSlot& s = pods_[it->second];
  return s.pod != nullptr && s.assumed;
}

uint32_t Cache::FindNodeId(const std::string& name) const {
  auto it = node_ids_.find(name);
  return it == node_ids_.end() ? kNoNode : it->second;
}

void Cache::NodeRequested(uint32_t id, Requests& out) const {
  const NodeSlot& n = nodes_[id];
  out.cpu = n.cpu;
  out.memory = n.memory;
  out.ephemeral = n.ephemeral;
  out.scalars.assign(n.scalars.begin(), n.scalars.end());
}

void Cache::MarkDirty(uint32_t node_id) {
  touched_.Insert(node_id, nodes_.size());
  dirty_.Insert(node_id, nodes_.size());
}

void Cache::TakeDirtyNodes(std::vector<uint32_t>& out) {
  out.swap(dirty_.ids);  // out's old storage is the set's next
  dirty_.ids.clear();
  for (uint32_t id : out) dirty_.in[id] = 0;
}

}  // namespace schedtrace::impl
