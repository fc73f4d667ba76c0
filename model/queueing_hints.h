// The scheduler layer's QueueingHint map from v1.35 on: upstream's
// buildQueueingHintMap (pkg/scheduler/scheduler.go) over the EventsToRegister
// of the profile's plugins, with their QueueingHint functions (each
// version's pkg/scheduler/framework/plugins/*). The queue layer's map is
// the header's clusterEventMap with default hints instead
// (QueueingHintMapOfClusterEventMap, model/backend_queue.h).
#ifndef SCHEDTRACE_MODEL_QUEUEING_HINTS_H_
#define SCHEDTRACE_MODEL_QUEUEING_HINTS_H_

#include <string>

#include "core/trace.h"
#include "model/backend_queue.h"
#include "model/upstream.h"

namespace schedtrace::model {

// upstream: buildQueueingHintMap over the EnqueueExtensions
// fillEnqueueExtensions collects: the PreEnqueue, PreFilter, Filter, Reserve
// and Permit plugins of `config.plugins` (the default profile's when the
// header has none). The in-tree plugins register their own events and
// hints; any other plugin (the recorder's Trace* plugins) registers every
// event of framework.UnrollWildCardResource with the default hint.
QueueingHintMap BuildQueueingHintMap(const Config& config, const Upstream& up);

// A queue-layer clusterEventMap entry's hint "plugin" (docs/FORMAT.md,
// E14): of the in-tree plugin's EventsToRegister, the first registration
// of `registered`'s resource whose actions meet its bits; none, or one
// without a function, is the default hint. The plugins of `up`'s version.
QueueingHintFn PluginQueueingHintFn(const std::string& plugin,
                                    const QueueEvent& registered,
                                    const Upstream& up);

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_QUEUEING_HINTS_H_
