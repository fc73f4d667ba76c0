#include "properties/inputs.h"

#include <algorithm>
#include <initializer_list>

namespace schedtrace::properties {
namespace {

constexpr std::string_view kActive = "queue.active";
constexpr std::string_view kBackoff = "queue.backoff";
constexpr std::string_view kUnschedulable = "queue.unschedulable";
constexpr std::string_view kSchedulingCycle = "queue.schedulingCycle";
constexpr std::string_view kMoveRequestCycle = "queue.moveRequestCycle";
constexpr std::string_view kNominated = "nominated";
constexpr std::string_view kNodes = "cache.nodes";
constexpr std::string_view kAssumed = "cache.assumed";
constexpr std::string_view kWaiting = "waiting";
constexpr std::string_view kParked = "parked";

// Everything each property reads, on the scheduler layer (which has every
// part); the other layers read the part of it their state has.
//  1: the three queues (after; the matchers: before too, and the History's
//     gated adds while queued).
//  2: the queues and the assumed pods, before and after.
//  3: the queues after.
//  4: waiting before and after, assumed after; the History's deletes while
//     waiting (waiting before).
//  5: the queues, waiting, parked, assumed after.
//  6: the NodeInfos after (the requests come from the steps).
//  7: activeQ before (the pop), activeQ and backoffQ after, and the objects
//     the queue entries hold (History::QueuedObject), followed through the
//     queues and, on the scheduler layer, the assumed pods (updates of
//     assumed pods are dropped).
//  8: the two cycles, before and after.
//  9: the nominations after; the matchers: the nominations before (the
//     History's uid changes and deletes while nominated) and the queue's
//     objects those compare (the queues and the assumed pods).
// 10: the queues, waiting and parked after; the matchers: the assumed pods
//     (an assumed pod added again).
// 11: unschedulablePods, the NodeInfos and the nominations, before and
//     after; the objects the queue entries hold and the nominated pods'
//     (the queues and the assumed pods).
std::vector<std::string_view> AllInputs(int id) {
  switch (id) {
    case 1:
      return {kActive, kBackoff, kUnschedulable};
    case 2:
      return {kActive, kBackoff, kUnschedulable, kAssumed};
    case 3:
      return {kActive, kBackoff, kUnschedulable};
    case 4:
      return {kWaiting, kAssumed};
    case 5:
      return {kActive, kBackoff, kUnschedulable, kWaiting, kParked, kAssumed};
    case 6:
      return {kNodes};
    case 7:
      return {kActive, kBackoff, kUnschedulable, kAssumed};
    case 8:
      return {kSchedulingCycle, kMoveRequestCycle};
    case 9:
      return {kNominated, kActive, kBackoff, kUnschedulable, kAssumed};
    case 10:
      return {kActive, kBackoff, kUnschedulable, kWaiting, kParked, kAssumed};
    case 11:
      return {kActive, kBackoff, kUnschedulable, kNodes, kNominated, kAssumed};
  }
  return {};
}

// Whether `layer`'s state has the part of `path`.
bool InLayer(std::string_view path, Layer layer) {
  const std::string_view part = path.substr(0, path.find('.'));
  switch (layer) {
    case Layer::kQueue:
      return part == "queue" || part == "nominated";
    case Layer::kCache:
      return part == "cache";
    case Layer::kScheduler:
      return true;
  }
  return false;
}

}  // namespace

bool PropertyApplies(int id, Layer layer) {
  switch (layer) {
    case Layer::kScheduler:
      return id >= 1 && id <= 11;
    case Layer::kQueue:
      return id == 1 || id == 7 || id == 8 || id == 10;
    case Layer::kCache:
      return id == 6;
  }
  return false;
}

std::vector<std::string> PropertyInputs(int id, Layer layer) {
  std::vector<std::string> inputs;
  if (!PropertyApplies(id, layer)) return inputs;
  for (std::string_view path : AllInputs(id)) {
    if (InLayer(path, layer)) inputs.emplace_back(path);
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

std::vector<Unchecked> UncheckedProperties(Layer layer, const Shown& shown) {
  std::vector<Unchecked> unchecked;
  if (!shown) return unchecked;
  for (int id = 1; id <= 11; ++id) {
    Unchecked u{id, {}};
    for (std::string& path : PropertyInputs(id, layer)) {
      if (!shown(path)) u.needs.push_back(std::move(path));
    }
    if (!u.needs.empty()) unchecked.push_back(std::move(u));
  }
  return unchecked;
}

}  // namespace schedtrace::properties
