#include "run/side_places.h"

#include "absl/strings/str_cat.h"
#include "core/op_table.h"
#include "run/step_summary.h"

namespace schedtrace {
namespace {

// Ops after which a pod they carry is gone (the op table's kRemoves).
bool IsDelete(Op op) {
  const OpSpec& spec = SpecOf(op);
  return spec.effect == Effect::kRemoves && spec.HasKind(ArgKind::kPodObject);
}

// Ops after which a pod they carry exists again (a deleted one re-added):
// the op table's kPuts.
bool AddsOrUpdates(Op op) {
  const OpSpec& spec = SpecOf(op);
  return spec.effect == Effect::kPuts && spec.HasKind(ArgKind::kPodObject);
}

}  // namespace

std::map<std::string, PodPlace> SidePlaces::After(
    int step_no, const Step& step, const std::string& popped,
    std::optional<int> attempts, bool refused, const State* state,
    const std::vector<std::string>& unshown) {
  Record(step_no, step, popped, attempts, refused);
  if (state == nullptr) return {};
  std::map<std::string, PodPlace> places =
      PlacesOf(*state, pods_, in_flight_, unshown);
  for (auto& [key, place] : places) Annotate(key, place);
  return places;
}

void SidePlaces::Record(int step_no, const Step& step,
                        const std::string& popped, std::optional<int> attempts,
                        bool refused) {
  for (const std::string& k : StepPodKeys(step)) {
    named_.insert(k);
    if (IsDelete(step.op) && refused) {
      refused_at_[k] = step_no;
    } else if (IsDelete(step.op)) {
      deleted_at_[k] = step_no;
      refused_at_.erase(k);
      in_flight_.erase(k);
      popped_at_.erase(k);
    } else if (AddsOrUpdates(step.op) && !refused) {
      deleted_at_.erase(k);
      refused_at_.erase(k);
    }
  }
  if (!popped.empty()) {
    named_.insert(popped);
    popped_at_[popped] = step_no;
    if (queue_layer_) in_flight_.insert(popped);
    if (attempts) flight_attempts_[popped] = *attempts;
  }
}

void SidePlaces::Annotate(const std::string& key, PodPlace& place) {
  auto refused = refused_at_.find(key);
  auto deleted = deleted_at_.find(key);
  auto popped_at = popped_at_.find(key);
  if (place.where == kPlaceInFlight) {
    auto a = flight_attempts_.find(key);
    if (a != flight_attempts_.end() && !place.attempts) {
      place.attempts = a->second;
    }
    if (popped_at != popped_at_.end()) {
      place.note = absl::StrCat("popped at step ", popped_at->second);
    }
    return;
  }
  if (!place.places.empty()) {
    seen_.insert(key);
    in_flight_.erase(key);
    flight_attempts_.erase(key);
    popped_at_.erase(key);
    if (deleted != deleted_at_.end()) {
      place.note = absl::StrCat("deleted at step ", deleted->second);
    }
    if (refused != refused_at_.end()) {
      absl::StrAppend(&place.note, place.note.empty() ? "" : "; ",
                      "its removal at step ", refused->second,
                      " was refused (error)",
                      deleted == deleted_at_.end() ? ": it stays" : "");
    }
    return;
  }
  if (place.where != kPlaceGone) {  // "?", "not in ...": the side cannot say
    if (deleted != deleted_at_.end()) {
      place.note = absl::StrCat("deleted at step ", deleted->second);
    }
    return;
  }
  if (deleted != deleted_at_.end()) {
    place.where = absl::StrCat("deleted at step ", deleted->second);
  } else if (popped_at != popped_at_.end()) {
    place.where = "in no queue";
    place.note = absl::StrCat("popped at step ", popped_at->second);
  } else if (!named_.contains(key)) {
    place.where = kPlaceNotYet;
  } else if (!seen_.contains(key)) {
    place.where = "not in the state";
  }
}

std::map<std::string, int> PlaceSince::After(
    int step_no, const std::map<std::string, PodPlace>& places) {
  std::map<std::string, int> since;
  for (const auto& [pod, place] : places) {
    auto it = last_.find(pod);
    if (it == last_.end() || !SamePlace(it->second.first, place)) {
      last_[pod] = {place, step_no};
    }
    since[pod] = last_[pod].second;
  }
  return since;
}

}  // namespace schedtrace
