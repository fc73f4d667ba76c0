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

// `text` cut to at most `max` characters at a blank, ending "...": never
// in the middle of a word (a first word longer than `max` is kept whole).
std::string ShortenAtWord(const std::string& text, size_t max);

// The sentence every report puts before a system's known upstream
// violations (properties/known_violations.h): what the count means — the
// system matched upstream's own behaviour where upstream breaks an
// invariant — so that it never reads as an accusation.
std::string KnownViolationsLead(std::string_view sut);

// For a child that declared no upstream version in its header replies and
// failed traces of some of the several versions it ran: how its failures
// split by version (`v1.25.12 120 of 277, v1.26.7 3 of 281`) and that
// declaring the one it implements (`{"ok": true, "upstream": V}`) limits it
// to that version's traces. "" otherwise (model, impl, upstream:, a child
// that declared its version, a run with --upstream, no failure).
std::string VersionSplitHint(const SystemRun& run);

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
