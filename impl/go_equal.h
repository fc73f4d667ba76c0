// impl's reflect.DeepEqual, for upstream's change checks: isPodUpdated
// (scheduling_queue.go) and the node checks of
// nodeSchedulingPropertiesChange (eventhandlers.go). Written apart from the
// model's (model/go_equal.h) so that the differential catches a slip in
// either.
//
// Go sees a nil map or slice as different from an empty one (GivenEmpty in
// harness/objects.h), and a resource.Quantity as its parsed fields, not its
// value (harness/quantity.h).
#ifndef SCHEDTRACE_IMPL_GO_EQUAL_H_
#define SCHEDTRACE_IMPL_GO_EQUAL_H_

#include "harness/objects.h"

namespace schedtrace::impl {

bool GoEqual(const Quantity& a, const Quantity& b);

// upstream isPodUpdated: true when the pods differ in anything but
// resourceVersion and status.
bool PodUpdated(const Pod& old_pod, const Pod& new_pod);

// Whether reflect.DeepEqual tells the two nodes' field apart.
bool AllocatableChanged(const Node& a, const Node& b);
bool LabelsChanged(const Node& a, const Node& b);
bool TaintsChanged(const Node& a, const Node& b);

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_GO_EQUAL_H_
