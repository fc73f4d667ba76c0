// The differential runner: two Systems side by side on the same steps, no
// expectations needed (model against impl, or our model against another
// implementation behind `exec:CMD`).
//
// After every step both `out`s and both snapshots are compared with the
// replayer's comparison (run/replay.h: system a's out and state play the
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
// run/ does not depend on properties, hence the check is a callback.
#ifndef SCHEDTRACE_RUN_DIFFERENTIAL_H_
#define SCHEDTRACE_RUN_DIFFERENTIAL_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/system.h"
#include "core/trace.h"
#include "run/driver.h"
#include "run/replay.h"

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
// for a whole trace; the RapidCheck tests drive it command by command): the
// step driver (run/driver.h) with two systems, its ends as DiffResults.
//
//   Differential d(*a, *b, options);
//   if (auto r = d.Configure(header, "t.jsonl")) return *r;  // skipped...
//   for (...) if (auto r = d.Apply(step)) return *r;  // failed
class Differential {
 public:
  Differential(System& a, System& b, const DiffOptions& options = {});

  // Configures both; nullopt when both accept the header, else the result
  // (kSkipped / kError) to report. `path` names the trace in messages.
  std::optional<DiffResult> Configure(const TraceHeader& header,
                                      std::string path);
  // Applies the next step to both; nullopt while they agree and every check
  // holds, else the kFailed result (a divergence with the trace's
  // description and the steps applied before it).
  std::optional<DiffResult> Apply(const Step& step);
  // Whether a fatal step ended the trace.
  bool ended() const { return driver_.ended(); }
  // The out a gave for the last step (null when it refused it): what a step
  // source observes (run/step_source.h).
  const StepOut* last_out() const { return driver_.last_out(); }
  // The result of the run so far: `end` (nullopt: passed so far).
  DiffResult Result(std::optional<DriveEnd> end) const;

 private:
  Driver driver_;
  TraceHeader header_;
  std::string path_;
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

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_DIFFERENTIAL_H_
