// Go's int64 + - * wrap modulo 2^64 (the Go spec's "integer overflow"):
// the cases model's and impl's own versions (model/go_int.h,
// impl/go_int.h) are tested on.
#ifndef SCHEDTRACE_TESTKIT_GO_INT_CASES_TEST_UTIL_H_
#define SCHEDTRACE_TESTKIT_GO_INT_CASES_TEST_UTIL_H_

#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace schedtrace::test {

struct GoIntCase {
  char op;  // '+', '-' or '*'
  int64_t a, b, want;
};

inline std::vector<GoIntCase> GoIntCases() {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  return {
      {'+', kMax, 1, kMin},
      {'-', kMin, 1, kMax},
      {'+', -5, 3, -2},
      {'*', int64_t{1} << 62, 4, 0},
      // time.Duration(ms) * time.Millisecond for a huge ms.
      {'*', 9223372036855, 1000000, -9223372036854551616},
      {'*', -3, 7, -21},
  };
}

// Checks one side's WrapAdd, WrapSub and WrapMul on every case.
template <typename Op>
void ExpectGoIntCases(Op add, Op sub, Op mul) {
  for (const GoIntCase& c : GoIntCases()) {
    const int64_t got = c.op == '+'   ? add(c.a, c.b)
                        : c.op == '-' ? sub(c.a, c.b)
                                      : mul(c.a, c.b);
    EXPECT_EQ(got, c.want) << c.a << " " << c.op << " " << c.b;
  }
}

}  // namespace schedtrace::test

#endif  // SCHEDTRACE_TESTKIT_GO_INT_CASES_TEST_UTIL_H_
