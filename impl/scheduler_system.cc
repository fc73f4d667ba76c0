// Placeholder until the scheduler layer's implementation lands (issue 4).
#include <memory>

#include "impl/system.h"

namespace schedtrace::impl {
namespace {

class UnimplementedScheduler : public System {
 public:
  absl::Status Configure(const TraceHeader&) override {
    return absl::UnimplementedError(
        "impl: the scheduler layer is not implemented yet");
  }
  absl::StatusOr<StepOut> Apply(const Step&) override {
    return absl::UnimplementedError("impl: scheduler layer");
  }
  State Snapshot() const override { return State{}; }
};

}  // namespace

std::unique_ptr<System> NewSchedulerSystem() {
  return std::make_unique<UnimplementedScheduler>();
}

}  // namespace schedtrace::impl
