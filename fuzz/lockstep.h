// Runs the model and impl side by side on a decoded fuzz input: the body of
// every differential fuzz target, and of `schedtrace_fuzz_tool run`.
//
// The step driver (run/driver.h) runs the two, its rules for a refused or
// fatal step included (a step both refuse is an agreement and the input
// goes on). After every step: both Apply statuses must agree, both outs
// must be equal, both snapshots must be equal (compared as values first,
// and diffed into a readable divergence only on a mismatch), and — unless
// turned off for hostile input — every property (properties/properties.h)
// must hold on the model's (= impl's) states, through properties/checker.h. A
// violation that upstream itself commits (properties/known_violations.h) is
// counted, not failed.
//
// A layer impl does not implement yet (Configure returns Unimplemented) is
// run on the model alone, properties checked; the same code compares both
// the day impl's Configure succeeds. An input whose version's layer the
// model (RunImplAlone: impl) does not judge yet is skipped, and runs the
// day it does.
//
//   LockstepResult r = RunLockstep(Layer::kScheduler, Mode::kValid, bytes);
//   if (r.failed) { std::cerr << r.signature << "\n" << r.message; abort(); }
#ifndef SCHEDTRACE_FUZZ_LOCKSTEP_H_
#define SCHEDTRACE_FUZZ_LOCKSTEP_H_

#include <map>
#include <string>
#include <string_view>

#include "core/system.h"
#include "fuzz/decoder.h"

namespace schedtrace::fuzz {

struct LockstepResult {
  bool failed = false;
  // Short and stable, for de-duplicating crashes: "out:pod_update",
  // "state:queue.active", "status:q_add_unschedulable", "property:5",
  // "configure".
  std::string signature;
  std::string message;  // what differs, readable
  int steps = 0;
  bool impl_skipped = false;  // impl does not implement the layer yet
  // The first system does not judge the layer of the input's version yet:
  // nothing ran.
  bool skipped = false;
  std::map<std::string, int> known_counts;  // known violation id -> hits
};

// Decodes `data` for `layer` in `mode` and runs it through fresh model and
// impl systems. Properties are checked in Mode::kValid only.
LockstepResult RunLockstep(Layer layer, Mode mode, std::string_view data);

// The same with given systems (tests use a planted bug); `impl` may be null
// (model only).
LockstepResult RunLockstepOn(System& model, System* impl, Layer layer,
                             Mode mode, std::string_view data);

// impl alone on the decoded input, every property checked in Mode::kValid:
// the body of fuzz_scheduler_impl, which runs several times faster than the
// lockstep pair (no model step, no second snapshot). It catches what the
// properties catch; a divergence from the model shows when its inputs are
// replayed in lockstep (ci/nightly-fuzz replays every new input so).
LockstepResult RunImplAlone(Layer layer, Mode mode, std::string_view data);

// What a fuzz target does with a result: nothing when it passed, else
// prints "SCHEDTRACE-FAILURE <signature>" and the message to stderr and
// aborts, so libFuzzer saves the input.
void DieOnFailure(const LockstepResult& result);

}  // namespace schedtrace::fuzz

#endif  // SCHEDTRACE_FUZZ_LOCKSTEP_H_
