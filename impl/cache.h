// impl::Cache: the scheduler cache (upstream internal/cache/cache.go) built
// for throughput: pods keyed by uid and nodes by name in flat hash maps, a
// pod's requests computed straight from its parsed quantities into a fixed
// struct (no map per event), per-node aggregates updated incrementally.
// Observable behaviour is the model's (model/cache.h), proven by the golden
// traces; no code is shared with it.
//
//   impl::Cache cache(ttl_ms);
//   CacheResult r = cache.AssumePod(pod);   // kOk, kError or kFatal
#ifndef SCHEDTRACE_IMPL_CACHE_H_
#define SCHEDTRACE_IMPL_CACHE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "harness/objects.h"
#include "harness/state.h"

namespace schedtrace::impl {

// What a cache call did: upstream returned nil, returned an error, or
// exited (klog.FlushAndExit or a panic).
enum class CacheResult { kOk, kError, kFatal };

// framework.Resource without the pod count: cpu (milli), memory, ephemeral
// storage, and scalar resources by interned id.
struct Requests {
  int64_t cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral = 0;
  absl::InlinedVector<std::pair<uint32_t, int64_t>, 2> scalars;
};

class Cache {
 public:
  explicit Cache(int64_t ttl_ms) : ttl_ms_(ttl_ms) {}

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

 private:
  struct PodState {
    PodPtr pod;
    bool assumed = false;
    bool binding_finished = false;
    bool has_deadline = false;
    int64_t deadline = 0;
  };
  struct NodeEntry {
    NodePtr node;  // null: a placeholder kept while it holds pods
    std::vector<PodPtr> pods;
    int64_t cpu = 0, memory = 0, ephemeral = 0;
    absl::flat_hash_map<uint32_t, int64_t> scalars;
  };

  Requests ComputeRequests(const Pod& pod);
  uint32_t ScalarId(const std::string& name);
  void Account(NodeEntry& n, const Pod& pod, int64_t sign);
  void AddToNode(const PodPtr& pod);
  CacheResult RemoveFromNode(const Pod& pod);
  CacheResult RemoveCached(const Pod& pod);

  // upstream: nodeTree (only its membership is observable here: RemoveNode
  // of a node the tree does not hold is an error).
  static std::string ZoneKey(const Node& node);
  void TreeAdd(const Node& node);
  bool TreeRemove(const Node& node);

  int64_t ttl_ms_;
  absl::flat_hash_map<std::string, PodState> pods_;  // by uid
  absl::flat_hash_set<std::string> assumed_;
  absl::flat_hash_map<std::string, NodeEntry> nodes_;
  absl::flat_hash_map<std::string, std::vector<std::string>> tree_;
  absl::flat_hash_map<std::string, uint32_t> scalar_ids_;
  std::vector<std::string> scalar_names_;
};

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_CACHE_H_
