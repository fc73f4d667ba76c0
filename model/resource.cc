#include "model/resource.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/objects.h"
#include "model/go_int.h"
#include "model/go_quantity.h"
#include "model/name_validation.h"

namespace schedtrace::model {
namespace {

constexpr std::string_view kCpu = "cpu";
constexpr std::string_view kMemory = "memory";
constexpr std::string_view kEphemeralStorage = "ephemeral-storage";
constexpr std::string_view kPods = "pods";

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

// upstream: addResourceList (pkg/api/v1/resource/helpers.go).
void addResourceList(ResourceList& list, const ResourceList& newList) {
  for (const auto& [name, quantity] : newList) {
    auto it = list.find(name);
    if (it == list.end()) {
      list.emplace(name, quantity);
    } else {
      it->second = QuantityAdd(it->second, quantity);
    }
  }
}

// upstream: maxResourceList (pkg/api/v1/resource/helpers.go).
void maxResourceList(ResourceList& list, const ResourceList& newList) {
  for (const auto& [name, quantity] : newList) {
    auto it = list.find(name);
    if (it == list.end()) {
      list.emplace(name, quantity);
    } else if (QuantityCmp(quantity, it->second) > 0) {
      it->second = quantity;
    }
  }
}

// upstream: resourcehelper.PodRequests (pkg/api/v1/resource/helpers.go),
// with no option set and no restartable init container (the format has no
// restartPolicy).
ResourceList PodRequestQuantities(const Pod& pod) {
  ResourceList reqs;
  for (const Container& c : pod.containers) addResourceList(reqs, c.requests);
  ResourceList initContainerReqs;
  for (const Container& ic : pod.init_containers) {
    ResourceList containerReqs;
    addResourceList(containerReqs, ic.requests);
    maxResourceList(initContainerReqs, containerReqs);
  }
  maxResourceList(reqs, initContainerReqs);
  addResourceList(reqs, pod.overhead);
  return reqs;
}

// upstream: calculateResource (framework/types.go).
Resources PodRequests(const Pod& pod, const Upstream& up) {
  // v1.27+ (kubernetes#115367): Resource.Add of resourcehelper.PodRequests.
  if (up.pod_requests_summed_as_quantities && CheckRequestsSummable(pod).ok()) {
    return FromResourceList(PodRequestQuantities(pod));
  }
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
