// Runs traces against one system and gathers what the reports need.
#ifndef SCHEDTRACE_CLI_RUN_H_
#define SCHEDTRACE_CLI_RUN_H_

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/select.h"
#include "properties/inputs.h"
#include "run/replay.h"
#include "run/timeline.h"

namespace schedtrace::cli {

struct TraceRun {
  TraceResult result;
  bool bad_input = false;  // the trace did not decode (message says why)
  // The trace's path relative to the PATH argument that found it (the file's
  // own name when PATH named the file): what reports use as its name.
  std::string display;
  double seconds = 0;  // wall time of this trace's replay
  // The upstream version the trace ran as: its header's effective one, or
  // RunOptions::upstream (--upstream). For a trace that did not decode, its
  // TraceFile's ("" when its header names no known version).
  std::string upstream;
  // The version an exec: child declared in its header reply for this trace
  // (run/child_process.h Capabilities::upstream); "" when it declared
  // none, and for model and impl.
  std::string declared_upstream;
  // Each pod's journey through a failed trace (a divergence or an error),
  // recorded by the replay that failed: set only with
  // RunOptions::explain_failures (the HTML report shows it).
  std::optional<Timeline> timeline;
};

struct SystemRun {
  std::string sut;
  std::vector<TraceRun> traces;
  std::map<std::string, int> known_violations;  // id -> times fired
  // SIGINT or SIGTERM stopped the run: `traces` holds what completed.
  bool interrupted = false;
  double seconds = 0;  // wall time of the whole run of this system
  int Count(Verdict v) const;
  int BadInputs() const;
  // State comparisons skipped over all traces: parts an exec: system does
  // not report (its capabilities).
  int ComparisonsSkipped() const;
  // The properties not checked on some trace because the system does not
  // show their inputs (an exec: child declaring part of the state), by
  // property id, with the inputs missing over all traces (sorted). Empty
  // with --no-properties, and when every property was checked.
  std::vector<properties::Unchecked> properties_not_checked;
  // The versions the system declared (TraceRun::declared_upstream), each
  // once, sorted; empty when it declared none.
  std::vector<std::string> declared_upstreams;
  // --upstream: every trace ran as this version (RunOptions::upstream).
  std::optional<std::string> upstream_override;
};

// `exec:./x implements v1.30.12 (its header reply)`: what a run says once
// when its system declared its version; "" when it declared none.
std::string DeclaredUpstreamLine(const SystemRun& run);

// `4 (needs waiting), 6 (needs cache.nodes)`: what the run prints after
// "properties not checked on SYSTEM: ", and the reports show.
std::string NotCheckedText(const std::vector<properties::Unchecked>& list);

struct RunOptions {
  bool properties = true;
  int jobs = 1;            // traces in flight at once, each with its system
  bool fail_fast = false;  // stop after the first failure (-x)
  bool quiet = false;      // print failures only, not PASS lines (-q)
  bool pass_lines = true;  // a PASS line per passing trace (conformance: -v)
  bool progress = false;   // a progress line on stderr (a terminal)
  // Record each failed trace's timeline as it runs (TraceRun::timeline),
  // for the HTML report.
  bool explain_failures = false;
  // --upstream: every trace runs as this version instead of its header's.
  std::optional<std::string> upstream;
};

// Replays every file against a fresh system named `sut`, printing one line
// per trace to `out` in file order whatever `jobs` is (`PASS` unless quiet,
// `FAIL` + divergence, `ERROR`), then the version the system declared
// (DeclaredUpstreamLine), when it did, the skipped traces as one line per
// reason, a line counting the state comparisons skipped, when some were, and
// one naming the properties not checked (`properties not checked on SYSTEM:
// 4 (needs waiting)`), when some were not.
// Stops early on a failure with fail_fast, and on SIGINT/SIGTERM
// (run/interrupt.h): then `interrupted` is set and `traces` holds the
// traces that completed before (a replay the interrupt cut short is left
// out).
SystemRun RunSystem(const std::string& sut, const std::vector<TraceFile>& files,
                    const RunOptions& options, std::ostream& out);

// Whether a trace counts as failed (a failure, an error, bad input).
bool Failed(const TraceRun& trace);

// `N passed, M failed[, K skipped]` over all runs (a trace that did not
// decode counts as failed).
std::string SummaryLine(const std::vector<SystemRun>& runs);

// Exit statuses, documented in `schedtrace help` and the README.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitNothingRan = 5;
// 128 + signal when interrupted: 130 (SIGINT), 143 (SIGTERM).

// 2 a trace did not decode, else 1 a trace failed, else 5 nothing ran
// (every trace skipped, or none selected), else 0; 128 + the signal when the
// run was interrupted.
int ExitStatus(const std::vector<SystemRun>& runs);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_RUN_H_
