#include "impl/names.h"

#include <string>
#include <string_view>

namespace schedtrace::impl {
namespace {

bool Alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z');
}

// upstream: validation.IsDNS1123Subdomain.
bool Dns1123Subdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  auto lower = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  };
  size_t start = 0;
  for (;;) {
    size_t dot = s.find('.', start);
    std::string_view label =
        s.substr(start, dot == std::string_view::npos ? std::string_view::npos
                                                      : dot - start);
    if (label.empty() || !lower(label.front()) || !lower(label.back())) {
      return false;
    }
    for (char c : label) {
      if (!lower(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

}  // namespace

bool NamePart(std::string_view s) {
  if (s.empty() || s.size() > 63 || !Alnum(s.front()) || !Alnum(s.back())) {
    return false;
  }
  for (char c : s) {
    if (!Alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

bool QualifiedName(std::string_view key) {
  size_t slash = key.find('/');
  if (slash == std::string_view::npos) return NamePart(key);
  if (key.find('/', slash + 1) != std::string_view::npos) return false;
  return Dns1123Subdomain(key.substr(0, slash)) &&
         NamePart(key.substr(slash + 1));
}

bool IsScalarResourceName(std::string_view name) {
  if (name.starts_with("hugepages-") ||
      name.starts_with("attachable-volumes-")) {
    return true;
  }
  // v1helper.IsPrefixedNativeResource.
  if (name.find("kubernetes.io/") != std::string_view::npos) return true;
  // v1helper.IsExtendedResourceName: not native (so it has a '/'), not
  // "requests."-prefixed, and "requests." + name is a qualified name.
  // Called once per name: Cache::InternScalar keeps the answer.
  if (name.find('/') == std::string_view::npos ||
      name.starts_with("requests.")) {
    return false;
  }
  return QualifiedName(std::string("requests.").append(name));
}

}  // namespace schedtrace::impl
