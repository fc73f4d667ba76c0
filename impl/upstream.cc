#include "impl/upstream.h"

#include "absl/strings/str_cat.h"
#include "harness/upstream_versions.h"

namespace schedtrace::impl {

absl::StatusOr<Upstream> UpstreamProfile(std::string_view version) {
  Upstream up;
  up.version = std::string(version);
  if (version == "v1.25.12") {
    up.pre_enqueue_and_scheduling_gates = false;
    up.add_pod_of_assumed_pod_rebuilds_state = false;
    up.deep_copy_keeps_unschedulable_plugins = false;
    up.fit_skips_zero_scalar_requests = false;
  } else if (version == "v1.30.12") {
    up.queueing_hints_skip_uninteresting_events = true;
    up.backoff_pods_without_rejector_plugins = true;
    up.permit_rejection_is_fit_error = true;
    up.fit_skips_zero_requests = true;
    up.unroll_wildcard_events = true;
    up.node_unschedulable_watches_node_update = true;
    up.pop_clears_rejector_plugins = true;
    up.node_add_registers_taint_update = true;
    up.requeue_pods_without_profile_hints = true;
    up.scheduling_gates_registers_no_events = true;
    up.move_skips_scheduling_gated_pods = true;
    up.pod_scheduling_readiness_locked_on = true;
    up.cluster_event_match_wildcard_resource = true;
    up.node_update_emits_every_change = true;
    up.node_affinity_pre_filter_unions_terms = true;
    up.pre_filter_ignores_unknown_node_names = true;
    up.diagnosis_plugin_sets_allocated_lazily = true;
    up.node_annotation_action = true;
    up.pod_requests_summed_as_quantities = true;
  } else if (version != "v1.26.7") {
    return absl::InvalidArgumentError(
        absl::StrCat("impl: unknown upstream version \"", up.version,
                     "\" (known: ", KnownUpstreamsText(), ")"));
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
      it != features.end() && it->second) {
    return absl::InvalidArgumentError(
        absl::StrCat("impl: features.SchedulerQueueingHints is not "
                     "implemented (",
                     up->version, " runs with it off)"));
  }
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
