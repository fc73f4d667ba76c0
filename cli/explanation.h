// Explaining a trace on a system named on the command line
// (run/timeline.h): the options `explain`, `minimize` and
// `diff --minimize` share, and the FILE.explain.txt written beside a
// minimized trace so that a CI artifact reads without running anything.
//
//   std::unique_ptr<System> sut = *MakeSystem("impl");
//   ExplainOptions o = ExplainOptionsFor(*sut, "impl", /*properties=*/true);
//   absl::StatusOr<Timeline> t = ExplainTrace(*sut, trace, o);
//
//   std::string path = WriteExplanation("impl", "x.min.jsonl", true);
#ifndef SCHEDTRACE_CLI_EXPLANATION_H_
#define SCHEDTRACE_CLI_EXPLANATION_H_

#include <string>

#include "core/system.h"
#include "core/trace.h"
#include "run/timeline.h"

namespace schedtrace::cli {

// Options for explaining on `system` (named `name`): what it reports (an
// exec: child's declaration) and, with `properties`, every property checked
// after each step as `replay` checks them (not on a child that reports only
// part of the state). `system` must outlive the options.
ExplainOptions ExplainOptionsFor(System& system, const std::string& name,
                                 bool properties);

// Explains the trace file at `trace_path` (as written: its line numbers are
// the file's) on a fresh system `sut`, with the whole journey
// (TimelineFormat::all), and writes the text to
// ExplanationPathFor(trace_path). Returns that path; "" when the file does
// not decode, the system cannot be made, or the text cannot be written
// (`*error` says why).
std::string WriteExplanation(const std::string& sut,
                             const std::string& trace_path, bool properties,
                             std::string* error = nullptr);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_EXPLANATION_H_
