// Delta debugging of failing traces: shrinks a trace to a small one that
// still fails *the same way*.
//
//   FailureOf failure = [&](const Trace& t) -> std::optional<std::string> {
//     auto sut = MakeSut(), ref = MakeReference();
//     DiffResult r = RunDifferential(*ref, *sut, t);  // differential.h
//     return FailureSignature(r.verdict, r.divergence, r.message);
//   };
//   absl::StatusOr<MinimizeResult> m = Minimize(trace, failure);
//   // m->trace: the small trace; m->signature: how it fails.
//
// The caller says what "fails" means by returning a signature (nullopt when
// the candidate does not fail); a candidate counts only when its signature
// equals the original's. FailureSignature makes one from a replay that is
// coarse enough to survive shrinking (verdict, op, where, without list
// indices; or the property that fired).
//
// Shrinking: ddmin over the steps (drop ever smaller chunks while the
// failure stays), then per pod (drop every step that carries or names that
// pod; a q_activate or precheck list just loses the key), then per node;
// repeated until nothing more can go. Steps keep their objects in full (no
// `$ref`s are left to dangle), `t` stays non-decreasing, and expectations
// are dropped (they no longer hold once steps are gone): compare against a
// reference instead, and re-record with WithExpectationsFrom.
//
// A failure predicate that is expected to be deterministic is run at most
// MinimizeOptions::max_runs times.
#ifndef SCHEDTRACE_RUN_MINIMIZE_H_
#define SCHEDTRACE_RUN_MINIMIZE_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/system.h"
#include "core/trace.h"
#include "run/replay.h"

namespace schedtrace {

// How `trace` fails, or nullopt when it does not.
using FailureOf = std::function<std::optional<std::string>(const Trace& trace)>;

struct MinimizeOptions {
  int max_runs = 20000;  // calls of the predicate, the original included
};

struct MinimizeResult {
  Trace trace;            // no expectations
  std::string signature;  // how it (and the original) fails
  int runs = 0;           // calls of the predicate
};

// FailedPrecondition when `trace` does not fail to begin with.
absl::StatusOr<MinimizeResult> Minimize(const Trace& trace,
                                        const FailureOf& failure,
                                        const MinimizeOptions& options = {});

// A signature of a replay's failure that survives shrinking, nullopt for a
// pass or a skip: "FAIL q_pop out.popped", "FAIL property 1 (no pod in two
// queues)", "ERROR schedule_one no reply to" (a child that timed out).
std::optional<std::string> FailureSignature(const TraceResult& result);
// The same from the parts of any result (a DiffResult, for instance:
// run/differential.h); `message` is "file:line: step N (op): ...".
std::optional<std::string> FailureSignature(
    Verdict verdict, const std::optional<Divergence>& divergence,
    const std::string& message);

// `trace` with every step's expectations recorded from `system`; steps from
// the first the system cannot apply on keep none. Stops after a fatal step.
Trace WithExpectationsFrom(System& system, const Trace& trace);

// The building blocks, exposed for tests: the pod keys and node names a
// step carries or names, and the trace without them.
std::vector<std::string> PodsNamed(const Step& step);
std::vector<std::string> NodesNamed(const Step& step);
Trace WithoutPod(const Trace& trace, const std::string& key);
Trace WithoutNode(const Trace& trace, const std::string& name);

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_MINIMIZE_H_
