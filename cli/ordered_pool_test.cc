#include "cli/ordered_pool.h"

#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace::cli {
namespace {

using ::testing::ElementsAre;

// Later tasks finish first (task i sleeps (n - i) ms): results still come
// in task order.
TEST(OrderedPoolTest, ConsumesInTaskOrderWhateverFinishesFirst) {
  for (int jobs : {1, 2, 4, 16}) {
    const size_t n = 20;
    std::vector<size_t> seen;
    size_t consumed = RunOrdered<size_t>(
        n, jobs,
        [&](size_t i) {
          std::this_thread::sleep_for(std::chrono::milliseconds(n - i));
          return i * 10;
        },
        [&](size_t i, size_t& r) {
          EXPECT_EQ(r, i * 10);
          seen.push_back(i);
          return true;
        });
    EXPECT_EQ(consumed, n);
    ASSERT_EQ(seen.size(), n) << "jobs " << jobs;
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(seen[i], i);
  }
}

TEST(OrderedPoolTest, RunsTasksAtOnceUpToJobs) {
  std::atomic<int> in_flight{0}, most{0};
  RunOrdered<int>(
      12, 3,
      [&](size_t) {
        int now = ++in_flight;
        int m = most.load();
        while (now > m && !most.compare_exchange_weak(m, now)) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        --in_flight;
        return 0;
      },
      [](size_t, int&) { return true; });
  EXPECT_EQ(most.load(), 3);
}

// The consumer stops at task 3: tasks 0..3 were consumed, nothing after
// is, and no task starts once the stop is seen.
TEST(OrderedPoolTest, StoppingKeepsTheSerialPrefix) {
  for (int jobs : {1, 3}) {
    std::atomic<int> started{0};
    std::vector<size_t> seen;
    size_t consumed = RunOrdered<int>(
        50, jobs,
        [&](size_t) {
          ++started;
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
          return 0;
        },
        [&](size_t i, int&) {
          seen.push_back(i);
          return i != 3;
        });
    EXPECT_EQ(consumed, 4u);
    EXPECT_THAT(seen, ElementsAre(0, 1, 2, 3));
    // At most 2 * jobs ahead of the consumer.
    EXPECT_LE(started.load(), 4 + 2 * jobs) << "jobs " << jobs;
  }
}

TEST(OrderedPoolTest, KeepGoingFalseStopsStartingTasks) {
  std::atomic<int> started{0};
  std::atomic<bool> go{true};
  size_t consumed = RunOrdered<int>(
      100, 2,
      [&](size_t i) {
        ++started;
        if (i == 5) go = false;
        return 0;
      },
      [](size_t, int&) { return true; }, [&] { return go.load(); });
  EXPECT_LT(started.load(), 100);
  EXPECT_EQ(consumed, static_cast<size_t>(started.load()));
}

TEST(OrderedPoolTest, NoTasks) {
  EXPECT_EQ(
      RunOrdered<int>(
          0, 4, [](size_t) { return 0; }, [](size_t, int&) { return true; }),
      0u);
}

}  // namespace
}  // namespace schedtrace::cli
