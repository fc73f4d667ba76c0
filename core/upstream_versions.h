// The upstream kube-scheduler versions a trace may name in its header's
// `upstream` (docs/FORMAT.md "Upstream versions"), oldest first. Each is a
// profile of model and impl: the switches that differ between versions live
// in model/upstream.h and impl/upstream.h, one named switch per upstream
// change. Adding a version is docs/ADDING-A-VERSION.md.
//
//   if (!IsKnownUpstream(header.upstream)) ...   // the codec refuses it
//   std::string_view v = EffectiveUpstream(header.upstream);  // "" -> v1.26.7
#ifndef SCHEDTRACE_CORE_UPSTREAM_VERSIONS_H_
#define SCHEDTRACE_CORE_UPSTREAM_VERSIONS_H_

#include <string>
#include <string_view>
#include <vector>

namespace schedtrace {

// The version a header without `upstream` (or with "") means.
inline constexpr std::string_view kDefaultUpstream = "v1.26.7";

// "v1.25.12", "v1.26.7", "v1.30.12", "v1.35.4", "v1.36.3", "v1.37.2":
// oldest first.
const std::vector<std::string>& KnownUpstreams();

// Whether `version` is "" or one of KnownUpstreams().
bool IsKnownUpstream(std::string_view version);

// `version`, or kDefaultUpstream for "".
std::string_view EffectiveUpstream(std::string_view version);

// Whether pods of `version` (an effective version) have
// spec.schedulingGates: from v1.26 on. Before, the API has no such field
// and a pod's gates are dropped when it is decoded (format facts, not
// scheduling decisions: model/upstream.h and impl/upstream.h decide what the
// scheduler does with them).
bool UpstreamHasSchedulingGates(std::string_view version);

// Whether `version` sums a pod's requests as exact quantities before
// rounding (from v1.30.12; kubernetes#115367 came in v1.27): where the step
// sources give pods fractional requests, for the difference to show. The
// systems decide by their own switch (pod_requests_summed_as_quantities).
bool UpstreamSumsRequestQuantities(std::string_view version);

// Whether `version`'s queue keeps the pods in flight and pops backoffQ
// when activeQ is empty (from v1.35.4: SchedulerQueueingHints and
// SchedulerPopFromBackoffQ on by default): what the properties may expect
// of a pop.
bool UpstreamTracksPodsInFlight(std::string_view version);

// Whether `version` (effective: "" is kDefaultUpstream) is `since` or newer;
// false when either is unknown.
bool UpstreamAtLeast(std::string_view version, std::string_view since);

// "v1.25.12, v1.26.7, ... or v1.37.2", for messages.
std::string KnownUpstreamsText();

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_UPSTREAM_VERSIONS_H_
