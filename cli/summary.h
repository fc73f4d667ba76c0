// What a run says after its per-trace lines: skipped traces as one line per
// reason with a count, and failures grouped by signature (the same op and
// the same first differing key, or the same kind of error) with a count and
// an example, so that 40 traces failing for one reason read as one line.
//
//   std::cout << SkipSummary(run);           // after a system's traces
//   std::cout << FailureGroups(runs);        // before the closing line
#ifndef SCHEDTRACE_CLI_SUMMARY_H_
#define SCHEDTRACE_CLI_SUMMARY_H_

#include <string>
#include <string_view>
#include <vector>

#include "cli/run.h"

namespace schedtrace::cli {

// Why a skipped trace was skipped, without what is particular to the trace
// (its path, line and step), so that equal reasons group. A reason that
// opens with the system's name `sut` keeps that name as it is (its digits
// are not the trace's).
std::string SkipReason(const TraceRun& trace, std::string_view sut = "");

// `SKIP 80 traces: exec:./x: does not support the cache layer`, one line
// per reason, most frequent first (then by reason); "" when none skipped.
std::string SkipSummary(const SystemRun& run);

// The signature a failure is grouped by: `op state.queue.active` for a
// divergence (indices dropped), the op and the message's kind for an error
// or a property violation (numbers and the trace's own path dropped).
std::string FailureSignature(const TraceRun& trace);

// `failures by signature:` and one line per signature, most frequent first:
// count, system, signature, an example trace (file:line). "" when none.
std::string FailureGroups(const std::vector<SystemRun>& runs);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_SUMMARY_H_
