// The scheduler layer's event registrations of a version. Scheduler-layer
// headers carry the clusterEventMap v1.26.7's framework registers (what
// every recording of every version carries); a later version's plugins
// register other events, and its scheduler's informer handlers and moves
// follow them. EffectiveClusterEventMap derives them from the header's map.
// It is idempotent: a map already in the version's shape comes back with
// the same registrations.
//
//   config.cluster_event_map = EffectiveClusterEventMap(config, up);
//
// The queue layer uses its header's map as it is (the recorders gave it to
// upstream's queue unchanged).
#ifndef SCHEDTRACE_IMPL_EVENT_REGISTRATIONS_H_
#define SCHEDTRACE_IMPL_EVENT_REGISTRATIONS_H_

#include <vector>

#include "core/trace.h"
#include "impl/upstream.h"

namespace schedtrace::impl {

// The registrations of `up`'s framework, from v1.26.7's in
// `config.cluster_event_map` (and the plugin set `config.plugins` names,
// when it names one): one entry per (resource, actions) registered, its
// plugins in first-seen order.
std::vector<ClusterEventMapEntry> EffectiveClusterEventMap(const Config& config,
                                                           const Upstream& up);

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_EVENT_REGISTRATIONS_H_
