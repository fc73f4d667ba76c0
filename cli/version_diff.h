// What changes between upstream versions on one trace, and why: the logic
// of `schedtrace versions`.
//
// The trace runs on the model under the profile of every version asked for
// (model/upstream.h), side by side, its own expectations ignored. After
// every step each version's out and state (canonical JSON, core/codec.h
// EncodeOut and EncodeState) are compared; the first step where some
// versions disagree is the answer: what each did there, and for each pair
// of adjacent versions (an upgrade) the first step where those two
// disagree, at that step or later (so that an older version's difference
// does not hide a newer upgrade's), and the switches responsible. Those are
// found by running the trace again up to that step on hybrid profiles:
//   1. each switch that differs between the two profiles, flipped alone on
//      top of the older one: a switch that alone reproduces the newer
//      version's out and state there is responsible (kAlone);
//   2. failing that, each two of them flipped together on the older one:
//      the first two (in UpstreamSwitches() order) that reproduce the newer
//      version are responsible together (kTogether; how many other two do
//      it too is counted);
//   3. failing that, each reverted alone from the newer profile: a switch
//      whose reversion gives back the older version's out and state is
//      needed, with others (kNeeded);
//   4. failing that, "a combination of" every switch that differs
//      (kCombination).
// A version that refuses the header is judged there (step 0) with the
// version's own config checks (model::UpstreamFor); the hybrids skip those
// checks, so a difference at the header names no switch (kHeader).
//
//   VersionDiffOptions options;                 // every known version
//   VersionDiff d = CompareVersions(trace, options);
//   if (!d.same) { d.step, d.did, d.changes ... }
//
// Deterministic: versions oldest first, switches in UpstreamSwitches()
// order, differences as run/state_diff.h orders them.
#ifndef SCHEDTRACE_CLI_VERSION_DIFF_H_
#define SCHEDTRACE_CLI_VERSION_DIFF_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/system.h"
#include "core/trace.h"
#include "model/upstream.h"
#include "run/replay.h"

namespace schedtrace::cli {

// What one version did at one step.
struct VersionStep {
  std::string version;
  // The out as canonical JSON; "error: MESSAGE" for a step the system
  // refused; at the header, "" when the version accepted it, else
  // "refused: MESSAGE".
  std::string out;
  std::string state;  // canonical JSON; "" at the header and after an error
  // The same behaviour (the version aside); with `state` false, the same
  // out.
  bool SameAs(const VersionStep& other, bool state = true) const {
    return out == other.out && (!state || this->state == other.state);
  }
};

// Why two adjacent versions differ at the step.
enum class Cause {
  kAlone,        // each of `switches` alone reproduces the newer version
  kTogether,     // the two `switches` together do, neither alone
  kNeeded,       // each of `switches`, reverted alone, gives back the older
  kCombination,  // none of the above: `switches` are all that differ
  kHeader,       // the header: a version's config checks, not searched
  kNoSwitch,     // the profiles differ in no switch
};

struct PairChange {
  std::string older, newer;
  // The first step where these two disagree (VersionDiff's step or later),
  // as VersionDiff names a step, and what each did there.
  int step = 0;
  int line = 0;
  std::string op, summary;
  VersionStep older_did, newer_did;
  // Every difference of out and state, the older version's value as
  // `expected`, the newer's as `actual` (run/state_diff.h).
  std::vector<Difference> differences;
  Cause cause = Cause::kNoSwitch;
  std::vector<const model::UpstreamSwitch*> switches;
  int other_pairs = 0;  // kTogether: other two switches that do it too
};

struct VersionDiff {
  std::vector<std::string> versions;  // compared, oldest first
  // Asked for, but the model does not judge the trace's layer there yet
  // (properties/judged_upstreams.h): not run, oldest first.
  std::vector<std::string> not_judged;
  int steps = 0;      // the trace's
  int steps_run = 0;  // by every version, up to the end or the difference
  bool same = true;   // no step where versions disagree
  // SIGINT or SIGTERM (VersionDiffOptions::keep_going) stopped the
  // comparison before an answer: nothing else here means anything.
  bool interrupted = false;
  // Where every version stopped alike (the same refusal of the header or
  // of a step; `same` stays true), or where they first disagree: the step
  // (1-based; 0 is the header), its line, op and one-line summary
  // (run/step_summary.h), and what each version did there.
  bool stopped = false;
  int step = 0;
  int line = 0;
  std::string op;                // "" at the header
  std::string summary;           // "" at the header
  std::vector<VersionStep> did;  // `versions` order
  // Each pair of adjacent versions that differ at some step, oldest first:
  // VersionDiff's step is the earliest of theirs.
  std::vector<PairChange> changes;
};

// A system on a profile: model::NewSystemOnProfile, or a test's own.
using ProfileSystem =
    std::function<std::unique_ptr<System>(const model::Upstream&)>;

struct VersionDiffOptions {
  // Empty: KnownUpstreams(). Of these, a trace runs on those whose layer
  // the model judges.
  std::vector<std::string> versions;
  ProfileSystem make_system;  // null: model::NewSystemOnProfile
  // Polled before each step of each run; false stops the comparison
  // (VersionDiff::interrupted).
  std::function<bool()> keep_going;
  // Whether versions that emit the same out but hold different states
  // differ (`versions --out-only` says no: what a workload sees, the
  // bindings, results, events and status updates, not the queue's
  // bookkeeping). The differences shown at a step list the state's anyway.
  bool compare_state = true;
};

// `--versions=A,B`: at least `at_least` (two, to compare) known versions,
// each once, given in any order; returned oldest first. An InvalidArgument
// error names a bad one.
absl::StatusOr<std::vector<std::string>> ParseVersionList(std::string_view list,
                                                          size_t at_least = 2);

VersionDiff CompareVersions(const Trace& trace,
                            const VersionDiffOptions& options);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_VERSION_DIFF_H_
