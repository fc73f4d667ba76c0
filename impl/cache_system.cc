// The cache layer's System over impl::Cache: each cache-layer op of the
// spec calls the cacheImpl method of the same name (internal/cache/cache.go);
// an error return sets out.error, klog.FlushAndExit or a panic sets
// out.fatal, after which the system refuses further steps.
#include <memory>
#include <optional>

#include "core/refill.h"
#include "impl/cache.h"
#include "impl/system.h"
#include "impl/upstream.h"

namespace schedtrace::impl {
namespace {

class CacheSystem : public SnapshotIntoSystem {
 public:
  // upstream: newCache(ttl, period, stop) (cache.go) with the header's ttl.
  absl::Status Configure(const TraceHeader& header) override {
    if (header.layer != Layer::kCache) {
      return absl::InvalidArgumentError("impl: not a cache-layer trace");
    }
    cache_.reset();
    absl::StatusOr<Upstream> up = UpstreamFor(header);
    if (!up.ok()) return up.status();
    cache_.emplace(header.config.assumed_pod_ttl_ms, *up);
    up_ = *up;
    exited_ = false;
    return absl::OkStatus();
  }

  // One op: the cacheImpl method it names, at time step.t.
  absl::StatusOr<StepOut> Apply(const Step& step) override {
    if (!cache_) return absl::FailedPreconditionError("impl: not configured");
    cache_->ForgetTouched();
    if (exited_) {
      return absl::FailedPreconditionError(
          "impl: the cache exited at an earlier step");
    }
    if (absl::Status s = RefuseUnsummableRequests(step, up_); !s.ok()) {
      return s;
    }
    CacheResult r;
    Cache& c = *cache_;
    switch (step.op) {
      case Op::kCAssume:
        r = c.AssumePod(step.pod);
        break;
      case Op::kCFinishBinding:
        r = c.FinishBinding(step.pod, step.t);
        break;
      case Op::kCForget:
        r = c.ForgetPod(step.pod);
        break;
      case Op::kCAddPod:
        r = c.AddPod(step.pod);
        break;
      case Op::kCUpdatePod:
        r = c.UpdatePod(step.old_pod, step.new_pod);
        break;
      case Op::kCRemovePod:
        r = c.RemovePod(step.pod);
        break;
      case Op::kCAddNode:
        r = c.AddNode(step.node);
        break;
      case Op::kCUpdateNode:
        r = c.UpdateNode(step.old_node, step.new_node);
        break;
      case Op::kCRemoveNode:
        r = c.RemoveNode(step.node);
        break;
      case Op::kCCleanup:
        r = c.CleanupAssumedPods(step.t);
        break;
      default:
        return absl::InvalidArgumentError(
            "impl cache system: not a cache-layer op");
    }
    StepOut out;
    out.error = r == CacheResult::kError;
    out.fatal = r == CacheResult::kFatal;
    exited_ = out.fatal;
    return out;
  }

  // The NodeInfos and pod lists the last step changed.
  void Touched(StateTouch& t) const override {
    if (!cache_) return t.SetAll();
    t.Clear();
    cache_->AddTouched(t);
  }

  void RefreshInto(State& s, const StateTouch& t) const override {
    if (!cache_ || !s.cache || s.queue || s.waiting) return SnapshotInto(s);
    cache_->RefreshInto(*s.cache, t);
  }

  // The spec's cache snapshot (upstream: cacheImpl.Dump, sorted).
  void SnapshotInto(State& s) const override {
    s.queue.reset();
    s.nominated.reset();
    s.waiting.reset();
    s.parked.reset();
    if (cache_) {
      cache_->SnapshotInto(Engage(s.cache));
    } else {
      s.cache = CacheState{};
    }
  }

 private:
  std::optional<Cache> cache_;
  Upstream up_;
  bool exited_ = false;
};

}  // namespace

std::unique_ptr<System> NewCacheSystem() {
  return std::make_unique<CacheSystem>();
}

}  // namespace schedtrace::impl
