// Where a cache node stands in one State, in one line a reader can compare
// across the two sides of a timeline (run/timeline.h): whether the cache
// holds it as a node (present) or only as a placeholder (a NodeInfo
// without its node: pods point at it, the node never added or removed
// while they remained), its requested resources, its pods and, for each
// assumed pod, whether its binding finished and its deadline. Like pod
// places (run/pod_place.h) it reads only a State, so it works for any
// system; a side that does not show `cache.nodes` places no node.
//
//   NodePlace p = NodePlaceIn(state, "n1", /*unshown=*/{}, deadlines);
//   FormatNodePlace(p);
//   // "present; requested cpu:300; pods default/a (assumed, binding
//   //  finished, deadline t=30500), default/b"
#ifndef SCHEDTRACE_RUN_NODE_PLACE_H_
#define SCHEDTRACE_RUN_NODE_PLACE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/state.h"

namespace schedtrace {

// Where one node is after a step, as one side showed it.
struct NodePlace {
  // "present", "placeholder" (a NodeInfo without its node), "not in the
  // cache", or what the side shows instead: "cache.nodes not shown", "?"
  // (no state at all). SideNodes (run/side_nodes.h) words the rest.
  std::string where;
  bool held = false;  // the cache holds a NodeInfo by this name
  Resources requested;
  // Its pods in the snapshot's order, each with what the cache says about
  // it: "default/a (assumed, binding finished, deadline t=30500)",
  // "default/b" (added, not assumed).
  std::vector<std::string> pods;
  // What the trace says about the node beyond the state: "never added",
  // "removed at step 5", "its removal at step 5 was refused (error)".
  std::string note;
  bool operator==(const NodePlace&) const = default;
};

inline constexpr char kNodePresent[] = "present";
inline constexpr char kNodePlaceholder[] = "placeholder";
inline constexpr char kNodeNotInCache[] = "not in the cache";
inline constexpr char kNodeUnknown[] = "?";

// An assumed pod's deadline, as the side's snapshots tell it: the `t` of
// the step its binding finished at plus the cache's ttl; nullopt: it never
// expires (a ttl of 0).
using Deadlines = std::map<std::string, std::optional<int64_t>>;

// Where `node` is in `state`: by `cache.nodes`, its pods qualified by
// `cache.assumed` and `cache.bindingFinished` (each only when shown: not
// in `unshown`), a finished pod's deadline from `deadlines`.
NodePlace NodePlaceIn(const State& state, const std::string& node,
                      const std::vector<std::string>& unshown,
                      const Deadlines& deadlines);

// Requested resources in one phrase: "cpu:300 memory:1048576" (the
// snapshot's units: millicores for cpu), "nothing" when empty.
std::string FormatRequested(const Resources& requested);

// A node place in one line: "present; requested cpu:300; pods default/a
// (assumed)"; a placeholder says what it is ("placeholder (never added:
// only its pods point at it)"); then "; " and the note.
std::string FormatNodePlace(const NodePlace& place);

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_NODE_PLACE_H_
