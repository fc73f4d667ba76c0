// Finds the traces a PATH argument names: a file, or a directory searched
// recursively for *.jsonl, in sorted order.
#ifndef SCHEDTRACE_RUN_TRACE_FILES_H_
#define SCHEDTRACE_RUN_TRACE_FILES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace schedtrace {

absl::StatusOr<std::vector<std::string>> FindTraceFiles(
    const std::vector<std::string>& paths);

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_TRACE_FILES_H_
