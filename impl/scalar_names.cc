#include "impl/scalar_names.h"

#include <algorithm>
#include <string_view>

namespace schedtrace::impl {
namespace {

bool LowerAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}
bool Alnum(char c) { return LowerAlnum(c) || (c >= 'A' && c <= 'Z'); }

// One DNS-1123 label: [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool Dns1123Label(std::string_view l) {
  return !l.empty() && LowerAlnum(l.front()) && LowerAlnum(l.back()) &&
         std::all_of(l.begin(), l.end(),
                     [](char c) { return LowerAlnum(c) || c == '-'; });
}

// validation.IsDNS1123Subdomain: at most 253 bytes of dot-separated labels.
bool Dns1123Subdomain(std::string_view s) {
  if (s.size() > 253) return false;
  while (true) {
    const size_t dot = s.find('.');
    if (!Dns1123Label(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

// The name part of validation.IsQualifiedName:
// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], at most 63 bytes.
bool QualifiedNamePart(std::string_view s) {
  return !s.empty() && s.size() <= 63 && Alnum(s.front()) && Alnum(s.back()) &&
         std::all_of(s.begin(), s.end(), [](char c) {
           return Alnum(c) || c == '-' || c == '_' || c == '.';
         });
}

}  // namespace

bool IsScalarResourceName(std::string_view name) {
  if (name.starts_with("hugepages-") ||
      name.starts_with("attachable-volumes-")) {
    return true;
  }
  // v1helper.IsPrefixedNativeResource.
  if (name.find("kubernetes.io/") != std::string_view::npos) return true;
  // v1helper.IsExtendedResourceName: not native (so it has a '/'), not
  // "requests."-prefixed, and "requests." + name is a qualified name: one
  // '/', "requests." + the part before it a DNS subdomain, the rest a name.
  const size_t slash = name.find('/');
  if (slash == std::string_view::npos || name.starts_with("requests.")) {
    return false;
  }
  const std::string_view rest = name.substr(slash + 1);
  if (rest.find('/') != std::string_view::npos) return false;
  // "requests." is itself a valid label followed by a dot, so the prefix
  // is a subdomain when the part before the slash is one, within 253 - 9.
  const std::string_view prefix = name.substr(0, slash);
  return prefix.size() + 9 <= 253 && Dns1123Subdomain(prefix) &&
         QualifiedNamePart(rest);
}

}  // namespace schedtrace::impl
