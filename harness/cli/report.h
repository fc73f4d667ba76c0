// Reports of a run: the conformance table printed on stdout, and the files
// `--report` writes (Markdown for people, JUnit XML for CI systems, JSON for
// tools), chosen by the file's extension.
#ifndef SCHEDTRACE_HARNESS_CLI_REPORT_H_
#define SCHEDTRACE_HARNESS_CLI_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "harness/cli/run.h"

namespace schedtrace::cli {

// Per system and layer: passed, failed, skipped; then the known upstream
// violations seen.
std::string ConformanceTable(const std::vector<SystemRun>& runs);

std::string MarkdownReport(const std::vector<SystemRun>& runs);
std::string JUnitReport(const std::vector<SystemRun>& runs);
std::string JsonReport(const std::vector<SystemRun>& runs);

// Writes the report `path`'s extension asks for (.md, .xml, .json).
absl::Status WriteReport(const std::string& path,
                         const std::vector<SystemRun>& runs);
// Whether `path` has an extension WriteReport knows.
bool KnownReportExtension(const std::string& path);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_HARNESS_CLI_REPORT_H_
