// What a step source (run/step_source.h) knows of the world besides the
// objects it sent: what the scheduler's own outputs imply. It is built
// from the steps and their outs alone, never from a system's state or
// internals, so the source that aims its next step with it works the same
// in front of the model, impl, or a child in another language (and the
// oracle is not also the guide).
//
//   queue layer      the pods popped and not yet given back (in flight),
//                    each with the scheduling cycle it was popped in, and
//                    whether activeQ may hold pods
//   cache layer      the pods in the cache by uid, assumed or added, until
//                    forgotten, removed or expired (expiry: the assumed-pod
//                    TTL after FinishBinding, at the first cleanup past it);
//                    a call the cache refused (`error`) changes nothing
//   scheduler layer  the pods waiting on Permit and those parked before
//                    PreBind, and which nodes hold pods
//   queue and scheduler layers  the boundaries a pod put back in the queue
//                    will reach: its backoff expiry (the instant it went
//                    back plus the backoff its attempts give, as the
//                    header's config computes it) and the instant its
//                    podMaxInUnschedulablePodsDuration runs out (the
//                    leftover flush's); the attempts are read from the
//                    queue layer's pop outs, counted from the scheduler
//                    layer's cycles
//
//   InformerWorld world(Layer::kScheduler);
//   StepOut out = *sut.Apply(step);
//   world.Observe(step, out);
//   if (!world.waiting().empty()) ...;
#ifndef SCHEDTRACE_RUN_INFORMER_WORLD_H_
#define SCHEDTRACE_RUN_INFORMER_WORLD_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/state.h"
#include "core/trace.h"

namespace schedtrace {

class InformerWorld {
 public:
  // `ttl_ms`: the trace's assumedPodTtlMs (cache layer; 0 = never expires).
  explicit InformerWorld(Layer layer, int64_t ttl_ms = 0)
      : layer_(layer), ttl_ms_(ttl_ms) {}
  // With the header's config: its TTL and the queue's backoff and leftover
  // durations.
  InformerWorld(Layer layer, const Config& config);

  // `step` was applied and gave `out`.
  void Observe(const Step& step, const StepOut& out);

  // Queue layer.
  bool InFlight(const std::string& key) const {
    return popped_cycle_.contains(key);
  }
  // The cycle `key` was popped in (it must be in flight).
  int64_t PoppedCycle(const std::string& key) const {
    return popped_cycle_.at(key);
  }
  // Pops that returned a pod: upstream's schedulingCycle.
  int64_t cycle() const { return cycle_; }
  // False from a pop that found activeQ empty until a step that could fill
  // it (one that adds, updates, activates, moves or flushes; not one that
  // gives a popped pod back, nominates or deletes).
  bool MayHaveActive() const { return may_have_active_; }

  // Cache layer: a pod `key` assumed, or added (confirmed or added by the
  // informer) and not assumed.
  bool Assumed(const std::string& key) const;
  bool Added(const std::string& key) const;

  // Scheduler layer: keys in key order (as the state shows them; a key
  // twice when two incarnations of a pod are there).
  const std::vector<std::string>& waiting() const { return waiting_; }
  const std::vector<std::string>& parked() const { return parked_; }
  // Whether a pod is on node `name`: in the cache layer one the cache holds
  // there; in the scheduler layer one assigned by an object a step carried,
  // bound, or assumed there by a cycle and not failed since.
  bool HoldsPods(const std::string& name) const;

  // Queue and scheduler layers: the earliest boundary one of whose instants
  // (at - 1, at, at + 1) is after `t` and at most `reach` past it, or
  // nullopt; boundaries wholly at or before `t` are forgotten.
  struct Boundary {
    int64_t at = 0;
    bool leftover = false;  // the leftover flush's, else a backoff expiry
  };
  std::optional<Boundary> NextBoundary(int64_t t, int64_t reach);

 private:
  void ObserveQueue(const Step& step, const StepOut& out);
  void ObserveCache(const Step& step, const StepOut& out);
  void ObserveScheduler(const Step& step, const StepOut& out);
  // One occurrence of `key` in sorted `keys`.
  static void Insert(std::vector<std::string>& keys, const std::string& key);
  static bool Erase(std::vector<std::string>& keys, const std::string& key);
  // A pod went back to the queue at `t` after `attempts` attempts.
  void Requeued(int64_t t, int attempts);

  Layer layer_;
  int64_t ttl_ms_;
  std::map<std::string, int64_t> popped_cycle_;
  int64_t cycle_ = 0;
  bool may_have_active_ = true;
  // The cache keys pods by uid: another incarnation under the same name
  // neither confirms nor removes an assumed one.
  struct Cached {
    std::string key;
    std::string node;
    bool assumed = false;
  };
  std::map<std::string, Cached> cached_;     // uid -> the pod in the cache
  std::map<std::string, int64_t> deadline_;  // uid -> FinishBinding + TTL
  std::vector<std::string> waiting_, parked_;
  std::map<std::string, std::string> node_of_;  // pod key -> node
  // The queue's durations (upstream's defaults unless the config says).
  int64_t initial_backoff_ms_ = 1000;
  int64_t max_backoff_ms_ = 10000;
  int64_t max_unschedulable_ms_ = 300000;
  std::map<std::string, int> attempts_;  // pod key -> its queue attempts
  std::set<std::pair<int64_t, bool>> boundaries_;  // (at, leftover)
};

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_INFORMER_WORLD_H_
