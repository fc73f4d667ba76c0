// What property 11 sees over traces, as measures rather than verdicts: how
// often a step makes a pod in unschedulablePods schedulable (a wake-up the
// scheduler owes), how often that step moves it (made) or not (lost, by
// the registry entry that explains it), and how often a move out of
// unschedulablePods is wasted: the pod's next attempt fails again on the
// same plugins with no event between (no informer delivery or
// cluster_event after the move; other pods' cycles may run). Scheduler
// layer only.
//
//   WakeStats total;
//   absl::Status s = MeasureWakeUps(trace, *model, &total);
//   std::cout << FormatWakeStats({{"v1.37.2", total}});
#ifndef SCHEDTRACE_PROPERTIES_WAKE_STATS_H_
#define SCHEDTRACE_PROPERTIES_WAKE_STATS_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "core/system.h"
#include "core/trace.h"

namespace schedtrace::properties {

struct WakeStats {
  int64_t traces = 0;
  int64_t steps = 0;
  // Traces with at least one wake-up owed.
  int64_t traces_with_wake_ups = 0;
  int64_t wake_ups = 0;  // owed
  int64_t made = 0;      // moved out in that step
  // Owed and not made, by the registry entry that explains it ("" for
  // none: a failure of property 11).
  std::map<std::string, int64_t> lost;
  // Moves out of unschedulablePods to activeQ or backoffQ; those whose
  // pod's next attempt came with no event between (judged); those of them
  // whose attempt failed on the same plugins (wasted).
  int64_t moves = 0;
  int64_t judged_moves = 0;
  int64_t wasted_moves = 0;
  // The unexplained lost wake-ups: "TRACE: step N (op): violation".
  std::vector<std::string> unexplained;

  void Add(const WakeStats& other);
};

// Runs `trace` (scheduler layer) on `sut` from its header, through the
// step driver (run/driver.h) recording, and adds what it shows to
// `*stats`. A step the system refuses ends the trace (what came before
// counts), and so does a fatal one, uncounted: the state it leaves is no
// scheduler's. A trace of another layer adds nothing.
absl::Status MeasureWakeUps(const Trace& trace, System& sut, WakeStats* stats);

// One block per label (a version), in the given order.
std::string FormatWakeStats(
    const std::vector<std::pair<std::string, WakeStats>>& rows);

}  // namespace schedtrace::properties

#endif  // SCHEDTRACE_PROPERTIES_WAKE_STATS_H_
