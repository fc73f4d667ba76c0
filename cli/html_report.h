// The HTML report (`--report=FILE.html`): one
// self-contained page for a browser, opened from disk with no network and
// no external asset (inline CSS, a small inline script for the filter box,
// no URL of any kind, a Content-Security-Policy that forbids every request):
//   - the counts, the run's time, whether it was interrupted;
//   - the version every trace ran as (--upstream) and the one a system
//     declared (an exec: child's header reply), when there are;
//   - the table per system, version and layer (passed, failed, errors,
//     skipped), the
//     state comparisons skipped, the known upstream violations seen;
//   - the failures grouped by signature (summary.h), each linking to its
//     first trace;
//   - each failure and error in run order, a <details> (the first three
//     open) whose summary line names the system, the trace, the verdict and
//     where; inside, the description, the divergent step
//     (t, summary, the steps before), every Difference (or the first one,
//     path / expected / actual, when the list is empty), the message, and
//     the timeline (TraceRun::timeline, run/timeline.h) as a table: a row
//     per step, a column per pod followed, expected above actual where they
//     differ, the failing row highlighted, anchored "tN-sSTEP" and linked;
//     the steps shown are those `schedtrace explain` shows;
//   - passing traces as lists of names per system and version, skipped ones
//     per system and reason.
// Text from a run goes through SanitizeText / SanitizeLine
// (run/text_sanitize.h), is cut when very long, then HTML-escaped; the
// bytes depend only on the runs (timings aside).
// The page's parts: its text (html_text.h), CSS and script
// (html_assets.h), one failure (html_failure.h) with its timeline
// (html_timeline.h); this file lays out the page, the header, the summary
// table and the failures by signature.
#ifndef SCHEDTRACE_CLI_HTML_REPORT_H_
#define SCHEDTRACE_CLI_HTML_REPORT_H_

#include <string>
#include <vector>

#include "cli/run.h"

namespace schedtrace::cli {

std::string HtmlReport(const std::vector<SystemRun>& runs);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_HTML_REPORT_H_
