#include "core/quantity.h"

#include <cstdint>
#include <limits>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

struct ValueCase {
  std::string input;
  int64_t value;
  int64_t milli;
};

// Expected values worked out from upstream's code paths (quantity.go
// ParseQuantity, amount.go AsScaledInt64, scale_int.go scaledValue).
const ValueCase kValueCases[] = {
    // Zero in every form.
    {"0", 0, 0},
    {"0n", 0, 0},
    {"0m", 0, 0},
    {"0Ki", 0, 0},
    {"0Ei", 0, 0},
    {"-0", 0, 0},
    {"000", 0, 0},
    {"0e-20", 0, 0},
    // Plain numbers.
    {"1", 1, 1000},
    {"2", 2, 2000},
    {"128974848", 128974848, 128974848000},
    // milli overflows int64MultiplyScale1000: the wrapped product
    {"123456789012345678", 123456789012345678, -5670419503621183312},
    // Every decimal SI suffix.
    {"5n", 1, 1},
    {"4u", 1, 1},
    {"3m", 1, 3},
    {"8k", 8000, 8000000},
    {"7M", 7000000, 7000000000},
    {"6G", 6000000000, 6000000000000},
    {"129M", 129000000, 129000000000},
    {"1G", 1000000000, 1000000000000},
    {"5T", 5000000000000, 5000000000000000},
    {"2P", 2000000000000000, 2000000000000000000},
    {"1E", 1000000000000000000, 0},  // milli overflows the int64 form -> 0
    {"9E", 9000000000000000000, 0},
    // Every binary SI suffix.
    {"1Ki", 1024, 1024000},
    {"8Ki", 8192, 8192000},
    {"1Mi", 1048576, 1048576000},
    {"123Mi", 128974848, 128974848000},
    {"64Mi", 67108864, 67108864000},
    {"1Gi", 1073741824, 1073741824000},
    {"6Gi", 6442450944, 6442450944000},
    {"1Ti", 1099511627776, 1099511627776000},
    {"1Pi", 1125899906842624, 1125899906842624000},
    {"4Pi", 4503599627370496, 4503599627370496000},
    {"1Ei", 1152921504606846976, kMin},  // 2^63 * 125 wraps to 2^63
    {"3Ei", 3458764513820540928, kMin},
    // Decimal exponents.
    {"1e3", 1000, 1000000},
    {"1E3", 1000, 1000000},
    {"1e+3", 1000, 1000000},
    {"129e6", 129000000, 129000000000},
    {"1.5e3", 1500, 1500000},
    {"1.3E+6", 1300000, 1300000000},
    {"15e-1", 2, 1500},
    {"1e-3", 1, 1},
    {"1E-9", 1, 1},
    {"1e-10", 1, 1},  // rounded up to 1n while parsing
    {"1E18", 1000000000000000000, 0},
    {"1e0003", 1000, 1000000},
    // Fractions round up (towards +infinity for positive values).
    {"1.5", 2, 1500},
    {"1.1", 2, 1100},
    {"0.5", 1, 500},
    {"100m", 1, 100},
    {"1500m", 2, 1500},
    {"710m", 1, 710},
    {"0.5m", 1, 1},
    {"0.1m", 1, 1},
    {"1.5m", 1, 2},
    {"0.0001", 1, 1},
    {"9.01", 10, 9010},
    {"100.035k", 100035, 100035000},
    {"10.035M", 10035000, 10035000000},
    {"6.987654321G", 6987654321, 6987654321000},
    {"3.001n", 1, 1},
    {"0.00000012345", 1, 1},
    {"1.", 1, 1000},
    {"1.G", 1000000000, 1000000000000},
    {".001", 1, 1},
    {".0001k", 1, 100},
    // Fractional binary values take the big-decimal path.
    {"0.5Gi", 536870912, 536870912000},
    {"1.5Ki", 1536, 1536000},
    {"0.001Ki", 2, 1024},
    {"100.035Ki", 102436, 102435840},
    {"0.000000000001Ki", 1, 1},
    // Negative values: the int64 form rounds away from zero.
    {"-1", -1, -1000},
    {"-1.5", -2, -1500},
    {"-100m", -1, -100},
    {"-0.5m", -1, -1},
    {"-1Gi", -1073741824, -1073741824000},
    // ... the big-decimal form rounds a negative fraction by truncating and
    // adding one.
    {"-1.5Gi", -1610612736, -1610612736000},
    {"-1.5e-10", 1, 1},
    {"-0.000000000001Ki", 1, 1},
    // Out of range: no saturation.
    {"12E", 0, 0},
    {"1e19", 0, 0},
    {"9223372036854775807", kMax, -1000},
    {"9223372036854775808", kMin, 0},
    {"10000000000000000000", -8446744073709551616, 1864712049423024128},
    {"8Ei", kMax, -1000},  // BinarySI is capped at 2^63-1 while parsing
    {"9Ei", kMax, -1000},
    {"9223372036854775807Ki", kMax, -1000},
    {"-9Ei", kMin + 1, 1000},
    // The exponent is parsed as int64 and truncated to int32.
    {"1e9223372036854775807", 1, 100},  // exponent reads as -1
    {"1e4294967296", 1, 1000},          // exponent reads as 0
    {"1e2147483648", 0, 0},             // 10^(2^31) wraps to 0 mod 2^64
    // Upstream's scanner accepts these as zero.
    {".", 0, 0},
    {"+", 0, 0},
    {"-", 0, 0},
    {"-.", 0, 0},
    {"Ki", 0, 0},
    {"Ti", 0, 0},
    {"m", 0, 0},
    {"E", 0, 0},
    {"e5", 0, 0},
};

TEST(QuantityTest, ValueAndMilliValue) {
  for (const ValueCase& c : kValueCases) {
    SCOPED_TRACE(c.input);
    absl::StatusOr<Quantity> q = ParseQuantity(c.input);
    ASSERT_TRUE(q.ok()) << q.status();
    EXPECT_EQ(q->Value(), c.value);
    EXPECT_EQ(q->MilliValue(), c.milli);
    EXPECT_EQ(q->ScaledValue(0), c.value);
    EXPECT_EQ(q->ScaledValue(3), c.milli);
    EXPECT_EQ(q->text(), c.input);
  }
}

// Value and MilliValue where scaling the int64 form overflows, as
// apimachinery v0.26.7 computed them (resource.ParseQuantity, then
// Quantity.Value and Quantity.MilliValue). positiveScaleInt64 multiplies by
// 10, 100, 1000, 10^6 or 10^9 at once and keeps the wrapped product; any
// other power of ten reads 0 on overflow.
const ValueCase kOverflowCases[] = {
    {"10000000000000G", 1864712049423024128, 0},
    {"-10000000000000G", -1864712049423024128, 0},
    {"100000000000000M", 7766279631452241920, 200376420520689664},
    {"9999999999999999k", -8446744073709552616, 1864712049422024128},
    {"99999999999999999e2", -8446744073709551716, 0},
    {"999999999999999999e1", -8446744073709551626, 0},
    {"99999999999999999", 99999999999999999, 7766279631452240920},
    {"10000000000000000", 10000000000000000, -8446744073709551616},
    {"-10000000000000000", -10000000000000000, 8446744073709551616},
    {"10000000000000k", 10000000000000000, -8446744073709551616},
    {"1000000000000M", 1000000000000000000, 3875820019684212736},
    {"12E", 0, 0},
    {"1E", 1000000000000000000, 0},
    {"10P", 10000000000000000, 0},
    {"123456789012345e6", -5670419503621861312, -7269072993028965888},
    {"5e18", 5000000000000000000, 0},
    {"7Ei", 8070450532247928832, kMin},
    {"9223372036854775807", kMax, -1000},
    {"-9223372036854775808", 0, 0},
    {"9223372036854775808", kMin, 0},
};

TEST(QuantityTest, ScalingOverflowWrapsAtOnceAndZeroesInALoop) {
  for (const ValueCase& c : kOverflowCases) {
    absl::StatusOr<Quantity> q = ParseQuantity(c.input);
    ASSERT_TRUE(q.ok()) << c.input << ": " << q.status();
    EXPECT_EQ(q->Value(), c.value) << c.input;
    EXPECT_EQ(q->MilliValue(), c.milli) << c.input;
  }
}

TEST(QuantityTest, PlusSignChangesNothing) {
  for (const ValueCase& c : kValueCases) {
    if (c.input.empty() || c.input[0] == '-' || c.input[0] == '+') continue;
    SCOPED_TRACE(c.input);
    absl::StatusOr<Quantity> q = ParseQuantity("+" + c.input);
    ASSERT_TRUE(q.ok()) << q.status();
    EXPECT_EQ(q->Value(), c.value);
    EXPECT_EQ(q->MilliValue(), c.milli);
  }
}

TEST(QuantityTest, OtherScales) {
  struct Case {
    std::string input;
    int scale;
    int64_t want;
  };
  const Case cases[] = {
      {"3.001n", 9, 4},           // rounded up to 4n while parsing
      {"0.00000012345", 9, 124},  // 123.45n -> 124n
      {"1.1E-9", 9, 2},
      {"0.5e-9", 9, 1},
      {"1", 9, 1000000000},
      {"1", 6, 1000000},
      {"1", -3, 1},
      {"1500", -3, 2},
      {"1G", -6, 1000},
      {"1.5Gi", 9, 1610612736000000000},
      {"-1.5e-10", 9, -1},
      {"1Pi", -3, 1125899906843},  // 1125899906842.624 rounds up
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.input + " @" + std::to_string(c.scale));
    absl::StatusOr<Quantity> q = ParseQuantity(c.input);
    ASSERT_TRUE(q.ok()) << q.status();
    EXPECT_EQ(q->ScaledValue(c.scale), c.want);
  }
}

TEST(QuantityTest, Rejections) {
  const char* const kInvalid[] = {
      // Empty, whitespace, stray characters.
      "", " 1", "1 ", "1 Ki", "0x10", "1,5", "1_000", "1/2", "++1", "1-",
      "aoeu", "Inf", "NaN",
      // U+2212 MINUS SIGN, then 1 (parenthesized: one element, not two).
      ("\xe2\x88\x92"
       "1"),
      // Two points, signs in the middle.
      "1.2.3", "1.1.M", "1+1.0M", "1..5",
      // Unknown or misspelled suffixes.
      "1KiB", "1K", "1ki", "1KI", "1Zi", "1Z", "1mm", "0.1mi", "0.1am", "1i",
      ".5i", "-3.01i", "Mi5",
      // Bad exponents.
      "1e", "1E+", "1e+", "1e-", "-3.01e-", "1e1.5", "1e.5", "1e3k", "1E3Ki",
      "1e+-3", "1ee3", "1e9223372036854775808", "1e99999999999999999999",
      // No digit where upstream needs an inf.Dec.
      "Pi", "Ei", "-Ei", ".Ei", "-.e-10"};
  for (const char* s : kInvalid) {
    SCOPED_TRACE(s);
    absl::StatusOr<Quantity> q = ParseQuantity(s);
    ASSERT_FALSE(q.ok()) << "parsed as " << q->MilliValue() << " milli";
    EXPECT_EQ(q.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(q.status().message(), HasSubstr("\"" + std::string(s) + "\""));
  }
}

TEST(QuantityTest, ErrorMessagesNameTheCause) {
  EXPECT_THAT(ParseQuantity("1KiB").status().message(),
              HasSubstr("regular expression"));
  EXPECT_THAT(ParseQuantity("1mm").status().message(), HasSubstr("suffix"));
  EXPECT_THAT(ParseQuantity("Ei").status().message(),
              HasSubstr("numeric part"));
}

TEST(QuantityTest, DefaultIsZeroAndEqualityIsByText) {
  Quantity zero;
  EXPECT_EQ(zero.Value(), 0);
  EXPECT_EQ(zero.MilliValue(), 0);
  EXPECT_EQ(*ParseQuantity("1Gi"), *ParseQuantity("1Gi"));
  EXPECT_FALSE(*ParseQuantity("1Gi") == *ParseQuantity("1024Mi"));
}

// The fields reflect.DeepEqual compares (upstream ParseQuantity's result).
TEST(QuantityTest, GoFieldsAsParseQuantityLeavesThem) {
  struct Case {
    const char* text;
    Quantity::Format format;
    const char* cached;  // s
    bool dec;
    int64_t value;  // int64Amount's, when !dec
    int32_t scale;
  };
  using F = Quantity::Format;
  const Case cases[] = {
      {"0", F::kDecimalSI, "0", false, 0, 0},
      {"00", F::kDecimalSI, "", false, 0, 0},
      {"0m", F::kDecimalSI, "", false, 0, -3},
      {"1", F::kDecimalSI, "1", false, 1, 0},
      {"01", F::kDecimalSI, "01", false, 1, 0},
      {"-1", F::kDecimalSI, "-1", false, -1, 0},
      {"1000", F::kDecimalSI, "", false, 1000, 0},
      {"1000m", F::kDecimalSI, "", false, 1000, -3},
      {"100m", F::kDecimalSI, "100m", false, 100, -3},
      {"0.5", F::kDecimalSI, "", false, 5, -1},
      {"1.5k", F::kDecimalSI, "", false, 15, 2},
      {"1e3", F::kDecimalExponent, "1e3", false, 1, 3},
      {"1Ki", F::kBinarySI, "1Ki", false, 1024, 0},
      {"8Ki", F::kBinarySI, "", false, 8192, 0},
      {"1.5Ki", F::kBinarySI, "", true, 0, 0},
      {"0.0001Ki", F::kDecimalSI, "", true, 0, 0},  // BinarySI below 1
      {"12345678901234567890", F::kDecimalSI, "", true, 0, 0},
  };
  for (const Case& c : cases) {
    absl::StatusOr<Quantity> q = ParseQuantity(c.text);
    ASSERT_TRUE(q.ok()) << c.text;
    EXPECT_EQ(q->format(), c.format) << c.text;
    EXPECT_EQ(q->cached_text(), c.cached) << c.text;
    EXPECT_EQ(q->is_dec(), c.dec) << c.text;
    if (!c.dec) {
      EXPECT_EQ(q->int_value(), c.value) << c.text;
      EXPECT_EQ(q->int_scale(), c.scale) << c.text;
    } else {
      EXPECT_EQ(q->dec_scale(), 9) << c.text;
    }
  }
  // inf.Dec magnitudes keep no factor of ten, so equal values compare equal.
  absl::StatusOr<Quantity> a = ParseQuantity("1000000000000000000000");
  absl::StatusOr<Quantity> b = ParseQuantity("1000000000000000000000.00");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->dec_mag(), std::vector<uint32_t>{1});
  EXPECT_EQ(a->dec_pow10(), 30);
  EXPECT_EQ(b->dec_mag(), a->dec_mag());
  EXPECT_EQ(b->dec_pow10(), a->dec_pow10());
  EXPECT_EQ(a->Value(), b->Value());
}

TEST(QuantityTest, HugeInputsStayCheap) {
  // Upstream builds a big.Int of 10^999999999 for this; we must not.
  absl::StatusOr<Quantity> q = ParseQuantity("7e999999999");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->Value(), 0);  // int64 form: overflow reads 0
  // 19 digits take the big-decimal path: the value is exact, its low 64
  // bits (what big.Int.Int64 returns) are 0.
  absl::StatusOr<Quantity> d = ParseQuantity("1234567890123456789e999999999");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->Value(), 0);
  EXPECT_EQ(d->MilliValue(), 0);
  absl::StatusOr<Quantity> tiny = ParseQuantity("5e-999999999");
  ASSERT_TRUE(tiny.ok());
  EXPECT_EQ(tiny->MilliValue(), 1);
  std::string digits(5000, '9');
  absl::StatusOr<Quantity> big = ParseQuantity(digits + "e-5000");
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->Value(), 1);  // 0.999... rounds up
  EXPECT_EQ(big->MilliValue(), 1000);
}

}  // namespace
}  // namespace schedtrace
