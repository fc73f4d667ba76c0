#include "core/quantity.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace schedtrace {
namespace {

constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();
constexpr int64_t kMinInt64 = std::numeric_limits<int64_t>::min();

// Upstream's error texts (quantity.go ErrFormatWrong / ErrNumeric /
// ErrSuffix), prefixed with the quoted input.
absl::Status FormatWrong(std::string_view s) {
  return absl::InvalidArgumentError(
      absl::StrCat("quantity \"", std::string(s),
                   "\": quantities must match the regular expression "
                   "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
}
absl::Status NumericWrong(std::string_view s) {
  return absl::InvalidArgumentError(
      absl::StrCat("quantity \"", std::string(s),
                   "\": unable to parse numeric part of quantity"));
}
absl::Status SuffixWrong(std::string_view s) {
  return absl::InvalidArgumentError(absl::StrCat(
      "quantity \"", std::string(s), "\": unable to parse quantity's suffix"));
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Go's two's-complement int64 arithmetic (upstream relies on wrap-around in
// scaledValue); done in uint64 to stay defined in C++.
int64_t WrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}
int64_t WrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) *
                              static_cast<uint64_t>(b));
}
int64_t WrapNeg(uint64_t a) { return static_cast<int64_t>(0 - a); }

uint64_t Pow10Mod64(int64_t n) {  // 10^n mod 2^64
  uint64_t result = 1, base = 10;
  while (n > 0) {
    if (n & 1) result *= base;
    base *= base;
    n >>= 1;
  }
  return result;
}

int64_t Pow10Int64(int n) {  // n in [0, 18]
  int64_t r = 1;
  for (int i = 0; i < n; ++i) r *= 10;
  return r;
}

// --- A minimal unsigned big integer: little-endian base-2^32 limbs, no
// leading zero limbs (zero is empty).
using Big = std::vector<uint32_t>;

void Trim(Big& a) {
  while (!a.empty() && a.back() == 0) a.pop_back();
}

void MulSmall(Big& a, uint32_t m) {
  uint64_t carry = 0;
  for (uint32_t& limb : a) {
    uint64_t v = static_cast<uint64_t>(limb) * m + carry;
    limb = static_cast<uint32_t>(v);
    carry = v >> 32;
  }
  if (carry != 0) a.push_back(static_cast<uint32_t>(carry));
  Trim(a);
}

void AddSmall(Big& a, uint32_t x) {
  uint64_t carry = x;
  for (size_t i = 0; carry != 0 && i < a.size(); ++i) {
    uint64_t v = static_cast<uint64_t>(a[i]) + carry;
    a[i] = static_cast<uint32_t>(v);
    carry = v >> 32;
  }
  if (carry != 0) a.push_back(static_cast<uint32_t>(carry));
}

// a /= d, returns the remainder.
uint32_t DivSmall(Big& a, uint32_t d) {
  uint64_t rem = 0;
  for (size_t i = a.size(); i-- > 0;) {
    uint64_t cur = (rem << 32) | a[i];
    a[i] = static_cast<uint32_t>(cur / d);
    rem = cur % d;
  }
  Trim(a);
  return static_cast<uint32_t>(rem);
}

void MulPow10(Big& a, int64_t n) {
  for (; n >= 9; n -= 9) MulSmall(a, 1000000000u);
  if (n > 0)
    MulSmall(a, static_cast<uint32_t>(Pow10Int64(static_cast<int>(n))));
}

// a = floor(a / 10^n); returns whether the division was inexact.
bool DivPow10(Big& a, int64_t n) {
  bool inexact = false;
  for (; n >= 9 && !a.empty(); n -= 9) {
    inexact |= DivSmall(a, 1000000000u) != 0;
  }
  if (n > 0 && !a.empty() && n < 9) {
    inexact |=
        DivSmall(a, static_cast<uint32_t>(Pow10Int64(static_cast<int>(n)))) !=
        0;
  }
  return inexact;
}

// Whether 10^n > a (so a / 10^n is zero); an upper bound on a's decimal
// digits is enough to shortcut huge n.
bool Pow10Exceeds(const Big& a, int64_t n) {
  return n > static_cast<int64_t>(a.size()) * 10;
}

uint64_t Low64(const Big& a) {
  uint64_t v = 0;
  if (!a.empty()) v = a[0];
  if (a.size() > 1) v |= static_cast<uint64_t>(a[1]) << 32;
  return v;
}

Big FromUint64(uint64_t v) {
  Big a = {static_cast<uint32_t>(v), static_cast<uint32_t>(v >> 32)};
  Trim(a);
  return a;
}

int Compare(const Big& a, const Big& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

// --- The fast int64 path (amount.go / math.go).

// upstream: int64MultiplyScale (math.go); false on overflow.
bool MultiplyScale(int64_t a, int64_t b, int64_t& out) {
  if (a == 0 || a == 1) {
    out = a * b;
    return true;
  }
  if (a == kMinInt64) return false;
  return !__builtin_mul_overflow(a, b, &out);
}

// upstream: positiveScaleInt64 (math.go): base * 10^scale. The scales it
// multiplies by at once (1, 2, 3, 6 and 9: int64MultiplyScale10, ...100,
// ...1000, int64MultiplyScale) return the product even when it overflows,
// only flagged, and ScaledValue drops the flag: the wrapped product ("1e13G"
// reads 10^22 mod 2^64), 0 for base INT64_MIN. Every other scale multiplies
// by ten in a loop that returns 0 at the first overflow ("12E" reads 0).
int64_t PositiveScale(int64_t base, int64_t scale) {
  switch (scale) {
    case 0:
      return base;
    case 1:
    case 2:
    case 3:
    case 6:
    case 9: {
      const int64_t factor = Pow10Int64(static_cast<int>(scale));
      if (base == 0 || base == 1) return base * factor;
      if (base == kMinInt64) return 0;
      return WrapMul(base, factor);
    }
    default:
      break;
  }
  int64_t value = base;
  for (int64_t i = 0; i < scale; ++i) {
    if (value == 0) return 0;
    if (!MultiplyScale(value, 10, value)) return 0;
  }
  return value;
}

// upstream: negativeScaleInt64 (math.go): base / 10^scale rounded away from
// zero.
int64_t NegativeScale(int64_t base, int64_t scale) {
  if (scale == 0) return base;
  int64_t value = base;
  bool fraction = false;
  for (int64_t i = 0; i < scale; ++i) {
    if (!fraction && value % 10 != 0) fraction = true;
    value /= 10;
    if (value == 0) {
      if (fraction) return base > 0 ? 1 : -1;
      return 0;
    }
  }
  if (fraction) value += base > 0 ? 1 : -1;
  return value;
}

// upstream: strconv.ParseInt(s, 10, 64) as suffixHandler.interpret uses it.
bool ParseGoInt64(std::string_view s, int64_t& out) {
  bool neg = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return false;
  uint64_t v = 0;
  const uint64_t limit = neg ? static_cast<uint64_t>(kMaxInt64) + 1
                             : static_cast<uint64_t>(kMaxInt64);
  for (char c : s) {
    if (!IsDigit(c)) return false;
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (limit - d) / 10) return false;
    v = v * 10 + d;
  }
  out = neg ? WrapNeg(v) : static_cast<int64_t>(v);
  return true;
}

using Format = Quantity::Format;

struct Suffix {
  int base = 10;
  int32_t exponent = 0;
  Format format = Format::kDecimalSI;
};

// upstream: quantitySuffixer.interpret (suffix.go).
bool InterpretSuffix(std::string_view s, Suffix& out) {
  struct Entry {
    std::string_view name;
    int base;
    int32_t exponent;
  };
  static constexpr Entry kDecimal[] = {
      {"", 10, 0},  {"n", 10, -9}, {"u", 10, -6}, {"m", 10, -3}, {"k", 10, 3},
      {"M", 10, 6}, {"G", 10, 9},  {"T", 10, 12}, {"P", 10, 15}, {"E", 10, 18}};
  static constexpr Entry kBinary[] = {{"Ki", 2, 10}, {"Mi", 2, 20},
                                      {"Gi", 2, 30}, {"Ti", 2, 40},
                                      {"Pi", 2, 50}, {"Ei", 2, 60}};
  for (const Entry& e : kDecimal) {
    if (s == e.name) {
      out = {e.base, e.exponent, Format::kDecimalSI};
      return true;
    }
  }
  for (const Entry& e : kBinary) {
    if (s == e.name) {
      out = {e.base, e.exponent, Format::kBinarySI};
      return true;
    }
  }
  if (s.size() > 1 && (s[0] == 'e' || s[0] == 'E')) {
    int64_t parsed = 0;
    if (!ParseGoInt64(s.substr(1), parsed)) return false;
    // Go's int32(parsed) truncation.
    out = {10, static_cast<int32_t>(parsed), Format::kDecimalExponent};
    return true;
  }
  return false;
}

struct Scanned {
  bool positive = true;
  std::string_view value, num, denom, suffix;
};

// upstream: parseQuantityString (quantity.go), a scanner more permissive than
// the documented grammar ("." "+" "Ki" scan as zero); false on ErrFormatWrong.
bool ScanQuantity(std::string_view str, Scanned& out) {
  out = Scanned{};
  size_t pos = 0;
  const size_t end = str.size();
  if (pos < end) {
    if (str[0] == '-') {
      out.positive = false;
      ++pos;
    } else if (str[0] == '+') {
      ++pos;
    }
  }
  // Leading zeros.
  for (;;) {
    if (pos >= end) {
      out.num = "0";
      out.value = out.num;
      return true;
    }
    if (str[pos] != '0') break;
    ++pos;
  }
  // Numerator.
  size_t i = pos;
  while (i < end && IsDigit(str[i])) ++i;
  if (i >= end) {
    out.num = str.substr(pos);
    out.value = str;
    return true;
  }
  out.num = str.substr(pos, i - pos);
  pos = i;
  if (out.num.empty()) out.num = "0";
  // Denominator.
  if (pos < end && str[pos] == '.') {
    ++pos;
    i = pos;
    while (i < end && IsDigit(str[i])) ++i;
    if (i >= end) {
      out.denom = str.substr(pos);
      out.value = str;
      return true;
    }
    out.denom = str.substr(pos, i - pos);
    pos = i;
  }
  out.value = str.substr(0, pos);
  // Suffix: letters, an optional sign, digits.
  const size_t suffix_start = pos;
  constexpr std::string_view kLetters = "eEinumkKMGTP";
  i = pos;
  while (i < end && kLetters.find(str[i]) != std::string_view::npos) ++i;
  if (i >= end) {
    out.suffix = str.substr(suffix_start);
    return true;
  }
  pos = i;
  if (str[pos] == '-' || str[pos] == '+') ++pos;
  for (i = pos; i < end; ++i) {
    if (!IsDigit(str[i])) return false;
  }
  out.suffix = str.substr(suffix_start);
  return true;
}

struct IntAmount {
  int64_t value = 0;
  int32_t scale = 0;
  bool canonical = false;  // ParseQuantity caches the text in `s`
};

// ParseQuantity's int64Amount fast path: the value and its scale (a power of
// ten), or nullopt when they do not fit and the inf.Dec path takes over.
std::optional<IntAmount> Int64Amount(const Scanned& sc, const Suffix& suf) {
  int32_t precision = 0;
  int32_t scale = 0;
  int64_t mantissa = 1;
  const int64_t digits = static_cast<int64_t>(sc.num.size()) +
                         static_cast<int64_t>(sc.denom.size());
  switch (suf.format) {
    case Format::kDecimalExponent:
    case Format::kDecimalSI:
      scale = suf.exponent;
      precision = static_cast<int32_t>(std::max<int64_t>(18 - digits, -1));
      break;
    case Format::kBinarySI:
      if (suf.exponent >= 0 && sc.denom.empty()) {
        mantissa = int64_t{1} << suf.exponent;
        // float32(exponent)*3/10 is exact for the multiples of 10 used here.
        precision = static_cast<int32_t>(
            std::max<int64_t>(15 - static_cast<int64_t>(sc.num.size()) -
                                  suf.exponent * 3 / 10 - 1,
                              -1));
      } else {
        precision = -1;
      }
      break;
  }
  if (precision < 0) return std::nullopt;
  // Go int32 arithmetic wraps.
  scale = static_cast<int32_t>(static_cast<uint32_t>(scale) -
                               static_cast<uint32_t>(sc.denom.size()));
  if (scale < -9) return std::nullopt;
  int64_t value = 0;
  for (char c : sc.num) value = value * 10 + (c - '0');
  for (char c : sc.denom) value = value * 10 + (c - '0');
  int64_t result = 0;
  if (value == 0 || value == 1 || mantissa == 1) {
    result = value * mantissa;
  } else if (__builtin_mul_overflow(value, mantissa, &result)) {
    return std::nullopt;
  }
  // "if the number is in canonical form, reuse the string": `shifted` is
  // num + denom, whose leading zeros the scanner dropped ("01" caches).
  bool canonical = false;
  if (suf.format == Format::kBinarySI) {
    canonical = suf.exponent % 10 == 0 && (value & 0x07) != 0;
  } else {
    std::string shifted(sc.num);
    shifted += sc.denom;
    canonical = scale % 3 == 0 && !shifted.empty() && shifted[0] != '0' &&
                !absl::EndsWith(shifted, "000");
  }
  return IntAmount{sc.positive ? result : -result, scale, canonical};
}

// ParseQuantity's inf.Dec path: amount.SetString(value) (false when it has no
// digit, which SetString needs), then the suffix applied: `mag` the digits
// (times 2^exponent for a binary suffix), `dec_scale` inf.Dec's scale (int32,
// wrapping as Go's does).
bool DecAmount(std::string_view value, const Suffix& suf, Big& mag,
               int32_t& dec_scale) {
  bool any_digit = false;
  int64_t frac_digits = 0;
  bool seen_point = false;
  for (char c : value) {
    if (c == '.') {
      seen_point = true;
    } else if (IsDigit(c)) {
      any_digit = true;
      MulSmall(mag, 10);
      AddSmall(mag, static_cast<uint32_t>(c - '0'));
      if (seen_point) ++frac_digits;
    }
  }
  if (!any_digit) return false;
  dec_scale = static_cast<int32_t>(frac_digits);
  if (suf.base == 10) {
    const int32_t inf_exp =
        static_cast<int32_t>(0u - static_cast<uint32_t>(suf.exponent));
    dec_scale = static_cast<int32_t>(static_cast<uint32_t>(dec_scale) +
                                     static_cast<uint32_t>(inf_exp));
  } else {
    for (int32_t e = suf.exponent; e > 0; e -= 16) {
      MulSmall(mag, 1u << std::min<int32_t>(e, 16));
    }
  }
  return true;
}

// A non-zero `mag` at inf.Dec scale `dec_scale` rounded to nano, away from
// zero (inf.RoundUp): `mag` becomes the value in nanos over 10^(returned
// power of ten).
int64_t RoundToNano(Big& mag, int32_t dec_scale) {
  if (dec_scale <= 9) return 9 - static_cast<int64_t>(dec_scale);
  const int64_t shift = static_cast<int64_t>(dec_scale) - 9;
  if (Pow10Exceeds(mag, shift)) {
    mag = {1};
  } else if (DivPow10(mag, shift)) {
    AddSmall(mag, 1);
  }
  return 0;
}

// Whether mag * 10^pow10 nanos exceeds BinarySI's maxAllowed (2^63-1).
bool OverMaxAllowed(const Big& mag, int64_t pow10) {
  if (pow10 > 40) return true;
  Big v = mag;
  MulPow10(v, pow10);
  Big cap = FromUint64(static_cast<uint64_t>(kMaxInt64));
  MulPow10(cap, 9);
  return Compare(v, cap) > 0;
}

}  // namespace

// upstream: ParseQuantity (quantity.go).
absl::StatusOr<Quantity> ParseQuantity(std::string_view str) {
  Quantity q;
  q.text_ = std::string(str);
  if (str.empty()) return FormatWrong(str);
  if (str == "0") {  // Quantity{Format: DecimalSI, s: str}
    q.cached_ = q.text_;
    return q;
  }

  Scanned sc;
  if (!ScanQuantity(str, sc)) return FormatWrong(str);
  Suffix suf;
  if (!InterpretSuffix(sc.suffix, suf)) return SuffixWrong(str);

  q.format_ = suf.format;
  if (std::optional<IntAmount> amount = Int64Amount(sc, suf)) {
    q.int_value_ = amount->value;
    q.int_scale_ = amount->scale;
    if (amount->canonical) q.cached_ = q.text_;
    return q;
  }

  Big mag;
  int32_t dec_scale = 0;
  if (!DecAmount(sc.value, suf, mag, dec_scale)) return NumericWrong(str);
  q.dec_ = true;
  q.negative_ = !sc.positive;
  if (mag.empty()) {  // zero: not rounded, so inf.Dec keeps the parsed scale
    q.negative_ = false;
    q.dec_scale_ = dec_scale;
    return q;
  }
  q.dec_scale_ = 9;
  q.mag_pow10_ = RoundToNano(mag, dec_scale);
  // Keep mag_ free of factors of ten, so that equal values have equal
  // (mag_, mag_pow10_).
  for (Big shorter = mag; !DivPow10(shorter, 1); shorter = mag) {
    mag = std::move(shorter);
    ++q.mag_pow10_;
  }
  q.mag_ = std::move(mag);
  // "This avoids rounding and hopefully confusion, too": a BinarySI amount
  // strictly between 0 and 1 is DecimalSI (mag_ * 10^mag_pow10_ < 10^9).
  if (suf.format == Format::kBinarySI && q.mag_pow10_ < 9) {
    Big v = q.mag_;
    MulPow10(v, q.mag_pow10_);
    Big one = FromUint64(1);
    MulPow10(one, 9);
    if (Compare(v, one) < 0) q.format_ = Format::kDecimalSI;
  }
  // BinarySI values are capped at maxAllowed (2^63-1, inf scale 0).
  if (suf.format == Format::kBinarySI && OverMaxAllowed(q.mag_, q.mag_pow10_)) {
    q.mag_ = FromUint64(static_cast<uint64_t>(kMaxInt64));
    q.mag_pow10_ = 0;
    q.dec_scale_ = 0;
  }
  return q;
}

Quantity Quantity::FromInt64Amount(Format format, int64_t value,
                                   int32_t scale) {
  Quantity q;
  q.format_ = format;
  q.int_value_ = value;
  q.int_scale_ = scale;
  return q;
}

Quantity Quantity::FromDec(Format format, bool negative,
                           std::vector<uint32_t> unscaled, int32_t scale) {
  Quantity q;
  q.format_ = format;
  q.dec_ = true;
  q.dec_scale_ = scale;
  Big mag = std::move(unscaled);
  Trim(mag);
  if (mag.empty()) return q;  // zero: inf.Dec keeps its scale
  q.negative_ = negative;
  for (Big shorter = mag; !DivPow10(shorter, 1); shorter = mag) {
    mag = std::move(shorter);
    ++q.mag_pow10_;
  }
  q.mag_ = std::move(mag);
  return q;
}

bool WithinExactSumRange(const Quantity& q) {
  int64_t low = 0, high = 0;  // the powers of ten of the lowest, top digit
  if (!q.is_dec()) {
    low = q.int_scale();
    high = low + 19;
  } else {
    low = q.dec_pow10() - q.dec_scale();
    high = low + static_cast<int64_t>(q.dec_mag().size()) * 10;
    if (q.dec_mag().empty()) high = low = -static_cast<int64_t>(q.dec_scale());
  }
  return low >= -kExactSumDigits && high <= kExactSumDigits;
}

// upstream: Quantity.ScaledValue (quantity.go), i.e. int64Amount.AsScaledInt64
// (amount.go) or scaledValue (scale_int.go).
int64_t Quantity::ScaledValue(int scale_arg) const {
  // Our scale counts decimal places; upstream's Scale is the opposite
  // exponent (MilliValue is ScaledValue(Milli = -3) there).
  const int32_t scale =
      static_cast<int32_t>(0u - static_cast<uint32_t>(scale_arg));
  if (!dec_) {
    if (int_scale_ < scale) {
      return NegativeScale(int_value_,
                           static_cast<int64_t>(scale) - int_scale_);
    }
    return PositiveScale(int_value_, static_cast<int64_t>(int_scale_) - scale);
  }
  if (mag_.empty()) return 0;

  // The unscaled value U = +-mag_ * 10^mag_pow10_; Go's big.Int.Int64() of it
  // is its low 64 bits, negated when negative.
  const uint64_t low = Low64(mag_) * Pow10Mod64(mag_pow10_);
  const int64_t u64 = negative_ ? WrapNeg(low) : static_cast<int64_t>(low);
  const int64_t dif = static_cast<int64_t>(dec_scale_) + scale;
  if (dif == 0) return u64;
  if (dif < 0) {
    // int64(math.Pow10(n)): exact up to 18; out of range reads as INT64_MIN
    // (amd64).
    const int64_t factor =
        -dif <= 18 ? Pow10Int64(static_cast<int>(-dif)) : kMinInt64;
    return WrapMul(u64, factor);
  }

  // Scale down. U < MaxInt64 (signed) and dif < 19: Go's truncating int64
  // division, plus one when inexact (for negative values this is not a
  // ceiling: -1.5 reads as 0).
  bool below_max = negative_;
  if (!below_max && mag_pow10_ < 19) {
    Big v = mag_;
    MulPow10(v, mag_pow10_);
    below_max = Compare(v, FromUint64(static_cast<uint64_t>(kMaxInt64))) < 0;
  }
  if (below_max && dif < 19) {
    const int64_t divide = Pow10Int64(static_cast<int>(dif));
    const int64_t result = u64 / divide;
    return u64 % divide != 0 ? result + 1 : result;
  }
  // big.Int DivMod (Euclidean: floor for a positive divisor), then
  // Int64() + 1 when inexact.
  if (mag_pow10_ >= dif) {
    const uint64_t q = Low64(mag_) * Pow10Mod64(mag_pow10_ - dif);
    return negative_ ? WrapNeg(q) : static_cast<int64_t>(q);
  }
  // Here mag_pow10_ < dif: |U| / 10^dif = mag_ / 10^(dif - mag_pow10_).
  Big v = mag_;
  const bool inexact = DivPow10(v, dif - mag_pow10_);
  if (negative_ && inexact) AddSmall(v, 1);  // floor of a negative value
  const int64_t q =
      negative_ ? WrapNeg(Low64(v)) : static_cast<int64_t>(Low64(v));
  return inexact ? WrapAdd(q, 1) : q;
}

}  // namespace schedtrace
