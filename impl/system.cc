#include "impl/system.h"

#include <memory>

#include "absl/strings/str_cat.h"

namespace schedtrace::impl {
namespace {

class NotYetImplemented : public System {
 public:
  absl::Status Configure(const TraceHeader& header) override {
    return absl::UnimplementedError(
        absl::StrCat("impl: the ", std::string(LayerName(header.layer)),
                     " layer is not implemented yet"));
  }
  absl::StatusOr<StepOut> Apply(const Step&) override {
    return absl::UnimplementedError("impl: not implemented yet");
  }
  State Snapshot() const override { return State{}; }
};

}  // namespace

std::unique_ptr<System> NewSystem() {
  return std::make_unique<NotYetImplemented>();
}

}  // namespace schedtrace::impl
