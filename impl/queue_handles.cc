// impl::PriorityQueue's API for the scheduler layer: QueuedPodInfos held by
// the scheduling and binding cycles through handles (impl/queue.h).
#include <algorithm>

#include "impl/go_int.h"
#include "impl/queue.h"

namespace schedtrace::impl {

// upstream: PriorityQueue.Pop; the heap's reference moves to the caller.
std::optional<PriorityQueue::Handle> PriorityQueue::PopHandle() {
  if (active_.empty()) return std::nullopt;
  const uint32_t h = active_.Pop();
  ++slab_[h].attempts;
  // The same QueuedPodInfo may stand in backoffQ or unschedulablePods too
  // (upstream keeps one object in two queues): their entries show it.
  ++shared_changes_;
  ++scheduling_cycle_;
  // kubernetes#120334 (v1.30): the plugins of the previous attempt are
  // cleared, so a failure without a FitError has none.
  if (up_.pop_clears_rejector_plugins && !slab_[h].plugins.empty()) {
    SetPlugins(h, PluginSet());
  }
  return h;
}

PriorityQueue::Handle PriorityQueue::CloneHandle(Handle h, const PodPtr& pod,
                                                 bool new_pod_info) {
  const uint32_t c = NewRecord(pod);  // may grow slab_: index, no reference
  Record& from = slab_[h];
  Record& to = slab_[c];
  to.attempts = from.attempts;
  to.timestamp_ns = from.timestamp_ns;
  to.plugins = from.plugins;
  // A new PodInfo in the same QueuedPodInfo keeps its set as it is; a
  // DeepCopy's Clone makes a set even of a nil one.
  to.plugins_nil = new_pod_info && from.plugins_nil;
  to.gated = from.gated;
  to.terms_pod = new_pod_info ? pod : from.terms_pod;
  Ref(c);
  return c;
}

void PriorityQueue::SetHandlePlugins(Handle h,
                                     const std::vector<std::string>& plugins,
                                     bool nil_set) {
  PluginSet set;
  for (const std::string& p : plugins) set.push_back(InternPlugin(p));
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  slab_[h].plugins_nil = nil_set && set.empty();
  SetPlugins(h, std::move(set));
}

// upstream: PriorityQueue.AddUnschedulableIfNotPresent.
QueueResult PriorityQueue::AddUnschedulableIfNotPresent(Handle h,
                                                        int64_t cycle) {
  const uint32_t key = slab_[h].key;
  if (unsched_[key] != kNone || active_.Contains(key) ||
      backoff_.Contains(key)) {
    return QueueResult::kError;
  }
  slab_[h].timestamp_ns = now_ns_;
  // kubernetes#119105 (the hint-off path from v1.29): a pod no plugin
  // rejected (an error, no nodes) goes to backoffQ, for no event would move
  // it. UnschedulablePlugins stands for the rejector plugins: no plugin here
  // is ever Pending.
  const bool no_rejector =
      up_.backoff_pods_without_rejector_plugins && slab_[h].plugins.empty();
  if (move_request_cycle_ >= cycle || no_rejector) {
    BackoffUpsert(h);
  } else {
    UnschedAddOrUpdate(h);
  }
  AddNominatedPodUnlocked(h, std::nullopt);
  return QueueResult::kOk;
}

void PriorityQueue::AddNominatedPod(Handle h,
                                    const std::optional<std::string>& node) {
  AddNominatedPodUnlocked(h, node);
}

}  // namespace schedtrace::impl
