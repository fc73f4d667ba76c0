// Placeholder until the queue layer's implementation lands (issue 4).
#include <memory>

#include "impl/system.h"

namespace schedtrace::impl {
namespace {

class UnimplementedQueue : public System {
 public:
  absl::Status Configure(const TraceHeader&) override {
    return absl::UnimplementedError(
        "impl: the queue layer is not implemented yet");
  }
  absl::StatusOr<StepOut> Apply(const Step&) override {
    return absl::UnimplementedError("impl: queue layer");
  }
  State Snapshot() const override { return State{}; }
};

}  // namespace

std::unique_ptr<System> NewQueueSystem() {
  return std::make_unique<UnimplementedQueue>();
}

}  // namespace schedtrace::impl
