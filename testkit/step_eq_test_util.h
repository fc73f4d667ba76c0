// Deep equality of decoded steps, for tests that round-trip traces through
// the codec (core/codec_test.cc, the golden corpus's codec checks in
// testkit/golden_test_util.h): every member a step line can fill, objects
// compared by value.
#ifndef SCHEDTRACE_TESTKIT_STEP_EQ_TEST_UTIL_H_
#define SCHEDTRACE_TESTKIT_STEP_EQ_TEST_UTIL_H_

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/json_codec.h"
#include "core/trace.h"
#include "gtest/gtest.h"

namespace schedtrace {

// Equal objects, or both null.
template <typename T>
bool PtrEq(const std::shared_ptr<const T>& a,
           const std::shared_ptr<const T>& b) {
  if (!a || !b) return !a && !b;
  return *a == *b;
}

// Fails the test on every member where `a` and `b` differ.
inline void ExpectStepEq(const Step& a, const Step& b) {
  SCOPED_TRACE(
      absl::StrCat("step ", std::string(OpName(a.op)), " at line ", b.line));
  EXPECT_EQ(a.t, b.t);
  EXPECT_EQ(a.op, b.op);
  EXPECT_TRUE(PtrEq(a.pod, b.pod));
  EXPECT_TRUE(PtrEq(a.old_pod, b.old_pod));
  EXPECT_TRUE(PtrEq(a.new_pod, b.new_pod));
  EXPECT_TRUE(PtrEq(a.node, b.node));
  EXPECT_TRUE(PtrEq(a.old_node, b.old_node));
  EXPECT_TRUE(PtrEq(a.new_node, b.new_node));
  EXPECT_EQ(a.pod_key, b.pod_key);
  ASSERT_EQ(a.pods.size(), b.pods.size());
  for (size_t i = 0; i < a.pods.size(); ++i) {
    EXPECT_TRUE(PtrEq(a.pods[i], b.pods[i])) << i;
  }
  EXPECT_EQ(a.pod_keys, b.pod_keys);
  EXPECT_EQ(a.plugins, b.plugins);
  EXPECT_EQ(a.cycle, b.cycle);
  EXPECT_EQ(a.event, b.event);
  EXPECT_EQ(a.precheck, b.precheck);
  EXPECT_EQ(a.nominated_node, b.nominated_node);
  EXPECT_EQ(a.tombstone, b.tombstone);
  EXPECT_EQ(a.wait_for_first_consumer, b.wait_for_first_consumer);
  EXPECT_EQ(a.reserve, b.reserve);
  EXPECT_EQ(a.permit, b.permit);
  EXPECT_EQ(a.prebind_ok, b.prebind_ok);
  EXPECT_EQ(a.bind_ok, b.bind_ok);
  ASSERT_EQ(a.expect == nullptr, b.expect == nullptr);
  if (a.expect) {
    EXPECT_EQ(a.expect->out, b.expect->out);
    EXPECT_EQ(a.expect->state, b.expect->state);
  }
}

}  // namespace schedtrace

#endif  // SCHEDTRACE_TESTKIT_STEP_EQ_TEST_UTIL_H_
