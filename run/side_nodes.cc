#include "run/side_nodes.h"

#include <algorithm>
#include <optional>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "core/op_table.h"
#include "run/step_summary.h"

namespace schedtrace {
namespace {

bool HasNode(Op op) { return SpecOf(op).HasKind(ArgKind::kNodeObject); }

// The ttl in nanoseconds as upstream holds it: a time.Duration made by
// multiplying milliseconds, wrapping as Go's int64 multiplication does.
int64_t WrappedNs(int64_t ms) {
  return static_cast<int64_t>(static_cast<uint64_t>(ms) * 1000000u);
}

// now + ttl in whole milliseconds (rounded down), as upstream's
// time.Time.Add computes it: exactly, without wrapping.
int64_t DeadlineMs(int64_t now_ms, int64_t ttl_ns) {
  __int128 ms = ttl_ns / 1000000;
  if (ttl_ns % 1000000 < 0) --ms;
  const __int128 sum = static_cast<__int128>(now_ms) + ms;
  if (sum > INT64_MAX) return INT64_MAX;
  if (sum < INT64_MIN) return INT64_MIN;
  return static_cast<int64_t>(sum);
}

}  // namespace

std::vector<std::string> StepNodeNames(const Step& step) {
  std::vector<std::string> names;
  auto add = [&names](const std::string& name) {
    if (!name.empty() && !absl::c_linear_search(names, name))
      names.push_back(name);
  };
  for (const NodePtr& n : {step.node, step.old_node, step.new_node}) {
    if (n != nullptr) add(n->name);
  }
  for (const PodPtr& p : {step.pod, step.old_pod, step.new_pod}) {
    if (p != nullptr) add(p->node_name);
  }
  return names;
}

SideNodes::SideNodes(const std::vector<std::string>& nodes, int64_t ttl_ms,
                     bool deadlines)
    : nodes_(nodes), ttl_ns_(WrappedNs(ttl_ms)), say_deadlines_(deadlines) {}

std::map<std::string, NodePlace> SideNodes::After(
    int step_no, const Step& step, bool refused, const State* state,
    const std::vector<std::string>& unshown) {
  Record(step_no, step, refused);
  if (state == nullptr) return {};
  if (say_deadlines_) TrackDeadlines(step, *state, unshown);
  std::map<std::string, NodePlace> places;
  for (const std::string& node : nodes_) {
    NodePlace p = NodePlaceIn(*state, node, unshown, deadlines_);
    Annotate(node, p);
    places[node] = std::move(p);
  }
  return places;
}

void SideNodes::Record(int step_no, const Step& step, bool refused) {
  for (const std::string& name : StepNodeNames(step)) named_.insert(name);
  if (!HasNode(step.op)) return;
  const Effect effect = SpecOf(step.op).effect;
  for (const NodePtr& n : {step.node, step.new_node}) {
    if (n == nullptr) continue;
    if (effect == Effect::kPuts && !refused) {
      added_.insert(n->name);
      removed_at_.erase(n->name);
      refused_at_.erase(n->name);
    } else if (effect == Effect::kRemoves && refused) {
      refused_at_[n->name] = step_no;
    } else if (effect == Effect::kRemoves) {
      removed_at_[n->name] = step_no;
      refused_at_.erase(n->name);
    }
  }
}

void SideNodes::TrackDeadlines(const Step& step, const State& state,
                               const std::vector<std::string>& unshown) {
  if (!state.cache || absl::c_linear_search(unshown, "cache.bindingFinished"))
    return;
  const std::vector<std::string>& finished = state.cache->binding_finished;
  std::erase_if(deadlines_, [&finished](const auto& kv) {
    return !absl::c_linear_search(finished, kv.first);
  });
  const std::vector<std::string> named = step.op == Op::kCFinishBinding
                                             ? StepPodKeys(step)
                                             : std::vector<std::string>{};
  for (const std::string& pod : finished) {
    // upstream: cacheImpl.finishBinding, `dl := now.Add(cache.ttl)`; a
    // second FinishBinding moves the deadline.
    if (deadlines_.contains(pod) && !absl::c_linear_search(named, pod))
      continue;
    deadlines_[pod] = ttl_ns_ == 0
                          ? std::nullopt
                          : std::optional<int64_t>(DeadlineMs(step.t, ttl_ns_));
  }
}

void SideNodes::Annotate(const std::string& node, NodePlace& place) const {
  auto removed = removed_at_.find(node);
  auto refused = refused_at_.find(node);
  std::string note;
  if (place.where == kNodePlaceholder) {
    note = removed != removed_at_.end()
               ? absl::StrCat("removed at step ", removed->second,
                              " while pods remained")
           : !added_.contains(node) ? "never added: only its pods point at it"
                                    : "";
  } else if (place.where == kNodeNotInCache) {
    if (removed != removed_at_.end()) {
      place.where = absl::StrCat("removed at step ", removed->second);
    } else if (!named_.contains(node)) {
      place.where = "not added yet";
    }
  }
  if (refused != refused_at_.end()) {
    absl::StrAppend(&note, note.empty() ? "" : "; ", "its removal at step ",
                    refused->second,
                    place.where == kNodePresent
                        ? " was refused (error): the node stays"
                        : " returned an error");
  }
  place.note = std::move(note);
}

}  // namespace schedtrace
