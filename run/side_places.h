// One side of a timeline (run/timeline.h) across steps: what persists
// between its snapshots. A pod popped in the queue layer stays in flight
// until it shows up again or is deleted; a pod no step named yet is "not
// added yet" rather than "gone"; a pod deleted stays "deleted at step N";
// a removal the side answered with an error did not delete it ("its
// removal at step N was refused (error)").
// And since which step each pod has been where it is.
//
//   SidePlaces side(pods, /*queue_layer=*/true);
//   std::map<std::string, PodPlace> now =
//       side.After(step_no, step, popped, attempts, &state, unshown);
#ifndef SCHEDTRACE_RUN_SIDE_PLACES_H_
#define SCHEDTRACE_RUN_SIDE_PLACES_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/state.h"
#include "core/trace.h"
#include "run/pod_place.h"

namespace schedtrace {

class SidePlaces {
 public:
  // `pods` (the pods followed) must outlive this.
  SidePlaces(const std::vector<std::string>& pods, bool queue_layer)
      : pods_(pods), queue_layer_(queue_layer) {}

  // Records step `step_no` (what it names, what it popped: `popped` with
  // its `attempts`; `refused`: this side's out for it says `error`, so a
  // removal it asked for did not happen), then, when `state` is given,
  // places the pods in it (PlacesOf, by what `unshown` leaves), read with
  // what the side remembers. Without a state: no places.
  std::map<std::string, PodPlace> After(
      int step_no, const Step& step, const std::string& popped,
      std::optional<int> attempts, bool refused, const State* state,
      const std::vector<std::string>& unshown);

 private:
  void Record(int step_no, const Step& step, const std::string& popped,
              std::optional<int> attempts, bool refused);
  // What the side remembers about `key`, added to its place in the state.
  void Annotate(const std::string& key, PodPlace& place);

  const std::vector<std::string>& pods_;
  bool queue_layer_;
  std::set<std::string> named_, seen_, in_flight_;
  std::map<std::string, int> flight_attempts_, popped_at_, deleted_at_;
  std::map<std::string, int> refused_at_;  // a removal answered with error
};

// Since which step each pod has been where it is on one side (its place,
// outs aside: SamePlace).
class PlaceSince {
 public:
  // The step since which each pod of `places` has been there, `places`
  // being those after step `step_no`.
  std::map<std::string, int> After(
      int step_no, const std::map<std::string, PodPlace>& places);

 private:
  std::map<std::string, std::pair<PodPlace, int>> last_;
};

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_SIDE_PLACES_H_
