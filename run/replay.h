// The replayer: drives one System through a trace and compares what it shows
// with the trace's expectations.
//
// Comparison rule (docs/FORMAT.md, "Comparison"):
//   - `expect.out`, when present, must equal the system's out exactly, as
//     JSON values: `{}` means "no error, nothing popped, nothing emitted".
//     The system's out is its StepOut encoded canonically (OutToJson), or,
//     for a child process, the JSON it wrote, which must moreover be exactly
//     that canonical encoding (`{"error": false}` is not `{}`).
//   - `expect.state`, when present: each top-level part present (`queue`,
//     `nominated`, `cache`, `waiting`, `parked`) is compared; inside `queue`
//     and `cache` each key present is compared; everything below is compared
//     exactly.
// The first divergent step ends the replay and is reported with the trace
// file, the step number and line, the op, and a readable diff.
#ifndef SCHEDTRACE_RUN_REPLAY_H_
#define SCHEDTRACE_RUN_REPLAY_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/state.h"
#include "core/system.h"
#include "core/trace.h"

namespace schedtrace {

// One difference at a divergent step. Lists of pods are diffed by pod key:
// `state.queue.backoff[d/p].backoffExpiresAt` changed, `state.queue.active`
// missing d/q, extra d/r, d/s moved from #1 to #2 (run/state_diff.h).
struct Difference {
  std::string path;
  std::string kind;      // "changed", "missing", "extra", "moved"
  std::string expected;  // JSON, "(absent)", or "#N" (a 1-based position)
  std::string actual;    // JSON as the system sent it, "(absent)", or "#N"
  bool operator==(const Difference&) const = default;
};

struct Divergence {
  int step = 0;  // 1-based step number (the header is step 0)
  int line = 0;  // line in the trace file
  std::string op;
  // The first difference, as a walk of both values in order finds it (a
  // list's elements in order, each named as the list of differences names
  // it: by its pod key or node name where the list is matched by key,
  // `state.cache.nodes[n1]`, else by position, `[0]`; a list of another
  // length, or holding other keys at a position, whole): what failure
  // signatures group by. `actual` is what the system sent there ("(absent)"
  // for a key a child left out, not its default).
  std::string path;      // where they differ, e.g. "state.queue.active[d/p]"
  std::string expected;  // JSON of the expected value at `path`
  std::string actual;    // JSON of the actual value at `path`
  // The whole divergence: every difference of out and state at
  // this step, lists matched by pod key (run/state_diff.h), and the
  // context a reader needs: the step's clock and arguments in one line
  // (run/step_summary.h), the trace's description, the few steps before
  // it in one line each ("step 5 t=3000: q_add default/p(priority=1)", oldest
  // first). CompareStep fills differences, t and step_summary; Replay and the
  // differential add description and before (AddTraceContext).
  std::vector<Difference> differences;
  int64_t t = 0;
  std::string step_summary;
  std::string description;
  std::vector<std::string> before;

  // The whole divergence for a reader:
  //   t.jsonl:7: step 6 (q_pop) t=3000: state.queue.active
  //       expected: [{"attempts":0,"pod":"d/a"},{"attempts":0,"pod":"d/b"}]
  //       actual:   [{"attempts":0,"pod":"d/b"},{"attempts":0,"pod":"d/a"}]
  //       step:     q_pop
  //       trace:    the description, on one line, cut at 200 characters
  //       before:   step 4 t=1000: q_add d/a(priority=1)
  //                 step 5 t=2000: q_add d/b(priority=5)
  //       differences (1):
  //         moved    state.queue.active[d/b]: expected #2, actual #1
  // Differences are grouped by kind (missing, extra, moved, changed), in the
  // order found within a kind; long values are cut (the JSON report keeps
  // them whole), and at most kMaxFormattedDifferences are listed.
  std::string Format(const std::string& trace_path) const;
  // Everything after the first line's `: PATH`, values labelled
  // `expected_label` and `actual_label` (the differential names its two
  // systems instead).
  std::string FormatBody(const std::string& expected_label,
                         const std::string& actual_label) const;
  static constexpr size_t kMaxFormattedDifferences = 100;
};

enum class Verdict { kPassed, kFailed, kSkipped, kError };
std::string_view VerdictName(Verdict v);

struct TraceResult {
  std::string path;
  std::string name;
  Layer layer = Layer::kQueue;
  Verdict verdict = Verdict::kPassed;
  int steps_run = 0;
  std::optional<Divergence> divergence;  // kFailed on a mismatch
  std::string message;  // kError / kSkipped / a failed Apply: what happened
  // Where a kFailed or kError verdict (or a kSkipped one from an op) was
  // decided: the 1-based step (0: the header), its line in the trace file
  // and its op ("" for the header). 0 / 0 / "" when the trace did not decode.
  int at_step = 0;
  int at_line = 0;
  std::string at_op;
  // Comparisons of state parts or keys the system does not report
  // (ReplayOptions::reports), skipped rather than failed.
  int comparisons_skipped = 0;
};

// Whether a system reports the state at `path`: a part ("waiting") or a key
// of a part compared key by key ("queue.backoff"). Null: it reports all.
using ReportsState = std::function<bool(std::string_view path)>;

// Called after every step with the state before and after, and what the
// step may have changed (the rest of `after` equals `before`); a non-empty
// return (e.g. a property violation) fails the trace with that message.
using StepCheck = std::function<std::string(
    const State& before, const Step& step, const StepOut& out,
    const State& after, const StateTouch& touch)>;

class StepObserver;  // run/driver.h

struct ReplayOptions {
  StepCheck check;  // optional
  // Optional; read after Configure, so it may depend on what the system
  // declared (run/child_process.h, Capabilities).
  ReportsState reports;
  // Watches every step (a TimelineRecorder, run/timeline.h); optional.
  StepObserver* observer = nullptr;
  // Goes on past the first failure to the trace's end, for an observer
  // that shows the journey after it; the result is the first failure's.
  bool keep_going = false;
};

// Configures `sut` with the trace header and replays every step: the step
// driver (run/driver.h) with one system, whose rules decide every verdict.
// A system that answers Configure or Apply with Unimplemented (a layer or
// an op it does not support) skips the trace.
TraceResult Replay(System& sut, const Trace& trace,
                   const ReplayOptions& options = {});

// Compares one step; nullopt when it matches. `step_no` fills Divergence.
// Expected state `reports` says the system does not report is not compared
// and is counted in `*skipped` (when not null). `out_sent` is the out as the
// system wrote it (System::OutAsSent), when it crossed a wire: `expect.out`
// is then compared with it, and it must be the canonical encoding of `out`.
// `state_sent` is the state as the system wrote it (System::StateAsSent): it
// is not compared (the canonical encoding of `state` is), but a divergence
// shows its values as `actual`. A divergence carries every difference, the
// step's t and summary (not the trace's context: AddTraceContext).
std::optional<Divergence> CompareStep(
    const Step& step, int step_no, const StepOut& out, const State& state,
    const ReportsState& reports = nullptr, int* skipped = nullptr,
    std::optional<std::string_view> out_sent = std::nullopt,
    std::optional<std::string_view> state_sent = std::nullopt);

// How many steps before the divergent one a divergence shows.
inline constexpr int kStepsBefore = 3;

// Adds the trace's description and the kStepsBefore steps before
// `trace.steps[index]` (the divergent step) to `d`.
void AddTraceContext(Divergence& d, const Trace& trace, size_t index);

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_REPLAY_H_
