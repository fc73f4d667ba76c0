#include "model/go_time.h"

#include <cstdint>

#include "gtest/gtest.h"

namespace schedtrace::model {
namespace {

constexpr Duration kSecond = 1000000000;

TEST(GoTimeTest, AddCarriesNanosecondsBothWays) {
  const Time t = Time::FromMs(1500);  // 1 s + 500 ms
  EXPECT_EQ(t.Add(600 * 1000000).Ms(), 2100);
  EXPECT_EQ(t.Add(-600 * 1000000).Ms(), 900);
  EXPECT_EQ(t.Add(-2 * kSecond).Ms(), -500);
  EXPECT_EQ(Time::FromMs(-1).Ms(), -1);  // floor, not truncation
  EXPECT_TRUE(Time::FromMs(-1).Before(Time::FromMs(0)));
}

// Past the int64 nanosecond range (about 292 years) Add stays exact, as
// Go's wall clock does; a plain int64 of nanoseconds would wrap.
TEST(GoTimeTest, AddIsExactPastTheInt64NanosecondRange) {
  const Time t = Time::FromMs(14000);
  EXPECT_EQ(t.Add(INT64_MAX).Ms(), 14000 + INT64_MAX / 1000000);
  EXPECT_EQ(Time::FromMs(int64_t{1} << 62).Add(kSecond).Ms(),
            (int64_t{1} << 62) + 1000);
  EXPECT_TRUE(t.Add(INT64_MAX).After(Time::FromMs(9223372036854)));
}

// Sub saturates at the Duration's ends (Go's Time.Sub), never wraps.
TEST(GoTimeTest, SubSaturates) {
  const Time a = Time::FromMs(1000), b = Time::FromMs(3500);
  EXPECT_EQ(b.Sub(a), 2500 * Duration{1000000});
  EXPECT_EQ(a.Sub(b), -2500 * Duration{1000000});
  const Time far = Time::FromMs(int64_t{1} << 62);
  EXPECT_EQ(far.Sub(a), INT64_MAX);
  EXPECT_EQ(a.Sub(far), INT64_MIN);
  EXPECT_EQ(a.Add(INT64_MAX).Sub(a), INT64_MAX);
}

TEST(GoTimeTest, OrderAndEquality) {
  const Time a = Time::FromMs(7);
  EXPECT_TRUE(a.Equal(Time::FromMs(7)));
  EXPECT_FALSE(a.Before(a));
  EXPECT_FALSE(a.After(a));
  EXPECT_TRUE(a.Add(1).After(a));  // one nanosecond later
  EXPECT_EQ(a.Add(1).Ms(), 7);
}

}  // namespace
}  // namespace schedtrace::model
