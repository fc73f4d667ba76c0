#include "properties/known_violations.h"

#include <algorithm>

namespace schedtrace::properties {
namespace {

bool AnyPod(const Violation& v, auto pred) {
  for (const std::string& key : v.pods) {
    if (pred(key)) return true;
  }
  return false;
}

// #118226: in the queue layer a pod popped and not yet given back is in no
// sub-queue, so Update (or Add) puts a second copy in activeQ.
bool InFlightCopy(const Observation& o, const Violation& v) {
  return v.property == 10 && o.history.layer() == Layer::kQueue &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.in_flight().contains(k);
         });
}

// notes 3: Update(nil, p) of a pod in backoffQ adds a fresh activeQ entry and
// leaves the backoffQ one: the pod is in two queues until the backoff flush.
bool NilOldUpdateCopy(const Observation& o, const Violation& v) {
  return v.property == 1 && o.history.layer() == Layer::kQueue &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.UpdatedWithNilOld(k);
         });
}

// notes 27/28, PR #141255 class: a pod deleted and created again under the
// same name, seen as one update with a new uid, is a second pod to the cache
// (keyed by uid) and the queue (keyed by name) at once.
bool RecreatedUid(const Observation& o, const Violation& v) {
  return o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.AmbiguousInCache(k);
         });
}

// docs/UPSTREAM.md item 27, PR #141255 class: an update that changes a queued
// pod's uid makes PodInfo.Update mutate the PodInfo the nominator holds before
// nominator.delete(oldPod) looks for the old uid, so the entry stays in
// nominatedPods for good, after the pod is bound or deleted.
bool RecreatedUidPhantomNomination(const Observation& o, const Violation& v) {
  return v.property == 9 && AnyPod(v, [&](const std::string& k) {
           return o.history.UidChangedWhileNominated(k);
         });
}

// docs/UPSTREAM.md item 28, PR #141255 class: a pod waiting on Permit whose
// deletion and re-creation arrived as one update with a new uid is never
// rejected: the later delete carries the new uid and RejectWaitingPod(uid)
// misses the old one, which keeps waiting (and may bind). Only the incarnation
// last assumed under the key counts: a waiting pod deleted under its own uid is
// a failure.
bool RecreatedUidWaitingPod(const Observation& o, const Violation& v) {
  return v.property == 4 && o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.DeletedOtherUidWhileWaiting(k);
         });
}

// handleSchedulingFailure re-reads the pod from the informer by name only:
// when a failed incarnation's name now belongs to a pod of another
// scheduler (re-created with a new uid), that pod is queued and nominated
// by us, and its later update and delete never pass our queue filter
// (responsibleForPod), so it stays. Only a key that, after a uid change,
// carried another scheduler's pod matches.
bool RecreatedForOtherScheduler(const Observation& o, const Violation& v) {
  return v.property == 9 && o.history.layer() == Layer::kScheduler &&
         AnyPod(v, [&](const std::string& k) {
           return o.history.RecreatedForOtherScheduler(k);
         });
}

// docs/UPSTREAM.md item 13: UpdatePod subtracts the caller's old object and
// ForgetPod the caller's object, not the cached one: a stale argument makes a
// NodeInfo's requested drift from the sum over its pods.
bool CallerObjectAccounting(const Observation& o, const Violation& v) {
  return v.property == 6 && (o.history.NodeAccountingDrifted(v.node) ||
                             AnyPod(v, [&](const std::string& k) {
                               return o.history.AccountingDrifted(k);
                             }));
}

// PreEnqueue runs only when a pod enters activeQ: activate() of a pod in
// backoffQ whose object gained scheduling gates puts the QueuedPodInfo in
// unschedulablePods and returns before deleting it from backoffQ.
bool ActivateGatedInBackoff(const Observation& o, const Violation& v) {
  return v.property == 1 && AnyPod(v, [&](const std::string& k) {
           return o.history.ActivatedWhileGated(k);
         });
}

// PreEnqueue runs only when a pod enters activeQ: an update that adds
// scheduling gates to a pod already in activeQ leaves it there, and it pops.
bool GatesAddedInActiveQ(const Observation&, const Violation& v) {
  return v.property == 7 &&
         v.detail.find("is gated but was popped") != std::string::npos;
}

}  // namespace

const std::vector<KnownViolation>& KnownViolations() {
  static const std::vector<KnownViolation> kAll = {
      {"in-flight-update-requeues", 10, "kubernetes/kubernetes#118226",
       "golden/upstream-v1.26.7/queue/add-unschedulable-if-not-present.jsonl",
       "an update of a pod between Pop and AddUnschedulableIfNotPresent adds "
       "a second copy to activeQ (fixed in 1.31 behind QueueingHints)",
       &InFlightCopy},
      {"nil-old-update-duplicates", 1, "docs/UPSTREAM.md item 3",
       "golden/upstream-v1.26.7/queue/update-nil-old-in-activeq.jsonl",
       "Update(nil, p) of a pod in backoffQ adds it to activeQ as well",
       &NilOldUpdateCopy},
      {"recreated-uid-second-pod", 0, "kubernetes/kubernetes#141255 class",
       "golden/upstream-v1.26.7/scheduler/random-47.jsonl",
       "an update carrying a new uid is a new pod to the cache but the same "
       "key to the queue: it is queued while the old uid waits or binds",
       &RecreatedUid},
      {"recreated-uid-phantom-nomination", 9,
       "kubernetes/kubernetes#141255 class (docs/UPSTREAM.md item 27)",
       "golden/regression/upstream/scheduler/"
       "pr141255-recreated-uid-while-nominated.jsonl",
       "an update giving a nominated pod in unschedulablePods a new uid "
       "leaves its nominator entry behind for good: it outlives the pod's "
       "binding and deletion and keeps reserving the node",
       &RecreatedUidPhantomNomination},
      {"recreated-uid-waiting-pod-survives", 4,
       "kubernetes/kubernetes#141255 class (docs/UPSTREAM.md item 28)",
       "golden/regression/upstream/scheduler/"
       "pr141255-recreated-uid-while-waiting.jsonl",
       "a pod waiting on Permit whose re-creation arrives as one update "
       "with a new uid is not rejected when the new uid is deleted: "
       "RejectWaitingPod looks for the new uid, the old one keeps waiting "
       "and binds",
       &RecreatedUidWaitingPod},
      {"recreated-other-scheduler-stays-queued", 9,
       "handleSchedulingFailure's informer lookup by name (schedule_one.go)",
       "golden/regression/upstream/scheduler/"
       "recreated-other-scheduler-stays-queued.jsonl",
       "a failed binding cycle re-queues and nominates the informer's pod of "
       "the same name even when it was re-created for another scheduler; "
       "its delete never passes our queue filter, so it stays queued and "
       "nominated after it is gone",
       &RecreatedForOtherScheduler},
      {"caller-object-accounting", 6, "docs/UPSTREAM.md item 13",
       "golden/handwritten/cache/caller-object-accounting.jsonl",
       "UpdatePod and ForgetPod subtract the caller's object, not the cached "
       "one: a stale argument makes requested drift",
       &CallerObjectAccounting},
      {"activate-gated-pod-in-backoffq", 1,
       "PreEnqueue only on entry to activeQ (PriorityQueue.activate)",
       "golden/handwritten/queue/activate-gated-pod-in-backoffq.jsonl",
       "Activate of a pod in backoffQ whose object gained scheduling gates "
       "leaves it in backoffQ and unschedulablePods at once",
       &ActivateGatedInBackoff},
      {"gates-added-in-activeq", 7,
       "PreEnqueue only on entry to activeQ (PriorityQueue.Update)",
       "golden/handwritten/queue/gates-added-in-activeq-and-backoffq.jsonl",
       "an update adding scheduling gates to a pod in activeQ leaves it "
       "there, and it is popped with its gates",
       &GatesAddedInActiveQ},
  };
  return kAll;
}

const KnownViolation* Classify(const Observation& o, const Violation& v) {
  for (const KnownViolation& k : KnownViolations()) {
    if ((k.property == 0 || k.property == v.property) && k.matches(o, v)) {
      return &k;
    }
  }
  return nullptr;
}

}  // namespace schedtrace::properties
