// The HTML report (`--report=FILE.html`, issue 15 point 3): one
// self-contained page for a browser, opened from disk with no network and
// no external asset: the summary table per system and layer, then each
// failure with its whole divergence and the timeline of the pods involved
// (TraceRun::timeline, harness/timeline.h), the divergent step highlighted,
// collapsible per trace.
#ifndef SCHEDTRACE_HARNESS_CLI_HTML_REPORT_H_
#define SCHEDTRACE_HARNESS_CLI_HTML_REPORT_H_

#include <string>
#include <vector>

#include "harness/cli/run.h"

namespace schedtrace::cli {

std::string HtmlReport(const std::vector<SystemRun>& runs);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_HARNESS_CLI_HTML_REPORT_H_
