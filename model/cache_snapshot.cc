#include "model/cache_snapshot.h"

#include <algorithm>

namespace schedtrace::model {

CacheState SnapshotCache(const Cache& cache) {
  CacheState cs;
  for (const auto& [name, info] : cache.nodes()) {
    NodeInfoState& ns = cs.nodes.emplace_back();
    ns.name = name;
    ns.present = info.node() != nullptr;
    for (const PodPtr& pod : info.pods()) ns.pods.push_back(pod->Key());
    std::sort(ns.pods.begin(), ns.pods.end());
    ns.requested = info.requested();
  }
  const auto& podStates = cache.podStates();
  for (const std::string& uid : cache.assumedPods()) {
    auto it = podStates.find(uid);
    if (it != podStates.end()) cs.assumed.push_back(it->second.pod->Key());
  }
  for (const auto& [uid, ps] : podStates) {
    if (ps.bindingFinished) cs.binding_finished.push_back(ps.pod->Key());
  }
  std::sort(cs.assumed.begin(), cs.assumed.end());
  std::sort(cs.binding_finished.begin(), cs.binding_finished.end());
  return cs;
}

}  // namespace schedtrace::model
