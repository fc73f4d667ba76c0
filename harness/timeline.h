// A pod's journey through a trace: for each step, where each pod of
// interest is on the expected side (the trace's `expect.state`, what upstream
// showed) and on the actual side (what the system under test showed), so a
// reader can see which step put a pod where, and what upstream did instead.
// `schedtrace explain` prints it; the HTML report shows it for each failure;
// `minimize` writes it beside each minimized trace.
//
//   absl::StatusOr<Timeline> t = ExplainTrace(*system, trace, {});
//   std::cout << FormatTimeline(*t);
//
// Places read only a State (and the steps' outs): they work for any system,
// model, impl or exec:.
#ifndef SCHEDTRACE_HARNESS_TIMELINE_H_
#define SCHEDTRACE_HARNESS_TIMELINE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/replay.h"
#include "harness/system.h"
#include "harness/trace.h"

namespace schedtrace {

// Where one pod is after a step, as one side showed it.
struct PodPlace {
  // "activeQ #1" (position in pop order, from 1), "backoffQ until 3500",
  // "unschedulable [NodeResourcesFit]", "unschedulable (gated)",
  // "in flight" (popped, in no queue, not assumed), "assumed on n1",
  // "waiting on Permit (n1)", "parked before bind (n1)", "bound on n1",
  // "gone" (deleted, or in no part of the state), "not added yet" (in no
  // part of the state and never seen before), "?" (the side shows no state
  // at this step).
  std::string where;
  std::optional<int> attempts;  // when a queue shows it
  std::string nominated;        // the nominated node, "" when none
  bool operator==(const PodPlace&) const = default;
};

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
};

struct Timeline {
  std::string trace;              // the trace's path
  std::string description;        // the header's
  std::string sut;                // ExplainOptions::sut
  std::vector<std::string> pods;  // the pods followed, in order
  // Why these pods: "given", "named by the first divergence", "every pod
  // the trace mentions", "the first 8 of the 12 pods the trace mentions".
  std::string pods_chosen;
  int steps = 0;      // in the trace
  int steps_run = 0;  // applied (fewer: an error or a fatal out ended it)
  std::vector<TimelineRow> rows;         // the steps shown (from..to)
  std::optional<Divergence> divergence;  // the first, when the trace fails
  std::string error;  // the system failed (an error verdict): what happened
};

struct ExplainOptions {
  std::vector<std::string> pods;  // none: those of the first divergence
  int from = 0;                   // first step shown (1-based); 0: the first
  int to = 0;                     // last step shown; 0: the last run
  std::string sut;                // the system's name, for the text
  // What the system reports (an exec: child's declaration, cli ReportsOf);
  // null: everything. Read after Configure, as ReplayOptions::reports.
  ReportsState reports;
};

// At most this many pods are followed when neither the options nor a
// divergence name any.
inline constexpr int kMaxPodsFollowed = 8;

// Where each of `pods` is in `state` (keys `ns/name`): a queue (activeQ with
// its position, backoffQ with its expiry, unschedulable with its plugins or
// gated), waiting on Permit, parked before bind, assumed or bound on a cache
// node; its attempts (from a queue entry) and nominated node. A pod in none
// of these is "in flight" when in `in_flight` (popped, its cycle not over),
// "gone" otherwise; "?" for every pod when the state has no part at all.
std::map<std::string, PodPlace> PlacesOf(
    const State& state, const std::vector<std::string>& pods,
    const std::set<std::string>& in_flight);

// A place in one line: "backoffQ until 3500 (attempts 1, nominated n1)".
std::string FormatPlace(const PodPlace& place);

// Replays `trace` on `sut` (configured afresh) and records each pod's place
// after every step on both sides. Fails only when the trace cannot run at
// all; a divergence or an error of the system is part of the timeline.
absl::StatusOr<Timeline> ExplainTrace(System& sut, const Trace& trace,
                                      const ExplainOptions& options);

// Where the explanation of a minimized trace is written beside it:
// "x.min.jsonl" -> "x.min.explain.txt" (".explain.txt" appended to a path
// that does not end in ".jsonl").
std::string ExplanationPathFor(const std::string& trace_path);

// The timeline as text: the trace, the divergence, then one block per step
// with each pod's expected and actual place side by side, the divergent
// step marked.
std::string FormatTimeline(const Timeline& timeline);

}  // namespace schedtrace

#endif  // SCHEDTRACE_HARNESS_TIMELINE_H_
