#include "impl/scalar_names.h"

#include "gtest/gtest.h"
#include "harness/scalar_name_cases_test_util.h"

namespace schedtrace::impl {
namespace {

TEST(ImplIsScalarResourceNameTest, MirrorsUpstreamHelpers) {
  for (const test::ScalarNameCase& c : test::ScalarNameCases()) {
    EXPECT_EQ(IsScalarResourceName(c.name), c.scalar) << c.name;
  }
}

}  // namespace
}  // namespace schedtrace::impl
