#include "run/driven_system.h"

#include <utility>

namespace schedtrace {

absl::Status DrivenSystem::Configure(const TraceHeader& header,
                                     bool snapshots) {
  snapshots_ = snapshots;
  ended_ = false;
  has_after_ = false;
  before_follows_ = false;
  steps_ = 0;
  out_ = StepOut{};
  touch_.SetAll();
  absl::Status s = system_->Configure(header);
  if (s.ok() && snapshots_) {
    system_->SnapshotInto(after_);  // the first step's `before`
    has_after_ = true;
  }
  return s;
}

const absl::StatusOr<StepOut>& DrivenSystem::Apply(const Step& step,
                                                   bool snapshot) {
  // after_ holds the state after the last step; once swapped, it holds the
  // state two steps back when the step before the last took a snapshot
  // too, and what to refresh is what the two steps since touched.
  const bool two_back = has_after_ && before_follows_;
  before_follows_ = has_after_;
  if (has_after_) std::swap(before_, after_);
  has_after_ = false;
  ++steps_;
  std::swap(last_touch_, touch_);  // touch_ is overwritten below
  out_ = system_->Apply(step);
  const bool fatal = out_.ok() && out_->fatal;
  if (fatal) ended_ = true;
  // After a refusal too: a refused step changed nothing, which a comparison
  // of the states checks. After a fatal step only when asked for (an
  // expectation that shows the state anyway).
  const bool take = (snapshots_ && !fatal) || snapshot;
  // What the step touched is read only with a snapshot (the refresh, the
  // comparison and the check all come with one): a run that takes none,
  // as the bench runner's, pays nothing for it.
  if (steps_ == 1 || !take) {
    touch_.SetAll();  // nothing is known to be equal before the first step
  } else {
    system_->Touched(touch_);
  }
  if (take) {
    if (two_back && !touch_.all() && !last_touch_.all()) {
      last_touch_.Add(touch_);
      system_->RefreshInto(after_, last_touch_);
    } else {
      system_->SnapshotInto(after_);
    }
    has_after_ = true;
  }
  return out_;
}

}  // namespace schedtrace
