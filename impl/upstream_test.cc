#include "impl/upstream.h"

#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "harness/upstream_versions.h"
#include "model/upstream.h"

namespace schedtrace::impl {
namespace {

TraceHeader Header(const std::string& upstream) {
  TraceHeader h;
  h.upstream = upstream;
  return h;
}

TEST(UpstreamTest, EachKnownVersionHasItsProfile) {
  absl::StatusOr<Upstream> v25 = UpstreamFor(Header("v1.25.12"));
  absl::StatusOr<Upstream> v26 = UpstreamFor(Header("v1.26.7"));
  absl::StatusOr<Upstream> v30 = UpstreamFor(Header("v1.30.12"));
  absl::StatusOr<Upstream> none = UpstreamFor(Header(""));
  ASSERT_TRUE(v25.ok() && v26.ok() && v30.ok() && none.ok());
  EXPECT_EQ(none->version, "v1.26.7");
  EXPECT_EQ(v26->version, "v1.26.7");
  EXPECT_FALSE(v25->pre_enqueue_and_scheduling_gates);
  EXPECT_FALSE(v25->add_pod_of_assumed_pod_rebuilds_state);
  EXPECT_TRUE(v26->pre_enqueue_and_scheduling_gates);
  EXPECT_FALSE(v26->queueing_hints_skip_uninteresting_events);
  EXPECT_TRUE(v30->queueing_hints_skip_uninteresting_events);
  EXPECT_TRUE(v30->pre_filter_ignores_unknown_node_names);
  EXPECT_TRUE(v30->pre_enqueue_and_scheduling_gates);
}

TEST(UpstreamTest, AnUnknownVersionIsRefused) {
  for (const char* v : {"v1.27.0", "1.26.7", "v1.26", "latest"}) {
    absl::StatusOr<Upstream> up = UpstreamFor(Header(v));
    EXPECT_EQ(up.status().code(), absl::StatusCode::kInvalidArgument) << v;
  }
}

TEST(UpstreamTest, ConfigsAVersionCannotRunAreRefused) {
  TraceHeader h = Header("v1.30.12");
  h.config.features["PodSchedulingReadiness"] = false;  // locked on
  EXPECT_EQ(UpstreamFor(h).status().code(), absl::StatusCode::kInvalidArgument);
  h.config.features["PodSchedulingReadiness"] = true;
  EXPECT_TRUE(UpstreamFor(h).ok());
  // v1.25.12 has no such gate and ignores it; v1.26.7 has it off by
  // default.
  for (const char* v : {"v1.25.12", "v1.26.7"}) {
    TraceHeader off = Header(v);
    off.config.features["PodSchedulingReadiness"] = false;
    EXPECT_TRUE(UpstreamFor(off).ok()) << v;
  }
  for (const char* v : {"v1.25.12", "v1.26.7", "v1.30.12"}) {
    TraceHeader hints = Header(v);
    hints.config.features["SchedulerQueueingHints"] = true;
    EXPECT_EQ(UpstreamFor(hints).status().code(),
              absl::StatusCode::kInvalidArgument)
        << v;
    hints.config.features["SchedulerQueueingHints"] = false;
    EXPECT_TRUE(UpstreamFor(hints).ok()) << v;
  }
}

// impl's switches by name, for the comparison with the model's table.
struct ImplSwitch {
  std::string_view name;
  bool Upstream::*field;
};
const std::vector<ImplSwitch>& ImplSwitches() {
  static const auto* switches = new std::vector<ImplSwitch>{
      {"pre_enqueue_and_scheduling_gates",
       &Upstream::pre_enqueue_and_scheduling_gates},
      {"add_pod_of_assumed_pod_rebuilds_state",
       &Upstream::add_pod_of_assumed_pod_rebuilds_state},
      {"deep_copy_keeps_unschedulable_plugins",
       &Upstream::deep_copy_keeps_unschedulable_plugins},
      {"fit_skips_zero_scalar_requests",
       &Upstream::fit_skips_zero_scalar_requests},
      {"queueing_hints_skip_uninteresting_events",
       &Upstream::queueing_hints_skip_uninteresting_events},
      {"backoff_pods_without_rejector_plugins",
       &Upstream::backoff_pods_without_rejector_plugins},
      {"permit_rejection_is_fit_error",
       &Upstream::permit_rejection_is_fit_error},
      {"fit_skips_zero_requests", &Upstream::fit_skips_zero_requests},
      {"unroll_wildcard_events", &Upstream::unroll_wildcard_events},
      {"node_unschedulable_watches_node_update",
       &Upstream::node_unschedulable_watches_node_update},
      {"pop_clears_rejector_plugins", &Upstream::pop_clears_rejector_plugins},
      {"node_add_registers_taint_update",
       &Upstream::node_add_registers_taint_update},
      {"requeue_pods_without_profile_hints",
       &Upstream::requeue_pods_without_profile_hints},
      {"scheduling_gates_registers_no_events",
       &Upstream::scheduling_gates_registers_no_events},
      {"move_skips_scheduling_gated_pods",
       &Upstream::move_skips_scheduling_gated_pods},
      {"pod_scheduling_readiness_locked_on",
       &Upstream::pod_scheduling_readiness_locked_on},
      {"cluster_event_match_wildcard_resource",
       &Upstream::cluster_event_match_wildcard_resource},
      {"node_update_emits_every_change",
       &Upstream::node_update_emits_every_change},
      {"node_affinity_pre_filter_unions_terms",
       &Upstream::node_affinity_pre_filter_unions_terms},
      {"pre_filter_ignores_unknown_node_names",
       &Upstream::pre_filter_ignores_unknown_node_names},
      {"diagnosis_plugin_sets_allocated_lazily",
       &Upstream::diagnosis_plugin_sets_allocated_lazily},
      {"node_annotation_action", &Upstream::node_annotation_action},
      {"pod_requests_summed_as_quantities",
       &Upstream::pod_requests_summed_as_quantities},
  };
  return *switches;
}

// The two sides share no code, but name the same switches and turn on the
// same ones in each version.
TEST(UpstreamTest, TheModelsSwitchesWithTheSameValues) {
  const std::vector<model::UpstreamSwitch>& theirs = model::UpstreamSwitches();
  ASSERT_EQ(ImplSwitches().size(), theirs.size());
  for (size_t i = 0; i < theirs.size(); ++i) {
    EXPECT_EQ(ImplSwitches()[i].name, theirs[i].name);
  }
  for (const std::string& version : KnownUpstreams()) {
    absl::StatusOr<Upstream> ours = UpstreamProfile(version);
    absl::StatusOr<model::Upstream> model = model::UpstreamProfile(version);
    ASSERT_TRUE(ours.ok() && model.ok()) << version;
    for (size_t i = 0; i < theirs.size(); ++i) {
      EXPECT_EQ((*ours).*(ImplSwitches()[i].field), (*model).*(theirs[i].field))
          << version << " " << theirs[i].name;
    }
  }
}

}  // namespace
}  // namespace schedtrace::impl
