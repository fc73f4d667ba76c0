#include "properties/known_violations.h"

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

}  // namespace

const std::vector<KnownViolation>& KnownViolations() {
  static const std::vector<KnownViolation> kAll = {
      {"in-flight-update-requeues", 10, "kubernetes/kubernetes#118226",
       "golden/upstream-v1.26.7/queue/add-unschedulable-if-not-present.jsonl",
       "an update of a pod between Pop and AddUnschedulableIfNotPresent adds "
       "a second copy to activeQ (fixed in 1.31 behind QueueingHints)",
       &InFlightCopy},
      {"nil-old-update-duplicates", 1, "upstream-v1.26.7-notes.md item 3",
       "golden/upstream-v1.26.7/queue/update-nil-old-in-activeq.jsonl",
       "Update(nil, p) of a pod in backoffQ adds it to activeQ as well",
       &NilOldUpdateCopy},
      {"recreated-uid-second-pod", 0, "kubernetes/kubernetes#141255 class",
       "golden/upstream-v1.26.7/scheduler/"
       "pr141255-recreated-uid-parked-pod.jsonl",
       "an update carrying a new uid is a new pod to the cache but the same "
       "key to the queue: it is queued while the old uid waits or binds",
       &RecreatedUid},
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
