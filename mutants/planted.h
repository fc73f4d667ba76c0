// MutantActive: the switch the planted bugs are written with (docs/MUTANTS.md).
//
// Only the mutant copies of impl's files include it: the build
// (SCHEDTRACE_MUTANTS=ON) writes them to <build>/mutants/impl/ by applying
// mutants/patches/FILE.patch to impl/FILE, and compiles them into
// schedtrace_impl_mutants instead of impl's own. A patch turns impl's code
// into the same code with the buggy variant next to the correct one:
//
//   if (MutantActive(Mutant::kTwoQueuesOnUpdate)) {
//     BackoffUpsert(h);  // planted: forgets to leave unschedulablePods
//   } else { ... }
//
// impl itself never includes it (ci/check-layers: impl is below mutants/):
// the production library has no planted branch at all. Which mutant is
// active is impl/mutants.h's ActiveMutant (SetActiveMutant, or
// SCHEDTRACE_MUTANT=<name>).
#ifndef SCHEDTRACE_MUTANTS_PLANTED_H_
#define SCHEDTRACE_MUTANTS_PLANTED_H_

#include "impl/mutants.h"

#ifndef SCHEDTRACE_MUTANTS
#error "mutants/planted.h is for the mutants build (SCHEDTRACE_MUTANTS) only"
#endif

namespace schedtrace::impl {

// Whether `m` is the active mutant: its planted branch runs.
inline bool MutantActive(Mutant m) { return ActiveMutant() == m; }

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_MUTANTS_PLANTED_H_
