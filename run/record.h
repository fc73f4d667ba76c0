// Traces recorded from a system: what it emitted and showed at each step,
// written as the step's expectations (docs/FORMAT.md: `out` on every step,
// `state` on every step but a fatal one). The recorder, the generator, the
// minimizer and the fuzz decoder write expectations this way, driving the
// system with the step driver in its recording mode (run/driver.h,
// DriveOptions::record).
#ifndef SCHEDTRACE_RUN_RECORD_H_
#define SCHEDTRACE_RUN_RECORD_H_

#include <memory>

#include "absl/status/statusor.h"
#include "core/state.h"
#include "core/system.h"
#include "core/trace.h"
#include "run/driven_system.h"

namespace schedtrace {

// `out` and, unless it is fatal or `state` is null, `state` as an
// expectation.
std::shared_ptr<Expect> ExpectOf(const StepOut& out, const State* state);

// `step` with ExpectOf(out, state) as its expectation.
Step StepWithExpect(const Step& step, const StepOut& out, const State* state);

// What `run`'s last step showed as an expectation; null when it refused it.
std::shared_ptr<Expect> RecordedExpect(const DrivenSystem& run);

// A copy of `trace` whose expectations are what `sut` emitted and showed at
// every step (the trace ends at a fatal step, as the spec says; before a
// step the system's version cannot apply, marked `truncated`). An error when
// `sut` refuses the header or a step.
absl::StatusOr<Trace> RecordTrace(System& sut, const Trace& trace);

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_RECORD_H_
