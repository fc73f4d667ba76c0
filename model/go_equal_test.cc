#include "model/go_equal.h"

#include "gtest/gtest.h"
#include "testkit/go_equal_cases_test_util.h"

namespace schedtrace::model {
namespace {

// upstream isPodUpdated, as model/queue.cc applies it.
bool Updated(const Pod& a, const Pod& b) {
  Pod x = a, y = b;
  x.resource_version = y.resource_version = "";
  x.nominated_node_name = y.nominated_node_name = "";
  return !DeepEqual(x, y);
}

TEST(ModelGoEqualTest, PodsAsIsPodUpdatedSeesThem) {
  for (const test::PodCase& c : test::PodCases()) {
    Pod changed = test::BasePod();
    c.change(changed);
    EXPECT_EQ(Updated(test::BasePod(), changed), c.updated) << c.what;
    EXPECT_EQ(Updated(changed, test::BasePod()), c.updated) << c.what;
    EXPECT_TRUE(DeepEqual(changed, changed)) << c.what;
  }
}

TEST(ModelGoEqualTest, DeletionTimestampsByTheirInstant) {
  for (const test::TimestampCase& c : test::TimestampCases()) {
    Pod a = test::BasePod(), b = test::BasePod();
    a.deletion_timestamp = c.a;
    b.deletion_timestamp = c.b;
    EXPECT_EQ(DeepEqual(a, b), c.deep_equal) << c.a << " vs " << c.b;
    EXPECT_EQ(DeepEqual(b, a), c.deep_equal) << c.b << " vs " << c.a;
  }
}

TEST(ModelGoEqualTest, QuantitiesByTheirParsedFields) {
  for (const test::QuantityCase& c : test::QuantityCases()) {
    EXPECT_EQ(DeepEqual(test::Q(c.a), test::Q(c.b)), c.deep_equal)
        << c.a << " vs " << c.b;
    EXPECT_EQ(DeepEqual(test::Q(c.b), test::Q(c.a)), c.deep_equal)
        << c.b << " vs " << c.a;
  }
}

TEST(ModelGoEqualTest, NodeFields) {
  for (const test::NodeCase& c : test::NodeCases()) {
    Node changed = test::BaseNode();
    c.change(changed);
    const Node base = test::BaseNode();
    EXPECT_EQ(!DeepEqualAllocatable(base, changed), c.allocatable_changed)
        << c.what;
    EXPECT_EQ(!DeepEqualLabels(base, changed), c.labels_changed) << c.what;
    EXPECT_EQ(!DeepEqualTaints(base, changed), c.taints_changed) << c.what;
  }
  for (const test::NilPairCase& c : test::NodeNilPairCases()) {
    Node a = test::BaseNode(), b = test::BaseNode();
    c.before(a);
    c.after(b);
    EXPECT_EQ(!DeepEqualAllocatable(a, b), c.allocatable_changed) << c.what;
    EXPECT_EQ(!DeepEqualLabels(a, b), c.labels_changed) << c.what;
    EXPECT_EQ(!DeepEqualTaints(a, b), c.taints_changed) << c.what;
  }
}

}  // namespace
}  // namespace schedtrace::model
