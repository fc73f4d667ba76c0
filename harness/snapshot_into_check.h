// CheckSnapshotInto: whether a System's SnapshotInto writes what its
// Snapshot returns, into a State reused from one step to the next as the
// fuzz targets reuse it; the test every SnapshotInto gets (model and impl).
//
//   State reused = DirtyState();  // what a larger, other trace left behind
//   absl::Status s = CheckSnapshotInto(*sut, trace, reused);
#ifndef SCHEDTRACE_HARNESS_SNAPSHOT_INTO_CHECK_H_
#define SCHEDTRACE_HARNESS_SNAPSHOT_INTO_CHECK_H_

#include "absl/status/status.h"
#include "harness/state.h"
#include "harness/system.h"
#include "harness/trace.h"

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

}  // namespace schedtrace

#endif  // SCHEDTRACE_HARNESS_SNAPSHOT_INTO_CHECK_H_
