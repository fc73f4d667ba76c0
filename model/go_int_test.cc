#include "model/go_int.h"

#include <cstdint>

#include "gtest/gtest.h"
#include "testkit/go_int_cases_test_util.h"

namespace schedtrace::model {
namespace {

// Go's int64 arithmetic wraps modulo 2^64 (the spec's "integer overflow").
TEST(GoIntTest, WrapsAsGoDoes) {
  test::ExpectGoIntCases(WrapAdd, WrapSub, WrapMul);
}

TEST(GoIntTest, FloorDivRoundsDown) {
  EXPECT_EQ(FloorDiv(7, 2), 3);
  EXPECT_EQ(FloorDiv(-7, 2), -4);
  EXPECT_EQ(FloorDiv(-8, 2), -4);
  EXPECT_EQ(FloorDiv(7, -2), -4);
}

}  // namespace
}  // namespace schedtrace::model
