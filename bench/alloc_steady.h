// Heap allocations per step of a system in a steady state: each scenario
// sets a system up (nodes, pods), plays `warmup` rounds of the same steps on
// a ring of pods (so that tables, free lists and buffers reach their size),
// then counts the allocations inside Apply over `rounds` more rounds. Needs
// alloc_count.cc in the binary (bench/alloc_count.h).
//
//   AllocCount c = CountSteadyAllocations(Scenario::kCacheAssumeForget,
//                                         "impl", 2000, 1000);
//   if (!c.error.empty()) ...;
//   double per_step = double(c.allocations) / c.steps;
#ifndef SCHEDTRACE_BENCH_ALLOC_STEADY_H_
#define SCHEDTRACE_BENCH_ALLOC_STEADY_H_

#include <cstdint>
#include <string>

namespace schedtrace::bench {

enum class Scenario {
  // Queue layer: q_add, q_pop, q_delete of one pod.
  kQueueAddPopDelete,
  // Cache layer, 1,000 nodes: c_assume, c_forget.
  kCacheAssumeForget,
  // Cache layer, 1,000 nodes: c_assume, c_finish_binding, c_add_pod (the
  // bound object), c_remove_pod.
  kCachePodLife,
  // Scheduler layer, 1,000 nodes: pod_add, schedule_one (Permit rejects, so
  // the cluster does not fill), pod_delete.
  kSchedulerReject,
  // Scheduler layer, 1,000 nodes: pod_add, schedule_one, bind, pod_update
  // (the apiserver's answer: nodeName set), pod_delete.
  kSchedulerBind,
};

// The scenario's name for reports ("cache/assume_forget").
std::string ScenarioName(Scenario s);

struct AllocCount {
  int64_t steps = 0;        // steps counted
  int64_t allocations = 0;  // operator new calls inside their Apply
  std::string error;        // a step failed: what and where
};

// `sut`: "impl" or "model". The ring holds 1,000 pods.
AllocCount CountSteadyAllocations(Scenario s, const std::string& sut,
                                  int warmup, int rounds);

}  // namespace schedtrace::bench

#endif  // SCHEDTRACE_BENCH_ALLOC_STEADY_H_
