#include "impl/go_equal.h"

#include "gtest/gtest.h"
#include "harness/go_equal_cases_test_util.h"

namespace schedtrace::impl {
namespace {

TEST(ImplGoEqualTest, PodsAsIsPodUpdatedSeesThem) {
  for (const test::PodCase& c : test::PodCases()) {
    Pod changed = test::BasePod();
    c.change(changed);
    EXPECT_EQ(PodUpdated(test::BasePod(), changed), c.updated) << c.what;
    EXPECT_EQ(PodUpdated(changed, test::BasePod()), c.updated) << c.what;
    EXPECT_FALSE(PodUpdated(changed, changed)) << c.what;
  }
}

TEST(ImplGoEqualTest, QuantitiesByTheirParsedFields) {
  for (const test::QuantityCase& c : test::QuantityCases()) {
    EXPECT_EQ(GoEqual(test::Q(c.a), test::Q(c.b)), c.deep_equal)
        << c.a << " vs " << c.b;
    EXPECT_EQ(GoEqual(test::Q(c.b), test::Q(c.a)), c.deep_equal)
        << c.b << " vs " << c.a;
  }
}

TEST(ImplGoEqualTest, NodeFields) {
  for (const test::NodeCase& c : test::NodeCases()) {
    Node changed = test::BaseNode();
    c.change(changed);
    const Node base = test::BaseNode();
    EXPECT_EQ(AllocatableChanged(base, changed), c.allocatable_changed)
        << c.what;
    EXPECT_EQ(LabelsChanged(base, changed), c.labels_changed) << c.what;
    EXPECT_EQ(TaintsChanged(base, changed), c.taints_changed) << c.what;
  }
  for (const test::NilPairCase& c : test::NodeNilPairCases()) {
    Node a = test::BaseNode(), b = test::BaseNode();
    c.before(a);
    c.after(b);
    EXPECT_EQ(AllocatableChanged(a, b), c.allocatable_changed) << c.what;
    EXPECT_EQ(LabelsChanged(a, b), c.labels_changed) << c.what;
    EXPECT_EQ(TaintsChanged(a, b), c.taints_changed) << c.what;
  }
}

}  // namespace
}  // namespace schedtrace::impl
