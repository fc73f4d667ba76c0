#include "impl/mutants.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace schedtrace::impl {
namespace {

// Expected catchers, as the table names them.
constexpr std::string_view kP1 = "property 1 (no pod in two queues)";
constexpr std::string_view kGolden = "golden replay (state diff)";

// One entry per planted bug, in enum order (a data table, 500 lines: over
// the 80-line guideline because splitting a table only scatters it).
std::vector<MutantInfo> MakeTable() {
  using M = Mutant;
  return {
      // --- Queue -------------------------------------------------------
      {M::kTwoQueuesOnUpdate, "two-queues-on-update", "PriorityQueue::Update",
       "an update of a backing-off pod in unschedulablePods adds it to "
       "backoffQ without deleting it from unschedulablePods",
       kP1, "", ""},
      {M::kAddLeavesBackoff, "add-leaves-backoff", "PriorityQueue::Add",
       "Add of a pod in backoffQ puts it in activeQ and leaves the backoffQ "
       "entry",
       kP1, "", ""},
      {M::kActivateLeavesUnschedulable, "activate-leaves-unschedulable",
       "PriorityQueue::Activate",
       "Activate moves a pod to activeQ and leaves it in unschedulablePods",
       kP1, "", ""},
      {M::kDeleteMissesBackoff, "delete-misses-backoff",
       "PriorityQueue::Delete",
       "Delete of a pod in backoffQ leaves it there: a deleted pod is "
       "scheduled later",
       kGolden, "", ""},
      {M::kBackoffOffByOne, "backoff-off-by-one",
       "PriorityQueue::BackoffDurationNs",
       "backoff doubles once per attempt instead of once per attempt after "
       "the first (2 s on the first failure)",
       "golden replay (backoffExpiresAt); property 7 (backoff)", "", ""},
      {M::kBackoffOverflow, "pr105125-backoff-overflow",
       "PriorityQueue::BackoffDurationNs",
       "backoff doubles before comparing with the max, so it overflows to a "
       "negative duration with a huge max (old behaviour)",
       "regression trace", "#105094/PR #105125", "pr105125"},
      {M::kBackoffResetAfterIdle, "issue86373-backoff-reset-after-idle",
       "PriorityQueue::PopHandle",
       "a pod not retried within podMaxBackoffDuration starts its backoff "
       "over (the old backoff map dropped its entry)",
       "regression trace", "#86373 (PR #87616)", "issue86373"},
      {M::kBackoffExpiryInclusive, "backoff-expiry-inclusive",
       "PriorityQueue::IsPodBackingOff",
       "a pod is still backing off at the exact instant its backoff expires "
       "(>= instead of >)",
       kGolden, "", ""},
      {M::kBackoffExpiryWraps, "issue86373-backoff-expiry-wraps",
       "PriorityQueue::BackoffTimeNs",
       "timestamp + backoff as a wrapping int64 sum instead of Go's "
       "non-wrapping Time.Add: with a huge max the expiry lands in the past "
       "and the pod skips its backoff",
       "regression trace", "#86373 family (docs/UPSTREAM.md item 29)",
       "issue86373-backoff-expiry-saturates"},
      {M::kMoveRequestLost, "pr73309-move-request-lost",
       "PriorityQueue::AddUnschedulableIfNotPresent",
       "a move request during a pod's scheduling cycle is ignored: the failed "
       "pod goes to unschedulablePods instead of backoffQ (old behaviour)",
       "regression trace", "#73216/PR #73309", "pr73309"},
      {M::kMoveIgnoresPrecheck, "move-ignores-precheck",
       "PriorityQueue::MoveAllToActiveOrBackoffQueue",
       "a move request's precheck (the scheduler's preCheckForNode, the "
       "queue layer's key list) is not applied: every matching pod moves",
       kGolden, "", ""},
      {M::kMoveIgnoresBackoff, "move-ignores-backoff",
       "PriorityQueue::MovePodsToActiveOrBackoffQueue",
       "a move request sends pods still backing off straight to activeQ",
       kGolden, "", ""},
      {M::kMoveSkipsPodsWithoutPlugins, "move-skips-pods-without-plugins",
       "PriorityQueue::CollectCandidates",
       "the plugin index misses pods with no UnschedulablePlugins, so a move "
       "request that should move them is lost",
       kGolden, "", ""},
      {M::kMoveRequestCycleNotRecorded, "move-request-cycle-not-recorded",
       "PriorityQueue::MovePodsToActiveOrBackoffQueue",
       "a move request that moves no pod does not record moveRequestCycle, "
       "so a pod in flight misses it",
       kGolden, "", ""},
      {M::kLeftoverFlushInclusive, "leftover-flush-inclusive",
       "PriorityQueue::FlushUnschedulablePodsLeftover",
       "the 5-minute leftover flush moves a pod exactly "
       "podMaxInUnschedulablePodsDuration old (>= instead of >)",
       kGolden, "", ""},
      {M::kGatesIgnored, "gates-ignored", "PriorityQueue::RunPreEnqueuePlugins",
       "PreEnqueue is skipped: a pod with scheduling gates enters activeQ",
       "property 7 (a gated pod is never popped); golden replay", "", ""},
      {M::kGatedUpdateBackoff, "pr113275-gated-update-backoff",
       "PriorityQueue::IsPodBackingOff",
       "a gated pod counts as backing off, so an update that keeps it gated "
       "moves it to backoffQ (old behaviour)",
       "regression trace", "PR #113275", "pr113275"},
      {M::kNominationKeptOnDelete, "nomination-kept-on-delete",
       "PriorityQueue::Delete", "Delete leaves the pod's nomination behind",
       "property 9 (nominated pods are pending); golden replay", "", ""},
      {M::kNominateBoundPod, "pr109245-nominate-bound-pod",
       "PriorityQueue::AddNominatedPodUnlocked",
       "a pod the informer shows bound is nominated anyway (old behaviour)",
       "regression trace", "#109236/PR #109245", "pr109245"},
      {M::kAttemptsNotCounted, "attempts-not-counted",
       "PriorityQueue::PopHandle",
       "Pop does not count the attempt: backoff never grows", kGolden, "", ""},
      // --- Cache -------------------------------------------------------
      {M::kForgetLeaksRequests, "forget-leaks-requests", "Cache::ForgetPod",
       "ForgetPod drops the pod from its NodeInfo without subtracting its "
       "requests",
       "property 6 (cache accounting); golden replay", "", ""},
      {M::kPlaceholderKept, "pr86919-placeholder-kept", "Cache::RemoveFromNode",
       "a placeholder NodeInfo (node deleted before its pods) stays after its "
       "last pod leaves (old behaviour)",
       "regression trace; property 6", "PR #86919", "pr86919"},
      {M::kAddAssumedDoubleCount, "add-assumed-double-count", "Cache::AddPod",
       "AddPod confirming an assumed pod adds it again without removing the "
       "assumed copy: counted twice",
       "property 6 (cache accounting); golden replay", "", ""},
      {M::kExpireInclusive, "expire-inclusive", "Cache::CleanupAssumedPods",
       "an assumed pod expires exactly at its deadline (>= instead of >)",
       kGolden, "", ""},
      {M::kRemoveNodeDropsPods, "remove-node-drops-pods", "Cache::RemoveNode",
       "RemoveNode drops the NodeInfo with its pods instead of keeping a "
       "placeholder",
       kGolden, "", ""},
      {M::kRemovePodKeepsAssumed, "remove-pod-keeps-assumed",
       "Cache::RemovePod",
       "an informer delete of an assumed pod takes it off its node but "
       "leaves it assumed",
       kGolden, "", ""},
      // --- Scheduler ---------------------------------------------------
      {M::kWaitingPodNotRejected, "waiting-pod-not-rejected-on-delete",
       "Scheduler::DeletePodFromSchedulingQueue",
       "a pod deleted while waiting on Permit is not rejected: it stays "
       "assumed and can still bind",
       "property 4 (deleted waiting pods are rejected); golden replay", "", ""},
      {M::kAssumedPodRequeued, "issue100261-assumed-pod-requeued",
       "Scheduler::UpdatePodInSchedulingQueue",
       "an update of an assumed pod reaches PriorityQueue.Update, which "
       "queues a second copy (old behaviour)",
       "regression trace; property 2 (assumed pods are never requeued)",
       "#100261/PR #100286, #52914", "issue100261"},
      {M::kResyncProcessed, "pr96071-resync-processed",
       "Scheduler::UpdatePodInSchedulingQueue",
       "an update with an identical resourceVersion (a resync) is processed "
       "like a real update (old behaviour)",
       "regression trace", "PR #96071", "pr96071"},
      {M::kTombstoneMishandled, "pr106102-tombstone-mishandled",
       "Scheduler::OnPodDelete",
       "both informer filters judge a DeletedFinalStateUnknown by the stale "
       "carried object: an assumed pod's tombstone misses the cache, a queued "
       "pod's misses the queue (old behaviour)",
       "regression trace", "PR #106102", "pr106102"},
      {M::kBindFailureNotForgotten, "issue49314-bind-failure-not-forgotten",
       "Scheduler::HandleBindingCycleError",
       "a PreBind or Bind failure does not forget the assumed pod (nor "
       "request the move): it keeps its node's resources and its retry is "
       "skipped as assumed (old behaviour)",
       "regression trace; golden replay", "#49314", "issue49314"},
      {M::kNominationKeptOnFailure, "issue85677-nomination-kept-on-failure",
       "Scheduler::HandleSchedulingFailure",
       "a nominated pod that fails elsewhere (Reserve, Permit, no nodes) "
       "keeps its nomination, still reserving the old node (old behaviour)",
       "regression trace", "#85677", "issue85677"},
      {M::kAssumedPodScheduledTwice, "assumed-pod-scheduled-twice",
       "Scheduler::ScheduleOne",
       "a popped copy of an assumed pod is scheduled instead of skipped",
       "golden replay; property 2", "", ""},
      {M::kRejectedPodMoveNotDeferred, "rejected-pod-move-not-deferred",
       "Scheduler::HandleBindingCycleError",
       "the move request of a rejected waiting pod runs before its failure "
       "handler instead of after it, so the pod goes to backoffQ",
       kGolden, "", ""},
      {M::kFailureRequeuesDeletedPod, "failure-requeues-deleted-pod",
       "Scheduler::HandleSchedulingFailure",
       "a pod that failed after the informer deleted it is requeued",
       "golden replay; property 5", "", ""},
      // --- Filters and node choice -------------------------------------
      {M::kFitExactRequestRejected, "fit-exact-request-rejected",
       "ShortOf, under Insufficient (impl/filters.cc)",
       "a cpu request exactly equal to the node's free cpu no longer fits "
       "(>= instead of >)",
       "golden replay (out.result.node); generated traces", "", ""},
      {M::kMaxPodsOffByOne, "max-pods-off-by-one",
       "HeadroomOf, under Insufficient (impl/filters.cc)",
       "the pod-count check lets one pod too many onto a node (pods > "
       "allocatable instead of pods + 1 > allocatable)",
       "golden replay (filter-pod-count-limit); generated traces", "", ""},
      {M::kPreferNoScheduleFilters, "taint-prefer-no-schedule-filters",
       "ComputeNodeFacts, RunFilters (impl/filters.cc)",
       "TaintToleration filters on untolerated PreferNoSchedule taints as if "
       "they were NoSchedule",
       "golden replay (filter-taint-toleration-operators); generated traces",
       "", ""},
      {M::kUnschedulableTolerationEffect, "unschedulable-toleration-effect",
       "ComputePodFacts (impl/filters.cc)",
       "NodeUnschedulable matches the pod's tolerations against the "
       "unschedulable taint with an empty effect: a toleration naming "
       "effect NoSchedule no longer tolerates a cordoned node",
       "golden replay (filter-node-unschedulable-alone); generated traces", "",
       ""},
      {M::kNominatedEqualPriorityIgnored, "nominated-equal-priority-ignored",
       "Scheduler::CollectNominated",
       "nominated pods of priority equal to the pod's are not counted on "
       "their node during filtering (> instead of >=)",
       "golden replay (nominated-pods-of-equal-priority, random-53)", "", ""},
      {M::kNominatedSelfCounted, "nominated-self-counted",
       "Scheduler::CollectNominated",
       "the pod's own nomination is counted on its nominated node, so it "
       "competes with itself for the node's resources",
       "golden replay (nominated-pods-of-equal-priority); generated traces", "",
       ""},
      {M::kFitErrorLastPluginOnly, "fit-error-last-plugin-only",
       "Scheduler::SchedulingCycle",
       "the FitError's unschedulable plugin set keeps only the plugin that "
       "rejected the last node filtered (= instead of |=)",
       "golden replay (out.result.plugins); generated traces", "", ""},
      {M::kEarlyStopIgnoresOutOfRange, "early-stop-ignores-out-of-range-score",
       "Scheduler::SchedulingCycle",
       "the early-stop scan (first feasible node by score) is used even when "
       "a node's score is outside [0, 100], which must fail the cycle with "
       "an error once two nodes are feasible",
       "golden replay (score-out-of-range); generated traces", "", ""},
      {M::kAffinityMemoStale, "affinity-memo-stale-on-node-update",
       "Scheduler::UpdateSnapshot",
       "a node whose object changed keeps its memoized NodeAffinity "
       "verdicts, so a label change is not seen by pods with a nodeSelector "
       "or required affinity already evaluated on it",
       "golden replay (upstream recordings); generated traces", "", ""},
      // Event handling, heap order and object identity.
      {M::kActiveUpdateNotFixed, "active-update-heap-not-fixed",
       "PriorityQueue::Update",
       "an update of a pod in activeQ swaps its object in place without "
       "fixing the heap, so a priority change does not reorder activeQ",
       "golden replay (update-priority-in-activeq); generated queue traces", "",
       ""},
      {M::kBackoffHeapByTimestamp, "backoff-heap-by-timestamp",
       "PriorityQueue::BackoffLess",
       "backoffQ is ordered by the time a pod entered it instead of by its "
       "backoff expiry, so flushBackoff stops at a pod still backing off "
       "while one behind it (fewer attempts) has expired",
       "golden replay (backoff-cap-not-power-of-two, random-28); no generated "
       "trace",
       "", ""},
      {M::kStatusUpdateSkipsNominator, "status-update-skips-nominator",
       "PriorityQueue::Update",
       "an update of a pod in unschedulablePods that changes only its status "
       "returns early, so a new status.nominatedNodeName never reaches the "
       "nominator",
       "golden replay (state.nominated); generated traces", "", ""},
      {M::kRecreatedPodKeepsTerms, "recreated-pod-keeps-affinity-terms",
       "PriorityQueue::SetPod",
       "an update whose new object has a new uid (the pod re-created under "
       "its name) keeps the old incarnation's required pod-affinity terms, "
       "so AssignedPodAdded/Updated match the old terms",
       "golden replay (affinity-terms-recomputed-for-new-uid); generated "
       "queue traces with recreate_update, rarely",
       "", ""},
      {M::kUpdatePodKeepsRequests, "update-pod-keeps-requests",
       "Cache::UpdatePod",
       "an update of a bound pod staying on its node swaps the stored object "
       "in place and keeps the requests computed when it was added",
       "golden replay (caller-object-accounting); generated cache traces", "",
       ""},
      {M::kCleanupHonoursStaleDeadline, "cleanup-honours-stale-deadline",
       "Cache::CleanupAssumedPods",
       "a superseded deadline entry (an earlier FinishBinding of the pod, or "
       "of an earlier assume, or of a recycled id) still expires the pod",
       "golden replay (cleanup-waits-for-finish-binding, "
       "cleanup-multiple-deadlines, random-47); few generated cache traces",
       "", ""},
      {M::kNodeUpdateNotDirty, "node-update-not-marked-dirty",
       "Cache::UpdateNode",
       "a node update marks the NodeInfo changed only when its zone changes, "
       "so the next cycle's snapshot keeps the old node object (allocatable, "
       "labels, taints, unschedulable) until a pod on it changes",
       "golden replay (scheduler); generated scheduler traces", "", ""},
      {M::kLabelChangeAsTaintEvent, "node-label-change-as-taint-event",
       "NodePropertiesChange (impl/scheduler.cc)",
       "a node label change is sent as an UpdateNodeTaint event (copy-paste), "
       "so pods that failed only NodeUnschedulable move on a label change",
       "golden replay (random-94 only); one hostile generated trace", "", ""},
      {M::kCacheFilterSkipsOtherSchedulers,
       "cache-filter-skips-other-schedulers",
       "Scheduler::ForCache (OnPodAdd, OnPodUpdate, OnPodDelete)",
       "the cache handler's informer filter also requires this scheduler's "
       "name: pods bound by another scheduler use no resources in the cache",
       "golden replay (state.cache.nodes); generated scheduler traces", "", ""},
      {M::kWaitingPodRejectedByName, "waiting-pod-rejected-by-name",
       "Scheduler::DeletePodFromSchedulingQueue",
       "a pod delete rejects the waiting pod with the same key, not the same "
       "uid: deleting a re-created pod rejects the old incarnation's waiting "
       "binding cycle",
       "regression trace pr141255-recreated-uid-while-waiting only; hostile "
       "and perturbed generated traces",
       "", ""},
      {M::kFailureRequeuesPoppedObject, "failure-requeues-popped-object",
       "Scheduler::HandleSchedulingFailure",
       "a failed pod is requeued with the QueuedPodInfo that failed (for "
       "Reserve, Permit and binding failures the assumed copy, nodeName set) "
       "instead of a new PodInfo of the informer's object",
       "golden replay (out.result.node); generated scheduler traces", "", ""},
      {M::kNodeUpdatePrecheckOldNode, "node-update-precheck-old-node",
       "Scheduler::MoveForNode (OnNodeUpdate)",
       "the move request of a node update prechecks pods against the old "
       "node object, so an update that makes a pod fit (more allocatable, a "
       "taint removed) does not move it",
       "golden replay (state.queue); generated scheduler traces", "", ""},
      // --- Binding cycle, cache accounting and impl machinery ----------
      {M::kFinishBindingAtPark, "finish-binding-at-park",
       "Scheduler::RunContinuations, Scheduler::PermitAllow",
       "FinishBinding runs when the binding cycle parks before PreBind "
       "instead of after Bind: a parked pod shows bindingFinished and its "
       "expiry deadline starts early",
       "golden replay (state.cache.bindingFinished)", "", ""},
      {M::kSchedulingFailureRequestsMove, "scheduling-failure-requests-move",
       "Scheduler::SchedulingCycle",
       "a Reserve or Permit failure sends the AssignedPodDelete move request "
       "after ForgetPod, as the binding cycle's failure path does (upstream's "
       "schedulingCycle only forgets)",
       "golden replay (state.queue.moveRequestCycle)", "", ""},
      {M::kSnapshotKeepsDeletedNode, "snapshot-keeps-deleted-node-with-pods",
       "Scheduler::UpdateSnapshot",
       "a node deleted while pods remain (a placeholder NodeInfo) stays in "
       "the snapshot's node map: a pod nominated to it is still placed there",
       "golden replay (out.result.node)", "", ""},
      {M::kActivateSkipsBackoff, "activate-skips-backoff",
       "PriorityQueue::Activate",
       "Activate looks only in unschedulablePods: a pod in backoffQ is not "
       "activated",
       kGolden, "", ""},
      {M::kAddUnschedulableSkipsBackoffCheck,
       "add-unschedulable-skips-backoff-check",
       "PriorityQueue::AddUnschedulableIfNotPresent",
       "the already-present check misses backoffQ: a pod in backoffQ is "
       "re-added (no error) and its entry reset",
       kGolden, "", ""},
      {M::kHeapDeleteNoSiftUp, "heap-delete-no-sift-up",
       "IndexedHeap::Delete (impl/indexed_heap.h)",
       "deleting from the middle of a heap only sifts the moved last item "
       "down, never up: the heap order breaks (activeQ pop order, backoffQ "
       "flush)",
       "golden replay (active-delete-sifts-up); generated traces with large "
       "pools",
       "", ""},
      {M::kPodIdReuseResetsStamp, "pod-id-reuse-resets-stamp", "Cache::PodId",
       "a recycled pod id gets a fresh slot with its stamp back at zero: a "
       "stale deadline of the id's previous pod expires the next one",
       "golden replay (state.cache.assumed)", "", ""},
      {M::kRemoveLeaksExtendedResources, "remove-leaks-extended-resources",
       "Cache::Account",
       "removing a pod from a NodeInfo subtracts cpu, memory and ephemeral "
       "storage but not its extended (scalar) resources",
       "golden replay (state.cache.nodes[].requested)", "", ""},
      {M::kAddNodeResetsPlaceholder, "add-node-resets-placeholder",
       "Cache::AddNode",
       "AddNode over a placeholder NodeInfo (node deleted while pods "
       "remained) starts its Requested from zero: the pods still there use "
       "no resources",
       "golden replay (state.cache.nodes[].requested)", "", ""},
      {M::kZoneMoveKeepsOldZone, "zone-move-keeps-old-zone",
       "Cache::UpdateNode",
       "a node update that changes the zone removes the node from the tree "
       "under the new object's zone, so it stays listed under the old one: "
       "the tree counts it twice",
       "golden replay (scheduler: out.result)", "", ""},
      {M::kConfirmKeepsAssumedNode, "confirm-keeps-assumed-node",
       "Cache::AddPod",
       "AddPod confirming an assumed pod swaps the object into the assumed "
       "pod's NodeInfo entry, also when the informer bound it to another "
       "node",
       "golden replay (state.cache.nodes)", "", ""},
      {M::kDeadlineCompactNotHeapified, "deadline-compact-not-heapified",
       "DeadlineHeap::Compact (impl/deadline_heap.cc)",
       "compacting the deadline heap drops stale entries without restoring "
       "the heap order: cleanup can stop at an unexpired top while an "
       "expired pod sits below",
       "golden replay (expiry-after-many-superseded-deadlines)", "", ""},
      // --- Hostile input, handler corners and output ----------------------
      {M::kStaleResourceVersionIgnored, "stale-resource-version-ignored",
       "Scheduler::UpdatePodInSchedulingQueue",
       "a pod update whose resourceVersion is numerically lower than the old "
       "object's is dropped like a resync (upstream compares for equality "
       "only and processes it)",
       "golden replay (decreasing-resource-version-processed); generated "
       "hostile traces",
       "", ""},
      {M::kUnknownNodeDeleteFatal, "unknown-node-delete-fatal",
       "Scheduler::OnNodeDelete",
       "a node delete that RemoveNode answers with an error (a node the "
       "cache does not hold) exits the scheduler instead of being logged",
       "golden replay (unknown-node-delete-logged); generated hostile "
       "traces",
       "", ""},
      {M::kPlaceholderNodeUpdateJoinsTree, "placeholder-node-update-joins-tree",
       "Cache::UpdateNode",
       "a node update over a placeholder NodeInfo (node deleted while pods "
       "remained) puts the node back in the node tree, so pods are scheduled "
       "on it (upstream: the NodeInfo exists, no addNode)",
       "golden replay", "", ""},
      {M::kQueueFilterNewSchedulerName, "queue-filter-reads-new-scheduler-name",
       "Scheduler::OnPodUpdate",
       "the queue handler's filter judges the old object by the new "
       "object's schedulerName: a pod handed to another scheduler stays "
       "queued, one handed to this scheduler goes through Update",
       "golden replay (scheduler-name-handover)", "", ""},
      {M::kGatedFlagKeptAfterUngate, "gated-flag-kept-after-ungate",
       "PriorityQueue::AddToActiveQ",
       "a QueuedPodInfo's gated flag is only ever set: a pod whose gates "
       "were removed keeps gated=true, so it never backs off and shows "
       "gated in unschedulablePods",
       "golden replay (state.queue.unschedulable[].gated)", "", ""},
      {M::kLeftoverFlushSkipsGated, "leftover-flush-skips-gated-pods",
       "PriorityQueue::FlushUnschedulablePodsLeftover",
       "the leftover flush leaves gated pods out of its move (they would "
       "stay gated anyway), so a flush that finds only gated pods does not "
       "record moveRequestCycle",
       "golden replay (state.queue.moveRequestCycle)", "", ""},
      {M::kNominationMoveKeepsOldNode, "nomination-move-keeps-old-node",
       "PriorityQueue::AddNominatedPodUnlocked",
       "re-nominating a pod (or clearing its nomination) drops only its "
       "pod-to-node entry, not its place in the old node's list: the pod "
       "stays listed under its old node",
       "golden replay (state.nominated)", "", ""},
      {M::kBackoffTimestampNotReset, "backoff-timestamp-not-reset",
       "PriorityQueue::AddUnschedulableIfNotPresent",
       "a failed pod keeps the timestamp it had in activeQ: its backoff is "
       "counted from when it was queued, not from when it failed",
       "golden replay (backoffExpiresAt)", "", ""},
      {M::kBindingFailureReasonUnschedulable,
       "binding-failure-reason-unschedulable",
       "Scheduler::HandleBindingCycleError",
       "a PreBind or Bind failure is reported in the status update with "
       "reason Unschedulable instead of SchedulerError",
       "golden replay (out.statusUpdates)", "", ""},
      {M::kBindingCycleFirstProfile, "binding-cycle-first-profile",
       "Scheduler::SchedulingCycle",
       "the binding cycle is registered under the first profile, not the "
       "pod's: a waiting pod of a second profile is not rejected when it is "
       "deleted",
       "golden replay (second-profile-waiting-pod-deleted)", "", ""},
      // --- Cache answers, handles and output fields ---------------------
      {M::kAssumeExistingPodOk, "assume-existing-pod-ok", "Cache::AssumePod",
       "AssumePod of a pod already in podStates (assumed or added) answers "
       "ok and changes nothing instead of returning an error",
       "golden replay (out.error)", "", ""},
      {M::kFinishBindingUnknownError, "finish-binding-unknown-error",
       "Cache::FinishBinding",
       "FinishBinding of a pod the cache does not hold returns an error "
       "instead of doing nothing",
       "golden replay (out.error)", "", ""},
      {M::kForgetIgnoresNode, "forget-ignores-node", "Cache::ForgetPod",
       "ForgetPod of an assumed pod named on another node forgets it from "
       "the node it was assumed on instead of returning an error",
       "golden replay (out.error, state.cache)", "", ""},
      {M::kUpdateAssumedPodApplied, "update-assumed-pod-applied",
       "Cache::UpdatePod",
       "UpdatePod of an assumed (not yet added) pod is applied as for an "
       "added pod instead of returning an error",
       "golden replay (out.error, state.cache.assumed)", "", ""},
      {M::kUpdatePodNodeChangeError, "update-pod-node-change-error",
       "Cache::UpdatePod",
       "UpdatePod moving an added pod to another node returns an error "
       "instead of exiting (klog.FlushAndExit)",
       "golden replay (out.fatal)", "", ""},
      {M::kRemoveNodeUnknownOk, "remove-node-unknown-ok", "Cache::RemoveNode",
       "RemoveNode of a node the cache does not hold answers ok instead of "
       "an error",
       "golden replay (out.error)", "", ""},
      {M::kCloneDropsPlugins, "clone-drops-plugins",
       "PriorityQueue::CloneHandle (impl/queue_handles.cc)",
       "the new QueuedPodInfo made for the informer's object on a failure "
       "loses the unschedulable plugin set: the pod waits in "
       "unschedulablePods with no plugins",
       "golden replay (state.queue.unschedulable plugins)", "", ""},
      {M::kSkipDeletingPodNoEvent, "skip-deleting-pod-no-event",
       "Scheduler::ScheduleOne",
       "a popped pod being deleted is skipped without its FailedScheduling "
       "event",
       "golden replay (out.events)", "", ""},
      // --- Liveness: lost wake-ups -----------------------------------------
      {M::kHintSkipsTaintRemoval, "hint-skips-taint-removal",
       "TaintTolerationAfterNodeChange (impl/queueing_hints.cc)",
       "TaintToleration's hint answers QueueSkip for every update of an "
       "existing node: a pod a removed taint makes schedulable waits for the "
       "leftover flush",
       "property 11 (no lost wake-up) on generated wake-up traces; golden "
       "replay",
       "", ""},
      {M::kFitDropsNodeRegistration, "fit-drops-node-registration",
       "EventsToRegister (impl/queueing_hints.cc, v1.37)",
       "NodeResourcesFit forgets its Node Add|UpdateNodeAllocatable "
       "registration: a pod a grown or added node makes schedulable waits "
       "for the leftover flush",
       "property 11 (no lost wake-up) on generated wake-up traces; golden "
       "replay",
       "", ""},
      // --- The same liveness bugs in the model ---------------------------
      {M::kModelHintSkipsTaintRemoval, "model-hint-skips-taint-removal",
       "TaintTolerationAfterNodeChange (model/queueing_hints.cc)",
       "the model's TaintToleration hint answers QueueSkip for every update "
       "of an existing node: a pod a removed taint makes schedulable waits "
       "for the leftover flush",
       "property 11 (no lost wake-up) on generated wake-up traces replayed "
       "on the model; golden replay on the model",
       "", "", PlantedIn::kModel},
      {M::kModelFitDropsNodeRegistration, "model-fit-drops-node-registration",
       "EventsToRegister (model/queueing_hints.cc, v1.37)",
       "the model's NodeResourcesFit forgets its Node "
       "Add|UpdateNodeAllocatable registration: a pod a grown or added node "
       "makes schedulable waits for the leftover flush",
       "property 11 (no lost wake-up) on generated wake-up traces replayed "
       "on the model; golden replay on the model",
       "", "", PlantedIn::kModel},
  };
}

#ifdef SCHEDTRACE_MUTANTS
// SCHEDTRACE_MUTANT=<name>; an unknown name is a bad command line (exit 2),
// never a silent "no mutant".
Mutant FromEnvironment() {
  const char* name = std::getenv("SCHEDTRACE_MUTANT");
  if (name == nullptr || *name == '\0' || std::string_view(name) == "none") {
    return Mutant::kNone;
  }
  if (std::optional<Mutant> m = MutantByName(name)) return *m;
  std::fprintf(stderr, "SCHEDTRACE_MUTANT=%s: no such mutant\n", name);
  std::exit(2);
}
#endif

}  // namespace

std::string_view PlantedInName(PlantedIn system) {
  return system == PlantedIn::kModel ? "model" : "impl";
}

const std::vector<MutantInfo>& AllMutants() {
  static const std::vector<MutantInfo>* table =
      new std::vector<MutantInfo>(MakeTable());
  return *table;
}

const MutantInfo& Info(Mutant m) {
  static const MutantInfo kNoneInfo{
      Mutant::kNone, "none", "", "no mutant", "", "", ""};
  const std::vector<MutantInfo>& all = AllMutants();
  const int i = static_cast<int>(m) - 1;
  if (i < 0 || i >= static_cast<int>(all.size())) return kNoneInfo;
  return all[static_cast<size_t>(i)];
}

std::optional<Mutant> MutantByName(std::string_view name) {
  for (const MutantInfo& info : AllMutants()) {
    if (info.name == name) return info.mutant;
  }
  return std::nullopt;
}

#ifdef SCHEDTRACE_MUTANTS
namespace mutants_internal {
Mutant active = FromEnvironment();
}  // namespace mutants_internal

void SetActiveMutant(Mutant m) { mutants_internal::active = m; }
#endif

}  // namespace schedtrace::impl
