// Records traces from the step source (run/step_source.h) on a seeded
// choice stream: each step applied to a system, normally the model, and
// what it emitted and showed written as the step's expectations.
//
//   std::unique_ptr<System> model = model::NewSystem();
//   absl::StatusOr<Trace> t = GenerateTrace(Layer::kScheduler, *model,
//                                           {.seed = 7});
//
// The system only records: the source aims its steps by its own informer
// world (what it sent and what the outs imply), never by the system's
// state. A step the system refuses outright (Apply returns an error status,
// hostile mode) is left out of the trace; a fatal step ends it.
#ifndef SCHEDTRACE_RUN_GENERATOR_H_
#define SCHEDTRACE_RUN_GENERATOR_H_

#include "absl/status/statusor.h"
#include "core/system.h"
#include "core/trace.h"
#include "run/gen_options.h"
#include "run/step_source.h"

namespace schedtrace {

// Scheduler-layer traces: informer events for pods and nodes (with the
// perturbations and hostile steps of run/step_source.h), scheduling
// cycles with Reserve and Permit outcomes, Permit decisions for waiting
// pods, binding cycles for parked ones, flushes, and the apiserver's
// confirmation of each bind. Pods and nodes reach the resource corners
// (PodResourceCorners in run/step_source_layers.h: a zero-valued
// extended resource alone, other spellings of a quantity, several extended
// resources, init containers and overhead), as in the cache layer.
absl::StatusOr<Trace> GenerateSchedulerTrace(System& sut,
                                             const GenOptions& options);

// Cache-layer traces: the calls the scheduler and its informer make on the
// cache (assume, finish binding, forget, confirm by add, update, remove),
// nodes coming and going with pods on them, cleanups across the TTL (0 or
// 30 s, chosen by the seed). Valid calls mostly, with the wrong-but-possible
// ones upstream answers with an error mixed in.
absl::StatusOr<Trace> GenerateCacheTrace(System& sut,
                                         const GenOptions& options);

// Queue-layer traces: the PriorityQueue calls the scheduler makes, on a pool
// of min(pods, queue_pool) pods so that keys collide: adds, updates (sometimes
// with a null old object), deletes, pops, q_add_unschedulable only for pods
// popped and not yet given back (cycle "current", or a past cycle),
// activations, move requests from the real clusterEventMap (sometimes with a
// precheck), assigned pods, nominations, flushes, and clock jumps across
// backoff and the 5-minute leftover boundary. One trace in ten
// (GenVariety::huge_backoff) uses a huge podMaxBackoffMs (Go's Duration
// arithmetic wraps: docs/UPSTREAM.md item 29) and then keeps re-popping one
// pod, so its attempts climb past the cap. Its pods carry requests with the
// resource corners too, and updates now and then only respell a quantity.
//
// Every layer reaches the corners of run/step_source.h (names, clocks
// near the top and on the boundaries, fields given empty).
absl::StatusOr<Trace> GenerateQueueTrace(System& sut,
                                         const GenOptions& options);

// The trace of `layer` (one of the three above).
absl::StatusOr<Trace> GenerateTrace(Layer layer, System& sut,
                                    const GenOptions& options);

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_GENERATOR_H_
