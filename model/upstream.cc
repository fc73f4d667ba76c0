#include "model/upstream.h"

#include "absl/strings/str_cat.h"
#include "core/upstream_versions.h"

namespace schedtrace::model {

const std::vector<UpstreamSwitch>& UpstreamSwitches() {
  static const auto* switches = new std::vector<UpstreamSwitch>{
      {"pre_enqueue_and_scheduling_gates", "kubernetes/kubernetes#113275",
       "PreEnqueue plugins and scheduling gates (KEP-3521)",
       &Upstream::pre_enqueue_and_scheduling_gates},
      {"add_pod_of_assumed_pod_rebuilds_state", "kubernetes/kubernetes#110279",
       "AddPod of an assumed pod replaces its podState via updatePod",
       &Upstream::add_pod_of_assumed_pod_rebuilds_state},
      {"deep_copy_keeps_unschedulable_plugins", "kubernetes/kubernetes#113275",
       "QueuedPodInfo.DeepCopy keeps UnschedulablePlugins and Gated",
       &Upstream::deep_copy_keeps_unschedulable_plugins},
      {"fit_skips_zero_scalar_requests", "kubernetes/kubernetes#111544",
       "NodeResourcesFit skips scalar resources requested at zero",
       &Upstream::fit_skips_zero_scalar_requests},
      {"queueing_hints_skip_uninteresting_events",
       "kubernetes/kubernetes#122629",
       "an event no plugin registered moves nothing and leaves "
       "moveRequestCycle",
       &Upstream::queueing_hints_skip_uninteresting_events},
      {"backoff_pods_without_rejector_plugins", "kubernetes/kubernetes#119105",
       "a failure with no rejector plugin goes to backoffQ",
       &Upstream::backoff_pods_without_rejector_plugins},
      {"permit_rejection_is_fit_error",
       "kubernetes/kubernetes#119046, kubernetes/kubernetes#119785",
       "a Permit rejection is a FitError naming the rejecting plugin",
       &Upstream::permit_rejection_is_fit_error},
      {"fit_skips_zero_requests", "kubernetes/kubernetes#116408",
       "NodeResourcesFit skips cpu, memory and ephemeral-storage requested "
       "at zero",
       &Upstream::fit_skips_zero_requests},
      {"unroll_wildcard_events", "kubernetes/kubernetes#118551",
       "plugins without EnqueueExtensions register every resource (CSIDriver "
       "and CSIStorageCapacity events move pods)",
       &Upstream::unroll_wildcard_events},
      {"node_unschedulable_watches_node_update", "kubernetes/kubernetes#122334",
       "NodeUnschedulable registers Node Add|Update",
       &Upstream::node_unschedulable_watches_node_update},
      {"pop_clears_rejector_plugins", "kubernetes/kubernetes#120334",
       "Pop clears the pod's UnschedulablePlugins",
       &Upstream::pop_clears_rejector_plugins},
      {"node_add_registers_taint_update", "kubernetes/kubernetes#122292",
       "a plugin registering Node Add also gets Node UpdateNodeTaint",
       &Upstream::node_add_registers_taint_update},
      {"requeue_pods_without_profile_hints", "kubernetes/kubernetes#118551",
       "a queued pod of a scheduler name no profile serves moves on any "
       "event of interest",
       &Upstream::requeue_pods_without_profile_hints},
      {"scheduling_gates_registers_no_events", "kubernetes/kubernetes#121677",
       "SchedulingGates registers no events",
       &Upstream::scheduling_gates_registers_no_events},
      {"move_skips_scheduling_gated_pods",
       "kubernetes/kubernetes#124618, kubernetes/kubernetes#125527",
       "moves skip gated pods SchedulingGates rejected",
       &Upstream::move_skips_scheduling_gated_pods},
      {"pod_scheduling_readiness_locked_on", "KEP-3521 GA (v1.30)",
       "PodSchedulingReadiness is locked on",
       &Upstream::pod_scheduling_readiness_locked_on},
      {"cluster_event_match_wildcard_resource", "kubernetes/kubernetes#123117",
       "a registered event of resource \"*\" matches every resource",
       &Upstream::cluster_event_match_wildcard_resource},
      {"node_update_emits_every_change", "kubernetes/kubernetes#121755",
       "a node update fires every changed property, compared semantically",
       &Upstream::node_update_emits_every_change},
      {"node_affinity_pre_filter_unions_terms", "kubernetes/kubernetes#116465",
       "NodeAffinity PreFilter unions the node names of its terms",
       &Upstream::node_affinity_pre_filter_unions_terms},
      {"pre_filter_ignores_unknown_node_names", "kubernetes/kubernetes#119779",
       "PreFilter node names missing from the snapshot are skipped",
       &Upstream::pre_filter_ignores_unknown_node_names},
      {"diagnosis_plugin_sets_allocated_lazily", "kubernetes/kubernetes#119517",
       "the nominated node's rejecting filters are lost, and a FitError no "
       "plugin caused leaves a nil plugin set a PreEnqueue rejection panics "
       "on",
       &Upstream::diagnosis_plugin_sets_allocated_lazily},
      {"node_annotation_action", "kubernetes/kubernetes#118389",
       "the UpdateNodeAnnotation action, part of Update and All",
       &Upstream::node_annotation_action},
      {"pod_requests_summed_as_quantities", "kubernetes/kubernetes#115367",
       "a pod's requests are summed as exact quantities and rounded once; "
       "NodeResourcesFit counts a negative request as 0",
       &Upstream::pod_requests_summed_as_quantities},
      {"queueing_hints", "kubernetes/kubernetes#128472",
       "SchedulerQueueingHints on: QueueingHints decide moves; in-flight "
       "events decide where a failed pod goes",
       &Upstream::queueing_hints},
      {"pop_from_backoff_q", "KEP-5142 (SchedulerPopFromBackoffQ)",
       "Pop takes from backoffQ when activeQ is empty; backoff expiries align "
       "to one-second windows",
       &Upstream::pop_from_backoff_q},
      {"activate_sets_move_request_cycle",
       "v1.32 (PR not pinned; likely kubernetes/kubernetes#128170)",
       "Activate of a pod it does not activate sets moveRequestCycle",
       &Upstream::activate_sets_move_request_cycle},
      {"backoff_counts_failures", "kubernetes/kubernetes#128748",
       "backoff grows with the failures in a row, not with the attempts",
       &Upstream::backoff_counts_failures},
      {"gated_pods_back_off", "kubernetes/kubernetes#126029",
       "a gated pod that has been tried backs off; before, a gated pod "
       "never did",
       &Upstream::gated_pods_back_off},
      {"error_backoff_queue", "kubernetes/kubernetes#130214",
       "a pod failed by an error backs off in a backoffQ of its own",
       &Upstream::error_backoff_queue},
      {"requeue_skips_nominator", "v1.31 (PR not pinned)",
       "a requeued or activated pod is not nominated again from its status",
       &Upstream::requeue_skips_nominator},
      {"gated_pods_move_on_gating_events", "kubernetes/kubernetes#127180",
       "a gated pod is considered for its gating plugin's events; before, a "
       "pod gated by SchedulingGates never moved",
       &Upstream::gated_pods_move_on_gating_events},
      {"backoff_includes_its_end",
       "v1.33 (PR not pinned; likely kubernetes/kubernetes#130680)",
       "a pod whose backoff ends exactly now is still backing off",
       &Upstream::backoff_includes_its_end},
      {"gated_pod_replaces_unschedulable_record",
       "kubernetes/kubernetes#135368",
       "a gated pod replaces the unschedulablePods record of its key",
       &Upstream::gated_pod_replaces_unschedulable_record},
      {"nominator_ignores_empty_node_name", "kubernetes/kubernetes#139904",
       "an empty nominated node name clears the nomination instead of "
       "keying it",
       &Upstream::nominator_ignores_empty_node_name},
      {"move_request_cycle_removed", "kubernetes/kubernetes#138420",
       "moveRequestCycle is gone (-1)", &Upstream::move_request_cycle_removed},
      {"add_nominates_gated_pods", "kubernetes/kubernetes#139057",
       "Add nominates the pod before PreEnqueue, gated or not",
       &Upstream::add_nominates_gated_pods},
      {"move_to_active_leaves_other_queues", "v1.37 (entity queue)",
       "a gated pod joins unschedulablePods whatever other copy exists; "
       "backoffQ keeps its copy of a pod moved to activeQ",
       &Upstream::move_to_active_leaves_other_queues},
      {"wildcard_events_move_gated_pods", "v1.37 (entity queue)",
       "the wildcard event considers gated pods too",
       &Upstream::wildcard_events_move_gated_pods},
      {"unschedulable_flush_waits_from_last_flush", "v1.37 (FlushTimestamp)",
       "the leftover flush counts from a pod's last flush too",
       &Upstream::unschedulable_flush_waits_from_last_flush},
      {"pod_info_update_refuses_other_uid", "v1.37 (PodInfo.Update)",
       "a queued pod's record is not updated with a pod of another uid",
       &Upstream::pod_info_update_refuses_other_uid},
      {"target_pod_update_events", "kubernetes/kubernetes#135905",
       "a pod's update events name it TargetPod; a raised request is "
       "UpdatePodScaleUp",
       &Upstream::target_pod_update_events},
      {"remove_pod_subtracts_stored_requests", "kubernetes/kubernetes#129635",
       "NodeInfo.RemovePod subtracts the requests of the pod it stored, not "
       "of the object given",
       &Upstream::remove_pod_subtracts_stored_requests},
      {"forget_of_unknown_pod_succeeds", "kubernetes/kubernetes#134157",
       "ForgetPod of a pod the cache does not hold returns no error",
       &Upstream::forget_of_unknown_pod_succeeds},
      {"assumed_pods_never_expire", "kubernetes/kubernetes#136204",
       "no ttl, FinishBinding or cleanup: assumed pods never expire, none is "
       "bindingFinished",
       &Upstream::assumed_pods_never_expire},
      {"fit_error_clears_nominated_node", "kubernetes/kubernetes#135007",
       "a FitError without PostFilter plugins clears the pod's nomination",
       &Upstream::fit_error_clears_nominated_node},
      {"binding_cycle_nominates_node", "kubernetes/kubernetes#133021",
       "the binding cycle patches nominatedNodeName to the pod's node before "
       "WaitOnPermit",
       &Upstream::binding_cycle_nominates_node},
      {"unified_pod_handler", "kubernetes/kubernetes#134157",
       "one pod handler; deleting an assumed pod rejects or forgets it at "
       "once",
       &Upstream::unified_pod_handler},
      {"node_delete_moves_pods", "kubernetes/kubernetes#127464",
       "a node delete moves pods with Node/Delete",
       &Upstream::node_delete_moves_pods},
      {"storage_class_generic_handler", "kubernetes/kubernetes#127798",
       "every StorageClass Add, Update and Delete moves pods",
       &Upstream::storage_class_generic_handler},
      {"pre_filter_node_plugins_are_rejectors", "kubernetes/kubernetes#122251",
       "PreFilter plugins that narrowed the nodes are rejectors; the "
       "nominated node's rejectors are kept",
       &Upstream::pre_filter_node_plugins_are_rejectors},
      {"nominated_pod_delete_moves_pods", "v1.35 (eventhandlers.go)",
       "deleting a nominated pod or changing its nomination moves pods of "
       "lower or equal priority",
       &Upstream::nominated_pod_delete_moves_pods},
      {"failure_handler_skips_recreated_pod", "kubernetes/kubernetes#138324",
       "the failure handler neither requeues nor patches a pod re-created "
       "with another uid",
       &Upstream::failure_handler_skips_recreated_pod},
      {"no_implicit_node_taint_update", "kubernetes/kubernetes#138708",
       "no implicit Node UpdateNodeTaint registration for Node Add",
       &Upstream::no_implicit_node_taint_update},
  };
  return *switches;
}

absl::StatusOr<Upstream> UpstreamProfile(std::string_view v) {
  const std::string version(v);
  Upstream up;
  up.version = version;
  if (version == "v1.25.12") {
    up.pre_enqueue_and_scheduling_gates = false;
    up.add_pod_of_assumed_pod_rebuilds_state = false;
    up.deep_copy_keeps_unschedulable_plugins = false;
    up.fit_skips_zero_scalar_requests = false;
  } else if (UpstreamAtLeast(version, "v1.30.12")) {
    up.queueing_hints_skip_uninteresting_events = true;
    up.backoff_pods_without_rejector_plugins = true;
    up.permit_rejection_is_fit_error = true;
    up.fit_skips_zero_requests = true;
    up.unroll_wildcard_events = true;
    up.node_unschedulable_watches_node_update = true;
    up.pop_clears_rejector_plugins = true;
    up.scheduling_gates_registers_no_events = true;
    up.node_add_registers_taint_update = true;
    up.requeue_pods_without_profile_hints = true;
    up.move_skips_scheduling_gated_pods = true;
    up.pod_scheduling_readiness_locked_on = true;
    up.cluster_event_match_wildcard_resource = true;
    up.node_update_emits_every_change = true;
    up.node_affinity_pre_filter_unions_terms = true;
    up.pre_filter_ignores_unknown_node_names = true;
    up.diagnosis_plugin_sets_allocated_lazily = true;
    up.node_annotation_action = true;
    up.pod_requests_summed_as_quantities = true;
    if (UpstreamAtLeast(version, "v1.35.4")) {
      up.backend_queue = true;
      up.queueing_hints = true;
      up.pop_from_backoff_q = true;
      up.activate_sets_move_request_cycle = true;
      up.backoff_counts_failures = true;
      up.gated_pods_back_off = true;
      up.error_backoff_queue = true;
      up.requeue_skips_nominator = true;
      up.gated_pods_move_on_gating_events = true;
      up.backoff_includes_its_end = true;
    }
    if (UpstreamAtLeast(version, "v1.36.3")) {
      up.gated_pod_replaces_unschedulable_record = true;
    }
    if (UpstreamAtLeast(version, "v1.37.2")) {
      up.nominator_ignores_empty_node_name = true;
      up.move_request_cycle_removed = true;
      up.add_nominates_gated_pods = true;
      up.move_to_active_leaves_other_queues = true;
      up.wildcard_events_move_gated_pods = true;
      up.unschedulable_flush_waits_from_last_flush = true;
      up.pod_info_update_refuses_other_uid = true;
      up.target_pod_update_events = true;
    }
  } else if (version != "v1.26.7") {
    // An unknown version; v1.26.7 is every switch's default.
    return absl::InvalidArgumentError(
        absl::StrCat("model: unknown upstream version \"", version,
                     "\" (known: ", KnownUpstreamsText(), ")"));
  }
  // The cache layer's changes from v1.35 on.
  if (UpstreamAtLeast(version, "v1.35.4")) {
    up.remove_pod_subtracts_stored_requests = true;
    up.forget_of_unknown_pod_succeeds = true;
  }
  if (UpstreamAtLeast(version, "v1.36.3")) {
    up.assumed_pods_never_expire = true;
  }
  // The scheduler layer's changes from v1.35 on.
  if (UpstreamAtLeast(version, "v1.35.4")) {
    up.fit_error_clears_nominated_node = true;
    up.binding_cycle_nominates_node = true;
    up.unified_pod_handler = true;
    up.node_delete_moves_pods = true;
    up.storage_class_generic_handler = true;
    up.pre_filter_node_plugins_are_rejectors = true;
    up.nominated_pod_delete_moves_pods = true;
  }
  if (UpstreamAtLeast(version, "v1.36.3")) {
    up.failure_handler_skips_recreated_pod = true;
  }
  if (UpstreamAtLeast(version, "v1.37.2")) {
    up.no_implicit_node_taint_update = true;
  }
  return up;
}

absl::StatusOr<Upstream> UpstreamFor(const TraceHeader& header) {
  absl::StatusOr<Upstream> profile =
      UpstreamProfile(EffectiveUpstream(header.upstream));
  if (!profile.ok()) return profile.status();
  Upstream up = *profile;
  const std::string version = up.version;
  const auto& features = header.config.features;
  if (up.pod_scheduling_readiness_locked_on) {
    if (auto it = features.find("PodSchedulingReadiness");
        it != features.end() && !it->second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "model: features.PodSchedulingReadiness is locked to true in ",
          version));
    }
  }
  if (auto it = features.find("SchedulerQueueingHints");
      it != features.end() && it->second != up.queueing_hints) {
    return absl::InvalidArgumentError(
        up.queueing_hints
            ? absl::StrCat(
                  "model: features.SchedulerQueueingHints is locked to true "
                  "in ",
                  version)
            : absl::StrCat(
                  "model: features.SchedulerQueueingHints is not modelled (",
                  version, " runs with it off)"));
  }
  // The hints a queue-layer trace scripts (docs/FORMAT.md, E14) exist from
  // v1.35: before, a hint other than the default is refused.
  if (!up.queueing_hints && header.layer != Layer::kCache) {
    const auto& map = header.config.cluster_event_map;
    for (size_t i = 0; i < map.size(); ++i) {
      if (!map[i].hint.empty() && map[i].hint != "Queue") {
        return absl::InvalidArgumentError(absl::StrCat(
            "model: config.clusterEventMap[", i, "].hint \"", map[i].hint,
            "\" is refused: ", version,
            " has no QueueingHints (hints are scripted from v1.35.4)"));
      }
    }
  }
  // The gates of the queue from v1.35 (What each version accepts).
  if (up.queueing_hints) {
    if (auto it = features.find("SchedulerPopFromBackoffQ");
        it != features.end()) {
      up.pop_from_backoff_q = it->second;
    }
    if (auto it = features.find("SchedulerAsyncAPICalls");
        it != features.end() && it->second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "model: features.SchedulerAsyncAPICalls: true is not modelled (",
          version, " runs with it at its default, off)"));
    }
    if (auto it = features.find("SchedulerPreQueueingHints");
        it != features.end() && it->second &&
        UpstreamAtLeast(version, "v1.37.2")) {
      return absl::InvalidArgumentError(absl::StrCat(
          "model: features.SchedulerPreQueueingHints: true is not modelled (",
          version, " runs with it at its default, off)"));
    }
  }
  return up;
}

}  // namespace schedtrace::model
