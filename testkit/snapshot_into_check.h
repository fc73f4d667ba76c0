// CheckSnapshotInto: whether a System's SnapshotInto writes what its
// Snapshot returns, into a State reused from one step to the next as the
// fuzz targets reuse it, and whether what each step says it touched
// (System::Touched) is all it changed: the snapshot before the step,
// refreshed in that alone (RefreshInto), must be the snapshot after it. The
// test every SnapshotInto and every Touched gets (model and impl).
//
//   State reused = DirtyState();  // what a larger, other trace left behind
//   absl::Status s = CheckSnapshotInto(*sut, trace, reused);
//
// CheckSnapshotIntoEverywhere is that test, whole, for one kind of System:
// model/snapshot_into_test.cc and impl/snapshot_into_test.cc call it.
#ifndef SCHEDTRACE_TESTKIT_SNAPSHOT_INTO_CHECK_H_
#define SCHEDTRACE_TESTKIT_SNAPSHOT_INTO_CHECK_H_

#include <cstddef>
#include <map>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/layered_system.h"
#include "core/state.h"
#include "core/system.h"
#include "core/trace.h"

namespace schedtrace {

// A State no SnapshotInto may let show through: every part engaged, every
// field away from its default, and larger than any golden or generated
// trace's state (more pods, plugins, gated entries, nominations, nodes and
// resources), with keys that sort before, among and after theirs and keys
// longer than a small-string buffer.
State DirtyState();

// Configures `sut` for `trace` and applies its steps, up to the first fatal
// one; after Configure and after every step, SnapshotInto must write what
// Snapshot() returns both into `reused`, which carries over from one check
// to the next (and out, for the caller to carry into another trace), and
// into a fresh copy of DirtyState() (entries only ever reused by entries of
// the same list would not show a field left unassigned). Fails on the first
// disagreement, naming the step, the target and the parts that differ, or
// when `sut` refuses the header or a step.
absl::Status CheckSnapshotInto(System& sut, const Trace& trace, State& reused);

// How much CheckSnapshotIntoEverywhere checked, for the caller to assert on
// (a check over nothing passes).
struct SnapshotIntoCoverage {
  std::map<Layer, int> golden_traces;       // per layer
  std::map<Layer, size_t> generated_steps;  // per layer
  // Of those, the steps of the newest version's traces the system judged.
  std::map<Layer, size_t> newest_steps;
  int carried_traces = 0;
};

// The test every System's SnapshotInto gets, on systems `sut` makes, each
// starting from a DirtyState():
//  1. before Configure;
//  2. every trace under `golden_dir` (FindTraceFiles), each on a fresh system;
//  3. per layer, 40 traces of 80 steps recorded by a system `recorder` makes
//     (even seeds with every informer perturbation at 0.1, every third seed
//     hostile), each on a fresh system, and 20 more as the newest version
//     (KnownUpstreams().back(), which the recorder must judge);
//  4. one system and one State through all of those traces in turn, so each
//     trace starts from what the previous one (often of another layer) left.
// Fails on the first disagreement (CheckSnapshotInto's message, with the
// seed for generated traces), when a golden trace cannot be read, or when a
// layer has no golden trace (a check over nothing would pass).
absl::StatusOr<SnapshotIntoCoverage> CheckSnapshotIntoEverywhere(
    const SystemFactory& sut, const SystemFactory& recorder,
    const std::string& golden_dir);

}  // namespace schedtrace

#endif  // SCHEDTRACE_TESTKIT_SNAPSHOT_INTO_CHECK_H_
