#include "fuzz/checks.h"

#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "testkit/golden_test_util.h"

namespace schedtrace::fuzz {
namespace {

// GoldenSample(): every op, argument and config variant of the golden
// corpus (the whole corpus round-trips in the model's golden pass,
// model/golden_test.cc).
TEST(ChecksTest, GoldenTracesRoundTripThroughTheCodec) {
  for (const std::string& f : GoldenSamplePaths()) {
    std::ifstream in(f);
    std::stringstream s;
    s << in.rdbuf();
    std::optional<CheckFailure> c = CheckCodecRoundTrip(s.str());
    EXPECT_FALSE(c.has_value()) << f << ": " << c->message;
  }
}

TEST(ChecksTest, RejectedInputIsNotAFailure) {
  EXPECT_FALSE(CheckCodecRoundTrip("").has_value());
  EXPECT_FALSE(CheckCodecRoundTrip("{\"schedtrace\":").has_value());
  EXPECT_FALSE(CheckQuantity("12x").has_value());
  EXPECT_FALSE(CheckQuantity("").has_value());
}

TEST(ChecksTest, QuantityQuirksHoldTheirValues) {
  for (const char* q :
       {"100m", "1Gi", "2", "1.5", "12E", "9Ei", "-1.5e-10", "1e999999999", ".",
        "+", "5Ki", "999999999999999", "123456789012345m"}) {
    std::optional<CheckFailure> c = CheckQuantity(q);
    EXPECT_FALSE(c.has_value()) << q << ": " << c->message;
  }
}

}  // namespace
}  // namespace schedtrace::fuzz
