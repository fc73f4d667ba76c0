// The scheduler layer's System: applies each scheduler-layer op of the spec
// to a model::Scheduler and reports what it emitted.
#include <memory>
#include <optional>

#include "absl/strings/str_cat.h"
#include "model/fatal.h"
#include "model/scheduler.h"
#include "model/system.h"

namespace schedtrace::model {
namespace {

class SchedulerSystem : public SnapshotIntoSystem {
 public:
  explicit SchedulerSystem(std::optional<Upstream> profile)
      : profile_(std::move(profile)) {}

  absl::Status Configure(const TraceHeader& header) override {
    if (header.layer != Layer::kScheduler) {
      return absl::InvalidArgumentError("model: not a scheduler-layer trace");
    }
    absl::StatusOr<Upstream> up = ProfileFor(header, profile_);
    if (!up.ok()) return up.status();
    scheduler_ = std::make_unique<Scheduler>(header.config, *up);
    up_ = *up;
    exited_ = false;
    return absl::OkStatus();
  }

  absl::StatusOr<StepOut> Apply(const Step& step) override {
    if (scheduler_ == nullptr) {
      return absl::FailedPreconditionError("model: Apply before Configure");
    }
    if (exited_) {
      return absl::FailedPreconditionError(
          "model: the scheduler exited at an earlier step");
    }
    if (absl::Status s = CheckRequestsSummable(step, up_); !s.ok()) return s;
    scheduler_->SetNow(step.t);
    absl::Status s = Dispatch(step);
    if (!scheduler_->QueuePanic().ok()) s = scheduler_->QueuePanic();
    if (absl::IsInvalidArgument(s) && !IsFatal(s)) return s;
    StepOut out = scheduler_->TakeOut();
    if (IsFatal(s)) {
      exited_ = true;
      return StepOut{.fatal = true};
    }
    if (!s.ok()) return s;
    return out;
  }

  void SnapshotInto(State& state) const override {
    if (scheduler_ == nullptr) {
      state = State{};
      return;
    }
    scheduler_->SnapshotInto(state);
  }

 private:
  absl::Status Dispatch(const Step& step) {
    Scheduler& s = *scheduler_;
    switch (step.op) {
      case Op::kPodAdd:
        return s.OnPodAdd(step.pod);
      case Op::kPodUpdate:
        return s.OnPodUpdate(step.old_pod, step.new_pod);
      case Op::kPodDelete:
        return s.OnPodDelete(step.pod, step.tombstone);
      case Op::kNodeAdd:
        return s.OnNodeAdd(step.node);
      case Op::kNodeUpdate:
        return s.OnNodeUpdate(step.old_node, step.new_node);
      case Op::kNodeDelete:
        return s.OnNodeDelete(step.node, step.tombstone);
      case Op::kClusterEvent:
        return s.OnClusterEvent(step.event.resource, step.event.action,
                                step.wait_for_first_consumer);
      case Op::kFlushBackoff:
        return s.FlushBackoff();
      case Op::kFlushUnschedulable:
        return s.FlushUnschedulable();
      case Op::kScheduleOne:
        return s.ScheduleOne(step.reserve, step.permit);
      case Op::kPermitAllow:
        return s.PermitAllow(step.pod_key);
      case Op::kPermitReject:
        return s.PermitReject(step.pod_key);
      case Op::kBind:
        return s.Bind(step.pod_key, step.prebind_ok, step.bind_ok);
      default:
        return absl::InvalidArgumentError(absl::StrCat(
            "model scheduler system: op ", std::string(OpName(step.op)),
            " is not a scheduler-layer op"));
    }
  }

  std::optional<Upstream> profile_;
  Upstream up_;  // the profile of the trace configured
  std::unique_ptr<Scheduler> scheduler_;
  bool exited_ = false;
};

}  // namespace

std::unique_ptr<System> NewSchedulerSystem(std::optional<Upstream> profile) {
  return std::make_unique<SchedulerSystem>(std::move(profile));
}

}  // namespace schedtrace::model
