// Sums and comparisons of resource quantities as Go's resource.Quantity
// computes them (Quantity.Add, Quantity.Cmp; apimachinery pkg/api/resource),
// with what Value() and MilliValue() read of each sum: the cases model's
// (model/go_quantity.h) and impl's (impl/quantity_sum.h) own versions are
// tested on. v1.30's resourcehelper.PodRequests sums a pod's requests this
// way (kubernetes#115367).
#ifndef SCHEDTRACE_TESTKIT_QUANTITY_SUM_CASES_TEST_UTIL_H_
#define SCHEDTRACE_TESTKIT_QUANTITY_SUM_CASES_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/quantity.h"
#include "gtest/gtest.h"

namespace schedtrace::test {

// The quantity `s` parses to (a failed parse fails the test).
inline Quantity ParsedQuantity(const std::string& s) {
  absl::StatusOr<Quantity> q = ParseQuantity(s);
  EXPECT_TRUE(q.ok()) << q.status();
  return q.value_or(Quantity());
}

struct QuantitySumCase {
  std::vector<std::string> terms;  // added left to right
  int64_t value, milli_value;
  bool dec;  // whether the sum is an inf.Dec (an int64Amount overflowed)
};

inline std::vector<QuantitySumCase> QuantitySumCases() {
  return {
      // int64Amount{1, 0} + {500, -3}: {1500, -3}; Value rounds up.
      {{"1", "500m"}, 2, 1500, false},
      // {5, -4} twice: 1m exactly, where converting each first counts 2m.
      {{"0.5m", "0.5m"}, 1, 1, false},
      {{"0.4m", "0.4m", "0.2m"}, 1, 1, false},
      {{"1", "-1"}, 0, 0, false},
      {{"0", "250m"}, 1, 250, false},
      {{"1Gi", "512Mi"}, 1610612736, 1610612736000, false},
      // {10, 18}: still an int64Amount, whose Value overflows and reads 0.
      {{"5E", "5E"}, 0, 0, false},
      // 999999999999999999 + 9e18 overflows int64: the inf.Dec sum
      // 9999999999999999999 at scale 0, whose Int64() wraps.
      {{"999999999999999999", "9E"},
       -8446744073709551617,
       1864712049423023128,
       true},
      // 1e-10 parses as an inf.Dec of 1n; with 1 it is 1000000001n.
      {{"1e-10", "1"}, 2, 1001, true},
      {{"1", "1e-10"}, 2, 1001, true},
      // A 19-digit number is an inf.Dec (scale 9); + 1 is 2^63 exactly.
      {{"9223372036854775807", "1"}, INT64_MIN, 0, true},
      {{"-2", "500m", "1500m"}, 0, 0, false},
  };
}

struct QuantityCmpCase {
  std::string a, b;
  int cmp;  // a.Cmp(b)
};

inline std::vector<QuantityCmpCase> QuantityCmpCases() {
  return {
      {"1", "1000m", 0},
      {"1", "1001m", -1},
      {"1e-10", "0", 1},
      {"1e-10", "1n", 0},
      {"-1", "0.5", -1},
      {"-1", "-2", 1},
      {"5E", "4999999999999999999", 1},
      {"9E", "10E", -1},
      {"1Ki", "1024", 0},
      {"1Ki", "1k", 1},
      {"0", "-0.1m", 1},
  };
}

}  // namespace schedtrace::test

#endif  // SCHEDTRACE_TESTKIT_QUANTITY_SUM_CASES_TEST_UTIL_H_
