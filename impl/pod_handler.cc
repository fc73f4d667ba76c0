// impl::Scheduler's one pod handler from v1.35 (unified_pod_handler,
// kubernetes#134157; upstream eventhandlers.go addPod, updatePod,
// deletePod): the assigned pods go to the cache, the unassigned ones of a
// profile to the queue, and deleting an assumed pod rejects it if it waits
// on Permit, else forgets it at once.
#include "impl/scheduler.h"

namespace schedtrace::impl {
namespace {

bool Assigned(const Pod& pod) { return !pod.node_name.empty(); }

}  // namespace

// upstream: addPod
bool Scheduler::AddPod(const PodPtr& pod) {
  backend_->ListerSet(pod);
  if (Assigned(*pod)) return AddPodToCache(pod);
  return !Responsible(*pod) || AddPodToSchedulingQueue(pod);
}

// upstream: updatePod
bool Scheduler::UpdatePod(const PodPtr& old_pod, const PodPtr& new_pod) {
  backend_->ListerSet(new_pod);
  if (Assigned(*old_pod)) return UpdatePodInCache(old_pod, new_pod);
  if (Assigned(*new_pod)) {
    // A binding: the pod joins the cache and leaves the queue.
    if (!AddPodToCache(new_pod)) return false;
    return !Responsible(*old_pod) ||
           DeletePodFromSchedulingQueue(old_pod, /*in_binding=*/true);
  }
  return !Responsible(*old_pod) || UpdatePodInSchedulingQueue(old_pod, new_pod);
}

// upstream: deletePod. A tombstone's pod may be stale: it is removed from
// the cache whatever its node name.
bool Scheduler::DeletePod(const PodPtr& pod, bool tombstone) {
  backend_->ListerDelete(*pod);
  if (tombstone) {
    if (!DeletePodFromCache(pod)) return false;
  } else if (Assigned(*pod)) {
    return DeletePodFromCache(pod);
  }
  return !Responsible(*pod) ||
         DeletePodFromSchedulingQueue(pod, /*in_binding=*/false);
}

// upstream: deletePodFromSchedulingQueue(pod, inBinding)
bool Scheduler::DeletePodFromSchedulingQueue(const PodPtr& pod,
                                             bool in_binding) {
  backend_->Delete(*pod);
  if (in_binding) return true;
  if (cache_.IsAssumedPod(pod->uid)) return HandleAssumedPodDeletion(pod);
  if (up_.nominated_pod_delete_moves_pods &&
      !pod->nominated_node_name.empty()) {
    MoveAssignedPodDelete(pod, AtMostPriority(pod->Priority()));
  }
  return true;
}

// upstream: handleAssumedPodDeletion: the cached (assumed) pod is rejected
// if it waits on Permit, else removed from the cache at once (ForgetPod);
// then the pods its resources held back may move.
bool Scheduler::HandleAssumedPodDeletion(const PodPtr& deleted) {
  const PodPtr pod = cache_.GetPod(deleted->uid);
  if (pod == nullptr) return true;      // logged
  if (!Responsible(*pod)) return true;  // frameworkForPod
  if (!RejectWaitingPod(pod->scheduler_name, pod->uid, removed_rejector_) &&
      cache_.ForgetPod(pod) == CacheResult::kFatal) {
    return false;
  }
  MoveAssignedPodDelete(pod, nullptr);
  return true;
}

}  // namespace schedtrace::impl
