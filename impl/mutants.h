// The table of planted bugs ("mutants") for the harness self-test
// (docs/MUTANTS.md).
//
// Each Mutant is one real failure mode of a scheduler core — a pod left in two
// queues, an off-by-one in backoff, a lost move request, a cache accounting
// leak — or the old behaviour of an upstream bug fixed before v1.26.7. Most
// are planted in impl; a few in the model (MutantInfo::planted_in), which the
// harness must hold to the same standard. The bugs themselves are not in
// either's code: mutants/patches/FILE.patch plants them in a copy of
// impl/FILE, mutants/patches/model/FILE.patch in a copy of model/FILE, which
// only the mutants build compiles (CMake -DSCHEDTRACE_MUTANTS=ON: libraries
// schedtrace_impl_mutants and schedtrace_model_mutants, CLI
// schedtrace_mutants, test mutants_test, and the fuzz targets of a fuzz build
// with mutants). The copies ask mutants/planted.h whether a mutant is the
// active one.
//
// This header is the part every build sees: the table (`schedtrace mutants`
// lists it in the normal CLI too), MutantsBuild() and ActiveMutant(). In the
// mutants build one mutant at a time is active: set by SetActiveMutant
// (tests) or, if none was set, read once from the environment variable
// SCHEDTRACE_MUTANT=<name> (CLI, fuzz targets, ci/nightly-mutants); elsewhere
// none ever is. The self-test (mutants/) proves that the golden corpus, the
// properties or the generated differential traces catch every one.
#ifndef SCHEDTRACE_IMPL_MUTANTS_H_
#define SCHEDTRACE_IMPL_MUTANTS_H_

#include <optional>
#include <string_view>
#include <vector>

namespace schedtrace::impl {

enum class Mutant {
  kNone = 0,
  // Queue (impl/queue.cc).
  kTwoQueuesOnUpdate,
  kAddLeavesBackoff,
  kActivateLeavesUnschedulable,
  kDeleteMissesBackoff,
  kBackoffOffByOne,
  kBackoffOverflow,
  kBackoffResetAfterIdle,
  kBackoffExpiryInclusive,
  kBackoffExpiryWraps,
  kMoveRequestLost,
  kMoveIgnoresPrecheck,
  kMoveIgnoresBackoff,
  kMoveSkipsPodsWithoutPlugins,
  kMoveRequestCycleNotRecorded,
  kLeftoverFlushInclusive,
  kGatesIgnored,
  kGatedUpdateBackoff,
  kNominationKeptOnDelete,
  kNominateBoundPod,
  kAttemptsNotCounted,
  // Cache (impl/cache.cc).
  kForgetLeaksRequests,
  kPlaceholderKept,
  kAddAssumedDoubleCount,
  kExpireInclusive,
  kRemoveNodeDropsPods,
  kRemovePodKeepsAssumed,
  // Scheduler (impl/scheduler.cc).
  kWaitingPodNotRejected,
  kAssumedPodRequeued,
  kResyncProcessed,
  kTombstoneMishandled,
  kBindFailureNotForgotten,
  kNominationKeptOnFailure,
  kAssumedPodScheduledTwice,
  kRejectedPodMoveNotDeferred,
  kFailureRequeuesDeletedPod,
  // Filters and node choice (impl/filters.cc, impl/scheduler.cc).
  kFitExactRequestRejected,
  kMaxPodsOffByOne,
  kPreferNoScheduleFilters,
  kUnschedulableTolerationEffect,
  kNominatedEqualPriorityIgnored,
  kNominatedSelfCounted,
  kFitErrorLastPluginOnly,
  kEarlyStopIgnoresOutOfRange,
  kAffinityMemoStale,
  // Event handling, heap order and object identity (queue, cache,
  // scheduler).
  kActiveUpdateNotFixed,
  kBackoffHeapByTimestamp,
  kStatusUpdateSkipsNominator,
  kRecreatedPodKeepsTerms,
  kUpdatePodKeepsRequests,
  kCleanupHonoursStaleDeadline,
  kNodeUpdateNotDirty,
  kLabelChangeAsTaintEvent,
  kCacheFilterSkipsOtherSchedulers,
  kWaitingPodRejectedByName,
  kFailureRequeuesPoppedObject,
  kNodeUpdatePrecheckOldNode,
  // Binding cycle, cache accounting and impl machinery.
  kFinishBindingAtPark,
  kSchedulingFailureRequestsMove,
  kSnapshotKeepsDeletedNode,
  kActivateSkipsBackoff,
  kAddUnschedulableSkipsBackoffCheck,
  kHeapDeleteNoSiftUp,
  kPodIdReuseResetsStamp,
  kRemoveLeaksExtendedResources,
  kAddNodeResetsPlaceholder,
  kZoneMoveKeepsOldZone,
  kConfirmKeepsAssumedNode,
  kDeadlineCompactNotHeapified,
  // Hostile input, handler corners and output.
  kStaleResourceVersionIgnored,
  kUnknownNodeDeleteFatal,
  kPlaceholderNodeUpdateJoinsTree,
  kQueueFilterNewSchedulerName,
  kGatedFlagKeptAfterUngate,
  kLeftoverFlushSkipsGated,
  kNominationMoveKeepsOldNode,
  kBackoffTimestampNotReset,
  kBindingFailureReasonUnschedulable,
  kBindingCycleFirstProfile,
  // Cache answers, handles and output fields.
  kAssumeExistingPodOk,
  kFinishBindingUnknownError,
  kForgetIgnoresNode,
  kUpdateAssumedPodApplied,
  kUpdatePodNodeChangeError,
  kRemoveNodeUnknownOk,
  kCloneDropsPlugins,
  kSkipDeletingPodNoEvent,
  // Liveness: lost wake-ups (impl/queueing_hints.cc), for property 11.
  kHintSkipsTaintRemoval,
  kFitDropsNodeRegistration,
  // The same two, planted in the model (model/queueing_hints.cc).
  kModelHintSkipsTaintRemoval,
  kModelFitDropsNodeRegistration,
  kCount,  // not a mutant: the number of enumerators
};

// The system a mutant is planted in: the one its copy library replaces
// (schedtrace_impl_mutants or schedtrace_model_mutants), which the self-test
// replays traces on.
enum class PlantedIn { kImpl, kModel };

// "impl" or "model".
std::string_view PlantedInName(PlantedIn system);

// One row of the table (mutants.cc).
struct MutantInfo {
  Mutant mutant;
  std::string_view name;         // kebab-case, the SCHEDTRACE_MUTANT value
  std::string_view where;        // function the bug is planted in (by
                                 // mutants/patches/)
  std::string_view description;  // the failure mode, one line
  std::string_view caught_by;    // what is expected to catch it
  std::string_view upstream;     // upstream issue/PR whose old behaviour it
                                 // restores ("" for none)
  // File-name prefixes (comma-separated) of its regression traces under
  // golden/regression/ ("" for none).
  std::string_view regression;
  PlantedIn planted_in = PlantedIn::kImpl;
};

// Every mutant, kNone excluded, in enum order.
const std::vector<MutantInfo>& AllMutants();
const MutantInfo& Info(Mutant m);
std::optional<Mutant> MutantByName(std::string_view name);

// Whether this is a mutants build.
constexpr bool MutantsBuild() {
#ifdef SCHEDTRACE_MUTANTS
  return true;
#else
  return false;
#endif
}

#ifdef SCHEDTRACE_MUTANTS
namespace mutants_internal {
extern Mutant active;  // initialized from SCHEDTRACE_MUTANT
}  // namespace mutants_internal

inline Mutant ActiveMutant() { return mutants_internal::active; }
// Tests: makes `m` the active mutant (kNone: none) for everything after.
void SetActiveMutant(Mutant m);
#else
constexpr Mutant ActiveMutant() { return Mutant::kNone; }
#endif

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_MUTANTS_H_
