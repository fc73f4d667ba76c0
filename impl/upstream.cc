#include "impl/upstream.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/upstream_versions.h"

namespace schedtrace::impl {

const std::vector<UpstreamSwitch>& UpstreamSwitches() {
  using U = Upstream;
  static const auto* switches = new std::vector<UpstreamSwitch>{
      // Added in v1.26.
      {"pre_enqueue_and_scheduling_gates", "v1.26.7",
       &U::pre_enqueue_and_scheduling_gates},
      {"add_pod_of_assumed_pod_rebuilds_state", "v1.26.7",
       &U::add_pod_of_assumed_pod_rebuilds_state},
      {"deep_copy_keeps_unschedulable_plugins", "v1.26.7",
       &U::deep_copy_keeps_unschedulable_plugins},
      {"fit_skips_zero_scalar_requests", "v1.26.7",
       &U::fit_skips_zero_scalar_requests},
      // Added by v1.30.
      {"queueing_hints_skip_uninteresting_events", "v1.30.12",
       &U::queueing_hints_skip_uninteresting_events},
      {"backoff_pods_without_rejector_plugins", "v1.30.12",
       &U::backoff_pods_without_rejector_plugins},
      {"permit_rejection_is_fit_error", "v1.30.12",
       &U::permit_rejection_is_fit_error},
      {"fit_skips_zero_requests", "v1.30.12", &U::fit_skips_zero_requests},
      {"unroll_wildcard_events", "v1.30.12", &U::unroll_wildcard_events},
      {"node_unschedulable_watches_node_update", "v1.30.12",
       &U::node_unschedulable_watches_node_update},
      {"pop_clears_rejector_plugins", "v1.30.12",
       &U::pop_clears_rejector_plugins},
      {"node_add_registers_taint_update", "v1.30.12",
       &U::node_add_registers_taint_update},
      {"requeue_pods_without_profile_hints", "v1.30.12",
       &U::requeue_pods_without_profile_hints},
      {"scheduling_gates_registers_no_events", "v1.30.12",
       &U::scheduling_gates_registers_no_events},
      {"move_skips_scheduling_gated_pods", "v1.30.12",
       &U::move_skips_scheduling_gated_pods},
      {"pod_scheduling_readiness_locked_on", "v1.30.12",
       &U::pod_scheduling_readiness_locked_on},
      {"cluster_event_match_wildcard_resource", "v1.30.12",
       &U::cluster_event_match_wildcard_resource},
      {"node_update_emits_every_change", "v1.30.12",
       &U::node_update_emits_every_change},
      {"node_affinity_pre_filter_unions_terms", "v1.30.12",
       &U::node_affinity_pre_filter_unions_terms},
      {"pre_filter_ignores_unknown_node_names", "v1.30.12",
       &U::pre_filter_ignores_unknown_node_names},
      {"diagnosis_plugin_sets_allocated_lazily", "v1.30.12",
       &U::diagnosis_plugin_sets_allocated_lazily},
      {"node_annotation_action", "v1.30.12", &U::node_annotation_action},
      {"pod_requests_summed_as_quantities", "v1.30.12",
       &U::pod_requests_summed_as_quantities},
      // Added by v1.35 and later (cache layer).
      {"queueing_hints", "v1.35.4", &U::queueing_hints},
      {"pop_from_backoff_q", "v1.35.4", &U::pop_from_backoff_q},
      {"activate_sets_move_request_cycle", "v1.35.4",
       &U::activate_sets_move_request_cycle},
      {"backoff_counts_failures", "v1.35.4", &U::backoff_counts_failures},
      {"gated_pods_back_off", "v1.35.4", &U::gated_pods_back_off},
      {"error_backoff_queue", "v1.35.4", &U::error_backoff_queue},
      {"requeue_skips_nominator", "v1.35.4", &U::requeue_skips_nominator},
      {"gated_pods_move_on_gating_events", "v1.35.4",
       &U::gated_pods_move_on_gating_events},
      {"backoff_includes_its_end", "v1.35.4", &U::backoff_includes_its_end},
      {"gated_pod_replaces_unschedulable_record", "v1.36.3",
       &U::gated_pod_replaces_unschedulable_record},
      {"nominator_ignores_empty_node_name", "v1.37.2",
       &U::nominator_ignores_empty_node_name},
      {"move_request_cycle_removed", "v1.37.2", &U::move_request_cycle_removed},
      {"add_nominates_gated_pods", "v1.37.2", &U::add_nominates_gated_pods},
      {"move_to_active_leaves_other_queues", "v1.37.2",
       &U::move_to_active_leaves_other_queues},
      {"wildcard_events_move_gated_pods", "v1.37.2",
       &U::wildcard_events_move_gated_pods},
      {"unschedulable_flush_waits_from_last_flush", "v1.37.2",
       &U::unschedulable_flush_waits_from_last_flush},
      {"pod_info_update_refuses_other_uid", "v1.37.2",
       &U::pod_info_update_refuses_other_uid},
      {"target_pod_update_events", "v1.37.2", &U::target_pod_update_events},
      {"remove_pod_subtracts_stored_requests", "v1.35.4",
       &U::remove_pod_subtracts_stored_requests},
      {"forget_of_unknown_pod_succeeds", "v1.35.4",
       &U::forget_of_unknown_pod_succeeds},
      {"assumed_pods_never_expire", "v1.36.3", &U::assumed_pods_never_expire},
      // Added by v1.35 and later (scheduler layer; mirrors of the model's).
      {"fit_error_clears_nominated_node", "v1.35.4",
       &U::fit_error_clears_nominated_node},
      {"binding_cycle_nominates_node", "v1.35.4",
       &U::binding_cycle_nominates_node},
      {"unified_pod_handler", "v1.35.4", &U::unified_pod_handler},
      {"node_delete_moves_pods", "v1.35.4", &U::node_delete_moves_pods},
      {"storage_class_generic_handler", "v1.35.4",
       &U::storage_class_generic_handler},
      {"pre_filter_node_plugins_are_rejectors", "v1.35.4",
       &U::pre_filter_node_plugins_are_rejectors},
      {"nominated_pod_delete_moves_pods", "v1.35.4",
       &U::nominated_pod_delete_moves_pods},
      {"failure_handler_skips_recreated_pod", "v1.36.3",
       &U::failure_handler_skips_recreated_pod},
      {"no_implicit_node_taint_update", "v1.37.2",
       &U::no_implicit_node_taint_update},
  };
  return *switches;
}

absl::StatusOr<Upstream> UpstreamProfile(std::string_view version) {
  Upstream up;
  up.version = std::string(version);
  const std::vector<std::string>& known = KnownUpstreams();
  const auto at = std::find(known.begin(), known.end(), up.version);
  if (at == known.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("impl: unknown upstream version \"", up.version,
                     "\" (known: ", KnownUpstreamsText(), ")"));
  }
  for (const UpstreamSwitch& s : UpstreamSwitches()) {
    // A `since` no version names (a typo) is never reached: false.
    up.*s.field = at >= std::find(known.begin(), known.end(), s.since);
  }
  return up;
}

absl::StatusOr<Upstream> UpstreamFor(const TraceHeader& header) {
  absl::StatusOr<Upstream> up =
      UpstreamProfile(EffectiveUpstream(header.upstream));
  if (!up.ok()) return up.status();
  const auto& features = header.config.features;
  if (auto it = features.find("PodSchedulingReadiness");
      up->pod_scheduling_readiness_locked_on && it != features.end() &&
      !it->second) {
    return absl::InvalidArgumentError(
        absl::StrCat("impl: features.PodSchedulingReadiness is locked to true "
                     "in ",
                     up->version));
  }
  if (auto it = features.find("SchedulerQueueingHints");
      it != features.end() && it->second != up->queueing_hints) {
    return absl::InvalidArgumentError(
        up->queueing_hints
            ? absl::StrCat(
                  "impl: features.SchedulerQueueingHints is locked to true in ",
                  up->version)
            : absl::StrCat("impl: features.SchedulerQueueingHints is not "
                           "implemented (",
                           up->version, " runs with it off)"));
  }
  // Scripted hints (docs/FORMAT.md, E14) exist from v1.35.
  const auto& map = header.config.cluster_event_map;
  for (size_t i = 0; i < map.size(); ++i) {
    const std::string& hint = map[i].hint;
    if (hint.empty() || hint == "Queue" || header.layer == Layer::kCache) {
      continue;
    }
    if (!up->queueing_hints) {
      return absl::InvalidArgumentError(absl::StrCat(
          "impl: config.clusterEventMap[", i, "].hint \"", hint,
          "\" is refused: ", up->version, " has no QueueingHints"));
    }
  }
  if (up->queueing_hints) {
    if (auto it = features.find("SchedulerPopFromBackoffQ");
        it != features.end()) {
      up->pop_from_backoff_q = it->second;
    }
    if (auto it = features.find("SchedulerAsyncAPICalls");
        it != features.end() && it->second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "impl: features.SchedulerAsyncAPICalls: true is not implemented (",
          up->version, " runs with it at its default, off)"));
    }
    if (auto it = features.find("SchedulerPreQueueingHints");
        it != features.end() && it->second &&
        UpstreamAtLeast(up->version, "v1.37.2")) {
      return absl::InvalidArgumentError(absl::StrCat(
          "impl: features.SchedulerPreQueueingHints: true is not implemented "
          "(",
          up->version, " runs with it at its default, off)"));
    }
  }
  // Every layer of every version is implemented. (v1.36's NodeResourcesFit
  // also registers DeviceClass events, DRAExtendedResource being on by
  // default from v1.36; impl registers them in every version, as no trace
  // can send one.)
  return up;
}

absl::Status RefuseUnsummableRequests(const Step& step, const Upstream& up) {
  if (!up.pod_requests_summed_as_quantities) return absl::OkStatus();
  for (const Pod* pod :
       {step.pod.get(), step.old_pod.get(), step.new_pod.get()}) {
    if (pod == nullptr) continue;
    absl::Status s = CheckRequestsSummable(*pod);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace schedtrace::impl
