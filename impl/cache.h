// impl::Cache: the scheduler cache (upstream internal/cache/cache.go and the
// NodeInfo accounting of framework/types.go) built for throughput.
//
// Pods are interned by uid and nodes by name into dense ids (a pod id is
// recycled once nothing refers to its uid any more), so after one hash lookup
// per call everything is a vector index. A node's Requested is a fixed
// cpu/memory/ephemeral triple plus a small inline vector of interned scalar
// resources. A pod object's requests are computed once, when it is added to a
// NodeInfo, and reused when the same object is removed again. Assumed pods
// whose binding finished sit in a min-heap by deadline (DeadlineHeap), so
// CleanupAssumedPods touches only the pods that expire. The steady state
// (assume, finish, add, update, remove of pods with at most two scalar
// resources on known nodes) allocates nothing. Observable behaviour is
// upstream's, proven by the golden traces.
//
// Version differences are the profile's switches (impl/upstream.h).
//
// Defined in impl/cache.cc (pods, their accounting, cleanup, snapshots and
// what impl::Scheduler reads) and impl/cache_nodes.cc (nodes, node tree).
//
//   impl::Cache cache(ttl_ms, up);
//   CacheResult r = cache.AssumePod(pod);   // kOk, kError or kFatal
//   CacheState s = cache.Snapshot();        // the spec's cache snapshot
#ifndef SCHEDTRACE_IMPL_CACHE_H_
#define SCHEDTRACE_IMPL_CACHE_H_

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "core/objects.h"
#include "core/state.h"
#include "core/state_touch.h"
#include "impl/deadline_heap.h"
#include "impl/go_int.h"
#include "impl/upstream.h"

namespace schedtrace::impl {

// What a cache call did: upstream returned nil, returned an error, or
// exited (klog.FlushAndExit or a panic).
enum class CacheResult { kOk, kError, kFatal };

// framework.Resource without the pod count (NodeInfo never adds `pods` to
// Requested): cpu (milli), memory, ephemeral storage, and scalar resources
// by interned id.
struct Requests {
  int64_t cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral = 0;
  absl::InlinedVector<std::pair<uint32_t, int64_t>, 2> scalars;
};

class Cache {
 public:
  // The ttl is Go's time.Duration(ttl_ms) * time.Millisecond: it wraps,
  // and 0 after wrapping means no expiry. The default profile is v1.26.7's.
  explicit Cache(int64_t ttl_ms, const Upstream& up = Upstream())
      : up_(up), ttl_ns_(WrapMul(ttl_ms, 1000000)) {}

  CacheResult AssumePod(const PodPtr& pod);
  CacheResult FinishBinding(const PodPtr& pod, int64_t now_ms);
  CacheResult ForgetPod(const PodPtr& pod);
  CacheResult AddPod(const PodPtr& pod);
  CacheResult UpdatePod(const PodPtr& old_pod, const PodPtr& new_pod);
  CacheResult RemovePod(const PodPtr& pod);
  CacheResult AddNode(const NodePtr& node);
  CacheResult UpdateNode(const NodePtr& old_node, const NodePtr& new_node);
  CacheResult RemoveNode(const NodePtr& node);
  CacheResult CleanupAssumedPods(int64_t now_ms);

  CacheState Snapshot() const;
  // The same value written into `out`, reusing the storage it holds
  // (core/refill.h) and this cache's snapshot scratch: no two snapshots
  // of one cache may run concurrently.
  void SnapshotInto(CacheState& out) const;
  // Adds to `t` what changed in the snapshot since ForgetTouched (the
  // NodeInfos by name, whether one came or went, the assumed and
  // binding-finished lists).
  void AddTouched(StateTouch& t) const;
  // Forgets what changed so far: a step starts.
  void ForgetTouched();
  // `out`, an earlier snapshot that differs only in what `t` names,
  // refreshed in that alone (System::RefreshInto).
  void RefreshInto(CacheState& out, const StateTouch& t) const;

  // --- The scheduler layer's read side (impl/scheduler.h) ---
  static constexpr uint32_t kNoNode = ~uint32_t{0};
  // upstream: cacheImpl.IsAssumedPod (false for an empty uid, whose error
  // the scheduler treats as "not assumed").
  bool IsAssumedPod(const std::string& uid) const;
  // upstream: cacheImpl.GetPod: the pod object the cache holds for `uid`
  // (null for an empty uid or one it does not hold).
  PodPtr GetPod(const std::string& uid) const;
  // The dense id of a node name ever seen, or kNoNode.
  uint32_t FindNodeId(const std::string& name) const;
  const std::string& NodeName(uint32_t id) const { return nodes_[id].name; }
  // Whether cacheImpl.nodes holds a NodeInfo for the id, and its node
  // (null for a placeholder), pod count and Requested.
  bool NodeLive(uint32_t id) const { return nodes_[id].live; }
  const NodePtr& NodeObject(uint32_t id) const { return nodes_[id].node; }
  size_t NodePodCount(uint32_t id) const { return nodes_[id].pods.size(); }
  void NodeRequested(uint32_t id, Requests& out) const;
  // The interned id of a scalar resource name (kNotScalarResource for cpu,
  // memory, ephemeral-storage, pods and names upstream ignores).
  static constexpr uint32_t kNotScalarResource = ~uint32_t{0};
  uint32_t InternScalar(const std::string& name) { return ScalarId(name); }
  // upstream: calculateResource: a scalar resource requested with amount 0
  // keeps its entry (Resource.SetScalar), as fitsRequest's early return
  // reads it.
  void ComputeRequests(const Pod& pod, Requests& r);
  // upstream: computePodResourceRequest (the fit filter's request): the
  // same before v1.27; from then each amount raised to at least 0
  // (SetMaxResource on a zero Resource).
  void ComputeFitRequest(const Pod& pod, Requests& r);
  // Moves into `out` the ids of the NodeInfos changed (upstream: moved to
  // the head of the list with a new generation) since the last call; `out`
  // may also name ids that were removed since.
  void TakeDirtyNodes(std::vector<uint32_t>& out);
  // upstream: nodeTree.list() as node ids, and nodeTree.numNodes.
  void TreeList(std::vector<uint32_t>& out) const;
  int TreeSize() const { return tree_size_; }

 private:
  // upstream: podState plus membership of cacheImpl.assumedPods.
  struct PodSlot {
    PodPtr pod;  // null: not in podStates
    bool assumed = false;
    bool binding_finished = false;
    uint32_t stamp = 0;  // bumped whenever a heap entry must go stale
    // NodeInfo entries naming this uid, plus one while `pod` is set; at zero
    // the id returns to the free list (stamps keep counting across reuse).
    uint32_t refs = 0;
    // The uid interned to this id (pod_ids_ keys view it); a recycled id
    // keeps the string's storage for the next uid.
    std::string uid;
    // In list_candidates_ (WritePodLists).
    mutable bool listed = false;
  };
  // One entry of NodeInfo.Pods: the object and its requests (its interned
  // uid sits at the same index of NodeSlot::pod_ids, scanned on removal).
  struct NodePod {
    PodPtr obj;
    Requests req;
  };
  // upstream: nodeInfoListItem / NodeInfo.
  struct NodeSlot {
    std::string name;
    bool live = false;  // present in cacheImpl.nodes
    NodePtr node;       // null while live: a placeholder holding pods
    std::vector<uint32_t> pod_ids;  // parallel to `pods`
    std::vector<NodePod> pods;
    int64_t cpu = 0, memory = 0, ephemeral = 0;
    absl::InlinedVector<std::pair<uint32_t, int64_t>, 4> scalars;
  };

  uint32_t ScalarId(const std::string& name);
  uint32_t PodId(const std::string& uid);
  PodSlot* FindPod(const std::string& uid);
  uint32_t NodeId(const std::string& name);
  NodeSlot* FindLiveNode(const std::string& name);
  void Account(NodeSlot& n, const Requests& r, int64_t sign);
  void AddToNode(uint32_t pod_id, const PodPtr& pod);
  CacheResult RemoveFromNode(uint32_t pod_id, const Pod& pod);
  CacheResult RemoveCached(uint32_t pod_id, const Pod& pod);
  void Unassume(PodSlot& s, bool keep_binding_finished = false);
  void SetState(PodSlot& s, const PodPtr& pod);
  void MaybeRelease(uint32_t pod_id, const std::string& uid);

  static std::string ZoneKey(const Node& node);
  void TreeAdd(const Node& node, uint32_t node_id);
  bool TreeRemove(const Node& node, uint32_t node_id);

  // Whether `pod`'s requests are summed as quantities (v1.30.12, and within
  // the range schedtrace sums exactly; the systems refuse the others).
  bool SumsAsQuantities(const Pod& pod) const;
  void SumRequests(const Pod& pod, Requests& r);
  void ConvertEachRequest(const Pod& pod, Requests& r);

  const Upstream up_;
  int64_t ttl_ns_;
  // uid -> id; each key views PodSlot::uid, which a deque never moves.
  absl::flat_hash_map<std::string_view, uint32_t> pod_ids_;
  std::deque<PodSlot> pods_;
  std::vector<uint32_t> free_pod_ids_;
  int assumed_count_ = 0;
  DeadlineHeap deadlines_;
  std::vector<DeadlineHeap::Entry> retry_;  // CleanupAssumedPods' errors
  absl::flat_hash_map<std::string, uint32_t> node_ids_;  // name -> id
  std::vector<NodeSlot> nodes_;
  // upstream: nodeTree.tree (zone -> node names); only membership is
  // observable (RemoveNode of a node it does not hold is an error).
  absl::flat_hash_map<std::string, std::vector<uint32_t>> tree_;
  std::vector<std::string> zone_order_;  // upstream: nodeTree.zones
  int tree_size_ = 0;                    // upstream: nodeTree.numNodes
  // Node ids, each at most once, in the order first marked.
  struct NodeIdSet {
    std::vector<uint32_t> ids;
    std::vector<char> in;  // node id -> in ids
    void Insert(uint32_t id, size_t nodes) {
      if (id >= in.size()) in.resize(nodes, 0);
      if (in[id]) return;
      in[id] = 1;
      ids.push_back(id);
    }
    void Clear() {
      for (uint32_t id : ids) in[id] = 0;
      ids.clear();
    }
  };
  NodeIdSet dirty_;  // see TakeDirtyNodes
  void MarkDirty(uint32_t node_id);
  // What changed in the spec's snapshot (AddTouched): node ids, whether
  // each was live when last forgotten, the pod lists.
  NodeIdSet touched_;
  std::vector<char> reported_live_;
  bool pod_lists_touched_ = false;
  // The pod ids that may be assumed or binding-finished: every id assumed
  // since WritePodLists last found it neither (only AssumePod assumes, and
  // only an assumed pod's binding finishes), so that the lists are written
  // without a walk over every pod.
  mutable std::vector<uint32_t> list_candidates_;
  // The snapshot's parts (SnapshotInto): every NodeInfo in name order, one
  // NodeInfo, the assumed and binding-finished lists.
  void WriteNodes(CacheState& cs) const;
  void WriteNodeInfo(const NodeSlot& n, NodeInfoState& ns) const;
  void WritePodLists(CacheState& cs) const;
  absl::flat_hash_map<std::string, uint32_t> scalar_ids_;  // or kNotScalar
  std::vector<std::string> scalar_names_;
  Requests scratch_;  // requests of a removed object that is not cached
  mutable std::vector<uint32_t> snapshot_order_;  // live node ids by name
};

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_CACHE_H_
