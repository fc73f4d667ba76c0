#include "impl/go_equal.h"

#include "gtest/gtest.h"
#include "testkit/go_equal_cases_test_util.h"

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

TEST(ImplGoEqualTest, DeletionTimestampsByTheirInstant) {
  for (const test::TimestampCase& c : test::TimestampCases()) {
    Pod a = test::BasePod(), b = test::BasePod();
    a.deletion_timestamp = c.a;
    b.deletion_timestamp = c.b;
    EXPECT_EQ(PodUpdated(a, b), !c.deep_equal) << c.a << " vs " << c.b;
    EXPECT_EQ(PodUpdated(b, a), !c.deep_equal) << c.b << " vs " << c.a;
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

TEST(ImplGoEqualTest, PodUpdatedWithoutGatesIgnoresThem) {
  // v1.25's PodSpec has no schedulingGates: a change of gates alone, nil
  // against empty included, is no update; any other change still is.
  Pod gated = test::BasePod();
  gated.scheduling_gates = {"example.com/gate"};
  Pod given_empty = test::BasePod();
  given_empty.given_empty.Set(Nilable::kSchedulingGates);
  for (const Pod* other : {&gated, &given_empty}) {
    EXPECT_TRUE(PodUpdated(test::BasePod(), *other));
    EXPECT_FALSE(PodUpdated(test::BasePod(), *other, false));
    EXPECT_FALSE(PodUpdated(*other, test::BasePod(), false));
  }
  Pod relabelled = gated;
  relabelled.labels["another"] = "label";
  EXPECT_TRUE(PodUpdated(test::BasePod(), relabelled, false));
}

TEST(ImplGoEqualTest, QuantitiesSemanticallyByValue) {
  struct Case {
    const char* a;
    const char* b;
    bool equal;
  };
  const Case cases[] = {
      {"1", "1", true},
      {"1", "01", true},
      {"1000", "1k", true},
      {"1", "1000m", true},
      {"1e3", "1k", true},
      {"1.0", "1.00", true},
      {"100m", "0.1", true},
      {"1.5", "1500m", true},
      {"0.5m", "500u", true},
      {"0", "0m", true},
      {"0", "00", true},
      {"1Ki", "1024", true},
      {"1Ki", "1025", false},
      {"1", "2", false},
      {"-1", "1", false},
      {"1", "1001m", false},
      // inf.Dec against inf.Dec and against int64Amount.
      {"1e30", "1000000000000000000000000000000", true},
      {"1000000000000000000000", "1e21", true},
      {"1000000000000000000000", "1000000000000000000000.0", true},
      {"1000000000000000000000", "1000000000000000000001", false},
      {"-1000000000000000000000", "1000000000000000000000", false},
      {"100000000000000000000000000000000", "1e31", false},
      // BinarySI is capped at 2^63-1 when parsed: both are the cap.
      {"9Ei", "10Ei", true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(SemanticEqual(test::Q(c.a), test::Q(c.b)), c.equal)
        << c.a << " vs " << c.b;
    EXPECT_EQ(SemanticEqual(test::Q(c.b), test::Q(c.a)), c.equal)
        << c.b << " vs " << c.a;
  }
}

TEST(ImplGoEqualTest, NodeFieldsSemantically) {
  // equality.Semantic: nil equals empty, quantities by value.
  for (const test::NilPairCase& c : test::NodeNilPairCases()) {
    Node a = test::BaseNode(), b = test::BaseNode();
    c.before(a);
    c.after(b);
    EXPECT_FALSE(AllocatableChangedSemantic(a, b)) << c.what;
    EXPECT_FALSE(LabelsChangedSemantic(a, b)) << c.what;
    EXPECT_FALSE(TaintsChangedSemantic(a, b)) << c.what;
  }
  Node a = test::BaseNode(), b = test::BaseNode();
  b.given_empty.Set(Nilable::kTaints);  // taints [] against nil
  EXPECT_TRUE(TaintsChanged(a, b));
  EXPECT_FALSE(TaintsChangedSemantic(a, b));
  b = a;
  a.allocatable["cpu"] = test::Q("1");
  b.allocatable["cpu"] = test::Q("1000m");
  EXPECT_TRUE(AllocatableChanged(a, b));
  EXPECT_FALSE(AllocatableChangedSemantic(a, b));
  b.allocatable["cpu"] = test::Q("2");
  EXPECT_TRUE(AllocatableChangedSemantic(a, b));
  b = a;
  b.allocatable["example.com/gpu"] = test::Q("0");
  EXPECT_TRUE(AllocatableChangedSemantic(a, b));  // one more key
  b = a;
  b.labels["l"] = "v";
  EXPECT_TRUE(LabelsChangedSemantic(a, b));
  b = a;
  b.taints.push_back({"k", "v", "NoSchedule"});
  EXPECT_TRUE(TaintsChangedSemantic(a, b));
}

}  // namespace
}  // namespace schedtrace::impl
