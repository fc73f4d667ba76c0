// Allocation counts, not timings: after a warm-up, impl's queue and cache
// layers apply their steady-state steps (bench/alloc_steady.h) without a
// single heap allocation. The scheduler layer still allocates (the assumed
// pod's copy, the step's out): docs/BENCHMARKS.md has its figures.
#include "bench/alloc_steady.h"
#include "gtest/gtest.h"

namespace schedtrace::bench {
namespace {

constexpr int kWarmup = 3000;  // three times around the ring of pods
constexpr int kRounds = 1000;

void ExpectNoAllocations(Scenario scenario) {
  AllocCount c = CountSteadyAllocations(scenario, "impl", kWarmup, kRounds);
  ASSERT_EQ(c.error, "") << ScenarioName(scenario);
  EXPECT_GT(c.steps, 0) << ScenarioName(scenario);
  EXPECT_EQ(c.allocations, 0) << ScenarioName(scenario) << ": " << c.allocations
                              << " allocations in " << c.steps << " steps";
}

TEST(BenchAllocTest, QueueAddPopDeleteAllocatesNothing) {
  ExpectNoAllocations(Scenario::kQueueAddPopDelete);
}

TEST(BenchAllocTest, CacheAssumeForgetAllocatesNothing) {
  ExpectNoAllocations(Scenario::kCacheAssumeForget);
}

TEST(BenchAllocTest, CachePodLifeAllocatesNothing) {
  ExpectNoAllocations(Scenario::kCachePodLife);
}

// The count is of this thread's operator new calls inside Apply: a step
// that allocates is seen.
TEST(BenchAllocTest, CountsTheSchedulersAllocations) {
  AllocCount c =
      CountSteadyAllocations(Scenario::kSchedulerReject, "impl", 100, 100);
  ASSERT_EQ(c.error, "");
  EXPECT_GT(c.allocations, 0);
}

}  // namespace
}  // namespace schedtrace::bench
