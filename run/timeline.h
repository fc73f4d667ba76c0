// A pod's journey through a trace: for each step, where each pod of
// interest is on the expected side (the trace's `expect.state`, what upstream
// showed) and on the actual side (what the system under test showed), so a
// reader can see which step put a pod where, and what upstream did instead.
// `schedtrace explain` prints it; the HTML report shows it for each failure;
// `minimize` and `diff --minimize` write it beside each minimized trace.
//
//   absl::StatusOr<Timeline> t = ExplainTrace(*system, trace, {});
//   std::cout << FormatTimeline(*t);  // run/timeline_format.h
//
// Where a pod is in one state: run/pod_place.h; one side across steps:
// side_places.h; what an out says about a pod: out_facts.h. In the cache
// and scheduler layers it follows nodes too (the node view): for each step,
// each followed node's requested resources, its pods (an assumed one with
// whether its binding finished and its deadline), and whether the cache
// holds it as a node or only as a placeholder (run/node_place.h,
// side_nodes.h). Places read
// only a State (and the steps' outs): they work for any system,
// model, impl or exec:. A pod is shown in every place it is in
// ("activeQ #1 + unschedulable [NodeResourcesFit]"); a side that shows only
// some state (an expectation that leaves keys out, a child that reports only
// some parts) places pods only by what it shows, and the two sides are
// compared (`≠`) only on what both show, as the replayer compares them.
#ifndef SCHEDTRACE_RUN_TIMELINE_H_
#define SCHEDTRACE_RUN_TIMELINE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/system.h"
#include "core/trace.h"
#include "run/driver.h"
#include "run/node_place.h"
#include "run/pod_place.h"
#include "run/replay.h"

namespace schedtrace {

struct TimelineRow {
  int step = 0;  // 1-based
  int line = 0;  // in the trace file
  int64_t t = 0;
  std::string op;
  std::string summary;  // the step in one line: op and its arguments
  // pod key -> place; a side without state at this step has no entries.
  std::map<std::string, PodPlace> expected, actual;
  bool has_expected = false;  // the step carries expect.state
  bool divergent = false;     // the first divergent step
  bool has_actual = true;     // false on the step the system failed to apply
  // The pods whose places (or outs) differ on what both sides show, as the
  // replayer compares them: the `≠` of the text.
  std::vector<std::string> differing;
  // The step's out as JSON: the trace's expect.out ("" when it has none)
  // and the system's ("" when it failed to apply the step).
  std::string expected_out, actual_out;
  bool out_differs = false;  // both present and not equal as JSON values
  std::string violation;     // the property first violated at this step
  // Upstream's own violations (the known-violations registry) at this step:
  // "ID: violation".
  std::vector<std::string> known;
  std::string error;  // the system could not apply this step
  // pod -> the step since which it has been where it is (its place, outs
  // aside), on each side; counted over every step, shown or not.
  std::map<std::string, int> expected_since, actual_since;
  // The node view (cache and scheduler layers): node name -> where the node
  // stands on each side (run/node_place.h), and the nodes that differ on
  // what both sides show.
  std::map<std::string, NodePlace> expected_nodes, actual_nodes;
  std::vector<std::string> differing_nodes;
};

struct Timeline {
  std::string trace;              // the trace's path
  std::string description;        // the header's
  std::string sut;                // ExplainOptions::sut
  std::vector<std::string> pods;  // the pods followed, in order
  // Why these pods: "given", "named by the first divergence", "every pod
  // the trace mentions", "the first 8 of the 12 pods the trace mentions".
  std::string pods_chosen;
  // The nodes followed (cache and scheduler layers), in order, and why:
  // "given", "named by the first divergence"; none unless given or a
  // difference of the first divergence is about a node.
  std::vector<std::string> nodes;
  std::string nodes_chosen;
  int steps = 0;      // in the trace
  int steps_run = 0;  // applied (fewer: an error or a fatal out ended it)
  std::vector<TimelineRow> rows;         // the steps shown (from..to)
  std::optional<Divergence> divergence;  // the first, when the trace fails
  std::string error;     // the system failed (an error verdict): what happened
  int from = 0, to = 0;  // ExplainOptions::from/to: the range asked for
  // The first failure when it is a property violation (no divergence came
  // before it): the step and what fired.
  int violation_step = 0;
  std::string violation;
  int error_step = 0;  // the step the system failed to apply, 0: none
  Layer layer = Layer::kQueue;
};

struct ExplainOptions {
  std::vector<std::string> pods;  // none: those of the first failure
  // Nodes to follow (cache and scheduler layers); none: those the first
  // divergence's differences name (`state.cache.nodes[n1]...`).
  std::vector<std::string> nodes;
  int from = 0;     // first step shown (1-based); 0: the first
  int to = 0;       // last step shown; 0: the last run
  std::string sut;  // the system's name, for the text
  // What the system reports (an exec: child's declaration, cli ReportsOf);
  // null: everything. Read after Configure, as ReplayOptions::reports.
  ReportsState reports;
  // Makes a fresh check (the properties, properties/checker.h AsStepCheck)
  // for one run of the trace; optional. Until the first failure it runs
  // after every step, as the replayer's ReplayOptions::check does, so a
  // trace `replay` fails on a property fails here at the same step.
  std::function<StepCheck(const TraceHeader&)> make_check;
  // After each step, the known upstream violations the check found at it
  // (what make_check's check was told), handed over once; optional.
  std::function<std::vector<std::string>()> take_known;
};

// At most this many pods (nodes) are followed when the options name none.
inline constexpr int kMaxPodsFollowed = 8;
inline constexpr int kMaxNodesFollowed = 4;

// Records a timeline while the step driver runs a trace (run/driver.h): an
// observer of the run, so a failure's timeline comes from the run that
// failed. Run the driver with DriveOptions::keep_going (the journey after
// the first failure shows too), the same check and reports as `options`.
// Without ExplainOptions::pods it follows every pod the trace mentions and
// keeps, at Finish, those the first failure involves; without
// ExplainOptions::nodes, likewise every node, keeping those the first
// divergence's differences name.
//
//   TimelineRecorder recorder(trace, options);
//   DriveOptions drive{.make_check = ..., .keep_going = true,
//                      .observer = &recorder};
//   ... run the driver over the trace ...
//   Timeline timeline = recorder.Finish();
class TimelineRecorder : public StepObserver {
 public:
  // `trace` must outlive the recorder.
  TimelineRecorder(const Trace& trace, const ExplainOptions& options);
  ~TimelineRecorder() override;

  bool wants_state() const override { return true; }
  void OnStep(const DrivenStep& step) override;
  // The timeline of the run so far (call once, after it).
  Timeline Finish();

 private:
  class Walker;
  // The nodes the timeline keeps: those given, else those the first
  // divergence names (none when it names none).
  void ChooseNodes(Timeline& tl) const;
  const Trace& trace_;
  const ExplainOptions options_;
  std::unique_ptr<Walker> walker_;
};

// Replays `trace` on `sut` (configured afresh) and records each pod's place
// after every step on both sides. Fails only when the trace cannot run at
// all (the system refuses its header); a divergence, a property violation
// or an error of the system is part of the timeline. The replay goes on
// past the first divergence or violation, to the trace's end (or a fatal
// out, or an error of the system), so the journey after it shows too.
// One run: a TimelineRecorder on the step driver.
absl::StatusOr<Timeline> ExplainTrace(System& sut, const Trace& trace,
                                      const ExplainOptions& options);

// Where the explanation of a minimized trace is written beside it:
// "x.min.jsonl" -> "x.min.explain.txt" (".explain.txt" appended to a path
// that does not end in ".jsonl").
std::string ExplanationPathFor(const std::string& trace_path);

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_TIMELINE_H_
