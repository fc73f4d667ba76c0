// Where a pod is in one State: every queue entry, Permit wait, parked bind
// and cache node holding it, in one line a reader can compare across the
// two sides of a timeline (run/timeline.h). Places read only a State:
// they work for any system, model, impl or exec:. A side that shows only
// some state places pods only by what it shows.
//
//   std::map<std::string, PodPlace> p = PlacesOf(state, {"d/a"}, {});
//   p["d/a"].where;  // "activeQ #1 + unschedulable [NodeResourcesFit]"
#ifndef SCHEDTRACE_RUN_POD_PLACE_H_
#define SCHEDTRACE_RUN_POD_PLACE_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/state.h"
#include "core/trace.h"
#include "nlohmann/json.hpp"
#include "run/replay.h"

namespace schedtrace {

// Where one pod is after a step, as one side showed it.
struct PodPlace {
  // Every place the pod is in, joined by " + " (`places`), or what the side
  // shows instead of a place:
  //   "activeQ #1" (position in pop order, from 1), "backoffQ until 3500",
  //   "unschedulable [NodeResourcesFit]", "unschedulable (gated)",
  //   "waiting on Permit (n1)" (assumed on n1), "parked before bind (n1)",
  //   "assumed on n1", "assumed on n1 (binding finished)", "bound on n1",
  //   "bound on n1 (placeholder node)" (the cache holds n1 only as a
  //   NodeInfo without its node: never added, or removed while pods
  //   remained);
  //   "in flight" (queue layer: popped, in no queue since), "in no queue"
  //   (scheduler layer: popped by a cycle that queued it nowhere),
  //   "deleted" (a delete step named it last), "not added yet" (no step
  //   named it yet), "gone" (was somewhere, is nowhere now), "not in the
  //   state" (named, never anywhere), "not in activeQ (backoffQ not shown)"
  //   (nowhere in what this side shows), "?" (the side shows no state).
  std::string where;
  std::optional<int> attempts;      // when a queue shows it
  std::string nominated;            // the nominated node, "" when none
  std::vector<std::string> places;  // each place; empty when in none
  // What the trace says about the pod beyond the state: "popped at step 2",
  // "deleted at step 5" (also while a system still holds it), "its removal
  // at step 5 was refused (error): it stays".
  std::string note;
  // What this step's out says about the pod: "popped", "cycle: scheduled on
  // n1", "cycle: unschedulable [NodeResourcesFit]", "bound to n1",
  // "status Unschedulable", "event FailedScheduling", "error", "fatal"; ""
  // when nothing (or the side has no out for the step).
  std::string out;
  bool operator==(const PodPlace&) const = default;
};

// The `where` of a pod a state cannot place: nowhere now after being
// somewhere, not named by any step yet, popped and in no queue since (queue
// layer), or the side shows no state at all.
inline constexpr char kPlaceGone[] = "gone";
inline constexpr char kPlaceNotYet[] = "not added yet";
inline constexpr char kPlaceInFlight[] = "in flight";
inline constexpr char kPlaceUnknown[] = "?";

// Where each of `pods` is in `state` (keys `ns/name`): every queue entry
// (activeQ with its position, backoffQ with its expiry, unschedulable with
// its plugins or gated), waiting on Permit, parked before bind, assumed or
// bound on each cache node holding it; its attempts (from its queue entries)
// and nominated node. A pod in none of these is "in flight" when in
// `in_flight` (popped, its cycle not over), "gone" otherwise; "?" for every
// pod when the state has no part at all.
std::map<std::string, PodPlace> PlacesOf(
    const State& state, const std::vector<std::string>& pods,
    const std::set<std::string>& in_flight);

// The same for a side that does not show every part: `unshown` lists the
// keys it leaves out ("queue.backoff", "cache.nodes", "waiting",
// "nominated", ...; see PlaceKeys). A pod is placed only by what is shown,
// and one found nowhere while something is unshown reads "not in activeQ,
// ... (backoffQ not shown)" rather than "gone".
std::map<std::string, PodPlace> PlacesOf(
    const State& state, const std::vector<std::string>& pods,
    const std::set<std::string>& in_flight,
    const std::vector<std::string>& unshown);

// The state keys that place a pod in `layer`: "queue.active",
// "queue.backoff", "queue.unschedulable", "nominated", "cache.nodes",
// "cache.assumed", "cache.bindingFinished", "waiting", "parked" (those of
// the layer's parts).
std::vector<std::string> PlaceKeys(Layer layer);

// The place keys of `layer` that a state does not show: its part is absent,
// or `reports` leaves it out.
std::vector<std::string> UnshownPlaceKeys(const State& state, Layer layer,
                                          const ReportsState& reports);

// The same for an `expect.state`: keys it leaves out (a part absent, or a
// key of queue or cache absent from it).
std::vector<std::string> UnshownPlaceKeys(const nlohmann::json& expected,
                                          Layer layer);

// Whether two places are the same place (their outs aside).
bool SamePlace(const PodPlace& a, const PodPlace& b);

// A place in one line: "backoffQ until 3500 (attempts 1, nominated n1)",
// then "; out: ..." when the step's out says something about the pod.
std::string FormatPlace(const PodPlace& place);

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_POD_PLACE_H_
