// The one source of steps: what `schedtrace gen` and `diff --count` record,
// what the RapidCheck tests drive model and impl with (properties/
// rc_choices.h) and what the libFuzzer targets make of their bytes
// (fuzz/decoder.h), per layer. It keeps its own informer world — the objects
// it sent (pods and nodes with their uids and resourceVersions, which pods
// are assigned) and what the scheduler's outputs imply (InformerWorld:
// popped, assumed, waiting, parked) — and never asks a system what is
// valid; every choice it makes it draws from a ChoiceStream
// (run/choice_stream.h), so the same source runs on a seed, on
// RapidCheck's draws (shrinking works on the choices) or on bytes.
//
// Valid steps are what an apiserver and informer could deliver: uids stable
// per pod incarnation, resourceVersion increasing, spec.nodeName set at most
// once, t strictly increasing (with jumps across backoff and the 5-minute
// leftover boundary: ClockSteps in run/gen_options.h).
//
//   std::unique_ptr<StepSource> source = StepSource::New(layer, options);
//   RandomChoices choices(options.seed);
//   TraceHeader header = source->Header(choices);
//   for (int i = 0; i < options.steps; ++i) {
//     Step step = source->Next(choices);
//     StepOut out = *sut.Apply(step);
//     source->Observe(step, out);
//   }
//
// (run/generator.h records that loop into a trace.)
//
// Corners the source reaches by itself (the README's "What generated
// traces reach"), each drawn on the variety stream
// (ChoiceStream::Variety, run/step_source_layers.h): names with '-' and
// '.' whose key and (namespace, name) orders disagree (PoolNames, below),
// clocks that start near the top of the range (StartClock) and land on the
// queue's backoff and leftover-flush boundaries (InformerWorld::
// NextBoundary), node updates that change a node's score, resource corners
// and respelled quantities, fields given empty against absent and updates
// that flip only that. `schedtrace diff --count` adds large pools
// (CountRunOptions, run/gen_options.h).
//
// Informer perturbations (what each sends is written once for every layer,
// run/step_source_perturb.h). Each has its own probability
// in GenOptions::perturb (run/gen_options.h), 0 = off; all are off by
// default, so a seed gives the same trace as before they existed. A
// probability is drawn once per step, only when the kind has a target and
// only when it is not 0: turning one on changes no other perturbation's
// draws' meaning, only the random stream after it. A tombstone aims rather
// at a pod with a stale version, a node_recreate at a node holding pods.
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
// included) and neither may crash.
#ifndef SCHEDTRACE_RUN_STEP_SOURCE_H_
#define SCHEDTRACE_RUN_STEP_SOURCE_H_

#include <memory>
#include <string>
#include <vector>

#include "core/state.h"
#include "core/trace.h"
#include "run/choice_stream.h"
#include "run/gen_options.h"

namespace schedtrace {

class StepSource {
 public:
  // The layer's source (scheduler, cache or queue). See GenerateTrace in
  // run/generator.h for what each layer's steps are.
  static std::unique_ptr<StepSource> New(Layer layer,
                                         const GenOptions& options);
  virtual ~StepSource() = default;

  // The trace's header (drawing its own choices: a second profile, the
  // TTL, a huge backoff). Call once, first.
  virtual TraceHeader Header(ChoiceStream& choices) = 0;
  // The next step.
  virtual Step Next(ChoiceStream& choices) = 0;
  // `step` was applied and gave `out` (not called for a step refused
  // outright, which the trace leaves out).
  virtual void Observe(const Step& step, const StepOut& out) = 0;
  // A copy that goes on on its own from here: the same choices give it the
  // same steps as this source (the fuzz encoder tries choices on copies).
  virtual std::unique_ptr<StepSource> Clone() const = 0;
};

// Building blocks of the perturbations (written once for every layer:
// run/step_source_perturb.h):
//   RecreatedPod    a copy of `pod` as the apiserver creates it again under
//                   the same name: uid "uid-NS-NAME-<incarnation>",
//                   resourceVersion 1, not bound, not nominated.
//   RecreatedNode   a copy of `node` created again: uid "<uid>-<incarnation>".
//   NoOpNodeUpdate  `node` with only its resourceVersion increased (a
//                   node_burst update: nothing the scheduler reads changes).
PodPtr RecreatedPod(const Pod& pod, int incarnation);
NodePtr RecreatedNode(const Node& node, int incarnation);
NodePtr NoOpNodeUpdate(const Node& node);

// The names a source gives the pods and nodes of its pools, a function of
// their pool index. Plain: pod i is "p<i>" in namespace
// "default" for even i and "team" for odd i (the cache layer: "default"
// throughout), node j "n<j>". Corner names (one trace in three, drawn in the
// header on the variety stream): pod i is "p<k/3>" followed by "", "-a" or
// ".b" (k % 3) for k = i / 2, in "default" for even i and "default-x" for
// odd i, so that "default-x/p0" sorts before "default/p0" by key ('-' <
// '/') but after it by (namespace, name), and "p0" is a prefix of "p0-a"
// and "p0.b"; node j "n<j/3>" with the same three endings. Hostile traces
// with corner names have a fourth ending, "_c", which no Kubernetes name
// may have ('_' stays in label keys and values in valid traces).
struct PoolNames {
  Layer layer = Layer::kScheduler;
  bool corners = false;
  bool hostile = false;

  std::string Namespace(int i) const;
  std::string Name(int i) const;
  std::string Key(int i) const { return Namespace(i) + "/" + Name(i); }
  // The uid of pod i's incarnation `n` ("uid-NS-NAME-n"; plain cache-layer
  // pods "uid-pI-n").
  std::string Uid(int i, int n) const;
  std::string Node(int j) const;
};

// The header upstream's recorder uses for the scheduler layer (one profile,
// the spec's plugins, the real clusterEventMap).
TraceHeader SchedulerHeader(const std::string& name);

// The header upstream's queue-layer recordings use (the real
// clusterEventMap, SchedulingGates as PreEnqueue, the `queue-ops`
// nominator lister).
TraceHeader QueueHeader(const std::string& name);

// The clusterEventMap rows of upstream's queue-layer recordings: the node
// and pod events the in-tree filters register. QueueHeader adds the volume
// plugin's rows to them.
std::vector<ClusterEventMapEntry> RecordedQueueEventMap();

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_STEP_SOURCE_H_
