// The one interface: everything a trace can drive is a System.
//
// model::System, impl::System and run's ChildProcess implement it; the
// replayer, the differential runner, the recorder, the properties, the fuzz
// targets and the RapidCheck commands use only this.
//
//   std::unique_ptr<System> sut = ...;
//   RETURN_IF_ERROR(sut->Configure(trace.header));
//   for (const Step& step : trace.steps) {
//     absl::StatusOr<StepOut> out = sut->Apply(step);
//     State state = sut->Snapshot();
//   }
#ifndef SCHEDTRACE_CORE_SYSTEM_H_
#define SCHEDTRACE_CORE_SYSTEM_H_

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/state.h"
#include "core/state_touch.h"
#include "core/trace.h"

namespace schedtrace {

class System {
 public:
  virtual ~System() = default;
  // Reads the trace header: layer, config. Fails on what it cannot honour.
  // Resets all state: a System may be configured again for the next trace.
  virtual absl::Status Configure(const TraceHeader& header) = 0;
  // Sets the clock to step.t and applies step.op; returns what it emitted.
  // An error status means the system could not apply the step at all (an op
  // of another layer, a broken child process); what upstream reports as an
  // error or a fatal exit is a StepOut, not an error status.
  virtual absl::StatusOr<StepOut> Apply(const Step& step) = 0;
  // The observable state, as the spec's snapshot, for the configured layer.
  virtual State Snapshot() const = 0;
  // Fills `out` with the value Snapshot() returns, reusing the storage `out`
  // already holds (vectors, strings, map nodes): called every step with the
  // same `out`, a snapshot stops allocating once the state's shape is stable.
  // The default assigns Snapshot().
  virtual void SnapshotInto(State& out) const { out = Snapshot(); }
  // Overwrites `out` with what the last Apply may have changed, at least
  // (core/state_touch.h); everything by default. A system that names less lets
  // the step driver refresh its snapshots, compare it and check the properties
  // on that alone, so it must never leave out a change: testkit's snapshot
  // check holds model and impl to it on every golden and generated trace.
  virtual void Touched(StateTouch& out) const { out.SetAll(); }
  // Refreshes `out`, an earlier snapshot of this system that differs from
  // its state now only in what `touch` names, so that it equals Snapshot(),
  // rewriting only that. The default writes it whole (SnapshotInto).
  virtual void RefreshInto(State& out, const StateTouch& touch) const {
    (void)touch;
    SnapshotInto(out);
  }
  // The `out` of the last successful Apply as the system itself wrote it
  // (compact JSON), for a system whose out crosses a wire and is decoded
  // into the StepOut Apply returned (run/child_process.h). The replayer
  // compares this, not the StepOut's encoding, with `expect.out`, so that a
  // reply the StepOut cannot tell apart from the canonical one
  // (`{"error": false}`, an unknown key) fails as docs/FORMAT.md says.
  // Empty (the default) for systems whose out is the StepOut (model, impl).
  virtual std::optional<std::string_view> OutAsSent() const {
    return std::nullopt;
  }
  // The `state` of the last successful Apply as the system itself wrote it
  // (compact JSON), for a system whose state crosses a wire and is decoded
  // into the State Snapshot returns (run/child_process.h). Not compared
  // (the replayer compares the canonical encoding of Snapshot(), where a key
  // the child left out reads as its default), but shown as the `actual` of a
  // divergence: an omitted `gated` shows `(absent)`, not `false`. Empty (the
  // default) for systems whose state is the State (model, impl), and after a
  // reply without a state.
  virtual std::optional<std::string_view> StateAsSent() const {
    return std::nullopt;
  }
};

// A step the system's upstream version cannot apply at all (a
// q_add_unschedulable of a pod that version's pop order never popped), as
// opposed to one it failed to apply: the error status of Apply carries the
// reason as this payload. A recorder stops there and marks the trace
// `truncated` (docs/FORMAT.md, E12); everything else treats it as any other
// error status.
inline constexpr std::string_view kNotApplicablePayload =
    "schedtrace/not-applicable";

// `status` marked as a step not applicable, for `reason`.
absl::Status MarkNotApplicable(absl::Status status, std::string_view reason);

// The reason of a status MarkNotApplicable marked; nullopt for any other.
std::optional<std::string> NotApplicableReason(const absl::Status& status);

// A System whose snapshot is written in place (model's and impl's layers):
// it implements SnapshotInto only, and Snapshot() is SnapshotInto a fresh
// State, so the two cannot disagree.
class SnapshotIntoSystem : public System {
 public:
  State Snapshot() const final {
    State state;
    SnapshotInto(state);
    return state;
  }
  void SnapshotInto(State& out) const override = 0;
};

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_SYSTEM_H_
