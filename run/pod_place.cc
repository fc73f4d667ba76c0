#include "run/pod_place.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace schedtrace {
namespace {

using nlohmann::json;

// How a reader calls the state keys that place a pod.
std::string KeyName(const std::string& key) {
  if (key == "queue.active") return "activeQ";
  if (key == "queue.backoff") return "backoffQ";
  if (key == "queue.unschedulable") return "unschedulablePods";
  if (key == "cache.nodes") return "cache nodes";
  if (key == "cache.assumed") return "assumed pods";
  if (key == "waiting") return "waiting";
  if (key == "parked") return "parked";
  return key;
}

// The keys that hold a pod somewhere (nominations and bindingFinished only
// qualify a place).
constexpr const char* kHoldingKeys[] = {
    "queue.active", "queue.backoff", "queue.unschedulable",
    "cache.nodes",  "cache.assumed", "waiting",
    "parked"};

bool PartOf(const State& state, const std::string& key) {
  if (key.rfind("queue.", 0) == 0) return state.queue.has_value();
  if (key.rfind("cache.", 0) == 0) return state.cache.has_value();
  if (key == "nominated") return state.nominated.has_value();
  if (key == "waiting") return state.waiting.has_value();
  if (key == "parked") return state.parked.has_value();
  return false;
}

// Places pods in one state, by the keys it shows; one method per part.
class Placer {
 public:
  Placer(const State& state, const std::vector<std::string>& unshown)
      : state_(state), unshown_(unshown) {
    for (const char* key : kHoldingKeys) {
      if (Shown(key)) {
        shown_holding_.push_back(KeyName(key));
      } else if (PartOf(state, key) || absl::c_linear_search(unshown, key)) {
        unshown_holding_.push_back(KeyName(key));
      }
    }
  }

  // Places pod `key` into `p` (a pod named twice is placed twice over).
  void Place(const std::string& key, const std::set<std::string>& in_flight,
             PodPlace& p) const {
    if (shown_holding_.empty()) {
      p.where = kPlaceUnknown;
      return;
    }
    Nominations(key, p);
    QueueEntries(key, p);
    CycleAndCache(key, p);
    if (!p.places.empty()) {
      p.where = absl::StrJoin(p.places, " + ");
    } else if (!unshown_holding_.empty()) {
      p.where =
          absl::StrCat("not in ", absl::StrJoin(shown_holding_, ", "), " (",
                       absl::StrJoin(unshown_holding_, ", "), " not shown)");
    } else if (in_flight.contains(key)) {
      p.where = kPlaceInFlight;
    } else {
      p.where = kPlaceGone;
    }
  }

 private:
  bool Shown(const char* key) const {
    return PartOf(state_, key) && !absl::c_linear_search(unshown_, key);
  }

  void Nominations(const std::string& key, PodPlace& p) const {
    if (!Shown("nominated")) return;
    for (const auto& [node, keys] : *state_.nominated) {
      if (!absl::c_linear_search(keys, key)) continue;
      const std::string name = node.empty() ? "\"\"" : node;
      p.nominated =
          p.nominated.empty() ? name : absl::StrCat(p.nominated, " + ", name);
    }
  }

  // The queues: every entry of the pod, with its attempts.
  void QueueEntries(const std::string& key, PodPlace& p) const {
    std::vector<std::pair<std::string, int>> entries;
    if (Shown("queue.active")) {
      const std::vector<QueuedPod>& active = state_.queue->active;
      for (size_t i = 0; i < active.size(); ++i) {
        if (active[i].pod != key) continue;
        entries.emplace_back(absl::StrCat("activeQ #", i + 1),
                             active[i].attempts);
      }
    }
    if (Shown("queue.backoff")) {
      for (const QueuedPod& e : state_.queue->backoff) {
        if (e.pod != key) continue;
        entries.emplace_back(
            absl::StrCat("backoffQ until ", e.backoff_expires_at), e.attempts);
      }
    }
    if (Shown("queue.unschedulable")) {
      for (const QueuedPod& e : state_.queue->unschedulable) {
        if (e.pod != key) continue;
        std::string where = "unschedulable";
        if (!e.plugins.empty()) {
          absl::StrAppend(&where, " [", absl::StrJoin(e.plugins, ", "), "]");
        }
        if (e.gated) absl::StrAppend(&where, " (gated)");
        entries.emplace_back(std::move(where), e.attempts);
      }
    }
    bool same_attempts = true;
    for (const auto& [where, attempts] : entries) {
      same_attempts = same_attempts && attempts == entries[0].second;
    }
    for (const auto& [where, attempts] : entries) {
      p.places.push_back(
          same_attempts ? where
                        : absl::StrCat(where, " (attempts ", attempts, ")"));
    }
    if (!entries.empty() && same_attempts) p.attempts = entries[0].second;
  }

  // A cache node counting the pod.
  struct OnNode {
    std::string name;
    bool present;
    int times;  // how often its pods list holds the pod (once, normally)
  };

  std::vector<OnNode> NodesCounting(const std::string& key) const {
    std::vector<OnNode> nodes;
    if (!Shown("cache.nodes")) return nodes;
    for (const NodeInfoState& n : state_.cache->nodes) {
      const auto times = std::count(n.pods.begin(), n.pods.end(), key);
      if (times > 0) {
        nodes.push_back({n.name, n.present, static_cast<int>(times)});
      }
    }
    return nodes;
  }

  // The scheduling and binding cycle, and the cache: every node counting
  // the pod, whether it is assumed and its binding finished.
  void CycleAndCache(const std::string& key, PodPlace& p) const {
    const std::vector<OnNode> nodes = NodesCounting(key);
    const bool assumed_shown = Shown("cache.assumed");
    const bool assumed =
        assumed_shown && absl::c_linear_search(state_.cache->assumed, key);
    const bool finished =
        Shown("cache.bindingFinished") &&
        absl::c_linear_search(state_.cache->binding_finished, key);
    const bool waiting =
        Shown("waiting") && absl::c_linear_search(*state_.waiting, key);
    const bool parked =
        Shown("parked") && absl::c_linear_search(*state_.parked, key);
    // A pod waiting or parked is normally assumed on one node, its binding
    // not finished: "waiting on Permit (n1)" says all of it. Anything else
    // is shown place by place.
    const bool absorbed = (waiting || parked) && assumed && !finished &&
                          nodes.size() == 1 && nodes[0].present &&
                          nodes[0].times == 1;
    const std::string in =
        absorbed ? absl::StrCat(" (", nodes[0].name, ")") : "";
    if (waiting) p.places.push_back(absl::StrCat("waiting on Permit", in));
    if (parked) p.places.push_back(absl::StrCat("parked before bind", in));
    if (absorbed) return;
    for (const OnNode& n : nodes) {
      std::string where = absl::StrCat(assumed         ? "assumed on "
                                       : assumed_shown ? "bound on "
                                                       : "on ",
                                       n.name);
      if (assumed && finished) absl::StrAppend(&where, " (binding finished)");
      // A NodeInfo without its node: the node was never added, or removed
      // while pods remained (the node view says which).
      if (!n.present) absl::StrAppend(&where, " (placeholder node)");
      if (n.times > 1)
        absl::StrAppend(&where, " (counted ", n.times, " times)");
      p.places.push_back(std::move(where));
    }
    if (nodes.empty() && assumed) {
      p.places.push_back(Shown("cache.nodes") ? "assumed (on no node)"
                                              : "assumed");
    }
    if (finished && !assumed) p.places.push_back("binding finished");
  }

  const State& state_;
  const std::vector<std::string>& unshown_;
  std::vector<std::string> shown_holding_, unshown_holding_;
};

}  // namespace

std::vector<std::string> PlaceKeys(Layer layer) {
  switch (layer) {
    case Layer::kQueue:
      return {"queue.active", "queue.backoff", "queue.unschedulable",
              "nominated"};
    case Layer::kCache:
      return {"cache.nodes", "cache.assumed", "cache.bindingFinished"};
    case Layer::kScheduler:
      return {
          "queue.active", "queue.backoff", "queue.unschedulable",   "nominated",
          "cache.nodes",  "cache.assumed", "cache.bindingFinished", "waiting",
          "parked"};
  }
  return {};
}

std::vector<std::string> UnshownPlaceKeys(const State& state, Layer layer,
                                          const ReportsState& reports) {
  std::vector<std::string> unshown;
  for (const std::string& key : PlaceKeys(layer)) {
    if (!PartOf(state, key) || (reports && !reports(key))) {
      unshown.push_back(key);
    }
  }
  return unshown;
}

std::vector<std::string> UnshownPlaceKeys(const json& expected, Layer layer) {
  std::vector<std::string> unshown;
  for (const std::string& key : PlaceKeys(layer)) {
    const size_t dot = key.find('.');
    const std::string part = key.substr(0, dot);
    bool shown = expected.is_object() && expected.contains(part);
    if (shown && dot != std::string::npos) {
      const json& p = expected[part];
      shown = p.is_object() && p.contains(key.substr(dot + 1));
    }
    if (!shown) unshown.push_back(key);
  }
  return unshown;
}

std::map<std::string, PodPlace> PlacesOf(
    const State& state, const std::vector<std::string>& pods,
    const std::set<std::string>& in_flight) {
  return PlacesOf(state, pods, in_flight, {});
}

std::map<std::string, PodPlace> PlacesOf(
    const State& state, const std::vector<std::string>& pods,
    const std::set<std::string>& in_flight,
    const std::vector<std::string>& unshown) {
  const Placer placer(state, unshown);
  std::map<std::string, PodPlace> places;
  for (const std::string& key : pods) placer.Place(key, in_flight, places[key]);
  return places;
}

bool SamePlace(const PodPlace& a, const PodPlace& b) {
  return a.where == b.where && a.attempts == b.attempts &&
         a.nominated == b.nominated && a.note == b.note;
}

std::string FormatPlace(const PodPlace& place) {
  std::string s = place.where;
  std::vector<std::string> notes;
  if (place.attempts) {
    notes.push_back(absl::StrCat("attempts ", *place.attempts));
  }
  if (!place.nominated.empty()) {
    notes.push_back(absl::StrCat("nominated ", place.nominated));
  }
  if (!place.note.empty()) notes.push_back(place.note);
  if (!notes.empty()) {
    absl::StrAppend(&s, " (", absl::StrJoin(notes, ", "), ")");
  }
  if (!place.out.empty()) absl::StrAppend(&s, "; out: ", place.out);
  return s;
}

}  // namespace schedtrace
