// The cache layer's System: drives one model::Cache with the spec's c_* ops
// and shows it as the spec's `cache` snapshot.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/refill.h"
#include "model/cache.h"
#include "model/cache_snapshot.h"
#include "model/fatal.h"
#include "model/system.h"

namespace schedtrace::model {
namespace {

class CacheSystem : public SnapshotIntoSystem {
 public:
  explicit CacheSystem(std::optional<Upstream> profile)
      : profile_(std::move(profile)) {}

  absl::Status Configure(const TraceHeader& header) override {
    if (header.layer != Layer::kCache) {
      return absl::InvalidArgumentError(absl::StrCat(
          "model cache system: layer ", std::string(LayerName(header.layer)),
          " is not the cache layer"));
    }
    absl::StatusOr<Upstream> up = ProfileFor(header, profile_);
    if (!up.ok()) return up.status();
    cache_.emplace(header.config.assumed_pod_ttl_ms, *up);
    up_ = *up;
    exited_ = false;
    return absl::OkStatus();
  }

  absl::StatusOr<StepOut> Apply(const Step& step) override {
    if (!cache_.has_value()) {
      return absl::FailedPreconditionError(
          "model cache system: Apply before Configure");
    }
    if (exited_) {
      return absl::FailedPreconditionError(
          "model cache system: upstream exited at an earlier step");
    }
    if (absl::Status s = CheckRequestsSummable(step, up_); !s.ok()) return s;
    std::optional<absl::Status> result = Call(step);
    if (!result.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("model cache system: op ", std::string(OpName(step.op)),
                       " is not a cache-layer op"));
    }
    StepOut out;
    if (IsFatal(*result)) {
      exited_ = true;
      out.fatal = true;
    } else if (!result->ok()) {
      out.error = true;
    }
    return out;
  }

  void SnapshotInto(State& state) const override {
    state.queue.reset();
    state.nominated.reset();
    state.waiting.reset();
    state.parked.reset();
    CacheState& cache = Engage(state.cache);
    if (cache_.has_value()) {
      SnapshotCacheInto(*cache_, cache);
    } else {
      cache = CacheState{};
    }
  }

 private:
  // The upstream call a step makes and what it gave; nullopt for an op this
  // layer does not have.
  std::optional<absl::Status> Call(const Step& step) {
    Cache& cache = *cache_;
    switch (step.op) {
      case Op::kCAssume:
        return cache.AssumePod(step.pod);
      case Op::kCFinishBinding:
        return cache.FinishBinding(step.pod, step.t);
      case Op::kCForget:
        return cache.ForgetPod(step.pod);
      case Op::kCAddPod:
        return cache.AddPod(step.pod);
      case Op::kCUpdatePod:
        return cache.UpdatePod(step.old_pod, step.new_pod);
      case Op::kCRemovePod:
        return cache.RemovePod(step.pod);
      case Op::kCAddNode:
        return cache.AddNode(step.node).status();
      case Op::kCUpdateNode:
        return cache.UpdateNode(step.old_node, step.new_node).status();
      case Op::kCRemoveNode:
        return cache.RemoveNode(step.node);
      case Op::kCCleanup:
        return cache.cleanupAssumedPods(step.t);
      default:
        return std::nullopt;
    }
  }

  std::optional<Upstream> profile_;
  Upstream up_;  // the profile of the trace configured
  std::optional<Cache> cache_;
  bool exited_ = false;  // a step was fatal: upstream's process is gone
};

}  // namespace

std::unique_ptr<System> NewCacheSystem(std::optional<Upstream> profile) {
  return std::make_unique<CacheSystem>(std::move(profile));
}

}  // namespace schedtrace::model
