#include "core/go_rfc3339.h"

#include <cstdint>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

using ::testing::HasSubstr;

struct TimeCase {
  const char* input;
  bool ok;
  int64_t unix_seconds;
  int32_t nanoseconds;
};

// What Go 1.26's time.Parse(time.RFC3339, s) answered for each input
// (t.Unix(), t.Nanosecond()), the parser metav1.Time.UnmarshalJSON calls.
const TimeCase kCases[] = {
    {"2023-01-01T00:00:07Z", true, 1672531207, 0},
    {"2023-01-01T00:00:07.5Z", true, 1672531207, 500000000},
    {"2023-01-01T00:00:07,5Z", true, 1672531207, 500000000},
    {"2023-01-01T00:00:07.123456789Z", true, 1672531207, 123456789},
    {"2023-01-01T00:00:07.1234567899999Z", true, 1672531207, 123456789},
    {"2023-01-01T00:00:07.Z", false, 0, 0},
    {"2023-01-01T00:00:07.5", false, 0, 0},
    {"2023-01-01T01:00:07+01:00", true, 1672531207, 0},
    {"2023-01-01T00:00:07-23:59", true, 1672617547, 0},
    {"2023-01-01T00:00:07+24:00", true, 1672444807, 0},
    {"2023-01-01T00:00:07+24:60", true, 1672441207, 0},
    {"2023-01-01T00:00:07+25:00", false, 0, 0},
    {"2023-01-01T00:00:07+00:61", false, 0, 0},
    {"2023-01-01T00:00:07+0100", false, 0, 0},
    {"2023-01-01T00:00:07 +01:00", false, 0, 0},
    {"2023-01-01T7:00:07Z", true, 1672556407, 0},
    {"2023-01-01T07:0:07Z", false, 0, 0},
    {"2023-01-01T24:00:00Z", false, 0, 0},
    {"2023-01-01T23:59:60Z", false, 0, 0},
    {"2023-01-01t00:00:07Z", false, 0, 0},
    {"2023-01-01T00:00:07z", false, 0, 0},
    {"2023-01-01 00:00:07Z", false, 0, 0},
    {"2023-01-01T00:00:07ZZ", false, 0, 0},
    {"2023-01-01T00:00:07Z ", false, 0, 0},
    {" 2023-01-01T00:00:07Z", false, 0, 0},
    {"2024-02-29T00:00:00Z", true, 1709164800, 0},
    {"2023-02-29T00:00:00Z", false, 0, 0},
    {"2100-02-29T00:00:00Z", false, 0, 0},
    {"2000-02-29T00:00:00Z", true, 951782400, 0},
    {"0000-01-01T00:00:00Z", true, -62167219200, 0},
    {"9999-12-31T23:59:59.999999999-24:60", true, 253402390799, 999999999},
    {"+023-01-01T00:00:07Z", false, 0, 0},
    {"-023-01-01T00:00:07Z", false, 0, 0},
    {"2023-1-01T00:00:07Z", false, 0, 0},
    {"2023-01-1T00:00:07Z", false, 0, 0},
    {"2023-13-01T00:00:07Z", false, 0, 0},
    {"2023-00-01T00:00:07Z", false, 0, 0},
    {"2023-01-00T00:00:07Z", false, 0, 0},
    {"2023-04-31T00:00:07Z", false, 0, 0},
    {"2023-01-01T00:00:07+01:0a", false, 0, 0},
    {"2023-01-01T00:00:07*01:00", false, 0, 0},
    {"2023-01-01T00:00:07.5+05:30", true, 1672511407, 500000000},
    {"2023-01-01T00:00:07,123-00:00", true, 1672531207, 123000000},
    {"2023-01-01T00:00:07+-1:00", false, 0, 0},
    {"1969-12-31T23:59:59.5Z", true, -1, 500000000},
    {"1970-01-01T00:00:00-00:01", true, 60, 0},
    {"2023-01-01T00:00:07.0000000001Z", true, 1672531207, 0},
    {"2023-01-01T00:00:07Z07:00", false, 0, 0},
    {"2023-01-01T0:00:07Z", true, 1672531207, 0},
};

TEST(ParseGoRfc3339Test, AgreesWithGo) {
  for (const TimeCase& c : kCases) {
    absl::StatusOr<GoInstant> t = ParseGoRfc3339(c.input);
    ASSERT_EQ(t.ok(), c.ok) << '"' << c.input << "\": " << t.status();
    if (!c.ok) continue;
    EXPECT_EQ(t->unix_seconds, c.unix_seconds) << c.input;
    EXPECT_EQ(t->nanoseconds, c.nanoseconds) << c.input;
  }
}

TEST(ParseGoRfc3339Test, ErrorQuotesTheInputAndTheCause) {
  absl::StatusOr<GoInstant> t = ParseGoRfc3339("2023-01-01t00:00:07Z");
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.status().message(), HasSubstr("\"2023-01-01t00:00:07Z\""));
  EXPECT_THAT(t.status().message(), HasSubstr("'T'"));
  EXPECT_THAT(ParseGoRfc3339("2023-02-29T00:00:00Z").status().message(),
              HasSubstr("day out of range"));
}

TEST(SameGoInstantTest, DeepEqualIsTheInstant) {
  EXPECT_TRUE(SameGoInstant("2023-01-01T00:00:07Z", "2023-01-01T00:00:07Z"));
  EXPECT_TRUE(
      SameGoInstant("2023-01-01T00:00:07Z", "2023-01-01T01:00:07+01:00"));
  EXPECT_TRUE(
      SameGoInstant("2023-01-01T00:00:07Z", "2023-01-01T00:00:07.000Z"));
  EXPECT_TRUE(SameGoInstant("2023-01-01T00:00:07.1234567891Z",
                            "2023-01-01T00:00:07,123456789Z"));
  EXPECT_FALSE(SameGoInstant("2023-01-01T00:00:07Z", "2023-01-01T00:00:07.5Z"));
  EXPECT_FALSE(
      SameGoInstant("2023-01-01T00:00:07Z", "2023-01-01T00:00:07+01:00"));
}

}  // namespace
}  // namespace schedtrace
