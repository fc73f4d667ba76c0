// Go's reflect.DeepEqual over the objects of a trace, as upstream's change
// checks apply it: isPodUpdated (internal/queue/scheduling_queue.go) to two
// pods, nodeAllocatableChanged, nodeLabelsChanged and nodeTaintsChanged
// (eventhandlers.go) to parts of two nodes.
//
// DeepEqual tells a nil map or slice from an empty one (core/objects.h,
// GivenEmpty) and compares a resource.Quantity field by field, not by value:
// "1" and "1000m" differ, "1000" and "01000" do not (core/quantity.h).
//
//   if (!DeepEqual(PodForUpdateCheck(a), PodForUpdateCheck(b))) ...
#ifndef SCHEDTRACE_MODEL_GO_EQUAL_H_
#define SCHEDTRACE_MODEL_GO_EQUAL_H_

#include "core/objects.h"

namespace schedtrace::model {

// reflect.DeepEqual(a, b) of two resource.Quantity values.
bool DeepEqual(const Quantity& a, const Quantity& b);

// reflect.DeepEqual of two pods, every field we keep.
bool DeepEqual(const Pod& a, const Pod& b);

// reflect.DeepEqual of a node field, nil-ness included.
bool DeepEqualAllocatable(const Node& a, const Node& b);
bool DeepEqualLabels(const Node& a, const Node& b);
bool DeepEqualTaints(const Node& a, const Node& b);

// equality.Semantic.DeepEqual of the same fields (v1.30's node checks): nil
// and empty are equal, and quantities compare by value (Quantity.Cmp).
bool SemanticEqual(const Quantity& a, const Quantity& b);
bool SemanticEqualAllocatable(const Node& a, const Node& b);
bool SemanticEqualLabels(const Node& a, const Node& b);
bool SemanticEqualTaints(const Node& a, const Node& b);

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_GO_EQUAL_H_
