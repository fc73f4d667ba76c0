// The optimized implementation as a System (issue 4): the same observable
// behaviour as the model, built for throughput.
#ifndef SCHEDTRACE_IMPL_SYSTEM_H_
#define SCHEDTRACE_IMPL_SYSTEM_H_

#include <memory>

#include "harness/system.h"

namespace schedtrace::impl {

// Any layer. Until a layer is implemented, Configure returns Unimplemented
// for it (the replayer reports such traces as skipped).
std::unique_ptr<System> NewSystem();

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_SYSTEM_H_
