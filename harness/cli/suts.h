// Systems under test by name: `model`, `impl`.
#ifndef SCHEDTRACE_HARNESS_CLI_SUTS_H_
#define SCHEDTRACE_HARNESS_CLI_SUTS_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "harness/system.h"

namespace schedtrace::cli {

// A fresh system for `name`; an InvalidArgument error for an unknown name.
absl::StatusOr<std::unique_ptr<System>> MakeSystem(const std::string& name);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_HARNESS_CLI_SUTS_H_
