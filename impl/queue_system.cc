// The queue layer's System over impl::PriorityQueue: applies each queue-layer
// op of the spec's table and keeps the nominator's pod lister
// (`nominatorPodLister: "queue-ops"`).
#include <memory>
#include <optional>

#include "harness/refill.h"
#include "impl/queue.h"
#include "impl/system.h"

namespace schedtrace::impl {
namespace {

class QueueSystem : public SnapshotIntoSystem {
 public:
  absl::Status Configure(const TraceHeader& header) override {
    if (header.layer != Layer::kQueue) {
      return absl::InvalidArgumentError("impl: not a queue-layer trace");
    }
    queue_.emplace(header.config);
    exited_ = false;
    return absl::OkStatus();
  }

  absl::StatusOr<StepOut> Apply(const Step& step) override {
    if (!queue_) return absl::FailedPreconditionError("impl: not configured");
    if (exited_) {
      return absl::FailedPreconditionError(
          "impl: the queue panicked at an earlier step");
    }
    PriorityQueue& q = *queue_;
    q.SetNow(step.t);
    QueueResult r = QueueResult::kOk;
    StepOut out;
    switch (step.op) {
      case Op::kQAdd:
        q.ListerSet(step.pod);
        r = q.Add(step.pod);
        break;
      case Op::kQUpdate:
        q.ListerSet(step.new_pod);
        r = q.Update(step.old_pod, step.new_pod);
        break;
      case Op::kQDelete:
        q.ListerDelete(*step.pod);
        r = q.Delete(step.pod);
        break;
      case Op::kQPop: {
        out.popped_present = true;
        if (std::optional<PriorityQueue::Popped> p = q.Pop()) {
          out.popped = p->key;
          out.attempts = p->attempts;
        }
        break;
      }
      case Op::kQAddUnschedulable:
        if (!q.WasPopped(step.pod_key)) {
          return absl::InvalidArgumentError(
              "impl: q_add_unschedulable of a pod never popped: " +
              step.pod_key);
        }
        r = q.AddUnschedulableIfNotPresent(step.pod_key, step.plugins,
                                           step.cycle);
        break;
      case Op::kQActivate:
        q.Activate(step.pods);
        break;
      case Op::kQMoveAll:
        q.MoveAllToActiveOrBackoffQueue(step.event, step.precheck);
        break;
      case Op::kQAssignedPodAdded:
        q.ListerSet(step.pod);
        q.AssignedPodAdded(step.pod);
        break;
      case Op::kQAssignedPodUpdated:
        q.ListerSet(step.pod);
        q.AssignedPodUpdated(step.pod);
        break;
      case Op::kQNominate:
        q.AddNominatedPodOverride(step.pod, step.nominated_node);
        break;
      case Op::kFlushBackoff:
        q.FlushBackoffQCompleted();
        break;
      case Op::kFlushUnschedulable:
        q.FlushUnschedulablePodsLeftover();
        break;
      default:
        return absl::InvalidArgumentError(
            "impl queue system: not a queue-layer op");
    }
    out.error = r == QueueResult::kError;
    out.fatal = r == QueueResult::kFatal;
    exited_ = out.fatal;
    return out;
  }

  void SnapshotInto(State& s) const override {
    s.cache.reset();
    s.waiting.reset();
    s.parked.reset();
    if (queue_) {
      queue_->SnapshotQueueInto(Engage(s.queue));
      queue_->SnapshotNominatedInto(Engage(s.nominated));
    } else {
      s.queue = QueueState{};
      s.nominated = Nominated{};
    }
  }

 private:
  std::optional<PriorityQueue> queue_;
  bool exited_ = false;
};

}  // namespace

std::unique_ptr<System> NewQueueSystem() {
  return std::make_unique<QueueSystem>();
}

}  // namespace schedtrace::impl
