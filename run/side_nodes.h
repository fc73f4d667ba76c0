// One side of a timeline's node view (run/timeline.h) across steps: what
// the trace and the side's earlier snapshots tell about a node beyond one
// snapshot. A placeholder is "never added" (only pods point at it) or was
// "removed at step N" while pods remained; a removal the side answered
// with an error was refused, and the node stays; a node gone from the
// cache after its removal reads "removed at step N". And each assumed
// pod's deadline: upstream's FinishBinding sets it to now + ttl, so it is
// the `t` of the step after which this side first showed the pod's binding
// finished (or the last c_finish_binding of it) plus the header's ttl.
//
//   SideNodes side(nodes, header.config.assumed_pod_ttl_ms);
//   std::map<std::string, NodePlace> now =
//       side.After(step_no, step, /*refused=*/false, &state, unshown);
#ifndef SCHEDTRACE_RUN_SIDE_NODES_H_
#define SCHEDTRACE_RUN_SIDE_NODES_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/state.h"
#include "core/trace.h"
#include "run/node_place.h"

namespace schedtrace {

class SideNodes {
 public:
  // `nodes` (the nodes followed) must outlive this. `ttl_ms`: the header's
  // assumedPodTtlMs. Without `deadlines` no deadline is said: a side
  // compared with another, since the replay compares no deadline (one side
  // may show a binding finished only steps later, where it has no state).
  SideNodes(const std::vector<std::string>& nodes, int64_t ttl_ms,
            bool deadlines = true);

  // Records step `step_no` (the nodes it adds, updates or removes;
  // `refused`: this side's out for it says `error`), then, when `state` is
  // given, places the nodes in it (NodePlaceIn, by what `unshown` leaves),
  // read with what the side remembers. Without a state: no places.
  std::map<std::string, NodePlace> After(
      int step_no, const Step& step, bool refused, const State* state,
      const std::vector<std::string>& unshown);

 private:
  void Record(int step_no, const Step& step, bool refused);
  void TrackDeadlines(const Step& step, const State& state,
                      const std::vector<std::string>& unshown);
  void Annotate(const std::string& node, NodePlace& place) const;

  const std::vector<std::string>& nodes_;
  int64_t ttl_ns_;  // as Go's time.Duration of the ttl: wrapped
  bool say_deadlines_;
  std::set<std::string> named_, added_;
  std::map<std::string, int> removed_at_, refused_at_;
  Deadlines deadlines_;
};

// The names of the nodes a step names: its node objects and the nodeName
// of its pod objects, in argument order, each once.
std::vector<std::string> StepNodeNames(const Step& step);

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_SIDE_NODES_H_
