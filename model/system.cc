#include "model/system.h"

#include "harness/layered_system.h"

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

}  // namespace schedtrace::model
