#include "model/resource.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "harness/objects.h"
#include "model/go_int.h"

namespace schedtrace::model {
namespace {

constexpr std::string_view kCpu = "cpu";
constexpr std::string_view kMemory = "memory";
constexpr std::string_view kEphemeralStorage = "ephemeral-storage";
constexpr std::string_view kPods = "pods";

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9');
}
bool IsLowerAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
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
  if (name.empty() || name.size() > 63) return false;
  // ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
  if (!IsAlnum(name.front()) || !IsAlnum(name.back())) return false;
  for (char c : name) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}
bool HasPrefix(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// upstream: v1helper.IsPrefixedNativeResource / IsNativeResource /
// IsExtendedResourceName (pkg/apis/core/v1/helper/helpers.go).
bool IsPrefixedNativeResource(std::string_view name) {
  return Contains(name, "kubernetes.io/");
}
bool IsNativeResource(std::string_view name) {
  return !Contains(name, "/") || IsPrefixedNativeResource(name);
}
bool IsExtendedResourceName(std::string_view name) {
  if (IsNativeResource(name) || HasPrefix(name, "requests.")) return false;
  return IsQualifiedName(std::string("requests.") + std::string(name));
}

int64_t Max(int64_t a, int64_t b) { return std::max(a, b); }

int64_t Get(const Resources& r, const std::string& name) {
  auto it = r.find(name);
  return it == r.end() ? 0 : it->second;
}

void Set(Resources& r, const std::string& name, int64_t value) {
  if (value == 0) {
    r.erase(name);
  } else {
    r[name] = value;
  }
}

// upstream: Resource.SetMaxResource (framework/types.go).
void SetMaxResource(Resources& into, const ResourceList& list) {
  for (const auto& [name, quantity] : list) {
    if (name == kCpu) {
      Set(into, name, Max(Get(into, name), quantity.MilliValue()));
    } else if (name == kMemory || name == kEphemeralStorage ||
               IsScalarResourceName(name)) {
      Set(into, name, Max(Get(into, name), quantity.Value()));
    }
    // "pods" and unknown names are ignored.
  }
}

}  // namespace

bool IsScalarResourceName(const std::string& name) {
  return IsExtendedResourceName(name) || HasPrefix(name, "hugepages-") ||
         IsPrefixedNativeResource(name) ||
         HasPrefix(name, "attachable-volumes-");
}

void AddAmount(Resources& into, const std::string& name, int64_t delta) {
  if (delta == 0) return;
  Set(into, name, WrapAdd(Get(into, name), delta));
}

void AddResources(Resources& into, const Resources& other) {
  if (&into == &other) {  // a += a: iterate a copy, entries change under us
    const Resources copy = other;
    AddResources(into, copy);
    return;
  }
  for (const auto& [name, amount] : other) AddAmount(into, name, amount);
}

void SubtractResources(Resources& into, const Resources& other) {
  if (&into == &other) {
    into.clear();
    return;
  }
  for (const auto& [name, amount] : other) {
    AddAmount(into, name,
              static_cast<int64_t>(0 - static_cast<uint64_t>(amount)));
  }
}

// upstream: Resource.Add (framework/types.go).
Resources FromResourceList(const ResourceList& list) {
  Resources out;
  for (const auto& [name, quantity] : list) {
    if (name == kCpu) {
      AddAmount(out, name, quantity.MilliValue());
    } else if (name == kMemory || name == kPods || name == kEphemeralStorage ||
               IsScalarResourceName(name)) {
      AddAmount(out, name, quantity.Value());
    }
  }
  return out;
}

// upstream: calculateResource (framework/types.go).
Resources PodRequests(const Pod& pod) {
  Resources res;
  for (const Container& c : pod.containers) {
    AddResources(res, FromResourceList(c.requests));
  }
  for (const Container& ic : pod.init_containers) {
    SetMaxResource(res, ic.requests);
  }
  AddResources(res, FromResourceList(pod.overhead));
  return res;
}

// upstream: framework.NewResource(node.Status.Allocatable).
Resources NodeAllocatable(const Node& node) {
  return FromResourceList(node.allocatable);
}

}  // namespace schedtrace::model
