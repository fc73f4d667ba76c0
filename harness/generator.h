// Generates random *valid* scheduler-layer traces — what an apiserver and
// informer could deliver: uids stable per pod incarnation, resourceVersion
// increasing, spec.nodeName set at most once, t strictly increasing (with
// jumps across backoff and the 5-minute leftover boundary) — and records
// each step's expectations from a system, normally the model.
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
// resourceVersions, removals of unknown nodes. Model and impl must agree on
// them (errors and fatal exits included) and neither may crash. A step the
// recording system refuses outright (Apply returns an error status) is left
// out of the trace.
#ifndef SCHEDTRACE_HARNESS_GENERATOR_H_
#define SCHEDTRACE_HARNESS_GENERATOR_H_

#include <cstdint>
#include <string>
#include <string_view>

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

struct GenOptions {
  uint64_t seed = 1;
  int steps = 60;
  int pods = 7;   // pod names p0..p(pods-1), in two namespaces
  int nodes = 4;  // node names n0..n(nodes-1)
  // Queue layer: pods are drawn from the first min(pods, queue_pool), so
  // that keys collide; raise it to grow the heaps past a few levels.
  int queue_pool = 5;
  Perturbations perturb;
  bool hostile = false;
};

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
// backoff and the 5-minute leftover boundary. One trace in ten uses a huge
// podMaxBackoffMs (notes 29: Go's Duration arithmetic wraps) and then
// keeps re-popping one pod, so its attempts climb past the cap.
absl::StatusOr<Trace> GenerateQueueTrace(System& sut,
                                         const GenOptions& options);

// Dispatches on `layer`.
absl::StatusOr<Trace> GenerateTrace(Layer layer, System& sut,
                                    const GenOptions& options);

}  // namespace schedtrace

#endif  // SCHEDTRACE_HARNESS_GENERATOR_H_
