#include "model/system.h"

#include <memory>
#include <utility>

namespace schedtrace::model {
namespace {

class LayeredSystem : public System {
 public:
  absl::Status Configure(const TraceHeader& header) override {
    switch (header.layer) {
      case Layer::kQueue:
        layer_ = NewQueueSystem();
        break;
      case Layer::kCache:
        layer_ = NewCacheSystem();
        break;
      case Layer::kScheduler:
        layer_ = NewSchedulerSystem();
        break;
    }
    return layer_->Configure(header);
  }

  absl::StatusOr<StepOut> Apply(const Step& step) override {
    if (layer_ == nullptr) {
      return absl::FailedPreconditionError("model: Apply before Configure");
    }
    return layer_->Apply(step);
  }

  State Snapshot() const override {
    return layer_ == nullptr ? State{} : layer_->Snapshot();
  }

 private:
  std::unique_ptr<System> layer_;
};

}  // namespace

std::unique_ptr<System> NewSystem() { return std::make_unique<LayeredSystem>(); }

}  // namespace schedtrace::model
