#include "model/go_quantity.h"

#include "gtest/gtest.h"
#include "testkit/quantity_sum_cases_test_util.h"

namespace schedtrace::model {
namespace {

Quantity Q(const std::string& s) { return test::ParsedQuantity(s); }

TEST(QuantityAddTest, SumsAsGoDoesAndRoundsOnce) {
  for (const test::QuantitySumCase& c : test::QuantitySumCases()) {
    Quantity sum = Q(c.terms.front());
    for (size_t i = 1; i < c.terms.size(); ++i) {
      sum = QuantityAdd(sum, Q(c.terms[i]));
    }
    const std::string name = ::testing::PrintToString(c.terms);
    EXPECT_EQ(sum.Value(), c.value) << name;
    EXPECT_EQ(sum.MilliValue(), c.milli_value) << name;
    EXPECT_EQ(sum.is_dec(), c.dec) << name;
  }
}

TEST(QuantityCmpTest, ComparesExactly) {
  for (const test::QuantityCmpCase& c : test::QuantityCmpCases()) {
    EXPECT_EQ(QuantityCmp(Q(c.a), Q(c.b)), c.cmp) << c.a << " vs " << c.b;
    EXPECT_EQ(QuantityCmp(Q(c.b), Q(c.a)), -c.cmp) << c.b << " vs " << c.a;
  }
}

// The format of a sum is the second term's when the first is zero (it is
// not observable in a trace, but DeepEqual would see it).
TEST(QuantityAddTest, ZeroTakesTheOtherFormat) {
  EXPECT_EQ(QuantityAdd(Q("0"), Q("1Ki")).format(),
            Quantity::Format::kBinarySI);
  EXPECT_EQ(QuantityAdd(Q("1Ki"), Q("1")).format(),
            Quantity::Format::kBinarySI);
}

}  // namespace
}  // namespace schedtrace::model
