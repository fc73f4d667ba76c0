// Generates random *valid* scheduler-layer traces — what an apiserver and
// informer could deliver: uids stable per pod incarnation, resourceVersion
// increasing, spec.nodeName set at most once, t strictly increasing (with
// jumps across backoff and the 5-minute leftover boundary: ClockSteps) — and
// records each step's expectations from a system, normally the model.
//
//   std::unique_ptr<System> model = model::NewSystem();
//   absl::StatusOr<Trace> t = GenerateSchedulerTrace(*model, {.seed = 7});
//
// The system is driven while generating, so the generator can aim permit
// and bind steps at pods really waiting or parked (and q_add_unschedulable
// at pods really popped).
//
// Informer perturbations (issue 7.3). Each has its own probability in
// GenOptions::perturb, 0 = off; all are off by default, so a seed gives the
// same trace as before they existed. A probability is drawn once per step
// (per bind for `race`), and only when it is not 0: turning one on changes
// no other perturbation's draws' meaning, only the random stream after it.
//   resync     an update carrying the object unchanged, same resourceVersion
//              (pod_update, q_update, c_update_pod).
//   race       an update (or delete) of a pod in the middle of its
//              scheduling cycle: queue layer between q_pop and
//              q_add_unschedulable; scheduler layer while it waits on Permit
//              or is parked before PreBind; cache layer while it is assumed.
//   tombstone  a delete carrying a stale object: an older version of the pod
//              (in the scheduler layer wrapped as a tombstone).
//   recreate   delete and create again under one name with a new uid, as two
//              events (delete, then add).
//   recreate_update  the same collapsed into one update whose new object has
//              a new uid (what an informer that missed the delete delivers).
//   node_recreate    a node deleted and created again under the same name
//              while pods remain on it (scheduler and cache layers).
//   node_burst       a burst of 2-5 node updates that change nothing the
//              scheduler reads (only resourceVersion).
// The CLI spells them `--perturb=resync:0.1,race:0.2,...`
// (ParsePerturbations).
//
// Hostile mode (`hostile`, `schedtrace gen --hostile`): sequences the
// apiserver never sends — duplicate adds, updates and deletes of pods never
// added, updates that move a bound pod to another node, decreasing
// resourceVersions, removals of unknown nodes, on GenVariety::hostile_rate of
// the steps. Model and impl must agree on them (errors and fatal exits
// included) and neither may crash. A step the recording system refuses
// outright (Apply returns an error status) is left out of the trace.
#ifndef SCHEDTRACE_HARNESS_GENERATOR_H_
#define SCHEDTRACE_HARNESS_GENERATOR_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/system.h"
#include "harness/trace.h"

namespace schedtrace {

// Probabilities (0..1) of each informer perturbation; see above.
struct Perturbations {
  double resync = 0;
  double race = 0;
  double tombstone = 0;
  double recreate = 0;
  double recreate_update = 0;
  double node_recreate = 0;
  double node_burst = 0;
  bool operator==(const Perturbations&) const = default;
  // Every perturbation with probability p (the CLI's "all:P").
  static Perturbations All(double p) { return {p, p, p, p, p, p, p}; }
};

// Parses "resync:0.1,race:0.2" (names as in Perturbations; "all:P" sets
// every one). An InvalidArgument error names the bad item.
absl::StatusOr<Perturbations> ParsePerturbations(std::string_view spec);

// Building blocks of the perturbations, shared with the RapidCheck state
// machines (properties/rc_stateful.h) so both build them alike:
//   RecreatedPod    a copy of `pod` as the apiserver creates it again under
//                   the same name: uid "uid-NS-NAME-<incarnation>",
//                   resourceVersion 1, not bound, not nominated.
//   RecreatedNode   a copy of `node` created again: uid "<uid>-<incarnation>".
//   NoOpNodeUpdate  `node` with only its resourceVersion increased (a
//                   node_burst update: nothing the scheduler reads changes).
PodPtr RecreatedPod(const Pod& pod, int incarnation);
NodePtr RecreatedNode(const Node& node, int incarnation);
NodePtr NoOpNodeUpdate(const Node& node);

// How far the clock moves between two steps (milliseconds). An ordinary
// step is uniform in [min_ms, max_ms]; a jump, drawn first, replaces it with
// its own probability. Steps never go back: t strictly increases.
struct ClockJump {
  double p = 0;  // 0..1
  int min_ms = 1;
  int max_ms = 1;  // min_ms == max_ms: exactly that, no draw
  bool operator==(const ClockJump&) const = default;
};
struct ClockSteps {
  int min_ms = 100;
  int max_ms = 3000;
  // Queue and scheduler layers: past the 5-minute leftover flush
  // (podMaxInUnschedulablePodsDuration), drawn first; then, failing that,
  // across backoff (1 to 10 s).
  ClockJump flush = {.p = 0.05, .min_ms = 310000, .max_ms = 310000};
  ClockJump backoff = {.p = 0.15, .min_ms = 5000, .max_ms = 20000};
  // Cache layer: across the 30 s assumed-pod TTL.
  ClockJump ttl = {.p = 0.1, .min_ms = 20000, .max_ms = 40000};
  bool operator==(const ClockSteps&) const = default;
};

// How often the generators make the odd-but-valid and the invalid (0..1).
struct GenVariety {
  // With `hostile`: the share of steps that are hostile (all layers).
  double hostile_rate = 0.15;
  // Scheduler layer: a schedule_one whose Reserve fails, a bind whose
  // PreBind fails, a bind whose Bind fails (each drawn on its own).
  double failure_rate = 0.1;
  // Scheduler layer: a trace with "other-scheduler" as a second profile of
  // ours (one pod in ten is scheduled under it).
  double two_profiles = 0.25;
  // Scheduler layer: a node whose TraceScore is outside [0, 100], which
  // fails a cycle that scores it (upstream: RunScorePlugins).
  double bad_score = 0.03;
  // Queue layer: a trace with a huge podMaxBackoffMs (notes 29: Go's
  // Duration arithmetic wraps), re-popping one pod so that its attempts
  // climb past the cap.
  double huge_backoff = 0.1;
  bool operator==(const GenVariety&) const = default;
};

// Everything a generator takes, for every front end (schedtrace gen and
// diff through the flags below, ci/nightly-diff, the RapidCheck tests
// through SCHEDTRACE_GEN, the tests and the mutants' self-test). The
// defaults are what the generators always did: a seed gives the same trace
// as before any field existed.
struct GenOptions {
  uint64_t seed = 1;
  int steps = 60;
  int pods = 7;   // pod names p0..p(pods-1), in two namespaces
  int nodes = 4;  // node names n0..n(nodes-1); the queue layer uses n0..n2
  // Queue layer: pods are drawn from the first min(pods, queue_pool), so
  // that keys collide; raise both to grow the heaps past a few levels.
  int queue_pool = 5;
  Perturbations perturb;
  bool hostile = false;
  ClockSteps clock;
  GenVariety variety;
  bool operator==(const GenOptions&) const = default;
};

// The options as the command line spells them, in the order `--help` lists
// them: `schedtrace gen` and `schedtrace diff` take exactly these
// (cli/gen_flags.h), the RapidCheck tests read them from SCHEDTRACE_GEN.
struct GenFlag {
  std::string_view name;  // without "--": "queue-pool"
  std::string_view help;
  // The value that leaves GenOptions{} as it is ("" for a switch, and for
  // --perturb: none).
  std::string_view default_value;
  bool boolean = false;  // a switch: --hostile
};
const std::vector<GenFlag>& GenFlags();

// `flags` (name without "--", value; "" for a switch), in order, applied to
// `options`: the one parser and validator of the options. An
// InvalidArgument error names the flag and its bad value; a flag that is not
// in GenFlags() is an error too, and so is --hostile-rate without
// --hostile.
absl::StatusOr<GenOptions> ApplyGenFlags(
    const std::vector<std::pair<std::string, std::string>>& flags,
    GenOptions options = {});

// The same from one string, flags as a shell spells them, separated by
// blanks: "--pods=40 --queue-pool=40 --hostile" (what SCHEDTRACE_GEN holds).
absl::StatusOr<GenOptions> ApplyGenFlags(std::string_view flags,
                                         GenOptions options = {});

// Options for a valid trace at a larger scale than the defaults: 700 steps,
// 40 pods (all of them in the queue layer's pool) and 12 nodes, so heaps
// grow past a few levels and a scheduling cycle sees many nodes; even seeds
// add every informer perturbation at 0.05. The differential tests and the
// mutants' self-test use it (impl/scale_differential_test.cc,
// mutants/catcher.h).
GenOptions LargePoolOptions(uint64_t seed);

// The header upstream's recorder uses for the scheduler layer (one profile,
// the spec's plugins, the real clusterEventMap).
TraceHeader SchedulerHeader(const std::string& name);

absl::StatusOr<Trace> GenerateSchedulerTrace(System& sut,
                                             const GenOptions& options);

// Cache-layer traces: the calls the scheduler and its informer make on the
// cache (assume, finish binding, forget, confirm by add, update, remove),
// nodes coming and going with pods on them, cleanups across the TTL (0 or
// 30 s, chosen by the seed). Valid calls mostly, with the wrong-but-possible
// ones upstream answers with an error mixed in.
absl::StatusOr<Trace> GenerateCacheTrace(System& sut,
                                         const GenOptions& options);

// The header upstream's queue-layer recordings use (the real
// clusterEventMap, SchedulingGates as PreEnqueue, the `queue-ops`
// nominator lister).
TraceHeader QueueHeader(const std::string& name);

// Queue-layer traces: the PriorityQueue calls the scheduler makes, on a pool
// of min(pods, queue_pool) pods so that keys collide: adds, updates (sometimes
// with a null old object), deletes, pops, q_add_unschedulable only for pods
// popped and not yet given back (cycle "current", or a past cycle),
// activations, move requests from the real clusterEventMap (sometimes with a
// precheck), assigned pods, nominations, flushes, and clock jumps across
// backoff and the 5-minute leftover boundary. One trace in ten
// (GenVariety::huge_backoff) uses a huge podMaxBackoffMs (notes 29: Go's
// Duration arithmetic wraps) and then keeps re-popping one pod, so its
// attempts climb past the cap.
absl::StatusOr<Trace> GenerateQueueTrace(System& sut,
                                         const GenOptions& options);

// Dispatches on `layer`.
absl::StatusOr<Trace> GenerateTrace(Layer layer, System& sut,
                                    const GenOptions& options);

}  // namespace schedtrace

#endif  // SCHEDTRACE_HARNESS_GENERATOR_H_
