// Kubernetes resource quantities ("100m", "1Gi", "2", "1.5e3").
//
// A Quantity is parsed with upstream's full grammar
// (k8s.io/apimachinery/pkg/api/resource.ParseQuantity): an optional sign, a
// decimal number, and a suffix that is a decimal SI suffix (n u m "" k M G T
// P E), a binary SI suffix (Ki Mi Gi Ti Pi Ei) or a decimal exponent (e3, E-2).
// `Value()` and `MilliValue()` follow upstream's `Quantity.Value()` /
// `Quantity.MilliValue()` bit for bit, quirks included:
//   - positive fractions round up ("1.5" -> 2, "0.1m" -> 1 milli);
//   - negative fractions of the int64 form round away from zero
//     ("-1.5" -> -2); upstream's big-decimal form (more than 18 digits, a
//     scale finer than nano, fractional or Pi/Ei binary) rounds a negative
//     fraction by truncation plus one ("-1.5e-10" -> 1);
//   - parsing rounds to nano away from zero and caps BinarySI values at
//     2^63-1; decimal values are not capped;
//   - out of range results do NOT saturate: the int64 form wraps modulo
//     2^64 when it scales by 10, 100, 1000, 10^6 or 10^9 at once
//     ("10000000000000G" -> 1864712049423024128, "10000000000000000"
//     MilliValue -> -8446744073709551616) and reads 0 when it scales by any
//     other power of ten ("12E" -> 0, "1E" MilliValue -> 0); the
//     big-decimal form wraps modulo 2^64 ("9Ei" MilliValue -> -1000).
// The scanner is upstream's, more permissive than its documented grammar:
// ".", "+", "-", "Ki", "m", "e5" parse as zero; "Pi", "Ei", "-.e-10" do not.
//
//   absl::StatusOr<Quantity> q = ParseQuantity("1500m");
//   q->MilliValue();  // 1500
//   q->Value();       // 2
#ifndef SCHEDTRACE_CORE_QUANTITY_H_
#define SCHEDTRACE_CORE_QUANTITY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace schedtrace {

class Quantity {
 public:
  // upstream resource.Format: how the quantity was written.
  enum class Format : uint8_t { kDecimalExponent, kBinarySI, kDecimalSI };

  Quantity() = default;

  // The value in 10^-scale units, rounded as upstream's
  // ScaledValue(Scale(-scale)) rounds (see above): ScaledValue(0) is
  // Value(), ScaledValue(3) is MilliValue(), ScaledValue(9) nanos.
  int64_t ScaledValue(int scale) const;
  int64_t Value() const { return ScaledValue(0); }
  int64_t MilliValue() const { return ScaledValue(3); }

  // The text the quantity was parsed from (kept for round-trips).
  const std::string& text() const { return text_; }

  // Same text. This is not Go's equality: reflect.DeepEqual compares the
  // fields of the parsed resource.Quantity, which the accessors below give
  // (model and impl each compare them their own way). "1" and "1000m" have
  // the same value and differ; "1000" and "01000" have different text and
  // are deep-equal.
  bool operator==(const Quantity& o) const { return text_ == o.text_; }

  // The parsed Quantity's fields, as ParseQuantity leaves them:
  //   - Format: DecimalSI, BinarySI or DecimalExponent from the suffix
  //     (BinarySI amounts strictly between 0 and 1 become DecimalSI);
  //   - `s`, the text cached when it is already canonical ("1", "100m",
  //     "01", "1Ki", "1e3", and "0" itself), else "" ("1000", "0.5",
  //     "1.0", "00", "8Ki");
  //   - either the int64Amount i (value, scale) or, when it does not fit,
  //     the inf.Dec d: sign, unscaled magnitude and scale. The magnitude is
  //     dec_mag() * 10^dec_pow10() with no factor of ten left in
  //     dec_mag() (empty for zero), so equal magnitudes have equal parts.
  Format format() const { return format_; }
  const std::string& cached_text() const { return cached_; }
  bool is_dec() const { return dec_; }
  int64_t int_value() const { return int_value_; }
  int32_t int_scale() const { return int_scale_; }
  bool dec_negative() const { return negative_; }
  const std::vector<uint32_t>& dec_mag() const { return mag_; }
  int64_t dec_pow10() const { return mag_pow10_; }
  int32_t dec_scale() const { return dec_scale_; }

  // A Quantity with these fields, as arithmetic on quantities leaves them
  // (Go's Quantity.Add keeps no text: text() and cached_text() are empty).
  // The systems do that arithmetic themselves; these only build the result,
  // whose ScaledValue then rounds as upstream's does. FromDec takes the
  // inf.Dec's unscaled magnitude (little-endian base-2^32 limbs, leading
  // zero limbs allowed) and its scale, and normalizes it as above.
  static Quantity FromInt64Amount(Format format, int64_t value, int32_t scale);
  static Quantity FromDec(Format format, bool negative,
                          std::vector<uint32_t> unscaled, int32_t scale);

 private:
  friend absl::StatusOr<Quantity> ParseQuantity(std::string_view s);
  std::string text_;
  Format format_ = Format::kDecimalSI;
  std::string cached_;
  // Upstream keeps a parsed quantity in one of two forms, and ScaledValue
  // rounds (and overflows) differently for each, so we keep the same two.
  //
  // int64Amount (dec_ == false): value = int_value_ * 10^int_scale_.
  int64_t int_value_ = 0;
  int32_t int_scale_ = 0;
  // inf.Dec (dec_ == true): value = +-(mag_ * 10^mag_pow10_) * 10^-dec_scale_
  // where mag_ is an unbounded integer (little-endian base-2^32 limbs, empty
  // for zero) and dec_scale_ is upstream's inf.Dec scale (9, or 0 for the
  // BinarySI cap). mag_pow10_ keeps huge exponents ("1e999999999") cheap.
  bool dec_ = false;
  bool negative_ = false;
  std::vector<uint32_t> mag_;
  int64_t mag_pow10_ = 0;
  int32_t dec_scale_ = 0;
};

// Parses `s`; the error message quotes `s` and says what is wrong.
absl::StatusOr<Quantity> ParseQuantity(std::string_view s);

// Whether v1.30.12's request sums (resourcehelper.PodRequests adds and
// compares exact quantities, kubernetes#115367) stay within what schedtrace
// computes: the quantity's powers of ten, from its lowest digit to its
// highest, within +-kExactSumDigits. Upstream would add "1e999999999" to
// "1" digit by digit; schedtrace refuses such a pod in a version that sums
// (docs/FORMAT.md, "Quantities and requests").
inline constexpr int64_t kExactSumDigits = 1000;
bool WithinExactSumRange(const Quantity& q);

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_QUANTITY_H_
