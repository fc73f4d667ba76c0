// impl::PriorityQueue's nominator (impl/queue.h; upstream nominator in
// scheduling_queue.go): node -> the QueuedPodInfos nominated to it, and the
// pod lister it reads.
#include <string>
#include <utility>

#include "impl/queue.h"

namespace schedtrace::impl {

void PriorityQueue::ListerSet(const PodPtr& pod) { lister_[pod->Key()] = pod; }
void PriorityQueue::ListerDelete(const Pod& pod) { lister_.erase(pod.Key()); }

// upstream: nominator.delete.
void PriorityQueue::NominatorDelete(const Pod& pod) {
  auto it = nominated_pod_to_node_.find(pod.uid);
  if (it == nominated_pod_to_node_.end()) return;
  auto node_it = nominated_pods_.find(it->second);
  if (node_it != nominated_pods_.end()) {
    std::vector<uint32_t>& list = node_it->second;
    for (size_t i = 0; i < list.size(); ++i) {
      if (slab_[list[i]].pod->uid == pod.uid) {
        const uint32_t h = list[i];
        list.erase(list.begin() + static_cast<ptrdiff_t>(i));
        if (list.empty()) nominated_pods_.erase(node_it);
        ++nominated_changes_;
        Unref(h);
        break;
      }
    }
  }
  nominated_pod_to_node_.erase(pod.uid);
}

// upstream: nominator.addNominatedPodUnlocked. `node` nullopt is a nil
// NominatingInfo (ModeNoop); a value is ModeOverride.
void PriorityQueue::AddNominatedPodUnlocked(uint32_t h,
                                            std::optional<std::string> node) {
  const PodPtr pod = slab_[h].pod;  // keep alive across NominatorDelete
  NominatorDelete(*pod);
  std::string node_name;
  if (node) {
    node_name = *node;
  } else {
    if (pod->nominated_node_name.empty()) return;
    node_name = pod->nominated_node_name;
  }
  auto lister_it = lister_.find(pod->Key());
  if (lister_it == lister_.end()) return;
  if (!lister_it->second->node_name.empty()) {
    return;
  }
  nominated_pod_to_node_[pod->uid] = node_name;
  auto it = nominated_pods_.find(node_name);
  if (it != nominated_pods_.end()) {
    for (uint32_t other : it->second) {
      if (slab_[other].pod->uid == pod->uid) return;
    }
  }
  Ref(h);
  nominated_pods_[node_name].push_back(h);
  ++nominated_changes_;
}

// upstream: nominator.updateNominatedPodUnlocked. False where upstream
// panics (a nil old pod).
bool PriorityQueue::UpdateNominatedPodUnlocked(const PodPtr& old_pod,
                                               uint32_t h) {
  if (old_pod == nullptr) return false;
  std::optional<std::string> node;
  if (old_pod->nominated_node_name.empty() &&
      slab_[h].pod->nominated_node_name.empty()) {
    auto it = nominated_pod_to_node_.find(old_pod->uid);
    if (it != nominated_pod_to_node_.end()) node = it->second;
  }
  NominatorDelete(*old_pod);
  AddNominatedPodUnlocked(h, std::move(node));
  return true;
}

// upstream: nominator.AddNominatedPod with ModeOverride, for a PodInfo made
// from `pod`.
void PriorityQueue::AddNominatedPodOverride(const PodPtr& pod,
                                            const std::string& node) {
  const uint32_t h = NewRecord(pod);
  Ref(h);
  AddNominatedPodUnlocked(h, node);
  Unref(h);
}

}  // namespace schedtrace::impl
