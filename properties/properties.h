// The invariants schedtrace checks after every step, for every system.
//
// Each property is a pure function of one observation: the state before a
// step, the step, its out, the state after it, and the history of the trace
// including that step. It returns the violations it finds (none = holds).
// Properties read only `State`, `Step`, `StepOut` and `History`: they work
// on whatever system produced them.
//
//   for (const Property& p : AllProperties())
//     for (Violation& v : p.check(obs)) report(v);
#ifndef SCHEDTRACE_PROPERTIES_PROPERTIES_H_
#define SCHEDTRACE_PROPERTIES_PROPERTIES_H_

#include <string>
#include <string_view>
#include <vector>

#include "harness/state.h"
#include "harness/trace.h"
#include "properties/history.h"

namespace schedtrace::properties {

struct Observation {
  const State& before;
  const Step& step;
  const StepOut& out;
  const State& after;
  const History& history;  // including `step`
};

struct Violation {
  int property = 0;               // 1..10, as AllProperties() numbers them
  std::string detail;             // what is wrong, readable
  std::vector<std::string> pods;  // the pods involved (keys)
  std::string node;               // the NodeInfo involved, if any
  std::string Format() const;     // "property 1 (no pod in two queues): ..."
};

using PropertyCheck = std::vector<Violation> (*)(const Observation&);

struct Property {
  int id;
  std::string_view name;
  PropertyCheck check;
};

// 1. activeQ, backoffQ and unschedulablePods are pairwise disjoint, and no
//    pod is twice in one of them.
std::vector<Violation> NoPodInTwoQueues(const Observation& o);
// 2. No step adds to a queue a pod that is assumed before and after it.
std::vector<Violation> AssumedPodsNeverRequeued(const Observation& o);
// 3. After a step that delivers a pod with spec.nodeName set, that pod is in
//    no queue (scheduler layer).
std::vector<Violation> BoundPodsLeaveTheQueue(const Observation& o);
// 4. A pod deleted while waiting on Permit leaves the waiting map and the
//    assumed set in that step, and is never bound afterwards.
std::vector<Violation> DeletedWaitingPodsAreRejected(const Observation& o);
// 5. Every pending pod the informer holds for a profile we serve is queued,
//    waiting, parked or assumed (scheduler layer).
std::vector<Violation> NoPendingPodIsLost(const Observation& o);
// 6. Each NodeInfo's requested resources are the sum over its pods; a
//    placeholder NodeInfo exists only while it holds pods.
std::vector<Violation> CacheAccounting(const Observation& o);
// 7. A gated pod is never popped; the pop takes the head of activeQ; activeQ
//    is in priority order; no backoff is longer than
//    min(initial * 2^(attempts-1), max).
std::vector<Violation> OrderAndBackoff(const Observation& o);
// 8. schedulingCycle never decreases; moveRequestCycle <= schedulingCycle.
std::vector<Violation> Cycles(const Observation& o);
// 9. Every nominated pod is pending in the informer (scheduler layer).
std::vector<Violation> NominationsArePending(const Observation& o);
// 10. A pod is not in a queue while it is in flight, waiting or parked.
std::vector<Violation> OneCopy(const Observation& o);

// All ten, in order.
const std::vector<Property>& AllProperties();
std::string_view PropertyName(int id);

// Every violation of every property on this observation.
std::vector<Violation> CheckAll(const Observation& o);
// The same, appended to `*violations` (a buffer reused from step to step).
void CheckAll(const Observation& o, std::vector<Violation>* violations);

}  // namespace schedtrace::properties

#endif  // SCHEDTRACE_PROPERTIES_PROPERTIES_H_
