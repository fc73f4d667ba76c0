#include "properties/wake_stats.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/op_table.h"
#include "core/upstream_versions.h"
#include "properties/history.h"
#include "properties/known_violations.h"
#include "properties/properties.h"
#include "run/driver.h"

namespace schedtrace::properties {
namespace {

// The steps that are events to the queue: informer deliveries and the
// other kinds' events.
bool IsEvent(Op op) {
  switch (op) {
    case Op::kPodAdd:
    case Op::kPodUpdate:
    case Op::kPodDelete:
    case Op::kNodeAdd:
    case Op::kNodeUpdate:
    case Op::kNodeDelete:
    case Op::kClusterEvent:
      return true;
    default:
      return false;
  }
}

std::string Percent(int64_t part, int64_t whole) {
  if (whole == 0) return "-";
  return absl::StrFormat(
      "%.1f%%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

}  // namespace

void WakeStats::Add(const WakeStats& o) {
  traces += o.traces;
  steps += o.steps;
  traces_with_wake_ups += o.traces_with_wake_ups;
  wake_ups += o.wake_ups;
  made += o.made;
  for (const auto& [id, n] : o.lost) lost[id] += n;
  moves += o.moves;
  judged_moves += o.judged_moves;
  wasted_moves += o.wasted_moves;
  unexplained.insert(unexplained.end(), o.unexplained.begin(),
                     o.unexplained.end());
}

absl::Status MeasureWakeUps(const Trace& trace, System& sut, WakeStats* stats) {
  if (trace.header.layer != Layer::kScheduler) return absl::OkStatus();
  History history(&trace.header);
  const std::string version(EffectiveUpstream(trace.header.upstream));
  WakeStats t;
  t.traces = 1;
  // Keys moved out of unschedulablePods and not yet tried again: the
  // plugins that had rejected them, and whether an event came since.
  struct Pending {
    std::vector<std::string> plugins;
    bool event_since = false;
  };
  std::map<std::string, Pending> pending;
  // Each transition the step driver hands its check (a fatal step's is
  // none: the state it leaves is no scheduler's).
  StepCheck measure = [&](const State& before, const Step& step,
                          const StepOut& out, const State& after,
                          const StateTouch&) {
    history.Observe(before, step, out, &after);
    ++t.steps;
    const Observation o{before, step, out, after, history};
    for (const Violation& v : NoLostWakeUp(o)) {
      const KnownViolation* known = Classify(o, v, version);
      ++t.lost[known != nullptr ? std::string(known->id) : ""];
      if (known == nullptr) {
        t.unexplained.push_back(
            absl::StrCat(trace.header.name, ": step ", t.steps, " (",
                         std::string(OpName(step.op)), "): ", v.Format()));
      }
    }
    // The pod the cycle tried: a pending move is judged here.
    if (step.op == Op::kScheduleOne && out.popped) {
      auto it = pending.find(*out.popped);
      if (it != pending.end()) {
        if (!it->second.event_since) {
          ++t.judged_moves;
          if (out.result && out.result->outcome == "unschedulable" &&
              out.result->plugins &&
              *out.result->plugins == it->second.plugins) {
            ++t.wasted_moves;
          }
        }
        pending.erase(it);
      }
    }
    if (IsEvent(step.op)) {
      for (auto& [key, p] : pending) p.event_since = true;
    }
    // The moves of this step.
    if (before.queue && after.queue) {
      for (const QueuedPod& e : before.queue->unschedulable) {
        if (FindQueued(after.queue->unschedulable, e.pod) != nullptr) continue;
        if (!InQueueList(&after, &QueueState::active, e.pod) &&
            FindQueued(after.queue->backoff, e.pod) == nullptr) {
          continue;  // deleted or popped
        }
        ++t.moves;
        pending[e.pod] = Pending{e.plugins, false};
      }
    }
    return std::string();
  };
  // Recording: the trace's expectations are not what this measures.
  Driver driver(
      sut, nullptr,
      DriveOptions{
          .make_check = [&measure](const TraceHeader&) { return measure; },
          .record = true});
  if (std::optional<DriveEnd> end =
          driver.Configure(trace.header, trace.path)) {
    return end->status;
  }
  for (const Step& step : trace.steps) {
    if (driver.Apply(step) || driver.ended()) break;
  }
  const History::WakeUps& w = history.wake_ups();
  t.wake_ups = w.needed;
  t.made = w.made;
  t.traces_with_wake_ups = w.needed > 0 ? 1 : 0;
  stats->Add(t);
  return absl::OkStatus();
}

std::string FormatWakeStats(
    const std::vector<std::pair<std::string, WakeStats>>& rows) {
  std::string s;
  for (const auto& [label, w] : rows) {
    int64_t lost = 0;
    for (const auto& [id, n] : w.lost) lost += n;
    absl::StrAppend(&s, label, ": ", w.traces, " traces, ", w.steps,
                    " steps\n");
    absl::StrAppend(&s, "  wake-ups owed: ", w.wake_ups, " in ",
                    w.traces_with_wake_ups, " traces (",
                    Percent(w.traces_with_wake_ups, w.traces),
                    " of the traces); made in the step: ", w.made, " (",
                    Percent(w.made, w.wake_ups), "), lost: ", lost, "\n");
    for (const auto& [id, n] : w.lost) {
      absl::StrAppend(&s, "    lost ", n, ": ",
                      id.empty() ? "unexplained (a property 11 failure)"
                                 : absl::StrCat("known upstream ", id),
                      "\n");
    }
    for (const std::string& u : w.unexplained) {
      absl::StrAppend(&s, "      ", u, "\n");
    }
    absl::StrAppend(&s, "  moves out of unschedulablePods: ", w.moves,
                    "; tried again with no event between: ", w.judged_moves,
                    ", of which wasted (failed again on the same plugins): ",
                    w.wasted_moves, " (",
                    Percent(w.wasted_moves, w.judged_moves), ")\n");
  }
  return s;
}

}  // namespace schedtrace::properties
