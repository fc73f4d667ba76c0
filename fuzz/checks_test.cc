#include "fuzz/checks.h"

#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "harness/trace_files.h"

namespace schedtrace::fuzz {
namespace {

TEST(ChecksTest, GoldenTracesRoundTripThroughTheCodec) {
  absl::StatusOr<std::vector<std::string>> files =
      FindTraceFiles({std::string(SCHEDTRACE_SOURCE_DIR) + "/golden"});
  ASSERT_TRUE(files.ok());
  int n = 0;
  for (const std::string& f : *files) {
    if (++n % 5 != 0) continue;  // a fifth of them keeps the test quick
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
