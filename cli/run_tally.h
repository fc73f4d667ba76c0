// What every report counts of a run, in one place: verdicts per system,
// upstream version and layer, the run's seconds, which traces failed, the name
// a report gives a trace, and the upstream reference of a known violation. The
// Markdown, JUnit, JSON and HTML reports (report.h, html_report.h) and the
// conformance table all read these, so they never disagree on a count.
#ifndef SCHEDTRACE_CLI_RUN_TALLY_H_
#define SCHEDTRACE_CLI_RUN_TALLY_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cli/run.h"

namespace schedtrace::cli {

struct Tally {
  int passed = 0, failed = 0, errors = 0, skipped = 0;
  int Total() const { return passed + failed + errors + skipped; }
  void Add(const TraceRun& tr);
  void Add(const Tally& t);
};

Tally TallyOf(const SystemRun& run);
Tally TallyOf(const std::vector<SystemRun>& runs);

// The layer a trace is tallied under; a trace that did not decode has none
// and is tallied under `bad_input`.
std::string LayerOf(const TraceRun& tr,
                    std::string_view bad_input = "(bad input)");

// The upstream version a trace is tallied under (TraceRun::upstream: its
// header's, or --upstream's); `unknown` when not even its header decodes.
std::string VersionOf(const TraceRun& tr, std::string_view unknown = "?");

// One row of the conformance table: a system, a version, a layer.
struct TallyRow {
  std::string sut, version, layer;
  Tally tally;
};

// A row per system x version x layer that ran a trace: systems in name
// order, versions oldest first (KnownUpstreams(); others after, by name),
// layers in name order.
std::vector<TallyRow> Tallies(const std::vector<SystemRun>& runs);

// A failure or an error.
bool IsFailure(const TraceRun& tr);

// What the reports call a trace: its path relative to the PATH argument.
const std::string& DisplayOf(const TraceRun& tr);

// `seconds` when finite and positive, else 0.
double CleanSeconds(double seconds);
// A run's wall time, or the sum of its traces' when it did not time itself.
double SecondsOf(const SystemRun& run);
double SecondsOf(const std::vector<SystemRun>& runs);

// The upstream issue or function a known violation cites ("" when `id` is
// not registered).
std::string_view UpstreamOf(const std::string& id);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_RUN_TALLY_H_
