// The scheduler layer's System over impl::Scheduler: applies each
// scheduler-layer op of the spec and reports what it emitted; after a step
// where upstream exits (out.fatal) it refuses further steps.
#include <memory>
#include <optional>

#include "impl/scheduler.h"
#include "impl/system.h"
#include "impl/upstream.h"

namespace schedtrace::impl {
namespace {

class SchedulerSystem : public SnapshotIntoSystem {
 public:
  absl::Status Configure(const TraceHeader& header) override {
    if (header.layer != Layer::kScheduler) {
      return absl::InvalidArgumentError("impl: not a scheduler-layer trace");
    }
    scheduler_.reset();
    absl::StatusOr<Upstream> up = UpstreamFor(header);
    if (!up.ok()) return up.status();
    scheduler_ = std::make_unique<Scheduler>(header.config, *up);
    up_ = *up;
    exited_ = false;
    return absl::OkStatus();
  }

  absl::StatusOr<StepOut> Apply(const Step& step) override {
    if (scheduler_ == nullptr) {
      return absl::FailedPreconditionError("impl: not configured");
    }
    scheduler_->ForgetTouched();
    if (exited_) {
      return absl::FailedPreconditionError(
          "impl: the scheduler exited at an earlier step");
    }
    if (absl::Status r = RefuseUnsummableRequests(step, up_); !r.ok()) {
      return r;
    }
    Scheduler& s = *scheduler_;
    s.SetNow(step.t);
    bool alive = true;
    switch (step.op) {
      case Op::kPodAdd:
        alive = s.OnPodAdd(step.pod);
        break;
      case Op::kPodUpdate:
        alive = s.OnPodUpdate(step.old_pod, step.new_pod);
        break;
      case Op::kPodDelete:
        alive = s.OnPodDelete(step.pod, step.tombstone);
        break;
      case Op::kNodeAdd:
        alive = s.OnNodeAdd(step.node);
        break;
      case Op::kNodeUpdate:
        alive = s.OnNodeUpdate(step.old_node, step.new_node);
        break;
      case Op::kNodeDelete:
        alive = s.OnNodeDelete(step.node);
        break;
      case Op::kClusterEvent:
        alive = s.OnClusterEvent(step.event.resource, step.event.action,
                                 step.wait_for_first_consumer);
        break;
      case Op::kFlushBackoff:
        alive = s.FlushBackoff();
        break;
      case Op::kFlushUnschedulable:
        alive = s.FlushUnschedulable();
        break;
      case Op::kScheduleOne:
        alive = s.ScheduleOne(step.reserve, step.permit);
        break;
      case Op::kPermitAllow:
        alive = s.PermitAllow(step.pod_key);
        break;
      case Op::kPermitReject:
        alive = s.PermitReject(step.pod_key);
        break;
      case Op::kBind:
        alive = s.Bind(step.pod_key, step.prebind_ok, step.bind_ok);
        break;
      default:
        return absl::InvalidArgumentError(
            "impl scheduler system: not a scheduler-layer op");
    }
    StepOut out = s.TakeOut();
    if (!alive || s.QueuePanicked()) {
      exited_ = true;
      return StepOut{.fatal = true};
    }
    return out;
  }

  // The queue's parts, waiting and parked as touched whatever the step (they
  // are rewritten whole); the cache's NodeInfos and lists as it says.
  void Touched(StateTouch& t) const override {
    if (scheduler_ == nullptr) return t.SetAll();
    scheduler_->Touched(t);
  }

  void RefreshInto(State& s, const StateTouch& t) const override {
    if (scheduler_ == nullptr || !s.cache) return SnapshotInto(s);
    scheduler_->RefreshInto(s, t);
  }

  void SnapshotInto(State& s) const override {
    if (scheduler_ == nullptr) {
      s = State{};
      return;
    }
    scheduler_->SnapshotInto(s);
  }

 private:
  std::unique_ptr<Scheduler> scheduler_;
  Upstream up_;
  bool exited_ = false;
};

}  // namespace

std::unique_ptr<System> NewSchedulerSystem() {
  return std::make_unique<SchedulerSystem>();
}

}  // namespace schedtrace::impl
