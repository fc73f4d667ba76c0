// impl's reflect.DeepEqual, for upstream's change checks: isPodUpdated
// (scheduling_queue.go) and the node checks of
// nodeSchedulingPropertiesChange (eventhandlers.go), and the
// equality.Semantic.DeepEqual that v1.30's node checks use instead. Written
// apart from the model's (model/go_equal.h) so that the differential catches a
// slip in either.
//
// Go sees a nil map or slice as different from an empty one (GivenEmpty in
// core/objects.h), and a resource.Quantity as its parsed fields, not its
// value (core/quantity.h).
#ifndef SCHEDTRACE_IMPL_GO_EQUAL_H_
#define SCHEDTRACE_IMPL_GO_EQUAL_H_

#include "core/objects.h"

namespace schedtrace::impl {

bool GoEqual(const Quantity& a, const Quantity& b);

// upstream isPodUpdated: true when the pods differ in anything but
// resourceVersion and status. Without `scheduling_gates` the pods are seen
// as v1.25's PodSpec decodes them, without spec.schedulingGates.
bool PodUpdated(const Pod& old_pod, const Pod& new_pod,
                bool scheduling_gates = true);

// Whether reflect.DeepEqual tells the two nodes' field apart.
bool AllocatableChanged(const Node& a, const Node& b);
bool LabelsChanged(const Node& a, const Node& b);
bool TaintsChanged(const Node& a, const Node& b);

// upstream nodeConditionsChanged: whether the conditions' type -> status
// maps differ (both are made, never nil).
bool ConditionsChanged(const Node& a, const Node& b);

// equality.Semantic.DeepEqual (apimachinery), as v1.30's node checks use
// it: a nil map or slice equals an empty one, and quantities compare by
// value (Quantity.Cmp): "1" equals "1000m".
bool SemanticEqual(const Quantity& a, const Quantity& b);
bool AllocatableChangedSemantic(const Node& a, const Node& b);
bool LabelsChangedSemantic(const Node& a, const Node& b);
bool TaintsChangedSemantic(const Node& a, const Node& b);

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_GO_EQUAL_H_
