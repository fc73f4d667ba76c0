// One System through one trace: what every caller that applies steps to a
// System shares, written once. The step driver (run/driver.h) runs one or
// two of them; the recorder, the generator, the fuzz decoder and encoder,
// the version comparison and the bench runner run one each.
//
// A DrivenSystem configures the system, applies steps, and keeps the states
// before and after the last step in reused storage (System::SnapshotInto:
// once a trace's state has its shape, a step's snapshots allocate nothing),
// refreshing only what the system says its steps touched
// (System::Touched, RefreshInto).
// It knows the two facts of a step every caller must respect:
//   - a refused step (Apply's error status) changed nothing: the state
//     after it is the state before it;
//   - a fatal step (upstream exited) ends the trace: nothing is applied
//     after it, and the state it leaves is no scheduler's, so no snapshot
//     is taken of it unless the caller asks for that one.
//
//   DrivenSystem run(*system);
//   RETURN_IF_ERROR(run.Configure(header, /*snapshots=*/true));
//   for (const Step& step : steps) {
//     const absl::StatusOr<StepOut>& out = run.Apply(step);
//     ... run.before(), run.after() ...
//     if (run.ended()) break;
//   }
#ifndef SCHEDTRACE_RUN_DRIVEN_SYSTEM_H_
#define SCHEDTRACE_RUN_DRIVEN_SYSTEM_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/state.h"
#include "core/system.h"
#include "core/trace.h"

namespace schedtrace {

class DrivenSystem {
 public:
  explicit DrivenSystem(System& system) : system_(&system) {}

  System& system() const { return *system_; }

  // Configures the system for `header` and forgets the last trace. With
  // `snapshots`, a snapshot is taken at once and after every step (what a
  // check or a comparison reads); without, only when Apply is asked for one.
  absl::Status Configure(const TraceHeader& header, bool snapshots);

  // Applies `step`; what the system answered (valid until the next call).
  // Takes the snapshot after it when `snapshot` asks for this one, or when
  // the run keeps snapshots and the out is not fatal.
  const absl::StatusOr<StepOut>& Apply(const Step& step, bool snapshot = false);

  // The last step's answer.
  const absl::StatusOr<StepOut>& out() const { return out_; }
  bool refused() const { return !out_.ok(); }
  bool fatal() const { return out_.ok() && out_->fatal; }
  // A fatal step ended the trace.
  bool ended() const { return ended_; }
  // Steps applied since Configure (refused ones included).
  int steps() const { return steps_; }

  // What the last step may have changed (System::Touched): everything at
  // the first step after Configure, and for a system that does not say.
  const StateTouch& touch() const { return touch_; }

  // The states before and after the last step. `after` is valid when
  // has_after() (a snapshot was taken after the last step); `before` when
  // the run keeps snapshots (Configure).
  bool has_after() const { return has_after_; }
  const State& before() const { return before_; }
  const State& after() const { return after_; }

 private:
  System* system_;
  bool snapshots_ = false;
  bool ended_ = false;
  bool has_after_ = false;
  int steps_ = 0;
  absl::StatusOr<StepOut> out_;
  StateTouch touch_, last_touch_;  // the last step's, the one's before
  // `before_` holds the state after the step before the last (the buffer
  // the next snapshot refreshes rather than rewrites).
  bool before_follows_ = false;
  // Swapped at each step that takes a snapshot: after the swap `before_`
  // holds the state after the previous step and `after_` the storage of the
  // one before it, which the new snapshot refills.
  State before_, after_;
};

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_DRIVEN_SYSTEM_H_
