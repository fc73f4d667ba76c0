// impl's exact resource.Quantity sums (apimachinery pkg/api/resource
// Quantity.Add and Quantity.Cmp), for v1.30's resourcehelper.PodRequests
// (kubernetes#115367). A sum stays an int64Amount while upstream's does
// (no allocation), and becomes a decimal big integer (base 10^9 limbs) at
// the scale upstream's inf.Dec takes when it overflows. The model has its
// own (model/go_quantity.h).
//
//   QuantitySum s(a);   // DeepCopy
//   s.Add(b);           // Quantity.Add
//   if (s.Less(c)) s = QuantitySum(c);   // maxResourceList
//   int64_t milli = s.ToQuantity().MilliValue();
#ifndef SCHEDTRACE_IMPL_QUANTITY_SUM_H_
#define SCHEDTRACE_IMPL_QUANTITY_SUM_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "core/objects.h"
#include "core/quantity.h"

namespace schedtrace::impl {

class QuantitySum {
 public:
  QuantitySum() = default;
  explicit QuantitySum(const Quantity& q);

  // upstream: Quantity.Add(y).
  void Add(const Quantity& y);
  // upstream: y.Cmp(*this) > 0, as maxResourceList asks.
  bool Less(const Quantity& y) const;
  // The sum as a Quantity whose ScaledValue rounds as upstream's does.
  Quantity ToQuantity() const;

 private:
  // A decimal: sign, magnitude in base 10^9 limbs (little-endian, no
  // leading zero limb), and inf.Dec's scale (value = mag * 10^-scale).
  struct Decimal {
    bool negative = false;
    std::vector<uint32_t> mag;
    int64_t scale = 0;
  };
  static Decimal DecimalOf(const Quantity& q);
  Decimal AsDecimal() const;
  // a <=> b, exactly.
  static int Compare(const Decimal& a, const Decimal& b);

  Quantity::Format format_ = Quantity::Format::kDecimalSI;
  bool is_decimal_ = false;
  int64_t value_ = 0;  // int64Amount
  int32_t scale_ = 0;
  Decimal decimal_;  // inf.Dec
};

// upstream: resourcehelper.PodRequests (kubernetes#115367): per resource
// name (pointing into the pod), the containers' quantities added exactly,
// raised to the largest init container's (an entry the sum lacks taken as
// it is, negative or not), plus overhead. The cache converts each sum once;
// the queue compares milli-values (PodSchedulingPropertiesChange).
struct PodRequestSum {
  const std::string* name;
  QuantitySum sum;
};
using PodRequestSums = absl::InlinedVector<PodRequestSum, 4>;
void SumPodRequests(const Pod& pod, PodRequestSums& reqs);

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_QUANTITY_SUM_H_
