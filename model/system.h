// The reference model as a System: one model per layer, chosen by the trace
// header's layer when the system is configured.
//
//   std::unique_ptr<System> model = schedtrace::model::NewSystem();
//   model->Configure(trace.header);  // picks the queue, cache or scheduler
//   model
#ifndef SCHEDTRACE_MODEL_SYSTEM_H_
#define SCHEDTRACE_MODEL_SYSTEM_H_

#include <memory>

#include "harness/system.h"

namespace schedtrace::model {

// Any layer: dispatches to one of the three below.
std::unique_ptr<System> NewSystem();

// One layer each (queue_system.cc, cache_system.cc, scheduler_system.cc).
std::unique_ptr<System> NewQueueSystem();
std::unique_ptr<System> NewCacheSystem();
std::unique_ptr<System> NewSchedulerSystem();

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_SYSTEM_H_
