// The model's version profiles: every behaviour that differs between the
// upstream versions a trace may name (core/upstream_versions.h) is one
// named switch here, true for the newer behaviour, each citing the upstream
// change. The model's code reads a switch where upstream's code differs, and
// nowhere else. impl/upstream.h holds impl's own copy of the same switches.
//
//   absl::StatusOr<Upstream> up = UpstreamFor(header);
//   if (up->pop_clears_rejector_plugins) ...
#ifndef SCHEDTRACE_MODEL_UPSTREAM_H_
#define SCHEDTRACE_MODEL_UPSTREAM_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/trace.h"

namespace schedtrace::model {

struct Upstream {
  std::string version;  // "v1.25.12", "v1.26.7", "v1.30.12", ...

  // --- added in v1.26 (false in v1.25.12) ---

  // KEP-3521, kubernetes#113275: PreEnqueue plugins and the SchedulingGates
  // plugin (runPreEnqueuePlugins, addToActiveQ); v1.25's PodSpec has no
  // schedulingGates, so a pod's gates are dropped (isPodUpdated ignores
  // them) and no pod is ever gated.
  bool pre_enqueue_and_scheduling_gates = true;
  // kubernetes#110279: cacheImpl.AddPod of an assumed pod goes through
  // updatePod (a new podState: bindingFinished reset, NodeInfo refreshed);
  // v1.25 deletes it from assumedPods and keeps the assumed podState.
  bool add_pod_of_assumed_pod_rebuilds_state = true;
  // v1.26 (with kubernetes/kubernetes#113275): QueuedPodInfo.DeepCopy copies
  // UnschedulablePlugins and Gated; v1.25's copy drops them, so a failure after
  // assume hands the queue a pod with no plugins.
  bool deep_copy_keeps_unschedulable_plugins = true;
  // kubernetes#111544: NodeResourcesFit's fitsRequest skips a scalar
  // resource the pod requests zero of.
  bool fit_skips_zero_scalar_requests = true;

  // --- added by v1.30 (false in v1.25.12 and v1.26.7) ---

  // kubernetes#122629: isEventOfInterest: a move for an event no plugin
  // registered returns early, without setting moveRequestCycle.
  bool queueing_hints_skip_uninteresting_events = false;
  // kubernetes#119105 (hint-off path from v1.29):
  // AddUnschedulableIfNotPresent sends a pod with no rejector plugins to
  // backoffQ even without a move request.
  bool backoff_pods_without_rejector_plugins = false;
  // kubernetes#119046, #119785: a Permit rejection, in the cycle or while
  // waiting, is a FitError naming the rejecting plugin, which becomes the
  // pod's UnschedulablePlugins.
  bool permit_rejection_is_fit_error = false;
  // kubernetes#116408: fitsRequest skips cpu, memory and ephemeral-storage
  // the pod requests zero of.
  bool fit_skips_zero_requests = false;
  // kubernetes#118551: plugins without EnqueueExtensions register every
  // resource (UnrollWildCardResource): CSIDriver and CSIStorageCapacity
  // events get handlers and move pods.
  bool unroll_wildcard_events = false;
  // kubernetes#122334: NodeUnschedulable registers Node Add|Update (was
  // Add|UpdateNodeTaint).
  bool node_unschedulable_watches_node_update = false;
  // kubernetes#120334: Pop clears UnschedulablePlugins (and PendingPlugins).
  bool pop_clears_rejector_plugins = false;
  // kubernetes#122292: buildQueueingHintMap registers Node UpdateNodeTaint
  // for a plugin that registers Node Add without it (scheduler layer).
  bool node_add_registers_taint_update = false;
  // kubernetes#118551: the QueueingHint maps are per profile, and
  // isPodWorthRequeuing requeues a pod whose scheduler name has none (a pod
  // re-created for another scheduler while queued) on any event of
  // interest (scheduler layer; the queue layer registers every name).
  bool requeue_pods_without_profile_hints = false;
  // kubernetes#121677: SchedulingGates registers no events.
  bool scheduling_gates_registers_no_events = false;
  // kubernetes#124618 (narrowed by #125527): movePodsToActiveOrBackoffQueue
  // skips a gated pod SchedulingGates rejected.
  bool move_skips_scheduling_gated_pods = false;
  // KEP-3521 GA: PodSchedulingReadiness is locked on; a header turning it
  // off is refused.
  bool pod_scheduling_readiness_locked_on = false;
  // kubernetes#123117: ClusterEvent.Match: a registered event whose
  // resource is "*" matches every resource with a common action bit.
  bool cluster_event_match_wildcard_resource = false;
  // kubernetes#121755: nodeSchedulingPropertiesChange returns every changed
  // property (each moves pods), compared with Semantic.DeepEqual (which
  // came, apparently, with kubernetes/kubernetes#118389).
  bool node_update_emits_every_change = false;
  // kubernetes#116465: NodeAffinity PreFilter: node names are the union
  // over the terms, and only an empty union is unresolvable.
  bool node_affinity_pre_filter_unions_terms = false;
  // kubernetes#119779 (the v1.30 form of #125197): findNodesThatFitPod
  // skips PreFilter node names the snapshot lacks instead of failing the
  // cycle.
  bool pre_filter_ignores_unknown_node_names = false;
  // kubernetes#119517 (v1.29): Diagnosis.UnschedulablePlugins starts nil and
  // is allocated by AddPluginStatus. evaluateNominatedNode takes the
  // Diagnosis by value, so the nominated node's rejectors land in a set the
  // copy allocates and are lost; and a FitError no plugin caused hands
  // handleSchedulingFailure a nil set, which runPreEnqueuePlugins panics on
  // when a PreEnqueue plugin later rejects the pod.
  bool diagnosis_plugin_sets_allocated_lazily = false;
  // kubernetes#118389: framework.ActionType gains UpdateNodeAnnotation (a
  // node update changing annotations, NodeAnnotationChange), which Update
  // and All include; before, the action name is unknown (core's
  // ActionTypeBits).
  bool node_annotation_action = false;
  // kubernetes#115367 (v1.27): calculateResource and NodeResourcesFit's
  // computePodResourceRequest take resourcehelper.PodRequests, which adds
  // and compares the requests as exact quantities and converts the result
  // once (v1.26 converts each list, rounding each up, and adds integers);
  // NodeResourcesFit then raises every request to at least 0
  // (SetMaxResource on a zero Resource).
  bool pod_requests_summed_as_quantities = false;

  // --- from v1.35 (queue layer) ---

  // Which queue the model runs: backend/queue's (BackendQueue,
  // model/backend_queue.h) from v1.35.4, internal/queue's (PriorityQueue,
  // model/queue.h) before. Not a switch: the two are the same upstream
  // queue at different versions, and the model keeps the older one for the
  // versions that ran it. BackendQueue runs v1.35's code for both settings
  // of SchedulerQueueingHints below; its hint-off path is v1.35's too,
  // whose changes since v1.30 no build of v1.35 or later can run (the gate
  // is locked on), so none is a switch.
  bool backend_queue = false;
  // KEP-4247, kubernetes#128472 (on by default since v1.32, GA and locked
  // on in v1.34): the feature gate SchedulerQueueingHints. QueueingHints
  // decide every move (buildQueueingHintMap keeps the plugins' own
  // functions and their hint-on registrations), in-flight pods and the
  // events received meanwhile decide where a failed pod goes, and the
  // scheduler neither pre-checks a node's pods nor pre-filters an assigned
  // pod's. Off (BackendQueue): addUnschedulableWithoutQueueingHint and
  // moveRequestCycle, the default hint for every registration, no
  // in-flight events, AssignedPodAdded and AssignedPodUpdated,
  // preCheckForNode; off on the older queue, v1.30's PriorityQueue.
  bool queueing_hints = false;
  // KEP-5142 (Beta, on by default since v1.33): SchedulerPopFromBackoffQ.
  // Pop takes backoffQ's head when activeQ is empty, PreEnqueue runs when a
  // pod enters backoffQ, and backoff expiries align to one-second windows.
  bool pop_from_backoff_q = false;
  // Changes between v1.30 and v1.35 split out of queueing_hints, each
  // checked by reverting it at v1.35.4 (upstream/reverts/v1.35.4/).
  //
  // (v1.32; the PR not pinned, most likely kubernetes#128170, KEP-4832's
  // asynchronous preemption, whose failures Activate their pods)
  // PriorityQueue.Activate: a pod it does not activate (in flight, already
  // in activeQ, or unknown) sets moveRequestCycle to the scheduling cycle;
  // v1.30's Activate leaves it.
  bool activate_sets_move_request_cycle = false;
  // kubernetes#128748 (v1.34): backoffQueue.getBackoffTime counts the
  // pod's failures in a row (ConsecutiveErrorsCount after an error, else
  // UnschedulableCount); before, its Attempts, which every Pop counts.
  bool backoff_counts_failures = false;
  // kubernetes#126029 (v1.32): a gated pod that has been tried backs off
  // like any other; before, isPodBackingoff said no for every gated pod.
  bool gated_pods_back_off = false;
  // kubernetes#130214 (v1.33): backoffQueue.add puts a pod no plugin
  // rejected (an error) in a heap of its own, podErrorBackoffQ, flushed
  // after podBackoffQ and never popped by Pop; before, one backoffQ held
  // every pod.
  bool error_backoff_queue = false;
  // (v1.31; the PR not pinned) AddUnschedulableIfNotPresent and activate
  // no longer add the pod to the nominator again (from its status, the
  // lister permitting); before, both ended with addNominatedPodUnlocked,
  // which dropped a nomination the status did not carry.
  bool requeue_skips_nominator = false;
  // kubernetes#127180 (v1.34): movePodsToActiveOrBackoffQueue considers a
  // gated pod for an event its gating plugin registered (GatingPlugin,
  // GatingPluginEvents); before, it skipped every pod gated with
  // SchedulingGates among its rejectors, whatever the event.
  bool gated_pods_move_on_gating_events = false;
  // (v1.33; the PR not pinned, most likely kubernetes#130680 with the
  // one-second windows, but whatever SchedulerPopFromBackoffQ says)
  // backoffQueue.isPodBackingoff: a pod whose backoff ends exactly now is
  // still backing off (!Before); before, After(now) said it was done.
  bool backoff_includes_its_end = false;

  // --- from v1.36 (queue layer) ---

  // kubernetes#135368: moveToActiveQ and moveToBackoffQ (the gated-pods
  // metrics fix, unschedulablePods.addOrUpdate with gatedBefore): a gated
  // pod replaces the record of its key in unschedulablePods; v1.35 keeps
  // the record already there.
  bool gated_pod_replaces_unschedulable_record = false;

  // --- from v1.37 (queue layer) ---

  // kubernetes#139904: nominator.addNominatedPodUnlocked: an empty node
  // name (a nomination cleared by ModeOverride "") clears the pod's
  // nomination and keys none; before, the pod was listed under "".
  bool nominator_ignores_empty_node_name = false;
  // kubernetes#138420 (QueueingHints graduate): moveRequestCycle is gone.
  // Before, every move of interest and every Activate of a pod it did not
  // activate set it to the scheduling cycle, read only without hints.
  bool move_request_cycle_removed = false;
  // kubernetes#139057: addPod nominates the pod before PreEnqueue, gated or
  // not; before, moveToActiveQ nominated a pod it added to activeQ for a
  // pod add or an update of a pod in no queue.
  bool add_nominates_gated_pods = false;
  // The v1.37 entity queue (moveToActiveQ): a gated pod goes to
  // unschedulablePods even when a copy is in activeQ or backoffQ, and a
  // pod moved to activeQ is not taken out of backoffQ; before, the former
  // did nothing and the latter deleted the backoffQ copy.
  bool move_to_active_leaves_other_queues = false;
  // moveEntitiesToActiveOrBackoffQueue considers a gated pod for the
  // wildcard event too (before: only for its gating plugin's events).
  bool wildcard_events_move_gated_pods = false;
  // flushUnschedulableEntitiesLeftover counts a pod's time from its last
  // flush too (QueuedPodInfo.FlushTimestamp), so a pod the flush left gated
  // waits a whole period again.
  bool unschedulable_flush_waits_from_last_flush = false;
  // PodInfo.Update (framework/types.go) refuses a pod of another uid: the
  // queue's Update then leaves the record it found as it was (and adds the
  // new pod when the record was in unschedulablePods); before, the record
  // took the other pod.
  bool pod_info_update_refuses_other_uid = false;
  // kubernetes#135905 (the TargetPod resource; UpdatePodScaleUp came in
  // the same release, its pull request not pinned):
  // framework.PodSchedulingPropertiesChange: the updated pod's own events
  // are TargetPod (other unassigned pods' UnscheduledPod), and a raised
  // request is UpdatePodScaleUp; before, every unassigned pod's events are
  // UnschedulablePod and a raise is no event of its own. In the scheduler
  // layer the plugins register TargetPod and AssignedPod events with it
  // (model/queueing_hints.cc); before, Pod events, which every pod's events
  // match, with hints that ask whether the update is the pod's own.
  bool target_pod_update_events = false;

  // --- added by v1.35 and later (false up to v1.30.12) (cache layer) ---

  // kubernetes#129635 (v1.33): NodeInfo.RemovePod subtracts the requests
  // of the PodInfo it removes (PodInfo.CalculateResource, computed when
  // the pod was added), not those of the pod object it is given.
  bool remove_pod_subtracts_stored_requests = false;
  // kubernetes#134157 (v1.35): cacheImpl.ForgetPod of a pod the cache does
  // not hold returns nil (was: "wasn't assumed so cannot be forgotten").
  bool forget_of_unknown_pod_succeeds = false;
  // kubernetes#136204 (v1.36): the cache has no ttl, no
  // cacheImpl.FinishBinding and no cleanupAssumedPods: an assumed pod stays
  // until it is added, forgotten or removed, and none is bindingFinished
  // (c_finish_binding and c_cleanup change nothing, never fail).
  bool assumed_pods_never_expire = false;

  // --- added by v1.35 and later (false up to v1.30.12) (scheduler layer,
  // which runs BackendQueue with the plugins' QueueingHints,
  // model/queueing_hints.h, when queueing_hints is on) ---

  // kubernetes#135007 (v1.35): schedulingCycle: a FitError without
  // PostFilter plugins carries clearNominatedNode, so the failure handler
  // clears the pod's nomination and patches nominatedNodeName "".
  bool fit_error_clears_nominated_node = false;
  // kubernetes#133021 (NominatedNodeNameForExpectation, on by default from
  // v1.35): bindingCycle runs PreBindPreFlight (TracePreBind answers
  // Success) and patches the pod's nominatedNodeName to its node before
  // WaitOnPermit.
  bool binding_cycle_nominates_node = false;
  // kubernetes#134157 (v1.35): one pod handler (addPod, updatePod,
  // deletePod) instead of the two filtering ones; deleting an assumed pod
  // (or starting its deletion) goes through handleAssumedPodDeletion, which
  // rejects it if waiting on Permit and else forgets it at once; deleting a
  // pod that is not assumed rejects no waiting pod.
  bool unified_pod_handler = false;
  // kubernetes#127464 (v1.32): deleteNodeFromCache moves pods with the
  // Node/Delete event.
  bool node_delete_moves_pods = false;
  // kubernetes#127798 (v1.32): StorageClass events go through
  // buildEvtResHandler: every Add, Update and Delete moves pods.
  bool storage_class_generic_handler = false;
  // kubernetes#122251 (v1.31): RunPreFilterPlugins returns the PreFilter
  // plugins that narrowed the nodes, which start the Diagnosis'
  // UnschedulablePlugins (allocated from the start, so the nominated node's
  // rejecting filters are kept too).
  bool pre_filter_node_plugins_are_rejectors = false;
  // (unpinned; with KEP-5278's v1.35 changes) deletePodFromSchedulingQueue
  // and updatePodInSchedulingQueue: deleting a pod with a nominatedNodeName,
  // or changing one, moves the pods of lower or equal priority
  // (getLEPriorityPreCheck) with AssignedPodDelete.
  bool nominated_pod_delete_moves_pods = false;

  // --- added by v1.36 (scheduler layer) ---

  // kubernetes#138324 (in v1.36.3, not in v1.35.4): handleSchedulingFailure
  // neither requeues nor patches a pod the informer holds with another uid
  // (re-created while the pod was in flight); it calls Done for the popped
  // one. Before, the re-created pod took the popped one's place in the
  // queue, with its attempts, backoff and plugins.
  bool failure_handler_skips_recreated_pod = false;

  // --- added by v1.37 (scheduler layer) ---

  // kubernetes#138708: buildQueueingHintMap no longer registers Node
  // UpdateNodeTaint for a plugin registering Node Add without it (undoes
  // node_add_registers_taint_update in the scheduler layer).
  bool no_implicit_node_taint_update = false;
};

// One switch, for tools that explain a difference between versions
// (`schedtrace versions`) and for tests that flip one switch alone.
struct UpstreamSwitch {
  std::string_view name;     // the field's name
  std::string_view change;   // "kubernetes/kubernetes#122629"
  std::string_view summary;  // what the newer behaviour does, one line
  bool Upstream::*field;
};

// Every switch above, in declaration order.
const std::vector<UpstreamSwitch>& UpstreamSwitches();

// The profile of a known version (KnownUpstreams()), without the config
// checks; InvalidArgument for another.
absl::StatusOr<Upstream> UpstreamProfile(std::string_view version);

// The profile of `header.upstream` ("" is v1.26.7). InvalidArgument for an
// unknown version, and for a config the version cannot run (v1.30.12 with
// PodSchedulingReadiness off, or SchedulerQueueingHints on).
absl::StatusOr<Upstream> UpstreamFor(const TraceHeader& header);

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_UPSTREAM_H_
