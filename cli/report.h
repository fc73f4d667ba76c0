// Reports of a run: the conformance table printed on stdout, and the files
// `--report` writes (Markdown for people, JUnit XML for CI systems, JSON for
// tools), chosen by the file's extension.
//
// Whatever a system under test wrote (its messages quote a child's stderr
// and the bytes of a bad reply: invalid UTF-8, NUL, ANSI escapes, 64 KiB
// lines), every report is well-formed: text from a run goes through
// SanitizeText / SanitizeLine (run/text_sanitize.h) and then the
// format's own escaping, and nothing here throws.
//
// Markdown: the counts and the run's time, the upstream version every trace
// ran as (--upstream) and the one a system declared (an exec: child's header
// reply), when there are, the table per system, version and layer (cells
// escape `|`, a newline and what Markdown would read as HTML), the state
// comparisons
// skipped and the properties not checked per system, then each failure and
// error under a heading naming it and its version, with where it was decided
// and its time, and
// its full text in a code fence longer than any backtick run inside it. JUnit
// XML:
//   <testsuites name="schedtrace" tests failures errors skipped time>
//     <testsuite name="schedtrace.SYSTEM" ... time>   one per system
//       <properties>: system (as given), interrupted, upstreamOverride
//                     (--upstream), declaredUpstream (the versions an
//                     exec: child declared, ", " between),
//                     comparisonsSkipped, propertiesNotChecked ("4 (needs
//                     waiting), ..."), knownViolation.ID (steps)
//       <testcase classname="schedtrace.SYSTEM.LAYER" name="DISPLAY" time>
//         <properties><property name="upstream" value="v1.26.7"/>
//         </properties> (the version it ran as; "" when its header does
//         not decode), then
//         <failure message="one line" type="divergence|property">full
//         text</failure>, <error message type="apply|configure|bad-input">
//         full text</error>, or <skipped message/>
//   SYSTEM in a classname keeps [A-Za-z0-9_:-] and turns anything else into
//   `_` (`exec:./my sched --x` -> `exec:__my_sched_--x`); DISPLAY is the
//   trace's path relative to the PATH argument; times are seconds with three
//   decimals.
// JSON (schema "schedtrace-report/1"):
//   {"schema", "interrupted", "seconds", "summary": {passed, failed,
//    skipped}, "systems": [{"sut", "upstreamOverride" (--upstream, or
//    null), "declaredUpstreams" (what an exec: child declared, sorted; []
//    when nothing), "interrupted", "seconds", "passed",
//    "failed", "skipped", "comparisonsSkipped", "knownViolations",
//    "propertiesNotChecked": [{"property": 4, "needs": ["waiting"]}] (the
//    properties some trace did not check: inputs the system does not show,
//    properties/inputs.h; [] when all were checked),
//    "table": [{"upstream", "layer", "passed", "failed", "skipped"}] (the
//    conformance table's rows of this system, in its order),
//    "traces": [{"path", "display", "name", "layer", "upstream" (the
//    version it ran as; "" when its header does not decode), "verdict",
//    "badInput",
//    "seconds", "stepsRun", "message"?, "at"?: {step, line, op} (every
//    verdict but PASS; null for bad input), "comparisonsSkipped"?,
//    "divergence"?: {step, line, op, t, summary, description, before,
//    path, expected, actual, differences: [{path, kind, expected,
//    actual}]}}]}]}
//   `failed` counts errors too (as the closing line does); expected and
//   actual are JSON values, or a string when the text is not JSON
//   ("(absent)", "#2", a child's raw bytes). In a divergence, path /
//   expected / actual are the first difference (lists by position: what
//   failure signatures group by), `differences` every difference of out and
//   state at that step with lists matched by pod key, kind "missing",
//   "extra", "moved" (expected and actual are 1-based positions "#N") or
//   "changed" (run/state_diff.h); t is the step's clock, summary the step
//   in one line with its arguments, description the trace header's, before
//   the steps before it in one line each ("step 5 t=3000: q_add ...", oldest
//   first). Markdown and JUnit show the same as Divergence::Format.
// HTML (cli/html_report.h): one self-contained page (inline CSS and
// script, no URL, a Content-Security-Policy forbidding every request):
// counts, the table per system, version and layer, known violations,
// failures by signature, then each failure and error as a collapsible
// <details> with its version, divergence (every difference), message and
// timeline table
// (TraceRun::timeline), the failing step highlighted and anchored; passing
// and skipped traces as lists of names.
#ifndef SCHEDTRACE_CLI_REPORT_H_
#define SCHEDTRACE_CLI_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "cli/run.h"

namespace schedtrace::cli {

// Per system, upstream version (oldest first) and layer: passed, failed,
// skipped; then the version every trace ran as on a system run with
// --upstream, the state comparisons skipped and the known upstream
// violations seen. (Each failure is printed
// once by the run itself, not again here.)
std::string ConformanceTable(const std::vector<SystemRun>& runs);

std::string MarkdownReport(const std::vector<SystemRun>& runs);
std::string JUnitReport(const std::vector<SystemRun>& runs);
std::string JsonReport(const std::vector<SystemRun>& runs);

// Writes the report `path`'s extension asks for (.md, .xml, .json, .html).
// Never throws: a failure to build or write it is the returned status.
absl::Status WriteReport(const std::string& path,
                         const std::vector<SystemRun>& runs);
// Whether `path` has an extension WriteReport knows.
bool KnownReportExtension(const std::string& path);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_REPORT_H_
