// A failing trace's timeline in the HTML report (cli/html_report.h;
// TraceRun::timeline, run/timeline.h) as a table: a row per step, a
// column per pod followed and per node followed (the node view: present or
// a placeholder, requested, its pods), expected above actual where they
// differ, the
// failing row highlighted, each row anchored "tN-sSTEP"; the steps shown
// are those `schedtrace explain` shows, the others one gap row each saying
// how to see them. Tested through the page (html_report_test.cc).
#ifndef SCHEDTRACE_CLI_HTML_TIMELINE_H_
#define SCHEDTRACE_CLI_HTML_TIMELINE_H_

#include <string>

#include "run/timeline.h"

namespace schedtrace::cli::html {

// The anchor of a timeline row: "t3-s6" (trace 3, step 6).
std::string RowId(const std::string& trace_id, int step);

// Appends the timeline of the trace anchored `trace_id`, run on `sut` from
// `path` (for the `schedtrace explain` commands it names): the pods it
// follows, then the table.
void AppendTimeline(std::string& out, const Timeline& tl,
                    const std::string& trace_id, const std::string& sut,
                    const std::string& path);

// Whether the timeline shows a row for `step` (a link to it lands).
bool RowShown(const Timeline& tl, int step);

}  // namespace schedtrace::cli::html

#endif  // SCHEDTRACE_CLI_HTML_TIMELINE_H_
