#include "model/name_validation.h"

#include "gtest/gtest.h"
#include "testkit/name_cases_test_util.h"

namespace schedtrace::model {
namespace {

TEST(NameValidationTest, MirrorsUpstreamValidation) {
  for (const test::QualifiedNameCase& c : test::QualifiedNameCases()) {
    EXPECT_EQ(IsQualifiedName(c.text), c.qualified_name) << c.text;
    EXPECT_EQ(IsValidLabelValue(c.text), c.label_value) << c.text;
  }
}

}  // namespace
}  // namespace schedtrace::model
