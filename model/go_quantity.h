// Go's resource.Quantity arithmetic (apimachinery pkg/api/resource), where
// the model needs it: v1.30's resourcehelper.PodRequests adds and compares
// exact quantities before converting them (kubernetes#115367). The sum is
// kept in the form upstream keeps it, an int64Amount while it fits and an
// inf.Dec after, because Value() and MilliValue() round the two differently
// (core/quantity.h). impl has its own (impl/quantity_sum.h).
//
//   Quantity sum = QuantityAdd(*ParseQuantity("1"), *ParseQuantity("500m"));
//   sum.MilliValue();  // 1500
#ifndef SCHEDTRACE_MODEL_GO_QUANTITY_H_
#define SCHEDTRACE_MODEL_GO_QUANTITY_H_

#include "core/quantity.h"

namespace schedtrace::model {

// upstream: Quantity.Add (quantity.go): q + y. Both int64Amounts: their sum
// (int64Amount.Add) unless it overflows; otherwise the inf.Dec sum, at the
// larger of the two scales. The format is y's when q is zero.
Quantity QuantityAdd(const Quantity& q, const Quantity& y);

// upstream: Quantity.Cmp (quantity.go): -1, 0 or 1 as q is less than, equal
// to or greater than y (an exact comparison in both forms).
int QuantityCmp(const Quantity& q, const Quantity& y);

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_GO_QUANTITY_H_
