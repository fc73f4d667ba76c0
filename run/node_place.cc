#include "run/node_place.h"

#include <algorithm>
#include <string>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace schedtrace {

NodePlace NodePlaceIn(const State& state, const std::string& node,
                      const std::vector<std::string>& unshown,
                      const Deadlines& deadlines) {
  NodePlace p;
  if (!state.cache) {
    p.where = kNodeUnknown;
    return p;
  }
  if (absl::c_linear_search(unshown, "cache.nodes")) {
    p.where = "cache.nodes not shown";
    return p;
  }
  const CacheState& cache = *state.cache;
  auto it =
      std::find_if(cache.nodes.begin(), cache.nodes.end(),
                   [&node](const NodeInfoState& n) { return n.name == node; });
  if (it == cache.nodes.end()) {
    p.where = kNodeNotInCache;
    return p;
  }
  p.held = true;
  p.where = it->present ? kNodePresent : kNodePlaceholder;
  p.requested = it->requested;
  const bool assumed_shown = !absl::c_linear_search(unshown, "cache.assumed");
  const bool finished_shown =
      !absl::c_linear_search(unshown, "cache.bindingFinished");
  for (const std::string& pod : it->pods) {
    std::vector<std::string> about;
    const bool assumed =
        assumed_shown && absl::c_linear_search(cache.assumed, pod);
    const bool finished =
        finished_shown && absl::c_linear_search(cache.binding_finished, pod);
    if (assumed) about.push_back("assumed");
    if (finished) {
      about.push_back("binding finished");
      // upstream: cacheImpl.finishBinding sets the deadline, and
      // cleanupAssumedPods expires only assumed pods whose binding
      // finished, and only with a ttl.
      auto d = deadlines.find(pod);
      if (assumed && d != deadlines.end()) {
        about.push_back(d->second ? absl::StrCat("deadline t=", *d->second)
                                  : "never expires (ttl 0)");
      }
    } else if (assumed && finished_shown) {
      about.push_back("binding not finished");
    }
    p.pods.push_back(
        about.empty()
            ? pod
            : absl::StrCat(pod, " (", absl::StrJoin(about, ", "), ")"));
  }
  return p;
}

std::string FormatRequested(const Resources& requested) {
  if (requested.empty()) return "nothing";
  std::vector<std::string> parts;
  for (const auto& [name, amount] : requested) {
    parts.push_back(absl::StrCat(name, ":", amount));
  }
  return absl::StrJoin(parts, " ");
}

std::string FormatNodePlace(const NodePlace& place) {
  std::string s = place.where;
  if (place.held) {
    absl::StrAppend(
        &s, "; requested ", FormatRequested(place.requested), "; ",
        place.pods.empty()
            ? std::string("no pods")
            : absl::StrCat("pods ", absl::StrJoin(place.pods, ", ")));
  }
  if (!place.note.empty()) absl::StrAppend(&s, "; ", place.note);
  return s;
}

}  // namespace schedtrace
