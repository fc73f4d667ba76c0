// impl's version profiles: every behaviour that differs between the
// upstream versions a trace may name (core/upstream_versions.h) is one
// named switch here, true for the newer behaviour, and UpstreamSwitches()
// says from which version on each is true. The fields have the names of
// model/upstream.h, so that a reader can match the two sides, but impl keeps
// its own table: the two systems share no scheduling decision (its test
// compares the two tables). impl's code reads a switch where upstream's code
// differs, and nowhere else.
//
//   absl::StatusOr<Upstream> up = UpstreamFor(header);
//   if (!up.ok()) return up.status();        // refused: InvalidArgument
//   PriorityQueue q(header.config, *up);
#ifndef SCHEDTRACE_IMPL_UPSTREAM_H_
#define SCHEDTRACE_IMPL_UPSTREAM_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/trace.h"

namespace schedtrace::impl {

// The defaults are v1.26.7's, the version a header without `upstream` names
// (UpstreamProfile gives every version's from UpstreamSwitches()).
struct Upstream {
  std::string version = "v1.26.7";

  // --- added in v1.26 (false in v1.25.12) ---

  // KEP-3521, kubernetes#113275: PreEnqueue plugins and SchedulingGates.
  // v1.25 runs no PreEnqueue plugin, and its PodSpec has no schedulingGates:
  // isPodUpdated cannot see them.
  bool pre_enqueue_and_scheduling_gates = true;
  // kubernetes#110279: cacheImpl.AddPod of an assumed pod calls updatePod
  // (a new podState); v1.25 only unassumes it on the same node.
  bool add_pod_of_assumed_pod_rebuilds_state = true;
  // v1.26 (with kubernetes/kubernetes#113275): QueuedPodInfo.DeepCopy copies
  // UnschedulablePlugins and Gated.
  bool deep_copy_keeps_unschedulable_plugins = true;
  // kubernetes#111544: fitsRequest skips a scalar resource requested at 0.
  bool fit_skips_zero_scalar_requests = true;

  // --- added by v1.30 (false in v1.25.12 and v1.26.7) ---

  // kubernetes#122629: isEventOfInterest: a move for an event nothing
  // registered returns at once, leaving moveRequestCycle.
  bool queueing_hints_skip_uninteresting_events = false;
  // kubernetes#119105 (hint-off path from v1.29): a pod with no rejector
  // plugin goes to backoffQ in AddUnschedulableIfNotPresent.
  bool backoff_pods_without_rejector_plugins = false;
  // kubernetes#119046, #119785: a Permit rejection is a FitError naming the
  // rejecting plugin, which becomes the pod's UnschedulablePlugins.
  bool permit_rejection_is_fit_error = false;
  // kubernetes#116408: fitsRequest skips cpu, memory and ephemeral-storage
  // requested at 0.
  bool fit_skips_zero_requests = false;
  // kubernetes#118551: plugins without EnqueueExtensions register every
  // resource (UnrollWildCardResource): CSIDriver and CSIStorageCapacity.
  bool unroll_wildcard_events = false;
  // kubernetes#122334: NodeUnschedulable registers Node Add|Update.
  bool node_unschedulable_watches_node_update = false;
  // kubernetes#120334: Pop clears UnschedulablePlugins.
  bool pop_clears_rejector_plugins = false;
  // kubernetes#122292: buildQueueingHintMap registers Node UpdateNodeTaint
  // for a plugin registering Node Add without it.
  bool node_add_registers_taint_update = false;
  // kubernetes#118551: QueueingHint maps are per profile; a queued pod of a
  // scheduler name no profile serves is requeued by any event of interest
  // (isPodWorthRequeuing). The queue layer registers every name.
  bool requeue_pods_without_profile_hints = false;
  // kubernetes#121677: SchedulingGates registers no events.
  bool scheduling_gates_registers_no_events = false;
  // kubernetes#124618, #125527: a move skips a gated pod SchedulingGates
  // rejected.
  bool move_skips_scheduling_gated_pods = false;
  // KEP-3521 GA: PodSchedulingReadiness is locked on.
  bool pod_scheduling_readiness_locked_on = false;
  // kubernetes#123117: ClusterEvent.Match: a registered resource "*"
  // matches every resource.
  bool cluster_event_match_wildcard_resource = false;
  // kubernetes#121755 line: a node update fires every changed property,
  // compared with equality.Semantic.
  bool node_update_emits_every_change = false;
  // NodeAffinity.PreFilter fails only when the union of its terms' node
  // names is empty.
  bool node_affinity_pre_filter_unions_terms = false;
  // findNodesThatFitPod skips PreFilter node names the snapshot lacks.
  bool pre_filter_ignores_unknown_node_names = false;
  // kubernetes#119517 (v1.29): Diagnosis.UnschedulablePlugins is nil until
  // AddPluginStatus allocates it: the nominated node's rejectors are lost
  // with evaluateNominatedNode's copy, and a FitError without rejectors
  // leaves the pod a nil set that a PreEnqueue rejection panics on.
  bool diagnosis_plugin_sets_allocated_lazily = false;
  // kubernetes#118389: the UpdateNodeAnnotation action (bit 64), which
  // Update and All include; before, the name is unknown.
  bool node_annotation_action = false;
  // kubernetes#115367 (v1.27): calculateResource and NodeResourcesFit take
  // resourcehelper.PodRequests: requests added and compared as exact
  // quantities and converted once; the fit request raised to at least 0.
  bool pod_requests_summed_as_quantities = false;

  // --- added by v1.35 and later (false up to v1.30.12) (cache layer) ---

  // kubernetes#129635 (v1.33): NodeInfo.RemovePod subtracts the stored
  // PodInfo's requests (PodInfo.CalculateResource), not the argument's.
  bool remove_pod_subtracts_stored_requests = false;
  // kubernetes#134157 (v1.35): cacheImpl.ForgetPod of a pod not in the
  // cache returns nil.
  bool forget_of_unknown_pod_succeeds = false;
  // kubernetes#136204 (v1.36): no ttl, FinishBinding or cleanupAssumedPods:
  // assumed pods never expire and none is bindingFinished.
  bool assumed_pods_never_expire = false;

  // --- from v1.35 (queue layer: impl::BackendQueue; model/upstream.h
  // says what each switch does) ---
  // kubernetes#128472 (KEP-4247), SchedulerQueueingHints: impl runs
  // BackendQueue with it on, and the queue of v1.25 to v1.30 with it off.
  // Unlike the model, impl has no BackendQueue hint-off path: only a build
  // of v1.35 or later with the gate's default reverted runs it, which
  // `upstream/revert-check` compares with the model alone.
  bool queueing_hints = false;
  bool pop_from_backoff_q = false;  // KEP-5142, SchedulerPopFromBackoffQ
  bool activate_sets_move_request_cycle = false;           // v1.32
  bool backoff_counts_failures = false;                    // #128748
  bool gated_pods_back_off = false;                        // #126029
  bool error_backoff_queue = false;                        // #130214
  bool requeue_skips_nominator = false;                    // v1.31
  bool gated_pods_move_on_gating_events = false;           // #127180
  bool backoff_includes_its_end = false;                   // v1.33
  bool gated_pod_replaces_unschedulable_record = false;    // #135368
  bool nominator_ignores_empty_node_name = false;          // #139904
  bool move_request_cycle_removed = false;                 // kubernetes#138420
  bool add_nominates_gated_pods = false;                   // kubernetes#139057
  bool move_to_active_leaves_other_queues = false;         // v1.37
  bool wildcard_events_move_gated_pods = false;            // v1.37
  bool unschedulable_flush_waits_from_last_flush = false;  // v1.37
  bool pod_info_update_refuses_other_uid = false;          // v1.37
  // v1.37; also the plugins' registrations: before it they register
  // resource Pod (UnrollWildCardResource too) with hints that check the
  // event's pod is the unschedulable one (impl/queueing_hints.cc).
  bool target_pod_update_events = false;

  // --- from v1.35 (scheduler layer, on impl::BackendQueue with the
  // plugins' QueueingHints, impl/queueing_hints.h; judged for v1.35.4 and
  // v1.37.2, refused as not implemented for v1.36.3; the model's
  // model/upstream.h says what each does) ---
  bool fit_error_clears_nominated_node = false;        // kubernetes#135007
  bool binding_cycle_nominates_node = false;           // kubernetes#133021
  bool unified_pod_handler = false;                    // kubernetes#134157
  bool node_delete_moves_pods = false;                 // kubernetes#127464
  bool storage_class_generic_handler = false;          // kubernetes#127798
  bool pre_filter_node_plugins_are_rejectors = false;  // kubernetes#122251
  bool nominated_pod_delete_moves_pods = false;        // v1.35
  bool failure_handler_skips_recreated_pod =
      false;                                   // kubernetes#138324 (v1.36)
  bool no_implicit_node_taint_update = false;  // kubernetes#138708 (v1.37)
};

// One switch of impl's version table.
struct UpstreamSwitch {
  std::string_view name;   // the field's name
  std::string_view since;  // the oldest known version with it true
  bool Upstream::*field;
};

// Every switch of Upstream, in declaration order: impl's one table of what
// each version does.
const std::vector<UpstreamSwitch>& UpstreamSwitches();

// The profile of a known version ("v1.25.12", "v1.26.7", "v1.30.12"): each
// switch true from its `since` on. Without the config checks;
// InvalidArgument for another version.
absl::StatusOr<Upstream> UpstreamProfile(std::string_view version);

// The profile of `header.upstream` ("" is v1.26.7). InvalidArgument for an
// unknown version and for a config the version cannot run: v1.30.12 with
// features.PodSchedulingReadiness false (locked on), any version with
// features.SchedulerQueueingHints true (not implemented).
absl::StatusOr<Upstream> UpstreamFor(const TraceHeader& header);

// InvalidArgument naming the field when `up` sums requests as quantities and
// a pod of `step` has one beyond the range impl sums exactly (core's
// CheckRequestsSummable): the cache and scheduler systems refuse the step.
absl::Status RefuseUnsummableRequests(const Step& step, const Upstream& up);

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_UPSTREAM_H_
