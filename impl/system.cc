#include "impl/system.h"

#include "core/layered_system.h"

namespace schedtrace::impl {

std::unique_ptr<System> NewSystem() {
  return NewLayeredSystem("impl", &NewQueueSystem, &NewCacheSystem,
                          &NewSchedulerSystem);
}

}  // namespace schedtrace::impl
