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

#include "core/state.h"
#include "core/state_touch.h"
#include "core/trace.h"
#include "properties/history.h"

namespace schedtrace::properties {

struct Observation {
  const State& before;
  const Step& step;
  const StepOut& out;
  const State& after;
  const History& history;  // including `step`
  // What the step may have changed (core/state_touch.h): `after` equals
  // `before` elsewhere. Null: anything.
  const StateTouch* touch = nullptr;
};

struct Violation {
  int property = 0;               // 1..11, as AllProperties() numbers them
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
// 11. A pod in unschedulablePods that a step made schedulable (the filters
//     passed it on no node before the step and pass it on one after,
//     properties/schedulable.h) leaves unschedulablePods in that step
//     (scheduler layer; docs/FORMAT.md, "Properties", has the exact rule).
std::vector<Violation> NoLostWakeUp(const Observation& o);

// All eleven, in order.
const std::vector<Property>& AllProperties();
std::string_view PropertyName(int id);

// The parts the properties are made of, one item at a time, for the
// incremental check (properties/incremental.h): it evaluates them on what a
// step changed and must word every violation as the full check does.
namespace parts {
// Property 1: `key` stands `n` (> 1) times in the queues.
Violation TwiceQueued(std::string_view key, int n);
// Property 2: `key` is assumed and was requeued.
Violation Requeued(const std::string& key);
// Property 3 for `o`, given whether the delivered pod is queued after the
// step (`queued(key)`).
template <typename Queued>
void BoundButQueued(const Observation& o, Queued queued,
                    std::vector<Violation>* v);
// Property 5: `key` is pending but neither queued nor in a cycle.
Violation Lost(const std::string& key);
// Property 6 on one NodeInfo of the state after the step.
void NodeAccounting(const NodeInfoState& n, const History& h,
                    std::vector<Violation>* v);
// Property 7: the pop's part (before the step), activeQ's order (after it),
// the backoffs (after it).
void PopOrder(const Observation& o, std::vector<Violation>* v);
void ActiveOrder(const std::vector<QueuedPod>& active, const History& h,
                 std::vector<Violation>* v);
void Backoffs(const std::vector<QueuedPod>& backoff, const History& h,
              std::vector<Violation>* v);
// Property 10: `key` is queued while in flight, waiting or parked.
Violation Busy(const std::string& key);
}  // namespace parts

// Every violation of every property on this observation.
std::vector<Violation> CheckAll(const Observation& o);
// The same, appended to `*violations` (a buffer reused from step to step).
void CheckAll(const Observation& o, std::vector<Violation>* violations);

namespace parts {
template <typename Queued>
void BoundButQueued(const Observation& o, Queued queued,
                    std::vector<Violation>* v) {
  if (o.history.layer() != Layer::kScheduler) return;
  PodPtr delivered;
  if (o.step.op == Op::kPodAdd) delivered = o.step.pod;
  if (o.step.op == Op::kPodUpdate) delivered = o.step.new_pod;
  if (delivered == nullptr || delivered->node_name.empty()) return;
  const std::string key = delivered->Key();
  if (!queued(key)) return;
  v->push_back(Violation{
      3,
      key + " is bound to " + delivered->node_name + " but still queued",
      {key}});
}
}  // namespace parts

}  // namespace schedtrace::properties

#endif  // SCHEDTRACE_PROPERTIES_PROPERTIES_H_
