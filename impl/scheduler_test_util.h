// What impl's scheduler tests share: a pod, and one scheduling cycle on
// given nodes.
#ifndef SCHEDTRACE_IMPL_SCHEDULER_TEST_UTIL_H_
#define SCHEDTRACE_IMPL_SCHEDULER_TEST_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/quantity.h"
#include "gtest/gtest.h"
#include "impl/scheduler.h"

namespace schedtrace::impl {

inline Quantity Q(const char* s) { return *ParseQuantity(s); }

// Pod ns/`name` of default-scheduler, one container requesting `cpu` (none
// without it).
inline PodPtr MakePod(const std::string& name, const char* cpu = nullptr,
                      int32_t priority = 0, const std::string& nominated = "") {
  auto p = std::make_shared<Pod>();
  p->namespace_ = "ns";
  p->name = name;
  p->uid = "uid-" + name;
  p->resource_version = "1";
  p->scheduler_name = "default-scheduler";
  p->priority = priority;
  p->nominated_node_name = nominated;
  if (cpu != nullptr) {
    p->containers.push_back({.name = "c", .requests = {{"cpu", Q(cpu)}}});
  }
  return p;
}

// Adds the nodes, adds `pod` and runs one cycle (Permit waits); returns its
// out.
inline StepOut ScheduleOn(Scheduler& s, const std::vector<NodePtr>& nodes,
                          const PodPtr& pod) {
  int64_t t = 1;
  for (const NodePtr& n : nodes) {
    s.SetNow(t++);
    EXPECT_TRUE(s.OnNodeAdd(n));
  }
  s.SetNow(t++);
  EXPECT_TRUE(s.OnPodAdd(pod));
  s.TakeOut();
  s.SetNow(t++);
  EXPECT_TRUE(s.ScheduleOne(ReserveOutcome::kOk, PermitOutcome::kWait));
  return s.TakeOut();
}

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_SCHEDULER_TEST_UTIL_H_
