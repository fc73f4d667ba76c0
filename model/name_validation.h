// upstream's name validation (apimachinery util/validation), where the
// scheduler relies on it: label keys and values of node-selector
// requirements (labels.NewRequirement) and extended-resource names
// (v1helper.IsExtendedResourceName). impl has its own (impl/names.h).
#ifndef SCHEDTRACE_MODEL_NAME_VALIDATION_H_
#define SCHEDTRACE_MODEL_NAME_VALIDATION_H_

#include <string_view>

namespace schedtrace::model {

// upstream: validation.IsQualifiedName: an optional DNS-1123 subdomain
// prefix and '/', then ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9] of at most
// 63 characters.
bool IsQualifiedName(std::string_view value);

// upstream: validation.IsValidLabelValue: empty, or a qualified name's
// name part.
bool IsValidLabelValue(std::string_view value);

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_NAME_VALIDATION_H_
