#include "run/bench_memory.h"

#include <cstring>
#include <memory>

#include "gtest/gtest.h"

namespace schedtrace {
namespace {

// Linux updates the RSS counters lazily (per-thread caches, synced every few
// dozen page faults): figures taken close together may differ by this much.
constexpr int64_t kSlack = 1 << 20;

TEST(BenchMemoryTest, PeakCoversMemoryTouchedAndOutlivesItsRelease) {
  const int64_t before = CurrentRssBytes();
  ASSERT_GT(before, 0);
  ASSERT_GE(PeakRssBytes(), before - kSlack);
  constexpr size_t kSize = 64 << 20;
  {
    auto block = std::make_unique<char[]>(kSize);
    // Touch every page so it is resident.
    std::memset(block.get(), 1, kSize);
    // The block escapes: clang would otherwise drop the allocation and the
    // stores, which nothing reads.
    asm volatile("" : : "r"(block.get()) : "memory");
    EXPECT_GE(CurrentRssBytes(),
              before + static_cast<int64_t>(kSize) * 9 / 10 - kSlack);
  }
  // The high-water mark remembers the block after it was freed.
  EXPECT_GE(PeakRssBytes(),
            before + static_cast<int64_t>(kSize) * 9 / 10 - kSlack);
}

}  // namespace
}  // namespace schedtrace
