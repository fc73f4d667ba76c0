#include "model/cache_snapshot.h"

#include <algorithm>

#include "core/refill.h"

namespace schedtrace::model {

CacheState SnapshotCache(const Cache& cache) {
  CacheState cs;
  SnapshotCacheInto(cache, cs);
  return cs;
}

void SnapshotCacheInto(const Cache& cache, CacheState& cs) {
  Refill<NodeInfoState> nodes(cs.nodes);
  for (const auto& [name, info] : cache.nodes()) {
    NodeInfoState& ns = nodes.Next();
    ns.name = name;
    ns.present = info.node() != nullptr;
    Refill<std::string> pods(ns.pods);
    for (const PodPtr& pod : info.pods()) pods.Next() = pod->Key();
    pods.Finish();
    std::sort(ns.pods.begin(), ns.pods.end());
    RefillMap<Resources> requested(ns.requested);
    for (const auto& [resource, amount] : info.requested()) {
      requested.Next(resource) = amount;
    }
    requested.Finish();
  }
  nodes.Finish();
  const auto& podStates = cache.podStates();
  Refill<std::string> assumed(cs.assumed);
  for (const std::string& uid : cache.assumedPods()) {
    auto it = podStates.find(uid);
    if (it != podStates.end()) assumed.Next() = it->second.pod->Key();
  }
  assumed.Finish();
  Refill<std::string> binding_finished(cs.binding_finished);
  for (const auto& [uid, ps] : podStates) {
    if (ps.bindingFinished) binding_finished.Next() = ps.pod->Key();
  }
  binding_finished.Finish();
  std::sort(cs.assumed.begin(), cs.assumed.end());
  std::sort(cs.binding_finished.begin(), cs.binding_finished.end());
}

}  // namespace schedtrace::model
