#include "core/layered_system.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "core/delegating_system.h"

namespace schedtrace {
namespace {

class LayeredSystem : public DelegatingSystem {
 public:
  LayeredSystem(std::string name, SystemFactory queue, SystemFactory cache,
                SystemFactory scheduler)
      : DelegatingSystem(std::move(name)),
        queue_(std::move(queue)),
        cache_(std::move(cache)),
        scheduler_(std::move(scheduler)) {}

  absl::Status Configure(const TraceHeader& header) override {
    switch (header.layer) {
      case Layer::kQueue:
        return Delegate(queue_(), header);
      case Layer::kCache:
        return Delegate(cache_(), header);
      case Layer::kScheduler:
        return Delegate(scheduler_(), header);
    }
    return absl::InvalidArgumentError(absl::StrCat(name(), ": no layer"));
  }

  absl::StatusOr<StepOut> Apply(const Step& step) override {
    // The same refusal for model and impl, before either sees the step.
    if (absl::Status s = CheckUpdateNamesOneObject(step); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(name(), ": ", s.message()));
    }
    return DelegatingSystem::Apply(step);
  }

 private:
  SystemFactory queue_, cache_, scheduler_;
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
