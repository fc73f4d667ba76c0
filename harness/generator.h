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
// and bind steps at pods really waiting or parked.
#ifndef SCHEDTRACE_HARNESS_GENERATOR_H_
#define SCHEDTRACE_HARNESS_GENERATOR_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "harness/system.h"
#include "harness/trace.h"

namespace schedtrace {

struct GenOptions {
  uint64_t seed = 1;
  int steps = 60;
  int pods = 7;   // pod names p0..p(pods-1), in two namespaces
  int nodes = 4;  // node names n0..n(nodes-1)
};

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

}  // namespace schedtrace

#endif  // SCHEDTRACE_HARNESS_GENERATOR_H_
