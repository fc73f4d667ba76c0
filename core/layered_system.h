// A System that picks one System per layer when it is configured: how the
// model and the impl each present their three layers as one system.
//
//   std::unique_ptr<System> s = NewLayeredSystem(
//       "model", &NewQueueSystem, &NewCacheSystem, &NewSchedulerSystem);
#ifndef SCHEDTRACE_CORE_LAYERED_SYSTEM_H_
#define SCHEDTRACE_CORE_LAYERED_SYSTEM_H_

#include <functional>
#include <memory>
#include <string>

#include "core/system.h"

namespace schedtrace {

using SystemFactory = std::function<std::unique_ptr<System>()>;

// `name` prefixes its errors ("model: Apply before Configure").
std::unique_ptr<System> NewLayeredSystem(std::string name, SystemFactory queue,
                                         SystemFactory cache,
                                         SystemFactory scheduler);

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_LAYERED_SYSTEM_H_
