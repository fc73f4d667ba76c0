// The differential runner: two Systems side by side on the same steps, no
// expectations needed (model against impl, or our model against another
// implementation behind `exec:CMD`).
//
// After every step both `out`s and both snapshots are compared with the
// replayer's comparison (harness/replay.h: system a's out and state play the
// expectation, b's the actual), and an optional check (normally every
// property, properties/checker.h) runs on each system's transition. The
// first disagreement ends the run. A step both systems refuse (Apply returns
// an error status) is an agreement; one system refusing is a disagreement.
//
//   std::unique_ptr<System> a = model::NewSystem(), b = impl::NewSystem();
//   DiffOptions options;
//   options.make_check = [](const TraceHeader& h) {
//     return properties::AsStepCheck(h, nullptr);
//   };
//   DiffResult r = RunDifferential(*a, *b, trace, options);
//   if (r.verdict == Verdict::kFailed) std::cout << r.Format("model", "impl");
//
// harness does not depend on properties, hence the check is a callback.
#ifndef SCHEDTRACE_HARNESS_DIFFERENTIAL_H_
#define SCHEDTRACE_HARNESS_DIFFERENTIAL_H_

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "harness/replay.h"
#include "harness/system.h"
#include "harness/trace.h"

namespace schedtrace {

struct DiffOptions {
  // Makes a fresh check for one system's run of a trace; called twice per
  // trace (once for a, once for b). Optional.
  std::function<StepCheck(const TraceHeader&)> make_check;
  // What system b reports (an exec:CMD child's capabilities, cli/suts.h
  // ReportsOf): parts and keys it does not report are not compared. Null:
  // everything.
  ReportsState reports;
  // Whether the check runs on b too (make_check is then called for a, then
  // for b). A b that shows only part of the state is checked on the
  // properties whose inputs it shows: pass that to AsStepCheck
  // (properties/inputs.h) rather than turning the check off.
  bool check_b = true;
};

struct DiffResult {
  std::string path;  // "" for a generated trace
  std::string name;
  std::optional<int64_t> seed;  // the header's: a generated trace's seed
  Layer layer = Layer::kQueue;
  // kPassed: they agree and no check fired; kFailed: a disagreement or a
  // check fired; kSkipped: a system does not implement the layer
  // (Configure said Unimplemented); kError: a system refused the header.
  Verdict verdict = Verdict::kPassed;
  int steps_run = 0;
  // kFailed on a disagreement: `expected` is a's JSON, `actual` b's.
  std::optional<Divergence> divergence;
  // kFailed by a check: "a" or "b"; what fired is in `message`.
  std::string side;
  std::string message;

  // A readable account naming the systems: the whole divergence as
  // Divergence::Format shows it, a's values labelled with its name, b's with
  // its, e.g.
  //   t.jsonl:7: step 7 (q_pop) t=3000: out.attempts
  //       model:  2
  //       impl:   3
  //       step:   q_pop
  //       before: step 6 t=2000: q_add default/p
  //       differences (1):
  //         changed out.attempts: model 2, impl 3
  // A generated trace has no file and no lines: it is named with its seed,
  // "generated/queue/seed-5 (seed 5): step 7 (q_pop) t=3000: out.attempts".
  std::string Format(const std::string& a_name,
                     const std::string& b_name) const;
};

// Two systems in lockstep, one step at a time (what RunDifferential does
// for a whole trace; the RapidCheck tests drive it command by command).
//
//   Differential d(*a, *b, options);
//   if (auto r = d.Configure(header, "t.jsonl")) return *r;  // skipped...
//   for (...) if (auto r = d.Apply(step, step_no)) return *r;  // failed
class Differential {
 public:
  Differential(System& a, System& b, DiffOptions options = {});

  // Configures both; nullopt when both accept the header, else the result
  // (kSkipped / kError) to report. `path` names the trace in messages.
  std::optional<DiffResult> Configure(const TraceHeader& header,
                                      std::string path);
  // Applies `step` (number `step_no`, 1-based) to both; nullopt while they
  // agree and every check holds, else the kFailed result (a divergence with
  // the trace's description and the steps applied before it).
  std::optional<DiffResult> Apply(const Step& step, int step_no);
  // Whether both systems exited (a fatal step): the trace ends there.
  bool ended() const { return ended_; }
  // The out both gave for the last step Apply passed (nullopt when both
  // refused it): what a step source observes (harness/step_source.h).
  const std::optional<StepOut>& last_out() const { return last_out_; }

 private:
  DiffResult Base() const;
  // The trace's description and the last steps applied, into `d`.
  void AddContext(Divergence& d) const;

  System& a_;
  System& b_;
  DiffOptions options_;
  TraceHeader header_;
  std::string path_;
  StepCheck check_a_, check_b_;
  State before_a_, before_b_;
  bool ended_ = false;
  std::optional<StepOut> last_out_;
  // The last kStepsBefore steps both agreed on: a ring, recent_count_ steps
  // written so far.
  struct Recent {
    Step step;
    int step_no = 0;
  };
  std::array<Recent, kStepsBefore> recent_;
  int recent_count_ = 0;
};

// Where a step is, for messages: "t.jsonl:7: step 6 (q_pop)" for a trace
// read from a file (`line` > 0), "NAME (seed N): step 6 (q_pop)" for a
// generated one (no path, no lines; the seed when the header has one).
std::string StepLocation(const std::string& path, const std::string& name,
                         std::optional<int64_t> seed, int line, int step_no,
                         const std::string& op);

// Configures both systems with the trace header and runs every step on
// both; the trace's expectations are ignored.
DiffResult RunDifferential(System& a, System& b, const Trace& trace,
                           const DiffOptions& options = {});

// A copy of `trace` whose expectations are what `sut` emitted and showed at
// every step (the trace ends at a fatal step, as the spec says). An error
// when `sut` refuses the header or a step.
absl::StatusOr<Trace> RecordTrace(System& sut, const Trace& trace);

}  // namespace schedtrace

#endif  // SCHEDTRACE_HARNESS_DIFFERENTIAL_H_
