#include "model/name_validation.h"

#include <string_view>

namespace schedtrace::model {
namespace {

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9');
}
bool IsLowerAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], at most 63 characters.
bool IsQualifiedNamePart(std::string_view name) {
  if (name.empty() || name.size() > 63) return false;
  if (!IsAlnum(name.front()) || !IsAlnum(name.back())) return false;
  for (char c : name) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// upstream: validation.IsDNS1123Subdomain (apimachinery util/validation).
bool IsDns1123Subdomain(std::string_view s) {
  if (s.size() > 253) return false;
  // Labels [a-z0-9]([-a-z0-9]*[a-z0-9])? joined by '.'.
  size_t start = 0;
  for (;;) {
    size_t dot = s.find('.', start);
    std::string_view label =
        s.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (label.empty() || !IsLowerAlnum(label.front()) ||
        !IsLowerAlnum(label.back())) {
      return false;
    }
    for (char c : label) {
      if (!IsLowerAlnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

}  // namespace

// upstream: validation.IsQualifiedName.
bool IsQualifiedName(std::string_view value) {
  std::string_view name = value;
  const size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) return false;
    std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty() || !IsDns1123Subdomain(prefix)) return false;
  }
  return IsQualifiedNamePart(name);
}

// upstream: validation.IsValidLabelValue.
bool IsValidLabelValue(std::string_view value) {
  return value.empty() || IsQualifiedNamePart(value);
}

}  // namespace schedtrace::model
