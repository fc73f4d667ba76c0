#include "core/delegating_system.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace schedtrace {

absl::Status DelegatingSystem::Delegate(std::unique_ptr<System> inner,
                                        const TraceHeader& header) {
  inner_ = std::move(inner);
  return inner_->Configure(header);
}

absl::StatusOr<StepOut> DelegatingSystem::Apply(const Step& step) {
  if (inner_ == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat(name_, ": Apply before Configure"));
  }
  return inner_->Apply(step);
}

State DelegatingSystem::Snapshot() const {
  return inner_ == nullptr ? State{} : inner_->Snapshot();
}

void DelegatingSystem::SnapshotInto(State& out) const {
  if (inner_ == nullptr) {
    out = State{};
    return;
  }
  inner_->SnapshotInto(out);
}

void DelegatingSystem::Touched(StateTouch& out) const {
  if (inner_ == nullptr) return out.SetAll();
  inner_->Touched(out);
}

void DelegatingSystem::RefreshInto(State& out, const StateTouch& touch) const {
  if (inner_ == nullptr) {
    out = State{};
    return;
  }
  inner_->RefreshInto(out, touch);
}

}  // namespace schedtrace
