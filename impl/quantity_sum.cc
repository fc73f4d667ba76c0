#include "impl/quantity_sum.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace schedtrace::impl {
namespace {

constexpr uint32_t kBase = 1000000000u;  // a limb holds nine digits

void Trim(std::vector<uint32_t>& a) {
  while (!a.empty() && a.back() == 0) a.pop_back();
}

// a = a * m + add, for m * kBase + add < 2^64.
void MulAdd(std::vector<uint32_t>& a, uint64_t m, uint64_t add) {
  uint64_t carry = add;
  for (uint32_t& limb : a) {
    const uint64_t v = limb * m + carry;
    limb = static_cast<uint32_t>(v % kBase);
    carry = v / kBase;
  }
  while (carry != 0) {
    a.push_back(static_cast<uint32_t>(carry % kBase));
    carry /= kBase;
  }
}

// a *= 10^n: whole limbs shifted in, then the rest of the digits.
void ShiftDigits(std::vector<uint32_t>& a, int64_t n) {
  if (a.empty() || n <= 0) return;
  a.insert(a.begin(), static_cast<size_t>(n / 9), 0u);
  uint64_t m = 1;
  for (int64_t i = 0; i < n % 9; ++i) m *= 10;
  if (m != 1) MulAdd(a, m, 0);
}

int CompareMag(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

void AddMag(std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  if (a.size() < b.size()) a.resize(b.size(), 0u);
  uint32_t carry = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const uint32_t v = a[i] + (i < b.size() ? b[i] : 0u) + carry;
    carry = v >= kBase ? 1 : 0;
    a[i] = v - carry * kBase;
  }
  if (carry != 0) a.push_back(carry);
}

// a -= b, for a >= b.
void SubMag(std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  int64_t borrow = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    int64_t v = static_cast<int64_t>(a[i]) - borrow -
                static_cast<int64_t>(i < b.size() ? b[i] : 0u);
    borrow = v < 0 ? 1 : 0;
    a[i] = static_cast<uint32_t>(v + borrow * kBase);
  }
  Trim(a);
}

std::vector<uint32_t> FromU64(uint64_t v) {
  std::vector<uint32_t> a;
  for (; v != 0; v /= kBase) a.push_back(static_cast<uint32_t>(v % kBase));
  return a;
}

// Go's int64Amount.Add as one exact step: a * 10^(sa - m) + b * 10^(sb - m)
// at m = min(sa, sb), when every intermediate fits an int64 (upstream's
// positiveScaleInt64 and int64Add fail otherwise; 10^19 already overflows).
bool AddInt64Amounts(int64_t& a, int32_t& sa, int64_t b, int32_t sb) {
  if (b == 0) return true;
  if (a == 0) {
    a = b;
    sa = sb;
    return true;
  }
  const int64_t diff = static_cast<int64_t>(sa) - sb;
  if (diff > 18 || diff < -18) return false;
  __int128 wide_a = a, wide_b = b;
  for (int64_t i = 0; i < diff; ++i) wide_a *= 10;
  for (int64_t i = 0; i < -diff; ++i) wide_b *= 10;
  constexpr __int128 kMax = std::numeric_limits<int64_t>::max();
  constexpr __int128 kMin = std::numeric_limits<int64_t>::min();
  if (wide_a > kMax || wide_a < kMin || wide_b > kMax || wide_b < kMin) {
    return false;
  }
  const __int128 sum = wide_a + wide_b;
  if (sum > kMax || sum < kMin) return false;
  a = static_cast<int64_t>(sum);
  sa = std::min(sa, sb);
  return true;
}

}  // namespace

QuantitySum::QuantitySum(const Quantity& q) : format_(q.format()) {
  if (q.is_dec()) {
    is_decimal_ = true;
    decimal_ = DecimalOf(q);
  } else {
    value_ = q.int_value();
    scale_ = q.int_scale();
  }
}

// inf.Dec of `q`: an int64Amount{v, s} is (v, scale -s); a parsed inf.Dec
// keeps its scale, its magnitude expanded from base 2^32 and its power of
// ten.
QuantitySum::Decimal QuantitySum::DecimalOf(const Quantity& q) {
  Decimal d;
  if (!q.is_dec()) {
    const int64_t v = q.int_value();
    d.negative = v < 0;
    d.mag = FromU64(v < 0 ? 0 - static_cast<uint64_t>(v)
                          : static_cast<uint64_t>(v));
    d.scale = -static_cast<int64_t>(q.int_scale());
    return d;
  }
  const std::vector<uint32_t>& limbs = q.dec_mag();
  for (size_t i = limbs.size(); i-- > 0;)
    MulAdd(d.mag, uint64_t{1} << 32, limbs[i]);
  ShiftDigits(d.mag, q.dec_pow10());
  d.negative = q.dec_negative() && !d.mag.empty();
  d.scale = q.dec_scale();
  return d;
}

QuantitySum::Decimal QuantitySum::AsDecimal() const {
  if (is_decimal_) return decimal_;
  return DecimalOf(Quantity::FromInt64Amount(format_, value_, scale_));
}

int QuantitySum::Compare(const Decimal& a, const Decimal& b) {
  const int64_t scale = std::max(a.scale, b.scale);
  std::vector<uint32_t> ma = a.mag, mb = b.mag;
  ShiftDigits(ma, scale - a.scale);
  ShiftDigits(mb, scale - b.scale);
  const bool na = a.negative && !ma.empty(), nb = b.negative && !mb.empty();
  if (na != nb) return na ? -1 : 1;
  const int c = CompareMag(ma, mb);
  return na ? -c : c;
}

void QuantitySum::Add(const Quantity& y) {
  if (!is_decimal_ && !y.is_dec()) {
    if (value_ == 0) format_ = y.format();
    if (AddInt64Amounts(value_, scale_, y.int_value(), y.int_scale())) return;
  } else if (is_decimal_ ? decimal_.mag.empty() : value_ == 0) {
    format_ = y.format();
  }
  // inf.Dec.Add: both at the larger scale.
  Decimal a = AsDecimal();
  Decimal b = DecimalOf(y);
  const int64_t scale = std::max(a.scale, b.scale);
  ShiftDigits(a.mag, scale - a.scale);
  ShiftDigits(b.mag, scale - b.scale);
  a.scale = scale;
  if (a.negative == b.negative || a.mag.empty()) {
    if (a.mag.empty()) a.negative = b.negative;
    AddMag(a.mag, b.mag);
  } else if (CompareMag(a.mag, b.mag) >= 0) {
    SubMag(a.mag, b.mag);
  } else {
    SubMag(b.mag, a.mag);
    a.mag = std::move(b.mag);
    a.negative = b.negative;
  }
  if (a.mag.empty()) a.negative = false;
  is_decimal_ = true;
  decimal_ = std::move(a);
}

bool QuantitySum::Less(const Quantity& y) const {
  if (!is_decimal_ && !y.is_dec() && scale_ == y.int_scale()) {
    return y.int_value() > value_;
  }
  return Compare(DecimalOf(y), AsDecimal()) > 0;
}

Quantity QuantitySum::ToQuantity() const {
  if (!is_decimal_) return Quantity::FromInt64Amount(format_, value_, scale_);
  // The magnitude in base 2^32, for the harness's inf.Dec fields.
  std::vector<uint32_t> limbs;
  for (size_t i = decimal_.mag.size(); i-- > 0;) {
    uint64_t carry = decimal_.mag[i];
    for (uint32_t& limb : limbs) {
      const uint64_t v = static_cast<uint64_t>(limb) * kBase + carry;
      limb = static_cast<uint32_t>(v);
      carry = v >> 32;
    }
    if (carry != 0) limbs.push_back(static_cast<uint32_t>(carry));
  }
  return Quantity::FromDec(format_, decimal_.negative, std::move(limbs),
                           static_cast<int32_t>(decimal_.scale));
}

void SumPodRequests(const Pod& pod, PodRequestSums& reqs) {
  reqs.clear();
  absl::InlinedVector<std::pair<const std::string*, const Quantity*>, 4> init;
  auto find = [&reqs](const std::string& name) -> PodRequestSum* {
    for (PodRequestSum& e : reqs) {
      if (*e.name == name) return &e;
    }
    return nullptr;
  };
  auto add = [&](const ResourceList& list) {
    for (const auto& [name, q] : list) {
      if (PodRequestSum* e = find(name)) {
        e->sum.Add(q);
      } else {
        reqs.push_back({&name, QuantitySum(q)});
      }
    }
  };
  for (const Container& c : pod.containers) add(c.requests);
  for (const Container& c : pod.init_containers) {
    for (const auto& entry : c.requests) {
      const std::string& name = entry.first;
      const Quantity& q = entry.second;
      auto it = std::find_if(init.begin(), init.end(),
                             [&](const auto& e) { return *e.first == name; });
      if (it == init.end()) {
        init.push_back({&name, &q});
      } else if (QuantitySum(*it->second).Less(q)) {
        it->second = &q;
      }
    }
  }
  for (const auto& [name, q] : init) {
    if (PodRequestSum* e = find(*name)) {
      if (e->sum.Less(*q)) e->sum = QuantitySum(*q);
    } else {
      reqs.push_back({name, QuantitySum(*q)});
    }
  }
  add(pod.overhead);
}

}  // namespace schedtrace::impl
