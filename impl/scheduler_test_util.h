// What impl's scheduler tests share: one scheduling cycle on given nodes.
#ifndef SCHEDTRACE_IMPL_SCHEDULER_TEST_UTIL_H_
#define SCHEDTRACE_IMPL_SCHEDULER_TEST_UTIL_H_

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "impl/scheduler.h"

namespace schedtrace::impl {

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
