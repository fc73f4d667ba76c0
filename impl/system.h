// The optimized implementation as a System: the same observable
// behaviour as the model, built for throughput. One implementation per
// layer, chosen by the trace header's layer when the system is configured.
#ifndef SCHEDTRACE_IMPL_SYSTEM_H_
#define SCHEDTRACE_IMPL_SYSTEM_H_

#include <memory>

#include "core/system.h"

namespace schedtrace::impl {

// Any layer: dispatches to one of the three below.
std::unique_ptr<System> NewSystem();

// One layer each (queue_system.cc, cache_system.cc, scheduler_system.cc).
// A layer not implemented yet returns Unimplemented from Configure (the
// replayer reports its traces as skipped).
std::unique_ptr<System> NewQueueSystem();
std::unique_ptr<System> NewCacheSystem();
std::unique_ptr<System> NewSchedulerSystem();

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_SYSTEM_H_
