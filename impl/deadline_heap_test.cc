#include "impl/deadline_heap.h"

#include <vector>

#include "gtest/gtest.h"

namespace schedtrace::impl {
namespace {

std::vector<int64_t> Drain(DeadlineHeap& h) {
  std::vector<int64_t> out;
  while (const DeadlineHeap::Entry* e = h.Top()) {
    out.push_back(static_cast<int64_t>(e->deadline));
    h.Pop();
  }
  return out;
}

TEST(DeadlineHeapTest, PopsSmallestDeadlineFirst) {
  DeadlineHeap h;
  EXPECT_EQ(h.Top(), nullptr);
  for (int64_t d : {50, 10, 40, 10, 30, 20}) h.Push(d, 0, 0);
  EXPECT_EQ(h.size(), 6u);
  EXPECT_EQ(Drain(h), (std::vector<int64_t>{10, 10, 20, 30, 40, 50}));
  EXPECT_EQ(h.size(), 0u);
}

TEST(DeadlineHeapTest, KeepsIdAndStamp) {
  DeadlineHeap h;
  h.Push(7, /*id=*/3, /*stamp=*/9);
  h.Push(5, /*id=*/4, /*stamp=*/2);
  ASSERT_NE(h.Top(), nullptr);
  EXPECT_EQ(h.Top()->id, 4u);
  EXPECT_EQ(h.Top()->stamp, 2u);
  h.Pop();
  EXPECT_EQ(h.Top()->id, 3u);
  EXPECT_EQ(h.Top()->stamp, 9u);
}

TEST(DeadlineHeapTest, CompactDropsStaleEntriesAndKeepsOrder) {
  DeadlineHeap h;
  for (uint32_t i = 0; i < 20; ++i) h.Push(100 - i, i, i % 2);
  h.Compact([](const DeadlineHeap::Entry& e) { return e.stamp == 0; });
  EXPECT_EQ(h.size(), 10u);
  std::vector<int64_t> want;
  for (int i = 18; i >= 0; i -= 2) want.push_back(100 - i);
  EXPECT_EQ(Drain(h), want);
}

}  // namespace
}  // namespace schedtrace::impl
