#include "impl/go_int.h"

#include <cstdint>

#include "gtest/gtest.h"
#include "testkit/go_int_cases_test_util.h"

namespace schedtrace::impl {
namespace {

// Go's int64 arithmetic wraps modulo 2^64 (the spec's "integer overflow").
TEST(GoIntTest, WrapsAsGoDoes) {
  test::ExpectGoIntCases(WrapAdd, WrapSub, WrapMul);
}

}  // namespace
}  // namespace schedtrace::impl
