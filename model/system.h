// The reference model as a System: one model per layer, chosen by the trace
// header's layer when the system is configured.
//
//   std::unique_ptr<System> model = schedtrace::model::NewSystem();
//   model->Configure(trace.header);  // picks the queue, cache or scheduler
//   model
#ifndef SCHEDTRACE_MODEL_SYSTEM_H_
#define SCHEDTRACE_MODEL_SYSTEM_H_

#include <memory>
#include <optional>

#include "core/system.h"
#include "model/upstream.h"

namespace schedtrace::model {

// Any layer: dispatches to one of the three below. Each trace runs on the
// profile its header's `upstream` names (model/upstream.h); with `profile`
// given, every trace runs on that one instead, whatever its header says
// (`schedtrace versions` flips one switch at a time this way).
std::unique_ptr<System> NewSystem();
std::unique_ptr<System> NewSystemOnProfile(Upstream profile);

// One layer each (queue_system.cc, cache_system.cc, scheduler_system.cc).
std::unique_ptr<System> NewQueueSystem(
    std::optional<Upstream> profile = std::nullopt);
std::unique_ptr<System> NewCacheSystem(
    std::optional<Upstream> profile = std::nullopt);
std::unique_ptr<System> NewSchedulerSystem(
    std::optional<Upstream> profile = std::nullopt);

// The profile a system configured with `header` runs on: `forced` when
// given, else UpstreamFor(header).
absl::StatusOr<Upstream> ProfileFor(const TraceHeader& header,
                                    const std::optional<Upstream>& forced);

// InvalidArgument when `up` sums requests as quantities
// (pod_requests_summed_as_quantities) and a pod of `step` has a request the
// model cannot sum exactly (core's CheckRequestsSummable): the cache and
// scheduler layers refuse that step as bad input.
absl::Status CheckRequestsSummable(const Step& step, const Upstream& up);

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_SYSTEM_H_
