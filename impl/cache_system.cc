// Placeholder until the cache layer's implementation lands (issue 4).
#include <memory>

#include "impl/system.h"

namespace schedtrace::impl {
namespace {

class UnimplementedCache : public System {
 public:
  absl::Status Configure(const TraceHeader&) override {
    return absl::UnimplementedError(
        "impl: the cache layer is not implemented yet");
  }
  absl::StatusOr<StepOut> Apply(const Step&) override {
    return absl::UnimplementedError("impl: cache layer");
  }
  State Snapshot() const override { return State{}; }
};

}  // namespace

std::unique_ptr<System> NewCacheSystem() {
  return std::make_unique<UnimplementedCache>();
}

}  // namespace schedtrace::impl
