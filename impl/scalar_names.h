// impl's upstream schedutil.IsScalarResourceName (scheduler/util/utils.go):
// whether a resource name counts as a scalar resource of framework.Resource.
// The model has its own (model/resource.h).
#ifndef SCHEDTRACE_IMPL_SCALAR_NAMES_H_
#define SCHEDTRACE_IMPL_SCALAR_NAMES_H_

#include <string_view>

namespace schedtrace::impl {

// Extended resources (a qualified name with a prefix outside
// *kubernetes.io/, not "requests."-prefixed), hugepages-*,
// attachable-volumes-* and *kubernetes.io/* names. "cpu", "pods" and an
// unprefixed "foo" are not.
bool IsScalarResourceName(std::string_view name);

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_SCALAR_NAMES_H_
