#include "impl/quantity_sum.h"

#include "gtest/gtest.h"
#include "testkit/quantity_sum_cases_test_util.h"

namespace schedtrace::impl {
namespace {

Quantity Q(const std::string& s) { return test::ParsedQuantity(s); }

TEST(QuantitySumTest, SumsAsGoDoesAndRoundsOnce) {
  for (const test::QuantitySumCase& c : test::QuantitySumCases()) {
    QuantitySum sum(Q(c.terms.front()));
    for (size_t i = 1; i < c.terms.size(); ++i) sum.Add(Q(c.terms[i]));
    const Quantity q = sum.ToQuantity();
    const std::string name = ::testing::PrintToString(c.terms);
    EXPECT_EQ(q.Value(), c.value) << name;
    EXPECT_EQ(q.MilliValue(), c.milli_value) << name;
    EXPECT_EQ(q.is_dec(), c.dec) << name;
  }
}

TEST(QuantitySumTest, LessIsGoCmpOfTheOther) {
  for (const test::QuantityCmpCase& c : test::QuantityCmpCases()) {
    EXPECT_EQ(QuantitySum(Q(c.b)).Less(Q(c.a)), c.cmp > 0)
        << c.a << " vs " << c.b;
    EXPECT_EQ(QuantitySum(Q(c.a)).Less(Q(c.b)), c.cmp < 0)
        << c.b << " vs " << c.a;
  }
}

// A sum that became an inf.Dec compares by value with what comes next.
TEST(QuantitySumTest, DecimalSumComparesByValue) {
  QuantitySum sum(Q("999999999999999999"));
  sum.Add(Q("9E"));
  EXPECT_FALSE(sum.Less(Q("9E")));
  EXPECT_TRUE(sum.Less(Q("10E")));
}

}  // namespace
}  // namespace schedtrace::impl
