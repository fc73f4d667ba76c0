#include "core/layered_system.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace schedtrace {
namespace {

class LayeredSystem : public System {
 public:
  LayeredSystem(std::string name, SystemFactory queue, SystemFactory cache,
                SystemFactory scheduler)
      : name_(std::move(name)),
        queue_(std::move(queue)),
        cache_(std::move(cache)),
        scheduler_(std::move(scheduler)) {}

  absl::Status Configure(const TraceHeader& header) override {
    switch (header.layer) {
      case Layer::kQueue:
        layer_ = queue_();
        break;
      case Layer::kCache:
        layer_ = cache_();
        break;
      case Layer::kScheduler:
        layer_ = scheduler_();
        break;
    }
    return layer_->Configure(header);
  }

  absl::StatusOr<StepOut> Apply(const Step& step) override {
    if (layer_ == nullptr) {
      return absl::FailedPreconditionError(
          absl::StrCat(name_, ": Apply before Configure"));
    }
    // The same refusal for model and impl, before either sees the step.
    if (absl::Status s = CheckUpdateNamesOneObject(step); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(name_, ": ", s.message()));
    }
    return layer_->Apply(step);
  }

  State Snapshot() const override {
    return layer_ == nullptr ? State{} : layer_->Snapshot();
  }

  void SnapshotInto(State& out) const override {
    if (layer_ == nullptr) {
      out = State{};
      return;
    }
    layer_->SnapshotInto(out);
  }

  void Touched(StateTouch& out) const override {
    if (layer_ == nullptr) return out.SetAll();
    layer_->Touched(out);
  }

  void RefreshInto(State& out, const StateTouch& touch) const override {
    if (layer_ == nullptr) {
      out = State{};
      return;
    }
    layer_->RefreshInto(out, touch);
  }

 private:
  std::string name_;
  SystemFactory queue_, cache_, scheduler_;
  std::unique_ptr<System> layer_;
};

}  // namespace

std::unique_ptr<System> NewLayeredSystem(std::string name, SystemFactory queue,
                                         SystemFactory cache,
                                         SystemFactory scheduler) {
  return std::make_unique<LayeredSystem>(std::move(name), std::move(queue),
                                         std::move(cache),
                                         std::move(scheduler));
}

}  // namespace schedtrace
