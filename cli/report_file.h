// Writing a report file (`--report=FILE`): the text built, then written
// whole, each failure an error that names the file.
//
//   return WriteReportFile(path, [&] { return MarkdownReport(runs); });
#ifndef SCHEDTRACE_CLI_REPORT_FILE_H_
#define SCHEDTRACE_CLI_REPORT_FILE_H_

#include <functional>
#include <string>

#include "absl/status/status.h"

namespace schedtrace::cli {

// Builds the text with `build` (an exception it throws is an error, "cannot
// build the report PATH: ...") and writes it to `path` ("cannot write
// PATH: ..." when it cannot).
absl::Status WriteReportFile(const std::string& path,
                             const std::function<std::string()>& build);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_REPORT_FILE_H_
