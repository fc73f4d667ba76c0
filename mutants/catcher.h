// MutantCatcher: finds out whether, and by what, the harness catches the
// mutant that is active (impl/mutants.h, the planted bugs of
// mutants/patches/, a SCHEDTRACE_MUTANTS build) in the system it is planted
// in: the mutant copy of impl, or of the model (MutantInfo::planted_in).
//
// Two nets, tried in order, each stopping at its first failing trace:
//  1. the golden corpus (every layer; golden/regression first), replayed on
//     that system (impl::NewSystem() or model::NewSystem()) with the
//     properties checker (unknown property violations fail a trace, known
//     upstream ones do not);
//  2. generated traces recorded from the model with no mutant active
//     (run/generator.h, every layer impl implements, fixed seeds): valid
//     ones, half of them with informer perturbations, replayed on that
//     system with the same checker; then hostile ones (sequences the
//     apiserver never sends), on which it must still agree with the
//     recording (properties not required); then a few valid ones with large
//     pools (LargePoolOptions), with the checker.
// Traces are read and generated once per catcher (generated ones only when
// first needed, always with the active mutant switched off for the
// recording) and reused for every mutant, so checking N mutants costs N
// replays, not N recordings.
//
//   MutantCatcher catcher({.golden_dir = "golden"});
//   impl::SetActiveMutant(impl::Mutant::kBackoffOffByOne);
//   CatchResult r = catcher.Catch();
//   if (!r.caught) ...;  // a hole in the harness
//   std::cout << r.by;
//   // "golden/handwritten/queue/backoff-cap-not-power-of-two.jsonl: ..."
#ifndef SCHEDTRACE_MUTANTS_CATCHER_H_
#define SCHEDTRACE_MUTANTS_CATCHER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "core/system.h"
#include "core/trace.h"
#include "impl/mutants.h"
#include "run/replay.h"

namespace schedtrace::mutants {

// A fresh system of the kind `system` names: impl::NewSystem() or
// model::NewSystem() (in the mutants build, the mutant copies).
std::unique_ptr<System> NewSystemOf(impl::PlantedIn system);
// The system the active mutant is planted in (impl when none is active).
impl::PlantedIn ActiveMutantSystem();

// Makes `m` the active mutant (kNone: none) for its lifetime, then puts
// back the one that was active before.
class ScopedMutant {
 public:
  explicit ScopedMutant(impl::Mutant m) : saved_(impl::ActiveMutant()) {
    impl::SetActiveMutant(m);
  }
  ~ScopedMutant() { impl::SetActiveMutant(saved_); }
  ScopedMutant(const ScopedMutant&) = delete;
  ScopedMutant& operator=(const ScopedMutant&) = delete;

 private:
  impl::Mutant saved_;
};

struct CatcherOptions {
  std::string golden_dir;  // the golden/ directory
  int valid_seeds = 40;    // valid generated traces per layer
  int hostile_seeds = 40;  // hostile generated traces per layer
  int steps = 80;          // steps per generated trace
  // Valid traces per layer at a larger scale (LargePoolOptions: 40 pods, 12
  // nodes, 700 steps), tried last: bugs that need deep heaps or many nodes.
  int large_seeds = 2;
};

// What one run over the nets found.
struct CatchResult {
  bool caught = false;
  std::string net;  // "golden" or "generated" (empty when not caught)
  std::string by;   // the trace and the first divergence or violation
  int traces_run = 0;
  int traces_skipped = 0;  // layers impl does not implement
  // Every failing trace, when the run does not stop at the first one.
  std::vector<std::string> failures;
};

class MutantCatcher {
 public:
  explicit MutantCatcher(CatcherOptions options);

  // Reads the golden corpus. Call once.
  absl::Status Load();
  // Records the generated traces from the model with no mutant active (once;
  // Catch calls it the first time the golden corpus misses a mutant).
  absl::Status LoadGenerated();

  // Runs the nets with whatever mutant is active, on the system it is
  // planted in. `stop_at_first` false runs every trace (the no-mutant
  // baseline, which must find nothing).
  CatchResult Catch(bool stop_at_first = true);
  // The same on `system`, whatever the active mutant's (the baseline of the
  // model's copy).
  CatchResult CatchOn(impl::PlantedIn system, bool stop_at_first);

  // Replays only the golden traces under golden/regression/ whose file name
  // starts with one of `prefixes` (comma-separated; each fixed upstream
  // bug's trace must catch its mutant). traces_run 0 means none
  // matched.
  CatchResult CatchWithRegression(const std::string& prefixes) const;

  int golden_count() const { return static_cast<int>(golden_.size()); }
  int generated_count() const { return static_cast<int>(generated_.size()); }

 private:
  // A trace and whether it is hostile (no properties required).
  struct Loaded {
    Trace trace;
    bool hostile = false;
  };

  // One trace replayed on a fresh `system` (with the checker when
  // `properties`); the failure text, or "" when it passed. `skipped` set
  // when the system lacks the layer.
  static std::string RunOne(impl::PlantedIn system, const Trace& trace,
                            bool properties, bool& skipped);
  static void RunAll(impl::PlantedIn system, const std::vector<Loaded>& traces,
                     const char* net, bool stop_at_first, CatchResult& result);

  CatcherOptions options_;
  std::vector<Loaded> golden_;
  std::vector<Loaded> generated_;
  bool generated_loaded_ = false;
};

}  // namespace schedtrace::mutants

#endif  // SCHEDTRACE_MUTANTS_CATCHER_H_
