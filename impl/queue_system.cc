// The queue layer's System over impl::PriorityQueue: applies each queue-layer
// op of the spec's table, keeps the nominator's pod lister
// (`nominatorPodLister: "queue-ops"`), and plays the caller upstream's queue
// has: it holds the QueuedPodInfo each Pop returned, which the trace's
// q_add_unschedulable names by pod key, and turns q_move_all's key list into
// the queue's PreEnqueueCheck. From v1.35 the queue is impl::BackendQueue,
// its ops mapped as the model's queue system maps them.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "core/refill.h"
#include "core/upstream_versions.h"
#include "impl/backend_queue.h"
#include "impl/cache.h"
#include "impl/queue.h"
#include "impl/queueing_hints.h"
#include "impl/system.h"
#include "impl/upstream.h"

namespace schedtrace::impl {
namespace {

class QueueSystem : public SnapshotIntoSystem {
 public:
  absl::Status Configure(const TraceHeader& header) override {
    if (header.layer != Layer::kQueue) {
      return absl::InvalidArgumentError("impl: not a queue-layer trace");
    }
    last_popped_.clear();  // handles of the queue replaced below
    queue_.reset();
    backend_.reset();
    carried_.clear();
    absl::StatusOr<Upstream> up = UpstreamFor(header);
    if (!up.ok()) return up.status();
    version_ = up->version;
    if (up->queueing_hints) {
      backend_ = std::make_unique<BackendQueue>(header.config, *up);
      // The plugins' own hint functions (hint "plugin", E14), with a cache
      // that only interns the scalar resources they compare.
      hint_cache_ = std::make_unique<Cache>(0, *up);
      backend_->SetHintEvaluator(
          [cache = hint_cache_.get(), up = *up](HintFn fn, const Pod& pod,
                                                const EventObjects& objects) {
            return EvaluateHint(fn, pod, objects, *cache, up);
          });
    } else {
      queue_.emplace(header.config, *up);  // the header's map, as it is
    }
    exited_ = false;
    return absl::OkStatus();
  }

  absl::StatusOr<StepOut> Apply(const Step& step) override {
    if (backend_ != nullptr) {
      marks_ = backend_->Marks();
      if (exited_) {
        return absl::FailedPreconditionError(
            "impl: the queue panicked at an earlier step");
      }
      return ApplyBackend(step);
    }
    if (!queue_) return absl::FailedPreconditionError("impl: not configured");
    marks_ = queue_->Marks();
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
        if (std::optional<PriorityQueue::Handle> h = q.PopHandle()) {
          std::string key = q.HandlePod(*h)->Key();
          out.attempts = q.HandleAttempts(*h);
          KeepPopped(q, key, *h);
          out.popped = std::move(key);
        }
        break;
      }
      case Op::kQAddUnschedulable: {
        auto it = last_popped_.find(step.pod_key);
        if (it == last_popped_.end()) {
          return absl::InvalidArgumentError(
              "impl: q_add_unschedulable of a pod never popped: " +
              step.pod_key);
        }
        // upstream's caller replaces the popped QueuedPodInfo's plugins.
        q.SetHandlePlugins(it->second, step.plugins);
        r = q.AddUnschedulableIfNotPresent(
            it->second, step.cycle.value_or(q.SchedulingCycle()));
        break;
      }
      case Op::kQActivate:
        q.Activate(step.pods);
        break;
      case Op::kQMoveAll:
        q.MoveAllToActiveOrBackoffQueue(step.event, PrecheckOf(step.precheck));
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
      case Op::kQDone:
        // v1.30.12's Done does nothing with SchedulerQueueingHints off;
        // v1.25.12 and v1.26.7 have none.
        if (!last_popped_.contains(step.pod_key)) {
          return absl::InvalidArgumentError(
              "impl: q_done of a pod never popped: " + step.pod_key);
        }
        if (!UpstreamAtLeast(version_, "v1.30.12")) {
          return absl::InvalidArgumentError(
              "impl: q_done is not applicable in " + version_ +
              ": its queue has no Done");
        }
        break;
      default:
        return absl::InvalidArgumentError(
            "impl queue system: not a queue-layer op");
    }
    if (r == QueueResult::kFatal || q.Panicked()) {
      exited_ = true;
      return StepOut{.fatal = true};
    }
    out.error = r == QueueResult::kError;
    return out;
  }

  // The lists, cycles and nominations the last step changed.
  void Touched(StateTouch& t) const override {
    if (backend_ != nullptr) {
      t.Clear();
      return backend_->AddTouched(marks_, t);
    }
    if (!queue_) return t.SetAll();
    t.Clear();
    queue_->AddTouched(marks_, t);
  }

  void RefreshInto(State& s, const StateTouch& t) const override {
    if (backend_ != nullptr && s.queue && s.nominated && !s.cache) {
      backend_->RefreshQueueInto(*s.queue, t);
      if (t.Touches(StateTouch::kNominated)) {
        backend_->SnapshotNominatedInto(*s.nominated);
      }
      return;
    }
    if (!queue_ || !s.queue || !s.nominated || s.cache) return SnapshotInto(s);
    queue_->RefreshQueueInto(*s.queue, t);
    if (t.Touches(StateTouch::kNominated)) {
      queue_->SnapshotNominatedInto(*s.nominated);
    }
  }

  void SnapshotInto(State& s) const override {
    s.cache.reset();
    s.waiting.reset();
    s.parked.reset();
    if (backend_ != nullptr) {
      backend_->SnapshotQueueInto(Engage(s.queue));
      backend_->SnapshotNominatedInto(Engage(s.nominated));
    } else if (queue_) {
      queue_->SnapshotQueueInto(Engage(s.queue));
      queue_->SnapshotNominatedInto(Engage(s.nominated));
    } else {
      s.queue = QueueState{};
      s.nominated = Nominated{};
    }
  }

 private:
  // The ops on the queue of v1.35 and later, as upstream's event handlers
  // call it: q_assigned_pod_added and q_assigned_pod_updated are moves with
  // the assigned pod's events, the old object of q_assigned_pod_updated the
  // latest object the trace carried for that key (the pod itself for a key
  // never carried).
  absl::StatusOr<StepOut> ApplyBackend(const Step& step) {
    BackendQueue& q = *backend_;
    q.SetNow(step.t);
    auto carry = [this](const PodPtr& pod) {
      if (pod != nullptr) carried_[pod->Key()] = pod;
    };
    QueueResult r = QueueResult::kOk;
    StepOut out;
    switch (step.op) {
      case Op::kQAdd:
        carry(step.pod);
        q.ListerSet(step.pod);
        q.Add(step.pod);
        break;
      case Op::kQUpdate:
        carry(step.old_pod);
        carry(step.new_pod);
        q.ListerSet(step.new_pod);
        r = q.Update(step.old_pod, step.new_pod);
        break;
      case Op::kQDelete:
        carry(step.pod);
        q.ListerDelete(*step.pod);
        q.Delete(*step.pod);
        break;
      case Op::kQPop: {
        out.popped_present = true;
        if (std::optional<BackendQueue::Handle> h = q.PopHandle()) {
          std::string key = q.HandlePod(*h)->Key();
          out.attempts = q.HandleAttempts(*h);
          KeepPopped(key, *h);
          out.popped = std::move(key);
        }
        break;
      }
      case Op::kQAddUnschedulable: {
        auto it = last_popped_.find(step.pod_key);
        if (it == last_popped_.end()) {
          return absl::InvalidArgumentError(
              "impl: q_add_unschedulable of a pod never popped: " +
              step.pod_key);
        }
        q.SetHandlePlugins(it->second, step.plugins);
        r = q.AddUnschedulablePodIfNotPresent(it->second);
        break;
      }
      case Op::kQActivate:
        q.Activate(step.pods);
        break;
      case Op::kQMoveAll:
        // The objects the event carries (E14): the default and scripted
        // hints read none, and a wildcard event's new pod skips every
        // other pod.
        q.MoveAllToActiveOrBackoffQueue(
            q.TraceEvent(step.event),
            {step.old_pod, step.new_pod, step.old_node, step.new_node},
            PrecheckOf(step.precheck));
        break;
      case Op::kQDone: {
        auto it = last_popped_.find(step.pod_key);
        if (it == last_popped_.end()) {
          return absl::InvalidArgumentError(
              "impl: q_done of a pod never popped: " + step.pod_key);
        }
        q.DoneHandle(it->second);
        break;
      }
      case Op::kQAssignedPodAdded:
        carry(step.pod);
        q.ListerSet(step.pod);
        // upstream: Scheduler.addAssignedPodToCache.
        q.MoveAllToActiveOrBackoffQueue(q.AssignedPodAddEvent(),
                                        {.new_pod = step.pod}, nullptr);
        break;
      case Op::kQAssignedPodUpdated: {
        auto it = carried_.find(step.pod->Key());
        const PodPtr old = it == carried_.end() ? step.pod : it->second;
        carry(step.pod);
        q.ListerSet(step.pod);
        // upstream: Scheduler.updatePodInCache.
        q.PodSchedulingPropertiesChange(*step.pod, *old, false, events_);
        for (BackendQueue::EventId e : events_) {
          q.MoveAllToActiveOrBackoffQueue(
              e, {.old_pod = old, .new_pod = step.pod}, nullptr);
        }
        break;
      }
      case Op::kQNominate:
        carry(step.pod);
        q.AddNominatedPodOverride(step.pod, step.nominated_node);
        break;
      case Op::kFlushBackoff:
        q.FlushBackoffQCompleted();
        break;
      case Op::kFlushUnschedulable:
        q.FlushUnschedulableEntitiesLeftover();
        break;
      default:
        return absl::InvalidArgumentError(
            "impl queue system: not a queue-layer op");
    }
    if (r == QueueResult::kFatal || q.Panicked()) {
      exited_ = true;
      return StepOut{.fatal = true};
    }
    out.error = r == QueueResult::kError;
    return out;
  }

  // The last Pop of `key` returned h (BackendQueue): as KeepPopped below.
  void KeepPopped(const std::string& key, BackendQueue::Handle h) {
    auto [it, inserted] = last_popped_.try_emplace(key, h);
    if (inserted) return;
    const BackendQueue::Handle old = it->second;
    it->second = h;
    backend_->Release(old);
  }

  // The last Pop of `key` returned h: the System holds h (the queue's
  // reference moved to it) in place of the handle it held before.
  void KeepPopped(PriorityQueue& q, const std::string& key,
                  PriorityQueue::Handle h) {
    auto [it, inserted] = last_popped_.try_emplace(key, h);
    if (inserted) return;
    const PriorityQueue::Handle old = it->second;
    it->second = h;
    q.Release(old);
  }

  // q_move_all's precheck, the keys of the pods it lets through (nullopt:
  // no check), as the queue's PreEnqueueCheck.
  std::function<bool(const Pod&)> PrecheckOf(
      const std::optional<std::vector<std::string>>& keys) {
    if (!keys) return nullptr;
    precheck_keys_.clear();
    precheck_keys_.insert(keys->begin(), keys->end());
    return [this](const Pod& pod) {
      key_buf_.assign(pod.namespace_);  // pod.Key() without allocating
      key_buf_.push_back('/');
      key_buf_.append(pod.name);
      return precheck_keys_.contains(key_buf_);
    };
  }

  std::optional<PriorityQueue> queue_;
  std::unique_ptr<BackendQueue> backend_;  // the queue from v1.35 on
  std::unique_ptr<Cache> hint_cache_;      // for backend_'s hints
  // BackendQueue: key -> the latest pod object the trace carried.
  absl::flat_hash_map<std::string, PodPtr> carried_;
  BackendQueue::PodEvents events_;    // reused by q_assigned_pod_updated
  PriorityQueue::ChangeMarks marks_;  // at the last step's start
  bool exited_ = false;
  std::string version_;  // the trace's upstream version
  // pod key -> the QueuedPodInfo its last Pop returned (never dropped: a
  // q_add_unschedulable may name any pod popped before).
  absl::flat_hash_map<std::string, PriorityQueue::Handle> last_popped_;
  absl::flat_hash_set<std::string> precheck_keys_;
  std::string key_buf_;
};

}  // namespace

std::unique_ptr<System> NewQueueSystem() {
  return std::make_unique<QueueSystem>();
}

}  // namespace schedtrace::impl
