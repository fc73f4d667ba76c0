// The framework of model::Scheduler's profiles: the functions of upstream's
// pkg/scheduler/framework/runtime/framework.go the scheduling and binding
// cycles call beyond the plugins themselves (model/filters.h).
#include <optional>
#include <string>
#include <utility>

#include "model/filters.h"
#include "model/scheduler.h"

namespace schedtrace::model {

// framework.go: (*frameworkImpl).RunFilterPluginsWithNominatedPods: the
// filters run with the nominated pods addNominatedPods adds, and again
// without them when that passed.
FilterStatus Scheduler::RunFilterPluginsWithNominatedPods(
    const Pod& pod, const NodeInfo& info) const {
  std::optional<NodeInfo> with_nominated = addNominatedPods(pod, info);
  FilterStatus status =
      RunFilterPlugins(pod, with_nominated ? *with_nominated : info, up_);
  if (with_nominated && status.ok()) status = RunFilterPlugins(pod, info, up_);
  return status;
}

// framework.go: addNominatedPods: a copy of `info` with the pods nominated to
// its node of equal or higher priority than `pod` (other than `pod`);
// nullopt when there are none. No PreFilter plugin has AddPod extensions.
std::optional<NodeInfo> Scheduler::addNominatedPods(
    const Pod& pod, const NodeInfo& info) const {
  std::optional<NodeInfo> out;
  const std::string& name = info.node()->name;
  for (const auto& pi : backend_ != nullptr
                            ? backend_->NominatedPodsForNode(name)
                            : queue_->NominatedPodsForNode(name)) {
    if (pi->pod->Priority() >= pod.Priority() && pi->pod->uid != pod.uid) {
      if (!out) out.emplace(info);
      out->AddPod(pi->pod, up_);
    }
  }
  return out;
}

std::string Scheduler::PermitPluginName() const {
  auto it = config_.plugins.find("permit");
  return it == config_.plugins.end() || it->second.empty() ? "TracePermit"
                                                           : it->second.front();
}

// framework.go: (*frameworkImpl).RejectWaitingPod: the waiting pod's
// binding cycle wakes with an Unschedulable status and runs its failure path
// once the handler has returned.
bool Scheduler::RejectWaitingPod(const std::string& profile,
                                 const std::string& uid,
                                 const std::string& plugin) {
  auto& waiting = waiting_[profile];
  auto it = waiting.find(uid);
  if (it == waiting.end()) return false;
  BindingCycle cycle = std::move(it->second);
  waiting.erase(it);  // upstream: WaitOnPermit's deferred remove
  continuations_.push_back([this, cycle, plugin]() {
    return handleBindingCycleError(
        cycle, CycleStatus{/*unschedulable=*/true, "rejected", plugin});
  });
  return true;
}

}  // namespace schedtrace::model
