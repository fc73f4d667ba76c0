#include "impl/names.h"

#include "gtest/gtest.h"
#include "testkit/name_cases_test_util.h"

namespace schedtrace::impl {
namespace {

TEST(ImplNamesTest, MirrorsUpstreamHelpers) {
  for (const test::ScalarNameCase& c : test::ScalarNameCases()) {
    EXPECT_EQ(IsScalarResourceName(c.name), c.scalar) << c.name;
  }
}

TEST(ImplNamesTest, QualifiedNamesAndLabelValues) {
  for (const test::QualifiedNameCase& c : test::QualifiedNameCases()) {
    EXPECT_EQ(QualifiedName(c.text), c.qualified_name) << c.text;
    // A label value is empty or a name part.
    EXPECT_EQ(c.text.empty() || NamePart(c.text), c.label_value) << c.text;
  }
}

}  // namespace
}  // namespace schedtrace::impl
