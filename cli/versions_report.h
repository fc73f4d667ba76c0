// What `schedtrace versions` says (cli/version_diff.h has the logic): a
// few lines per trace as it finishes, a summary at the end, and the reports
// `--report` writes, Markdown for people and JSON for tools.
//
// Per trace (FormatTraceVersions):
//
//   queue/x.jsonl: same on all versions (9 steps)
//   scheduler/z.jsonl: not compared, the model does not judge its
//     scheduler layer on v1.35.4, v1.36.3
//   queue/y.jsonl: differs at step 4 (line 5): q_add_unschedulable default/p
//   ...
//     out, every version: {}
//     v1.26.7 -> v1.30.12, 2 differences:
//       extra   state.queue.backoff[default/p]: (absent) -> {"attempts":1,...}
//       missing state.queue.unschedulable[default/p]: {"attempts":1,...} ->
//       (absent) because of backoff_pods_without_rejector_plugins
//         (kubernetes/kubernetes#119105): a failure with no rejector plugin
//         goes to backoffQ
//
// An upgrade whose first difference comes later than the trace's says at
// which step ("v1.26.7 -> v1.30.12, first at step 9 (line 10): ...") and
// the outs there; one that never differs says "no difference". A trace
// runs only on the versions whose layer the model judges
// (properties/judged_upstreams.h): one of fewer than two is not compared,
// and one that skips a version has upgrades of its own (v1.30.12 ->
// v1.37.2 beside v1.30.12 -> v1.35.4 ...).
//
// The summary (VersionsSummary) counts the traces and, for each upgrade
// (pair of adjacent versions), how many traces each cause explains, most
// first: "what will change for my workload when I upgrade".
//
// JSON (schema "schedtrace-versions/1"):
//   {"schema", "versions": [...], "outOnly", "interrupted", "seconds",
//    "summary": {"traces", "differ", "same", "stopped", "badInput",
//      "notCompared"},
//    "upgrades": [{"older", "newer", "traces", "causes": [{"cause":
//      "alone|together|needed|combination|header|no-switch", "switches":
//      [names], "label", "traces"}]}],
//    "switches": [{"name", "change", "summary", "traces"}] (every switch,
//      UpstreamSwitches() order; traces: how many first differences it
//      explains, alone, with one other or needed),
//    "traces": [{"path", "display", "name", "layer", "steps", "stepsRun",
//      "verdict": "same|differs|stopped|bad-input|not-compared", "seconds",
//      "notJudged"?: [versions left out], "message"? (bad input), "at"?: {step,
//      line, op, summary} (differs, stopped), "did"?: [{version, out}] (out a
//      JSON value, or the text of a refusal), "changes"?: [{older, newer, at:
//      {step, line, op, summary} (this upgrade's first difference: the trace's
//      or later), outs: [older's, newer's], cause, label, switches: [{name,
//      change, summary}], differences: [{path, kind, older, newer}]}]}]}
// Markdown: the counts, the causes per upgrade as a table, each trace that
// differs under its own heading (its step, a table of what each version
// did, per upgrade its cause and a table of the differences), the traces
// that stop alike, then the traces the same on all versions as a list, then
// those not compared.
// Text from traces is sanitized (run/text_sanitize.h) and escaped for
// its format; the bytes depend only on the run (timings aside).
#ifndef SCHEDTRACE_CLI_VERSIONS_REPORT_H_
#define SCHEDTRACE_CLI_VERSIONS_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "cli/version_diff.h"

namespace schedtrace::cli {

// One trace of a versions run.
struct TraceVersions {
  std::string path;     // as found
  std::string display;  // relative to the PATH argument (cli/select.h)
  std::string name;     // the header's
  std::string layer;    // the header's; "" for bad input
  bool bad_input = false;
  std::string message;  // why the trace did not decode
  VersionDiff diff;
  double seconds = 0;
};

struct VersionsRun {
  std::vector<std::string> versions;  // oldest first
  bool out_only = false;              // --out-only: outs compared, not states
  std::vector<TraceVersions> traces;  // those that completed, input order
  bool interrupted = false;
  double seconds = 0;
};

// "same", "differs", "stopped", "bad-input" or "not-compared" (the model
// judges the trace's layer on fewer than two of the versions).
std::string_view VerdictOf(const TraceVersions& t);

// The cause of a change in one line: "because of NAME (CHANGE): SUMMARY",
// "a combination of A, B", ...
std::string CauseText(const PairChange& change);

// What the run prints for one trace: one line when all versions agree, the
// step, what each version did and why otherwise (quiet: nothing for a trace
// that is the same on all versions).
std::string FormatTraceVersions(const TraceVersions& t, bool quiet);

// The closing lines: counts, then each upgrade's causes.
std::string VersionsSummary(const VersionsRun& run);

std::string VersionsMarkdown(const VersionsRun& run);
std::string VersionsJson(const VersionsRun& run);

// Whether WriteVersionsReport knows `path`'s extension (.md, .json).
bool KnownVersionsReportExtension(const std::string& path);
// Writes the report `path`'s extension asks for; never throws.
absl::Status WriteVersionsReport(const std::string& path,
                                 const VersionsRun& run);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_VERSIONS_REPORT_H_
