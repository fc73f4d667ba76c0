// The step driver: the one loop that runs Systems through steps. Replay,
// the differential runner, the recorder, the fuzz targets' lockstep, the
// timeline and the version comparison are callers of it or observers of it;
// none of them calls System::Apply itself.
//
// A driver runs one system (`b` null: checked against the steps'
// expectations, as `replay` does) or two side by side (`b` checked against
// `a`, as `diff` and the fuzz targets do). It owns configuring them, applying
// each step, taking snapshots into reused storage, comparing, and running
// the check (the properties) on each side's transition.
//
// The rules, here and nowhere else:
//
//   Configure  Each system is configured with the header, a first. A system
//              that answers Unimplemented (a layer it does not implement)
//              skips the run (kSkipped), any other error is kError; with
//              DriveOptions::drop_unconfigurable_b, a b that answers
//              Unimplemented is dropped instead and a runs alone.
//   Apply      Both apply the step: their outs are compared (one system:
//              with `expect.out`), then their states (one system: with
//              `expect.state`), then the check runs on each side that
//              applied it. The first difference is kFailed, with the whole
//              divergence; the first violation is kFailed, naming the side.
//   Refusal    A system refuses a step when Apply returns an error status.
//              One system alone: the run ends there, kSkipped when the
//              status is Unimplemented (an op it does not support), else
//              kError (a generator's hostile step it refuses is dropped
//              instead, as if never offered: DriveOptions::drop_refused).
//              Two systems that both refuse: an agreement; neither
//              changed anything, their states are still compared, no check
//              runs (there is no transition), and the run goes on. One of
//              two refusing: kFailed, a divergence at `out (refused)`.
//   Fatal      A step whose out is fatal (upstream exited) ends the run after
//              its out is compared (one system: and its expected state);
//              the state it leaves is no scheduler's, so neither state nor
//              check is looked at. A fatal out on one side only is a
//              difference of outs.
//
// With DriveOptions::keep_going the run goes on past the first difference
// or violation (the timeline shows the journey after it), comparing and
// checking nothing more; the first failure is the verdict.
//
// Snapshots are taken only when something reads them: a comparison of two
// systems, an expectation with `state`, a check, or an observer that asks;
// each refreshes only what the system says its steps touched
// (System::Touched). Two systems are compared as values first (no JSON), on
// what either step touched, and diffed whole into a readable divergence only
// when they differ; the check is handed what the step touched too.
//
//   Driver d(*model, impl.get(), options);
//   if (std::optional<DriveEnd> end = d.Configure(trace.header, trace.path))
//     return *end;  // skipped or error
//   for (const Step& step : trace.steps) {
//     if (std::optional<DriveEnd> end = d.Apply(step)) return *end;
//     if (d.ended()) break;
//   }
#ifndef SCHEDTRACE_RUN_DRIVER_H_
#define SCHEDTRACE_RUN_DRIVER_H_

#include <array>
#include <functional>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "core/state.h"
#include "core/system.h"
#include "core/trace.h"
#include "run/driven_system.h"
#include "run/replay.h"

namespace schedtrace {

// A step as the driver ran it, for observers: each system's run holds its
// answer and, when the driver took them, the states before and after
// (DrivenSystem::has_after).
struct DrivenStep {
  const Step& step;
  int step_no = 0;  // 1-based
  const DrivenSystem* a = nullptr;
  const DrivenSystem* b = nullptr;  // null: one system
  // The first difference at this step (a's values expected, b's actual; or
  // the expectation and the system's), when there is one.
  const Divergence* divergence = nullptr;
  // The violation of the check at this step, and on which side ("a", "b").
  const std::string* violation = nullptr;
  std::string_view violation_side;
};

// Watches a run step by step (the timeline, a recorder, a step source that
// aims its next step at what the last one did). Called after every step the
// driver applied, before the driver decides whether the run goes on.
class StepObserver {
 public:
  virtual ~StepObserver() = default;
  // Whether OnStep needs the states (the driver then snapshots every step).
  virtual bool wants_state() const { return false; }
  virtual void OnStep(const DrivenStep& step) = 0;
};

struct DriveOptions {
  // Makes a fresh check (the properties, properties/checker.h AsStepCheck)
  // for one system's run of a trace; called once for a, once for b (when
  // check_b). Optional.
  std::function<StepCheck(const TraceHeader&)> make_check;
  bool check_b = true;
  // What the checked system (b, or the only one) reports: parts and keys it
  // does not report are not compared. Read after Configure. Null: all.
  ReportsState reports;
  // Two systems: a b that does not implement the header's layer is dropped
  // and a runs alone (the fuzz targets on a layer impl lacks).
  bool drop_unconfigurable_b = false;
  // Go on past the first difference or violation (see above).
  bool keep_going = false;
  // One system, recording (run/record.h): its expectations are not
  // compared, and a snapshot is taken after every step that is not fatal.
  bool record = false;
  // One system: a step it refuses is dropped, as if never offered (the
  // generator's hostile steps), rather than ending the run; Apply still
  // returns the refusal, and the next step takes its number.
  bool drop_refused = false;
  StepObserver* observer = nullptr;  // optional, not owned
};

// How a run ended, when it did not pass.
struct DriveEnd {
  Verdict verdict = Verdict::kFailed;  // kFailed, kSkipped or kError
  // Where: the 1-based step (0: the header), its line, its op ("" for the
  // header).
  int step_no = 0;
  int line = 0;
  std::string op;
  // A difference: the whole divergence, with the trace's context.
  std::optional<Divergence> divergence;
  // A violation, a refusal or a failed Configure: which side ("a" or "b";
  // "" when one system runs) and its message, as the check or the status
  // said it.
  std::string side;
  std::string message;
  // What Configure or Apply answered when it refused (ok otherwise).
  absl::Status status;
};

class Driver {
 public:
  // `b` null: one system, checked against the steps' expectations.
  Driver(System& a, System* b, DriveOptions options = {});

  // Configures the systems for `header` (resetting everything the driver
  // holds); the end of the run when it cannot start. `path` names the trace
  // in messages ("" for a generated one).
  std::optional<DriveEnd> Configure(const TraceHeader& header,
                                    std::string path = "");
  // Drives the next step; the end of the run when the step decides it (with
  // keep_going: only a refusal of the only system ends it; the first failure
  // is kept for first_failure()).
  std::optional<DriveEnd> Apply(const Step& step);

  // The run is over: a fatal step, or (keep_going) a step the only system
  // could not apply.
  bool ended() const { return ended_; }
  int steps_run() const { return step_no_; }
  // Whether b is driven (false: one system, or b dropped at Configure).
  bool two_sided() const { return two_sided_; }
  bool b_dropped() const { return b_dropped_; }
  // The out a gave at the last step (null when it refused it, or before the
  // first step): what a step source observes (run/step_source.h).
  const StepOut* last_out() const {
    return step_no_ > 0 && a_.out().ok() ? &*a_.out() : nullptr;
  }
  // Comparisons skipped because the checked system does not report them.
  int comparisons_skipped() const { return comparisons_skipped_; }
  // With keep_going: the first failure so far.
  const std::optional<DriveEnd>& first_failure() const {
    return first_failure_;
  }
  // Each system's run: its last answer and states (DrivenSystem), for a caller
  // that reads them after Apply. b's is meaningful only when two_sided().
  const DrivenSystem& a() const { return a_; }
  const DrivenSystem& b() const { return *b_; }

 private:
  std::optional<DriveEnd> Fail(DriveEnd end);
  DriveEnd At(const Step& step, Verdict verdict) const;
  // The trace's description and the last steps driven, into `d`.
  void AddContext(Divergence& d) const;
  // b against a at this step; states too when both took them.
  std::optional<Divergence> CompareTwo(const Step& step);
  void Remember(const Step& step);
  void Observe(const Step& step, const Divergence* divergence,
               const std::string& violation, std::string_view side);

  DrivenSystem a_;
  std::optional<DrivenSystem> b_;  // engaged when given, even if dropped
  bool two_sided_ = false;
  DriveOptions options_;
  TraceHeader header_;
  std::string path_;
  StepCheck check_a_, check_b_;
  StateTouch both_touched_;  // what a's or b's last step touched
  bool b_dropped_ = false;
  bool ended_ = false;
  int step_no_ = 0;
  int comparisons_skipped_ = 0;
  std::optional<DriveEnd> first_failure_;
  // The last kStepsBefore steps driven: a ring, recent_count_ written.
  struct Recent {
    Step step;
    int step_no = 0;
  };
  std::array<Recent, kStepsBefore> recent_;
  int recent_count_ = 0;
};

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_DRIVER_H_
