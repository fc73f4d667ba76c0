// Resource amounts as the model counts them (framework.Resource), and
// upstream's scalar-resource naming. impl computes its own (impl/cache.h);
// properties check the systems' snapshots against these.
//
// `Resources` (core/state.h) maps a resource name to an integer amount:
// "cpu" in millicores, "memory" and "ephemeral-storage" in bytes, "pods" and
// every scalar resource (extended, hugepages-*, attachable-volumes-*) as a
// count. Zero amounts are not stored, so two equal `Resources` compare equal
// and a snapshot's `requested` leaves zeros out as the spec asks.
#ifndef SCHEDTRACE_MODEL_RESOURCE_H_
#define SCHEDTRACE_MODEL_RESOURCE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "core/objects.h"
#include "core/state.h"
#include "model/upstream.h"

namespace schedtrace::model {

// Adds `delta` to `into[name]`, erasing the entry when it becomes zero.
void AddAmount(Resources& into, const std::string& name, int64_t delta);

// into += other / into -= other, entry by entry (zeros erased).
void AddResources(Resources& into, const Resources& other);
void SubtractResources(Resources& into, const Resources& other);

// framework.Resource.Add over a v1.ResourceList: cpu as MilliValue, memory,
// ephemeral-storage and pods as Value, scalar resources (IsScalarResourceName)
// as Value; other names are ignored, as upstream ignores them.
Resources FromResourceList(const ResourceList& list);

// upstream calculateResource (framework/types.go): the sum over containers,
// raised entry-wise to the largest init container, plus overhead. A "pods"
// request is kept here as upstream's Resource keeps it, but NodeInfo.update
// does not add it to a node's Requested: callers accounting a node drop it.
// Before v1.27 each list is converted to integers (rounding each quantity
// up) and the integers are added, an init container raising an entry with
// SetMaxResource (cpu, memory, ephemeral-storage and scalars, not pods,
// never below 0). With `up.pod_requests_summed_as_quantities` the exact
// quantities of PodRequestQuantities are converted once. (A pod whose
// quantities the systems refuse in that version, CheckRequestsSummable, is
// counted the old way.)
Resources PodRequests(const Pod& pod, const Upstream& up);

// upstream (v1.27+, kubernetes#115367): resourcehelper.PodRequests
// (pkg/api/v1/resource/helpers.go): the containers' requests added as
// quantities, each entry raised to the largest init container's
// (maxResourceList: an entry the sum lacks is taken as it is, negative or
// not), plus overhead.
ResourceList PodRequestQuantities(const Pod& pod);

// upstream schedutil.IsScalarResourceName (scheduler/util/utils.go):
// extended resources (a valid qualified name outside *kubernetes.io/, not
// "requests."-prefixed), hugepages-*, attachable-volumes-* and prefixed native
// (*kubernetes.io/*) names. "cpu", "pods", "foo" are not scalar.
bool IsScalarResourceName(const std::string& name);

// A node's allocatable as framework.NewResource(node.Status.Allocatable).
Resources NodeAllocatable(const Node& node);

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_RESOURCE_H_
