#include "run/driven_system.h"

#include <utility>

namespace schedtrace {

absl::Status DrivenSystem::Configure(const TraceHeader& header,
                                     bool snapshots) {
  snapshots_ = snapshots;
  ended_ = false;
  has_after_ = false;
  steps_ = 0;
  out_ = StepOut{};
  absl::Status s = system_->Configure(header);
  if (s.ok() && snapshots_) {
    system_->SnapshotInto(after_);  // the first step's `before`
    has_after_ = true;
  }
  return s;
}

const absl::StatusOr<StepOut>& DrivenSystem::Apply(const Step& step,
                                                   bool snapshot) {
  if (has_after_) std::swap(before_, after_);
  has_after_ = false;
  ++steps_;
  out_ = system_->Apply(step);
  const bool fatal = out_.ok() && out_->fatal;
  if (fatal) ended_ = true;
  // After a refusal too: a refused step changed nothing, which a comparison
  // of the states checks. After a fatal step only when asked for (an
  // expectation that shows the state anyway).
  if ((snapshots_ && !fatal) || snapshot) {
    system_->SnapshotInto(after_);
    has_after_ = true;
  }
  return out_;
}

}  // namespace schedtrace
