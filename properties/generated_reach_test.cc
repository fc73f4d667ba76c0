// What generated traces reach on the versions whose queue is backend/queue's
// (from v1.35: docs/FORMAT.md "Layer queue from v1.35"), counted from the
// traces' steps and the model's outs and snapshots: for every version whose
// layer the model judges (properties/judged_upstreams.h), so that a version
// or layer the systems come to judge is held to it too.
//
// Queue layer: a failure with rejector plugins that the events recorded
// while the pod was in flight requeue (it lands in activeQ or backoffQ, not
// unschedulablePods: with rejector plugins only a recorded event worth
// requeuing does that) and one they do not; a pop from backoffQ (activeQ
// empty before it, backoffQ not); a gated pod; failures with `plugins: []`
// (an error) and with rejector plugins; q_done; a move whose event an
// entry with the plugins' own hints (`"hint": "plugin"`) registers, after
// which a pod those plugins alone rejected moved (a hint answered Queue)
// or stayed (QueueSkip).
//
// Scheduler layer: the QueueingHints of the profile's plugins answering
// Queue and QueueSkip: a pod whose only rejector is NodeAffinity, in
// unschedulablePods, and a node event NodeAffinity registers (a node added,
// or an update changing its labels), after which the pod moved (its hint
// said Queue) or stayed (QueueSkip).
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "core/trace.h"
#include "core/upstream_versions.h"
#include "gtest/gtest.h"
#include "model/system.h"
#include "properties/judged_upstreams.h"
#include "run/generator.h"

namespace schedtrace::properties {
namespace {

// Per layer: a queue-layer trace meets fewer moves with pods to move.
int Seeds(Layer layer) { return layer == Layer::kQueue ? 120 : 40; }

struct Reach {
  int in_flight_requeued = 0;  // requeued by the events recorded in flight
  int in_flight_skipped = 0;   // left in unschedulablePods
  int backoff_pops = 0;        // popped from backoffQ, activeQ empty
  int gated = 0;               // steps after which some pod is gated
  int error_failures = 0;      // q_add_unschedulable with plugins []
  int rejector_failures = 0;   // ... with rejector plugins
  int hint_queue = 0;          // NodeAffinity's hint moved the pod
  int hint_skip = 0;           // ... left it in unschedulablePods
  int done = 0;                // q_done
  int plugin_hint_queue = 0;   // a plugin's own hint moved the pod
  int plugin_hint_skip = 0;    // ... left it in unschedulablePods
};

bool Holds(const std::vector<QueuedPod>& list, const std::string& key) {
  return std::any_of(list.begin(), list.end(),
                     [&](const QueuedPod& q) { return q.pod == key; });
}

const QueuedPod* Find(const std::vector<QueuedPod>& list,
                      const std::string& key) {
  for (const QueuedPod& q : list) {
    if (q.pod == key) return &q;
  }
  return nullptr;
}

// A node event NodeAffinity registers (Node Add, UpdateNodeLabel).
bool NodeAffinityEvent(const Step& step) {
  if (step.op == Op::kNodeAdd) return true;
  return step.op == Op::kNodeUpdate && step.old_node != nullptr &&
         step.new_node != nullptr &&
         step.old_node->labels != step.new_node->labels;
}

// The plugins an entry with `"hint": "plugin"` of `resource` names.
std::vector<std::string> OwnHintPlugins(const Config& config,
                                        const std::string& resource) {
  std::vector<std::string> out;
  for (const ClusterEventMapEntry& e : config.cluster_event_map) {
    if (e.hint != "plugin" || e.resource != resource) continue;
    out.insert(out.end(), e.plugins.begin(), e.plugins.end());
  }
  return out;
}

void CountStep(const Config& config, const Step& step, const StepOut& out,
               const QueueState& before, const QueueState& after, Reach& r) {
  r.done += step.op == Op::kQDone;
  if (step.op == Op::kQMoveAll && !out.fatal) {
    const std::vector<std::string> own =
        OwnHintPlugins(config, step.event.resource);
    for (const QueuedPod& q : before.unschedulable) {
      const bool only_own =
          !q.gated && !q.plugins.empty() &&
          std::all_of(q.plugins.begin(), q.plugins.end(),
                      [&](const std::string& p) {
                        return std::count(own.begin(), own.end(), p) > 0;
                      });
      if (!only_own) continue;
      if (Holds(after.active, q.pod) || Holds(after.backoff, q.pod)) {
        ++r.plugin_hint_queue;
      } else if (Holds(after.unschedulable, q.pod)) {
        ++r.plugin_hint_skip;
      }
    }
  }
  r.gated += std::any_of(after.unschedulable.begin(), after.unschedulable.end(),
                         [](const QueuedPod& q) { return q.gated; });
  if (step.op == Op::kQAddUnschedulable && !out.error) {
    if (step.plugins.empty()) {
      ++r.error_failures;
    } else {
      ++r.rejector_failures;
      const std::string& key = step.pod_key;
      if (Holds(after.active, key) || Holds(after.backoff, key)) {
        ++r.in_flight_requeued;
      } else if (Holds(after.unschedulable, key)) {
        ++r.in_flight_skipped;
      }
    }
  }
  if (step.op == Op::kQPop && out.popped.has_value() && before.active.empty() &&
      !before.backoff.empty()) {
    ++r.backoff_pops;
  }
  if (NodeAffinityEvent(step)) {
    for (const QueuedPod& q : before.unschedulable) {
      if (q.gated || q.plugins != std::vector<std::string>{"NodeAffinity"}) {
        continue;
      }
      if (Holds(after.active, q.pod) || Holds(after.backoff, q.pod)) {
        ++r.hint_queue;
      } else if (const QueuedPod* still = Find(after.unschedulable, q.pod);
                 still != nullptr && still->attempts == q.attempts) {
        ++r.hint_skip;
      }
    }
  }
}

// Generates Seeds(layer) traces of `layer` on `version` with the model, and
// replays each on a fresh model to count what its steps reach.
Reach CountReach(Layer layer, const std::string& version) {
  Reach r;
  for (uint64_t seed = 1; seed <= static_cast<uint64_t>(Seeds(layer)); ++seed) {
    GenOptions options;
    options.seed = seed;
    options.upstream = version;
    std::unique_ptr<System> recorder = model::NewSystem();
    absl::StatusOr<Trace> trace = GenerateTrace(layer, *recorder, options);
    EXPECT_TRUE(trace.ok()) << trace.status();
    if (!trace.ok()) continue;
    EXPECT_EQ(trace->header.upstream, version);
    std::unique_ptr<System> sut = model::NewSystem();
    EXPECT_TRUE(sut->Configure(trace->header).ok());
    State before = sut->Snapshot();
    for (const Step& step : trace->steps) {
      absl::StatusOr<StepOut> out = sut->Apply(step);
      if (!out.ok()) break;
      State after = sut->Snapshot();
      if (before.queue && after.queue) {
        CountStep(trace->header.config, step, *out, *before.queue, *after.queue,
                  r);
      }
      if (out->fatal) break;
      before = std::move(after);
    }
  }
  return r;
}

// The versions from v1.35 whose `layer` the model judges.
std::vector<std::string> BackendQueueVersions(Layer layer) {
  std::vector<std::string> versions;
  for (const std::string& v : ModelJudgedUpstreams(layer)) {
    if (UpstreamTracksPodsInFlight(v)) versions.push_back(v);
  }
  return versions;
}

TEST(GeneratedReachTest, QueueTracesReachInFlightEventsAndBackoffPops) {
  const std::vector<std::string> versions = BackendQueueVersions(Layer::kQueue);
  ASSERT_FALSE(versions.empty());
  for (const std::string& version : versions) {
    const Reach r = CountReach(Layer::kQueue, version);
    std::cout << version << " queue, " << Seeds(Layer::kQueue)
              << " seeds: in flight requeued " << r.in_flight_requeued
              << ", skipped " << r.in_flight_skipped << "; backoffQ pops "
              << r.backoff_pops << "; gated " << r.gated << "; failures "
              << r.error_failures << " with plugins [], " << r.rejector_failures
              << " with rejectors; q_done " << r.done
              << "; the plugins' own hints answered Queue "
              << r.plugin_hint_queue << ", QueueSkip " << r.plugin_hint_skip
              << "\n";
    EXPECT_GT(r.in_flight_requeued, 0) << version;
    EXPECT_GT(r.in_flight_skipped, 0) << version;
    EXPECT_GT(r.backoff_pops, 0) << version;
    EXPECT_GT(r.gated, 0) << version;
    EXPECT_GT(r.error_failures, 0) << version;
    EXPECT_GT(r.rejector_failures, 0) << version;
    EXPECT_GT(r.done, 0) << version;
    EXPECT_GT(r.plugin_hint_queue, 0) << version;
    EXPECT_GT(r.plugin_hint_skip, 0) << version;
  }
}

TEST(GeneratedReachTest, SchedulerTracesReachHintsAnsweringQueueAndSkip) {
  const std::vector<std::string> versions =
      BackendQueueVersions(Layer::kScheduler);
  if (versions.empty()) {
    GTEST_SKIP() << "the model judges the scheduler layer of no version "
                    "from v1.35 yet";
  }
  for (const std::string& version : versions) {
    const Reach r = CountReach(Layer::kScheduler, version);
    std::cout << version << " scheduler, " << Seeds(Layer::kScheduler)
              << " seeds: NodeAffinity's hint answered Queue " << r.hint_queue
              << ", QueueSkip " << r.hint_skip << "; gated " << r.gated << "\n";
    EXPECT_GT(r.hint_queue, 0) << version;
    EXPECT_GT(r.hint_skip, 0) << version;
    EXPECT_GT(r.gated, 0) << version;
  }
}

}  // namespace
}  // namespace schedtrace::properties
