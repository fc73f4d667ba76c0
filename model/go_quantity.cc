#include "model/go_quantity.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace schedtrace::model {
namespace {

using Format = Quantity::Format;

// An unsigned big integer: little-endian base-2^32 limbs, no leading zero
// limb (zero is empty).
using Big = std::vector<uint32_t>;

void Trim(Big& a) {
  while (!a.empty() && a.back() == 0) a.pop_back();
}

Big FromUint64(uint64_t v) {
  Big a = {static_cast<uint32_t>(v), static_cast<uint32_t>(v >> 32)};
  Trim(a);
  return a;
}

void MulSmall(Big& a, uint32_t m) {
  uint64_t carry = 0;
  for (uint32_t& limb : a) {
    const uint64_t v = static_cast<uint64_t>(limb) * m + carry;
    limb = static_cast<uint32_t>(v);
    carry = v >> 32;
  }
  if (carry != 0) a.push_back(static_cast<uint32_t>(carry));
  Trim(a);
}

// a *= 10^n (n >= 0).
void MulPow10(Big& a, int64_t n) {
  for (; n >= 9; n -= 9) MulSmall(a, 1000000000u);
  for (; n > 0; --n) MulSmall(a, 10);
}

int Compare(const Big& a, const Big& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

Big Add(const Big& a, const Big& b) {
  Big sum;
  uint64_t carry = 0;
  for (size_t i = 0; i < a.size() || i < b.size(); ++i) {
    const uint64_t v =
        carry + (i < a.size() ? a[i] : 0) + (i < b.size() ? b[i] : 0);
    sum.push_back(static_cast<uint32_t>(v));
    carry = v >> 32;
  }
  if (carry != 0) sum.push_back(static_cast<uint32_t>(carry));
  return sum;
}

// a - b, for a >= b.
Big Subtract(const Big& a, const Big& b) {
  Big diff;
  int64_t borrow = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    int64_t v = static_cast<int64_t>(a[i]) - borrow -
                static_cast<int64_t>(i < b.size() ? b[i] : 0);
    borrow = v < 0 ? 1 : 0;
    if (v < 0) v += int64_t{1} << 32;
    diff.push_back(static_cast<uint32_t>(v));
  }
  Trim(diff);
  return diff;
}

// A signed big integer.
struct Signed {
  bool negative = false;
  Big mag;
};

Signed FromInt64(int64_t v) {
  // |INT64_MIN| is 2^63, which fits in uint64.
  const uint64_t mag = v < 0 ? 0 - static_cast<uint64_t>(v) : v;
  return {v < 0, FromUint64(mag)};
}

Signed AddSigned(const Signed& a, const Signed& b) {
  if (a.negative == b.negative) return {a.negative, Add(a.mag, b.mag)};
  const int c = Compare(a.mag, b.mag);
  if (c == 0) return {};
  return c > 0 ? Signed{a.negative, Subtract(a.mag, b.mag)}
               : Signed{b.negative, Subtract(b.mag, a.mag)};
}

// upstream: inf.Dec, as Quantity.AsDec makes it: value = unscaled *
// 10^-scale. An int64Amount{value, scale} is the inf.Dec (value, -scale)
// (int64Amount.AsDec).
struct Dec {
  Signed unscaled;
  int64_t scale = 0;
};

Dec AsDec(const Quantity& q) {
  if (!q.is_dec()) {
    return {FromInt64(q.int_value()), -static_cast<int64_t>(q.int_scale())};
  }
  Dec d;
  d.unscaled.negative = q.dec_negative();
  d.unscaled.mag = q.dec_mag();
  MulPow10(d.unscaled.mag, q.dec_pow10());
  d.scale = q.dec_scale();
  return d;
}

// The unscaled value of `d` at a scale no smaller than its own.
Signed Rescaled(const Dec& d, int64_t scale) {
  Signed s = d.unscaled;
  MulPow10(s.mag, scale - d.scale);
  return s;
}

// upstream: inf.Dec.Add: the sum at the larger scale.
Dec DecAdd(const Dec& x, const Dec& y) {
  const int64_t scale = std::max(x.scale, y.scale);
  return {AddSigned(Rescaled(x, scale), Rescaled(y, scale)), scale};
}

// upstream: inf.Dec.Cmp.
int DecCmp(const Dec& x, const Dec& y) {
  const int64_t scale = std::max(x.scale, y.scale);
  Signed a = Rescaled(x, scale);
  Signed b = Rescaled(y, scale);
  b.negative = !b.negative;
  const Signed diff = AddSigned(a, b);
  if (diff.mag.empty()) return 0;
  return diff.negative ? -1 : 1;
}

constexpr int64_t kMinInt64 = std::numeric_limits<int64_t>::min();

// upstream: int64Add (math.go): a + b, false on overflow.
bool Int64Add(int64_t a, int64_t b, int64_t& out) {
  return !__builtin_add_overflow(a, b, &out);
}

// upstream: positiveScaleInt64 (math.go): base * 10^scale, false on
// overflow (int64MultiplyScale, one factor of ten at a time).
bool PositiveScaleInt64(int64_t base, int64_t scale, int64_t& out) {
  int64_t value = base;
  for (int64_t i = 0; i < scale; ++i) {
    if (value == 0 || value == 1) {
      value *= 10;
      continue;
    }
    if (value == kMinInt64 || __builtin_mul_overflow(value, 10, &value)) {
      return false;
    }
  }
  out = value;
  return true;
}

// upstream: int64Amount.Add (amount.go): a += b, false (a unchanged) when
// the sum does not fit.
bool Int64AmountAdd(int64_t& a_value, int32_t& a_scale, int64_t b_value,
                    int32_t b_scale) {
  if (b_value == 0) return true;
  if (a_value == 0) {
    a_value = b_value;
    a_scale = b_scale;
    return true;
  }
  int64_t c = 0;
  if (a_scale == b_scale) {
    if (!Int64Add(a_value, b_value, c)) return false;
    a_value = c;
  } else if (a_scale > b_scale) {
    if (!PositiveScaleInt64(a_value, int64_t{a_scale} - b_scale, c)) {
      return false;
    }
    if (!Int64Add(c, b_value, c)) return false;
    a_scale = b_scale;
    a_value = c;
  } else {
    if (!PositiveScaleInt64(b_value, int64_t{b_scale} - a_scale, c)) {
      return false;
    }
    if (!Int64Add(a_value, c, c)) return false;
    a_value = c;
  }
  return true;
}

bool IsZero(const Quantity& q) {
  return q.is_dec() ? q.dec_mag().empty() : q.int_value() == 0;
}

}  // namespace

Quantity QuantityAdd(const Quantity& q, const Quantity& y) {
  Format format = q.format();
  if (!q.is_dec() && !y.is_dec()) {
    if (q.int_value() == 0) format = y.format();
    int64_t value = q.int_value();
    int32_t scale = q.int_scale();
    if (Int64AmountAdd(value, scale, y.int_value(), y.int_scale())) {
      return Quantity::FromInt64Amount(format, value, scale);
    }
  } else if (IsZero(q)) {
    format = y.format();
  }
  const Dec sum = DecAdd(AsDec(q), AsDec(y));
  return Quantity::FromDec(format, sum.unscaled.negative, sum.unscaled.mag,
                           static_cast<int32_t>(sum.scale));
}

int QuantityCmp(const Quantity& q, const Quantity& y) {
  // int64Amount.Cmp and inf.Dec.Cmp both compare the exact values.
  return DecCmp(AsDec(q), AsDec(y));
}

}  // namespace schedtrace::model
