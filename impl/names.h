// impl's name checks: upstream's apimachinery validation
// (util/validation) where the scheduler relies on it, label keys and
// values of node-selector requirements (labels.NewRequirement), and
// schedutil.IsScalarResourceName (scheduler/util/utils.go) built on it.
// The model has its own (model/name_validation.h, model/resource.h).
#ifndef SCHEDTRACE_IMPL_NAMES_H_
#define SCHEDTRACE_IMPL_NAMES_H_

#include <string_view>

namespace schedtrace::impl {

// validation.IsQualifiedName's name part (and a non-empty label value):
// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], at most 63 bytes.
bool NamePart(std::string_view s);

// validation.IsQualifiedName: an optional DNS-1123 subdomain prefix and
// '/', then a NamePart.
bool QualifiedName(std::string_view key);

// Extended resources (a qualified name with a prefix outside
// *kubernetes.io/, not "requests."-prefixed), hugepages-*,
// attachable-volumes-* and *kubernetes.io/* names. "cpu", "pods" and an
// unprefixed "foo" are not.
bool IsScalarResourceName(std::string_view name);

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_NAMES_H_
