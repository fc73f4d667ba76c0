// The queue layer's System: applies each queue-layer op of the spec to a
// model PriorityQueue, with the nominator's pod lister the spec's
// `nominatorPodLister: "queue-ops"` describes.
#include <map>
#include <memory>
#include <set>

#include "absl/strings/str_cat.h"
#include "core/refill.h"
#include "core/upstream_versions.h"
#include "model/backend_queue.h"
#include "model/fatal.h"
#include "model/queue.h"
#include "model/system.h"

namespace schedtrace::model {
namespace {

class QueueSystem : public SnapshotIntoSystem {
 public:
  explicit QueueSystem(std::optional<Upstream> profile)
      : profile_(std::move(profile)) {}

  absl::Status Configure(const TraceHeader& header) override {
    if (header.layer != Layer::kQueue) {
      return absl::InvalidArgumentError("model: not a queue-layer trace");
    }
    lister_view_.clear();
    last_popped_.clear();
    exited_ = false;
    PodLister lister;
    if (header.config.nominator_pod_lister == "queue-ops") {
      lister = [this](const std::string& key) -> PodPtr {
        auto it = lister_view_.find(key);
        return it == lister_view_.end() ? nullptr : it->second;
      };
    }
    absl::StatusOr<Upstream> up = ProfileFor(header, profile_);
    if (!up.ok()) return up.status();
    up_ = *up;
    queue_.reset();
    backend_.reset();
    carried_.clear();
    if (up->backend_queue || up->queueing_hints) {
      backend_ = std::make_unique<BackendQueue>(header.config, lister, *up);
    } else {
      queue_ = std::make_unique<PriorityQueue>(header.config, lister, *up);
    }
    return absl::OkStatus();
  }

  absl::StatusOr<StepOut> Apply(const Step& step) override {
    if (queue_ == nullptr && backend_ == nullptr) {
      return absl::FailedPreconditionError("model: Apply before Configure");
    }
    if (exited_) {
      return absl::FailedPreconditionError(
          "model: the queue panicked at an earlier step");
    }
    StepOut out;
    absl::Status s;
    if (backend_ != nullptr) {
      backend_->SetNow(step.t);
      s = DispatchBackend(step, out);
      if (!backend_->Panic().ok()) s = backend_->Panic();
    } else {
      queue_->SetNow(step.t);
      s = Dispatch(step, out);
      if (!queue_->Panic().ok()) s = queue_->Panic();
    }
    if (IsFatal(s)) {
      exited_ = true;
      return StepOut{.fatal = true};
    }
    if (absl::IsInvalidArgument(s)) return s;  // not applicable at all
    if (!s.ok()) out.error = true;
    return out;
  }

  void SnapshotInto(State& state) const override {
    state.cache.reset();
    state.waiting.reset();
    state.parked.reset();
    if (backend_ != nullptr) {
      backend_->SnapshotQueueInto(Engage(state.queue));
      backend_->SnapshotNominatedInto(Engage(state.nominated));
      return;
    }
    if (queue_ == nullptr) {
      state.queue.reset();
      state.nominated.reset();
      return;
    }
    queue_->SnapshotQueueInto(Engage(state.queue));
    queue_->SnapshotNominatedInto(Engage(state.nominated));
  }

 private:
  // q_pop's out, and the popped pod kept for q_add_unschedulable.
  void Popped(const std::shared_ptr<QueuedPodInfo>& p, StepOut& out) {
    out.popped_present = true;
    if (p == nullptr) return;
    out.popped = p->pod().Key();
    out.attempts = p->attempts;
    last_popped_[p->pod().Key()] = p;
  }

  // q_add_unschedulable's QueuedPodInfo: the latest pop of its key.
  absl::StatusOr<std::shared_ptr<QueuedPodInfo>> LastPopped(
      const Step& step) const {
    auto it = last_popped_.find(step.pod_key);
    if (it == last_popped_.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(std::string(OpName(step.op)), ": ", step.pod_key,
                       " was never popped"));
    }
    return it->second;
  }

  // q_move_all's precheck: exactly the listed keys pass; absent, a nil
  // check (everything passes).
  static PreEnqueueCheck PrecheckOf(const Step& step) {
    if (!step.precheck) return nullptr;
    std::set<std::string> allowed(step.precheck->begin(), step.precheck->end());
    return [allowed](const Pod& pod) { return allowed.contains(pod.Key()); };
  }

  absl::Status Dispatch(const Step& step, StepOut& out) {
    PriorityQueue& q = *queue_;
    switch (step.op) {
      case Op::kQAdd:
        lister_view_[step.pod->Key()] = step.pod;
        return q.Add(step.pod);
      case Op::kQUpdate:
        lister_view_[step.new_pod->Key()] = step.new_pod;
        return q.Update(step.old_pod, step.new_pod);
      case Op::kQDelete:
        lister_view_.erase(step.pod->Key());
        return q.Delete(step.pod);
      case Op::kQPop:
        Popped(q.Pop(), out);
        return absl::OkStatus();
      case Op::kQAddUnschedulable: {
        absl::StatusOr<std::shared_ptr<QueuedPodInfo>> popped =
            LastPopped(step);
        if (!popped.ok()) return popped.status();
        const std::shared_ptr<QueuedPodInfo>& p = *popped;
        p->unschedulable_plugins =
            std::set<std::string>(step.plugins.begin(), step.plugins.end());
        p->unschedulable_plugins_nil = false;
        return q.AddUnschedulableIfNotPresent(
            p, step.cycle.value_or(q.SchedulingCycle()));
      }
      case Op::kQActivate:
        q.Activate(step.pods);
        return absl::OkStatus();
      case Op::kQMoveAll: {
        const PreEnqueueCheck check = PrecheckOf(step);
        q.MoveAllToActiveOrBackoffQueue(step.event, check);
        return absl::OkStatus();
      }
      case Op::kQAssignedPodAdded:
        lister_view_[step.pod->Key()] = step.pod;
        q.AssignedPodAdded(step.pod);
        return absl::OkStatus();
      case Op::kQAssignedPodUpdated:
        lister_view_[step.pod->Key()] = step.pod;
        q.AssignedPodUpdated(step.pod);
        return absl::OkStatus();
      case Op::kQNominate:
        q.AddNominatedPod(
            std::make_shared<PodInfo>(step.pod),
            NominatingInfo{NominatingMode::kOverride, step.nominated_node});
        return absl::OkStatus();
      case Op::kFlushBackoff:
        q.flushBackoffQCompleted();
        return absl::OkStatus();
      case Op::kFlushUnschedulable:
        q.flushUnschedulablePodsLeftover();
        return absl::OkStatus();
      case Op::kQDone: {
        // v1.30.12's Done returns at once with SchedulerQueueingHints off;
        // v1.25.12 and v1.26.7 have no Done (E14).
        absl::StatusOr<std::shared_ptr<QueuedPodInfo>> popped =
            LastPopped(step);
        if (!popped.ok()) return popped.status();
        if (!UpstreamAtLeast(up_.version, "v1.30.12")) {
          return absl::InvalidArgumentError(
              absl::StrCat("q_done is not applicable in ", up_.version,
                           ": its queue has no Done"));
        }
        return absl::OkStatus();
      }
      default:
        return absl::InvalidArgumentError(absl::StrCat(
            "model queue system: op ", std::string(OpName(step.op)),
            " is not a queue-layer op"));
    }
  }

  // The queue of v1.35 and later (BackendQueue), with the ops mapped as
  // upstream's event handlers call it: q_assigned_pod_added and
  // q_assigned_pod_updated move pods with the assigned pod's events
  // (AssignedPodAdded and AssignedPodUpdated with QueueingHints off), and
  // the old object of q_assigned_pod_updated is the latest object the trace
  // carried for that key (the pod itself for a key never carried).
  absl::Status DispatchBackend(const Step& step, StepOut& out) {
    BackendQueue& q = *backend_;
    auto carry = [this](const PodPtr& pod) {
      if (pod != nullptr) carried_[pod->Key()] = pod;
    };
    switch (step.op) {
      case Op::kQAdd:
        carry(step.pod);
        lister_view_[step.pod->Key()] = step.pod;
        q.Add(step.pod);
        return absl::OkStatus();
      case Op::kQUpdate:
        carry(step.old_pod);
        carry(step.new_pod);
        lister_view_[step.new_pod->Key()] = step.new_pod;
        return q.Update(step.old_pod, step.new_pod);
      case Op::kQDelete:
        carry(step.pod);
        lister_view_.erase(step.pod->Key());
        q.Delete(step.pod);
        return absl::OkStatus();
      case Op::kQPop:
        Popped(q.Pop(), out);
        return absl::OkStatus();
      case Op::kQAddUnschedulable: {
        absl::StatusOr<std::shared_ptr<QueuedPodInfo>> popped =
            LastPopped(step);
        if (!popped.ok()) return popped.status();
        const std::shared_ptr<QueuedPodInfo>& p = *popped;
        p->unschedulable_plugins =
            std::set<std::string>(step.plugins.begin(), step.plugins.end());
        p->pending_plugins.clear();
        return q.AddUnschedulablePodIfNotPresent(
            p, step.cycle.value_or(q.SchedulingCycle()));
      }
      case Op::kQActivate:
        q.Activate(step.pods);
        return absl::OkStatus();
      case Op::kQMoveAll: {
        // The objects the step carries (E14), nil where absent.
        const PreEnqueueCheck check = PrecheckOf(step);
        q.MoveAllToActiveOrBackoffQueue(
            ToQueueEvent(step.event),
            EventObjects{step.old_pod, step.new_pod, step.old_node,
                         step.new_node},
            check);
        return absl::OkStatus();
      }
      case Op::kQDone: {
        // upstream: Done(uid) of the pod the latest pop of the key returned.
        absl::StatusOr<std::shared_ptr<QueuedPodInfo>> popped =
            LastPopped(step);
        if (!popped.ok()) return popped.status();
        q.Done((*popped)->pod().uid);
        return absl::OkStatus();
      }
      case Op::kQAssignedPodAdded:
        carry(step.pod);
        lister_view_[step.pod->Key()] = step.pod;
        // upstream: Scheduler.addAssignedPodToCache.
        if (!up_.queueing_hints) {
          q.AssignedPodAdded(step.pod);
          return absl::OkStatus();
        }
        q.MoveAllToActiveOrBackoffQueue(
            QueueEvent{"AssignedPod", action::kAdd, "AssignedPodAdd"},
            EventObjects{nullptr, step.pod}, nullptr);
        return absl::OkStatus();
      case Op::kQAssignedPodUpdated: {
        auto it = carried_.find(step.pod->Key());
        const PodPtr old = it == carried_.end() ? step.pod : it->second;
        carry(step.pod);
        lister_view_[step.pod->Key()] = step.pod;
        // upstream: Scheduler.updatePodInCache.
        for (const QueueEvent& ev :
             PodSchedulingPropertiesChange(*step.pod, *old, false, up_)) {
          if (!up_.queueing_hints) {
            q.AssignedPodUpdated(old, step.pod, ev);
            continue;
          }
          q.MoveAllToActiveOrBackoffQueue(ev, EventObjects{old, step.pod},
                                          nullptr);
        }
        return absl::OkStatus();
      }
      case Op::kQNominate:
        carry(step.pod);
        q.AddNominatedPod(
            std::make_shared<PodInfo>(step.pod),
            NominatingInfo{NominatingMode::kOverride, step.nominated_node});
        return absl::OkStatus();
      case Op::kFlushBackoff:
        q.flushBackoffQCompleted();
        return absl::OkStatus();
      case Op::kFlushUnschedulable:
        q.flushUnschedulableEntitiesLeftover();
        return absl::OkStatus();
      default:
        return absl::InvalidArgumentError(absl::StrCat(
            "model queue system: op ", std::string(OpName(step.op)),
            " is not a queue-layer op"));
    }
  }

  std::optional<Upstream> profile_;
  std::unique_ptr<PriorityQueue> queue_;
  std::unique_ptr<BackendQueue> backend_;
  std::map<std::string, PodPtr> carried_;
  Upstream up_;
  std::map<std::string, PodPtr> lister_view_;
  std::map<std::string, std::shared_ptr<QueuedPodInfo>> last_popped_;
  bool exited_ = false;
};

}  // namespace

std::unique_ptr<System> NewQueueSystem(std::optional<Upstream> profile) {
  return std::make_unique<QueueSystem>(std::move(profile));
}

}  // namespace schedtrace::model
