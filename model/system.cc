#include "model/system.h"

#include "core/layered_system.h"

namespace schedtrace::model {

namespace {

std::unique_ptr<System> Layered(std::optional<Upstream> profile) {
  return NewLayeredSystem(
      "model", [profile] { return NewQueueSystem(profile); },
      [profile] { return NewCacheSystem(profile); },
      [profile] { return NewSchedulerSystem(profile); });
}

}  // namespace

std::unique_ptr<System> NewSystem() { return Layered(std::nullopt); }

std::unique_ptr<System> NewSystemOnProfile(Upstream profile) {
  return Layered(std::move(profile));
}

absl::StatusOr<Upstream> ProfileFor(const TraceHeader& header,
                                    const std::optional<Upstream>& forced) {
  if (forced.has_value()) return *forced;
  return UpstreamFor(header);
}

absl::Status CheckRequestsSummable(const Step& step, const Upstream& up) {
  if (!up.pod_requests_summed_as_quantities) return absl::OkStatus();
  for (const PodPtr& pod : {step.pod, step.old_pod, step.new_pod}) {
    if (pod == nullptr) continue;
    if (absl::Status s = schedtrace::CheckRequestsSummable(*pod); !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace schedtrace::model
