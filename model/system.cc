#include "model/system.h"

#include "harness/layered_system.h"

namespace schedtrace::model {

std::unique_ptr<System> NewSystem() {
  return NewLayeredSystem("model", &NewQueueSystem, &NewCacheSystem,
                          &NewSchedulerSystem);
}

}  // namespace schedtrace::model
