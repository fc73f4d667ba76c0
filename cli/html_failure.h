// One failure or error in the HTML report (cli/html_report.h): a <details>
// whose summary line names the verdict, the system, the upstream version the
// trace ran as, the trace and where;
// inside, the description, the divergent step (t, summary, the steps
// before), every Difference (or the first one, path / expected / actual,
// when the list is empty), the message, and the timeline
// (cli/html_timeline.h). Tested through the page (html_report_test.cc).
#ifndef SCHEDTRACE_CLI_HTML_FAILURE_H_
#define SCHEDTRACE_CLI_HTML_FAILURE_H_

#include <string>

#include "cli/run.h"

namespace schedtrace::cli::html {

// Appends trace `tr` of `run`, a failure or an error, anchored `trace_id`,
// open when the page loads or not.
void AppendTrace(std::string& out, const SystemRun& run, const TraceRun& tr,
                 const std::string& trace_id, bool open);

}  // namespace schedtrace::cli::html

#endif  // SCHEDTRACE_CLI_HTML_FAILURE_H_
