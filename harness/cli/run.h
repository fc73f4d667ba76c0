// Runs traces against one system and gathers what the reports need.
#ifndef SCHEDTRACE_HARNESS_CLI_RUN_H_
#define SCHEDTRACE_HARNESS_CLI_RUN_H_

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "harness/replay.h"

namespace schedtrace::cli {

struct TraceRun {
  TraceResult result;
  bool bad_input = false;  // the trace did not decode (message says why)
  // The trace's path relative to the PATH argument that found it (the file's
  // own name when PATH named the file): what reports use as its name.
  std::string display;
  double seconds = 0;  // wall time of this trace's replay
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
};

struct RunOptions {
  bool properties = true;
};

// Replays every file against a fresh system named `sut`, printing one line
// per trace to `out` (`PASS`, `FAIL` + divergence, `ERROR`, `SKIP`), and a
// line counting the state comparisons skipped, when some were.
SystemRun RunSystem(const std::string& sut,
                    const std::vector<std::string>& files,
                    const RunOptions& options, std::ostream& out);

// `N passed, M failed[, K skipped]` over all runs (a trace that did not
// decode counts as failed).
std::string SummaryLine(const std::vector<SystemRun>& runs);

// 0 nothing failed, 1 a trace failed, 2 a trace did not decode.
int ExitStatus(const std::vector<SystemRun>& runs);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_HARNESS_CLI_RUN_H_
