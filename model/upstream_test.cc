// The version profiles: every switch differs between some two neighbouring
// versions, and each is pinned by a golden trace: replayed with that one
// switch flipped back to the neighbouring version's value, some trace of the
// version fails. So no switch can be broken, removed or swapped without a
// golden trace noticing. Which trace pins each switch is written down
// (PinnedBy()), so that the check replays one trace per switch.
#include "model/upstream.h"

#include <map>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "core/upstream_versions.h"
#include "gtest/gtest.h"
#include "model/system.h"
#include "run/replay.h"
#include "testkit/golden_test_util.h"

namespace schedtrace::model {
namespace {

TEST(UpstreamTest, ProfilesNameEveryKnownVersionAndRefuseOthers) {
  for (const std::string& v : KnownUpstreams()) {
    absl::StatusOr<Upstream> up = UpstreamProfile(v);
    ASSERT_TRUE(up.ok()) << up.status();
    EXPECT_EQ(up->version, v);
  }
  EXPECT_FALSE(UpstreamProfile("v1.27.0").ok());
  TraceHeader h;
  EXPECT_EQ(UpstreamFor(h)->version, "v1.26.7");  // "" is v1.26.7
  h.upstream = "v1.30.12";
  h.config.features["PodSchedulingReadiness"] = false;
  absl::StatusOr<Upstream> refused = UpstreamFor(h);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("locked"), std::string::npos);
  h.upstream = "v1.26.7";
  EXPECT_TRUE(UpstreamFor(h).ok());  // the gate may be off there
  h.config.features["SchedulerQueueingHints"] = true;
  EXPECT_FALSE(UpstreamFor(h).ok());
}

// docs/FORMAT.md, What each version accepts (E14): scripted hints and the
// gates of the queue from v1.35.
TEST(UpstreamTest, HintsAndGatesOfTheQueueFromV135) {
  TraceHeader h;
  h.layer = Layer::kQueue;
  h.config.cluster_event_map = {{"Node", {"Add"}, {"NodeName"}, "QueueSkip"}};
  for (const char* v : {"v1.25.12", "v1.26.7", "v1.30.12"}) {
    h.upstream = v;
    absl::StatusOr<Upstream> up = UpstreamFor(h);
    ASSERT_FALSE(up.ok()) << v;
    EXPECT_NE(up.status().message().find("clusterEventMap[0].hint"),
              std::string::npos)
        << up.status();
  }
  h.config.cluster_event_map[0].hint = "Queue";  // the default: accepted
  EXPECT_TRUE(UpstreamFor(h).ok());
  h.config.cluster_event_map[0].hint = "plugin";  // each version's plugins
  for (const char* v : {"v1.35.4", "v1.36.3", "v1.37.2"}) {
    h.upstream = v;
    EXPECT_TRUE(UpstreamFor(h).ok()) << v;
  }
  h.config.cluster_event_map[0].hint = "QueueSkip";
  for (const char* v : {"v1.35.4", "v1.36.3", "v1.37.2"}) {
    h.upstream = v;
    absl::StatusOr<Upstream> up = UpstreamFor(h);
    ASSERT_TRUE(up.ok()) << v << up.status();
    EXPECT_TRUE(up->pop_from_backoff_q);
    h.config.features["SchedulerPopFromBackoffQ"] = false;
    EXPECT_FALSE(UpstreamFor(h)->pop_from_backoff_q) << v;
    h.config.features["SchedulerAsyncAPICalls"] = true;
    EXPECT_FALSE(UpstreamFor(h).ok()) << v;
    h.config.features["SchedulerAsyncAPICalls"] = false;
    h.config.features["SchedulerPreQueueingHints"] = true;
    // The gate is v1.37's: before, the name is ignored.
    EXPECT_EQ(UpstreamFor(h).ok(), std::string(v) != "v1.37.2") << v;
    h.config.features.clear();
  }
  // Up to v1.30.12 the new gates do not exist: ignored.
  h.config.cluster_event_map.clear();
  h.upstream = "v1.30.12";
  h.config.features["SchedulerAsyncAPICalls"] = true;
  h.config.features["SchedulerPopFromBackoffQ"] = true;
  absl::StatusOr<Upstream> up = UpstreamFor(h);
  ASSERT_TRUE(up.ok()) << up.status();
  EXPECT_FALSE(up->pop_from_backoff_q);
}

TEST(UpstreamTest, EverySwitchIsTheNewerBehaviourAndChangesOnce) {
  const std::vector<std::string>& versions = KnownUpstreams();
  for (const UpstreamSwitch& s : UpstreamSwitches()) {
    SCOPED_TRACE(std::string(s.name));
    int changes = 0;
    for (size_t i = 0; i + 1 < versions.size(); ++i) {
      const bool older = (*UpstreamProfile(versions[i])).*s.field;
      const bool newer = (*UpstreamProfile(versions[i + 1])).*s.field;
      EXPECT_FALSE(older && !newer) << "true must be the newer behaviour";
      changes += older != newer;
    }
    EXPECT_EQ(changes, 1);
    EXPECT_FALSE(s.change.empty());
    EXPECT_FALSE(s.summary.empty());
  }
}

// The golden traces of every version, read once: its recordings and
// handwritten traces, without those of a layer the model does not model yet
// for it (UpstreamFor says Unimplemented: a flipped profile would run them,
// and fail them, all the same).
std::map<std::string, std::vector<GoldenFile>> TracesByVersion() {
  std::map<std::string, std::vector<GoldenFile>> by_version;
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    for (GoldenFile& f : ReadGoldenLayer(GoldenDir(), layer)) {
      if (UpstreamFor(f.trace.header).status().code() ==
          absl::StatusCode::kUnimplemented) {
        continue;
      }
      std::string version(EffectiveUpstream(f.trace.header.upstream));
      by_version[version].push_back(std::move(f));
    }
  }
  return by_version;
}

bool Fails(const Upstream& profile, const GoldenFile& f) {
  std::unique_ptr<System> sys = NewSystemOnProfile(profile);
  return Replay(*sys, f.trace).verdict != Verdict::kPassed;
}

bool FailsOn(const Upstream& profile, const std::vector<GoldenFile>& files,
             std::string* which) {
  for (const GoldenFile& f : files) {
    if (Fails(profile, f)) {
      *which = f.path.substr(GoldenDir().size() + 1);
      return true;
    }
  }
  return false;
}

// The flips that pin a switch: a trace of a version it changes at fails with
// the switch as the neighbouring version has it, or a trace of a version that
// has it on fails with it off (for a switch whose first version's layer is
// not modelled yet). Every one of them is the switch negated in the profile
// of the trace's own version; these are the versions where that counts.
std::vector<std::string> PinningVersions(const UpstreamSwitch& s) {
  const std::vector<std::string>& versions = KnownUpstreams();
  std::vector<std::string> out;
  for (size_t i = 0; i < versions.size(); ++i) {
    const bool on = (*UpstreamProfile(versions[i])).*s.field;
    const bool changes_before =
        i > 0 && (*UpstreamProfile(versions[i - 1])).*s.field != on;
    const bool changes_after =
        i + 1 < versions.size() &&
        (*UpstreamProfile(versions[i + 1])).*s.field != on;
    if (on || changes_before || changes_after) out.push_back(versions[i]);
  }
  return out;
}

// The trace that pinned each switch when this list was last written. The
// test replays it first, with that one switch negated, so that a passing run
// replays one trace per switch instead of searching the corpus (which takes
// minutes). A hint that no longer pins its switch, or a switch without one,
// fails the test with the trace a full search finds instead.
const std::map<std::string_view, std::string_view>& PinnedBy() {
  static const auto* const kPinnedBy = new std::map<std::string_view,
                                                    std::string_view>{
      {"pre_enqueue_and_scheduling_gates",
       "handwritten/queue/activate-cases.jsonl"},
      {"add_pod_of_assumed_pod_rebuilds_state",
       "handwritten/cache/finish-binding-then-add-confirms.jsonl"},
      {"deep_copy_keeps_unschedulable_plugins",
       "regression/upstream/scheduler/"
       "issue72122-event-lost-until-leftover-flush.jsonl"},
      {"fit_skips_zero_scalar_requests",
       "handwritten/v1.25.12/scheduler/"
       "fit-zero-scalar-request-on-overcommitted-node.jsonl"},
      {"queueing_hints_skip_uninteresting_events",
       "handwritten/v1.30.12/queue/"
       "entry-without-plugins-interests-no-one.jsonl"},
      {"backoff_pods_without_rejector_plugins",
       "upstream-v1.30.12/queue/assigned-pod-added-affinity.jsonl"},
      {"permit_rejection_is_fit_error",
       "handwritten/v1.30.12/scheduler/"
       "waiting-pod-handover-rejected-with-empty-plugin.jsonl"},
      {"fit_skips_zero_requests",
       "upstream-v1.30.12/scheduler/random-100.jsonl"},
      {"unroll_wildcard_events", "upstream-v1.30.12/scheduler/random-14.jsonl"},
      {"node_unschedulable_watches_node_update",
       "upstream-v1.30.12/scheduler/random-31.jsonl"},
      {"pop_clears_rejector_plugins",
       "handwritten/v1.30.12/queue/move-skips-stale-gated-entry.jsonl"},
      {"node_add_registers_taint_update",
       "handwritten/v1.30.12/scheduler/"
       "node-add-registration-gets-taint-update.jsonl"},
      {"requeue_pods_without_profile_hints",
       "handwritten/v1.30.12/scheduler/waiting-pod-handover-then-moved.jsonl"},
      {"scheduling_gates_registers_no_events",
       "handwritten/v1.30.12/scheduler/"
       "scheduling-gates-registers-no-events.jsonl"},
      {"move_skips_scheduling_gated_pods",
       "handwritten/v1.30.12/queue/move-skips-stale-gated-entry.jsonl"},
      {"pod_scheduling_readiness_locked_on",
       "handwritten/v1.30.12/queue/scheduling-gates-without-feature-key.jsonl"},
      {"cluster_event_match_wildcard_resource",
       "handwritten/v1.30.12/queue/"
       "wildcard-resource-entry-matches-every-resource.jsonl"},
      {"node_update_emits_every_change",
       "handwritten/v1.30.12/scheduler/"
       "node-update-moves-once-per-changed-property.jsonl"},
      {"node_affinity_pre_filter_unions_terms",
       "handwritten/v1.30.12/scheduler/"
       "node-affinity-pre-filter-unions-terms.jsonl"},
      {"pre_filter_ignores_unknown_node_names",
       "handwritten/v1.30.12/scheduler/nil-plugin-set-pre-enqueue-panic.jsonl"},
      {"diagnosis_plugin_sets_allocated_lazily",
       "handwritten/v1.30.12/scheduler/nil-plugin-set-pre-enqueue-panic.jsonl"},
      {"node_annotation_action",
       "handwritten/v1.30.12/queue/update-node-annotation-action.jsonl"},
      {"pod_requests_summed_as_quantities",
       "handwritten/v1.30.12/cache/negative-init-request-counts.jsonl"},
      {"queueing_hints",
       "upstream-v1.35.4/handwritten/queue/"
       "hint-queueskip-leaves-pod-unschedulable.jsonl"},
      {"pop_from_backoff_q",
       "upstream-v1.35.4/handwritten/queue/activate-cases.jsonl"},
      {"activate_sets_move_request_cycle",
       "upstream-v1.35.4/handwritten/queue/activate-cases.jsonl"},
      {"backoff_counts_failures", "upstream-v1.35.4/queue/random-109.jsonl"},
      {"gated_pods_back_off",
       "upstream-v1.35.4/handwritten/queue/gated-pod-backs-off.jsonl"},
      {"error_backoff_queue", "upstream-v1.35.4/queue/random-109.jsonl"},
      {"requeue_skips_nominator", "upstream-v1.35.4/queue/random-104.jsonl"},
      {"gated_pods_move_on_gating_events",
       "upstream-v1.35.4/handwritten/queue/gated-pod-backs-off.jsonl"},
      {"backoff_includes_its_end",
       "upstream-v1.35.4/handwritten/queue/backoff-cap-not-power-of-two.jsonl"},
      {"gated_pod_replaces_unschedulable_record",
       "upstream-v1.36.3/handwritten/queue/"
       "gated-add-over-unschedulable-record.jsonl"},
      {"nominator_ignores_empty_node_name",
       "upstream-v1.37.2/queue/nominate-empty-node.jsonl"},
      {"move_request_cycle_removed",
       "regression/upstream/queue/add-beside-backoff-copy.jsonl"},
      {"add_nominates_gated_pods",
       "upstream-v1.37.2/handwritten/queue/"
       "gated-pod-nominated-by-update.jsonl"},
      {"move_to_active_leaves_other_queues",
       "regression/upstream/queue/add-beside-backoff-copy.jsonl"},
      {"wildcard_events_move_gated_pods",
       "upstream-v1.37.2/handwritten/queue/wildcard-move-of-gated-pod.jsonl"},
      {"unschedulable_flush_waits_from_last_flush",
       "upstream-v1.37.2/queue/random-154.jsonl"},
      {"pod_info_update_refuses_other_uid",
       "upstream-v1.37.2/handwritten/queue/update-with-other-uid.jsonl"},
      {"target_pod_update_events",
       "upstream-v1.37.2/handwritten/queue/target-pod-registration.jsonl"},
      {"remove_pod_subtracts_stored_requests",
       "regression/upstream/cache/update-old-on-other-node-counts-twice.jsonl"},
      {"forget_of_unknown_pod_succeeds",
       "upstream-v1.35.4/cache/assume-forget.jsonl"},
      {"assumed_pods_never_expire",
       "upstream-v1.36.3/cache/assume-add-confirms.jsonl"},
      {"fit_error_clears_nominated_node",
       "handwritten/v1.30.12/scheduler/"
       "node-add-registration-gets-taint-update.jsonl"},
      {"binding_cycle_nominates_node",
       "handwritten/v1.30.12/scheduler/"
       "fit-clamps-negative-scalar-request.jsonl"},
      {"unified_pod_handler",
       "handwritten/v1.30.12/scheduler/"
       "waiting-pod-handover-rejected-with-empty-plugin.jsonl"},
      {"node_delete_moves_pods",
       "upstream-v1.30.12/scheduler/node-delete-with-pods.jsonl"},
      {"storage_class_generic_handler",
       "upstream-v1.37.2/handwritten/scheduler/"
       "storage-class-events-move-permit-rejected-pod.jsonl"},
      {"pre_filter_node_plugins_are_rejectors",
       "handwritten/v1.30.12/scheduler/nil-plugin-set-pre-enqueue-panic.jsonl"},
      {"nominated_pod_delete_moves_pods",
       "upstream-v1.37.2/scheduler/random-31.jsonl"},
      {"no_implicit_node_taint_update",
       "upstream-v1.37.2/handwritten/scheduler/"
       "out-node-update-non-scheduling-changes.jsonl"},
      {"failure_handler_skips_recreated_pod",
       "upstream-v1.36.3/handwritten/scheduler/"
       "failed-pod-recreated-skipped.jsonl"},
  };
  return *kPinnedBy;
}

TEST(UpstreamTest, EverySwitchIsPinnedByAGoldenTraceOfItsVersion) {
  std::map<std::string, std::vector<GoldenFile>> traces = TracesByVersion();
  std::map<std::string, const GoldenFile*> by_path;
  for (const auto& [v, files] : traces) {
    for (const GoldenFile& f : files) {
      by_path[f.path.substr(GoldenDir().size() + 1)] = &f;
    }
  }
  for (const UpstreamSwitch& s : UpstreamSwitches()) {
    SCOPED_TRACE(std::string(s.name));
    const std::vector<std::string> pinning = PinningVersions(s);
    auto negated = [&](const std::string& version) {
      Upstream p = *UpstreamProfile(version);
      p.*s.field = !(p.*s.field);
      return p;
    };
    auto hint = PinnedBy().find(s.name);
    if (hint != PinnedBy().end()) {
      auto file = by_path.find(std::string(hint->second));
      if (file != by_path.end()) {
        const std::string v(
            EffectiveUpstream(file->second->trace.header.upstream));
        if (absl::c_linear_search(pinning, v) &&
            Fails(negated(v), *file->second)) {
          continue;
        }
      }
    }
    // No hint, or a stale one: search every trace of the pinning versions.
    bool pinned = false;
    std::string which;
    for (const std::string& v : pinning) {
      if (FailsOn(negated(v), traces[v], &which)) {
        pinned = true;
        break;
      }
    }
    if (pinned) {
      ADD_FAILURE() << "PinnedBy() should say {\"" << s.name << "\", \""
                    << which << "\"}";
    } else {
      ADD_FAILURE() << "no golden trace fails with " << s.name
                    << " flipped alone: add a handwritten trace";
    }
  }
}

}  // namespace
}  // namespace schedtrace::model
