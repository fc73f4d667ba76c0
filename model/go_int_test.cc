#include "model/go_int.h"

#include <cstdint>
#include <limits>

#include "gtest/gtest.h"

namespace schedtrace::model {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

// Go's int64 arithmetic wraps modulo 2^64 (the spec's "integer overflow").
TEST(GoIntTest, WrapsAsGoDoes) {
  EXPECT_EQ(WrapAdd(kMax, 1), kMin);
  EXPECT_EQ(WrapSub(kMin, 1), kMax);
  EXPECT_EQ(WrapAdd(-5, 3), -2);
  EXPECT_EQ(WrapMul(int64_t{1} << 62, 4), 0);
  // time.Duration(ms) * time.Millisecond for a huge ms.
  EXPECT_EQ(WrapMul(int64_t{9223372036855}, 1000000), -9223372036854551616);
  EXPECT_EQ(WrapMul(-3, 7), -21);
}

TEST(GoIntTest, FloorDivRoundsDown) {
  EXPECT_EQ(FloorDiv(7, 2), 3);
  EXPECT_EQ(FloorDiv(-7, 2), -4);
  EXPECT_EQ(FloorDiv(-8, 2), -4);
  EXPECT_EQ(FloorDiv(7, -2), -4);
}

}  // namespace
}  // namespace schedtrace::model
